//! What every target binary shares: the bodies live in `fuzz-targets`.

use fuzz_targets::Verdict;
use libfuzzer_sys::Corpus;

/// libFuzzer's name for a target's [`Verdict`].
pub fn corpus(verdict: Verdict) -> Corpus {
    match verdict {
        Verdict::Keep => Corpus::Keep,
        Verdict::Reject => Corpus::Reject,
    }
}

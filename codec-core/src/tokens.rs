//! [`TokenCounter`]: what a text costs a model, in its tokenizer's tokens.
//!
//! A response codec exists to save an agent tokens, so the tools around it
//! (a page that compares formats, an `x-markdown-tokens` header, a token
//! budget) need the count of a rendering. The trait is here, beside
//! [`Codec`](crate::Codec), so a codec or a server can take any counter
//! without depending on a tokenizer; [`O200k`] (feature `o200k`) is the
//! exact count of the `o200k_base` encoding.

use std::fmt;

/// Counts the tokens a tokenizer makes of a text.
///
/// A count is exact for the tokenizer [`name`](TokenCounter::name) names:
/// whatever shows or enforces it (a page, a header, a budget) presents it
/// as a count. An estimate is not a `TokenCounter`.
///
/// ```
/// use codec_core::TokenCounter;
///
/// /// A tokenizer whose tokens are bytes.
/// struct Bytes;
///
/// impl TokenCounter for Bytes {
///     fn name(&self) -> &str { "bytes" }
///     fn count(&self, text: &str) -> usize { text.len() }
/// }
///
/// let counter: &dyn TokenCounter = &Bytes;
/// assert_eq!(counter.count("héllo"), 6);
/// ```
pub trait TokenCounter: Send + Sync {
    /// The tokenizer's name as a reader should see it beside a count, such
    /// as `o200k`.
    fn name(&self) -> &str;

    /// The number of tokens of `text`: at most its length in bytes, as
    /// for every byte-level tokenizer (a [`TextLimit`](crate::TextLimit)
    /// relies on it to skip counting texts that are short enough).
    fn count(&self, text: &str) -> usize;

    /// The length in bytes of the longest prefix of `text` that counts at
    /// most `max` tokens, at a char boundary: where a token budget ends.
    ///
    /// The default searches with [`count`](TokenCounter::count) (a binary
    /// search over byte offsets: about `log2(text.len())` counts of
    /// prefixes); a tokenizer that can say where its tokens end overrides
    /// it with one pass, as `O200k` (feature `o200k`) does. Counts of
    /// prefixes are assumed to grow with the prefix, as they do for a
    /// tokenizer whose pieces are found left to right; where they do not,
    /// the result may be short of the longest, never over `max`.
    fn longest_prefix(&self, text: &str, max: usize) -> usize {
        prefix_by_search(self, text, max, text.len())
    }
}

/// The longest prefix of `text[..hi]` that counts at most `max` tokens,
/// found by a binary search over char boundaries.
fn prefix_by_search<C: TokenCounter + ?Sized>(
    counter: &C,
    text: &str,
    max: usize,
    hi: usize,
) -> usize {
    let hi = floor_char_boundary(text, hi);
    if counter.count(&text[..hi]) <= max {
        return hi;
    }
    // `lo` always fits (the empty prefix counts 0); `hi` never does.
    let (mut lo, mut hi) = (0, hi);
    while hi - lo > 1 {
        let mut mid = floor_char_boundary(text, lo + (hi - lo) / 2);
        if mid == lo {
            // `lo` and `hi` are in one char, or at its two ends.
            mid = lo + text[lo..].chars().next().map_or(1, char::len_utf8);
            if mid >= hi {
                break;
            }
        }
        if counter.count(&text[..mid]) <= max {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    lo
}

impl fmt::Debug for dyn TokenCounter + '_ {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TokenCounter")
            .field("name", &self.name())
            .finish()
    }
}

/// The exact token count of OpenAI's `o200k_base` encoding (GPT-4o, GPT-4.1,
/// GPT-5 and the `o` series), by `tiktoken-rs`. Named `o200k`.
///
/// Special-token text such as `<|endoftext|>` is counted as the ordinary
/// text it is in a response body. The vocabulary is embedded in the binary
/// and loaded once per process, by [`O200k::new`]: see the `o200k`
/// feature in `Cargo.toml` for what that costs.
///
/// ```
/// use codec_core::{TokenCounter, tokens::O200k};
///
/// let o200k = O200k::new();
/// assert_eq!(o200k.name(), "o200k");
/// // "hello" and " world".
/// assert_eq!(o200k.count("hello world"), 2);
/// ```
#[cfg(feature = "o200k")]
#[derive(Clone, Copy)]
pub struct O200k {
    bpe: &'static tiktoken_rs::CoreBPE,
}

#[cfg(feature = "o200k")]
impl O200k {
    /// The counter. The first call in a process loads the vocabulary (a
    /// few hundred milliseconds), so a server calls it at start-up, not on
    /// its first request; later calls are free.
    pub fn new() -> O200k {
        O200k {
            // Loads the vocabulary embedded in tiktoken-rs: no file and no
            // network, so it fails only if the crate itself is broken.
            bpe: tiktoken_rs::o200k_base_singleton(),
        }
    }
}

#[cfg(feature = "o200k")]
impl Default for O200k {
    fn default() -> O200k {
        O200k::new()
    }
}

#[cfg(feature = "o200k")]
impl fmt::Debug for O200k {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("O200k")
    }
}

#[cfg(feature = "o200k")]
impl TokenCounter for O200k {
    fn name(&self) -> &str {
        "o200k"
    }

    fn count(&self, text: &str) -> usize {
        self.bpe.count_ordinary(text)
    }

    /// One encoding of a prefix of `text` long enough to hold `max`
    /// tokens and some more (8 bytes a token to start with, doubled until
    /// it does: o200k averages about 4 bytes a token on English text and
    /// markdown tables): the first `max` tokens' bytes end the prefix,
    /// which is then counted on its own (a token that spans a char, or a
    /// piece the cut shortens, can make it count more); only if it does is
    /// the prefix searched for with counts. So finding where a budget ends
    /// costs about twice the budget's text, not the whole text.
    fn longest_prefix(&self, text: &str, max: usize) -> usize {
        // Tokens past `max` that make the piece cut at the window's end
        // unlikely to reach back into the first `max` tokens.
        const SLACK: usize = 64;
        let mut window = max.saturating_mul(8).max(256);
        loop {
            let end = floor_char_boundary(text, window);
            let tokens = self.bpe.encode_ordinary(&text[..end]);
            if end == text.len() && tokens.len() <= max {
                return text.len();
            }
            if end < text.len() && tokens.len() < max.saturating_add(SLACK) {
                window = window.saturating_mul(2);
                continue;
            }
            // Ordinary tokens always decode: they come from this vocabulary.
            let cut = self
                .bpe
                .decode_bytes(&tokens[..max.min(tokens.len())])
                .map_or(0, |b| b.len());
            let cut = floor_char_boundary(text, cut);
            if self.count(&text[..cut]) <= max {
                return cut;
            }
            return prefix_by_search(self, text, max, cut);
        }
    }
}

/// The largest char boundary of `text` at or before `at` (`at` past the
/// end is the end): where a cut at `at` may fall without splitting a
/// character.
pub(crate) fn floor_char_boundary(text: &str, at: usize) -> usize {
    let mut at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

#[cfg(all(test, feature = "o200k"))]
mod tests {
    use super::*;

    /// Pinned counts: empty text, ordinary words, special-token text
    /// (counted as text, not as one special token) and a table header, so
    /// a change of vocabulary or of counting method shows here.
    #[test]
    fn counts_exactly() {
        let o200k = O200k::new();
        let cases: &[(&str, usize)] = &[
            ("", 0),
            ("hello world", 2),
            ("<|endoftext|>", 7),
            ("|id|name|\n|---|---|\n", 10),
        ];
        for (text, expected) in cases {
            assert_eq!(o200k.count(text), *expected, "{text:?}");
        }
        let counter: &dyn TokenCounter = &o200k;
        assert_eq!(format!("{counter:?}"), r#"TokenCounter { name: "o200k" }"#);
    }

    /// The one-pass prefix of `O200k` is the longest, as the default's
    /// search over counts finds it, and never over the budget.
    #[test]
    fn longest_prefixes() {
        /// `O200k`'s counts with the default search.
        struct Searched(O200k);
        impl TokenCounter for Searched {
            fn name(&self) -> &str {
                "searched"
            }
            fn count(&self, text: &str) -> usize {
                self.0.count(text)
            }
        }
        let o200k = O200k::new();
        let texts = [
            "|id|name|\n|---|---|\n|1|ada|\n|2|bob|\n".repeat(20),
            "日本語のテキスト、絵文字😀も。".repeat(10),
            "word ".repeat(300),
        ];
        for text in &texts {
            for max in [0, 1, 7, 50, 120, 10_000] {
                let fast = o200k.longest_prefix(text, max);
                let searched = Searched(o200k).longest_prefix(text, max);
                assert!(text.is_char_boundary(fast), "{max}");
                assert!(o200k.count(&text[..fast]) <= max, "{max}: {fast}");
                assert_eq!(fast, searched, "{max}: {text:?}");
            }
        }
    }
}

//! The bodies of the fuzz targets: plain functions over bytes, which the
//! cargo-fuzz targets of `fuzz/` run on the nightly toolchain and this
//! crate's tests run on every committed input on stable.
//!
//! - [`TARGETS`]: every [`Target`] by name, the order `fuzz/run.sh` runs
//!   them in; each returns a [`Verdict`] (libFuzzer's `Corpus`).
//! - [`json`]: codec-core's JSON parser against serde_json, and its writer
//!   read back.
//! - [`md_parse`], [`md_parse_dense`], [`md_parse_lossless`],
//!   [`md_parse_table`]: each markdown reader on any text, and what it
//!   gives back written and read again.
//! - [`media_type`]: `MediaType` parsing and its canonical text;
//!   [`accept`]: `Accept` negotiation, `ranked` agreeing with `negotiate`.
//! - [`md_round_trip`]: the round trips of codec-md's `SPEC.md` on a value
//!   ([`value_of`]); [`md_structure`]: every profile's rendering read by
//!   comrak and pulldown-cmark; [`html_structure`]: codec-html's page
//!   read by an HTML5 parser.
//! - [`md_stream`]: codec-md's streaming rule on the rows of a value:
//!   the test kit's row checks, and the streams read back.
//!
//! # Design
//!
//! A target panics when a promise breaks, with the input's reading and
//! the output in the message; anything else (an error for bad input
//! included) is a pass. The promises are the documented ones, and the
//! oracles are the crates' own test oracles, included by path below
//! rather than copied: a fuzz target checks exactly what the tests check,
//! on inputs no test author wrote.
//!
//! Time is not checked here: every reader is linear, so libFuzzer's
//! `-timeout` (`fuzz/run.sh`) catches a blow-up as a slow input. Depth
//! is: no reader may give back a value deeper than
//! [`codec_core::value::DEFAULT_MAX_DEPTH`], which is what let an 80 KB dense
//! header overflow the stack when its value was dropped (issue 17).
//!
//! # Example
//!
//! ```
//! use fuzz_targets::{Verdict, TARGETS};
//!
//! // The reproducer of a link injection (issue 17): its rendering holds
//! // no link, so the target passes.
//! let structure = TARGETS.iter().find(|t| t.name == "md_structure").unwrap();
//! assert_eq!((structure.run)(br#"{"k":"[[a]](https://evil.example)"}"#), Verdict::Keep);
//! // Not JSON, though it starts like JSON: outside the target's domain.
//! assert_eq!((structure.run)(b"{\"k\":"), Verdict::Reject);
//! ```
#![deny(missing_docs)]

mod json;
mod negotiation;
mod reading;
mod round_trip;
mod stream;
mod structure;
mod value;

// The crates' test oracles, one definition each (see the module docs).
#[path = "../../codec-html/tests/codec_html/support/mod.rs"]
mod html_oracle;
#[path = "../../codec-md/tests/codec_md/support/mod.rs"]
mod md_oracle;
#[path = "../../negotiate/tests/negotiate/support/mod.rs"]
mod negotiate_stubs;

pub use json::json;
pub use negotiation::{accept, media_type};
pub use reading::{md_parse, md_parse_dense, md_parse_lossless, md_parse_table};
pub use round_trip::md_round_trip;
pub use stream::md_stream;
pub use structure::{html_structure, md_structure};
pub use value::value_of;

/// What a target says of an input it passed: whether it belongs in the
/// corpus. libFuzzer's `Corpus`, without depending on libfuzzer-sys.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// In the target's domain: keep it if it found new coverage.
    Keep,
    /// Outside the target's domain (a value target's input that starts
    /// like JSON and is not JSON): never add it to the corpus.
    Reject,
}

/// A fuzz target: its name (the cargo-fuzz target's, and the directory
/// of its inputs under `fuzz/corpus/` and `fuzz/regressions/`) and its
/// body.
#[derive(Debug, Clone, Copy)]
pub struct Target {
    /// The name.
    pub name: &'static str,
    /// The body: panics when a promise breaks.
    pub run: fn(&[u8]) -> Verdict,
}

/// Every target, cheap ones first.
pub const TARGETS: [Target; 11] = [
    Target {
        name: "json",
        run: json,
    },
    Target {
        name: "media_type",
        run: media_type,
    },
    Target {
        name: "accept",
        run: accept,
    },
    Target {
        name: "md_parse",
        run: md_parse,
    },
    Target {
        name: "md_parse_dense",
        run: md_parse_dense,
    },
    Target {
        name: "md_parse_lossless",
        run: md_parse_lossless,
    },
    Target {
        name: "md_parse_table",
        run: md_parse_table,
    },
    Target {
        name: "md_round_trip",
        run: md_round_trip,
    },
    Target {
        name: "md_structure",
        run: md_structure,
    },
    Target {
        name: "md_stream",
        run: md_stream,
    },
    Target {
        name: "html_structure",
        run: html_structure,
    },
];

//! Every committed fuzz input, replayed through its target on the stable
//! toolchain: the corpora (`fuzz/corpus/TARGET/`: the seeds and what the
//! long runs found, minimized) and the reproducers of past findings
//! (`fuzz/regressions/TARGET/`, listed in `fuzz/regressions/README.md`).
//! So `cargo test` checks them on every run, with or without nightly.

use std::fs;
use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};

use codec_core::{MediaType, value::DEFAULT_MAX_DEPTH};
use codec_md::ParseErrorKind;
use fuzz_targets::{TARGETS, Target, Verdict};

fn fuzz_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz")
}

/// The inputs of `target` under `fuzz/KIND/`, sorted by name.
fn inputs(kind: &str, target: &Target) -> Vec<PathBuf> {
    let dir = fuzz_dir().join(kind).join(target.name);
    let Ok(entries) = fs::read_dir(&dir) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = entries
        .map(|e| e.expect("a directory entry").path())
        .collect();
    files.sort();
    files
}

/// Runs every input of every target under `fuzz/KIND/`; fails with the
/// list of inputs that failed, each with its target's message. Returns
/// how many inputs each target ran, and the inputs it rejected.
fn replay(kind: &str) -> (Vec<(&'static str, usize)>, Vec<PathBuf>) {
    let mut failures = Vec::new();
    let mut counts = Vec::new();
    let mut rejected = Vec::new();
    for target in &TARGETS {
        let files = inputs(kind, target);
        for file in &files {
            let data = fs::read(file).expect("a readable input");
            let run = panic::catch_unwind(AssertUnwindSafe(|| (target.run)(&data)));
            if let Ok(Verdict::Reject) = run {
                rejected.push(file.clone());
            }
            if let Err(payload) = run {
                let message = payload
                    .downcast_ref::<String>()
                    .map(String::as_str)
                    .or_else(|| payload.downcast_ref::<&str>().copied())
                    .unwrap_or("a panic");
                let excerpt: String = message.chars().take(2_000).collect();
                failures.push(format!("{}: {excerpt}", file.display()));
            }
        }
        counts.push((target.name, files.len()));
    }
    assert!(
        failures.is_empty(),
        "{} committed inputs fail:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
    (counts, rejected)
}

#[test]
fn every_corpus_replays() {
    for (target, count) in replay("corpus").0 {
        assert!(count >= 10, "{target}: {count} inputs; run the seeds tool");
    }
}

/// A regression input is in its target's domain: one the target rejects
/// would check nothing.
#[test]
fn every_regression_replays() {
    let (counts, rejected) = replay("regressions");
    let total: usize = counts.iter().map(|(_, n)| n).sum();
    assert!(total >= 15, "{total} regression inputs");
    assert!(rejected.is_empty(), "rejected: {rejected:?}");
}

/// The reproducers of issue 17 are there, and still give what fixed
/// them: each is an input its target would have failed on.
#[test]
fn issue_17_reproducers_hold() {
    let read = |path: &str| {
        fs::read(fuzz_dir().join("regressions").join(path))
            .unwrap_or_else(|e| panic!("regressions/{path}: {e}"))
    };
    let text = |path: &str| String::from_utf8(read(path)).expect("UTF-8");

    // Finding 1: dots in a dense header cell nest no deeper than the limit.
    for path in [
        "md_parse_dense/dense-dots-80k",
        "md_parse_dense/dense-dots-128",
    ] {
        let error = codec_md::parse_dense(&text(path)).unwrap_err();
        assert!(
            matches!(error.kind(), ParseErrorKind::DepthLimit { .. }),
            "{path}: {error}"
        );
        assert_eq!((error.line(), error.column()), (1, 2), "{path}: {error}");
    }
    let at_limit = format!("|{}b|\n|---|\n1|\n", "a.".repeat(DEFAULT_MAX_DEPTH - 2));
    assert!(codec_md::parse_dense(&at_limit).is_ok());

    // Finding 2: nested brackets add no link (the target walks both
    // parsers' trees); the value is the reported one.
    let value = fuzz_targets::value_of(&read("md_structure/nested-brackets-value")).unwrap();
    assert_eq!(value["k"].as_str(), Some("[[a]](https://evil.example)"));
    let markdown = codec_md::render(&value).unwrap();
    assert_eq!(markdown, "- **k**: \\[\\[a]](https\\://evil.example)\n");

    // Finding 6: a bare comma is text.
    let value = fuzz_targets::value_of(&read("md_round_trip/bare-comma-url")).unwrap();
    let back = codec_md::parse(&codec_md::render(&value).unwrap()).unwrap();
    assert_eq!(back, value);

    // Finding 7: a media type with a control character in a quoted-pair
    // is refused, so every media type's text parses back.
    let input = text("media_type/quoted-nul");
    assert!(input.parse::<MediaType>().is_err(), "{input:?}");
}

/// The readers' reproducers of issue 41 are refused where they go wrong,
/// by every reader that reads them, never read with their markup or a
/// cell lost.
#[test]
fn issue_41_reproducers_are_refused() {
    let text = |path: &str| {
        fs::read_to_string(fuzz_dir().join("regressions").join(path))
            .unwrap_or_else(|e| panic!("regressions/{path}: {e}"))
    };
    let expected = |expected| ParseErrorKind::Expected { expected };
    let long_row = ParseErrorKind::CellCount {
        expected: 2,
        found: 3,
    };
    type Reader = fn(&str) -> Result<codec_core::Value, codec_md::ParseError>;
    let cases: &[(&str, Reader, ParseErrorKind, (usize, usize))] = &[
        (
            "md_parse/block-quote-line",
            codec_md::parse,
            expected("a paragraph, not a block quote"),
            (1, 1),
        ),
        (
            "md_parse/thematic-break",
            codec_md::parse,
            expected("a paragraph, not a thematic break"),
            (1, 1),
        ),
        (
            "md_parse/indented-code",
            codec_md::parse,
            expected("a paragraph, not an indented code block"),
            (1, 1),
        ),
        (
            "md_parse/repeated-column",
            codec_md::parse,
            expected("a column name that no earlier column has"),
            (1, 4),
        ),
        (
            "md_parse_lossless/repeated-column",
            codec_md::parse_lossless,
            expected("a column name that no earlier column has"),
            (1, 4),
        ),
        (
            "md_parse_dense/repeated-column",
            codec_md::parse_dense,
            expected("a column name that no earlier column has"),
            (1, 4),
        ),
        (
            "md_parse/long-row",
            codec_md::parse,
            long_row.clone(),
            (3, 7),
        ),
        (
            "md_parse_lossless/long-row",
            codec_md::parse_lossless,
            long_row.clone(),
            (3, 7),
        ),
        (
            "md_parse_dense/long-row",
            codec_md::parse_dense,
            long_row,
            (3, 7),
        ),
    ];
    for (path, read, kind, position) in cases {
        let error = read(&text(path)).unwrap_err();
        assert_eq!(error.kind(), kind, "{path}");
        assert_eq!((error.line(), error.column()), *position, "{path}");
    }
    let error = codec_md::parse_table(&text("md_parse_table/repeated-column")).unwrap_err();
    assert_eq!(
        error.to_string(),
        "line 1, column 4: expected a column name that no earlier column has"
    );
}

//! Every reader honours the JSON parser's depth limit
//! (`codec_core::value::DEFAULT_MAX_DEPTH`, 128, counting the document's own
//! container as JSON does) with a positioned error, and the deepest value
//! each one accepts drops safely.
//!
//! Each case runs on a thread with a tokio worker's 2 MiB stack, named
//! after the case: a reader that builds a value too deep to drop aborts
//! there with "thread '<case>' has overflowed its stack", on inputs that
//! an 8 MiB main thread might survive (issue 17: a dense header of 150,000
//! dots parsed, and dropping its value overflowed).

use codec_core::testkit::nested;
use codec_core::{Value, value::DEFAULT_MAX_DEPTH};
use codec_md::{ParseError, ParseErrorKind};

const LIMIT: usize = DEFAULT_MAX_DEPTH;

/// Runs `f` on a 2 MiB thread named `label`; its result (a value read, or
/// an error) is dropped there too.
fn on_small_stack<T: Send + 'static>(label: &str, f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .name(label.to_owned())
        .stack_size(2 << 20)
        .spawn(f)
        .unwrap()
        .join()
        .unwrap_or_else(|_| panic!("{label} panicked"))
}

type Reader = fn(&str) -> Result<Value, ParseError>;

/// A reader, markdown it reads into a value exactly at the limit, and
/// markdown one level deeper, with its error's position and message.
struct Case {
    label: &'static str,
    reader: Reader,
    at_limit: String,
    past_limit: String,
    position: (usize, usize),
    message: &'static str,
}

fn render(value: &Value, profile: codec_md::Profile) -> String {
    use codec_core::Codec;
    let codec = codec_md::MarkdownCodec::builder().profile(profile).build();
    let mut out = Vec::new();
    codec.encode_value(value, &mut out).unwrap();
    String::from_utf8(out).unwrap()
}

/// `n` arrays, `[[...]]`.
fn brackets(n: usize) -> String {
    format!("{}{}", "[".repeat(n), "]".repeat(n))
}

/// `n` plain h6 sections, each holding the next (no list of their own).
fn h6_sections(n: usize) -> String {
    "###### a\n\n".repeat(n)
}

/// `n` lossless sections, each holding the next: below h6, one closing
/// `#` per level.
fn lossless_sections(n: usize) -> String {
    (1..=n)
        .map(|level| match level {
            1..=6 => format!("{} a\n\n", "#".repeat(level)),
            _ => format!("###### a {}\n\n", "#".repeat(level - 6)),
        })
        .collect()
}

/// A list item holding `list` (a one-item or inline list) after `sections`.
fn list_after(sections: String, list: &str) -> String {
    format!("{sections}- **k**: {list}\n")
}

/// A dense table whose one column is a path of `n` keys.
fn dense_path(n: usize) -> String {
    format!("|{}|\n|---|\n1|\n", vec!["k"; n].join("."))
}

/// Markdown at the limit reads into a value exactly `LIMIT` deep, which
/// drops on the small stack; one level more is a `DepthLimit` error at
/// the construct that goes too deep.
#[test]
fn every_reader_stops_at_the_limit() {
    let cases = vec![
        Case {
            label: "parse: sections",
            reader: codec_md::parse,
            at_limit: render(&nested(LIMIT, true), Default::default()),
            past_limit: h6_sections(LIMIT),
            position: (2 * LIMIT - 1, 1),
            message: "values nested deeper than the limit of 128",
        },
        Case {
            label: "parse: a key's inline list",
            reader: codec_md::parse,
            at_limit: list_after(h6_sections(LIMIT - 2), "x, y"),
            past_limit: list_after(h6_sections(LIMIT - 1), "x, y"),
            position: (2 * LIMIT - 1, 1),
            message: "values nested deeper than the limit of 128",
        },
        Case {
            label: "parse: a section's table",
            reader: codec_md::parse,
            at_limit: format!("{}|x|\n|---|\n|1|\n", h6_sections(LIMIT - 2)),
            past_limit: format!("{}|x|\n|---|\n|1|\n", h6_sections(LIMIT - 1)),
            position: (2 * LIMIT - 1, 1),
            message: "values nested deeper than the limit of 128",
        },
        Case {
            label: "parse_lossless: sections below h6",
            reader: codec_md::parse_lossless,
            at_limit: lossless_sections(LIMIT - 1),
            past_limit: lossless_sections(LIMIT),
            position: (2 * LIMIT - 1, 1),
            message: "values nested deeper than the limit of 128",
        },
        Case {
            label: "parse_lossless: a one-item list",
            reader: codec_md::parse_lossless,
            at_limit: list_after(lossless_sections(LIMIT - 2), "\\[x]"),
            past_limit: list_after(lossless_sections(LIMIT - 1), "\\[x]"),
            position: (2 * LIMIT - 1, 1),
            message: "values nested deeper than the limit of 128",
        },
        Case {
            label: "parse_dense: a column path",
            reader: codec_md::parse_dense,
            at_limit: dense_path(LIMIT - 1),
            past_limit: dense_path(LIMIT),
            position: (1, 2),
            message: "column paths nested deeper than the limit of 128",
        },
        Case {
            label: "parse_dense: a cell's JSON",
            reader: codec_md::parse_dense,
            at_limit: format!("|a|\n|---|\n`{}`|\n", brackets(LIMIT - 2)),
            past_limit: format!("|a|\n|---|\n1|\n`{}`|\n", brackets(LIMIT - 1)),
            position: (4, 1),
            message: "values nested deeper than the limit of 128",
        },
        Case {
            label: "parse_dense: a fenced json block",
            reader: codec_md::parse_dense,
            at_limit: format!("```json\n{}\n```\n", brackets(LIMIT)),
            past_limit: format!("# a\n\n```json\n{}\n```\n", brackets(LIMIT)),
            position: (3, 1),
            message: "values nested deeper than the limit of 128",
        },
        Case {
            label: "parse_dense: JSON too deep in its fence",
            reader: codec_md::parse_dense,
            at_limit: format!("```json\n{}\n```\n", brackets(LIMIT)),
            past_limit: format!("```json\n{}\n```\n", brackets(LIMIT + 1)),
            position: (2, LIMIT + 1),
            message: "values nested deeper than the limit of 128",
        },
        Case {
            label: "parse_dense: the document's JSON paragraph",
            reader: codec_md::parse_dense,
            at_limit: brackets(LIMIT),
            past_limit: brackets(LIMIT + 1),
            position: (1, LIMIT + 1),
            message: "values nested deeper than the limit of 128",
        },
    ];
    for case in cases {
        let Case {
            label,
            reader,
            at_limit,
            past_limit,
            position: (line, column),
            message,
        } = case;
        let depth = on_small_stack(label, move || {
            reader(&at_limit).unwrap_or_else(|e| panic!("{e}")).depth()
        });
        assert_eq!(depth, LIMIT, "{label}: the deepest value it accepts");
        let error = on_small_stack(label, move || reader(&past_limit).unwrap_err());
        assert!(
            matches!(
                error.kind(),
                ParseErrorKind::DepthLimit { limit: LIMIT, .. }
            ),
            "{label}: {error}"
        );
        assert_eq!((error.line(), error.column()), (line, column), "{label}");
        assert_eq!(
            error.to_string(),
            format!("line {line}, column {column}: {message}"),
            "{label}"
        );
    }
}

/// Issue 17, finding 1: dots in a dense header cell built a value 150,000
/// deep; parsing succeeded and dropping it aborted the process. Now the
/// header is refused before anything is built, whatever its length.
///
/// The cases run in a child process (this test, run again with
/// `CODEC_MD_DEPTH_CHILD` set): a stack overflow aborts the process it
/// happens in, so a regression fails this test by name, with the child's
/// "has overflowed its stack", instead of killing the whole test binary.
#[test]
fn a_dense_header_cannot_build_a_deep_value() {
    const NAME: &str = "a_dense_header_cannot_build_a_deep_value";
    if std::env::var_os("CODEC_MD_DEPTH_CHILD").is_none() {
        let output = std::process::Command::new(std::env::current_exe().unwrap())
            .args([NAME, "--exact", "--nocapture", "--test-threads=1"])
            .env("CODEC_MD_DEPTH_CHILD", "1")
            .output()
            .unwrap();
        assert!(
            output.status.success(),
            "the readers failed in a child process ({}):\n{}",
            output.status,
            String::from_utf8_lossy(&output.stderr)
        );
        return;
    }
    for dots in [150_000, 40_000, LIMIT] {
        let markdown = format!("|{}b|\n|---|\n1|\n", "a.".repeat(dots));
        let label = format!("parse_dense: {dots} dots");
        let error = on_small_stack(&label, move || {
            codec_md::parse_dense(&markdown).unwrap_err()
        });
        assert_eq!(
            error.to_string(),
            "line 1, column 2: column paths nested deeper than the limit of 128",
            "{dots} dots"
        );
    }
}

/// `normalize` never returns a value deeper than the limit: a value at the
/// limit whose deepest string would read as a list stays as it is (its
/// rendering does not read back: `parse` reports the limit).
#[test]
fn normalize_stays_within_the_limit() {
    let deepest = nested(LIMIT, true);
    let normal = on_small_stack("normalize: at the limit", move || {
        codec_md::normalize(&deepest).depth()
    });
    assert_eq!(normal, LIMIT);

    let mut value = Value::from("a, b");
    for _ in 0..LIMIT {
        value = Value::Object([("k", value)].into_iter().collect());
    }
    let markdown = codec_md::render(&value).unwrap();
    assert_eq!(codec_md::normalize(&value), value);
    let error = codec_md::parse(&markdown).unwrap_err();
    assert!(
        matches!(error.kind(), ParseErrorKind::DepthLimit { .. }),
        "{error}"
    );
}

/// The other ways to build a value stop at the same limit: the deepest
/// value `from_slice` and `to_value` accept drops on the small stack.
#[test]
fn the_deepest_values_of_codec_core_drop_on_a_small_stack() {
    let depth = on_small_stack("from_slice", || {
        codec_core::from_str(&brackets(LIMIT)).unwrap().depth()
    });
    assert_eq!(depth, LIMIT);
    assert!(codec_core::from_str(&brackets(LIMIT + 1)).is_err());

    #[derive(serde::Serialize)]
    struct Node {
        child: Option<Box<Node>>,
    }
    fn chain(n: usize) -> Node {
        let mut node = Node { child: None };
        for _ in 1..n {
            node = Node {
                child: Some(Box::new(node)),
            };
        }
        node
    }
    let depth = on_small_stack("to_value", || {
        codec_core::to_value(&chain(LIMIT)).unwrap().depth()
    });
    assert_eq!(depth, LIMIT);
    assert!(codec_core::to_value(&chain(LIMIT + 1)).is_err());
}

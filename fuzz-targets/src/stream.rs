//! The `md_stream` target: codec-md's streaming rule (`SPEC.md`,
//! *Streaming*) on any rows.

use codec_core::testkit::CodecTester;
use codec_core::{Value, rows::RowsShape, value::DEFAULT_MAX_DEPTH};
use codec_md::{MarkdownCodec, Profile};

use crate::Verdict;
use crate::value::value_of;

/// The rows of the value of `data` ([`value_of`]): an array's elements,
/// an object's one member's when that is an array, else the value as one
/// row. Streamed by the default and lossless profiles through the test
/// kit's `check_rows`, which panics unless every entry point writes the
/// same bytes, a failure appends cleanly, and uniform rows stream to the
/// buffered rendering byte for byte. Then the lossless stream must read
/// back exactly as the rows' document, and the default one must read.
///
/// # Panics
///
/// When a promise breaks.
///
/// ```
/// use fuzz_targets::{md_stream, Verdict};
///
/// // A table goes on, then a row with a new key starts another, then a
/// // nested row is a section of its own.
/// let rows = br#"{"hits": [{"a": 1}, {"a": "|x|"}, {"b": true}, {"c": [1, {"d": null}]}]}"#;
/// assert_eq!(md_stream(rows), Verdict::Keep);
/// assert_eq!(md_stream(b"[1,"), Verdict::Reject);
/// ```
pub fn md_stream(data: &[u8]) -> Verdict {
    let Some(value) = value_of(data) else {
        return Verdict::Reject;
    };
    let (shape, rows) = match value {
        Value::Array(rows) => (RowsShape::array(), rows),
        Value::Object(map) if map.len() == 1 && map.values().all(|v| v.as_array().is_some()) => {
            let Some((key, Value::Array(rows))) = map.into_iter().next() else {
                return Verdict::Reject;
            };
            (RowsShape::member(key), rows)
        }
        other => (RowsShape::array(), vec![other]),
    };
    let document = shape.document(rows.clone());
    if depth(&document) > DEFAULT_MAX_DEPTH {
        // Refused at the row that is too deep: `check_rows` wants rows
        // that stream.
        return Verdict::Keep;
    }
    let default = CodecTester::new(&MarkdownCodec::new()).check_rows("default", &shape, &rows);
    let lossless = MarkdownCodec::builder().profile(Profile::Lossless).build();
    let exact = CodecTester::new(&lossless).check_rows("lossless", &shape, &rows);

    let text = |bytes: Vec<u8>| String::from_utf8(bytes).expect("markdown is UTF-8");
    let (default, exact) = (text(default), text(exact));
    if let Err(e) = codec_md::parse(&default) {
        panic!("the default stream does not read: {e}\n--- markdown\n{default}");
    }
    match codec_md::parse_lossless(&exact) {
        Ok(back) => assert!(
            back.identical(&document),
            "parse_lossless(stream) != the rows' document\n--- markdown\n{exact}--- read\n{back:?}\n--- document\n{document:?}"
        ),
        Err(e) => panic!("the lossless stream does not read: {e}\n--- markdown\n{exact}"),
    }
    Verdict::Keep
}

/// The depth of `value`'s containers (0 for a scalar).
fn depth(value: &Value) -> usize {
    match value {
        Value::Array(items) => 1 + items.iter().map(depth).max().unwrap_or(0),
        Value::Object(map) => 1 + map.values().map(depth).max().unwrap_or(0),
        _ => 0,
    }
}

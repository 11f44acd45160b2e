//! A test kit for codec authors: runs a codec through every entry point and
//! checks that they agree, with labelled failures.
//!
//! Enable it in `[dev-dependencies]`:
//!
//! ```toml
//! codec-core = { version = "0.1", features = ["testkit"] }
//! ```
//!
//! Every check panics with a message naming the codec, the case label and
//! the entry point that disagreed, showing both outputs, so it reads well
//! in a failing `cargo test`.

use std::io;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;

use serde::Serialize;

use crate::rows::{RowWriter, RowsShape};
use crate::tape::Tape;
use crate::truncate::TextLimit;
use crate::value::{DEFAULT_MAX_DEPTH, Value, to_value};
use crate::{Codec, CodecExt, EncodeError};

/// Runs one codec through every entry point.
///
/// ```
/// # #[cfg(feature = "testkit")] {
/// use codec_core::testkit::CodecTester;
/// # use codec_core::{Codec, EncodeError, MediaType, Value};
/// # struct Debug(MediaType);
/// # impl Codec for Debug {
/// #     fn format(&self) -> &str { "debug" }
/// #     fn media_type(&self) -> &MediaType { &self.0 }
/// #     fn encode_value(&self, v: &Value, out: &mut Vec<u8>) -> Result<(), EncodeError> {
/// #         out.extend_from_slice(format!("{v:?}").as_bytes()); Ok(())
/// #     }
/// # }
/// let codec = Debug(MediaType::from_static("text/plain"));
/// let tester = CodecTester::new(&codec);
/// let bytes = tester.check_serialize("a bool", &true);
/// assert_eq!(bytes, b"Bool(true)");
/// # }
/// ```
#[derive(Debug)]
pub struct CodecTester<'a> {
    codec: &'a dyn Codec,
}

impl<'a> CodecTester<'a> {
    /// A tester for `codec`. It also checks the codec's declared metadata:
    /// a non-empty lower-case format name.
    #[track_caller]
    pub fn new(codec: &'a dyn Codec) -> CodecTester<'a> {
        let format = codec.format();
        assert!(
            crate::is_valid_format_name(format),
            "codec format name {format:?} must be non-empty lower-case ASCII letters, digits or `-`"
        );
        CodecTester { codec }
    }

    /// Encodes `value` through every entry point that takes a `Serialize`
    /// (generic, `&dyn`, `Box<dyn>`, `Arc<dyn>`, writer, and the
    /// [`to_value`] path) and checks they all give the same bytes, twice.
    /// The generic ones take the codec's [`FastPath`](crate::FastPath),
    /// so this checks that it agrees with [`Codec::encode_value`] of
    /// [`to_value`]'s value; [`Codec::encode_tape`] of the value's
    /// [`Tape`] must agree too, whatever the fast path. Returns the bytes.
    #[track_caller]
    pub fn check_serialize<T: Serialize + ?Sized>(&self, label: &str, value: &T) -> Vec<u8> {
        let reference = self.expect_ok(label, "CodecExt::to_vec", self.codec.to_vec(value));
        let normalized = to_value(value)
            .unwrap_or_else(|e| panic!("{}: case {label:?}: to_value failed: {e}", self.name()));
        let via_value = self.check_value(label, &normalized);
        self.same(label, "encode_value(to_value(x))", &reference, &via_value);

        let boxed: Box<&dyn Codec> = Box::new(self.codec);
        let arc: Arc<&dyn Codec> = Arc::new(self.codec);
        let tape = Tape::from_serialize(value)
            .unwrap_or_else(|e| panic!("{}: case {label:?}: no tape: {e}", self.name()));
        let entry_points: [(&str, Result<Vec<u8>, EncodeError>); 7] = [
            ("to_vec again (determinism)", self.codec.to_vec(value)),
            ("encode_tape", {
                let mut out = Vec::new();
                self.codec.encode_tape(&tape, &mut out).map(|()| out)
            }),
            ("encode_value(tape.to_value())", {
                let mut out = Vec::new();
                self.codec
                    .encode_value(&tape.to_value(), &mut out)
                    .map(|()| out)
            }),
            ("Box<dyn Codec>::to_vec", boxed.to_vec(value)),
            ("Arc<dyn Codec>::to_vec", arc.to_vec(value)),
            ("encode_serialize", {
                let mut out = Vec::new();
                self.codec.encode_serialize(&value, &mut out).map(|()| out)
            }),
            ("to_writer", {
                let mut out = Vec::new();
                self.codec.to_writer(value, &mut out).map(|()| out)
            }),
        ];
        for (entry_point, result) in entry_points {
            let bytes = self.expect_ok(label, entry_point, result);
            self.same(label, entry_point, &reference, &bytes);
        }
        let mut prefixed = b"prefix".to_vec();
        let result = self.codec.encode(value, &mut prefixed);
        self.expect_ok(label, "encode into a non-empty buffer", result);
        self.same(
            label,
            "encode appends to the buffer",
            &[b"prefix".as_slice(), &reference].concat(),
            &prefixed,
        );
        reference
    }

    /// Encodes a [`Value`] through [`Codec::encode_value`] (twice),
    /// [`Codec::write_value`] and [`Codec::encode_tape`] of its
    /// [`Tape`], and checks they agree. Returns the bytes.
    #[track_caller]
    pub fn check_value(&self, label: &str, value: &Value) -> Vec<u8> {
        let mut first = Vec::new();
        let result = self.codec.encode_value(value, &mut first);
        self.expect_ok(label, "encode_value", result);
        let mut second = Vec::new();
        let result = self.codec.encode_value(value, &mut second);
        self.expect_ok(label, "encode_value again", result);
        self.same(label, "encode_value again (determinism)", &first, &second);
        let mut written = Vec::new();
        let result = self.codec.write_value(value, &mut written);
        self.expect_ok(label, "write_value", result);
        self.same(label, "write_value", &first, &written);
        if let Ok(tape) = Tape::from_serialize(value) {
            let mut taped = Vec::new();
            let result = self.codec.encode_tape(&tape, &mut taped);
            self.expect_ok(label, "encode_tape", result);
            self.same(label, "encode_tape", &first, &taped);
        }
        if let Ok(text) = std::str::from_utf8(&first) {
            self.check_truncate(label, text);
        }
        first
    }

    /// Cuts `text` (this codec's output) with [`Codec::truncate`] to limits
    /// around its length and checks the hook's contract: a text that fits
    /// comes back unchanged; a cut one keeps a prefix the size its
    /// [`Omission`](crate::truncate::Omission) says, fits a limit that has room for
    /// a note, and is the same through `&dyn`, `Box` and `Arc` and on a
    /// second call. [`CodecTester::check_value`] runs it on every UTF-8
    /// output.
    #[track_caller]
    pub fn check_truncate(&self, label: &str, text: &str) {
        let len = text.chars().count();
        let boxed: Box<&dyn Codec> = Box::new(self.codec);
        let arc: Arc<&dyn Codec> = Arc::new(self.codec);
        let bytes = text.len();
        let limits = [0, 1, 64, 400, len / 2, len.saturating_sub(1), len, len + 1]
            .map(TextLimit::chars)
            .into_iter()
            .chain([64, 400, bytes / 2, bytes.saturating_sub(1), bytes].map(TextLimit::bytes));
        for limit in limits {
            let (max, len) = (limit.max(), limit.measure(text));
            let case = format!("{label} cut to {max} {}", limit.unit());
            let cut = self.codec.truncate(text.to_owned(), &limit);
            for (entry_point, again) in [
                (
                    "truncate again (determinism)",
                    self.codec.truncate(text.to_owned(), &limit),
                ),
                (
                    "Box<dyn Codec>::truncate",
                    boxed.truncate(text.to_owned(), &limit),
                ),
                (
                    "Arc<dyn Codec>::truncate",
                    arc.truncate(text.to_owned(), &limit),
                ),
            ] {
                self.same(
                    &case,
                    entry_point,
                    cut.text.as_bytes(),
                    again.text.as_bytes(),
                );
            }
            let Some(omission) = cut.omitted else {
                assert!(
                    len <= max && cut.text == text,
                    "{}: case {case:?}: a text of size {len} came back changed or uncut:\n{}",
                    self.name(),
                    cut.text
                );
                continue;
            };
            assert!(
                len > max && omission.total == len && omission.kept <= len,
                "{}: case {case:?}: a cut of a text of size {len} reports {omission:?}",
                self.name()
            );
            let kept = &text[..limit.longest_prefix(text, omission.kept)];
            assert!(
                cut.text.starts_with(kept),
                "{}: case {case:?}: the cut does not start with the {} it says it kept:\n{}",
                self.name(),
                omission.kept,
                cut.text
            );
            // Every note fits in 400 chars.
            assert!(
                max < 400 || limit.measure(&cut.text) <= max,
                "{}: case {case:?}: the cut text is longer than the limit:\n{}",
                self.name(),
                cut.text
            );
        }
    }

    /// Checks that encoding `value` fails cleanly (an error, no panic) on
    /// every entry point, and returns the error of `encode_value`.
    #[track_caller]
    pub fn check_value_rejected(&self, label: &str, value: &Value) -> EncodeError {
        let mut out = Vec::new();
        let encoded = catch_unwind(AssertUnwindSafe(|| {
            self.codec.encode_value(value, &mut out)
        }));
        let error = match encoded {
            Ok(Err(e)) => e,
            Ok(Ok(())) => panic!(
                "{}: case {label:?}: encode_value succeeded but should fail; output:\n{}",
                self.name(),
                String::from_utf8_lossy(&out)
            ),
            Err(_) => panic!("{}: case {label:?}: encode_value panicked", self.name()),
        };
        let written = catch_unwind(AssertUnwindSafe(|| {
            self.codec.write_value(value, &mut io::sink())
        }));
        match written {
            Ok(Err(_)) => {}
            Ok(Ok(())) => panic!(
                "{}: case {label:?}: write_value succeeded but encode_value failed",
                self.name()
            ),
            Err(_) => panic!("{}: case {label:?}: write_value panicked", self.name()),
        }
        // A value the tape can hold is rejected from the tape too, with
        // the same error.
        if let Ok(tape) = Tape::from_serialize(value) {
            let taped = catch_unwind(AssertUnwindSafe(|| {
                self.codec.encode_tape(&tape, &mut Vec::new())
            }));
            match taped {
                Ok(Err(e)) => assert_eq!(
                    e.to_string(),
                    error.to_string(),
                    "{}: case {label:?}: encode_tape fails otherwise",
                    self.name()
                ),
                Ok(Ok(())) => panic!(
                    "{}: case {label:?}: encode_tape succeeded but encode_value failed",
                    self.name()
                ),
                Err(_) => panic!("{}: case {label:?}: encode_tape panicked", self.name()),
            }
        }
        error
    }

    /// Checks the depth limit: a value nested one level deeper than
    /// [`DEFAULT_MAX_DEPTH`] (arrays, then objects) is rejected without a
    /// panic or a stack overflow.
    ///
    /// For codecs that recurse into a value, as every built-in one does: a
    /// codec that reads one level and never recurses (one line per item of
    /// an array) has no stack to overflow, may write deep values, and has
    /// no reason to call this.
    #[track_caller]
    pub fn check_depth_limit(&self) {
        for (label, value) in [
            (
                "arrays nested too deep",
                nested(DEFAULT_MAX_DEPTH + 1, false),
            ),
            (
                "objects nested too deep",
                nested(DEFAULT_MAX_DEPTH + 1, true),
            ),
        ] {
            self.check_value_rejected(label, &value);
        }
    }

    /// Writes `rows` as a stream making `shape`'s document, through
    /// [`RowWriter`] (the codec's [`RowEncoder`](crate::rows::RowEncoder), or
    /// the collecting fallback without one), and checks the contract of
    /// [`RowEncoder`](crate::rows::RowEncoder): the same bytes by `row` and
    /// `row_serialize`, with the buffer emptied after every row, through
    /// `Box` and `Arc`, and twice; each row writes something as it comes;
    /// a failure after half the rows appends only to what was written,
    /// without a panic; and the bytes equal the buffered
    /// encoding of [`RowsShape::document`] when the rows are
    /// [uniform](uniform_rows) (and the shape declares no columns, or
    /// their keys), or always when the rows were collected.
    /// Returns the bytes.
    #[track_caller]
    pub fn check_rows(&self, label: &str, shape: &RowsShape, rows: &[Value]) -> Vec<u8> {
        let codec: Arc<dyn Codec + '_> = Arc::new(self.codec);
        let (reference, prefixes) = self.stream_rows(label, Arc::clone(&codec), shape, rows);
        let entry_points: [(&str, Arc<dyn Codec + '_>); 3] = [
            ("rows again (determinism)", Arc::clone(&codec)),
            ("Box<dyn Codec> rows", Arc::new(Box::new(self.codec))),
            ("Arc<dyn Codec> rows", Arc::new(Arc::new(self.codec))),
        ];
        for (entry_point, codec) in entry_points {
            let (bytes, _) = self.stream_rows(label, codec, shape, rows);
            self.same(label, entry_point, &reference, &bytes);
        }

        // Each row into a buffer of its own, as a server sends them.
        let mut writer = RowWriter::new(Arc::clone(&codec), shape);
        let mut sent = Vec::new();
        for row in rows {
            let mut out = Vec::new();
            let result = writer.row_serialize(row, &mut out);
            self.expect_ok(label, "RowWriter::row_serialize", result);
            sent.extend_from_slice(&out);
        }
        let mut out = Vec::new();
        let result = writer.finish(&mut out);
        self.expect_ok(label, "RowWriter::finish", result);
        sent.extend_from_slice(&out);
        self.same(label, "row_serialize, a buffer per row", &reference, &sent);

        // The encoder's own ways in for a `Serialize` row, whichever of
        // them the writer takes (its fast path, or the `dyn` row).
        let ways: [(&str, RowFn); 2] = [
            ("RowEncoder::row_serialize", |encoder, row, out| {
                encoder.row_serialize(row, out)
            }),
            ("RowEncoder::row_tape", |encoder, row, out| {
                encoder.row_tape(&Tape::from_serialize(row)?, out)
            }),
        ];
        for (entry_point, write) in ways {
            let Some(mut encoder) = codec.row_encoder(shape) else {
                break;
            };
            let mut sent = Vec::new();
            for row in rows {
                let result = write(&mut *encoder, row, &mut sent);
                self.expect_ok(label, entry_point, result);
            }
            let result = encoder.finish(&mut sent);
            self.expect_ok(label, "RowEncoder::finish", result);
            self.same(label, entry_point, &reference, &sent);
        }

        if RowWriter::new(Arc::clone(&codec), shape).is_streaming() {
            for (n, pair) in prefixes.windows(2).enumerate() {
                assert!(
                    pair[1].len() > pair[0].len(),
                    "{}: case {label:?}: row {n} wrote nothing: a row encoder writes each row as it comes (a codec that must hold rows has none)",
                    self.name(),
                );
            }
        }

        let half = rows.len() / 2;
        let mut writer = RowWriter::new(Arc::clone(&codec), shape);
        let mut failed = Vec::new();
        for row in &rows[..half] {
            let result = writer.row(row, &mut failed);
            self.expect_ok(label, "RowWriter::row", result);
        }
        let written = failed.len();
        let streaming = writer.is_streaming();
        let outcome = catch_unwind(AssertUnwindSafe(|| {
            writer.fail(&mut failed, "the source failed | **here**");
            failed
        }));
        let Ok(failed) = outcome else {
            panic!("{}: case {label:?}: RowWriter::fail panicked", self.name());
        };
        self.same(
            label,
            "fail after half the rows keeps what was written",
            &prefixes[half][..written.min(prefixes[half].len())],
            &failed[..written],
        );

        let buffered = shape.document(rows.to_vec());
        // Declared columns other than the rows' own keys may be written
        // (a table's header): only the rows' own compare.
        let own_columns = shape.declared_columns().is_none_or(|declared| {
            rows.first()
                .and_then(Value::as_object)
                .is_none_or(|first| first.keys().eq(declared.iter().map(String::as_str)))
        });
        if !streaming || (uniform_rows(rows) && own_columns) {
            let expected = self.check_value(label, &buffered);
            let entry_point = if streaming {
                "rows of a uniform stream against the buffered encoding"
            } else {
                "collected rows against the buffered encoding"
            };
            self.same(label, entry_point, &expected, &reference);
        }
        reference
    }

    /// The bytes of `rows` through `codec`'s row writer, and what had
    /// been written after each number of rows (0 to all).
    #[track_caller]
    fn stream_rows(
        &self,
        label: &str,
        codec: Arc<dyn Codec + '_>,
        shape: &RowsShape,
        rows: &[Value],
    ) -> (Vec<u8>, Vec<Vec<u8>>) {
        let mut writer = RowWriter::new(codec, shape);
        let mut out = Vec::new();
        let mut prefixes = vec![Vec::new()];
        for row in rows {
            let result = writer.row(row, &mut out);
            self.expect_ok(label, "RowWriter::row", result);
            prefixes.push(out.clone());
        }
        let result = writer.finish(&mut out);
        self.expect_ok(label, "RowWriter::finish", result);
        (out, prefixes)
    }

    fn name(&self) -> String {
        format!(
            "codec {:?} ({})",
            self.codec.format(),
            self.codec.media_type()
        )
    }

    #[track_caller]
    fn expect_ok<T>(&self, label: &str, entry_point: &str, result: Result<T, EncodeError>) -> T {
        result.unwrap_or_else(|e| {
            panic!("{}: case {label:?}: {entry_point} failed: {e}", self.name())
        })
    }

    #[track_caller]
    fn same(&self, label: &str, entry_point: &str, expected: &[u8], actual: &[u8]) {
        assert!(
            expected == actual,
            "{}: case {label:?}: {entry_point} disagrees with the reference\n--- reference\n{}\n--- {entry_point}\n{}",
            self.name(),
            String::from_utf8_lossy(expected),
            String::from_utf8_lossy(actual),
        );
    }
}

/// One way of giving a row to a [`RowEncoder`](crate::rows::RowEncoder).
type RowFn = fn(&mut dyn crate::rows::RowEncoder, &Value, &mut Vec<u8>) -> Result<(), EncodeError>;

/// A value nested `depth` levels deep: `[[[...]]]` or `{"a":{"a":...}}`.
pub fn nested(depth: usize, objects: bool) -> Value {
    let mut value = Value::Null;
    for _ in 0..depth {
        value = if objects {
            Value::Object([("a", value)].into_iter().collect())
        } else {
            Value::Array(vec![value])
        };
    }
    value
}

/// Whether `rows` are uniform, as the contract of
/// [`RowEncoder`](crate::rows::RowEncoder) says: every row an object with the
/// same keys in the same order, at least one key, every value a scalar and
/// no string with a line break; no rows at all are uniform too. A
/// codec's streamed bytes of uniform rows equal its buffered encoding of
/// the whole document.
///
/// ```
/// use codec_core::{from_str, testkit::uniform_rows};
///
/// let rows = |json: &str| from_str(json).unwrap().as_array().unwrap().to_vec();
/// assert!(uniform_rows(&rows(r#"[{"a": 1, "b": "x"}, {"a": 2, "b": null}]"#)));
/// assert!(!uniform_rows(&rows(r#"[{"a": 1, "b": "x"}, {"b": "y", "a": 2}]"#)));
/// assert!(!uniform_rows(&rows(r#"[{"a": [1]}]"#)));
/// assert!(!uniform_rows(&rows(r#"[{"a": "x\ny"}]"#)));
/// assert!(uniform_rows(&[]));
/// ```
pub fn uniform_rows(rows: &[Value]) -> bool {
    let Some(first) = rows.first() else {
        return true;
    };
    let Some(first) = first.as_object() else {
        return false;
    };
    !first.is_empty()
        && rows.iter().all(|row| {
            row.as_object().is_some_and(|map| {
                map.len() == first.len()
                    && map.iter().zip(first.keys()).all(|((key, value), column)| {
                        key == column
                            && match value {
                                Value::String(s) => !s.contains('\n'),
                                other => other.is_scalar(),
                            }
                    })
            })
        })
}

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
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;

use serde::Serialize;

use crate::{to_value, Codec, CodecExt, EncodeError, Tape, TextLimit, Value, DEFAULT_MAX_DEPTH};

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
    /// [`Omission`](crate::Omission) says, fits a limit that has room for
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

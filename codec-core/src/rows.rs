//! Rows that arrive one at a time: [`RowsShape`], the document they make;
//! [`RowEncoder`], a codec's incremental writer of them; [`RowWriter`],
//! the one driver every caller uses, which falls back to collecting the
//! rows and encoding them whole, within a bound, for a codec that cannot
//! write them as they come.
//!
//! A service that exports a large table (logs, search results, an audit
//! trail) should not hold all of it before the first byte leaves, nor at
//! all: with a row encoder, a response's memory is its largest row and
//! the chunk being sent, whatever the number of rows.

use std::sync::Arc;

use serde::Serialize;

use crate::codec::{Codec, FastPath};
pub use crate::codec::{RowEncoder, RowsShape};
use crate::error::EncodeError;
use crate::tape::Tape;
use crate::value::{Value, to_value};

/// The bound on what [`RowWriter`] collects for a codec without a
/// [`RowEncoder`] unless set ([`RowWriter::collect_limit`]): 64 MiB of
/// values, as [`footprint`] estimates them.
pub const DEFAULT_COLLECT_LIMIT: usize = 64 * 1024 * 1024;

/// Writes a stream of rows with a codec: incrementally through the
/// codec's [`RowEncoder`] when it has one, else by collecting the rows
/// and encoding the whole document at the end, within a bound.
///
/// ```
/// use std::sync::Arc;
///
/// use codec_core::{from_str, Codec, EncodeError, MediaType, Value, rows::{RowWriter, RowsShape}};
///
/// /// A codec without a row encoder: its rows are collected.
/// struct Count(MediaType);
/// impl Codec for Count {
///     fn format(&self) -> &str { "count" }
///     fn media_type(&self) -> &MediaType { &self.0 }
///     fn encode_value(&self, v: &Value, out: &mut Vec<u8>) -> Result<(), EncodeError> {
///         let n = v.as_array().map_or(0, |rows| rows.len());
///         out.extend_from_slice(n.to_string().as_bytes());
///         Ok(())
///     }
/// }
///
/// let codec: Arc<dyn Codec> = Arc::new(Count(MediaType::from_static("text/plain")));
/// let mut writer = RowWriter::new(codec, &RowsShape::array());
/// assert!(!writer.is_streaming());
/// let mut out = Vec::new();
/// for i in 0..3 {
///     writer.row(&from_str(&format!(r#"{{"id": {i}}}"#)).unwrap(), &mut out).unwrap();
/// }
/// assert!(out.is_empty(), "collected, not yet written");
/// writer.finish(&mut out).unwrap();
/// assert_eq!(out, b"3");
/// ```
pub struct RowWriter<'c> {
    inner: Inner<'c>,
    rows: usize,
}

enum Inner<'c> {
    Streaming(Box<dyn RowEncoder>),
    Collecting(Collect<'c>),
}

/// The fallback: the rows, kept until the end.
struct Collect<'c> {
    codec: Arc<dyn Codec + 'c>,
    shape: RowsShape,
    rows: Vec<Value>,
    /// The estimated bytes of `rows`.
    held: usize,
    limit: usize,
}

impl<'c> RowWriter<'c> {
    /// A writer of rows making `shape`'s document with `codec`: its
    /// [`RowEncoder`] if [`Codec::row_encoder`] gives one, else the
    /// collecting fallback, bounded by [`DEFAULT_COLLECT_LIMIT`].
    pub fn new(codec: Arc<dyn Codec + 'c>, shape: &RowsShape) -> RowWriter<'c> {
        let inner = match codec.row_encoder(shape) {
            Some(encoder) => Inner::Streaming(encoder),
            None => Inner::Collecting(Collect {
                codec,
                shape: shape.clone(),
                rows: Vec::new(),
                held: 0,
                limit: DEFAULT_COLLECT_LIMIT,
            }),
        };
        RowWriter { inner, rows: 0 }
    }

    /// The most bytes of rows the fallback holds, as [`footprint`]
    /// estimates them ([`DEFAULT_COLLECT_LIMIT`] unless set): a row that
    /// would pass it is an [`EncodeError::CollectLimit`]. No effect on a
    /// codec that streams.
    pub fn collect_limit(mut self, bytes: usize) -> RowWriter<'c> {
        if let Inner::Collecting(collect) = &mut self.inner {
            collect.limit = bytes;
        }
        self
    }

    /// Whether the codec writes each row as it comes (`false`: the rows
    /// are collected and written at [`finish`](RowWriter::finish)).
    pub fn is_streaming(&self) -> bool {
        matches!(self.inner, Inner::Streaming(_))
    }

    /// The rows written (or collected) so far.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Appends `row`.
    pub fn row(&mut self, row: &Value, out: &mut Vec<u8>) -> Result<(), EncodeError> {
        match &mut self.inner {
            Inner::Streaming(encoder) => encoder.row(row, out)?,
            Inner::Collecting(collect) => collect.keep(row.clone())?,
        }
        self.rows += 1;
        Ok(())
    }

    /// Appends any `Serialize` row, normalized as [`to_value`] normalizes
    /// (or as the encoder's [`RowEncoder::row_serialize`] writes it, the
    /// same bytes).
    pub fn row_serialize<T: Serialize + ?Sized>(
        &mut self,
        row: &T,
        out: &mut Vec<u8>,
    ) -> Result<(), EncodeError> {
        match &mut self.inner {
            Inner::Streaming(encoder) => match encoder.fast_path() {
                FastPath::Tape => match Tape::try_build(row) {
                    Some(tape) => encoder.row_tape(&tape?, out)?,
                    // More than a tape holds: the tree has no such limit.
                    None => encoder.row(&to_value(row)?, out)?,
                },
                _ => encoder.row_serialize(&row, out)?,
            },
            Inner::Collecting(collect) => collect.keep(to_value(row)?)?,
        }
        self.rows += 1;
        Ok(())
    }

    /// Appends the end of the document: the encoder's end, or the whole
    /// encoding of the collected rows.
    pub fn finish(self, out: &mut Vec<u8>) -> Result<(), EncodeError> {
        match self.inner {
            Inner::Streaming(mut encoder) => encoder.finish(out),
            Inner::Collecting(collect) => collect
                .codec
                .encode_value(&collect.shape.document(collect.rows), out),
        }
    }

    /// The stream failed (its source, or a row the codec could not
    /// write): appends the codec's sign of it ([`RowEncoder::fail`];
    /// nothing for collected rows, which were never written).
    ///
    /// The caller must then end the body so that the client can tell it
    /// is incomplete: an HTTP server aborts it (the chunked encoding never
    /// terminates, or the connection closes before `Content-Length`), a
    /// command exits with an error. The partial document alone is not
    /// enough for every format: a markdown table cut between rows is a
    /// valid table.
    pub fn fail(self, out: &mut Vec<u8>, reason: &str) {
        if let Inner::Streaming(mut encoder) = self.inner {
            encoder.fail(out, reason);
        }
    }
}

impl Collect<'_> {
    fn keep(&mut self, row: Value) -> Result<(), EncodeError> {
        let held = self.held.saturating_add(footprint(&row));
        if held > self.limit {
            return Err(EncodeError::CollectLimit { limit: self.limit });
        }
        self.held = held;
        self.rows.push(row);
        Ok(())
    }
}

impl std::fmt::Debug for RowWriter<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut debug = f.debug_struct("RowWriter");
        debug
            .field("streaming", &self.is_streaming())
            .field("rows", &self.rows);
        if let Inner::Collecting(collect) = &self.inner {
            debug
                .field("codec", &collect.codec.format())
                .field("held", &collect.held)
                .field("limit", &collect.limit);
        }
        debug.finish()
    }
}

/// An estimate of the bytes `value` holds: each node's own size plus its
/// text and its members' keys. An estimate (shared keys are counted per
/// object, allocators round up), for bounds such as
/// [`RowWriter::collect_limit`]; iterative, so no value can overflow the
/// stack.
pub fn footprint(value: &Value) -> usize {
    const NODE: usize = size_of::<Value>();
    let mut bytes = 0usize;
    let mut stack = vec![value];
    while let Some(value) = stack.pop() {
        bytes = bytes.saturating_add(NODE);
        match value {
            Value::String(s) => bytes = bytes.saturating_add(s.len()),
            Value::Number(n) => bytes = bytes.saturating_add(n.to_string().len()),
            Value::Array(items) => stack.extend(items),
            Value::Object(map) => {
                for (key, member) in map {
                    // The key's text and its slot in the map.
                    bytes = bytes.saturating_add(key.len() + 2 * size_of::<usize>());
                    stack.push(member);
                }
            }
            Value::Null | Value::Bool(_) => {}
        }
    }
    bytes
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{MediaType, from_str};

    /// A codec without a row encoder that writes the number of rows.
    struct Count(MediaType);

    impl Codec for Count {
        fn format(&self) -> &str {
            "count"
        }
        fn media_type(&self) -> &MediaType {
            &self.0
        }
        fn encode_value(&self, value: &Value, out: &mut Vec<u8>) -> Result<(), EncodeError> {
            let rows = match value {
                Value::Array(rows) => rows.len(),
                Value::Object(map) => map
                    .iter()
                    .filter_map(|(_, v)| v.as_array())
                    .map(<[Value]>::len)
                    .sum(),
                _ => 0,
            };
            out.extend_from_slice(rows.to_string().as_bytes());
            Ok(())
        }
    }

    fn count() -> Arc<dyn Codec> {
        Arc::new(Count(MediaType::from_static("text/plain")))
    }

    #[test]
    fn collects_within_the_limit_and_fails_past_it() {
        let row = from_str(r#"{"name": "ada"}"#).unwrap();
        let size = footprint(&row);
        let mut writer =
            RowWriter::new(count(), &RowsShape::member("rows")).collect_limit(size * 2);
        let mut out = Vec::new();
        writer.row(&row, &mut out).unwrap();
        writer.row_serialize(&row, &mut out).unwrap();
        assert_eq!(writer.rows(), 2);
        let error = writer.row(&row, &mut out).unwrap_err();
        assert!(
            matches!(error, EncodeError::CollectLimit { limit } if limit == size * 2),
            "{error}"
        );
        assert_eq!(
            error.to_string(),
            format!(
                "the rows to collect for a codec that cannot stream them pass the limit of {} bytes",
                size * 2
            )
        );
        assert_eq!(writer.rows(), 2);
        writer.finish(&mut out).unwrap();
        assert_eq!(out, b"2");
    }

    #[test]
    fn a_failed_collection_writes_nothing() {
        let mut writer = RowWriter::new(count(), &RowsShape::array());
        let mut out = Vec::new();
        writer.row(&Value::Null, &mut out).unwrap();
        writer.fail(&mut out, "the source failed");
        assert!(out.is_empty());
    }

    #[test]
    fn footprints_grow_with_text_and_members() {
        let cases: &[(&str, usize)] = &[
            ("null", 32),
            (r#""abc""#, 35),
            ("12", 34),
            ("[1, 2]", 32 + 2 * 33),
            (r#"{"ab": true}"#, 32 + 2 + 16 + 32),
        ];
        for (json, expected) in cases {
            assert_eq!(footprint(&from_str(json).unwrap()), *expected, "{json}");
        }
        // Deep values need no stack.
        let deep = (0..10_000).fold(Value::Null, |v, _| Value::Array(vec![v]));
        assert!(footprint(&deep) > 10_000 * 32);
    }

    #[test]
    fn shapes_make_their_documents() {
        let rows = vec![Value::from(1)];
        assert_eq!(
            RowsShape::array().document(rows.clone()),
            Value::Array(rows.clone())
        );
        let doc = RowsShape::member("x").columns(["a"]).document(rows);
        assert_eq!(doc, from_str(r#"{"x": [1]}"#).unwrap());
    }

    #[test]
    fn a_column_declared_twice_is_one_column() {
        let shape = RowsShape::array().columns(["b", "a", "b", "c", "a"]);
        assert_eq!(
            shape.declared_columns(),
            Some(&["b", "a", "c"].map(String::from)[..])
        );
    }
}

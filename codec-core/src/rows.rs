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

use crate::{Codec, EncodeError, FastPath, Map, Tape, Value, to_value};

/// The bound on what [`RowWriter`] collects for a codec without a
/// [`RowEncoder`] unless set ([`RowWriter::collect_limit`]): 64 MiB of
/// values, as [`footprint`] estimates them.
pub const DEFAULT_COLLECT_LIMIT: usize = 64 * 1024 * 1024;

/// The document a stream of rows makes, and what the handler knows about
/// its rows.
///
/// The rows are the elements of one array: the whole document
/// ([`RowsShape::array`]), or the array of an object's one member
/// ([`RowsShape::member`]: `{"orders": [...]}`). A codec that writes the
/// rows as they come must write the same document as its buffered
/// encoding of [`RowsShape::document`] whenever the rows are uniform (see
/// [`RowEncoder`]).
///
/// ```
/// use codec_core::{from_str, RowsShape};
///
/// let shape = RowsShape::member("orders").columns(["id", "item"]);
/// assert_eq!(shape.member_key(), Some("orders"));
/// assert_eq!(shape.declared_columns(), Some(&["id".to_owned(), "item".to_owned()][..]));
/// let rows = vec![from_str(r#"{"id": 1, "item": "kettle"}"#).unwrap()];
/// assert_eq!(shape.document(rows), from_str(r#"{"orders": [{"id": 1, "item": "kettle"}]}"#).unwrap());
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RowsShape {
    member: Option<String>,
    columns: Option<Vec<String>>,
}

impl RowsShape {
    /// The rows are the document: a top-level array.
    pub fn array() -> RowsShape {
        RowsShape::default()
    }

    /// The rows are the array of the document's one member, `key`:
    /// `{"key": [rows]}`.
    pub fn member(key: impl Into<String>) -> RowsShape {
        RowsShape {
            member: Some(key.into()),
            columns: None,
        }
    }

    /// The columns the handler declares, in order, for codecs that write
    /// a header before the rows (a markdown table): without them the
    /// codec learns them from the rows. They do not filter or reorder a
    /// row's members: a row keeps every member it has. A column named
    /// twice is kept once, at its first place (a row has one member of a
    /// key, so a table has one column of it).
    pub fn columns<I, S>(self, columns: I) -> RowsShape
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        let mut kept: Vec<String> = Vec::new();
        for column in columns {
            let column = column.into();
            if !kept.contains(&column) {
                kept.push(column);
            }
        }
        RowsShape {
            columns: Some(kept),
            ..self
        }
    }

    /// The member that holds the rows, if the rows are not the document.
    pub fn member_key(&self) -> Option<&str> {
        self.member.as_deref()
    }

    /// The columns the handler declared, if it did.
    pub fn declared_columns(&self) -> Option<&[String]> {
        self.columns.as_deref()
    }

    /// The whole document of `rows`: the array, or the object of its one
    /// member. What a buffered encoding encodes.
    pub fn document(&self, rows: Vec<Value>) -> Value {
        let rows = Value::Array(rows);
        match &self.member {
            None => rows,
            Some(key) => {
                let mut map = Map::with_capacity(1);
                map.insert(key.clone(), rows);
                Value::Object(map)
            }
        }
    }
}

/// A codec's writer of rows as they come, made by
/// [`Codec::row_encoder`] for one stream; callers drive it through
/// [`RowWriter`].
///
/// [`RowWriter`] calls [`row`](RowEncoder::row) (or
/// [`row_serialize`](RowEncoder::row_serialize)) once per row, then
/// either [`finish`](RowEncoder::finish) or, when the stream fails,
/// [`fail`](RowEncoder::fail); nothing after that. Each call appends to
/// `out`, which the caller may have sent and emptied since the last call:
/// an encoder keeps what it needs to know (whether it began, the open
/// table's columns) in itself, never in `out`.
///
/// The contract, which the `testkit` checks
/// (`CodecTester::check_rows`):
///
/// - the bytes depend only on the shape and the rows, not on how `out` was
///   emptied between calls, nor on whether a row came as a [`Value`] or
///   as a `Serialize` type;
/// - rows are written as they come: each row appends something before the
///   next one is asked for (an encoder that must hold rows is no row
///   encoder: return `None` from [`Codec::row_encoder`], and
///   [`RowWriter`] collects them, within its bound);
/// - when the rows are **uniform** (every row an object with the same keys
///   in the same order, at least one key, every value a scalar and no
///   string with a line break; or no rows at all) and the shape declares
///   no columns (or exactly those keys), the bytes equal
///   [`Codec::encode_value`] of [`RowsShape::document`] of the rows;
/// - an error is an [`EncodeError`], never a panic.
pub trait RowEncoder: Send {
    /// Appends the next row to `out`.
    fn row(&mut self, row: &Value, out: &mut Vec<u8>) -> Result<(), EncodeError>;

    /// Appends a `Serialize` row. The default normalizes it through
    /// [`to_value`], as [`Codec::encode_serialize`] does; an override must
    /// give the same bytes.
    fn row_serialize(
        &mut self,
        row: &dyn erased_serde::Serialize,
        out: &mut Vec<u8>,
    ) -> Result<(), EncodeError> {
        self.row(&to_value(row)?, out)
    }

    /// The shortcut [`RowWriter::row_serialize`] may take for rows of a
    /// known type, as [`Codec::fast_path`] is for whole values:
    /// [`FastPath::Tape`] has each row recorded on a [`Tape`] with static
    /// dispatch and given to [`row_tape`](RowEncoder::row_tape) (a row
    /// that reaches [`row_serialize`](RowEncoder::row_serialize) is a
    /// `dyn` value, every field a dynamic call). [`FastPath::None`] unless
    /// overridden; any other is taken as `None`.
    fn fast_path(&self) -> FastPath {
        FastPath::None
    }

    /// Appends the row `tape` recorded: what [`row`](RowEncoder::row)
    /// writes for [`Tape::to_value`], which the default does. An encoder
    /// that declares [`FastPath::Tape`] overrides it to walk the tape
    /// ([`Tape::root`] is a [`ValueView`](crate::ValueView)).
    fn row_tape(&mut self, tape: &Tape, out: &mut Vec<u8>) -> Result<(), EncodeError> {
        self.row(&tape.to_value(), out)
    }

    /// Appends what ends the document after the last row (JSON's `]`; for
    /// no rows at all, the whole encoding of the empty document).
    fn finish(&mut self, out: &mut Vec<u8>) -> Result<(), EncodeError>;

    /// The stream failed after the rows written so far, for `reason`:
    /// appends what tells a reader of the partial document so, where the
    /// format has a way (the markdown codec writes a note). The caller
    /// then ends the body so that the client sees it incomplete (see
    /// [`RowWriter::fail`]). Nothing by default.
    fn fail(&mut self, out: &mut Vec<u8>, reason: &str) {
        let _ = (out, reason);
    }
}

/// Writes a stream of rows with a codec: incrementally through the
/// codec's [`RowEncoder`] when it has one, else by collecting the rows
/// and encoding the whole document at the end, within a bound.
///
/// ```
/// use std::sync::Arc;
///
/// use codec_core::{from_str, Codec, EncodeError, MediaType, RowWriter, RowsShape, Value};
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

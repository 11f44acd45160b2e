//! [`RowsShape`] and [`RowEncoder`]: what a codec that writes rows as
//! they come is given and implements (see [`crate::rows`]).

use super::FastPath;
use crate::error::EncodeError;
use crate::tape::Tape;
use crate::value::{Map, Value, to_value};

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
/// use codec_core::{from_str, rows::RowsShape};
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
/// [`Codec::row_encoder`](crate::Codec::row_encoder) for one stream; callers drive it through
/// [`RowWriter`](crate::rows::RowWriter).
///
/// [`RowWriter`](crate::rows::RowWriter) calls [`row`](RowEncoder::row) (or
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
///   encoder: return `None` from [`Codec::row_encoder`](crate::Codec::row_encoder), and
///   [`RowWriter`](crate::rows::RowWriter) collects them, within its bound);
/// - when the rows are **uniform** (every row an object with the same keys
///   in the same order, at least one key, every value a scalar and no
///   string with a line break; or no rows at all) and the shape declares
///   no columns (or exactly those keys), the bytes equal
///   [`Codec::encode_value`](crate::Codec::encode_value) of [`RowsShape::document`] of the rows;
/// - an error is an [`EncodeError`], never a panic.
pub trait RowEncoder: Send {
    /// Appends the next row to `out`.
    fn row(&mut self, row: &Value, out: &mut Vec<u8>) -> Result<(), EncodeError>;

    /// Appends a `Serialize` row. The default normalizes it through
    /// [`to_value`], as [`Codec::encode_serialize`](crate::Codec::encode_serialize) does; an override must
    /// give the same bytes.
    fn row_serialize(
        &mut self,
        row: &dyn erased_serde::Serialize,
        out: &mut Vec<u8>,
    ) -> Result<(), EncodeError> {
        self.row(&to_value(row)?, out)
    }

    /// The shortcut [`RowWriter::row_serialize`](crate::rows::RowWriter::row_serialize) may take for rows of a
    /// known type, as [`Codec::fast_path`](crate::Codec::fast_path) is for whole values:
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
    /// [`RowWriter::fail`](crate::rows::RowWriter::fail)). Nothing by default.
    fn fail(&mut self, out: &mut Vec<u8>, reason: &str) {
        let _ = (out, reason);
    }
}

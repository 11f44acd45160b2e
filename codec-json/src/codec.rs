//! [`JsonCodec`] and its builder.

use codec_core::{
    Codec, EncodeError, FastPath, MediaType, Value,
    json::{JsonStyle, JsonWriter},
    rows::{RowEncoder, RowsShape},
    tape::Tape,
};
use serde::Serialize;

/// The `application/json` codec.
///
/// ```
/// use codec_core::CodecExt;
/// let pretty = codec_json::JsonCodec::pretty();
/// let body = pretty.to_vec(&[1, 2]).unwrap();
/// assert_eq!(body, b"[\n  1,\n  2\n]");
/// ```
#[derive(Debug, Clone)]
pub struct JsonCodec {
    writer: JsonWriter,
    media_type: MediaType,
}

/// Options of a [`JsonCodec`]; see [`JsonCodec::builder`].
#[derive(Debug, Clone)]
pub struct JsonCodecBuilder {
    pretty: bool,
}

impl JsonCodecBuilder {
    /// Two-space indented output (as `serde_json::to_vec_pretty`) instead of
    /// compact (default off: compact, as `serde_json::to_vec`).
    pub fn pretty(mut self, yes: bool) -> JsonCodecBuilder {
        self.pretty = yes;
        self
    }

    /// The codec. Infallible: no two options contradict each other.
    pub fn build(self) -> JsonCodec {
        JsonCodec {
            writer: if self.pretty {
                JsonWriter::pretty()
            } else {
                JsonWriter::compact()
            },
            media_type: MediaType::from_static("application/json"),
        }
    }
}

impl Default for JsonCodec {
    fn default() -> JsonCodec {
        JsonCodec::new()
    }
}

impl JsonCodec {
    /// Compact JSON, as `serde_json::to_vec`.
    pub fn new() -> JsonCodec {
        JsonCodec::builder().build()
    }

    /// Pretty JSON, as `serde_json::to_vec_pretty`.
    pub fn pretty() -> JsonCodec {
        JsonCodec::builder().pretty(true).build()
    }

    /// The options, starting from the defaults of [`JsonCodec::new`].
    pub fn builder() -> JsonCodecBuilder {
        JsonCodecBuilder { pretty: false }
    }

    /// Appends the JSON of any `Serialize` value to `out`, statically
    /// dispatched (the fastest path).
    pub fn encode<T: Serialize + ?Sized>(
        &self,
        value: &T,
        out: &mut Vec<u8>,
    ) -> Result<(), EncodeError> {
        self.writer.write(value, out)
    }

    /// The JSON of any `Serialize` value, statically dispatched.
    pub fn to_vec<T: Serialize + ?Sized>(&self, value: &T) -> Result<Vec<u8>, EncodeError> {
        let mut out = Vec::with_capacity(128);
        self.encode(value, &mut out)?;
        Ok(out)
    }

    /// The JSON of a [`Value`], in its own key order.
    pub fn value_to_vec(&self, value: &Value) -> Result<Vec<u8>, EncodeError> {
        let mut out = Vec::with_capacity(128);
        self.encode_value(value, &mut out)?;
        Ok(out)
    }
}

impl Codec for JsonCodec {
    fn format(&self) -> &str {
        "json"
    }

    fn media_type(&self) -> &MediaType {
        &self.media_type
    }

    fn encode_value(&self, value: &Value, out: &mut Vec<u8>) -> Result<(), EncodeError> {
        self.writer.write_value(value, out)
    }

    /// Its writer's [`write`](JsonWriter::write): the generic helpers of
    /// [`CodecExt`](codec_core::CodecExt) call it for the value's type, so
    /// `dyn Codec` costs what a concrete `JsonCodec` does.
    fn fast_path(&self) -> FastPath {
        FastPath::Json(self.writer)
    }

    /// The tape's value, as [`Codec::encode_value`] writes it.
    fn encode_tape(&self, tape: &Tape, out: &mut Vec<u8>) -> Result<(), EncodeError> {
        self.writer.write_view(tape.root(), out)
    }

    /// The array, a row at a time: `[` before the first row, `,` between
    /// rows, `]` at the end (inside `{"key":` and `}` for a member), the
    /// bytes of the buffered encoding for any rows. A failed stream is
    /// left unterminated, which no JSON parser accepts.
    fn row_encoder(&self, shape: &RowsShape) -> Option<Box<dyn RowEncoder>> {
        Some(Box::new(JsonRows {
            writer: self.writer,
            member: shape.member_key().map(str::to_owned),
            rows: 0,
        }))
    }
}

/// [`JsonCodec`]'s [`RowEncoder`]: the document's opening before the first
/// row, each row written by the codec's writer at its depth (so pretty
/// rows are indented as in the whole document, and the depth limit counts
/// the containers around them), the closing at the end.
struct JsonRows {
    writer: JsonWriter,
    member: Option<String>,
    rows: usize,
}

impl JsonRows {
    /// The containers around a row: the array, and the member's object.
    fn level(&self) -> usize {
        1 + usize::from(self.member.is_some())
    }

    /// `{"key":` (pretty: `{\n  "key": `) and `[`.
    fn open(&self, out: &mut Vec<u8>) {
        if let Some(key) = &self.member {
            out.push(b'{');
            self.newline(out, 1);
            self.writer.write_str(key, out);
            out.extend_from_slice(match self.writer.style() {
                JsonStyle::Pretty => b": ",
                _ => b":",
            });
        }
        out.push(b'[');
    }

    /// In the pretty style, a line break and `level` indents: what
    /// `JsonStyle` writes between items.
    fn newline(&self, out: &mut Vec<u8>, level: usize) {
        if self.writer.style() == JsonStyle::Pretty {
            out.push(b'\n');
            out.resize(out.len() + 2 * level, b' ');
        }
    }

    /// What comes before the next row.
    fn before_row(&mut self, out: &mut Vec<u8>) {
        if self.rows == 0 {
            self.open(out);
        } else {
            out.push(b',');
        }
        self.newline(out, self.level());
        self.rows += 1;
    }
}

impl RowEncoder for JsonRows {
    fn row(&mut self, row: &Value, out: &mut Vec<u8>) -> Result<(), EncodeError> {
        self.before_row(out);
        self.writer.inside(self.level()).write_value(row, out)
    }

    fn row_serialize(
        &mut self,
        row: &dyn erased_serde::Serialize,
        out: &mut Vec<u8>,
    ) -> Result<(), EncodeError> {
        self.before_row(out);
        self.writer.inside(self.level()).write(row, out)
    }

    fn finish(&mut self, out: &mut Vec<u8>) -> Result<(), EncodeError> {
        if self.rows == 0 {
            self.open(out);
        } else {
            self.newline(out, self.level() - 1);
        }
        out.push(b']');
        if self.member.is_some() {
            self.newline(out, 0);
            out.push(b'}');
        }
        Ok(())
    }
}

//! [`JsonObject`]: a JSON object written member by member, for formats
//! whose body is a JSON envelope around content written some other way
//! (codec-mcp's results: a text block, then the structured content straight
//! from a [`ValueView`]).

use serde::Serialize;

use super::{JsonEscapes, JsonWriter, StandardEscapes};
use crate::error::EncodeError;
use crate::view::ValueView;

/// An open JSON object, from [`JsonWriter::object`]: each member is
/// written in the writer's style where it is added, and [`JsonObject::end`]
/// closes it. The bytes are those of a struct with the same fields through
/// [`JsonWriter::write`] (compact or pretty), so an envelope can be written
/// by hand around a view without a `Serialize` impl.
///
/// ```
/// use codec_core::{json::JsonWriter, tape::Tape};
///
/// let tape = Tape::from_serialize(&[1, 2]).unwrap();
/// let mut out = Vec::new();
/// let mut object = JsonWriter::pretty().object(&mut out).unwrap();
/// object.member("kind", "list").unwrap();
/// object.member_view("items", tape.root()).unwrap();
/// object.end();
/// assert_eq!(out, b"{\n  \"kind\": \"list\",\n  \"items\": [\n    1,\n    2\n  ]\n}");
/// ```
#[derive(Debug)]
pub struct JsonObject<'o, E: JsonEscapes = StandardEscapes> {
    writer: JsonWriter<E>,
    out: &'o mut Vec<u8>,
    first: bool,
}

impl<E: JsonEscapes> JsonWriter<E> {
    /// Opens an object (`{`) inside this writer's open containers (see
    /// [`inside`](JsonWriter::inside)), to write member by member.
    ///
    /// # Errors
    ///
    /// [`EncodeError::DepthLimit`] when the object itself would be deeper
    /// than the limit.
    pub fn object<'o>(&self, out: &'o mut Vec<u8>) -> Result<JsonObject<'o, E>, EncodeError> {
        self.check_depth(self.level)?;
        out.push(b'{');
        Ok(JsonObject {
            writer: *self,
            out,
            first: true,
        })
    }
}

impl<E: JsonEscapes> JsonObject<'_, E> {
    /// A member whose value is any `Serialize`, as
    /// [`JsonWriter::write`] writes it.
    pub fn member<T: Serialize + ?Sized>(
        &mut self,
        key: &str,
        value: &T,
    ) -> Result<(), EncodeError> {
        self.member_with(key, |writer, out| writer.write(value, out))
    }

    /// A member whose value is a [`ValueView`], as
    /// [`JsonWriter::write_view`] writes it.
    pub fn member_view<'v, V: ValueView<'v>>(
        &mut self,
        key: &str,
        view: V,
    ) -> Result<(), EncodeError> {
        self.member_with(key, |writer, out| writer.write_view(view, out))
    }

    /// A member whose value `write` appends with the writer it is given:
    /// this one, inside the object (its depth counts toward the limit and
    /// indents pretty output). `write` must append exactly one JSON value.
    pub fn member_with(
        &mut self,
        key: &str,
        write: impl FnOnce(&JsonWriter<E>, &mut Vec<u8>) -> Result<(), EncodeError>,
    ) -> Result<(), EncodeError> {
        let style = self.writer.style;
        let level = self.writer.level + 1;
        style.before_item(self.out, self.first, level);
        self.first = false;
        self.writer.write_str(key, self.out);
        style.colon(self.out);
        write(&self.writer.inside(level), self.out)
    }

    /// Closes the object: `}`.
    pub fn end(self) {
        self.writer
            .style
            .close(self.out, !self.first, self.writer.level, b'}');
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Value, from_str};

    /// The same members through `write` of a struct and by hand.
    #[derive(Serialize)]
    struct Envelope<'a> {
        jsonrpc: &'a str,
        id: u32,
        result: Inner<'a>,
    }

    #[derive(Serialize)]
    struct Inner<'a> {
        empty: Vec<u8>,
        value: &'a Value,
    }

    #[test]
    fn writes_what_a_struct_writes() {
        let value = from_str(r#"{"b": [1, {"c": "d"}], "a": 1.10}"#).unwrap();
        for writer in [JsonWriter::compact(), JsonWriter::pretty()] {
            for inside in [0, 2] {
                let writer = writer.inside(inside);
                let mut expected = Vec::new();
                let data = Envelope {
                    jsonrpc: "2.0",
                    id: 7,
                    result: Inner {
                        empty: Vec::new(),
                        value: &value,
                    },
                };
                writer.write(&data, &mut expected).unwrap();
                let mut out = Vec::new();
                let mut object = writer.object(&mut out).unwrap();
                object.member("jsonrpc", "2.0").unwrap();
                object.member("id", &7).unwrap();
                object
                    .member_with("result", |writer, out| {
                        let mut inner = writer.object(out)?;
                        inner.member("empty", &Vec::<u8>::new())?;
                        inner.member_view("value", &value)?;
                        inner.end();
                        Ok(())
                    })
                    .unwrap();
                object.end();
                assert_eq!(
                    String::from_utf8(out).unwrap(),
                    String::from_utf8(expected).unwrap(),
                    "{:?} inside {inside}",
                    writer.style()
                );
                // An empty object closes on the same line.
                let mut out = Vec::new();
                writer.object(&mut out).unwrap().end();
                assert_eq!(out, b"{}");
            }
        }
    }

    #[test]
    fn stops_at_the_depth_limit() {
        let writer = JsonWriter::compact().max_depth(2);
        assert!(writer.inside(1).object(&mut Vec::new()).is_ok());
        assert!(matches!(
            writer.inside(2).object(&mut Vec::new()),
            Err(EncodeError::DepthLimit { limit: 2 })
        ));
        let mut out = Vec::new();
        let mut object = writer.inside(1).object(&mut out).unwrap();
        assert!(matches!(
            object.member_view("deep", &from_str("[[1]]").unwrap()),
            Err(EncodeError::DepthLimit { limit: 2 })
        ));
    }
}

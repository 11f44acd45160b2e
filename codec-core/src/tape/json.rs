//! A tape as JSON: its events in order, in one loop.
//!
//! The generic writer ([`write_view`](crate::JsonWriter::write_view))
//! walks a tape as it walks a `Value`, a recursive call and a
//! [`ViewKind`](crate::ViewKind) per node and an iterator per container.
//! A tape already holds its events in the order JSON writes them
//! (a container's header, then its keys and values), so this writer reads
//! them front to back and keeps only the open containers on a stack: the
//! same bytes, the same depth limit and error. The structured content of
//! an MCP result of typed tabular took 5.42M instructions through the
//! generic walk and takes 4.99M this way (callgrind), three fifths of it
//! escaping strings; the whole negotiated JSON route, through the
//! static serializer, takes 4.19M.

use super::{Event, TapeNode};
use crate::json::{JsonEscapes, JsonWriter};
use crate::view::{NumberRepr, NumberView};
use crate::EncodeError;

/// An open container: how many of its items are still to come, and
/// whether they are members (a key, then a value).
#[derive(Clone, Copy)]
struct Open {
    remaining: u32,
    object: bool,
}

/// Appends the JSON of `node`, `level` containers already open: what
/// [`JsonWriter::write_view`] writes for any view.
pub(crate) fn write<E: JsonEscapes>(
    node: TapeNode<'_>,
    writer: &JsonWriter<E>,
    out: &mut Vec<u8>,
    level: usize,
) -> Result<(), EncodeError> {
    let tape = node.tape;
    let style = writer.style();
    let mut keys = Keys::new(tape, writer);
    let mut open: Vec<Open> = Vec::new();
    let mut at = node.at;
    loop {
        // The value at `at`: a scalar is written whole, a container opened.
        let event = tape.events.get(at).copied();
        at += 1;
        let container = match event {
            // An empty tape reads as null.
            None | Some(Event::Null) => {
                out.extend_from_slice(b"null");
                None
            }
            Some(Event::Bool(true)) => {
                out.extend_from_slice(b"true");
                None
            }
            Some(Event::Bool(false)) => {
                out.extend_from_slice(b"false");
                None
            }
            Some(Event::PosInt(v)) => number(out, NumberRepr::PosInt(v)),
            Some(Event::NegInt(v)) => number(out, NumberRepr::NegInt(v)),
            Some(Event::Float(v)) => number(out, NumberRepr::Float(v)),
            Some(Event::Float32(v)) => number(out, NumberRepr::Float32(v)),
            Some(Event::Number(span)) => number(out, NumberRepr::Text(tape.text(span))),
            Some(Event::String(span)) => {
                writer.write_str(tape.text(span), out);
                None
            }
            // A node is never a key; read as its text all the same.
            Some(key @ (Event::Key(_) | Event::StaticKey(_))) => {
                writer.write_str(tape.key(key), out);
                None
            }
            Some(Event::Array { len, .. }) => Some((len, false)),
            Some(Event::Object { len, .. }) => Some((len, true)),
        };
        if let Some((len, object)) = container {
            let depth = level + open.len();
            writer.check_depth(depth)?;
            let (start, end) = if object { (b'{', b'}') } else { (b'[', b']') };
            out.push(start);
            if len == 0 {
                style.close(out, false, depth, end);
            } else {
                open.push(Open {
                    remaining: len,
                    object,
                });
                style.before_item(out, true, depth + 1);
                if object {
                    keys.write(tape.events[at], out);
                    at += 1;
                }
                continue;
            }
        }
        // After a value: the next item of the innermost open container,
        // or its end (and maybe its parent's).
        loop {
            let Some(top) = open.last_mut() else {
                return Ok(());
            };
            top.remaining -= 1;
            let Open { remaining, object } = *top;
            if remaining > 0 {
                style.before_item(out, false, level + open.len());
                if object {
                    keys.write(tape.events[at], out);
                    at += 1;
                }
                break;
            }
            open.pop();
            style.close(
                out,
                true,
                level + open.len(),
                if object { b'}' } else { b']' },
            );
        }
    }
}

/// A member's key and the colon after it, as JSON: a struct's field
/// names, few and repeated on every row, are written as strings the
/// first time each comes and copied from there after (a key written as a
/// string each time was 1.3M of the 5.0M instructions of typed tabular's
/// structured content), any other key as a string.
struct Keys<'w, E> {
    writer: &'w JsonWriter<E>,
    tape: &'w super::Tape,
    /// Where each static key's JSON, colon included, was first written in
    /// the output (which only grows while the tape is written): `(0, 0)`
    /// until then.
    spans: Vec<(usize, usize)>,
}

impl<'w, E: JsonEscapes> Keys<'w, E> {
    fn new(tape: &'w super::Tape, writer: &'w JsonWriter<E>) -> Keys<'w, E> {
        Keys {
            writer,
            tape,
            spans: vec![(0, 0); tape.statics.len()],
        }
    }

    /// Appends the key event `key` and its colon.
    #[inline]
    fn write(&mut self, key: Event, out: &mut Vec<u8>) {
        let span = match key {
            Event::StaticKey(i) => self.spans.get_mut(i as usize),
            _ => None,
        };
        match span {
            Some(&mut (start, end)) if end > 0 => out.extend_from_within(start..end),
            Some(span) => {
                let start = out.len();
                self.writer.write_str(self.tape.key(key), out);
                self.writer.style().colon(out);
                *span = (start, out.len());
            }
            None => {
                self.writer.write_str(self.tape.key(key), out);
                self.writer.style().colon(out);
            }
        }
    }
}

/// Writes a number's text; no container opened.
#[inline]
fn number(out: &mut Vec<u8>, repr: NumberRepr<'_>) -> Option<(u32, bool)> {
    NumberView::new(repr).write_to(out);
    None
}

#[cfg(test)]
mod tests {
    use crate::{from_str, JsonWriter, Tape, Value, ValueView, ViewKind};

    /// The generic walk's result for `value`, and this writer's for its
    /// tape's node.
    fn both(writer: JsonWriter, value: &Value, node: super::TapeNode<'_>) {
        let mut walked = b"x".to_vec();
        let walked_result = crate::json::write_view(&writer, value, &mut walked, 1);
        let mut read = b"x".to_vec();
        let read_result = super::write(node, &writer, &mut read, 1);
        assert_eq!(
            format!("{read_result:?}"),
            format!("{walked_result:?}"),
            "{value:?}"
        );
        if walked_result.is_ok() {
            assert_eq!(
                String::from_utf8(read).unwrap(),
                String::from_utf8(walked).unwrap()
            );
        }
    }

    #[derive(serde::Serialize)]
    struct Row {
        id: u32,
        #[serde(rename = "say \"hi\"\n")]
        quoted: &'static str,
        inner: Vec<Inner>,
    }

    #[derive(serde::Serialize)]
    struct Inner {
        id: i8,
        map: std::collections::BTreeMap<&'static str, bool>,
    }

    /// Struct field names are static keys, written once for the tape.
    #[test]
    fn static_keys_are_written_as_any_key() {
        let map = [("b", true), ("a\\", false)].into_iter().collect();
        let rows = [
            Row {
                id: 1,
                quoted: "x",
                inner: vec![Inner { id: -1, map }],
            },
            Row {
                id: 2,
                quoted: "y",
                inner: vec![],
            },
        ];
        let tape = Tape::from_serialize(&rows).unwrap();
        let value = crate::to_value(&rows).unwrap();
        for writer in [JsonWriter::compact(), JsonWriter::pretty()] {
            both(writer, &value, tape.root());
        }
    }

    #[test]
    fn writes_what_the_generic_walk_writes() {
        let cases = [
            "null",
            "true",
            "-3",
            "1.5",
            r#""a\"b\u0001é""#,
            "[]",
            "{}",
            "[[], {}, [[]], [{}], 1]",
            r#"{"a": {"b": [1, {"c": null, "d": [true, false]}], "e": {}}, "f": "x"}"#,
            r#"[{"id": 1, "tags": ["a", "b"]}, {"id": 2, "tags": []}]"#,
            r#"{"z": 18446744073709551615, "y": -9223372036854775808, "x": 1e300}"#,
        ];
        for json in cases {
            let value = from_str(json).unwrap();
            let tape = Tape::from_serialize(&value).unwrap();
            let mut writers = vec![JsonWriter::compact(), JsonWriter::pretty()];
            writers.extend((0..6).map(|limit| JsonWriter::pretty().max_depth(limit)));
            for writer in writers {
                both(writer, &value, tape.root());
                // A node inside the tape, as a wrapped result writes one.
                let inner = match (value.kind(), tape.root().kind()) {
                    (ViewKind::Array(mut a), ViewKind::Array(mut b)) => a.next().zip(b.next()),
                    (ViewKind::Object(mut a), ViewKind::Object(mut b)) => {
                        a.next().map(|(_, v)| v).zip(b.next().map(|(_, v)| v))
                    }
                    _ => None,
                };
                if let Some((value, node)) = inner {
                    both(writer, value, node);
                }
            }
        }
    }
}

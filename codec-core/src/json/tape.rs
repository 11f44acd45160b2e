//! A tape as JSON: its events in order, in one loop.
//!
//! The generic writer ([`write_view`](crate::json::JsonWriter::write_view))
//! walks a tape as it walks a `Value`, a recursive call and a
//! [`ViewKind`](crate::view::ViewKind) per node and an iterator per container.
//! A tape already holds its events in the order JSON writes them
//! (a container's header, then its keys and values), so this writer reads
//! them front to back and keeps only the open containers on a stack: the
//! same bytes, the same depth limit and error, with less work per node
//! (an MCP result's structured content is written this way).

use super::{JsonEscapes, JsonWriter};
use crate::error::EncodeError;
use crate::tape::{Event, Tape, TapeNode};
use crate::view::{NumberRepr, NumberView};

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
            Some(Event::PosInt(v)) => small_or_number(out, v),
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

/// How many static keys [`Keys`] remembers at once: more than a struct
/// has fields; past that, a key whose slot another took is written as a
/// string again.
const KEY_SLOTS: usize = 32;

/// A member's key and the colon after it, as JSON: a struct's field
/// names, few and repeated on every row, are written as strings the
/// first time each comes and copied from there after (writing and
/// escaping them each time is a large share of a table's JSON), any
/// other key as a string.
///
/// A fixed table, not one entry per static key of the tape: a node is
/// often a small part of a large tape (a dense table's cell), and sizing
/// the table by the tape would make writing every cell cost the whole
/// tape's keys.
struct Keys<'w, E> {
    writer: &'w JsonWriter<E>,
    tape: &'w Tape,
    /// In slot `i % KEY_SLOTS`, for static key `i`: `i + 1` (0 for an
    /// empty slot) and where its JSON, colon included, was first written
    /// in the output (which only grows while the tape is written).
    spans: [(u32, usize, usize); KEY_SLOTS],
}

impl<'w, E: JsonEscapes> Keys<'w, E> {
    fn new(tape: &'w Tape, writer: &'w JsonWriter<E>) -> Keys<'w, E> {
        Keys {
            writer,
            tape,
            spans: [(0, 0, 0); KEY_SLOTS],
        }
    }

    /// Appends the key event `key` and its colon: a remembered key copied
    /// here, any other written out of line.
    #[inline(always)]
    fn write(&mut self, key: Event, out: &mut Vec<u8>) {
        if let Event::StaticKey(i) = key {
            let (tag, start, end) = self.spans[i as usize % KEY_SLOTS];
            if tag == i.wrapping_add(1) && tag != 0 {
                out.extend_from_within(start..end);
                return;
            }
        }
        self.write_new(key, out);
    }

    /// Writes `key` and its colon as a string, remembering where a static
    /// key's went.
    #[inline(never)]
    fn write_new(&mut self, key: Event, out: &mut Vec<u8>) {
        let start = out.len();
        self.writer.write_str(self.tape.key(key), out);
        self.writer.style().colon(out);
        if let Event::StaticKey(i) = key {
            self.spans[i as usize % KEY_SLOTS] = (i.wrapping_add(1), start, out.len());
        }
    }
}

/// Writes an unsigned integer: one under 100 as its digits, with no
/// `itoa` and no `memcpy` call for one or two bytes; no container opened.
/// Here, not in [`NumberView::write_to`], which the markdown writers
/// share: there it sped up the default profile more than the dense one,
/// and made some MCP results dearer.
#[inline]
fn small_or_number(out: &mut Vec<u8>, v: u64) -> Option<(u32, bool)> {
    match v {
        0..=9 => out.push(b'0' + v as u8),
        10..=99 => out.extend_from_slice(&[b'0' + (v / 10) as u8, b'0' + (v % 10) as u8]),
        _ => return number(out, NumberRepr::PosInt(v)),
    }
    None
}

/// Writes a number's text; no container opened.
#[inline]
fn number(out: &mut Vec<u8>, repr: NumberRepr<'_>) -> Option<(u32, bool)> {
    NumberView::new(repr).write_to(out);
    None
}

#[cfg(test)]
mod tests {
    use crate::json::JsonWriter;
    use crate::tape::{Tape, TapeNode};
    use crate::view::ViewKind;
    use crate::{Value, ValueView, from_str};

    /// The generic walk's result for `value`, and this writer's for its
    /// tape's node.
    fn both(writer: JsonWriter, value: &Value, node: TapeNode<'_>) {
        let mut walked = b"x".to_vec();
        let walked_result = crate::json::value::write_view(&writer, value, &mut walked, 1);
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

    /// A row of 70 fields, more than `Keys` has slots: keys whose slots
    /// others took are written again, with the same bytes.
    struct Wide(u32);

    const FIELDS: [&str; 70] = [
        "f00", "f01", "f02", "f03", "f04", "f05", "f06", "f07", "f08", "f09", "f10", "f11", "f12",
        "f13", "f14", "f15", "f16", "f17", "f18", "f19", "f20", "f21", "f22", "f23", "f24", "f25",
        "f26", "f27", "f28", "f29", "f30", "f31", "f32", "f33", "f34", "f35", "f36", "f37", "f38",
        "f39", "f40", "f41", "f42", "f43", "f44", "f45", "f46", "f47", "f48", "f49", "f50", "f51",
        "f52", "f53", "f54", "f55", "f56", "f57", "f58", "f59", "f60", "f61", "f62", "f63", "f64",
        "f65", "f66", "\"q\"", "f68", "f69",
    ];

    impl serde::Serialize for Wide {
        fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            use serde::ser::SerializeStruct;
            let mut row = serializer.serialize_struct("Wide", FIELDS.len())?;
            for (i, field) in FIELDS.iter().enumerate() {
                row.serialize_field(field, &(self.0 * 100 + i as u32))?;
            }
            row.end()
        }
    }

    #[test]
    fn more_static_keys_than_slots() {
        let rows: Vec<Wide> = (0..5).map(Wide).collect();
        let tape = Tape::from_serialize(&rows).unwrap();
        let value = crate::to_value(&rows).unwrap();
        for writer in [JsonWriter::compact(), JsonWriter::pretty()] {
            both(writer, &value, tape.root());
            let (ViewKind::Array(mut a), ViewKind::Array(mut b)) =
                (value.kind(), tape.root().kind())
            else {
                unreachable!("rows are an array");
            };
            // A row inside the tape, as a dense table's cell writes one.
            both(writer, a.nth(3).unwrap(), b.nth(3).unwrap());
        }
    }

    /// Unsigned integers, one and two digits written as digits, the rest
    /// through `itoa`: serde_json's text for each, at every edge.
    #[test]
    fn unsigned_integers_are_serde_jsons() {
        let numbers: Vec<u64> = (0..=120)
            .chain([999, 1_000, u64::MAX - 1, u64::MAX])
            .collect();
        let tape = Tape::from_serialize(&numbers).unwrap();
        let mut out = Vec::new();
        JsonWriter::compact()
            .write_view(tape.root(), &mut out)
            .unwrap();
        assert_eq!(out, serde_json::to_vec(&numbers).unwrap());
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

//! Recording a tape: a `Serializer` that appends events, normalizing as
//! [`to_value`](crate::to_value) does (`ser.rs` is the reference; every
//! rule here cites what it mirrors there).
//!
//! Objects are written as their members arrive, which is their final
//! order in the common cases: struct fields, and maps whose keys arrive
//! sorted (a `BTreeMap`). Two cheap checks say when it is not: a map key
//! not greater than the one before, and (for structs and ordered maps) a
//! key seen twice. Only then is the object's region of the tape rewritten
//! ([`Builder::reorder`]), once, at its end.

use serde::ser::{self, Serialize};

use super::{Event, Span, Tape};
use crate::number::scan_number;
use crate::ser::TextCapture;
use crate::{write_key, ToValueError, DEFAULT_MAX_DEPTH, NUMBER_TOKEN, ORDERED_MAP_TOKEN};

type Result<T> = std::result::Result<T, ToValueError>;

/// Why no tape was built.
#[derive(Debug)]
pub(crate) enum Failure {
    /// What `to_value` would report.
    Serialize(ToValueError),
    /// More text or events than a tape's 32-bit positions reach.
    TooLarge,
}

/// Records `value` on a new tape.
pub(crate) fn build<T: Serialize + ?Sized>(value: &T) -> std::result::Result<Tape, Failure> {
    let mut builder = Builder {
        tape: Tape::default(),
        keys: Vec::new(),
        too_large: false,
    };
    let result = value.serialize(Slot {
        b: &mut builder,
        level: 0,
        ordered: false,
    });
    if builder.too_large || u32::try_from(builder.tape.events.len()).is_err() {
        return Err(Failure::TooLarge);
    }
    result.map_err(Failure::Serialize)?;
    Ok(builder.tape)
}

/// Up to this many keys, a struct or ordered map checks each new key
/// against the ones before when a cheap filter says it might repeat one;
/// a larger object sorts its keys once at its end instead, so no input
/// makes the check quadratic.
const SMALL_OBJECT: usize = 16;

struct Builder {
    tape: Tape,
    /// The keys of the objects open, each object's from its `keys_from`.
    keys: Vec<Span>,
    /// A span or a count outgrew 32 bits: the tape is abandoned.
    too_large: bool,
}

impl Builder {
    /// The span of the text appended since `start`.
    #[inline]
    fn span_from(&mut self, start: usize) -> Span {
        let end = self.tape.text.len();
        match (u32::try_from(start), u32::try_from(end - start)) {
            (Ok(start), Ok(len)) if u32::try_from(end).is_ok() => Span { start, len },
            _ => {
                self.too_large = true;
                Span { start: 0, len: 0 }
            }
        }
    }

    #[inline]
    fn push_text(&mut self, s: &str) -> Span {
        let start = self.tape.text.len();
        self.tape.text.push_str(s);
        self.span_from(start)
    }

    #[inline]
    fn text(&self, span: Span) -> &str {
        self.tape.text(span)
    }

    /// Opens a container at `level` (containers already open): the depth
    /// rule of `to_value`'s `enter`, checked before descending. Returns
    /// the header's position.
    #[inline]
    fn open(&mut self, level: usize, object: bool) -> Result<usize> {
        if level >= DEFAULT_MAX_DEPTH {
            return Err(ToValueError::DepthLimit {
                limit: DEFAULT_MAX_DEPTH,
            });
        }
        Ok(self.open_unchecked(level, object))
    }

    /// Opens a container without the depth check (bytes, as `to_value`
    /// makes them).
    #[inline]
    fn open_unchecked(&mut self, level: usize, object: bool) -> usize {
        self.tape.depth = self.tape.depth.max(level + 1);
        let at = self.tape.events.len();
        self.tape.events.push(if object {
            Event::Object { len: 0, span: 0 }
        } else {
            Event::Array { len: 0, span: 0 }
        });
        at
    }

    /// Closes the container opened at `at` with `len` items.
    #[inline]
    fn close(&mut self, at: usize, len: usize) {
        let span = self.tape.events.len() - at;
        let (Ok(len), Ok(span)) = (u32::try_from(len), u32::try_from(span)) else {
            self.too_large = true;
            return;
        };
        self.tape.events[at] = match self.tape.events[at] {
            Event::Object { .. } => Event::Object { len, span },
            _ => Event::Array { len, span },
        };
    }

    /// `{"variant": ` around a value at `level`: the wrapper's position.
    fn open_variant(&mut self, level: usize, variant: &str) -> Result<usize> {
        let at = self.open(level, true)?;
        let key = self.push_text(variant);
        self.tape.events.push(Event::Key(key));
        Ok(at)
    }

    /// Whether two of the keys from `keys_from` are equal: one sort, for
    /// an object too large to check key by key.
    #[cold]
    fn repeats(&self, keys_from: usize) -> bool {
        let mut keys: Vec<&str> = self.keys[keys_from..]
            .iter()
            .map(|&k| self.text(k))
            .collect();
        keys.sort_unstable();
        keys.windows(2).any(|pair| pair[0] == pair[1])
    }

    /// Rewrites the members of the object at `at` (keys from `keys_from`
    /// in `self.keys`) so that keys are unique, the last value of a
    /// repeated key in the place of the first (`Map::insert`), and sorted
    /// when `sort` (`Map::sort_keys`). Returns the number of members.
    #[cold]
    fn reorder(&mut self, at: usize, keys_from: usize, sort: bool) -> usize {
        // Each member: its key, and where its value's events are.
        let mut members = Vec::with_capacity(self.keys.len() - keys_from);
        let mut next = at + 1;
        while next < self.tape.events.len() {
            let Event::Key(key) = self.tape.events[next] else {
                break;
            };
            let end = self.tape.skip(next + 1);
            members.push((key, next + 1..end));
            next = end;
        }
        // By key, then arrival: the last of each run of equal keys is the
        // value kept, the first its place.
        let mut order: Vec<usize> = (0..members.len()).collect();
        order.sort_by(|&a, &b| {
            self.text(members[a].0)
                .cmp(self.text(members[b].0))
                .then(a.cmp(&b))
        });
        let mut kept: Vec<(usize, usize)> = Vec::with_capacity(order.len());
        for (i, &m) in order.iter().enumerate() {
            let first = i == 0 || self.text(members[order[i - 1]].0) != self.text(members[m].0);
            if first {
                kept.push((m, m));
            } else if let Some(last) = kept.last_mut() {
                last.1 = m;
            }
        }
        if !sort {
            kept.sort_by_key(|&(place, _)| place);
        }
        let mut events = Vec::with_capacity(self.tape.events.len() - at - 1);
        for &(place, value) in &kept {
            events.push(Event::Key(members[place].0));
            events.extend_from_slice(&self.tape.events[members[value].1.clone()]);
        }
        self.tape.events.truncate(at + 1);
        self.tape.events.extend(events);
        kept.len()
    }
}

/// Where the next value goes: `level` containers open around it.
struct Slot<'b> {
    b: &'b mut Builder,
    level: usize,
    /// Set by the ordered-map token: the next map keeps its order
    /// (`to_value`'s `sort_maps: false`).
    ordered: bool,
}

impl<'b> Slot<'b> {
    #[inline]
    fn scalar(self, event: Event) -> Result<()> {
        self.b.tape.events.push(event);
        Ok(())
    }

    #[inline]
    fn string(self, s: &str) -> Result<()> {
        let span = self.b.push_text(s);
        self.scalar(Event::String(span))
    }

    #[inline]
    fn seq(self, wrapper: Option<usize>) -> Result<Seq<'b>> {
        let at = self.b.open(self.level, false)?;
        Ok(Seq {
            b: self.b,
            at,
            level: self.level,
            len: 0,
            wrapper,
        })
    }

    #[inline]
    fn object(self, order: Order, wrapper: Option<usize>) -> Result<Object<'b>> {
        let at = self.b.open(self.level, true)?;
        let keys_from = self.b.keys.len();
        Ok(Object {
            b: self.b,
            at,
            level: self.level,
            order,
            keys_from,
            lengths: 0,
            repeated: false,
            pending: None,
            wrapper,
        })
    }
}

impl<'b> ser::Serializer for Slot<'b> {
    type Ok = ();
    type Error = ToValueError;
    type SerializeSeq = Seq<'b>;
    type SerializeTuple = Seq<'b>;
    type SerializeTupleStruct = Seq<'b>;
    type SerializeTupleVariant = Seq<'b>;
    type SerializeMap = Object<'b>;
    type SerializeStruct = Object<'b>;
    type SerializeStructVariant = Object<'b>;

    #[inline]
    fn serialize_bool(self, v: bool) -> Result<()> {
        self.scalar(Event::Bool(v))
    }
    #[inline]
    fn serialize_i8(self, v: i8) -> Result<()> {
        self.serialize_i64(i64::from(v))
    }
    #[inline]
    fn serialize_i16(self, v: i16) -> Result<()> {
        self.serialize_i64(i64::from(v))
    }
    #[inline]
    fn serialize_i32(self, v: i32) -> Result<()> {
        self.serialize_i64(i64::from(v))
    }
    #[inline]
    fn serialize_i64(self, v: i64) -> Result<()> {
        match u64::try_from(v) {
            Ok(v) => self.scalar(Event::PosInt(v)),
            Err(_) => self.scalar(Event::NegInt(v)),
        }
    }
    fn serialize_i128(self, v: i128) -> Result<()> {
        // `Number::from_i128`: a machine integer when it fits, else text.
        if let Ok(v) = i64::try_from(v) {
            return self.serialize_i64(v);
        }
        if let Ok(v) = u64::try_from(v) {
            return self.serialize_u64(v);
        }
        let span = self.b.push_text(itoa::Buffer::new().format(v));
        self.scalar(Event::Number(span))
    }
    #[inline]
    fn serialize_u8(self, v: u8) -> Result<()> {
        self.serialize_u64(u64::from(v))
    }
    #[inline]
    fn serialize_u16(self, v: u16) -> Result<()> {
        self.serialize_u64(u64::from(v))
    }
    #[inline]
    fn serialize_u32(self, v: u32) -> Result<()> {
        self.serialize_u64(u64::from(v))
    }
    #[inline]
    fn serialize_u64(self, v: u64) -> Result<()> {
        self.scalar(Event::PosInt(v))
    }
    fn serialize_u128(self, v: u128) -> Result<()> {
        if let Ok(v) = u64::try_from(v) {
            return self.serialize_u64(v);
        }
        let span = self.b.push_text(itoa::Buffer::new().format(v));
        self.scalar(Event::Number(span))
    }
    #[inline]
    fn serialize_f32(self, v: f32) -> Result<()> {
        // `Value::from(f32)`: null when not finite.
        self.scalar(if v.is_finite() {
            Event::Float32(v)
        } else {
            Event::Null
        })
    }
    #[inline]
    fn serialize_f64(self, v: f64) -> Result<()> {
        self.scalar(if v.is_finite() {
            Event::Float(v)
        } else {
            Event::Null
        })
    }
    #[inline]
    fn serialize_char(self, v: char) -> Result<()> {
        self.string(v.encode_utf8(&mut [0; 4]))
    }
    #[inline]
    fn serialize_str(self, v: &str) -> Result<()> {
        self.string(v)
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<()> {
        // An array of numbers, without `to_value`'s depth check (it builds
        // the array directly).
        let at = self.b.open_unchecked(self.level, false);
        self.b
            .tape
            .events
            .extend(v.iter().map(|&b| Event::PosInt(u64::from(b))));
        self.b.close(at, v.len());
        Ok(())
    }
    #[inline]
    fn serialize_none(self) -> Result<()> {
        self.scalar(Event::Null)
    }
    #[inline]
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<()> {
        value.serialize(self)
    }
    #[inline]
    fn serialize_unit(self) -> Result<()> {
        self.scalar(Event::Null)
    }
    #[inline]
    fn serialize_unit_struct(self, _name: &'static str) -> Result<()> {
        self.scalar(Event::Null)
    }
    #[inline]
    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<()> {
        self.string(variant)
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        name: &'static str,
        value: &T,
    ) -> Result<()> {
        match name {
            NUMBER_TOKEN => {
                let start = self.b.tape.text.len();
                value.serialize(TextCapture(&mut self.b.tape.text))?;
                let span = self.b.span_from(start);
                let text = self.b.text(span);
                if scan_number(text.as_bytes()) != Some(text.len()) {
                    return Err(ser::Error::custom(format!("invalid number text {text:?}")));
                }
                self.scalar(Event::Number(span))
            }
            ORDERED_MAP_TOKEN => value.serialize(Slot {
                ordered: true,
                ..self
            }),
            _ => value.serialize(self),
        }
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<()> {
        let at = self.b.open_variant(self.level, variant)?;
        value.serialize(Slot {
            b: &mut *self.b,
            level: self.level + 1,
            ordered: false,
        })?;
        self.b.close(at, 1);
        Ok(())
    }
    #[inline]
    fn serialize_seq(self, _len: Option<usize>) -> Result<Seq<'b>> {
        self.seq(None)
    }
    #[inline]
    fn serialize_tuple(self, _len: usize) -> Result<Seq<'b>> {
        self.seq(None)
    }
    #[inline]
    fn serialize_tuple_struct(self, _name: &'static str, _len: usize) -> Result<Seq<'b>> {
        self.seq(None)
    }
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Seq<'b>> {
        let wrapper = self.b.open_variant(self.level, variant)?;
        Slot {
            b: self.b,
            level: self.level + 1,
            ordered: false,
        }
        .seq(Some(wrapper))
    }
    #[inline]
    fn serialize_map(self, _len: Option<usize>) -> Result<Object<'b>> {
        let order = if self.ordered {
            Order::Kept
        } else {
            Order::Sorted { sorted: true }
        };
        self.object(order, None)
    }
    #[inline]
    fn serialize_struct(self, _name: &'static str, _len: usize) -> Result<Object<'b>> {
        self.object(Order::Kept, None)
    }
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Object<'b>> {
        let wrapper = self.b.open_variant(self.level, variant)?;
        Slot {
            b: self.b,
            level: self.level + 1,
            ordered: false,
        }
        .object(Order::Kept, Some(wrapper))
    }
}

/// An open array (or the array of a tuple variant).
struct Seq<'b> {
    b: &'b mut Builder,
    at: usize,
    level: usize,
    len: usize,
    /// The `{"variant": ...}` around it, closed with it.
    wrapper: Option<usize>,
}

impl Seq<'_> {
    #[inline]
    fn element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        self.len += 1;
        value.serialize(Slot {
            b: &mut *self.b,
            level: self.level + 1,
            ordered: false,
        })
    }

    #[inline]
    fn end(self) -> Result<()> {
        self.b.close(self.at, self.len);
        if let Some(wrapper) = self.wrapper {
            self.b.close(wrapper, 1);
        }
        Ok(())
    }
}

impl ser::SerializeSeq for Seq<'_> {
    type Ok = ();
    type Error = ToValueError;
    #[inline]
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        self.element(value)
    }
    #[inline]
    fn end(self) -> Result<()> {
        Seq::end(self)
    }
}

impl ser::SerializeTuple for Seq<'_> {
    type Ok = ();
    type Error = ToValueError;
    #[inline]
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        self.element(value)
    }
    #[inline]
    fn end(self) -> Result<()> {
        Seq::end(self)
    }
}

impl ser::SerializeTupleStruct for Seq<'_> {
    type Ok = ();
    type Error = ToValueError;
    #[inline]
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        self.element(value)
    }
    #[inline]
    fn end(self) -> Result<()> {
        Seq::end(self)
    }
}

impl ser::SerializeTupleVariant for Seq<'_> {
    type Ok = ();
    type Error = ToValueError;
    #[inline]
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        self.element(value)
    }
    #[inline]
    fn end(self) -> Result<()> {
        Seq::end(self)
    }
}

/// The final order of an object's members.
#[derive(Clone, Copy)]
enum Order {
    /// Arrival order: a struct's fields, or a `Value`'s map.
    Kept,
    /// Sorted by key (`to_value` sorts maps); `sorted` while every key
    /// arrived greater than the one before.
    Sorted { sorted: bool },
}

/// An open object: a struct, a map, or a struct variant's fields.
struct Object<'b> {
    b: &'b mut Builder,
    at: usize,
    level: usize,
    order: Order,
    /// Where this object's keys start in `b.keys`.
    keys_from: usize,
    /// A bit per key length (mod 64) seen so far: two keys can be equal
    /// only if their bits collide, so most keys need no comparison.
    lengths: u64,
    /// A key repeats one before it.
    repeated: bool,
    /// A map key whose value has not come yet.
    pending: Option<Span>,
    wrapper: Option<usize>,
}

impl Object<'_> {
    /// Records the next member's key, already in the text.
    #[inline]
    fn key(&mut self, key: Span) {
        let b = &mut *self.b;
        let count = b.keys.len() - self.keys_from;
        match &mut self.order {
            Order::Sorted { sorted } => {
                // `<=`: an equal key repeats one, and reordering drops it.
                if *sorted && count > 0 && b.text(key) <= b.text(b.keys[b.keys.len() - 1]) {
                    *sorted = false;
                }
            }
            // Checked once at the end, by sorting.
            Order::Kept if count >= SMALL_OBJECT => {}
            Order::Kept => {
                let bit = 1u64 << (key.len % 64);
                if self.lengths & bit != 0
                    && b.keys[self.keys_from..]
                        .iter()
                        .any(|&k| b.text(k) == b.text(key))
                {
                    self.repeated = true;
                }
                self.lengths |= bit;
            }
        }
        b.keys.push(key);
        b.tape.events.push(Event::Key(key));
    }

    #[inline]
    fn value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        value.serialize(Slot {
            b: &mut *self.b,
            level: self.level + 1,
            ordered: false,
        })
    }

    #[inline]
    fn end(self) -> Result<()> {
        let b = self.b;
        let mut len = b.keys.len() - self.keys_from;
        let reorder = match self.order {
            Order::Sorted { sorted } => !sorted,
            Order::Kept => self.repeated || (len > SMALL_OBJECT && b.repeats(self.keys_from)),
        };
        if reorder {
            len = b.reorder(
                self.at,
                self.keys_from,
                matches!(self.order, Order::Sorted { .. }),
            );
        }
        b.keys.truncate(self.keys_from);
        b.close(self.at, len);
        if let Some(wrapper) = self.wrapper {
            b.close(wrapper, 1);
        }
        Ok(())
    }
}

impl ser::SerializeMap for Object<'_> {
    type Ok = ();
    type Error = ToValueError;

    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<()> {
        // A second key before a value replaces the first, as in
        // `to_value`: its text is the last thing written.
        if let Some(pending) = self.pending.take() {
            self.b.tape.text.truncate(pending.start as usize);
        }
        let start = self.b.tape.text.len();
        write_key(key, &mut self.b.tape.text)?;
        self.pending = Some(self.b.span_from(start));
        Ok(())
    }

    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        let key = self
            .pending
            .take()
            .ok_or_else(|| ser::Error::custom("serialize_value called before serialize_key"))?;
        self.key(key);
        self.value(value)
    }

    fn end(self) -> Result<()> {
        // A key without a value is dropped, as `to_value` drops it.
        if let Some(pending) = self.pending {
            self.b.tape.text.truncate(pending.start as usize);
        }
        Object::end(self)
    }
}

impl ser::SerializeStruct for Object<'_> {
    type Ok = ();
    type Error = ToValueError;

    #[inline]
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<()> {
        let key = self.b.push_text(key);
        self.key(key);
        self.value(value)
    }
    #[inline]
    fn end(self) -> Result<()> {
        Object::end(self)
    }
}

impl ser::SerializeStructVariant for Object<'_> {
    type Ok = ();
    type Error = ToValueError;

    #[inline]
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<()> {
        ser::SerializeStruct::serialize_field(self, key, value)
    }
    #[inline]
    fn end(self) -> Result<()> {
        Object::end(self)
    }
}

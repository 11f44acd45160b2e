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

use std::cell::Cell;
use std::ops::Range;

use serde::ser::{self, Serialize};

use super::{Event, Span, Tape};
use crate::value::{
    DEFAULT_MAX_DEPTH, NUMBER_TOKEN, ORDERED_MAP_TOKEN, TextCapture, ToValueError, scan_number,
    write_key,
};

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
        tape: Tape::on_kept_buffers(),
        statics: StaticCache::kept(),
        used: [0; STATIC_MOST],
        cached: 0,
        too_large: false,
    };
    let result = value.serialize(Slot {
        b: &mut builder,
        level: 0,
        ordered: false,
    });
    let Builder {
        tape,
        statics,
        used,
        cached,
        too_large,
    } = builder;
    statics.give_back(&used[..cached]);
    if too_large || u32::try_from(tape.events.len()).is_err() {
        return Err(Failure::TooLarge);
    }
    result.map_err(Failure::Serialize)?;
    Ok(tape)
}

/// Up to this many keys, a struct or ordered map checks each new key
/// against the ones before when a cheap filter says it might repeat one;
/// a larger object sorts its keys once at its end instead, so no input
/// makes the check quadratic.
const SMALL_OBJECT: usize = 16;

/// Slots of the cache of struct field names (a power of two), and the
/// most names it holds: at most half full, a name is found in a probe or
/// two. A tape with more names records the others each time they come.
const STATIC_SLOTS: usize = 128;
const STATIC_MOST: usize = STATIC_SLOTS / 2;

/// Where a name at `address` of `len` bytes is first looked for in
/// [`Builder`]'s cache: the top bits of a multiplicative hash, which
/// spreads names laid out side by side over the whole table.
#[inline]
fn static_slot(address: usize, len: usize) -> usize {
    let hash = (address as u64 ^ len as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    (hash >> (64 - STATIC_SLOTS.trailing_zeros())) as usize
}

/// The struct field names recorded so far on a tape, by address:
/// (address, length, index in `tape.statics` + 1), 0 for an empty slot.
/// A struct's fields repeat on every row, so each name is kept once.
///
/// A hash table (linear probing), not a slot per address. A name's slot
/// comes from its address, which moves with every build of the program;
/// with a slot per address, some builds put two of a struct's fields in
/// one, each row then recorded both names again, the list of names grew
/// a row at a time, and the JSON writer's memory of them (by index)
/// missed: the speed of the same source changed from build to build.
type StaticSlots = [(usize, u32, u32); STATIC_SLOTS];

/// A [`StaticSlots`] table, kept empty by each thread for its next tape:
/// a new one would be 2 KB to clear on every response, a real share of a
/// small one's work, where a tape fills a few slots and empties just
/// those.
struct StaticCache(Box<StaticSlots>);

thread_local! {
    static KEPT_STATICS: Cell<Option<Box<StaticSlots>>> = const { Cell::new(None) };
}

impl StaticCache {
    /// This thread's empty table, or a new one (the first tape on the
    /// thread, or a tape recorded while another is: a `Serialize` that
    /// encodes).
    fn kept() -> StaticCache {
        let kept = KEPT_STATICS.try_with(Cell::take).ok().flatten();
        StaticCache(kept.unwrap_or_else(|| Box::new([(0, 0, 0); STATIC_SLOTS])))
    }

    /// Empties the `used` slots, the only ones filled, and gives the
    /// table back to the thread.
    fn give_back(self, used: &[u8]) {
        let StaticCache(mut table) = self;
        for &slot in used {
            table[usize::from(slot)] = (0, 0, 0);
        }
        debug_assert!(table.iter().all(|&(.., index)| index == 0));
        let _ = KEPT_STATICS.try_with(|kept| kept.set(Some(table)));
    }
}

struct Builder {
    tape: Tape,
    statics: StaticCache,
    /// The slots of `statics` filled, in order.
    used: [u8; STATIC_MOST],
    /// Names in `statics`.
    cached: usize,
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

    /// The key event of a name known at compile time: by reference, each
    /// name once per tape (the first [`STATIC_MOST`] names).
    #[inline]
    fn static_key(&mut self, key: &'static str) -> Event {
        let address = key.as_ptr() as usize;
        // A name's length is kept beside its address: two names can
        // start at one address (a literal and a longer one it begins).
        let len = u32::try_from(key.len()).unwrap_or(u32::MAX);
        let mut slot = static_slot(address, key.len());
        loop {
            let (cached, cached_len, index) = self.statics.0[slot];
            if index == 0 {
                break;
            }
            if cached == address && cached_len == len {
                return Event::StaticKey(index - 1);
            }
            slot = (slot + 1) % STATIC_SLOTS;
        }
        let Ok(index) = u32::try_from(self.tape.statics.len()) else {
            self.too_large = true;
            return Event::StaticKey(0);
        };
        self.tape.statics.push(key);
        if self.cached < STATIC_MOST {
            self.statics.0[slot] = (address, len, index.saturating_add(1));
            // A slot is below `STATIC_SLOTS`, 128.
            self.used[self.cached] = slot as u8;
            self.cached += 1;
        }
        Event::StaticKey(index)
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
    fn open_variant(&mut self, level: usize, variant: &'static str) -> Result<usize> {
        let at = self.open(level, true)?;
        let key = self.static_key(variant);
        self.tape.events.push(key);
        Ok(at)
    }

    /// The keys of the members written so far of the object at `at`,
    /// with the positions of their values.
    fn members(&self, at: usize) -> impl Iterator<Item = (&str, Range<usize>)> {
        let mut next = at + 1;
        std::iter::from_fn(move || {
            let key = *self.tape.events.get(next)?;
            if !matches!(key, Event::Key(_) | Event::StaticKey(_))
                || next + 1 >= self.tape.events.len()
            {
                return None;
            }
            let end = self.tape.skip(next + 1);
            let member = (self.tape.key(key), next + 1..end);
            next = end;
            Some(member)
        })
    }

    /// Whether `key` is already a key of the object at `at`.
    #[cold]
    fn has_key(&self, at: usize, key: &str) -> bool {
        self.members(at).any(|(k, _)| k == key)
    }

    /// Whether two keys of the object at `at` are equal: one sort, for an
    /// object too large to check key by key.
    #[cold]
    fn repeats(&self, at: usize) -> bool {
        let mut keys: Vec<&str> = self.members(at).map(|(key, _)| key).collect();
        keys.sort_unstable();
        keys.windows(2).any(|pair| pair[0] == pair[1])
    }

    /// Rewrites the members of the object at `at` so that keys are
    /// unique, the last value of a repeated key in the place of the first
    /// (`Map::insert`), and sorted when `sort` (`Map::sort_keys`). Returns
    /// the number of members.
    #[cold]
    fn reorder(&mut self, at: usize, sort: bool) -> usize {
        // Each member: its key event, and where its value's events are.
        let members: Vec<(Event, Range<usize>)> = self
            .members(at)
            .map(|(_, value)| (self.tape.events[value.start - 1], value))
            .collect();
        let key = |m: usize| self.tape.key(members[m].0);
        // By key, then arrival: the last of each run of equal keys is the
        // value kept, the first its place.
        let mut order: Vec<usize> = (0..members.len()).collect();
        order.sort_by(|&a, &b| key(a).cmp(key(b)).then(a.cmp(&b)));
        let mut kept: Vec<(usize, usize)> = Vec::with_capacity(order.len());
        for (i, &m) in order.iter().enumerate() {
            let first = i == 0 || key(order[i - 1]) != key(m);
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
            events.push(members[place].0);
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
        Ok(Object {
            b: self.b,
            at,
            level: self.level,
            order,
            len: 0,
            previous: None,
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
    /// Members written so far.
    len: usize,
    /// The last member's key (a sorted map compares the next with it).
    previous: Option<Event>,
    /// A bit per key seen so far, from its length and first byte: two
    /// keys can be equal only if their bits collide, so most keys need no
    /// comparison (a struct's fields rarely collide).
    lengths: u64,
    /// A key repeats one before it.
    repeated: bool,
    /// A map key whose value has not come yet.
    pending: Option<Span>,
    wrapper: Option<usize>,
}

impl Object<'_> {
    /// Records the next member's key: `event` (a `Key` or `StaticKey`),
    /// whose text is `name` when it is known at compile time (else it is
    /// read from the tape).
    #[inline(always)]
    fn key(&mut self, event: Event, name: Option<&'static str>) {
        let text = match name {
            Some(name) => name,
            None => self.b.tape.key(event),
        };
        match &mut self.order {
            Order::Sorted { sorted } => {
                // `<=`: an equal key repeats one, and reordering drops it.
                if *sorted
                    && let Some(previous) = self.previous
                    && text <= self.b.tape.key(previous)
                {
                    *sorted = false;
                }
                self.previous = Some(event);
            }
            // Checked once at the end, by sorting.
            Order::Kept if self.len >= SMALL_OBJECT => {}
            Order::Kept => {
                let first = text.as_bytes().first().copied().unwrap_or(0);
                let bit = 1u64 << ((text.len() ^ usize::from(first).wrapping_mul(7)) % 64);
                if self.lengths & bit != 0 && self.b.has_key(self.at, text) {
                    self.repeated = true;
                }
                self.lengths |= bit;
            }
        }
        self.len += 1;
        self.b.tape.events.push(event);
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
        let reorder = match self.order {
            Order::Sorted { sorted } => !sorted,
            Order::Kept => self.repeated || (self.len > SMALL_OBJECT && b.repeats(self.at)),
        };
        let mut len = self.len;
        if reorder {
            len = b.reorder(self.at, matches!(self.order, Order::Sorted { .. }));
        }
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
        self.key(Event::Key(key), None);
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

    // Always inlined, into each struct's `Serialize`: as a call per field
    // (the compiler's choice with `#[inline]`) it was a large share of
    // serving a response as markdown, the call itself and what the
    // field's name, known where the struct is, no longer told the code
    // that records it.
    #[inline(always)]
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<()> {
        let event = self.b.static_key(key);
        self.key(event, Some(key));
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

#[cfg(test)]
mod tests {
    use serde::Serialize;

    /// Thirty fields over a hundred rows: thirty names, wherever the
    /// build puts them.
    #[derive(Serialize)]
    struct Wide {
        a0: u8,
        a1: u8,
        a2: u8,
        a3: u8,
        a4: u8,
        a5: u8,
        a6: u8,
        a7: u8,
        a8: u8,
        a9: u8,
        b0: u8,
        b1: u8,
        b2: u8,
        b3: u8,
        b4: u8,
        b5: u8,
        b6: u8,
        b7: u8,
        b8: u8,
        b9: u8,
        c0: u8,
        c1: u8,
        c2: u8,
        c3: u8,
        c4: u8,
        c5: u8,
        c6: u8,
        c7: u8,
        c8: u8,
        c9: u8,
    }

    #[test]
    fn records_each_field_name_once() {
        let row = Wide {
            a0: 0,
            a1: 1,
            a2: 2,
            a3: 3,
            a4: 4,
            a5: 5,
            a6: 6,
            a7: 7,
            a8: 8,
            a9: 9,
            b0: 0,
            b1: 1,
            b2: 2,
            b3: 3,
            b4: 4,
            b5: 5,
            b6: 6,
            b7: 7,
            b8: 8,
            b9: 9,
            c0: 0,
            c1: 1,
            c2: 2,
            c3: 3,
            c4: 4,
            c5: 5,
            c6: 6,
            c7: 7,
            c8: 8,
            c9: 9,
        };
        let rows: Vec<&Wide> = std::iter::repeat_n(&row, 100).collect();
        let tape = super::build(&rows).unwrap_or_else(|_| panic!("a tape of 100 rows"));
        assert_eq!(tape.statics.len(), 30);
    }

    /// Past the cache's room, names are recorded each time they come, and
    /// read back the same.
    #[test]
    fn records_names_past_the_cache() {
        let many: Vec<&'static str> = (0..super::STATIC_MOST + 10)
            .map(|i| &*Box::leak(format!("k{i}").into_boxed_str()))
            .collect();
        #[derive(Serialize)]
        struct Row(#[serde(serialize_with = "fields")] Vec<&'static str>);
        fn fields<S: serde::Serializer>(names: &[&'static str], s: S) -> Result<S::Ok, S::Error> {
            use serde::ser::SerializeStruct;
            let mut row = s.serialize_struct("Row", names.len())?;
            for (i, name) in names.iter().enumerate() {
                row.serialize_field(name, &i)?;
            }
            row.end()
        }
        let rows = [Row(many.clone()), Row(many.clone())];
        let tape = super::build(&rows).unwrap_or_else(|_| panic!("a tape"));
        let expected = crate::to_value(&rows).unwrap();
        assert!(tape.to_value().identical(&expected));
        assert_eq!(expected[0].as_object().map(|o| o.len()), Some(many.len()));
        assert!(tape.statics.len() >= many.len());
    }

    /// Each tape starts from an empty cache of names, whatever the tapes
    /// before it on the thread filled (the table is kept between them),
    /// and a tape recorded while another is gets a table of its own.
    #[test]
    fn starts_each_tape_with_no_names() {
        #[derive(Serialize)]
        struct Other {
            z: u8,
            a0: u8,
        }
        /// Records a tape of an `Other` inside its own serialization.
        struct Nesting;
        impl Serialize for Nesting {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                use serde::ser::SerializeStruct;
                let inner = super::build(&Other { z: 1, a0: 2 })
                    .unwrap_or_else(|_| panic!("an inner tape"));
                assert_eq!(inner.statics.len(), 2);
                let mut outer = s.serialize_struct("Nesting", 2)?;
                outer.serialize_field("z", &3)?;
                outer.serialize_field("inner", &inner.to_value())?;
                outer.end()
            }
        }
        for _ in 0..3 {
            let first = super::build(&[Other { z: 1, a0: 2 }, Other { z: 3, a0: 4 }])
                .unwrap_or_else(|_| panic!("a tape"));
            assert_eq!(first.statics.len(), 2);
            let nesting = [Nesting, Nesting];
            let second = super::build(&nesting).unwrap_or_else(|_| panic!("a tape"));
            assert!(
                second
                    .to_value()
                    .identical(&crate::to_value(&nesting).unwrap())
            );
            assert_eq!(second.statics.len(), 2);
        }
    }
}

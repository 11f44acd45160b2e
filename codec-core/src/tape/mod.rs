//! [`Tape`]: a `Serialize` value recorded once as a flat list of events,
//! for codecs that walk the data rather than stream it.
//!
//! [`to_value`](crate::to_value) builds a tree: a `Vec` per array, a map
//! per object, a `String` per string. A tape is two buffers: the events
//! (16 bytes each: a scalar, a key, or a container's header, which records
//! how many events its contents take so a reader can skip them), and one
//! `String` holding every string, key and number text end to end (struct
//! field names are not copied: the tape keeps them by reference). It is
//! built with static dispatch while the handler's type is still known
//! ([`FastPath::Tape`](crate::FastPath)), read through [`TapeNode`], a
//! [`ValueView`](crate::ValueView), and normalized exactly as `to_value` normalizes: struct
//! fields in declaration order, map keys sorted, keys unique (the last
//! value of a repeated key wins, in the place of the first), serde_json's
//! representation of enums, the same depth limit and the same errors.

mod build;

use std::cell::Cell;
use std::fmt;

use serde::Serialize;

use crate::value::{Map, Number, ToValueError, Value};

/// A value recorded as a flat list of events: what
/// [`to_value`](crate::to_value) would build, without the tree.
///
/// Build one with [`Tape::from_serialize`]; read it from
/// [`Tape::root`], a [`TapeNode`] that implements [`ValueView`](crate::ValueView). Codecs
/// receive one in [`Codec::encode_tape`](crate::Codec::encode_tape).
///
/// ```
/// use codec_core::{ValueView, tape::Tape, view::ViewKind};
/// use std::collections::HashMap;
///
/// #[derive(serde::Serialize)]
/// struct Repo { name: &'static str, tags: HashMap<&'static str, u8> }
///
/// let repo = Repo { name: "serde", tags: HashMap::from([("z", 1), ("a", 2)]) };
/// let tape = Tape::from_serialize(&repo).unwrap();
/// let ViewKind::Object(members) = tape.root().kind() else { unreachable!() };
/// let keys: Vec<&str> = members.map(|(key, _)| key).collect();
/// assert_eq!(keys, ["name", "tags"]);
/// // Normalized as `to_value` normalizes: map keys sorted.
/// assert!(tape.to_value().identical(&codec_core::to_value(&repo).unwrap()));
/// ```
#[derive(Clone)]
pub struct Tape {
    pub(crate) events: Vec<Event>,
    /// Every string, key and number text, end to end.
    text: String,
    /// Struct field names (and enum variant names), kept by reference:
    /// copying them into `text` would cost a copy per field of every
    /// record.
    statics: Vec<&'static str>,
    /// How deeply containers nest, as [`Value::depth`] counts.
    depth: usize,
}

/// One event. Containers are a header followed by their contents: an
/// array's elements, an object's `Key` and value pairs.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Event {
    Null,
    Bool(bool),
    PosInt(u64),
    NegInt(i64),
    /// Finite: a non-finite float is recorded as `Null`, as `to_value`
    /// makes it.
    Float(f64),
    Float32(f32),
    /// Number text kept verbatim (a `Value`'s, or a 128-bit integer's).
    Number(Span),
    String(Span),
    /// An object member's key; its value follows.
    Key(Span),
    /// A key known at compile time: `statics[i]`.
    StaticKey(u32),
    /// `len` elements; the array's events, this one included, are the
    /// next `span`.
    Array {
        len: u32,
        span: u32,
    },
    /// `len` members, as an array.
    Object {
        len: u32,
        span: u32,
    },
}

/// A piece of the tape's text.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Span {
    start: u32,
    len: u32,
}

impl Tape {
    /// Records `value`, normalized as [`to_value`](crate::to_value)
    /// normalizes it, with the same errors.
    ///
    /// A tape holds at most 4 GiB of text and 4 billion events; a larger
    /// value is a [`ToValueError::Custom`] (the generic helpers of
    /// [`CodecExt`](crate::CodecExt) then encode it without a tape).
    pub fn from_serialize<T: Serialize + ?Sized>(value: &T) -> Result<Tape, ToValueError> {
        match build::build(value) {
            Ok(tape) => Ok(tape),
            Err(build::Failure::Serialize(e)) => Err(e),
            Err(build::Failure::TooLarge) => Err(ToValueError::Custom {
                message: "value too large for a tape".to_owned(),
            }),
        }
    }

    /// [`Tape::from_serialize`], or `None` when the value is too large for
    /// a tape: the caller encodes it another way.
    pub(crate) fn try_build<T: Serialize + ?Sized>(
        value: &T,
    ) -> Option<Result<Tape, ToValueError>> {
        match build::build(value) {
            Ok(tape) => Some(Ok(tape)),
            Err(build::Failure::Serialize(e)) => Some(Err(e)),
            Err(build::Failure::TooLarge) => None,
        }
    }

    /// The recorded value.
    pub fn root(&self) -> TapeNode<'_> {
        TapeNode { tape: self, at: 0 }
    }

    /// How deeply arrays and objects nest, as [`Value::depth`] counts: 0
    /// for a scalar.
    pub fn depth(&self) -> usize {
        self.depth
    }

    /// The same value as a [`Value`]: what [`to_value`](crate::to_value)
    /// gives for the value the tape recorded.
    pub fn to_value(&self) -> Value {
        self.root().to_value()
    }

    #[inline]
    pub(crate) fn text(&self, span: Span) -> &str {
        let start = span.start as usize;
        &self.text[start..start + span.len as usize]
    }

    /// The text of a key (or string) event; empty for any other.
    #[inline]
    pub(crate) fn key(&self, event: Event) -> &str {
        match event {
            Event::Key(span) | Event::String(span) => self.text(span),
            Event::StaticKey(i) => self.statics.get(i as usize).copied().unwrap_or_default(),
            _ => "",
        }
    }

    /// The position after the value at `at` and everything inside it.
    #[inline]
    pub(crate) fn skip(&self, at: usize) -> usize {
        match self.events[at] {
            Event::Array { span, .. } | Event::Object { span, .. } => at + span as usize,
            _ => at + 1,
        }
    }

    /// [`ValueView::depth`] of the value at `at`, read off its events:
    /// no stack to allocate and no view of a scalar. Recursion is bounded
    /// by the tape's depth.
    pub(crate) fn depth_at(&self, at: usize) -> usize {
        let (len, object) = match self.events.get(at) {
            Some(&Event::Array { len, .. }) => (len, false),
            Some(&Event::Object { len, .. }) => (len, true),
            _ => return 0,
        };
        let mut deepest = 0;
        let mut next = at + 1;
        for _ in 0..len {
            // A member's key is one event before its value.
            next += usize::from(object);
            if matches!(
                self.events.get(next),
                Some(Event::Array { .. } | Event::Object { .. })
            ) {
                deepest = deepest.max(self.depth_at(next));
            }
            next = self.skip(next);
        }
        deepest + 1
    }
}

impl Tape {
    /// An empty tape on this thread's kept buffers ([`Tape`]'s `Drop`
    /// gives them back).
    fn on_kept_buffers() -> Tape {
        let (events, text, statics) = KEPT.try_with(Cell::take).unwrap_or_default();
        Tape {
            events,
            text,
            statics,
            depth: 0,
        }
    }
}

/// A tape's buffers, which each thread keeps, empty, for its next tape:
/// growing them from nothing on every response is a real share of a
/// small one's work, as it is for the parser's buffers. Past [`KEEP`]
/// bytes, a buffer is shrunk before it is kept.
type Buffers = (Vec<Event>, String, Vec<&'static str>);

/// The most bytes each of a tape's buffers keeps between tapes.
const KEEP: usize = 1024 * 1024;

thread_local! {
    static KEPT: Cell<Buffers> = const { Cell::new((Vec::new(), String::new(), Vec::new())) };
}

impl Drop for Tape {
    /// Gives the buffers back to this thread, emptied.
    fn drop(&mut self) {
        fn trim<T>(buffer: &mut Vec<T>) {
            buffer.clear();
            buffer.shrink_to(KEEP / size_of::<T>().max(1));
        }
        let mut events = std::mem::take(&mut self.events);
        let mut text = std::mem::take(&mut self.text);
        let mut statics = std::mem::take(&mut self.statics);
        trim(&mut events);
        trim(&mut statics);
        text.clear();
        text.shrink_to(KEEP);
        // A thread keeps the larger set: a small tape dropped after a
        // large one must not throw the large buffers away.
        let _ = KEPT.try_with(|kept| {
            let previous = kept.take();
            kept.set(if previous.0.capacity() > events.capacity() {
                previous
            } else {
                (events, text, statics)
            });
        });
    }
}

impl fmt::Debug for Tape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Tape")
            .field("events", &self.events.len())
            .field("text_bytes", &self.text.len())
            .field("depth", &self.depth)
            .finish()
    }
}

/// A value on a [`Tape`]: the root, an element or a member's value. Read
/// it through [`ValueView`](crate::ValueView).
#[derive(Clone, Copy)]
pub struct TapeNode<'t> {
    pub(crate) tape: &'t Tape,
    pub(crate) at: usize,
}

impl<'t> TapeNode<'t> {
    /// The same value as a [`Value`]. Recursion is bounded: a tape is no
    /// deeper than the depth limit it was built under.
    pub fn to_value(self) -> Value {
        let tape = self.tape;
        match tape.events.get(self.at) {
            None | Some(Event::Null | Event::Key(_) | Event::StaticKey(_)) => Value::Null,
            Some(&Event::Bool(b)) => Value::Bool(b),
            Some(&Event::PosInt(v)) => Value::from(v),
            Some(&Event::NegInt(v)) => Value::from(v),
            Some(&Event::Float(v)) => Value::from(v),
            Some(&Event::Float32(v)) => Value::from(v),
            Some(&Event::Number(span)) => Value::Number(Number::from_valid_text(tape.text(span))),
            Some(&Event::String(span)) => Value::String(tape.text(span).to_owned()),
            Some(&Event::Array { len, .. }) => Value::Array(
                TapeElements {
                    tape,
                    next: self.at + 1,
                    remaining: len as usize,
                }
                .map(TapeNode::to_value)
                .collect(),
            ),
            Some(&Event::Object { len, .. }) => {
                let members = TapeMembers {
                    tape,
                    next: self.at + 1,
                    remaining: len as usize,
                };
                let mut map = Map::with_capacity(members.len());
                for (key, value) in members {
                    map.insert(key, value.to_value());
                }
                Value::Object(map)
            }
        }
    }
}

impl fmt::Debug for TapeNode<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TapeNode")
            .field("at", &self.at)
            .field("event", &self.tape.events.get(self.at))
            .finish()
    }
}

/// The elements of an array on a [`Tape`], in order.
#[derive(Debug, Clone)]
pub struct TapeElements<'t> {
    pub(crate) tape: &'t Tape,
    pub(crate) next: usize,
    pub(crate) remaining: usize,
}

impl<'t> Iterator for TapeElements<'t> {
    type Item = TapeNode<'t>;

    #[inline(always)]
    fn next(&mut self) -> Option<TapeNode<'t>> {
        if self.remaining == 0 {
            return None;
        }
        self.remaining -= 1;
        let at = self.next;
        self.next = self.tape.skip(at);
        Some(TapeNode {
            tape: self.tape,
            at,
        })
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.remaining, Some(self.remaining))
    }
}

impl ExactSizeIterator for TapeElements<'_> {}

/// The members of an object on a [`Tape`], in order.
#[derive(Debug, Clone)]
pub struct TapeMembers<'t> {
    pub(crate) tape: &'t Tape,
    /// The next member's key.
    pub(crate) next: usize,
    pub(crate) remaining: usize,
}

impl<'t> Iterator for TapeMembers<'t> {
    type Item = (&'t str, TapeNode<'t>);

    #[inline(always)]
    fn next(&mut self) -> Option<(&'t str, TapeNode<'t>)> {
        if self.remaining == 0 {
            return None;
        }
        self.remaining -= 1;
        let tape = self.tape;
        // Every member starts with its key: the builder writes them in
        // pairs.
        let key = tape.key(tape.events[self.next]);
        let at = self.next + 1;
        self.next = tape.skip(at);
        Some((key, TapeNode { tape, at }))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.remaining, Some(self.remaining))
    }
}

impl ExactSizeIterator for TapeMembers<'_> {}

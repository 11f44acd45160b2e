//! A [`TapeNode`] read through [`ValueView`]: a tape's events as kinds,
//! and `Serialize` as the value it recorded.

use serde::Serialize;

use super::sealed::{Repr, Sealed};
use super::{NumberRepr, NumberView, ValueView, ViewKind};
use crate::tape::{Event, TapeElements, TapeMembers, TapeNode};
use crate::value::ORDERED_MAP_TOKEN;

impl<'t> Sealed<'t> for TapeNode<'t> {
    #[inline]
    fn repr(self) -> Repr<'t> {
        Repr::Tape(self)
    }
}

impl<'t> ValueView<'t> for TapeNode<'t> {
    type Elements = TapeElements<'t>;
    type Members = TapeMembers<'t>;

    // Always inlined: a walk asks every node its kind, often only to
    // match one variant, which inlining turns into a tag test.
    #[inline(always)]
    fn kind(self) -> ViewKind<'t, Self> {
        let tape = self.tape;
        let number = |repr| ViewKind::Number(NumberView::new(repr));
        match tape.events.get(self.at) {
            // An empty tape (a `Serialize` impl that wrote nothing) reads
            // as null.
            None | Some(Event::Null) => ViewKind::Null,
            Some(&Event::Bool(b)) => ViewKind::Bool(b),
            Some(&Event::PosInt(v)) => number(NumberRepr::PosInt(v)),
            Some(&Event::NegInt(v)) => number(NumberRepr::NegInt(v)),
            Some(&Event::Float(v)) => number(NumberRepr::Float(v)),
            Some(&Event::Float32(v)) => number(NumberRepr::Float32(v)),
            Some(&Event::Number(span)) => number(NumberRepr::Text(tape.text(span))),
            Some(&Event::String(span)) => ViewKind::String(tape.text(span)),
            // A node is never a key; read as its text all the same.
            Some(&key @ (Event::Key(_) | Event::StaticKey(_))) => ViewKind::String(tape.key(key)),
            Some(&Event::Array { len, .. }) => ViewKind::Array(TapeElements {
                tape,
                next: self.at + 1,
                remaining: len as usize,
            }),
            Some(&Event::Object { len, .. }) => ViewKind::Object(TapeMembers {
                tape,
                next: self.at + 1,
                remaining: len as usize,
            }),
        }
    }

    #[inline]
    fn id(self) -> usize {
        self.at
    }

    /// The event's tag alone: a string's text is not looked up.
    #[inline(always)]
    fn is_scalar(self) -> bool {
        !matches!(
            self.tape.events.get(self.at),
            Some(Event::Array { .. } | Event::Object { .. })
        )
    }

    /// Read off the events (the provided method walks views on a stack
    /// it allocates, once for every JSON cell of a dense table).
    fn depth(self) -> usize {
        self.tape.depth_at(self.at)
    }
}

impl Serialize for TapeNode<'_> {
    /// As the [`Value`](crate::Value) the node records serializes: objects in their
    /// order, numbers with their text (see [`Value`](crate::Value)'s `Serialize`).
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self.kind() {
            ViewKind::Null => serializer.serialize_unit(),
            ViewKind::Bool(b) => serializer.serialize_bool(b),
            ViewKind::Number(n) => n.serialize(serializer),
            ViewKind::String(s) => serializer.serialize_str(s),
            ViewKind::Array(items) => serializer.collect_seq(items),
            ViewKind::Object(members) => {
                serializer.serialize_newtype_struct(ORDERED_MAP_TOKEN, &InOrder(members))
            }
        }
    }
}

/// An object's members, serialized as a map in their order.
struct InOrder<'t>(TapeMembers<'t>);

impl Serialize for InOrder<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(self.0.clone())
    }
}

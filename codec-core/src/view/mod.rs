//! [`ValueView`]: read access to a JSON value however it is stored, so one
//! writer serves a parsed [`Value`] and a handler's typed data alike.
//!
//! A [`Value`] is a tree a writer can walk; a [`Tape`](crate::tape::Tape) is the
//! flat record of a `Serialize` value that the generic helpers build once
//! per response instead of a tree ([`FastPath::Tape`](crate::FastPath)).
//! Writers generic over this trait (the JSON writer's
//! [`write_view`](crate::json::JsonWriter::write_view), codec-md's layouts) are
//! monomorphized for each, so neither pays for the other: there is no
//! dynamic dispatch per node.

use crate::value::{Map, MapIter, Number, Value};

mod tape;

pub(crate) mod sealed {
    use crate::tape::TapeNode;
    use crate::value::Value;

    /// What a view is underneath: what writers that have a faster way for
    /// one representation (the JSON writer's tape loop) match on.
    #[derive(Debug)]
    pub enum Repr<'v> {
        /// A [`Value`] tree.
        Value(&'v Value),
        /// A node of a tape.
        Tape(TapeNode<'v>),
    }

    /// What only this crate's views implement, and only it may call.
    pub trait Sealed<'v>: Sized {
        /// The representation underneath.
        fn repr(self) -> Repr<'v>;
    }

    impl<'v> Sealed<'v> for &'v Value {
        #[inline]
        fn repr(self) -> Repr<'v> {
            Repr::Value(self)
        }
    }
}

/// A JSON value, read in place: `&Value` or a [`TapeNode`](crate::tape::TapeNode).
///
/// Cheap to copy (a reference and an index at most). Objects list their
/// members in the value's order, keys unique; arrays their elements.
/// Sealed: the two representations of this crate implement it, and code
/// generic over it reads both.
///
/// ```
/// use codec_core::{to_value, ValueView, tape::Tape, view::ViewKind};
///
/// /// The number of strings anywhere in a value, whatever holds it.
/// fn strings<'v, V: ValueView<'v>>(view: V) -> usize {
///     match view.kind() {
///         ViewKind::String(_) => 1,
///         ViewKind::Array(items) => items.map(strings).sum(),
///         ViewKind::Object(members) => members.map(|(_, v)| strings(v)).sum(),
///         _ => 0,
///     }
/// }
///
/// let data = vec![("a", 1), ("b", 2)];
/// let value = to_value(&data).unwrap();
/// let tape = Tape::from_serialize(&data).unwrap();
/// assert_eq!(strings(&value), 2);
/// assert_eq!(strings(tape.root()), 2);
/// ```
pub trait ValueView<'v>: Copy + sealed::Sealed<'v> {
    /// An array's elements, in order.
    type Elements: Iterator<Item = Self> + ExactSizeIterator + Clone;
    /// An object's members, in order.
    type Members: Iterator<Item = (&'v str, Self)> + ExactSizeIterator + Clone;

    /// What this value is, with its contents.
    fn kind(self) -> ViewKind<'v, Self>;

    /// An identity for this value among the values of the same root: two
    /// views of one root are equal exactly when their ids are (an address,
    /// or a position on the tape). For bookkeeping, never followed.
    fn id(self) -> usize;

    /// Whether this is a scalar: null, a bool, a number or a string.
    #[inline]
    fn is_scalar(self) -> bool {
        !matches!(self.kind(), ViewKind::Array(_) | ViewKind::Object(_))
    }

    /// The string, when this is one.
    fn as_str(self) -> Option<&'v str> {
        match self.kind() {
            ViewKind::String(s) => Some(s),
            _ => None,
        }
    }

    /// The members, when this is an object.
    fn as_object(self) -> Option<Self::Members> {
        match self.kind() {
            ViewKind::Object(members) => Some(members),
            _ => None,
        }
    }

    /// How deeply arrays and objects nest in this value: 0 for a scalar, 1
    /// for `[]` or `[1]`, as [`Value::depth`]. Iterative.
    fn depth(self) -> usize {
        let mut deepest = 0;
        let mut stack = vec![(self, 0usize)];
        while let Some((view, depth)) = stack.pop() {
            match view.kind() {
                ViewKind::Array(items) => {
                    deepest = deepest.max(depth + 1);
                    stack.extend(items.map(|v| (v, depth + 1)));
                }
                ViewKind::Object(members) => {
                    deepest = deepest.max(depth + 1);
                    stack.extend(members.map(|(_, v)| (v, depth + 1)));
                }
                _ => {}
            }
        }
        deepest
    }
}

/// What a [`ValueView`] is.
#[derive(Debug, Clone)]
pub enum ViewKind<'v, V: ValueView<'v>> {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number.
    Number(NumberView<'v>),
    /// A string.
    String(&'v str),
    /// An array's elements.
    Array(V::Elements),
    /// An object's members.
    Object(V::Members),
}

/// A number, read in place: a [`Number`] of a [`Value`], or one of a
/// tape. Written exactly as [`Number`] writes it.
#[derive(Debug, Clone, Copy)]
pub struct NumberView<'v>(NumberRepr<'v>);

#[derive(Debug, Clone, Copy)]
pub(crate) enum NumberRepr<'v> {
    Number(&'v Number),
    PosInt(u64),
    NegInt(i64),
    Float(f64),
    Float32(f32),
    /// Text that matches the JSON number grammar.
    Text(&'v str),
}

impl<'v> NumberView<'v> {
    pub(crate) fn new(repr: NumberRepr<'v>) -> NumberView<'v> {
        NumberView(repr)
    }

    /// Calls `f` with the number's exact text, without allocating (see
    /// [`Number::with_text`]).
    #[inline]
    pub fn with_text<R>(self, f: impl FnOnce(&str) -> R) -> R {
        match self.0 {
            NumberRepr::Number(n) => n.with_text(f),
            NumberRepr::PosInt(v) => f(itoa::Buffer::new().format(v)),
            NumberRepr::NegInt(v) => f(itoa::Buffer::new().format(v)),
            NumberRepr::Float(v) => f(zmij::Buffer::new().format_finite(v)),
            NumberRepr::Float32(v) => f(zmij::Buffer::new().format_finite(v)),
            NumberRepr::Text(t) => f(t),
        }
    }

    /// Appends the number's exact text to `out`.
    #[inline]
    pub fn write_to(self, out: &mut Vec<u8>) {
        self.with_text(|t| out.extend_from_slice(t.as_bytes()));
    }
}

impl serde::Serialize for NumberView<'_> {
    /// As [`Number`] serializes: a primitive, or verbatim text under the
    /// number token that this workspace's serializers write as a number.
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self.0 {
            NumberRepr::Number(n) => n.serialize(serializer),
            NumberRepr::PosInt(v) => serializer.serialize_u64(v),
            NumberRepr::NegInt(v) => serializer.serialize_i64(v),
            NumberRepr::Float(v) => serializer.serialize_f64(v),
            NumberRepr::Float32(v) => serializer.serialize_f32(v),
            NumberRepr::Text(t) => {
                serializer.serialize_newtype_struct(crate::value::NUMBER_TOKEN, t)
            }
        }
    }
}

impl<'v> ValueView<'v> for &'v Value {
    type Elements = std::slice::Iter<'v, Value>;
    type Members = MapIter<'v>;

    #[inline]
    fn kind(self) -> ViewKind<'v, Self> {
        match self {
            Value::Null => ViewKind::Null,
            Value::Bool(b) => ViewKind::Bool(*b),
            Value::Number(n) => ViewKind::Number(NumberView(NumberRepr::Number(n))),
            Value::String(s) => ViewKind::String(s),
            Value::Array(items) => ViewKind::Array(items.iter()),
            Value::Object(map) => ViewKind::Object(Map::iter(map)),
        }
    }

    #[inline]
    fn id(self) -> usize {
        std::ptr::from_ref(self) as usize
    }

    fn is_scalar(self) -> bool {
        Value::is_scalar(self)
    }

    fn as_str(self) -> Option<&'v str> {
        Value::as_str(self)
    }

    fn depth(self) -> usize {
        Value::depth(self)
    }
}

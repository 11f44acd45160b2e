//! [`Value`], [`Map`] and [`Number`]: the data model every codec
//! renders, and [`to_value`], which makes one from any `Serialize` type.

mod map;
mod number;
mod ser;

pub(crate) use map::{INDEX_ABOVE, Key, KeyIndex, Shape};
pub use map::{IntoIter as MapIntoIter, Iter as MapIter, Map};
pub(crate) use number::scan_number;
pub use number::{InvalidNumber, Number};
pub(crate) use ser::TextCapture;
#[doc(hidden)]
pub use ser::{NUMBER_TOKEN, ORDERED_MAP_TOKEN};
pub use ser::{ToValueError, key_to_string, to_value, write_key};

/// The default maximum nesting depth of arrays and objects: 128, the
/// number `serde_json` uses for its recursion limit, which counts so that
/// it rejects a 128th level (a value exactly 128 deep parses here, not in
/// `serde_json`; the `json` fuzz target checks this is the only
/// difference of depth). [`to_value`], the JSON reader and writer and the
/// codecs' readers all stop there unless told otherwise.
pub const DEFAULT_MAX_DEPTH: usize = 128;

/// Structured data, as a handler produces it: the one model every codec
/// renders.
///
/// Build one with [`to_value`] from any `Serialize` type, or with
/// [`from_slice`](crate::json::from_slice) from JSON bytes; the `From` impls make small
/// values by hand.
///
/// Nesting is bounded where values come from: [`from_slice`](crate::json::from_slice),
/// [`to_value`] and the codecs' readers (markdown's too) stop at
/// [`DEFAULT_MAX_DEPTH`], so no value they build is too deep to drop
/// (128 levels drop well within a tokio worker's 2 MiB stack), and every
/// codec refuses to encode deeper values. A value built by hand deeper
/// than the limit is the caller's: dropping (or cloning) it recurses, as
/// dropping a `serde_json::Value` does, and tens of thousands of levels
/// overflow a thread's stack.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Value {
    /// `null`.
    #[default]
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number, keeping its exact text (see [`Number`]).
    Number(Number),
    /// A string.
    String(String),
    /// An array.
    Array(Vec<Value>),
    /// An object, in insertion order.
    Object(Map),
}

impl Value {
    /// Whether this is a scalar: null, a bool, a number or a string.
    pub fn is_scalar(&self) -> bool {
        !matches!(self, Value::Array(_) | Value::Object(_))
    }

    /// Whether this is `null`.
    pub fn is_null(&self) -> bool {
        matches!(self, Value::Null)
    }

    /// The string, when this is one.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::String(s) => Some(s),
            _ => None,
        }
    }

    /// The bool, when this is one.
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }

    /// The number, when this is one.
    pub fn as_number(&self) -> Option<&Number> {
        match self {
            Value::Number(n) => Some(n),
            _ => None,
        }
    }

    /// The elements, when this is an array.
    pub fn as_array(&self) -> Option<&[Value]> {
        match self {
            Value::Array(a) => Some(a),
            _ => None,
        }
    }

    /// The members, when this is an object.
    pub fn as_object(&self) -> Option<&Map> {
        match self {
            Value::Object(m) => Some(m),
            _ => None,
        }
    }

    /// The member `key`, when this is an object that has it.
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.as_object().and_then(|m| m.get(key))
    }

    /// How deeply arrays and objects nest in this value: 0 for a scalar, 1
    /// for `[]` or `[1]`, 2 for `[[1]]`. Iterative, so it is safe on any
    /// value a caller built by hand.
    pub fn depth(&self) -> usize {
        /// What is left to read of a container.
        enum Children<'a> {
            Items(std::slice::Iter<'a, Value>),
            Members(MapIter<'a>),
        }
        fn children(value: &Value) -> Option<Children<'_>> {
            match value {
                Value::Array(items) => Some(Children::Items(items.iter())),
                Value::Object(map) => Some(Children::Members(map.iter())),
                _ => None,
            }
        }
        // One entry per container being read, so the stack grows with the
        // nesting, not with the number of values (a stack of every value
        // to read was 16 bytes an element of a wide array).
        let mut open: Vec<Children<'_>> = children(self).into_iter().collect();
        let mut deepest = open.len();
        while let Some(container) = open.last_mut() {
            let next = match container {
                Children::Items(items) => items.next(),
                Children::Members(members) => members.next().map(|(_, value)| value),
            };
            match next {
                None => {
                    open.pop();
                }
                Some(value) => {
                    if let Some(inner) = children(value) {
                        open.push(inner);
                        deepest = deepest.max(open.len());
                    }
                }
            }
        }
        deepest
    }

    /// Whether `other` is this value exactly: the same data with object
    /// members in the same order and numbers with the same text.
    ///
    /// `==` compares objects as sets of members (as `IndexMap`'s equality,
    /// which [`Map`] had before), so it cannot see a member moved; this
    /// is the comparison for what promises to keep order, as parsing
    /// ([`from_slice`](crate::json::from_slice)), [`to_value`] and [`crate::tape::Tape`]
    /// do, and for round trips. Numbers compare by text, as `==` does
    /// ([`Number`]): `1.10` is not `1.1`. Iterative, so it is safe on any
    /// value a caller built by hand.
    ///
    /// ```
    /// use codec_core::from_str;
    ///
    /// let ab = from_str(r#"{"a": 1, "b": [1.10]}"#).unwrap();
    /// let ba = from_str(r#"{"b": [1.10], "a": 1}"#).unwrap();
    /// assert_eq!(ab, ba);
    /// assert!(!ab.identical(&ba));
    /// assert!(ab.identical(&ab.clone()));
    /// ```
    pub fn identical(&self, other: &Value) -> bool {
        let mut pairs = vec![(self, other)];
        while let Some(pair) = pairs.pop() {
            match pair {
                (Value::Array(a), Value::Array(b)) if a.len() == b.len() => {
                    pairs.extend(a.iter().zip(b));
                }
                (Value::Object(a), Value::Object(b)) if a.len() == b.len() => {
                    for ((key, value), (other_key, other_value)) in a.iter().zip(b) {
                        if key != other_key {
                            return false;
                        }
                        pairs.push((value, other_value));
                    }
                }
                (Value::Null, Value::Null) => {}
                (Value::Bool(a), Value::Bool(b)) if a == b => {}
                (Value::Number(a), Value::Number(b)) if a == b => {}
                (Value::String(a), Value::String(b)) if a == b => {}
                _ => return false,
            }
        }
        true
    }
}

impl From<bool> for Value {
    fn from(value: bool) -> Value {
        Value::Bool(value)
    }
}

impl From<&str> for Value {
    fn from(value: &str) -> Value {
        Value::String(value.to_owned())
    }
}

impl From<String> for Value {
    fn from(value: String) -> Value {
        Value::String(value)
    }
}

impl From<Number> for Value {
    fn from(value: Number) -> Value {
        Value::Number(value)
    }
}

impl From<Map> for Value {
    fn from(value: Map) -> Value {
        Value::Object(value)
    }
}

impl<T: Into<Value>> From<Vec<T>> for Value {
    fn from(value: Vec<T>) -> Value {
        Value::Array(value.into_iter().map(Into::into).collect())
    }
}

impl<T: Into<Value>> From<Option<T>> for Value {
    fn from(value: Option<T>) -> Value {
        value.map_or(Value::Null, Into::into)
    }
}

macro_rules! from_integer {
    ($($t:ty)*) => {$(
        impl From<$t> for Value {
            fn from(value: $t) -> Value {
                Value::Number(Number::from(value))
            }
        }
    )*};
}

from_integer!(u8 u16 u32 u64 usize i8 i16 i32 i64 isize);

impl From<f64> for Value {
    /// A finite float becomes a number; `NaN` and the infinities become
    /// `null`, as `serde_json` writes them.
    fn from(value: f64) -> Value {
        Number::from_f64(value).map_or(Value::Null, Value::Number)
    }
}

impl From<f32> for Value {
    /// A finite float becomes a number; `NaN` and the infinities become
    /// `null`, as `serde_json` writes them.
    fn from(value: f32) -> Value {
        Number::from_f32(value).map_or(Value::Null, Value::Number)
    }
}

static NULL: Value = Value::Null;

impl std::ops::Index<&str> for Value {
    type Output = Value;

    /// The member `key` of an object, or [`Value::Null`] when this is not
    /// an object or has no such member (as `serde_json::Value` indexes).
    fn index(&self, key: &str) -> &Value {
        self.get(key).unwrap_or(&NULL)
    }
}

impl std::ops::Index<usize> for Value {
    type Output = Value;

    /// The element `index` of an array, or [`Value::Null`] when this is not
    /// an array or is too short.
    fn index(&self, index: usize) -> &Value {
        self.as_array()
            .and_then(|items| items.get(index))
            .unwrap_or(&NULL)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every array element and object member is a `Value`: its size is
    /// most of a parsed value's memory.
    #[test]
    fn a_value_is_no_larger_than_serde_jsons() {
        assert!(size_of::<Value>() <= 32, "{}", size_of::<Value>());
        assert!(size_of::<Value>() <= size_of::<serde_json::Value>());
        assert!(size_of::<Number>() <= 24, "{}", size_of::<Number>());
    }

    /// Values cross threads and `await`s (shared key lists included).
    #[test]
    fn a_value_is_send_and_sync() {
        fn send_sync<T: Send + Sync + 'static>() {}
        send_sync::<Value>();
        send_sync::<crate::Map>();
    }

    fn json(text: &str) -> Value {
        crate::from_str(text).unwrap()
    }

    #[test]
    fn depth_counts_the_deepest_nesting() {
        let cases: &[(&str, usize)] = &[
            ("1", 0),
            (r#""[[""#, 0),
            ("[]", 1),
            ("{}", 1),
            ("[1, 2]", 1),
            ("[[1]]", 2),
            (r#"[[], [[[]]], 1]"#, 4),
            (r#"[[[[1]]], [], 2]"#, 4),
            (r#"{"a": [{"b": []}], "c": 1}"#, 4),
            (r#"{"a": 1, "b": {"c": {}}, "d": [1]}"#, 3),
        ];
        for &(text, depth) in cases {
            assert_eq!(json(text).depth(), depth, "{text}");
        }
        let deep = (0..1_000).fold(Value::Null, |inner, _| Value::Array(vec![inner]));
        assert_eq!(deep.depth(), 1_000);
    }

    #[test]
    fn identical_sees_key_order_and_number_text() {
        let cases = [
            (r#"{"a": 1, "b": [1.10]}"#, r#"{"a": 1, "b": [1.10]}"#, true),
            (
                r#"[null, true, "x", -0, 1e400]"#,
                r#"[null, true, "x", -0, 1e400]"#,
                true,
            ),
            (r#"{"a": 1, "b": 2}"#, r#"{"b": 2, "a": 1}"#, false),
            (
                r#"[{"k": {"a": 1, "b": 2}}]"#,
                r#"[{"k": {"b": 2, "a": 1}}]"#,
                false,
            ),
            ("[1.10]", "[1.1]", false),
            ("[-0]", "[0]", false),
            ("[1e2]", "[1E2]", false),
            ("[[]]", "[{}]", false),
            ("[1]", "[1, 2]", false),
            (r#"{"a": 1}"#, r#"{"a": 1, "b": 2}"#, false),
            ("[true]", "[false]", false),
            (r#"["1"]"#, "[1]", false),
        ];
        for (a, b, expected) in cases {
            let (a, b) = (json(a), json(b));
            assert_eq!(a.identical(&b), expected, "{a:?} {b:?}");
            assert_eq!(b.identical(&a), expected, "{b:?} {a:?}");
        }
    }

    /// Values built from Rust primitives compare by their written text
    /// with parsed ones, as `==` does.
    #[test]
    fn identical_compares_numbers_by_text() {
        assert!(Value::from(0.5).identical(&json("0.5")));
        assert!(Value::from(76u8).identical(&json("76")));
        assert!(!Value::from(1.0).identical(&json("1")));
    }

    /// Far deeper than any parser allows: a recursive comparison would
    /// overflow the test thread's stack.
    #[test]
    fn identical_is_iterative() {
        fn deep(depth: usize, last: Map) -> Value {
            let mut value = Value::Object(last);
            for _ in 0..depth {
                value = Value::Array(vec![value]);
            }
            value
        }
        fn members(keys: &[&str]) -> Map {
            keys.iter().map(|k| (*k, Value::from(1))).collect()
        }
        let depth = 100_000;
        let a = deep(depth, members(&["x", "y"]));
        let b = deep(depth, members(&["x", "y"]));
        let c = deep(depth, members(&["y", "x"]));
        assert!(a.identical(&b));
        assert!(!a.identical(&c));
        // Dropping recurses (see the type's documentation): unwind by hand.
        for mut value in [a, b, c] {
            while let Value::Array(items) = &mut value {
                value = items.pop().unwrap_or_default();
            }
        }
    }
}

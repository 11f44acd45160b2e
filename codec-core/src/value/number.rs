//! [`Number`]: a JSON number that keeps its exact text.

use std::fmt;
use std::str::FromStr;

/// A JSON number.
///
/// A number parsed from JSON keeps its exact source text: `76`, `0.98`,
/// `1.10`, `1e400`, `-0.0` and `12345678901234567890` are written back
/// byte-for-byte. A number made from a Rust primitive is written exactly as
/// `serde_json` writes it: integers in full, floats as the shortest text
/// that reads back as the same float.
///
/// Non-finite floats (`NaN`, `inf`) have no JSON form. [`Number::from_f64`]
/// returns `None` for them and [`crate::to_value`] turns them into
/// [`crate::Value::Null`], which is what `serde_json::to_vec` writes.
///
/// Two numbers are equal when their written text is equal: `1.0` and `1.00`
/// are different numbers to a codec that promises to keep text verbatim.
#[derive(Clone)]
pub struct Number {
    repr: Repr,
}

// Integers that fit a machine word are stored as integers (no allocation,
// and `itoa` writes them back to the same text JSON's grammar allows: JSON
// forbids leading zeros and `+`). Everything else that came from text keeps
// its text: inline up to `SHORT_TEXT` bytes, which is every decimal of the
// benchmark datasets (a `Box<str>` per decimal would be an allocation per
// number), boxed beyond.
//
// 24 bytes, so that a `Value` stays at 32 (see value.rs).
#[derive(Clone)]
enum Repr {
    PosInt(u64),
    NegInt(i64),
    Float(f64),
    Float32(f32),
    Short(ShortText),
    Text(Box<str>),
}

/// The longest number text kept inline: what fits beside the tag and a
/// length byte in the 24 bytes the boxed text takes anyway.
const SHORT_TEXT: usize = 22;

/// Number text of at most [`SHORT_TEXT`] bytes, inline. Only ever made from
/// a `&str` that matched the JSON number grammar, so it is ASCII.
// Equality of the fields is equality of the text: unused bytes are zero.
#[derive(Clone, Copy, PartialEq, Eq)]
struct ShortText {
    len: u8,
    bytes: [u8; SHORT_TEXT],
}

impl ShortText {
    fn new(text: &str) -> Option<ShortText> {
        let mut bytes = [0; SHORT_TEXT];
        bytes
            .get_mut(..text.len())?
            .copy_from_slice(text.as_bytes());
        Some(ShortText {
            len: text.len() as u8,
            bytes,
        })
    }

    fn as_str(&self) -> &str {
        // ASCII by construction, so this never fails; checking it costs a
        // few nanoseconds on writing and saves an allocation on parsing.
        std::str::from_utf8(&self.bytes[..usize::from(self.len)]).unwrap_or_default()
    }
}

impl Number {
    /// A float as `serde_json` writes it, or `None` when it is not finite.
    pub fn from_f64(value: f64) -> Option<Number> {
        value.is_finite().then_some(Number {
            repr: Repr::Float(value),
        })
    }

    /// An `f32` as `serde_json` writes it (shortest text for the `f32`, not
    /// for its widened `f64`), or `None` when it is not finite.
    pub fn from_f32(value: f32) -> Option<Number> {
        value.is_finite().then_some(Number {
            repr: Repr::Float32(value),
        })
    }

    /// A 128-bit integer, written in full.
    pub fn from_i128(value: i128) -> Number {
        if let Ok(v) = u64::try_from(value) {
            Number::from(v)
        } else if let Ok(v) = i64::try_from(value) {
            Number::from(v)
        } else {
            Number::from_grammar_text(&value.to_string())
        }
    }

    /// A 128-bit unsigned integer, written in full.
    pub fn from_u128(value: u128) -> Number {
        match u64::try_from(value) {
            Ok(v) => Number::from(v),
            Err(_) => Number::from_grammar_text(&value.to_string()),
        }
    }

    /// Checks `text` against the JSON number grammar (RFC 8259 §6) and keeps
    /// it verbatim. Returns `None` when it is not a JSON number.
    pub fn from_json_text(text: &str) -> Option<Number> {
        (scan_number(text.as_bytes()) == Some(text.len())).then(|| Number::from_valid_text(text))
    }

    /// `text` must already match the JSON number grammar.
    pub(crate) fn from_valid_text(text: &str) -> Number {
        let bytes = text.as_bytes();
        let is_integer = !bytes.iter().any(|b| matches!(b, b'.' | b'e' | b'E'));
        // `-0` is not the integer 0: keep its sign by keeping its text.
        if is_integer && text != "-0" {
            if let Ok(v) = text.parse::<u64>() {
                return Number::from(v);
            }
            if let Ok(v) = text.parse::<i64>() {
                return Number::from(v);
            }
        }
        Number::from_grammar_text(text)
    }

    /// Keeps `text`, which must already match the JSON number grammar, as
    /// text (no integer conversion): inline when it is short.
    pub(crate) fn from_grammar_text(text: &str) -> Number {
        let repr = match ShortText::new(text) {
            Some(short) => Repr::Short(short),
            None => Repr::Text(text.into()),
        };
        Number { repr }
    }

    /// The number as a `u64`, when it is a non-negative integer that fits.
    pub fn as_u64(&self) -> Option<u64> {
        match self.repr {
            Repr::PosInt(v) => Some(v),
            Repr::NegInt(v) => u64::try_from(v).ok(),
            _ => None,
        }
    }

    /// The number as an `i64`, when it is an integer that fits.
    pub fn as_i64(&self) -> Option<i64> {
        match self.repr {
            Repr::PosInt(v) => i64::try_from(v).ok(),
            Repr::NegInt(v) => Some(v),
            _ => None,
        }
    }

    /// The nearest `f64`. Text too large for `f64` gives an infinity, as
    /// Rust's float parser does; the number itself keeps its text.
    pub fn as_f64(&self) -> f64 {
        match &self.repr {
            Repr::PosInt(v) => *v as f64,
            Repr::NegInt(v) => *v as f64,
            Repr::Float(v) => *v,
            Repr::Float32(v) => f64::from(*v),
            Repr::Short(t) => t.as_str().parse().unwrap_or(f64::NAN),
            Repr::Text(t) => t.parse().unwrap_or(f64::NAN),
        }
    }

    /// Whether the number is written as an integer (no fraction, no
    /// exponent).
    pub fn is_integer(&self) -> bool {
        match &self.repr {
            Repr::PosInt(_) | Repr::NegInt(_) => true,
            Repr::Float(_) | Repr::Float32(_) => false,
            Repr::Short(t) => !t.as_str().bytes().any(|b| matches!(b, b'.' | b'e' | b'E')),
            Repr::Text(t) => !t.bytes().any(|b| matches!(b, b'.' | b'e' | b'E')),
        }
    }

    /// Calls `f` with the number's exact text, without allocating.
    ///
    /// This is the one place a codec needs: every codec writes numbers
    /// through it, so they all agree on the text.
    pub fn with_text<R>(&self, f: impl FnOnce(&str) -> R) -> R {
        match &self.repr {
            Repr::PosInt(v) => f(itoa::Buffer::new().format(*v)),
            Repr::NegInt(v) => f(itoa::Buffer::new().format(*v)),
            Repr::Float(v) => f(zmij::Buffer::new().format_finite(*v)),
            Repr::Float32(v) => f(zmij::Buffer::new().format_finite(*v)),
            Repr::Short(t) => f(t.as_str()),
            Repr::Text(t) => f(t),
        }
    }

    /// Appends the number's exact text to `out`.
    pub fn write_to(&self, out: &mut Vec<u8>) {
        self.with_text(|t| out.extend_from_slice(t.as_bytes()));
    }
}

/// Returns the length of the JSON number at the start of `bytes`, or `None`
/// when `bytes` does not start with one.
pub(crate) fn scan_number(bytes: &[u8]) -> Option<usize> {
    let mut i = 0;
    if bytes.first() == Some(&b'-') {
        i += 1;
    }
    match bytes.get(i) {
        Some(b'0') => i += 1,
        Some(b'1'..=b'9') => {
            i += 1;
            while matches!(bytes.get(i), Some(b'0'..=b'9')) {
                i += 1;
            }
        }
        _ => return None,
    }
    if bytes.get(i) == Some(&b'.') {
        i += 1;
        let start = i;
        while matches!(bytes.get(i), Some(b'0'..=b'9')) {
            i += 1;
        }
        if i == start {
            return None;
        }
    }
    if matches!(bytes.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(bytes.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        let start = i;
        while matches!(bytes.get(i), Some(b'0'..=b'9')) {
            i += 1;
        }
        if i == start {
            return None;
        }
    }
    Some(i)
}

macro_rules! from_unsigned {
    ($($t:ty)*) => {$(
        impl From<$t> for Number {
            fn from(value: $t) -> Number {
                Number { repr: Repr::PosInt(value as u64) }
            }
        }
    )*};
}

macro_rules! from_signed {
    ($($t:ty)*) => {$(
        impl From<$t> for Number {
            fn from(value: $t) -> Number {
                let repr = if value < 0 {
                    Repr::NegInt(value as i64)
                } else {
                    Repr::PosInt(value as u64)
                };
                Number { repr }
            }
        }
    )*};
}

from_unsigned!(u8 u16 u32 u64 usize);
from_signed!(i8 i16 i32 i64 isize);

impl serde::Serialize for Number {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match &self.repr {
            Repr::PosInt(v) => serializer.serialize_u64(*v),
            Repr::NegInt(v) => serializer.serialize_i64(*v),
            Repr::Float(v) => serializer.serialize_f64(*v),
            Repr::Float32(v) => serializer.serialize_f32(*v),
            // Text no primitive can carry: serializers of this workspace
            // recognise the token and write it verbatim.
            Repr::Short(t) => serializer.serialize_newtype_struct(super::NUMBER_TOKEN, t.as_str()),
            Repr::Text(t) => serializer.serialize_newtype_struct(super::NUMBER_TOKEN, &**t),
        }
    }
}

impl PartialEq for Number {
    fn eq(&self, other: &Number) -> bool {
        match (&self.repr, &other.repr) {
            (Repr::PosInt(a), Repr::PosInt(b)) => a == b,
            (Repr::NegInt(a), Repr::NegInt(b)) => a == b,
            (Repr::Short(a), Repr::Short(b)) => a == b,
            (Repr::Text(a), Repr::Text(b)) => a == b,
            _ => self.with_text(|a| other.with_text(|b| a == b)),
        }
    }
}

impl Eq for Number {}

impl fmt::Display for Number {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.with_text(|t| f.write_str(t))
    }
}

impl fmt::Debug for Number {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Number({self})")
    }
}

/// The error of parsing a [`Number`] from text that is not a JSON number.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("not a JSON number")]
pub struct InvalidNumber(());

impl FromStr for Number {
    type Err = InvalidNumber;

    fn from_str(text: &str) -> Result<Number, InvalidNumber> {
        Number::from_json_text(text).ok_or(InvalidNumber(()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn source_text_is_kept() {
        for text in [
            "76",
            "0.98",
            "1.10",
            "1e400",
            "-0.0",
            "-0",
            "12345678901234567890",
            "123456789012345678901234567890",
            "-9223372036854775808",
            "-9223372036854775809",
            "1E+2",
            "0",
        ] {
            let n: Number = text.parse().unwrap();
            assert_eq!(n.to_string(), text);
        }
    }

    #[test]
    fn invalid_text_is_rejected() {
        for text in [
            "", "-", "01", "1.", ".5", "1e", "+1", "1e+", "0x10", "NaN", "1 ",
        ] {
            assert!(text.parse::<Number>().is_err(), "{text:?}");
        }
    }

    #[test]
    fn floats_are_written_like_serde_json() {
        for v in [0.1, 1.0, -0.0, 1e21, 1.5e-7, f64::MAX, f64::MIN_POSITIVE] {
            let n = Number::from_f64(v).unwrap();
            assert_eq!(n.to_string(), serde_json::to_string(&v).unwrap());
        }
        let n = Number::from_f32(0.1f32).unwrap();
        assert_eq!(n.to_string(), serde_json::to_string(&0.1f32).unwrap());
    }

    #[test]
    fn non_finite_floats_have_no_number() {
        assert!(Number::from_f64(f64::NAN).is_none());
        assert!(Number::from_f64(f64::INFINITY).is_none());
        assert!(Number::from_f32(f32::NEG_INFINITY).is_none());
    }

    #[test]
    fn equality_is_textual() {
        assert_eq!(Number::from(76u8), "76".parse().unwrap());
        assert_eq!(Number::from_f64(0.5).unwrap(), "0.5".parse().unwrap());
        assert_ne!("1.0".parse::<Number>().unwrap(), "1.00".parse().unwrap());
        assert_eq!(Number::from_i128(-5), Number::from(-5i8));
        assert_eq!(
            Number::from_u128(u128::MAX).to_string(),
            u128::MAX.to_string()
        );
    }
}

//! Any `Serialize` to [`Value`] ([`to_value`]), and `Serialize` for
//! [`Value`].
//!
//! The one normalization every codec shares: struct fields keep their
//! declaration order, map keys are sorted (so a `HashMap` renders the same
//! bytes every time), and everything else is represented the way
//! `serde_json` represents it.

use serde::ser::{self, Impossible, Serialize};

use super::{DEFAULT_MAX_DEPTH, Map, Number, Value};

/// The newtype-struct name under which a [`Value`] hands a verbatim number
/// text to a serializer. Serializers of this workspace recognise it and
/// write the text as a number; any other serializer sees a newtype around
/// a string and writes a string.
#[doc(hidden)]
pub const NUMBER_TOKEN: &str = "$codec_core::private::Number";

/// The newtype-struct name under which a [`Value`] hands an object whose
/// key order is already decided. Serializers of this workspace recognise it
/// and keep the order instead of sorting; any other serializer sees a
/// newtype around a map, which serializes in order anyway.
#[doc(hidden)]
pub const ORDERED_MAP_TOKEN: &str = "$codec_core::private::OrderedMap";

/// Why a value could not become a [`Value`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ToValueError {
    /// The type's `Serialize` impl reported an error.
    #[error("{message}")]
    Custom {
        /// The impl's message.
        message: String,
    },
    /// A map key that JSON cannot hold as a string (a sequence, a map,
    /// `None`, unit, bytes...), as `serde_json` rejects it.
    #[error("key must be a string, found {found}")]
    KeyMustBeAString {
        /// The kind of key.
        found: &'static str,
    },
    /// A NaN or infinite float used as a map key.
    #[error("float key must be finite")]
    FloatKeyMustBeFinite,
    /// Nesting deeper than the limit.
    #[error("nesting deeper than the limit of {limit}")]
    DepthLimit {
        /// The limit in force.
        limit: usize,
    },
}

impl ser::Error for ToValueError {
    fn custom<T: std::fmt::Display>(message: T) -> ToValueError {
        ToValueError::Custom {
            message: message.to_string(),
        }
    }
}

/// Converts any `Serialize` value into a [`Value`], normalized the way every
/// codec of this workspace sees it.
///
/// - Struct fields keep declaration order; serde attributes (`rename`,
///   `skip_serializing_if`, `tag`, ...) apply as usual.
/// - Map keys are sorted by their UTF-8 bytes, so `HashMap` output is
///   deterministic. Non-string keys become strings as `serde_json` makes
///   them (`1` becomes `"1"`, `true` becomes `"true"`, a unit variant its
///   name); other keys are [`ToValueError::KeyMustBeAString`]. A struct
///   with `#[serde(flatten)]` is serialized by serde as a map, so its keys
///   are sorted too.
/// - Enums, options, newtypes, tuples and bytes are represented as
///   `serde_json` represents them; `NaN` and infinite floats become `null`,
///   as `serde_json::to_vec` writes them.
/// - Nesting deeper than [`DEFAULT_MAX_DEPTH`] is
///   [`ToValueError::DepthLimit`] (checked before descending, so a deep
///   value cannot overflow the stack here).
///
/// ```
/// use std::collections::HashMap;
///
/// #[derive(serde::Serialize)]
/// struct Repo { name: &'static str, stars: u32, tags: HashMap<&'static str, u8> }
///
/// let repo = Repo { name: "serde", stars: 9000, tags: HashMap::from([("z", 1), ("a", 2)]) };
/// let value = codec_core::to_value(&repo).unwrap();
/// let keys: Vec<_> = value.as_object().unwrap().keys().collect();
/// assert_eq!(keys, ["name", "stars", "tags"]);
/// let tag_keys: Vec<_> = value["tags"].as_object().unwrap().keys().collect();
/// assert_eq!(tag_keys, ["a", "z"]);
/// ```
pub fn to_value<T: Serialize + ?Sized>(value: &T) -> Result<Value, ToValueError> {
    value.serialize(ValueSerializer {
        depth: 0,
        sort_maps: true,
    })
}

impl Serialize for Value {
    fn serialize<S: ser::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Value::Null => serializer.serialize_unit(),
            Value::Bool(b) => serializer.serialize_bool(*b),
            Value::Number(n) => n.serialize(serializer),
            Value::String(s) => serializer.serialize_str(s),
            Value::Array(items) => serializer.collect_seq(items),
            Value::Object(map) => {
                serializer.serialize_newtype_struct(ORDERED_MAP_TOKEN, &InOrder(map))
            }
        }
    }
}

struct InOrder<'a>(&'a Map);

impl Serialize for InOrder<'_> {
    fn serialize<S: ser::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(self.0.iter())
    }
}

impl Serialize for Map {
    fn serialize<S: ser::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_newtype_struct(ORDERED_MAP_TOKEN, &InOrder(self))
    }
}

#[derive(Debug, Clone, Copy)]
struct ValueSerializer {
    depth: usize,
    sort_maps: bool,
}

impl ValueSerializer {
    /// The serializer for a child of a container at `self.depth`.
    fn enter(self) -> Result<ValueSerializer, ToValueError> {
        if self.depth >= DEFAULT_MAX_DEPTH {
            return Err(ToValueError::DepthLimit {
                limit: DEFAULT_MAX_DEPTH,
            });
        }
        Ok(ValueSerializer {
            depth: self.depth + 1,
            sort_maps: true,
        })
    }
}

impl ser::Serializer for ValueSerializer {
    type Ok = Value;
    type Error = ToValueError;
    type SerializeSeq = SeqBuilder;
    type SerializeTuple = SeqBuilder;
    type SerializeTupleStruct = SeqBuilder;
    type SerializeTupleVariant = VariantBuilder<SeqBuilder>;
    type SerializeMap = MapBuilder;
    type SerializeStruct = MapBuilder;
    type SerializeStructVariant = VariantBuilder<MapBuilder>;

    fn serialize_bool(self, v: bool) -> Result<Value, ToValueError> {
        Ok(Value::Bool(v))
    }
    fn serialize_i8(self, v: i8) -> Result<Value, ToValueError> {
        Ok(Value::from(v))
    }
    fn serialize_i16(self, v: i16) -> Result<Value, ToValueError> {
        Ok(Value::from(v))
    }
    fn serialize_i32(self, v: i32) -> Result<Value, ToValueError> {
        Ok(Value::from(v))
    }
    fn serialize_i64(self, v: i64) -> Result<Value, ToValueError> {
        Ok(Value::from(v))
    }
    fn serialize_i128(self, v: i128) -> Result<Value, ToValueError> {
        Ok(Value::Number(Number::from_i128(v)))
    }
    fn serialize_u8(self, v: u8) -> Result<Value, ToValueError> {
        Ok(Value::from(v))
    }
    fn serialize_u16(self, v: u16) -> Result<Value, ToValueError> {
        Ok(Value::from(v))
    }
    fn serialize_u32(self, v: u32) -> Result<Value, ToValueError> {
        Ok(Value::from(v))
    }
    fn serialize_u64(self, v: u64) -> Result<Value, ToValueError> {
        Ok(Value::from(v))
    }
    fn serialize_u128(self, v: u128) -> Result<Value, ToValueError> {
        Ok(Value::Number(Number::from_u128(v)))
    }
    fn serialize_f32(self, v: f32) -> Result<Value, ToValueError> {
        Ok(Value::from(v))
    }
    fn serialize_f64(self, v: f64) -> Result<Value, ToValueError> {
        Ok(Value::from(v))
    }
    fn serialize_char(self, v: char) -> Result<Value, ToValueError> {
        Ok(Value::String(v.to_string()))
    }
    fn serialize_str(self, v: &str) -> Result<Value, ToValueError> {
        Ok(Value::String(v.to_owned()))
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<Value, ToValueError> {
        // serde_json writes bytes as an array of numbers.
        Ok(Value::Array(v.iter().map(|&b| Value::from(b)).collect()))
    }
    fn serialize_none(self) -> Result<Value, ToValueError> {
        Ok(Value::Null)
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<Value, ToValueError> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<Value, ToValueError> {
        Ok(Value::Null)
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Result<Value, ToValueError> {
        Ok(Value::Null)
    }
    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<Value, ToValueError> {
        Ok(Value::String(variant.to_owned()))
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        name: &'static str,
        value: &T,
    ) -> Result<Value, ToValueError> {
        match name {
            NUMBER_TOKEN => {
                let mut text = String::new();
                value.serialize(TextCapture(&mut text))?;
                Number::from_json_text(&text)
                    .map(Value::Number)
                    .ok_or_else(|| ser::Error::custom(format!("invalid number text {text:?}")))
            }
            ORDERED_MAP_TOKEN => value.serialize(ValueSerializer {
                sort_maps: false,
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
    ) -> Result<Value, ToValueError> {
        let inner = value.serialize(self.enter()?)?;
        let mut map = Map::with_capacity(1);
        map.insert_static(variant, inner);
        Ok(Value::Object(map))
    }
    fn serialize_seq(self, len: Option<usize>) -> Result<SeqBuilder, ToValueError> {
        Ok(SeqBuilder {
            child: self.enter()?,
            items: Vec::with_capacity(len.unwrap_or(0).min(4096)),
        })
    }
    fn serialize_tuple(self, len: usize) -> Result<SeqBuilder, ToValueError> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_struct(
        self,
        _name: &'static str,
        len: usize,
    ) -> Result<SeqBuilder, ToValueError> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<VariantBuilder<SeqBuilder>, ToValueError> {
        Ok(VariantBuilder {
            variant,
            inner: self.enter()?.serialize_seq(Some(len))?,
        })
    }
    fn serialize_map(self, len: Option<usize>) -> Result<MapBuilder, ToValueError> {
        Ok(MapBuilder {
            child: self.enter()?,
            sort: self.sort_maps,
            map: Map::with_capacity(len.unwrap_or(0).min(4096)),
            key: None,
        })
    }
    fn serialize_struct(self, _name: &'static str, len: usize) -> Result<MapBuilder, ToValueError> {
        Ok(MapBuilder {
            child: self.enter()?,
            sort: false,
            map: Map::with_capacity(len),
            key: None,
        })
    }
    fn serialize_struct_variant(
        self,
        name: &'static str,
        _index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<VariantBuilder<MapBuilder>, ToValueError> {
        Ok(VariantBuilder {
            variant,
            inner: self.enter()?.serialize_struct(name, len)?,
        })
    }
}

#[derive(Debug)]
pub(crate) struct SeqBuilder {
    child: ValueSerializer,
    items: Vec<Value>,
}

impl ser::SerializeSeq for SeqBuilder {
    type Ok = Value;
    type Error = ToValueError;

    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), ToValueError> {
        self.items.push(value.serialize(self.child)?);
        Ok(())
    }
    fn end(self) -> Result<Value, ToValueError> {
        Ok(Value::Array(self.items))
    }
}

impl ser::SerializeTuple for SeqBuilder {
    type Ok = Value;
    type Error = ToValueError;

    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), ToValueError> {
        ser::SerializeSeq::serialize_element(self, value)
    }
    fn end(self) -> Result<Value, ToValueError> {
        ser::SerializeSeq::end(self)
    }
}

impl ser::SerializeTupleStruct for SeqBuilder {
    type Ok = Value;
    type Error = ToValueError;

    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), ToValueError> {
        ser::SerializeSeq::serialize_element(self, value)
    }
    fn end(self) -> Result<Value, ToValueError> {
        ser::SerializeSeq::end(self)
    }
}

#[derive(Debug)]
pub(crate) struct MapBuilder {
    child: ValueSerializer,
    sort: bool,
    map: Map,
    key: Option<String>,
}

impl ser::SerializeMap for MapBuilder {
    type Ok = Value;
    type Error = ToValueError;

    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), ToValueError> {
        self.key = Some(key_to_string(key)?);
        Ok(())
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), ToValueError> {
        let key = self
            .key
            .take()
            .ok_or_else(|| ser::Error::custom("serialize_value called before serialize_key"))?;
        self.map.insert(key, value.serialize(self.child)?);
        Ok(())
    }
    fn end(mut self) -> Result<Value, ToValueError> {
        if self.sort {
            self.map.sort_keys();
        }
        Ok(Value::Object(self.map))
    }
}

impl ser::SerializeStruct for MapBuilder {
    type Ok = Value;
    type Error = ToValueError;

    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), ToValueError> {
        self.map.insert_static(key, value.serialize(self.child)?);
        Ok(())
    }
    fn end(self) -> Result<Value, ToValueError> {
        Ok(Value::Object(self.map))
    }
}

/// A tuple or struct variant: `{"Variant": inner}`.
#[derive(Debug)]
pub(crate) struct VariantBuilder<B> {
    variant: &'static str,
    inner: B,
}

impl<B> VariantBuilder<B> {
    fn wrap(variant: &'static str, inner: Value) -> Value {
        let mut map = Map::with_capacity(1);
        map.insert_static(variant, inner);
        Value::Object(map)
    }
}

impl ser::SerializeTupleVariant for VariantBuilder<SeqBuilder> {
    type Ok = Value;
    type Error = ToValueError;

    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), ToValueError> {
        ser::SerializeSeq::serialize_element(&mut self.inner, value)
    }
    fn end(self) -> Result<Value, ToValueError> {
        let inner = ser::SerializeSeq::end(self.inner)?;
        Ok(Self::wrap(self.variant, inner))
    }
}

impl ser::SerializeStructVariant for VariantBuilder<MapBuilder> {
    type Ok = Value;
    type Error = ToValueError;

    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), ToValueError> {
        ser::SerializeStruct::serialize_field(&mut self.inner, key, value)
    }
    fn end(self) -> Result<Value, ToValueError> {
        let inner = ser::SerializeStruct::end(self.inner)?;
        Ok(Self::wrap(self.variant, inner))
    }
}

/// Turns a map key into the string [`to_value`] (and `serde_json`) makes of
/// it: strings as they are, integers, bools and chars as their text, finite
/// floats as `serde_json` writes them, unit variants as their name.
///
/// For codecs that stream a `Serialize` value without building a [`Value`]
/// and must sort map keys exactly as [`to_value`] does.
pub fn key_to_string<T: Serialize + ?Sized>(key: &T) -> Result<String, ToValueError> {
    let mut text = String::new();
    write_key(key, &mut text)?;
    Ok(text)
}

/// Appends the text [`key_to_string`] gives to `out`, without allocating
/// when `out` has room: for codecs that reuse one buffer for every key.
pub fn write_key<T: Serialize + ?Sized>(key: &T, out: &mut String) -> Result<(), ToValueError> {
    key.serialize(KeySerializer(out))
}

#[derive(Debug)]
struct KeySerializer<'a>(&'a mut String);

macro_rules! key_via_display {
    ($($method:ident: $t:ty),*) => {$(
        fn $method(self, v: $t) -> Result<(), ToValueError> {
            use std::fmt::Write;
            // Writing to a String cannot fail.
            let _ = write!(self.0, "{v}");
            Ok(())
        }
    )*};
}

macro_rules! key_rejected {
    ($($method:ident($($arg:ty),*) -> $ret:ty: $found:literal),*) => {$(
        fn $method(self, $(_: $arg),*) -> Result<$ret, ToValueError> {
            Err(ToValueError::KeyMustBeAString { found: $found })
        }
    )*};
}

impl ser::Serializer for KeySerializer<'_> {
    type Ok = ();
    type Error = ToValueError;
    type SerializeSeq = Impossible<(), ToValueError>;
    type SerializeTuple = Impossible<(), ToValueError>;
    type SerializeTupleStruct = Impossible<(), ToValueError>;
    type SerializeTupleVariant = Impossible<(), ToValueError>;
    type SerializeMap = Impossible<(), ToValueError>;
    type SerializeStruct = Impossible<(), ToValueError>;
    type SerializeStructVariant = Impossible<(), ToValueError>;

    key_via_display!(
        serialize_bool: bool, serialize_i8: i8, serialize_i16: i16, serialize_i32: i32,
        serialize_i64: i64, serialize_i128: i128, serialize_u8: u8, serialize_u16: u16,
        serialize_u32: u32, serialize_u64: u64, serialize_u128: u128, serialize_char: char
    );

    fn serialize_f32(self, v: f32) -> Result<(), ToValueError> {
        let n = Number::from_f32(v).ok_or(ToValueError::FloatKeyMustBeFinite)?;
        n.with_text(|t| self.0.push_str(t));
        Ok(())
    }
    fn serialize_f64(self, v: f64) -> Result<(), ToValueError> {
        let n = Number::from_f64(v).ok_or(ToValueError::FloatKeyMustBeFinite)?;
        n.with_text(|t| self.0.push_str(t));
        Ok(())
    }
    #[inline]
    fn serialize_str(self, v: &str) -> Result<(), ToValueError> {
        self.0.push_str(v);
        Ok(())
    }
    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<(), ToValueError> {
        self.0.push_str(variant);
        Ok(())
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<(), ToValueError> {
        value.serialize(self)
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), ToValueError> {
        value.serialize(self)
    }

    key_rejected!(
        serialize_bytes(&[u8]) -> (): "bytes",
        serialize_none() -> (): "none",
        serialize_unit() -> (): "unit",
        serialize_unit_struct(&'static str) -> (): "a unit struct",
        serialize_seq(Option<usize>) -> Self::SerializeSeq: "a sequence",
        serialize_tuple(usize) -> Self::SerializeTuple: "a tuple",
        serialize_tuple_struct(&'static str, usize) -> Self::SerializeTupleStruct: "a tuple struct",
        serialize_tuple_variant(&'static str, u32, &'static str, usize) -> Self::SerializeTupleVariant: "a tuple variant",
        serialize_map(Option<usize>) -> Self::SerializeMap: "a map",
        serialize_struct(&'static str, usize) -> Self::SerializeStruct: "a struct",
        serialize_struct_variant(&'static str, u32, &'static str, usize) -> Self::SerializeStructVariant: "a struct variant"
    );

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _value: &T,
    ) -> Result<(), ToValueError> {
        Err(ToValueError::KeyMustBeAString {
            found: "a newtype variant",
        })
    }
}

/// Appends the string inside a [`NUMBER_TOKEN`] newtype to a buffer (a
/// tape's text, or a new `String`).
pub(crate) struct TextCapture<'a>(pub(crate) &'a mut String);

impl ser::Serializer for TextCapture<'_> {
    type Ok = ();
    type Error = ToValueError;
    type SerializeSeq = Impossible<(), ToValueError>;
    type SerializeTuple = Impossible<(), ToValueError>;
    type SerializeTupleStruct = Impossible<(), ToValueError>;
    type SerializeTupleVariant = Impossible<(), ToValueError>;
    type SerializeMap = Impossible<(), ToValueError>;
    type SerializeStruct = Impossible<(), ToValueError>;
    type SerializeStructVariant = Impossible<(), ToValueError>;

    fn serialize_str(self, v: &str) -> Result<(), ToValueError> {
        self.0.push_str(v);
        Ok(())
    }

    key_rejected!(
        serialize_bool(bool) -> (): "bool", serialize_i8(i8) -> (): "i8",
        serialize_i16(i16) -> (): "i16", serialize_i32(i32) -> (): "i32",
        serialize_i64(i64) -> (): "i64", serialize_u8(u8) -> (): "u8",
        serialize_u16(u16) -> (): "u16", serialize_u32(u32) -> (): "u32",
        serialize_u64(u64) -> (): "u64", serialize_f32(f32) -> (): "f32",
        serialize_f64(f64) -> (): "f64", serialize_char(char) -> (): "char",
        serialize_bytes(&[u8]) -> (): "bytes", serialize_none() -> (): "none",
        serialize_unit() -> (): "unit",
        serialize_unit_struct(&'static str) -> (): "a unit struct",
        serialize_unit_variant(&'static str, u32, &'static str) -> (): "a unit variant",
        serialize_seq(Option<usize>) -> Self::SerializeSeq: "a sequence",
        serialize_tuple(usize) -> Self::SerializeTuple: "a tuple",
        serialize_tuple_struct(&'static str, usize) -> Self::SerializeTupleStruct: "a tuple struct",
        serialize_tuple_variant(&'static str, u32, &'static str, usize) -> Self::SerializeTupleVariant: "a tuple variant",
        serialize_map(Option<usize>) -> Self::SerializeMap: "a map",
        serialize_struct(&'static str, usize) -> Self::SerializeStruct: "a struct",
        serialize_struct_variant(&'static str, u32, &'static str, usize) -> Self::SerializeStructVariant: "a struct variant"
    );

    fn serialize_some<T: Serialize + ?Sized>(self, _value: &T) -> Result<(), ToValueError> {
        Err(ToValueError::KeyMustBeAString { found: "some" })
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<(), ToValueError> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _value: &T,
    ) -> Result<(), ToValueError> {
        Err(ToValueError::KeyMustBeAString {
            found: "a newtype variant",
        })
    }
}

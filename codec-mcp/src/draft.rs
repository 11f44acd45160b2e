//! [`Draft`]: a result whose structured content still borrows the
//! handler's value, so the codec writes it without copying the value.
//!
//! The copy is the expensive part of an owned result: writing through an
//! owned [`CallToolResult`] copies the whole value before writing it,
//! which costs more than encoding it as JSON.
//! [`Draft::write`] writes the members in the wire
//! order with codec-core's [`JsonObject`], and the structured content
//! straight from its [`ValueView`]: a `&Value`, or the node of a tape of
//! typed data, which never becomes a `Value` at all. Numbers keep their
//! text and objects their order, as they do through a [`Value`].

use codec_core::{
    EncodeError, Map, Value, ValueView,
    json::{JsonObject, JsonWriter},
    view::ViewKind,
};
use serde::Serialize;
use serde::ser::{SerializeStruct, Serializer};

use crate::schema::WRAP_KEY;
use crate::wire::{CallToolResult, ContentBlock, RequestId, TextContent};

/// `structuredContent`, borrowed: the value itself, or wrapped as
/// `{"result": value}`; or owned, when it holds only the rows a cut text
/// kept ([`Structured::first_rows`]).
#[derive(Debug, Clone)]
pub(crate) enum Structured<V> {
    AsIs(V),
    Wrapped(V),
    Owned(Value),
}

impl Structured<&Value> {
    /// An owned copy.
    pub(crate) fn into_value(self) -> Value {
        match self {
            Structured::AsIs(value) => value.clone(),
            Structured::Wrapped(value) => {
                Value::Object([(WRAP_KEY, value.clone())].into_iter().collect())
            }
            Structured::Owned(value) => value,
        }
    }
}

impl<'v, V: ValueView<'v>> Structured<V> {
    /// Appends its JSON.
    pub(crate) fn write(&self, writer: &JsonWriter, out: &mut Vec<u8>) -> Result<(), EncodeError> {
        match self {
            Structured::AsIs(value) => writer.write_view(*value, out),
            Structured::Wrapped(value) => {
                let mut wrapper = writer.object(out)?;
                wrapper.member_view(WRAP_KEY, *value)?;
                wrapper.end();
                Ok(())
            }
            Structured::Owned(value) => writer.write_value(value, out),
        }
    }

    /// The same, holding only the first `kept` rows of the value's table
    /// (the value when it is an array, or its only member when that is
    /// one): an owned copy of those rows, which a cut text keeps small.
    pub(crate) fn first_rows(self, kept: usize) -> Structured<V> {
        let (value, wrapped) = match self {
            Structured::AsIs(value) => (value, false),
            Structured::Wrapped(value) => (value, true),
            owned @ Structured::Owned(_) => return owned,
        };
        let rows = |items: V::Elements| Value::Array(items.take(kept).map(to_value).collect());
        let cut = match value.kind() {
            ViewKind::Array(items) => rows(items),
            ViewKind::Object(mut members) if members.len() == 1 => match members.next() {
                Some((key, table)) => match table.kind() {
                    ViewKind::Array(items) => {
                        Value::Object([(key.to_owned(), rows(items))].into_iter().collect())
                    }
                    _ => return self,
                },
                None => return self,
            },
            _ => return self,
        };
        Structured::Owned(if wrapped {
            Value::Object([(WRAP_KEY, cut)].into_iter().collect())
        } else {
            cut
        })
    }
}

/// How many rows the table of `value` has: its elements when it is an
/// array, or those of its only member when that is one.
pub(crate) fn table_rows<'v, V: ValueView<'v>>(value: V) -> Option<usize> {
    match value.kind() {
        ViewKind::Array(items) => Some(items.len()),
        ViewKind::Object(mut members) if members.len() == 1 => match members.next()?.1.kind() {
            ViewKind::Array(items) => Some(items.len()),
            _ => None,
        },
        _ => None,
    }
}

/// An owned copy of a view. Recursion is bounded: a result's value is
/// checked against the depth limit first.
fn to_value<'v, V: ValueView<'v>>(view: V) -> Value {
    match view.kind() {
        ViewKind::Null => Value::Null,
        ViewKind::Bool(b) => Value::Bool(b),
        ViewKind::Number(number) => {
            number.with_text(|text| text.parse().map_or(Value::Null, Value::Number))
        }
        ViewKind::String(s) => Value::String(s.to_owned()),
        ViewKind::Array(items) => Value::Array(items.map(to_value).collect()),
        ViewKind::Object(members) => Value::Object(
            members
                .map(|(key, value)| (key.to_owned(), to_value(value)))
                .collect(),
        ),
    }
}

/// A result before it is owned ([`Draft::into_result`]) or written
/// ([`Draft::write`]), its structured content a `V`.
#[derive(Debug)]
pub(crate) struct Draft<V> {
    pub(crate) result_type: Option<&'static str>,
    pub(crate) content: Vec<ContentBlock>,
    pub(crate) structured: Option<Structured<V>>,
    pub(crate) is_error: bool,
    pub(crate) meta: Option<Map>,
}

impl Draft<&Value> {
    /// The owned result: copies the structured value.
    pub(crate) fn into_result(self) -> CallToolResult {
        CallToolResult {
            result_type: self.result_type.map(str::to_owned),
            content: self.content,
            structured_content: self.structured.map(Structured::into_value),
            is_error: self.is_error.then_some(true),
            meta: self.meta,
            other: Map::new(),
        }
    }
}

impl<'v, V: ValueView<'v>> Draft<V> {
    /// Appends the JSON of the result: the members of
    /// [`CallToolResult::into_value`], in its order.
    pub(crate) fn write(&self, writer: &JsonWriter, out: &mut Vec<u8>) -> Result<(), EncodeError> {
        let mut result = writer.object(out)?;
        self.write_members(&mut result)?;
        result.end();
        Ok(())
    }

    fn write_members(&self, result: &mut JsonObject<'_>) -> Result<(), EncodeError> {
        if let Some(result_type) = self.result_type {
            result.member("resultType", result_type)?;
        }
        result.member("content", &Blocks(&self.content))?;
        if let Some(structured) = &self.structured {
            result.member_with("structuredContent", |writer, out| {
                structured.write(writer, out)
            })?;
        }
        if self.is_error {
            result.member("isError", &true)?;
        }
        if let Some(meta) = &self.meta {
            result.member("_meta", meta)?;
        }
        Ok(())
    }

    /// Appends the JSON-RPC 2.0 response carrying the result:
    /// `{"jsonrpc": "2.0", "id": ..., "result": ...}`.
    pub(crate) fn write_response(
        &self,
        id: &RequestId,
        writer: &JsonWriter,
        out: &mut Vec<u8>,
    ) -> Result<(), EncodeError> {
        let mut response = writer.object(out)?;
        response.member("jsonrpc", "2.0")?;
        match id {
            RequestId::Integer(n) => response.member("id", n)?,
            RequestId::String(s) => response.member("id", s)?,
        }
        response.member_with("result", |writer, out| self.write(writer, out))?;
        response.end();
        Ok(())
    }
}

struct Blocks<'a>(&'a [ContentBlock]);

impl Serialize for Blocks<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.iter().map(Block))
    }
}

struct Block<'a>(&'a ContentBlock);

impl Serialize for Block<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self.0 {
            // What the codec writes: a plain text block.
            ContentBlock::Text(TextContent {
                text,
                annotations: None,
                meta: None,
                other,
            }) if other.is_empty() => {
                let mut block = serializer.serialize_struct("TextContent", 2)?;
                block.serialize_field("type", "text")?;
                block.serialize_field("text", text)?;
                block.end()
            }
            // Anything else goes through its `Value`, in order.
            block => block.clone().into_value().serialize(serializer),
        }
    }
}

//! [`Draft`]: a result whose structured content still borrows the
//! handler's value, so the codec writes it without copying the value.
//!
//! The copy is the expensive part of an owned result: on the 44 KB
//! `github.json` benchmark dataset (release build, this machine), writing
//! through an owned [`CallToolResult`] took about 190 µs and streaming a
//! [`Draft`] about 130 µs, against 35 µs for the JSON codec alone and
//! 53 µs for the markdown. [`Draft`] implements `Serialize` with the
//! members in the wire order, and the JSON codec streams it: numbers keep
//! their text and objects their order, as they do through a [`Value`].

use codec_core::{Map, Value};
use serde::ser::{SerializeStruct, Serializer};
use serde::Serialize;

use crate::schema::WRAP_KEY;
use crate::wire::{CallToolResult, ContentBlock, RequestId, TextContent};

/// `structuredContent`, borrowed: the value itself, or wrapped as
/// `{"result": value}`.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Structured<'a> {
    AsIs(&'a Value),
    Wrapped(&'a Value),
}

impl Structured<'_> {
    /// An owned copy.
    pub(crate) fn to_value(self) -> Value {
        match self {
            Structured::AsIs(value) => value.clone(),
            Structured::Wrapped(value) => {
                Value::Object([(WRAP_KEY, value.clone())].into_iter().collect())
            }
        }
    }
}

impl Serialize for Structured<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Structured::AsIs(value) => value.serialize(serializer),
            // A struct, not a map: the JSON codec buffers maps to sort
            // their keys, and this one holds the whole value.
            Structured::Wrapped(value) => {
                let mut wrapper = serializer.serialize_struct("Wrapped", 1)?;
                wrapper.serialize_field(WRAP_KEY, value)?;
                wrapper.end()
            }
        }
    }
}

/// A result before it is owned ([`Draft::into_result`]) or written
/// (`Serialize`).
#[derive(Debug)]
pub(crate) struct Draft<'a> {
    pub(crate) result_type: Option<&'static str>,
    pub(crate) content: Vec<ContentBlock>,
    pub(crate) structured: Option<Structured<'a>>,
    pub(crate) is_error: bool,
    pub(crate) meta: Option<Map>,
}

impl Draft<'_> {
    /// The owned result: copies the structured value.
    pub(crate) fn into_result(self) -> CallToolResult {
        CallToolResult {
            result_type: self.result_type.map(str::to_owned),
            content: self.content,
            structured_content: self.structured.map(Structured::to_value),
            is_error: self.is_error.then_some(true),
            meta: self.meta,
            other: Map::new(),
        }
    }
}

impl Serialize for Draft<'_> {
    /// The members of [`CallToolResult::into_value`], in its order.
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let len = 1
            + usize::from(self.result_type.is_some())
            + usize::from(self.structured.is_some())
            + usize::from(self.is_error)
            + usize::from(self.meta.is_some());
        let mut result = serializer.serialize_struct("CallToolResult", len)?;
        if let Some(result_type) = self.result_type {
            result.serialize_field("resultType", result_type)?;
        }
        result.serialize_field("content", &Blocks(&self.content))?;
        if let Some(structured) = &self.structured {
            result.serialize_field("structuredContent", structured)?;
        }
        if self.is_error {
            result.serialize_field("isError", &true)?;
        }
        if let Some(meta) = &self.meta {
            result.serialize_field("_meta", meta)?;
        }
        result.end()
    }
}

/// `{"jsonrpc": "2.0", "id": ..., "result": ...}` around a borrowed result.
pub(crate) struct Envelope<'a, T> {
    pub(crate) id: &'a RequestId,
    pub(crate) result: &'a T,
}

impl<T: Serialize> Serialize for Envelope<'_, T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut response = serializer.serialize_struct("JsonRpcResponse", 3)?;
        response.serialize_field("jsonrpc", "2.0")?;
        match self.id {
            RequestId::Integer(n) => response.serialize_field("id", n)?,
            RequestId::String(s) => response.serialize_field("id", s)?,
        }
        response.serialize_field("result", self.result)?;
        response.end()
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

//! The wire types: [`CallToolResult`], its [`ContentBlock`]s, and the
//! JSON-RPC 2.0 [`JsonRpcResponse`] that carries it, written by hand to
//! the official schemas.
//!
//! Each type converts to a [`Value`] in the order the specification's
//! examples use, and parses back from a [`Value`] or from JSON bytes with
//! a [`WireError`] that names the member at fault. Members this crate does
//! not model are kept, after the modelled ones and in their own order, so
//! a parsed result writes back whole.

use std::fmt;

use codec_core::{Map, ParseError, Value};

/// The `_meta` key of the server's self-description (2026-07-28).
pub(crate) const SERVER_INFO_KEY: &str = "io.modelcontextprotocol/serverInfo";

/// The result of a `tools/call` request.
///
/// Members, in the order they are written: `resultType` (2026-07-28),
/// `content`, `structuredContent`, `isError`, `_meta`, then any other
/// members a parsed result had.
///
/// ```
/// use codec_mcp::{CallToolResult, ContentBlock};
///
/// let result = CallToolResult::from_slice(
///     br#"{"content":[{"type":"text","text":"done"}],"isError":false}"#,
/// ).unwrap();
/// assert_eq!(result.text(), Some("done"));
/// assert_eq!(result.is_error, Some(false));
/// assert!(matches!(result.content[0], ContentBlock::Text(_)));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct CallToolResult {
    /// `resultType`: `"complete"` for a finished call. Required from
    /// 2026-07-28, absent before (a 2026 client reads absent as
    /// `"complete"`).
    pub result_type: Option<String>,
    /// `content`: what the model reads. Required, may be empty.
    pub content: Vec<ContentBlock>,
    /// `structuredContent`: the data, for clients and validation against
    /// the tool's output schema. An object before 2026-07-28.
    pub structured_content: Option<Value>,
    /// `isError`: `Some(true)` when the tool ran and failed. Absent means
    /// `false`.
    pub is_error: Option<bool>,
    /// `_meta`: protocol and vendor metadata.
    pub meta: Option<Map>,
    /// Members this crate does not model, in their order.
    pub other: Map,
}

/// One item of a result's `content`.
///
/// Only text is modelled: it is all this codec writes. Image, audio,
/// resource link and embedded resource blocks of a parsed result are kept
/// whole as [`ContentBlock::Other`].
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ContentBlock {
    /// `{"type": "text", "text": ...}`.
    Text(TextContent),
    /// Any other block, with all its members (`type` included).
    Other(Map),
}

/// A text block: `{"type": "text", "text": ...}`.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct TextContent {
    /// The text.
    pub text: String,
    /// `annotations` (audience, priority, lastModified), as sent.
    pub annotations: Option<Map>,
    /// `_meta`.
    pub meta: Option<Map>,
    /// Members this crate does not model, in their order.
    pub other: Map,
}

/// Who wrote a result: the `Implementation` of the specification, sent as
/// `_meta["io.modelcontextprotocol/serverInfo"]` from 2026-07-28.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Implementation {
    /// The server's programmatic name.
    pub name: String,
    /// The server's version.
    pub version: String,
    /// A human-readable name, when it differs from `name`.
    pub title: Option<String>,
}

/// A JSON-RPC request id: MCP allows a string or an integer.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum RequestId {
    /// An integer id.
    Integer(i64),
    /// A string id.
    String(String),
}

/// The JSON-RPC 2.0 response that carries a tool result:
/// `{"jsonrpc": "2.0", "id": ..., "result": ...}`.
///
/// ```
/// use codec_mcp::{CallToolResult, JsonRpcResponse, RequestId};
///
/// let response = JsonRpcResponse::new(RequestId::from(7), CallToolResult::default());
/// let value = response.into_value();
/// assert_eq!(value["jsonrpc"].as_str(), Some("2.0"));
/// assert_eq!(value["id"].as_number().and_then(|n| n.as_i64()), Some(7));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct JsonRpcResponse {
    /// The id of the request this answers.
    pub id: RequestId,
    /// The tool result.
    pub result: CallToolResult,
}

/// A JSON document that is not the MCP message it should be.
///
/// Paths are written `$` for the document, `$.content[0].text` for a
/// member inside it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum WireError {
    /// The bytes are not JSON (or not UTF-8); the source has the line and
    /// column.
    #[error("invalid JSON")]
    Json(#[source] ParseError),
    /// A required member is missing.
    #[error("missing member {member:?} in {path}")]
    Missing {
        /// The object that lacks the member.
        path: String,
        /// The member's name.
        member: &'static str,
    },
    /// A member has the wrong type or value.
    #[error("{path} must be {expected}")]
    Invalid {
        /// The member at fault.
        path: String,
        /// What it must be.
        expected: &'static str,
    },
}

impl CallToolResult {
    /// The text of the first text block, if any.
    pub fn text(&self) -> Option<&str> {
        self.content.iter().find_map(|block| match block {
            ContentBlock::Text(t) => Some(t.text.as_str()),
            ContentBlock::Other(_) => None,
        })
    }

    /// Whether this result reports a tool failure (`isError: true`).
    pub fn is_error(&self) -> bool {
        self.is_error == Some(true)
    }

    /// The server's self-description from `_meta`, when present and well
    /// formed.
    pub fn server_info(&self) -> Option<Implementation> {
        let info = self.meta.as_ref()?.get(SERVER_INFO_KEY)?;
        Implementation::from_value(info, "$._meta").ok()
    }

    /// The result as a [`Value`], members in the order documented on the
    /// type.
    pub fn into_value(self) -> Value {
        let mut map = Map::with_capacity(5 + self.other.len());
        if let Some(result_type) = self.result_type {
            map.insert("resultType", Value::String(result_type));
        }
        map.insert(
            "content",
            Value::Array(
                self.content
                    .into_iter()
                    .map(ContentBlock::into_value)
                    .collect(),
            ),
        );
        if let Some(structured) = self.structured_content {
            map.insert("structuredContent", structured);
        }
        if let Some(is_error) = self.is_error {
            map.insert("isError", Value::Bool(is_error));
        }
        if let Some(meta) = self.meta {
            map.insert("_meta", Value::Object(meta));
        }
        insert_other(&mut map, self.other);
        Value::Object(map)
    }

    /// The result as a [`Value`], cloning.
    pub fn to_value(&self) -> Value {
        self.clone().into_value()
    }

    /// Parses a result from JSON bytes.
    ///
    /// Bytes that are not UTF-8 or not JSON are [`WireError::Json`], with
    /// the position in its source; a document of the wrong shape names the
    /// member at fault.
    pub fn from_slice(bytes: &[u8]) -> Result<CallToolResult, WireError> {
        let value = codec_core::from_slice(bytes).map_err(WireError::Json)?;
        CallToolResult::from_value(&value)
    }

    /// Reads a result from a parsed [`Value`].
    pub fn from_value(value: &Value) -> Result<CallToolResult, WireError> {
        CallToolResult::from_value_at(value, "$")
    }

    fn from_value_at(value: &Value, path: &str) -> Result<CallToolResult, WireError> {
        let map = expect_object(value, path)?;
        let mut result = CallToolResult::default();
        let mut saw_content = false;
        for (key, member) in map {
            match key {
                "resultType" => {
                    result.result_type =
                        Some(expect_str(member, &member_path(path, key), "a string")?.to_owned());
                }
                "content" => {
                    let at = member_path(path, key);
                    let items = member.as_array().ok_or_else(|| invalid(&at, "an array"))?;
                    result.content = items
                        .iter()
                        .enumerate()
                        .map(|(i, item)| ContentBlock::from_value_at(item, &format!("{at}[{i}]")))
                        .collect::<Result<_, _>>()?;
                    saw_content = true;
                }
                "structuredContent" => result.structured_content = Some(member.clone()),
                "isError" => {
                    let at = member_path(path, key);
                    result.is_error =
                        Some(member.as_bool().ok_or_else(|| invalid(&at, "a boolean"))?);
                }
                "_meta" => {
                    result.meta = Some(expect_object(member, &member_path(path, key))?.clone());
                }
                _ => {
                    result.other.insert(key, member.clone());
                }
            }
        }
        if !saw_content {
            return Err(WireError::Missing {
                path: path.to_owned(),
                member: "content",
            });
        }
        Ok(result)
    }
}

impl ContentBlock {
    /// A text block holding `text`.
    pub fn text(text: impl Into<String>) -> ContentBlock {
        ContentBlock::Text(TextContent::new(text))
    }

    /// The block's `type`: `text`, `image`, `audio`, `resource_link`,
    /// `resource`, or whatever a newer peer sent.
    pub fn kind(&self) -> &str {
        match self {
            ContentBlock::Text(_) => "text",
            ContentBlock::Other(map) => map.get("type").and_then(Value::as_str).unwrap_or(""),
        }
    }

    /// The block as a [`Value`].
    pub fn into_value(self) -> Value {
        match self {
            ContentBlock::Text(text) => text.into_value(),
            ContentBlock::Other(map) => Value::Object(map),
        }
    }

    fn from_value_at(value: &Value, path: &str) -> Result<ContentBlock, WireError> {
        let map = expect_object(value, path)?;
        let kind = map.get("type").ok_or_else(|| WireError::Missing {
            path: path.to_owned(),
            member: "type",
        })?;
        let kind = expect_str(kind, &member_path(path, "type"), "a string")?;
        if kind != "text" {
            return Ok(ContentBlock::Other(map.clone()));
        }
        let mut block = TextContent::new(String::new());
        let mut saw_text = false;
        for (key, member) in map {
            match key {
                "type" => {}
                "text" => {
                    block.text =
                        expect_str(member, &member_path(path, key), "a string")?.to_owned();
                    saw_text = true;
                }
                "annotations" => {
                    block.annotations =
                        Some(expect_object(member, &member_path(path, key))?.clone());
                }
                "_meta" => {
                    block.meta = Some(expect_object(member, &member_path(path, key))?.clone());
                }
                _ => {
                    block.other.insert(key, member.clone());
                }
            }
        }
        if !saw_text {
            return Err(WireError::Missing {
                path: path.to_owned(),
                member: "text",
            });
        }
        Ok(ContentBlock::Text(block))
    }
}

impl TextContent {
    /// A text block with no annotations.
    pub fn new(text: impl Into<String>) -> TextContent {
        TextContent {
            text: text.into(),
            annotations: None,
            meta: None,
            other: Map::new(),
        }
    }

    /// The block as a [`Value`]: `type`, `text`, `annotations`, `_meta`,
    /// then the members this crate does not model.
    pub fn into_value(self) -> Value {
        let mut map = Map::with_capacity(2);
        map.insert("type", Value::from("text"));
        map.insert("text", Value::String(self.text));
        if let Some(annotations) = self.annotations {
            map.insert("annotations", Value::Object(annotations));
        }
        if let Some(meta) = self.meta {
            map.insert("_meta", Value::Object(meta));
        }
        insert_other(&mut map, self.other);
        Value::Object(map)
    }
}

impl Implementation {
    /// A server named `name` at `version`.
    pub fn new(name: impl Into<String>, version: impl Into<String>) -> Implementation {
        Implementation {
            name: name.into(),
            version: version.into(),
            title: None,
        }
    }

    /// Adds a human-readable title.
    pub fn title(mut self, title: impl Into<String>) -> Implementation {
        self.title = Some(title.into());
        self
    }

    /// `{"name": ..., "version": ..., "title": ...}`.
    pub fn to_value(&self) -> Value {
        let mut map = Map::with_capacity(3);
        map.insert("name", Value::from(self.name.as_str()));
        map.insert("version", Value::from(self.version.as_str()));
        if let Some(title) = &self.title {
            map.insert("title", Value::from(title.as_str()));
        }
        Value::Object(map)
    }

    fn from_value(value: &Value, parent: &str) -> Result<Implementation, WireError> {
        let path = format!("{parent}[{SERVER_INFO_KEY:?}]");
        let map = expect_object(value, &path)?;
        let field = |member: &'static str| -> Result<String, WireError> {
            let v = map.get(member).ok_or_else(|| WireError::Missing {
                path: path.clone(),
                member,
            })?;
            Ok(expect_str(v, &member_path(&path, member), "a string")?.to_owned())
        };
        Ok(Implementation {
            name: field("name")?,
            version: field("version")?,
            title: map.get("title").and_then(Value::as_str).map(str::to_owned),
        })
    }
}

impl RequestId {
    /// The id as a [`Value`].
    pub fn to_value(&self) -> Value {
        match self {
            RequestId::Integer(n) => Value::from(*n),
            RequestId::String(s) => Value::from(s.as_str()),
        }
    }

    fn from_value_at(value: &Value, path: &str) -> Result<RequestId, WireError> {
        match value {
            Value::String(s) => Ok(RequestId::String(s.clone())),
            Value::Number(n) => n
                .as_i64()
                .map(RequestId::Integer)
                .ok_or_else(|| invalid(path, "a string or an integer that fits 64 bits")),
            _ => Err(invalid(path, "a string or an integer that fits 64 bits")),
        }
    }
}

impl From<i64> for RequestId {
    fn from(id: i64) -> RequestId {
        RequestId::Integer(id)
    }
}

impl From<&str> for RequestId {
    fn from(id: &str) -> RequestId {
        RequestId::String(id.to_owned())
    }
}

impl From<String> for RequestId {
    fn from(id: String) -> RequestId {
        RequestId::String(id)
    }
}

impl fmt::Display for RequestId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RequestId::Integer(n) => write!(f, "{n}"),
            RequestId::String(s) => write!(f, "{s:?}"),
        }
    }
}

impl JsonRpcResponse {
    /// The response to request `id`.
    pub fn new(id: RequestId, result: CallToolResult) -> JsonRpcResponse {
        JsonRpcResponse { id, result }
    }

    /// `{"jsonrpc": "2.0", "id": ..., "result": ...}`.
    pub fn into_value(self) -> Value {
        let mut map = Map::with_capacity(3);
        map.insert("jsonrpc", Value::from("2.0"));
        map.insert("id", self.id.to_value());
        map.insert("result", self.result.into_value());
        Value::Object(map)
    }

    /// Parses a response from JSON bytes. A JSON-RPC *error* response (no
    /// `result`) is [`WireError::Missing`]: it carries no tool result.
    pub fn from_slice(bytes: &[u8]) -> Result<JsonRpcResponse, WireError> {
        let value = codec_core::from_slice(bytes).map_err(WireError::Json)?;
        JsonRpcResponse::from_value(&value)
    }

    /// Reads a response from a parsed [`Value`].
    pub fn from_value(value: &Value) -> Result<JsonRpcResponse, WireError> {
        let map = expect_object(value, "$")?;
        let member = |name: &'static str| {
            map.get(name).ok_or(WireError::Missing {
                path: "$".to_owned(),
                member: name,
            })
        };
        if member("jsonrpc")?.as_str() != Some("2.0") {
            return Err(invalid("$.jsonrpc", "\"2.0\""));
        }
        let id = RequestId::from_value_at(member("id")?, "$.id")?;
        let result = CallToolResult::from_value_at(member("result")?, "$.result")?;
        Ok(JsonRpcResponse { id, result })
    }
}

/// Appends the members a type does not model. A hand-built `other` could
/// repeat a modelled key: the modelled field wins.
fn insert_other(map: &mut Map, other: Map) {
    for (key, value) in other {
        if !map.contains_key(&key) {
            map.insert(key, value);
        }
    }
}

fn member_path(parent: &str, key: &str) -> String {
    if key.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
        format!("{parent}.{key}")
    } else {
        format!("{parent}[{key:?}]")
    }
}

fn invalid(path: &str, expected: &'static str) -> WireError {
    WireError::Invalid {
        path: path.to_owned(),
        expected,
    }
}

fn expect_object<'v>(value: &'v Value, path: &str) -> Result<&'v Map, WireError> {
    value.as_object().ok_or_else(|| invalid(path, "an object"))
}

fn expect_str<'v>(
    value: &'v Value,
    path: &str,
    expected: &'static str,
) -> Result<&'v str, WireError> {
    value.as_str().ok_or_else(|| invalid(path, expected))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(json: &str) -> Result<CallToolResult, WireError> {
        CallToolResult::from_slice(json.as_bytes())
    }

    #[test]
    fn round_trips_keep_members_and_order() {
        let cases = [
            r#"{"content":[]}"#,
            r#"{"resultType":"complete","content":[{"type":"text","text":"hi"}],"structuredContent":[1,2.50],"isError":false,"_meta":{"a":1}}"#,
            r#"{"content":[{"type":"image","data":"AA==","mimeType":"image/png"}],"x-vendor":{"k":true}}"#,
            r#"{"content":[{"type":"text","text":"t","annotations":{"priority":0.5},"_meta":{}}]}"#,
            r#"{"content":[{"type":"text","text":"t","newField":1}]}"#,
        ];
        for json in cases {
            let result = parse(json).unwrap_or_else(|e| panic!("{json}: {e}"));
            let written = codec_json::JsonCodec::new()
                .value_to_vec(&result.into_value())
                .unwrap();
            assert_eq!(String::from_utf8(written).unwrap(), json);
        }
    }

    #[test]
    fn shape_errors_name_the_member() {
        let cases: &[(&str, &str)] = &[
            ("[]", "$ must be an object"),
            ("{}", "missing member \"content\" in $"),
            (r#"{"content":{}}"#, "$.content must be an array"),
            (r#"{"content":[1]}"#, "$.content[0] must be an object"),
            (
                r#"{"content":[{}]}"#,
                "missing member \"type\" in $.content[0]",
            ),
            (
                r#"{"content":[{"type":"text"}]}"#,
                "missing member \"text\" in $.content[0]",
            ),
            (
                r#"{"content":[{"type":"text","text":3}]}"#,
                "$.content[0].text must be a string",
            ),
            (
                r#"{"content":[],"isError":"yes"}"#,
                "$.isError must be a boolean",
            ),
            (
                r#"{"content":[],"resultType":1}"#,
                "$.resultType must be a string",
            ),
            (r#"{"content":[],"_meta":[]}"#, "$._meta must be an object"),
        ];
        for &(json, message) in cases {
            let error = parse(json).unwrap_err();
            assert_eq!(error.to_string(), message, "{json}");
        }
    }

    #[test]
    fn bad_bytes_are_json_errors_with_a_position() {
        let cases: &[(&[u8], usize, usize)] = &[
            (
                b"{\"content\":[{\"type\":\"text\",\"text\":\"\xff\"}]}",
                1,
                36,
            ),
            (b"{\"content\":\n[", 2, 2),
            (b"", 1, 1),
        ];
        for &(bytes, line, column) in cases {
            let error = CallToolResult::from_slice(bytes).unwrap_err();
            let WireError::Json(source) = &error else {
                panic!("{bytes:?}: {error:?}");
            };
            assert_eq!((source.line(), source.column()), (line, column), "{source}");
            assert_eq!(error.to_string(), "invalid JSON");
        }
    }

    #[test]
    fn response_envelope_round_trips() {
        let cases = [
            r#"{"jsonrpc":"2.0","id":7,"result":{"content":[]}}"#,
            r#"{"jsonrpc":"2.0","id":"call-1","result":{"resultType":"complete","content":[]}}"#,
        ];
        for json in cases {
            let response = JsonRpcResponse::from_slice(json.as_bytes()).unwrap();
            let written = codec_json::JsonCodec::new()
                .value_to_vec(&response.into_value())
                .unwrap();
            assert_eq!(String::from_utf8(written).unwrap(), json);
        }
    }

    #[test]
    fn response_errors() {
        let cases: &[(&str, &str)] = &[
            (
                r#"{"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"x"}}"#,
                "missing member \"result\" in $",
            ),
            (
                r#"{"jsonrpc":"1.0","id":3,"result":{}}"#,
                "$.jsonrpc must be \"2.0\"",
            ),
            (
                r#"{"jsonrpc":"2.0","id":1.5,"result":{}}"#,
                "$.id must be a string or an integer that fits 64 bits",
            ),
            (
                r#"{"jsonrpc":"2.0","id":1,"result":{}}"#,
                "missing member \"content\" in $.result",
            ),
        ];
        for &(json, message) in cases {
            let error = JsonRpcResponse::from_slice(json.as_bytes()).unwrap_err();
            assert_eq!(error.to_string(), message, "{json}");
        }
    }

    #[test]
    fn text_blocks_keep_unknown_members() {
        let result = parse(r#"{"content":[{"type":"text","text":"t","newField":1}]}"#).unwrap();
        let ContentBlock::Text(block) = &result.content[0] else {
            panic!("{result:?}");
        };
        assert_eq!(block.text, "t");
        assert_eq!(block.other.get("newField"), Some(&Value::from(1)));
        assert_eq!(result.text(), Some("t"));
        assert_eq!(result.content[0].kind(), "text");
    }

    #[test]
    fn other_blocks_are_kept_whole() {
        let json = r#"{"content":[{"type":"resource_link","uri":"file:///a","name":"a"}]}"#;
        let result = parse(json).unwrap();
        assert_eq!(result.content[0].kind(), "resource_link");
        assert_eq!(result.text(), None);
    }

    #[test]
    fn server_info_reads_back() {
        let result = parse(
            r#"{"content":[],"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"s","version":"1"}}}"#,
        )
        .unwrap();
        assert_eq!(result.server_info(), Some(Implementation::new("s", "1")));
        assert_eq!(parse(r#"{"content":[]}"#).unwrap().server_info(), None);
    }
}

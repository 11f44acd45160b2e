//! The MCP codec: the data a handler returns to HTTP clients, as a Model
//! Context Protocol `tools/call` result.
//!
//! - [`McpCodec`]: the [`Codec`] for `application/vnd.mcp+json`, format
//!   name `mcp`; it writes a [`CallToolResult`] for one
//!   [`ProtocolVersion`].
//! - [`McpCodecBuilder`]: its options; [`ConfigError`] when they
//!   contradict each other.
//! - [`StructuredContent`]: when a result carries `structuredContent`.
//! - [`TextFormat`]: what the text block holds (markdown, JSON, one line
//!   beside the structured content, or the rendering of any codec).
//! - [`ProtocolVersion`] (and [`UnknownProtocolVersion`]): 2025-06-18,
//!   2025-11-25, 2026-07-28.
//! - [`advertised_output_schema`]: the `outputSchema` to list for a tool,
//!   wrapped when the codec wraps its results.
//! - [`CallToolResult`], [`ContentBlock`], [`TextContent`],
//!   [`Implementation`]: the wire types of a result, hand-written to the
//!   official schemas; they parse back from bytes with a [`WireError`].
//! - [`JsonRpcResponse`] and [`RequestId`]: the JSON-RPC 2.0 envelope.
//! - [`DEFAULT_MAX_TEXT_CHARS`] and [`MAX_VALUE_DEPTH`]: the default text
//!   limit and how deep a value may nest.
//! - With the `rmcp` feature: [`McpCodec::rmcp_result`],
//!   [`McpCodec::rmcp_error`] and [`McpCodec::rmcp_output_schema`], the
//!   same results and schema in the types of rmcp, the official Rust SDK
//!   (3.11 or later 3.x), whose tools return them as they are.
//!
//! # Design
//!
//! A result says the same thing twice: `content` for the model, as text,
//! and `structuredContent` for programs. The text is the markdown codec's
//! rendering, cut at its `text_limit` (chars, bytes or exact tokens) by
//! the codec that wrote it (`Codec::truncate`, so markdown only where a
//! row or an item ends, the same cut as the markdown codec's budget); the
//! structured part is the value itself, written by the JSON codec with its
//! exact numbers and key order. The two 2025 revisions accept only an
//! object there, so the codec wraps anything else as `{"result": value}`,
//! as the official TypeScript and Python SDKs do, and
//! [`advertised_output_schema`] wraps the tool's schema to match; from
//! 2026-07-28 any value goes through as is, beside `"resultType":
//! "complete"`.
//!
//! The wire types are written by hand rather than taken from the official
//! Rust SDK, which brings an async runtime and about fifty crates and
//! changes major version every few months; the SDK is an optional feature
//! for the servers built on it (below). This crate is not an MCP server:
//! it has no transport, no session and no tool registry; a server picks
//! the codec for the protocol version it negotiated and writes what it
//! returns. Requests that fail before a tool runs (an unknown tool,
//! invalid params) are JSON-RPC errors that the server writes, not tool
//! results.
//!
//! # Example
//!
//! ```
//! use codec_core::{from_slice, Codec};
//! use codec_mcp::{McpCodec, ProtocolVersion};
//!
//! let value = from_slice(br#"[{"id": "u1", "score": 0.90}, {"id": "u2", "score": 1e3}]"#).unwrap();
//!
//! // A 2025-11-25 peer: the array is wrapped, numbers keep their text.
//! let codec = McpCodec::new();
//! let mut body = Vec::new();
//! codec.encode_value(&value, &mut body).unwrap();
//! assert_eq!(
//!     String::from_utf8(body).unwrap(),
//!     concat!(
//!         r#"{"content":[{"type":"text","text":"|id|score|\n|---|---|\n|u1|0.90|\n|u2|1e3|\n"}],"#,
//!         r#""structuredContent":{"result":[{"id":"u1","score":0.90},{"id":"u2","score":1e3}]}}"#,
//!     )
//! );
//!
//! // A 2026-07-28 peer: no wrapper, and a result type.
//! let codec = McpCodec::builder().protocol_version(ProtocolVersion::V2026_07_28).build().unwrap();
//! let result = codec.result(&value).unwrap();
//! assert_eq!(result.result_type.as_deref(), Some("complete"));
//! assert!(result.structured_content.unwrap().identical(&value));
//! ```
//!
//! # Not paying twice
//!
//! A client that gives the model both the text and `structuredContent`
//! bills the data twice. The choices, and what each costs on the eight
//! benchmark datasets together (o200k tokens, no text limit; per dataset
//! in BENCHMARKS.md, "MCP results: what each choice costs"):
//!
//! | result | options | text | structuredContent | both |
//! |---|---|---:|---:|---:|
//! | markdown + structured | the default | 447,131 | 366,978 | 814,109 |
//! | markdown only | [`StructuredContent::Never`] | 447,131 | 0 | 447,131 |
//! | dense markdown only | `Never`, [`TextFormat::Codec`] of a dense markdown codec | 256,561 | 0 | 256,561 |
//! | one line + structured | [`TextFormat::Summary`] | 142 | 366,978 | 367,120 |
//! | JSON + structured | [`TextFormat::Json`] | 366,978 | 366,978 | 733,956 |
//!
//! Every choice keeps a text block, as the specification asks of a result
//! with structured content ("SHOULD also return the serialized JSON in a
//! TextContent block", for clients that do not read it); the JSON one
//! keeps the letter, at twice the data for clients that forward both.
//! Models read markdown, so for agents markdown only is the cheapest text
//! every client reads whole. For clients that show the model the
//! structured content instead of the text (Claude Code, Codex, OpenCode),
//! the one line saves the markdown they never show; a client that reads
//! only the text then sees only the line.
//!
//! # With rmcp
//!
//! With the `rmcp` feature (`codec-mcp = { version = "0.1", features =
//! ["rmcp"] }`), an rmcp tool returns the codec's result for its data as
//! it is: markdown for the model, `structuredContent` for programs,
//! `isError` from [`McpCodec::rmcp_error`], and the output schema it
//! declares from [`McpCodec::rmcp_output_schema`]. Numbers in
//! `structuredContent` become serde_json's (rmcp's types hold
//! `serde_json::Value`); the text keeps them as written.
//!
//! ```
//! # #[cfg(feature = "rmcp")] {
//! use std::sync::LazyLock;
//!
//! use codec_mcp::McpCodec;
//! use rmcp::model::CallToolResult;
//! use rmcp::{tool, tool_handler, tool_router, ErrorData, ServerHandler};
//!
//! #[derive(serde::Serialize)]
//! struct Issue {
//!     id: u32,
//!     title: &'static str,
//! }
//!
//! static CODEC: LazyLock<McpCodec> = LazyLock::new(McpCodec::new);
//!
//! #[derive(Clone)]
//! struct Tracker;
//!
//! #[tool_router]
//! impl Tracker {
//!     /// The open issues.
//!     #[tool]
//!     async fn issues(&self) -> Result<CallToolResult, ErrorData> {
//!         CODEC.rmcp_result(&[Issue { id: 7, title: "Fix the build" }])
//!     }
//! }
//!
//! #[tool_handler]
//! impl ServerHandler for Tracker {}
//!
//! // What the tool returns:
//! let result = CODEC.rmcp_result(&[Issue { id: 7, title: "Fix the build" }]).unwrap();
//! assert_eq!(result.content[0].as_text().unwrap().text, "|id|title|\n|---|---|\n|7|Fix the build|\n");
//! assert_eq!(
//!     result.structured_content,
//!     Some(serde_json::json!({"result": [{"id": 7, "title": "Fix the build"}]}))
//! );
//! # }
//! ```
//!
//! [`Codec`]: codec_core::Codec
#![deny(missing_docs)]

// The README's Rust blocks (the crate's registry page), compiled and run
// as doctests of this crate.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

mod codec;
mod draft;
mod options;
#[cfg(feature = "rmcp")]
mod rmcp_result;
mod schema;
mod summary;
mod version;
mod wire;

pub use codec::{DEFAULT_MAX_TEXT_CHARS, MAX_VALUE_DEPTH, McpCodec, McpCodecBuilder};
pub use options::{ConfigError, StructuredContent, TextFormat};
pub use schema::advertised_output_schema;
pub use version::{ProtocolVersion, UnknownProtocolVersion};
pub use wire::{
    CallToolResult, ContentBlock, Implementation, JsonRpcResponse, RequestId, TextContent,
    WireError,
};

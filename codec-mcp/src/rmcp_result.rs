//! The `rmcp` feature: this codec's results as the `CallToolResult` of
//! rmcp, the official Rust SDK, so an rmcp tool returns them directly.
//!
//! The conversion goes through the JSON this codec writes: rmcp's types
//! hold `serde_json::Value`, and serde_json's own `to_value` would turn
//! a number kept as text (`0.90`, `1e3`) into a string. Parsed back, such a
//! number is a plain serde_json number (`0.9`, `1000.0`), and objects take
//! serde_json's key order (sorted, unless its `preserve_order` feature is
//! on in the build). The text block is written before that, so the model
//! reads the exact rendering.

use std::sync::Arc;

use codec_core::{Codec, to_value};
use codec_json::JsonCodec;
use rmcp::ErrorData;
use rmcp::handler::server::tool::IntoCallToolResult;
use rmcp::model::{CallToolResponse, JsonObject, ResultType};
use serde::Serialize;

use crate::codec::McpCodec;
use crate::wire::CallToolResult;

impl McpCodec {
    /// rmcp's `CallToolResult` for a tool that succeeded with `data`: the
    /// result of [`McpCodec::result`], text block, `structuredContent` and
    /// all.
    ///
    /// `data` is any `Serialize` (a [`Value`](codec_core::Value) too). The
    /// result carries `resultType: "complete"`, which rmcp drops for peers
    /// of a 2025 revision.
    ///
    /// # Errors
    ///
    /// An internal error (JSON-RPC -32603) naming the cause when the data
    /// cannot be encoded: it does not serialize, nests deeper than
    /// [`MAX_VALUE_DEPTH`](crate::MAX_VALUE_DEPTH), or a 2025 peer needs an
    /// object the output schema forbids wrapping (see
    /// [`McpCodec::result`]). These are the server's faults, not the
    /// tool's.
    pub fn rmcp_result<T: Serialize + ?Sized>(
        &self,
        data: &T,
    ) -> Result<rmcp::model::CallToolResult, ErrorData> {
        let value = to_value(data).map_err(|e| encode_failed(&e))?;
        let mut json = Vec::new();
        // Streams the result without copying the value.
        self.encode_value(&value, &mut json)
            .map_err(|e| encode_failed(&e))?;
        from_json(&json)
    }

    /// rmcp's `CallToolResult` for a tool that ran and failed: `isError:
    /// true` and the rendering of `data` (what went wrong and how to do
    /// better) as the text, as [`McpCodec::error_result`] writes it.
    ///
    /// # Errors
    ///
    /// As [`McpCodec::rmcp_result`].
    pub fn rmcp_error<T: Serialize + ?Sized>(
        &self,
        data: &T,
    ) -> Result<rmcp::model::CallToolResult, ErrorData> {
        let value = to_value(data).map_err(|e| encode_failed(&e))?;
        let result = self.error_result(&value).map_err(|e| encode_failed(&e))?;
        result.try_into()
    }

    /// The output schema for rmcp's `#[tool(output_schema = ...)]` (or
    /// `Tool::with_raw_output_schema`): [`McpCodec::advertised_output_schema`]
    /// as rmcp's JSON object, or `None` when the tool declares none.
    ///
    /// rmcp lists a tool's schema to every peer, whatever its revision, so
    /// build the codec for 2025-11-25 (the default): the schema and the
    /// results are then wrapped alike and valid for every revision. A
    /// codec for 2026-07-28 lists a non-object schema as is, and rmcp
    /// drops it, and a non-object `structuredContent`, for 2025 peers.
    pub fn rmcp_output_schema(&self) -> Option<Arc<JsonObject>> {
        let schema = self.advertised_output_schema()?;
        let json = JsonCodec::new().value_to_vec(&schema).ok()?;
        match serde_json::from_slice(&json) {
            Ok(serde_json::Value::Object(object)) => Some(Arc::new(object)),
            // An advertised schema is always an object.
            _ => None,
        }
    }
}

impl TryFrom<CallToolResult> for rmcp::model::CallToolResult {
    type Error = ErrorData;

    /// The same result in rmcp's types, numbers and key order as the
    /// module notes say.
    fn try_from(result: CallToolResult) -> Result<rmcp::model::CallToolResult, ErrorData> {
        let mut json = Vec::new();
        JsonCodec::new()
            .encode_value(&result.into_value(), &mut json)
            .map_err(|e| encode_failed(&e))?;
        from_json(&json)
    }
}

/// A tool returns this codec's result as it is (`Ok(codec.result(..)?)`),
/// or its error result in `Err` (rmcp then sets `isError`).
impl IntoCallToolResult for CallToolResult {
    fn into_call_tool_result(self) -> Result<CallToolResponse, ErrorData> {
        rmcp::model::CallToolResult::try_from(self).map(CallToolResponse::from)
    }
}

/// rmcp's result from the JSON of ours. Always `resultType: "complete"`:
/// rmcp drops it for peers that predate it and 2026-07-28 peers need it,
/// so one result serves every peer.
fn from_json(json: &[u8]) -> Result<rmcp::model::CallToolResult, ErrorData> {
    let mut result: rmcp::model::CallToolResult = serde_json::from_slice(json).map_err(|e| {
        ErrorData::internal_error(format!("rmcp cannot read the tool result: {e}"), None)
    })?;
    result.result_type = Some(ResultType::COMPLETE);
    Ok(result)
}

fn encode_failed(error: &dyn std::error::Error) -> ErrorData {
    ErrorData::internal_error(format!("cannot encode the tool result: {error}"), None)
}

//! The `rmcp` feature against rmcp itself: a server whose tools return this
//! codec's results, called by rmcp's own client over an in-process pipe
//! (`tokio::io::duplex`), as an MCP host would call it over stdio.
//!
//! `cargo test -p codec-mcp --features rmcp --test rmcp`

use std::sync::{Arc, LazyLock};

use codec_core::{Codec, Value, from_str};
use codec_mcp::{MAX_VALUE_DEPTH, McpCodec, ProtocolVersion};
use codec_md::MarkdownCodec;
use rmcp::model::{
    CallToolRequestParams, CallToolResult, ClientConfig, ErrorCode, InitializeResult,
    ProtocolVersion as RmcpVersion, ResultType, ServerCapabilities, ServerConfig,
};
use rmcp::service::{RoleClient, RoleServer, RunningService, serve_directly};
use rmcp::{ClientHandler, ErrorData, ServerHandler, ServiceExt, tool, tool_handler, tool_router};

/// What the `issues` tool returns: an array, so wrapped for 2025 peers.
const ISSUES: &str = r#"[{"id": 7, "title": "Fix | pipes", "score": 0.90}, {"id": 9, "title": "Docs", "score": 1e3}]"#;

/// The schema `issues` declares.
const ISSUES_SCHEMA: &str = r#"{"type": "array", "items": {"type": "object",
    "properties": {"id": {"type": "integer"}, "title": {"type": "string"}, "score": {"type": "number"}},
    "required": ["id", "title", "score"]}}"#;

/// The codec of the `issues` tool, for the default revision (2025-11-25):
/// its results and its listed schema are wrapped alike.
static ISSUES_CODEC: LazyLock<McpCodec> = LazyLock::new(|| {
    McpCodec::builder()
        .output_schema(Some(from_str(ISSUES_SCHEMA).unwrap()))
        .build()
        .unwrap()
});

/// A server of issues. `#[tool_handler]` builds its tools from
/// `Tracker::tool_router()`.
#[derive(Debug, Clone)]
struct Tracker {
    /// The codec of the tools without a schema.
    codec: McpCodec,
}

#[tool_router]
impl Tracker {
    fn new(codec: McpCodec) -> Tracker {
        Tracker { codec }
    }

    #[tool(
        description = "The open issues, as a markdown table.",
        output_schema = ISSUES_CODEC.rmcp_output_schema().unwrap()
    )]
    async fn issues(&self) -> Result<CallToolResult, ErrorData> {
        ISSUES_CODEC.rmcp_result(&from_str(ISSUES).unwrap())
    }

    #[tool(description = "Closes an issue; always fails here.")]
    async fn close(&self) -> Result<CallToolResult, ErrorData> {
        let error = from_str(r#"{"status": "FORBIDDEN", "hint": "ask a maintainer"}"#).unwrap();
        self.codec.rmcp_error(&error)
    }

    /// This codec's own result type, returned as it is: `Ok` a result,
    /// `Err` an error result.
    #[tool(description = "A typed summary.")]
    async fn summary(&self) -> Result<codec_mcp::CallToolResult, codec_mcp::CallToolResult> {
        #[derive(serde::Serialize)]
        struct Summary {
            open: u32,
            closed: u32,
        }
        let value = codec_core::to_value(&Summary { open: 2, closed: 5 }).unwrap();
        self.codec
            .result(&value)
            .map_err(|e| self.codec.error_message(&e.to_string()))
    }

    #[tool(description = "Fails before any result: too deep to encode.")]
    async fn deep(&self) -> Result<CallToolResult, ErrorData> {
        let mut value = Value::Null;
        for _ in 0..=MAX_VALUE_DEPTH {
            value = Value::Array(vec![value]);
        }
        self.codec.rmcp_result(&value)
    }

    #[tool(description = "The deepest value the codec takes.")]
    async fn deepest(&self) -> Result<CallToolResult, ErrorData> {
        self.codec.rmcp_result(&nested(MAX_VALUE_DEPTH))
    }
}

#[tool_handler]
impl ServerHandler for Tracker {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }
}

/// `depth` levels of objects: `{"a": {"a": ... null}}`.
fn nested(depth: usize) -> Value {
    let mut value = Value::Null;
    for _ in 0..depth {
        value = Value::Object([("a", value)].into_iter().collect());
    }
    value
}

/// A client connected to a [`Tracker`] over an in-process pipe, after
/// the `initialize` handshake (2025-11-25, rmcp's client default).
async fn connect(codec: McpCodec) -> RunningService<RoleClient, ()> {
    let (server_side, client_side) = tokio::io::duplex(1 << 16);
    tokio::spawn(async move {
        let server = Tracker::new(codec).serve(server_side).await.unwrap();
        let _ = server.waiting().await;
    });
    ().serve(client_side).await.unwrap()
}

async fn call(client: &RunningService<RoleClient, ()>, tool: &'static str) -> CallToolResult {
    client
        .call_tool(CallToolRequestParams::new(tool))
        .await
        .unwrap_or_else(|e| panic!("{tool}: {e}"))
}

fn json(text: &str) -> serde_json::Value {
    serde_json::from_str(text).unwrap()
}

fn markdown(text: &str) -> String {
    let mut out = Vec::new();
    MarkdownCodec::new()
        .encode_value(&from_str(text).unwrap(), &mut out)
        .unwrap();
    String::from_utf8(out).unwrap()
}

fn text_of(result: &CallToolResult) -> Vec<&str> {
    result
        .content
        .iter()
        .map(|block| block.as_text().map_or("(not text)", |t| t.text.as_str()))
        .collect()
}

#[tokio::test]
async fn listed_schema_is_the_advertised_one() {
    let client = connect(McpCodec::new()).await;
    let tools = client.list_all_tools().await.unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
    assert_eq!(names, ["close", "deep", "deepest", "issues", "summary"]);
    let issues = tools.iter().find(|t| t.name == "issues").unwrap();
    let listed = serde_json::Value::Object((*issues.output_schema.clone().unwrap()).clone());
    assert_eq!(
        listed,
        json(&format!(
            r#"{{"type":"object","properties":{{"result":{ISSUES_SCHEMA}}},"required":["result"]}}"#
        ))
    );
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn a_result_reaches_the_client_as_markdown_and_structured_content() {
    let client = connect(McpCodec::new()).await;
    let result = call(&client, "issues").await;
    // The text is the exact rendering, numbers as written.
    assert_eq!(text_of(&result), [markdown(ISSUES)]);
    assert!(text_of(&result)[0].contains("|7|Fix \\| pipes|0.90|"));
    // Wrapped for the 2025 peer, numbers as serde_json reads them.
    assert_eq!(
        result.structured_content,
        Some(json(&format!(r#"{{"result":{ISSUES}}}"#)))
    );
    assert_eq!(result.is_error, None);
    // A 2025-11-25 peer gets no resultType: rmcp drops it.
    assert_eq!(result.result_type, None);

    let summary = call(&client, "summary").await;
    assert_eq!(text_of(&summary), ["- **open**: 2\n- **closed**: 5\n"]);
    assert_eq!(
        summary.structured_content,
        Some(json(r#"{"open":2,"closed":5}"#))
    );
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn a_tool_error_is_an_error_result_with_text() {
    let client = connect(McpCodec::new()).await;
    let result = call(&client, "close").await;
    assert_eq!(result.is_error, Some(true));
    assert_eq!(
        text_of(&result),
        ["- **status**: FORBIDDEN\n- **hint**: ask a maintainer\n"]
    );
    assert_eq!(result.structured_content, None);
    client.cancel().await.unwrap();
}

/// A value the codec refuses is a JSON-RPC internal error naming the
/// cause, and the server goes on serving.
#[tokio::test]
async fn an_encoding_failure_is_an_internal_error() {
    let client = connect(McpCodec::new()).await;
    let error = client
        .call_tool(CallToolRequestParams::new("deep"))
        .await
        .unwrap_err();
    let rmcp::ServiceError::McpError(error) = error else {
        panic!("not an MCP error: {error}")
    };
    assert_eq!(error.code, ErrorCode::INTERNAL_ERROR);
    assert_eq!(
        error.message,
        format!(
            "cannot encode the tool result: value nests deeper than the limit of {MAX_VALUE_DEPTH}"
        )
    );
    // The deepest value the codec takes still crosses rmcp both ways.
    let deepest = call(&client, "deepest").await;
    assert_eq!(
        deepest.structured_content,
        Some(serde_json::to_value(json_of(&nested(MAX_VALUE_DEPTH))).unwrap())
    );
    client.cancel().await.unwrap();
}

fn json_of(value: &Value) -> serde_json::Value {
    let mut out = Vec::new();
    codec_json::JsonCodec::new()
        .encode_value(value, &mut out)
        .unwrap();
    serde_json::from_slice(&out).unwrap()
}

/// A 2026-07-28 peer (no `initialize`: the pair is wired with the version
/// agreed, as rmcp's own tests do) gets `resultType`, and, from a codec
/// built for that revision, the array as it is.
#[tokio::test]
async fn a_2026_peer_gets_the_result_type_and_no_wrapper() {
    let (server_side, client_side) = tokio::io::duplex(1 << 16);
    let mut client_info = ClientConfig::default();
    client_info.protocol_version = RmcpVersion::V_2026_07_28;
    let mut server_info = InitializeResult::default();
    server_info.protocol_version = RmcpVersion::V_2026_07_28;
    let codec = McpCodec::builder()
        .protocol_version(ProtocolVersion::V2026_07_28)
        .build()
        .unwrap();
    let server = serve_directly::<RoleServer, _, _, _, _>(
        Arc::new(Tracker::new(codec)),
        server_side,
        Some(client_info.clone()),
    );
    tokio::spawn(async move {
        let _ = server.waiting().await;
    });
    let client = serve_directly::<RoleClient, _, _, _, _>(
        Versioned(client_info),
        client_side,
        Some(server_info.into()),
    );
    let result = client
        .call_tool(CallToolRequestParams::new("summary"))
        .await
        .unwrap();
    assert_eq!(result.result_type, Some(ResultType::COMPLETE));
    assert_eq!(
        result.structured_content,
        Some(json(r#"{"open":2,"closed":5}"#))
    );
    client.cancel().await.unwrap();
}

#[derive(Debug, Clone)]
struct Versioned(ClientConfig);

impl ClientHandler for Versioned {
    fn get_info(&self) -> ClientConfig {
        self.0.clone()
    }
}

/// The conversion alone, for each revision: what rmcp gets is what the
/// codec wrote, read as serde_json reads it.
#[test]
fn conversion_keeps_every_member() {
    let value = from_str(ISSUES).unwrap();
    for version in ProtocolVersion::ALL {
        let codec = McpCodec::builder()
            .protocol_version(version)
            .build()
            .unwrap();
        let ours = codec.result(&value).unwrap();
        let mut written = Vec::new();
        codec.write_result(ours.clone(), &mut written).unwrap();
        let mut expected: serde_json::Value = serde_json::from_slice(&written).unwrap();
        expected["resultType"] = "complete".into();
        let theirs = CallToolResult::try_from(ours).unwrap();
        assert_eq!(
            serde_json::to_value(&theirs).unwrap(),
            expected,
            "{version}"
        );
        assert_eq!(codec.rmcp_result(&value).unwrap(), theirs, "{version}");
    }
    assert_eq!(McpCodec::new().rmcp_output_schema(), None);
}

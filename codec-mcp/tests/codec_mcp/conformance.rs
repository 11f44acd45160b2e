//! The ten conformance cases of `tests/data/mcp-examples.json`, each run
//! through the codec with the options the case names, compared with its
//! expected result (its markdown placeholders replaced by codec-md's real
//! rendering) and validated against every schema the case lists.

use crate::common;

use codec_core::Value;
use codec_mcp::{
    Implementation, JsonRpcResponse, McpCodec, McpCodecBuilder, ProtocolVersion, RequestId,
    StructuredContent, WireError,
};
use common::{assert_valid, json, read_json};

/// What the codec is asked to write for a case.
enum Write {
    /// `encode_value` of the input: a bare result.
    Result,
    /// `error_result` of the input, in a JSON-RPC response with this id.
    ErrorResponse(i64),
    /// `result` of the input, in a JSON-RPC response with this id.
    Response(i64),
    /// Nothing: the server layer writes this case, not the codec.
    NotTheCodec,
}

/// The options each case names (in its description or notes), and what to
/// write. Every case of the file must be listed here.
fn case(id: &str) -> (McpCodecBuilder, Write) {
    let base = McpCodec::builder();
    match id {
        "01-object"
        | "02-object-with-records"
        | "03-array-2025"
        | "05-number-2025"
        | "06-string-2025"
        | "07-null-2025" => (base, Write::Result),
        "04-array-2026-envelope" => (
            base.server_info(Some(Implementation::new("example-server", "0.1.0"))),
            Write::Response(7),
        ),
        "08-tool-execution-error" => (base, Write::ErrorResponse(4)),
        "09-protocol-error" => (base, Write::NotTheCodec),
        "10-markdown-only-mode" => (
            base.structured_content(StructuredContent::Never),
            Write::Result,
        ),
        other => panic!("conformance case {other} has no test: add it to `case`"),
    }
}

fn examples() -> Vec<serde_json::Value> {
    let file = read_json("mcp-examples.json");
    file["examples"].as_array().unwrap().clone()
}

/// The case's input as our value model, read with `codec_core` so it keeps
/// the file's key order and number text (`serde_json::Value` sorts keys).
fn input(example: &serde_json::Value) -> Value {
    let bytes = std::fs::read(common::data_path("mcp-examples.json")).unwrap();
    let file = codec_core::from_slice(&bytes).unwrap();
    let id = example["id"].as_str().unwrap();
    let found = file["examples"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["id"].as_str() == Some(id))
        .unwrap();
    found["input"].clone()
}

/// Replaces the placeholder text of the first content block of `result`
/// with `text` (the markdown codec's rendering of the input).
fn with_text(mut result: serde_json::Value, text: &str) -> serde_json::Value {
    if let Some(block) = result["content"].get_mut(0) {
        block["text"] = serde_json::Value::String(text.to_owned());
    }
    result
}

/// `"schema/2025-06-18/schema.json#CallToolResult"` as a version and a
/// definition.
fn schema_ref(text: &str) -> (ProtocolVersion, String) {
    let (path, definition) = text.split_once('#').unwrap();
    let version = path.split('/').nth(1).unwrap().parse().unwrap();
    (version, definition.to_owned())
}

#[test]
fn every_case_matches_and_validates() {
    let examples = examples();
    assert_eq!(examples.len(), 10);
    for example in &examples {
        let id = example["id"].as_str().unwrap();
        let version: ProtocolVersion = example["protocolVersion"]
            .as_str()
            .unwrap()
            .parse()
            .unwrap();
        let (builder, write) = case(id);
        let codec = builder.protocol_version(version).build().unwrap();
        let value = input(example);
        let markdown = codec_md::render(&value).unwrap();
        let mut expected = example["expected"].clone();
        let bytes = match write {
            Write::Result => {
                expected = with_text(expected, &markdown);
                codec_core::CodecExt::to_vec(&codec, &value).unwrap()
            }
            Write::Response(id) => {
                expected["result"] = with_text(expected["result"].take(), &markdown);
                let result = codec.result(&value).unwrap();
                codec.response_to_vec(RequestId::from(id), result).unwrap()
            }
            Write::ErrorResponse(id) => {
                expected["result"] = with_text(expected["result"].take(), &markdown);
                let result = codec.error_result(&value).unwrap();
                codec.response_to_vec(RequestId::from(id), result).unwrap()
            }
            Write::NotTheCodec => {
                // An unknown tool is a JSON-RPC error response, which holds
                // no tool result: our parser says so rather than guess.
                let text = expected.to_string();
                let error = JsonRpcResponse::from_slice(text.as_bytes()).unwrap_err();
                assert!(
                    matches!(
                        &error,
                        WireError::Missing {
                            member: "result",
                            ..
                        }
                    ),
                    "{id}: {error}"
                );
                example["expected"].to_string().into_bytes()
            }
        };
        let actual = json(&bytes);
        assert_eq!(
            actual, expected,
            "{id}: output differs from the expected result"
        );
        let validated = example["validated_against"].as_array().unwrap();
        assert!(!validated.is_empty(), "{id}");
        for schema in validated {
            let (version, definition) = schema_ref(schema.as_str().unwrap());
            assert_valid(id, version, &definition, &actual);
            if definition == "JSONRPCResultResponse" {
                assert_valid(id, version, "CallToolResult", &actual["result"]);
            }
        }
        // What the codec wrote parses back into the wire types.
        if !matches!(write, Write::NotTheCodec) {
            let text = String::from_utf8(bytes).unwrap();
            let parsed = match actual.get("jsonrpc") {
                Some(_) => JsonRpcResponse::from_slice(text.as_bytes()).map(|r| r.result),
                None => codec_mcp::CallToolResult::from_slice(text.as_bytes()),
            };
            let parsed = parsed.unwrap_or_else(|e| panic!("{id}: {e}"));
            assert_eq!(parsed.text().is_some(), !markdown.trim().is_empty(), "{id}");
        }
    }
}

#[test]
fn text_is_the_markdown_rendering_verbatim() {
    // The placeholders are illustrative; the normative part is that the
    // text equals codec-md's rendering, trailing newline and escapes
    // included, or that there is no block when the rendering is empty.
    for example in examples() {
        let id = example["id"].as_str().unwrap();
        let value = input(&example);
        let rendered = codec_md::render(&value).unwrap();
        let result = McpCodec::new().result(&value).unwrap();
        match rendered.as_str() {
            "" => assert!(result.content.is_empty(), "{id}"),
            text => {
                assert_eq!(result.content.len(), 1, "{id}");
                assert_eq!(result.text(), Some(text), "{id}");
            }
        }
    }
}

#[test]
fn error_variant_with_structured_content() {
    let example = &examples()[7];
    assert_eq!(example["id"], "08-tool-execution-error");
    let value = input(example);
    let codec = McpCodec::builder().structured_errors(true).build().unwrap();
    let bytes = {
        let mut out = Vec::new();
        codec
            .write_result(codec.error_result(&value).unwrap(), &mut out)
            .unwrap();
        out
    };
    let expected = with_text(
        example["variant_with_structured"].clone(),
        &codec_md::render(&value).unwrap(),
    );
    let actual = json(&bytes);
    assert_eq!(actual, expected);
    for version in [ProtocolVersion::V2025_06_18, ProtocolVersion::V2025_11_25] {
        assert_valid("08 variant", version, "CallToolResult", &actual);
    }
}

#[test]
fn json_text_variant() {
    let example = &examples()[9];
    assert_eq!(example["id"], "10-markdown-only-mode");
    let value = input(example);
    let codec = McpCodec::builder()
        .structured_content(StructuredContent::Always)
        .json_text_block(true)
        .build()
        .unwrap();
    let bytes = codec_core::CodecExt::to_vec(&codec, &value).unwrap();
    let mut expected = example["json_text_variant"].clone();
    expected.as_object_mut().unwrap().remove("note");
    let expected = with_text(expected, &codec_md::render(&value).unwrap());
    let actual = json(&bytes);
    // The second block is normative: the compact JSON, byte for byte.
    assert_eq!(
        actual["content"][1]["text"],
        r#"{"temperature":22.5,"conditions":"Partly cloudy","humidity":65}"#
    );
    assert_eq!(actual, expected);
    assert_valid(
        "10 json text",
        ProtocolVersion::V2025_11_25,
        "CallToolResult",
        &actual,
    );
}

#[test]
fn array_2025_is_wrapped_and_the_schema_too() {
    // Case 03: "The advertised outputSchema must be wrapped the same way".
    let natural = codec_core::from_str(
        r#"{"type":"array","items":{"type":"object","properties":{"id":{"type":"string"},"name":{"type":"string"}}}}"#,
    )
    .unwrap();
    let codec = McpCodec::builder()
        .output_schema(Some(natural.clone()))
        .build()
        .unwrap();
    let advertised = codec.advertised_output_schema().unwrap();
    let expected = codec_core::from_str(&format!(
        r#"{{"type":"object","properties":{{"result":{}}},"required":["result"]}}"#,
        String::from_utf8(codec_json::JsonCodec::new().value_to_vec(&natural).unwrap()).unwrap()
    ))
    .unwrap();
    assert_eq!(advertised, expected);
    let example = &examples()[2];
    let value = input(example);
    let result = codec.result(&value).unwrap();
    assert_eq!(result.structured_content.unwrap()["result"], value);
}

//! Every kind of result the codec writes validates against the official
//! schema of its protocol version.

use crate::common;

use codec_core::{CodecExt, Value};
use codec_mcp::{
    CallToolResult, Implementation, JsonRpcResponse, McpCodec, ProtocolVersion, RequestId,
    StructuredContent, TextFormat, advertised_output_schema,
};
use common::{assert_invalid, assert_valid};
use serde_json::json;

#[test]
fn validator_can_fail() {
    // The wrapper `$ref` really selects the definition in every revision.
    let cases = [
        json!({}),
        json!({"content": "text"}),
        json!({"content": [{"type": "text"}]}),
    ];
    for version in ProtocolVersion::ALL {
        for case in &cases {
            assert_invalid("bad result", version, "CallToolResult", case);
        }
    }
    for version in [ProtocolVersion::V2025_06_18, ProtocolVersion::V2025_11_25] {
        let array = json!({"content": [], "structuredContent": [1]});
        assert_invalid("array structuredContent", version, "CallToolResult", &array);
    }
    let no_result_type = json!({"content": []});
    assert_invalid(
        "no resultType",
        ProtocolVersion::V2026_07_28,
        "CallToolResult",
        &no_result_type,
    );
    assert_valid(
        "minimal",
        ProtocolVersion::V2025_06_18,
        "CallToolResult",
        &no_result_type,
    );
}

/// Values of every JSON kind, nested and flat, with numbers that must keep
/// their text.
const VALUES: &[&str] = &[
    "null",
    r#"{"exact": [1.10, -0.0, 1e-7, 12345678901234567890123]}"#,
    "true",
    "0",
    "-1.50",
    "12345678901234567890",
    r#""""#,
    r#""plain text""#,
    r#""multi\nline\n```fence```""#,
    "[]",
    "{}",
    "[1, 2.0, 3e2]",
    r#"[{"id": 1, "name": "a|b"}, {"id": 2, "name": null}]"#,
    r#"{"a": {"b": {"c": [1, {"d": "e"}]}}, "z": 1.10}"#,
    r#"{"diff": "- a\n+ b", "stdout": "ok"}"#,
    r#"[[1, 2], [3]]"#,
];

fn utf8(bytes: &[u8]) -> &str {
    std::str::from_utf8(bytes).unwrap()
}

fn codecs(version: ProtocolVersion) -> Vec<(&'static str, McpCodec)> {
    let base = || McpCodec::builder().protocol_version(version);
    let info = Some(Implementation::new("svc", "1.2.3").title("The service"));
    vec![
        ("defaults", base().build().unwrap()),
        (
            "json text",
            base().text_format(TextFormat::Json).build().unwrap(),
        ),
        (
            "json text block",
            base().json_text_block(true).build().unwrap(),
        ),
        (
            "never",
            base()
                .structured_content(StructuredContent::Never)
                .build()
                .unwrap(),
        ),
        (
            "without schema",
            base()
                .structured_content(StructuredContent::WithOutputSchema)
                .build()
                .unwrap(),
        ),
        ("server info", base().server_info(info).build().unwrap()),
        ("pretty", base().pretty(true).build().unwrap()),
        (
            "tiny limit",
            base().max_text_chars(Some(5)).build().unwrap(),
        ),
        (
            "structured errors",
            base().structured_errors(true).build().unwrap(),
        ),
    ]
}

#[test]
fn every_result_validates_against_its_version() {
    for version in ProtocolVersion::ALL {
        for (label, codec) in codecs(version) {
            for text in VALUES {
                let value = codec_core::from_str(text).unwrap();
                let label = format!("{label} / {text}");
                let ok = codec.to_vec(&value).unwrap();
                assert_valid(&label, version, "CallToolResult", &common::json(&ok));
                // The streamed path and the owned result write the same bytes.
                let mut owned = Vec::new();
                codec
                    .write_result(codec.result(&value).unwrap(), &mut owned)
                    .unwrap();
                assert_eq!(utf8(&ok), utf8(&owned), "{label}");
                let mut streamed = Vec::new();
                let id = RequestId::from(9);
                codec.encode_response(&id, &value, &mut streamed).unwrap();
                let owned = codec
                    .response_to_vec(id, codec.result(&value).unwrap())
                    .unwrap();
                assert_eq!(utf8(&streamed), utf8(&owned), "{label}");

                let error = codec.error_result(&value).unwrap();
                let mut bytes = Vec::new();
                codec.write_result(error.clone(), &mut bytes).unwrap();
                let error_json = common::json(&bytes);
                assert_eq!(error_json["isError"], true, "{label}");
                assert_valid(&label, version, "CallToolResult", &error_json);

                let response = codec
                    .response_to_vec(RequestId::from("r-1"), error)
                    .unwrap();
                let response = common::json(&response);
                let envelope = match version {
                    ProtocolVersion::V2025_06_18 => "JSONRPCResponse",
                    _ => "JSONRPCResultResponse",
                };
                assert_valid(&label, version, envelope, &response);
                if version == ProtocolVersion::V2026_07_28 {
                    assert_valid(&label, version, "CallToolResultResponse", &response);
                }
            }
            let message = codec.error_message("Invalid date: must be in the future.");
            let mut bytes = Vec::new();
            codec.write_result(message, &mut bytes).unwrap();
            assert_valid(label, version, "CallToolResult", &common::json(&bytes));
        }
    }
}

#[test]
fn results_with_a_declared_schema_validate() {
    // (output schema, a value matching it)
    let cases: &[(&str, &str)] = &[
        (r#"{"type":"object"}"#, r#"{"a": 1}"#),
        (r#"{"type":"array","items":{"type":"integer"}}"#, "[1, 2]"),
        (r#"{"type":"string"}"#, r#""s""#),
        (r#"{"type":["object","null"]}"#, r#"{"a": 1}"#),
        (r#"{"type":["object","null"]}"#, "null"),
        ("{}", "3"),
    ];
    for version in ProtocolVersion::ALL {
        for &(schema, value) in cases {
            let schema = codec_core::from_str(schema).unwrap();
            let value = codec_core::from_str(value).unwrap();
            let codec = McpCodec::builder()
                .protocol_version(version)
                .structured_content(StructuredContent::WithOutputSchema)
                .output_schema(Some(schema.clone()))
                .build()
                .unwrap();
            let label = format!("{version} {schema:?} {value:?}");
            let result = common::json(&codec.to_vec(&value).unwrap());
            assert_valid(&label, version, "CallToolResult", &result);

            // The advertised schema is a valid Tool.outputSchema, and the
            // structured content validates against it.
            let advertised = codec.advertised_output_schema().unwrap();
            assert!(
                advertised.identical(&advertised_output_schema(&schema, version)),
                "{label}: {advertised:?}"
            );
            let advertised = common::json(
                &codec_json::JsonCodec::new()
                    .value_to_vec(&advertised)
                    .unwrap(),
            );
            let tool = json!({
                "name": "t",
                "inputSchema": {"type": "object"},
                "outputSchema": advertised,
            });
            assert_valid(&label, version, "Tool", &tool);
            let structured = &result["structuredContent"];
            let check = jsonschema::validator_for(&advertised).unwrap();
            assert!(
                check.is_valid(structured),
                "{label}: {structured} vs {advertised}"
            );
        }
    }
}

#[test]
fn official_examples_parse_round_trip_and_validate() {
    let dir = common::data_path("examples-2026-07-28");
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert_eq!(names.len(), 5);
    for name in names {
        let bytes = std::fs::read(format!("{dir}/{name}")).unwrap();
        let source = codec_core::from_slice(&bytes).unwrap();
        let parsed = if name.starts_with("CallToolResultResponse") {
            let response =
                JsonRpcResponse::from_slice(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(response.id, RequestId::from("call-tool-example"));
            assert_valid(
                &name,
                ProtocolVersion::V2026_07_28,
                "CallToolResultResponse",
                &common::json(&bytes),
            );
            response.into_value()
        } else {
            let result =
                CallToolResult::from_slice(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(result.result_type.as_deref(), Some("complete"), "{name}");
            assert!(result.text().is_some(), "{name}");
            assert_valid(
                &name,
                ProtocolVersion::V2026_07_28,
                "CallToolResult",
                &common::json(&bytes),
            );
            result.into_value()
        };
        // Same members, same order, same numbers.
        assert!(
            parsed.identical(&source),
            "{name}: wrote back\n{}",
            String::from_utf8(codec_json::JsonCodec::new().value_to_vec(&parsed).unwrap()).unwrap()
        );
    }
}

#[test]
fn only_2026_results_carry_result_type_and_server_info() {
    let value = Value::from(vec![1, 2]);
    for version in ProtocolVersion::ALL {
        let codec = McpCodec::builder()
            .protocol_version(version)
            .server_info(Some(Implementation::new("svc", "1")))
            .build()
            .unwrap();
        let result = codec.result(&value).unwrap();
        let latest = version == ProtocolVersion::V2026_07_28;
        assert_eq!(result.result_type.is_some(), latest, "{version}");
        assert_eq!(result.server_info().is_some(), latest, "{version}");
        assert_eq!(
            result.structured_content.as_ref().map(Value::is_scalar),
            Some(false)
        );
        assert_eq!(
            result
                .structured_content
                .as_ref()
                .and_then(|s| s.as_array())
                .is_some(),
            latest,
            "{version}: wrapped before 2026"
        );
    }
}

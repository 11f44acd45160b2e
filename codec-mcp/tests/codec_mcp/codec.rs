//! The codec through its public API: every entry point (the shared test
//! kit), the options, tool errors, truncation and bad input.

use crate::common;

use std::sync::Arc;

use codec_core::testkit::{CodecTester, nested};
use codec_core::{Codec, CodecExt, EncodeError, MediaType, Value, from_str};
use codec_mcp::{
    CallToolResult, ConfigError, DEFAULT_MAX_TEXT_CHARS, MAX_VALUE_DEPTH, McpCodec,
    ProtocolVersion, RequestId, StructuredContent, TextFormat,
};

fn value(json: &str) -> Value {
    from_str(json).unwrap()
}

fn text(bytes: Vec<u8>) -> String {
    String::from_utf8(bytes).unwrap()
}

/// Panics, naming `label`, unless `a` is `b` exactly: every member in its
/// order, numbers' text included (the wire types' `==` compares objects
/// in any order).
#[track_caller]
fn assert_same_result(a: &CallToolResult, b: &CallToolResult, label: &str) {
    let (a, b) = (a.clone().into_value(), b.clone().into_value());
    assert!(a.identical(&b), "{label}: {a:?} vs {b:?}");
}

#[test]
fn every_entry_point_agrees() {
    #[derive(serde::Serialize)]
    struct Weather {
        city: &'static str,
        temperature: f64,
        readings: Vec<u32>,
    }
    let weather = Weather {
        city: "Paris",
        temperature: 22.5,
        readings: vec![1, 2],
    };
    for version in ProtocolVersion::ALL {
        let codec = McpCodec::builder()
            .protocol_version(version)
            .build()
            .unwrap();
        let tester = CodecTester::new(&codec);
        let bytes = tester.check_serialize("a struct", &weather);
        common::assert_valid("a struct", version, "CallToolResult", &common::json(&bytes));
        tester.check_serialize("a vec", &vec!["a", "b"]);
        tester.check_serialize("a unit", &());
        tester.check_value("exact numbers", &value(r#"{"n": 1.10, "big": 1e400}"#));
        tester.check_depth_limit();
    }
}

#[test]
fn metadata() {
    let codec = McpCodec::new();
    assert_eq!(codec.format(), "mcp");
    assert_eq!(codec.media_type().as_str(), "application/vnd.mcp+json");
    assert_eq!(codec.media_type().suffix(), Some("json"));
    assert_eq!(codec.protocol_version(), ProtocolVersion::V2025_11_25);

    let custom = MediaType::from_static("application/json; profile=mcp");
    let codec = McpCodec::builder()
        .media_type(custom.clone())
        .build()
        .unwrap();
    assert_eq!(codec.media_type(), &custom);
}

#[test]
fn structured_numbers_and_key_order_are_kept() {
    let input = r#"{"z":1.10,"a":1e400,"m":-0.0,"big":12345678901234567890123}"#;
    let body = text(McpCodec::new().to_vec(&value(input)).unwrap());
    let structured = body.split(r#""structuredContent":"#).nth(1).unwrap();
    assert_eq!(structured, format!("{input}}}"));
}

#[test]
fn structured_content_policy() {
    let schema = value(r#"{"type":"object"}"#);
    // (policy, declared schema, structured content expected)
    let cases = [
        (StructuredContent::Always, None, true),
        (StructuredContent::Always, Some(schema.clone()), true),
        (StructuredContent::WithOutputSchema, None, false),
        (
            StructuredContent::WithOutputSchema,
            Some(schema.clone()),
            true,
        ),
        (StructuredContent::Never, None, false),
    ];
    let data = value(r#"{"a": 1}"#);
    for (policy, schema, expected) in cases {
        let codec = McpCodec::builder()
            .structured_content(policy)
            .output_schema(schema.clone())
            .build()
            .unwrap();
        let result = codec.result(&data).unwrap();
        assert_eq!(
            result.structured_content.is_some(),
            expected,
            "{policy:?} {schema:?}"
        );
        assert_eq!(result.text(), Some("- **a**: 1\n"));
        assert_eq!(result.is_error, None);
    }
}

#[test]
fn never_with_an_output_schema_is_a_config_error() {
    let error = McpCodec::builder()
        .structured_content(StructuredContent::Never)
        .output_schema(Some(value(r#"{"type":"object"}"#)))
        .build()
        .unwrap_err();
    assert_eq!(error, ConfigError::NeverWithOutputSchema);
    assert_eq!(
        error.to_string(),
        "structured content `never` is only valid for a tool without an output schema"
    );
}

#[test]
fn wrapping_per_version_and_schema() {
    // (value, declared schema, structured content under 2025, under 2026)
    let cases: &[(&str, Option<&str>, &str, &str)] = &[
        (r#"{"a":1}"#, None, r#"{"a":1}"#, r#"{"a":1}"#),
        ("[1]", None, r#"{"result":[1]}"#, "[1]"),
        ("null", None, r#"{"result":null}"#, "null"),
        (r#""s""#, None, r#"{"result":"s"}"#, r#""s""#),
        // A schema that is not an object schema wraps objects too, so every
        // result matches the advertised (wrapped) schema.
        (
            r#"{"a":1}"#,
            Some(r#"{"type":["object","null"]}"#),
            r#"{"result":{"a":1}}"#,
            r#"{"a":1}"#,
        ),
        (
            r#"{"a":1}"#,
            Some("{}"),
            r#"{"result":{"a":1}}"#,
            r#"{"a":1}"#,
        ),
        (
            r#"{"a":1}"#,
            Some(r#"{"type":"object"}"#),
            r#"{"a":1}"#,
            r#"{"a":1}"#,
        ),
    ];
    for &(input, schema, v2025, v2026) in cases {
        for version in ProtocolVersion::ALL {
            let codec = McpCodec::builder()
                .protocol_version(version)
                .output_schema(schema.map(value))
                .build()
                .unwrap();
            let expected = match version {
                ProtocolVersion::V2026_07_28 => v2026,
                _ => v2025,
            };
            let result = codec.result(&value(input)).unwrap();
            assert_eq!(
                result.structured_content,
                Some(value(expected)),
                "{input} with {schema:?} under {version}"
            );
        }
    }
}

#[test]
fn a_non_object_for_an_object_schema_is_unrepresentable_before_2026() {
    let codec = McpCodec::builder()
        .output_schema(Some(value(r#"{"type":"object"}"#)))
        .build()
        .unwrap();
    let tester = CodecTester::new(&codec);
    let error = tester.check_value_rejected("array for an object schema", &value("[1, 2]"));
    assert_eq!(
        error.to_string(),
        "mcp cannot represent this value: protocol 2025-11-25 needs structuredContent to be an \
         object and the tool's output schema is an object schema, but the value is an array"
    );
    // 2026 takes any value.
    let latest = codec.with_protocol_version(ProtocolVersion::V2026_07_28);
    assert!(latest.result(&value("[1, 2]")).is_ok());
}

#[test]
fn depth_limit_leaves_room_for_the_envelope() {
    let codec = McpCodec::new();
    for objects in [false, true] {
        // The deepest value allowed is written whole, wrapped, in an
        // envelope: the three levels around it fit JSON's limit.
        let deepest = nested(MAX_VALUE_DEPTH, objects);
        let result = codec.result(&deepest).unwrap();
        let body = codec.response_to_vec(RequestId::from(1), result).unwrap();
        assert!(codec_core::from_slice(&body).is_ok());

        let error = codec
            .result(&nested(MAX_VALUE_DEPTH + 1, objects))
            .unwrap_err();
        assert!(
            matches!(error, EncodeError::DepthLimit { limit } if limit == MAX_VALUE_DEPTH),
            "{error:?}"
        );
        let error = codec
            .error_result(&nested(MAX_VALUE_DEPTH + 1, objects))
            .unwrap_err();
        assert!(matches!(error, EncodeError::DepthLimit { .. }), "{error:?}");
    }
    // A million levels: an error, not a stack overflow. (The value is
    // leaked: dropping a `Value` recurses, and a million levels would
    // overflow the test thread's stack in `drop`, not in the codec.)
    let deep = std::mem::ManuallyDrop::new(nested(1_000_000, false));
    let error = codec.result(&deep).unwrap_err();
    assert!(matches!(error, EncodeError::DepthLimit { .. }));
}

#[test]
fn a_text_codec_writing_non_utf8_is_an_error() {
    #[derive(Debug)]
    struct Latin1(MediaType);
    impl Codec for Latin1 {
        fn format(&self) -> &str {
            "latin1"
        }
        fn media_type(&self) -> &MediaType {
            &self.0
        }
        fn encode_value(&self, _: &Value, out: &mut Vec<u8>) -> Result<(), EncodeError> {
            out.extend_from_slice(b"caf\xe9");
            Ok(())
        }
    }
    let codec = McpCodec::builder()
        .text_format(TextFormat::Codec(Arc::new(Latin1(MediaType::from_static(
            "text/plain",
        )))))
        .build()
        .unwrap();
    let error = CodecTester::new(&codec).check_value_rejected("latin-1 text", &value("1"));
    assert_eq!(
        error.to_string(),
        "mcp cannot represent this value: the latin1 text codec wrote bytes that are not UTF-8 \
         (at byte 3)"
    );
}

#[test]
fn serialize_errors_are_typed() {
    use std::collections::BTreeMap;
    let mut map = BTreeMap::new();
    map.insert((1, 2), "tuple keys have no JSON form");
    let error = McpCodec::new().to_vec(&map).unwrap_err();
    assert!(matches!(error, EncodeError::Serialize(_)), "{error:?}");
}

#[test]
fn text_formats() {
    let data = value(r#"{"name": "ada", "score": 0.90}"#);
    // (format, json text block, expected text blocks)
    let cases: &[(TextFormat, bool, &[&str])] = &[
        (
            TextFormat::Markdown,
            false,
            &["- **name**: ada\n- **score**: 0.90\n"],
        ),
        (
            TextFormat::Markdown,
            true,
            &[
                "- **name**: ada\n- **score**: 0.90\n",
                r#"{"name":"ada","score":0.90}"#,
            ],
        ),
        (TextFormat::Json, false, &[r#"{"name":"ada","score":0.90}"#]),
        // The JSON block would repeat the text block: skipped.
        (TextFormat::Json, true, &[r#"{"name":"ada","score":0.90}"#]),
    ];
    for (format, json_block, expected) in cases {
        let (json_block, expected) = (*json_block, *expected);
        let codec = McpCodec::builder()
            .text_format(format.clone())
            .json_text_block(json_block)
            .build()
            .unwrap();
        let result = codec.result(&data).unwrap();
        let texts: Vec<&str> = result
            .content
            .iter()
            .map(|b| match b {
                codec_mcp::ContentBlock::Text(t) => t.text.as_str(),
                _ => panic!("not text"),
            })
            .collect();
        assert_eq!(texts, expected, "{format:?} json block {json_block}");
    }
}

/// The summary stands in for the data only where `structuredContent`
/// carries it: an error result, or a result the policy leaves without
/// structured content, gets the markdown.
#[test]
fn summary_text_only_beside_structured_content() {
    let rows = format!("[{}]", vec![r#"{"id": 1, "name": "a row"}"#; 50].join(","));
    let rows = value(&rows);
    let markdown = {
        let mut out = Vec::new();
        codec_md::MarkdownCodec::new()
            .encode_value(&rows, &mut out)
            .unwrap();
        text(out)
    };
    let summary = "The result is in structuredContent: an array of 50 items.";
    let small = value(r#"{"ok": true}"#);
    // (policy, error result, value, expected text, structured content)
    let cases: &[(StructuredContent, bool, &Value, &str, bool)] = &[
        (StructuredContent::Always, false, &rows, summary, true),
        // Short: the serialized JSON itself.
        (
            StructuredContent::Always,
            false,
            &small,
            r#"{"ok":true}"#,
            true,
        ),
        (StructuredContent::Always, true, &rows, &markdown, false),
        (StructuredContent::Never, false, &rows, &markdown, false),
        (
            StructuredContent::WithOutputSchema,
            false,
            &rows,
            &markdown,
            false,
        ),
    ];
    for (policy, is_error, data, expected, structured) in cases {
        let codec = McpCodec::builder()
            .text_format(TextFormat::Summary)
            .structured_content(*policy)
            .build()
            .unwrap();
        let result = if *is_error {
            codec.error_result(data).unwrap()
        } else {
            codec.result(data).unwrap()
        };
        assert_eq!(
            result.text(),
            Some(*expected),
            "{policy:?} error {is_error}"
        );
        assert_eq!(result.content.len(), 1);
        assert_eq!(
            result.structured_content.is_some(),
            *structured,
            "{policy:?} error {is_error}"
        );
    }
}

#[test]
fn json_text_block_holds_the_wrapped_structured_content() {
    let codec = McpCodec::builder().json_text_block(true).build().unwrap();
    let result = codec.result(&value("[1, 2]")).unwrap();
    let json = match &result.content[1] {
        codec_mcp::ContentBlock::Text(t) => t.text.clone(),
        _ => panic!("not text"),
    };
    assert_eq!(json, r#"{"result":[1,2]}"#);
    // Without structured content, the JSON of the value itself.
    let codec = McpCodec::builder()
        .json_text_block(true)
        .structured_content(StructuredContent::Never)
        .build()
        .unwrap();
    let result = codec.result(&value("[1, 2]")).unwrap();
    assert_eq!(result.content.len(), 2);
    assert_eq!(result.content[1], codec_mcp::ContentBlock::text("[1,2]"));
}

#[test]
fn long_text_is_truncated_and_says_so() {
    let rows: Vec<String> = (0..2_000)
        .map(|i| format!(r#"{{"id": {i}, "name": "user {i}", "email": "u{i}@example.com"}}"#))
        .collect();
    let data = value(&format!("[{}]", rows.join(",")));
    let full = codec_md::render(&data).unwrap();
    assert!(full.chars().count() > DEFAULT_MAX_TEXT_CHARS);
    // (limit, expect a cut)
    let cases = [
        (None, false),
        (Some(DEFAULT_MAX_TEXT_CHARS), true),
        (Some(1_000), true),
    ];
    for (limit, cut) in cases {
        let codec = McpCodec::builder()
            .max_text_chars(limit)
            .cut_structured_content(false)
            .build()
            .unwrap();
        let result = codec.result(&data).unwrap();
        let text = result.text().unwrap();
        // Opted out: the structured content is never cut, nor reordered.
        assert!(result.structured_content.as_ref().unwrap()["result"].identical(&data));
        if !cut {
            assert_eq!(text, full);
            continue;
        }
        let limit = limit.unwrap();
        assert!(
            text.chars().count() <= limit,
            "{limit}: {}",
            text.chars().count()
        );
        let (kept, note) = text.rsplit_once("\n\n").unwrap();
        assert!(full.starts_with(kept), "{limit}: the kept part is a prefix");
        // Whole table rows only, and the table keeps its header.
        assert!(
            kept.starts_with("|id|name|email|\n|---|---|---|\n"),
            "{kept}"
        );
        assert!(
            kept.lines().all(|l| l.starts_with('|') && l.ends_with('|')),
            "{limit}"
        );
        let kept_chars = kept.chars().count();
        let total = full.chars().count();
        // The markdown cut counts the rows it left out.
        let rows_kept = kept.lines().count() - 2;
        assert_eq!(
            note,
            format!(
                "[Truncated: showing the first {kept_chars} of {total} characters; {} of 2000 \
                 rows were left out. Narrow the request (a filter, fewer fields, a smaller page) \
                 to see the rest.]",
                2000 - rows_kept
            )
        );
        common::assert_valid(
            "truncated",
            ProtocolVersion::V2025_11_25,
            "CallToolResult",
            &common::json(&codec.to_vec(&data).unwrap()),
        );
    }
}

/// By default a text cut after a row of the value's table cuts the
/// structured content at the same row, for every revision (wrapped or
/// not), in the owned result as in the written one; the note says so
/// after the hint. A value whose rows are written as sections (the cut
/// counts no row of them) keeps its whole structured content.
#[test]
fn a_cut_text_cuts_the_structured_content_at_the_same_rows() {
    let rows: Vec<String> = (0..500)
        .map(|i| format!(r#"{{"id": {i}, "name": "user {i}"}}"#))
        .collect();
    let array = value(&format!("[{}]", rows.join(",")));
    let object = value(&format!(r#"{{"users": [{}]}}"#, rows.join(",")));
    let limit =
        codec_core::TextLimit::chars(2_000).with_hint("Request ?offset={rows} for the rest.");
    let versions = [
        ProtocolVersion::V2025_06_18,
        ProtocolVersion::V2025_11_25,
        ProtocolVersion::V2026_07_28,
    ];
    for version in versions {
        let codec = McpCodec::builder()
            .protocol_version(version)
            .text_limit(Some(limit.clone()))
            .build()
            .unwrap();
        for data in [&array, &object] {
            let result = codec.result(data).unwrap();
            let text = result.text().unwrap();
            assert!(text.chars().count() <= 2_000, "{version}");
            // The header row, then the rows kept.
            let kept = text
                .lines()
                .filter(|l| l.starts_with('|') && !l.starts_with("|-"))
                .count()
                - 1;
            assert!(kept > 10 && kept < 500, "{version}: {kept}");
            assert!(
                text.ends_with(&format!(
                    "rows were left out. Request ?offset={kept} for the rest. The \
                     structuredContent holds the same {kept} rows.]"
                )),
                "{version}: {text}"
            );
            let expected = match data {
                Value::Array(items) => Value::Array(items[..kept].to_vec()),
                _ => {
                    let items = data["users"].as_array().unwrap()[..kept].to_vec();
                    Value::Object([("users", Value::Array(items))].into_iter().collect())
                }
            };
            let wrapped = version != ProtocolVersion::V2026_07_28 && data.as_array().is_some();
            let expected = if wrapped {
                Value::Object([("result", expected)].into_iter().collect())
            } else {
                expected
            };
            assert_eq!(
                result.structured_content.as_ref(),
                Some(&expected),
                "{version}"
            );
            let written = common::json(&codec.to_vec(data).unwrap());
            let expected = common::json(
                &codec_json::JsonCodec::new()
                    .value_to_vec(&expected)
                    .unwrap(),
            );
            assert_eq!(written["structuredContent"], expected, "{version}");
        }
    }
    // Rows holding lists are written as sections: the cut counts no row
    // of the table, and the structured content stays whole.
    let sections: Vec<String> = (0..300)
        .map(|i| format!(r#"{{"id": {i}, "tags": ["a", "b"], "more": {{"x": {i}}}}}"#))
        .collect();
    let sections = value(&format!("[{}]", sections.join(",")));
    let codec = McpCodec::builder().text_limit(Some(limit)).build().unwrap();
    let result = codec.result(&sections).unwrap();
    assert!(result.text().unwrap().contains("[Truncated"), "a cut");
    assert!(!result.text().unwrap().contains("structuredContent"));
    assert!(result.structured_content.as_ref().unwrap()["result"].identical(&sections));
}

#[test]
fn tool_errors_are_results() {
    let codec = McpCodec::new();
    // (error value, expected text)
    let cases: &[(&str, &str)] = &[
        (r#"{"message": "not found"}"#, "- **message**: not found\n"),
        (
            r#""Invalid date: must be in the future.""#,
            "Invalid date: must be in the future.\n",
        ),
        // Nothing to render: the model still learns the call failed.
        ("null", "The tool failed without giving a reason."),
    ];
    for &(input, expected) in cases {
        let result = codec.error_result(&value(input)).unwrap();
        assert!(result.is_error(), "{input}");
        assert_eq!(result.structured_content, None, "{input}");
        let rendered = codec_md::render(&value(input)).unwrap();
        let expected = if rendered.is_empty() {
            expected
        } else {
            rendered.as_str()
        };
        assert_eq!(result.text(), Some(expected), "{input}");
    }
    let message = codec.error_message("Invalid date: must be in the future.");
    let mut body = Vec::new();
    codec.write_result(message, &mut body).unwrap();
    assert_eq!(
        text(body),
        r#"{"content":[{"type":"text","text":"Invalid date: must be in the future."}],"isError":true}"#
    );
    let empty = codec.error_message("");
    assert_eq!(
        empty.text(),
        Some("The tool failed without giving a reason.")
    );
}

#[test]
fn structured_errors_follow_the_policy() {
    // (policy, structured errors, expected structured content)
    let cases = [
        (StructuredContent::Always, false, None),
        (
            StructuredContent::Always,
            true,
            Some(r#"{"result":"boom"}"#),
        ),
        (
            StructuredContent::WithOutputSchema,
            true,
            Some(r#"{"result":"boom"}"#),
        ),
        (StructuredContent::Never, true, None),
    ];
    for (policy, yes, expected) in cases {
        let codec = McpCodec::builder()
            .structured_content(policy)
            .structured_errors(yes)
            .build()
            .unwrap();
        let result = codec.error_result(&value(r#""boom""#)).unwrap();
        assert_eq!(
            result.structured_content,
            expected.map(value),
            "{policy:?} {yes}"
        );
    }
    // An error ignores an object output schema: a string error is wrapped.
    let codec = McpCodec::builder()
        .output_schema(Some(value(r#"{"type":"object"}"#)))
        .structured_errors(true)
        .build()
        .unwrap();
    let result = codec.error_result(&value(r#""boom""#)).unwrap();
    assert_eq!(
        result.structured_content,
        Some(value(r#"{"result":"boom"}"#))
    );
}

#[test]
fn response_envelope() {
    let codec = McpCodec::builder()
        .protocol_version(ProtocolVersion::V2026_07_28)
        .build()
        .unwrap();
    // (id, expected start of the response)
    let cases = [
        (
            RequestId::from(7),
            r#"{"jsonrpc":"2.0","id":7,"result":{"resultType":"complete","#,
        ),
        (
            RequestId::from("abc"),
            r#"{"jsonrpc":"2.0","id":"abc","result":{"#,
        ),
        (
            RequestId::from(-1),
            r#"{"jsonrpc":"2.0","id":-1,"result":{"#,
        ),
    ];
    for (id, start) in cases {
        let result = codec.result(&value("[1]")).unwrap();
        let body = text(codec.response_to_vec(id.clone(), result.clone()).unwrap());
        assert!(body.starts_with(start), "{body}");
        let parsed = codec_mcp::JsonRpcResponse::from_slice(body.as_bytes()).unwrap();
        assert_eq!(parsed.id, id);
        assert_same_result(&parsed.result, &result, &format!("{id}"));
    }
}

#[test]
fn pretty_layout() {
    let codec = McpCodec::builder().pretty(true).build().unwrap();
    let body = text(codec.to_vec(&value(r#"{"a": 1}"#)).unwrap());
    assert_eq!(
        body,
        "{\n  \"content\": [\n    {\n      \"type\": \"text\",\n      \"text\": \"- **a**: 1\\n\"\n    }\n  ],\n  \"structuredContent\": {\n    \"a\": 1\n  }\n}"
    );
}

#[test]
fn results_parse_back() {
    let codec = McpCodec::builder()
        .protocol_version(ProtocolVersion::V2026_07_28)
        .server_info(Some(codec_mcp::Implementation::new("svc", "2.0")))
        .json_text_block(true)
        .build()
        .unwrap();
    for input in [r#"{"a": [1, 2.50]}"#, "null", r#""text""#] {
        let result = codec.result(&value(input)).unwrap();
        let body = codec.to_vec(&value(input)).unwrap();
        let parsed = CallToolResult::from_slice(&body).unwrap();
        assert_same_result(&parsed, &result, input);
        assert_eq!(
            parsed.server_info(),
            Some(codec_mcp::Implementation::new("svc", "2.0"))
        );
    }
}

#[test]
fn with_protocol_version_keeps_the_other_options() {
    let codec = McpCodec::builder()
        .structured_content(StructuredContent::WithOutputSchema)
        .output_schema(Some(value(r#"{"type":"array"}"#)))
        .build()
        .unwrap();
    let expected = [
        (ProtocolVersion::V2025_06_18, r#"{"result":[1]}"#),
        (ProtocolVersion::V2025_11_25, r#"{"result":[1]}"#),
        (ProtocolVersion::V2026_07_28, "[1]"),
    ];
    for (version, structured) in expected {
        let codec = codec.with_protocol_version(version);
        assert_eq!(codec.protocol_version(), version);
        let result = codec.result(&value("[1]")).unwrap();
        assert_eq!(
            result.structured_content,
            Some(value(structured)),
            "{version}"
        );
        let advertised = codec.advertised_output_schema().unwrap();
        assert_eq!(
            advertised.get("required").is_some(),
            version.requires_object_structured_content()
        );
    }
}

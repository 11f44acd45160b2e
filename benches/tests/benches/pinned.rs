//! Every output of every codec, profile and mode, pinned: a refactor or a
//! speed-up must keep them byte for byte.
//!
//! Each case is a name and the bytes some public entry point gives (an
//! encoding, a reading back, an error's text, a negotiated response's
//! status, headers and body). The test compares each case's length and
//! FNV-1a hash with `tests/pinned/outputs.txt` and names every case that
//! differs, appeared or disappeared.
//!
//! A change that is *meant* to change an output regenerates the file with
//! `PINNED_UPDATE=1 cargo test -p benches --test pinned`, and the diff of
//! `outputs.txt` shows, case by case, what it changed: review it as part of
//! the change.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::sync::Arc;

use benches::DATASETS;
use benches::types::{Typed, Visit};
use codec_core::{Codec, CodecExt, Value};
use codec_html::HtmlCodec;
use codec_json::JsonCodec;
use codec_mcp::{McpCodec, ProtocolVersion, RequestId, StructuredContent, TextFormat};
use codec_md::{MarkdownCodec, Profile};
use negotiate::Negotiator;

const PINNED: &str = "tests/pinned/outputs.txt";

/// FNV-1a, 64 bits: enough to tell outputs apart, no dependency.
fn fnv1a(bytes: &[u8]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        hash ^= u64::from(b);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash
}

/// The cases, by name.
#[derive(Default)]
struct Outputs(BTreeMap<String, Vec<u8>>);

impl Outputs {
    fn add(&mut self, name: impl Into<String>, bytes: impl Into<Vec<u8>>) {
        let name = name.into();
        assert!(!name.contains(' '), "{name:?}: no spaces in case names");
        let previous = self.0.insert(name.clone(), bytes.into());
        assert!(previous.is_none(), "case {name:?} twice");
    }

    /// An encoding, or its error's text.
    fn encoded(&mut self, name: String, result: Result<Vec<u8>, codec_core::EncodeError>) {
        match result {
            Ok(bytes) => self.add(name, bytes),
            Err(e) => self.add(format!("{name}!err"), e.to_string()),
        }
    }

    fn lines(&self) -> String {
        let mut text = String::new();
        for (name, bytes) in &self.0 {
            let _ = writeln!(text, "{name} {} {:016x}", bytes.len(), fnv1a(bytes));
        }
        text
    }
}

fn json(value: &Value) -> Vec<u8> {
    JsonCodec::new().value_to_vec(value).unwrap()
}

/// Every codec configuration under test, by name.
fn codecs() -> Vec<(String, Arc<dyn Codec>)> {
    let md =
        |profile| -> Arc<dyn Codec> { Arc::new(MarkdownCodec::builder().profile(profile).build()) };
    let mut codecs: Vec<(String, Arc<dyn Codec>)> = vec![
        ("json".into(), Arc::new(JsonCodec::new())),
        ("json-pretty".into(), Arc::new(JsonCodec::pretty())),
        ("md".into(), md(Profile::Default)),
        ("md-lossless".into(), md(Profile::Lossless)),
        ("md-dense".into(), md(Profile::Dense)),
        ("html".into(), Arc::new(HtmlCodec::new())),
    ];
    let versions = [
        ProtocolVersion::V2025_06_18,
        ProtocolVersion::V2025_11_25,
        ProtocolVersion::V2026_07_28,
    ];
    let policies = [
        ("always", StructuredContent::Always),
        ("with-schema", StructuredContent::WithOutputSchema),
        ("never", StructuredContent::Never),
    ];
    for version in versions {
        for (policy_name, policy) in policies {
            let codec = McpCodec::builder()
                .protocol_version(version)
                .structured_content(policy)
                .build()
                .unwrap();
            codecs.push((format!("mcp-{version}-{policy_name}"), Arc::new(codec)));
        }
    }
    // Text formats and codecs, limits and the extra blocks, on the
    // default version.
    let variants: Vec<(&str, McpCodec)> = vec![
        (
            "mcp-json-text",
            McpCodec::builder()
                .text_format(TextFormat::Json)
                .build()
                .unwrap(),
        ),
        (
            "mcp-dense-text",
            McpCodec::builder()
                .text_format(TextFormat::Codec(md(Profile::Dense)))
                .build()
                .unwrap(),
        ),
        (
            "mcp-lossless-text",
            McpCodec::builder()
                .text_format(TextFormat::Codec(md(Profile::Lossless)))
                .build()
                .unwrap(),
        ),
        (
            "mcp-json-block",
            McpCodec::builder().json_text_block(true).build().unwrap(),
        ),
        (
            "mcp-unlimited",
            McpCodec::builder().max_text_chars(None).build().unwrap(),
        ),
        (
            "mcp-limit-600",
            McpCodec::builder()
                .max_text_chars(Some(600))
                .build()
                .unwrap(),
        ),
        (
            "mcp-limit-3000",
            McpCodec::builder()
                .max_text_chars(Some(3000))
                .build()
                .unwrap(),
        ),
        (
            "mcp-json-limit-700",
            McpCodec::builder()
                .text_format(TextFormat::Json)
                .max_text_chars(Some(700))
                .build()
                .unwrap(),
        ),
        (
            "mcp-dense-limit-900",
            McpCodec::builder()
                .text_format(TextFormat::Codec(md(Profile::Dense)))
                .max_text_chars(Some(900))
                .build()
                .unwrap(),
        ),
        (
            "mcp-pretty-2026",
            McpCodec::builder()
                .protocol_version(ProtocolVersion::V2026_07_28)
                .pretty(true)
                .server_info(Some(codec_mcp::Implementation::new("pin", "1.0")))
                .build()
                .unwrap(),
        ),
    ];
    for (name, codec) in variants {
        codecs.push((name.into(), Arc::new(codec)));
    }
    codecs
}

/// Encodes a typed value with every codec.
struct Typed2<'a> {
    codecs: &'a [(String, Arc<dyn Codec>)],
    out: &'a mut Outputs,
    dataset: &'static str,
}

impl Visit for Typed2<'_> {
    type Output = ();
    fn visit<T: serde::Serialize>(&mut self, value: &T) {
        for (name, codec) in self.codecs {
            let result = codec.to_vec(value);
            self.out
                .encoded(format!("typed/{}/{name}", self.dataset), result);
        }
    }
}

/// Small values that exercise one rule each, and hostile strings in every
/// place a string can go.
fn edge_values() -> Vec<(String, Value)> {
    let mut values: Vec<(String, Value)> = [
        ("null", "null"),
        ("true", "true"),
        ("number", "1.10"),
        ("big", "123456789012345678901234567890"),
        ("empty-string", r#""""#),
        ("string", r#""plain""#),
        ("heading-string", r##""# x""##),
        ("multiline", r#""a\nb\r\nc""#),
        ("empty-array", "[]"),
        ("empty-object", "{}"),
        ("scalars", r#"[1, "x", true, null, "- a"]"#),
        (
            "mixed",
            r#"[[1], {"a": 1}, 2, {"b": {"c": [1, 2, {"d": "e"}]}}]"#,
        ),
        (
            "sparse",
            r#"[{"a": 1}, {"b": 2}, {"c": 3}, {"a": 4, "b": 5}]"#,
        ),
        (
            "code",
            r#"{"lang": "rust", "code": "fn main() {}\n", "diff": "-a\n+b", "stdout": "``` ok ````", "note": "x\u0000y"}"#,
        ),
        ("deep-headings", r#"{"a":{"b":{"c":{"d":{"e":{"f":{"g":{"h":{"i":1}}}}}}}}}"#),
        (
            "empty-keys",
            r#"{"": 1, "x": {"": {"a": 1}}, "t": [{"": 1, "a": 2}, {"": 3, "a": 4}]}"#,
        ),
        (
            "order",
            r#"{"z": {"a": 1}, "y": 2, "x": [{"b": 1, "a": 2}, {"a": 3, "b": 4}], "w": 3}"#,
        ),
        (
            "types",
            r#"[{"s": "7", "n": 7, "b": "true", "z": "", "e": null, "l": "[1]"}, {"n": 8}]"#,
        ),
        (
            "keyed",
            r#"{"x": {"a": 1, "b": {"c": "d"}}, "y": {"a": 2, "b": {"c": "e.f"}}, "z": {"a.b": 3}}"#,
        ),
        (
            "cells",
            r#"[{"s": "a\nb", "t": ["x", 1, null], "u": [{"k": "`|"}], "v": {}, "w": "[x]", "x": "`y"}]"#,
        ),
        (
            "commas",
            r#"{"url": "https://api.github.com/notifications{?since,all,participating}", "n": "1,000", "l": ["a, b", "c"]}"#,
        ),
        (
            "links",
            r#"{"k": "[[a]](https://evil.example)", "t": [{"c": "[a[b]](url)"}], "u": "U[[]]()"}"#,
        ),
        (
            "bidi",
            "{\"k\u{202e}\": \"\u{202e}x\u{200b}\u{feff}\u{85}\u{9f} \", \"\u{a0}\": \"\\t\"}",
        ),
    ]
    .iter()
    .map(|(name, json)| {
        let value = codec_core::from_str(json).unwrap_or_else(|e| panic!("{name}: {e}"));
        (format!("edge-{name}"), value)
    })
    .collect();

    // The shared escape vectors in every place a string goes.
    let vectors: Value = codec_core::from_slice(include_bytes!(
        "../../../codec-md/tests/data/escape-vectors.json"
    ))
    .unwrap();
    let mut strings: Vec<Value> = vectors["vectors"]
        .as_array()
        .unwrap()
        .iter()
        .chain(vectors["code_blocks"]["vectors"].as_array().unwrap())
        .map(|v| v["input"].clone())
        .collect();
    strings.dedup();
    for (i, s) in strings.iter().enumerate() {
        let text = s.as_str().unwrap().to_owned();
        let mut object = codec_core::Map::new();
        object.insert(text.clone(), s.clone());
        object.insert("code", s.clone());
        let mut row = codec_core::Map::new();
        row.insert("a", s.clone());
        row.insert(text.clone(), Value::from(1u8));
        let mut nested = codec_core::Map::new();
        nested.insert(text, Value::Object(object.clone()));
        let value = Value::Array(vec![
            s.clone(),
            Value::Object(object),
            Value::Array(vec![Value::Object(row.clone()), Value::Object(row)]),
            Value::Object(nested),
            Value::Array(vec![s.clone(), s.clone()]),
        ]);
        values.push((format!("vector-{i:02}"), value));
        values.push((format!("vector-{i:02}-alone"), s.clone()));
    }
    values
}

/// Markdown that the readers reject, each with its error's text pinned.
const BAD_MARKDOWN: &[&str] = &[
    "",
    "|a|\n",
    "|a|b|\n|---|\n",
    "|a|\n|---|\n|1|2|\n",
    "- **a**: 1\n- **a**: 2\n",
    "# a\n\n# a\n",
    "```\nunclosed\n",
    "- **a\n",
    "<div>x</div>\n",
    "> quote\n",
    "|a|\n|-x-|\n|1|\n",
    "# [0]\n\n- **b**: 1\n\n# [2]\n",
    "- **a**: 1\n\n## b\n",
    "```json\n{\"a\": }\n```\n",
    "|a.b|a|\n|---|---|\n1|2\n",
];

fn all_outputs() -> Outputs {
    let mut out = Outputs::default();
    let codecs = codecs();

    let mut inputs: Vec<(String, Value)> = DATASETS
        .iter()
        .map(|d| (d.name.to_owned(), d.value()))
        .collect();
    inputs.extend(edge_values());

    for (input, value) in &inputs {
        for (name, codec) in &codecs {
            let mut bytes = Vec::new();
            let result = codec.encode_value(value, &mut bytes).map(|()| bytes);
            out.encoded(format!("value/{input}/{name}"), result);
        }
        // The same encodings through the `Serialize` path of a `Value`.
        for (name, codec) in codecs.iter().filter(|(n, _)| !n.starts_with("mcp-")) {
            out.encoded(format!("serialize/{input}/{name}"), codec.to_vec(value));
        }
        // MCP's other entry points.
        let mcp = McpCodec::new();
        match mcp.error_result(value) {
            Ok(result) => {
                let mut bytes = Vec::new();
                mcp.write_result(result, &mut bytes).unwrap();
                out.add(format!("value/{input}/mcp-error"), bytes);
            }
            Err(e) => out.add(format!("value/{input}/mcp-error!err"), e.to_string()),
        }
        let mut bytes = Vec::new();
        let result = mcp
            .encode_response(&RequestId::from(7), value, &mut bytes)
            .map(|()| bytes);
        out.encoded(format!("value/{input}/mcp-response"), result);

        // Reading back: each reading of its own rendering, and what the
        // default rendering carries.
        let rendered = |profile| {
            let codec = MarkdownCodec::builder().profile(profile).build();
            let mut bytes = Vec::new();
            codec
                .encode_value(value, &mut bytes)
                .ok()
                .map(|()| String::from_utf8(bytes).unwrap())
        };
        out.add(
            format!("read/{input}/normalize"),
            json(&codec_md::normalize(value)),
        );
        if let Some(md) = rendered(Profile::Default) {
            match codec_md::parse(&md) {
                Ok(v) => out.add(format!("read/{input}/parse"), json(&v)),
                Err(e) => out.add(format!("read/{input}/parse!err"), e.to_string()),
            }
            if md.starts_with('|') {
                match codec_md::parse_table(&md) {
                    Ok(t) => out.add(
                        format!("read/{input}/parse_table"),
                        format!("{:?}\n{:?}", t.columns, t.rows),
                    ),
                    Err(e) => out.add(format!("read/{input}/parse_table!err"), e.to_string()),
                }
            }
        }
        if let Some(md) = rendered(Profile::Lossless) {
            match codec_md::parse_lossless(&md) {
                Ok(v) => out.add(format!("read/{input}/parse_lossless"), json(&v)),
                Err(e) => out.add(format!("read/{input}/parse_lossless!err"), e.to_string()),
            }
        }
        if let Some(md) = rendered(Profile::Dense) {
            match codec_md::parse_dense(&md) {
                Ok(v) => out.add(format!("read/{input}/parse_dense"), json(&v)),
                Err(e) => out.add(format!("read/{input}/parse_dense!err"), e.to_string()),
            }
        }
    }

    for dataset in &DATASETS {
        Typed::load(dataset).visit(&mut Typed2 {
            codecs: &codecs,
            out: &mut out,
            dataset: dataset.name,
        });
    }

    for (i, markdown) in BAD_MARKDOWN.iter().enumerate() {
        let show = |r: Result<Value, codec_md::ParseError>| match r {
            Ok(v) => json(&v),
            Err(e) => format!("error: {e}").into_bytes(),
        };
        out.add(format!("bad/{i:02}/parse"), show(codec_md::parse(markdown)));
        out.add(
            format!("bad/{i:02}/parse_lossless"),
            show(codec_md::parse_lossless(markdown)),
        );
        out.add(
            format!("bad/{i:02}/parse_dense"),
            show(codec_md::parse_dense(markdown)),
        );
        let table = match codec_md::parse_table(markdown) {
            Ok(t) => format!("{:?}\n{:?}", t.columns, t.rows),
            Err(e) => format!("error: {e}"),
        };
        out.add(format!("bad/{i:02}/parse_table"), table);
    }

    negotiated(&mut out);
    out
}

/// The negotiated answers (status, headers, body) to the `Accept` headers
/// agents, browsers and tools send, and to overrides.
fn negotiated(out: &mut Outputs) {
    let negotiator = Negotiator::builder()
        .codec(Arc::new(JsonCodec::new()))
        .codec(Arc::new(MarkdownCodec::new()))
        .codec(Arc::new(McpCodec::new()))
        .alias("md", codec_core::MediaType::from_static("text/x-markdown"))
        .build()
        .unwrap();
    let value =
        codec_core::from_str(r#"{"items": [{"id": 1, "name": "a"}, {"id": 2, "name": "b|c"}]}"#)
            .unwrap();
    let headers: &[Option<&str>] = &[
        None,
        Some(""),
        Some("*/*"),
        Some("text/markdown"),
        Some("text/markdown, text/plain;q=0.9, */*;q=0.8"),
        Some("text/markdown, text/html;q=0.9, */*;q=0.1"),
        Some("application/json, text/plain, */*"),
        Some("text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"),
        Some(
            "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7",
        ),
        Some("text/plain"),
        Some("image/*"),
        Some("text/markdown;q=0, */*"),
        Some("application/vnd.mcp+json"),
        Some("text/x-markdown"),
        Some("text/*;q=0.5, application/json;q=0.5"),
        Some("text/markdown;charset=latin1"),
        Some("application/json;q=abc, text/markdown;q=0.5"),
        Some(",,,;;;"),
    ];
    let targets = [
        "/items",
        "/items?format=md",
        "/items?format=csv",
        "/items.md",
        "/items?format=mcp&x=1",
    ];
    for (i, accept) in headers.iter().enumerate() {
        for (j, target) in targets.iter().enumerate() {
            let uri: http::Uri = target.parse().unwrap();
            let mut headers = http::HeaderMap::new();
            if let Some(accept) = accept {
                headers.insert(http::header::ACCEPT, accept.parse().unwrap());
            }
            let response = negotiator.respond(&uri, &headers, &value);
            let mut text = format!("{}\n", response.status());
            for (name, value) in response.headers() {
                let _ = writeln!(text, "{name}: {}", value.to_str().unwrap());
            }
            text.push('\n');
            let mut bytes = text.into_bytes();
            bytes.extend_from_slice(response.body());
            out.add(format!("negotiate/{i:02}/{j}"), bytes);
        }
    }
}

#[test]
fn every_output_is_pinned() {
    let outputs = all_outputs();
    let actual = outputs.lines();
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(PINNED);
    if std::env::var_os("PINNED_UPDATE").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, &actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (PINNED_UPDATE=1 writes it)", path.display()));
    let parse = |text: &str| -> BTreeMap<String, String> {
        text.lines()
            .filter_map(|line| line.split_once(' '))
            .map(|(name, rest)| (name.to_owned(), rest.to_owned()))
            .collect()
    };
    let (expected, actual) = (parse(&expected), parse(&actual));
    let mut problems = Vec::new();
    for (name, pinned) in &expected {
        match actual.get(name) {
            None => problems.push(format!("gone: {name}")),
            Some(now) if now != pinned => problems.push(format!(
                "changed: {name}: pinned {pinned}, now {now}\n  now: {:?}",
                String::from_utf8_lossy(&outputs.0[name][..outputs.0[name].len().min(400)])
            )),
            Some(_) => {}
        }
    }
    for name in actual.keys().filter(|n| !expected.contains_key(*n)) {
        problems.push(format!("new: {name}"));
    }
    assert!(
        problems.is_empty(),
        "{} of {} pinned outputs differ:\n{}",
        problems.len(),
        expected.len(),
        problems.join("\n")
    );
    // The pins cover what they claim to.
    assert!(expected.len() > 4000, "{} cases", expected.len());
}

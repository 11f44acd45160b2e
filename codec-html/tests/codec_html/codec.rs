//! The codec through codec-core's test kit, and the page's alternates with
//! the real agent codecs and the exact o200k count.

use crate::support;

use std::sync::Arc;

use codec_core::testkit::CodecTester;
use codec_core::{
    Codec, CodecExt, EncodeError, MediaType, TokenCounter, Value, from_slice, tokens::O200k,
};
use codec_html::HtmlCodec;
use codec_json::JsonCodec;
use codec_mcp::McpCodec;
use codec_md::MarkdownCodec;
use scraper::{Html, Selector};
use serde::Serialize;

#[derive(Serialize)]
struct Repo {
    name: &'static str,
    stars: u32,
    homepage: Option<&'static str>,
    topics: Vec<&'static str>,
}

#[test]
fn typed_values_through_every_entry_point() {
    let codec = HtmlCodec::new();
    let tester = CodecTester::new(&codec);
    let repos = [
        Repo {
            name: "codecs",
            stars: 1024,
            homepage: Some("https://example.com/codecs"),
            topics: vec!["rust", "llm"],
        },
        Repo {
            name: "<b>",
            stars: 3,
            homepage: None,
            topics: vec![],
        },
    ];
    let page = String::from_utf8(tester.check_serialize("repos", &repos)).unwrap();
    // Not flat (topics is an array), so indexed sections, as in markdown.
    assert!(page.contains("<h2 class=\"index\">[0]</h2>"), "{page}");
    assert!(page.contains("<dd><a href=\"https://example.com/codecs\" rel=\"nofollow noopener noreferrer\">https://example.com/codecs</a></dd>"));
    assert!(page.contains("<dt>name</dt>\n<dd>&lt;b&gt;</dd>"));
    tester.check_depth_limit();
}

#[test]
fn datasets_render_the_same_bytes_every_time() {
    let codec = HtmlCodec::new();
    let tester = CodecTester::new(&codec);
    for (name, json) in [
        ("github", &include_bytes!("../data/github.json")[..]),
        (
            "nested-config",
            include_bytes!("../data/nested-config.json"),
        ),
        ("hostile", include_bytes!("../data/hostile.json")),
    ] {
        tester.check_value(name, &from_slice(json).unwrap());
    }
}

#[test]
fn too_deep_is_a_typed_error() {
    let codec = HtmlCodec::new();
    let err = CodecTester::new(&codec).check_value_rejected(
        "deep",
        &codec_core::testkit::nested(4 * codec_core::value::DEFAULT_MAX_DEPTH, true),
    );
    assert!(
        matches!(err, EncodeError::DepthLimit { limit: 128 }),
        "{err}"
    );
}

/// The agent formats as a server registers them.
fn agent_codecs() -> Vec<Arc<dyn Codec>> {
    vec![
        Arc::new(JsonCodec::new()),
        Arc::new(MarkdownCodec::new()),
        Arc::new(McpCodec::new()),
    ]
}

/// The alternates table: (link, media type, bytes, tokens, best) per row.
fn alternates(html: &str) -> Vec<(String, String, String, String, bool)> {
    let document = Html::parse_document(html);
    let rows = Selector::parse("header nav table tbody tr").unwrap();
    let cells = Selector::parse("td").unwrap();
    let data = Selector::parse("data").unwrap();
    document
        .select(&rows)
        .map(|row| {
            let cells: Vec<_> = row.select(&cells).collect();
            let href = cells[0]
                .select(&Selector::parse("a").unwrap())
                .next()
                .unwrap();
            let value = |i: usize| {
                cells.get(i).map_or(String::new(), |cell| {
                    cell.select(&data)
                        .next()
                        .and_then(|d| d.value().attr("value"))
                        .map_or_else(|| cell.text().collect(), str::to_owned)
                })
            };
            let best = cells
                .iter()
                .any(|c| c.value().attr("class") == Some("best"));
            (
                href.value().attr("href").unwrap().to_owned(),
                cells[1].text().collect(),
                value(2),
                value(3),
                best,
            )
        })
        .collect()
}

#[test]
fn the_page_shows_what_each_format_costs() {
    let o200k = O200k::new();
    let codec = HtmlCodec::builder()
        .alternates(agent_codecs())
        .token_counter(Arc::new(o200k))
        .build()
        .unwrap();
    let value = from_slice(include_bytes!("../data/github.json")).unwrap();
    let html = support::page(&codec, &value);
    support::check_allowed(&html, "github");
    assert!(html.contains("<th>o200k tokens</th>"));
    let rows = alternates(&html);
    let mut fewest = usize::MAX;
    for (codec, row) in agent_codecs().iter().zip(&rows) {
        let body = codec.to_vec(&value).unwrap();
        let tokens = o200k.count(std::str::from_utf8(&body).unwrap());
        fewest = fewest.min(tokens);
        assert_eq!(
            (&row.0, &row.1, &row.2, &row.3),
            (
                &format!("?format={}", codec.format()),
                &codec.media_type().to_string(),
                &body.len().to_string(),
                &tokens.to_string(),
            )
        );
        assert!(
            html.contains(&format!(
                "<link rel=\"alternate\" type=\"{}\" href=\"?format={}\">",
                codec.media_type(),
                codec.format()
            )),
            "{}",
            codec.format()
        );
    }
    assert_eq!(rows.len(), 3);
    // Markdown costs the fewest tokens here, and is marked.
    let best: Vec<_> = rows.iter().filter(|r| r.4).map(|r| r.0.as_str()).collect();
    assert_eq!(best, ["?format=md"]);
    assert_eq!(rows[1].3, fewest.to_string());
}

/// A codec that cannot write the value is a row that says so; the page
/// still renders. Without a counter there is no tokens column.
#[test]
fn an_alternate_that_fails_is_a_row_that_says_so() {
    struct Refuses(MediaType);
    impl Codec for Refuses {
        fn format(&self) -> &str {
            "csv"
        }
        fn media_type(&self) -> &MediaType {
            &self.0
        }
        fn encode_value(&self, _: &Value, _: &mut Vec<u8>) -> Result<(), EncodeError> {
            Err(EncodeError::Unrepresentable {
                format: "csv".into(),
                reason: "a <nested> object".into(),
            })
        }
    }
    let codec = HtmlCodec::builder()
        .title("Items & <more>")
        .alternate(Arc::new(JsonCodec::new()))
        .alternate(Arc::new(Refuses(MediaType::from_static("text/csv"))))
        .build()
        .unwrap();
    let html = support::page(&codec, &from_slice(br#"{"a": {"b": 1}}"#).unwrap());
    support::check_allowed(&html, "failing alternate");
    assert!(html.contains("<title>Items &amp; &lt;more&gt;</title>"));
    assert!(!html.contains("tokens</th>"));
    assert_eq!(
        alternates(&html),
        [
            (
                "?format=json".into(),
                "application/json".into(),
                "13".into(),
                String::new(),
                false
            ),
            (
                "?format=csv".into(),
                "text/csv".into(),
                "cannot encode: csv cannot represent this value: a <nested> object".into(),
                String::new(),
                false
            ),
        ]
    );
}

#[test]
fn the_format_parameter_follows_the_negotiators() {
    let codec = HtmlCodec::builder()
        .alternate(Arc::new(JsonCodec::new()))
        .format_param("as")
        .build()
        .unwrap();
    let html = support::page(&codec, &Value::Null);
    assert_eq!(alternates(&html)[0].0, "?as=json");
}

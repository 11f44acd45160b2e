//! The page has the markdown codec's default layout: the same headings,
//! tables (columns and rows), key lists and code blocks, in the same
//! order, read back by a GFM parser (pulldown-cmark) from the markdown
//! and by an HTML5 parser from the page. Markdown's `#` is the page's
//! `<h2>` (its `<h1>` is the title), both capped at h6.

use crate::support;

use codec_core::{Value, from_slice, from_str};
use codec_html::HtmlCodec;
use codec_md::MarkdownCodec;
use pulldown_cmark::{CodeBlockKind, Event, Options, Parser, Tag, TagEnd};
use scraper::{Html, Selector};

/// The blocks of a markdown document, as `h2`, `table 3`, `tr`, `dl`,
/// `dt`, `code rust` and `p`.
fn markdown_blocks(markdown: &str) -> Vec<String> {
    let mut blocks = Vec::new();
    let mut nested = 0usize;
    let mut in_head = false;
    for event in Parser::new_ext(markdown, Options::ENABLE_TABLES) {
        match event {
            Event::Start(Tag::Heading { level, .. }) => {
                blocks.push(format!("h{}", (level as usize + 1).min(6)));
                nested += 1;
            }
            Event::Start(Tag::Table(alignments)) => {
                blocks.push(format!("table {}", alignments.len()));
                nested += 1;
            }
            Event::Start(Tag::TableHead) => in_head = true,
            Event::End(TagEnd::TableHead) => in_head = false,
            Event::Start(Tag::TableRow) if !in_head => blocks.push("tr".into()),
            Event::Start(Tag::List(_)) => {
                blocks.push("dl".into());
                nested += 1;
            }
            Event::Start(Tag::Item) => blocks.push("dt".into()),
            Event::Start(Tag::CodeBlock(kind)) => {
                let language = match kind {
                    CodeBlockKind::Fenced(info) => info.to_string(),
                    CodeBlockKind::Indented => "indented!".into(),
                };
                blocks.push(format!("code {language}"));
            }
            Event::Start(Tag::Paragraph) if nested == 0 => blocks.push("p".into()),
            Event::End(TagEnd::Heading(_) | TagEnd::Table | TagEnd::List(_)) => nested -= 1,
            Event::Html(html) | Event::InlineHtml(html) => blocks.push(format!("html! {html}")),
            _ => {}
        }
    }
    blocks
}

/// The same blocks of a page's `<main>`.
fn page_blocks(html: &str) -> Vec<String> {
    let document = Html::parse_document(html);
    let selector =
        Selector::parse("main h2, main h3, main h4, main h5, main h6, main table, main tbody tr, main dl, main dt, main pre > code, main > p")
            .unwrap();
    document
        .select(&selector)
        .map(|element| {
            let name = element.value().name();
            match name {
                "table" => {
                    let th = Selector::parse("thead th").unwrap();
                    format!("table {}", element.select(&th).count())
                }
                "tr" => "tr".into(),
                "code" => {
                    let language = element
                        .value()
                        .attr("class")
                        .and_then(|c| c.strip_prefix("language-"))
                        .unwrap_or("");
                    format!("code {language}")
                }
                other => other.to_owned(),
            }
        })
        .collect()
}

fn check(label: &str, value: &Value) {
    let markdown =
        String::from_utf8(codec_core::CodecExt::to_vec(&MarkdownCodec::new(), value).unwrap())
            .unwrap();
    let html = support::page(&HtmlCodec::new(), value);
    let (expected, actual) = (markdown_blocks(&markdown), page_blocks(&html));
    assert!(
        !expected.iter().any(|b| b.starts_with("html!")),
        "{label}: the markdown has HTML"
    );
    assert_eq!(
        actual, expected,
        "{label}\n--- markdown\n{markdown}\n--- page\n{html}"
    );
}

#[test]
fn datasets_have_the_markdown_layout() {
    for (name, json) in [
        ("github", &include_bytes!("../data/github.json")[..]),
        (
            "nested-config",
            include_bytes!("../data/nested-config.json"),
        ),
        ("hostile", include_bytes!("../data/hostile.json")),
    ] {
        check(name, &from_slice(json).unwrap());
    }
}

/// The SPEC's examples and decided cases (top-level `null` and `""` are
/// left out: markdown writes nothing, the page an empty paragraph).
#[test]
fn decided_cases_have_the_markdown_layout() {
    let cases = [
        r#"{"name": "api", "port": 8080, "debug": false, "owner": null,
            "db": {"host": "db.local", "pool": {"min": 2, "max": 14}}, "region": "eu"}"#,
        r#"{"": 1, "a": {"": {"b": 2}}}"#,
        r#"{"tags": ["rust", "llm", 3, true, null], "empty": [], "meta": {}, "odd": ["a, b", "c"]}"#,
        r#"{"users": [{"id": 1, "name": "Ada", "admin": true}, {"id": 2, "name": "Bob", "email": "bob@example.com"}]}"#,
        r#"{"events": [{"id": 1, "tags": ["a"]}, "note", [1, 2], [[3]]]}"#,
        r#"{"file": "lib.rs", "lang": "rust", "code": "fn main() {}", "patch": "-a\n+b",
            "log": "one\n```\ntwo", "note": "a\r\nb"}"#,
        r#"[{"id": 1}, {"id": 2}]"#,
        r##"["# not a heading", "x"]"##,
        r#""- not a list item""#,
        r#"{"a": {"b": {"c": {"d": {"e": {"f": {"g": {"h": 1}}}}}}}}"#,
        r#"[[], {}, [[]], [{}], [{"a": 1}], 1, "x", null]"#,
        r#"[{"a": "x\ny"}, {"a": "z"}]"#,
        r#"[{}, {}]"#,
        r#"[{"a": 1}, {"b": 2}, {"c": 3}]"#,
        r#"{"stdout": "", "code": "\u0000", "diff": "a\r\nb", "lang": "not valid!"}"#,
        r#"["a\r\nb", "c\u0000d", "e\nf"]"#,
        r#""multi\nline""#,
        r#"[1, "x", true]"#,
        r#"{}"#,
        r#"[]"#,
        "42",
    ];
    for case in cases {
        check(case, &from_str(case).unwrap());
    }
}

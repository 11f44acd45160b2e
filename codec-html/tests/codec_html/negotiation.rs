//! Registered after json, md and mcp, the HTML codec goes to browsers and
//! to no one else: agents, curl and MCP clients keep what they get without
//! it. The negotiator holds the real codecs.

use std::sync::Arc;

use codec_core::{Codec, MediaType};
use codec_html::HtmlCodec;
use codec_json::JsonCodec;
use codec_mcp::McpCodec;
use codec_md::MarkdownCodec;
use negotiate::{Negotiator, Outcome};

fn negotiator(with_html: bool) -> Negotiator {
    let mut codecs: Vec<Arc<dyn Codec>> = vec![
        Arc::new(JsonCodec::new()),
        Arc::new(MarkdownCodec::new()),
        Arc::new(McpCodec::new()),
    ];
    if with_html {
        let alternates = codecs.clone();
        codecs.push(Arc::new(
            HtmlCodec::builder().alternates(alternates).build().unwrap(),
        ));
    }
    Negotiator::builder()
        .codecs(codecs)
        .alias("md", MediaType::from_static("text/x-markdown"))
        .build()
        .unwrap()
}

fn describe(outcome: Outcome<'_>) -> String {
    match outcome {
        Outcome::Selected(s) => format!("{} {}", s.format(), s.content_type()),
        Outcome::NoPreference(s) => format!("default {}", s.format()),
        Outcome::Fallback(s) => format!("fallback {}", s.format()),
        Outcome::NotAcceptable(_) => "406".to_owned(),
        _ => "a new outcome".to_owned(),
    }
}

/// The navigation `Accept` headers browsers send (MDN's list of default
/// values, current releases), and the headers agents and tools send (the
/// same as negotiate's tests).
const FIREFOX: &str = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";

const BROWSERS: &[(&str, &str)] = &[
    ("Firefox 128 and later", FIREFOX),
    (
        "Firefox 92 to 127",
        "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8",
    ),
    (
        "Chrome",
        "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7",
    ),
    (
        "Edge",
        "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7",
    ),
    (
        "Safari",
        "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
    ),
];

const AGENTS: &[(&str, Option<&str>)] = &[
    ("Claude Code", Some("text/markdown, text/html, */*")),
    ("Cursor", Some("text/markdown, text/plain;q=0.9, */*;q=0.8")),
    (
        "OpenCode",
        Some(
            "text/markdown;q=1.0, text/x-markdown;q=0.9, text/plain;q=0.8, text/html;q=0.7, */*;q=0.1",
        ),
    ),
    ("an MCP client", Some("application/json, text/event-stream")),
    ("curl", Some("*/*")),
    ("no Accept", None),
    ("an empty Accept", Some("")),
    ("Python requests, Node fetch", Some("*/*")),
];

#[test]
fn browsers_get_the_page() {
    let (with, without) = (negotiator(true), negotiator(false));
    for (browser, accept) in BROWSERS {
        assert_eq!(
            describe(with.negotiate([*accept])),
            "html text/html; charset=utf-8",
            "{browser}"
        );
        // Without the page, a browser gets JSON, as before.
        assert_eq!(
            describe(without.negotiate([*accept])),
            "json application/json",
            "{browser}"
        );
    }
}

#[test]
fn agents_keep_what_they_got() {
    let (with, without) = (negotiator(true), negotiator(false));
    for (agent, accept) in AGENTS {
        let before = describe(without.negotiate(accept.iter()));
        let after = describe(with.negotiate(accept.iter()));
        assert_eq!(after, before, "{agent}");
    }
    // What they got, spelled out.
    assert_eq!(
        describe(with.negotiate(["text/markdown, text/html, */*"])),
        "md text/markdown; charset=utf-8; variant=GFM"
    );
    assert_eq!(describe(with.negotiate(["*/*"])), "json application/json");
    assert_eq!(describe(with.negotiate(None::<&str>)), "default json");
}

/// A client that lists `text/html` first gets the page, as RFC 9110 says
/// it should: Java's `HttpURLConnection` does by default, so a Java client
/// of a service that registers the page must ask for what it wants.
#[test]
fn whoever_asks_for_html_first_gets_it() {
    let java = "text/html, image/gif, image/jpeg, *; q=.2, */*; q=.2";
    assert_eq!(
        describe(negotiator(true).negotiate([java])),
        "html text/html; charset=utf-8"
    );
}

#[test]
fn the_query_selects_the_page_and_the_page_links_back() {
    let negotiator = negotiator(true);
    for accept in [Some("text/markdown"), Some("*/*"), None] {
        let outcome = negotiator
            .negotiate_target(accept.iter(), "/items?format=html")
            .unwrap();
        assert_eq!(
            describe(outcome),
            "html text/html; charset=utf-8",
            "{accept:?}"
        );
    }
    // Every alternate link of the page selects its codec.
    let page = String::from_utf8(
        codec_core::CodecExt::to_vec(&**negotiator.codec("html").unwrap(), &[1]).unwrap(),
    )
    .unwrap();
    for format in ["json", "md", "mcp"] {
        let href = format!("href=\"?format={format}\"");
        assert!(page.contains(&href), "{href}");
        let outcome = negotiator
            .negotiate_target([FIREFOX], &format!("/items?format={format}"))
            .unwrap();
        assert!(describe(outcome).starts_with(format), "{format}");
    }
}

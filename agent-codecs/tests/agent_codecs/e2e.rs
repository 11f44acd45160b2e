//! End to end: the example service (`examples/serve-data-to-agents.rs`)
//! on 127.0.0.1 (port 0), real HTTP/1.1 requests over a `TcpStream`, with
//! the `Accept` and `User-Agent` headers that agents, browsers and curl
//! actually send. Token counts are checked with tiktoken itself.

use crate::common;
#[allow(dead_code)]
#[path = "../../examples/serve-data-to-agents.rs"]
mod example;

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::OnceLock;
use std::time::Duration;

/// Starts the example's service once, on a thread of its own.
fn server() -> SocketAddr {
    static ADDR: OnceLock<SocketAddr> = OnceLock::new();
    *ADDR.get_or_init(|| common::serve(example::app()))
}

#[derive(Debug)]
struct Reply {
    status: u16,
    headers: Vec<(String, String)>,
    body: String,
}

impl Reply {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// One HTTP/1.1 request with `Connection: close` and these headers.
fn request(method: &str, target: &str, headers: &[(&str, &str)]) -> Reply {
    let addr = server();
    let mut stream = TcpStream::connect_timeout(&addr, Duration::from_secs(10)).expect("connect");
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    let mut head = format!("{method} {target} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n");
    for (name, value) in headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str("\r\n");
    stream.write_all(head.as_bytes()).expect("send");
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).expect("read the reply");
    let text = String::from_utf8(raw).expect("a UTF-8 reply");
    let (head, body) = text.split_once("\r\n\r\n").expect("a header block");
    let mut lines = head.split("\r\n");
    let status = lines
        .next()
        .and_then(|l| l.split(' ').nth(1))
        .and_then(|s| s.parse().ok())
        .expect("a status line");
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_owned(), v.trim().to_owned()))
        .collect();
    Reply {
        status,
        headers,
        body: body.to_owned(),
    }
}

fn get(target: &str, headers: &[(&str, &str)]) -> Reply {
    request("GET", target, headers)
}

/// o200k_base tokens, by tiktoken itself.
fn tokens(text: &str) -> usize {
    tiktoken_rs::o200k_base_singleton().count_ordinary(text)
}

const MD: &str = "text/markdown; charset=utf-8; variant=GFM";
const JSON: &str = "application/json";
const HTML: &str = "text/html; charset=utf-8";
const MCP: &str = "application/vnd.mcp+json";
const PLAIN: &str = "text/plain; charset=utf-8";

// The headers clients send (negotiate's tests keep the same list).
const CLAUDE_CODE: &str = "text/markdown, text/html, */*";
const CURSOR: &str = "text/markdown, text/plain;q=0.9, */*;q=0.8";
const OPENCODE: &str =
    "text/markdown;q=1.0, text/x-markdown;q=0.9, text/plain;q=0.8, text/html;q=0.7, */*;q=0.1";
const OPENCLAW: &str = "text/markdown, text/html;q=0.9, */*;q=0.1";
const FIREFOX: &str =
    "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8";
const CHROME: &str = "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,\
                      image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7";
const SAFARI: &str = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";
const MCP_CLIENT: &str = "application/json, text/event-stream";
const NINE_PARAMETERS: &str =
    "text/markdown;a=1;b=2;c=3;d=4;e=5;f=6;g=7;h=8;i=9, application/json;q=0.5";
const CHATGPT_USER: &str = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; \
                            ChatGPT-User/1.0; +https://openai.com/bot)";

#[test]
fn every_client_gets_its_format_with_validators_and_links() {
    // (who, Accept, User-Agent, Content-Type)
    let cases: &[(&str, Option<&str>, Option<&str>, &str)] = &[
        (
            "Claude Code",
            Some(CLAUDE_CODE),
            Some("claude-code/2.0"),
            MD,
        ),
        ("Cursor", Some(CURSOR), None, MD),
        ("OpenCode", Some(OPENCODE), None, MD),
        ("OpenClaw", Some(OPENCLAW), None, MD),
        ("Firefox", Some(FIREFOX), None, HTML),
        ("Chrome", Some(CHROME), None, HTML),
        ("Safari", Some(SAFARI), None, HTML),
        ("curl", Some("*/*"), Some("curl/8.5.0"), JSON),
        ("no Accept", None, None, JSON),
        ("an MCP client", Some(MCP_CLIENT), None, JSON),
        ("MCP asked for", Some(MCP), None, MCP),
        ("text/plain", Some("text/plain"), None, PLAIN),
        (
            "plain and markdown",
            Some("text/plain, text/markdown"),
            None,
            MD,
        ),
        ("ChatGPT-User, */*", Some("*/*"), Some(CHATGPT_USER), MD),
        ("Claude-User, no Accept", None, Some("Claude-User"), MD),
        (
            "ChatGPT-User asking for JSON",
            Some(JSON),
            Some(CHATGPT_USER),
            JSON,
        ),
        // An element with more than 8 parameters is skipped whole.
        ("nine parameters", Some(NINE_PARAMETERS), None, JSON),
    ];
    for (who, accept, user_agent, content_type) in cases {
        let mut headers = Vec::new();
        if let Some(accept) = accept {
            headers.push(("Accept", *accept));
        }
        if let Some(user_agent) = user_agent {
            headers.push(("User-Agent", *user_agent));
        }
        let reply = get("/orders/7", &headers);
        assert_eq!(reply.status, 200, "{who}: {reply:?}");
        assert_eq!(reply.header("content-type"), Some(*content_type), "{who}");
        // The example turns the agent policy on: User-Agent counts too.
        assert_eq!(reply.header("vary"), Some("Accept, User-Agent"), "{who}");
        let etag = reply
            .header("etag")
            .unwrap_or_else(|| panic!("{who}: an ETag"));
        assert!(etag.len() == 34 && etag.starts_with('"'), "{who}: {etag}");
        let link = reply
            .header("link")
            .unwrap_or_else(|| panic!("{who}: a Link"));
        let is_markdown = [MD, PLAIN].contains(content_type);
        let md_link = r#"</orders/7?format=md>; rel="alternate"; type="text/markdown""#;
        let json_link = r#"</orders/7?format=json>; rel="alternate"; type="application/json""#;
        match is_markdown {
            true => assert_eq!(link, json_link, "{who}"),
            false if *content_type == JSON => assert_eq!(link, md_link, "{who}"),
            false => assert_eq!(link, format!("{md_link}, {json_link}"), "{who}"),
        }
        assert_eq!(
            reply.header("x-markdown-tokens").is_some(),
            is_markdown,
            "{who}"
        );
        if *content_type == HTML {
            let policy = reply.header("content-security-policy").expect("a policy");
            assert!(policy.starts_with("default-src 'none'"), "{policy}");
        }
        if is_markdown {
            assert!(
                reply.body.starts_with("- **id**: 7\n"),
                "{who}: {}",
                reply.body
            );
        }
    }
}

#[test]
fn markdown_carries_its_exact_token_count_and_fits_the_budget() {
    for target in ["/orders/7", "/orders", "/orders?offset=480"] {
        for accept in ["text/markdown", "text/plain"] {
            let reply = get(target, &[("Accept", accept)]);
            let counted = tokens(&reply.body);
            let header: usize = reply.header("x-markdown-tokens").unwrap().parse().unwrap();
            assert_eq!(header, counted, "{target} {accept}");
            assert!(counted <= 2_000, "{target}: {counted} tokens");
        }
    }
    // 500 orders do not fit: whole rows, then a note that says how many
    // were kept, and the next page starts where the note says.
    let first = get("/orders", &[("Accept", "text/markdown")]).body;
    let (table, note) = first.split_once("\n\n[Truncated: ").expect("a note");
    let rows: Vec<&str> = table.lines().skip(2).collect();
    assert!(rows.len() > 50, "{} rows", rows.len());
    assert!(rows.iter().all(|r| r.starts_with('|') && r.ends_with('|')));
    assert!(
        note.ends_with(&format!(
            "of 500 rows were left out. Request ?offset=N for the orders from N on; this \
             answer kept {} rows.]",
            rows.len()
        )),
        "{note}"
    );
    let next = get(
        &format!("/orders?offset={}", rows.len()),
        &[("Accept", "text/markdown")],
    );
    let first_next = next.body.lines().nth(2).unwrap();
    assert!(
        first_next.starts_with(&format!("|{}|", rows.len() + 1)),
        "{first_next}"
    );
    // The MCP text is cut the same way, and the structured content at the
    // same rows: a budget bounds what the model receives.
    let mcp = get("/orders", &[("Accept", MCP)]);
    assert!(
        mcp.body.contains("this answer kept"),
        "the MCP text has the note"
    );
    assert!(
        mcp.body.contains("The structuredContent holds the same"),
        "the note says the structured content is cut too"
    );
    assert!(
        !mcp.body.contains(r#"{"id":500,"#),
        "the structured content is cut at the text's rows"
    );
}

#[test]
fn conditional_requests_and_head() {
    let md = [("Accept", "text/markdown")];
    let full = get("/orders/7", &md);
    let etag = full.header("etag").unwrap().to_owned();
    let weak = format!("W/{etag}");
    let list = format!("\"x\", {etag}");
    let json_etag = get("/orders/7", &[]).header("etag").unwrap().to_owned();
    assert_ne!(etag, json_etag, "one validator per representation");
    // (method, If-None-Match, status, body empty)
    let cases: &[(&str, &str, u16, bool)] = &[
        ("GET", &etag, 304, true),
        ("GET", &weak, 304, true),
        ("GET", &list, 304, true),
        ("GET", "*", 304, true),
        ("GET", &json_etag, 200, false),
        ("HEAD", &etag, 304, true),
        ("HEAD", "\"x\"", 200, true),
    ];
    for (method, if_none_match, status, empty) in cases {
        let reply = request(
            method,
            "/orders/7",
            &[md[0], ("If-None-Match", if_none_match)],
        );
        assert_eq!(reply.status, *status, "{method} {if_none_match}: {reply:?}");
        assert_eq!(reply.body.is_empty(), *empty, "{method} {if_none_match}");
        assert_eq!(reply.header("etag"), Some(etag.as_str()));
        assert_eq!(reply.header("vary"), Some("Accept, User-Agent"));
        if *status == 304 {
            assert_eq!(reply.header("content-type"), None, "{reply:?}");
            assert_eq!(reply.header("x-markdown-tokens"), None, "{reply:?}");
        } else {
            assert_eq!(reply.header("content-type"), Some(MD));
        }
    }
    // HEAD: GET's headers, no body.
    let head = request("HEAD", "/orders/7", &md);
    assert_eq!(
        head.header("content-length").unwrap(),
        full.body.len().to_string()
    );
    assert_eq!(
        head.header("x-markdown-tokens"),
        full.header("x-markdown-tokens")
    );
    // A 404 is not a 304, whatever the request's validators.
    let missing = get("/orders/9999", &[md[0], ("If-None-Match", "*")]);
    assert_eq!(missing.status, 404);
    assert_eq!(
        missing.body,
        "- **error**: no order 9999; ids run from 1 to 500\n"
    );
}

/// An agent that follows `Link` rather than sending `Accept` finds the
/// markdown, and from there the JSON.
#[test]
fn link_alternates_lead_to_the_other_formats() {
    let json = get("/orders/7?x=1", &[]);
    let link = json.header("link").unwrap();
    let target = link
        .strip_prefix('<')
        .and_then(|l| l.split_once('>'))
        .map(|(t, _)| t.to_owned())
        .unwrap();
    assert_eq!(target, "/orders/7?x=1&format=md");
    let md = get(&target, &[]);
    assert_eq!(md.header("content-type"), Some(MD));
    assert!(md.body.starts_with("- **id**: 7\n"));
    let back = md.header("link").unwrap();
    assert!(back.starts_with("</orders/7?x=1&format=json>"), "{back}");
    // Routes that return no negotiated data are left alone.
    let health = get("/health", &[("Accept", "text/markdown")]);
    assert_eq!((health.status, health.body.as_str()), (200, "ok"));
    assert_eq!(health.header("etag"), None);
}

#[test]
fn a_service_can_turn_the_etag_off() {
    let standard = agent_codecs::standard().token_counter(None);
    let negotiator = standard.build().unwrap();
    let selection = negotiator
        .negotiate(Some("text/markdown"))
        .into_result()
        .unwrap();
    let body = b"|a|\n";
    let on = standard.response_headers().describe(&selection, body);
    assert!(on.etag().is_some());
    let off = standard
        .etag(false)
        .response_headers()
        .describe(&selection, body);
    assert_eq!(off.etag(), None);
}

//! Streamed responses through a real HTTP/1.1 server and the standard
//! layer (`examples/stream-a-large-export.rs`): what each format writes,
//! the headers a streamed body carries, a client that reads slowly, and a
//! stream that fails. Memory is measured in `stream_memory.rs`, a process
//! of its own.

use crate::stream_example as example;

use crate::common;

use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use agent_codecs::core::rows::RowsShape;
use agent_codecs::{Codec, NegotiatedStream, Value};
use axum::Router;
use axum::routing::get;

fn example() -> std::net::SocketAddr {
    static ADDR: OnceLock<std::net::SocketAddr> = OnceLock::new();
    *ADDR.get_or_init(|| common::serve(example::app()))
}

/// The events `0..rows` as the buffered encoding sees them.
fn document(rows: u64) -> Value {
    let rows = (0..rows)
        .map(|n| agent_codecs::core::to_value(&example::event(n)).unwrap())
        .collect();
    RowsShape::member("events").document(rows)
}

fn encode(codec: &dyn Codec, value: &Value) -> Vec<u8> {
    let mut out = Vec::new();
    codec.encode_value(value, &mut out).unwrap();
    out
}

#[test]
fn each_format_streams_its_document() {
    let negotiator = agent_codecs::standard().build().unwrap();
    let json = negotiator.codec("json").unwrap();
    let md = negotiator.codec("md").unwrap();

    // JSON: the buffered bytes, whatever the rows.
    let mut response = common::get(example(), "/events?rows=2500", &[]);
    assert_eq!(response.status, 200);
    assert_eq!(response.header("content-type"), Some("application/json"));
    let (body, complete) = response.body();
    assert!(complete);
    assert!(body == encode(json.as_ref(), &document(2500)));

    // Markdown of uniform rows: the buffered table.
    let markdown = [("accept", "text/markdown")];
    let (body, complete) = common::get(example(), "/events?rows=900", &markdown).body();
    assert!(complete);
    assert_eq!(
        String::from_utf8(body).unwrap(),
        String::from_utf8(encode(md.as_ref(), &document(900))).unwrap()
    );

    // Row 999 brings `retry`: a table with that column goes on, and the
    // whole reads back as the rows.
    let (body, complete) = common::get(example(), "/events?rows=2500", &markdown).body();
    assert!(complete);
    let text = String::from_utf8(body).unwrap();
    assert!(
        text.starts_with("# events\n\n|id|at|level|service|message|\n|---|---|---|---|---|\n|0|")
    );
    assert!(text.contains("\n\n## [999..]\n\n|id|at|level|service|message|retry|\n"));
    assert_eq!(text.matches("\n## ").count(), 1, "one more table only");
    let read = agent_codecs::md::parse(&text).unwrap();
    let rows = read.get("events").and_then(Value::as_array).unwrap();
    assert_eq!(rows.len(), 2500);
    assert_eq!(rows[999].get("retry"), Some(&Value::from(1u32)));
    assert_eq!(rows[1000].get("retry"), Some(&Value::Null));

    // MCP has no streaming result: the rows are collected and the result
    // written whole, its text cut to its limit as always, and its
    // structured content at the same rows, as the note says.
    let mcp = [("accept", "application/vnd.mcp+json")];
    let (body, complete) = common::get(example(), "/events?rows=1000", &mcp).body();
    assert!(complete);
    let result: serde_json::Value = serde_json::from_slice(&body).unwrap();
    let kept = result["structuredContent"]["events"]
        .as_array()
        .unwrap()
        .len();
    assert!(kept < 1000, "{kept}");
    let text = result["content"][0]["text"].as_str().unwrap();
    assert!(
        text.contains(&format!(
            "The structuredContent holds the same {kept} rows."
        )),
        "{}",
        &text[text.len().saturating_sub(300)..]
    );
    assert!(
        result["content"][0]["text"]
            .as_str()
            .unwrap()
            .contains("[Truncated:")
    );
}

/// What a streamed response carries: `Vary` and the `Link` alternates;
/// no `Content-Length`, no `ETag`, no token count (they need the whole
/// body first), so never a 304.
#[test]
fn streamed_responses_carry_what_needs_no_whole_body() {
    let response = common::get(
        example(),
        "/events?rows=3",
        &[("accept", "text/markdown"), ("if-none-match", "*")],
    );
    assert_eq!(response.status, 200);
    assert_eq!(
        response.header("content-type"),
        Some("text/markdown; charset=utf-8; variant=GFM")
    );
    assert_eq!(response.header("vary"), Some("Accept"));
    assert_eq!(response.header("transfer-encoding"), Some("chunked"));
    assert_eq!(
        response.header("link"),
        Some(r#"</events?rows=3&format=json>; rel="alternate"; type="application/json""#)
    );
    for absent in ["content-length", "etag", "x-markdown-tokens"] {
        assert_eq!(response.header(absent), None, "{absent}");
    }
    let refused = common::get(example(), "/events", &[("accept", "image/png")]);
    assert_eq!(refused.status, 406);
}

/// A failed source: the body ends with the codec's sign of failure and
/// without HTTP's end of a chunked body, so a client can tell.
#[test]
fn a_failed_stream_is_detectable_by_the_client() {
    let markdown = [("accept", "text/markdown")];
    let (body, complete) = common::get(example(), "/events/failing?after=100", &markdown).body();
    assert!(!complete, "the chunked body must not end as a whole one");
    let text = String::from_utf8(body).unwrap();
    assert!(
        text.ends_with("|99|2026-01-01T00:01:00Z|error|api|request 99 served in 5 ms|\n\nStream failed after 100 rows: the server could not produce the rest\n"),
        "{}",
        &text[text.len().saturating_sub(300)..]
    );

    let (body, complete) = common::get(example(), "/events/failing?after=100", &[]).body();
    assert!(!complete);
    assert!(body.starts_with(b"{\"events\":[{\"id\":0,"));
    assert!(serde_json::from_slice::<serde_json::Value>(&body).is_err());

    // Failing before the first row: still a 200 (the head is sent before
    // the rows), and still incomplete.
    let (body, complete) = common::get(example(), "/events/failing?after=0", &markdown).body();
    assert!(!complete);
    assert_eq!(
        String::from_utf8(body).unwrap(),
        "Stream failed after 0 rows: the server could not produce the rest\n"
    );
}

/// Rows are pulled only as the client reads: a client that stops reading
/// holds them back (what is pulled is what the socket buffers hold), and
/// one that goes away stops them.
#[test]
fn a_slow_reader_holds_the_rows_back() {
    static PULLED: AtomicU64 = AtomicU64::new(0);
    async fn counted() -> NegotiatedStream {
        let rows = (0..10_000_000u64).map(|n| {
            PULLED.fetch_add(1, Ordering::Relaxed);
            example::event(n)
        });
        NegotiatedStream::from_iter(rows)
    }
    let layer = agent_codecs::standard().layer().unwrap();
    let addr = common::serve(Router::new().route("/counted", get(counted)).layer(layer));
    let mut response = common::get(addr, "/counted", &[("accept", "text/markdown")]);
    let mut read = 0;
    while read < 64 * 1024 {
        read += response.chunk().expect("a chunk").len();
    }
    // The client stops reading; the server fills the socket's buffers and
    // waits.
    let settled = settle(&PULLED);
    // A row of markdown is about 90 bytes: what was pulled fits in a few
    // MB of socket buffers, out of the 900 MB the whole would be.
    assert!(
        settled < 100_000,
        "{settled} rows pulled for a client that read 64 KB"
    );

    // Reading on pulls more.
    let mut more = 0;
    while more < 8 << 20 {
        more += response.chunk().expect("a chunk").len();
    }
    assert!(PULLED.load(Ordering::Relaxed) > settled);

    // Gone: the body is dropped and nothing more is pulled.
    drop(response);
    let after = settle(&PULLED);
    assert!(after < 500_000, "{after}");
}

/// The count once it has not moved for 300 ms (at most 20 s).
fn settle(count: &AtomicU64) -> u64 {
    let deadline = Instant::now() + Duration::from_secs(20);
    let mut last = count.load(Ordering::Relaxed);
    loop {
        std::thread::sleep(Duration::from_millis(300));
        let now = count.load(Ordering::Relaxed);
        if now == last || Instant::now() > deadline {
            return now;
        }
        last = now;
    }
}

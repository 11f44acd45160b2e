//! A third-party codec added through `Standard::codec`, served through
//! axum by the standard layer: the standard's aliases, agent policy,
//! format names and response headers stay; a value the chosen codec
//! refuses falls back to the next format the request accepts.

use crate::common;

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use agent_codecs::core::EncodeError;
use agent_codecs::{Codec, MediaType, Negotiated, Value};
use axum::Router;
use axum::routing::get;

/// One line per string of a top-level array (`text/x-lines`); anything
/// else it refuses.
struct Lines(MediaType);

impl Codec for Lines {
    fn format(&self) -> &str {
        "lines"
    }
    fn media_type(&self) -> &MediaType {
        &self.0
    }
    fn encode_value(&self, value: &Value, out: &mut Vec<u8>) -> Result<(), EncodeError> {
        let refuse = || EncodeError::Unrepresentable {
            format: "lines".into(),
            reason: "only an array of strings".into(),
        };
        for item in value.as_array().ok_or_else(refuse)? {
            out.extend_from_slice(item.as_str().ok_or_else(refuse)?.as_bytes());
            out.push(b'\n');
        }
        Ok(())
    }
}

async fn names() -> Negotiated<Vec<&'static str>> {
    Negotiated(vec!["ada", "grace"])
}

async fn numbers() -> Negotiated<Vec<u32>> {
    Negotiated(vec![1, 2])
}

fn server() -> SocketAddr {
    static ADDR: OnceLock<SocketAddr> = OnceLock::new();
    *ADDR.get_or_init(|| {
        let standard = agent_codecs::standard()
            .agents(true)
            .token_counter(None)
            .codec(Arc::new(Lines(MediaType::from_static(
                "text/x-lines; charset=utf-8",
            ))));
        let app = Router::new()
            .route("/names", get(names))
            .route("/numbers", get(numbers))
            .layer(standard.layer().unwrap());
        common::serve(app)
    })
}

struct Reply {
    status: u16,
    head: String,
    body: String,
}

impl Reply {
    fn header(&self, name: &str) -> Option<&str> {
        self.head.split("\r\n").skip(1).find_map(|line| {
            let (n, v) = line.split_once(':')?;
            n.eq_ignore_ascii_case(name).then(|| v.trim())
        })
    }
}

fn request(target: &str, headers: &[(&str, &str)]) -> Reply {
    let addr = server();
    let mut stream = TcpStream::connect_timeout(&addr, Duration::from_secs(10)).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    let mut head = format!("GET {target} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n");
    for (name, value) in headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str("\r\n");
    stream.write_all(head.as_bytes()).unwrap();
    let mut raw = String::new();
    stream.read_to_string(&mut raw).unwrap();
    let (head, body) = raw.split_once("\r\n\r\n").unwrap();
    let status = head.split(' ').nth(1).unwrap().parse().unwrap();
    Reply {
        status,
        head: head.to_owned(),
        body: body.to_owned(),
    }
}

#[test]
fn an_added_codec_keeps_the_standard() {
    // The added codec, by its media type and by its format name.
    for (target, accept) in [("/names", "text/x-lines"), ("/names?format=lines", "*/*")] {
        let reply = request(target, &[("Accept", accept)]);
        assert_eq!(reply.status, 200, "{target}");
        assert_eq!(
            reply.header("content-type"),
            Some("text/x-lines; charset=utf-8")
        );
        assert_eq!(reply.body, "ada\ngrace\n");
        // The standard response headers.
        assert!(reply.header("etag").is_some(), "{}", reply.head);
        assert!(reply.header("link").is_some(), "{}", reply.head);
        assert_eq!(reply.header("vary"), Some("Accept, User-Agent"));
    }
    // The standard aliases.
    for accept in ["text/plain", "text/x-markdown"] {
        let reply = request("/names", &[("Accept", accept)]);
        assert_eq!(reply.status, 200, "{accept}");
        assert!(reply.header("content-type").unwrap().starts_with(accept));
    }
    // The agent policy: markdown for a known agent's `*/*`, JSON for others.
    let agent = request(
        "/names",
        &[("Accept", "*/*"), ("User-Agent", "Claude-User")],
    );
    assert!(
        agent
            .header("content-type")
            .unwrap()
            .starts_with("text/markdown")
    );
    let other = request("/names", &[("Accept", "*/*")]);
    assert_eq!(other.header("content-type"), Some("application/json"));
    assert_eq!(other.body, r#"["ada","grace"]"#);
}

#[test]
fn a_refused_value_falls_back_to_the_next_accepted_format() {
    // Numbers are not lines: JSON, the next format the request accepts.
    let reply = request(
        "/numbers",
        &[("Accept", "text/x-lines, application/json;q=0.5")],
    );
    assert_eq!(reply.status, 200);
    assert_eq!(reply.header("content-type"), Some("application/json"));
    assert_eq!(reply.body, "[1,2]");
    // Over several `Accept` lines too.
    let reply = request(
        "/numbers",
        &[("Accept", "text/x-lines"), ("Accept", "text/plain;q=0.1")],
    );
    assert_eq!(reply.status, 200);
    assert_eq!(
        reply.header("content-type"),
        Some("text/plain; charset=utf-8")
    );
    // Nothing else accepted, or the format named: 500 naming the codec.
    for (target, accept) in [
        ("/numbers", "text/x-lines"),
        ("/numbers?format=lines", "*/*"),
    ] {
        let reply = request(target, &[("Accept", accept)]);
        assert_eq!(reply.status, 500, "{target} {accept}");
        assert!(reply.body.contains("cannot encode the response as lines"));
    }
}

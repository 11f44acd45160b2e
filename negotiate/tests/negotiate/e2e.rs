//! End to end: the example server's router on 127.0.0.1 (port 0), real
//! HTTP/1.1 requests over a `TcpStream`, with the `Accept` headers agents
//! and browsers actually send. Bounded: each request has a 10 s timeout,
//! and the server thread ends with the test process.

#[allow(dead_code)]
#[path = "../../examples/serve-negotiated-data.rs"]
mod example;

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use axum::Router;
use axum::routing::get;
use negotiate::Negotiated;
use tracing::field::{Field, Visit};
use tracing::{Dispatch, span};

/// Starts the example's router once.
fn server() -> SocketAddr {
    static ADDR: OnceLock<SocketAddr> = OnceLock::new();
    *ADDR.get_or_init(|| serve(example::app(), Dispatch::none()))
}

/// Serves `app` on a thread of its own, which logs to `dispatch`.
fn serve(app: Router, dispatch: Dispatch) -> SocketAddr {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_io()
            .build()
            .expect("a tokio runtime");
        tracing::dispatcher::with_default(&dispatch, || {
            runtime.block_on(async move {
                let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
                    .await
                    .expect("bind 127.0.0.1:0");
                tx.send(listener.local_addr().expect("an address"))
                    .expect("the test is waiting");
                axum::serve(listener, app).await.expect("server error");
            });
        });
    });
    rx.recv_timeout(Duration::from_secs(10))
        .expect("the server starts")
}

/// Every event logged, as `LEVEL target: field=value ...`.
#[derive(Clone, Default)]
struct Log(Arc<Mutex<Vec<String>>>);

impl tracing::Subscriber for Log {
    fn enabled(&self, _: &tracing::Metadata<'_>) -> bool {
        true
    }

    fn new_span(&self, _: &span::Attributes<'_>) -> span::Id {
        span::Id::from_u64(1)
    }

    fn record(&self, _: &span::Id, _: &span::Record<'_>) {}

    fn record_follows_from(&self, _: &span::Id, _: &span::Id) {}

    fn event(&self, event: &tracing::Event<'_>) {
        struct Fields(String);
        impl Visit for Fields {
            fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
                self.0.push_str(&format!(" {}={value:?}", field.name()));
            }
        }
        let meta = event.metadata();
        let mut fields = Fields(format!("{} {}:", meta.level(), meta.target()));
        event.record(&mut fields);
        self.0.lock().unwrap().push(fields.0);
    }

    fn enter(&self, _: &span::Id) {}

    fn exit(&self, _: &span::Id) {}
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

    fn headers(&self, name: &str) -> Vec<&str> {
        self.headers
            .iter()
            .filter(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
            .collect()
    }
}

/// One request to the example's server.
fn request(method: &str, target: &str, accept: &[&str]) -> Reply {
    request_to(server(), method, target, accept)
}

/// One HTTP/1.1 request with `Connection: close`; reads to the end.
fn request_to(addr: SocketAddr, method: &str, target: &str, accept: &[&str]) -> Reply {
    let mut stream = TcpStream::connect_timeout(&addr, Duration::from_secs(10)).expect("connect");
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    stream
        .set_write_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    let mut head = format!("{method} {target} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n");
    for line in accept {
        head.push_str(&format!("Accept: {line}\r\n"));
    }
    if method == "POST" {
        head.push_str("Content-Length: 0\r\n");
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

const JSON: &str = "application/json";
const MD: &str = "text/markdown; charset=utf-8; variant=GFM";
const JSON_BODY: &str = r#"[{"id":1,"name":"kettle","in_stock":true},{"id":2,"name":"teapot | large","in_stock":false},{"id":3,"name":"cup","in_stock":true}]"#;
const MD_BODY: &str = "| id | name | in_stock |\n| --- | --- | --- |\n| 1 | kettle | true |\n| 2 | teapot \\| large | false |\n| 3 | cup | true |\n";

#[test]
fn agents_browsers_and_overrides() {
    let claude_code = "text/markdown, text/html, */*";
    let cursor = "text/markdown, text/plain;q=0.9, */*;q=0.8";
    let opencode =
        "text/markdown;q=1.0, text/x-markdown;q=0.9, text/plain;q=0.8, text/html;q=0.7, */*;q=0.1";
    let mcp_client = "application/json, text/event-stream";
    let firefox =
        "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8";
    /// Who, target, Accept lines, status, Content-Type, body.
    type Case<'a> = (&'a str, &'a str, &'a [&'a str], u16, &'a str, &'a str);
    let cases: &[Case<'_>] = &[
        ("Claude Code", "/items", &[claude_code], 200, MD, MD_BODY),
        ("Cursor", "/items", &[cursor], 200, MD, MD_BODY),
        ("OpenCode", "/items", &[opencode], 200, MD, MD_BODY),
        ("MCP client", "/items", &[mcp_client], 200, JSON, JSON_BODY),
        ("curl", "/items", &["*/*"], 200, JSON, JSON_BODY),
        ("Firefox", "/items", &[firefox], 200, JSON, JSON_BODY),
        ("no Accept", "/items", &[], 200, JSON, JSON_BODY),
        (
            "?format=md",
            "/items?format=md",
            &[firefox],
            200,
            MD,
            MD_BODY,
        ),
        (
            "?format=mcp",
            "/items?format=mcp",
            &["application/json"],
            200,
            "application/vnd.mcp+json",
            &format!(r#"{{"structuredContent":{JSON_BODY}}}"#),
        ),
        (
            "alias",
            "/items",
            &["text/x-markdown"],
            200,
            "text/x-markdown; charset=utf-8",
            MD_BODY,
        ),
        (
            "two Accept lines",
            "/items",
            &["text/markdown;q=0", "*/*"],
            200,
            JSON,
            JSON_BODY,
        ),
        (
            "excludes everything",
            "/items",
            &["*/*;q=0"],
            406,
            "text/plain; charset=utf-8",
            "406 Not Acceptable: no available media type matches the Accept header.\n\
             Available media types:\n  \
             application/json\n  \
             text/markdown; charset=utf-8; variant=GFM\n  \
             application/vnd.mcp+json\n  \
             text/x-markdown; charset=utf-8\n\
             Available formats (?format=NAME): json, md, mcp\n",
        ),
        (
            "unknown format",
            "/items?format=xml",
            &[],
            400,
            "text/plain; charset=utf-8",
            "400 Bad Request: unknown format \"xml\" in `?format=`; valid formats: json, md, mcp\n",
        ),
    ];
    for (who, target, accept, status, content_type, body) in cases {
        let reply = request("GET", target, accept);
        assert_eq!(reply.status, *status, "{who}: {reply:?}");
        assert_eq!(
            reply.header("content-type"),
            Some(*content_type),
            "{who}: {reply:?}"
        );
        assert_eq!(reply.headers("vary"), ["Accept"], "{who}: {reply:?}");
        assert_eq!(reply.body, *body, "{who}");
    }
}

#[test]
fn handler_status_is_kept() {
    let reply = request("POST", "/items", &["text/markdown"]);
    assert_eq!(reply.status, 201, "{reply:?}");
    assert_eq!(reply.header("content-type"), Some(MD));
    // One item is not a list of rows: the stand-in markdown codec writes
    // a JSON block.
    assert_eq!(
        reply.body,
        "```json\n{\"id\":1,\"name\":\"kettle\",\"in_stock\":true}\n```\n"
    );
}

#[test]
fn routes_without_negotiated_data_pass_through() {
    // Even a header that excludes everything: /health is not negotiated.
    let reply = request("GET", "/health", &["*/*;q=0"]);
    assert_eq!(reply.status, 200, "{reply:?}");
    assert_eq!(reply.body, "ok");
    assert!(reply.header("vary").is_none(), "{reply:?}");
}

#[test]
fn a_route_without_the_layer_is_a_logged_500() {
    async fn items() -> Negotiated<Vec<u32>> {
        Negotiated(vec![1, 2])
    }
    async fn kept() -> negotiate::Prerendered {
        negotiate::Prerendered::new(|_| async {
            panic!("never called without the layer");
        })
    }
    let log = Log::default();
    let app = Router::new()
        .route("/items", get(items))
        .route("/kept", get(kept));
    let addr = serve(app, Dispatch::new(log.clone()));
    for target in ["/items", "/kept"] {
        let reply = request_to(addr, "GET", target, &["text/markdown"]);
        assert_eq!(reply.status, 500, "{reply:?}");
        assert_eq!(
            reply.header("content-type"),
            Some("text/plain; charset=utf-8")
        );
        assert_eq!(
            reply.body,
            "negotiate: this route returns `Negotiated` data but has no `NegotiateLayer`\n"
        );
    }
    let log = log.0.lock().unwrap();
    let ours: Vec<&String> = log.iter().filter(|l| l.contains(" negotiate")).collect();
    let line = |data: &str| {
        format!(
            "ERROR negotiate::axum_layer: message=a handler returned `Negotiated` data on a \
             route without a `NegotiateLayer`: answering 500; add the layer to the route or \
             the router data=\"{data}\""
        )
    };
    assert_eq!(
        ours,
        [&line("alloc::vec::Vec<u32>"), &line("Prerendered")],
        "{log:?}"
    );
}

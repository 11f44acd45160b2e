//! End to end: the plain-hyper example (`examples/hyper.rs`) on 127.0.0.1
//! (port 0), real HTTP/1.1 requests with the `Accept` and `User-Agent`
//! headers that agents, curl and browsers send, and the answers the axum
//! layer gives. `check_orders_api` is the list of checks, for any server
//! of the two example routes.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::OnceLock;
use std::time::Duration;

#[allow(dead_code)]
#[path = "../../examples/hyper.rs"]
mod hyper_example;

#[derive(Debug)]
pub(crate) struct Reply {
    pub(crate) status: u16,
    pub(crate) headers: Vec<(String, String)>,
    pub(crate) body: String,
}

impl Reply {
    pub(crate) fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// One `GET` with `Connection: close` and these headers; the body read to
/// the end (de-chunked when it is chunked).
pub(crate) fn get(addr: SocketAddr, target: &str, headers: &[(&str, &str)]) -> Reply {
    let mut stream = TcpStream::connect_timeout(&addr, Duration::from_secs(10)).expect("connect");
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    let mut head = format!("GET {target} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n");
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
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_owned(), v.trim().to_owned()))
        .collect();
    let chunked = headers
        .iter()
        .any(|(n, v)| n.eq_ignore_ascii_case("transfer-encoding") && v == "chunked");
    let body = if chunked {
        dechunk(body)
    } else {
        body.to_owned()
    };
    Reply {
        status,
        headers,
        body,
    }
}

/// A chunked body's data.
fn dechunk(mut rest: &str) -> String {
    let mut body = String::new();
    loop {
        let (size, after) = rest.split_once("\r\n").expect("a chunk size line");
        let size = usize::from_str_radix(size.trim(), 16).expect("a chunk size");
        if size == 0 {
            return body;
        }
        body.push_str(&after[..size]);
        rest = &after[size + 2..];
    }
}

const MD: &str = "text/markdown; charset=utf-8; variant=GFM";
const JSON: &str = "application/json";
const MCP: &str = "application/vnd.mcp+json";

// The headers clients send (negotiate's tests keep the same list).
const CLAUDE_CODE: &str = "text/markdown, text/html, */*";
const CURSOR: &str = "text/markdown, text/plain;q=0.9, */*;q=0.8";
const FIREFOX: &str =
    "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8";
const CHROME: &str = "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,\
                      image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7";
const CHATGPT_USER: &str = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; \
                            ChatGPT-User/1.0; +https://openai.com/bot)";

/// The checks of a server of the two example routes, `GET /orders` and
/// `GET /orders/{id}` (ids 1 to 50), built on `agent_codecs::standard()`
/// with the agent policy on and no page.
pub(crate) fn check_orders_api(addr: SocketAddr) {
    // (who, Accept, User-Agent, Content-Type)
    let cases: &[(&str, Option<&str>, Option<&str>, &str)] = &[
        (
            "Claude Code",
            Some(CLAUDE_CODE),
            Some("claude-code/2.0"),
            MD,
        ),
        ("Cursor", Some(CURSOR), None, MD),
        ("curl", Some("*/*"), Some("curl/8.5.0"), JSON),
        ("Firefox", Some(FIREFOX), None, JSON),
        ("Chrome", Some(CHROME), None, JSON),
        ("no Accept", None, None, JSON),
        ("ChatGPT-User, */*", Some("*/*"), Some(CHATGPT_USER), MD),
        ("MCP asked for", Some(MCP), None, MCP),
    ];
    for (who, accept, user_agent, content_type) in cases {
        let mut headers = Vec::new();
        if let Some(accept) = accept {
            headers.push(("Accept", *accept));
        }
        if let Some(user_agent) = user_agent {
            headers.push(("User-Agent", *user_agent));
        }
        let reply = get(addr, "/orders/7", &headers);
        assert_eq!(reply.status, 200, "{who}: {reply:?}");
        assert_eq!(reply.header("content-type"), Some(*content_type), "{who}");
        assert_eq!(reply.header("vary"), Some("Accept, User-Agent"), "{who}");
        let etag = reply.header("etag").expect("an ETag");
        assert!(etag.len() == 34 && etag.starts_with('"'), "{who}: {etag}");
        let link = reply.header("link").expect("a Link");
        let md_link = r#"</orders/7?format=md>; rel="alternate"; type="text/markdown""#;
        let json_link = r#"</orders/7?format=json>; rel="alternate"; type="application/json""#;
        match *content_type {
            MD => assert_eq!(link, json_link, "{who}"),
            JSON => assert_eq!(link, md_link, "{who}"),
            _ => assert_eq!(link, format!("{md_link}, {json_link}"), "{who}"),
        }
        match *content_type {
            MD => {
                assert!(reply.body.starts_with("- **id**: 7\n"), "{}", reply.body);
                assert!(reply.body.contains("SKU-007-2"), "{}", reply.body);
            }
            JSON => {
                let value: serde_json::Value = serde_json::from_str(&reply.body).unwrap();
                assert_eq!(value["id"], 7, "{who}");
                assert_eq!(value["lines"][1]["sku"], "SKU-007-2", "{who}");
            }
            _ => {
                let value: serde_json::Value = serde_json::from_str(&reply.body).unwrap();
                assert_eq!(value["structuredContent"]["id"], 7, "{who}: {value}");
            }
        }

        // The same request with its validator: 304, no body.
        headers.push(("If-None-Match", etag));
        let again = get(addr, "/orders/7", &headers);
        assert_eq!(again.status, 304, "{who}: {again:?}");
        assert_eq!(again.header("etag"), Some(etag), "{who}");
        assert_eq!(again.body, "", "{who}");
    }

    // The table, as markdown and as JSON.
    let table = get(addr, "/orders", &[("Accept", CLAUDE_CODE)]);
    assert_eq!(table.status, 200);
    assert!(
        table.body.starts_with("|id|customer|status|total|\n"),
        "{}",
        table.body
    );
    assert_eq!(table.body.lines().count(), 52, "{}", table.body);
    let json = get(addr, "/orders", &[("Accept", "*/*")]);
    let orders: Vec<serde_json::Value> = serde_json::from_str(&json.body).unwrap();
    assert_eq!(orders.len(), 50);

    // `?format=` beats Accept; an unknown one is a 400 naming the formats.
    let forced = get(addr, "/orders/7?format=md", &[("Accept", JSON)]);
    assert_eq!(forced.header("content-type"), Some(MD));
    let unknown = get(addr, "/orders/7?format=csv", &[]);
    assert_eq!(unknown.status, 400, "{unknown:?}");
    assert!(
        unknown.body.contains("valid formats: json, md, mcp"),
        "{}",
        unknown.body
    );

    // Nothing acceptable: 406 listing what is offered.
    let refused = get(addr, "/orders/7", &[("Accept", "image/png")]);
    assert_eq!(refused.status, 406, "{refused:?}");
    for offered in [
        "application/json",
        "text/markdown",
        "application/vnd.mcp+json",
    ] {
        assert!(refused.body.contains(offered), "{}", refused.body);
    }

    // A missing order: a 404 in the negotiated format.
    let missing = get(addr, "/orders/99", &[("Accept", CURSOR)]);
    assert_eq!(missing.status, 404, "{missing:?}");
    assert_eq!(missing.header("content-type"), Some(MD));
    assert!(missing.body.contains("no such order"), "{}", missing.body);
}

/// Serves the hyper example once, on a thread of its own.
fn hyper_server() -> SocketAddr {
    static ADDR: OnceLock<SocketAddr> = OnceLock::new();
    *ADDR.get_or_init(|| {
        crate::common::serve_with(|listener| async move {
            hyper_example::serve(listener).await.expect("server error");
        })
    })
}

#[test]
fn the_hyper_example_answers_as_the_axum_layer_does() {
    check_orders_api(hyper_server());
}

#[cfg(feature = "actix")]
#[allow(dead_code)]
#[path = "../../examples/actix.rs"]
mod actix_example;

#[cfg(feature = "actix")]
/// Serves `app` (an actix `App` factory) on 127.0.0.1 (port 0), one
/// worker, on a thread of its own.
pub(crate) fn serve_actix<F, A>(app: F) -> SocketAddr
where
    F: Fn() -> actix_web::App<A> + Send + Clone + 'static,
    A: actix_web::dev::ServiceFactory<
            actix_web::dev::ServiceRequest,
            Config = (),
            Response = actix_web::dev::ServiceResponse,
            Error = actix_web::Error,
            InitError = (),
        > + 'static,
{
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        actix_web::rt::System::new().block_on(async move {
            let server = actix_web::HttpServer::new(app)
                .workers(1)
                .disable_signals()
                .bind("127.0.0.1:0")
                .expect("bind 127.0.0.1:0");
            tx.send(server.addrs()[0]).expect("the test is waiting");
            server.run().await.expect("server error");
        });
    });
    rx.recv_timeout(Duration::from_secs(60))
        .expect("the server starts")
}

#[cfg(feature = "actix")]
#[test]
fn the_actix_example_answers_as_the_axum_layer_does() {
    let negotiation = actix_example::negotiation();
    let addr = serve_actix(move || {
        actix_web::App::new()
            .app_data(negotiation.clone())
            .configure(actix_example::routes)
    });
    check_orders_api(addr);
}

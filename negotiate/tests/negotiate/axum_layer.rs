//! The axum layer in-process: path extensions, kept handler headers and
//! statuses, encode failures, and a route that forgot the layer.

use crate::support;

use std::sync::Arc;

use axum::Router;
use axum::body::Body;
use axum::http::header::{CONTENT_TYPE, VARY};
use axum::http::{Request, StatusCode};
use axum::response::Response;
use axum::routing::get;
use codec_core::{Codec, EncodeError, MediaType, Value};
use negotiate::{NegotiateLayer, Negotiated, NegotiatedStream, Negotiator, Prerendered};
use tower_layer::Layer;
use tower_service::Service;

async fn items() -> Negotiated<Vec<u32>> {
    Negotiated(vec![1, 2])
}

/// The same rows, streamed.
async fn streamed() -> NegotiatedStream {
    NegotiatedStream::from_iter(vec![1u32, 2])
}

async fn with_vary() -> ([(axum::http::HeaderName, &'static str); 1], Negotiated<u32>) {
    ([(VARY, "Origin")], Negotiated(7))
}

async fn teapot() -> (StatusCode, Negotiated<&'static str>) {
    (StatusCode::IM_A_TEAPOT, Negotiated("short and stout"))
}

/// A handler's own 500 with negotiated data: kept as it is.
async fn failure() -> Response {
    Negotiated("disk full").with_status(StatusCode::INTERNAL_SERVER_ERROR)
}

/// A 500 set around the data: the status of a route without the layer,
/// so the layer reads it as none given (the documented rule).
async fn tuple_500() -> (StatusCode, Negotiated<&'static str>) {
    (StatusCode::INTERNAL_SERVER_ERROR, Negotiated("disk full"))
}

/// A status set around `with_status`'s: the outer one is kept.
async fn overridden() -> (StatusCode, Response) {
    let inner = Negotiated("gone").with_status(StatusCode::INTERNAL_SERVER_ERROR);
    (StatusCode::NOT_FOUND, inner)
}

fn routes() -> Router {
    Router::new()
        .route("/items", get(items))
        .route("/streamed", get(streamed))
        .route("/vary", get(with_vary))
        .route("/teapot", get(teapot))
        .route("/failure", get(failure))
        .route("/tuple-500", get(tuple_500))
        .route("/overridden", get(overridden))
}

/// Sends `request` through `service`; returns the response's head and its
/// body as text.
fn call<S>(service: &mut S, request: Request<Body>) -> (axum::http::response::Parts, String)
where
    S: Service<Request<Body>, Response = Response>,
    S::Error: std::fmt::Debug,
{
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    runtime.block_on(async {
        std::future::poll_fn(|cx| service.poll_ready(cx))
            .await
            .unwrap();
        let (parts, body) = service.call(request).await.unwrap().into_parts();
        let body = axum::body::to_bytes(body, 1 << 20).await.unwrap();
        (parts, String::from_utf8(body.to_vec()).unwrap())
    })
}

/// Sends one request through `service`; returns status, Content-Type,
/// Vary and body.
fn send<S>(service: &mut S, target: &str, accept: Option<&str>) -> (u16, String, String, String)
where
    S: Service<Request<Body>, Response = Response>,
    S::Error: std::fmt::Debug,
{
    let mut request = Request::get(target);
    if let Some(accept) = accept {
        request = request.header("accept", accept);
    }
    let (parts, body) = call(service, request.body(Body::empty()).unwrap());
    let header = |name| {
        parts
            .headers
            .get_all(name)
            .iter()
            .map(|v| v.to_str().unwrap())
            .collect::<Vec<_>>()
            .join("|")
    };
    (
        parts.status.as_u16(),
        header(CONTENT_TYPE),
        header(VARY),
        body,
    )
}

#[test]
fn around_the_router_path_extensions_route_and_negotiate() {
    let negotiator = Arc::new(support::builder().path_extension(true).build().unwrap());
    let mut service = NegotiateLayer::new(negotiator).layer(routes());
    let md = "text/markdown; charset=utf-8; variant=GFM";
    // (target, Accept, status, Content-Type, Vary, body)
    type Case<'a> = (&'a str, Option<&'a str>, u16, &'a str, &'a str, &'a str);
    let cases: &[Case<'_>] = &[
        (
            "/items",
            None,
            200,
            "application/json",
            "Accept",
            "json:[1,2]",
        ),
        ("/items.md", None, 200, md, "Accept", "md:[1,2]"),
        (
            "/items.md?x=1",
            Some("application/json"),
            200,
            md,
            "Accept",
            "md:[1,2]",
        ),
        (
            "/items.json",
            Some("text/markdown"),
            200,
            "application/json",
            "Accept",
            "json:[1,2]",
        ),
        // Not a registered format: the path is left alone, and not found.
        ("/items.csv", None, 404, "", "", ""),
        (
            "/vary",
            Some("text/markdown"),
            200,
            md,
            "Origin, Accept",
            "md:7",
        ),
        (
            "/teapot",
            None,
            418,
            "application/json",
            "Accept",
            "json:\"short and stout\"",
        ),
        (
            "/failure",
            Some("text/markdown"),
            500,
            md,
            "Accept",
            "md:\"disk full\"",
        ),
        (
            "/tuple-500",
            Some("text/markdown"),
            200,
            md,
            "Accept",
            "md:\"disk full\"",
        ),
        (
            "/overridden",
            None,
            404,
            "application/json",
            "Accept",
            "json:\"gone\"",
        ),
        (
            "/teapot",
            Some("image/png"),
            406,
            "text/plain; charset=utf-8",
            "Accept",
            "",
        ),
    ];
    for (target, accept, status, content_type, vary, body) in cases {
        let got = send(&mut service, target, *accept);
        let label = format!("{target} {accept:?}: {got:?}");
        assert_eq!(got.0, *status, "{label}");
        assert_eq!(got.1, *content_type, "{label}");
        assert_eq!(got.2, *vary, "{label}");
        if *status != 406 {
            assert_eq!(got.3, *body, "{label}");
        } else {
            assert!(got.3.starts_with("406 Not Acceptable"), "{label}");
        }
    }
}

#[test]
fn as_a_router_layer_paths_route_first() {
    let negotiator = Arc::new(support::builder().path_extension(true).build().unwrap());
    let mut service = routes().layer(NegotiateLayer::new(negotiator));
    assert_eq!(
        send(&mut service, "/items", Some("text/markdown")).3,
        "md:[1,2]"
    );
    // Routing ran before the layer: `/items.md` is not a route.
    assert_eq!(send(&mut service, "/items.md", None).0, 404);
}

/// A codec that cannot encode anything.
struct Broken(MediaType);

impl Codec for Broken {
    fn format(&self) -> &str {
        "broken"
    }

    fn media_type(&self) -> &MediaType {
        &self.0
    }

    fn encode_value(&self, _: &Value, _: &mut Vec<u8>) -> Result<(), EncodeError> {
        Err(EncodeError::DepthLimit { limit: 0 })
    }
}

#[test]
fn an_encode_failure_is_a_500_naming_the_codec() {
    let negotiator = Negotiator::builder()
        .codec(Arc::new(Broken(MediaType::from_static("text/plain"))))
        .build()
        .unwrap();
    let mut service = routes().layer(NegotiateLayer::new(Arc::new(negotiator)));
    let (status, content_type, vary, body) = send(&mut service, "/items", None);
    assert_eq!(status, 500);
    assert_eq!(content_type, "text/plain; charset=utf-8");
    assert_eq!(vary, "Accept");
    assert_eq!(
        body,
        "500 Internal Server Error: cannot encode the response as broken: \
         value nests deeper than the limit of 0\n"
    );
}

#[test]
fn without_the_layer_the_response_is_a_500_that_says_so() {
    let mut service = routes();
    for target in ["/items", "/streamed", "/teapot", "/failure", "/tuple-500"] {
        let (status, content_type, _, body) = send(&mut service, target, None);
        // A status the handler set around the data is kept.
        let expected = if target == "/teapot" { 418 } else { 500 };
        assert_eq!(status, expected, "{target}");
        assert_eq!(content_type, "text/plain; charset=utf-8");
        assert_eq!(
            body,
            "negotiate: this route returns `Negotiated` data but has no `NegotiateLayer`\n"
        );
    }
    // A layer on one route does not hide its absence on another.
    let negotiator = Arc::new(support::builder().build().unwrap());
    let mut service = Router::new()
        .route("/items", get(items))
        .route_layer(NegotiateLayer::new(negotiator))
        .route("/bare", get(items));
    assert_eq!(send(&mut service, "/items", None).0, 200);
    assert_eq!(send(&mut service, "/bare", None).0, 500);
    assert_eq!(send(&mut service, "/items", None).0, 200);
}

/// Runs the rest of the stack on a task of its own, as tower's `Buffer`
/// or a middleware that spawns does.
async fn on_another_task(request: Request<Body>, next: axum::middleware::Next) -> Response {
    tokio::spawn(next.run(request))
        .await
        .expect("the handler's task")
}

#[test]
fn the_layer_works_across_a_handler_moved_to_another_task() {
    let negotiator = Arc::new(support::builder().build().unwrap());
    let mut service = routes()
        .layer(axum::middleware::from_fn(on_another_task))
        .layer(NegotiateLayer::new(negotiator));
    let (status, content_type, _, body) = send(&mut service, "/items", Some("text/markdown"));
    assert_eq!((status, body.as_str()), (200, "md:[1,2]"));
    assert_eq!(content_type, "text/markdown; charset=utf-8; variant=GFM");
    let (status, _, _, body) = send(&mut service, "/streamed", Some("text/markdown"));
    assert_eq!((status, body.as_str()), (200, "md:[1,2]"));
}

/// Counts words, for the token header: a stand-in for `O200k`.
struct Words;

impl codec_core::TokenCounter for Words {
    fn name(&self) -> &str {
        "word"
    }
    fn count(&self, text: &str) -> usize {
        text.split(|c: char| !c.is_ascii_alphanumeric())
            .filter(|w| !w.is_empty())
            .count()
    }
}

/// One request with these headers; returns the status, every response
/// header as `name: value` lines, and the body.
fn exchange<S>(
    service: &mut S,
    method: &str,
    target: &str,
    headers: &[(&str, &str)],
) -> (u16, String, String)
where
    S: Service<Request<Body>, Response = Response>,
    S::Error: std::fmt::Debug,
{
    let mut request = Request::builder().method(method).uri(target);
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let (parts, body) = call(service, request.body(Body::empty()).unwrap());
    let mut names: Vec<String> = parts
        .headers
        .iter()
        .map(|(n, v)| format!("{n}: {}", v.to_str().unwrap()))
        .collect();
    names.sort();
    (parts.status.as_u16(), names.join("\n"), body)
}

/// `NegotiateLayer::with_headers`: ETag and 304, Link alternates, the token
/// count, on the statuses and methods they apply to.
#[test]
fn with_headers_adds_validators_links_and_a_token_count() {
    let negotiator = Arc::new(support::builder().build().unwrap());
    let headers = negotiate::ResponseHeaders::builder()
        .token_counter(Some(Arc::new(Words)))
        .format_header(
            "json",
            axum::http::header::CACHE_CONTROL,
            axum::http::HeaderValue::from_static("max-age=60"),
        )
        .build();
    let mut service = routes().layer(NegotiateLayer::with_headers(negotiator, headers));
    let md = [("accept", "text/markdown")];
    let (status, head, body) = exchange(&mut service, "GET", "/items?page=2", &md);
    assert_eq!((status, body.as_str()), (200, "md:[1,2]"));
    let etag = head
        .lines()
        .find_map(|l| l.strip_prefix("etag: "))
        .expect("an ETag")
        .to_owned();
    assert_eq!(
        head.lines()
            .filter(|l| !l.starts_with("etag: "))
            .collect::<Vec<_>>(),
        [
            "content-length: 8",
            "content-type: text/markdown; charset=utf-8; variant=GFM",
            "link: </items?page=2&format=json>; rel=\"alternate\"; type=\"application/json\"",
            "vary: Accept",
            "x-markdown-tokens: 3",
        ]
    );
    // JSON links the markdown and carries no count.
    let (_, head, _) = exchange(&mut service, "GET", "/items?format=json", &[]);
    assert!(
        head.contains("link: </items?format=md>; rel=\"alternate\"; type=\"text/markdown\""),
        "{head}"
    );
    assert!(!head.contains("x-markdown-tokens"), "{head}");
    assert!(head.contains("cache-control: max-age=60"), "{head}");
    // (method, target, If-None-Match, status, body)
    let weak = format!("W/{etag}");
    let list = format!("\"other\", {etag}");
    let cases: &[(&str, &str, &str, u16, &str)] = &[
        ("GET", "/items?page=2", &etag, 304, ""),
        ("HEAD", "/items?page=2", &etag, 304, ""),
        ("GET", "/items?page=2", &weak, 304, ""),
        ("GET", "/items?page=2", &list, 304, ""),
        ("GET", "/items?page=2", "*", 304, ""),
        ("GET", "/items?page=2", "\"other\"", 200, "md:[1,2]"),
        // Another representation: another validator.
        ("GET", "/items?format=json", &etag, 200, "json:[1,2]"),
        // Not a 200: answered as it is.
        ("GET", "/teapot", "*", 418, "md:\"short and stout\""),
    ];
    for (method, target, if_none_match, status, body) in cases {
        let sent = [
            ("accept", "text/markdown"),
            ("if-none-match", *if_none_match),
        ];
        let (got, head, got_body) = exchange(&mut service, method, target, &sent);
        assert_eq!(
            (got, got_body.as_str()),
            (*status, *body),
            "{method} {target} {if_none_match}\n{head}"
        );
        if got == 304 {
            assert!(head.contains(&format!("etag: {etag}")), "{head}");
            assert!(head.contains("vary: Accept"), "{head}");
            assert!(!head.contains("content-type"), "{head}");
            assert!(!head.contains("content-length: 8"), "{head}");
            assert!(!head.contains("x-markdown-tokens"), "{head}");
        }
    }
    // Without `with_headers`, nothing is added.
    let negotiator = Arc::new(support::builder().build().unwrap());
    let mut plain = routes().layer(NegotiateLayer::new(negotiator));
    let (_, head, _) = exchange(&mut plain, "GET", "/items", &md);
    assert_eq!(
        head,
        "content-length: 8\ncontent-type: text/markdown; charset=utf-8; variant=GFM\nvary: Accept"
    );
}

/// How many times [`Counted`] data was serialized.
static SERIALIZED: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// Data that counts its serializations: a `304` of data with a validator
/// encodes nothing.
struct Counted(u32);

impl serde::Serialize for Counted {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        SERIALIZED.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        serializer.serialize_u32(self.0)
    }
}

/// The `ETag` line of a response head.
fn etag_of(head: &str) -> Option<String> {
    head.lines()
        .find_map(|l| l.strip_prefix("etag: "))
        .map(str::to_owned)
}

/// `Negotiated::validator`: the `ETag` is derived from the service's
/// validator and the `Content-Type`, strong and distinct per
/// representation and per validator; a matching `If-None-Match` gets a
/// `304` without a body, and without encoding the data.
#[test]
fn a_supplied_validator_gives_the_etag_and_304_without_encoding() {
    let router = Router::new()
        .route("/items", get(items))
        .route(
            "/v1",
            get(|| async { Negotiated(Counted(7)).validator("v1") }),
        )
        .route(
            "/v2",
            get(|| async { Negotiated(Counted(7)).validator(b"v2") }),
        )
        .route(
            "/teapot",
            get(|| async {
                let data = Negotiated(Counted(7)).validator("v1");
                (StatusCode::IM_A_TEAPOT, data)
            }),
        );
    let negotiator = Arc::new(support::builder().build().unwrap());
    let headers = negotiate::ResponseHeaders::builder().build();
    let mut service = router
        .clone()
        .layer(NegotiateLayer::with_headers(negotiator, headers));
    let mut get_etag = |target: &str, accept: &str| {
        let (status, head, body) = exchange(&mut service, "GET", target, &[("accept", accept)]);
        assert_eq!(status, 200, "{target} {accept}\n{head}");
        (etag_of(&head).expect("an ETag"), body)
    };
    let (md, body) = get_etag("/v1", "text/markdown");
    assert_eq!(body, "md:7");
    assert_eq!(md.len(), 34, "{md}");
    assert!(md.starts_with('"') && md.ends_with('"') && !md.starts_with("W/"));
    assert!(md[1..33].bytes().all(|b| b.is_ascii_hexdigit()), "{md}");
    let (json, body) = get_etag("/v1", "application/json");
    assert_eq!(body, "json:7");
    let (x_md, _) = get_etag("/v1", "text/x-markdown");
    let (md_2, _) = get_etag("/v2", "text/markdown");
    let (md_again, _) = get_etag("/v1", "text/markdown");
    let (hashed, _) = get_etag("/items", "text/markdown");
    assert_eq!(md, md_again);
    // Per representation, per validator, and never the body hash's.
    let all = [&md, &json, &x_md, &md_2, &hashed];
    for (i, a) in all.iter().enumerate() {
        for b in &all[i + 1..] {
            assert_ne!(a, b);
        }
    }
    for method in ["GET", "HEAD"] {
        let before = SERIALIZED.load(std::sync::atomic::Ordering::Relaxed);
        let sent = [("accept", "text/markdown"), ("if-none-match", md.as_str())];
        let (status, head, body) = exchange(&mut service, method, "/v1", &sent);
        assert_eq!((status, body.as_str()), (304, ""), "{method}\n{head}");
        assert_eq!(etag_of(&head).as_deref(), Some(md.as_str()), "{head}");
        assert!(head.contains("vary: Accept"), "{head}");
        assert!(!head.contains("content-type"), "{head}");
        assert!(head.contains("link: </v1?format=json>"), "{head}");
        let after = SERIALIZED.load(std::sync::atomic::Ordering::Relaxed);
        assert_eq!(after, before, "a 304 encodes nothing");
    }
    // Another representation's or validator's tag, or another status:
    // a whole answer.
    let cases: &[(&str, &str, &str, u16, &str)] = &[
        ("/v1", "application/json", &md, 200, "json:7"),
        ("/v2", "text/markdown", &md, 200, "md:7"),
        ("/teapot", "text/markdown", &md, 418, "md:7"),
        ("/teapot", "text/markdown", "*", 418, "md:7"),
    ];
    for (target, accept, if_none_match, status, body) in cases {
        let sent = [("accept", *accept), ("if-none-match", *if_none_match)];
        let (got, head, got_body) = exchange(&mut service, "GET", target, &sent);
        assert_eq!(
            (got, got_body.as_str()),
            (*status, *body),
            "{target}\n{head}"
        );
    }
    // A layer without an `ETag` ignores the validator.
    let negotiator = Arc::new(support::builder().build().unwrap());
    let mut plain = router.layer(NegotiateLayer::new(negotiator));
    let sent = [("accept", "text/markdown"), ("if-none-match", md.as_str())];
    let (status, head, body) = exchange(&mut plain, "GET", "/v1", &sent);
    assert_eq!((status, body.as_str()), (200, "md:7"));
    assert_eq!(etag_of(&head), None);
}

/// Rows streamed through the layer: what the buffered data gives, with
/// the negotiated type, and the same refusals.
#[test]
fn streamed_rows_are_negotiated_like_data() {
    let negotiator = Arc::new(support::builder().build().unwrap());
    let mut service = NegotiateLayer::new(negotiator).layer(routes());
    for accept in [None, Some("text/markdown"), Some("application/json")] {
        let (status, content_type, vary, body) = send(&mut service, "/streamed", accept);
        let buffered = send(&mut service, "/items", accept);
        assert_eq!((status, content_type, vary, body), buffered, "{accept:?}");
    }
    let (status, _, _, body) = send(&mut service, "/streamed", Some("image/png"));
    assert_eq!(status, 406);
    assert!(body.starts_with("406 Not Acceptable"), "{body}");
    let (status, _, _, _) = send(&mut service, "/streamed?format=yaml", None);
    assert_eq!(status, 400);
}

/// How many times a [`Prerendered`] closure below was called.
static RENDERED: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// Bytes kept rendered per format, with their `Representation`: what a
/// service that renders once hands the layer.
fn prerendered(headers: negotiate::ResponseHeaders) -> Prerendered {
    Prerendered::new(move |selection| {
        RENDERED.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let bytes = bytes::Bytes::from(format!("kept as {}", selection.format()));
        let representation = headers.describe(selection, &bytes);
        async move { Ok((bytes, representation)) }
    })
}

/// `Prerendered`: the layer negotiates, calls the closure with the
/// choice and sends its bytes with the headers its `Representation`
/// gives (the `ETag` and token count the closure's describe computed,
/// not the layer's); `304` for a held `ETag`, and without calling the
/// closure when a validator shows it; the closure's own answer as it is;
/// a refusal without calling it; a loud `500` without the layer.
#[test]
fn prerendered_bytes_are_sent_as_the_closure_gives_them() {
    use std::sync::atomic::Ordering::Relaxed;
    let described = negotiate::ResponseHeaders::builder()
        .token_counter(Some(Arc::new(Words)))
        .build();
    let router = Router::new()
        .route(
            "/kept",
            get({
                let described = described.clone();
                move || async move { prerendered(described) }
            }),
        )
        .route(
            "/versioned",
            get({
                let described = described.clone();
                move || async move { prerendered(described).validator("v1") }
            }),
        )
        .route(
            "/busy",
            get(|| async {
                Prerendered::new(|_| async {
                    let mut busy = Response::new(Body::from("busy"));
                    *busy.status_mut() = StatusCode::SERVICE_UNAVAILABLE;
                    Err(busy)
                })
            }),
        );
    let negotiator = Arc::new(support::builder().build().unwrap());
    let headers = negotiate::ResponseHeaders::builder().build();
    let mut service = router
        .clone()
        .layer(NegotiateLayer::with_headers(negotiator, headers));

    let md = [("accept", "text/markdown")];
    let (status, head, body) = exchange(&mut service, "GET", "/kept", &md);
    assert_eq!((status, body.as_str()), (200, "kept as md"), "{head}");
    // The layer's own policy counts no tokens: the count is the
    // closure's `Representation`'s.
    let etag = etag_of(&head).expect("an ETag");
    assert_eq!(
        head.lines()
            .filter(|l| !l.starts_with("etag: "))
            .collect::<Vec<_>>(),
        [
            "content-length: 10",
            "content-type: text/markdown; charset=utf-8; variant=GFM",
            "link: </kept?format=json>; rel=\"alternate\"; type=\"application/json\"",
            "vary: Accept",
            "x-markdown-tokens: 3",
        ]
    );
    let (status, head, body) = exchange(&mut service, "GET", "/kept", &[]);
    assert_eq!((status, body.as_str()), (200, "kept as json"), "{head}");
    assert!(head.contains("content-type: application/json"), "{head}");

    // A held ETag: 304, no body.
    let held = [
        ("accept", "text/markdown"),
        ("if-none-match", etag.as_str()),
    ];
    let (status, head, body) = exchange(&mut service, "GET", "/kept", &held);
    assert_eq!((status, body.as_str()), (304, ""), "{head}");
    assert_eq!(etag_of(&head).as_deref(), Some(etag.as_str()));

    // With a validator: its ETag, and a 304 without calling the closure.
    let (status, head, _) = exchange(&mut service, "GET", "/versioned", &md);
    assert_eq!(status, 200);
    let versioned = etag_of(&head).expect("an ETag");
    assert_ne!(versioned, etag);
    assert!(head.contains("x-markdown-tokens: 3"), "{head}");
    let before = RENDERED.load(Relaxed);
    let held = [
        ("accept", "text/markdown"),
        ("if-none-match", versioned.as_str()),
    ];
    let (status, head, body) = exchange(&mut service, "GET", "/versioned", &held);
    assert_eq!((status, body.as_str()), (304, ""), "{head}");
    assert_eq!(etag_of(&head).as_deref(), Some(versioned.as_str()));
    assert_eq!(RENDERED.load(Relaxed), before, "a 304 calls nothing");

    // Refused: 406, the closure not called.
    let (status, _, body) = exchange(&mut service, "GET", "/kept", &[("accept", "image/png")]);
    assert_eq!(status, 406);
    assert!(body.starts_with("406 Not Acceptable"), "{body}");
    assert_eq!(RENDERED.load(Relaxed), before, "a refusal calls nothing");

    // The closure's own answer, as it is.
    let (status, head, body) = exchange(&mut service, "GET", "/busy", &md);
    assert_eq!((status, body.as_str()), (503, "busy"), "{head}");

    // A layer without response headers: the bytes, typed, nothing more.
    let negotiator = Arc::new(support::builder().build().unwrap());
    let mut plain = router.clone().layer(NegotiateLayer::new(negotiator));
    let (status, head, body) = exchange(&mut plain, "GET", "/kept", &md);
    assert_eq!((status, body.as_str()), (200, "kept as md"));
    assert_eq!(
        head,
        "content-length: 10\ncontent-type: text/markdown; charset=utf-8; variant=GFM\nvary: Accept"
    );
    let before = RENDERED.load(Relaxed);

    // Without the layer: the loud 500, nothing called.
    let mut bare = router;
    for target in ["/kept", "/versioned", "/busy"] {
        let (status, content_type, _, body) = send(&mut bare, target, None);
        assert_eq!(status, 500, "{target}");
        assert_eq!(content_type, "text/plain; charset=utf-8");
        assert_eq!(
            body,
            "negotiate: this route returns `Negotiated` data but has no `NegotiateLayer`\n"
        );
    }
    assert_eq!(RENDERED.load(Relaxed), before, "no layer, no call");
}

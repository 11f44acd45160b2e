//! `codec serve`: each `DIR/NAME.json` at `/NAME`, negotiated.
//!
//! Built to stay up under hostile load: each representation is rendered
//! once and its bytes shared ([`documents`]), a bound on responses
//! rendering (or streaming) a document answers `503` beyond it, and each
//! address's connections are bounded and timers close slow and idle ones
//! ([`connection`]).
//!
//! Served through the library's own layer, as a service serves: each
//! request goes through `negotiate::NegotiateLayer` (with the standard
//! negotiator, the page for browsers and the agent policy on, and the
//! standard `ResponseHeaders`: an `ETag` and `304`s, `Link` alternates,
//! the exact `x-markdown-tokens` count, the page's
//! `Content-Security-Policy`), and a document answers it as
//! `negotiate::Prerendered`: the layer calls it with the negotiated codec
//! and sends the bytes rendered for it, with what the headers say about
//! them (its `ETag`, its token count), computed once and kept beside the
//! bytes. Around the layer: the connection handling ([`connection`]), the
//! log line, `nosniff`, `HEAD`.

mod body;
mod connection;
mod documents;
mod route;

use std::collections::BTreeMap;
use std::convert::Infallible;
use std::future::{Ready, ready};
use std::sync::{Arc, OnceLock};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use axum::body::Body;
use axum::response::IntoResponse;
use bytes::Bytes;
use codec_core::rows::RowsShape;
use codec_core::{Map, MediaType, Value};
use http::header::{self, HeaderValue};
use http::request::Parts;
use http::{Method, Request, Response, StatusCode, Version};
use http_body::Body as _;
use hyper::body::Incoming;
use negotiate::{
    Choice, NegotiateLayer, NegotiateService, NegotiatedStream, Negotiator, Prerendered,
    Representation, RequestFacts, ResponseHeaders, Selection, Source,
};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tower_layer::Layer;
use tower_service::Service;

use crate::cli::ServeArgs;
use crate::directory::Streamed;
use crate::error::CliError;
use crate::rows::Rows;
use crate::{directory, input};

use self::body::SharedBody;
use self::connection::Timeouts;
use self::documents::Document;

/// What the server publishes, and its bound on concurrent work.
#[derive(Debug)]
struct Site {
    /// The negotiator, shared with the layer.
    negotiator: Arc<Negotiator>,
    /// What every negotiated answer carries besides its body.
    headers: ResponseHeaders,
    /// Documents by name, sorted so the index is deterministic.
    documents: BTreeMap<String, Document>,
    /// `/`: the list of documents, negotiated like any other.
    index: Document,
    /// One slot per response that renders a document or streams one.
    work: Arc<Semaphore>,
}

pub(crate) fn run(args: &ServeArgs) -> Result<(), CliError> {
    let (documents, streamed) = match &args.dir {
        Some(dir) => {
            let mut loaded = directory::load_dir(dir, args.follow_symlinks, args.stream_above.0)?;
            for skipped in &loaded.skipped {
                eprintln!("codec: {skipped}");
            }
            // A file that does not parse is named, with its line and
            // column; with `--strict` it stops the server before it starts.
            if args.strict
                && let Some((_, error)) = loaded.failed.pop_first()
            {
                return Err(error);
            }
            for error in loaded.failed.values() {
                eprintln!("codec: skipped, not served: {error}");
            }
            (loaded.documents, loaded.streamed)
        }
        None => (
            BTreeMap::from([(
                input::SAMPLE_NAME.to_owned(),
                input::parse_json(input::SAMPLE, "sample")?,
            )]),
            BTreeMap::new(),
        ),
    };
    for (name, file) in &streamed {
        eprintln!(
            "codec: streaming {name} ({} bytes, {} rows): read anew for each response, as JSON or markdown",
            file.len, file.rows
        );
    }
    let standard = crate::registry::serve_standard(&args.codec)?;
    let (negotiator, headers) = crate::registry::serve(&args.codec)?;
    let mut site = Site::new(
        (negotiator, headers),
        documents,
        streamed,
        args.max_concurrent,
    );
    // Each document's page is titled with its name; the index's links
    // to them.
    for (name, document) in &mut site.documents {
        document.set_page(crate::registry::page(&standard, name));
    }
    site.index
        .set_page(Some(crate::registry::index_page(&args.codec)?));
    let site = Arc::new(site);
    let service = Documents::service(&site);
    let timeouts = Timeouts {
        header: args.header_timeout,
        idle: args.idle_timeout,
        send: args.send_timeout,
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(CliError::Serve)?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(args.addr)
            .await
            .map_err(CliError::Serve)?;
        let addr = listener.local_addr().map_err(CliError::Serve)?;
        eprintln!(
            "codec: serving {} document(s) on http://{addr}/ (Ctrl-C stops)",
            site.documents.len()
        );
        for document in site.documents.values() {
            eprintln!("codec:   http://{addr}{}", document.path());
        }
        eprintln!(
            "codec: at most {} responses at once, {} connections per client; \
             header timeout {}, idle timeout {}, send timeout {}",
            args.max_concurrent,
            args.max_per_client,
            seconds(timeouts.header),
            seconds(timeouts.idle),
            seconds(timeouts.send)
        );
        let stop = async {
            let _ = tokio::signal::ctrl_c().await;
            eprintln!("codec: stopping");
        };
        connection::serve(
            listener,
            timeouts,
            args.max_per_client,
            move |r| handle(service.clone(), r),
            stop,
        )
        .await;
        Ok(())
    })?;
    // A first rendering still running on a blocking thread is abandoned.
    runtime.shutdown_timeout(Duration::from_secs(1));
    Ok(())
}

fn seconds(duration: Duration) -> String {
    format!("{}s", duration.as_secs_f64())
}

impl Site {
    fn new(
        (negotiator, headers): (Negotiator, ResponseHeaders),
        documents: BTreeMap<String, Value>,
        streamed: BTreeMap<String, Streamed>,
        max_concurrent: usize,
    ) -> Site {
        let codecs = negotiator.codecs().len();
        let offers = negotiator.media_types().len();
        let mut documents: BTreeMap<String, Document> = documents
            .into_iter()
            .map(|(name, value)| {
                let document = Document::new(&name, value, (codecs, offers));
                (name, document)
            })
            .collect();
        for (name, file) in streamed {
            let document = Document::streamed(&name, file);
            documents.insert(name, document);
        }
        let index = Value::Array(
            documents
                .iter()
                .map(|(name, document)| {
                    let mut entry = Map::with_capacity(2);
                    entry.insert("name", Value::from(name.as_str()));
                    entry.insert("path", Value::from(document.path()));
                    Value::Object(entry)
                })
                .collect(),
        );
        Site {
            index: Document::new("", index, (codecs, offers)),
            documents,
            negotiator: Arc::new(negotiator),
            headers,
            work: Arc::new(Semaphore::new(max_concurrent)),
        }
    }

    /// The document named `name`, the index for `""`.
    fn document(&self, name: &str) -> Option<&Document> {
        if name.is_empty() {
            Some(&self.index)
        } else {
            self.documents.get(name)
        }
    }
}

/// The media type a request's document was answered in, for its log
/// line: set by the document's answer, which only the layer's call of it
/// knows (none for errors before it, and for refusals).
#[derive(Clone, Debug, Default)]
struct Chosen(Arc<OnceLock<MediaType>>);

/// The service every request goes through: the negotiation layer around
/// [`Documents`].
type Served = NegotiateService<Documents>;

async fn handle(mut service: Served, mut request: Request<Incoming>) -> Response<SharedBody> {
    let started = Instant::now();
    let chosen = Chosen::default();
    request.extensions_mut().insert(chosen.clone());
    let line = RequestLine::of(&request);
    let head = request.method() == Method::HEAD;
    // `Documents` is always ready, and the layer as ready as it is.
    let ready =
        std::future::poll_fn(|cx| Service::<Request<Incoming>>::poll_ready(&mut service, cx));
    let Ok(()) = ready.await;
    let Ok(response) = service.call(request).await;
    let (mut parts, body) = response.into_parts();
    let body = SharedBody::from(body);
    // Never sniffed as something else (an error page echoes the name the
    // client asked for; markdown is text, not HTML).
    parts.headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    // The length of what is not streamed; a 304 sends no body, so it has
    // no length.
    if parts.status != StatusCode::NOT_MODIFIED
        && let Some(len) = body.size_hint().exact()
    {
        parts
            .headers
            .insert(header::CONTENT_LENGTH, HeaderValue::from(len));
    }
    let response = Response::from_parts(parts, body);
    eprintln!("{}", line.log(&response, chosen.0.get(), started));
    if head {
        // The headers of GET (Content-Length included), no body: a
        // streamed body's slot of the work bound is given back at once.
        let (parts, _) = response.into_parts();
        return Response::from_parts(parts, SharedBody::empty());
    }
    response
}

/// The handler behind the layer: the plain answers (400, 405, 404), and
/// each document's bytes as `Prerendered`, for the codec the layer
/// negotiates.
#[derive(Clone, Debug)]
struct Documents(Arc<Site>);

impl Documents {
    /// The layer, with the site's negotiator and response headers, around
    /// the documents.
    fn service(site: &Arc<Site>) -> Served {
        let layer =
            NegotiateLayer::with_headers(Arc::clone(&site.negotiator), site.headers.clone());
        layer.layer(Documents(Arc::clone(site)))
    }
}

impl<B> Service<Request<B>> for Documents {
    type Response = axum::response::Response;
    type Error = Infallible;
    type Future = Ready<Result<axum::response::Response, Infallible>>;

    fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: Request<B>) -> Self::Future {
        // The body of a GET means nothing here; hyper discards it.
        let (parts, _) = request.into_parts();
        ready(Ok(route(&self.0, parts)))
    }
}

/// A request's answer: a plain error, or the document's `Prerendered`
/// bytes.
fn route(site: &Arc<Site>, request: Parts) -> axum::response::Response {
    if let Some(problem) = host_problem(&request) {
        return text(
            StatusCode::BAD_REQUEST,
            format!("400 Bad Request: {problem}\n"),
        )
        .map(Body::new);
    }
    if request.method != Method::GET && request.method != Method::HEAD {
        let mut response = text(
            StatusCode::METHOD_NOT_ALLOWED,
            "405 Method Not Allowed: use GET or HEAD\n".into(),
        );
        // RFC 9110 §15.5.6: a 405 lists the methods the resource has.
        response
            .headers_mut()
            .insert(header::ALLOW, HeaderValue::from_static("GET, HEAD"));
        return response.map(Body::new);
    }
    let name = match route::name_of(request.uri.path()) {
        Ok(name) => name,
        Err(e) => {
            return text(StatusCode::BAD_REQUEST, format!("400 Bad Request: {e}\n")).map(Body::new);
        }
    };
    if site.document(&name).is_none() {
        let mut body = format!("404 Not Found: no document {name:?}. Available:\n");
        for document in site.documents.values() {
            body.push_str(&format!("  {}\n", document.path()));
        }
        return text(StatusCode::NOT_FOUND, body).map(Body::new);
    }
    let site = Arc::clone(site);
    Prerendered::new(move |selection| {
        let choice = selection.choice();
        async move {
            let chosen = request.extensions.get::<Chosen>().cloned();
            let (answer, media_type) = answer(&site, &name, &request, choice).await;
            if let (Some(chosen), Some(media_type)) = (chosen, media_type) {
                let _ = chosen.0.set(media_type);
            }
            answer.map_err(|response| response.map(Body::new))
        }
    })
    .into_response()
}

/// What a document's answer is: its bytes for the negotiated codec and
/// their description, or a whole response (a document streamed from its
/// file, a 503 beyond the bound, a 500); with the media type chosen, for
/// the log (none for errors).
type Answer = (
    Result<(Bytes, Representation), Response<SharedBody>>,
    Option<MediaType>,
);

/// The answer of the document `name`, for the layer's `choice`.
async fn answer(site: &Arc<Site>, name: &str, request: &Parts, choice: Choice) -> Answer {
    let (Some(document), Some(selection)) = (site.document(name), site.negotiator.resolve(choice))
    else {
        // Unreachable: the document was found and the choice is the
        // negotiator's. Still an answer, never a panic.
        let lost = "500 Internal Server Error: the document or the negotiated choice was lost\n";
        return (
            Err(text(StatusCode::INTERNAL_SERVER_ERROR, lost.into())),
            None,
        );
    };
    let content_type = selection.content_type().clone();
    let index = site
        .negotiator
        .codecs()
        .position(|codec| codec.format() == selection.format());
    // The offer chosen (the codec's own media type or an alias): its ETag
    // hashes its Content-Type, so it is kept per offer.
    let offer = site
        .negotiator
        .media_types()
        .position(|offered| offered == selection.content_type());
    // Already rendered and described: sending shared bytes is not work
    // the bound protects, so no slot is taken.
    if let Some(index) = index
        && let Some(kept) = document.kept(index, offer)
    {
        return (Ok(kept), Some(content_type));
    }
    // Beyond the bound, a quick refusal rather than memory and time the
    // server may not have.
    let Ok(slot) = site.work.clone().try_acquire_owned() else {
        let mut response = text(
            StatusCode::SERVICE_UNAVAILABLE,
            "503 Service Unavailable: too many responses in flight; retry shortly\n".into(),
        );
        response
            .headers_mut()
            .insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
        return (Err(response), Some(content_type));
    };
    if let Some(file) = document.file() {
        let (response, chosen) = stream(site, request, document.path(), file, selection, slot);
        return (Err(response), chosen);
    }
    let rendered = match index {
        Some(index) => document.rendered(index, selection.codec()).await,
        None => Err(format!("no codec named {}", selection.format())),
    };
    let bytes = match rendered {
        Ok(bytes) => bytes,
        Err(e) => {
            let response = text(
                StatusCode::INTERNAL_SERVER_ERROR,
                format!("500 Internal Server Error: {e}\n"),
            );
            return (Err(response), Some(content_type));
        }
    };
    let described = {
        let (site, bytes) = (Arc::clone(site), bytes.clone());
        document.described(offer, move || {
            let selection = site.negotiator.resolve(choice)?;
            Some(site.headers.describe(&selection, &bytes))
        })
    }
    .await;
    // Rendered: sending shared bytes is not work the bound protects, so
    // a client that reads slowly (or not at all) holds no slot.
    drop(slot);
    let representation = described.unwrap_or_else(Representation::streamed);
    (Ok((bytes, representation)), Some(content_type))
}

/// A streamed document's response: its rows read from its file and
/// encoded by the negotiated codec as they are sent, in memory bounded by
/// the largest row. Only the formats that write rows as they come stream
/// (JSON, markdown): a request that negotiated another (a browser's
/// `text/html`) gets the first of its acceptable ones that does, and one
/// that named another (`?format=mcp`), or accepts none, a 406 that says
/// which do. No `ETag`, no token count, no `Content-Length`: they need
/// the whole body first.
fn stream(
    site: &Site,
    request: &Parts,
    path: &str,
    file: &Streamed,
    selection: Selection<'_>,
    slot: OwnedSemaphorePermit,
) -> (Response<SharedBody>, Option<MediaType>) {
    let shape = match &file.shape {
        Rows::Array => RowsShape::array(),
        Rows::Member(key) => RowsShape::member(key.clone()),
    };
    let streams = |selection: &Selection<'_>| selection.codec().row_encoder(&shape).is_some();
    let chosen = if streams(&selection) {
        Some(selection)
    } else if matches!(
        selection.source(),
        Source::QueryParam | Source::PathExtension
    ) {
        None
    } else {
        site.negotiator
            .ranked(request.headers.get_all(header::ACCEPT))
            .into_iter()
            .find(streams)
    };
    let Some(selection) = chosen else {
        let mut body = format!(
            "406 Not Acceptable: {path} is streamed (its file is larger than --stream-above), \
             and only these media types stream it:\n"
        );
        for codec in site.negotiator.codecs() {
            if codec.row_encoder(&shape).is_some() {
                body.push_str(&format!("  {}\n", codec.media_type()));
            }
        }
        return (text(StatusCode::NOT_ACCEPTABLE, body), None);
    };
    let content_type = selection.content_type().clone();
    let mut reader = match file.reader() {
        Ok(reader) => reader,
        Err(e) => {
            return (
                text(
                    StatusCode::INTERNAL_SERVER_ERROR,
                    format!("500 Internal Server Error: {e}\n"),
                ),
                Some(content_type),
            );
        }
    };
    // The file is read as the client reads: a row that no longer parses
    // (the file was edited in place since the start) ends the body
    // abnormally, after the rows sent, and the operator reads why here.
    let what = format!("{} {path}", request.method);
    let mut sent = 0usize;
    let rows = std::iter::from_fn(move || match reader.next_row() {
        Ok(row) => {
            sent += usize::from(row.is_some());
            row.map(Ok)
        }
        Err(error) => {
            let s = if sent == 1 { "" } else { "s" };
            eprintln!(
                "codec: {what}: the stream failed after {sent} row{s}, its response aborted: {error}"
            );
            Some(Err(error))
        }
    });
    let mut rows = NegotiatedStream::try_from_iter(rows);
    if let Some(key) = shape.member_key() {
        rows = rows.member(key);
    }
    let body = rows.into_body(Arc::clone(selection.codec()));
    let facts = RequestFacts::new(&request.method, &request.uri, &request.headers);
    let (parts, ()) = Response::new(()).into_parts();
    let response = site.headers.respond(
        &site.negotiator,
        &facts,
        &selection,
        Representation::streamed(),
        parts,
        SharedBody::streaming(body, slot),
    );
    (response, Some(content_type))
}

/// Why the `Host` header makes the request invalid (RFC 9112 §3.2: a
/// server must answer 400 to an HTTP/1.1 request without one, to any with
/// more than one, or with an invalid one).
fn host_problem(request: &Parts) -> Option<&'static str> {
    let mut hosts = request.headers.get_all(header::HOST).iter();
    match (hosts.next(), hosts.next()) {
        (None, _) if request.version == Version::HTTP_11 => {
            Some("an HTTP/1.1 request needs a Host header (RFC 9112 §3.2)")
        }
        (Some(_), Some(_)) => Some("more than one Host header (RFC 9112 §3.2)"),
        (Some(host), None) if !is_valid_host(host) => {
            Some("the Host header is not a host and port (RFC 9112 §3.2)")
        }
        _ => None,
    }
}

/// `uri-host [ ":" port ]`, or empty (allowed when the target URI has no
/// authority).
fn is_valid_host(value: &HeaderValue) -> bool {
    value.is_empty()
        || value
            .to_str()
            .ok()
            .and_then(|v| v.parse::<http::uri::Authority>().ok())
            .is_some_and(|authority| {
                !authority.as_str().contains('@') && has_valid_port(authority.as_str())
            })
}

/// A port, when there is one, is a number from 0 to 65535 (RFC 3986
/// allows an empty one); `http` accepts any digits.
fn has_valid_port(authority: &str) -> bool {
    match authority.rsplit_once(':') {
        Some((_, port)) if !port.contains(']') => port.is_empty() || port.parse::<u16>().is_ok(),
        _ => true,
    }
}

/// What a request's log line says of it, taken before it is handed on.
struct RequestLine {
    method: Method,
    target: String,
    /// `-` for none, else the lines joined, quoted with Rust's escapes.
    accept: String,
}

impl RequestLine {
    fn of<B>(request: &Request<B>) -> RequestLine {
        let accept: Vec<String> = request
            .headers()
            .get_all(header::ACCEPT)
            .iter()
            .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned())
            .collect();
        let accept = if accept.is_empty() {
            "-".to_owned()
        } else {
            format!("{:?}", accept.join(", "))
        };
        let target = request.uri().path_and_query().map_or("/", |pq| pq.as_str());
        RequestLine {
            method: request.method().clone(),
            target: target.to_owned(),
            accept,
        }
    }

    /// One line per request: method, target, status, the `Accept` it was
    /// negotiated from (`-`: none), the type chosen (`-`: none), the
    /// body's bytes and the time to answer. Client text is quoted with
    /// Rust's escapes, so no header can forge a log line.
    fn log(
        &self,
        response: &Response<SharedBody>,
        chosen: Option<&MediaType>,
        started: Instant,
    ) -> String {
        let chosen = chosen.map_or("-".to_owned(), |t| format!("{:?}", t.as_str()));
        // A streamed body has no length: `streamed` stands for it. A 304
        // has no body.
        let bytes = match response.headers().get(header::CONTENT_LENGTH) {
            _ if response.status() == StatusCode::NOT_MODIFIED => "0B".to_owned(),
            Some(len) => format!("{}B", len.to_str().unwrap_or("?")),
            None => "streamed".to_owned(),
        };
        format!(
            "{} {} {} accept={} type={chosen} {bytes} {:.1}ms",
            self.method,
            self.target,
            response.status().as_u16(),
            self.accept,
            started.elapsed().as_secs_f64() * 1000.0
        )
    }
}

fn text(status: StatusCode, body: String) -> Response<SharedBody> {
    let len = body.len();
    with_headers(
        status,
        HeaderValue::from_static("text/plain; charset=utf-8"),
        len,
        SharedBody::from(Bytes::from(body)),
    )
}

fn with_headers(
    status: StatusCode,
    content_type: HeaderValue,
    len: usize,
    body: SharedBody,
) -> Response<SharedBody> {
    let mut response = Response::new(body);
    *response.status_mut() = status;
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, content_type);
    headers.insert(header::CONTENT_LENGTH, HeaderValue::from(len));
    // Every answer depends on Accept, errors included.
    headers.insert(header::VARY, HeaderValue::from_static("Accept"));
    response
}

#[cfg(test)]
mod tests {
    use http::HeaderMap;

    use super::*;

    /// A site of one document, `rows`, with the default options.
    fn site() -> Arc<Site> {
        let options = crate::cli::CodecOptions::default();
        let rows = codec_core::from_str(r#"[{"id":1,"name":"ada"}]"#).unwrap();
        let documents = BTreeMap::from([("rows".to_owned(), rows)]);
        let negotiated = crate::registry::serve(&options).unwrap();
        Arc::new(Site::new(negotiated, documents, BTreeMap::new(), 4))
    }

    /// A `GET` with these headers through `service`: status, headers,
    /// body.
    async fn get<S>(
        service: &mut S,
        target: &str,
        headers: &[(&str, &str)],
    ) -> (u16, HeaderMap, Bytes)
    where
        S: Service<Request<()>, Response = axum::response::Response, Error = Infallible>,
    {
        let mut request = Request::get(target).header(header::HOST, "x");
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        let Ok(()) = std::future::poll_fn(|cx| service.poll_ready(cx)).await;
        let Ok(response) = service.call(request.body(()).unwrap()).await;
        let (parts, body) = response.into_parts();
        let body = axum::body::to_bytes(body, usize::MAX).await.unwrap();
        (parts.status.as_u16(), parts.headers, body)
    }

    /// The documents answer as `Prerendered`, which only the negotiation
    /// layer sends: without it, every document is the layer's loud
    /// `500`; through it, the rendering negotiated, with the standard
    /// headers, and a `304` for its `ETag`. Plain answers pass either way.
    #[tokio::test]
    async fn documents_are_answered_through_the_layer() {
        let site = site();
        let mut bare = Documents(Arc::clone(&site));
        for target in ["/rows", "/"] {
            let (status, _, body) = get(&mut bare, target, &[]).await;
            assert_eq!(status, 500, "{target}");
            assert!(body.ends_with(b"has no `NegotiateLayer`\n"), "{body:?}");
        }
        assert_eq!(get(&mut bare, "/missing", &[]).await.0, 404);

        let mut served = Documents::service(&site);
        let md = [("accept", "text/markdown")];
        let (status, headers, body) = get(&mut served, "/rows", &md).await;
        assert_eq!(status, 200);
        let mut expected = Vec::new();
        let codec = site.negotiator.codec("md").unwrap();
        codec
            .encode_value(site.documents["rows"].value(), &mut expected)
            .unwrap();
        assert_eq!(body, expected);
        assert_eq!(headers[header::VARY], "Accept, User-Agent");
        assert_eq!(
            headers[header::LINK],
            r#"</rows?format=json>; rel="alternate"; type="application/json""#
        );
        assert!(headers.contains_key(negotiate::TOKENS_HEADER));
        let etag = headers[header::ETAG].to_str().unwrap().to_owned();
        let held = [
            ("accept", "text/markdown"),
            ("if-none-match", etag.as_str()),
        ];
        let (status, headers, body) = get(&mut served, "/rows", &held).await;
        assert_eq!((status, body.len()), (304, 0));
        assert_eq!(headers[header::ETAG], etag.as_str());
        // Refused by the layer: 406, or 400 for an unknown format.
        assert_eq!(
            get(&mut served, "/rows", &[("accept", "image/png")])
                .await
                .0,
            406
        );
        assert_eq!(get(&mut served, "/rows?format=yaml", &[]).await.0, 400);
        assert_eq!(get(&mut served, "/missing", &md).await.0, 404);
    }
}

//! axum integration (feature `axum`): a handler returns
//! [`Negotiated(data)`](Negotiated) once and the [`NegotiateLayer`] runs
//! the codec negotiated for the request.
//!
//! `IntoResponse` cannot see the request, so the work is split: the
//! handler's `Negotiated` hands the data over in the response's
//! extensions, and the layer, which saw the request's `Accept` and URI on
//! the way in, encodes it on the way out.
//!
//! The handed-over response is, until the layer takes it, the answer of a
//! route without the layer: `500` with a plain-text reminder, and the
//! handover logs an error when it is dropped untaken. No state outside
//! the response is involved (no thread-local, no global), so the layer
//! works whatever runs between it and the handler (tower's `Buffer`, a
//! middleware that spawns the handler), and a route without it fails
//! loudly all the same. The price is one rule: a status set around the
//! data is kept, except `500`, which cannot be told from the placeholder
//! (axum sets a tuple's status after `Negotiated` has made its
//! response), so the layer reads a `500` as "no status given" and answers
//! `200`. A `500` of negotiated data is asked for with
//! [`Negotiated::with_status`], whose handover carries it. (Only
//! something the handler's conversion could consult would tell the two
//! apart, and that is state outside the response: a thread-local set
//! while the layer polls the handler, which misreads a handler moved to
//! another task.)
//!
//! The data's type is known where it is handed over and the codec only
//! where it is encoded, so the data is stored behind the one call that
//! needs both ([`Encode`]): its implementation for `T` calls the codec's
//! generic path for `T` (`CodecExt::encode`), so the codec's fast path
//! (codec-json's writer, a tape for codec-md and codec-mcp) runs with
//! static dispatch, as in a handler that called the codec itself.
//!
//! The handover also carries the data's version when the handler
//! supplies one ([`Negotiated::validator`]): with response headers that
//! send an `ETag`, the layer derives it from the version and answers a
//! request that holds it `304` before encoding anything.
//!
//! A handler that keeps its bodies already encoded (`codec serve`, a
//! cache of rendered pages) hands over a [`Prerendered`] instead: a
//! closure the layer calls with the negotiated choice, which returns the
//! body's bytes and what the response headers say about them, so the
//! layer neither encodes nor hashes.

use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll, ready};

use axum::body::Body;
use axum::http::header::{ACCEPT, CONTENT_TYPE, GetAll};
use axum::http::uri::PathAndQuery;
use axum::http::{HeaderMap, HeaderValue, Request, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use bytes::Bytes;
use codec_core::{Codec, CodecExt, EncodeError};
use serde::Serialize;
use tower_layer::Layer;
use tower_service::Service;

use crate::headers::{Representation, RequestFacts, ResponseHeaders};
use crate::negotiator::Negotiator;
use crate::outcome::{Choice, Selection};
use crate::refusal::{Refusal, encode_failure, plain_text};
use crate::respond;
use crate::stream::NegotiatedStream;

/// A handler's data, to be encoded by the negotiated codec.
///
/// Needs a [`NegotiateLayer`] on the route: the layer picks the codec
/// from the request and encodes the data. A status or headers set around
/// it (`(StatusCode::CREATED, Negotiated(item))`) are kept, but for
/// `500`: the layer answers `(StatusCode::INTERNAL_SERVER_ERROR,
/// Negotiated(e))` with `200`, since a route without the layer answers
/// `Negotiated(e)` alone with that `500`, and axum sets a tuple's status
/// after `Negotiated` has made its response, so the two look the same to
/// the layer. Answer a `500` with [`Negotiated::with_status`]. The layer
/// sets `Content-Type` and adds `Accept` to `Vary`.
///
/// Without the layer the route answers `500 Internal Server Error` with a
/// plain-text reminder that the layer is missing, and logs an error
/// through `tracing` (naming the data's type) when the response is
/// dropped, so a wiring bug never looks like success to clients or
/// monitoring. A middleware between the layer and the handler may move
/// the handler to another task; one that drops the handler's response
/// instead of passing it on gets the same log line.
///
/// ```
/// use axum::{routing::get, Router};
/// use negotiate::Negotiated;
///
/// async fn items() -> Negotiated<Vec<&'static str>> {
///     Negotiated(vec!["apple", "pear"])
/// }
///
/// # fn app(negotiator: std::sync::Arc<negotiate::Negotiator>) -> Router {
/// Router::new()
///     .route("/items", get(items))
///     .layer(negotiate::NegotiateLayer::new(negotiator))
/// # }
/// ```
#[derive(Clone, Copy, Debug, Default)]
#[cfg_attr(docsrs, doc(cfg(feature = "axum")))]
pub struct Negotiated<T>(pub T);

impl<T: Serialize + Send + Sync + 'static> Negotiated<T> {
    /// The data answered with `status` instead of `200`: the way to a
    /// `500` of negotiated data (an error the client should read in its
    /// format), which a tuple around `Negotiated` cannot give. A status
    /// set around the result still replaces this one, `500` aside.
    ///
    /// ```
    /// use axum::http::StatusCode;
    /// use axum::response::Response;
    /// use negotiate::Negotiated;
    ///
    /// #[derive(serde::Serialize)]
    /// struct Failure { error: &'static str }
    ///
    /// async fn report() -> Result<Negotiated<Vec<u32>>, Response> {
    ///     Err(Negotiated(Failure { error: "the store is down" })
    ///         .with_status(StatusCode::INTERNAL_SERVER_ERROR))
    /// }
    /// ```
    pub fn with_status(self, status: StatusCode) -> Response {
        let handover = Handover::new(std::any::type_name::<T>(), Some(status), self.0);
        placeholder(Payload::Data(Arc::new(handover)))
    }

    /// The data with its version, as the service knows it (a database
    /// row's version, an updated-at, a content hash it already keeps):
    /// a layer whose response headers send an `ETag`
    /// ([`NegotiateLayer::with_headers`], `agent_codecs::standard().layer()`)
    /// then derives each representation's strong `ETag` from the validator
    /// and the `Content-Type` instead of hashing the body, and answers a
    /// `GET` or `HEAD` whose `If-None-Match` names it `304 Not Modified`
    /// without encoding the data at all. The `ETag` sent is not the
    /// validator: it differs per representation (JSON, markdown, ...), as
    /// RFC 9110 asks of a strong validator, and per validator.
    ///
    /// The validator must change whenever the data does, and whenever
    /// the service changes how it encodes it (a codec's options, an
    /// upgrade of the codecs; a release number in the validator does
    /// it): one validator is one set of bodies. A layer without an `ETag`
    /// ignores it. A status set around the result is kept, `500` aside,
    /// as for `Negotiated`.
    ///
    /// ```
    /// use axum::response::Response;
    /// use negotiate::Negotiated;
    ///
    /// #[derive(serde::Serialize)]
    /// struct Order { id: u32, version: u64 }
    ///
    /// async fn order() -> Response {
    ///     let order = Order { id: 7, version: 42 };
    ///     let version = order.version.to_string();
    ///     Negotiated(order).validator(version)
    /// }
    /// ```
    pub fn validator(self, validator: impl AsRef<[u8]>) -> Response {
        let mut handover = Handover::new(std::any::type_name::<T>(), None, self.0);
        handover.validator = Some(validator.as_ref().into());
        placeholder(Payload::Data(Arc::new(handover)))
    }
}

/// A handler's data, its type erased behind the one call the layer makes
/// with it.
trait Encode: Send + Sync {
    /// Appends the data's encoding by `codec`: `CodecExt::encode` for the
    /// data's type, so a codec's fast path runs monomorphized.
    fn encode(&self, codec: &dyn Codec, out: &mut Vec<u8>) -> Result<(), EncodeError>;
}

impl<T: Serialize + Send + Sync> Encode for T {
    fn encode(&self, codec: &dyn Codec, out: &mut Vec<u8>) -> Result<(), EncodeError> {
        codec.encode(self, out)
    }
}

/// What a handler's response hands to the layer: its content, with what
/// the layer and the log line of a missing layer need. Logs an error when
/// dropped before a layer took it.
struct Handover<C: ?Sized> {
    /// The content's type, for the log line.
    data: &'static str,
    /// The status of [`Negotiated::with_status`].
    status: Option<StatusCode>,
    /// The data's version, of [`Negotiated::validator`].
    validator: Option<Box<[u8]>>,
    /// Whether a layer took the content.
    taken: AtomicBool,
    content: C,
}

impl<C> Handover<C> {
    fn new(data: &'static str, status: Option<StatusCode>, content: C) -> Handover<C> {
        Handover {
            data,
            status,
            validator: None,
            taken: AtomicBool::new(false),
            content,
        }
    }
}

impl<C: ?Sized> Drop for Handover<C> {
    fn drop(&mut self) {
        if !*self.taken.get_mut() {
            tracing::error!(
                data = self.data,
                "a handler returned `Negotiated` data on a route without a `NegotiateLayer`: \
                 answering 500; add the layer to the route or the router"
            );
        }
    }
}

/// What a handler's response carries to the layer in its extensions: one
/// type for both kinds, so the layer looks it up once. (Extensions must be
/// `Clone`: the handover is shared, and logs once, when the last clone
/// goes.)
#[derive(Clone)]
enum Payload {
    /// A handler's data.
    Data(Arc<Handover<dyn Encode>>),
    /// A handler's rows (taken once: extensions must be `Sync`, a source
    /// of rows is not).
    Rows(Arc<Handover<Mutex<Option<NegotiatedStream>>>>),
    /// A handler's bytes, rendered by its closure (taken once, as rows).
    Prerendered(Arc<Handover<Mutex<Option<Render>>>>),
}

/// A [`Prerendered`]'s closure.
type Render = Box<dyn FnOnce(&Selection<'_>) -> Rendering + Send>;

impl Payload {
    /// Marks the content taken; returns the status it asks for.
    fn take(&self) -> Option<StatusCode> {
        let (taken, status) = match self {
            Payload::Data(data) => (&data.taken, data.status),
            Payload::Rows(rows) => (&rows.taken, rows.status),
            Payload::Prerendered(bytes) => (&bytes.taken, bytes.status),
        };
        taken.store(true, Ordering::Relaxed);
        status
    }
}

const MISSING_LAYER: &str =
    "negotiate: this route returns `Negotiated` data but has no `NegotiateLayer`\n";

/// The response that hands `payload` to the layer: until the layer
/// replaces it, the `500` of a route without one.
fn placeholder(payload: Payload) -> Response {
    let mut response = Response::new(Body::from(MISSING_LAYER));
    *response.status_mut() = StatusCode::INTERNAL_SERVER_ERROR;
    response.headers_mut().insert(
        CONTENT_TYPE,
        HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    response.extensions_mut().insert(payload);
    response
}

impl<T: Serialize + Send + Sync + 'static> IntoResponse for Negotiated<T> {
    fn into_response(self) -> Response {
        let handover = Handover::new(std::any::type_name::<T>(), None, self.0);
        placeholder(Payload::Data(Arc::new(handover)))
    }
}

/// A handler returns its rows as a `NegotiatedStream`, and the layer
/// streams them with the negotiated codec, as the client reads them (see
/// [`NegotiatedStream`]). Like [`Negotiated`], it needs the layer, and a
/// status set around it is kept, but for `500`.
///
/// ```
/// use axum::{routing::get, Router};
/// use negotiate::NegotiatedStream;
///
/// #[derive(serde::Serialize)]
/// struct Line { n: u64, text: String }
///
/// async fn log() -> NegotiatedStream {
///     let lines = (0..1_000_000).map(|n| Line { n, text: format!("line {n}") });
///     NegotiatedStream::from_iter(lines).member("lines")
/// }
///
/// # fn app(negotiator: std::sync::Arc<negotiate::Negotiator>) -> Router {
/// Router::new()
///     .route("/log", get(log))
///     .layer(negotiate::NegotiateLayer::new(negotiator))
/// # }
/// ```
#[cfg_attr(docsrs, doc(cfg(feature = "axum")))]
impl IntoResponse for NegotiatedStream {
    fn into_response(self) -> Response {
        let handover = Handover::new("NegotiatedStream", None, Mutex::new(Some(self)));
        placeholder(Payload::Rows(Arc::new(handover)))
    }
}

/// A handler's answer already encoded, for a service that keeps its
/// bodies rendered: the [`NegotiateLayer`] negotiates as for
/// [`Negotiated`] data, then calls the closure with the chosen codec's
/// [`Selection`] and sends the bytes its future returns, described by the
/// [`Representation`] it returns with them (the `ETag` and token count a
/// [`ResponseHeaders::describe`] gave when the bytes were made, kept with
/// them), so the layer neither encodes nor hashes the body. `Bytes` are
/// shared, not copied: a cached rendering serves every request.
///
/// The closure runs when the layer has the handler's response, and its
/// future in the layer's; it is never called when negotiation refuses
/// the request (the layer answers `406` or `400`), nor when a
/// [`Prerendered::validator`] shows the client holds the representation
/// (`304`). Its future may answer `Err(response)` instead (a `503`, the
/// closure's own `500`): that response is sent as it is. A codec that
/// cannot encode the data is the closure's business: the layer has no
/// value to fall back with. Like [`Negotiated`], it needs the layer, and a
/// status set around it is kept, but for `500`.
///
/// ```
/// use std::sync::Arc;
///
/// use axum::{routing::get, Router};
/// use bytes::Bytes;
/// use negotiate::{Prerendered, ResponseHeaders};
///
/// async fn report(headers: Arc<ResponseHeaders>) -> Prerendered {
///     Prerendered::new(move |selection| {
///         // A real service looks up the bytes it rendered for
///         // `selection.format()`, and their `Representation`.
///         let bytes = Bytes::from(format!("a report, as {}", selection.format()));
///         let representation = headers.describe(selection, &bytes);
///         async move { Ok((bytes, representation)) }
///     })
/// }
///
/// # fn app(negotiator: Arc<negotiate::Negotiator>) -> Router {
/// let headers = Arc::new(ResponseHeaders::builder().build());
/// Router::new()
///     .route("/report", get({
///         let headers = Arc::clone(&headers);
///         move || report(headers)
///     }))
///     .layer(negotiate::NegotiateLayer::with_headers(negotiator, (*headers).clone()))
/// # }
/// ```
#[cfg_attr(docsrs, doc(cfg(feature = "axum")))]
pub struct Prerendered {
    render: Render,
    validator: Option<Box<[u8]>>,
}

/// What a [`Prerendered`]'s closure returns, boxed: the body and its
/// description, or the response to send instead.
type Rendering = Pin<Box<dyn Future<Output = Result<(Bytes, Representation), Response>> + Send>>;

impl Prerendered {
    /// The answer `render` gives for the negotiated codec's
    /// [`Selection`]: its future's bytes and their [`Representation`].
    pub fn new<F, R>(render: F) -> Prerendered
    where
        F: FnOnce(&Selection<'_>) -> R + Send + 'static,
        R: Future<Output = Result<(Bytes, Representation), Response>> + Send + 'static,
    {
        Prerendered {
            render: Box::new(move |selection: &Selection<'_>| -> Rendering {
                Box::pin(render(selection))
            }),
            validator: None,
        }
    }

    /// The bodies' version, as for [`Negotiated::validator`]: with a
    /// layer that sends an `ETag`, the `ETag` is derived from it (the
    /// returned [`Representation`]'s is not used, its token count is),
    /// and a `GET` or `HEAD` whose `If-None-Match` names it is answered
    /// `304 Not Modified` without calling the closure.
    pub fn validator(mut self, validator: impl AsRef<[u8]>) -> Prerendered {
        self.validator = Some(validator.as_ref().into());
        self
    }
}

impl fmt::Debug for Prerendered {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Prerendered")
            .field("validator", &self.validator)
            .finish_non_exhaustive()
    }
}

impl IntoResponse for Prerendered {
    fn into_response(self) -> Response {
        let mut handover = Handover::new("Prerendered", None, Mutex::new(Some(self.render)));
        handover.validator = self.validator;
        placeholder(Payload::Prerendered(Arc::new(handover)))
    }
}

/// Negotiates every request it wraps and encodes the [`Negotiated`] data
/// of the response with the chosen codec; responses without such data
/// pass through untouched.
///
/// Apply it with `Router::layer` (or `route_layer`). When the negotiator
/// reads path extensions, the layer also strips a format extension from
/// the URI the inner service sees (`/items.md` becomes `/items`); for
/// routing to see the stripped path too, wrap the whole `Router` in the
/// layer instead (`NegotiateLayer::new(n).layer(router)`).
///
/// The request is negotiated before the handler runs (it is cheap and
/// allocation-free), but a 406 or 400 replaces the response only when
/// the handler returned `Negotiated` data: other routes are not subject
/// to negotiation.
#[cfg_attr(docsrs, doc(cfg(feature = "axum")))]
#[derive(Clone, Debug)]
pub struct NegotiateLayer {
    shared: Arc<Shared>,
}

/// What a layer's services and their futures share: one reference count
/// per request.
#[derive(Debug)]
struct Shared {
    negotiator: Arc<Negotiator>,
    headers: Option<ResponseHeaders>,
    /// The length of the last body written, to size the next one's buffer
    /// ([`Shared::body_capacity`]).
    last_body: AtomicUsize,
}

/// The most a body's buffer starts at: one large body must not make every
/// later small one allocate as much.
const MAX_BODY_CAPACITY: usize = 256 * 1024;

impl Shared {
    fn new(negotiator: Arc<Negotiator>, headers: Option<ResponseHeaders>) -> Arc<Shared> {
        Arc::new(Shared {
            negotiator,
            headers,
            last_body: AtomicUsize::new(0),
        })
    }

    /// A new body's buffer starts a little above the last body's length:
    /// a service's responses are often alike, so it rarely grows. Grown
    /// from empty, a body of a few KB is reallocated about ten times
    /// (`axum::Json` starts at 128 bytes and pays for its growth too).
    fn body_capacity(&self) -> usize {
        let last = self.last_body.load(Ordering::Relaxed);
        (last + last / 8 + 64).min(MAX_BODY_CAPACITY)
    }
}

impl NegotiateLayer {
    /// A layer negotiating with `negotiator`; its responses carry
    /// `Content-Type` and `Vary: Accept`, nothing more.
    pub fn new(negotiator: Arc<Negotiator>) -> NegotiateLayer {
        NegotiateLayer {
            shared: Shared::new(negotiator, None),
        }
    }

    /// A layer negotiating with `negotiator` whose responses also carry
    /// what `headers` adds: an `ETag` (and `304 Not Modified` for a
    /// matching `If-None-Match`), `Link` alternates, a token count; see
    /// [`ResponseHeaders`].
    pub fn with_headers(negotiator: Arc<Negotiator>, headers: ResponseHeaders) -> NegotiateLayer {
        NegotiateLayer {
            shared: Shared::new(negotiator, Some(headers)),
        }
    }
}

impl<S> Layer<S> for NegotiateLayer {
    type Service = NegotiateService<S>;

    fn layer(&self, inner: S) -> NegotiateService<S> {
        NegotiateService {
            inner,
            shared: Arc::clone(&self.shared),
        }
    }
}

/// The service made by [`NegotiateLayer`].
#[cfg_attr(docsrs, doc(cfg(feature = "axum")))]
#[derive(Clone, Debug)]
pub struct NegotiateService<S> {
    inner: S,
    shared: Arc<Shared>,
}

/// A negotiation's result, owned, to carry across the handler's `await`.
/// A refusal is rare and large, so it is boxed: the future that carries
/// the decision is moved several times per request.
type Decision = Result<Choice, Box<Refusal>>;

fn decide(
    negotiator: &Negotiator,
    uri: &Uri,
    headers: &HeaderMap,
    accept: &GetAll<'_, HeaderValue>,
) -> Decision {
    match negotiator.negotiate_request_accepting(uri, headers, accept) {
        Err(unknown) => Err(Box::new(Refusal::UnknownFormat(unknown))),
        Ok(outcome) => match outcome.into_result() {
            Ok(selection) => Ok(selection.choice()),
            Err(refusal) => Err(Box::new(Refusal::NotAcceptable(refusal))),
        },
    }
}

impl<S, B> Service<Request<B>> for NegotiateService<S>
where
    S: Service<Request<B>, Response = Response>,
{
    type Response = Response;
    type Error = S::Error;
    type Future = NegotiateFuture<S::Future>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), S::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, mut request: Request<B>) -> Self::Future {
        let negotiator = &self.shared.negotiator;
        // The `Accept` lines, looked up once for the decision and the
        // fallback.
        let accept_lines = request.headers().get_all(ACCEPT);
        let decision = decide(negotiator, request.uri(), request.headers(), &accept_lines);
        let accept = accept_field(&accept_lines);
        // Taken before the handler can see the request: only when the
        // response headers need them.
        let facts = self
            .shared
            .headers
            .as_ref()
            .map(|_| RequestFacts::new(request.method(), request.uri(), request.headers()));
        if let Some(uri) = strip_extension(negotiator, request.uri()) {
            *request.uri_mut() = uri;
        }
        NegotiateFuture {
            inner: self.inner.call(request),
            shared: Arc::clone(&self.shared),
            decision: Some((decision, facts)),
            accept,
            prerendered: None,
        }
    }
}

pin_project_lite::pin_project! {
    /// The response future of [`NegotiateService`]: the inner service's
    /// response, its [`Negotiated`] data encoded by the codec negotiated
    /// for the request. A concrete type, so a request costs no boxed
    /// future.
    #[cfg_attr(docsrs, doc(cfg(feature = "axum")))]
    pub struct NegotiateFuture<F> {
        #[pin]
        inner: F,
        shared: Arc<Shared>,
        // Taken when the response is ready, with what the response
        // headers need of the request, when the layer adds them (a
        // path and query and the `If-None-Match` lines: small enough to
        // carry inline, where a box would cost an allocation).
        decision: Option<(Decision, Option<RequestFacts>)>,
        // The request's `Accept`, to rank the codecs that may write the
        // data when the chosen one refuses it.
        accept: Option<HeaderValue>,
        // The response of a `Prerendered` handover, once its closure has
        // been called: ready when the closure's future is.
        prerendered: Option<Pin<Box<dyn Future<Output = Response> + Send>>>,
    }
}

impl<F> fmt::Debug for NegotiateFuture<F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("NegotiateFuture")
            .field(
                "decision",
                &self.decision.as_ref().map(|(decision, _)| decision),
            )
            .finish_non_exhaustive()
    }
}

impl<F, E> Future for NegotiateFuture<F>
where
    F: Future<Output = Result<Response, E>>,
{
    type Output = Result<Response, E>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Result<Response, E>> {
        let this = self.project();
        if let Some(prerendered) = this.prerendered {
            let response = ready!(prerendered.as_mut().poll(cx));
            *this.prerendered = None;
            return Poll::Ready(Ok(response));
        }
        let mut response = ready!(this.inner.poll(cx))?;
        let Some(payload) = response.extensions_mut().remove::<Payload>() else {
            return Poll::Ready(Ok(response));
        };
        // A `500` is the placeholder's own status unless the handover asks
        // for one; any other was set around the data, and is kept.
        let asked = payload.take();
        if response.status() == StatusCode::INTERNAL_SERVER_ERROR {
            *response.status_mut() = asked.unwrap_or(StatusCode::OK);
        }
        // Only a future polled again after it finished has no decision
        // left; it answers what its inner service does.
        let Some((decision, facts)) = this.decision.take() else {
            return Poll::Ready(Ok(response));
        };
        let data = match payload {
            Payload::Data(data) => data,
            Payload::Rows(rows) => {
                let rows = rows.content.lock().ok().and_then(|mut rows| rows.take());
                return Poll::Ready(Ok(match rows {
                    Some(rows) => finish_stream(this.shared, decision, response, rows, facts),
                    None => response,
                }));
            }
            Payload::Prerendered(bytes) => {
                let render = bytes
                    .content
                    .lock()
                    .ok()
                    .and_then(|mut render| render.take());
                let Some(render) = render else {
                    return Poll::Ready(Ok(response));
                };
                let validator = bytes.validator.as_deref();
                let handover = (render, validator);
                let mut rendering =
                    match finish_prerendered(this.shared, decision, response, handover, facts) {
                        Ok(rendering) => rendering,
                        Err(answer) => return Poll::Ready(Ok(answer)),
                    };
                // Polled now, so a closure whose bytes are ready answers
                // without another wake-up.
                if let Poll::Ready(response) = rendering.as_mut().poll(cx) {
                    return Poll::Ready(Ok(response));
                }
                *this.prerendered = Some(rendering);
                return Poll::Pending;
            }
        };
        let accept = this.accept.take();
        Poll::Ready(Ok(finish(
            this.shared,
            (decision, accept),
            response,
            (&data.content, data.validator.as_deref()),
            facts,
        )))
    }
}

/// The request's `Accept` as one field value: its lines joined with `, `
/// (RFC 9110 §5.3), which is a copy only when there are several.
fn accept_field(lines: &GetAll<'_, HeaderValue>) -> Option<HeaderValue> {
    let mut lines = lines.iter();
    let first = lines.next()?;
    let Some(second) = lines.next() else {
        return Some(first.clone());
    };
    let mut joined = first.as_bytes().to_vec();
    for line in std::iter::once(second).chain(lines) {
        joined.extend_from_slice(b", ");
        joined.extend_from_slice(line.as_bytes());
    }
    HeaderValue::from_bytes(&joined).ok()
}

/// The URI without its format extension, when there is one to strip.
fn strip_extension(negotiator: &Negotiator, uri: &Uri) -> Option<Uri> {
    if !negotiator.path_extension() {
        return None;
    }
    let path = uri.path();
    let stripped = negotiator.strip_format_extension(path);
    if stripped.len() == path.len() {
        return None;
    }
    let path_and_query = match uri.query() {
        Some(query) => format!("{stripped}?{query}"),
        None => stripped.to_owned(),
    };
    let mut parts = uri.clone().into_parts();
    parts.path_and_query = Some(PathAndQuery::try_from(path_and_query).ok()?);
    Uri::from_parts(parts).ok()
}

/// The codec a decision chose, or the response that answers instead: the
/// refusal (406, 400), or a 500 if the choice does not resolve. The error
/// is the response the caller returns as it is: boxing it would only add
/// an allocation to every refusal.
#[allow(clippy::result_large_err)]
fn select(negotiator: &Negotiator, decision: Decision) -> Result<Selection<'_>, Response> {
    let choice = decision.map_err(|refusal| refusal.to_response().map(Body::from))?;
    negotiator.resolve(choice).ok_or_else(|| {
        // Unreachable: the negotiator that decided resolves. Still an
        // answer, never a panic.
        let body = "500 Internal Server Error: the negotiated choice was lost\n".to_owned();
        plain_text(StatusCode::INTERNAL_SERVER_ERROR, body).map(Body::from)
    })
}

/// The response of a handler's data: the negotiated codec's body of it,
/// finished by the one function every negotiated response goes through.
/// Data with a validator that the request already holds is answered
/// `304` unencoded.
fn finish(
    shared: &Shared,
    (decision, accept): (Decision, Option<HeaderValue>),
    response: Response,
    (data, validator): (&dyn Encode, Option<&[u8]>),
    facts: Option<RequestFacts>,
) -> Response {
    let negotiator = &*shared.negotiator;
    let selection = match select(negotiator, decision) {
        Ok(selection) => selection,
        Err(refused) => return refused,
    };
    if let (Some(headers), Some(request), Some(validator)) = (&shared.headers, &facts, validator)
        && let Some(unchanged) =
            headers.unchanged(request, &selection, validator, response.status())
    {
        let (parts, _) = response.into_parts();
        return headers.respond(
            negotiator,
            request,
            &selection,
            unchanged,
            parts,
            Body::empty(),
        );
    }
    let mut body = Vec::with_capacity(shared.body_capacity());
    let encode = |codec: &dyn Codec, out: &mut Vec<u8>| data.encode(codec, out);
    let selection =
        match respond::encode_or_fall_back(negotiator, selection, accept.iter(), encode, &mut body)
        {
            Ok(written) => written,
            Err(error) => return encode_failure(selection.format(), &error).map(Body::from),
        };
    shared.last_body.store(body.len(), Ordering::Relaxed);
    let (parts, _) = response.into_parts();
    match (&shared.headers, facts) {
        (Some(headers), Some(request)) => {
            let representation = match validator {
                Some(validator) => headers.describe_validated(&selection, validator, &body),
                None => headers.describe(&selection, &body),
            };
            headers.respond(
                negotiator,
                &request,
                &selection,
                representation,
                parts,
                Body::from(body),
            )
        }
        _ => respond::build(&selection, parts, Body::from(body), None),
    }
}

/// The response of a handler's rows: the negotiated codec's body of
/// them, streamed, with the headers a streamed body can have (no `ETag`,
/// no token count, no `304`: see [`Representation::streamed`]).
fn finish_stream(
    shared: &Shared,
    decision: Decision,
    response: Response,
    rows: NegotiatedStream,
    facts: Option<RequestFacts>,
) -> Response {
    let negotiator = &*shared.negotiator;
    let selection = match select(negotiator, decision) {
        Ok(selection) => selection,
        Err(refused) => return refused,
    };
    let (parts, _) = response.into_parts();
    let body = Body::new(rows.into_body(Arc::clone(selection.codec())));
    match (&shared.headers, facts) {
        (Some(headers), Some(request)) => headers.respond(
            negotiator,
            &request,
            &selection,
            Representation::streamed(),
            parts,
            body,
        ),
        _ => respond::build(&selection, parts, body, None),
    }
}

/// The response future of a handler's [`Prerendered`] bytes: the
/// closure's bytes, finished by the one function every negotiated
/// response goes through; or the answer at once (the error) when
/// negotiation refuses the request or a validator shows it unchanged.
#[allow(clippy::result_large_err)]
fn finish_prerendered(
    shared: &Arc<Shared>,
    decision: Decision,
    response: Response,
    (render, validator): (Render, Option<&[u8]>),
    facts: Option<RequestFacts>,
) -> Result<Pin<Box<dyn Future<Output = Response> + Send>>, Response> {
    let negotiator = &*shared.negotiator;
    let selection = select(negotiator, decision)?;
    if let (Some(headers), Some(request), Some(validator)) = (&shared.headers, &facts, validator)
        && let Some(unchanged) =
            headers.unchanged(request, &selection, validator, response.status())
    {
        let (parts, _) = response.into_parts();
        return Err(headers.respond(
            negotiator,
            request,
            &selection,
            unchanged,
            parts,
            Body::empty(),
        ));
    }
    let rendering = render(&selection);
    let choice = selection.choice();
    let validator: Option<Box<[u8]>> = validator.map(Into::into);
    let shared = Arc::clone(shared);
    Ok(Box::pin(async move {
        let (bytes, representation) = match rendering.await {
            Ok(rendered) => rendered,
            Err(response) => return response,
        };
        let negotiator = &*shared.negotiator;
        let selection = match select(negotiator, Ok(choice)) {
            Ok(selection) => selection,
            Err(lost) => return lost,
        };
        let (parts, _) = response.into_parts();
        match (&shared.headers, facts) {
            (Some(headers), Some(request)) => {
                let representation = match &validator {
                    Some(validator) => headers.revalidated(&selection, validator, representation),
                    None => representation,
                };
                headers.respond(
                    negotiator,
                    &request,
                    &selection,
                    representation,
                    parts,
                    Body::from(bytes),
                )
            }
            _ => respond::build(&selection, parts, Body::from(bytes), None),
        }
    }))
}

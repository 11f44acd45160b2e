//! actix-web integration (feature `actix`): a handler returns
//! [`Negotiated(data)`](Negotiated) or a [`NegotiatedStream`], and its
//! `Responder` answers with the codec negotiated for the request.
//!
//! actix's `Responder` sees the request, so there is no middleware: the
//! negotiator and the response headers are one [`Negotiation`], shared
//! with `App::app_data`. The answer is the one every negotiated response
//! gets (`Negotiator::respond_with`, [`ResponseHeaders::respond`]), built
//! with the `http` crate and copied into actix's types (actix-web 4 is on
//! `http` 0.2): the few request headers negotiation reads on the way in,
//! the response's status and headers on the way out.

use std::fmt;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::task::{Context, Poll};

use actix_web::body::{BodySize, BoxBody, MessageBody};
use actix_web::http::StatusCode as ActixStatus;
use actix_web::web::{Bytes, Data};
use actix_web::{HttpRequest, HttpResponse, HttpResponseBuilder, Responder};
use codec_core::{Codec, CodecExt};
use http::header::{ACCEPT, IF_NONE_MATCH, USER_AGENT};
use http::{HeaderMap, HeaderValue, Method, Response, StatusCode, Uri};
use serde::Serialize;

use crate::answer::{answer, select};
use crate::headers::{Representation, RequestFacts, ResponseHeaders};
use crate::negotiator::Negotiator;
use crate::respond::build;
use crate::stream::{NegotiatedStream, RowBody, StreamError};

/// What negotiated actix routes share: the negotiator and, optionally,
/// the [`ResponseHeaders`] its answers carry. Register it once with
/// `App::app_data` (as the `web::Data` that [`Negotiation::new`] and
/// [`Negotiation::with_headers`] return, or as a plain `Negotiation`).
///
/// ```
/// use std::sync::Arc;
///
/// use actix_web::{App, web};
/// use negotiate::actix::{Negotiated, Negotiation};
///
/// async fn items() -> Negotiated<Vec<&'static str>> {
///     Negotiated(vec!["apple", "pear"])
/// }
///
/// # fn app(negotiator: Arc<negotiate::Negotiator>) {
/// let negotiation = Negotiation::new(negotiator);
/// let app = App::new()
///     .app_data(negotiation)
///     .route("/items", web::get().to(items));
/// # }
/// ```
#[cfg_attr(docsrs, doc(cfg(feature = "actix")))]
pub struct Negotiation {
    negotiator: Arc<Negotiator>,
    headers: Option<ResponseHeaders>,
    /// The length of the last body written, to size the next one's
    /// buffer, as the axum layer does.
    last_body: AtomicUsize,
}

/// The most a body's buffer starts at: one large body must not make every
/// later small one allocate as much.
const MAX_BODY_CAPACITY: usize = 256 * 1024;

impl Negotiation {
    /// Answers negotiated with `negotiator`, carrying `Content-Type` and
    /// `Vary: Accept`, nothing more.
    pub fn new(negotiator: Arc<Negotiator>) -> Data<Negotiation> {
        Data::new(Negotiation {
            negotiator,
            headers: None,
            last_body: AtomicUsize::new(0),
        })
    }

    /// Answers negotiated with `negotiator` that also carry what `headers`
    /// adds: an `ETag` (and `304 Not Modified` for a matching
    /// `If-None-Match`), `Link` alternates, a token count.
    pub fn with_headers(
        negotiator: Arc<Negotiator>,
        headers: ResponseHeaders,
    ) -> Data<Negotiation> {
        Data::new(Negotiation {
            negotiator,
            headers: Some(headers),
            last_body: AtomicUsize::new(0),
        })
    }

    /// The negotiator.
    pub fn negotiator(&self) -> &Negotiator {
        &self.negotiator
    }

    /// A new body's buffer starts a little above the last body's length.
    fn body_capacity(&self) -> usize {
        let last = self.last_body.load(Ordering::Relaxed);
        (last + last / 8 + 64).min(MAX_BODY_CAPACITY)
    }

    /// The registered negotiation of `request`'s app, or the 500 that
    /// answers without one (logged, naming what to register).
    #[allow(clippy::result_large_err)]
    fn of<'r>(request: &'r HttpRequest, data: &str) -> Result<&'r Negotiation, HttpResponse> {
        if let Some(negotiation) = request.app_data::<Data<Negotiation>>() {
            return Ok(negotiation);
        }
        if let Some(negotiation) = request.app_data::<Negotiation>() {
            return Ok(negotiation);
        }
        tracing::error!(
            data,
            path = request.path(),
            "a handler returned `Negotiated` data but the app has no `Negotiation`: \
             answering 500; register one with `App::app_data(Negotiation::new(negotiator))`"
        );
        Err(HttpResponse::InternalServerError()
            .content_type("text/plain; charset=utf-8")
            .body(MISSING_NEGOTIATION))
    }
}

impl fmt::Debug for Negotiation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Negotiation")
            .field("negotiator", &self.negotiator)
            .field("headers", &self.headers)
            .finish_non_exhaustive()
    }
}

const MISSING_NEGOTIATION: &str = "negotiate: this route returns `Negotiated` data but the app has \
                                   no `Negotiation` in its `app_data`\n";

/// A handler's data, encoded by the codec negotiated for the request: the
/// actix form of the axum `Negotiated`.
///
/// Needs a [`Negotiation`] in the app's `app_data`; without one the route
/// answers `500 Internal Server Error` with a plain-text reminder and logs
/// an error through `tracing`, so a wiring bug never looks like success.
/// A status set around it (`Negotiated(e).customize().with_status(..)`)
/// replaces the `200`.
#[derive(Clone, Copy, Debug, Default)]
#[cfg_attr(docsrs, doc(cfg(feature = "actix")))]
pub struct Negotiated<T>(pub T);

impl<T: Serialize> Negotiated<T> {
    /// The data with its version, as the service knows it (a database
    /// row's version, an updated-at, a content hash it already keeps):
    /// with a [`Negotiation`] whose response headers send an `ETag`, each
    /// representation's strong `ETag` is derived from the validator and
    /// the `Content-Type` instead of hashed from the body, and a `GET` or
    /// `HEAD` whose `If-None-Match` names it is answered `304 Not
    /// Modified` without encoding the data. The axum
    /// `Negotiated::validator`, with the same rules: the `ETag` sent
    /// differs per representation and per validator, and the validator
    /// must change whenever the data does or the service changes how it
    /// encodes it.
    ///
    /// ```
    /// use actix_web::Responder;
    /// use negotiate::actix::Negotiated;
    ///
    /// async fn order() -> impl Responder {
    ///     let (order, version) = (vec!["kettle"], 42u64);
    ///     Negotiated(order).validator(version.to_string())
    /// }
    /// ```
    pub fn validator(self, validator: impl AsRef<[u8]>) -> impl Responder<Body = BoxBody> {
        Validated {
            data: self.0,
            validator: validator.as_ref().into(),
        }
    }
}

/// [`Negotiated`] data with its validator ([`Negotiated::validator`]).
struct Validated<T> {
    data: T,
    validator: Box<[u8]>,
}

impl<T: Serialize> Responder for Validated<T> {
    type Body = BoxBody;

    fn respond_to(self, request: &HttpRequest) -> HttpResponse {
        respond(request, &self.data, Some(&self.validator))
    }
}

impl<T: Serialize> Responder for Negotiated<T> {
    type Body = BoxBody;

    fn respond_to(self, request: &HttpRequest) -> HttpResponse {
        respond(request, &self.0, None)
    }
}

/// The answer to `request` with `data` (and its validator, when the
/// handler supplied one).
fn respond<T: Serialize>(
    request: &HttpRequest,
    data: &T,
    validator: Option<&[u8]>,
) -> HttpResponse {
    let negotiation = match Negotiation::of(request, std::any::type_name::<T>()) {
        Ok(negotiation) => negotiation,
        Err(missing) => return missing,
    };
    let (method, uri, headers) = request_parts(request);
    let encode = |codec: &dyn Codec, out: &mut Vec<u8>| codec.encode(data, out);
    let body = Vec::with_capacity(negotiation.body_capacity());
    let response = answer(
        &negotiation.negotiator,
        negotiation.headers.as_ref(),
        (&method, &uri, &headers),
        StatusCode::OK,
        (encode, validator),
        body,
    );
    if response.status() == StatusCode::OK {
        let length = response.body().len();
        negotiation.last_body.store(length, Ordering::Relaxed);
    }
    let (parts, body) = response.into_parts();
    to_actix(parts.status, &parts.headers).body(body)
}

/// A handler's rows, streamed with the negotiated codec as the client
/// reads them (see [`NegotiatedStream`]); like [`Negotiated`], it needs a
/// [`Negotiation`] in the app's `app_data`.
#[cfg_attr(docsrs, doc(cfg(feature = "actix")))]
impl Responder for NegotiatedStream {
    type Body = BoxBody;

    fn respond_to(self, request: &HttpRequest) -> HttpResponse {
        let negotiation = match Negotiation::of(request, "NegotiatedStream") {
            Ok(negotiation) => negotiation,
            Err(missing) => return missing,
        };
        let negotiator = &*negotiation.negotiator;
        let (method, uri, headers) = request_parts(request);
        let selection = match select(negotiator, &uri, &headers) {
            Ok(selection) => selection,
            Err(refused) => return from_http(refused),
        };
        let (parts, ()) = Response::new(()).into_parts();
        let response = match &negotiation.headers {
            Some(policy) => {
                let facts = RequestFacts::new(&method, &uri, &headers);
                let streamed = Representation::streamed();
                policy.respond(negotiator, &facts, &selection, streamed, parts, ())
            }
            None => build(&selection, parts, (), None),
        };
        let body = Rows(self.into_body(Arc::clone(selection.codec())));
        to_actix(response.status(), response.headers()).body(body)
    }
}

/// The request's method, URI and the headers negotiation and the response
/// headers read (`Accept`, `User-Agent`, `If-None-Match`), as `http` 1
/// types.
fn request_parts(request: &HttpRequest) -> (Method, Uri, HeaderMap) {
    let method = Method::from_bytes(request.method().as_str().as_bytes()).unwrap_or(Method::GET);
    let target = request.uri().path_and_query().map_or("/", |pq| pq.as_str());
    let uri = Uri::try_from(target).unwrap_or_else(|_| Uri::from_static("/"));
    let mut headers = HeaderMap::new();
    for name in [ACCEPT, USER_AGENT, IF_NONE_MATCH] {
        for value in request.headers().get_all(name.as_str()) {
            if let Ok(value) = HeaderValue::from_bytes(value.as_bytes()) {
                headers.append(name.clone(), value);
            }
        }
    }
    (method, uri, headers)
}

/// A response builder with this status and these headers, in actix's
/// types.
fn to_actix(status: StatusCode, headers: &HeaderMap) -> HttpResponseBuilder {
    let status = ActixStatus::from_u16(status.as_u16()).unwrap_or(ActixStatus::OK);
    let mut builder = HttpResponse::build(status);
    for (name, value) in headers {
        builder.append_header((name.as_str(), value.as_bytes()));
    }
    builder
}

/// An `http` response (a refusal) as an actix one.
fn from_http(response: Response<Vec<u8>>) -> HttpResponse {
    let (parts, body) = response.into_parts();
    to_actix(parts.status, &parts.headers).body(body)
}

/// A [`RowBody`] as an actix body: its data frames, in order.
struct Rows(RowBody);

impl MessageBody for Rows {
    type Error = StreamError;

    fn size(&self) -> BodySize {
        BodySize::Stream
    }

    fn poll_next(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Bytes, StreamError>>> {
        let body = &mut self.get_mut().0;
        loop {
            let frame = match http_body::Body::poll_frame(Pin::new(&mut *body), cx) {
                Poll::Pending => return Poll::Pending,
                Poll::Ready(None) => return Poll::Ready(None),
                Poll::Ready(Some(Err(error))) => return Poll::Ready(Some(Err(error))),
                Poll::Ready(Some(Ok(frame))) => frame,
            };
            // A row body sends data frames only; anything else is skipped.
            if let Ok(data) = frame.into_data() {
                return Poll::Ready(Some(Ok(data)));
            }
        }
    }
}

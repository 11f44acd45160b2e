//! Responses with the `http` crate (feature `http`): negotiation from a
//! request's URI and headers, and the 200 answer with the chosen codec's
//! body and `Content-Type` (refusals answer in `refusal.rs`).

use http::header::{
    ACCEPT, CONTENT_LENGTH, CONTENT_TYPE, GetAll, HeaderMap, HeaderValue, USER_AGENT,
};
use http::response::Parts;
use http::{Request, Response, StatusCode, Uri};
use serde::Serialize;

use codec_core::{Codec, CodecExt, EncodeError};

use crate::headers::{Representation, RequestFacts, ResponseHeaders};
use crate::negotiator::Negotiator;
use crate::outcome::{Outcome, Selection, Source};
use crate::refusal::{UnknownFormat, encode_failure};
use crate::vary::vary_on;

#[cfg_attr(docsrs, doc(cfg(feature = "http")))]
impl Negotiator {
    /// Negotiates from the request's `Accept` lines only.
    pub fn negotiate_headers(&self, headers: &HeaderMap) -> Outcome<'_> {
        self.negotiate(headers.get_all(ACCEPT))
    }

    /// Negotiates from the request's URI (the overrides), `Accept` lines
    /// and `User-Agent` (for the agent policy, when it is on); see
    /// [`Negotiator::negotiate_agent`].
    ///
    /// # Errors
    ///
    /// [`UnknownFormat`] when the format query parameter names no codec.
    pub fn negotiate_request(
        &self,
        uri: &Uri,
        headers: &HeaderMap,
    ) -> Result<Outcome<'_>, UnknownFormat> {
        self.negotiate_request_accepting(uri, headers, &headers.get_all(ACCEPT))
    }

    /// [`Negotiator::negotiate_request`] with the request's `Accept`
    /// lines already looked up, for a caller that reads them again.
    pub(crate) fn negotiate_request_accepting(
        &self,
        uri: &Uri,
        headers: &HeaderMap,
        accept: &GetAll<'_, HeaderValue>,
    ) -> Result<Outcome<'_>, UnknownFormat> {
        let target = uri.path_and_query().map_or("/", |pq| pq.as_str());
        // Looked up only when the agent policy would read it.
        let user_agent = self
            .reads_user_agent()
            .then(|| headers.get(USER_AGENT).map(HeaderValue::as_bytes))
            .flatten();
        self.negotiate_agent(accept, target, user_agent)
    }

    /// The whole response for `value` to a request with this URI and
    /// these headers: 200 with the negotiated body and `Content-Type`, 406
    /// listing what is available, 400 for an unknown `?format=`. When the
    /// negotiated codec cannot encode the value, the next codec the
    /// request's `Accept` ranks writes it (logged through `tracing`), and
    /// only when none can, 500. Every answer carries `Vary: Accept`.
    ///
    /// ```
    /// # use std::sync::Arc;
    /// # use codec_core::{Codec, EncodeError, MediaType, Value};
    /// # struct Debug(MediaType);
    /// # impl Codec for Debug {
    /// #     fn format(&self) -> &str { "debug" }
    /// #     fn media_type(&self) -> &MediaType { &self.0 }
    /// #     fn encode_value(&self, v: &Value, out: &mut Vec<u8>) -> Result<(), EncodeError> {
    /// #         out.extend_from_slice(format!("{v:?}").as_bytes()); Ok(())
    /// #     }
    /// # }
    /// use http::header::{ACCEPT, CONTENT_TYPE, VARY};
    /// use negotiate::Negotiator;
    ///
    /// let negotiator = Negotiator::builder()
    ///     .codec(Arc::new(Debug(MediaType::from_static("text/plain"))))
    ///     .build()
    ///     .unwrap();
    /// let request = http::Request::get("/n").header(ACCEPT, "text/*").body(()).unwrap();
    /// let response = negotiator.respond_to(&request, "hi");
    /// assert_eq!(response.status(), 200);
    /// assert_eq!(response.headers()[CONTENT_TYPE], "text/plain; charset=utf-8");
    /// assert_eq!(response.headers()[VARY], "Accept");
    /// assert_eq!(response.body(), br#"String("hi")"#);
    ///
    /// let request = http::Request::get("/n").header(ACCEPT, "image/*").body(()).unwrap();
    /// assert_eq!(negotiator.respond_to(&request, "hi").status(), 406);
    /// ```
    pub fn respond<T: Serialize + ?Sized>(
        &self,
        uri: &Uri,
        headers: &HeaderMap,
        value: &T,
    ) -> Response<Vec<u8>> {
        let selection = match self.negotiate_request(uri, headers) {
            Err(unknown) => return unknown.to_response(),
            Ok(outcome) => match outcome.into_result() {
                Ok(selection) => selection,
                Err(not_acceptable) => return not_acceptable.to_response(),
            },
        };
        let mut body = Vec::new();
        let accept = headers.get_all(ACCEPT);
        let encode = |codec: &dyn Codec, out: &mut Vec<u8>| codec.encode(value, out);
        match encode_or_fall_back(self, selection, accept, encode, &mut body) {
            Ok(selection) => selection.response(body),
            Err(error) => encode_failure(selection.format(), &error),
        }
    }

    /// [`Negotiator::respond`] for a request.
    pub fn respond_to<B, T: Serialize + ?Sized>(
        &self,
        request: &Request<B>,
        value: &T,
    ) -> Response<Vec<u8>> {
        self.respond(request.uri(), request.headers(), value)
    }
}

#[cfg_attr(docsrs, doc(cfg(feature = "http")))]
impl Selection<'_> {
    /// The `Content-Type` header value, computed when the negotiator was
    /// built.
    pub fn content_type_header(&self) -> HeaderValue {
        self.offer().header.clone()
    }

    /// Sets `Content-Type` and adds `Accept` to `Vary` on a response's
    /// headers (and `User-Agent`, when the negotiator's agent policy is
    /// on: see [`Selection::varies_on`]).
    pub fn apply_headers(&self, headers: &mut HeaderMap) {
        headers.insert(CONTENT_TYPE, self.content_type_header());
        for field in self.varies_on() {
            vary_on(headers, field);
        }
    }

    /// A 200 response with `value` encoded by the chosen codec, or 500
    /// (plain text, naming the codec and the error) when it cannot be
    /// encoded.
    pub fn respond<T: Serialize + ?Sized>(&self, value: &T) -> Response<Vec<u8>> {
        let mut body = Vec::new();
        match self.codec().encode(value, &mut body) {
            Ok(()) => self.response(body),
            Err(error) => encode_failure(self.format(), &error),
        }
    }

    /// A 200 response with `body`, already encoded by the chosen codec.
    pub(crate) fn response(&self, body: Vec<u8>) -> Response<Vec<u8>> {
        let (parts, ()) = Response::new(()).into_parts();
        build(self, parts, body, None)
    }
}

/// Writes the value into `body` with `selection`'s codec; when that codec
/// refuses it, with the next codec the request's `accept` lines rank,
/// each in turn, logging the refusal. Returns the selection whose codec
/// wrote `body`, or the first codec's error when none could. A format the
/// request named (`?format=`, a path extension) is not replaced: the
/// client asked for that one.
pub(crate) fn encode_or_fall_back<'n, 'h, I, V>(
    negotiator: &'n Negotiator,
    selection: Selection<'n>,
    accept: I,
    mut encode: impl FnMut(&dyn Codec, &mut Vec<u8>) -> Result<(), EncodeError>,
    body: &mut Vec<u8>,
) -> Result<Selection<'n>, EncodeError>
where
    I: IntoIterator<Item = &'h V>,
    V: AsRef<[u8]> + ?Sized + 'h,
{
    let error = match encode(&**selection.codec(), body) {
        Ok(()) => return Ok(selection),
        Err(error) => error,
    };
    if matches!(
        selection.source(),
        Source::QueryParam | Source::PathExtension
    ) {
        return Err(error);
    }
    let refused = selection.format();
    // A codec may be offered under several media types (markdown as
    // `text/plain` too): each is tried once.
    let mut tried = vec![refused];
    for fallback in negotiator.ranked(accept) {
        if tried.contains(&fallback.format()) {
            continue;
        }
        tried.push(fallback.format());
        body.clear();
        if encode(&**fallback.codec(), body).is_ok() {
            tracing::warn!(
                refused,
                served = fallback.format(),
                %error,
                "the negotiated codec cannot encode this response: \
                 answering with the next format the request accepts"
            );
            return Ok(fallback);
        }
    }
    body.clear();
    Err(error)
}

/// What a [`ResponseHeaders`] policy adds to a response, with what it
/// reads: the negotiator (for the `Link` alternates), the request and the
/// body's [`Representation`], owned so that its `ETag` moves into the
/// response.
pub(crate) struct Policy<'a> {
    pub(crate) headers: &'a ResponseHeaders,
    pub(crate) negotiator: &'a Negotiator,
    pub(crate) request: &'a RequestFacts,
    pub(crate) representation: Representation,
}

/// The response of `selection` with `body`, written by its codec: every
/// negotiated response is finished here, buffered or streamed, by the axum
/// layer, [`Selection::respond`] and [`ResponseHeaders::respond`] (which
/// `codec serve` calls for a document it streams, within the layer).
///
/// `parts` are what the handler set (a status, headers) or a new `200`.
/// Their `Content-Length` is dropped, as it described another body;
/// `Content-Type` and `Vary` are set ([`Selection::apply_headers`]), then
/// the policy's headers when there is one. A `304 Not Modified` gets an
/// empty body.
pub(crate) fn build<B: Default>(
    selection: &Selection<'_>,
    mut parts: Parts,
    body: B,
    policy: Option<Policy<'_>>,
) -> Response<B> {
    parts.headers.remove(CONTENT_LENGTH);
    selection.apply_headers(&mut parts.headers);
    if let Some(policy) = policy {
        policy.headers.apply(
            policy.negotiator,
            policy.request,
            selection,
            policy.representation,
            &mut parts,
        );
    }
    let body = if parts.status == StatusCode::NOT_MODIFIED {
        B::default()
    } else {
        body
    };
    Response::from_parts(parts, body)
}

impl ResponseHeaders {
    /// The whole response of `selection` with `body`, its codec's
    /// encoding, described by `representation`
    /// ([`Representation::streamed`] for a body written as it is sent):
    /// `parts` (a handler's status and headers, or a new `200`) without
    /// their `Content-Length`, with `Content-Type` and `Vary`
    /// ([`Selection::apply_headers`]) and this policy's headers
    /// ([`ResponseHeaders::apply`]); a `304 Not Modified` gets an empty
    /// body. The axum layer finishes its responses with the same code.
    /// The representation's `ETag` moves into the response, as in
    /// [`ResponseHeaders::apply`].
    pub fn respond<B: Default>(
        &self,
        negotiator: &Negotiator,
        request: &RequestFacts,
        selection: &Selection<'_>,
        representation: Representation,
        parts: Parts,
        body: B,
    ) -> http::Response<B> {
        let policy = Policy {
            headers: self,
            negotiator,
            request,
            representation,
        };
        build(selection, parts, body, Some(policy))
    }
}

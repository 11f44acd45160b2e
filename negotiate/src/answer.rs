//! The whole negotiated answer to one request (feature `http`), for a
//! server that is not axum (plain hyper, actix-web): negotiation, the
//! codec's body (with the fall-back to the next accepted codec), the
//! refusals, and [`ResponseHeaders::respond`], the function that finishes
//! every negotiated response.

use codec_core::{Codec, CodecExt, EncodeError};
use http::header::ACCEPT;
use http::{HeaderMap, Method, Request, Response, StatusCode, Uri};
use serde::Serialize;

use crate::headers::{RequestFacts, ResponseHeaders};
use crate::negotiator::Negotiator;
use crate::outcome::Selection;
use crate::refusal::encode_failure;
use crate::respond::{build, encode_or_fall_back};

#[cfg_attr(docsrs, doc(cfg(feature = "http")))]
impl Negotiator {
    /// [`Negotiator::respond`] with what `policy` adds: an `ETag` (and
    /// `304 Not Modified` for a `GET` or `HEAD` whose `If-None-Match`
    /// names it), `Link` alternates, a token count. The answer of a
    /// server that calls the negotiator itself (plain hyper, a tower
    /// service), with the headers the axum layer sends. `status` is the
    /// answer's when negotiation succeeds (a `404` of negotiated data, say);
    /// a refusal has its own.
    ///
    /// ```
    /// # use std::sync::Arc;
    /// # use codec_core::{Codec, EncodeError, MediaType, Value};
    /// # struct Debug(MediaType);
    /// # impl Codec for Debug {
    /// #     fn format(&self) -> &str { "md" }
    /// #     fn media_type(&self) -> &MediaType { &self.0 }
    /// #     fn encode_value(&self, v: &Value, out: &mut Vec<u8>) -> Result<(), EncodeError> {
    /// #         out.extend_from_slice(format!("{v:?}").as_bytes()); Ok(())
    /// #     }
    /// # }
    /// use http::StatusCode;
    /// use http::header::{ETAG, IF_NONE_MATCH};
    /// use negotiate::{Negotiator, ResponseHeaders};
    ///
    /// let negotiator = Negotiator::builder()
    ///     .codec(Arc::new(Debug(MediaType::from_static("text/markdown"))))
    ///     .build()
    ///     .unwrap();
    /// let policy = ResponseHeaders::builder().build();
    /// let request = http::Request::get("/n").body(()).unwrap();
    /// let (method, uri, headers) = (request.method(), request.uri(), request.headers());
    /// let response = negotiator.respond_with(&policy, method, uri, headers, StatusCode::OK, "hi");
    /// assert_eq!(response.status(), 200);
    ///
    /// let etag = response.headers()[ETAG].clone();
    /// let again = http::Request::get("/n").header(IF_NONE_MATCH, etag).body(()).unwrap();
    /// let (method, uri, headers) = (again.method(), again.uri(), again.headers());
    /// let response = negotiator.respond_with(&policy, method, uri, headers, StatusCode::OK, "hi");
    /// assert_eq!(response.status(), 304);
    /// ```
    pub fn respond_with<T: Serialize + ?Sized>(
        &self,
        policy: &ResponseHeaders,
        method: &Method,
        uri: &Uri,
        headers: &HeaderMap,
        status: StatusCode,
        value: &T,
    ) -> Response<Vec<u8>> {
        let encode = |codec: &dyn Codec, out: &mut Vec<u8>| codec.encode(value, out);
        let request = (method, uri, headers);
        let data = (encode, None);
        answer(self, Some(policy), request, status, data, Vec::new())
    }

    /// [`Negotiator::respond_with`] for data whose version the service
    /// knows (a row's version, an updated-at, a content hash it keeps),
    /// as axum's and actix's `Negotiated(data).validator(version)`: when
    /// `policy` sends an `ETag`, it is derived from `validator` and the
    /// `Content-Type` instead of the body's hash, and a `GET` or `HEAD`
    /// that holds it is answered `304 Not Modified` before the data is
    /// encoded. The validator must change whenever the data, or the way
    /// the service encodes it, does (see
    /// [`ResponseHeaders::describe_validated`]).
    ///
    /// ```
    /// # use std::sync::Arc;
    /// # use codec_core::{Codec, EncodeError, MediaType, Value};
    /// # struct Debug(MediaType);
    /// # impl Codec for Debug {
    /// #     fn format(&self) -> &str { "md" }
    /// #     fn media_type(&self) -> &MediaType { &self.0 }
    /// #     fn encode_value(&self, v: &Value, out: &mut Vec<u8>) -> Result<(), EncodeError> {
    /// #         out.extend_from_slice(format!("{v:?}").as_bytes()); Ok(())
    /// #     }
    /// # }
    /// use http::StatusCode;
    /// use http::header::{ETAG, IF_NONE_MATCH};
    /// use negotiate::{Negotiator, ResponseHeaders};
    ///
    /// let negotiator = Negotiator::builder()
    ///     .codec(Arc::new(Debug(MediaType::from_static("text/markdown"))))
    ///     .build()
    ///     .unwrap();
    /// let policy = ResponseHeaders::builder().build();
    /// let request = http::Request::get("/orders/7").body(()).unwrap();
    /// let response = negotiator.respond_validated(&policy, &request, StatusCode::OK, "hi", b"v42");
    /// assert_eq!(response.status(), 200);
    ///
    /// let etag = response.headers()[ETAG].clone();
    /// let again = http::Request::get("/orders/7").header(IF_NONE_MATCH, etag).body(()).unwrap();
    /// let response = negotiator.respond_validated(&policy, &again, StatusCode::OK, "hi", b"v42");
    /// assert_eq!(response.status(), 304);
    /// assert!(response.body().is_empty());
    /// ```
    pub fn respond_validated<B, T: Serialize + ?Sized>(
        &self,
        policy: &ResponseHeaders,
        request: &Request<B>,
        status: StatusCode,
        value: &T,
        validator: &[u8],
    ) -> Response<Vec<u8>> {
        let encode = |codec: &dyn Codec, out: &mut Vec<u8>| codec.encode(value, out);
        let request = (request.method(), request.uri(), request.headers());
        let data = (encode, Some(validator));
        answer(self, Some(policy), request, status, data, Vec::new())
    }
}

/// The answer to a request (`method`, `uri`, `headers`) for data that
/// `encode` writes, into `body` (empty, its capacity chosen by the
/// caller): the refusal (406, 400) when negotiation fails, the 500 when
/// no accepted codec can write the data, else the `status` answer
/// finished by
/// [`ResponseHeaders::respond`] when there is a policy. Data with a
/// `validator` (its version, as the service knows it) gets the `ETag`
/// derived from it, and a `304` unencoded when the request holds that.
pub(crate) fn answer(
    negotiator: &Negotiator,
    policy: Option<&ResponseHeaders>,
    (method, uri, headers): (&Method, &Uri, &HeaderMap),
    status: StatusCode,
    (encode, validator): (
        impl FnMut(&dyn Codec, &mut Vec<u8>) -> Result<(), EncodeError>,
        Option<&[u8]>,
    ),
    mut body: Vec<u8>,
) -> Response<Vec<u8>> {
    let selection = match select(negotiator, uri, headers) {
        Ok(selection) => selection,
        Err(refused) => return refused,
    };
    let (mut parts, ()) = Response::new(()).into_parts();
    parts.status = status;
    // What the policy reads of the request, taken once.
    let request = policy.map(|_| RequestFacts::new(method, uri, headers));
    if let (Some(policy), Some(request), Some(validator)) = (policy, &request, validator)
        && let Some(unchanged) = policy.unchanged(request, &selection, validator, status)
    {
        let body = Vec::new();
        return policy.respond(negotiator, request, &selection, unchanged, parts, body);
    }
    let accept = headers.get_all(ACCEPT);
    let selection = match encode_or_fall_back(negotiator, selection, accept, encode, &mut body) {
        Ok(written) => written,
        Err(error) => return encode_failure(selection.format(), &error),
    };
    match (policy, request) {
        (Some(policy), Some(request)) => {
            let representation = match validator {
                Some(validator) => policy.describe_validated(&selection, validator, &body),
                None => policy.describe(&selection, &body),
            };
            policy.respond(
                negotiator,
                &request,
                &selection,
                representation,
                parts,
                body,
            )
        }
        _ => build(&selection, parts, body, None),
    }
}

/// The codec negotiated for a request, or the refusal that answers it: 400
/// for an unknown `?format=`, 406 listing what is available.
#[allow(clippy::result_large_err)]
pub(crate) fn select<'n>(
    negotiator: &'n Negotiator,
    uri: &Uri,
    headers: &HeaderMap,
) -> Result<Selection<'n>, Response<Vec<u8>>> {
    match negotiator.negotiate_request(uri, headers) {
        Err(unknown) => Err(unknown.to_response()),
        Ok(outcome) => outcome
            .into_result()
            .map_err(|refusal| refusal.to_response()),
    }
}

//! Responses with the `http` crate (feature `http`): `Content-Type` from
//! the chosen codec, `Vary: Accept` on every answer, and the 400 and 406
//! bodies.

use http::header::{HeaderMap, HeaderValue, ACCEPT, CONTENT_TYPE, VARY, X_CONTENT_TYPE_OPTIONS};
use http::{Request, Response, StatusCode, Uri};
use serde::Serialize;

use codec_core::{CodecExt, EncodeError};

use crate::{Negotiator, NotAcceptable, Outcome, Selection, UnknownFormat};

impl Negotiator {
    /// Negotiates from the request's `Accept` lines only.
    pub fn negotiate_headers(&self, headers: &HeaderMap) -> Outcome<'_> {
        self.negotiate(headers.get_all(ACCEPT))
    }

    /// Negotiates from the request's URI (the overrides) and `Accept`
    /// lines; see [`Negotiator::negotiate_target`].
    ///
    /// # Errors
    ///
    /// [`UnknownFormat`] when the format query parameter names no codec.
    pub fn negotiate_request(
        &self,
        uri: &Uri,
        headers: &HeaderMap,
    ) -> Result<Outcome<'_>, UnknownFormat> {
        let target = uri.path_and_query().map_or("/", |pq| pq.as_str());
        self.negotiate_target(headers.get_all(ACCEPT), target)
    }

    /// The whole response for `value` to a request with this URI and
    /// these headers: 200 with the negotiated body and `Content-Type`, 406
    /// listing what is available, 400 for an unknown `?format=`, or 500
    /// when the codec cannot encode the value. Every answer carries
    /// `Vary: Accept`.
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
        match self.negotiate_request(uri, headers) {
            Err(unknown) => unknown.to_response(),
            Ok(outcome) => match outcome.into_result() {
                Ok(selection) => selection.respond(value),
                Err(not_acceptable) => not_acceptable.to_response(),
            },
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

impl Selection<'_> {
    /// The `Content-Type` header value, computed when the negotiator was
    /// built.
    pub fn content_type_header(&self) -> HeaderValue {
        self.negotiator().offer(self.offer_index()).header.clone()
    }

    /// Sets `Content-Type` and adds `Accept` to `Vary` on a response's
    /// headers.
    pub fn apply_headers(&self, headers: &mut HeaderMap) {
        headers.insert(CONTENT_TYPE, self.content_type_header());
        vary_accept(headers);
    }

    /// A 200 response with `value` encoded by the chosen codec, or 500
    /// (plain text, naming the codec and the error) when it cannot be
    /// encoded.
    pub fn respond<T: Serialize + ?Sized>(&self, value: &T) -> Response<Vec<u8>> {
        let mut body = Vec::new();
        match self.codec().encode(value, &mut body) {
            Ok(()) => {
                let mut response = Response::new(body);
                self.apply_headers(response.headers_mut());
                response
            }
            Err(error) => self.encode_error_response(&error),
        }
    }

    pub(crate) fn encode_error_response(&self, error: &EncodeError) -> Response<Vec<u8>> {
        plain_text(
            StatusCode::INTERNAL_SERVER_ERROR,
            format!(
                "500 Internal Server Error: cannot encode the response as {}: {error}\n",
                self.format()
            ),
        )
    }
}

impl NotAcceptable<'_> {
    /// The 406 response: [`NotAcceptable::body`] as plain text, with
    /// `Vary: Accept`.
    pub fn to_response(&self) -> Response<Vec<u8>> {
        plain_text(StatusCode::NOT_ACCEPTABLE, self.body())
    }
}

impl UnknownFormat {
    /// The 400 response: the message, listing the valid formats, as plain
    /// text, with `Vary: Accept`.
    pub fn to_response(&self) -> Response<Vec<u8>> {
        plain_text(
            StatusCode::BAD_REQUEST,
            format!("400 Bad Request: {self}\n"),
        )
    }
}

/// An error answer. `nosniff` because the body may echo request input.
fn plain_text(status: StatusCode, body: String) -> Response<Vec<u8>> {
    let mut response = Response::new(body.into_bytes());
    *response.status_mut() = status;
    let headers = response.headers_mut();
    headers.insert(
        CONTENT_TYPE,
        HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    headers.insert(X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    vary_accept(headers);
    response
}

/// Adds `Accept` to a response's `Vary`: inserted when there is none,
/// merged into the existing value(s) otherwise (several `Vary` lines
/// become one), left alone when `Accept` (any case) or `*` is already
/// listed. Never duplicates.
///
/// ```
/// use http::header::{HeaderMap, HeaderValue, VARY};
///
/// let mut headers = HeaderMap::new();
/// headers.insert(VARY, HeaderValue::from_static("Accept-Encoding"));
/// negotiate::vary_accept(&mut headers);
/// negotiate::vary_accept(&mut headers);
/// assert_eq!(headers[VARY], "Accept-Encoding, Accept");
/// ```
pub fn vary_accept(headers: &mut HeaderMap) {
    let mut lines = 0;
    for value in headers.get_all(VARY) {
        lines += 1;
        let listed = value.as_bytes().split(|&b| b == b',').any(|item| {
            let item = item.trim_ascii();
            item == b"*" || item.eq_ignore_ascii_case(b"accept")
        });
        if listed {
            return;
        }
    }
    if lines == 0 {
        headers.insert(VARY, HeaderValue::from_static("Accept"));
        return;
    }
    let mut merged = Vec::new();
    for value in headers.get_all(VARY) {
        let value = value.as_bytes().trim_ascii();
        if !value.is_empty() {
            merged.extend_from_slice(value);
            merged.extend_from_slice(b", ");
        }
    }
    merged.extend_from_slice(b"Accept");
    // Made of valid header values joined by ", ": still valid.
    if let Ok(value) = HeaderValue::from_bytes(&merged) {
        headers.insert(VARY, value);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn merges_vary() {
        let cases: &[(&[&str], &str)] = &[
            (&[], "Accept"),
            (&["Accept"], "Accept"),
            (&["accept"], "accept"),
            (&["*"], "*"),
            (&["Origin"], "Origin, Accept"),
            (&["Origin, ACCEPT"], "Origin, ACCEPT"),
            (
                &["Origin", "Accept-Encoding"],
                "Origin, Accept-Encoding, Accept",
            ),
            (&["Origin", "accept"], "Origin|accept"),
            (&["Accept-Language"], "Accept-Language, Accept"),
            (&[""], "Accept"),
        ];
        for (existing, expected) in cases {
            let mut headers = HeaderMap::new();
            for value in *existing {
                headers.append(VARY, HeaderValue::from_str(value).unwrap());
            }
            vary_accept(&mut headers);
            let got: Vec<&str> = headers
                .get_all(VARY)
                .iter()
                .map(|v| v.to_str().unwrap())
                .collect();
            assert_eq!(got.join("|"), *expected, "{existing:?}");
        }
    }
}

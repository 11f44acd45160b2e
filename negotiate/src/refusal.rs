//! Why a request gets no negotiated body, and the one place that says so
//! in HTTP: [`NotAcceptable`] (406) and [`UnknownFormat`] (400), their
//! texts, and (feature `http`) their responses and the plain-text shape
//! of every error answer this crate writes.
//!
//! Both refusals are owned and `'static`, like axum's rejections: a
//! decision made before a handler runs can be answered after its `await`,
//! and either can be kept as the `source` of another error.

use std::fmt;
use std::sync::Arc;

use codec_core::MediaType;

/// What a 406 lists, computed once when the negotiator is built and shared
/// by every refusal it makes (cloning one is a reference count, never an
/// allocation: negotiation stays allocation-free).
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Available {
    media_types: Vec<MediaType>,
    formats: Vec<String>,
    /// The plain-text 406 body.
    body: String,
}

impl Available {
    /// The media types and format names available, and the name of the
    /// override query parameter, if any.
    pub(crate) fn new(
        media_types: Vec<MediaType>,
        formats: Vec<String>,
        format_param: Option<&str>,
    ) -> Available {
        let mut body = String::from(
            "406 Not Acceptable: no available media type matches the Accept header.\n",
        );
        body.push_str("Available media types:\n");
        for media_type in &media_types {
            body.push_str("  ");
            body.push_str(media_type.as_str());
            body.push('\n');
        }
        match format_param {
            Some(param) => body.push_str(&format!("Available formats (?{param}=NAME): ")),
            None => body.push_str("Available formats: "),
        }
        body.push_str(&formats.join(", "));
        body.push('\n');
        Available {
            media_types,
            formats,
            body,
        }
    }
}

/// Nothing offered is acceptable to the client: the 406 answer, with what
/// is available instead.
#[derive(Clone, PartialEq, Eq)]
pub struct NotAcceptable {
    available: Arc<Available>,
}

impl NotAcceptable {
    pub(crate) fn new(available: &Arc<Available>) -> NotAcceptable {
        NotAcceptable {
            available: Arc::clone(available),
        }
    }

    /// The media types that are available.
    pub fn media_types(&self) -> impl ExactSizeIterator<Item = &MediaType> {
        self.available.media_types.iter()
    }

    /// The format names that are available.
    pub fn formats(&self) -> impl ExactSizeIterator<Item = &str> {
        self.available.formats.iter().map(String::as_str)
    }

    /// A plain-text 406 body for people and agents: the available media
    /// types, then the format names and how to ask for one.
    ///
    /// ```text
    /// 406 Not Acceptable: no available media type matches the Accept header.
    /// Available media types:
    ///   application/json
    ///   text/markdown; charset=utf-8; variant=GFM
    /// Available formats (?format=NAME): json, md
    /// ```
    pub fn body(&self) -> String {
        self.available.body.clone()
    }
}

impl fmt::Display for NotAcceptable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("no available media type is acceptable (available: ")?;
        for (i, media_type) in self.media_types().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            f.write_str(media_type.as_str())?;
        }
        f.write_str(")")
    }
}

impl fmt::Debug for NotAcceptable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("NotAcceptable")
            .field(
                "media_types",
                &self
                    .media_types()
                    .map(MediaType::as_str)
                    .collect::<Vec<_>>(),
            )
            .finish()
    }
}

impl std::error::Error for NotAcceptable {}

/// The format query parameter names no registered format: a client
/// error (400), listing the valid names.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown format {value:?} in `?{param}=`; valid formats: {}", valid.join(", "))]
#[non_exhaustive]
pub struct UnknownFormat {
    /// The query parameter's name.
    pub param: String,
    /// The value given.
    pub value: String,
    /// The registered format names, in the server's order.
    pub valid: Vec<String>,
}

/// Either refusal, as a decision carried across an `await`.
#[cfg(feature = "axum")]
#[derive(Debug)]
pub(crate) enum Refusal {
    NotAcceptable(NotAcceptable),
    UnknownFormat(UnknownFormat),
}

#[cfg(feature = "http")]
mod answers {
    use codec_core::EncodeError;
    use http::header::{CONTENT_TYPE, HeaderValue, X_CONTENT_TYPE_OPTIONS};
    use http::{Response, StatusCode};

    use super::{NotAcceptable, UnknownFormat};
    use crate::vary::vary_accept;

    #[cfg_attr(docsrs, doc(cfg(feature = "http")))]
    impl NotAcceptable {
        /// The 406 response: [`NotAcceptable::body`] as plain text, with
        /// `Vary: Accept`.
        pub fn to_response(&self) -> Response<Vec<u8>> {
            plain_text(StatusCode::NOT_ACCEPTABLE, self.available.body.clone())
        }
    }

    #[cfg_attr(docsrs, doc(cfg(feature = "http")))]
    impl UnknownFormat {
        /// The 400 response: the message, listing the valid formats, as
        /// plain text, with `Vary: Accept`.
        pub fn to_response(&self) -> Response<Vec<u8>> {
            plain_text(
                StatusCode::BAD_REQUEST,
                format!("400 Bad Request: {self}\n"),
            )
        }
    }

    #[cfg(feature = "axum")]
    impl super::Refusal {
        /// The 406 or 400 response.
        pub(crate) fn to_response(&self) -> Response<Vec<u8>> {
            match self {
                super::Refusal::NotAcceptable(refusal) => refusal.to_response(),
                super::Refusal::UnknownFormat(refusal) => refusal.to_response(),
            }
        }
    }

    /// The 500 answer when the chosen codec (format name `format`) cannot
    /// encode the value.
    pub(crate) fn encode_failure(format: &str, error: &EncodeError) -> Response<Vec<u8>> {
        plain_text(
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("500 Internal Server Error: cannot encode the response as {format}: {error}\n"),
        )
    }

    /// An error answer: plain text with `Vary: Accept`; `nosniff` because
    /// the body may echo request input.
    pub(crate) fn plain_text(status: StatusCode, body: String) -> Response<Vec<u8>> {
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
}

#[cfg(feature = "http")]
pub(crate) use answers::encode_failure;
#[cfg(feature = "axum")]
pub(crate) use answers::plain_text;

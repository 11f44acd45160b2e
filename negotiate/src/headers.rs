//! What a negotiated response carries besides its body (feature `http`):
//! [`ResponseHeaders`], the policy; [`Representation`], what a body's
//! bytes say about it (its `ETag`, its token count); [`RequestFacts`],
//! what of a request the headers depend on.
//!
//! - **`ETag`** (on by default): a strong validator per representation,
//!   and `304 Not Modified` for a `GET` or `HEAD` whose `If-None-Match`
//!   names it (RFC 9110 §13.1.2's weak comparison, as that field
//!   requires, or `*`).
//! - **`Link` alternates** (markdown and JSON by default): `<…?format=md>;
//!   rel="alternate"; type="text/markdown"` for every listed format but
//!   the response's own, so an agent that follows alternates rather than
//!   sending `Accept` finds the markdown.
//! - **A token count** (off unless given a counter): Cloudflare's
//!   `x-markdown-tokens` header on markdown responses, the count of a
//!   [`TokenCounter`], which is exact by its contract (never an
//!   estimate).
//!
//! The axum layer ([`NegotiateLayer::with_headers`]) and any other server
//! call the same two methods: `describe` once per body, `apply` per
//! response. A server that keeps rendered bodies keeps each one's
//! `Representation` too, and may hand both to the layer as a
//! `Prerendered` (feature `axum`), as the `codec serve` command does.
//!
//! [`NegotiateLayer::with_headers`]: crate::NegotiateLayer::with_headers
//!
//! The `ETag` is the first 128 bits of the BLAKE3 hash of the body and
//! the `Content-Type`, in hex. A cryptographic hash and not a
//! merely fast one because a body holds data that clients may write
//! (names, comments): with a non-cryptographic hash (FNV, xxHash), one
//! could craft a second body with the same validator and make a cache
//! keep serving the first; 128 bits of BLAKE3 leave no such collision
//! within reach. BLAKE3 rather than SHA-256 for its speed: it hashes
//! several lanes at once with the CPU's vector instructions, so the
//! validator costs a small part of writing the body (`BENCHMARKS.md`,
//! *Headers and negotiation*). The `Content-Type` is hashed too, so
//! `text/plain` and `text/markdown` answers of the same bytes are two
//! representations with two validators, as RFC 9110 §8.8.3 asks of a
//! strong one.
//!
//! A service that knows its data's version (a row version, an
//! updated-at, a content hash it keeps) can supply it instead
//! ([`ResponseHeaders::describe_validated`]; in axum,
//! `Negotiated(data).validator(version)`): the `ETag` is then the keyed
//! BLAKE3 of the validator and the `Content-Type`, a few dozen bytes
//! hashed whatever the body's size, still strong and still one per
//! representation; and a request whose `If-None-Match` names it is
//! answered `304` before the data is encoded. The keyed mode keeps these
//! tags apart from the body hashes. The validator must change with the
//! data and with how the service encodes it.

use std::fmt;
use std::sync::Arc;

use bytes::Bytes;
use codec_core::TokenCounter;
use http::header::{
    CONTENT_LENGTH, CONTENT_TYPE, ETAG, HeaderMap, HeaderName, HeaderValue, IF_NONE_MATCH, LINK,
};
use http::response::Parts;
use http::uri::PathAndQuery;
use http::{Method, StatusCode, Uri};

use crate::negotiator::Negotiator;
use crate::outcome::Selection;
use crate::overrides;

/// The header of the token count, as Cloudflare's Markdown for Agents
/// sends it (and OpenClaw's `web_fetch` reads it).
pub const TOKENS_HEADER: HeaderName = HeaderName::from_static("x-markdown-tokens");

/// What a negotiated response carries besides its body: an `ETag` and
/// `304`s, `Link` alternates, a token count. Build it with
/// [`ResponseHeaders::builder`]; [`ResponseHeaders::none`] adds nothing.
///
/// ```
/// use std::sync::Arc;
///
/// use codec_core::{Codec, EncodeError, MediaType, TokenCounter, Value};
/// use http::header::{ETAG, IF_NONE_MATCH, LINK};
/// use http::{Method, Request, Response, StatusCode};
/// use negotiate::{Negotiator, RequestFacts, ResponseHeaders, TOKENS_HEADER};
///
/// # struct Stub(&'static str, MediaType);
/// # impl Codec for Stub {
/// #     fn format(&self) -> &str { self.0 }
/// #     fn media_type(&self) -> &MediaType { &self.1 }
/// #     fn encode_value(&self, v: &Value, out: &mut Vec<u8>) -> Result<(), EncodeError> {
/// #         out.extend_from_slice(format!("{v:?}").as_bytes()); Ok(())
/// #     }
/// # }
/// /// Words, for the example: a real service uses `codec_core::tokens::O200k`.
/// struct Words;
/// impl TokenCounter for Words {
///     fn name(&self) -> &str { "word" }
///     fn count(&self, text: &str) -> usize { text.split_whitespace().count() }
/// }
///
/// let negotiator = Negotiator::builder()
///     .codec(Arc::new(Stub("json", MediaType::from_static("application/json"))))
///     .codec(Arc::new(Stub("md", MediaType::from_static("text/markdown; charset=utf-8"))))
///     .build()
///     .unwrap();
/// let headers = ResponseHeaders::builder().token_counter(Some(Arc::new(Words))).build();
///
/// let request = Request::get("/items?page=2").header("accept", "text/markdown").body(()).unwrap();
/// let selection = negotiator.negotiate_request(request.uri(), request.headers())
///     .unwrap().into_result().unwrap();
/// let body = b"| id |\n| --- |\n| 1 |\n".to_vec();
/// let representation = headers.describe(&selection, &body);
/// let (mut parts, ()) = Response::new(()).into_parts();
/// selection.apply_headers(&mut parts.headers);
/// headers.apply(&negotiator, &RequestFacts::of(&request), &selection, representation.clone(), &mut parts);
/// assert_eq!(parts.headers[LINK], r#"</items?page=2&format=json>; rel="alternate"; type="application/json""#);
/// assert_eq!(parts.headers[TOKENS_HEADER], "9");
/// let etag = parts.headers[ETAG].clone();
///
/// // The same request with the validator it was given: 304.
/// let again = Request::get("/items?page=2")
///     .header("accept", "text/markdown")
///     .header(IF_NONE_MATCH, etag)
///     .body(())
///     .unwrap();
/// let (mut parts, ()) = Response::new(()).into_parts();
/// headers.apply(&negotiator, &RequestFacts::of(&again), &selection, representation, &mut parts);
/// assert_eq!(parts.status, StatusCode::NOT_MODIFIED);
/// ```
#[derive(Clone)]
pub struct ResponseHeaders {
    etag: bool,
    alternates: Vec<String>,
    tokens: Option<TokenHeader>,
    /// Headers every response of a format carries, by format name.
    fixed: Vec<(String, HeaderName, HeaderValue)>,
}

/// The token count's counter and the formats whose responses carry it.
#[derive(Clone)]
struct TokenHeader {
    counter: Arc<dyn TokenCounter>,
    formats: Vec<String>,
}

/// Builds [`ResponseHeaders`]; see [`ResponseHeaders::builder`].
#[derive(Clone)]
pub struct ResponseHeadersBuilder {
    headers: ResponseHeaders,
    token_formats: Vec<String>,
    counter: Option<Arc<dyn TokenCounter>>,
}

impl ResponseHeaders {
    /// The policy with its defaults: an `ETag` and `304`s, `Link`
    /// alternates to markdown (`md`) and JSON (`json`), no token count.
    pub fn builder() -> ResponseHeadersBuilder {
        ResponseHeadersBuilder {
            headers: ResponseHeaders {
                etag: true,
                alternates: vec!["md".to_owned(), "json".to_owned()],
                tokens: None,
                fixed: Vec::new(),
            },
            token_formats: vec!["md".to_owned()],
            counter: None,
        }
    }

    /// A policy that adds nothing.
    pub fn none() -> ResponseHeaders {
        ResponseHeaders {
            etag: false,
            alternates: Vec::new(),
            tokens: None,
            fixed: Vec::new(),
        }
    }

    /// What the body `selection`'s codec wrote says about it: its `ETag`
    /// and token count, as this policy asks for them. Depends on the body
    /// and the `Content-Type` only, so a server that keeps a body keeps
    /// this with it.
    pub fn describe(&self, selection: &Selection<'_>, body: &[u8]) -> Representation {
        let etag = self
            .etag
            .then(|| etag(selection.content_type().as_str(), body));
        let tokens = self.tokens(selection, body);
        Representation { etag, tokens }
    }

    /// [`ResponseHeaders::describe`] for a body whose data has a version
    /// the service supplies, `validator` (a row version, an updated-at, a
    /// content hash it keeps): the `ETag` is derived from the validator
    /// and the `Content-Type`, not hashed from the body, so it costs a
    /// few dozen bytes of hashing whatever the body's size. The
    /// validator must change whenever the data does, and whenever the
    /// service changes how it encodes it (a codec's options, an upgrade
    /// of the codecs): two bodies under one validator and one
    /// `Content-Type` get one `ETag`. The token count still reads the
    /// body.
    pub fn describe_validated(
        &self,
        selection: &Selection<'_>,
        validator: &[u8],
        body: &[u8],
    ) -> Representation {
        Representation {
            etag: self.validated_etag(selection, validator),
            tokens: self.tokens(selection, body),
        }
    }

    /// `representation` with the `ETag` derived from `validator` in
    /// place of its own, as [`ResponseHeaders::describe_validated`] would
    /// give it; the token count is kept.
    #[cfg(feature = "axum")]
    pub(crate) fn revalidated(
        &self,
        selection: &Selection<'_>,
        validator: &[u8],
        representation: Representation,
    ) -> Representation {
        Representation {
            etag: self.validated_etag(selection, validator),
            tokens: representation.tokens,
        }
    }

    /// The `ETag` of `selection`'s representation of data with this
    /// validator, when the policy sends one.
    fn validated_etag(&self, selection: &Selection<'_>, validator: &[u8]) -> Option<HeaderValue> {
        self.etag
            .then(|| validator_etag(selection.content_type().as_str(), validator))
    }

    /// Whether `selection`'s representation of data with this validator,
    /// answered with `status`, is one `request` already holds: then the
    /// answer is `304` and the data need not be encoded at all. Its
    /// [`Representation`] (the `ETag` only) is returned for the `304`.
    pub(crate) fn unchanged(
        &self,
        request: &RequestFacts,
        selection: &Selection<'_>,
        validator: &[u8],
        status: StatusCode,
    ) -> Option<Representation> {
        if status != StatusCode::OK || request.if_none_match.is_empty() {
            return None;
        }
        let representation = Representation {
            etag: self.validated_etag(selection, validator),
            tokens: None,
        };
        not_modified(request, &representation).then_some(representation)
    }

    /// The token count of `body`, when `selection`'s format carries one.
    fn tokens(&self, selection: &Selection<'_>, body: &[u8]) -> Option<usize> {
        self.tokens.as_ref().and_then(|tokens| {
            let counted = tokens
                .formats
                .iter()
                .any(|f| f.eq_ignore_ascii_case(selection.format()));
            let text = std::str::from_utf8(body).ok()?;
            counted.then(|| tokens.counter.count(text))
        })
    }

    /// Adds this policy's headers to the response `parts` for `selection`
    /// (`Content-Type` and `Vary` are [`Selection::apply_headers`]'s), and
    /// turns a `200 OK` into `304 Not Modified` when `request` is a `GET`
    /// or `HEAD` whose `If-None-Match` names the representation's `ETag`
    /// (or is `*`). A `304` keeps `ETag`, `Vary`, `Link` and the caching
    /// headers the response had, and loses `Content-Type`,
    /// `Content-Length` and the token count: the caller sends no body.
    ///
    /// The representation's `ETag` moves into the headers: a caller that
    /// keeps one for later responses passes a clone.
    pub fn apply(
        &self,
        negotiator: &Negotiator,
        request: &RequestFacts,
        selection: &Selection<'_>,
        representation: Representation,
        response: &mut Parts,
    ) {
        let unchanged = response.status == StatusCode::OK && not_modified(request, &representation);
        let headers = &mut response.headers;
        if let Some(etag) = representation.etag {
            headers.insert(ETAG, etag);
        }
        if let Some(tokens) = representation.tokens {
            headers.insert(TOKENS_HEADER, HeaderValue::from(tokens));
        }
        if let Some(link) = self.link(negotiator, request, selection.format()) {
            headers.append(LINK, link);
        }
        for (format, name, value) in &self.fixed {
            if format.eq_ignore_ascii_case(selection.format()) {
                headers.insert(name, value.clone());
            }
        }
        if unchanged {
            response.status = StatusCode::NOT_MODIFIED;
            for name in [CONTENT_TYPE, CONTENT_LENGTH, TOKENS_HEADER] {
                response.headers.remove(name);
            }
        }
    }

    /// The `Link` value listing the alternates of a `format` response,
    /// written in one buffer that the header value then owns.
    fn link(
        &self,
        negotiator: &Negotiator,
        request: &RequestFacts,
        format: &str,
    ) -> Option<HeaderValue> {
        let target = request.path().len() + request.query().map_or(0, str::len);
        let mut link = String::with_capacity(self.alternates.len() * (target + 64));
        for alternate in &self.alternates {
            if alternate.eq_ignore_ascii_case(format) {
                continue;
            }
            let Some(codec) = negotiator.codec(alternate) else {
                continue;
            };
            let start = link.len();
            if start > 0 {
                link.push_str(", ");
            }
            link.push('<');
            if !push_alternate_target(&mut link, negotiator, request, codec.format()) {
                link.truncate(start);
                continue;
            }
            link.push_str(">; rel=\"alternate\"; type=\"");
            link.push_str(codec.media_type().essence());
            link.push('"');
        }
        // A request target and a media type are visible ASCII.
        (!link.is_empty())
            .then(|| HeaderValue::from_maybe_shared(Bytes::from(link)).ok())
            .flatten()
    }
}

impl fmt::Debug for ResponseHeaders {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ResponseHeaders")
            .field("etag", &self.etag)
            .field("alternates", &self.alternates)
            .field("fixed", &self.fixed)
            .field(
                "tokens",
                &self
                    .tokens
                    .as_ref()
                    .map(|t| (t.counter.name().to_owned(), t.formats.clone())),
            )
            .finish()
    }
}

impl fmt::Debug for ResponseHeadersBuilder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ResponseHeadersBuilder")
            .field("etag", &self.headers.etag)
            .field("alternates", &self.headers.alternates)
            .field(
                "token_counter",
                &self.counter.as_ref().map(|c| c.name().to_owned()),
            )
            .field("token_formats", &self.token_formats)
            .finish()
    }
}

impl ResponseHeadersBuilder {
    /// Whether responses carry an `ETag`, and a `GET` or `HEAD` with a
    /// matching `If-None-Match` gets `304 Not Modified` (on by default).
    pub fn etag(mut self, yes: bool) -> ResponseHeadersBuilder {
        self.headers.etag = yes;
        self
    }

    /// The formats linked as alternates, by format name, in this order
    /// (default `md`, `json`); a response never links its own format, and
    /// a format the negotiator lacks is skipped. Empty: no `Link`. The
    /// link is the request's target with the format query parameter set
    /// (`/items?page=2&format=md`), or, when that override is off and
    /// path extensions are on, with the format's extension
    /// (`/items.md`); with neither, there is no URL to link.
    pub fn alternates<S: Into<String>>(
        mut self,
        formats: impl IntoIterator<Item = S>,
    ) -> ResponseHeadersBuilder {
        self.headers.alternates = formats.into_iter().map(Into::into).collect();
        self
    }

    /// The counter whose count of a body goes in the `x-markdown-tokens`
    /// header ([`TOKENS_HEADER`]) of the responses of
    /// [`ResponseHeadersBuilder::token_formats`] (default none: no
    /// header). `codec_core::tokens::O200k` (feature `o200k` of codec-core)
    /// counts GPT-4o's and later models' `o200k_base` exactly. Counting
    /// costs a pass of the tokenizer over each body (`BENCHMARKS.md`,
    /// *Headers and negotiation*).
    pub fn token_counter(
        mut self,
        counter: Option<Arc<dyn TokenCounter>>,
    ) -> ResponseHeadersBuilder {
        self.counter = counter;
        self
    }

    /// The formats whose responses carry the token count (default `md`,
    /// which also answers `text/plain` and `text/x-markdown` when they
    /// are its aliases).
    pub fn token_formats<S: Into<String>>(
        mut self,
        formats: impl IntoIterator<Item = S>,
    ) -> ResponseHeadersBuilder {
        self.token_formats = formats.into_iter().map(Into::into).collect();
        self
    }

    /// A header that every response of `format` carries, such as the
    /// `Content-Security-Policy` the HTML page is built for (none by
    /// default). Set on `200` and `304` answers alike; a second value for
    /// the same format and name replaces the first.
    pub fn format_header(
        mut self,
        format: &str,
        name: HeaderName,
        value: HeaderValue,
    ) -> ResponseHeadersBuilder {
        self.headers
            .fixed
            .retain(|(f, n, _)| !(f.eq_ignore_ascii_case(format) && *n == name));
        self.headers.fixed.push((format.to_owned(), name, value));
        self
    }

    /// The policy.
    pub fn build(self) -> ResponseHeaders {
        let mut headers = self.headers;
        headers.tokens = self.counter.map(|counter| TokenHeader {
            counter,
            formats: self.token_formats,
        });
        headers
    }
}

/// What a body's bytes say about it, as a [`ResponseHeaders`] asks:
/// its `ETag` and its token count. Computed once per body by
/// [`ResponseHeaders::describe`]; cheap to keep and clone.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Representation {
    etag: Option<HeaderValue>,
    tokens: Option<usize>,
}

impl Representation {
    /// What is known of a body streamed as it is written
    /// ([`NegotiatedStream`](crate::NegotiatedStream)): nothing, since both
    /// the `ETag` and the token count need the whole body before its
    /// first byte is sent. [`ResponseHeaders::apply`] then adds the `Link`
    /// alternates and a format's own headers, and never answers `304`.
    pub fn streamed() -> Representation {
        Representation {
            etag: None,
            tokens: None,
        }
    }

    /// The strong `ETag`, quoted: `"` and 32 hex digits and `"`.
    pub fn etag(&self) -> Option<&HeaderValue> {
        self.etag.as_ref()
    }

    /// The token count of the body, when it carries one.
    pub fn tokens(&self) -> Option<usize> {
        self.tokens
    }
}

/// What of a request the response headers depend on: its method, its
/// target (the `Link` alternates are built from it) and its
/// `If-None-Match`. Owned, so a server takes it before a handler runs and
/// uses it after the handler's `await`.
#[derive(Clone, Debug)]
pub struct RequestFacts {
    /// Whether the method is `GET` or `HEAD`, the two a `304` answers.
    get_or_head: bool,
    /// The target's path and query: all of the URI the links read, so
    /// the scheme and authority are not copied. None for a target
    /// without a path (the authority form of `CONNECT`).
    path_and_query: Option<PathAndQuery>,
    if_none_match: Vec<HeaderValue>,
}

impl RequestFacts {
    /// The facts of a request with this method, URI and headers.
    pub fn new(method: &Method, uri: &Uri, headers: &HeaderMap) -> RequestFacts {
        RequestFacts {
            get_or_head: method == Method::GET || method == Method::HEAD,
            path_and_query: uri.path_and_query().cloned(),
            if_none_match: headers.get_all(IF_NONE_MATCH).iter().cloned().collect(),
        }
    }

    /// The facts of `request`.
    pub fn of<B>(request: &http::Request<B>) -> RequestFacts {
        RequestFacts::new(request.method(), request.uri(), request.headers())
    }

    /// The target's path, as `Uri::path` gives it.
    fn path(&self) -> &str {
        self.path_and_query.as_ref().map_or("", PathAndQuery::path)
    }

    /// The target's query, as `Uri::query` gives it.
    fn query(&self) -> Option<&str> {
        self.path_and_query.as_ref().and_then(PathAndQuery::query)
    }
}

/// Whether `request` is a `GET` or `HEAD` whose `If-None-Match` names the
/// representation's `ETag` (or is `*`).
fn not_modified(request: &RequestFacts, representation: &Representation) -> bool {
    request.get_or_head
        && representation
            .etag
            .as_ref()
            .is_some_and(|etag| request.if_none_match.iter().any(|v| matches(v, etag)))
}

/// `"` + the first 128 bits of BLAKE3(body, LF, content type) in hex +
/// `"`. The body first, so its 1 KiB chunks start at its start and are
/// hashed several at once; the input still reads back one way, as a
/// `Content-Type` holds no LF.
fn etag(content_type: &str, body: &[u8]) -> HeaderValue {
    tag(blake3::Hasher::new(), body, content_type)
}

/// The key of the validator `ETag`s' BLAKE3: a fixed, public one, so that
/// they are another function than the body `ETag`s' plain BLAKE3 and no
/// body can be written to collide with a validator (BLAKE3's keyed mode
/// is its domain separation).
const VALIDATOR_KEY: &[u8; 32] = b"negotiate: service's validator.\n";

/// `"` + the first 128 bits of keyed BLAKE3(validator, LF, content type)
/// in hex + `"`: the `ETag` of a representation of data whose version
/// the service supplies. Reads back one way, the last LF ending the
/// validator, as a `Content-Type` holds no LF.
fn validator_etag(content_type: &str, validator: &[u8]) -> HeaderValue {
    tag(
        blake3::Hasher::new_keyed(VALIDATOR_KEY),
        validator,
        content_type,
    )
}

/// The first 128 bits of `hash`'s digest of `data`, LF and `content_type`,
/// in hex, quoted: a strong `ETag`.
fn tag(mut hash: blake3::Hasher, data: &[u8], content_type: &str) -> HeaderValue {
    hash.update(data);
    hash.update(b"\n");
    hash.update(content_type.as_bytes());
    hex_tag(&hash.finalize())
}

/// The first 128 bits of `digest` in hex, quoted.
fn hex_tag(digest: &blake3::Hash) -> HeaderValue {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut etag = [b'"'; 34];
    for (i, byte) in digest.as_bytes()[..16].iter().enumerate() {
        etag[1 + 2 * i] = HEX[usize::from(byte >> 4)];
        etag[2 + 2 * i] = HEX[usize::from(byte & 0xf)];
    }
    // Hex digits and quotes.
    HeaderValue::from_bytes(&etag).expect("an ETag of hex digits is a valid header value")
}

/// Whether an `If-None-Match` field line names `etag`: `*`, or a list of
/// entity tags one of which is `etag` by the weak comparison of RFC 9110
/// §8.8.3.2 (the opaque tags are equal; `W/` is ignored). A tag that does
/// not parse ends the reading of its line: nothing after it matches.
fn matches(field: &HeaderValue, etag: &HeaderValue) -> bool {
    let ours = etag.as_bytes();
    let ours = ours.strip_prefix(b"W/").unwrap_or(ours);
    let mut rest = field.as_bytes().trim_ascii();
    if rest == b"*" {
        return true;
    }
    while !rest.is_empty() {
        let tag = rest.strip_prefix(b"W/").unwrap_or(rest);
        if tag.first() != Some(&b'"') {
            return false;
        }
        let Some(close) = tag[1..].iter().position(|&b| b == b'"') else {
            return false;
        };
        if &tag[..close + 2] == ours {
            return true;
        }
        rest = tag[close + 2..].trim_ascii_start();
        match rest.first() {
            None => break,
            Some(b',') => rest = rest[1..].trim_ascii_start(),
            Some(_) => return false,
        }
    }
    false
}

/// Appends the request's target with the format override set to
/// `format`: the query parameter when it is on, else the path extension
/// when that is on. Returns false, having appended a part of it or
/// nothing, when there is no such target.
fn push_alternate_target(
    out: &mut String,
    negotiator: &Negotiator,
    request: &RequestFacts,
    format: &str,
) -> bool {
    let path = request.path();
    if let Some(param) = negotiator.format_param() {
        out.push_str(path);
        out.push('?');
        if let Some(query) = request.query() {
            for pair in query.split('&') {
                let key = pair.split_once('=').map_or(pair, |(key, _)| key);
                if key != param && !pair.is_empty() {
                    out.push_str(pair);
                    out.push('&');
                }
            }
        }
        out.push_str(param);
        out.push('=');
        out.push_str(format);
        return true;
    }
    if !negotiator.path_extension() || path.ends_with('/') {
        return false;
    }
    let start = out.len();
    out.push_str(negotiator.strip_format_extension(path));
    out.push('.');
    out.push_str(format);
    if let Some(query) = request.query() {
        out.push('?');
        out.push_str(query);
    }
    // A path whose last segment is only an extension would not read back.
    overrides::path_extension(&out[start..]).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn if_none_match_uses_the_weak_comparison() {
        let etag = HeaderValue::from_static("\"abc\"");
        let cases: &[(&str, bool)] = &[
            ("\"abc\"", true),
            ("W/\"abc\"", true),
            ("*", true),
            (" * ", true),
            ("\"x\", \"abc\"", true),
            ("\"x\",W/\"abc\"", true),
            ("\"x\" , \"y\"", false),
            ("\"ab\"", false),
            ("abc", false),
            ("\"abc", false),
            ("\"x\" junk, \"abc\"", false),
            ("", false),
            ("\"a,b\", \"abc\"", true),
        ];
        for (field, expected) in cases {
            let field = HeaderValue::from_str(field).unwrap();
            assert_eq!(matches(&field, &etag), *expected, "{field:?}");
        }
    }

    /// The facts keep the target as `Uri::path` and `Uri::query` read it,
    /// in every form of request target (RFC 9112 §3.2).
    #[test]
    fn request_facts_read_the_target_as_the_uri_does() {
        for target in [
            "/",
            "/items?page=2&format=md",
            "/a.md?",
            "http://example.com",
            "http://example.com/items?x=1",
            "example.com:443",
            "*",
        ] {
            let uri: Uri = target.parse().unwrap();
            let facts = RequestFacts::new(&Method::GET, &uri, &HeaderMap::new());
            assert_eq!(facts.path(), uri.path(), "{target}");
            assert_eq!(facts.query(), uri.query(), "{target}");
        }
    }

    #[test]
    fn etags_hash_the_content_type_and_the_body() {
        let a = etag("text/markdown; charset=utf-8", b"|a|\n");
        assert_eq!(a.len(), 34);
        assert!(
            a.to_str().unwrap()[1..33]
                .bytes()
                .all(|b| b.is_ascii_hexdigit())
        );
        assert_eq!(a, etag("text/markdown; charset=utf-8", b"|a|\n"));
        assert_ne!(a, etag("text/plain; charset=utf-8", b"|a|\n"));
        assert_ne!(a, etag("text/markdown; charset=utf-8", b"|b|\n"));
        // A validator's: keyed, so never a body's with the same bytes.
        let v = validator_etag("text/plain", b"hello");
        assert_ne!(v, etag("text/plain", b"hello"));
        assert_ne!(v, validator_etag("text/markdown", b"hello"));
        assert_ne!(v, validator_etag("text/plain", b"hello2"));
        assert_eq!(v, validator_etag("text/plain", b"hello"));
        assert_eq!(v.len(), 34);
        // Keyed BLAKE3 of the validator, LF and the Content-Type, whatever
        // the validator's length.
        let long = vec![b'v'; 300];
        let mut joined = long.clone();
        joined.extend_from_slice(b"\ntext/plain");
        let expected = hex_tag(&blake3::keyed_hash(VALIDATOR_KEY, &joined));
        assert_eq!(validator_etag("text/plain", &long), expected);
        let short = hex_tag(&blake3::keyed_hash(VALIDATOR_KEY, b"hello\ntext/plain"));
        assert_eq!(v, short);
        // Pinned: BLAKE3 of "hello\ntext/plain", its first 16 bytes (by
        // the reference implementation's Python binding).
        assert_eq!(
            etag("text/plain", b"hello"),
            "\"bf026748fe7a48a8bdbff3e199f120d6\""
        );
    }
}

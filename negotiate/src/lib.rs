//! RFC 9110 content negotiation: picks one of the registered codecs for a
//! request from its `Accept` header, a `?format=` override or a path
//! extension.
//!
//! - [`Negotiator`]: the codecs in the server's order of preference, their
//!   aliases and the policies; [`Negotiator::negotiate`] reads `Accept`,
//!   [`Negotiator::negotiate_target`] reads the overrides first,
//!   [`Negotiator::ranked`] lists every acceptable offer in order.
//! - [`NegotiatorBuilder`]: named setters for all of that.
//! - [`Outcome`]: either [`Selected`](Outcome::Selected),
//!   [`NoPreference`](Outcome::NoPreference),
//!   [`Fallback`](Outcome::Fallback) or
//!   [`NotAcceptable`](Outcome::NotAcceptable).
//! - [`Selection`]: the chosen codec, `Content-Type` and [`Quality`], and
//!   its [`Source`]; [`Choice`] is its owned, `Copy` form, to carry
//!   across an `await` and [`resolve`](Negotiator::resolve) after it.
//! - [`NotAcceptable`]: the 406 answer, listing what is available.
//! - [`UnknownFormat`]: a `?format=` value that names no codec (400).
//!   Both refusals are owned, `'static` errors.
//! - [`Quality`]: a `q` weight, exact in thousandths.
//! - [`EmptyAccept`], [`NothingAcceptable`], [`TieBreak`]: the policies.
//! - [`BuildError`]: why a builder's settings were rejected.
//! - [`AGENT_USER_AGENTS`]: the agents' `User-Agent` tokens that the
//!   opt-in agent policy ([`NegotiatorBuilder::agent_format`]) serves a
//!   format, markdown, when their `Accept` states no preference.
#![cfg_attr(
    feature = "http",
    doc = "- [`vary_accept`] (feature `http`): adds `Accept` to a response's `Vary`; \
           [`Negotiator::respond`] builds a whole `http::Response`."
)]
#![cfg_attr(
    feature = "http",
    doc = "- [`ResponseHeaders`] (feature `http`): what a response carries besides its \
           body: a strong `ETag` and `304 Not Modified`, `Link` alternates \
           (`rel=\"alternate\"; type=\"text/markdown\"`), an `x-markdown-tokens` count; \
           [`Representation`] and [`RequestFacts`] are what it reads."
)]
#![cfg_attr(
    feature = "http",
    doc = "- [`NegotiatedStream`] and its [`RowBody`] (feature `http`): a response of any \
           size, a handler's rows encoded by the negotiated codec as the client reads them \
           ([`StreamError`] when they fail)."
)]
#![cfg_attr(
    feature = "axum",
    doc = "- [`Negotiated`], [`NegotiateLayer`], its [`NegotiateService`] and \
           [`NegotiateFuture`] (feature `axum`): a handler returns `Negotiated(data)` (or a \
           `NegotiatedStream`) and the \
           layer runs the negotiated codec; [`Prerendered`] hands it bytes already \
           encoded for the negotiated codec."
)]
//!
//! # Features
//!
//! All off by default; docs.rs documents every item with a badge naming
//! the feature it needs.
//!
//! - `http`: `Negotiator::respond` and friends build an `http::Response`
//!   (406 and 400 answers included); `vary_accept`; `ResponseHeaders`
//!   (`ETag` and `304`, `Link` alternates, a token count); the agent
//!   policy reads `User-Agent` through `negotiate_request`;
//!   `NegotiatedStream`, rows streamed as an `http_body::Body`.
//! - `axum` (implies `http`): a handler returns `Negotiated(data)` (or a
//!   `NegotiatedStream` of rows) and a `NegotiateLayer` on its route
//!   encodes it with the negotiated codec (`NegotiateLayer::with_headers`
//!   adds a `ResponseHeaders`).
//! - `actix` (implies `http`): `actix::Negotiated(data)` and
//!   `NegotiatedStream` answer actix-web handlers, configured once with
//!   `App::app_data` (`actix::Negotiation`).
//! - `utoipa`: `Negotiated<T>` in `#[utoipa::path(responses(..))]`, and
//!   `openapi::document`, which lists each media type of a negotiator on
//!   every such route of an OpenAPI document.
//!
//! # Design
//!
//! Negotiation runs on every request, so it is one linear pass over the
//! header bytes that never allocates: each element is parsed in place
//! (quoted strings are compared through their escapes, not unescaped into
//! a buffer) and matched at once against offers whose type, parameters
//! and `Content-Type` were computed when the negotiator was built. Each
//! offer keeps only its most specific matching range, which is what
//! decides its quality: `text/markdown;q=0` excludes markdown even though
//! `*/*` also matches it.
//!
//! Parsing is lenient per element: an element that does not parse is
//! skipped and the rest of the header still counts; a malformed `q` is
//! neither dropped nor read as 1 but ranks below every valid weight (see
//! [`Quality`]). At most [`MAX_ELEMENTS`] elements are read, later ones
//! ignored; an element with more than [`MAX_PARAMS`] parameters is
//! skipped whole, like any other it cannot read: its parameters restrict
//! what it matches, so reading only some of them would widen it to types
//! the client did not ask for.
//!
//! This crate depends on the `Codec` trait only, never on a concrete
//! codec; it does not encode anything itself except through the codec it
//! selects. It is not a web framework and negotiates media types only:
//! `Accept-Charset`, `Accept-Encoding` and `Accept-Language` are out of
//! its scope (every codec writes UTF-8).
//!
//! # Example
//!
//! ```
//! use std::sync::Arc;
//!
//! use codec_core::{Codec, EncodeError, MediaType, Value};
//! use negotiate::{Negotiator, Outcome, Quality};
//!
//! /// A stand-in codec: writes nothing, declares a format and a type.
//! struct Stub(&'static str, MediaType);
//!
//! impl Codec for Stub {
//!     fn format(&self) -> &str { self.0 }
//!     fn media_type(&self) -> &MediaType { &self.1 }
//!     fn encode_value(&self, _: &Value, _: &mut Vec<u8>) -> Result<(), EncodeError> { Ok(()) }
//! }
//!
//! let json = Stub("json", MediaType::from_static("application/json"));
//! let md = Stub("md", MediaType::from_static("text/markdown; charset=utf-8; variant=GFM"));
//! let negotiator = Negotiator::builder()
//!     .codec(Arc::new(json))
//!     .codec(Arc::new(md))
//!     .alias("md", MediaType::from_static("text/x-markdown"))
//!     .build()
//!     .unwrap();
//!
//! // Cursor's Accept header: markdown first.
//! let accept = "text/markdown, text/plain;q=0.9, */*;q=0.8";
//! let chosen = negotiator.negotiate(Some(accept)).into_result().unwrap();
//! assert_eq!(chosen.format(), "md");
//! assert_eq!(chosen.content_type().as_str(), "text/markdown; charset=utf-8; variant=GFM");
//! assert_eq!(chosen.quality(), Quality::ONE);
//!
//! // A q=0 on the specific type beats the `*/*` that also matches it.
//! let outcome = negotiator.negotiate(Some("text/markdown;q=0, */*"));
//! assert_eq!(outcome.selection().unwrap().format(), "json");
//!
//! // No header: the default (first) codec.
//! assert!(matches!(negotiator.negotiate(None::<&str>), Outcome::NoPreference(_)));
//!
//! // An override beats Accept; an unknown one lists the valid names.
//! let forced = negotiator.negotiate_target(Some("application/json"), "/items?format=md");
//! assert_eq!(forced.unwrap().selection().unwrap().format(), "md");
//! let error = negotiator.negotiate_target(None::<&str>, "/items?format=csv").unwrap_err();
//! assert_eq!(error.to_string(), r#"unknown format "csv" in `?format=`; valid formats: json, md"#);
//! ```
#![deny(missing_docs)]
#![cfg_attr(docsrs, feature(doc_cfg))]

// The README's Rust blocks (the crate's registry page), compiled and run
// as doctests of this crate.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

mod accept;
#[cfg(feature = "actix")]
#[cfg_attr(docsrs, doc(cfg(feature = "actix")))]
pub mod actix;
mod agents;
#[cfg(feature = "http")]
mod answer;
#[cfg(feature = "axum")]
mod axum_layer;
#[cfg(feature = "http")]
mod headers;
mod negotiator;
#[cfg(feature = "utoipa")]
#[cfg_attr(docsrs, doc(cfg(feature = "utoipa")))]
pub mod openapi;
mod outcome;
mod overrides;
mod policy;
mod quality;
mod ranking;
mod refusal;
#[cfg(feature = "http")]
mod respond;
#[cfg(feature = "http")]
mod stream;
#[cfg(feature = "http")]
mod vary;

pub use accept::{MAX_ELEMENTS, MAX_PARAMS};
pub use agents::AGENT_USER_AGENTS;
#[cfg(feature = "axum")]
pub use axum_layer::{NegotiateFuture, NegotiateLayer, NegotiateService, Negotiated, Prerendered};
#[cfg(feature = "http")]
#[cfg_attr(docsrs, doc(cfg(feature = "http")))]
pub use headers::{
    Representation, RequestFacts, ResponseHeaders, ResponseHeadersBuilder, TOKENS_HEADER,
};
pub use negotiator::{BuildError, Negotiator, NegotiatorBuilder};
pub use outcome::{Choice, Outcome, Selection, Source};
pub use policy::{EmptyAccept, NothingAcceptable, TieBreak};
pub use quality::Quality;
pub use refusal::{NotAcceptable, UnknownFormat};
#[cfg(feature = "http")]
#[cfg_attr(docsrs, doc(cfg(feature = "http")))]
pub use stream::{BoxError, CHUNK, NegotiatedStream, RowBody, StreamError};
#[cfg(feature = "http")]
pub use vary::vary_accept;

//! Serve markdown to agents from axum in 15 lines:
//!
//! ```no_run
//! use agent_codecs::Negotiated;
//! use axum::{routing::get, Router};
//!
//! #[derive(serde::Serialize)]
//! struct Order { id: u32, item: &'static str, total: f64 }
//!
//! async fn orders() -> Negotiated<Vec<Order>> {
//!     Negotiated(vec![Order { id: 1, item: "kettle", total: 24.5 }])
//! }
//!
//! #[tokio::main]
//! async fn main() -> Result<(), Box<dyn std::error::Error>> {
//!     let app = Router::new()
//!         .route("/orders", get(orders))
//!         .layer(agent_codecs::standard().layer()?);
//!     axum::serve(tokio::net::TcpListener::bind("127.0.0.1:3000").await?, app).await?;
//!     Ok(())
//! }
//! ```
//!
//! `curl -H 'Accept: text/markdown' localhost:3000/orders` gets a table
//! (`|id|item|total|`), `curl localhost:3000/orders` the JSON, an MCP
//! client `application/vnd.mcp+json` a `CallToolResult`, and every answer
//! an `ETag`, `Link` alternates and `Vary: Accept`. The handler returns
//! its data once; the layer encodes it in the format the request asked
//! for (its `Accept`, `?format=md`, or its agent's `User-Agent`). A
//! handler that knows its data's version returns
//! `Negotiated(data).validator(version)`: the `ETag` is then derived from
//! the version instead of hashed from the body, and a `304` costs no
//! encoding.
//!
//! This crate is the one dependency of a service that answers agents. It
//! re-exports the workspace's crates, one feature each, and builds their
//! usual wiring in one call:
//!
//! - [`standard`] and [`Standard`]: the negotiator over the real codecs
//!   (JSON, markdown, MCP, and the HTML page for browsers when asked), with
//!   the usual aliases (`text/x-markdown`, `text/plain`) and options
//!   (markdown profile, budget, MCP version and structured content, which
//!   codecs); [`SetupError`] when they contradict each other.
//! - `Standard::layer` (feature `axum`): the `NegotiateLayer` for axum,
//!   with the response headers of `Standard::response_headers` (feature
//!   `http`); `Standard::actix` (feature `actix`), the same for actix-web.
//! - `Standard::openapi` (feature `utoipa`): the media types and schemas
//!   of each route answering `Negotiated<T>`, in a utoipa OpenAPI
//!   document.
//! - The crates, as modules: [`core`] (the value model, the [`Codec`]
//!   trait, [`TextLimit`] budgets, [`TokenCounter`]), [`negotiate`], and
//!   one per codec ([`json`], [`md`], [`mcp`], and `html`).
//! - The types a service names most, at the top: [`Codec`],
//!   [`CodecExt`], [`Value`], [`MediaType`], [`TextLimit`],
//!   [`TokenCounter`], [`Negotiator`], [`Profile`], [`ProtocolVersion`],
//!   [`StructuredContent`], and, with their features, `O200k`,
//!   `ResponseHeaders`, `NegotiatedStream`, `Negotiated` and
//!   `NegotiateLayer`.
//!
//! A response of any size is a `NegotiatedStream` of rows (feature
//! `http`; returned from an axum handler with feature `axum`): JSON writes
//! it as an array and markdown as a table, a row at a time as the client
//! reads, in memory that does not grow with it (`codec-md/SPEC.md`,
//! *Streaming*, says how a table goes on when rows change shape). MCP
//! results and the HTML page need the whole response: their rows are
//! collected, up to 64 MiB, and written whole. Streamed responses carry no
//! `ETag` and no token count, which need the whole body first.
//!
//! It adds no code of its own to the path of a response: what it builds is
//! the same [`Negotiator`] a service could assemble from the crates.
//!
//! # Features
//!
//! | feature | default | what it brings |
//! |---|---|---|
//! | `json` | on | `application/json` (codec-json) |
//! | `md` | on | `text/markdown` (codec-md), also for `text/x-markdown` and `text/plain` |
//! | `mcp` | on | MCP `CallToolResult`s (codec-mcp); implies `json` and `md` |
//! | `html` | off | the browsable page (codec-html), opt-in with `Standard::html` |
//! | `http` | off | `http::Response`s and `ResponseHeaders` (ETag and 304, `Link`, the token count); `NegotiatedStream`, rows streamed as a body |
//! | `axum` | off | `Negotiated` and `NegotiateLayer`; implies `http` |
//! | `actix` | off | `actix::Negotiated` for actix-web handlers and `Standard::actix`, the `app_data` they read; implies `http` |
//! | `utoipa` | off | `Standard::openapi`: a utoipa OpenAPI document lists every media type on each route answering `Negotiated<T>` |
//! | `tokens` | off | `O200k`, the exact o200k token count: the `x-markdown-tokens` header, token budgets, the page's figures |
//!
//! docs.rs documents every feature, each gated item with a badge naming
//! it.
//!
//! # Example
//!
//! The negotiator without a web framework: the same bytes for the same
//! request, whatever serves it.
//!
//! ```
//! use agent_codecs::{CodecExt, TextLimit};
//!
//! #[derive(serde::Serialize)]
//! struct Order { id: u32, item: &'static str }
//!
//! let negotiator = agent_codecs::standard()
//!     .budget(Some(TextLimit::chars(4_000)))
//!     .build()
//!     .unwrap();
//! let orders = [Order { id: 1, item: "kettle" }, Order { id: 2, item: "cup" }];
//!
//! // Cursor's Accept header.
//! let accept = "text/markdown, text/plain;q=0.9, */*;q=0.8";
//! let chosen = negotiator.negotiate(Some(accept)).into_result().unwrap();
//! assert_eq!(chosen.content_type().as_str(), "text/markdown; charset=utf-8; variant=GFM");
//! let body = chosen.codec().to_vec(&orders).unwrap();
//! assert_eq!(body, b"|id|item|\n|---|---|\n|1|kettle|\n|2|cup|\n");
//!
//! // curl's.
//! let chosen = negotiator.negotiate(Some("*/*")).into_result().unwrap();
//! assert_eq!(chosen.codec().to_vec(&orders).unwrap(), br#"[{"id":1,"item":"kettle"},{"id":2,"item":"cup"}]"#);
//! ```
#![deny(missing_docs)]
#![cfg_attr(docsrs, feature(doc_cfg))]

#[cfg(feature = "actix")]
mod actix_standard;
#[cfg(feature = "utoipa")]
mod openapi;
mod standard;

// The Rust blocks of the crate's README (its registry page) and of the
// repository's README, compiled and run as doctests of this crate. The
// repository's README is not in the published package: its doctests run
// from the workspace only.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
struct RepositoryReadmeDoctests;

pub use codec_core as core;
#[cfg(feature = "html")]
#[cfg_attr(docsrs, doc(cfg(feature = "html")))]
pub use codec_html as html;
#[cfg(feature = "json")]
#[cfg_attr(docsrs, doc(cfg(feature = "json")))]
pub use codec_json as json;
#[cfg(feature = "mcp")]
#[cfg_attr(docsrs, doc(cfg(feature = "mcp")))]
pub use codec_mcp as mcp;
#[cfg(feature = "md")]
#[cfg_attr(docsrs, doc(cfg(feature = "md")))]
pub use codec_md as md;
pub use negotiate;

#[cfg(feature = "tokens")]
#[cfg_attr(docsrs, doc(cfg(feature = "tokens")))]
pub use codec_core::tokens::O200k;
pub use codec_core::{Codec, CodecExt, MediaType, TextLimit, TokenCounter, Value};
#[cfg(feature = "mcp")]
#[cfg_attr(docsrs, doc(cfg(feature = "mcp")))]
pub use codec_mcp::{ProtocolVersion, StructuredContent, TextFormat};
#[cfg(feature = "md")]
#[cfg_attr(docsrs, doc(cfg(feature = "md")))]
pub use codec_md::Profile;
/// actix-web: `Negotiated(data)` and the `Negotiation` it reads from
/// `app_data` ([`Standard::actix`]).
#[cfg(feature = "actix")]
#[cfg_attr(docsrs, doc(cfg(feature = "actix")))]
pub use negotiate::actix;
#[cfg(feature = "axum")]
#[cfg_attr(docsrs, doc(cfg(feature = "axum")))]
pub use negotiate::{NegotiateLayer, Negotiated};
#[cfg(feature = "http")]
#[cfg_attr(docsrs, doc(cfg(feature = "http")))]
pub use negotiate::{NegotiatedStream, RequestFacts, ResponseHeaders};
pub use negotiate::{Negotiator, NegotiatorBuilder};
pub use standard::{SetupError, Standard};

/// The standard negotiator over the real codecs, to configure and build
/// (see [`Standard`]): JSON, markdown (also for `text/x-markdown` and
/// `text/plain`) and MCP, in that order.
pub fn standard() -> Standard {
    Standard::new()
}

//! The integration tests of `agent-codecs`, one binary: one module per subject.

#[cfg(all(feature = "actix", feature = "html", feature = "tokens"))]
mod actix;
mod common;
#[cfg(all(feature = "axum", feature = "html", feature = "tokens"))]
mod e2e;
#[cfg(all(feature = "axum", feature = "json", feature = "md"))]
mod extend;
// The OpenAPI example, its document and the answers it describes.
#[cfg(all(
    feature = "axum",
    feature = "utoipa",
    feature = "json",
    feature = "md",
    feature = "mcp"
))]
mod openapi;
#[cfg(feature = "axum")]
mod stream;
// The examples on other servers than axum, and the checks they share.
#[cfg(all(feature = "http", feature = "json", feature = "md", feature = "mcp"))]
mod frameworks;
// The example the two streaming modules serve.
#[cfg(feature = "axum")]
#[allow(dead_code)]
#[path = "../../examples/stream-a-large-export.rs"]
mod stream_example;
#[cfg(feature = "axum")]
mod stream_memory;

//! The integration tests of `codec-mcp`, one binary: one module per subject.

mod codec;
mod common;
mod conformance;
// rmcp's own client calls a server whose tools return this codec's results.
#[cfg(feature = "rmcp")]
mod rmcp_sdk;
mod schema;

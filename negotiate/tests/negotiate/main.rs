//! The integration tests of `negotiate`, one binary: one module per subject.

#[cfg(feature = "axum")]
mod axum_layer;
mod conformance;
#[cfg(feature = "axum")]
mod e2e;
mod negotiation;
mod no_alloc;
#[cfg(feature = "utoipa")]
mod openapi;
mod properties;
#[cfg(feature = "http")]
mod respond;
mod support;

//! The integration tests of `benches`, one binary: one module per subject.

mod pinned;
mod tokens;
mod typed;

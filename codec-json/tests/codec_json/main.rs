//! The integration tests of `codec-json`, one binary: one module per subject.

mod rows;
mod serde_json_parity;

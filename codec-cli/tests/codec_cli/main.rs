//! The integration tests of `codec-cli`, one binary: one module per subject.

mod cli;
mod common;
mod mcp;
mod serve;

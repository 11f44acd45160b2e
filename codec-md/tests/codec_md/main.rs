//! The integration tests of `codec-md`, one binary: one module per subject.

mod budget;
mod codec;
mod common;
mod dense;
mod dense_parse;
mod dense_tokens;
mod depth;
mod gfm;
mod lossless_tokens;
mod memory;
mod octokit;
mod parse;
mod roundtrip;
mod spec;
mod stream;
mod support;

//! The integration tests of `codec-html`, one binary: one module per subject.

mod codec;
mod dom;
mod layout;
mod negotiation;
mod support;

//! The integration tests of `fuzz-targets`, one binary: one module per subject.

mod replay;

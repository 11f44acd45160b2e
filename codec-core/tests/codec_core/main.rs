//! The integration tests of `codec-core`, one binary: one module per subject.

mod media_type;
mod memory;
mod parse;
mod rows;
mod tape;
mod to_value;

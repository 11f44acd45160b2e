//! The integration tests of `codec-csv`, one binary: one module per subject.

mod csv;
mod register;

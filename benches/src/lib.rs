//! Benchmarks of the workspace's codecs beside `serde_json` and TOON: speed
//! (criterion benches in `benches/`), memory and scale (`gen-large` and
//! `render-mem` binaries) and tokens ([`tokens::report`], printed by the
//! `token-report` binary).
//!
//! See BENCHMARKS.md at the repository root for the figures and the
//! commands that reproduce them.

pub mod codecs;
pub mod data;
pub mod large;
pub mod tokens;
pub mod types;

pub use data::{dataset, Dataset, DATASETS};

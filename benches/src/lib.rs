//! Benchmarks of the workspace's codecs beside `serde_json` and TOON.
//!
//! - Speed: the criterion benches in `benches/` (`codecs`; `toon`, behind
//!   the `toon` feature; `negotiate`), summarized by the `bench-table`
//!   binary, and the `ratios` binary, which interleaves the functions of
//!   each dataset round by round so that a busy machine hits the baseline
//!   and the codec alike.
//! - Memory and scale: the `gen-large` and `render-mem` binaries, driven by
//!   `benches/scale.sh`; the memory of a parsed value, `parse-mem` (behind
//!   the `count-allocations` feature).
//! - Parsing alone: the parse groups above on [`parse_inputs`] (the
//!   datasets and two small responses), and `parse-profile` (one parser on
//!   one input in a loop), which `benches/parse-cpu.sh` times in CPU time
//!   and callgrind counts in instructions.
//! - The negotiated path end to end ([`serve`]): the `serve` bench and the
//!   `serve` group of `ratios` serve typed data through an axum `Router`,
//!   `axum::Json` beside the three negotiated codecs.
//! - Tokens: [`tokens::report`], printed by the `token-report` binary.
//!
//! The datasets ([`DATASETS`]) are embedded from `benches/data/`; their
//! typed form is in [`types`]; the codecs under test are listed once, in
//! [`codecs::codecs`]. See BENCHMARKS.md at the repository root for the
//! figures and the commands that reproduce them.

pub mod codecs;
pub mod data;
pub mod large;
pub mod serve;
pub mod tokens;
pub mod types;

pub use data::{DATASETS, Dataset, SMALL_RESPONSES, dataset, parse_input, parse_inputs};

//! Prints the token report (markdown) of every dataset: bytes and
//! o200k_base tokens of JSON pretty, JSON compact, the TOON file and each
//! model-facing codec, with ratios to compact JSON and to TOON.
//!
//! `cargo run -p benches --release --bin token-report`

fn main() {
    print!("{}", benches::tokens::report());
}

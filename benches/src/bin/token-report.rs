//! Prints the token report (markdown) of every dataset: bytes and
//! o200k_base tokens of JSON pretty, JSON compact, the TOON file and each
//! model-facing codec, with ratios to compact JSON and to TOON; then what
//! each way of building an MCP tool result costs, by kind of client.
//!
//! `cargo run -p benches --release --bin token-report`

fn main() {
    print!("{}", benches::tokens::report());
    println!();
    print!("{}", benches::tokens::choices_report());
}

//! One parser on one parse input, in a loop, and nothing else: a target
//! for profilers. On a shared machine, `valgrind --tool=callgrind` counts
//! instructions the same way every run, where timings do not.
//!
//! `cargo build -p benches --release --bin parse-profile`, then
//! `valgrind --tool=callgrind target/release/parse-profile codec_core nested 20`
//!
//! PARSER is `codec_core` or `serde_json` (into `serde_json::Value`); INPUT
//! a label of [`benches::parse_inputs`] (`nested`, `tabular-20`...); ITERATIONS defaults to 100.

use std::hint::black_box;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [parser, input, rest @ ..] = args.as_slice() else {
        eprintln!("usage: parse-profile codec_core|serde_json INPUT [ITERATIONS]");
        std::process::exit(2);
    };
    let iterations: usize = rest.first().and_then(|n| n.parse().ok()).unwrap_or(100);
    let Some(json) = benches::parse_input(input) else {
        eprintln!("no parse input {input}");
        std::process::exit(2);
    };
    for _ in 0..iterations {
        match parser.as_str() {
            "codec_core" => drop(black_box(codec_core::from_slice(black_box(&json)).unwrap())),
            "serde_json" => drop(black_box(
                serde_json::from_slice::<serde_json::Value>(black_box(&json)).unwrap(),
            )),
            _ => {
                eprintln!("no parser {parser}");
                std::process::exit(2);
            }
        }
    }
}

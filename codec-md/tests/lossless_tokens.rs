//! What the lossless markers cost, in o200k_base tokens, on the shared
//! datasets: at most 3% over the default rendering on the flat datasets
//! (the target). The figures are in SPEC.md (*Lossless*); run with
//! `--nocapture` to print them.

use codec_core::{from_slice, Codec, Value};
use codec_md::MarkdownCodec;

const DATASETS: [(&str, &[u8]); 8] = [
    ("tabular", include_bytes!("data/tabular.json")),
    ("analytics", include_bytes!("data/analytics.json")),
    ("github", include_bytes!("data/github.json")),
    ("keyed", include_bytes!("data/keyed.json")),
    ("nested", include_bytes!("data/nested.json")),
    ("nested-group", include_bytes!("data/nested-group.json")),
    ("nested-config", include_bytes!("data/nested-config.json")),
    ("event-logs", include_bytes!("data/event-logs.json")),
];

/// The flat datasets: one table of scalars, or objects of scalars.
const FLAT: [&str; 4] = ["tabular", "analytics", "github", "keyed"];

fn tokens(text: &[u8]) -> usize {
    tiktoken_rs::o200k_base_singleton().count_ordinary(std::str::from_utf8(text).unwrap())
}

fn render(value: &Value, lossless: bool) -> Vec<u8> {
    let mut out = Vec::new();
    MarkdownCodec::builder()
        .lossless(lossless)
        .build()
        .encode_value(value, &mut out)
        .unwrap();
    out
}

#[test]
fn lossless_costs_little_over_the_default() {
    for (name, json) in DATASETS {
        let value = from_slice(json).unwrap();
        let default = tokens(&render(&value, false));
        let lossless = tokens(&render(&value, true));
        let overhead = (lossless as f64 / default as f64 - 1.0) * 100.0;
        println!("{name}: default {default}, lossless {lossless} (+{overhead:.2}%)");
        assert!(lossless >= default, "{name}: markers never save tokens");
        if FLAT.contains(&name) {
            assert!(
                lossless * 100 <= default * 103,
                "{name}: lossless {lossless} tokens is more than 3% over {default}"
            );
        }
    }
}

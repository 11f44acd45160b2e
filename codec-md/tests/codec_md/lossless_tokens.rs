//! What the lossless markers cost, in o200k_base tokens, on the shared
//! datasets: at most 3% over the default rendering on the flat datasets
//! (the target). The figures are in SPEC.md (*Lossless*); run with
//! `--nocapture` to print them.

use codec_core::{Value, from_slice};
use codec_md::{MarkdownCodec, Profile};

use crate::common;

use common::{DATASETS, render_with, tokens};

/// The flat datasets: one table of scalars, or objects of scalars.
const FLAT: [&str; 4] = ["tabular", "analytics", "github", "keyed"];

fn render(value: &Value, lossless: bool) -> Vec<u8> {
    let profile = if lossless {
        Profile::Lossless
    } else {
        Profile::Default
    };
    render_with(&MarkdownCodec::builder().profile(profile).build(), value).into_bytes()
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

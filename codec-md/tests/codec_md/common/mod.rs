//! What several test files share: the crate's copy of the shared benchmark
//! datasets, o200k token counts, and dense rendering.

#![allow(dead_code, unreachable_pub)]

use codec_core::{Codec, Value};
use codec_md::{MarkdownCodec, Profile};

/// The eight datasets of the TOON benchmark, from this crate's test data
/// (copies of `../shared/datasets/toon-bench`), flat ones first.
pub const DATASETS: [(&str, &[u8]); 8] = [
    ("tabular", include_bytes!("../../data/tabular.json")),
    ("analytics", include_bytes!("../../data/analytics.json")),
    ("github", include_bytes!("../../data/github.json")),
    ("keyed", include_bytes!("../../data/keyed.json")),
    ("nested", include_bytes!("../../data/nested.json")),
    (
        "nested-group",
        include_bytes!("../../data/nested-group.json"),
    ),
    (
        "nested-config",
        include_bytes!("../../data/nested-config.json"),
    ),
    ("event-logs", include_bytes!("../../data/event-logs.json")),
];

/// The dataset named `name`.
#[track_caller]
pub fn dataset(name: &str) -> &'static [u8] {
    DATASETS
        .iter()
        .find(|(n, _)| *n == name)
        .unwrap_or_else(|| panic!("no dataset {name:?}"))
        .1
}

/// The o200k_base token count of `text`.
pub fn tokens(text: &[u8]) -> usize {
    tiktoken_rs::o200k_base_singleton().count_ordinary(std::str::from_utf8(text).unwrap())
}

/// `value` rendered by `codec`.
#[track_caller]
pub fn render_with(codec: &MarkdownCodec, value: &Value) -> String {
    let mut out = Vec::new();
    codec.encode_value(value, &mut out).expect("render");
    String::from_utf8(out).expect("UTF-8")
}

/// `value` rendered in the dense profile.
#[track_caller]
pub fn dense(value: &Value) -> String {
    render_with(
        &MarkdownCodec::builder().profile(Profile::Dense).build(),
        value,
    )
}

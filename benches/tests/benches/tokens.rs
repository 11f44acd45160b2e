//! The tokenizer setup is right: o200k_base counts of the reference
//! encodings equal those published in the datasets' README (the TOON
//! project's own benchmark numbers).

use benches::DATASETS;
use benches::tokens::{count, reference};

/// (dataset, JSON pretty, JSON compact, TOON 4.4), from
/// shared/datasets/README.md.
const EXPECTED: [(&str, usize, usize, usize); 8] = [
    ("tabular", 127_353, 79_349, 50_226),
    ("nested", 110_425, 69_990, 73_551),
    ("analytics", 22_247, 14_213, 9_118),
    ("github", 15_337, 11_640, 8_938),
    ("event-logs", 181_215, 128_530, 154_091),
    ("nested-config", 905, 551, 585),
    ("keyed", 23_193, 15_687, 10_550),
    ("nested-group", 80_006, 47_018, 26_992),
];

#[test]
fn reference_token_counts_match_the_published_ones() {
    assert_eq!(DATASETS.len(), EXPECTED.len());
    let mut failures = Vec::new();
    for (dataset, (name, pretty, compact, toon)) in DATASETS.iter().zip(EXPECTED) {
        assert_eq!(dataset.name, name);
        let got = reference(dataset).map(|m| m.tokens);
        if got != [pretty, compact, toon] {
            failures.push(format!(
                "{name}: got {got:?}, expected {:?}",
                [pretty, compact, toon]
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn counts_small_texts() {
    assert_eq!(count(""), 0);
    assert!(count("hello world") >= 2);
}

/// The report's per-dataset rows: the three references, then every
/// model-facing codec, each with bytes and tokens (on the smallest dataset,
/// to stay fast in a debug build).
#[test]
fn measures_every_codec() {
    let dataset = benches::dataset("nested-config").unwrap();
    let rows = benches::tokens::measure(dataset);
    let formats: Vec<&str> = rows.iter().map(|m| m.format.as_str()).collect();
    let mut expected = vec!["JSON pretty", "JSON compact", "TOON 4.4"];
    let codecs = benches::codecs::token_codecs();
    expected.extend(codecs.iter().map(|(name, _)| *name));
    assert_eq!(formats, expected);
    for row in &rows {
        assert!(row.bytes > 0 && row.tokens > 0, "{row:?}");
    }
    assert_eq!(benches::tokens::group(1_234_567), "1,234,567");
    assert_eq!(benches::tokens::group(12), "12");
}

/// The MCP choices on the smallest dataset: the summary is one short line
/// beside the data, markdown only has no data, and the JSON text is the
/// data a second time.
#[test]
fn mcp_choices_cost_what_they_say() {
    let dataset = benches::dataset("github").unwrap();
    let rows = benches::tokens::measure_choices(dataset);
    let names: Vec<&str> = rows.iter().map(|r| r.choice).collect();
    assert_eq!(
        names,
        [
            "markdown + structured",
            "markdown only",
            "dense markdown only",
            "summary + structured",
            "JSON + structured"
        ]
    );
    let [both, text_only, dense, summary, json] = &rows[..] else {
        unreachable!()
    };
    let markdown = count(
        &String::from_utf8(
            codec_core::CodecExt::to_vec(&codec_md::MarkdownCodec::new(), &dataset.value())
                .unwrap(),
        )
        .unwrap(),
    );
    assert_eq!(both.text, markdown);
    assert_eq!(text_only.text, markdown);
    assert_eq!(text_only.structured, 0);
    assert_eq!(text_only.structured_first(), markdown);
    assert!(dense.text <= markdown && dense.structured == 0, "{dense:?}");
    assert!(summary.text < 30, "{summary:?}");
    assert_eq!(summary.structured, both.structured);
    assert_eq!(json.text, json.structured);
    assert_eq!(json.both(), 2 * json.structured);
    assert!(
        markdown < both.structured,
        "markdown is cheaper than JSON here"
    );
}

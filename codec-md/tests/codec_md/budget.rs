//! The budget (`MarkdownCodecBuilder::budget`) and the cut behind it
//! (`codec_md::truncate`), read by comrak: on the eight benchmark datasets
//! in every profile, in chars, bytes and exact o200k tokens, and on random
//! values with hostile strings.
//!
//! Every cut text must fit its budget (tokens counted by tiktoken itself,
//! not by the code under test), keep a prefix of the rendering that ends
//! where a row or an item ends, read as the same blocks as the rendering's
//! first ones (a cut table is still that table with its first rows, a cut
//! list that list with its first items), and end with a note whose counts
//! of rows and items left out are the ones comrak counts.

use crate::common;
use crate::support;

use std::sync::Arc;

use codec_core::{
    Codec, CodecExt, TextLimit, Value, from_slice, tokens::O200k, truncate::Omission,
};
use codec_md::{MarkdownCodec, Profile};
use proptest::prelude::*;

use common::DATASETS;
use support::{Block, parse};

const HINT: &str = "Request ?offset={rows} for the next rows.";

/// The profiles, as codecs without a budget.
fn profiles() -> [(&'static str, MarkdownCodec); 3] {
    [
        ("default", MarkdownCodec::new()),
        (
            "dense",
            MarkdownCodec::builder().profile(Profile::Dense).build(),
        ),
        (
            "lossless",
            MarkdownCodec::builder().profile(Profile::Lossless).build(),
        ),
    ]
}

/// The size of `text` in `limit`'s unit, measured independently: tokens
/// by tiktoken's own o200k_base.
fn size(limit: &TextLimit, text: &str) -> usize {
    match limit.unit().as_str() {
        "characters" => text.chars().count(),
        "bytes" => text.len(),
        "o200k tokens" => common::tokens(text.as_bytes()),
        other => panic!("unit {other}"),
    }
}

/// Rows and items of a document's blocks, as the cut counts them: table
/// rows; list items, paragraphs and code blocks.
fn units(blocks: &[Block]) -> (usize, usize) {
    blocks
        .iter()
        .fold((0, 0), |(rows, items), block| match block {
            Block::Table { rows: r, .. } => (rows + r.len(), items),
            Block::List(list) => (rows, items + list.len()),
            Block::Paragraph(_) | Block::Code { .. } => (rows, items + 1),
            Block::Heading { .. } => (rows, items),
        })
}

/// Checks `cut`, `full` cut to `limit`, and returns how many rows it kept.
/// `whole` is comrak's reading of `full`.
#[track_caller]
fn check_cut(
    (label, hint): (&str, &str),
    (full, whole): (&str, &[Block]),
    limit: &TextLimit,
    cut: &str,
    omission: Omission,
) -> usize {
    let max = limit.max();
    assert!(
        size(limit, cut) <= max,
        "{label}: {} {} over {max}",
        size(limit, cut),
        limit.unit()
    );
    let (kept, note) = match cut.rfind("\n\n[Truncated: ") {
        Some(at) => (&cut[..at], &cut[at + 2..]),
        None => ("", cut),
    };
    assert!(
        note.starts_with("[Truncated: showing the first "),
        "{label}: {cut}"
    );
    assert!(full.starts_with(kept), "{label}: not a prefix:\n{kept}");
    assert!(
        kept.is_empty() || full[kept.len()..].starts_with('\n'),
        "{label}: the cut is not at a line end:\n{kept}"
    );
    assert_eq!(omission.kept, size(limit, kept), "{label}");
    assert!(omission.total > max, "{label}");

    // comrak reads the cut text as the full text's first blocks, the last
    // one possibly cut at a row or an item, then the note.
    let mut read = parse(cut);
    // A code span in the hint reads as one.
    let span = support::CODE_SPAN.to_string();
    assert_eq!(
        read.pop(),
        Some(Block::Paragraph(note.replace('`', &span))),
        "{label}: the note is a paragraph of its own"
    );
    if let Some(last) = read.last() {
        assert!(
            !matches!(last, Block::Heading { .. }),
            "{label}: ends with a heading"
        );
    }
    for (i, block) in read.iter().enumerate() {
        let original = &whole[i];
        if i + 1 < read.len() {
            assert_eq!(block, original, "{label}: block {i}");
            continue;
        }
        match (block, original) {
            (
                Block::Table { columns, rows },
                Block::Table {
                    columns: all_columns,
                    rows: all_rows,
                },
            ) => {
                assert_eq!(columns, all_columns, "{label}: the table keeps its header");
                assert!(!rows.is_empty(), "{label}: a table with no rows");
                assert_eq!(rows[..], all_rows[..rows.len()], "{label}: rows");
            }
            (Block::List(items), Block::List(all_items)) => {
                assert!(!items.is_empty());
                assert_eq!(items[..], all_items[..items.len()], "{label}: items");
            }
            (block, original) => assert_eq!(block, original, "{label}: block {i}"),
        }
    }

    // The note counts what comrak counts.
    let (all_rows, all_items) = units(whole);
    let (rows, items) = units(&read);
    let (got_rows, got_items) = (omission.rows.unwrap(), omission.items.unwrap());
    assert_eq!(
        (
            got_rows.kept,
            got_rows.total,
            got_items.kept,
            got_items.total
        ),
        (rows, all_rows, items, all_items),
        "{label}"
    );
    let left_out: Vec<String> = [
        (all_rows - rows, all_rows, "rows"),
        (all_items - items, all_items, "items"),
    ]
    .iter()
    .filter(|(left_out, _, _)| *left_out > 0)
    .map(|(left_out, all, name)| format!("{left_out} of {all} {name}"))
    .collect();
    assert!(
        note.contains(&format!("; {} were left out. ", left_out.join(" and "))),
        "{label}: {note}"
    );
    let hint = hint
        .replace("{rows}", &rows.to_string())
        .replace("{items}", &items.to_string());
    assert!(note.ends_with(&format!(" {hint}]")), "{label}: {note}");
    rows
}

#[test]
fn datasets_in_every_profile_and_unit() {
    support::allow_code_spans(true);
    let o200k: Arc<dyn codec_core::TokenCounter> = Arc::new(O200k::new());
    let limits = [
        TextLimit::chars(400),
        TextLimit::chars(3_000),
        TextLimit::chars(20_000),
        TextLimit::bytes(2_000),
        TextLimit::bytes(30_000),
        TextLimit::tokens(150, o200k.clone()),
        TextLimit::tokens(1_000, o200k.clone()),
        TextLimit::tokens(8_000, o200k),
    ];
    let mut cuts = 0;
    for (name, bytes) in DATASETS {
        let value = from_slice(bytes).unwrap();
        for (profile, codec) in profiles() {
            let full = String::from_utf8(codec.to_vec(&value).unwrap()).unwrap();
            let whole = parse(&full);
            let full_tokens = common::tokens(full.as_bytes());
            for limit in &limits {
                let limit = limit.clone().with_hint(HINT);
                let label = format!("{name} {profile} {} {}", limit.max(), limit.unit());
                let budgeted = MarkdownCodec::builder()
                    .profile(match profile {
                        "dense" => Profile::Dense,
                        "lossless" => Profile::Lossless,
                        _ => Profile::Default,
                    })
                    .budget(Some(limit.clone()))
                    .build();
                let out = String::from_utf8(budgeted.to_vec(&value).unwrap()).unwrap();
                let cut = codec_md::truncate(full.clone(), &limit);
                assert_eq!(out, cut.text, "{label}: the budget is the cut");
                match cut.omitted {
                    None => assert_eq!(out, full, "{label}"),
                    Some(omission) => {
                        let total = match limit.unit().as_str() {
                            "o200k tokens" => full_tokens,
                            _ => size(&limit, &full),
                        };
                        assert_eq!(omission.total, total, "{label}");
                        check_cut((&label, HINT), (&full, &whole), &limit, &out, omission);
                        cuts += 1;
                    }
                }
            }
        }
    }
    // Most of the 192 cases cut: nested-config is small.
    assert!(cuts > 150, "{cuts}");
}

/// A cut rendering is the same bytes whether it is the whole buffer (its
/// buffer may then be handed back) or follows other bytes (it is copied
/// there), and a buffer handed back is at least a quarter full: a large
/// rendering cut to a small text does not keep its memory.
#[test]
fn a_cut_rendering_is_the_same_in_any_buffer_and_holds_no_large_one() {
    for (name, bytes) in DATASETS {
        let value = from_slice(bytes).unwrap();
        for max in [400, 20_000] {
            let codec = MarkdownCodec::builder()
                .budget(Some(TextLimit::chars(max)))
                .build();
            let mut whole = Vec::new();
            codec.encode_value(&value, &mut whole).unwrap();
            let mut after = b"before".to_vec();
            codec.encode_value(&value, &mut after).unwrap();
            assert_eq!(&after[6..], &whole[..], "{name} {max}");
            assert!(
                whole.capacity() <= 4 * whole.len().max(1024),
                "{name} {max}: {} bytes of capacity for {}",
                whole.capacity(),
                whole.len()
            );
        }
    }
}

/// The same budget cuts the same way in the MCP codec's text limit and
/// in the markdown codec's budget: the cut's shape, on the datasets, for
/// a reader paging through rows.
#[test]
fn token_budgets_keep_whole_rows_near_the_limit() {
    let o200k: Arc<dyn codec_core::TokenCounter> = Arc::new(O200k::new());
    let value = from_slice(common::dataset("github")).unwrap();
    let full = codec_md::render(&value).unwrap();
    let whole = parse(&full);
    let mut previous = 0;
    for max in [300, 600, 1_200, 2_400, 4_800] {
        let limit = TextLimit::tokens(max, o200k.clone()).with_hint(HINT);
        let cut = codec_md::truncate(full.clone(), &limit);
        let rows = check_cut(
            ("github", HINT),
            (&full, &whole),
            &limit,
            &cut.text,
            cut.omitted.unwrap(),
        );
        // About 89 tokens a row: the cut wastes less than two rows.
        let used = common::tokens(cut.text.as_bytes());
        assert!(used + 2 * 89 > max, "{max}: {used} tokens, {rows} rows");
        assert!(rows > previous, "{max}: {rows}");
        previous = rows;
    }
}

/// The examples of SPEC.md's *Budget*: `json budget=N` renders, with a
/// budget of N chars and the section's hint, to the `markdown budget=N`
/// after it, which comrak reads as the rules say.
#[test]
fn spec_examples() {
    support::allow_code_spans(true);
    let spec = include_str!("../../SPEC.md");
    let section = &spec[spec.find("\n## Budget\n").expect("a Budget section")..];
    let blocks: Vec<(&str, &str)> = section
        .split("\n```")
        .skip(1)
        .step_by(2)
        .filter_map(|block| block.split_once('\n'))
        .collect();
    let mut checked = 0;
    for pair in blocks.windows(2) {
        let [(info, json), (out_info, markdown)] = pair else {
            continue;
        };
        let Some(max) = info.strip_prefix("json budget=") else {
            continue;
        };
        assert_eq!(*out_info, format!("markdown budget={max}"));
        let hint = "Request `?offset={rows}` for the next hits.";
        let limit = TextLimit::chars(max.parse().unwrap()).with_hint(hint);
        let codec = MarkdownCodec::builder().budget(Some(limit.clone())).build();
        let value = codec_core::from_str(json).unwrap();
        let out = String::from_utf8(codec.to_vec(&value).unwrap()).unwrap();
        assert_eq!(&out, markdown);
        let full = codec_md::render(&value).unwrap();
        let cut = codec_md::truncate(full.clone(), &limit);
        assert_eq!(cut.text, out);
        check_cut(
            ("spec", hint),
            (&full, &parse(&full)),
            &limit,
            &out,
            cut.omitted.unwrap(),
        );
        checked += 1;
    }
    assert_eq!(checked, 1);
}

fn hostile() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-z ]{0,12}",
        Just("|".to_owned()),
        Just("\n".to_owned()),
        Just("```".to_owned()),
        Just("- **x**: y".to_owned()),
        Just("# h".to_owned()),
        Just("|---|".to_owned()),
        Just("[Truncated: no]".to_owned()),
        any::<char>().prop_map(String::from),
    ]
}

fn value() -> impl Strategy<Value = Value> {
    let scalar = prop_oneof![
        Just(Value::Null),
        any::<i64>().prop_map(Value::from),
        prop::collection::vec(hostile(), 0..4).prop_map(|p| Value::String(p.concat())),
    ];
    scalar.prop_recursive(3, 60, 8, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..8).prop_map(Value::Array),
            prop::collection::vec(("[a-z]{1,5}", inner), 0..8)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
            prop::collection::vec(
                prop::collection::vec(("[a-c]", "[a-z|]{0,6}"), 1..3).prop_map(|m| Value::Object(
                    m.into_iter().map(|(k, v)| (k, Value::String(v))).collect()
                )),
                1..12
            )
            .prop_map(Value::Array),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(
        std::env::var("PROPTEST_CASES").ok().and_then(|n| n.parse().ok()).unwrap_or(128)
    ))]

    #[test]
    fn random_values_cut_at_units(value in value(), max in 200usize..1_500, unit in 0..2) {
        support::allow_code_spans(true);
        for (profile, codec) in profiles() {
            let full = String::from_utf8(codec.to_vec(&value).unwrap()).unwrap();
            let limit = if unit == 0 { TextLimit::chars(max) } else { TextLimit::bytes(max) };
            let limit = limit.with_hint(HINT);
            let cut = codec_md::truncate(full.clone(), &limit);
            if profile == "default" {
                // The budget cuts with the units its writer counted: the
                // same cut as the scan's.
                let budgeted = MarkdownCodec::builder().budget(Some(limit.clone())).build();
                let out = String::from_utf8(budgeted.to_vec(&value).unwrap()).unwrap();
                prop_assert_eq!(&out, &cut.text);
            }
            if let Some(omission) = cut.omitted {
                check_cut((profile, HINT), (&full, &parse(&full)), &limit, &cut.text, omission);
            } else {
                prop_assert_eq!(&cut.text, &full);
            }
        }
    }
}

//! Negotiation does not touch the heap: measured with a counting global
//! allocator (the `allocation-counter` crate, which counts per thread, so
//! tests running in parallel do not disturb each other; its `unsafe impl
//! GlobalAlloc` keeps `unsafe` out of this workspace).

use crate::support;

use negotiate::Outcome;
use support::{CLAUDE_CODE, CURL, CURSOR, FIREFOX, MCP_CLIENT, OPENCODE};

fn count(f: impl FnOnce()) -> u64 {
    allocation_counter::measure(f).count_total
}

#[test]
fn the_counter_counts() {
    // Without this, a counter that saw nothing would pass every test.
    assert!(count(|| drop(std::hint::black_box(vec![1u8; 16]))) >= 1);
}

#[test]
fn negotiating_firefox_against_three_codecs_does_not_allocate() {
    let negotiator = negotiate::Negotiator::builder()
        .codec(support::json())
        .codec(support::md())
        .codec(support::mcp())
        .build()
        .unwrap();
    let mut format = "";
    let allocations = count(|| {
        let outcome = negotiator.negotiate(Some(std::hint::black_box(FIREFOX)));
        format = outcome.selection().map_or("", |s| s.format());
    });
    assert_eq!(format, "json");
    assert_eq!(allocations, 0);
}

#[test]
fn no_path_of_a_negotiation_allocates() {
    let negotiator = support::builder().path_extension(true).build().unwrap();
    let cases: &[(&[&str], &str)] = &[
        (&[CLAUDE_CODE], "/items"),
        (&[CURSOR], "/items"),
        (&[OPENCODE], "/items"),
        (&[MCP_CLIENT], "/items"),
        (&[CURL], "/items"),
        (&[FIREFOX], "/items"),
        (&[], "/items"),
        (&[""], "/items"),
        (&["*/*;q=0"], "/items"),
        (&["text/markdown;q=0", "*/*"], "/items"),
        (
            &["a/b;x=\"quoted \\\" text, with comma\", garbage, */*;q=abc"],
            "/items",
        ),
        (&[FIREFOX], "/items?format=md"),
        (&[FIREFOX], "/items.md"),
    ];
    for (lines, target) in cases {
        let mut outcome = None;
        let allocations = count(|| {
            outcome = Some(
                negotiator
                    .negotiate_target(lines.iter(), target)
                    .map(|o| matches!(o, Outcome::NotAcceptable(_))),
            );
        });
        assert!(outcome.unwrap().is_ok(), "{lines:?} {target}");
        assert_eq!(allocations, 0, "{lines:?} {target}");
    }
}

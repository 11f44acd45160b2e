//! Speed of `Accept` negotiation against the three codecs (codec-json,
//! codec-md, codec-mcp), with the headers agents and browsers send.
//!
//! The baseline is the naive approach most peers take: split on `,` and
//! `;`, collect owned strings, parse `q` as a float, sort, then take the
//! first range an offer matches. It allocates per element and ignores
//! specificity, so it is a speed reference, not a correct negotiator.
//!
//! `cargo bench -p benches --bench negotiate -- --warm-up-time 1 --measurement-time 3`

use std::hint::black_box;
use std::sync::Arc;

use codec_core::Codec;
use codec_json::JsonCodec;
use codec_mcp::McpCodec;
use codec_md::MarkdownCodec;
use criterion::{Criterion, criterion_group, criterion_main};
use negotiate::Negotiator;

const HEADERS: &[(&str, &str)] = &[
    (
        "firefox",
        "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8",
    ),
    ("claude-code", "text/markdown, text/html, */*"),
    ("cursor", "text/markdown, text/plain;q=0.9, */*;q=0.8"),
    (
        "opencode",
        "text/markdown;q=1.0, text/x-markdown;q=0.9, text/plain;q=0.8, text/html;q=0.7, */*;q=0.1",
    ),
    ("mcp-client", "application/json, text/event-stream"),
    ("curl", "*/*"),
];

fn codecs() -> Vec<Arc<dyn Codec>> {
    vec![
        Arc::new(JsonCodec::new()),
        Arc::new(MarkdownCodec::new()),
        Arc::new(McpCodec::new()),
    ]
}

/// The naive baseline: returns the index of the chosen offer.
fn naive(header: &str, offers: &[String]) -> Option<usize> {
    let mut ranges: Vec<(String, f32)> = header
        .split(',')
        .filter_map(|element| {
            let mut parts = element.split(';').map(str::trim);
            let range = parts.next()?.to_ascii_lowercase();
            let q = parts
                .find_map(|p| p.strip_prefix("q="))
                .map_or(1.0, |q| q.parse().unwrap_or(1.0));
            Some((range, q))
        })
        .collect();
    ranges.sort_by(|a, b| b.1.total_cmp(&a.1));
    ranges
        .iter()
        .filter(|(_, q)| *q > 0.0)
        .find_map(|(range, _)| {
            offers.iter().position(|offer| {
                range == "*/*"
                    || range == offer
                    || range
                        .strip_suffix("/*")
                        .is_some_and(|t| offer.split('/').next() == Some(t))
            })
        })
}

fn negotiate(c: &mut Criterion) {
    let negotiator = Negotiator::builder().codecs(codecs()).build().unwrap();
    let offers: Vec<String> = codecs()
        .iter()
        .map(|codec| codec.media_type().essence().to_owned())
        .collect();
    for (name, header) in HEADERS {
        let mut group = c.benchmark_group(format!("negotiate/{name}"));
        group.bench_function("naive-split-collect", |b| {
            b.iter(|| naive(black_box(header), black_box(&offers)))
        });
        group.bench_function("negotiate", |b| {
            b.iter(|| {
                negotiator
                    .negotiate(Some(black_box(*header)))
                    .selection()
                    .map(|s| s.format().len())
            })
        });
        group.finish();
    }
    let mut group = c.benchmark_group("negotiate/overrides");
    let header = HEADERS[0].1;
    group.bench_function("query-param", |b| {
        b.iter(|| {
            negotiator
                .negotiate_target(Some(black_box(header)), black_box("/items?format=md"))
                .map(|o| o.selection().map(|s| s.format().len()))
        })
    });
    group.finish();
}

criterion_group!(benches, negotiate);
criterion_main!(benches);

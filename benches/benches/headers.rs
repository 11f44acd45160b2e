//! What the agent-facing response headers cost per response
//! (`negotiate::ResponseHeaders`), on each dataset's markdown: the strong
//! `ETag` (BLAKE3 of the body), the exact `x-markdown-tokens` count
//! (o200k), and both with the `Link` alternates, beside the baseline of
//! rendering that markdown in the first place.
//!
//! `cargo bench -p benches --bench headers -- --warm-up-time 1 --measurement-time 3`

use std::hint::black_box;
use std::sync::Arc;

use codec_core::{Codec, CodecExt, TokenCounter, from_slice, tokens::O200k};
use codec_md::MarkdownCodec;
use criterion::{Criterion, criterion_group, criterion_main};
use http::{Request, Response};
use negotiate::{Negotiator, RequestFacts, ResponseHeaders};

fn headers(c: &mut Criterion) {
    let o200k: Arc<dyn TokenCounter> = Arc::new(O200k::new());
    let negotiator = Negotiator::builder()
        .codec(Arc::new(codec_json::JsonCodec::new()))
        .codec(Arc::new(MarkdownCodec::new()))
        .build()
        .unwrap();
    let etag_only = ResponseHeaders::builder().alternates::<&str>([]).build();
    let tokens_only = ResponseHeaders::builder()
        .etag(false)
        .alternates::<&str>([])
        .token_counter(Some(Arc::clone(&o200k)))
        .build();
    let all = ResponseHeaders::builder()
        .token_counter(Some(o200k))
        .build();
    let request = Request::get("/items")
        .header("accept", "text/markdown")
        .body(())
        .unwrap();
    let facts = RequestFacts::of(&request);
    let markdown = MarkdownCodec::new();
    for dataset in benches::DATASETS {
        let value = from_slice(dataset.json).unwrap();
        let body = markdown.to_vec(&value).unwrap();
        let selection = negotiator
            .negotiate_request(request.uri(), request.headers())
            .unwrap()
            .into_result()
            .unwrap();
        let mut group = c.benchmark_group(format!("headers/{}", dataset.name));
        group.bench_function("render-markdown", |b| {
            let mut out = Vec::with_capacity(body.len());
            b.iter(|| {
                out.clear();
                markdown.encode_value(black_box(&value), &mut out).unwrap();
                out.len()
            })
        });
        group.bench_function("etag-blake3", |b| {
            b.iter(|| etag_only.describe(&selection, black_box(&body)))
        });
        group.bench_function("tokens-o200k", |b| {
            b.iter(|| tokens_only.describe(&selection, black_box(&body)))
        });
        group.bench_function("all-describe-and-apply", |b| {
            b.iter(|| {
                let representation = all.describe(&selection, black_box(&body));
                let (mut parts, ()) = Response::new(()).into_parts();
                all.apply(&negotiator, &facts, &selection, representation, &mut parts);
                parts.headers.len()
            })
        });
        group.finish();
    }
}

criterion_group!(benches, headers);
criterion_main!(benches);

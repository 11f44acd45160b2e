//! The TOON peers (`toon-format`, the reference's Rust port, and
//! `serde_toon`, the fastest Rust TOON encoder) beside
//! `serde_json::to_vec` and our codecs, in one run.
//!
//! Needs the `toon` feature, which turns on serde_json's `preserve_order`
//! and `float_roundtrip` for this build (toon-format requires them): that
//! is why this is a bench of its own, with its own serde_json baseline, and
//! why the `codecs` bench should be run without the feature.
//!
//! - `toon-typed/NAME`: the typed structs: `serde_json::to_vec`,
//!   `toon_format::encode_default`, `serde_toon::to_string`, codec-json,
//!   every codec of `benches::codecs::codecs()`.
//! - `toon-value/NAME`: the parsed value: `serde_json::to_vec`,
//!   `toon_format::encode_default` and `serde_toon::to_string` of a
//!   `serde_json::Value` (source key order, thanks to `preserve_order`),
//!   every codec's `encode_value` of a `codec_core::Value`.
//!
//! Throughput is bytes of the compact JSON of the same data.
//!
//! `cargo bench -p benches --features toon --bench toon -- --warm-up-time 1 --measurement-time 3`

use std::hint::black_box;

use benches::codecs::codecs;
use benches::types::{Typed, Visit};
use benches::{DATASETS, Dataset};
use codec_core::{Codec, CodecExt};
use codec_json::JsonCodec;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use serde::Serialize;
use serde::de::DeserializeOwned;

struct TypedBench<'a> {
    c: &'a mut Criterion,
    dataset: &'a Dataset,
}

impl Visit for TypedBench<'_> {
    type Output = ();

    fn visit<T: Serialize + DeserializeOwned + 'static>(&mut self, value: &T) {
        let compact = serde_json::to_vec(value).unwrap();
        let json = JsonCodec::new();
        let codecs = codecs();
        let mut g = self
            .c
            .benchmark_group(format!("toon-typed/{}", self.dataset.name));
        g.throughput(Throughput::Bytes(compact.len() as u64));
        g.bench_function("serde_json::to_vec", |b| {
            b.iter(|| serde_json::to_vec(black_box(value)).unwrap())
        });
        g.bench_function("toon_format::encode", |b| {
            b.iter(|| toon_format::encode_default(black_box(value)).unwrap())
        });
        g.bench_function("serde_toon::to_string", |b| {
            b.iter(|| serde_toon::to_string(black_box(value)).unwrap())
        });
        g.bench_function("codec-json static", |b| {
            b.iter(|| json.to_vec(black_box(value)).unwrap())
        });
        for (name, codec) in &codecs {
            let codec: &dyn Codec = &**codec;
            g.bench_function(format!("{name} dyn"), |b| {
                b.iter(|| codec.to_vec(black_box(value)).unwrap())
            });
        }
        g.finish();
    }
}

fn typed(c: &mut Criterion) {
    for dataset in &DATASETS {
        let typed = Typed::load(dataset);
        typed.visit(&mut TypedBench { c, dataset });
    }
}

fn value(c: &mut Criterion) {
    for dataset in &DATASETS {
        let ours = dataset.value();
        let theirs: serde_json::Value = serde_json::from_slice(dataset.json).unwrap();
        let toon = toon_format::encode_default(&theirs).unwrap();
        if toon.trim_end() != dataset.toon.trim_end() {
            eprintln!(
                "note: toon-format's output for {} differs from the reference {}.toon",
                dataset.name, dataset.name
            );
        }
        let compact = dataset.compact_json();
        let codecs = codecs();
        let mut g = c.benchmark_group(format!("toon-value/{}", dataset.name));
        g.throughput(Throughput::Bytes(compact.len() as u64));
        g.bench_function("serde_json::to_vec", |b| {
            b.iter(|| serde_json::to_vec(black_box(&theirs)).unwrap())
        });
        g.bench_function("toon_format::encode", |b| {
            b.iter(|| toon_format::encode_default(black_box(&theirs)).unwrap())
        });
        g.bench_function("serde_toon::to_string", |b| {
            b.iter(|| serde_toon::to_string(black_box(&theirs)).unwrap())
        });
        for (name, codec) in &codecs {
            g.bench_function(*name, |b| {
                b.iter(|| {
                    let mut out = Vec::with_capacity(128);
                    codec.encode_value(black_box(&ours), &mut out).unwrap();
                    out
                })
            });
        }
        g.finish();
    }
}

criterion_group!(benches, typed, value);
criterion_main!(benches);

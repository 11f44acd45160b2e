//! Speed of every codec beside `serde_json`, in one run.
//!
//! For each of the eight datasets, three groups, each with its
//! `serde_json` baseline first and a throughput in bytes of the compact JSON
//! of the same data (so every MB/s figure is "MB of compact JSON per
//! second", whatever the codec writes):
//!
//! - `typed/NAME`: the typed structs (what a handler returns):
//!   `serde_json::to_vec`, codec-json through its static `JsonCodec::to_vec`,
//!   then every codec of `benches::codecs::codecs()` through `dyn Codec`,
//!   and `codec_core::to_value` alone (the normalization that codecs
//!   without their own `encode_serialize` pay first).
//! - `value/NAME`: the parsed value (what a proxy re-renders):
//!   `serde_json::to_vec` of a `serde_json::Value`, then every codec's
//!   `encode_value` of a `codec_core::Value`.
//! - `parse/NAME`: compact JSON bytes to a value: `serde_json::from_slice`
//!   into `serde_json::Value` against `codec_core::from_slice`, on the
//!   eight datasets and two small responses of 20 rows
//!   ([`benches::parse_inputs`]).
//!
//! `cargo bench -p benches --bench codecs -- --warm-up-time 1 --measurement-time 3`
//! then `cargo run -p benches --release --bin bench-table` for the ratios.

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
            .benchmark_group(format!("typed/{}", self.dataset.name));
        g.throughput(Throughput::Bytes(compact.len() as u64));
        g.bench_function("serde_json::to_vec", |b| {
            b.iter(|| serde_json::to_vec(black_box(value)).unwrap())
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
        // Not a codec: the normalization every codec without its own
        // `encode_serialize` (codec-md, codec-mcp, codec-html) pays before
        // rendering.
        g.bench_function("codec_core::to_value", |b| {
            b.iter(|| codec_core::to_value(black_box(value)).unwrap())
        });
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
        let compact = dataset.compact_json();
        let codecs = codecs();
        let mut g = c.benchmark_group(format!("value/{}", dataset.name));
        g.throughput(Throughput::Bytes(compact.len() as u64));
        g.bench_function("serde_json::to_vec", |b| {
            b.iter(|| serde_json::to_vec(black_box(&theirs)).unwrap())
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

fn parse(c: &mut Criterion) {
    for (label, compact) in benches::parse_inputs() {
        let mut g = c.benchmark_group(format!("parse/{label}"));
        g.throughput(Throughput::Bytes(compact.len() as u64));
        g.bench_function("serde_json::from_slice", |b| {
            b.iter(|| serde_json::from_slice::<serde_json::Value>(black_box(&compact)).unwrap())
        });
        g.bench_function("codec_core::from_slice", |b| {
            b.iter(|| codec_core::from_slice(black_box(&compact)).unwrap())
        });
        g.finish();
    }
}

criterion_group!(benches, typed, value, parse);
criterion_main!(benches);

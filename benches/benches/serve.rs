//! The negotiated path end to end: the same typed data served in process by
//! an axum `Router`, `axum::Json` (the baseline) beside `Negotiated` data
//! behind the real `NegotiateLayer` negotiated to codec-json, codec-md
//! (default profile) and codec-mcp. See `benches::serve`.
//!
//! One group per input (`serve/NAME`: the eight datasets and two small
//! responses of 20 rows), throughput in bytes of the data's compact JSON;
//! `serve-actix/NAME`, the same on actix-web: `web::Json` beside
//! `negotiate::actix::Negotiated` data negotiated to the same codecs.
//!
//! `cargo bench -p benches --bench serve -- --warm-up-time 1 --measurement-time 3`
//! The same requests, interleaved round after round:
//! `cargo run -p benches --release --bin ratios -- 21 20 serve`; in
//! instructions and CPU time: `benches/serve-instructions.sh`,
//! `benches/serve-cpu.sh`.

use std::hint::black_box;

use benches::serve::{Route, Server, inputs};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

fn serve(c: &mut Criterion) {
    for (label, typed) in inputs() {
        let server = Server::typed(&typed);
        let bytes = server.body_len(Route::AxumJson);
        for (group, routes) in [
            ("serve", &Route::AXUM[..]),
            ("serve-actix", &Route::ACTIX[..]),
        ] {
            let mut g = c.benchmark_group(format!("{group}/{label}"));
            g.throughput(Throughput::Bytes(bytes as u64));
            for &route in routes {
                g.bench_function(route.name(), |b| {
                    b.iter(|| server.body_len(black_box(route)))
                });
            }
            g.finish();
        }
    }
}

criterion_group!(benches, serve);
criterion_main!(benches);

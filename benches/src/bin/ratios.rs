//! Interleaved speed ratios, robust to a busy machine.
//!
//! Criterion measures one function after another, so on a machine shared
//! with other work a load change between two functions shows up as a
//! ratio. This runs every function of a dataset in turn, round after round
//! (`ROUNDS` rounds of about `ROUND_MS` each per function, order rotated
//! every round), takes the time ratio to `serde_json` within each round,
//! and prints the median ratio over rounds and the median throughput (MB
//! of compact JSON per second), as markdown.
//!
//! `cargo run -p benches --release --bin ratios [-- ROUNDS [ROUND_MS] [GROUP...]]`
//! GROUP is `typed`, `value`, `parse`, `serve` or `serve-actix` (default:
//! all five), or `to_value` (the typed group's baseline and
//! `codec_core::to_value` alone); the parse and serve groups also have two
//! small responses of 20 rows.
//! With `--features toon`, the TOON encoder is a column too (and serde_json
//! has `preserve_order`, see benches/Cargo.toml).

use std::hint::black_box;
use std::time::Instant;

use benches::DATASETS;
use benches::codecs::codecs;
use benches::serve::{self, Route, Server};
use benches::types::{Typed, Visit};
use codec_core::{Codec, CodecExt};
use codec_json::JsonCodec;
use serde::Serialize;
use serde::de::DeserializeOwned;

type Case<'a> = (String, Box<dyn FnMut() -> usize + 'a>);

#[derive(Debug, Clone, Copy)]
struct Plan {
    rounds: usize,
    round_ns: f64,
}

/// Median ns per call of each case, and median ratio to case 0.
fn measure(cases: &mut [Case<'_>], plan: Plan) -> Vec<(f64, f64)> {
    // Calibrate: calls per round for each case.
    let mut reps = Vec::new();
    for (_, f) in cases.iter_mut() {
        black_box(f());
        let t = Instant::now();
        let mut n = 0u64;
        while t.elapsed().as_secs_f64() < 0.005 || n == 0 {
            black_box(f());
            n += 1;
        }
        let per = t.elapsed().as_nanos() as f64 / n as f64;
        reps.push(((plan.round_ns / per).ceil() as u64).max(1));
    }
    let k = cases.len();
    let mut times = vec![Vec::with_capacity(plan.rounds); k];
    for round in 0..plan.rounds {
        let mut this = vec![0.0; k];
        for j in 0..k {
            let i = (j + round) % k;
            let f = &mut cases[i].1;
            let t = Instant::now();
            for _ in 0..reps[i] {
                black_box(f());
            }
            this[i] = t.elapsed().as_nanos() as f64 / reps[i] as f64;
        }
        for i in 0..k {
            times[i].push(this[i]);
        }
    }
    (0..k)
        .map(|i| {
            let ratios: Vec<f64> = (0..plan.rounds)
                .map(|r| times[i][r] / times[0][r])
                .collect();
            (median(times[i].clone()), median(ratios))
        })
        .collect()
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn row(dataset: &str, bytes: usize, cases: &mut [Case<'_>], plan: Plan, header: &mut bool) {
    let results = measure(cases, plan);
    if !*header {
        print!("| dataset |");
        for (name, _) in cases.iter() {
            print!(" {name} |");
        }
        print!("\n|---|");
        for _ in cases.iter() {
            print!("---:|");
        }
        println!();
        *header = true;
    }
    print!("| {dataset} |");
    for (ns, ratio) in results {
        print!(" {ratio:.2}x ({:.0} MB/s) |", bytes as f64 / ns * 1e3);
    }
    println!();
}

struct TypedRow<'a> {
    dataset: &'static str,
    plan: Plan,
    header: &'a mut bool,
    codecs: &'a [benches::codecs::Named],
    /// Only the baseline and `to_value` (the `to_value` group).
    to_value_only: bool,
}

impl Visit for TypedRow<'_> {
    type Output = ();
    fn visit<T: Serialize + DeserializeOwned + 'static>(&mut self, value: &T) {
        let bytes = serde_json::to_vec(value).unwrap().len();
        let json = JsonCodec::new();
        let mut cases: Vec<Case<'_>> = vec![(
            "serde_json::to_vec".into(),
            Box::new(|| serde_json::to_vec(black_box(value)).unwrap().len()),
        )];
        if !self.to_value_only {
            cases.push((
                "codec-json static".into(),
                Box::new(move || json.to_vec(black_box(value)).unwrap().len()),
            ));
        }
        let codecs = if self.to_value_only { &[] } else { self.codecs };
        for (name, codec) in codecs {
            let codec: &dyn Codec = &**codec;
            cases.push((
                format!("{name} dyn"),
                Box::new(move || codec.to_vec(black_box(value)).unwrap().len()),
            ));
        }
        #[cfg(feature = "toon")]
        if !self.to_value_only {
            cases.push((
                "toon_format::encode".into(),
                Box::new(|| toon_format::encode_default(black_box(value)).unwrap().len()),
            ));
        }
        // Not a codec: the normalization that codec-md, codec-mcp and
        // codec-html pay before rendering (they have no `encode_serialize`
        // of their own).
        cases.push((
            "(codec_core::to_value alone)".into(),
            Box::new(|| codec_core::to_value(black_box(value)).is_ok() as usize),
        ));
        row(self.dataset, bytes, &mut cases, self.plan, self.header);
    }
}

fn main() {
    // Numbers are ROUNDS then ROUND_MS; words name the groups to run.
    let (numbers, words): (Vec<String>, Vec<String>) = std::env::args()
        .skip(1)
        .partition(|a| a.parse::<f64>().is_ok());
    let groups = Groups(words);
    let mut numbers = numbers.into_iter();
    let rounds = numbers.next().and_then(|a| a.parse().ok()).unwrap_or(15);
    let round_ms: f64 = numbers.next().and_then(|a| a.parse().ok()).unwrap_or(20.0);
    let plan = Plan {
        rounds,
        round_ns: round_ms * 1e6,
    };
    let codecs = codecs();
    println!(
        "Interleaved: {rounds} rounds of ~{round_ms} ms per function; median time ratio to \
         serde_json within a round (lower is faster), then median MB/s of compact JSON.\n"
    );

    for (group, title, to_value_only) in [
        ("typed", "typed (a handler's structs)", false),
        (
            "to_value",
            "to_value (the typed group's baseline and to_value only)",
            true,
        ),
    ] {
        // `to_value` is part of `typed`: run it alone only when named.
        if !groups.includes(group) || (to_value_only && groups.0.is_empty()) {
            continue;
        }
        println!("### {title}\n");
        let mut header = false;
        for dataset in &DATASETS {
            Typed::load(dataset).visit(&mut TypedRow {
                dataset: dataset.name,
                plan,
                header: &mut header,
                codecs: &codecs,
                to_value_only,
            });
        }
    }

    if groups.includes("value") {
        println!("\n### value (a parsed body re-rendered)\n");
        let mut header = false;
        for dataset in &DATASETS {
            let ours = dataset.value();
            let theirs: serde_json::Value = serde_json::from_slice(dataset.json).unwrap();
            let bytes = dataset.compact_json().len();
            let mut cases: Vec<Case<'_>> = vec![(
                "serde_json::to_vec".into(),
                Box::new(|| serde_json::to_vec(black_box(&theirs)).unwrap().len()),
            )];
            for (name, codec) in &codecs {
                let ours = &ours;
                cases.push((
                    (*name).into(),
                    Box::new(move || {
                        let mut out = Vec::with_capacity(128);
                        codec.encode_value(black_box(ours), &mut out).unwrap();
                        out.len()
                    }),
                ));
            }
            #[cfg(feature = "toon")]
            cases.push((
                "toon_format::encode".into(),
                Box::new(|| {
                    toon_format::encode_default(black_box(&theirs))
                        .unwrap()
                        .len()
                }),
            ));
            row(dataset.name, bytes, &mut cases, plan, &mut header);
        }
    }

    if groups.includes("parse") {
        println!("\n### parse (JSON bytes to a value)\n");
        let mut header = false;
        for (label, compact) in benches::parse_inputs() {
            let compact = &compact;
            let mut cases: Vec<Case<'_>> = vec![
                (
                    "serde_json::from_slice".into(),
                    Box::new(move || {
                        let v: serde_json::Value =
                            serde_json::from_slice(black_box(compact)).unwrap();
                        v.is_object() as usize
                    }),
                ),
                (
                    "codec_core::from_slice".into(),
                    Box::new(move || {
                        let v = codec_core::from_slice(black_box(compact)).unwrap();
                        v.as_object().is_some() as usize
                    }),
                ),
            ];
            row(label, compact.len(), &mut cases, plan, &mut header);
        }
    }
    if groups.includes("serve") {
        serve_group(plan, "axum Router; baseline axum::Json", &Route::AXUM);
    }
    if groups.includes("serve-actix") {
        serve_group(plan, "actix-web App; baseline web::Json", &Route::ACTIX);
    }
}

/// The negotiated path end to end ([`benches::serve`]): `routes`, the
/// framework's own JSON first, through one framework (`what`).
fn serve_group(plan: Plan, what: &str, routes: &[Route]) {
    println!("\n### serve (typed data through an {what})\n");
    let mut header = false;
    for (label, typed) in serve::inputs() {
        let server = Server::typed(&typed);
        let bytes = server.body_len(routes[0]);
        let server = &server;
        let mut cases: Vec<Case<'_>> = routes
            .iter()
            .map(|&route| -> Case<'_> {
                (
                    route.name().into(),
                    Box::new(move || server.body_len(black_box(route))),
                )
            })
            .collect();
        row(label, bytes, &mut cases, plan, &mut header);
    }
}

/// The groups named on the command line; none named means all.
#[derive(Debug)]
struct Groups(Vec<String>);

impl Groups {
    fn includes(&self, group: &str) -> bool {
        self.0.is_empty() || self.0.iter().any(|g| g == group)
    }
}

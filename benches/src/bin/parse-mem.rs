//! Memory of a parsed value: `codec_core::from_slice` beside
//! `serde_json::from_slice` into `serde_json::Value`, on the inputs of the
//! parse benches ([`benches::parse_inputs`]), counted by a counting global
//! allocator (the `allocation-counter` crate, behind this crate's
//! `count-allocations` feature so that it never slows the speed benches).
//!
//! Per input, one markdown row: the peak bytes allocated while parsing
//! (the value and every transient buffer), the bytes still held by the
//! parsed value, and the number of allocations, for both parsers, and the
//! ratios codec_core ÷ serde_json. Counts are of requested bytes: the
//! allocator's own per-allocation overhead (16 bytes or so with glibc) is
//! not in them, which is why the allocation counts are printed too.
//! Deterministic: the same build gives the same figures.
//!
//! codec_core's parser keeps its growable buffers (at most 16 KB each)
//! per thread for the next parse; they are warmed up before measuring, so
//! the figures are a service's steady state: what a parse adds.
//!
//! `cargo run -p benches --release --features count-allocations --bin parse-mem`

use allocation_counter::AllocationInfo;

/// Parses with `parse`, keeping the result alive past the measurement so
/// that `bytes_current` is what the value holds.
fn measure<T>(parse: impl FnOnce() -> T) -> AllocationInfo {
    let mut kept = None;
    let info = allocation_counter::measure(|| kept = Some(parse()));
    drop(kept);
    info
}

fn main() {
    println!(
        "size_of: codec_core::Value {} bytes, serde_json::Value {} bytes\n",
        size_of::<codec_core::Value>(),
        size_of::<serde_json::Value>()
    );
    println!(
        "| input | JSON bytes | peak: serde_json | peak: codec_core | peak ratio | held: serde_json | held: codec_core | held ratio | allocations: serde_json | allocations: codec_core |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    // Warm up: codec_core's per-thread buffers, as after a first request.
    let inputs = benches::parse_inputs();
    for (_, json) in &inputs {
        drop(codec_core::from_slice(json));
    }
    for (label, json) in inputs {
        let theirs = measure(|| serde_json::from_slice::<serde_json::Value>(&json).unwrap());
        let ours = measure(|| codec_core::from_slice(&json).unwrap());
        let per_input = |bytes: u64| format!("{bytes} ({:.1}x)", bytes as f64 / json.len() as f64);
        println!(
            "| {label} | {} | {} | {} | **{:.2}x** | {} | {} | {:.2}x | {} | {} |",
            json.len(),
            per_input(theirs.bytes_max),
            per_input(ours.bytes_max),
            ours.bytes_max as f64 / theirs.bytes_max as f64,
            per_input(theirs.bytes_current as u64),
            per_input(ours.bytes_current as u64),
            ours.bytes_current as f64 / theirs.bytes_current as f64,
            theirs.count_total,
            ours.count_total,
        );
    }
}

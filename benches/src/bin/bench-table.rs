//! Reads criterion's results (`target/criterion`, or the directory given as
//! the first argument) and prints, per bench kind (`typed`, `value`,
//! `parse`, `toon-typed`, `toon-value`), a markdown table: one row per
//! dataset, one column per function, each cell the median time relative to
//! the group's `serde_json` baseline measured in the same run, and the
//! throughput in MB/s (decimal megabytes of compact JSON per second).
//!
//! `cargo run -p benches --release --bin bench-table [CRITERION_DIR]`

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use benches::DATASETS;
use serde_json::Value;

#[derive(Debug)]
struct Result {
    kind: String,
    dataset: String,
    function: String,
    median_ns: f64,
    bytes: Option<f64>,
}

fn read(dir: &Path) -> Option<Result> {
    let bench: Value =
        serde_json::from_slice(&std::fs::read(dir.join("benchmark.json")).ok()?).ok()?;
    let est: Value =
        serde_json::from_slice(&std::fs::read(dir.join("estimates.json")).ok()?).ok()?;
    let group = bench["group_id"].as_str()?;
    let (kind, dataset) = group.split_once('/')?;
    Some(Result {
        kind: kind.to_owned(),
        dataset: dataset.to_owned(),
        function: bench["function_id"].as_str()?.to_owned(),
        median_ns: est["median"]["point_estimate"].as_f64()?,
        bytes: bench["throughput"]["Bytes"].as_f64(),
    })
}

fn main() {
    let root = std::env::args_os()
        .nth(1)
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            let target = std::env::var_os("CARGO_TARGET_DIR")
                .map(PathBuf::from)
                .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../target"));
            target.join("criterion")
        });
    let mut results = Vec::new();
    let Ok(groups) = std::fs::read_dir(&root) else {
        eprintln!("no criterion results in {}", root.display());
        std::process::exit(1);
    };
    for group in groups.flatten() {
        let Ok(functions) = std::fs::read_dir(group.path()) else {
            continue;
        };
        for function in functions.flatten() {
            if let Some(r) = read(&function.path().join("new")) {
                results.push(r);
            }
        }
    }
    // kind -> dataset -> function -> result
    let mut by_kind: BTreeMap<&str, BTreeMap<&str, BTreeMap<&str, &Result>>> = BTreeMap::new();
    for r in &results {
        by_kind
            .entry(&r.kind)
            .or_default()
            .entry(&r.dataset)
            .or_default()
            .insert(&r.function, r);
    }
    for (kind, datasets) in &by_kind {
        let mut functions: Vec<&str> = datasets.values().flat_map(|f| f.keys().copied()).collect();
        functions.sort_by_key(|f| (!f.starts_with("serde_json::"), *f));
        functions.dedup();
        println!("### {kind}\n");
        if datasets
            .values()
            .any(|row| row.keys().any(|f| f.starts_with("serde_json::")))
        {
            println!(
                "Median time ÷ the `serde_json` baseline of the same run (lower is faster), then MB/s of compact JSON.\n"
            );
        } else {
            println!("Median time.\n");
        }
        print!("| dataset |");
        for f in &functions {
            print!(" {f} |");
        }
        println!();
        print!("|---|");
        for _ in &functions {
            print!("---:|");
        }
        println!();
        let order = |d: &str| DATASETS.iter().position(|x| x.name == d).unwrap_or(99);
        let mut names: Vec<&str> = datasets.keys().copied().collect();
        names.sort_by_key(|d| order(d));
        for dataset in names {
            let row = &datasets[dataset];
            let base = row
                .iter()
                .find(|(f, _)| f.starts_with("serde_json::"))
                .map(|(_, r)| r.median_ns);
            print!("| {dataset} |");
            for f in &functions {
                match row.get(f) {
                    Some(r) => match (base, r.bytes) {
                        (Some(b), Some(bytes)) => print!(
                            " {:.2}x ({:.0} MB/s) |",
                            r.median_ns / b,
                            bytes / r.median_ns * 1e3
                        ),
                        (Some(b), None) => print!(" {:.2}x |", r.median_ns / b),
                        (None, _) => print!(" {} |", time(r.median_ns)),
                    },
                    None => print!(" - |"),
                }
            }
            println!();
        }
        println!();
    }
}

fn time(ns: f64) -> String {
    if ns < 1e3 {
        format!("{ns:.1} ns")
    } else if ns < 1e6 {
        format!("{:.2} µs", ns / 1e3)
    } else {
        format!("{:.2} ms", ns / 1e6)
    }
}

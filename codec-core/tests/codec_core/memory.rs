//! A parsed `Value` takes no more memory than a `serde_json::Value` of the
//! same JSON, on every shape of input: peak bytes allocated while parsing
//! and bytes held by the result, counted by a counting allocator (the
//! `allocation-counter` crate's, so this test writes no `unsafe`; it counts
//! requested bytes, which are deterministic, not time). The parser keeps a
//! few buffers per thread between parses; each input is parsed once before
//! it is measured, as a service parses requests one after another.

use allocation_counter::AllocationInfo;

/// Parses with `parse`, keeping the result past the measurement so that
/// `bytes_current` is what it holds.
fn measure<T>(parse: impl FnOnce() -> T) -> AllocationInfo {
    let mut kept = None;
    let info = allocation_counter::measure(|| kept = Some(parse()));
    drop(kept);
    info
}

fn records(n: usize) -> String {
    let rows: Vec<String> = (0..n)
        .map(|i| {
            format!(
                r#"{{"id":{i},"name":"user {i}","email":"u{i}@example.com","score":{i}.5,"active":{}}}"#,
                i % 2 == 0
            )
        })
        .collect();
    format!(r#"{{"users":[{}]}}"#, rows.join(","))
}

fn orders(n: usize) -> String {
    let rows: Vec<String> = (0..n)
        .map(|i| {
            let note = if i % 3 == 0 { r#","note":"gift""# } else { "" };
            format!(
                r#"{{"id":"o{i}","customer":{{"id":{i},"name":"c{i}"}},"items":[{{"sku":"a","qty":1,"price":9.99}},{{"sku":"b","qty":{i},"price":0.5}}]{note}}}"#
            )
        })
        .collect();
    format!("[{}]", rows.join(","))
}

fn keyed(n: usize) -> String {
    let members: Vec<String> = (0..n)
        .map(|i| format!(r#""flag-{i}":{{"enabled":true,"rollout":{i}}}"#))
        .collect();
    format!("{{{}}}", members.join(","))
}

const CONFIG: &str = r#"{"env":"prod","db":{"host":"h","port":5432,"pool":{"min":1,"max":9}},
"cache":{"ttl":60,"hosts":["a","b"]},"auth":{"providers":[{"name":"x","scopes":["r","w"]}]},
"limits":{"rps":100,"burst":20},"features":{"dark":{"on":true},"beta":{"on":false,"who":[]}}}"#;

#[test]
fn a_parsed_value_is_no_bigger_than_serde_jsons() {
    let inputs: Vec<(&str, String)> = vec![
        ("records", records(500)),
        ("small response", records(20)),
        ("nested orders", orders(200)),
        ("keyed map", keyed(300)),
        ("config", CONFIG.into()),
        (
            "github",
            String::from_utf8(include_bytes!("../data/github.json").to_vec()).unwrap(),
        ),
    ];
    for (label, json) in &inputs {
        drop(codec_core::from_str(json));
        let theirs = measure(|| serde_json::from_str::<serde_json::Value>(json).unwrap());
        let ours = measure(|| codec_core::from_str(json).unwrap());
        assert!(
            ours.bytes_max <= theirs.bytes_max,
            "{label}: peak {} bytes, serde_json's {}",
            ours.bytes_max,
            theirs.bytes_max
        );
        assert!(
            ours.bytes_current <= theirs.bytes_current,
            "{label}: holds {} bytes, serde_json's {}",
            ours.bytes_current,
            theirs.bytes_current
        );
    }
}

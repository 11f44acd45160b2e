//! Memory stays linear in the input: rendering allocates the output buffer
//! and little else, whatever the shape of the value (the dense profile
//! also each table's plan: its header and a reference per cell). Measured with a
//! counting allocator (this test binary only).
//!
//! The default size keeps CI fast; `MD_MEMORY_MB=100 cargo test --release
//! -p codec-md --test memory` renders a 100 MB array.

use codec_core::{Codec, Map, TextLimit, Value};
use codec_md::{MarkdownCodec, Profile};

/// Renders `value` and returns (output length, peak bytes allocated
/// during the rendering, the output buffer included). The counting
/// allocator is the `allocation-counter` crate's, so this test needs no
/// `unsafe` of its own.
fn measure(value: &Value) -> (usize, usize) {
    measure_with(&MarkdownCodec::new(), value)
}

fn measure_with(codec: &MarkdownCodec, value: &Value) -> (usize, usize) {
    let mut len = 0;
    let info = allocation_counter::measure(|| {
        let mut out = Vec::new();
        codec.encode_value(value, &mut out).unwrap();
        len = out.len();
    });
    (len, usize::try_from(info.bytes_max).unwrap_or(usize::MAX))
}

fn object(members: Vec<(String, Value)>) -> Value {
    Value::Object(members.into_iter().collect::<Map>())
}

#[test]
fn rendering_allocates_little_beyond_the_output() {
    let mb: usize = std::env::var("MD_MEMORY_MB")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(2);
    let n = mb * 1_000_000 / 50;
    let shapes: Vec<(&str, Value)> = vec![
        (
            "table",
            Value::Array(
                (0..n)
                    .map(|i| {
                        object(vec![
                            ("id".into(), Value::from(i)),
                            ("name".into(), Value::from(format!("user_{i}"))),
                            ("note".into(), Value::from("*a* | <b> &amp;")),
                        ])
                    })
                    .collect(),
            ),
        ),
        (
            "sparse objects",
            Value::Array(
                (0..n / 2)
                    .map(|i| object(vec![(format!("key{i}"), Value::from(i))]))
                    .collect(),
            ),
        ),
        (
            "scalar list",
            Value::Array((0..n).map(|i| Value::from(format!("*{i}*"))).collect()),
        ),
        (
            "long string",
            object(vec![("s".into(), Value::from("`a` _b_ | ".repeat(n)))]),
        ),
    ];
    for (label, value) in shapes {
        let (len, peak) = measure(&value);
        // The buffer grows by doubling: at worst the old and the new
        // allocation, 3x the output, coexist for a moment.
        assert!(
            peak <= 3 * len + (1 << 20),
            "{label}: {peak} bytes allocated for {len} bytes of output"
        );
    }
}

/// The dense profile writes a table's markdown before it knows whether
/// its JSON costs less, so it may hold the table's header, each column's
/// whole dotted path, besides the output; and little else at any depth.
/// A row holding one object 60 deep with 20,000 members: each column's
/// path was a list of keys, and the index a copy (48 MB for a 2.5 MB
/// header, 0.5 MB of JSON).
#[test]
fn dense_columns_cost_their_header_at_any_depth() {
    let (depth, members) = (60, 20_000);
    let mut inner = object(
        (0..members)
            .map(|i| (format!("k{i}"), Value::from(i)))
            .collect(),
    );
    for _ in 0..depth {
        inner = object(vec![("n".into(), inner)]);
    }
    let value = Value::Array(vec![inner.clone(), inner]);
    // `n.n.…n.k123|` per column.
    let header: usize = (0..members)
        .map(|i| 2 * depth + format!("k{i}|").len())
        .sum();
    let codec = MarkdownCodec::builder().profile(Profile::Dense).build();
    let (len, peak) = measure_with(&codec, &value);
    assert!(
        peak <= 3 * (header + len) + (1 << 20),
        "{peak} bytes allocated for a header of {header} bytes and {len} bytes of output"
    );
}

/// Issue 40: a 489 KB dense table of 500 columns whose header paths are
/// 120 keys deep and 200 rows of `1` built 3.3 GB. Every reader now
/// refuses it, before building it, with the size limit's error, or reads
/// it within 256 MB (`parse_table`, whose cells are its text).
#[test]
fn a_long_header_over_many_rows_is_refused() {
    let header: Vec<String> = (0..500)
        .map(|column| {
            let keys: Vec<String> = (1..120).map(|key| format!("k{key:03}")).collect();
            format!("c{column}.{}", keys.join("."))
        })
        .collect();
    let row = format!("|{}|", vec!["1"; 500].join("|"));
    let markdown = format!(
        "|{}|\n|{}\n{}",
        header.join("|"),
        "---|".repeat(500),
        format!("{row}\n").repeat(200)
    );
    assert!(
        (450_000..520_000).contains(&markdown.len()),
        "{}",
        markdown.len()
    );
    let readers = [
        ("parse", Profile::Default),
        ("parse_lossless", Profile::Lossless),
        ("parse_dense", Profile::Dense),
    ];
    for (name, profile) in readers {
        let mut result = None;
        let options = codec_md::ParseOptions::default();
        let info = allocation_counter::measure(|| result = Some(options.parse(&markdown, profile)));
        let error = result.unwrap().expect_err(name);
        assert!(
            matches!(
                error.kind(),
                codec_md::ParseErrorKind::SizeLimit { factor: 64, .. }
            ),
            "{name}: {error}"
        );
        assert!(error.to_string().contains("ParseOptions::max_size_factor"));
        // Refused before anything is built: the lines and the header.
        assert!(
            info.bytes_max < 16 << 20,
            "{name}: {} bytes",
            info.bytes_max
        );
    }
    assert!(codec_md::parse_dense(&markdown).is_err());
    let info = allocation_counter::measure(|| {
        let table = codec_md::parse_table(&markdown).unwrap();
        assert_eq!(table.rows.len(), 200);
    });
    assert!(
        info.bytes_max < 256 << 20,
        "parse_table: {} bytes",
        info.bytes_max
    );
    // A flat table of the same rows is far under the limit.
    let flat: Vec<String> = (0..500).map(|column| format!("c{column}")).collect();
    let flat = format!(
        "|{}|\n|{}\n{}",
        flat.join("|"),
        "---|".repeat(500),
        format!("{row}\n").repeat(200)
    );
    assert!(codec_md::parse_dense(&flat).is_ok());
}

/// A rendering cut to a budget holds about what it keeps, not the whole
/// rendering: past the point where it is over the budget, the writer
/// measures what it writes and drops it (the note still counts all of
/// it). A 4 MB rendering cut to 25,000 chars or 25,000 bytes allocates
/// under 1 MB at its peak, where the whole rendering took its 4 MB.
#[test]
fn a_budget_holds_about_what_it_keeps() {
    let rows: Vec<Value> = (0..70_000)
        .map(|i| {
            object(vec![
                ("id".into(), Value::from(i)),
                ("name".into(), Value::from(format!("user {i}"))),
                ("mail".into(), Value::from(format!("user{i}@example.com"))),
                ("note".into(), Value::from("é *a* | <b>")),
            ])
        })
        .collect();
    let value = Value::Array(rows);
    let (whole, _) = measure(&value);
    assert!(whole > 4_000_000, "{whole}");
    for limit in [TextLimit::chars(25_000), TextLimit::bytes(25_000)] {
        let codec = MarkdownCodec::builder().budget(Some(limit.clone())).build();
        let (len, peak) = measure_with(&codec, &value);
        assert!(len <= 25_000 * 2, "{limit:?}: {len}");
        assert!(peak < 1 << 20, "{limit:?}: {peak} bytes allocated");
        let cut = codec_md::truncate(codec_md::render(&value).unwrap(), &limit);
        let mut out = Vec::new();
        codec.encode_value(&value, &mut out).unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), cut.text, "{limit:?}");
    }
}

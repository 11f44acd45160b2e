//! Memory stays linear in the input: rendering allocates the output buffer
//! and little else, whatever the shape of the value. Measured with a
//! counting allocator (this test binary only).
//!
//! The default size keeps CI fast; `MD_MEMORY_MB=100 cargo test --release
//! -p codec-md --test memory` renders a 100 MB array.

use codec_core::{Codec, Map, Value};
use codec_md::MarkdownCodec;

/// Renders `value` and returns (output length, peak bytes allocated
/// during the rendering, the output buffer included). The counting
/// allocator is the `allocation-counter` crate's, so this test needs no
/// `unsafe` of its own.
fn measure(value: &Value) -> (usize, usize) {
    let codec = MarkdownCodec::new();
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

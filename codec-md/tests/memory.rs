//! Memory stays linear in the input: rendering allocates the output buffer
//! and little else, whatever the shape of the value. Measured with a
//! counting allocator (this test binary only).
//!
//! The default size keeps CI fast; `MD_MEMORY_MB=100 cargo test --release
//! -p codec-md --test memory` renders a 100 MB array.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use codec_core::{Codec, Map, Value};
use codec_md::MarkdownCodec;

struct Counting;

static CURRENT: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

// SAFETY: forwards to the system allocator, only counting bytes.
#[allow(unsafe_code)]
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let now = CURRENT.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
        PEAK.fetch_max(now, Ordering::Relaxed);
        System.alloc(layout)
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        CURRENT.fetch_sub(layout.size(), Ordering::Relaxed);
        System.dealloc(ptr, layout)
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Renders `value` and returns (output length, peak bytes allocated
/// during the rendering, the output buffer included).
fn measure(value: &Value) -> (usize, usize) {
    let codec = MarkdownCodec::new();
    let base = CURRENT.load(Ordering::Relaxed);
    PEAK.store(base, Ordering::Relaxed);
    let mut out = Vec::new();
    codec.encode_value(value, &mut out).unwrap();
    (out.len(), PEAK.load(Ordering::Relaxed) - base)
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

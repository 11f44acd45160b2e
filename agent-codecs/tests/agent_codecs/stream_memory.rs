//! A large streamed response through a real HTTP/1.1 server, read to its
//! end while the server's memory stays flat: this process's peak resident
//! set (`VmHWM`), the server's and the client's together, grows by less
//! than a tenth of the response. A test of its own, so that no other
//! test's memory counts.

use crate::stream_example as example;

use crate::common;

/// Reads `target` to its end, a chunk at a time, keeping nothing; the
/// body's size.
fn drain(addr: std::net::SocketAddr, target: &str, accept: &str) -> usize {
    let mut response = common::get(addr, target, &[("accept", accept)]);
    assert_eq!(response.status, 200);
    let mut size = 0;
    while let Some(chunk) = response.chunk() {
        size += chunk.len();
    }
    assert!(response.complete, "{target} as {accept} ended early");
    size
}

#[cfg(target_os = "linux")]
#[test]
fn the_server_streams_in_flat_memory() {
    let addr = common::serve(example::app());
    // Warm up: the runtime, the codecs, the first buffers.
    drain(addr, "/events?rows=20000", "text/markdown");
    drain(addr, "/events?rows=20000", "application/json");
    let before = common::status_kb("VmHWM");
    let mut largest = 0;
    for accept in ["text/markdown", "application/json"] {
        let size = drain(addr, "/events?rows=400000", accept);
        largest = largest.max(size);
        assert!(size > 25_000_000, "{accept}: {size} bytes");
    }
    let grown = (common::status_kb("VmHWM") - before) * 1024;
    eprintln!("streamed: the peak grew by {grown} bytes for {largest}");
    assert!(
        grown < largest as u64 / 10,
        "the peak grew by {grown} bytes for responses of up to {largest} bytes"
    );

    // The measure can tell: the MCP codec has no streaming result, so its
    // rows are collected, and the peak grows with them.
    let before = common::status_kb("VmHWM");
    let size = drain(addr, "/events?rows=60000", "application/vnd.mcp+json");
    let grown = (common::status_kb("VmHWM") - before) * 1024;
    eprintln!("collected: the peak grew by {grown} bytes for {size}");
    assert!(
        grown > size as u64,
        "collected: grew by {grown} for {size} bytes"
    );
}

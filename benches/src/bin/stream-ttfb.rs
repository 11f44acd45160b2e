//! Time to the first byte of a negotiated response of 1k, 10k and 100k
//! rows through the real `NegotiateLayer`: a `NegotiatedStream` (its first
//! chunk leaves after a few KB of rows) beside the buffered
//! `Negotiated(rows)` (its body exists once every row is encoded), as JSON
//! and as markdown. Prints a markdown table of medians.
//!
//! `cargo run -p benches --release --bin stream-ttfb`
//!
//! In process, like the `serve` bench group: each request goes through the
//! router with `tower::ServiceExt::oneshot`, and the body is polled on the
//! spot (nothing in the path waits on I/O). The handler makes its rows:
//! the stream's lazily as the body pulls them, the buffered one all before
//! it returns, as a handler that queries its rows would.

use std::future::Future;
use std::pin::pin;
use std::task::{Context, Poll, Waker};
use std::time::{Duration, Instant};

use axum::Router;
use axum::body::{Body, HttpBody};
use axum::http::header::ACCEPT;
use axum::http::{Request, Uri};
use axum::routing::get;
use negotiate::{NegotiateLayer, Negotiated, NegotiatedStream};
use serde::Serialize;
use tower::ServiceExt;

/// One row of the response.
#[derive(Debug, Clone, Serialize)]
struct Row {
    id: u64,
    name: String,
    note: String,
    ok: bool,
}

fn row(id: u64) -> Row {
    Row {
        id,
        name: format!("row number {id}"),
        note: format!("a note long enough to be a realistic cell, row {id}"),
        ok: !id.is_multiple_of(3),
    }
}

/// The rows asked for by `?rows=N`.
fn rows_of(uri: &Uri) -> u64 {
    uri.query()
        .and_then(|q| q.strip_prefix("rows="))
        .and_then(|n| n.parse().ok())
        .unwrap_or(0)
}

fn router() -> Router {
    Router::new()
        .route(
            "/stream",
            get(|uri: Uri| async move { NegotiatedStream::from_iter((0..rows_of(&uri)).map(row)) }),
        )
        .route(
            "/buffered",
            get(|uri: Uri| async move {
                Negotiated((0..rows_of(&uri)).map(row).collect::<Vec<_>>())
            }),
        )
        .layer(NegotiateLayer::new(benches::serve::negotiator()))
}

/// Polls `future` to its end on the spot: nothing in the path waits.
fn ready<F: Future>(future: F) -> F::Output {
    let mut future = pin!(future);
    let mut cx = Context::from_waker(Waker::noop());
    loop {
        if let Poll::Ready(output) = future.as_mut().poll(&mut cx) {
            return output;
        }
    }
}

/// The time to the first data byte and to the end of the body, and the
/// body's size.
fn request(router: &Router, path: &str, accept: &str) -> (Duration, Duration, usize) {
    let request = Request::get(path)
        .header(ACCEPT, accept)
        .body(Body::empty())
        .expect("a valid request");
    let start = Instant::now();
    let response = ready(router.clone().oneshot(request)).expect("infallible");
    assert!(
        response.status().is_success(),
        "{path}: {}",
        response.status()
    );
    let mut body = pin!(response.into_body());
    let mut cx = Context::from_waker(Waker::noop());
    let mut first = None;
    let mut size = 0;
    loop {
        match body.as_mut().poll_frame(&mut cx) {
            Poll::Ready(Some(Ok(frame))) => {
                if let Ok(data) = frame.into_data() {
                    if !data.is_empty() && first.is_none() {
                        first = Some(start.elapsed());
                    }
                    size += data.len();
                }
            }
            Poll::Ready(Some(Err(e))) => panic!("{path}: {e}"),
            Poll::Ready(None) => break,
            Poll::Pending => {}
        }
    }
    (first.unwrap_or_default(), start.elapsed(), size)
}

fn median(mut times: Vec<Duration>) -> Duration {
    times.sort();
    times[times.len() / 2]
}

fn ms(d: Duration) -> String {
    format!("{:.3}", d.as_secs_f64() * 1000.0)
}

fn main() {
    let router = router();
    println!("| response | accept | rows | body MB | first byte ms | whole body ms |");
    println!("|---|---|---:|---:|---:|---:|");
    for (path, accept) in [
        ("/stream", "application/json"),
        ("/buffered", "application/json"),
        ("/stream", "text/markdown"),
        ("/buffered", "text/markdown"),
    ] {
        for rows in [1_000u64, 10_000, 100_000] {
            let target = format!("{path}?rows={rows}");
            // Fewer runs for the larger responses; at least 5.
            let runs = (2_000_000 / rows).clamp(5, 201) as usize;
            let mut firsts = Vec::with_capacity(runs);
            let mut wholes = Vec::with_capacity(runs);
            let mut size = 0;
            request(&router, &target, accept);
            for _ in 0..runs {
                let (first, whole, bytes) = request(&router, &target, accept);
                firsts.push(first);
                wholes.push(whole);
                size = bytes;
            }
            println!(
                "| {} | {accept} | {rows} | {:.1} | {} | {} |",
                &path[1..],
                size as f64 / 1e6,
                ms(median(firsts)),
                ms(median(wholes)),
            );
        }
    }
}

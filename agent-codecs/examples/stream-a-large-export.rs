//! A log export of any size, streamed: agents read it as a markdown table,
//! programs as a JSON array, a row at a time as they read, and the
//! server's memory does not grow with it.
//!
//! ```text
//! cargo run -p agent-codecs --example stream-a-large-export [ADDR]
//! curl -N -H 'Accept: text/markdown' 'http://127.0.0.1:3000/events?rows=1000000' | head
//! curl -N 'http://127.0.0.1:3000/events?rows=3'
//! ```
//!
//! In a service of your own: `agent-codecs = { version = "0.1", features
//! = ["axum"] }`, plus axum, tokio and serde, and a `Stream` of your rows
//! (a database cursor, `futures::stream`, `tokio_stream`).
//!
//! What it shows:
//!
//! - `/events?rows=N` returns a `NegotiatedStream` of N events from an
//!   iterator, declaring its columns: markdown is one table (a row with a
//!   `retry` starts a table with that column too, under `## [i..]`), JSON
//!   is `{"events": [...]}`. Rows are pulled only as the client reads.
//! - `/events/failing?after=N` is a `Stream` whose source fails after N
//!   rows: the markdown ends with a note, the JSON unterminated, and the
//!   response is aborted, so the client's HTTP library reports it
//!   incomplete.
//! - No budget: a budget cuts a whole rendering, so the rows of a
//!   budgeted codec are collected (up to 64 MiB) rather than streamed.

use std::pin::Pin;
use std::task::{Context, Poll};

use agent_codecs::NegotiatedStream;
use axum::Router;
use axum::http::Uri;
use axum::routing::get;
use serde::Serialize;

/// One event of the log.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct Event {
    id: u64,
    at: String,
    level: &'static str,
    service: &'static str,
    message: String,
    /// Only on some events: the row brings a new column.
    #[serde(skip_serializing_if = "Option::is_none")]
    retry: Option<u32>,
}

/// The `n`-th event, deterministic.
pub(crate) fn event(n: u64) -> Event {
    const LEVELS: [&str; 4] = ["info", "info", "warn", "error"];
    const SERVICES: [&str; 3] = ["api", "billing", "search"];
    Event {
        id: n,
        at: format!(
            "2026-01-{:02}T{:02}:{:02}:00Z",
            1 + n / 86_400 % 28,
            n / 3_600 % 24,
            n / 60 % 60
        ),
        level: LEVELS[(n % 4) as usize],
        service: SERVICES[(n % 3) as usize],
        message: format!("request {n} served in {} ms", 3 + n % 97),
        retry: (n % 1_000 == 999).then_some(1 + (n % 3) as u32),
    }
}

/// The number in the query parameter `name` (`?rows=1000`), if any.
fn param(uri: &Uri, name: &str) -> Option<u64> {
    uri.query()?
        .split('&')
        .find_map(|pair| pair.strip_prefix(name)?.strip_prefix('=')?.parse().ok())
}

/// The events, as an iterator: pulled one at a time as the client reads.
async fn events(uri: Uri) -> NegotiatedStream {
    let rows = param(&uri, "rows").unwrap_or(100);
    NegotiatedStream::from_iter((0..rows).map(event))
        .member("events")
        .columns(["id", "at", "level", "service", "message"])
}

/// A source of events that fails after `after` of them: a `Stream`, as a
/// database cursor would be.
struct Failing {
    next: u64,
    after: u64,
}

/// Why the source stopped.
#[derive(Debug)]
struct SourceFailed(u64);

impl std::fmt::Display for SourceFailed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "the event store went away after {} events", self.0)
    }
}

impl std::error::Error for SourceFailed {}

impl futures_core::Stream for Failing {
    type Item = Result<Event, SourceFailed>;

    fn poll_next(mut self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let n = self.next;
        self.next += 1;
        Poll::Ready(Some(match n < self.after {
            true => Ok(event(n)),
            false => Err(SourceFailed(n)),
        }))
    }
}

async fn failing(uri: Uri) -> NegotiatedStream {
    let after = param(&uri, "after").unwrap_or(10);
    NegotiatedStream::new(Failing { next: 0, after }).member("events")
}

/// The service: its routes behind the standard layer.
pub(crate) fn app() -> Router {
    let layer = agent_codecs::standard()
        .layer()
        .expect("the standard codecs build");
    Router::new()
        .route("/events", get(events))
        .route("/events/failing", get(failing))
        .layer(layer)
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let addr = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "127.0.0.1:3000".to_owned());
    let listener = tokio::net::TcpListener::bind(&addr).await?;
    eprintln!(
        "streaming events on http://{}/events",
        listener.local_addr()?
    );
    axum::serve(listener, app()).await?;
    Ok(())
}

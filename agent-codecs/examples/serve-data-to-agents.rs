//! An orders API that agents read as markdown, programs as JSON, MCP
//! clients as tool results and people as a page, from one handler each.
//!
//! ```text
//! cargo run -p agent-codecs --example serve-data-to-agents [ADDR]
//! curl -H 'Accept: text/markdown' http://127.0.0.1:3000/orders
//! curl -i http://127.0.0.1:3000/orders/7
//! ```
//!
//! In a service of your own: `agent-codecs = { version = "0.1", features
//! = ["axum", "html", "tokens"] }`, plus axum, tokio and serde.
//!
//! What it shows:
//!
//! - Handlers return `Negotiated(data)`; the layer of
//!   `agent_codecs::standard()` encodes it as the request asks: `Accept`
//!   (Claude Code, Cursor, OpenCode and OpenClaw ask for markdown;
//!   browsers for HTML; `curl` for anything, so JSON), `?format=md`, or,
//!   for known agents that send `*/*`, their `User-Agent`.
//! - Every answer has an `ETag` (a `GET` with `If-None-Match` gets `304`),
//!   `Link` alternates to its markdown and JSON, and the markdown its
//!   exact o200k token count in `x-markdown-tokens`.
//! - A budget keeps markdown and MCP text under 2,000 o200k tokens,
//!   cutting only between rows, with a note saying how to page.

use std::sync::Arc;

use agent_codecs::{Negotiated, O200k, TextLimit};
use axum::Router;
use axum::extract::Path;
use axum::http::{StatusCode, Uri};
use axum::routing::get;
use serde::Serialize;

#[derive(Debug, Clone, Serialize)]
struct Order {
    id: u32,
    customer: String,
    status: &'static str,
    total: f64,
}

#[derive(Debug, Serialize)]
struct OrderDetail {
    id: u32,
    customer: String,
    status: &'static str,
    total: f64,
    lines: Vec<Line>,
}

#[derive(Debug, Serialize)]
struct Line {
    sku: String,
    quantity: u32,
    price: f64,
}

#[derive(Debug, Serialize)]
struct NotFound {
    error: String,
}

const STATUSES: [&str; 4] = ["pending", "paid", "shipped", "delivered"];
const CUSTOMERS: [&str; 5] = [
    "Ada Lovelace",
    "Alan Turing",
    "Grace Hopper",
    "Edsger Dijkstra",
    "Barbara Liskov",
];

/// 500 orders, the same on every run.
fn all_orders() -> Vec<Order> {
    (1..=500)
        .map(|id: u32| Order {
            id,
            customer: CUSTOMERS[id as usize % CUSTOMERS.len()].to_owned(),
            status: STATUSES[id as usize % STATUSES.len()],
            total: f64::from(id * 37 % 1000) + 0.5,
        })
        .collect()
}

/// `GET /orders?offset=N`: the orders from the `N`th on.
async fn orders(uri: Uri) -> Negotiated<Vec<Order>> {
    let offset = uri
        .query()
        .unwrap_or("")
        .split('&')
        .find_map(|pair| pair.strip_prefix("offset="))
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    Negotiated(all_orders().into_iter().skip(offset).collect())
}

/// `GET /orders/{id}`: one order with its lines, or a 404 that agents read
/// as markdown too.
async fn order(
    Path(id): Path<u32>,
) -> Result<Negotiated<OrderDetail>, (StatusCode, Negotiated<NotFound>)> {
    let Some(order) = all_orders().into_iter().find(|o| o.id == id) else {
        let error = format!("no order {id}; ids run from 1 to 500");
        return Err((StatusCode::NOT_FOUND, Negotiated(NotFound { error })));
    };
    let lines = (1..=id % 3 + 1)
        .map(|n| Line {
            sku: format!("SKU-{id:03}-{n}"),
            quantity: n,
            price: f64::from(n) * 9.5,
        })
        .collect();
    Ok(Negotiated(OrderDetail {
        id: order.id,
        customer: order.customer,
        status: order.status,
        total: order.total,
        lines,
    }))
}

/// The service: every route behind the standard layer.
pub(crate) fn app() -> Router {
    // Loads the o200k vocabulary once, here, not on the first request.
    let o200k = Arc::new(O200k::new());
    let budget = TextLimit::tokens(2_000, o200k)
        .with_hint("Request ?offset=N for the orders from N on; this answer kept {rows} rows.");
    let layer = agent_codecs::standard()
        .html(true)
        .title("Orders")
        .agents(true)
        .budget(Some(budget))
        .layer()
        .expect("the standard options agree");
    Router::new()
        .route("/orders", get(orders))
        .route("/orders/{id}", get(order))
        .route("/health", get(|| async { "ok" }))
        .layer(layer)
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let addr = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "127.0.0.1:3000".to_owned());
    let listener = tokio::net::TcpListener::bind(&addr).await?;
    eprintln!("serving http://{}/orders", listener.local_addr()?);
    axum::serve(listener, app()).await?;
    Ok(())
}

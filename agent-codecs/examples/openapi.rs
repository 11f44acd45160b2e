//! The OpenAPI document of the orders API on axum: each route names
//! `Negotiated<T>` in its `#[utoipa::path]`, and one call,
//! `Standard::openapi`, lists on each the media types the service answers
//! with (JSON, markdown, MCP) and their schemas, the 406 and `?format=`.
//!
//! ```text
//! cargo run -p agent-codecs --example openapi --features axum,utoipa
//! ```
//!
//! It prints the document (JSON) and exits. In a service of your own:
//! `agent-codecs = { version = "0.1", features = ["axum", "utoipa"] }`,
//! plus axum, utoipa and serde.

use agent_codecs::Negotiated;
use axum::Router;
use axum::extract::Path;
use axum::http::StatusCode;
use axum::routing::get;
use serde::Serialize;
use utoipa::{OpenApi, ToSchema};

/// An order.
#[derive(Debug, Serialize, ToSchema)]
struct Order {
    id: u32,
    customer: &'static str,
    status: &'static str,
    total: f64,
}

/// An order with its lines.
#[derive(Debug, Serialize, ToSchema)]
struct OrderDetail {
    id: u32,
    customer: &'static str,
    status: &'static str,
    total: f64,
    lines: Vec<Line>,
}

/// A line of an order.
#[derive(Debug, Serialize, ToSchema)]
struct Line {
    sku: String,
    quantity: u32,
    price: f64,
}

/// Why a request found nothing.
#[derive(Debug, Serialize, ToSchema)]
struct NotFound {
    error: String,
}

const STATUSES: [&str; 4] = ["pending", "paid", "shipped", "delivered"];
const CUSTOMERS: [&str; 3] = ["Ada Lovelace", "Alan Turing", "Grace Hopper"];

/// Order `id` (1 to 50), the same on every run.
fn order(id: u32) -> Option<Order> {
    (1..=50).contains(&id).then(|| Order {
        id,
        customer: CUSTOMERS[id as usize % CUSTOMERS.len()],
        status: STATUSES[id as usize % STATUSES.len()],
        total: f64::from(id * 37 % 1000) + 0.5,
    })
}

/// The orders, a table.
#[utoipa::path(get, path = "/orders", responses(Negotiated<Vec<Order>>))]
async fn orders() -> Negotiated<Vec<Order>> {
    Negotiated((1..=50).filter_map(order).collect())
}

/// One order with its lines.
#[utoipa::path(
    get,
    path = "/orders/{id}",
    params(("id" = u32, Path, description = "The order's id, 1 to 50")),
    responses(
        Negotiated<OrderDetail>,
        (status = 404, description = "No such order", body = NotFound),
    ),
)]
async fn order_detail(
    Path(id): Path<u32>,
) -> Result<Negotiated<OrderDetail>, (StatusCode, Negotiated<NotFound>)> {
    let Some(order) = order(id) else {
        let error = format!("no such order: /orders/{id}; ids run from 1 to 50");
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
        id,
        customer: order.customer,
        status: order.status,
        total: order.total,
        lines,
    }))
}

#[derive(OpenApi)]
#[openapi(
    info(title = "Orders", description = "Orders, for people and agents."),
    paths(orders, order_detail)
)]
struct Api;

/// The service's standard negotiation, with the agent policy on: what its
/// layer serves and its document lists.
pub(crate) fn standard() -> agent_codecs::Standard {
    agent_codecs::standard().agents(true)
}

/// The service: serve it with `axum::serve`, as usual.
pub(crate) fn app() -> Result<Router, agent_codecs::SetupError> {
    Ok(Router::new()
        .route("/orders", get(orders))
        .route("/orders/{id}", get(order_detail))
        .layer(standard().layer()?))
}

/// Its OpenAPI document, for the media types of `standard`.
pub(crate) fn document(
    standard: &agent_codecs::Standard,
) -> Result<utoipa::openapi::OpenApi, agent_codecs::SetupError> {
    let mut openapi = Api::openapi();
    standard.openapi(&mut openapi)?;
    Ok(openapi)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // The routes the document describes, as they are served.
    let _app = app()?;
    println!("{}", document(&standard())?.to_pretty_json()?);
    Ok(())
}

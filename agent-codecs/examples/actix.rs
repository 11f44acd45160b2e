//! The orders API on actix-web: handlers return `Negotiated(data)` and
//! answer as the request asks, with the standard headers, configured once
//! through `app_data`.
//!
//! ```text
//! cargo run -p agent-codecs --example actix --features actix
//! curl -H 'Accept: text/markdown' http://127.0.0.1:3000/orders
//! curl -i http://127.0.0.1:3000/orders/7
//! ```
//!
//! It listens on `127.0.0.1:3000`, or on the address in `ADDR`. In a
//! service of your own: `agent-codecs = { version = "0.1", features =
//! ["actix"] }`, plus actix-web and serde.

use actix_web::http::StatusCode;
use actix_web::{App, Either, HttpServer, Responder, web};
use agent_codecs::actix::{Negotiated, Negotiation};
use serde::Serialize;

#[derive(Debug, Serialize)]
struct Order {
    id: u32,
    customer: &'static str,
    status: &'static str,
    total: f64,
}

#[derive(Debug, Serialize)]
struct OrderDetail {
    id: u32,
    customer: &'static str,
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

/// `GET /orders`: a table.
async fn orders() -> Negotiated<Vec<Order>> {
    Negotiated((1..=50).filter_map(order).collect())
}

/// `GET /orders/{id}`: one order with its lines, or a 404 that agents
/// read as markdown too.
async fn order_detail(id: web::Path<String>) -> impl Responder {
    let found = id.parse().ok().and_then(order);
    let Some(order) = found else {
        let error = format!("no such order: /orders/{id}; ids run from 1 to 50");
        let missing = Negotiated(NotFound { error });
        return Either::Right(missing.customize().with_status(StatusCode::NOT_FOUND));
    };
    let lines = (1..=order.id % 3 + 1)
        .map(|n| Line {
            sku: format!("SKU-{:03}-{n}", order.id),
            quantity: n,
            price: f64::from(n) * 9.5,
        })
        .collect();
    Either::Left(Negotiated(OrderDetail {
        id: order.id,
        customer: order.customer,
        status: order.status,
        total: order.total,
        lines,
    }))
}

/// The two routes.
pub(crate) fn routes(config: &mut web::ServiceConfig) {
    config
        .route("/orders", web::get().to(orders))
        .route("/orders/{id}", web::get().to(order_detail));
}

/// The standard negotiation, with the agent policy on, that the routes
/// read from `app_data`: built once, shared by every worker.
pub(crate) fn negotiation() -> web::Data<Negotiation> {
    agent_codecs::standard()
        .agents(true)
        .actix()
        .expect("the standard options agree")
}

fn main() -> std::io::Result<()> {
    let addr = std::env::var("ADDR").unwrap_or_else(|_| "127.0.0.1:3000".to_owned());
    let negotiation = negotiation();
    actix_web::rt::System::new().block_on(async move {
        let app = move || App::new().app_data(negotiation.clone()).configure(routes);
        let server = HttpServer::new(app).bind(&addr)?;
        for bound in server.addrs() {
            eprintln!("serving http://{bound}/orders");
        }
        server.run().await
    })
}

//! The orders API on plain hyper 1, without a framework: each answer is
//! `Negotiator::respond_with`, the negotiated body with the standard
//! headers, as the axum layer sends it.
//!
//! ```text
//! cargo run -p agent-codecs --example hyper --features http
//! curl -H 'Accept: text/markdown' http://127.0.0.1:3000/orders
//! curl -i http://127.0.0.1:3000/orders/7
//! ```
//!
//! It listens on `127.0.0.1:3000`, or on the address in `ADDR`. In a
//! service of your own: `agent-codecs = { version = "0.1", features =
//! ["http"] }`, plus hyper (`server`, `http1`), hyper-util (`tokio`),
//! http-body-util, tokio and serde.

use std::convert::Infallible;
use std::sync::Arc;

use agent_codecs::negotiate::{Negotiator, ResponseHeaders};
use http_body_util::Full;
use hyper::body::{Bytes, Incoming};
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::{Request, Response, StatusCode};
use hyper_util::rt::TokioIo;
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

/// Order `id` with its lines.
fn detail(id: u32) -> Option<OrderDetail> {
    let lines = (1..=id % 3 + 1)
        .map(|n| Line {
            sku: format!("SKU-{id:03}-{n}"),
            quantity: n,
            price: f64::from(n) * 9.5,
        })
        .collect();
    let order = order(id)?;
    Some(OrderDetail {
        id: order.id,
        customer: order.customer,
        status: order.status,
        total: order.total,
        lines,
    })
}

/// What every connection shares: the negotiator and the response headers.
struct Service {
    negotiator: Negotiator,
    headers: ResponseHeaders,
}

impl Service {
    fn new() -> Service {
        let standard = agent_codecs::standard().agents(true);
        Service {
            negotiator: standard.build().expect("the standard options agree"),
            headers: standard.response_headers(),
        }
    }

    /// `value`, negotiated for `request`, with `status` (a 406 or 400 of
    /// the negotiation keeps its own).
    fn answer<T: Serialize>(
        &self,
        request: &Request<Incoming>,
        status: StatusCode,
        value: &T,
    ) -> Response<Full<Bytes>> {
        let (method, uri, headers) = (request.method(), request.uri(), request.headers());
        self.negotiator
            .respond_with(&self.headers, method, uri, headers, status, value)
            .map(|body| Full::new(Bytes::from(body)))
    }

    /// `GET /orders` (a table) and `GET /orders/{id}` (an object with a
    /// nested list); anything else is a negotiated 404.
    fn route(&self, request: &Request<Incoming>) -> Response<Full<Bytes>> {
        let path = request.uri().path().trim_end_matches('/');
        if path == "/orders" {
            let orders: Vec<Order> = (1..=50).filter_map(order).collect();
            return self.answer(request, StatusCode::OK, &orders);
        }
        let id = path.strip_prefix("/orders/").map(str::parse::<u32>);
        match id.and_then(Result::ok).and_then(detail) {
            Some(detail) => self.answer(request, StatusCode::OK, &detail),
            None => {
                let error = format!("no such order: {path}; ids run from 1 to 50");
                self.answer(request, StatusCode::NOT_FOUND, &NotFound { error })
            }
        }
    }
}

/// Serves the API on `listener` until the process ends.
pub(crate) async fn serve(listener: tokio::net::TcpListener) -> std::io::Result<()> {
    let service = Arc::new(Service::new());
    loop {
        let (stream, _) = listener.accept().await?;
        let service = Arc::clone(&service);
        tokio::spawn(async move {
            let handle = service_fn(move |request: Request<Incoming>| {
                let response = service.route(&request);
                async move { Ok::<_, Infallible>(response) }
            });
            let connection = http1::Builder::new().serve_connection(TokioIo::new(stream), handle);
            if let Err(error) = connection.await {
                eprintln!("connection error: {error}");
            }
        });
    }
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let addr = std::env::var("ADDR").unwrap_or_else(|_| "127.0.0.1:3000".to_owned());
    let listener = tokio::net::TcpListener::bind(&addr).await?;
    eprintln!("serving http://{}/orders", listener.local_addr()?);
    serve(listener).await?;
    Ok(())
}

//! STAND-IN CODECS: the three codecs here only declare the real media
//! types and write a stand-in body; do not copy them. A service with the
//! real codecs is agent-codecs' example, `serve-data-to-agents`
//! (`cargo run -p agent-codecs --example serve-data-to-agents`).
//!
//! Serves one list of items as JSON, GFM markdown or MCP JSON, whichever
//! each request's `Accept` (or `?format=`) asks for.
//!
//! ```text
//! cargo run -p negotiate --features axum --example serve-negotiated-data [ADDR]
//! curl -H 'Accept: text/markdown, text/html, */*' http://127.0.0.1:3000/items
//! curl 'http://127.0.0.1:3000/items?format=mcp'
//! ```
//!
//! The handler returns its data once, as `Negotiated(items)`; the
//! `NegotiateLayer` picks the codec. The codecs are stand-ins so that this
//! crate's example depends on the `Codec` trait only, as the crate does.

use std::sync::Arc;

use axum::Router;
use axum::http::StatusCode;
use axum::routing::get;
use codec_core::{Codec, EncodeError, MediaType, Value};
use negotiate::{NegotiateLayer, Negotiated, Negotiator};
use serde::Serialize;

#[derive(Debug, Clone, Serialize)]
struct Item {
    id: u32,
    name: &'static str,
    in_stock: bool,
}

const ITEMS: [Item; 3] = [
    Item {
        id: 1,
        name: "kettle",
        in_stock: true,
    },
    Item {
        id: 2,
        name: "teapot | large",
        in_stock: false,
    },
    Item {
        id: 3,
        name: "cup",
        in_stock: true,
    },
];

async fn items() -> Negotiated<Vec<Item>> {
    Negotiated(ITEMS.to_vec())
}

async fn create_item() -> (StatusCode, Negotiated<Item>) {
    (StatusCode::CREATED, Negotiated(ITEMS[0].clone()))
}

/// JSON, markdown (also as `text/x-markdown`) and MCP, JSON first: the
/// default for clients without a preference.
pub(crate) fn negotiator() -> Negotiator {
    Negotiator::builder()
        .codec(Arc::new(Json))
        .codec(Arc::new(Markdown(MediaType::from_static(
            "text/markdown; charset=utf-8; variant=GFM",
        ))))
        .codec(Arc::new(Mcp(MediaType::from_static(
            "application/vnd.mcp+json",
        ))))
        .alias("md", MediaType::from_static("text/x-markdown"))
        .build()
        .expect("valid negotiator settings")
}

/// The service: `/items` and `POST /items` are negotiated, `/health` is
/// not.
pub(crate) fn app() -> Router {
    Router::new()
        .route("/items", get(items).post(create_item))
        .route("/health", get(|| async { "ok" }))
        .layer(NegotiateLayer::new(Arc::new(negotiator())))
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let addr = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "127.0.0.1:3000".to_owned());
    let listener = tokio::net::TcpListener::bind(&addr)
        .await
        .unwrap_or_else(|e| panic!("cannot listen on {addr}: {e}"));
    let local = listener.local_addr().expect("a bound address");
    println!("serving negotiated items on http://{local}/items");
    axum::serve(listener, app()).await.expect("server error");
}

/// `application/json`, written by serde_json.
struct Json;

impl Codec for Json {
    fn format(&self) -> &str {
        "json"
    }

    fn media_type(&self) -> &MediaType {
        static JSON: std::sync::OnceLock<MediaType> = std::sync::OnceLock::new();
        JSON.get_or_init(|| MediaType::from_static("application/json"))
    }

    fn encode_value(&self, value: &Value, out: &mut Vec<u8>) -> Result<(), EncodeError> {
        serde_json::to_writer(out, value).map_err(|e| EncodeError::Io(e.into()))
    }
}

/// GFM: an array of objects as a table, anything else as a JSON block.
struct Markdown(MediaType);

impl Codec for Markdown {
    fn format(&self) -> &str {
        "md"
    }

    fn media_type(&self) -> &MediaType {
        &self.0
    }

    fn encode_value(&self, value: &Value, out: &mut Vec<u8>) -> Result<(), EncodeError> {
        let rows = value.as_array().unwrap_or_default();
        let Some(first) = rows.first().and_then(Value::as_object) else {
            out.extend_from_slice(b"```json\n");
            serde_json::to_writer(&mut *out, value).map_err(|e| EncodeError::Io(e.into()))?;
            out.extend_from_slice(b"\n```\n");
            return Ok(());
        };
        let keys: Vec<&str> = first.keys().collect();
        let line = |cells: &mut dyn Iterator<Item = String>, out: &mut Vec<u8>| {
            for cell in cells {
                out.extend_from_slice(b"| ");
                out.extend_from_slice(cell.replace('|', "\\|").as_bytes());
                out.push(b' ');
            }
            out.extend_from_slice(b"|\n");
        };
        line(&mut keys.iter().map(|k| k.to_string()), out);
        line(&mut keys.iter().map(|_| "---".to_owned()), out);
        for row in rows {
            let mut cells = keys.iter().map(|k| match row.get(k) {
                Some(Value::String(s)) => s.clone(),
                Some(other) => serde_json::to_string(other).unwrap_or_default(),
                None => String::new(),
            });
            line(&mut cells, out);
        }
        Ok(())
    }
}

/// MCP tool-result JSON: the data as `structuredContent`.
struct Mcp(MediaType);

impl Codec for Mcp {
    fn format(&self) -> &str {
        "mcp"
    }

    fn media_type(&self) -> &MediaType {
        &self.0
    }

    fn encode_value(&self, value: &Value, out: &mut Vec<u8>) -> Result<(), EncodeError> {
        out.extend_from_slice(br#"{"structuredContent":"#);
        serde_json::to_writer(&mut *out, value).map_err(|e| EncodeError::Io(e.into()))?;
        out.push(b'}');
        Ok(())
    }
}

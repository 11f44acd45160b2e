//! The negotiated path end to end, as a service sees it: the same typed
//! data served in process by an axum [`Router`], once with axum's own
//! [`axum::Json`] (the baseline), once as [`Negotiated`] data behind the
//! bare [`NegotiateLayer`] with the real codecs (codec-json, codec-md's
//! default profile, codec-mcp's defaults), and once behind the layer the
//! README hands out, `agent_codecs::standard().layer()`: the same codecs
//! with the standard response headers (`ETag`, `Link`, `Vary`); and
//! behind that layer again with a validator the handler supplies
//! (`Negotiated(data).validator(..)`), from which the layer derives the
//! `ETag` instead of hashing the body.
//!
//! Each call builds a `GET /` request with the [`Accept`](Route::accept)
//! of one route, sends it with `tower::ServiceExt::oneshot`, and collects
//! the body: what a client pays per request, minus the network. Nothing in
//! the path waits on I/O, so [`Server::get`] polls the future on the spot
//! (no runtime; a runtime's cost would be the same for every route).
//!
//! The handlers return the data behind an `Arc` ([`Shared`]), so no route
//! pays for copying it: the baseline is serializing it, as a handler that
//! holds its data would.
//!
//! The same on actix-web: an `App` with actix's own `web::Json` (the
//! actix baseline), and one with `negotiate::actix::Negotiated` data and a
//! `Negotiation` over the same negotiator in its `app_data`, each
//! initialized once (`actix_web::test::init_service`) and called in
//! process (`call_service`) with a `TestRequest`, its body taken whole
//! (`MessageBody::try_into_bytes`).

use std::fmt;
use std::future::Future;
use std::pin::pin;
use std::rc::Rc;
use std::sync::Arc;
use std::task::{Context, Poll, Waker};

use actix_web::body::MessageBody;
use axum::Router;
use axum::body::Body;
use axum::http::Request;
use axum::http::header::ACCEPT;
use axum::routing::get;
use codec_core::Codec;
use codec_json::JsonCodec;
use codec_mcp::McpCodec;
use codec_md::MarkdownCodec;
use negotiate::actix::Negotiation;
use negotiate::{NegotiateLayer, Negotiated, Negotiator};
use serde::{Serialize, Serializer};
use tower::ServiceExt;

use crate::DATASETS;
use crate::types::Typed;

/// Every input of the serve figures, typed: the eight datasets, then the
/// [`SMALL_RESPONSES`](crate::SMALL_RESPONSES) (per-response fixed costs
/// dominate at their size, which the whole datasets hide).
pub fn inputs() -> Vec<(&'static str, Typed)> {
    let labels = DATASETS.iter().map(|dataset| dataset.name);
    let labels = labels.chain(crate::SMALL_RESPONSES.iter().map(|(label, ..)| *label));
    labels
        .filter_map(|label| Some((label, input(label)?)))
        .collect()
}

/// The input labelled `label`: a dataset (see [`inputs`]), or
/// `DATASET-ROWS`, the dataset's first ROWS rows, as the
/// [`SMALL_RESPONSES`](crate::SMALL_RESPONSES) are (`tabular-1` is a
/// one-row response, where a response's fixed cost is nearly all).
pub fn input(label: &str) -> Option<Typed> {
    if let Some(dataset) = crate::dataset(label) {
        return Some(Typed::load(dataset));
    }
    let (name, rows) = label.rsplit_once('-')?;
    let rows = rows.parse().ok()?;
    Some(Typed::load(crate::dataset(name)?).first_rows(rows))
}

/// Data a handler holds and serves on every request without copying it.
#[derive(Debug)]
pub struct Shared<T>(pub Arc<T>);

impl<T> Clone for Shared<T> {
    fn clone(&self) -> Shared<T> {
        Shared(Arc::clone(&self.0))
    }
}

impl<T: Serialize> Serialize for Shared<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(serializer)
    }
}

/// One way of serving the data, by name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Route {
    /// `axum::Json(data)`, no layer: the baseline.
    AxumJson,
    /// `Negotiated(data)` behind the layer, negotiated to codec-json.
    Json,
    /// ... to codec-md, default profile.
    Markdown,
    /// ... to codec-mcp, default options.
    Mcp,
    /// `Negotiated(data)` behind `agent_codecs::standard().layer()`,
    /// negotiated to JSON.
    StandardJson,
    /// ... to markdown.
    StandardMarkdown,
    /// ... to MCP.
    StandardMcp,
    /// `Negotiated(data).validator(VALIDATOR)` behind
    /// `agent_codecs::standard().layer()`, negotiated to JSON: the `ETag`
    /// derived from the validator, not hashed from the body.
    ValidatedJson,
    /// ... to markdown.
    ValidatedMarkdown,
    /// ... to MCP.
    ValidatedMcp,
    /// actix-web's `web::Json(data)`: the actix baseline.
    ActixJson,
    /// `negotiate::actix::Negotiated(data)` in an actix `App` with a
    /// `Negotiation` over the same negotiator, negotiated to codec-json.
    ActixNegotiatedJson,
    /// ... to codec-md, default profile.
    ActixMarkdown,
    /// ... to codec-mcp, default options.
    ActixMcp,
}

impl Route {
    /// The axum routes, their baseline (`axum::Json`) first.
    pub const AXUM: [Route; 10] = [
        Route::AxumJson,
        Route::Json,
        Route::Markdown,
        Route::Mcp,
        Route::StandardJson,
        Route::StandardMarkdown,
        Route::StandardMcp,
        Route::ValidatedJson,
        Route::ValidatedMarkdown,
        Route::ValidatedMcp,
    ];

    /// The actix-web routes, their baseline (`web::Json`) first.
    pub const ACTIX: [Route; 4] = [
        Route::ActixJson,
        Route::ActixNegotiatedJson,
        Route::ActixMarkdown,
        Route::ActixMcp,
    ];

    /// Every route: the axum ones, then the actix-web ones.
    pub fn all() -> impl Iterator<Item = Route> {
        Route::AXUM.into_iter().chain(Route::ACTIX)
    }

    /// The name the benches report it under.
    pub fn name(self) -> &'static str {
        match self {
            Route::AxumJson => "axum::Json",
            Route::Json => "negotiated json",
            Route::Markdown => "negotiated md",
            Route::Mcp => "negotiated mcp",
            Route::StandardJson => "standard json",
            Route::StandardMarkdown => "standard md",
            Route::StandardMcp => "standard mcp",
            Route::ValidatedJson => "validated json",
            Route::ValidatedMarkdown => "validated md",
            Route::ValidatedMcp => "validated mcp",
            Route::ActixJson => "actix web::Json",
            Route::ActixNegotiatedJson => "actix negotiated json",
            Route::ActixMarkdown => "actix negotiated md",
            Route::ActixMcp => "actix negotiated mcp",
        }
    }

    /// The request's `Accept`: what an agent of each kind sends.
    pub fn accept(self) -> &'static str {
        match self {
            Route::AxumJson
            | Route::Json
            | Route::StandardJson
            | Route::ValidatedJson
            | Route::ActixJson
            | Route::ActixNegotiatedJson => "application/json",
            Route::Markdown
            | Route::StandardMarkdown
            | Route::ValidatedMarkdown
            | Route::ActixMarkdown => "text/markdown",
            Route::Mcp | Route::StandardMcp | Route::ValidatedMcp | Route::ActixMcp => {
                "application/vnd.mcp+json"
            }
        }
    }
}

/// The four routers: `axum::Json` alone, the negotiated route behind
/// the bare layer, behind the standard one, and behind the standard one
/// with a validator; and the two actix apps, `web::Json` and the
/// negotiated route.
#[derive(Clone)]
pub struct Server {
    plain: Router,
    negotiated: Router,
    standard: Router,
    validated: Router,
    actix_plain: Actix,
    actix_negotiated: Actix,
}

impl fmt::Debug for Server {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Server")
            .field("plain", &self.plain)
            .field("negotiated", &self.negotiated)
            .field("standard", &self.standard)
            .field("validated", &self.validated)
            .finish_non_exhaustive()
    }
}

/// An initialized actix-web app serving `GET /`: one request with this
/// `Accept`, its status and body. A closure, because the app's service
/// type cannot be named; it is called directly, its future not boxed.
type Actix = Rc<dyn Fn(&'static str) -> (u16, axum::body::Bytes)>;

/// The actix app of one handler on `GET /`, with `negotiation` in its
/// `app_data` when given.
fn actix<F, R>(handler: F, negotiation: Option<actix_web::web::Data<Negotiation>>) -> Actix
where
    F: Fn() -> R + Clone + 'static,
    R: Future + 'static,
    R::Output: actix_web::Responder + 'static,
{
    let mut app = actix_web::App::new();
    if let Some(negotiation) = negotiation {
        app = app.app_data(negotiation);
    }
    let app = app.route("/", actix_web::web::get().to(handler));
    let service = now(actix_web::test::init_service(app));
    Rc::new(move |accept| {
        let request = actix_web::test::TestRequest::get()
            .uri("/")
            .insert_header((actix_web::http::header::ACCEPT, accept))
            .to_request();
        let response = now(actix_web::test::call_service(&service, request));
        let status = response.status().as_u16();
        // The body's bytes as they are, as the axum routes' are collected:
        // `to_bytes` would copy every body, a cost of the collector that
        // grows with the body (an MCP result is twice the JSON).
        let body = match response.into_body().try_into_bytes() {
            Ok(bytes) => bytes,
            Err(body) => now(actix_web::body::to_bytes(body)).expect("an in-memory body"),
        };
        (status, body)
    })
}

/// The validator the validated route's handler supplies: what a service
/// would read from its data (a row version), here a constant.
pub const VALIDATOR: &str = "v42";

/// The negotiator of the negotiated route: JSON first (the default), then
/// markdown and MCP.
pub fn negotiator() -> Arc<Negotiator> {
    let codecs: Vec<Arc<dyn Codec>> = vec![
        Arc::new(JsonCodec::new()),
        Arc::new(MarkdownCodec::new()),
        Arc::new(McpCodec::new()),
    ];
    let negotiator = Negotiator::builder().codecs(codecs).build();
    Arc::new(negotiator.expect("three codecs with distinct formats"))
}

impl Server {
    /// Serves `data` both ways.
    pub fn new<T: Serialize + Send + Sync + 'static>(data: T) -> Server {
        let data = Shared(Arc::new(data));
        let plain = {
            let data = data.clone();
            Router::new().route("/", get(move || async move { axum::Json(data) }))
        };
        let negotiated = {
            let data = data.clone();
            Router::new()
                .route("/", get(move || async move { Negotiated(data) }))
                .layer(NegotiateLayer::new(negotiator()))
        };
        let layer = agent_codecs::standard().layer();
        let layer = layer.expect("the standard codecs");
        let standard = {
            let data = data.clone();
            Router::new()
                .route("/", get(move || async move { Negotiated(data) }))
                .layer(layer.clone())
        };
        let validated = {
            let data = data.clone();
            let handler = move || async move { Negotiated(data).validator(VALIDATOR) };
            Router::new().route("/", get(handler)).layer(layer)
        };
        let actix_plain = {
            let data = data.clone();
            actix(
                move || {
                    let data = data.clone();
                    async move { actix_web::web::Json(data) }
                },
                None,
            )
        };
        let actix_negotiated = actix(
            move || {
                let data = data.clone();
                async move { negotiate::actix::Negotiated(data) }
            },
            Some(Negotiation::new(negotiator())),
        );
        Server {
            plain,
            negotiated,
            standard,
            validated,
            actix_plain,
            actix_negotiated,
        }
    }

    /// Serves a dataset's typed structs.
    pub fn typed(typed: &Typed) -> Server {
        match typed.clone() {
            Typed::Tabular(x) => Server::new(x),
            Typed::Nested(x) => Server::new(x),
            Typed::Analytics(x) => Server::new(x),
            Typed::Github(x) => Server::new(x),
            Typed::EventLogs(x) => Server::new(x),
            Typed::NestedConfig(x) => Server::new(*x),
            Typed::Keyed(x) => Server::new(x),
            Typed::NestedGroup(x) => Server::new(x),
        }
    }

    /// One request on `route`: the response's status and body.
    pub fn get(&self, route: Route) -> (u16, axum::body::Bytes) {
        let router = match route {
            Route::AxumJson => &self.plain,
            Route::Json | Route::Markdown | Route::Mcp => &self.negotiated,
            Route::StandardJson | Route::StandardMarkdown | Route::StandardMcp => &self.standard,
            Route::ValidatedJson | Route::ValidatedMarkdown | Route::ValidatedMcp => {
                &self.validated
            }
            Route::ActixJson => return (self.actix_plain)(route.accept()),
            Route::ActixNegotiatedJson | Route::ActixMarkdown | Route::ActixMcp => {
                return (self.actix_negotiated)(route.accept());
            }
        };
        let request = Request::get("/")
            .header(ACCEPT, route.accept())
            .body(Body::empty())
            .expect("a valid request");
        let response = now(router.clone().oneshot(request)).expect("routers are infallible");
        let status = response.status().as_u16();
        let body =
            now(axum::body::to_bytes(response.into_body(), usize::MAX)).expect("an in-memory body");
        (status, body)
    }

    /// [`Server::get`]'s body length, for a bench loop; panics unless the
    /// answer is 200.
    pub fn body_len(&self, route: Route) -> usize {
        let (status, body) = self.get(route);
        assert_eq!(status, 200, "{}", route.name());
        body.len()
    }
}

/// Runs a future that never waits: an in-process request. Panics if it
/// does wait, which would mean the path does I/O.
fn now<F: Future>(future: F) -> F::Output {
    let mut future = pin!(future);
    let mut cx = Context::from_waker(Waker::noop());
    for _ in 0..16 {
        if let Poll::Ready(output) = future.as_mut().poll(&mut cx) {
            return output;
        }
    }
    panic!("an in-process request waited")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every route answers, and the negotiated JSON is axum's JSON, byte
    /// for byte (structs keep their order; nothing here is a map).
    #[test]
    fn every_route_serves_the_data() {
        let server = Server::new(vec![(1, "a"), (2, "b|c")]);
        let (status, baseline) = server.get(Route::AxumJson);
        assert_eq!(status, 200);
        assert_eq!(&baseline[..], br#"[[1,"a"],[2,"b|c"]]"#);
        assert_eq!(server.get(Route::Json), (200, baseline));
        let (status, markdown) = server.get(Route::Markdown);
        assert_eq!(status, 200);
        assert_eq!(&markdown[..], b"- **[0]**: 1, a\n- **[1]**: 2, b|c\n");
        let (status, mcp) = server.get(Route::Mcp);
        assert_eq!(status, 200);
        assert!(mcp.starts_with(br#"{"content":"#), "{mcp:?}");
        // actix's `web::Json` writes axum's JSON, and the actix routes the
        // axum layer's bodies.
        assert_eq!(server.get(Route::ActixJson), server.get(Route::AxumJson));
        for (axum, actix) in [
            (Route::Json, Route::ActixNegotiatedJson),
            (Route::Markdown, Route::ActixMarkdown),
            (Route::Mcp, Route::ActixMcp),
        ] {
            assert_eq!(server.get(axum), server.get(actix), "{}", actix.name());
        }
        // The standard layer writes the same bodies, with a validator too.
        for (bare, standard) in [
            (Route::Json, Route::StandardJson),
            (Route::Markdown, Route::StandardMarkdown),
            (Route::Mcp, Route::StandardMcp),
            (Route::Json, Route::ValidatedJson),
            (Route::Markdown, Route::ValidatedMarkdown),
            (Route::Mcp, Route::ValidatedMcp),
        ] {
            assert_eq!(
                server.get(bare),
                server.get(standard),
                "{}",
                standard.name()
            );
        }
    }
}

#[cfg(test)]
mod standard_tests {
    use super::*;

    /// The standard layer writes what the bare one writes, on every input
    /// of the serve figures, large ones (cut MCP text) included, with a
    /// supplied validator or without.
    #[test]
    fn the_standard_layer_writes_the_bare_layers_bodies() {
        for (label, typed) in inputs() {
            let server = Server::typed(&typed);
            for (bare, standard) in [
                (Route::Json, Route::StandardJson),
                (Route::Markdown, Route::StandardMarkdown),
                (Route::Mcp, Route::StandardMcp),
                (Route::Json, Route::ValidatedJson),
                (Route::Markdown, Route::ValidatedMarkdown),
                (Route::Mcp, Route::ValidatedMcp),
            ] {
                assert!(
                    server.get(bare) == server.get(standard),
                    "{label}: {}",
                    standard.name()
                );
            }
        }
    }
}

//! `codec serve`: each `DIR/NAME.json` at `/NAME`, negotiated.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{header, HeaderValue, Method, StatusCode};
use axum::response::Response;
use axum::Router;
use codec_core::{Map, Value};
use negotiate::Negotiator;

use crate::cli::ServeArgs;
use crate::error::CliError;
use crate::input;

struct Site {
    negotiator: Negotiator,
    /// Documents by route name, sorted so the index is deterministic.
    documents: BTreeMap<String, Value>,
}

pub(crate) fn run(args: &ServeArgs) -> Result<(), CliError> {
    let documents = match &args.dir {
        Some(dir) => load_dir(dir)?,
        None => BTreeMap::from([(
            input::SAMPLE_NAME.to_owned(),
            input::parse_json(input::SAMPLE, "sample")?,
        )]),
    };
    let site = Arc::new(Site {
        negotiator: crate::registry::serve_negotiator(&args.codec)?,
        documents,
    });
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(CliError::Serve)?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(args.addr)
            .await
            .map_err(CliError::Serve)?;
        let addr = listener.local_addr().map_err(CliError::Serve)?;
        eprintln!(
            "codec: serving {} document(s) on http://{addr}/ (Ctrl-C stops)",
            site.documents.len()
        );
        for name in site.documents.keys() {
            eprintln!("codec:   http://{addr}/{name}");
        }
        let app = Router::new().fallback(handle).with_state(site);
        axum::serve(listener, app)
            .with_graceful_shutdown(async {
                let _ = tokio::signal::ctrl_c().await;
                eprintln!("codec: stopping");
            })
            .await
            .map_err(CliError::Serve)
    })
}

/// Reads every `*.json` of `dir`; a file that does not parse stops the
/// server before it starts, naming the file, line and column.
fn load_dir(dir: &Path) -> Result<BTreeMap<String, Value>, CliError> {
    let entries = std::fs::read_dir(dir).map_err(|source| CliError::Read {
        path: dir.to_owned(),
        source,
    })?;
    let mut documents = BTreeMap::new();
    for entry in entries {
        let path = entry
            .map_err(|source| CliError::Read {
                path: dir.to_owned(),
                source,
            })?
            .path();
        if path.extension().is_some_and(|e| e == "json") && path.is_file() {
            let (bytes, name) = input::read(Some(&path))?;
            let value = input::parse_json(&bytes, &name)?;
            let stem = path
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default();
            documents.insert(stem, value);
        }
    }
    if documents.is_empty() {
        return Err(CliError::Input(format!(
            "{}: no .json files to serve",
            dir.display()
        )));
    }
    Ok(documents)
}

async fn handle(State(site): State<Arc<Site>>, request: Request) -> Response {
    let started = Instant::now();
    let method = request.method().clone();
    let target = request
        .uri()
        .path_and_query()
        .map_or("/".to_owned(), |pq| pq.as_str().to_owned());
    let (response, format) = respond(&site, &request, &target);
    eprintln!(
        "{method} {target} {} {format} {}B {:.1}ms",
        response.status().as_u16(),
        body_len(&response),
        started.elapsed().as_secs_f64() * 1000.0
    );
    if method == Method::HEAD {
        let (parts, _) = response.into_parts();
        return Response::from_parts(parts, Body::empty());
    }
    response
}

fn body_len(response: &Response) -> u64 {
    response
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse().ok())
        .unwrap_or(0)
}

/// The response and the format that wrote it (`-` for errors).
fn respond(site: &Site, request: &Request, target: &str) -> (Response, &'static str) {
    if request.method() != Method::GET && request.method() != Method::HEAD {
        return (
            text(
                StatusCode::METHOD_NOT_ALLOWED,
                "405 Method Not Allowed: use GET or HEAD\n".into(),
            ),
            "-",
        );
    }
    let name = request.uri().path().trim_start_matches('/');
    let index;
    let value = if name.is_empty() {
        index = index_of(site);
        &index
    } else {
        match site.documents.get(name) {
            Some(value) => value,
            None => {
                let mut body = format!("404 Not Found: no document {name:?}. Available:\n");
                for name in site.documents.keys() {
                    body.push_str(&format!("  /{name}\n"));
                }
                return (text(StatusCode::NOT_FOUND, body), "-");
            }
        }
    };
    let accept = request.headers().get_all(header::ACCEPT);
    let outcome = match site.negotiator.negotiate_target(accept.iter(), target) {
        Ok(outcome) => outcome,
        Err(unknown) => {
            return (
                text(
                    StatusCode::BAD_REQUEST,
                    format!("400 Bad Request: {unknown}\n"),
                ),
                "-",
            )
        }
    };
    let selection = match outcome.into_result() {
        Ok(selection) => selection,
        Err(refusal) => return (text(StatusCode::NOT_ACCEPTABLE, refusal.body()), "-"),
    };
    let mut body = Vec::new();
    if let Err(e) = selection.codec().encode_value(value, &mut body) {
        return (
            text(
                StatusCode::INTERNAL_SERVER_ERROR,
                format!("500 Internal Server Error: {e}\n"),
            ),
            "-",
        );
    }
    let content_type = HeaderValue::from_str(selection.content_type().as_str())
        .unwrap_or(HeaderValue::from_static("application/octet-stream"));
    let format = match selection.format() {
        "json" => "json",
        "md" => "md",
        "mcp" => "mcp",
        "html" => "html",
        _ => "other",
    };
    let mut response = with_headers(StatusCode::OK, content_type, body);
    if format == "html" {
        // The policy the page is built for: its one stylesheet, nothing else.
        response.headers_mut().insert(
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static(codec_html::CONTENT_SECURITY_POLICY),
        );
    }
    (response, format)
}

/// `/`: the list of documents, negotiated like any other.
fn index_of(site: &Site) -> Value {
    Value::Array(
        site.documents
            .keys()
            .map(|name| {
                let mut entry = Map::with_capacity(2);
                entry.insert("name", Value::from(name.as_str()));
                entry.insert("path", Value::from(format!("/{name}")));
                Value::Object(entry)
            })
            .collect(),
    )
}

fn text(status: StatusCode, body: String) -> Response {
    with_headers(
        status,
        HeaderValue::from_static("text/plain; charset=utf-8"),
        body.into_bytes(),
    )
}

fn with_headers(status: StatusCode, content_type: HeaderValue, body: Vec<u8>) -> Response {
    let len = body.len();
    let mut response = Response::new(Body::from(body));
    *response.status_mut() = status;
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, content_type);
    headers.insert(header::CONTENT_LENGTH, HeaderValue::from(len));
    // Every answer depends on Accept, errors included.
    headers.insert(header::VARY, HeaderValue::from_static("Accept"));
    response
}

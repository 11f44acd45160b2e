//! actix-web beyond the example's routes: the page, the token count, the
//! budget, streamed rows, a validator the handler supplies, and the 500
//! of an app without a `Negotiation`.

use std::sync::{Arc, Mutex, OnceLock};

use actix_web::{App, web};
use agent_codecs::actix::Negotiated;
use agent_codecs::{NegotiatedStream, O200k, TextLimit};
use serde::Serialize;
use tracing::field::{Field, Visit};
use tracing::span;

use crate::frameworks::{get, serve_actix};

#[derive(Serialize)]
struct Row {
    id: u32,
    name: String,
}

/// How many times [`Counted`] rows were serialized.
static SERIALIZED: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// Rows that count their serializations: a `304` of data with a
/// validator encodes nothing.
struct Counted(Vec<Row>);

impl Serialize for Counted {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        SERIALIZED.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        self.0.serialize(serializer)
    }
}

fn rows(n: u32) -> impl Iterator<Item = Row> {
    (1..=n).map(|id| Row {
        id,
        name: format!("row {id}"),
    })
}

/// A service with the page, the exact token count and a 2,000-token budget.
fn server() -> std::net::SocketAddr {
    static ADDR: OnceLock<std::net::SocketAddr> = OnceLock::new();
    *ADDR.get_or_init(|| {
        let o200k = Arc::new(O200k::new());
        let budget = TextLimit::tokens(2_000, Arc::clone(&o200k) as _)
            .with_hint("Ask for fewer rows; this answer kept {rows} rows.");
        let negotiation = agent_codecs::standard()
            .html(true)
            .title("Rows")
            .token_counter(Some(o200k))
            .budget(Some(budget))
            .actix()
            .expect("the standard options agree");
        serve_actix(move || {
            App::new()
                .app_data(negotiation.clone())
                .route(
                    "/rows",
                    web::get().to(|| async { Negotiated(rows(2_000).collect::<Vec<_>>()) }),
                )
                .route(
                    "/versioned",
                    web::get()
                        .to(|| async { Negotiated(Counted(rows(3).collect())).validator("v7") }),
                )
                .route(
                    "/export",
                    web::get().to(|| async { NegotiatedStream::from_iter(rows(20_000)) }),
                )
        })
    })
}

const FIREFOX: &str =
    "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8";

#[test]
fn browsers_get_the_page_with_its_policy() {
    let reply = get(server(), "/rows", &[("Accept", FIREFOX)]);
    assert_eq!(reply.status, 200, "{reply:?}");
    assert_eq!(
        reply.header("content-type"),
        Some("text/html; charset=utf-8")
    );
    let policy = reply.header("content-security-policy").expect("a policy");
    assert!(policy.starts_with("default-src 'none'"), "{policy}");
    assert!(
        reply.body.contains("<title>Rows</title>"),
        "{}",
        &reply.body[..200]
    );
}

#[test]
fn markdown_carries_its_exact_token_count_and_fits_the_budget() {
    let reply = get(server(), "/rows", &[("Accept", "text/markdown")]);
    assert_eq!(reply.status, 200, "{reply:?}");
    let counted = tiktoken_rs::o200k_base_singleton().count_ordinary(&reply.body);
    let header: usize = reply.header("x-markdown-tokens").unwrap().parse().unwrap();
    assert_eq!(header, counted);
    assert!(counted <= 2_000, "{counted} tokens");
    assert!(reply.body.contains("this answer kept"), "{}", reply.body);
}

/// `Negotiated::validator`: a strong `ETag` per representation, derived
/// from the handler's validator, and `304` without a body when the
/// request holds it.
#[test]
fn a_supplied_validator_gives_each_representation_its_etag() {
    let md = get(server(), "/versioned", &[("Accept", "text/markdown")]);
    let json = get(server(), "/versioned", &[("Accept", "application/json")]);
    assert_eq!((md.status, json.status), (200, 200), "{md:?}\n{json:?}");
    assert!(md.body.contains("row 3"), "{}", md.body);
    let etag = md.header("etag").expect("an ETag").to_owned();
    assert!(etag.len() == 34 && etag.starts_with('"'), "{etag}");
    assert_ne!(Some(etag.as_str()), json.header("etag"));
    assert_eq!(
        get(server(), "/versioned", &[("Accept", "text/markdown")]).header("etag"),
        Some(etag.as_str())
    );
    let sent = [
        ("Accept", "text/markdown"),
        ("If-None-Match", etag.as_str()),
    ];
    let before = SERIALIZED.load(std::sync::atomic::Ordering::Relaxed);
    let unchanged = get(server(), "/versioned", &sent);
    assert_eq!((unchanged.status, unchanged.body.as_str()), (304, ""));
    assert_eq!(unchanged.header("etag"), Some(etag.as_str()));
    let after = SERIALIZED.load(std::sync::atomic::Ordering::Relaxed);
    assert_eq!(after, before, "a 304 encodes nothing");
    let sent = [
        ("Accept", "application/json"),
        ("If-None-Match", etag.as_str()),
    ];
    assert_eq!(get(server(), "/versioned", &sent).status, 200);
}

#[test]
fn rows_stream_in_the_negotiated_format() {
    let json = get(server(), "/export", &[("Accept", "application/json")]);
    assert_eq!(json.status, 200, "{json:?}");
    assert_eq!(json.header("transfer-encoding"), Some("chunked"));
    assert_eq!(json.header("content-type"), Some("application/json"));
    assert_eq!(
        json.header("etag"),
        None,
        "a streamed body has no validator"
    );
    let rows: Vec<serde_json::Value> = serde_json::from_str(&json.body).unwrap();
    assert_eq!(rows.len(), 20_000);
    assert_eq!(rows[19_999]["name"], "row 20000");

    let md = get(server(), "/export", &[("Accept", "text/markdown")]);
    assert_eq!(
        md.header("content-type"),
        Some("text/markdown; charset=utf-8; variant=GFM")
    );
    assert!(
        md.body.starts_with("|id|name|\n|---|---|\n|1|row 1|\n"),
        "{}",
        &md.body[..100]
    );
    // The budget cuts streamed markdown too, between rows.
    assert!(md.body.len() < json.body.len() / 4, "{}", md.body.len());

    let refused = get(server(), "/export", &[("Accept", "image/png")]);
    assert_eq!(refused.status, 406);
}

/// The messages of every event logged.
#[derive(Clone, Default)]
struct Log(Arc<Mutex<Vec<String>>>);

impl tracing::Subscriber for Log {
    fn enabled(&self, _: &tracing::Metadata<'_>) -> bool {
        true
    }

    fn new_span(&self, _: &span::Attributes<'_>) -> span::Id {
        span::Id::from_u64(1)
    }

    fn record(&self, _: &span::Id, _: &span::Record<'_>) {}

    fn record_follows_from(&self, _: &span::Id, _: &span::Id) {}

    fn event(&self, event: &tracing::Event<'_>) {
        struct Fields(String);
        impl Visit for Fields {
            fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
                self.0.push_str(&format!(" {}={value:?}", field.name()));
            }
        }
        let mut fields = Fields(event.metadata().level().to_string());
        event.record(&mut fields);
        self.0.lock().unwrap().push(fields.0);
    }

    fn enter(&self, _: &span::Id) {}

    fn exit(&self, _: &span::Id) {}
}

#[test]
fn an_app_without_a_negotiation_answers_500_and_says_what_to_register() {
    let log = Log::default();
    let dispatch = tracing::Dispatch::new(log.clone());
    let (status, body) = tracing::dispatcher::with_default(&dispatch, || {
        actix_web::rt::System::new().block_on(async {
            let app = App::new().route("/x", web::get().to(|| async { Negotiated([1, 2]) }));
            let app = actix_web::test::init_service(app).await;
            let request = actix_web::test::TestRequest::get().uri("/x").to_request();
            let response = actix_web::test::call_service(&app, request).await;
            let status = response.status();
            (status, actix_web::test::read_body(response).await)
        })
    });
    assert_eq!(status, 500);
    let body = String::from_utf8(body.to_vec()).unwrap();
    assert!(body.contains("no `Negotiation`"), "{body}");
    let log = log.0.lock().unwrap();
    let line = log
        .iter()
        .find(|l| l.starts_with("ERROR"))
        .expect("an error logged");
    assert!(
        line.contains("App::app_data(Negotiation::new(negotiator))"),
        "{line}"
    );
    assert!(line.contains("[i32; 2]"), "{line}");
}

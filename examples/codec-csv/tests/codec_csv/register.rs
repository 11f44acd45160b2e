//! The example codec registered beside the standard codecs, as a service
//! registers it: negotiated by `Accept` and `?format=`, encoding through
//! the negotiated selection, refusing what CSV cannot hold.

use std::sync::Arc;

use agent_codecs::Negotiator;
use agent_codecs::negotiate::Source;
use codec_core::{CodecExt, from_str};
use codec_csv::CsvCodec;

fn negotiator() -> Negotiator {
    Negotiator::builder()
        .codecs(agent_codecs::standard().codecs().unwrap())
        .codec(Arc::new(CsvCodec::new()))
        .build()
        .unwrap()
}

#[test]
fn negotiated_beside_the_standard_codecs() {
    let negotiator = negotiator();
    let formats: Vec<&str> = negotiator.codecs().map(|c| c.format()).collect();
    assert_eq!(formats, ["json", "md", "mcp", "csv"]);
    // (Accept, target, format, Content-Type, source)
    let cases: &[(Option<&str>, &str, &str, &str, Source)] = &[
        (
            Some("text/csv"),
            "/rows",
            "csv",
            "text/csv; charset=utf-8; header=present",
            Source::Accept,
        ),
        (
            Some("text/csv;q=0.9, application/json"),
            "/rows",
            "json",
            "application/json",
            Source::Accept,
        ),
        (
            Some("*/*"),
            "/rows",
            "json",
            "application/json",
            Source::Accept,
        ),
        (
            Some("text/markdown, text/html, */*"),
            "/rows",
            "md",
            "text/markdown; charset=utf-8; variant=GFM",
            Source::Accept,
        ),
        (
            None,
            "/rows?format=csv",
            "csv",
            "text/csv; charset=utf-8; header=present",
            Source::QueryParam,
        ),
    ];
    for (accept, target, format, content_type, source) in cases {
        let outcome = negotiator.negotiate_target(accept.iter(), target).unwrap();
        let chosen = outcome.into_result().unwrap();
        assert_eq!(chosen.format(), *format, "{accept:?} {target}");
        assert_eq!(
            chosen.content_type().as_str(),
            *content_type,
            "{accept:?} {target}"
        );
        assert_eq!(chosen.source(), *source, "{accept:?} {target}");
    }
}

#[test]
fn encodes_through_the_selection() {
    let negotiator = negotiator();
    let rows = from_str(r#"[{"id": 1, "name": "Ada"}, {"id": 2, "name": "Lin, Bo"}]"#).unwrap();
    let chosen = negotiator
        .negotiate(Some("text/csv"))
        .into_result()
        .unwrap();
    let body = chosen.codec().to_vec(&rows).unwrap();
    assert_eq!(body, b"id,name\r\n1,Ada\r\n2,\"Lin, Bo\"\r\n");
    // A value CSV cannot hold is an error for this codec, not a panic.
    let nested = from_str(r#"{"a": {"b": 1}}"#).unwrap();
    assert!(chosen.codec().to_vec(&nested).is_err());
}

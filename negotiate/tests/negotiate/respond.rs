//! `http` integration: whole responses from a value and a request.

use crate::support;

use http::Request;
use http::header::{ACCEPT, CONTENT_TYPE, HeaderMap, HeaderValue, VARY, X_CONTENT_TYPE_OPTIONS};

fn request(target: &str, accept: &[&str]) -> Request<()> {
    let mut builder = Request::get(target);
    for line in accept {
        builder = builder.header(ACCEPT, *line);
    }
    builder.body(()).unwrap()
}

#[test]
fn responses() {
    let negotiator = support::standard();
    // (target, Accept lines, status, Content-Type, body)
    type Case<'a> = (&'a str, &'a [&'a str], u16, &'a str, &'a str);
    let cases: &[Case<'_>] = &[
        ("/", &[], 200, "application/json", r#"json:{"a":[1,2]}"#),
        (
            "/",
            &["text/markdown"],
            200,
            "text/markdown; charset=utf-8; variant=GFM",
            r#"md:{"a":[1,2]}"#,
        ),
        (
            "/",
            &["text/x-markdown"],
            200,
            "text/x-markdown; charset=utf-8",
            r#"md:{"a":[1,2]}"#,
        ),
        (
            "/?format=mcp",
            &["text/markdown"],
            200,
            "application/vnd.mcp+json",
            r#"mcp:{"a":[1,2]}"#,
        ),
        (
            "/?format=yaml",
            &[],
            400,
            "text/plain; charset=utf-8",
            "400 Bad Request: unknown format \"yaml\" in `?format=`; valid formats: json, md, mcp\n",
        ),
        (
            "/",
            &["image/*"],
            406,
            "text/plain; charset=utf-8",
            "406 Not Acceptable: no available media type matches the Accept header.\n\
             Available media types:\n  \
             application/json\n  \
             text/markdown; charset=utf-8; variant=GFM\n  \
             application/vnd.mcp+json\n  \
             text/x-markdown; charset=utf-8\n\
             Available formats (?format=NAME): json, md, mcp\n",
        ),
    ];
    let value = serde_json::json!({"a": [1, 2]});
    for (target, accept, status, content_type, body) in cases {
        let response = negotiator.respond_to(&request(target, accept), &value);
        let label = format!("{target} {accept:?}");
        assert_eq!(response.status(), *status, "{label}");
        assert_eq!(response.headers()[CONTENT_TYPE], *content_type, "{label}");
        assert_eq!(response.headers()[VARY], "Accept", "{label}");
        assert_eq!(
            std::str::from_utf8(response.body()).unwrap(),
            *body,
            "{label}"
        );
        let nosniff = response.headers().get(X_CONTENT_TYPE_OPTIONS);
        assert_eq!(nosniff.is_some(), *status != 200, "{label}");
    }
}

#[test]
fn selection_headers_merge_vary() {
    let negotiator = support::standard();
    let outcome = negotiator.negotiate_headers(&{
        let mut headers = HeaderMap::new();
        headers.append(ACCEPT, HeaderValue::from_static("text/markdown;q=0"));
        headers.append(ACCEPT, HeaderValue::from_static("application/*"));
        headers
    });
    let selection = outcome.into_result().unwrap();
    assert_eq!(selection.format(), "json");
    assert_eq!(selection.content_type_header(), "application/json");
    let mut headers = HeaderMap::new();
    headers.insert(VARY, HeaderValue::from_static("Origin"));
    selection.apply_headers(&mut headers);
    selection.apply_headers(&mut headers);
    assert_eq!(headers[VARY], "Origin, Accept");
    assert_eq!(headers[CONTENT_TYPE], "application/json");
}

#[test]
fn negotiate_request_reads_the_uri() {
    let negotiator = support::builder().path_extension(true).build().unwrap();
    let headers = HeaderMap::new();
    let cases: &[(&str, &str)] = &[
        ("/items", "json"),
        ("/items.md", "md"),
        ("/items.md?format=mcp", "mcp"),
        ("http://example.invalid/items.md", "md"),
    ];
    for (uri, format) in cases {
        let uri: http::Uri = uri.parse().unwrap();
        let outcome = negotiator.negotiate_request(&uri, &headers).unwrap();
        assert_eq!(outcome.selection().unwrap().format(), *format, "{uri}");
    }
}

/// With the agent policy on, the choice also depends on `User-Agent`: a
/// cache must not give an agent's markdown to the next client's `*/*`.
#[test]
fn the_agent_policy_varies_on_user_agent() {
    let on = support::builder().agent_format(Some("md")).build().unwrap();
    let off = support::standard();
    // (negotiator, User-Agent, format, Vary)
    let cases = [
        (&on, "ChatGPT-User/1.0", "md", "Accept, User-Agent"),
        (&on, "curl/8.5.0", "json", "Accept, User-Agent"),
        (&off, "ChatGPT-User/1.0", "json", "Accept"),
    ];
    for (negotiator, user_agent, format, vary) in cases {
        let request = Request::get("/")
            .header(ACCEPT, "*/*")
            .header(http::header::USER_AGENT, user_agent)
            .body(())
            .unwrap();
        let response = negotiator.respond_to(&request, &1);
        assert_eq!(
            response.body(),
            format!("{format}:1").as_bytes(),
            "{user_agent}"
        );
        assert_eq!(response.headers()[VARY], vary, "{user_agent}");
    }
}

/// The `Link` of one policy, asked for again and by other negotiators:
/// each negotiator's own, every time, from one shared policy.
#[test]
fn links_are_each_negotiators_own() {
    use http::Response;
    use http::header::LINK;
    use negotiate::{RequestFacts, ResponseHeaders};

    let by_query = support::standard();
    let by_extension = support::builder()
        .query_override(false)
        .path_extension(true)
        .build()
        .unwrap();
    let policy = ResponseHeaders::builder().build();
    let link = |negotiator: &negotiate::Negotiator, target: &str| {
        let request = request(target, &["application/json"]);
        let selection = negotiator
            .negotiate_request(request.uri(), request.headers())
            .unwrap()
            .into_result()
            .unwrap();
        let representation = policy.describe(&selection, b"[]");
        let (mut parts, ()) = Response::new(()).into_parts();
        let facts = RequestFacts::of(&request);
        policy.apply(negotiator, &facts, &selection, representation, &mut parts);
        parts.headers[LINK].to_str().unwrap().to_owned()
    };
    for _ in 0..2 {
        assert_eq!(
            link(&by_query, "/items?page=2"),
            "</items?page=2&format=md>; rel=\"alternate\"; type=\"text/markdown\""
        );
        assert_eq!(
            link(&by_extension, "/items?page=2"),
            "</items.md?page=2>; rel=\"alternate\"; type=\"text/markdown\""
        );
        assert_eq!(
            link(&by_query, "/items?page=3"),
            "</items?page=3&format=md>; rel=\"alternate\"; type=\"text/markdown\""
        );
    }
}

/// `ResponseHeaders::describe_validated`, for a server that finishes its
/// own responses with `ResponseHeaders::respond`: the `ETag` depends on
/// the validator and the `Content-Type`, not on the body; the token count
/// still reads the body; a request that holds the tag gets a `304`
/// without a body.
#[test]
fn a_validated_representation_is_answered_like_a_hashed_one() {
    use std::sync::Arc;

    use http::header::{ETAG, IF_NONE_MATCH};
    use http::{Response, StatusCode};
    use negotiate::{RequestFacts, ResponseHeaders};

    struct Bytes;
    impl codec_core::TokenCounter for Bytes {
        fn name(&self) -> &str {
            "byte"
        }
        fn count(&self, text: &str) -> usize {
            text.len()
        }
    }
    let negotiator = support::standard();
    let policy = ResponseHeaders::builder()
        .token_counter(Some(Arc::new(Bytes)))
        .build();
    let respond = |accept: &str, validator: &[u8], body: &[u8], if_none_match: Option<&str>| {
        let mut request = request("/items", &[accept]);
        if let Some(tag) = if_none_match {
            let tag = HeaderValue::from_str(tag).unwrap();
            request.headers_mut().insert(IF_NONE_MATCH, tag);
        }
        let selection = negotiator
            .negotiate_request(request.uri(), request.headers())
            .unwrap()
            .into_result()
            .unwrap();
        let representation = policy.describe_validated(&selection, validator, body);
        let (parts, ()) = Response::new(()).into_parts();
        let facts = RequestFacts::of(&request);
        let body = body.to_vec();
        policy.respond(&negotiator, &facts, &selection, representation, parts, body)
    };
    let md = respond("text/markdown", b"v1", b"abc", None);
    let tag = md.headers()[ETAG].to_str().unwrap().to_owned();
    assert_eq!(md.headers()["x-markdown-tokens"], "3");
    // Another body under the same validator: the same tag (the
    // validator, not the body, says what changed).
    let other = respond("text/markdown", b"v1", b"abcd", None);
    assert_eq!(other.headers()[ETAG], tag.as_str());
    assert_eq!(other.headers()["x-markdown-tokens"], "4");
    for (accept, validator) in [("application/json", b"v1"), ("text/markdown", b"v2")] {
        let etag = respond(accept, validator, b"abc", None).headers()[ETAG].clone();
        assert_ne!(etag, tag.as_str(), "{accept} {validator:?}");
    }
    let unchanged = respond("text/markdown", b"v1", b"abc", Some(&tag));
    assert_eq!(unchanged.status(), StatusCode::NOT_MODIFIED);
    assert!(unchanged.body().is_empty());
    assert_eq!(unchanged.headers()[ETAG], tag.as_str());
    let changed = respond("text/markdown", b"v2", b"abc", Some(&tag));
    assert_eq!(
        (changed.status(), changed.body().len()),
        (StatusCode::OK, 3)
    );
}

/// `Negotiator::respond_validated`, a plain `http` server's
/// `Negotiated(data).validator(version)`: the `ETag` is the validated
/// representation's, and a request that holds it gets a `304` without
/// the data being encoded.
#[test]
fn respond_validated_answers_304_without_encoding() {
    use std::sync::atomic::{AtomicUsize, Ordering};

    use http::StatusCode;
    use http::header::{ETAG, IF_NONE_MATCH};
    use negotiate::ResponseHeaders;

    static SERIALIZED: AtomicUsize = AtomicUsize::new(0);
    struct Counted;
    impl serde::Serialize for Counted {
        fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            SERIALIZED.fetch_add(1, Ordering::Relaxed);
            serializer.serialize_u32(7)
        }
    }

    let negotiator = support::standard();
    let policy = ResponseHeaders::builder().build();
    let first = request("/items", &["text/markdown"]);
    let response = negotiator.respond_validated(&policy, &first, StatusCode::OK, &Counted, b"v1");
    assert_eq!(response.status(), 200);
    assert_eq!(SERIALIZED.load(Ordering::Relaxed), 1);
    let selection = negotiator
        .negotiate_request(first.uri(), first.headers())
        .unwrap()
        .into_result()
        .unwrap();
    let described = policy.describe_validated(&selection, b"v1", response.body());
    let etag = response.headers()[ETAG].clone();
    assert_eq!(Some(&etag), described.etag());

    let mut again = request("/items", &["text/markdown"]);
    again.headers_mut().insert(IF_NONE_MATCH, etag.clone());
    let unchanged = negotiator.respond_validated(&policy, &again, StatusCode::OK, &Counted, b"v1");
    assert_eq!(unchanged.status(), 304);
    assert!(unchanged.body().is_empty());
    assert_eq!(unchanged.headers()[ETAG], etag);
    assert_eq!(
        SERIALIZED.load(Ordering::Relaxed),
        1,
        "a 304 encodes nothing"
    );

    // A new version: a whole answer under a new tag.
    let changed = negotiator.respond_validated(&policy, &again, StatusCode::OK, &Counted, b"v2");
    assert_eq!(changed.status(), 200);
    assert_ne!(changed.headers()[ETAG], etag);
    assert_eq!(SERIALIZED.load(Ordering::Relaxed), 2);
}

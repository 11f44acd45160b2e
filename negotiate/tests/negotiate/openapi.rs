//! `negotiate::openapi`: the responses of `Negotiated<T>` and `document`,
//! which lists a negotiator's media types on them.

use std::collections::BTreeMap;

use negotiate::NothingAcceptable;
use negotiate::openapi::{EXTENSION, document, responses};
use utoipa::openapi::path::{HttpMethod, Operation, OperationBuilder};
use utoipa::openapi::{
    Content, Info, OpenApi, PathItem, PathsBuilder, RefOr, Response, ResponseBuilder, Responses,
};
use utoipa::{PartialSchema, ToSchema};

use crate::support::{builder, standard};

#[derive(ToSchema)]
#[allow(dead_code)]
struct Item {
    name: String,
    tag: Tag,
}

#[derive(ToSchema)]
#[allow(dead_code)]
struct Tag {
    label: String,
}

/// A document with `GET /items` answering `responses`.
fn items(responses: BTreeMap<String, RefOr<Response>>) -> OpenApi {
    let operation = OperationBuilder::new().responses(Responses::from_iter(responses));
    let paths = PathsBuilder::new().path("/items", PathItem::new(HttpMethod::Get, operation));
    OpenApi::new(Info::new("items", "1"), paths)
}

fn get(openapi: &OpenApi) -> &Operation {
    openapi.paths.paths["/items"].get.as_ref().unwrap()
}

fn response<'o>(openapi: &'o OpenApi, status: &str) -> Option<&'o Response> {
    match get(openapi).responses.responses.get(status)? {
        RefOr::T(response) => Some(response),
        RefOr::Ref(_) => panic!("an inline response"),
    }
}

/// Each media type's content: the format's name, as a description.
fn by_format(codec: &dyn codec_core::Codec, _: &RefOr<utoipa::openapi::schema::Schema>) -> Content {
    let schema = utoipa::openapi::ObjectBuilder::new().description(Some(codec.format()));
    Content::new(Some(schema))
}

#[test]
fn without_document_the_data_is_json_and_marked() {
    let openapi = items(responses::<Item>());
    let ok = response(&openapi, "200").unwrap();
    let types: Vec<&str> = ok.content.keys().map(String::as_str).collect();
    assert_eq!(types, ["application/json"]);
    assert!(ok.extensions.as_ref().unwrap().contains_key(EXTENSION));
    assert!(response(&openapi, "406").is_some());
}

#[test]
fn document_lists_every_media_type_in_the_servers_order() {
    let mut openapi = items(responses::<Item>());
    document(&mut openapi, &standard(), by_format);
    let ok = response(&openapi, "200").unwrap();
    let types: Vec<&str> = ok.content.keys().map(String::as_str).collect();
    // Aliases (`text/x-markdown`) answer with their codec's type: not listed.
    assert_eq!(
        types,
        [
            "application/json",
            "text/markdown",
            "application/vnd.mcp+json"
        ]
    );
    let described: Vec<String> = ok
        .content
        .values()
        .map(|c| match c {
            RefOr::T(c) => serde_json::to_value(&c.schema).unwrap()["description"].to_string(),
            RefOr::Ref(_) => panic!("inline content"),
        })
        .collect();
    assert_eq!(described, [r#""json""#, r#""md""#, r#""mcp""#]);
    assert!(ok.extensions.is_none(), "the mark is removed");
    let refused = response(&openapi, "406").unwrap();
    assert!(
        refused.description.contains("text/x-markdown"),
        "{}",
        refused.description
    );
    // The schemas the data refers to join the components.
    let components = openapi.components.as_ref().unwrap();
    assert!(components.schemas.contains_key("Tag"));
}

#[test]
fn document_adds_the_format_parameter_and_its_400_once() {
    let mut openapi = items(responses::<Item>());
    document(&mut openapi, &standard(), by_format);
    // A second call finds no mark: nothing changes.
    let once = openapi.to_json().unwrap();
    document(&mut openapi, &standard(), by_format);
    assert_eq!(openapi.to_json().unwrap(), once);
    let parameters = get(&openapi).parameters.as_ref().unwrap();
    assert_eq!(parameters.len(), 1);
    assert!(response(&openapi, "400").is_some());

    let without = builder().query_override(false).build().unwrap();
    let mut openapi = items(responses::<Item>());
    document(&mut openapi, &without, by_format);
    assert!(get(&openapi).parameters.as_ref().is_none_or(Vec::is_empty));
    assert!(response(&openapi, "400").is_none());
}

#[test]
fn a_negotiator_that_never_refuses_documents_no_406() {
    let lenient = builder()
        .nothing_acceptable(NothingAcceptable::ServeDefault)
        .build()
        .unwrap();
    let mut openapi = items(responses::<Item>());
    document(&mut openapi, &lenient, by_format);
    assert!(response(&openapi, "406").is_none());
    assert!(response(&openapi, "200").is_some());
}

#[test]
fn responses_the_route_documents_itself_are_left_alone() {
    let mut own = responses::<Item>();
    let missing = ResponseBuilder::new()
        .description("No such item")
        .content("application/json", Content::new(Some(Tag::schema())))
        .build();
    own.insert("404".to_owned(), RefOr::T(missing));
    let mut openapi = items(own);
    document(&mut openapi, &standard(), by_format);
    let missing = response(&openapi, "404").unwrap();
    assert_eq!(missing.description, "No such item");
    assert_eq!(missing.content.len(), 1);

    // An operation without the mark is not touched at all.
    let plain = BTreeMap::from([("200".to_owned(), RefOr::T(Response::new("Items")))]);
    let mut openapi = items(plain);
    let before = openapi.to_json().unwrap();
    document(&mut openapi, &standard(), by_format);
    assert_eq!(openapi.to_json().unwrap(), before);
}

/// Both `Negotiated` types document what `responses` does, so
/// `responses(Negotiated<T>)` works on axum and actix routes alike.
#[test]
fn both_negotiated_types_are_documented_alike() {
    let expected = serde_json::to_value(responses::<Item>()).unwrap();
    #[cfg(feature = "axum")]
    {
        use utoipa::IntoResponses;
        let axum = negotiate::Negotiated::<Item>::responses();
        assert_eq!(serde_json::to_value(axum).unwrap(), expected);
    }
    #[cfg(feature = "actix")]
    {
        use utoipa::IntoResponses;
        let actix = negotiate::actix::Negotiated::<Item>::responses();
        assert_eq!(serde_json::to_value(actix).unwrap(), expected);
    }
    assert!(expected["200"]["x-negotiated"]["components"]["Tag"].is_object());
}

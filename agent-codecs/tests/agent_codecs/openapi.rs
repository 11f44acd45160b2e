//! The OpenAPI example (`examples/openapi.rs`): its document is OpenAPI
//! 3.1 by the official schema (`tests/data/openapi-3.1.schema.json`),
//! lists the three media types, the 406 and `?format=` on each negotiated
//! route, and what the routes answer over HTTP matches the schemas it
//! gives them.

use serde_json::{Value, json};

use crate::frameworks::get;

#[allow(dead_code)]
#[path = "../../examples/openapi.rs"]
mod openapi_example;

/// The example's document for `standard`, as JSON.
fn document(standard: &agent_codecs::Standard) -> Value {
    let openapi = openapi_example::document(standard).expect("the standard options agree");
    serde_json::to_value(openapi).expect("a document serializes")
}

/// The 200 response of `GET path`.
fn ok<'d>(document: &'d Value, path: &str) -> &'d Value {
    &document["paths"][path]["get"]["responses"]["200"]
}

/// The media types of a response's content, sorted (the JSON map of the
/// tests sorts its keys; `negotiated_content_is_in_the_servers_order`
/// checks their order).
fn media_types(response: &Value) -> Vec<&str> {
    let content = response["content"].as_object().expect("a content map");
    let mut types: Vec<&str> = content.keys().map(String::as_str).collect();
    types.sort_unstable();
    types
}

/// A validator for the schema `document` gives `media_type` on `GET path`
/// (its references resolved against the document's components).
fn validator(document: &Value, path: &str, media_type: &str) -> jsonschema::Validator {
    let mut schema = ok(document, path)["content"][media_type]["schema"].clone();
    schema["components"] = document["components"].clone();
    jsonschema::validator_for(&schema).expect("a JSON Schema")
}

fn errors(validator: &jsonschema::Validator, instance: &Value) -> Vec<String> {
    let errors = validator.iter_errors(instance);
    errors
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect()
}

#[test]
fn the_document_is_openapi_3_1() {
    let schema: Value =
        serde_json::from_str(include_str!("../data/openapi-3.1.schema.json")).unwrap();
    let oas = jsonschema::validator_for(&schema).expect("the OpenAPI 3.1 schema compiles");
    let document = document(&openapi_example::standard());
    assert_eq!(document["openapi"], "3.1.0");
    assert_eq!(errors(&oas, &document), Vec::<String>::new());
    // The schema does catch a broken document.
    let mut broken = document.clone();
    broken["paths"]["/orders"]["get"]["responses"]["200"]["content"] = json!([]);
    assert!(!oas.is_valid(&broken));
}

#[test]
fn negotiated_content_is_in_the_servers_order() {
    let standard = openapi_example::standard();
    let openapi = openapi_example::document(&standard).unwrap();
    let operation = openapi.paths.paths["/orders"].get.as_ref().unwrap();
    let utoipa::openapi::RefOr::T(ok) = &operation.responses.responses["200"] else {
        panic!("an inline response");
    };
    let types: Vec<&str> = ok.content.keys().map(String::as_str).collect();
    assert_eq!(
        types,
        [
            "application/json",
            "text/markdown",
            "application/vnd.mcp+json"
        ]
    );
}

#[test]
fn negotiated_routes_list_every_media_type_the_406_and_format() {
    let document = document(&openapi_example::standard());
    for path in ["/orders", "/orders/{id}"] {
        let ok = ok(&document, path);
        assert_eq!(
            media_types(ok),
            [
                "application/json",
                "application/vnd.mcp+json",
                "text/markdown"
            ],
            "{path}"
        );
        assert!(
            ok.get("x-negotiated").is_none(),
            "{path}: the mark is removed"
        );
        let markdown = &ok["content"]["text/markdown"]["schema"];
        assert_eq!(markdown["type"], "string");
        assert!(markdown["description"].as_str().unwrap().contains("table"));
        let mcp = &ok["content"]["application/vnd.mcp+json"]["schema"];
        assert_eq!(mcp["required"], json!(["content", "structuredContent"]));

        let responses = &document["paths"][path]["get"]["responses"];
        let refused = &responses["406"];
        assert_eq!(media_types(refused), ["text/plain"]);
        let description = refused["description"].as_str().unwrap();
        assert!(
            description.contains("application/json, text/markdown"),
            "{description}"
        );
        assert_eq!(media_types(&responses["400"]), ["text/plain"]);
        let parameters = document["paths"][path]["get"]["parameters"]
            .as_array()
            .unwrap();
        let format = parameters.iter().find(|p| p["name"] == "format").unwrap();
        assert_eq!(format["in"], "query");
        assert_eq!(format["schema"]["enum"], json!(["json", "md", "mcp"]));
    }
    // The 404 the detail route documents itself is left as it is.
    let missing = &document["paths"]["/orders/{id}"]["get"]["responses"]["404"];
    assert_eq!(media_types(missing), ["application/json"]);
    // The schemas the data refers to joined the components.
    let components = document["components"]["schemas"].as_object().unwrap();
    assert!(components.contains_key("Line"), "{components:?}");
}

#[test]
fn the_media_types_follow_the_negotiator() {
    let standard = agent_codecs::standard().html(true).mcp(false);
    let with_page = document(&standard);
    assert_eq!(
        media_types(ok(&with_page, "/orders")),
        ["application/json", "text/html", "text/markdown"]
    );
    // Without JSON, MCP still holds the data's schema.
    let without_json = document(&agent_codecs::standard().json(false));
    let ok = ok(&without_json, "/orders/{id}");
    assert_eq!(
        media_types(ok),
        ["application/vnd.mcp+json", "text/markdown"]
    );
    let structured =
        &ok["content"]["application/vnd.mcp+json"]["schema"]["properties"]["structuredContent"];
    assert_eq!(structured["properties"]["lines"]["type"], "array");
}

#[test]
fn the_answers_match_their_schemas() {
    let app = openapi_example::app().expect("the standard options agree");
    let addr = crate::common::serve(app);
    let document = document(&openapi_example::standard());
    for path in ["/orders", "/orders/{id}"] {
        let target = path.replace("{id}", "7");
        let json = get(addr, &target, &[("Accept", "application/json")]);
        assert_eq!(json.status, 200);
        let body: Value = serde_json::from_str(&json.body).unwrap();
        let schema = validator(&document, path, "application/json");
        assert_eq!(errors(&schema, &body), Vec::<String>::new(), "{path}");

        let mcp = get(addr, &target, &[("Accept", "application/vnd.mcp+json")]);
        assert_eq!(mcp.header("content-type"), Some("application/vnd.mcp+json"));
        let body: Value = serde_json::from_str(&mcp.body).unwrap();
        let schema = validator(&document, path, "application/vnd.mcp+json");
        assert_eq!(errors(&schema, &body), Vec::<String>::new(), "{path}");
        assert!(!schema.is_valid(&json!({"content": [], "structuredContent": {}})));

        let markdown = get(addr, &target, &[("Accept", "text/markdown")]);
        assert!(
            markdown
                .header("content-type")
                .unwrap()
                .starts_with("text/markdown")
        );
    }
    // The 406 the document lists.
    let refused = get(addr, "/orders", &[("Accept", "image/png")]);
    assert_eq!(refused.status, 406);
    assert!(refused.body.contains("application/vnd.mcp+json"));
}

//! OpenAPI documents with utoipa (feature `utoipa`): a route answering
//! `Negotiated<T>` names it in its `#[utoipa::path]`
//! (`responses(Negotiated<T>)`), and one call of [`document`] on the
//! built `OpenApi` lists, on every such route, each media type the
//! negotiator answers with.
//!
//! A `responses(..)` type is documented alone: it cannot know the
//! negotiator (a value built at run time), nor add the schemas `T` refers
//! to to the document's components. So [`responses`] documents what it can
//! (the JSON of `T`, the 406) and carries `T`'s schema and the schemas it
//! refers to in an [`EXTENSION`] of the 200 response; [`document`] reads
//! it, writes the content of each media type, moves the schemas to the
//! components and removes the extension.
//!
//! ```
//! use std::sync::Arc;
//!
//! use codec_core::{Codec, EncodeError, MediaType, Value};
//! use negotiate::Negotiator;
//! use utoipa::openapi::path::{HttpMethod, OperationBuilder};
//! use utoipa::openapi::{Content, Info, OpenApi, PathItem, PathsBuilder, RefOr, Responses};
//!
//! /// A stand-in codec: writes nothing, declares a format and a type.
//! struct Stub(&'static str, MediaType);
//!
//! impl Codec for Stub {
//!     fn format(&self) -> &str { self.0 }
//!     fn media_type(&self) -> &MediaType { &self.1 }
//!     fn encode_value(&self, _: &Value, _: &mut Vec<u8>) -> Result<(), EncodeError> { Ok(()) }
//! }
//!
//! let negotiator = Negotiator::builder()
//!     .codec(Arc::new(Stub("json", MediaType::from_static("application/json"))))
//!     .codec(Arc::new(Stub("md", MediaType::from_static("text/markdown; variant=GFM"))))
//!     .build()
//!     .unwrap();
//!
//! // What `#[utoipa::path(get, path = "/id", responses(Negotiated<u32>))]` writes.
//! let responses = Responses::from_iter(negotiate::openapi::responses::<u32>());
//! let operation = OperationBuilder::new().responses(responses);
//! let paths = PathsBuilder::new().path("/id", PathItem::new(HttpMethod::Get, operation));
//! let mut openapi = OpenApi::new(Info::new("ids", "1"), paths);
//!
//! // The same schema for every media type, here.
//! negotiate::openapi::document(&mut openapi, &negotiator, |_codec, schema| {
//!     Content::new(Some(schema.clone()))
//! });
//! let responses = &openapi.paths.paths["/id"].get.as_ref().unwrap().responses.responses;
//! let RefOr::T(ok) = &responses["200"] else { unreachable!() };
//! let types: Vec<&str> = ok.content.keys().map(String::as_str).collect();
//! assert_eq!(types, ["application/json", "text/markdown"]);
//! assert!(ok.extensions.is_none());
//! assert!(responses.contains_key("406"));
//! ```

use std::collections::BTreeMap;

use codec_core::Codec;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa::openapi::path::{Operation, Parameter, ParameterBuilder, ParameterIn, PathItem};
use utoipa::openapi::schema::{ObjectBuilder, Schema, Type};
use utoipa::openapi::{Content, OpenApi, RefOr, Required, Response, ResponseBuilder};

use crate::negotiator::Negotiator;
use crate::policy::NothingAcceptable;

/// The extension of a negotiated 200 response that [`document`] reads
/// and removes: `T`'s schema and the schemas it refers to.
pub const EXTENSION: &str = "x-negotiated";

/// What [`EXTENSION`] holds.
#[derive(Serialize, Deserialize)]
struct Mark {
    schema: RefOr<Schema>,
    components: BTreeMap<String, RefOr<Schema>>,
}

/// The responses of a route answering `Negotiated<T>`: 200 with `T` as
/// `application/json` (until [`document`] lists the negotiator's media
/// types) and 406 in plain text. What the `IntoResponses` of both
/// `Negotiated` types (axum's and actix's) return.
pub fn responses<T: ToSchema>() -> BTreeMap<String, RefOr<Response>> {
    let schema = T::schema();
    let mut components = Vec::new();
    T::schemas(&mut components);
    let mark = Mark {
        schema: schema.clone(),
        components: components.into_iter().collect(),
    };
    // Serializing utoipa's own types to JSON cannot fail (their maps
    // have string keys); a null mark would leave the response as it is.
    let mark = serde_json::to_value(&mark).unwrap_or_default();
    let ok = ResponseBuilder::new()
        .description(OK)
        .content("application/json", Content::new(Some(schema)))
        .extensions(Some([(EXTENSION, mark)].into_iter().collect()))
        .build();
    let refused = ResponseBuilder::new()
        .description(NOT_ACCEPTABLE)
        .content("text/plain", Content::new(Some(text(None))))
        .build();
    BTreeMap::from([
        ("200".to_owned(), RefOr::T(ok)),
        ("406".to_owned(), RefOr::T(refused)),
    ])
}

const OK: &str = "The data, in the media type negotiated for the request's `Accept` header.";

const NOT_ACCEPTABLE: &str = "No media type offered is acceptable to the request's `Accept` \
                              header; the body lists the media types available.";

/// A string schema, described.
fn text(description: Option<String>) -> RefOr<Schema> {
    ObjectBuilder::new()
        .schema_type(Type::String)
        .description(description)
        .into()
}

/// Documents every negotiated response of `openapi` (those of
/// [`responses`]) with the media types of `negotiator`, in its order of
/// preference, each with the content `describe` gives for the codec and
/// `T`'s schema; adds the schemas `T` refers to to the components, and
/// the negotiator's `?format=` parameter (and its 400) to the operations.
/// Without a [`NothingAcceptable::NotAcceptable`] policy, the 406 goes.
pub fn document<F>(openapi: &mut OpenApi, negotiator: &Negotiator, describe: F)
where
    F: Fn(&dyn Codec, &RefOr<Schema>) -> Content,
{
    let mut schemas = BTreeMap::new();
    for item in openapi.paths.paths.values_mut() {
        for operation in operations(item) {
            if let Some(mark) = take_mark(operation) {
                document_operation(operation, negotiator, &describe, &mark.schema);
                schemas.extend(mark.components);
            }
        }
    }
    if schemas.is_empty() {
        return;
    }
    let components = openapi.components.get_or_insert_with(Default::default);
    for (name, schema) in schemas {
        components.schemas.entry(name).or_insert(schema);
    }
}

/// Every operation of a path.
fn operations(item: &mut PathItem) -> impl Iterator<Item = &mut Operation> {
    let fixed = [
        &mut item.get,
        &mut item.put,
        &mut item.post,
        &mut item.delete,
        &mut item.options,
        &mut item.head,
        &mut item.patch,
        &mut item.trace,
        &mut item.query,
    ];
    fixed
        .into_iter()
        .filter_map(Option::as_mut)
        .chain(item.additional_operations.values_mut())
}

/// The mark of the operation's 200 response, removed, if it has one.
fn take_mark(operation: &mut Operation) -> Option<Mark> {
    let Some(RefOr::T(ok)) = operation.responses.responses.get_mut("200") else {
        return None;
    };
    let extensions = ok.extensions.as_mut()?;
    let mark = extensions.remove(EXTENSION)?;
    if extensions.is_empty() {
        ok.extensions = None;
    }
    serde_json::from_value(mark).ok()
}

fn document_operation<F>(
    operation: &mut Operation,
    negotiator: &Negotiator,
    describe: &F,
    schema: &RefOr<Schema>,
) where
    F: Fn(&dyn Codec, &RefOr<Schema>) -> Content,
{
    let responses = &mut operation.responses.responses;
    if let Some(RefOr::T(ok)) = responses.get_mut("200") {
        if let Some(param) = negotiator.format_param() {
            ok.description = format!(
                "The data, in the media type negotiated for the request's `Accept` header \
                 or named by its `?{param}=`."
            );
        }
        ok.content.clear();
        for codec in negotiator.codecs() {
            let essence = codec.media_type().essence().to_owned();
            ok.content
                .entry(essence)
                .or_insert_with(|| RefOr::T(describe(&**codec, schema)));
        }
    }
    let offered: Vec<&str> = negotiator.media_types().map(|m| m.essence()).collect();
    let offered = offered.join(", ");
    if negotiator.nothing_acceptable() == NothingAcceptable::NotAcceptable {
        if let Some(RefOr::T(refused)) = responses.get_mut("406") {
            refused.description = format!(
                "None of the media types offered ({offered}) is acceptable to the \
                 request's `Accept` header; the body lists them."
            );
        }
    } else {
        responses.remove("406");
    }
    let Some(param) = negotiator.format_param() else {
        return;
    };
    let formats: Vec<&str> = negotiator.codecs().map(|codec| codec.format()).collect();
    responses.entry("400".to_owned()).or_insert_with(|| {
        let unknown =
            format!("The `?{param}=` value names no format; the body lists the formats available.");
        let content = Content::new(Some(text(None)));
        RefOr::T(
            ResponseBuilder::new()
                .description(unknown)
                .content("text/plain", content)
                .build(),
        )
    });
    let parameters = operation.parameters.get_or_insert_with(Vec::new);
    let present = parameters.iter().any(|p| match p {
        RefOr::T(p) => p.name == param && p.parameter_in == ParameterIn::Query,
        RefOr::Ref(_) => false,
    });
    if !present {
        parameters.push(RefOr::T(format_parameter(param, &formats)));
    }
}

/// The `?format=` parameter: a format name, which overrides `Accept`.
fn format_parameter(name: &str, formats: &[&str]) -> Parameter {
    let schema = ObjectBuilder::new()
        .schema_type(Type::String)
        .enum_values(Some(formats.iter().copied()));
    let description = format!(
        "The format to answer in, whatever the `Accept` header says: {}.",
        formats.join(", ")
    );
    ParameterBuilder::new()
        .name(name)
        .parameter_in(ParameterIn::Query)
        .required(Required::False)
        .description(Some(description))
        .schema(Some(schema))
        .build()
}

/// `Negotiated<T>` in `#[utoipa::path(responses(..))]`: see [`responses`].
#[cfg(feature = "axum")]
impl<T: ToSchema> utoipa::IntoResponses for crate::Negotiated<T> {
    fn responses() -> BTreeMap<String, RefOr<Response>> {
        responses::<T>()
    }
}

/// `Negotiated<T>` in `#[utoipa::path(responses(..))]`: see [`responses`].
#[cfg(feature = "actix")]
impl<T: ToSchema> utoipa::IntoResponses for crate::actix::Negotiated<T> {
    fn responses() -> BTreeMap<String, RefOr<Response>> {
        responses::<T>()
    }
}

//! OpenAPI documents with utoipa (feature `utoipa`): [`Standard::openapi`]
//! writes what each of the standard codecs answers.

use codec_core::Codec;
use negotiate::openapi::document;
use utoipa::openapi::schema::{ObjectBuilder, Schema, Type};
use utoipa::openapi::{Content, OpenApi, RefOr};

#[cfg(feature = "mcp")]
use codec_mcp::{StructuredContent, TextFormat};
#[cfg(feature = "md")]
use codec_md::Profile;
#[cfg(feature = "mcp")]
use utoipa::openapi::schema::{ArrayBuilder, SchemaType};

use crate::standard::{SetupError, Standard};

impl Standard {
    /// Documents, on every route of `openapi` that answers
    /// `Negotiated<T>` (`#[utoipa::path(.., responses(Negotiated<T>))]`,
    /// axum's or actix's), each media type this negotiator answers with:
    /// `application/json` with `T`'s schema, `text/markdown` as text whose
    /// layout the description gives, `application/vnd.mcp+json` as the
    /// `CallToolResult` that holds `T`, the HTML page when on, and any
    /// added codec as text; the 406, and the `?format=` parameter with its
    /// 400. The schemas `T` refers to join the document's components. One
    /// call, once the document is built (see `negotiate::openapi`).
    ///
    /// ```
    /// use agent_codecs::Negotiated;
    /// use utoipa::OpenApi;
    ///
    /// #[derive(serde::Serialize, utoipa::ToSchema)]
    /// struct Order { id: u32, item: String }
    ///
    /// #[utoipa::path(get, path = "/orders", responses(Negotiated<Vec<Order>>))]
    /// async fn orders() -> Negotiated<Vec<Order>> {
    ///     Negotiated(vec![Order { id: 1, item: "kettle".into() }])
    /// }
    ///
    /// #[derive(OpenApi)]
    /// #[openapi(paths(orders))]
    /// struct Api;
    ///
    /// let mut openapi = Api::openapi();
    /// agent_codecs::standard().openapi(&mut openapi).unwrap();
    ///
    /// let json = openapi.to_json().unwrap();
    /// assert!(json.contains(r#""text/markdown":{"schema":{"type":"string""#));
    /// assert!(json.contains(r#""application/vnd.mcp+json":{"schema":"#));
    /// assert!(json.contains(r#""406":"#));
    /// ```
    ///
    /// # Errors
    ///
    /// A [`SetupError`], as for [`Standard::codecs`].
    #[cfg_attr(docsrs, doc(cfg(feature = "utoipa")))]
    pub fn openapi(&self, openapi: &mut OpenApi) -> Result<(), SetupError> {
        let negotiator = self.build()?;
        document(openapi, &negotiator, |codec, schema| {
            Content::new(Some(self.schema(codec, schema)))
        });
        Ok(())
    }

    /// The schema of what `codec` writes for data of schema `data`.
    fn schema(&self, codec: &dyn Codec, data: &RefOr<Schema>) -> RefOr<Schema> {
        match codec.format() {
            // The JSON codec's, or any codec named so: the data as JSON.
            "json" => data.clone(),
            #[cfg(feature = "md")]
            "md" => text(self.markdown_layout()),
            #[cfg(feature = "mcp")]
            "mcp" => self.call_tool_result(data),
            #[cfg(feature = "html")]
            "html" => text(
                "A browsable HTML page of the data, with links to its other formats.".to_owned(),
            ),
            other => text(format!(
                "The data in the `{other}` format (`{}`).",
                codec.media_type().as_str()
            )),
        }
    }

    /// How the markdown codec lays data out, in its profile.
    #[cfg(feature = "md")]
    fn markdown_layout(&self) -> String {
        let mut layout = match self.profile {
            Profile::Dense => DENSE_LAYOUT.to_owned(),
            Profile::Lossless => format!("{MARKDOWN_LAYOUT} {LOSSLESS}"),
            _ => MARKDOWN_LAYOUT.to_owned(),
        };
        if self.budget.is_some() {
            layout.push_str(" A long answer is cut where a row or an item ends, within a budget.");
        }
        layout
    }

    /// An MCP `CallToolResult` holding data of schema `data`, as the MCP
    /// codec writes it: the text block and, as its options say,
    /// `structuredContent` (wrapped as `{"result": data}` when the
    /// protocol version takes only objects there and `data` is not one,
    /// the rule of `codec_mcp::advertised_output_schema`) and
    /// `resultType`.
    #[cfg(feature = "mcp")]
    fn call_tool_result(&self, data: &RefOr<Schema>) -> RefOr<Schema> {
        let text_block = ObjectBuilder::new()
            .property("type", enumeration("text"))
            .required("type")
            .property("text", text(self.mcp_text_layout()))
            .required("text");
        let mut result = ObjectBuilder::new()
            .description(Some(format!(
                "An MCP `CallToolResult` (protocol {}).",
                self.mcp_version.as_str()
            )))
            .property(
                "content",
                ArrayBuilder::new().items(text_block).min_items(Some(1)),
            )
            .required("content");
        if self.mcp_structured == StructuredContent::Always {
            let structured =
                if self.mcp_version.requires_object_structured_content() && !is_object(data) {
                    ObjectBuilder::new()
                        .property("result", data.clone())
                        .required("result")
                        .into()
                } else {
                    data.clone()
                };
            result = result
                .property("structuredContent", structured)
                .required("structuredContent");
        }
        result = result.property("isError", ObjectBuilder::new().schema_type(Type::Boolean));
        if self.mcp_version.has_result_type() {
            result = result
                .property("resultType", enumeration("complete"))
                .required("resultType");
        }
        result.into()
    }

    /// What the MCP text block holds.
    #[cfg(feature = "mcp")]
    fn mcp_text_layout(&self) -> String {
        match &self.mcp_text {
            TextFormat::Json => "The data as compact JSON.".to_owned(),
            TextFormat::Summary => "One line saying what `structuredContent` holds.".to_owned(),
            TextFormat::Codec(codec) => format!("The data in the `{}` format.", codec.format()),
            _ => "The data as markdown, laid out as the `text/markdown` answer.".to_owned(),
        }
    }
}

/// The layout of codec-md's default profile (`codec-md/SPEC.md`).
#[cfg(feature = "md")]
const MARKDOWN_LAYOUT: &str = "GitHub-flavoured markdown: an array of flat objects is a table, \
    one row per item and one column per key; an object is a list of `- **key**: value` lines, \
    then its nested objects and arrays as sections headed by their key; an array of scalars is \
    one line, `a, b, c`; any other array is its `[i]` items and sections.";

#[cfg(feature = "md")]
const LOSSLESS: &str = "Values that would read back as another type are marked (quotes, \
    escapes), so the markdown reads back as exactly the data.";

/// The layout of codec-md's dense profile.
#[cfg(feature = "md")]
const DENSE_LAYOUT: &str = "Dense GitHub-flavoured markdown: an array of objects is a table \
    whose rows have no outer pipes and whose nested objects are dotted columns \
    (`customer.name`); an object is a list of `- **key**: value` lines and sections; any part \
    that would cost more tokens as markdown is a fenced `json` block.";

/// A string schema, described.
fn text(description: String) -> RefOr<Schema> {
    ObjectBuilder::new()
        .schema_type(Type::String)
        .description(Some(description))
        .into()
}

/// A string schema with one value.
#[cfg(feature = "mcp")]
fn enumeration(value: &str) -> ObjectBuilder {
    ObjectBuilder::new()
        .schema_type(Type::String)
        .enum_values(Some([value]))
}

/// Whether `schema` admits only objects: its `type` is exactly `object`
/// (`codec_mcp::advertised_output_schema`'s rule; a reference, which
/// cannot be looked into here, does not count).
#[cfg(feature = "mcp")]
fn is_object(schema: &RefOr<Schema>) -> bool {
    matches!(schema, RefOr::T(Schema::Object(object))
        if object.schema_type == SchemaType::Type(Type::Object))
}

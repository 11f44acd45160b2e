//! The codecs under test, by name. Adding a codec to every bench, the token
//! report and the memory run is one line in [`codecs`].

use codec_core::Codec;
use codec_html::HtmlCodec;
use codec_json::JsonCodec;
use codec_mcp::{McpCodec, StructuredContent, TextFormat};
use codec_md::{MarkdownCodec, Profile};

/// A codec under test and the name it is reported under.
pub type Named = (&'static str, Box<dyn Codec>);

/// Every codec of the workspace that is benchmarked beside serde_json, as
/// `dyn Codec` (the way negotiation holds them). codec-json is also
/// benchmarked through its static `JsonCodec::to_vec` in the benches.
pub fn codecs() -> Vec<Named> {
    vec![
        ("codec-json", Box::new(JsonCodec::new())),
        ("codec-md", Box::new(MarkdownCodec::new())),
        ("codec-md dense", Box::new(md_dense())),
        ("codec-mcp", Box::new(McpCodec::new())),
        // The page alone, without alternates: what the layout costs, to
        // set beside codec-md's. A page with alternates also pays one
        // encoding per alternate (and a token count each, if asked).
        ("codec-html", Box::new(HtmlCodec::new())),
    ]
}

/// codec-md's token-dense profile.
fn md_dense() -> MarkdownCodec {
    MarkdownCodec::builder().profile(Profile::Dense).build()
}

/// The encodings meant for a model to read, for the token report: every
/// profile of codec-md (default and dense), and codec-mcp both as it
/// ships (the whole `CallToolResult` JSON: markdown text cut at 25,000
/// characters plus the full `structuredContent`) and as a service that
/// wants the model to read the markdown configures it (text only, no cut).
pub fn token_codecs() -> Vec<Named> {
    let mcp_text = McpCodec::builder()
        .structured_content(StructuredContent::Never)
        .max_text_chars(None)
        .build()
        .expect("no output schema, so `never` is valid");
    vec![
        ("codec-md", Box::new(MarkdownCodec::new())),
        ("codec-md dense", Box::new(md_dense())),
        ("codec-mcp default", Box::new(McpCodec::new())),
        ("codec-mcp text only", Box::new(mcp_text)),
    ]
}

/// The ways to build an MCP tool result that a server author chooses
/// between, for the token report's second table: each as a codec with no
/// text limit, so the figures are the whole data's cost.
///
/// - markdown + structured: the default (text for the model, data for
///   programs);
/// - markdown only: `structured_content(Never)`, and the same with the
///   dense profile;
/// - summary + structured: `text_format(Summary)`, one line beside the
///   data;
/// - JSON + structured: `text_format(Json)`, the specification's
///   "serialized JSON in a TextContent block" to the letter (what rmcp's
///   `Json<T>` and the Python SDK's structured tools write).
pub fn mcp_choices() -> Vec<(&'static str, McpCodec)> {
    let choice = |structured, text| {
        McpCodec::builder()
            .structured_content(structured)
            .text_format(text)
            .max_text_chars(None)
            .build()
            .expect("no output schema: every policy builds")
    };
    vec![
        (
            "markdown + structured",
            choice(StructuredContent::Always, TextFormat::Markdown),
        ),
        (
            "markdown only",
            choice(StructuredContent::Never, TextFormat::Markdown),
        ),
        (
            "dense markdown only",
            choice(
                StructuredContent::Never,
                TextFormat::Codec(std::sync::Arc::new(md_dense())),
            ),
        ),
        (
            "summary + structured",
            choice(StructuredContent::Always, TextFormat::Summary),
        ),
        (
            "JSON + structured",
            choice(StructuredContent::Always, TextFormat::Json),
        ),
    ]
}

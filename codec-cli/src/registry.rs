//! The built-in codecs and the negotiator over them, from the flags.

use std::sync::Arc;

use codec_core::{Codec, MediaType};
use codec_json::JsonCodec;
use codec_mcp::{McpCodec, ProtocolVersion, StructuredContent};
use codec_md::MarkdownCodec;
use negotiate::Negotiator;

use crate::cli::CodecOptions;
use crate::error::CliError;

/// The built-in codecs in the server's order of preference: JSON first, so
/// a client that states no preference (`*/*`, or no `Accept`) gets the
/// conventional API answer, and markdown for every client that asks for it
/// (Claude Code, Cursor and OpenCode all list `text/markdown` first).
pub(crate) fn codecs(options: &CodecOptions) -> Result<Vec<Arc<dyn Codec>>, CliError> {
    let version: ProtocolVersion = options
        .mcp_version
        .parse()
        .map_err(|e| CliError::Usage(format!("--mcp-version: {e}")))?;
    let structured = match options.mcp_structured.as_str() {
        "always" => StructuredContent::Always,
        "with-schema" => StructuredContent::WithOutputSchema,
        "never" => StructuredContent::Never,
        other => {
            return Err(CliError::Usage(format!(
                "--mcp-structured: unknown policy {other:?}; expected always, with-schema or never"
            )))
        }
    };
    let mcp = McpCodec::builder()
        .protocol_version(version)
        .structured_content(structured)
        .pretty(options.pretty)
        .build()
        .map_err(|e| CliError::Usage(format!("mcp codec: {e}")))?;
    Ok(vec![
        Arc::new(JsonCodec::builder().pretty(options.pretty).build()),
        Arc::new(MarkdownCodec::new()),
        Arc::new(mcp),
    ])
}

/// The negotiator every command uses: the built-in codecs, `text/x-markdown`
/// as an alias of markdown, and the library's default policies.
pub(crate) fn negotiator(options: &CodecOptions) -> Result<Negotiator, CliError> {
    Negotiator::builder()
        .codecs(codecs(options)?)
        .alias("md", MediaType::from_static("text/x-markdown"))
        .build()
        .map_err(|e| CliError::Usage(format!("negotiator: {e}")))
}

/// The format names, for error messages.
pub(crate) fn format_names(negotiator: &Negotiator) -> String {
    negotiator
        .codecs()
        .map(|c| c.format())
        .collect::<Vec<_>>()
        .join(", ")
}

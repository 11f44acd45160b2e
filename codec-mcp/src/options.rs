//! The choices a service makes about its tool results:
//! [`StructuredContent`], [`TextFormat`], and the [`ConfigError`] of a
//! contradictory set.

use std::sync::Arc;

use codec_core::Codec;

/// When a result carries `structuredContent`.
///
/// This decides what the model reads. Claude Code, Codex and OpenCode show
/// the model `JSON.stringify(structuredContent)` instead of the text blocks
/// whenever `structuredContent` is present, so a service that wants the
/// model to read the markdown picks [`StructuredContent::WithOutputSchema`]
/// (and declares no output schema) or [`StructuredContent::Never`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum StructuredContent {
    /// Every successful result carries it (the default, as the
    /// specification's examples and the conformance cases do).
    #[default]
    Always,
    /// Only when the tool declares an output schema (which then obliges
    /// it: "servers MUST provide structured results that conform to this
    /// schema").
    WithOutputSchema,
    /// Never: the text alone. Only for tools without an output schema;
    /// building a codec with both is a [`ConfigError`].
    Never,
}

/// What the main text block holds: one setting, so the format and the
/// codec that writes it cannot disagree.
///
/// The codec also cuts the text at its
/// [`text_limit`](crate::McpCodecBuilder::text_limit), through
/// [`Codec::truncate`]: markdown where a row or an item ends, anything
/// else by the codec's own rule or the plain cut.
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub enum TextFormat {
    /// The markdown codec's default rendering (`codec-md`), the default:
    /// tables for arrays of flat objects (0.62x to 0.76x the tokens of
    /// compact JSON on the benchmark's flat datasets), key lists and
    /// sections for nested data (1.27x to 1.55x there; `BENCHMARKS.md`).
    #[default]
    Markdown,
    /// Compact JSON of the value: the specification's "serialized JSON in
    /// a TextContent block" for results with structured content, to the
    /// letter.
    Json,
    /// One line saying what `structuredContent` holds (the compact JSON
    /// itself when that is short): for tools whose clients give the model
    /// the structured content, so the data is not billed twice. A result
    /// without structured content (an error result, or a policy that
    /// leaves it out) gets the markdown instead, so its text still holds
    /// the data.
    Summary,
    /// The rendering of this codec, such as a markdown codec with another
    /// profile. It must write UTF-8: other bytes are an
    /// [`EncodeError::Unrepresentable`](codec_core::EncodeError::Unrepresentable).
    Codec(Arc<dyn Codec>),
}

/// A codec configuration that contradicts itself.
///
/// An error rather than a type that cannot say it, because the two
/// settings come from different places: the structured-content policy is
/// the service's, the output schema is each tool's. A service with a
/// `never` policy that registers a tool declaring a schema has made a
/// mistake that only the pair reveals, and the specification leaves no
/// silent way out (it requires structured results from such a tool, so
/// dropping them breaks the tool's contract, and sending them breaks the
/// policy). [`McpCodecBuilder::build`](crate::McpCodecBuilder::build)
/// says so once, when the codec is built, not on every result.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ConfigError {
    /// [`StructuredContent::Never`] for a tool that declares an output
    /// schema: the specification requires structured results of such a
    /// tool.
    #[error("structured content `never` is only valid for a tool without an output schema")]
    NeverWithOutputSchema,
}

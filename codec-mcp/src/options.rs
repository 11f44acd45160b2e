//! The choices a service makes about its tool results:
//! [`StructuredContent`], [`TextFormat`], and the [`ConfigError`] of a
//! contradictory set.

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

/// What the main text block holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum TextFormat {
    /// The markdown codec's rendering (`codec-md`), the default: fewer
    /// tokens than JSON for the same data.
    #[default]
    Markdown,
    /// Compact JSON of the value.
    Json,
}

/// A codec configuration that contradicts itself.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ConfigError {
    /// [`StructuredContent::Never`] for a tool that declares an output
    /// schema: the specification requires structured results of such a
    /// tool.
    #[error("structured content `never` is only valid for a tool without an output schema")]
    NeverWithOutputSchema,
}

//! The codecs under test, by name. Adding a codec to every bench, the token
//! report and the memory run is one line in [`codecs`].

use codec_core::Codec;
use codec_json::JsonCodec;

/// A codec under test and the name it is reported under.
pub type Named = (&'static str, Box<dyn Codec>);

/// Every codec of the workspace that is benchmarked beside serde_json, as
/// `dyn Codec` (the way negotiation holds them). codec-json is also
/// benchmarked through its static `JsonCodec::to_vec` in the benches.
pub fn codecs() -> Vec<Named> {
    vec![
        ("codec-json", Box::new(JsonCodec::new())),
        // HOOK codec-md (one line, once `cargo check -p codec-md` builds its
        // public API, with `codec-md.workspace = true` in Cargo.toml):
        // ("codec-md", Box::new(codec_md::MarkdownCodec::new())),
        // HOOK codec-mcp (likewise, `codec-mcp.workspace = true`):
        // ("codec-mcp", Box::new(codec_mcp::McpCodec::new())),
    ]
}

/// The codecs whose output is meant for a model to read (every one but
/// codec-json), for the token report.
pub fn token_codecs() -> Vec<Named> {
    codecs()
        .into_iter()
        .filter(|(name, _)| *name != "codec-json")
        .collect()
}

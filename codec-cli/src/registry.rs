//! The built-in codecs and the negotiator over them, from the flags.

use std::sync::Arc;

use codec_core::{Codec, MediaType, O200k, TextLimit};
use codec_html::HtmlCodec;
use codec_json::JsonCodec;
use codec_mcp::{McpCodec, McpCodecBuilder, ProtocolVersion, StructuredContent, TextFormat};
use codec_md::{MarkdownCodec, Profile};
use negotiate::Negotiator;

use crate::cli::{CodecOptions, TextLimitArg};
use crate::error::CliError;

/// The built-in codecs in the server's order of preference: JSON first, so
/// a client that states no preference (`*/*`, or no `Accept`) gets the
/// conventional API answer, and markdown for every client that asks for it
/// (Claude Code, Cursor and OpenCode all list `text/markdown` first).
pub(crate) fn codecs(options: &CodecOptions) -> Result<Vec<Arc<dyn Codec>>, CliError> {
    let md = markdown(options)?;
    let mcp = mcp_builder(options, md.clone())?
        .protocol_version(mcp_version(options)?.unwrap_or_default())
        .build()
        .map_err(|e| CliError::Usage(format!("mcp codec: {e}")))?;
    Ok(vec![
        Arc::new(JsonCodec::builder().pretty(options.pretty).build()),
        md,
        Arc::new(mcp),
    ])
}

/// The markdown codec of `--profile` and `--lossless`.
pub(crate) fn markdown(options: &CodecOptions) -> Result<Arc<dyn Codec>, CliError> {
    let profile = match options.profile.as_str() {
        "default" => Profile::Default,
        "lossless" => Profile::Lossless,
        "dense" => Profile::Dense,
        other => {
            return Err(CliError::Usage(format!(
                "--profile: unknown profile {other:?}; expected default, lossless or dense"
            )))
        }
    };
    // The argument parser refuses `--lossless` with `--profile`; options
    // built in code get the same answer.
    let profile = match (options.lossless, profile) {
        (false, profile) | (true, profile @ Profile::Lossless) => profile,
        (true, Profile::Default) => Profile::Lossless,
        (true, _) => {
            return Err(CliError::Usage(
                "--lossless is --profile lossless: it cannot go with another profile".into(),
            ))
        }
    };
    Ok(Arc::new(MarkdownCodec::builder().profile(profile).build()))
}

/// The mcp codec's options from the flags, its text written by `md`; the
/// protocol version is the caller's (`render` takes `--mcp-version`,
/// `codec mcp` each client's).
pub(crate) fn mcp_builder(
    options: &CodecOptions,
    md: Arc<dyn Codec>,
) -> Result<McpCodecBuilder, CliError> {
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
    let text = match options.mcp_text.as_str() {
        "markdown" => TextFormat::Codec(md),
        "json" => TextFormat::Json,
        "summary" => TextFormat::Summary,
        other => {
            return Err(CliError::Usage(format!(
                "--mcp-text: unknown format {other:?}; expected markdown, json or summary"
            )))
        }
    };
    let builder = McpCodec::builder()
        .structured_content(structured)
        .text_format(text)
        .pretty(options.pretty);
    Ok(match options.mcp_text_limit {
        Some(limit) => builder.text_limit(text_limit(limit)),
        None => builder,
    })
}

/// `--mcp-text-limit` as the codec's limit (`None` for none): tokens are
/// o200k's, counted exactly.
pub(crate) fn text_limit(limit: TextLimitArg) -> Option<TextLimit> {
    match limit {
        TextLimitArg::None => None,
        TextLimitArg::Chars(n) => Some(TextLimit::chars(n)),
        TextLimitArg::Bytes(n) => Some(TextLimit::bytes(n)),
        TextLimitArg::Tokens(n) => Some(TextLimit::tokens(n, Arc::new(O200k::new()))),
    }
}

/// `--mcp-version`, if given.
pub(crate) fn mcp_version(options: &CodecOptions) -> Result<Option<ProtocolVersion>, CliError> {
    options
        .mcp_version
        .as_deref()
        .map(str::parse)
        .transpose()
        .map_err(|e| CliError::Usage(format!("--mcp-version: {e}")))
}

/// The negotiator every command but `serve` uses: the built-in codecs,
/// `text/x-markdown` as an alias of markdown, and the library's default
/// policies.
pub(crate) fn negotiator(options: &CodecOptions) -> Result<Negotiator, CliError> {
    negotiator_of(codecs(options)?)
}

/// `serve`'s negotiator: the built-in codecs, then the HTML page, which
/// links to the others and shows their bytes and o200k tokens. Last, so
/// only a client that prefers `text/html` gets it (browsers); agents,
/// curl and a missing `Accept` get what the other commands negotiate.
pub(crate) fn serve_negotiator(options: &CodecOptions) -> Result<Negotiator, CliError> {
    let mut codecs = codecs(options)?;
    let html = HtmlCodec::builder()
        .title("codec serve")
        .alternates(codecs.clone())
        // Loads the vocabulary now, not on the first page.
        .token_counter(Arc::new(O200k::new()))
        .build()
        .map_err(|e| CliError::Usage(format!("html codec: {e}")))?;
    codecs.push(Arc::new(html));
    negotiator_of(codecs)
}

fn negotiator_of(codecs: Vec<Arc<dyn Codec>>) -> Result<Negotiator, CliError> {
    Negotiator::builder()
        .codecs(codecs)
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

#[cfg(test)]
mod tests {
    use super::*;

    fn options(profile: &str) -> CodecOptions {
        CodecOptions {
            pretty: false,
            profile: profile.to_owned(),
            lossless: false,
            mcp_version: None,
            mcp_structured: "always".to_owned(),
            mcp_text: "markdown".to_owned(),
            mcp_text_limit: None,
        }
    }

    /// `--profile dense` makes the negotiated markdown codec dense; the
    /// media type stays the same.
    #[test]
    fn profile_picks_the_markdown_rules() {
        let rows = codec_core::from_str(
            r#"[{"id": 1, "user": {"name": "ada"}}, {"id": 2, "user": {"name": "bob"}},
                {"id": 3, "user": {"name": "cy"}}, {"id": 4, "user": {"name": "di"}}]"#,
        )
        .unwrap();
        let mut types = Vec::new();
        for (name, expected) in [
            ("default", "# [0]\n\n- **id**: 1\n\n## user\n"),
            ("dense", "|id|user.name|\n|---|---|\n1|ada\n"),
        ] {
            let negotiator = negotiator(&options(name)).unwrap();
            let md = negotiator.codec("md").unwrap();
            let mut out = Vec::new();
            md.encode_value(&rows, &mut out).unwrap();
            let text = String::from_utf8(out).unwrap();
            assert!(text.starts_with(expected), "{name}: {text}");
            types.push(md.media_type().to_string());
        }
        assert_eq!(types[0], types[1]);
        assert!(matches!(
            codecs(&options("sparse")),
            Err(CliError::Usage(_))
        ));
        let mut lossless_dense = options("dense");
        lossless_dense.lossless = true;
        assert!(matches!(codecs(&lossless_dense), Err(CliError::Usage(_))));
    }

    /// `serve` adds the page after the others: browsers get it, every
    /// other client what the other commands negotiate.
    #[test]
    fn serve_adds_the_page_for_browsers() {
        let (serve, other) = (
            serve_negotiator(&options("default")).unwrap(),
            negotiator(&options("default")).unwrap(),
        );
        assert_eq!(format_names(&serve), "json, md, mcp, html");
        assert_eq!(format_names(&other), "json, md, mcp");
        let chrome = "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,\
                      image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7";
        let choice = |n: &Negotiator, accept: Option<&str>| {
            n.negotiate(accept.iter())
                .selection()
                .map(|s| s.format().to_owned())
        };
        assert_eq!(choice(&serve, Some(chrome)).as_deref(), Some("html"));
        assert_eq!(choice(&other, Some(chrome)).as_deref(), Some("json"));
        for accept in [
            Some("text/markdown, text/html, */*"),
            Some("*/*"),
            Some("application/json, text/event-stream"),
            None,
        ] {
            assert_eq!(choice(&serve, accept), choice(&other, accept), "{accept:?}");
        }
    }

    /// `--lossless` is `--profile lossless`: the same markdown codec.
    #[test]
    fn lossless_is_a_profile() {
        let value = codec_core::from_str(r#"[{"zip": "02139", "n": "7"}, {"n": null}]"#).unwrap();
        let mut flag = options("default");
        flag.lossless = true;
        let mut outputs = Vec::new();
        for options in [options("lossless"), flag] {
            let negotiator = negotiator(&options).unwrap();
            let mut out = Vec::new();
            let md = negotiator.codec("md").unwrap();
            md.encode_value(&value, &mut out).unwrap();
            outputs.push(String::from_utf8(out).unwrap());
        }
        assert_eq!(outputs[0], "|zip|n|\n|---|---|\n|02139|\"7\"|\n|-||\n");
        assert_eq!(outputs[0], outputs[1]);
    }
}

//! The codecs and negotiators of the commands, from the flags: the
//! standard negotiator of `agent-codecs`, configured, and the mcp codec's
//! options for `codec mcp`.

use std::sync::Arc;

use agent_codecs::{
    Codec, Negotiator, Profile, ProtocolVersion, ResponseHeaders, Standard, StructuredContent,
    TextFormat, TextLimit,
};
use codec_mcp::{DEFAULT_MAX_TEXT_CHARS, McpCodec, McpCodecBuilder};
use codec_md::MarkdownCodec;

use crate::cli::{Budget, BudgetUnit, CodecOptions, TextLimitArg};
use crate::error::CliError;

/// The standard codecs with the flags' options: JSON first, so a client
/// that states no preference (`*/*`, or no `Accept`) gets the
/// conventional API answer, and markdown for every client that asks for
/// it (Claude Code, Cursor, OpenCode and OpenClaw all list
/// `text/markdown` first; `text/plain` gets it too).
pub(crate) fn standard(options: &CodecOptions) -> Result<Standard, CliError> {
    let mut standard = agent_codecs::standard()
        .profile(profile(options)?)
        .mcp_version(mcp_version(options)?.unwrap_or_default())
        .mcp_structured(structured(options)?)
        .mcp_text(mcp_text(options)?)
        .pretty(options.pretty)
        .budget(budget(options));
    if let Some(limit) = options.mcp_text_limit {
        standard = standard.mcp_text_limit(text_limit(limit));
    }
    Ok(standard)
}

/// The standard codecs in the server's order of preference.
pub(crate) fn codecs(options: &CodecOptions) -> Result<Vec<Arc<dyn Codec>>, CliError> {
    standard(options)?.codecs().map_err(setup)
}

/// The negotiator every command but `serve` uses: the standard one.
pub(crate) fn negotiator(options: &CodecOptions) -> Result<Negotiator, CliError> {
    standard(options)?.build().map_err(setup)
}

/// `serve`'s negotiator and response headers: the standard ones with the
/// HTML page (after markdown, so only a client that prefers `text/html`,
/// a browser, gets it) and the agent policy (known agents that send
/// `*/*` get markdown).
pub(crate) fn serve(options: &CodecOptions) -> Result<(Negotiator, ResponseHeaders), CliError> {
    let standard = serve_standard(options)?;
    Ok((
        standard.build().map_err(setup)?,
        standard.response_headers(),
    ))
}

/// [`serve`]'s standard setup, titled `codec serve` (the index page's
/// title); [`page`] titles a document's page.
pub(crate) fn serve_standard(options: &CodecOptions) -> Result<agent_codecs::Standard, CliError> {
    Ok(standard(options)?
        .html(true)
        .title("codec serve")
        .agents(true))
}

/// The index's HTML page: the standard page titled `codec serve`, with
/// the documents' paths as links to them.
pub(crate) fn index_page(options: &CodecOptions) -> Result<Arc<dyn Codec>, CliError> {
    // The standard page's alternates: the codecs before it and MCP, all
    // of the standard's but the page.
    let alternates = standard(options)?.codecs().map_err(setup)?;
    let page = agent_codecs::html::HtmlCodec::builder()
        .title("codec serve")
        .alternates(alternates)
        .token_counter(Arc::new(agent_codecs::O200k::new()))
        .link_paths(true)
        .build()
        .map_err(|e| CliError::Usage(format!("the index page: {e}")))?;
    Ok(Arc::new(page))
}

/// The HTML page of `standard` titled `title`: a document's own page,
/// the same as the negotiator's but for its `<title>` and heading.
pub(crate) fn page(
    standard: &agent_codecs::Standard,
    title: &str,
) -> Option<Arc<dyn agent_codecs::Codec>> {
    let codecs = standard.clone().title(title).codecs().ok()?;
    codecs.into_iter().find(|codec| codec.format() == "html")
}

/// `codec mcp`'s codec options from the flags, its markdown text of
/// `--profile`; the protocol version is each client's, the text limit
/// [`mcp_text_limit`]'s.
pub(crate) fn mcp_builder(options: &CodecOptions) -> Result<McpCodecBuilder, CliError> {
    // The default profile as the codec's own markdown, whose text limit
    // is its writer's budget: a large document is cut as it is written,
    // not held whole.
    let text = match (mcp_text(options)?, profile(options)?) {
        (TextFormat::Markdown, Profile::Default) => TextFormat::Markdown,
        (TextFormat::Markdown, profile) => {
            TextFormat::Codec(Arc::new(MarkdownCodec::builder().profile(profile).build()))
        }
        (other, _) => other,
    };
    // `get` cuts its structured content to the rows its text kept
    // itself, with its own note; `list`'s is whole.
    Ok(McpCodec::builder()
        .structured_content(structured(options)?)
        .text_format(text)
        .cut_structured_content(false)
        .pretty(options.pretty))
}

/// The mcp codec's text limit: `--mcp-text-limit`, else `--budget`, else
/// the codec's 25,000 chars (as the standard negotiator's MCP codec).
pub(crate) fn mcp_text_limit(options: &CodecOptions) -> Option<TextLimit> {
    match options.mcp_text_limit {
        Some(limit) => text_limit(limit),
        None => budget(options).or(Some(TextLimit::chars(DEFAULT_MAX_TEXT_CHARS))),
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

/// The format names, for error messages.
pub(crate) fn format_names(negotiator: &Negotiator) -> String {
    negotiator
        .codecs()
        .map(|c| c.format())
        .collect::<Vec<_>>()
        .join(", ")
}

/// `--profile`, and `--lossless` as `--profile lossless`.
fn profile(options: &CodecOptions) -> Result<Profile, CliError> {
    let profile = match options.profile.as_str() {
        "default" => Profile::Default,
        "lossless" => Profile::Lossless,
        "dense" => Profile::Dense,
        other => {
            return Err(CliError::Usage(format!(
                "--profile: unknown profile {other:?}; expected default, lossless or dense"
            )));
        }
    };
    // The argument parser refuses `--lossless` with `--profile`; options
    // built in code get the same answer.
    match (options.lossless, profile) {
        (false, profile) | (true, profile @ Profile::Lossless) => Ok(profile),
        (true, Profile::Default) => Ok(Profile::Lossless),
        (true, _) => Err(CliError::Usage(
            "--lossless is --profile lossless: it cannot go with another profile".into(),
        )),
    }
}

/// `--mcp-structured`.
fn structured(options: &CodecOptions) -> Result<StructuredContent, CliError> {
    match options.mcp_structured.as_str() {
        "always" => Ok(StructuredContent::Always),
        "with-schema" => Ok(StructuredContent::WithOutputSchema),
        "never" => Ok(StructuredContent::Never),
        other => Err(CliError::Usage(format!(
            "--mcp-structured: unknown policy {other:?}; expected always, with-schema or never"
        ))),
    }
}

/// `--mcp-text`: the markdown of `--profile` is `TextFormat::Markdown`.
fn mcp_text(options: &CodecOptions) -> Result<TextFormat, CliError> {
    match options.mcp_text.as_str() {
        "markdown" => Ok(TextFormat::Markdown),
        "json" => Ok(TextFormat::Json),
        "summary" => Ok(TextFormat::Summary),
        other => Err(CliError::Usage(format!(
            "--mcp-text: unknown format {other:?}; expected markdown, json or summary"
        ))),
    }
}

/// `--budget` with `--budget-hint`.
fn budget(options: &CodecOptions) -> Option<TextLimit> {
    let limit = limit(options.budget?);
    Some(match &options.budget_hint {
        Some(hint) => limit.with_hint(hint.clone()),
        None => limit,
    })
}

/// `--mcp-text-limit` as the codec's limit (`None` for none).
fn text_limit(limit: TextLimitArg) -> Option<TextLimit> {
    match limit {
        TextLimitArg::None => None,
        TextLimitArg::Limit(budget) => Some(self::limit(budget)),
    }
}

/// A size in its unit as a limit: tokens are o200k's, counted exactly.
fn limit(budget: Budget) -> TextLimit {
    match budget.unit {
        BudgetUnit::Tokens => TextLimit::tokens(budget.max, Arc::new(agent_codecs::O200k::new())),
        BudgetUnit::Chars => TextLimit::chars(budget.max),
        BudgetUnit::Bytes => TextLimit::bytes(budget.max),
    }
}

/// The flags were valid one by one but not together.
fn setup(error: agent_codecs::SetupError) -> CliError {
    let mut text = error.to_string();
    let mut source = std::error::Error::source(&error);
    while let Some(cause) = source {
        text.push_str(&format!(": {cause}"));
        source = cause.source();
    }
    CliError::Usage(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn options(profile: &str) -> CodecOptions {
        CodecOptions {
            profile: profile.to_owned(),
            ..CodecOptions::default()
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
            ("dense", "|id|user.name|\n|-|-|\n1|ada\n"),
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

    /// `serve` adds the page after markdown: browsers get it, every
    /// other client what the other commands negotiate.
    #[test]
    fn serve_adds_the_page_for_browsers() {
        let (serve, _) = serve(&options("default")).unwrap();
        let other = negotiator(&options("default")).unwrap();
        assert_eq!(format_names(&serve), "json, md, html, mcp");
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
            Some("application/vnd.mcp+json"),
            Some("text/plain"),
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

    /// The mcp text limit: `--mcp-text-limit`, else the budget, else the
    /// codec's own 25,000 chars.
    #[test]
    fn mcp_text_limit_falls_back_to_the_budget() {
        let unit = |options: &CodecOptions| mcp_text_limit(options).map(|l| (l.max(), l.unit()));
        let mut options = options("default");
        assert_eq!(
            unit(&options),
            Some((DEFAULT_MAX_TEXT_CHARS, "characters".to_owned()))
        );
        options.budget = Some(Budget {
            max: 900,
            unit: BudgetUnit::Bytes,
        });
        assert_eq!(unit(&options), Some((900, "bytes".to_owned())));
        options.mcp_text_limit = Some(TextLimitArg::None);
        assert_eq!(unit(&options), None);
    }
}

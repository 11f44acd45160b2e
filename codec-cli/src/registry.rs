//! The codecs and negotiators of the commands, from the flags: the
//! standard negotiator of `agent-codecs`, configured.

use std::sync::Arc;

use agent_codecs::{
    Codec, Negotiator, Profile, ProtocolVersion, ResponseHeaders, Standard, StructuredContent,
};

use crate::cli::{BudgetUnit, CodecOptions};
use crate::error::CliError;

/// The standard codecs with the flags' options: JSON first, so a client
/// that states no preference (`*/*`, or no `Accept`) gets the
/// conventional API answer, and markdown for every client that asks for
/// it (Claude Code, Cursor, OpenCode and OpenClaw all list
/// `text/markdown` first; `text/plain` gets it too).
pub(crate) fn standard(options: &CodecOptions) -> Result<Standard, CliError> {
    let profile = match options.profile.as_str() {
        "default" => Profile::Default,
        "dense" => Profile::Dense,
        other => {
            return Err(CliError::Usage(format!(
                "--profile: unknown profile {other:?}; expected default or dense"
            )))
        }
    };
    if options.lossless && profile != Profile::Default {
        return Err(CliError::Usage(
            "--lossless goes with the default profile only".into(),
        ));
    }
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
    let budget = options.budget.map(|budget| {
        let limit = match budget.unit {
            BudgetUnit::Tokens => {
                agent_codecs::TextLimit::tokens(budget.max, Arc::new(agent_codecs::O200k::new()))
            }
            BudgetUnit::Chars => agent_codecs::TextLimit::chars(budget.max),
            BudgetUnit::Bytes => agent_codecs::TextLimit::bytes(budget.max),
        };
        match &options.budget_hint {
            Some(hint) => limit.with_hint(hint.clone()),
            None => limit,
        }
    });
    Ok(agent_codecs::standard()
        .profile(profile)
        .lossless(options.lossless)
        .mcp_version(version)
        .mcp_structured(structured)
        .pretty(options.pretty)
        .budget(budget))
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
    let standard = standard(options)?
        .html(true)
        .title("codec serve")
        .agents(true);
    Ok((
        standard.build().map_err(setup)?,
        standard.response_headers(),
    ))
}

/// The format names, for error messages.
pub(crate) fn format_names(negotiator: &Negotiator) -> String {
    negotiator
        .codecs()
        .map(|c| c.format())
        .collect::<Vec<_>>()
        .join(", ")
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
}

//! [`Standard`]: the standard negotiator over the real codecs, with its
//! options, and [`SetupError`].

use std::fmt;
use std::sync::Arc;

use codec_core::{Codec, MediaType, TextLimit, TokenCounter};
use negotiate::Negotiator;

#[cfg(feature = "mcp")]
use codec_mcp::{McpCodec, ProtocolVersion, StructuredContent, TextFormat};
#[cfg(feature = "md")]
use codec_md::{MarkdownCodec, Profile};

/// The standard negotiator over the real codecs, configured: what most
/// services serve. Made by [`standard`](crate::standard).
///
/// By default: JSON (`application/json`), markdown (`text/markdown;
/// charset=utf-8; variant=GFM`, also for `text/x-markdown` and
/// `text/plain`) and MCP (`application/vnd.mcp+json`), in that order of
/// the server's preference, each with the options its crate gives by
/// default; with feature `tokens`, the exact o200k count for the token
/// header and the page. So `*/*` and a missing `Accept` get JSON, agents
/// that ask for markdown (Claude Code, Cursor, OpenCode, OpenClaw) get
/// markdown, MCP clients that ask for it get a `CallToolResult`.
///
/// Opt in to the HTML page for browsers (`Standard::html`, feature
/// `html`): registered after markdown, so browsers (which list
/// `text/html` first) get the page and agents and `curl` keep what they
/// get without it. Opt in to markdown for known agents whose `Accept`
/// says nothing ([`Standard::agents`]).
///
/// ```
/// use agent_codecs::{Profile, TextLimit};
///
/// let negotiator = agent_codecs::standard()
///     .profile(Profile::Dense)
///     .budget(Some(TextLimit::chars(20_000)))
///     .build()
///     .unwrap();
/// let formats: Vec<&str> = negotiator.codecs().map(|c| c.format()).collect();
/// assert_eq!(formats, ["json", "md", "mcp"]);
/// let chosen = negotiator.negotiate(Some("text/plain")).into_result().unwrap();
/// assert_eq!((chosen.format(), chosen.content_type().as_str()), ("md", "text/plain; charset=utf-8"));
/// ```
#[derive(Clone)]
pub struct Standard {
    json: bool,
    md: bool,
    mcp: bool,
    html: bool,
    text_plain: bool,
    agents: bool,
    pretty: bool,
    pub(crate) budget: Option<TextLimit>,
    counter: Option<Arc<dyn TokenCounter>>,
    #[cfg(feature = "md")]
    pub(crate) profile: Profile,
    #[cfg(feature = "mcp")]
    pub(crate) mcp_version: ProtocolVersion,
    #[cfg(feature = "mcp")]
    pub(crate) mcp_structured: StructuredContent,
    #[cfg(feature = "mcp")]
    pub(crate) mcp_text: TextFormat,
    /// `Some` when set: it then replaces the budget for the MCP text.
    #[cfg(feature = "mcp")]
    mcp_text_limit: Option<Option<TextLimit>>,
    #[cfg(feature = "html")]
    title: String,
    /// Whether responses carry an `ETag` (and `304 Not Modified`).
    etag: bool,
    /// Codecs added by [`Standard::codec`], after the standard ones.
    added: Vec<Arc<dyn Codec>>,
}

/// Why the standard negotiator could not be built: the options of one of
/// its parts contradict each other.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SetupError {
    /// Every codec was turned off.
    #[error("no codec is on: turn on json, md, mcp or html")]
    NoCodecs,
    /// The MCP codec rejected its options.
    #[cfg(feature = "mcp")]
    #[error("the mcp codec")]
    Mcp(#[source] codec_mcp::ConfigError),
    /// The HTML codec rejected its options.
    #[cfg(feature = "html")]
    #[error("the html codec")]
    Html(#[source] codec_html::BuildError),
    /// The negotiator rejected the codecs or aliases.
    #[error("the negotiator")]
    Negotiator(#[source] negotiate::BuildError),
}

impl Standard {
    pub(crate) fn new() -> Standard {
        Standard {
            json: cfg!(feature = "json"),
            md: cfg!(feature = "md"),
            mcp: cfg!(feature = "mcp"),
            html: false,
            text_plain: true,
            agents: false,
            pretty: false,
            budget: None,
            counter: default_counter(),
            #[cfg(feature = "md")]
            profile: Profile::Default,
            #[cfg(feature = "mcp")]
            mcp_version: ProtocolVersion::default(),
            #[cfg(feature = "mcp")]
            mcp_structured: StructuredContent::default(),
            #[cfg(feature = "mcp")]
            mcp_text: TextFormat::Markdown,
            #[cfg(feature = "mcp")]
            mcp_text_limit: None,
            #[cfg(feature = "html")]
            title: "Response".to_owned(),
            etag: true,
            added: Vec::new(),
        }
    }

    /// Whether JSON is served (on by default, with the feature).
    #[cfg(feature = "json")]
    #[cfg_attr(docsrs, doc(cfg(feature = "json")))]
    pub fn json(mut self, yes: bool) -> Standard {
        self.json = yes;
        self
    }

    /// Whether markdown is served (on by default, with the feature). The
    /// MCP codec writes its text with the markdown rules either way.
    #[cfg(feature = "md")]
    #[cfg_attr(docsrs, doc(cfg(feature = "md")))]
    pub fn md(mut self, yes: bool) -> Standard {
        self.md = yes;
        self
    }

    /// Whether MCP results are served (on by default, with the feature).
    #[cfg(feature = "mcp")]
    #[cfg_attr(docsrs, doc(cfg(feature = "mcp")))]
    pub fn mcp(mut self, yes: bool) -> Standard {
        self.mcp = yes;
        self
    }

    /// Whether browsers get the HTML page (off by default): registered
    /// after markdown, titled [`Standard::title`], linking to the other
    /// formats and showing what each costs in bytes (and tokens, with a
    /// [token counter](Standard::token_counter)). Its responses carry
    /// `codec_html::CONTENT_SECURITY_POLICY` through
    /// `Standard::response_headers` (feature `http`).
    #[cfg(feature = "html")]
    #[cfg_attr(docsrs, doc(cfg(feature = "html")))]
    pub fn html(mut self, yes: bool) -> Standard {
        self.html = yes;
        self
    }

    /// The HTML page's title (`Response` by default).
    #[cfg(feature = "html")]
    #[cfg_attr(docsrs, doc(cfg(feature = "html")))]
    pub fn title(mut self, title: impl Into<String>) -> Standard {
        self.title = title.into();
        self
    }

    /// Whether `text/plain` is answered with the markdown (on by default):
    /// markdown is plain text, and clients that accept only `text/plain`
    /// get it rather than a 406, as `text/plain; charset=utf-8`. It ranks
    /// below `text/markdown`: a client that accepts both equally gets
    /// `text/markdown`.
    pub fn text_plain(mut self, yes: bool) -> Standard {
        self.text_plain = yes;
        self
    }

    /// Whether known agents (`negotiate::AGENT_USER_AGENTS`: Claude-User,
    /// ChatGPT-User, PerplexityBot, ...) get markdown when their `Accept`
    /// states no preference beyond `*/*` (off by default). Read from
    /// `User-Agent` by `negotiate_request` and the axum layer; an `Accept`
    /// that names a type is always obeyed. With it on, responses carry
    /// `Vary: Accept, User-Agent`, so caches keep the agents' answers
    /// apart from everyone else's.
    pub fn agents(mut self, yes: bool) -> Standard {
        self.agents = yes;
        self
    }

    /// Two-space indented JSON from the JSON and MCP codecs (default
    /// compact).
    pub fn pretty(mut self, yes: bool) -> Standard {
        self.pretty = yes;
        self
    }

    /// The markdown layout (default [`Profile::Default`], SPEC.md's;
    /// [`Profile::Dense`] costs 0.70x the tokens of compact JSON over the
    /// eight benchmark datasets (within the 5 tokens of a JSON fence of it
    /// on each), against 1.22x for the default, which wins only on flat tables;
    /// [`Profile::Lossless`] adds the fewest markers that make it read back
    /// exactly). The MCP codec's markdown text follows it.
    #[cfg(feature = "md")]
    #[cfg_attr(docsrs, doc(cfg(feature = "md")))]
    pub fn profile(mut self, profile: Profile) -> Standard {
        self.profile = profile;
        self
    }

    /// A budget for what agents read (default none): every markdown
    /// response, and the MCP result's text block, is cut to it where a
    /// table row or an item ends, with a note that says what was left out
    /// and how to get it (the limit's hint). In chars, bytes or exact
    /// tokens ([`TextLimit::tokens`] with `O200k`, feature `tokens`).
    /// Without it the MCP text keeps its own default of 25,000 chars.
    pub fn budget(mut self, limit: Option<TextLimit>) -> Standard {
        self.budget = limit;
        self
    }

    /// The MCP protocol version results are written for (default
    /// 2025-11-25).
    #[cfg(feature = "mcp")]
    #[cfg_attr(docsrs, doc(cfg(feature = "mcp")))]
    pub fn mcp_version(mut self, version: ProtocolVersion) -> Standard {
        self.mcp_version = version;
        self
    }

    /// When MCP results carry `structuredContent` (default always).
    #[cfg(feature = "mcp")]
    #[cfg_attr(docsrs, doc(cfg(feature = "mcp")))]
    pub fn mcp_structured(mut self, policy: StructuredContent) -> Standard {
        self.mcp_structured = policy;
        self
    }

    /// What the MCP result's text block holds (default
    /// [`TextFormat::Markdown`], written with [`Standard::profile`]; see
    /// `TextFormat` for JSON and the one-line summary that keeps a client
    /// from billing the data twice).
    #[cfg(feature = "mcp")]
    #[cfg_attr(docsrs, doc(cfg(feature = "mcp")))]
    pub fn mcp_text(mut self, format: TextFormat) -> Standard {
        self.mcp_text = format;
        self
    }

    /// The MCP text block's limit, replacing the [budget](Standard::budget)
    /// for it (`None`: no limit). Unset by default: the budget when there
    /// is one, else codec-mcp's 25,000 chars.
    #[cfg(feature = "mcp")]
    #[cfg_attr(docsrs, doc(cfg(feature = "mcp")))]
    pub fn mcp_text_limit(mut self, limit: Option<TextLimit>) -> Standard {
        self.mcp_text_limit = Some(limit);
        self
    }

    /// Whether responses carry a strong `ETag` and answer a matching
    /// `If-None-Match` with `304 Not Modified` (on by default). The `ETag`
    /// is a BLAKE3 hash of each body: on a small response (a 2 KB body)
    /// that is about a quarter of `axum::Json`'s whole cost, which a
    /// service that never sees conditional requests can save.
    pub fn etag(mut self, yes: bool) -> Standard {
        self.etag = yes;
        self
    }

    /// The counter of the `x-markdown-tokens` header and of the HTML
    /// page's token figures: `O200k` by default with feature `tokens`,
    /// none without (then neither shows tokens). It is exact or absent:
    /// a [`TokenCounter`] is never an estimate.
    pub fn token_counter(mut self, counter: Option<Arc<dyn TokenCounter>>) -> Standard {
        self.counter = counter;
        self
    }

    /// Adds a codec of your own (a CSV writer, say) after the standard
    /// ones, keeping everything else the standard gives: the
    /// `text/x-markdown` and `text/plain` aliases, the agent policy, the
    /// response headers. It is served for its media type and its format
    /// name (`?format=csv`); `*/*` and a missing `Accept` still get the
    /// first standard codec. Codecs added are kept in the order added; a
    /// format name that is already taken makes [`Standard::build`] fail.
    ///
    /// ```
    /// use std::sync::Arc;
    ///
    /// use agent_codecs::{Codec, MediaType, Value};
    /// use agent_codecs::core::EncodeError;
    ///
    /// /// Writes a value's debug form: a stand-in for a real codec.
    /// struct Debug(MediaType);
    /// impl Codec for Debug {
    ///     fn format(&self) -> &str { "debug" }
    ///     fn media_type(&self) -> &MediaType { &self.0 }
    ///     fn encode_value(&self, v: &Value, out: &mut Vec<u8>) -> Result<(), EncodeError> {
    ///         out.extend_from_slice(format!("{v:?}").as_bytes());
    ///         Ok(())
    ///     }
    /// }
    ///
    /// let negotiator = agent_codecs::standard()
    ///     .codec(Arc::new(Debug(MediaType::from_static("text/x-debug"))))
    ///     .build()
    ///     .unwrap();
    /// let chosen = negotiator.negotiate(Some("text/x-debug")).into_result().unwrap();
    /// assert_eq!(chosen.format(), "debug");
    /// // The standard's aliases are still there.
    /// let chosen = negotiator.negotiate(Some("text/plain")).into_result().unwrap();
    /// assert_eq!(chosen.format(), "md");
    /// ```
    pub fn codec(mut self, codec: Arc<dyn Codec>) -> Standard {
        self.added.push(codec);
        self
    }

    /// The codecs, in the server's order of preference: JSON, markdown,
    /// the HTML page (when on), MCP, then those added by
    /// [`Standard::codec`].
    ///
    /// # Errors
    ///
    /// A [`SetupError`] when no codec is on, or the MCP or HTML codec
    /// rejects its options.
    pub fn codecs(&self) -> Result<Vec<Arc<dyn Codec>>, SetupError> {
        // Pushed to only with the codecs' features.
        #[allow(unused_mut)]
        let mut codecs: Vec<Arc<dyn Codec>> = Vec::new();
        #[cfg(feature = "json")]
        if self.json {
            codecs.push(Arc::new(
                codec_json::JsonCodec::builder().pretty(self.pretty).build(),
            ));
        }
        #[cfg(feature = "md")]
        if self.md {
            codecs.push(Arc::new(self.markdown(self.budget.clone())));
        }
        #[cfg(feature = "html")]
        if self.html {
            codecs.push(Arc::new(self.page(&codecs)?));
        }
        #[cfg(feature = "mcp")]
        if self.mcp {
            codecs.push(Arc::new(self.mcp_codec()?));
        }
        codecs.extend(self.added.iter().cloned());
        if codecs.is_empty() {
            return Err(SetupError::NoCodecs);
        }
        Ok(codecs)
    }

    /// The negotiator: [`Standard::codecs`], with `text/x-markdown` (and
    /// `text/plain`, unless turned off) answered by markdown, the agent
    /// policy when on, and negotiate's default policies.
    ///
    /// # Errors
    ///
    /// A [`SetupError`], as for [`Standard::codecs`].
    pub fn build(&self) -> Result<Negotiator, SetupError> {
        let codecs = self.codecs()?;
        let has_md = codecs.iter().any(|codec| codec.format() == "md");
        let mut builder = Negotiator::builder().codecs(codecs);
        if has_md {
            builder = builder.alias("md", MediaType::from_static("text/x-markdown"));
            if self.text_plain {
                builder = builder.alias("md", MediaType::from_static("text/plain"));
            }
            if self.agents {
                builder = builder.agent_format(Some("md"));
            }
        }
        builder.build().map_err(SetupError::Negotiator)
    }

    /// What the standard responses carry besides their body: a strong
    /// `ETag` and `304 Not Modified`, `Link` alternates to the markdown
    /// and the JSON, the `x-markdown-tokens` count with a
    /// [token counter](Standard::token_counter), and the HTML page's
    /// `Content-Security-Policy`.
    #[cfg(feature = "http")]
    #[cfg_attr(docsrs, doc(cfg(feature = "http")))]
    pub fn response_headers(&self) -> negotiate::ResponseHeaders {
        // Added to with the page's feature.
        #[allow(unused_mut)]
        let mut headers = negotiate::ResponseHeaders::builder()
            .etag(self.etag)
            .alternates(["md", "json"])
            .token_counter(self.counter.clone());
        #[cfg(feature = "html")]
        {
            headers = headers.format_header(
                "html",
                http::header::CONTENT_SECURITY_POLICY,
                http::HeaderValue::from_static(codec_html::CONTENT_SECURITY_POLICY),
            );
        }
        headers.build()
    }

    /// The axum layer: [`Standard::build`]'s negotiator and
    /// [`Standard::response_headers`].
    ///
    /// # Errors
    ///
    /// A [`SetupError`], as for [`Standard::codecs`].
    #[cfg(feature = "axum")]
    #[cfg_attr(docsrs, doc(cfg(feature = "axum")))]
    pub fn layer(&self) -> Result<negotiate::NegotiateLayer, SetupError> {
        Ok(negotiate::NegotiateLayer::with_headers(
            Arc::new(self.build()?),
            self.response_headers(),
        ))
    }

    #[cfg(feature = "md")]
    fn markdown(&self, budget: Option<TextLimit>) -> MarkdownCodec {
        MarkdownCodec::builder()
            .profile(self.profile)
            .budget(budget)
            .build()
    }

    /// The MCP codec: its text as [`Standard::mcp_text`] says (the
    /// markdown of another profile than the default without the budget:
    /// the MCP codec cuts its own text block),
    /// cut to [`Standard::mcp_text_limit`], else to the budget when there is
    /// one.
    #[cfg(feature = "mcp")]
    fn mcp_codec(&self) -> Result<McpCodec, SetupError> {
        let text = match &self.mcp_text {
            // The default profile is codec-mcp's own markdown, which cuts
            // its text as it writes it rather than writing the whole text
            // and cutting it after (the same bytes, for less work on large
            // values).
            #[cfg(feature = "md")]
            TextFormat::Markdown if self.profile != Profile::Default => {
                TextFormat::Codec(Arc::new(self.markdown(None)))
            }
            other => other.clone(),
        };
        let mut builder = McpCodec::builder()
            .protocol_version(self.mcp_version)
            .structured_content(self.mcp_structured)
            .text_format(text)
            .pretty(self.pretty);
        match (&self.mcp_text_limit, &self.budget) {
            (Some(limit), _) => builder = builder.text_limit(limit.clone()),
            (None, Some(budget)) => builder = builder.text_limit(Some(budget.clone())),
            (None, None) => {}
        }
        builder.build().map_err(SetupError::Mcp)
    }

    /// The page, with the codecs before it as its alternates.
    #[cfg(feature = "html")]
    fn page(&self, alternates: &[Arc<dyn Codec>]) -> Result<codec_html::HtmlCodec, SetupError> {
        // The MCP codec joins them with its feature.
        #[allow(unused_mut)]
        let mut alternates = alternates.to_vec();
        #[cfg(feature = "mcp")]
        if self.mcp {
            alternates.push(Arc::new(self.mcp_codec()?));
        }
        let mut page = codec_html::HtmlCodec::builder()
            .title(self.title.clone())
            .alternates(alternates);
        if let Some(counter) = &self.counter {
            page = page.token_counter(Arc::clone(counter));
        }
        page.build().map_err(SetupError::Html)
    }
}

impl fmt::Debug for Standard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut debug = f.debug_struct("Standard");
        debug
            .field("json", &self.json)
            .field("md", &self.md)
            .field("mcp", &self.mcp)
            .field("html", &self.html)
            .field("text_plain", &self.text_plain)
            .field("agents", &self.agents)
            .field("pretty", &self.pretty)
            .field("budget", &self.budget)
            .field("etag", &self.etag)
            .field(
                "token_counter",
                &self.counter.as_ref().map(|c| c.name().to_owned()),
            );
        #[cfg(feature = "md")]
        debug.field("profile", &self.profile);
        #[cfg(feature = "mcp")]
        debug
            .field("mcp_version", &self.mcp_version)
            .field("mcp_structured", &self.mcp_structured)
            .field("mcp_text", &self.mcp_text)
            .field("mcp_text_limit", &self.mcp_text_limit);
        let added: Vec<&str> = self.added.iter().map(|codec| codec.format()).collect();
        debug.field("added", &added);
        debug.finish()
    }
}

/// `O200k` with feature `tokens`: loaded once per process, so building
/// the standard negotiator is where a service pays for it, not its first
/// request.
fn default_counter() -> Option<Arc<dyn TokenCounter>> {
    #[cfg(feature = "tokens")]
    {
        Some(Arc::new(codec_core::tokens::O200k::new()))
    }
    #[cfg(not(feature = "tokens"))]
    {
        None
    }
}

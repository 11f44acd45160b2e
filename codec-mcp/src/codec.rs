//! [`McpCodec`] and its builder: what a result carries for each protocol
//! version and option.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use codec_core::{
    Codec, EncodeError, FastPath, MediaType, TextLimit, Value, ValueView,
    json::JsonWriter,
    tape::{Tape, TapeNode},
    truncate::Omission,
    value::DEFAULT_MAX_DEPTH,
};
use codec_json::JsonCodec;
use codec_md::MarkdownCodec;

use crate::draft::{Draft, Structured, table_rows};
use crate::options::{ConfigError, StructuredContent, TextFormat};
use crate::schema::{advertised_output_schema, needs_wrapping};
use crate::summary;
use crate::version::ProtocolVersion;
use crate::wire::{
    CallToolResult, ContentBlock, Implementation, JsonRpcResponse, RequestId, SERVER_INFO_KEY,
};

/// The default media type.
const MEDIA_TYPE: &str = "application/vnd.mcp+json";

/// The default limit of the text block, in chars: the number agent
/// guidance uses (Claude Code caps MCP tool output at 25,000 tokens by
/// default). Counted in chars it is the stricter cap: a token of English
/// text or markdown is usually several chars.
pub const DEFAULT_MAX_TEXT_CHARS: usize = 25_000;

/// How deep a value may nest: JSON's [`DEFAULT_MAX_DEPTH`] less the three
/// levels a result can put around it (the result object, the `{"result":
/// ...}` wrapper and the JSON-RPC envelope), so that every result the codec
/// builds can be written, in an envelope too.
pub const MAX_VALUE_DEPTH: usize = DEFAULT_MAX_DEPTH - 3;

/// The text of an error result whose value renders to nothing: the model
/// must still learn that the call failed.
const EMPTY_ERROR_TEXT: &str = "The tool failed without giving a reason.";

/// The MCP codec: writes a handler's value as a `CallToolResult` for one
/// protocol version.
///
/// Format name `mcp`; media type `application/vnd.mcp+json` unless
/// configured. What it writes, by default (2025-11-25, structured content
/// always, markdown text):
///
/// - `content`: one text block holding the markdown rendering of the
///   value, cut at [`DEFAULT_MAX_TEXT_CHARS`]; or no block at all when
///   the rendering is empty (a `null` result).
/// - `structuredContent`: the value, wrapped as `{"result": value}` when
///   the protocol version needs an object and the value is not one (or,
///   when the tool declares an output schema, when the schema is not an
///   object schema).
/// - `isError` omitted: absent means success.
///
/// Tool failures are results too, not JSON-RPC errors:
/// [`McpCodec::error_result`] and [`McpCodec::error_message`] make them.
///
/// ```
/// use codec_core::{from_slice, CodecExt};
/// use codec_mcp::{McpCodec, RequestId};
///
/// let codec = McpCodec::new();
/// let error = from_slice(br#"{"status": "NOT_FOUND", "message": "no issue #42"}"#).unwrap();
/// let result = codec.error_result(&error).unwrap();
/// let body = codec.response_to_vec(RequestId::from(4), result).unwrap();
/// assert_eq!(
///     String::from_utf8(body).unwrap(),
///     concat!(
///         r#"{"jsonrpc":"2.0","id":4,"result":{"content":[{"type":"text","#,
///         r#""text":"- **status**: NOT_FOUND\n- **message**: no issue #42\n"}],"isError":true}}"#,
///     )
/// );
/// ```
#[derive(Debug, Clone)]
pub struct McpCodec {
    version: ProtocolVersion,
    structured: StructuredContent,
    output_schema: Option<Arc<Value>>,
    text_codec: Arc<dyn Codec>,
    /// [`TextFormat::Summary`]: one line where the result carries
    /// structured content, `text_codec` (markdown) where it does not.
    summary: bool,
    json_text: bool,
    text_limit: Option<TextLimit>,
    /// Whether `text_codec` cuts its renderings to `text_limit` itself:
    /// the markdown codec's budget, the same cut as its
    /// [`Codec::truncate`], made with the rows and items its writer
    /// counted as it wrote them instead of a second read of the whole
    /// text.
    text_budgeted: bool,
    /// The markdown text codec (with `text_limit` as its budget), for a
    /// cut that tells which rows it kept.
    markdown: Option<MarkdownCodec>,
    /// Whether a text cut after a row of the value's table cuts the
    /// structured content at the same row
    /// ([`McpCodecBuilder::cut_structured_content`]).
    cut_structured: bool,
    structured_errors: bool,
    server_info: Option<Implementation>,
    /// Compact or pretty: every JSON this codec writes.
    json: JsonWriter,
    media_type: MediaType,
    /// The length of the last text rendered, to size the next one's
    /// buffer (shared by the codec's clones).
    last_text: Arc<LastLength>,
}

/// The length of the last text a codec rendered: after a small text, a
/// new text's buffer starts a little above it, so a service's alike small
/// results rarely grow it (grown from empty, a text of a few KB is
/// reallocated about ten times). After a larger one it starts empty: its
/// growth is a small part of the result, and a buffer sized ahead made
/// large results dearer (where the allocator then put it, each later
/// growth copied it).
#[derive(Debug, Default)]
struct LastLength(AtomicUsize);

/// The largest last text whose length sizes the next text's buffer.
const SIZED_TEXT: usize = 16 * 1024;

impl LastLength {
    fn capacity(&self) -> usize {
        match self.0.load(Ordering::Relaxed) {
            last if last <= SIZED_TEXT => last + last / 8 + 64,
            _ => 0,
        }
    }

    fn wrote(&self, len: usize) {
        self.0.store(len, Ordering::Relaxed);
    }
}

/// Options of an [`McpCodec`].
///
/// ```
/// use codec_core::from_str;
/// use codec_mcp::{McpCodec, ProtocolVersion, StructuredContent};
///
/// // Agents read the markdown: structured content only for tools that
/// // declare an output schema, and this one does not.
/// let codec = McpCodec::builder()
///     .protocol_version(ProtocolVersion::V2026_07_28)
///     .structured_content(StructuredContent::WithOutputSchema)
///     .output_schema(None)
///     .max_text_chars(Some(10_000))
///     .build()
///     .unwrap();
/// let result = codec.result(&from_str(r#"{"ok": true}"#).unwrap()).unwrap();
/// assert_eq!(result.structured_content, None);
/// assert_eq!(result.text(), Some("- **ok**: true\n"));
/// ```
#[derive(Debug, Clone)]
pub struct McpCodecBuilder {
    version: ProtocolVersion,
    structured: StructuredContent,
    output_schema: Option<Value>,
    text_format: TextFormat,
    json_text: bool,
    text_limit: Option<TextLimit>,
    structured_errors: bool,
    cut_structured: bool,
    server_info: Option<Implementation>,
    pretty: bool,
    media_type: MediaType,
}

impl McpCodecBuilder {
    /// The protocol version the peer negotiated (default
    /// [`ProtocolVersion::V2025_11_25`], whose results every current peer
    /// reads; see [`McpCodec::with_protocol_version`] to switch per
    /// session).
    pub fn protocol_version(mut self, version: ProtocolVersion) -> McpCodecBuilder {
        self.version = version;
        self
    }

    /// When results carry `structuredContent` (default
    /// [`StructuredContent::Always`]).
    pub fn structured_content(mut self, policy: StructuredContent) -> McpCodecBuilder {
        self.structured = policy;
        self
    }

    /// The output schema the tool declares, if any (default none).
    ///
    /// The codec does not validate values against it; it uses it to know
    /// whether the tool has one ([`StructuredContent::WithOutputSchema`])
    /// and whether to wrap results (as [`advertised_output_schema`]
    /// decides, so results match what the tool advertises).
    pub fn output_schema(mut self, schema: Option<Value>) -> McpCodecBuilder {
        self.output_schema = schema;
        self
    }

    /// What the text block holds, and so which codec writes and cuts it
    /// (default [`TextFormat::Markdown`]): the markdown codec's default
    /// rendering, compact JSON, or any codec
    /// ([`TextFormat::Codec`]), such as a markdown codec with other
    /// options.
    pub fn text_format(mut self, format: TextFormat) -> McpCodecBuilder {
        self.text_format = format;
        self
    }

    /// Appends a second text block with the compact JSON of the structured
    /// content (of the value when there is none), as the specification's
    /// backwards-compatibility SHOULD asks (default off: clients that
    /// concatenate text blocks show the model both). Skipped when the text
    /// block already holds that JSON. This block is never truncated: a cut
    /// JSON document is no use to the programs it is for.
    pub fn json_text_block(mut self, yes: bool) -> McpCodecBuilder {
        self.json_text = yes;
        self
    }

    /// The most chars (Unicode scalar values) the main text block may
    /// hold, note included; `None` for no limit. Default
    /// [`DEFAULT_MAX_TEXT_CHARS`].
    ///
    /// A longer text is cut by the codec that wrote it
    /// ([`Codec::truncate`]), which knows where its syntax allows a cut:
    /// the markdown codec cuts only where a table row or an item ends (a
    /// cut cell would read as a real value) and says how many rows and
    /// items it left out ([`codec_md::truncate`]); other codecs, JSON
    /// included, get the plain cut of [`codec_core::truncate::truncate_plain`] (a
    /// line end near the limit, else a word end). Either way the text
    /// ends with a note saying how many chars were kept and omitted. The
    /// structured content is cut at the same row when the markdown text
    /// was cut after a row of the value's table
    /// ([`McpCodecBuilder::cut_structured_content`]), never otherwise. A limit smaller than the note
    /// (about 200 chars) gives the note alone. Shorthand for
    /// [`McpCodecBuilder::text_limit`] with [`TextLimit::chars`].
    pub fn max_text_chars(mut self, limit: Option<usize>) -> McpCodecBuilder {
        self.text_limit = limit.map(TextLimit::chars);
        self
    }

    /// The limit of the main text block in any unit: chars, bytes, or a
    /// tokenizer's tokens counted exactly ([`TextLimit::tokens`], with
    /// `codec_core::tokens::O200k` for `o200k_base`), and the hint its note ends
    /// with (how the model gets the rest: "Call `get` with rows={rows}..
    /// for the next rows."). `None` for no limit. Default
    /// [`DEFAULT_MAX_TEXT_CHARS`] chars.
    ///
    /// The text is cut by the codec that wrote it, as for
    /// [`McpCodecBuilder::max_text_chars`]: markdown only where a row or
    /// an item ends, with a note counting the rows and items left out
    /// (the same cut as the markdown codec's own budget,
    /// `codec_md::MarkdownCodecBuilder::budget`). The structured content
    /// is cut at the same row when the text was cut after a row of the
    /// value's table ([`McpCodecBuilder::cut_structured_content`]).
    ///
    /// ```
    /// use codec_core::{from_str, TextLimit};
    /// use codec_mcp::McpCodec;
    ///
    /// let limit = TextLimit::bytes(400).with_hint("Call `get` with rows={rows}.. for the rest.");
    /// let codec = McpCodec::builder().text_limit(Some(limit)).build().unwrap();
    /// let rows: Vec<String> = (0..200).map(|i| format!(r#"{{"id": {i}}}"#)).collect();
    /// let result = codec.result(&from_str(&format!("[{}]", rows.join(","))).unwrap()).unwrap();
    /// let text = result.text().unwrap();
    /// assert!(text.len() <= 400);
    /// assert!(text.starts_with("|id|\n|---|\n|0|\n|1|\n"));
    /// let kept = text.lines().filter(|l| l.starts_with('|')).count() - 2;
    /// assert!(text.ends_with(&format!(
    ///     "; {} of 200 rows were left out. Call `get` with rows={kept}.. for the rest. \
    ///      The structuredContent holds the same {kept} rows.]",
    ///     200 - kept
    /// )));
    /// ```
    pub fn text_limit(mut self, limit: Option<TextLimit>) -> McpCodecBuilder {
        self.text_limit = limit;
        self
    }

    /// Whether error results carry the error value as `structuredContent`
    /// too (default off: clients skip output-schema validation for errors
    /// and agents show only the text). Never with
    /// [`StructuredContent::Never`].
    pub fn structured_errors(mut self, yes: bool) -> McpCodecBuilder {
        self.structured_errors = yes;
        self
    }

    /// Whether a markdown text cut to the limit after a row of the value's
    /// table (the value when it is an array, or its only member when that
    /// is one) cuts `structuredContent` at the same row (default on): a
    /// client that shows the model the structured content rather than
    /// the text stays within the same budget. The note then says so after
    /// the limit's hint (how to get the rest): `... Request ?offset=14 for
    /// the next rows. The structuredContent holds the same 14 rows.` Off:
    /// the structured content is the whole value, whatever the text kept.
    ///
    /// ```
    /// use codec_core::{TextLimit, from_str};
    /// use codec_mcp::McpCodec;
    ///
    /// let rows: Vec<String> = (0..200).map(|i| format!(r#"{{"id": {i}}}"#)).collect();
    /// let value = from_str(&format!(r#"{{"items": [{}]}}"#, rows.join(","))).unwrap();
    /// let limit = TextLimit::chars(400).with_hint("Ask for offset={rows}.");
    /// let codec = McpCodec::builder().text_limit(Some(limit.clone())).build().unwrap();
    /// let result = codec.result(&value).unwrap();
    /// let kept = result.structured_content.as_ref().unwrap()["items"].as_array().unwrap().len();
    /// assert!(kept > 0 && kept < 200);
    /// let hint = format!("Ask for offset={kept}. The structuredContent holds the same {kept} rows.]");
    /// assert!(result.text().unwrap().ends_with(&hint));
    ///
    /// let whole = McpCodec::builder().text_limit(Some(limit)).cut_structured_content(false);
    /// let result = whole.build().unwrap().result(&value).unwrap();
    /// assert_eq!(result.structured_content, Some(value));
    /// ```
    pub fn cut_structured_content(mut self, yes: bool) -> McpCodecBuilder {
        self.cut_structured = yes;
        self
    }

    /// The server's name and version, sent as
    /// `_meta["io.modelcontextprotocol/serverInfo"]` on every 2026-07-28
    /// result, as that revision asks (SHOULD). Default none: the codec
    /// cannot know the service's name. Older revisions never get it.
    pub fn server_info(mut self, info: Option<Implementation>) -> McpCodecBuilder {
        self.server_info = info;
        self
    }

    /// Two-space indented JSON instead of compact (default compact).
    pub fn pretty(mut self, yes: bool) -> McpCodecBuilder {
        self.pretty = yes;
        self
    }

    /// The media type the codec declares (default
    /// `application/vnd.mcp+json`).
    pub fn media_type(mut self, media_type: MediaType) -> McpCodecBuilder {
        self.media_type = media_type;
        self
    }

    /// The codec.
    ///
    /// # Errors
    ///
    /// [`ConfigError::NeverWithOutputSchema`] for
    /// [`StructuredContent::Never`] with an output schema: the one pair of
    /// options that contradict each other (see [`ConfigError`] for why it
    /// is an error and not unrepresentable). Every other combination
    /// builds.
    pub fn build(self) -> Result<McpCodec, ConfigError> {
        if self.structured == StructuredContent::Never && self.output_schema.is_some() {
            return Err(ConfigError::NeverWithOutputSchema);
        }
        Ok(self.assemble())
    }

    /// The codec, options already checked.
    fn assemble(self) -> McpCodec {
        let summary = matches!(self.text_format, TextFormat::Summary);
        let text_budgeted = matches!(self.text_format, TextFormat::Markdown | TextFormat::Summary);
        let markdown = text_budgeted.then(|| {
            MarkdownCodec::builder()
                .budget(self.text_limit.clone())
                .build()
        });
        let text_codec: Arc<dyn Codec> = match (self.text_format, &markdown) {
            (_, Some(markdown)) => Arc::new(markdown.clone()),
            (TextFormat::Codec(codec), None) => codec,
            (_, None) => Arc::new(JsonCodec::new()),
        };
        McpCodec {
            version: self.version,
            structured: self.structured,
            output_schema: self.output_schema.map(Arc::new),
            text_codec,
            summary,
            json_text: self.json_text,
            text_limit: self.text_limit,
            text_budgeted,
            markdown,
            cut_structured: self.cut_structured,
            structured_errors: self.structured_errors,
            server_info: self.server_info,
            json: if self.pretty {
                JsonWriter::pretty()
            } else {
                JsonWriter::compact()
            },
            media_type: self.media_type,
            last_text: Arc::default(),
        }
    }
}

impl Default for McpCodec {
    fn default() -> McpCodec {
        McpCodec::new()
    }
}

impl McpCodec {
    /// The codec with the default options: protocol 2025-11-25, structured
    /// content always, markdown text cut at [`DEFAULT_MAX_TEXT_CHARS`],
    /// compact JSON.
    pub fn new() -> McpCodec {
        // The defaults never contradict each other.
        McpCodec::builder().assemble()
    }

    /// The options, starting from the defaults of [`McpCodec::new`].
    pub fn builder() -> McpCodecBuilder {
        McpCodecBuilder {
            version: ProtocolVersion::default(),
            structured: StructuredContent::default(),
            output_schema: None,
            text_format: TextFormat::Markdown,
            json_text: false,
            text_limit: Some(TextLimit::chars(DEFAULT_MAX_TEXT_CHARS)),
            structured_errors: false,
            cut_structured: true,
            server_info: None,
            pretty: false,
            media_type: MediaType::from_static(MEDIA_TYPE),
        }
    }

    /// The protocol version this codec writes for.
    pub fn protocol_version(&self) -> ProtocolVersion {
        self.version
    }

    /// The same codec for another protocol version: a server keeps one
    /// configured codec per tool and switches per session. Cheap (the
    /// schema and text codec are shared).
    pub fn with_protocol_version(&self, version: ProtocolVersion) -> McpCodec {
        McpCodec {
            version,
            ..self.clone()
        }
    }

    /// The output schema to list for this tool under this codec's protocol
    /// version ([`advertised_output_schema`] of the declared schema), or
    /// `None` when the tool declares none.
    pub fn advertised_output_schema(&self) -> Option<Value> {
        self.output_schema
            .as_deref()
            .map(|schema| advertised_output_schema(schema, self.version))
    }

    /// The successful result for `value`.
    ///
    /// Fails when the value nests deeper than [`MAX_VALUE_DEPTH`], when the
    /// text codec fails or writes bytes that are not UTF-8, or when a 2025
    /// peer needs an object but the tool's object output schema forbids
    /// wrapping a value that is not one ([`EncodeError::Unrepresentable`]).
    ///
    /// The result owns a copy of the value; [`Codec::encode_value`] and
    /// [`McpCodec::encode_response`] write the same result without one.
    pub fn result(&self, value: &Value) -> Result<CallToolResult, EncodeError> {
        Ok(self.draft(value, false)?.into_result())
    }

    /// The result for a tool that ran and failed: `isError: true`, and the
    /// rendering of `value` (say what went wrong and how to do better) as
    /// the text the model reads.
    ///
    /// The value goes in `structuredContent` too only when
    /// [`McpCodecBuilder::structured_errors`] is on (wrapped, under a 2025
    /// revision, when it is not an object: the output schema does not
    /// apply to errors). A value that renders to nothing gets a generic
    /// text, so the model still learns of the failure.
    pub fn error_result(&self, value: &Value) -> Result<CallToolResult, EncodeError> {
        Ok(self.draft(value, true)?.into_result())
    }

    /// An error result whose text is `message`, verbatim (cut at the
    /// limit), for failures that have no value: `isError: true`, no
    /// structured content.
    pub fn error_message(&self, message: &str) -> CallToolResult {
        let text = match message {
            "" => EMPTY_ERROR_TEXT.to_owned(),
            _ => self.limit(message.to_owned()),
        };
        self.finish(vec![ContentBlock::text(text)], None, true)
            .into_result()
    }

    /// Appends the JSON of `result` to `out`, in this codec's layout.
    pub fn write_result(
        &self,
        result: CallToolResult,
        out: &mut Vec<u8>,
    ) -> Result<(), EncodeError> {
        self.json.write_value(&result.into_value(), out)
    }

    /// The JSON-RPC 2.0 response carrying `result`, as bytes:
    /// `{"jsonrpc":"2.0","id":...,"result":...}`.
    pub fn response_to_vec(
        &self,
        id: RequestId,
        result: CallToolResult,
    ) -> Result<Vec<u8>, EncodeError> {
        let mut out = Vec::with_capacity(256);
        self.json
            .write_value(&JsonRpcResponse::new(id, result).into_value(), &mut out)?;
        Ok(out)
    }

    /// Appends the JSON-RPC 2.0 response carrying the successful result for
    /// `value` to `out`: what [`McpCodec::result`] and
    /// [`McpCodec::response_to_vec`] write together, without copying the
    /// value.
    pub fn encode_response(
        &self,
        id: &RequestId,
        value: &Value,
        out: &mut Vec<u8>,
    ) -> Result<(), EncodeError> {
        let draft = self.draft(value, false)?;
        draft.write_response(id, &self.json, out)
    }

    /// The result for `input`, its structured content still borrowed.
    fn draft<'v, I: Input<'v>>(
        &self,
        input: I,
        is_error: bool,
    ) -> Result<Draft<I::View>, EncodeError> {
        check_depth(input.depth())?;
        let value = input.view();
        let structured = if is_error {
            self.structured_errors && self.structured != StructuredContent::Never
        } else {
            match self.structured {
                StructuredContent::Always => true,
                StructuredContent::WithOutputSchema => self.output_schema.is_some(),
                StructuredContent::Never => false,
            }
        };
        let structured = if !structured {
            None
        } else if is_error {
            // The output schema describes results, not errors.
            Some(self.structured(value, None)?)
        } else {
            Some(self.structured(value, self.output_schema.as_deref())?)
        };
        let mut content = Vec::with_capacity(2);
        let mut structured = structured;
        let text = match &structured {
            Some(_) if self.summary => Some(summary::line(value)),
            Some(_) if self.cut_structured && !is_error && self.markdown.is_some() => {
                match table_rows(value) {
                    Some(rows) => {
                        let (text, kept) = self.render_rows(input, rows)?;
                        if let Some(kept) = kept {
                            structured = structured.take().map(|whole| whole.first_rows(kept));
                        }
                        text
                    }
                    None => self.render_text(input)?,
                }
            }
            _ if self.text_budgeted => self.render_text(input)?,
            _ => self.render_text(input)?.map(|text| self.limit(text)),
        };
        match text {
            Some(text) => content.push(ContentBlock::text(text)),
            None if is_error => content.push(ContentBlock::text(EMPTY_ERROR_TEXT)),
            None => {}
        }
        if self.json_text {
            let mut json = Vec::new();
            match &structured {
                Some(structured) => structured.write(&JsonWriter::compact(), &mut json)?,
                None => JsonWriter::compact().write_view(value, &mut json)?,
            }
            let json = utf8(json, "json")?;
            // With JSON text, the text block may already be this JSON.
            if content.first().and_then(block_text) != Some(json.as_str()) {
                content.push(ContentBlock::text(json));
            }
        }
        Ok(self.finish(content, structured, is_error))
    }

    /// `structuredContent` for `value`: itself, or `{"result": value}`
    /// where the version needs an object. With a declared schema the
    /// schema decides, as it does for the advertised schema; without one
    /// the value does.
    fn structured<'v, V: ValueView<'v>>(
        &self,
        value: V,
        schema: Option<&Value>,
    ) -> Result<Structured<V>, EncodeError> {
        if !self.version.requires_object_structured_content() {
            return Ok(Structured::AsIs(value));
        }
        let is_object = value.as_object().is_some();
        let wrap = match schema {
            Some(schema) => needs_wrapping(schema, self.version),
            None => !is_object,
        };
        if wrap {
            return Ok(Structured::Wrapped(value));
        }
        if !is_object {
            return Err(EncodeError::Unrepresentable {
                format: "mcp".to_owned(),
                reason: format!(
                    "protocol {} needs structuredContent to be an object and the tool's output \
                     schema is an object schema, but the value is {}",
                    self.version,
                    summary::kind(value)
                ),
            });
        }
        Ok(Structured::AsIs(value))
    }

    /// Adds what every result of this version carries.
    fn finish<V>(
        &self,
        content: Vec<ContentBlock>,
        structured: Option<Structured<V>>,
        is_error: bool,
    ) -> Draft<V> {
        let latest = self.version.has_result_type();
        let meta = match &self.server_info {
            Some(info) if latest => {
                Some([(SERVER_INFO_KEY, info.to_value())].into_iter().collect())
            }
            _ => None,
        };
        Draft {
            result_type: latest.then_some("complete"),
            content,
            structured,
            is_error,
            meta,
        }
    }

    /// The text codec's rendering of `input`, or `None` when it is empty
    /// (or only whitespace).
    fn render_text<'v>(&self, input: impl Input<'v>) -> Result<Option<String>, EncodeError> {
        let mut bytes = Vec::with_capacity(self.last_text.capacity());
        input.render(&*self.text_codec, &mut bytes)?;
        self.last_text.wrote(bytes.len());
        let text = utf8(bytes, self.text_codec.format())?;
        Ok((!text.trim().is_empty()).then_some(text))
    }

    /// The markdown text of `input`, whose table has `rows` rows, cut to
    /// the limit; and how many rows it kept when it was cut after one of
    /// them (its rows are then the value's: the cut counted as many). The
    /// note's hint then says the structured content holds the same rows.
    fn render_rows<'v>(
        &self,
        input: impl Input<'v>,
        rows: usize,
    ) -> Result<(Option<String>, Option<usize>), EncodeError> {
        let (Some(markdown), Some(limit)) = (&self.markdown, &self.text_limit) else {
            return Ok((self.render_text(input)?, None));
        };
        let same_rows = move |omission: &Omission| {
            omission
                .rows
                .filter(|tally| tally.total == rows && tally.kept < rows)
                .map(|tally| tally.kept)
        };
        let hint = {
            let limit = limit.clone();
            move |omission: &Omission| {
                let hint = limit.hint(omission);
                // The widest note, which sizes the room for the note, is
                // asked with every count at its most (nothing left out, as
                // no cut asks): it includes the sentence.
                let widest = omission.kept == omission.total;
                let kept = same_rows(omission).or(omission.rows.filter(|_| widest).map(|t| t.kept));
                match kept {
                    Some(kept) => {
                        format!("{hint} The structuredContent holds the same {kept} rows.")
                    }
                    None => hint,
                }
            }
        };
        let budget = limit.clone().with_hint_fn(hint);
        let mut bytes = Vec::with_capacity(self.last_text.capacity());
        let omission = markdown.encode_within(input.view(), &budget, &mut bytes)?;
        self.last_text.wrote(bytes.len());
        let text = utf8(bytes, markdown.format())?;
        let kept = omission.as_ref().and_then(same_rows);
        Ok(((!text.trim().is_empty()).then_some(text), kept))
    }

    fn limit(&self, text: String) -> String {
        match &self.text_limit {
            Some(limit) => self.text_codec.truncate(text, limit).text,
            None => text,
        }
    }
}

impl Codec for McpCodec {
    fn format(&self) -> &str {
        "mcp"
    }

    fn media_type(&self) -> &MediaType {
        &self.media_type
    }

    /// Writes the result of [`McpCodec::result`] without copying the
    /// value.
    fn encode_value(&self, value: &Value, out: &mut Vec<u8>) -> Result<(), EncodeError> {
        let draft = self.draft(value, false)?;
        draft.write(&self.json, out)
    }

    /// A tape: typed data becomes a result without a [`Value`]: the text
    /// codec renders the tape (codec-md walks it), and the structured
    /// content is written from it.
    fn fast_path(&self) -> FastPath {
        FastPath::Tape
    }

    /// The result of [`Codec::encode_value`], from a tape.
    fn encode_tape(&self, tape: &Tape, out: &mut Vec<u8>) -> Result<(), EncodeError> {
        let draft = self.draft(tape, false)?;
        draft.write(&self.json, out)
    }
}

/// What a result is made from: a parsed [`Value`], or the [`Tape`] of a
/// handler's typed data, both read as a [`ValueView`].
trait Input<'v>: Copy {
    /// The value, read in place.
    type View: ValueView<'v>;

    fn view(self) -> Self::View;

    /// How deeply the value nests ([`Value::depth`]).
    fn depth(self) -> usize;

    /// Appends the text codec's rendering of the value.
    fn render(self, codec: &dyn Codec, out: &mut Vec<u8>) -> Result<(), EncodeError>;
}

impl<'v> Input<'v> for &'v Value {
    type View = &'v Value;

    fn view(self) -> &'v Value {
        self
    }

    fn depth(self) -> usize {
        Value::depth(self)
    }

    fn render(self, codec: &dyn Codec, out: &mut Vec<u8>) -> Result<(), EncodeError> {
        codec.encode_value(self, out)
    }
}

impl<'v> Input<'v> for &'v Tape {
    type View = TapeNode<'v>;

    fn view(self) -> TapeNode<'v> {
        self.root()
    }

    /// Known from the recording: no walk.
    fn depth(self) -> usize {
        Tape::depth(self)
    }

    fn render(self, codec: &dyn Codec, out: &mut Vec<u8>) -> Result<(), EncodeError> {
        codec.encode_tape(self, out)
    }
}

/// Rejects a value that nests deeper than [`MAX_VALUE_DEPTH`] before any
/// work is done (`Value::depth` is iterative: no stack risk).
fn check_depth(depth: usize) -> Result<(), EncodeError> {
    if depth > MAX_VALUE_DEPTH {
        return Err(EncodeError::DepthLimit {
            limit: MAX_VALUE_DEPTH,
        });
    }
    Ok(())
}

/// A text codec's output as a `String`: MCP text is JSON strings, so other
/// bytes are unrepresentable.
fn utf8(bytes: Vec<u8>, codec: &str) -> Result<String, EncodeError> {
    String::from_utf8(bytes).map_err(|e| EncodeError::Unrepresentable {
        format: "mcp".to_owned(),
        reason: format!(
            "the {codec} text codec wrote bytes that are not UTF-8 (at byte {})",
            e.utf8_error().valid_up_to()
        ),
    })
}

fn block_text(block: &ContentBlock) -> Option<&str> {
    match block {
        ContentBlock::Text(t) => Some(&t.text),
        ContentBlock::Other(_) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small text sizes the next one's buffer; a large one does not.
    #[test]
    fn small_texts_size_the_next_buffer() {
        let last = LastLength::default();
        assert_eq!(last.capacity(), 64);
        last.wrote(8_000);
        assert!(last.capacity() >= 8_000, "{}", last.capacity());
        last.wrote(SIZED_TEXT + 1);
        assert_eq!(last.capacity(), 0);
    }

    /// Results written one after the other, small and large, are the same
    /// bytes whatever buffer each text started in.
    #[test]
    fn a_sized_buffer_changes_no_byte() {
        let small = codec_core::from_str(r#"{"a": [1, 2, 3], "b": "x"}"#).unwrap();
        let rows: Vec<String> = (0..2_000)
            .map(|i| format!(r#"{{"i": {i}, "s": "row {i}"}}"#))
            .collect();
        let large = codec_core::from_str(&format!("[{}]", rows.join(","))).unwrap();
        let fresh = |value: &Value| {
            let mut out = Vec::new();
            McpCodec::new().encode_value(value, &mut out).unwrap();
            out
        };
        let codec = McpCodec::new();
        for value in [&small, &large, &small, &small, &large] {
            let mut out = Vec::new();
            codec.encode_value(value, &mut out).unwrap();
            assert_eq!(out, fresh(value));
        }
    }
}

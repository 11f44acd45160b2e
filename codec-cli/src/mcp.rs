//! `codec mcp`: the documents of DIR to an MCP client over stdio, with
//! tools to list them and to get one, or a slice of its rows, rendered by
//! the mcp codec.
//!
//! Built on rmcp, the official Rust SDK, for the protocol's lifecycle
//! (the `initialize` handshake of the 2025 revisions, the per-request
//! version of 2026-07-28, cancellation, pings); this module gives it the
//! tools ([`tools`]), the documents ([`library`]) and a stdio transport
//! that answers broken lines ([`transport`]). Each result is written for
//! the revision its request negotiated: the same codec options, switched
//! per call with [`McpCodec::with_protocol_version`].

mod library;
mod tools;
mod transport;

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use codec_core::{TextLimit, Value, json::JsonWriter};
use codec_mcp::{ContentBlock, McpCodec, McpCodecBuilder, ProtocolVersion};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ErrorData, Implementation,
    InitializeRequestParams, InitializeResult, ListToolsResult, PaginatedRequestParams,
    ServerCapabilities, ServerConfig,
};
use rmcp::service::{RequestContext, RoleServer, ServerInitializeError};
use rmcp::{ServerHandler, ServiceExt};
use tokio::sync::Semaphore;

use crate::cli::McpArgs;
use crate::error::CliError;
use crate::{directory, input, registry};

use self::library::{Document, Library, Span};
use self::tools::{GET, GetRequest, LIST};
use self::transport::LineTransport;

/// The server's name in `initialize` and on 2026-07-28 results.
const SERVER_NAME: &str = "codec";

/// What the server tells a client about itself in `initialize`.
const INSTRUCTIONS: &str = "JSON documents, as markdown. Call `list` for their names and \
                            row counts, then `get` with a name; for a large table, `get` \
                            with offset and limit returns a slice of its rows.";

pub(crate) fn run(args: &McpArgs) -> Result<(), CliError> {
    if args.codec.pretty {
        return Err(CliError::Usage(
            "--pretty: codec mcp writes one JSON-RPC message per line".into(),
        ));
    }
    let (documents, failed) = match &args.dir {
        Some(dir) => {
            let loaded = directory::load_dir(dir, args.follow_symlinks, None)?;
            for skipped in &loaded.skipped {
                eprintln!("codec: {skipped}");
            }
            for (name, error) in &loaded.failed {
                eprintln!("codec: document {name:?} is listed with its error: {error}");
            }
            (loaded.documents, loaded.failed)
        }
        None => (
            BTreeMap::from([(
                input::SAMPLE_NAME.to_owned(),
                input::parse_json(input::SAMPLE, "sample")?,
            )]),
            BTreeMap::new(),
        ),
    };
    let server = Server::new(args, Library::new(documents, failed))?;
    eprintln!(
        "codec: serving {} document(s) over MCP on stdio (revisions {})",
        server.0.library.names().count(),
        server
            .0
            .versions
            .iter()
            .map(|v| v.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    );
    // The renderings run on the blocking pool, as do the reads of stdin
    // and the writes to stdout: a pool of that many threads reuses them,
    // where a new thread per burst of calls would each keep the
    // allocator's memory of a large rendering.
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .max_blocking_threads(args.max_calls + 2)
        .build()
        .map_err(CliError::Serve)?;
    runtime.block_on(async move {
        let transport = LineTransport::new(tokio::io::stdin(), tokio::io::stdout());
        let running = match server.serve(transport).await {
            Ok(running) => running,
            // A client that left before its first request: nothing failed.
            Err(ServerInitializeError::ConnectionClosed(_)) => return Ok(()),
            Err(e) => return Err(CliError::Mcp(e.to_string())),
        };
        running
            .waiting()
            .await
            .map_err(|e| CliError::Mcp(e.to_string()))?;
        Ok(())
    })
}

/// The server: cheap to clone, as rmcp needs.
#[derive(Debug, Clone)]
pub(crate) struct Server(Arc<State>);

#[derive(Debug)]
struct State {
    library: Library,
    /// The codec of each tool, for the default revision; its output
    /// schema is the tool's.
    list: McpCodec,
    get: McpCodec,
    /// `get`'s options, for the codec of each call: its text limit ends
    /// with a note that names the call that gets the next rows.
    get_builder: McpCodecBuilder,
    /// The text limit (`--mcp-text-limit`, else the codec's default).
    text_limit: Option<TextLimit>,
    /// Whether results carry structured content (not `--mcp-structured
    /// never`).
    structured: bool,
    /// Whether the text is one line about the structured content
    /// (`--mcp-text summary`): the model is shown the structured content,
    /// so the text limit holds there.
    summary: bool,
    /// The revisions answered, oldest first.
    versions: Vec<ProtocolVersion>,
    /// Whether `initialize` was answered: a session is initialized once.
    initialized: AtomicBool,
    /// One permit per `get` rendering at once (`--max-calls`); tokio's
    /// semaphore is fair, so waiting calls run in the order they came.
    calls: Arc<Semaphore>,
}

impl Server {
    fn new(args: &McpArgs, library: Library) -> Result<Server, CliError> {
        let newest = registry::mcp_version(&args.codec)?.unwrap_or(ProtocolVersion::LATEST);
        let versions: Vec<ProtocolVersion> = ProtocolVersion::ALL
            .into_iter()
            .filter(|v| *v <= newest)
            .collect();
        // 2026-07-28 results name their server (SHOULD), as `initialize`
        // does for the older revisions.
        let builder = registry::mcp_builder(&args.codec)?.server_info(Some(
            codec_mcp::Implementation::new(SERVER_NAME, env!("CARGO_PKG_VERSION")),
        ));
        // `never`: no schema (the codec refuses both). `with-schema`:
        // both tools declare one, so it is `always` here.
        let structured = args.codec.mcp_structured != "never";
        let tool = |schema: Value| builder.clone().output_schema(structured.then_some(schema));
        let build = |builder: McpCodecBuilder| {
            builder
                .build()
                .map_err(|e| CliError::Usage(format!("mcp codec: {e}")))
        };
        // `get` holds its structured content to the rows the text kept
        // itself (`Fitting`), with its own note: the builder's codecs cut
        // none.
        let get_builder = tool(tools::get_output_schema(library.all_objects()));
        let text_limit = registry::mcp_text_limit(&args.codec);
        Ok(Server(Arc::new(State {
            list: build(tool(tools::list_output_schema()))?,
            get: build(get_builder.clone())?,
            get_builder,
            text_limit,
            structured,
            summary: args.codec.mcp_text == "summary",
            library,
            versions,
            initialized: AtomicBool::new(false),
            calls: Arc::new(Semaphore::new(args.max_calls)),
        })))
    }

    /// The revision `context`'s request was made under, as the codec
    /// knows it (rmcp only negotiates the revisions this server lists).
    fn version(&self, context: &RequestContext<RoleServer>) -> ProtocolVersion {
        context
            .protocol_version()
            .and_then(|v| v.as_str().parse().ok())
            .unwrap_or_default()
    }

    fn list(&self, version: ProtocolVersion) -> Result<CallToolResult, ErrorData> {
        let codec = self.0.list.with_protocol_version(version);
        let result = codec
            .result(&self.0.library.listing())
            .unwrap_or_else(|e| codec.error_message(&format!("cannot list the documents: {e}")));
        result.try_into()
    }

    /// `get`: the document, or a slice of its rows, or a tool error
    /// saying why not. A text cut to the limit ends with the call that
    /// gets the rows after the ones it kept.
    fn get(
        &self,
        version: ProtocolVersion,
        request: &GetRequest,
    ) -> Result<CallToolResult, ErrorData> {
        let (document, span) = match self.find(request) {
            Ok(found) => found,
            Err(refusal) => {
                return self
                    .0
                    .get
                    .with_protocol_version(version)
                    .error_message(&refusal)
                    .try_into();
            }
        };
        let codec = |limit: Option<TextLimit>| {
            self.0
                .get_builder
                .clone()
                .protocol_version(version)
                .text_limit(limit)
                .build()
                .map_err(|e| ErrorData::internal_error(format!("mcp codec: {e}"), None))
        };
        let fitting = match (&self.0.text_limit, span) {
            (Some(limit), Some(span)) => Some(Fitting {
                request,
                document,
                span,
                limit,
            }),
            _ => None,
        };
        // Rows are held to the limit by whole rows, rendering only about
        // the rows that fit: the structured content holds the rows the
        // text kept, so a client that shows the model the structured
        // content rather than the text stays within the same budget.
        if let Some(fitting) = fitting.as_ref().filter(|_| !self.0.summary)
            && let Some(result) = fitting.text(&codec(None)?)
        {
            return result.try_into();
        }
        // Otherwise (no rows or no limit, a one-line text, or a row alone
        // over the limit) the page whole, its text cut by the codec, with
        // a note that says where the rest is.
        let page = match span.filter(|_| request.is_slice()) {
            Some(span) => document.page(span),
            None => document.whole(),
        };
        let hint = tools::next_page_hint(&request.name, page.start, page.rows, self.0.structured);
        let limited = codec(self.0.text_limit.clone().map(|l| l.with_hint_fn(hint)))?;
        let mut result = limited.result(&page.value).unwrap_or_else(|e| {
            limited.error_message(&format!("cannot encode document {:?}: {e}", request.name))
        });
        if let Some(fitting) = fitting.filter(|_| self.0.summary) {
            fitting.structured(&limited, &mut result);
        }
        result.try_into()
    }

    /// The document `request` names, and the rows it asks for when the
    /// document has rows (all of them unless it asks for a slice).
    fn find(&self, request: &GetRequest) -> Result<(&Document, Option<Span>), String> {
        let document = self.0.library.document(&request.name)?;
        let span = if request.is_slice() {
            let offset = request.offset.unwrap_or(0);
            Some(document.span(&request.name, offset, request.limit)?)
        } else {
            document.rows().map(|rows| Span {
                start: 0,
                len: rows.len(),
            })
        };
        Ok((document, span))
    }

    fn names(&self) -> Vec<&str> {
        self.0.library.names().collect()
    }
}

/// A page of rows held to the text limit by whole rows.
struct Fitting<'a> {
    request: &'a GetRequest,
    document: &'a Document,
    /// The page's rows.
    span: Span,
    limit: &'a TextLimit,
}

impl Fitting<'_> {
    /// The result `codec` writes of the page's first `kept` rows.
    fn first(&self, codec: &McpCodec, kept: usize) -> Option<codec_mcp::CallToolResult> {
        let rows = self.document.page(Span {
            start: self.span.start,
            len: kept,
        });
        codec.result(&rows.value).ok()
    }

    /// The note ending a page cut to its first `kept` rows.
    fn note(&self, kept: usize) -> String {
        tools::rows_note(&self.request.name, self.span.start, kept, self.span.len)
    }

    /// The page, written by `whole` (the codec without a limit), when its
    /// text fits the limit; else its most rows whose text, with the note
    /// naming the call that gets the next ones, fits; `None` when not
    /// even one row does. Found from pages of 1, 2, 4, ... rows
    /// ([`most_rows`]), so a call writes a few times the rows it sends,
    /// whatever the page's size: a 20 MB document is neither copied nor
    /// written whole for a text of 25,000 chars.
    fn text(&self, whole: &McpCodec) -> Option<codec_mcp::CallToolResult> {
        let (_, best) = most_rows(self.span.len, |kept| {
            let mut candidate = self.first(whole, kept)?;
            let Some(ContentBlock::Text(block)) = candidate.content.first_mut() else {
                return None;
            };
            if kept < self.span.len {
                if !block.text.ends_with('\n') {
                    block.text.push('\n');
                }
                block.text.push('\n');
                block.text.push_str(&self.note(kept));
            }
            self.limit.fits(&block.text).then_some(candidate)
        });
        best
    }

    /// With a one-line text (`--mcp-text summary`), a client shows the
    /// model the structured content, so the text limit holds there: a
    /// page whose structured content is over the limit (as compact JSON)
    /// keeps the most rows that fit, and its line ends with the note.
    fn structured(&self, codec: &McpCodec, result: &mut codec_mcp::CallToolResult) {
        let json = |result: &codec_mcp::CallToolResult| {
            let mut json = Vec::new();
            let value = result.structured_content.as_ref()?;
            JsonWriter::compact().write_value(value, &mut json).ok()?;
            String::from_utf8(json).ok()
        };
        // No more bytes than the limit's units: it fits, uncounted.
        match json(result) {
            Some(whole) if whole.len() > self.limit.max() => {}
            _ => return,
        }
        let (fit, best) = most_rows(self.span.len, |kept| {
            let candidate = self.first(codec, kept)?;
            json(&candidate)
                .is_some_and(|j| self.limit.fits(&j))
                .then_some(candidate)
        });
        if fit == self.span.len {
            return;
        }
        let note = match best {
            Some(_) => self.note(fit),
            None => format!(
                "[Truncated to the text limit: the row at offset {} alone is over it; raise \
                 --mcp-text-limit to read it.]",
                self.span.start
            ),
        };
        let Some(mut kept) = best.or_else(|| self.first(codec, 0)) else {
            return;
        };
        if let Some(ContentBlock::Text(block)) = kept.content.first_mut() {
            block.text.push(' ');
            block.text.push_str(&note);
        }
        *result = kept;
    }
}

/// The most rows, of at most `rows`, for which `probe` gives a page (it
/// gives one when that many rows fit, and fewer rows fit whenever more
/// do), with that page. Probes pages of 1, 2, 4, ... rows until one is
/// over, then halves the gap, so the work is a few times the page that
/// fits however many rows there are, and all `rows` are probed only when
/// half of them fit (counting the tokens of a large table is slow).
fn most_rows<P>(rows: usize, mut probe: impl FnMut(usize) -> Option<P>) -> (usize, Option<P>) {
    let (mut fit, mut over, mut best) = (0, None, None);
    while fit < rows && over.is_none() {
        let size = (fit * 2).clamp(1, rows);
        match probe(size) {
            Some(page) => (fit, best) = (size, Some(page)),
            None => over = Some(size),
        }
    }
    if let Some(mut over) = over {
        while over - fit > 1 {
            let middle = fit + (over - fit) / 2;
            match probe(middle) {
                Some(page) => (fit, best) = (middle, Some(page)),
                None => over = middle,
            }
        }
    }
    (fit, best)
}

impl ServerHandler for Server {
    fn get_info(&self) -> ServerConfig {
        let mut config = ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_instructions(INSTRUCTIONS);
        config.server_info = Implementation::new(SERVER_NAME, env!("CARGO_PKG_VERSION"));
        config
    }

    fn supported_protocol_versions(&self) -> Cow<'static, [rmcp::model::ProtocolVersion]> {
        Cow::Owned(
            self.0
                .versions
                .iter()
                .filter_map(|v| serde_json::from_value(v.as_str().into()).ok())
                .collect(),
        )
    }

    /// The handshake, once: a second `initialize` is an invalid request
    /// (the lifecycle has one initialization phase). The stdio transport
    /// refuses it first, before it checks the parameters; this holds the
    /// rule for any transport.
    async fn initialize(
        &self,
        request: InitializeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<InitializeResult, ErrorData> {
        if self.0.initialized.swap(true, Ordering::Relaxed) {
            return Err(transport::already_initialized());
        }
        context.peer.set_peer_info(request.clone());
        self.negotiate_initialize(&request)
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let version = self.version(&context);
        let schema = |codec: &McpCodec| codec.with_protocol_version(version).rmcp_output_schema();
        Ok(ListToolsResult::with_all_items(vec![
            tools::list_tool(schema(&self.0.list)),
            tools::get_tool(&self.names(), schema(&self.0.get)),
        ]))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let version = self.version(&context);
        let result = match request.name.as_ref() {
            LIST => self.list(version)?,
            GET => match tools::read_get(request.arguments.as_ref(), &self.names()) {
                Ok(get) => {
                    // At most `--max-calls` at once; the permit goes with
                    // the work, so a call cancelled while it renders still
                    // holds it until the rendering ends.
                    let permit = Arc::clone(&self.0.calls)
                        .acquire_owned()
                        .await
                        .map_err(|e| ErrorData::internal_error(format!("get failed: {e}"), None))?;
                    // A large document takes a while: off the runtime's
                    // thread, which also reads the client's next lines.
                    let server = self.clone();
                    tokio::task::spawn_blocking(move || {
                        let result = server.get(version, &get);
                        drop(permit);
                        result
                    })
                    .await
                    .map_err(|e| ErrorData::internal_error(format!("get failed: {e}"), None))??
                }
                Err(refusal) => self
                    .0
                    .get
                    .with_protocol_version(version)
                    .error_message(&refusal)
                    .try_into()?,
            },
            other => {
                return Err(ErrorData::invalid_params(
                    format!("Unknown tool: {other} (the tools are {LIST} and {GET})"),
                    None,
                ));
            }
        };
        Ok(result.into())
    }
}

#[cfg(test)]
mod tests {
    use clap::Parser;
    use codec_core::Map;

    use super::*;
    use crate::cli::{Cli, Command};

    /// A server with the default flags of one document, `big`: a table of
    /// 30,000 rows, row `i` holding `row(i)`'s members.
    fn big_table(row: impl Fn(usize) -> Vec<(&'static str, Value)>) -> Server {
        let rows = (0..30_000)
            .map(|i| Value::Object(row(i).into_iter().collect::<Map>()))
            .collect();
        let documents = BTreeMap::from([("big".to_owned(), Value::Array(rows))]);
        let Command::Mcp(args) = Cli::try_parse_from(["codec", "mcp"]).unwrap().command else {
            panic!("mcp parses as mcp")
        };
        Server::new(&args, Library::new(documents, BTreeMap::new())).unwrap()
    }

    /// A `get` of the whole document `name`.
    fn whole(name: &str) -> GetRequest {
        GetRequest {
            name: name.to_owned(),
            offset: None,
            limit: None,
        }
    }

    /// A whole-document `get` cut to the default text limit holds about
    /// the text it sends: not the document's rendering (4 MB here), nor a
    /// copy of the document as structured content (more than 10 MB, which
    /// the cut then replaced by the rows the text kept): under 1 MB
    /// allocated at its peak.
    #[test]
    fn a_cut_get_holds_about_what_it_sends() {
        let server = big_table(|i| {
            vec![
                ("id", Value::from(i)),
                ("name", Value::from(format!("user {i}"))),
                ("mail", Value::from(format!("user{i}@example.com"))),
                (
                    "note",
                    Value::from("lorem ipsum dolor sit amet, consectetur"),
                ),
            ]
        });
        let mut result = None;
        let info = allocation_counter::measure(|| {
            result = Some(server.get(ProtocolVersion::default(), &whole("big")));
        });
        let result = result.unwrap().unwrap();
        let text = result.content[0].as_text().unwrap().text.as_str();
        assert!(text.chars().count() <= 25_000, "{}", text.len());
        let (_, next) = text
            .rsplit_once(r#"Call get with {"name": "big", "offset": "#)
            .unwrap();
        let kept: usize = next.split('}').next().unwrap().parse().unwrap();
        // Under a 2025 revision an array is wrapped as `{"result": [...]}`.
        let structured = result.structured_content.unwrap();
        assert_eq!(structured["result"].as_array().unwrap().len(), kept);
        assert!(
            info.bytes_max < 1 << 20,
            "{} bytes allocated at the peak",
            info.bytes_max
        );
    }

    /// A whole-document `get` cut to a limit writes and measures about
    /// the text it sends, not the document: with a limit of 2,000 tokens
    /// on a 30,000-row table (a rendering of about 4 MB), the texts it
    /// counts the tokens of add up to a few times what it sends.
    #[test]
    fn a_cut_get_writes_about_what_it_sends() {
        /// Words as tokens, adding up the chars it was given to count.
        #[derive(Default)]
        struct Words(std::sync::atomic::AtomicUsize);
        impl codec_core::TokenCounter for Words {
            fn name(&self) -> &str {
                "word"
            }
            fn count(&self, text: &str) -> usize {
                self.0.fetch_add(text.len(), Ordering::Relaxed);
                text.split_whitespace().count()
            }
        }
        let mut server = big_table(|i| {
            vec![
                ("id", Value::from(i)),
                ("name", Value::from(format!("user {i}"))),
                ("note", Value::from("lorem ipsum dolor sit amet")),
            ]
        });
        let words = Arc::new(Words::default());
        Arc::get_mut(&mut server.0).unwrap().text_limit =
            Some(TextLimit::tokens(2_000, words.clone()));
        let result = server
            .get(ProtocolVersion::default(), &whole("big"))
            .unwrap();
        let text = result.content[0].as_text().unwrap().text.as_str();
        assert!(text.split_whitespace().count() <= 2_000, "{text}");
        assert!(text.contains("|user 0|"), "{text}");
        assert!(
            text.ends_with(
                "[Truncated to the text limit: 329 of these 30000 rows. Call get with \
                 {\"name\": \"big\", \"offset\": 329} for the next rows.]"
            ),
            "{text}"
        );
        assert!(text.contains("|user 328|") && !text.contains("|user 329|"));
        let counted = words.0.load(Ordering::Relaxed);
        assert!(counted < 20 * text.len(), "{counted} bytes counted");
    }

    /// Every count of rows that fit, of every page size up to 40: the
    /// most that fit, found in a few probes, and all of them probed only
    /// when half fit.
    #[test]
    fn most_rows_finds_the_most_that_fit() {
        for rows in 0..=40 {
            for fitting in 0..=rows {
                let mut probed = Vec::new();
                let (fit, page) = most_rows(rows, |k| {
                    probed.push(k);
                    (k <= fitting).then_some(k)
                });
                assert_eq!((fit, page), (fitting, (fitting > 0).then_some(fitting)));
                assert!(
                    probed.iter().all(|&k| (1..=rows).contains(&k)),
                    "{probed:?}"
                );
                assert!(probed.len() <= 2 * 6 + 1, "{rows} {fitting}: {probed:?}");
                if probed.contains(&rows) && rows > 1 {
                    assert!(2 * fitting >= rows, "{rows} {fitting}: {probed:?}");
                }
            }
        }
    }
}

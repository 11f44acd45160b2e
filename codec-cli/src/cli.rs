//! The command line: every command, flag and help text.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use clap::{Args, Parser, Subcommand};

/// Render structured data for agents: markdown, JSON or an MCP tool result,
/// chosen by name or negotiated like a server.
#[derive(Debug, Parser)]
#[command(name = "codec", version, about, long_about = None)]
pub(crate) struct Cli {
    #[command(subcommand)]
    pub(crate) command: Command,
}

#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// Encode JSON input with a codec (markdown by default).
    #[command(
        after_help = "Examples:\n  codec render --sample\n  codec render data.json --profile dense\n  codec render data.json --to json --pretty\n  codec render --sample --budget 500 --budget-hint 'Ask for fewer repositories.'\n  codec render data.json --stream always --to json\n  codec render - --accept 'text/markdown, */*;q=0.1' < data.json"
    )]
    Render(RenderArgs),
    /// Read markdown (codec-md's, or GFM tables and key lists) back into JSON.
    #[command(
        after_help = "Examples:\n  codec render --sample | codec parse\n  codec parse notes.md --lossless\n  codec render data.json | codec parse --table\n  codec render --sample | codec parse --table 1"
    )]
    Parse(ParseArgs),
    /// Negotiate an Accept header as a server would and print the chosen type.
    #[command(
        after_help = "Examples:\n  codec negotiate --accept 'text/markdown, */*;q=0.1'\n  codec negotiate --accept 'text/*;q=0.5, application/json' --offer 'text/plain,application/json' --all"
    )]
    Negotiate(NegotiateArgs),
    /// Bytes and o200k tokens of JSON and every codec, as a markdown table.
    #[command(after_help = "Example:\n  codec stats data/*.json")]
    Stats(StatsArgs),
    /// Serve DIR/NAME.json at /NAME, negotiated by Accept, ?format= and
    /// known agents' User-Agent, with ETag, Link and x-markdown-tokens.
    #[command(
        after_help = "Examples:\n  codec serve --addr 127.0.0.1:8080 --profile dense --budget 2000 &\n  curl --retry 5 --retry-connrefused -i -H 'Accept: text/markdown' http://127.0.0.1:8080/github"
    )]
    Serve(ServeArgs),
    /// Serve DIR/NAME.json to an MCP client over stdio: tools `list` and
    /// `get`, results rendered by the mcp codec.
    #[command(after_help = MCP_HELP)]
    Mcp(McpArgs),
}

/// `codec mcp --help`'s closing text: what it answers, and how a client
/// starts it.
const MCP_HELP: &str = "\
Protocol: answers MCP revisions 2025-06-18, 2025-11-25 and 2026-07-28 (the
ones the mcp codec writes; --mcp-version names the newest to answer), and
writes each result for the revision its client negotiated. One JSON-RPC
message per line on stdin and stdout; a line that is not JSON-RPC gets a
JSON-RPC error and the server goes on. Log lines go to stderr.

Tools:
  list                          the documents, with their rows
  get {name, offset?, limit?}   a document as markdown (the text block) and
                                as structuredContent; offset and limit page
                                through its rows

Example:
  printf '%s\\n' '{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"sh\",\"version\":\"1\"}}}' '{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"list\"}}' | codec mcp data

In an MCP client's configuration (Claude Code's .mcp.json, Claude Desktop's
claude_desktop_config.json, Cursor's .cursor/mcp.json):
  {\"mcpServers\": {\"docs\": {\"command\": \"codec\", \"args\": [\"mcp\", \"/path/to/dir\"]}}}";

/// `--profile`'s default.
const DEFAULT_PROFILE: &str = "default";
/// `--mcp-structured`'s default: the mcp codec's own default policy.
const DEFAULT_MCP_STRUCTURED: &str = "always";
/// `--mcp-text`'s default: the mcp codec's own default text.
const DEFAULT_MCP_TEXT: &str = "markdown";

/// Options of the codecs, shared by the commands that build them.
#[derive(Debug, Args, Clone)]
pub(crate) struct CodecOptions {
    /// Pretty-print JSON output (the json codec, and the mcp envelope; not
    /// `codec mcp`, whose messages are one per line).
    #[arg(long)]
    pub(crate) pretty: bool,
    /// The markdown profile: default (the schema of codec-md's SPEC.md),
    /// lossless (the default plus the fewest markers that make `codec parse
    /// --lossless` give back the exact value) or dense (fewer tokens:
    /// dotted columns, keyed tables, JSON where markdown would cost more).
    /// Same media type. The mcp codec's text follows it.
    #[arg(long, value_name = "PROFILE", default_value = DEFAULT_PROFILE)]
    pub(crate) profile: String,
    /// Shorthand for `--profile lossless`: markdown with the lossless
    /// markers (quotes on strings that read as other types, `-` for a
    /// missing cell, ...), which `codec parse --lossless` reads back
    /// exactly. Not with `--profile`.
    #[arg(long, conflicts_with = "profile")]
    pub(crate) lossless: bool,
    /// MCP protocol version of the mcp codec (default 2025-11-25). With
    /// `codec mcp`, the newest revision the server answers (default
    /// 2026-07-28, all of them).
    #[arg(long, value_name = "VERSION")]
    pub(crate) mcp_version: Option<String>,
    /// When the mcp codec sends structuredContent: always, with-schema (only
    /// for tools that declare an output schema) or never.
    #[arg(long, value_name = "POLICY", default_value = DEFAULT_MCP_STRUCTURED)]
    pub(crate) mcp_structured: String,
    /// What the mcp codec's text block holds: markdown (of --profile), json
    /// (the serialized structuredContent) or summary (one line saying what
    /// structuredContent holds, for clients that show the model the
    /// structured content: the data is not billed twice).
    #[arg(long, value_name = "FORMAT", default_value = DEFAULT_MCP_TEXT)]
    pub(crate) mcp_text: String,
    /// The mcp codec's limit on its text block, written like `--budget`
    /// (`20000` or `20000tokens`: exact o200k tokens; `25000chars`,
    /// `Nbytes`), or `none`. Default: the budget when there is one, else
    /// 25000 chars. Markdown is cut only where a row or an item ends, and
    /// a note says how to get the rest. `codec mcp` cuts a page of rows
    /// between rows (also where they are written as sections), holds its
    /// structured content to the same rows, and with
    /// `--mcp-text summary` to the limit itself (paged by rows). Claude
    /// Code fails a tool result above 25,000 tokens of its own tokenizer:
    /// leave a margin.
    #[arg(long, value_name = "LIMIT", value_parser = text_limit)]
    pub(crate) mcp_text_limit: Option<TextLimitArg>,
    /// Keep markdown (and the mcp codec's text) within this budget, cut
    /// only between table rows and items, with a note saying how many
    /// were left out: `2000` or `2000tokens` (exact o200k tokens),
    /// `8000chars`, `16000bytes`. No budget by default (the mcp text
    /// keeps its own 25000 chars).
    #[arg(long, value_name = "N[UNIT]", value_parser = budget)]
    pub(crate) budget: Option<Budget>,
    /// The last sentence of the budget's note: how to get the rest.
    /// `{rows}` and `{items}` become the numbers kept.
    #[arg(long, value_name = "TEXT", requires = "budget")]
    pub(crate) budget_hint: Option<String>,
}

/// `--mcp-text-limit`: a size in a unit, or no limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TextLimitArg {
    None,
    Limit(Budget),
}

/// A `--budget`: a size and its unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Budget {
    pub(crate) max: usize,
    pub(crate) unit: BudgetUnit,
}

/// What a `--budget` counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum BudgetUnit {
    /// Exact o200k_base tokens.
    Tokens,
    Chars,
    Bytes,
}

impl Default for CodecOptions {
    /// The options with every flag absent, as the commands without codec
    /// flags (`negotiate`, `stats`) use them.
    fn default() -> CodecOptions {
        CodecOptions {
            pretty: false,
            profile: DEFAULT_PROFILE.to_owned(),
            lossless: false,
            mcp_version: None,
            mcp_structured: DEFAULT_MCP_STRUCTURED.to_owned(),
            mcp_text: DEFAULT_MCP_TEXT.to_owned(),
            mcp_text_limit: None,
            budget: None,
            budget_hint: None,
        }
    }
}

#[derive(Debug, Args)]
pub(crate) struct RenderArgs {
    /// JSON input file; `-` or nothing reads standard input.
    pub(crate) file: Option<PathBuf>,
    /// Render the bundled sample (the 100 most-starred GitHub repositories)
    /// and print a bytes/tokens comparison with JSON on stderr.
    #[arg(long, conflicts_with = "file")]
    pub(crate) sample: bool,
    /// Codec by format name: json, md, mcp. Default: md.
    #[arg(long, value_name = "FORMAT", conflicts_with = "accept")]
    pub(crate) to: Option<String>,
    /// Negotiate the codec from this Accept header, exactly as `serve` does;
    /// prints `Content-Type: ...` on stderr.
    #[arg(long, value_name = "HEADER")]
    pub(crate) accept: Option<String>,
    /// Render rows as they are read, in memory bounded by the largest row:
    /// for a document that is an array of rows, or an object whose one
    /// member is (`{"rows": [...]}`). auto: inputs over 4 MiB, with a
    /// codec that writes rows as they come (json; md without --budget);
    /// always: any rows input, any codec (the others collect the rows, up
    /// to 64 MiB); never: read the whole input first. Markdown of rows
    /// that are not uniform follows the streaming rule of codec-md's
    /// SPEC.md (*Streaming*).
    #[arg(long, value_name = "WHEN", default_value = "auto")]
    pub(crate) stream: StreamWhen,
    #[command(flatten)]
    pub(crate) codec: CodecOptions,
}

/// `--stream`: when `render` writes rows as it reads them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum StreamWhen {
    Auto,
    Always,
    Never,
}

#[derive(Debug, Args)]
pub(crate) struct ParseArgs {
    /// Markdown input file; `-` or nothing reads standard input.
    pub(crate) file: Option<PathBuf>,
    /// Read one table, the first (or the Nth, from 1) of the document
    /// whatever comes before it (headings, key lists, other tables): prints
    /// {"columns": [...], "rows": [[...], ...]} with the exact cell
    /// strings.
    #[arg(long, value_name = "N", num_args = 0..=1, default_missing_value = "1",
          value_parser = at_least_one)]
    pub(crate) table: Option<usize>,
    /// Read the lossless markers (quoted strings, `\[x]`, `-` cells, ...)
    /// of codec-md's lossless rendering, giving back the exact value.
    #[arg(long, conflicts_with_all = ["table", "dense"])]
    pub(crate) lossless: bool,
    /// Read the dense profile (`codec render --profile dense`): dotted
    /// columns, keyed tables, lists and JSON in cells, fenced json.
    #[arg(long, conflicts_with = "table")]
    pub(crate) dense: bool,
    /// The most bytes a table's rows may build per byte of its text (at
    /// least 1 MiB): a table over it is refused before it is read
    /// (`codec_md::ParseOptions::max_size_factor`).
    #[arg(long, value_name = "N", default_value_t = codec_md::DEFAULT_MAX_SIZE_FACTOR, conflicts_with = "table")]
    pub(crate) max_size_factor: usize,
}

#[derive(Debug, Args)]
pub(crate) struct NegotiateArgs {
    /// The Accept header. Absent: no Accept header at all; `''`: an empty one.
    #[arg(long, value_name = "HEADER")]
    pub(crate) accept: Option<String>,
    /// A ?format= override, as a query parameter would give it.
    #[arg(long, value_name = "NAME")]
    pub(crate) format: Option<String>,
    /// Negotiate among exactly these media types, in this order of server
    /// preference (comma-separated), instead of the built-in codecs.
    #[arg(long, value_name = "TYPE,TYPE,...", conflicts_with = "format")]
    pub(crate) offer: Option<String>,
    /// Print every acceptable offer, best first, one per line.
    #[arg(long)]
    pub(crate) all: bool,
}

#[derive(Debug, Args)]
pub(crate) struct StatsArgs {
    /// JSON files; none means the bundled sample.
    pub(crate) files: Vec<PathBuf>,
}

#[derive(Debug, Args)]
pub(crate) struct ServeArgs {
    /// Address to listen on (port 0 picks a free port; the address is
    /// printed on stderr).
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub(crate) addr: SocketAddr,
    /// Directory of NAME.json files to serve at /NAME (percent-encoded:
    /// `My File.json` at /My%20File); none serves the bundled sample at
    /// /github.
    pub(crate) dir: Option<PathBuf>,
    /// Responses rendering a document, or streaming one from its file, at
    /// once; beyond it, `503 Service Unavailable` with `Retry-After: 1`.
    /// Sending what is already rendered holds no slot; a streamed response
    /// holds its slot until the client has (nearly) all of it.
    #[arg(long, value_name = "N", default_value_t = 256, value_parser = at_least_one)]
    pub(crate) max_concurrent: usize,
    /// Time a client has to send a request's headers, from connecting or
    /// from the end of the previous response (so also how long a
    /// kept-alive connection waits for its next request). `10s`, `500ms`,
    /// `2m`; a bare number is seconds.
    #[arg(long, value_name = "DURATION", default_value = "10s", value_parser = duration)]
    pub(crate) header_timeout: Duration,
    /// A connection on which no byte moves either way for this long, while
    /// no request of it is being worked on, is closed (a client that stops
    /// reading a response).
    #[arg(long, value_name = "DURATION", default_value = "60s", value_parser = duration)]
    pub(crate) idle_timeout: Duration,
    /// A connection whose response has bytes waiting that the client has
    /// not taken for this long is closed: a client that stops reading, or
    /// reads so slowly that the socket's buffer never drains, does not
    /// keep its connection (and what it holds) until the idle timeout.
    #[arg(long, value_name = "DURATION", default_value = "10s", value_parser = duration)]
    pub(crate) send_timeout: Duration,
    /// Connections open at once from one IP address; a connection beyond
    /// it is answered `503 Service Unavailable` and closed, so that one
    /// client cannot take the server's connections from the others.
    #[arg(long, value_name = "N", default_value_t = 64, value_parser = at_least_one)]
    pub(crate) max_per_client: usize,
    /// Also serve symbolic links that lead outside DIR (by default they are
    /// skipped with a warning; links that stay inside DIR are served).
    #[arg(long)]
    pub(crate) follow_symlinks: bool,
    /// Stream documents whose file is larger than this and whose rows
    /// are an array (or an object's one member): never loaded, they are
    /// read and encoded as each response is sent, in memory bounded by
    /// their largest row, as JSON or markdown (the other formats need the
    /// whole document), without an ETag or a token count. Checked whole at
    /// start. `64MiB` (the default), `100MB`, `1GiB`, `0` (every rows
    /// document), `none`.
    #[arg(long, value_name = "SIZE", default_value = "64MiB", value_parser = stream_above)]
    pub(crate) stream_above: StreamAbove,
    /// Refuse to start when a file of DIR is not valid JSON (by default
    /// it is skipped with a warning naming it, and the rest is served).
    #[arg(long)]
    pub(crate) strict: bool,
    #[command(flatten)]
    pub(crate) codec: CodecOptions,
}

#[derive(Debug, Args)]
pub(crate) struct McpArgs {
    /// Directory of NAME.json files, each served as document NAME; none
    /// serves the bundled sample as `github`. A file that does not parse is
    /// listed with its error, which `get` answers.
    pub(crate) dir: Option<PathBuf>,
    /// Also serve symbolic links that lead outside DIR (by default they are
    /// skipped with a warning).
    #[arg(long)]
    pub(crate) follow_symlinks: bool,
    /// `get` calls rendering at once; the calls beyond it wait their turn
    /// in the order they came (each is answered), holding no more than
    /// their arguments. Rendering is what takes memory: a whole-document
    /// `get` holds about the text it sends (with the default profile and
    /// a limit in chars or bytes) or its whole rendering until the cut.
    #[arg(long, value_name = "N", default_value_t = 2, value_parser = at_least_one)]
    pub(crate) max_calls: usize,
    #[command(flatten)]
    pub(crate) codec: CodecOptions,
}

/// `--budget`: a positive number, then `tokens` (also without a unit),
/// `chars` or `bytes`.
fn budget(text: &str) -> Result<Budget, String> {
    let digits = text.trim_end_matches(|c: char| c.is_ascii_alphabetic());
    let unit = match &text[digits.len()..] {
        "" | "tokens" => BudgetUnit::Tokens,
        "chars" => BudgetUnit::Chars,
        "bytes" => BudgetUnit::Bytes,
        other => {
            return Err(format!(
                "unknown unit {other:?}: use tokens (the default), chars or bytes"
            ));
        }
    };
    match digits.parse::<usize>() {
        Ok(0) => Err("must be more than zero".into()),
        Ok(max) => Ok(Budget { max, unit }),
        Err(_) => Err(format!(
            "expected a number, then tokens, chars or bytes (`2000`, `8000chars`), found {text:?}"
        )),
    }
}

/// `--max-concurrent`, `--max-calls`, `--table N`: a positive count.
fn at_least_one(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(0) => Err("must be at least 1".into()),
        Ok(n) => Ok(n),
        Err(e) => Err(e.to_string()),
    }
}

/// `--mcp-text-limit`: a `--budget`, or `none`.
fn text_limit(text: &str) -> Result<TextLimitArg, String> {
    match text {
        "none" => Ok(TextLimitArg::None),
        _ => budget(text).map(TextLimitArg::Limit),
    }
}

/// `--stream-above`: a size in bytes, or `None` for no streaming.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct StreamAbove(pub(crate) Option<u64>);

fn stream_above(text: &str) -> Result<StreamAbove, String> {
    size(text).map(StreamAbove)
}

/// A size flag: a number of bytes with an optional unit (`KB`, `MB`,
/// `GB`, decimal; `KiB`, `MiB`, `GiB`, binary; `B`), or `none`.
fn size(text: &str) -> Result<Option<u64>, String> {
    if text == "none" {
        return Ok(None);
    }
    let digits = text.trim_end_matches(|c: char| c.is_ascii_alphabetic());
    let unit: u64 = match &text[digits.len()..] {
        "" | "B" => 1,
        "KB" => 1_000,
        "MB" => 1_000_000,
        "GB" => 1_000_000_000,
        "KiB" => 1 << 10,
        "MiB" => 1 << 20,
        "GiB" => 1 << 30,
        other => {
            return Err(format!(
                "unknown unit {other:?}: use B, KB, MB, GB, KiB, MiB or GiB"
            ));
        }
    };
    digits
        .parse::<u64>()
        .ok()
        .and_then(|n| n.checked_mul(unit))
        .map(Some)
        .ok_or_else(|| format!("expected a size (`16MiB`, `100MB`, `0`) or `none`, found {text:?}"))
}

/// A duration flag: `10s`, `500ms`, `2m`, or a bare number of seconds;
/// more than zero.
fn duration(text: &str) -> Result<Duration, String> {
    let (digits, unit): (&str, fn(u64) -> Duration) = if let Some(n) = text.strip_suffix("ms") {
        (n, Duration::from_millis)
    } else if let Some(n) = text.strip_suffix('s') {
        (n, Duration::from_secs)
    } else if let Some(n) = text.strip_suffix('m') {
        (n, |m| Duration::from_secs(m.saturating_mul(60)))
    } else {
        (text, Duration::from_secs)
    };
    match digits.parse::<u64>() {
        Ok(0) => Err("must be more than zero".into()),
        Ok(n) => Ok(unit(n)),
        Err(_) => Err(format!(
            "expected a number with ms, s or m (`10s`, `500ms`), found {text:?}"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn durations() {
        let cases: &[(&str, Result<Duration, &str>)] = &[
            ("10s", Ok(Duration::from_secs(10))),
            ("10", Ok(Duration::from_secs(10))),
            ("500ms", Ok(Duration::from_millis(500))),
            ("2m", Ok(Duration::from_secs(120))),
            ("0s", Err("must be more than zero")),
            ("0", Err("must be more than zero")),
            (
                "",
                Err("expected a number with ms, s or m (`10s`, `500ms`), found \"\""),
            ),
            (
                "1.5s",
                Err("expected a number with ms, s or m (`10s`, `500ms`), found \"1.5s\""),
            ),
            (
                "-1s",
                Err("expected a number with ms, s or m (`10s`, `500ms`), found \"-1s\""),
            ),
            (
                "10h",
                Err("expected a number with ms, s or m (`10s`, `500ms`), found \"10h\""),
            ),
        ];
        for (text, expected) in cases {
            assert_eq!(duration(text), expected.map_err(str::to_owned), "{text:?}");
        }
        assert_eq!(at_least_one("3"), Ok(3));
        let tokens = |max| Budget {
            max,
            unit: BudgetUnit::Tokens,
        };
        let budgets: &[(&str, Result<Budget, &str>)] = &[
            ("2000", Ok(tokens(2000))),
            ("2000tokens", Ok(tokens(2000))),
            (
                "8000chars",
                Ok(Budget {
                    max: 8000,
                    unit: BudgetUnit::Chars,
                }),
            ),
            (
                "1bytes",
                Ok(Budget {
                    max: 1,
                    unit: BudgetUnit::Bytes,
                }),
            ),
            ("0", Err("must be more than zero")),
            (
                "20kb",
                Err("unknown unit \"kb\": use tokens (the default), chars or bytes"),
            ),
            (
                "tokens",
                Err(
                    "expected a number, then tokens, chars or bytes (`2000`, `8000chars`), found \"tokens\"",
                ),
            ),
        ];
        for (text, expected) in budgets {
            assert_eq!(budget(text), expected.map_err(str::to_owned), "{text:?}");
        }
        assert!(at_least_one("0").is_err());
        assert!(at_least_one("x").is_err());
    }

    #[test]
    fn sizes() {
        let cases: &[(&str, Result<Option<u64>, &str>)] = &[
            ("16MiB", Ok(Some(16 << 20))),
            ("100MB", Ok(Some(100_000_000))),
            ("1GiB", Ok(Some(1 << 30))),
            ("0", Ok(Some(0))),
            ("512B", Ok(Some(512))),
            ("none", Ok(None)),
            (
                "16mb",
                Err("unknown unit \"mb\": use B, KB, MB, GB, KiB, MiB or GiB"),
            ),
            (
                "MiB",
                Err("expected a size (`16MiB`, `100MB`, `0`) or `none`, found \"MiB\""),
            ),
            (
                "99999999999GiB",
                Err("expected a size (`16MiB`, `100MB`, `0`) or `none`, found \"99999999999GiB\""),
            ),
        ];
        for (text, expected) in cases {
            assert_eq!(size(text), expected.map_err(str::to_owned), "{text:?}");
        }
    }

    #[test]
    fn text_limits() {
        let limit = |max, unit| Some(TextLimitArg::Limit(Budget { max, unit }));
        let cases: &[(&str, Option<TextLimitArg>)] = &[
            ("25000", limit(25_000, BudgetUnit::Tokens)),
            ("25000chars", limit(25_000, BudgetUnit::Chars)),
            ("4096bytes", limit(4096, BudgetUnit::Bytes)),
            ("20000tokens", limit(20_000, BudgetUnit::Tokens)),
            ("none", Some(TextLimitArg::None)),
            ("0tokens", None),
            ("20k", None),
            ("tokens", None),
            ("-1", None),
            ("20000 tokens", None),
            ("", None),
        ];
        for (text, expected) in cases {
            assert_eq!(text_limit(text).ok(), *expected, "{text:?}");
        }
        assert_eq!(
            text_limit("20k").unwrap_err(),
            "unknown unit \"k\": use tokens (the default), chars or bytes"
        );
    }

    #[test]
    fn default_options_are_the_flags_defaults_and_the_codecs_own() {
        let parsed = Cli::try_parse_from(["codec", "render"]).unwrap();
        let Command::Render(args) = parsed.command else {
            panic!("render parses as render")
        };
        let defaults = CodecOptions::default();
        assert_eq!(format!("{:?}", args.codec), format!("{defaults:?}"));
        // No --mcp-version: the codec's own default, which the help names.
        let render = Cli::command();
        let render = render.find_subcommand("render").unwrap();
        let help = render
            .get_arguments()
            .find(|a| a.get_id() == "mcp_version")
            .and_then(|a| a.get_help())
            .unwrap()
            .to_string();
        let default = codec_mcp::ProtocolVersion::default();
        assert!(help.contains(&format!("(default {default})")), "{help}");
        assert!(
            help.contains(&format!("default {}", codec_mcp::ProtocolVersion::LATEST)),
            "{help}"
        );
        assert_eq!(
            agent_codecs::StructuredContent::default(),
            agent_codecs::StructuredContent::Always
        );
        assert!(matches!(
            codec_mcp::TextFormat::default(),
            codec_mcp::TextFormat::Markdown
        ));
    }
}

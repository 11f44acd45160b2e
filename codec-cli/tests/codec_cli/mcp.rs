//! `codec mcp` as a client meets it: raw JSON-RPC lines on its stdin,
//! answers read from its stdout, for each protocol revision, broken lines
//! and tool errors included. (The official SDKs' clients are in
//! `tests/mcp-client/`, run by `.ci/run`.)

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::OnceLock;
use std::sync::mpsc::{self, Receiver};
use std::time::Duration;

use serde_json::{Value, json};

use crate::common;

use common::temp_dir;

/// How long an answer may take: generous, for a busy debug build.
const ANSWER_TIMEOUT: Duration = Duration::from_secs(120);

/// A running `codec mcp`: lines in, answers out.
struct Session {
    child: Child,
    stdin: Option<ChildStdin>,
    answers: Receiver<String>,
}

impl Session {
    fn start(args: &[&str]) -> Session {
        let mut child = Command::new(env!("CARGO_BIN_EXE_codec"))
            .arg("mcp")
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the codec binary starts");
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().unwrap();
        let (send, answers) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if send.send(line).is_err() {
                    break;
                }
            }
        });
        Session {
            child,
            stdin,
            answers,
        }
    }

    /// `codec mcp DIR FLAGS`, initialized at 2025-11-25.
    fn serving(dir: &Path, flags: &[&str]) -> Session {
        let mut args = vec![dir.to_str().unwrap()];
        args.extend_from_slice(flags);
        let mut session = Session::start(&args);
        session.initialize("2025-11-25");
        session
    }

    fn send_line(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().unwrap();
        stdin.write_all(line.as_bytes()).unwrap();
        stdin.write_all(b"\n").unwrap();
        stdin.flush().unwrap();
    }

    fn send(&mut self, message: &Value) {
        self.send_line(&message.to_string());
    }

    /// The next line the server writes, as JSON.
    fn answer(&mut self) -> Value {
        let line = self
            .answers
            .recv_timeout(ANSWER_TIMEOUT)
            .expect("an answer in time");
        serde_json::from_str(&line).unwrap_or_else(|e| panic!("not JSON ({e}): {line}"))
    }

    /// Sends request `id` and returns its answer.
    fn request(&mut self, id: u64, method: &str, params: Value) -> Value {
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        let answer = self.answer();
        assert_eq!(answer["id"], id, "{answer}");
        answer
    }

    /// `initialize` for `version`, then `notifications/initialized`.
    fn initialize(&mut self, version: &str) -> Value {
        let answer = self.request(
            0,
            "initialize",
            json!({"protocolVersion": version, "capabilities": {},
                   "clientInfo": {"name": "raw-lines", "version": "1"}}),
        );
        self.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        answer
    }

    /// The answer's `result` of `tools/call` for `tool` and `arguments`.
    fn call(&mut self, id: u64, tool: &str, arguments: Value) -> Value {
        let answer = self.request(
            id,
            "tools/call",
            json!({"name": tool, "arguments": arguments}),
        );
        answer
            .get("result")
            .unwrap_or_else(|| panic!("not a result: {answer}"))
            .clone()
    }

    /// Closes stdin and waits: the server ends by itself, successfully.
    fn finish(mut self) {
        drop(self.stdin.take());
        let status = self.child.wait().unwrap();
        assert!(status.success(), "{status}");
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `codec render ARGS FILE`, as text.
fn render(args: &[&str], file: &Path) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_codec"))
        .arg("render")
        .args(args)
        .arg(file)
        .output()
        .unwrap();
    assert!(out.status.success());
    String::from_utf8(out.stdout).unwrap()
}

/// A directory with a table, a configuration and a file that is not JSON.
fn documents(name: &str) -> common::TempDir {
    let dir = temp_dir(name);
    let rows: Vec<Value> = (0..30)
        .map(|i| json!({"id": i, "name": format!("row {i}"), "score": 0.5}))
        .collect();
    std::fs::write(dir.join("table.json"), json!({"rows": rows}).to_string()).unwrap();
    std::fs::write(
        dir.join("config.json"),
        r#"{"env": "prod", "port": 8080, "tags": ["a", "b"]}"#,
    )
    .unwrap();
    std::fs::write(dir.join("broken.json"), "{\"a\": [1, 2}\n").unwrap();
    dir
}

/// The unit of a text limit.
#[derive(Debug, Clone, Copy)]
enum Unit {
    Tokens,
    Chars,
}

impl Unit {
    /// The size of `text`: o200k tokens, or characters.
    fn of(self, text: &str) -> usize {
        use codec_core::TokenCounter;
        static O200K: OnceLock<codec_core::tokens::O200k> = OnceLock::new();
        match self {
            Unit::Tokens => O200K
                .get_or_init(codec_core::tokens::O200k::new)
                .count(text),
            Unit::Chars => text.chars().count(),
        }
    }
}

fn text(result: &Value) -> &str {
    result["content"][0]["text"]
        .as_str()
        .unwrap_or_else(|| panic!("no text: {result}"))
}

#[test]
fn a_session_over_raw_lines() {
    let dir = documents("session");
    let mut session = Session::start(&[dir.to_str().unwrap()]);

    // A broken line before anything else: a parse error, and on it goes.
    session.send_line("{this is not json");
    let error = session.answer();
    assert_eq!(error["error"]["code"], -32700, "{error}");
    assert!(error.get("id").is_none(), "{error}");

    let init = session.initialize("2025-11-25");
    assert_eq!(init["result"]["protocolVersion"], "2025-11-25", "{init}");
    assert_eq!(init["result"]["serverInfo"]["name"], "codec");
    assert!(
        init["result"]["capabilities"]["tools"].is_object(),
        "{init}"
    );

    // JSON that is not a message: invalid request, with its id.
    session.send_line(r#"{"jsonrpc": "2.0", "id": 41}"#);
    let error = session.answer();
    assert_eq!(error["error"]["code"], -32600, "{error}");
    assert_eq!(error["id"], 41, "{error}");
    session.send_line("[1, 2");
    assert_eq!(session.answer()["error"]["code"], -32700);

    let tools = session.request(1, "tools/list", json!({}));
    let names: Vec<&str> = tools["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["list", "get"]);
    let get = &tools["result"]["tools"][1];
    assert_eq!(
        get["inputSchema"]["properties"]["name"]["enum"],
        json!(["broken", "config", "table"])
    );
    // Every document is an object: no wrapper for any revision.
    assert_eq!(get["outputSchema"]["type"], "object");

    let listing = session.call(2, "list", json!({}));
    assert_eq!(
        listing["structuredContent"]["documents"],
        json!([
            {"name": "broken", "error": format!("{}:1:12: invalid JSON: expected `,` or `]`, found '}}'", dir.join("broken.json").display())},
            {"name": "config"},
            {"name": "table", "rows": 30}
        ])
    );
    assert!(
        text(&listing).starts_with("# documents\n\n|name|error|rows|\n"),
        "{}",
        text(&listing)
    );

    // A document: the text is `codec render`'s, the structured content
    // the document.
    let config = session.call(3, "get", json!({"name": "config"}));
    assert_eq!(text(&config), render(&[], &dir.join("config.json")));
    assert_eq!(
        config["structuredContent"],
        json!({"env": "prod", "port": 8080, "tags": ["a", "b"]})
    );
    assert!(config.get("isError").is_none());

    // Tool errors: the model reads what went wrong.
    let cases = [
        (json!({"name": "nope"}), "no document named \"nope\"; the documents are: broken, config, table".to_owned()),
        (
            json!({"name": "broken"}),
            format!("document \"broken\" cannot be read: {}:1:12: invalid JSON: expected `,` or `]`, found '}}'", dir.join("broken.json").display()),
        ),
        (json!({}), "get needs the name of a document: one of broken, config, table".to_owned()),
        (json!({"name": "table", "offset": -2}), "offset must be a whole number from 0, found -2".to_owned()),
        (json!({"name": "table", "offset": 30}), "offset 30 is past the last row: \"table\" has 30 rows (offsets 0 to 29)".to_owned()),
        (
            json!({"name": "config", "limit": 2}),
            "document \"config\" has no rows to page through (it is not an array, nor an object whose only member is one); call get without offset and limit".to_owned(),
        ),
    ];
    for (id, (arguments, message)) in (10..).zip(cases) {
        let result = session.call(id, "get", arguments.clone());
        assert_eq!(result["isError"], true, "{arguments}: {result}");
        assert_eq!(text(&result), message, "{arguments}");
        assert!(result.get("structuredContent").is_none(), "{result}");
    }

    // An unknown tool is a protocol error.
    let unknown = session.request(20, "tools/call", json!({"name": "delete", "arguments": {}}));
    assert_eq!(unknown["error"]["code"], -32602, "{unknown}");
    assert_eq!(
        unknown["error"]["message"],
        "Unknown tool: delete (the tools are list and get)"
    );
    // Parameters that do not fit: invalid params, naming the parameter.
    let cases = [
        (
            json!({"name": null}),
            "Invalid params: tools/call's `name` must be a string; found null",
        ),
        (
            json!({"arguments": {}}),
            "Invalid params: tools/call's `name` must be a string; found none",
        ),
        (
            json!({"name": "get", "arguments": "config"}),
            "Invalid params: tools/call's `arguments` must be an object; found a string",
        ),
        (
            json!({"name": "get", "arguments": ["config"]}),
            "Invalid params: tools/call's `arguments` must be an object; found an array",
        ),
    ];
    for (id, (params, message)) in (30..).zip(cases) {
        let error = session.request(id, "tools/call", params.clone());
        assert_eq!(error["error"]["code"], -32602, "{params}: {error}");
        assert_eq!(error["error"]["message"], message, "{params}");
    }
    session.send(&json!({"jsonrpc": "2.0", "id": 34, "method": "tools/call"}));
    let error = session.answer();
    assert_eq!(
        (&error["id"], &error["error"]["code"]),
        (&json!(34), &json!(-32602)),
        "{error}"
    );
    assert_eq!(
        error["error"]["message"],
        "Invalid params: tools/call needs `params`, an object; found none"
    );
    // So is a `cursor` that is not a string.
    let error = session.request(36, "tools/list", json!({"cursor": 5}));
    assert_eq!(error["error"]["code"], -32602, "{error}");
    assert_eq!(
        error["error"]["message"],
        "Invalid params: tools/list's `cursor` must be a string; found a number"
    );
    // A second `initialize` is refused.
    let again = session.request(
        35,
        "initialize",
        json!({"protocolVersion": "2025-11-25", "capabilities": {},
               "clientInfo": {"name": "raw-lines", "version": "1"}}),
    );
    assert_eq!(again["error"]["code"], -32600, "{again}");
    assert_eq!(
        again["error"]["message"],
        "Invalid Request: the session is already initialized"
    );
    // The session's state is checked first: with parameters that do not
    // fit, it is the same answer.
    for (id, params) in (37..).zip([json!({}), json!({"protocolVersion": 1})]) {
        let again = session.request(id, "initialize", params.clone());
        assert_eq!(again["error"]["code"], -32600, "{params}: {again}");
        assert_eq!(
            again["error"]["message"],
            "Invalid Request: the session is already initialized"
        );
    }
    session.send(&json!({"jsonrpc": "2.0", "id": 39, "method": "initialize"}));
    let again = session.answer();
    assert_eq!(again["error"]["code"], -32600, "{again}");
    // An unknown method too, and the session goes on.
    let unknown = session.request(21, "resources/explode", json!({}));
    assert_eq!(unknown["error"]["code"], -32601, "{unknown}");
    assert_eq!(
        unknown["error"]["message"],
        "Method not found: resources/explode"
    );
    // One rmcp knows but this server does not serve, too.
    let unserved = session.request(23, "prompts/list", json!({}));
    assert_eq!(unserved["error"]["code"], -32601, "{unserved}");
    assert_eq!(
        unserved["error"]["message"],
        "Method not found: prompts/list"
    );
    assert_eq!(session.request(22, "ping", json!({}))["result"], json!({}));
    session.finish();
}

#[test]
fn get_pages_through_rows() {
    let dir = documents("pages");
    let mut session = Session::start(&[dir.to_str().unwrap()]);
    session.initialize("2025-11-25");
    let page = session.call(1, "get", json!({"name": "table", "offset": 28, "limit": 5}));
    let expected = json!({"rows": [
        {"id": 28, "name": "row 28", "score": 0.5},
        {"id": 29, "name": "row 29", "score": 0.5}
    ]});
    assert_eq!(page["structuredContent"], expected);
    let file = dir.join("page.json.out");
    std::fs::write(&file, expected.to_string()).unwrap();
    assert_eq!(text(&page), render(&[], &file));
    let first = session.call(2, "get", json!({"name": "table", "limit": 1}));
    assert_eq!(
        first["structuredContent"]["rows"].as_array().unwrap().len(),
        1
    );
    session.finish();
}

/// Each revision gets results in its shape: `resultType` from 2026-07-28
/// (whose requests carry their version instead of an `initialize`), and a
/// wrapper for arrays under the 2025 revisions.
#[test]
fn every_revision_the_codec_writes() {
    let dir = temp_dir("revisions");
    std::fs::write(dir.join("list.json"), "[1, 2]").unwrap();
    for version in ["2025-06-18", "2025-11-25"] {
        let mut session = Session::start(&[dir.to_str().unwrap()]);
        let init = session.initialize(version);
        assert_eq!(init["result"]["protocolVersion"], version);
        let tools = session.request(1, "tools/list", json!({}));
        assert_eq!(
            tools["result"]["tools"][1]["outputSchema"],
            json!({"type": "object", "properties": {"result": {"description": "The document, or the slice of its rows asked for."}}, "required": ["result"]})
        );
        let result = session.call(2, "get", json!({"name": "list"}));
        assert_eq!(
            result["structuredContent"],
            json!({"result": [1, 2]}),
            "{version}"
        );
        assert!(result.get("resultType").is_none(), "{version}");
        session.finish();
    }

    let mut session = Session::start(&[dir.to_str().unwrap()]);
    let meta = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": {"name": "raw-lines", "version": "1"},
        "io.modelcontextprotocol/clientCapabilities": {}
    });
    let tools = session.request(1, "tools/list", json!({"_meta": meta}));
    assert_eq!(
        tools["result"]["tools"][1]["outputSchema"],
        json!({"description": "The document, or the slice of its rows asked for."}),
        "{tools}"
    );
    let answer = session.request(
        2,
        "tools/call",
        json!({"name": "get", "arguments": {"name": "list"}, "_meta": meta}),
    );
    assert_eq!(
        answer["result"]["structuredContent"],
        json!([1, 2]),
        "{answer}"
    );
    assert_eq!(answer["result"]["resultType"], "complete");
    assert_eq!(
        answer["result"]["_meta"]["io.modelcontextprotocol/serverInfo"]["name"], "codec",
        "{answer}"
    );
    session.finish();

    // A client of an older revision is offered the newest the server has.
    let mut session = Session::start(&[dir.to_str().unwrap()]);
    let init = session.initialize("2024-11-05");
    assert_eq!(init["result"]["protocolVersion"], "2025-11-25", "{init}");
    session.finish();
}

/// `--mcp-version` is the newest revision answered.
#[test]
fn mcp_version_caps_the_revisions() {
    let mut session = Session::start(&["--mcp-version", "2025-06-18"]);
    let init = session.initialize("2025-11-25");
    assert_eq!(init["result"]["protocolVersion"], "2025-06-18", "{init}");
    session.finish();
}

/// No DIR: the bundled sample, whose text is `codec render`'s, with the
/// profile of the flags.
#[test]
fn the_sample_by_default_and_the_profile_of_the_flags() {
    let sample = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/sample.json");
    for args in [&[][..], &["--profile", "dense"][..]] {
        let mut session = Session::start(args);
        session.initialize("2025-11-25");
        let listing = session.call(1, "list", json!({}));
        assert_eq!(
            listing["structuredContent"],
            json!({"documents": [{"name": "github", "rows": 100}]})
        );
        let whole = session.call(2, "get", json!({"name": "github"}));
        assert_eq!(text(&whole), render(args, &sample), "{args:?}");
        let page = session.call(3, "get", json!({"name": "github", "limit": 3}));
        let rows = page["structuredContent"]["repositories"]
            .as_array()
            .unwrap();
        assert_eq!(
            rows[..],
            whole["structuredContent"]["repositories"]
                .as_array()
                .unwrap()[..3]
        );
        session.finish();
    }
}

/// The three ways not to pay twice, from the flags: markdown and the
/// data (the default), markdown alone, the data and one line.
#[test]
fn text_and_structured_content_choices() {
    let sample = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/sample.json");
    let markdown = render(&[], &sample);
    let line = "The result is in structuredContent: an object with repositories (100 items).";
    // (flags, text, structured content, listed output schema)
    let cases: &[(&[&str], &str, bool)] = &[
        (&[], &markdown, true),
        (&["--mcp-structured", "never"], &markdown, false),
        // No limit: the sample's structured content is over the default
        // one, which a summary holds it to (see the summary test).
        (
            &["--mcp-text", "summary", "--mcp-text-limit", "none"],
            line,
            true,
        ),
    ];
    for (flags, expected, structured) in cases {
        let mut session = Session::start(flags);
        session.initialize("2025-11-25");
        let tools = session.request(1, "tools/list", json!({}));
        let get = &tools["result"]["tools"][1];
        assert_eq!(get.get("outputSchema").is_some(), *structured, "{flags:?}");
        let result = session.call(2, "get", json!({"name": "github"}));
        assert_eq!(text(&result), *expected, "{flags:?}");
        assert_eq!(
            result.get("structuredContent").is_some(),
            *structured,
            "{flags:?}"
        );
        // An error result keeps its text, whatever the choice.
        let error = session.call(3, "get", json!({"name": "nope"}));
        assert_eq!(
            text(&error),
            "no document named \"nope\"; the documents are: github"
        );
        session.finish();
    }
    // The specification's letter: the text is the serialized structured
    // content (of a document small enough not to be cut).
    let scratch = temp_dir("mcp-text-json");
    let small = scratch.join("small.json");
    std::fs::write(&small, r#"{"env": "prod", "port": 8080, "tags": ["a"]}"#).unwrap();
    let json = Command::new(env!("CARGO_BIN_EXE_codec"))
        .args(["render", "--to", "mcp", "--mcp-text", "json"])
        .arg(&small)
        .output()
        .unwrap();
    let result: Value = serde_json::from_slice(&json.stdout).unwrap();
    let text: Value = serde_json::from_str(text(&result)).unwrap();
    assert_eq!(text, result["structuredContent"]);
}

/// A model pages through a table larger than the text limit by following
/// the notes: each cut text ends with the call that gets the next rows,
/// and the pages hold every row, in order, once. The limit holds in its
/// unit: o200k tokens counted exactly, or chars.
#[test]
fn notes_page_through_a_table_larger_than_the_limit() {
    let dir = temp_dir("budget");
    let rows: Vec<Value> = (0..300)
        .map(|i| json!({"id": i, "name": format!("row number {i}"), "note": "some words here"}))
        .collect();
    std::fs::write(dir.join("big.json"), json!({"rows": rows}).to_string()).unwrap();
    // (flags, the limit in its unit, the unit)
    let cases: [(&[&str], usize, Unit); 3] = [
        (&["--mcp-text-limit", "1500tokens"], 1500, Unit::Tokens),
        (&["--mcp-text-limit", "4000chars"], 4000, Unit::Chars),
        (
            &["--mcp-text-limit", "1200tokens", "--profile", "dense"],
            1200,
            Unit::Tokens,
        ),
    ];
    for (flags, limit, unit) in cases {
        let mut session = Session::serving(&dir, flags);
        let mut arguments = json!({"name": "big"});
        let mut offset = 0;
        let mut pages = 0;
        loop {
            pages += 1;
            assert!(pages < 100, "{flags:?}: no end");
            let result = session.call(pages, "get", arguments.clone());
            let text = text(&result);
            assert!(
                unit.of(text) <= limit,
                "{flags:?}: {} > {limit}",
                unit.of(text)
            );
            assert!(
                text.contains(&format!("row number {offset}|")),
                "{flags:?}: {text}"
            );
            let structured = |end: usize| json!({"rows": rows[offset..end]});
            let Some((_, note)) = text.split_once("\n\n[Truncated to the text limit: ") else {
                assert!(!text.contains("[Truncated"), "{flags:?}: {text}");
                assert!(text.contains("row number 299|"), "{flags:?}");
                assert_eq!(result["structuredContent"], structured(300), "{flags:?}");
                break;
            };
            let call = note
                .split_once("Call get with ")
                .and_then(|(_, rest)| rest.strip_suffix(" for the next rows.]"))
                .unwrap_or_else(|| panic!("{flags:?}: no next call in {note}"));
            arguments = serde_json::from_str(call).unwrap();
            let next = arguments["offset"].as_u64().unwrap() as usize;
            assert!(next > offset, "{flags:?}: {next} after {offset}");
            assert!(
                note.starts_with(&format!(
                    "{} of these {} rows.",
                    next - offset,
                    300 - offset
                )),
                "{flags:?}: {note}"
            );
            // The last row kept is the one before the next page's first.
            assert!(
                text.contains(&format!("row number {}|", next - 1)),
                "{flags:?}"
            );
            assert!(!text.contains(&format!("row number {next}|")), "{flags:?}");
            // The structured content holds the same rows, so a client
            // that shows it instead of the text stays within the budget.
            assert_eq!(result["structuredContent"], structured(next), "{flags:?}");
            offset = next;
        }
        assert!(pages > 2, "{flags:?}: {pages} pages");
        session.finish();
    }
}

/// A page whose rows are written as sections (rows holding objects), cut
/// to the limit: whole rows, as many as fit with the note, which names
/// the call that gets the next rows; following the notes reads every row
/// once, each page's text is what `codec render` writes of its rows, and
/// its structured content holds the same rows. A row alone over the limit
/// is cut inside, and the note says how to read the rows in smaller pages.
#[test]
fn rows_written_as_sections_are_cut_between_rows() {
    let dir = temp_dir("budget-sections");
    let rows: Vec<Value> = (0..120)
        .map(|i| {
            json!({"id": i, "name": format!("row number {i}"),
                   "owner": {"login": format!("user{i}"), "tags": ["a", "b"]}})
        })
        .collect();
    std::fs::write(dir.join("big.json"), json!({"rows": rows}).to_string()).unwrap();
    let slice = dir.join("slice.json");
    // (flags, the limit in its unit, the unit)
    let cases: [(&[&str], usize, Unit); 3] = [
        (&["--mcp-text-limit", "3000chars"], 3000, Unit::Chars),
        (&["--mcp-text-limit", "700tokens"], 700, Unit::Tokens),
        (
            &["--mcp-text-limit", "2000chars", "--mcp-structured", "never"],
            2000,
            Unit::Chars,
        ),
    ];
    for (flags, limit, unit) in cases {
        let mut session = Session::serving(&dir, flags);
        let mut arguments = json!({"name": "big"});
        let mut offset = 0;
        for page in 1.. {
            assert!(page < 100, "{flags:?}: no end");
            let result = session.call(page, "get", arguments.clone());
            let text = text(&result);
            assert!(unit.of(text) <= limit, "{flags:?}: {text}");
            let Some((markdown, note)) = text.split_once("\n\n[Truncated to the text limit: ")
            else {
                assert!(!text.contains("[Truncated"), "{flags:?}: {text}");
                std::fs::write(&slice, json!({"rows": rows[offset..]}).to_string()).unwrap();
                assert_eq!(text, render(&[], &slice), "{flags:?}");
                assert!(page > 2, "{flags:?}: {page} pages");
                break;
            };
            let call = note
                .split_once("Call get with ")
                .and_then(|(_, rest)| rest.strip_suffix(" for the next rows.]"))
                .unwrap_or_else(|| panic!("{flags:?}: no next call in {note}"));
            arguments = serde_json::from_str(call).unwrap();
            let next = arguments["offset"].as_u64().unwrap() as usize;
            assert!(next > offset, "{flags:?}: {next} after {offset}");
            assert!(
                note.starts_with(&format!(
                    "{} of these {} rows.",
                    next - offset,
                    120 - offset
                )),
                "{flags:?}: {note}"
            );
            std::fs::write(&slice, json!({"rows": rows[offset..next]}).to_string()).unwrap();
            assert_eq!(format!("{markdown}\n"), render(&[], &slice), "{flags:?}");
            if flags.contains(&"never") {
                assert!(result.get("structuredContent").is_none(), "{flags:?}");
            } else {
                assert_eq!(
                    result["structuredContent"],
                    json!({"rows": rows[offset..next]}),
                    "{flags:?}"
                );
            }
            offset = next;
        }
        session.finish();
    }

    let mut session = Session::serving(&dir, &["--mcp-text-limit", "60chars"]);
    let result = session.call(1, "get", json!({"name": "big", "offset": 10, "limit": 8}));
    assert!(
        text(&result).ends_with(
            r#"Call get with {"name": "big", "offset": 10, "limit": 2} to read these 8 rows in smaller pages.]"#
        ),
        "{}",
        text(&result)
    );
    session.finish();
}

/// With a one-line text (`--mcp-text summary`), the client shows the
/// model the structured content, so the text limit holds there: each
/// page keeps the rows whose compact JSON fits, and its line names the
/// call that gets the next rows; following them reads every row once.
/// A row alone over the limit is said to be, with no row.
#[test]
fn summary_pages_hold_the_structured_content_to_the_limit() {
    let dir = temp_dir("budget-summary");
    let rows: Vec<Value> = (0..300)
        .map(|i| json!({"id": i, "name": format!("row number {i}")}))
        .collect();
    std::fs::write(dir.join("big.json"), json!({"rows": rows}).to_string()).unwrap();
    let start =
        |limit: &str| Session::serving(&dir, &["--mcp-text", "summary", "--mcp-text-limit", limit]);
    let mut session = start("3000chars");
    let mut arguments = json!({"name": "big"});
    let mut read: Vec<Value> = Vec::new();
    for page in 1.. {
        assert!(page < 100, "no end");
        let result = session.call(page, "get", arguments.clone());
        let structured = &result["structuredContent"];
        assert!(
            structured.to_string().chars().count() <= 3000,
            "{structured}"
        );
        read.extend(structured["rows"].as_array().unwrap().iter().cloned());
        let text = text(&result);
        let Some((_, call)) = text.split_once("Call get with ") else {
            assert!(!text.contains("Truncated"), "{text}");
            assert!(page > 2, "{page} pages");
            break;
        };
        let call = call.strip_suffix(" for the next rows.]").unwrap();
        arguments = serde_json::from_str(call).unwrap();
        assert_eq!(arguments["offset"], read.len(), "{text}");
    }
    assert_eq!(read, rows);
    session.finish();

    let mut session = start("20chars");
    let result = session.call(1, "get", json!({"name": "big", "offset": 7}));
    assert_eq!(result["structuredContent"], json!({"rows": []}));
    assert!(
        text(&result).ends_with(
            "[Truncated to the text limit: the row at offset 7 alone is over it; raise \
             --mcp-text-limit to read it.]"
        ),
        "{}",
        text(&result)
    );
    session.finish();
}

/// A document without rows, cut: the note says where the rest is.
#[test]
fn a_cut_document_without_rows_says_where_the_rest_is() {
    let dir = temp_dir("budget-object");
    let members: serde_json::Map<String, Value> = (0..200)
        .map(|i| (format!("key{i}"), json!(format!("value {i}"))))
        .collect();
    std::fs::write(dir.join("wide.json"), Value::Object(members).to_string()).unwrap();
    for (flags, hint) in [
        (
            &[][..],
            "The structuredContent of this result holds all of it.]",
        ),
        (
            &["--mcp-structured", "never"][..],
            "It has no rows to page through; raise --mcp-text-limit to see all of it.]",
        ),
    ] {
        let flags = [&["--mcp-text-limit", "300chars"], flags].concat();
        let mut session = Session::serving(&dir, &flags);
        let result = session.call(1, "get", json!({"name": "wide"}));
        assert!(text(&result).ends_with(hint), "{}", text(&result));
        session.finish();
    }
}

/// Calls beyond `--max-calls` wait their turn: 40 pipelined `get`s, sent
/// before any answer is read, are each answered, with what the same call
/// alone gives.
#[test]
fn calls_beyond_the_bound_wait_and_are_answered() {
    let dir = documents("bound");
    for bound in ["1", "3"] {
        let mut session = Session::serving(&dir, &["--max-calls", bound]);
        let alone = session.call(1, "get", json!({"name": "table", "offset": 5, "limit": 2}));
        let calls: Vec<(u64, Value)> = (100..140)
            .map(|id| {
                let arguments = match id % 3 {
                    0 => json!({"name": "table", "offset": 5, "limit": 2}),
                    1 => json!({"name": "config"}),
                    _ => json!({"name": "nope"}),
                };
                (id, arguments)
            })
            .collect();
        for (id, arguments) in &calls {
            session.send(&json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
                                 "params": {"name": "get", "arguments": arguments}}));
        }
        let mut answers = std::collections::BTreeMap::new();
        for _ in &calls {
            let answer = session.answer();
            let id = answer["id"].as_u64().unwrap();
            assert!(answers.insert(id, answer).is_none(), "{id} answered twice");
        }
        for (id, arguments) in &calls {
            let result = &answers[id]["result"];
            match id % 3 {
                0 => assert_eq!(result, &alone, "{bound} {id}"),
                1 => assert_eq!(result["structuredContent"]["env"], "prod", "{bound} {id}"),
                _ => assert_eq!(result["isError"], true, "{bound} {id} {arguments}"),
            }
        }
        session.finish();
    }
}

#[test]
fn usage_errors() {
    let out = Command::new(env!("CARGO_BIN_EXE_codec"))
        .args(["mcp", "--pretty"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(64));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "codec: --pretty: codec mcp writes one JSON-RPC message per line\n"
    );
    let help = Command::new(env!("CARGO_BIN_EXE_codec"))
        .args(["mcp", "--help"])
        .output()
        .unwrap();
    let help = String::from_utf8(help.stdout).unwrap();
    assert!(
        help.contains("answers MCP revisions 2025-06-18, 2025-11-25 and 2026-07-28"),
        "{help}"
    );
    assert!(help.contains("--max-calls <N>"), "{help}");
    let out = Command::new(env!("CARGO_BIN_EXE_codec"))
        .args(["mcp", "--max-calls", "0"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(64));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("must be at least 1"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = Command::new(env!("CARGO_BIN_EXE_codec"))
        .args(["mcp", "--mcp-text", "html"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(64));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "codec: --mcp-text: unknown format \"html\"; expected markdown, json or summary\n"
    );
}

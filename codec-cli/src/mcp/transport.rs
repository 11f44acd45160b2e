//! The stdio transport of `codec mcp`: one JSON-RPC message per line, and
//! a JSON-RPC error for a line that is not one.
//!
//! rmcp's own line transport drops a line that is not JSON without a word
//! (so that two peers cannot answer each other's garbage forever); a
//! client that wrote a broken request would then wait for its answer until
//! it timed out. JSON-RPC 2.0 asks for an error, and this transport sends
//! one: `-32700` for a line that is not JSON, `-32600` for JSON that is not
//! a message (with the request's `id` when it has a readable one, none
//! otherwise, as MCP 2025-11-25 and later write it), and then it reads the
//! next line. It stays quiet only where JSON-RPC says a server must: a
//! notification (a `method` without an `id`) gets no answer, even a
//! malformed one. A line longer than [`MAX_LINE_BYTES`] is answered
//! `-32600` and skipped without being held in memory.
//!
//! rmcp names an unknown method alone as the message of its `-32601`
//! (method not found); this transport sends `Method not found: NAME`.
//!
//! rmcp reads a request of a method it knows whose parameters do not fit as
//! a request of an unknown method, which it answers `-32601` (method not
//! found), or reads a `tools/list` with a `cursor` that is not a string as
//! one without; this transport answers such a `tools/call`, `tools/list`
//! or `initialize` itself, `-32602` (invalid params) naming the parameter.

use std::future::Future;
use std::io;
use std::sync::Arc;

use rmcp::model::{ClientJsonRpcMessage, ErrorCode, ErrorData, RequestId, ServerJsonRpcMessage};
use rmcp::service::RoleServer;
use rmcp::transport::Transport;
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::Mutex;

/// The longest line read, as rmcp's own transport bounds it (16 MiB): a
/// client that never sends a newline cannot make the server buffer
/// without end.
pub(crate) const MAX_LINE_BYTES: usize = 16 * 1024 * 1024;

/// UTF-8's byte order mark, which JSON readers may skip (RFC 8259 §8.1).
const BOM: &[u8] = b"\xEF\xBB\xBF";

/// Newline-delimited JSON-RPC over a reader and a writer (stdin and
/// stdout, or a pipe in tests).
#[derive(Debug)]
pub(crate) struct LineTransport<R, W> {
    read: BufReader<R>,
    /// The line being read: kept across a cancelled `receive`, which rmcp
    /// polls in a `select!`.
    line: Vec<u8>,
    /// Skipping the rest of a line that was too long.
    discarding: bool,
    /// Whether an `initialize` request was passed on to rmcp.
    initialized: bool,
    /// Every message is written whole under this lock, so replies to bad
    /// lines never interleave with rmcp's own.
    write: Arc<Mutex<W>>,
    max_line: usize,
}

/// What one line holds.
#[derive(Debug)]
enum Line {
    Message(Box<ClientJsonRpcMessage>),
    /// Nothing to act on or answer: a blank line, or a notification that
    /// is not one of MCP's.
    Nothing,
    /// A broken line, and the error that answers it.
    Broken(Box<ServerJsonRpcMessage>),
}

impl<R, W> LineTransport<R, W>
where
    R: AsyncRead + Unpin + Send,
    W: AsyncWrite + Unpin + Send + 'static,
{
    pub(crate) fn new(read: R, write: W) -> LineTransport<R, W> {
        LineTransport {
            read: BufReader::new(read),
            line: Vec::new(),
            discarding: false,
            initialized: false,
            write: Arc::new(Mutex::new(write)),
            max_line: MAX_LINE_BYTES,
        }
    }

    /// The same with another bound on a line, for tests.
    #[cfg(test)]
    fn with_max_line(mut self, max_line: usize) -> LineTransport<R, W> {
        self.max_line = max_line;
        self
    }

    /// Reads up to the next newline into `self.line`. `Ok(false)` at the
    /// end of input; a line past the bound is answered and skipped.
    /// Cancellation-safe: bytes are moved from the reader's buffer to
    /// `self.line` with no await between the copy and the consume.
    async fn read_line(&mut self) -> io::Result<bool> {
        loop {
            let available = self.read.fill_buf().await?;
            if available.is_empty() {
                // A last line without a newline is still a line.
                return Ok(!self.line.is_empty() && !self.discarding);
            }
            let (used, done) = match available.iter().position(|&b| b == b'\n') {
                Some(end) => (end + 1, true),
                None => (available.len(), false),
            };
            if !self.discarding {
                self.line.extend_from_slice(&available[..used]);
            }
            self.read.consume(used);
            if !self.discarding && self.line.len() > self.max_line {
                self.discarding = true;
                self.line.clear();
                self.reply(ServerJsonRpcMessage::error(
                    ErrorData::invalid_request(
                        format!(
                            "Invalid Request: a message longer than {} bytes",
                            self.max_line
                        ),
                        None,
                    ),
                    None,
                ));
            }
            if done {
                if std::mem::take(&mut self.discarding) {
                    continue;
                }
                return Ok(true);
            }
        }
    }

    /// Writes an answer to a broken line on its own task, so that a
    /// `receive` cancelled by rmcp cannot leave half a message on the wire.
    fn reply(&self, message: ServerJsonRpcMessage) {
        let write = self.write.clone();
        tokio::spawn(async move {
            let _ = write_message(&write, &message).await;
        });
    }
}

impl<R, W> Transport<RoleServer> for LineTransport<R, W>
where
    R: AsyncRead + Unpin + Send,
    W: AsyncWrite + Unpin + Send + 'static,
{
    type Error = io::Error;

    fn send(
        &mut self,
        mut item: ServerJsonRpcMessage,
    ) -> impl Future<Output = Result<(), io::Error>> + Send + 'static {
        say_method_not_found(&mut item);
        let write = self.write.clone();
        async move { write_message(&write, &item).await }
    }

    async fn receive(&mut self) -> Option<ClientJsonRpcMessage> {
        loop {
            match self.read_line().await {
                Ok(true) => {}
                Ok(false) => return None,
                // Standard input failed: the session is over.
                Err(_) => return None,
            }
            let line = std::mem::take(&mut self.line);
            match read_message(&line, &mut self.initialized) {
                Line::Message(message) => return Some(*message),
                Line::Nothing => {}
                Line::Broken(error) => self.reply(*error),
            }
        }
    }

    async fn close(&mut self) -> Result<(), io::Error> {
        self.write.lock().await.shutdown().await
    }
}

/// rmcp answers a method it does not serve `-32601` with the method's name
/// alone as the message; this says what that name is, in the words
/// JSON-RPC 2.0 gives the code, as the other errors here do:
/// `Method not found: foo/bar`.
fn say_method_not_found(message: &mut ServerJsonRpcMessage) {
    if let ServerJsonRpcMessage::Error(error) = message
        && error.error.code == ErrorCode::METHOD_NOT_FOUND
    {
        error.error.message = format!("Method not found: {}", error.error.message).into();
    }
}

/// One message and its newline, written and flushed under the lock.
async fn write_message<W: AsyncWrite + Unpin>(
    write: &Mutex<W>,
    message: &ServerJsonRpcMessage,
) -> io::Result<()> {
    let mut bytes = serde_json::to_vec(message)?;
    bytes.push(b'\n');
    let mut write = write.lock().await;
    write.write_all(&bytes).await?;
    write.flush().await
}

/// The answer to an `initialize` after the first: the lifecycle has one
/// initialization phase.
pub(crate) fn already_initialized() -> ErrorData {
    ErrorData::invalid_request("Invalid Request: the session is already initialized", None)
}

/// What a line (its newline included) holds. `initialized` says whether
/// an `initialize` request was passed on already, and is set when this one
/// is: the session's state is checked before a request's parameters, so a
/// second `initialize` is refused as one whatever its parameters.
fn read_message(line: &[u8], initialized: &mut bool) -> Line {
    let line = line.strip_suffix(b"\n").unwrap_or(line);
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    let line = line.strip_prefix(BOM).unwrap_or(line);
    if line.iter().all(u8::is_ascii_whitespace) {
        return Line::Nothing;
    }
    let json: serde_json::Value = match serde_json::from_slice(line) {
        Ok(json) => json,
        Err(e) => {
            return Line::Broken(Box::new(ServerJsonRpcMessage::error(
                ErrorData::parse_error(format!("Parse error: {e}"), None),
                None,
            )));
        }
    };
    let id = json.get("id").and_then(readable_id);
    let is_notification =
        json.get("method").is_some_and(serde_json::Value::is_string) && json.get("id").is_none();
    let method = json.get("method").and_then(serde_json::Value::as_str);
    let is_initialize = id.is_some() && method == Some("initialize");
    if let Some(id) = &id
        && let Some(method) = method
    {
        let error = if is_initialize && *initialized {
            Some(already_initialized())
        } else {
            invalid_params(method, json.get("params"))
                .map(|message| ErrorData::invalid_params(message, None))
        };
        if let Some(error) = error {
            return Line::Broken(Box::new(ServerJsonRpcMessage::error(
                error,
                Some(id.clone()),
            )));
        }
    }
    match serde_json::from_value::<ClientJsonRpcMessage>(json) {
        Ok(message) => {
            *initialized |= is_initialize;
            Line::Message(Box::new(message))
        }
        // A server never answers a notification (JSON-RPC 2.0 §4.1),
        // and MCP clients send some that rmcp does not know.
        Err(_) if is_notification => Line::Nothing,
        Err(e) => Line::Broken(Box::new(ServerJsonRpcMessage::error(
            ErrorData::invalid_request(format!("Invalid Request: {e}"), None),
            id,
        ))),
    }
}

/// The parameters of the requests whose parameters this transport checks:
/// (method, parameter, JSON type, required). The rest of a request's
/// parameters are rmcp's to read.
const PARAMS: &[(&str, &str, JsonType, bool)] = &[
    ("tools/call", "name", JsonType::String, true),
    ("tools/call", "arguments", JsonType::Object, false),
    ("tools/list", "cursor", JsonType::String, false),
    ("initialize", "protocolVersion", JsonType::String, true),
    ("initialize", "capabilities", JsonType::Object, true),
    ("initialize", "clientInfo", JsonType::Object, true),
];

/// The JSON types [`PARAMS`] asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum JsonType {
    String,
    Object,
}

/// What is wrong with the `params` of a request of `method`, if it is one
/// whose parameters [`PARAMS`] lists: no `params` object (which may be
/// left out, or `null`, when every parameter is optional), or a parameter
/// missing or of the wrong type (an optional one may be `null`).
fn invalid_params(method: &str, params: Option<&serde_json::Value>) -> Option<String> {
    let expected: Vec<_> = PARAMS.iter().filter(|(m, ..)| *m == method).collect();
    if expected.is_empty() {
        return None;
    }
    let optional = expected.iter().all(|(.., required)| !required);
    if optional && matches!(params, None | Some(serde_json::Value::Null)) {
        return None;
    }
    let Some(serde_json::Value::Object(params)) = params else {
        let kind = json_kind(params);
        return Some(if optional {
            format!("Invalid params: {method}'s `params` must be an object; found {kind}")
        } else {
            format!("Invalid params: {method} needs `params`, an object; found {kind}")
        });
    };
    for (_, name, json_type, required) in expected {
        let value = params.get(*name);
        let fits = match (value, json_type) {
            (Some(serde_json::Value::String(_)), JsonType::String)
            | (Some(serde_json::Value::Object(_)), JsonType::Object) => true,
            (None | Some(serde_json::Value::Null), _) => !required,
            _ => false,
        };
        if !fits {
            let wanted = match json_type {
                JsonType::String => "a string",
                JsonType::Object => "an object",
            };
            return Some(format!(
                "Invalid params: {method}'s `{name}` must be {wanted}; found {}",
                json_kind(value)
            ));
        }
    }
    None
}

/// A JSON value's type, as an error names it.
fn json_kind(value: Option<&serde_json::Value>) -> &'static str {
    match value {
        None => "none",
        Some(serde_json::Value::Null) => "null",
        Some(serde_json::Value::Bool(_)) => "a boolean",
        Some(serde_json::Value::Number(_)) => "a number",
        Some(serde_json::Value::String(_)) => "a string",
        Some(serde_json::Value::Array(_)) => "an array",
        Some(serde_json::Value::Object(_)) => "an object",
    }
}

/// A request id as JSON-RPC allows one: a string or an integer.
fn readable_id(id: &serde_json::Value) -> Option<RequestId> {
    match id {
        serde_json::Value::String(_) | serde_json::Value::Number(_) => {
            serde_json::from_value(id.clone()).ok()
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The JSON of the answer to `line`, or `None` for a message or
    /// nothing.
    fn answer(line: &str) -> Option<serde_json::Value> {
        match read_message(line.as_bytes(), &mut false) {
            Line::Broken(error) => Some(serde_json::to_value(&*error).unwrap()),
            Line::Message(_) | Line::Nothing => None,
        }
    }

    #[test]
    fn broken_lines_get_json_rpc_errors() {
        // (line, expected error code, id, start of the message); code 0
        // for no answer.
        let cases: &[(&str, i64, Option<serde_json::Value>, &str)] = &[
            (
                "{not json",
                -32700,
                None,
                "Parse error: key must be a string at line 1 column 2",
            ),
            (
                "[1, 2",
                -32700,
                None,
                "Parse error: EOF while parsing a list",
            ),
            ("\u{feff}{\"a\":", -32700, None, "Parse error: EOF"),
            (
                r#"{"jsonrpc":"2.0","id":7}"#,
                -32600,
                Some(7.into()),
                "Invalid Request: ",
            ),
            (
                r#"{"jsonrpc":"1.0","id":"x","method":"ping"}"#,
                -32600,
                Some("x".into()),
                "Invalid Request: ",
            ),
            (
                r#"{"jsonrpc":"2.0","id":[1],"method":"ping"}"#,
                -32600,
                None,
                "Invalid Request: ",
            ),
            ("[]", -32600, None, "Invalid Request: "),
            // Known methods with parameters that do not fit: invalid
            // params, naming the parameter.
            (
                r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":null}}"#,
                -32602,
                Some(3.into()),
                "Invalid params: tools/call's `name` must be a string; found null",
            ),
            (
                r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"arguments":{}}}"#,
                -32602,
                Some(3.into()),
                "Invalid params: tools/call's `name` must be a string; found none",
            ),
            (
                r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"get","arguments":"x"}}"#,
                -32602,
                Some(3.into()),
                "Invalid params: tools/call's `arguments` must be an object; found a string",
            ),
            (
                r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"get","arguments":[1]}}"#,
                -32602,
                Some(3.into()),
                "Invalid params: tools/call's `arguments` must be an object; found an array",
            ),
            (
                r#"{"jsonrpc":"2.0","id":"c","method":"tools/call"}"#,
                -32602,
                Some("c".into()),
                "Invalid params: tools/call needs `params`, an object; found none",
            ),
            (
                r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":[]}"#,
                -32602,
                Some(3.into()),
                "Invalid params: tools/call needs `params`, an object; found an array",
            ),
            (
                r#"{"jsonrpc":"2.0","id":4,"method":"initialize","params":{"protocolVersion":1}}"#,
                -32602,
                Some(4.into()),
                "Invalid params: initialize's `protocolVersion` must be a string; found a number",
            ),
            (
                r#"{"jsonrpc":"2.0","id":4,"method":"initialize"}"#,
                -32602,
                Some(4.into()),
                "Invalid params: initialize needs `params`, an object; found none",
            ),
            (
                r#"{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"get","arguments":null}}"#,
                0,
                None,
                "",
            ),
            (
                r#"{"jsonrpc":"2.0","id":6,"method":"tools/list","params":{"cursor":5}}"#,
                -32602,
                Some(6.into()),
                "Invalid params: tools/list's `cursor` must be a string; found a number",
            ),
            (
                r#"{"jsonrpc":"2.0","id":6,"method":"tools/list","params":"x"}"#,
                -32602,
                Some(6.into()),
                "Invalid params: tools/list's `params` must be an object; found a string",
            ),
            (
                r#"{"jsonrpc":"2.0","id":6,"method":"tools/list","params":{"cursor":"c"}}"#,
                0,
                None,
                "",
            ),
            (
                r#"{"jsonrpc":"2.0","id":6,"method":"tools/list"}"#,
                0,
                None,
                "",
            ),
            (
                r#"{"jsonrpc":"2.0","id":6,"method":"tools/list","params":null}"#,
                0,
                None,
                "",
            ),
            ("42", -32600, None, "Invalid Request: "),
            // Notifications are never answered, broken or not.
            (
                r#"{"jsonrpc":"2.0","method":"notifications/whatever"}"#,
                0,
                None,
                "",
            ),
            (
                r#"{"jsonrpc":"2.0","method":"tools/call","params":7}"#,
                0,
                None,
                "",
            ),
            // Messages.
            (r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#, 0, None, ""),
            ("  \r\n", 0, None, ""),
        ];
        for (line, code, id, message) in cases {
            let got = answer(&format!("{line}\n"));
            if *code == 0 {
                assert_eq!(got, None, "{line}");
                continue;
            }
            let got = got.unwrap_or_else(|| panic!("no answer to {line}"));
            assert_eq!(got["jsonrpc"], "2.0", "{line}");
            assert_eq!(got["error"]["code"], *code, "{line}");
            assert_eq!(got.get("id"), id.as_ref(), "{line}");
            let text = got["error"]["message"].as_str().unwrap();
            assert!(text.starts_with(message), "{line}: {text}");
        }
        assert!(matches!(
            read_message(
                b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n",
                &mut false
            ),
            Line::Message(_)
        ));
    }

    /// A second `initialize` is refused as one, whatever its parameters;
    /// before the first, bad parameters are invalid params.
    #[test]
    fn a_second_initialize_is_refused_before_its_params_are_read() {
        let good = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}"#;
        let bad = r#"{"jsonrpc":"2.0","id":2,"method":"initialize","params":{}}"#;
        let code = |line: Line| match line {
            Line::Broken(error) => serde_json::to_value(&*error).unwrap()["error"].clone(),
            Line::Message(_) => serde_json::Value::from("a message"),
            Line::Nothing => serde_json::Value::from("nothing"),
        };
        let mut initialized = false;
        assert_eq!(
            code(read_message(bad.as_bytes(), &mut initialized))["code"],
            -32602
        );
        assert!(!initialized);
        assert_eq!(
            code(read_message(good.as_bytes(), &mut initialized)),
            "a message"
        );
        assert!(initialized);
        for line in [bad, good] {
            let error = code(read_message(line.as_bytes(), &mut initialized));
            assert_eq!(error["code"], -32600, "{line}");
            assert_eq!(
                error["message"],
                "Invalid Request: the session is already initialized"
            );
        }
    }

    /// Over a pipe: a line too long is answered and skipped, and the next
    /// one is read; a last line without a newline is read too.
    #[tokio::test]
    async fn long_lines_are_skipped_and_the_next_is_read() {
        let (mut client, server) = tokio::io::duplex(1 << 12);
        let (read, write) = tokio::io::split(server);
        let mut transport = LineTransport::new(read, write).with_max_line(64);
        let ping = r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#;
        let long = format!(
            r#"{{"jsonrpc":"2.0","id":2,"method":"ping","x":"{}"}}"#,
            "a".repeat(500)
        );
        client
            .write_all(format!("{long}\n{ping}\n{ping}").as_bytes())
            .await
            .unwrap();
        client.shutdown().await.unwrap();
        for _ in 0..2 {
            let message = transport.receive().await.expect("a message");
            assert!(
                serde_json::to_string(&message)
                    .unwrap()
                    .contains(r#""method":"ping""#)
            );
        }
        assert!(transport.receive().await.is_none());
        let mut answer = String::new();
        tokio::io::AsyncBufReadExt::read_line(&mut BufReader::new(&mut client), &mut answer)
            .await
            .unwrap();
        assert_eq!(
            answer,
            "{\"jsonrpc\":\"2.0\",\"error\":{\"code\":-32600,\"message\":\"Invalid Request: a message longer than 64 bytes\"}}\n"
        );
    }
}

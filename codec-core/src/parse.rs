//! JSON bytes to [`Value`]: source key order kept, numbers verbatim.
//!
//! The parser is iterative (an explicit stack, no recursion), so nesting
//! depth is bounded by [`ParseOptions::max_depth`] and never by the thread's
//! stack: an input nested a million deep is rejected with
//! [`ParseErrorKind::DepthLimit`], not a stack overflow.
//!
//! Why not `serde_json::from_slice`: keeping number text verbatim and key
//! order there needs its `arbitrary_precision` and `preserve_order`
//! features, and Cargo turns features on for every crate in a build, which
//! would change `serde_json::Value` for the services that use this crate.

use std::fmt;

use crate::number::scan_number;
use crate::{Map, Number, Value};

/// The default maximum nesting depth of arrays and objects: 128, the
/// number `serde_json` uses for its recursion limit, which counts so that
/// it rejects a 128th level (a value exactly 128 deep parses here, not in
/// `serde_json`; the `json` fuzz target checks this is the only
/// difference of depth).
pub const DEFAULT_MAX_DEPTH: usize = 128;

/// What to do when an object has the same key twice.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum DuplicateKeys {
    /// Reject the input with [`ParseErrorKind::DuplicateKey`] (the
    /// default): RFC 8259 leaves the meaning of duplicates open, and
    /// silently dropping a member would lose data.
    #[default]
    Reject,
    /// Keep the last value, in the position of the first occurrence (what
    /// `serde_json::Value` does).
    LastWins,
}

/// Options of [`from_slice_with`].
#[derive(Debug, Clone)]
pub struct ParseOptions {
    max_depth: usize,
    duplicate_keys: DuplicateKeys,
    max_len: Option<usize>,
}

impl Default for ParseOptions {
    fn default() -> ParseOptions {
        ParseOptions {
            max_depth: DEFAULT_MAX_DEPTH,
            duplicate_keys: DuplicateKeys::Reject,
            max_len: None,
        }
    }
}

impl ParseOptions {
    /// The defaults: depth [`DEFAULT_MAX_DEPTH`], duplicate keys rejected,
    /// no length limit (memory use is linear in the input).
    pub fn new() -> ParseOptions {
        ParseOptions::default()
    }

    /// The maximum nesting depth of arrays and objects; `[]` is depth 1.
    pub fn max_depth(mut self, depth: usize) -> ParseOptions {
        self.max_depth = depth;
        self
    }

    /// What to do with a repeated key.
    pub fn duplicate_keys(mut self, policy: DuplicateKeys) -> ParseOptions {
        self.duplicate_keys = policy;
        self
    }

    /// Rejects inputs longer than `bytes` before reading them.
    pub fn max_len(mut self, bytes: usize) -> ParseOptions {
        self.max_len = Some(bytes);
        self
    }
}

/// Why JSON input was rejected, and where.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{kind} at line {line} column {column}")]
pub struct ParseError {
    kind: ParseErrorKind,
    line: usize,
    column: usize,
    offset: usize,
}

/// What was wrong with JSON input.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ParseErrorKind {
    /// The input ended early.
    #[error("unexpected end of input, expected {expected}")]
    Eof {
        /// What the grammar needed next.
        expected: &'static str,
    },
    /// A character that the grammar does not allow here.
    #[error("expected {expected}, found {found:?}")]
    Unexpected {
        /// What the grammar needed.
        expected: &'static str,
        /// What was there.
        found: char,
    },
    /// Bytes that are not UTF-8.
    #[error("invalid UTF-8")]
    InvalidUtf8,
    /// A raw control character (U+0000 to U+001F) inside a string.
    #[error("control character {found:?} in a string must be escaped")]
    ControlCharacter {
        /// The character.
        found: char,
    },
    /// A backslash escape JSON does not define.
    #[error("invalid escape in a string")]
    InvalidEscape,
    /// A `\u` escape of a UTF-16 surrogate without its pair.
    #[error("unpaired surrogate in a \\u escape")]
    LoneSurrogate,
    /// A number that does not match JSON's grammar.
    #[error("invalid number")]
    InvalidNumber,
    /// Arrays and objects nested deeper than the limit.
    #[error("nesting deeper than the limit of {limit}")]
    DepthLimit {
        /// The limit in force.
        limit: usize,
    },
    /// The same key twice in one object.
    #[error("duplicate key {key:?}")]
    DuplicateKey {
        /// The key.
        key: String,
    },
    /// Something after the value.
    #[error("trailing characters after the value")]
    TrailingCharacters,
    /// The input is longer than [`ParseOptions::max_len`].
    #[error("input of {len} bytes is longer than the limit of {limit}")]
    TooLong {
        /// The input's length.
        len: usize,
        /// The limit in force.
        limit: usize,
    },
}

impl ParseError {
    /// What was wrong.
    pub fn kind(&self) -> &ParseErrorKind {
        &self.kind
    }

    /// The 1-based line of the error.
    pub fn line(&self) -> usize {
        self.line
    }

    /// The 1-based column of the error, in characters.
    pub fn column(&self) -> usize {
        self.column
    }

    /// The byte offset of the error.
    pub fn offset(&self) -> usize {
        self.offset
    }
}

/// Parses JSON bytes with the default [`ParseOptions`].
///
/// ```
/// let value = codec_core::from_slice(br#"{"b": 1.10, "a": [true, null]}"#).unwrap();
/// let keys: Vec<_> = value.as_object().unwrap().keys().collect();
/// assert_eq!(keys, ["b", "a"]);
/// assert_eq!(value["b"].as_number().unwrap().to_string(), "1.10");
/// ```
pub fn from_slice(bytes: &[u8]) -> Result<Value, ParseError> {
    from_slice_with(bytes, &ParseOptions::default())
}

/// Parses a JSON string with the default [`ParseOptions`].
pub fn from_str(text: &str) -> Result<Value, ParseError> {
    from_slice(text.as_bytes())
}

/// Parses JSON bytes.
pub fn from_slice_with(bytes: &[u8], options: &ParseOptions) -> Result<Value, ParseError> {
    if let Some(limit) = options.max_len {
        if bytes.len() > limit {
            return Err(ParseError {
                kind: ParseErrorKind::TooLong {
                    len: bytes.len(),
                    limit,
                },
                line: 1,
                column: 1,
                offset: 0,
            });
        }
    }
    Parser {
        bytes,
        pos: 0,
        options,
    }
    .parse()
}

enum Frame {
    Array(Vec<Value>),
    Object {
        map: Map,
        key: String,
        key_at: usize,
    },
}

struct Parser<'a> {
    bytes: &'a [u8],
    pos: usize,
    options: &'a ParseOptions,
}

impl Parser<'_> {
    fn parse(&mut self) -> Result<Value, ParseError> {
        let mut stack: Vec<Frame> = Vec::new();
        'value: loop {
            self.skip_ws();
            let mut value = match self.peek() {
                Some(b'[') => {
                    self.enter(stack.len())?;
                    self.skip_ws();
                    if self.peek() == Some(b']') {
                        self.pos += 1;
                        Value::Array(Vec::new())
                    } else {
                        stack.push(Frame::Array(Vec::new()));
                        continue 'value;
                    }
                }
                Some(b'{') => {
                    self.enter(stack.len())?;
                    self.skip_ws();
                    if self.peek() == Some(b'}') {
                        self.pos += 1;
                        Value::Object(Map::new())
                    } else {
                        let (key, key_at) = self.key()?;
                        stack.push(Frame::Object {
                            map: Map::new(),
                            key,
                            key_at,
                        });
                        continue 'value;
                    }
                }
                Some(b'"') => Value::String(self.string()?),
                Some(b't') => self.literal("true", Value::Bool(true))?,
                Some(b'f') => self.literal("false", Value::Bool(false))?,
                Some(b'n') => self.literal("null", Value::Null)?,
                Some(b'-' | b'0'..=b'9') => Value::Number(self.number()?),
                _ => return Err(self.unexpected("a value")),
            };
            // Fold the finished value into its parents until one of them
            // wants another element.
            loop {
                match stack.last_mut() {
                    None => {
                        self.skip_ws();
                        if self.pos < self.bytes.len() {
                            return Err(self.error(ParseErrorKind::TrailingCharacters));
                        }
                        return Ok(value);
                    }
                    Some(Frame::Array(items)) => {
                        items.push(value);
                        self.skip_ws();
                        match self.peek() {
                            Some(b',') => {
                                self.pos += 1;
                                continue 'value;
                            }
                            Some(b']') => {
                                self.pos += 1;
                                let Some(Frame::Array(items)) = stack.pop() else {
                                    unreachable!("the top frame is an array")
                                };
                                value = Value::Array(items);
                            }
                            _ => return Err(self.unexpected("`,` or `]`")),
                        }
                    }
                    Some(Frame::Object { map, key, key_at }) => {
                        let key = std::mem::take(key);
                        if map.contains_key(&key) {
                            if self.options.duplicate_keys == DuplicateKeys::Reject {
                                let at = *key_at;
                                return Err(self.error_at(at, ParseErrorKind::DuplicateKey { key }));
                            }
                            if let Some(slot) = map.get_mut(&key) {
                                *slot = value;
                            }
                        } else {
                            map.insert(key, value);
                        }
                        self.skip_ws();
                        match self.peek() {
                            Some(b',') => {
                                self.pos += 1;
                                self.skip_ws();
                                let (next_key, next_at) = self.key()?;
                                if let Some(Frame::Object { key, key_at, .. }) = stack.last_mut() {
                                    *key = next_key;
                                    *key_at = next_at;
                                }
                                continue 'value;
                            }
                            Some(b'}') => {
                                self.pos += 1;
                                let Some(Frame::Object { map, .. }) = stack.pop() else {
                                    unreachable!("the top frame is an object")
                                };
                                value = Value::Object(map);
                            }
                            _ => return Err(self.unexpected("`,` or `}`")),
                        }
                    }
                }
            }
        }
    }

    /// Steps into an array or object at `depth` open containers.
    fn enter(&mut self, depth: usize) -> Result<(), ParseError> {
        if depth >= self.options.max_depth {
            return Err(self.error(ParseErrorKind::DepthLimit {
                limit: self.options.max_depth,
            }));
        }
        self.pos += 1;
        Ok(())
    }

    /// Reads `"key"` then `:`; returns the key and where it started.
    fn key(&mut self) -> Result<(String, usize), ParseError> {
        if self.peek() != Some(b'"') {
            return Err(self.unexpected("a string key"));
        }
        let at = self.pos;
        let key = self.string()?;
        self.skip_ws();
        if self.peek() != Some(b':') {
            return Err(self.unexpected("`:`"));
        }
        self.pos += 1;
        Ok((key, at))
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    fn skip_ws(&mut self) {
        while let Some(b' ' | b'\n' | b'\r' | b'\t') = self.peek() {
            self.pos += 1;
        }
    }

    fn literal(&mut self, word: &'static str, value: Value) -> Result<Value, ParseError> {
        for &expected in word.as_bytes() {
            match self.peek() {
                Some(b) if b == expected => self.pos += 1,
                _ => return Err(self.unexpected(word)),
            }
        }
        Ok(value)
    }

    fn number(&mut self) -> Result<Number, ParseError> {
        let rest = &self.bytes[self.pos..];
        let Some(len) = scan_number(rest) else {
            // Point at the first byte that broke the grammar.
            let good = rest
                .iter()
                .take_while(|b| matches!(b, b'-' | b'0'..=b'9' | b'.' | b'e' | b'E' | b'+'))
                .count();
            let at = self.pos + good.min(rest.len());
            return Err(self.error_at(at, ParseErrorKind::InvalidNumber));
        };
        // A digit right after a complete number is a leading zero (`01`).
        if matches!(rest.get(len), Some(b'0'..=b'9')) {
            return Err(self.error_at(self.pos + len, ParseErrorKind::InvalidNumber));
        }
        // The grammar only admits ASCII, so this cannot fail.
        let text = std::str::from_utf8(&rest[..len]).unwrap_or_default();
        self.pos += len;
        Ok(Number::from_valid_text(text))
    }

    /// Reads a string starting at the opening quote.
    fn string(&mut self) -> Result<String, ParseError> {
        self.pos += 1;
        let start = self.pos;
        // Fast path: no escapes, one UTF-8 check of the whole run.
        loop {
            match self.peek() {
                Some(b'"') => {
                    let text = self.utf8(start, self.pos)?.to_owned();
                    self.pos += 1;
                    return Ok(text);
                }
                Some(b'\\') => break,
                Some(b) if b < 0x20 => return Err(self.control_character(b)),
                Some(_) => self.pos += 1,
                None => return Err(self.error(ParseErrorKind::Eof { expected: "`\"`" })),
            }
        }
        let mut out = String::from(self.utf8(start, self.pos)?);
        loop {
            let run_start = self.pos;
            while let Some(b) = self.peek() {
                if b == b'"' || b == b'\\' || b < 0x20 {
                    break;
                }
                self.pos += 1;
            }
            out.push_str(self.utf8(run_start, self.pos)?);
            match self.peek() {
                Some(b'"') => {
                    self.pos += 1;
                    return Ok(out);
                }
                Some(b'\\') => {
                    self.pos += 1;
                    self.escape(&mut out)?;
                }
                Some(b) => return Err(self.control_character(b)),
                None => return Err(self.error(ParseErrorKind::Eof { expected: "`\"`" })),
            }
        }
    }

    fn escape(&mut self, out: &mut String) -> Result<(), ParseError> {
        let c = match self.peek() {
            Some(b'"') => '"',
            Some(b'\\') => '\\',
            Some(b'/') => '/',
            Some(b'b') => '\u{8}',
            Some(b'f') => '\u{c}',
            Some(b'n') => '\n',
            Some(b'r') => '\r',
            Some(b't') => '\t',
            Some(b'u') => {
                let at = self.pos - 1;
                self.pos += 1;
                let high = self.hex4()?;
                let c = match high {
                    0xD800..=0xDBFF => {
                        if self.bytes.get(self.pos..self.pos + 2) != Some(b"\\u") {
                            return Err(self.error_at(at, ParseErrorKind::LoneSurrogate));
                        }
                        self.pos += 2;
                        let low = self.hex4()?;
                        if !(0xDC00..=0xDFFF).contains(&low) {
                            return Err(self.error_at(at, ParseErrorKind::LoneSurrogate));
                        }
                        let code = 0x10000
                            + ((u32::from(high) - 0xD800) << 10)
                            + (u32::from(low) - 0xDC00);
                        char::from_u32(code)
                    }
                    0xDC00..=0xDFFF => None,
                    _ => char::from_u32(u32::from(high)),
                };
                let c = c.ok_or_else(|| self.error_at(at, ParseErrorKind::LoneSurrogate))?;
                out.push(c);
                return Ok(());
            }
            None => {
                return Err(self.error(ParseErrorKind::Eof {
                    expected: "an escape",
                }))
            }
            Some(_) => return Err(self.error_at(self.pos - 1, ParseErrorKind::InvalidEscape)),
        };
        self.pos += 1;
        out.push(c);
        Ok(())
    }

    fn hex4(&mut self) -> Result<u16, ParseError> {
        let mut v: u16 = 0;
        for _ in 0..4 {
            let digit = match self.peek() {
                Some(b @ b'0'..=b'9') => b - b'0',
                Some(b @ b'a'..=b'f') => b - b'a' + 10,
                Some(b @ b'A'..=b'F') => b - b'A' + 10,
                None => {
                    return Err(self.error(ParseErrorKind::Eof {
                        expected: "a hex digit",
                    }))
                }
                Some(_) => return Err(self.unexpected("a hex digit")),
            };
            v = v * 16 + u16::from(digit);
            self.pos += 1;
        }
        Ok(v)
    }

    fn utf8(&self, start: usize, end: usize) -> Result<&str, ParseError> {
        std::str::from_utf8(&self.bytes[start..end])
            .map_err(|e| self.error_at(start + e.valid_up_to(), ParseErrorKind::InvalidUtf8))
    }

    fn control_character(&self, b: u8) -> ParseError {
        self.error(ParseErrorKind::ControlCharacter {
            found: char::from(b),
        })
    }

    /// "Expected X" at the current position, naming what is there.
    fn unexpected(&self, expected: &'static str) -> ParseError {
        let rest = &self.bytes[self.pos..];
        if rest.is_empty() {
            return self.error(ParseErrorKind::Eof { expected });
        }
        let head = &rest[..rest.len().min(4)];
        let found = match std::str::from_utf8(head) {
            Ok(s) => s.chars().next(),
            Err(e) if e.valid_up_to() > 0 => std::str::from_utf8(&head[..e.valid_up_to()])
                .ok()
                .and_then(|s| s.chars().next()),
            Err(e) if e.error_len().is_none() && rest.len() > head.len() => None,
            Err(_) => return self.error(ParseErrorKind::InvalidUtf8),
        };
        match found {
            Some(found) => self.error(ParseErrorKind::Unexpected { expected, found }),
            None => self.error(ParseErrorKind::InvalidUtf8),
        }
    }

    fn error(&self, kind: ParseErrorKind) -> ParseError {
        self.error_at(self.pos, kind)
    }

    /// Builds an error at byte `offset`, computing line and column only
    /// now: the success path never counts lines.
    fn error_at(&self, offset: usize, kind: ParseErrorKind) -> ParseError {
        let before = &self.bytes[..offset.min(self.bytes.len())];
        let line_start = before
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |i| i + 1);
        let line = 1 + before.iter().filter(|&&b| b == b'\n').count();
        // Columns count characters: every byte that does not continue a
        // UTF-8 sequence starts one.
        let column = 1 + before[line_start..]
            .iter()
            .filter(|&&b| b & 0xC0 != 0x80)
            .count();
        ParseError {
            kind,
            line,
            column,
            offset,
        }
    }
}

impl fmt::Debug for Parser<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Parser").field("pos", &self.pos).finish()
    }
}

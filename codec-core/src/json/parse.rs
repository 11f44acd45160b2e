//! JSON bytes to [`Value`]: source key order kept, numbers verbatim.
//!
//! The parser is iterative (an explicit stack, no recursion), so nesting
//! depth is bounded by [`ParseOptions::max_depth`] and never by the thread's
//! stack: an input nested a million deep is rejected with
//! [`ParseErrorKind::DepthLimit`], not a stack overflow.
//!
//! The value is built in one pass with little copying:
//! the elements of open containers wait on one scratch stack and move into
//! a vector of exactly their number when the container closes; objects with
//! the same keys as an object before them share its key list (a shape, see
//! map.rs), so their keys are compared with the shape's instead of being
//! stored, hashed and checked for duplicates; the input is checked for
//! UTF-8 once. The figures are in BENCHMARKS.md and the commit messages.
//!
//! Why not `serde_json::from_slice`: keeping number text verbatim and key
//! order there needs its `arbitrary_precision` and `preserve_order`
//! features, and Cargo turns features on for every crate in a build, which
//! would change `serde_json::Value` for the services that use this crate.

use std::fmt;
use std::sync::Arc;

use crate::value::{DEFAULT_MAX_DEPTH, INDEX_ABOVE, Key, KeyIndex, Map, Number, Shape, Value};

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
///
/// To parse many inputs with the same options (the rows of a stream, the
/// lines of a log), a [`Parser`] shares the key lists of their records.
pub fn from_slice_with(bytes: &[u8], options: &ParseOptions) -> Result<Value, ParseError> {
    parse_with(bytes, options, &mut ShapeCache::default())
}

/// A parser for many inputs: parses each one as [`from_slice_with`] does
/// (the same values, errors and limits), and keeps the recent key lists
/// (shapes) of their objects from one input to the next, so that values
/// parsed by one parser share their key lists.
///
/// One [`from_slice_with`] call shares a key list among the records of
/// its input; parsing records one input at a time (a window over a file
/// too large to hold, one line per record) gives each record its own,
/// boxed key by key, unless the parser is kept: for a stream of records
/// with the same keys, this is the difference between one allocation per
/// key and none.
///
/// ```
/// use codec_core::json::ParseOptions;
///
/// let mut parser = ParseOptions::new().max_depth(8).parser();
/// let first = parser.parse(br#"{"id": 1, "name": "a"}"#).unwrap();
/// let second = parser.parse(br#"{"id": 2, "name": "b"}"#).unwrap();
/// assert!(second.identical(&codec_core::from_slice(br#"{"id": 2, "name": "b"}"#).unwrap()));
/// assert_eq!(first["name"].as_str(), Some("a"));
/// assert!(parser.parse(b"[[[[[[[[[]]]]]]]]]").is_err());
/// ```
pub struct Parser {
    options: ParseOptions,
    /// Boxed: 1.5 KB, which the parser's owner need not hold inline.
    shapes: Box<ShapeCache>,
}

impl Parser {
    /// A parser with these options.
    pub fn new(options: ParseOptions) -> Parser {
        Parser {
            options,
            shapes: Box::default(),
        }
    }

    /// Parses JSON bytes, as [`from_slice_with`] with the parser's options.
    pub fn parse(&mut self, bytes: &[u8]) -> Result<Value, ParseError> {
        parse_with(bytes, &self.options, &mut self.shapes)
    }

    /// The parser's options.
    pub fn options(&self) -> &ParseOptions {
        &self.options
    }
}

impl fmt::Debug for Parser {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Parser")
            .field("options", &self.options)
            .finish_non_exhaustive()
    }
}

impl ParseOptions {
    /// A [`Parser`] with these options, for many inputs.
    pub fn parser(self) -> Parser {
        Parser::new(self)
    }
}

/// Parses `bytes` with the shapes of the inputs before it.
fn parse_with(
    bytes: &[u8],
    options: &ParseOptions,
    shapes: &mut ShapeCache,
) -> Result<Value, ParseError> {
    if let Some(limit) = options.max_len
        && bytes.len() > limit
    {
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
    let mut buffers = Buffers::take();
    let mut parser = Reader {
        bytes,
        // One check of the whole input, usually far faster per byte than
        // one per string; when it fails, each string is checked on its own
        // so that the error is the same as it always was.
        text: std::str::from_utf8(bytes).ok(),
        pos: 0,
        options,
        values: std::mem::take(&mut buffers.values),
        objects: Objects {
            keys: std::mem::take(&mut buffers.keys),
            shapes,
        },
        scratch: std::mem::take(&mut buffers.text),
    };
    let result = parser.parse(&mut buffers.frames);
    buffers.values = parser.values;
    buffers.keys = parser.objects.keys;
    buffers.text = parser.scratch;
    buffers.give_back();
    result
}

/// The growable buffers of a parse (the stacks of open containers, their
/// elements and keys, the unescaped text), which each thread keeps, empty,
/// for its next parse: growing them again on every call is a large share
/// of parsing a small input, mostly in the allocator's consolidation of
/// freed blocks once one of them passes 1 KB. What a
/// thread keeps is bounded: past [`KEEP`] bytes, a buffer is shrunk before
/// it is kept.
#[derive(Default)]
struct Buffers {
    values: Vec<Value>,
    keys: Vec<Key>,
    frames: Vec<Frame>,
    text: String,
}

/// The most bytes each buffer of [`Buffers`] keeps between parses.
const KEEP: usize = 16 * 1024;

thread_local! {
    static BUFFERS: std::cell::Cell<Buffers> = const {
        std::cell::Cell::new(Buffers {
            values: Vec::new(),
            keys: Vec::new(),
            frames: Vec::new(),
            text: String::new(),
        })
    };
}

impl Buffers {
    /// This thread's buffers, or new ones (while the thread is exiting).
    fn take() -> Buffers {
        BUFFERS.try_with(std::cell::Cell::take).unwrap_or_default()
    }

    /// Empties the buffers and keeps them for this thread's next parse.
    fn give_back(mut self) {
        fn trim<T>(buffer: &mut Vec<T>) {
            buffer.clear();
            buffer.shrink_to(KEEP / size_of::<T>().max(1));
        }
        trim(&mut self.values);
        trim(&mut self.keys);
        trim(&mut self.frames);
        self.text.clear();
        self.text.shrink_to(KEEP);
        let _ = BUFFERS.try_with(|kept| kept.set(self));
    }
}

/// An array or object still open.
enum Frame {
    /// Its elements so far are `Reader::values[start..]`.
    Array {
        start: usize,
    },
    Object(ObjectFrame),
}

/// An open object.
struct ObjectFrame {
    /// Its values so far are `Reader::values[start..]`.
    start: usize,
    /// The shape that every key so far has matched, in order, while they
    /// do: then the object has stored no key of its own.
    shape: Option<Arc<Shape>>,
    /// Once the keys leave the shape, they are `Objects::keys[keys_start..]`.
    keys_start: usize,
    /// The number of members so far.
    len: usize,
    /// The hash of the first key: where the object's shape is filed.
    first_hash: u64,
    /// The key read last, waiting for its value.
    key: PendingKey,
    /// A one-word filter of the object's own keys (a bit per key, chosen
    /// by its hash): a key whose bit is clear is new without a search,
    /// which is most keys of the objects that follow no shape.
    seen: u64,
    /// Past [`INDEX_ABOVE`] own keys, a hash index of them, which then
    /// becomes the finished map's or shape's.
    index: Option<KeyIndex>,
}

/// A key read, waiting for its value.
struct PendingKey {
    /// `None` when the key is the next one of the object's shape.
    key: Option<Key>,
    hash: u64,
    /// Where the key starts, for a duplicate key's error.
    at: usize,
}

/// Where the text of a string just read is.
enum Text<'a> {
    /// In the input: the string had no escapes.
    Input(&'a str),
    /// In `Reader::scratch`, unescaped.
    Scratch,
}

struct Reader<'a> {
    bytes: &'a [u8],
    /// The input as text, when all of it is UTF-8.
    text: Option<&'a str>,
    pos: usize,
    options: &'a ParseOptions,
    /// The elements of every open array and the values of every open
    /// object, outermost first. A container that
    /// closes moves its own into a `Vec` of exactly their number
    /// (`split_off` copies them into an exact allocation), so no array of
    /// the value has spare capacity, and this one buffer is reused by
    /// every array of the input.
    values: Vec<Value>,
    objects: Objects<'a>,
    /// The unescaped text of the last string that had escapes.
    scratch: String,
}

impl<'a> Reader<'a> {
    /// Parses the input, with `stack` (empty) for the open containers.
    fn parse(&mut self, stack: &mut Vec<Frame>) -> Result<Value, ParseError> {
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
                        stack.push(Frame::Array {
                            start: self.values.len(),
                        });
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
                        let mut frame = ObjectFrame {
                            start: self.values.len(),
                            shape: None,
                            keys_start: self.objects.keys.len(),
                            len: 0,
                            first_hash: 0,
                            key: PendingKey {
                                key: None,
                                hash: 0,
                                at: 0,
                            },
                            seen: 0,
                            index: None,
                        };
                        self.key(&mut frame)?;
                        stack.push(Frame::Object(frame));
                        continue 'value;
                    }
                }
                Some(b'"') => Value::String(match self.string()? {
                    Text::Input(text) => text.to_owned(),
                    Text::Scratch => self.scratch.as_str().to_owned(),
                }),
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
                    Some(Frame::Array { start }) => {
                        let start = *start;
                        self.values.push(value);
                        self.skip_ws();
                        match self.peek() {
                            Some(b',') => {
                                self.pos += 1;
                                continue 'value;
                            }
                            Some(b']') => {
                                self.pos += 1;
                                stack.pop();
                                value = Value::Array(self.values.split_off(start));
                            }
                            _ => return Err(self.unexpected("`,` or `]`")),
                        }
                    }
                    Some(Frame::Object(frame)) => {
                        self.add_member(frame, value)?;
                        self.skip_ws();
                        match self.peek() {
                            Some(b',') => {
                                self.pos += 1;
                                self.skip_ws();
                                self.key(frame)?;
                                continue 'value;
                            }
                            Some(b'}') => {
                                self.pos += 1;
                                let Some(Frame::Object(frame)) = stack.pop() else {
                                    unreachable!("the top frame is an object")
                                };
                                let (start, keys_start) = (frame.start, frame.keys_start);
                                value = Value::Object(match self.objects.close(frame) {
                                    Closed::Shaped(shape) => {
                                        let values = self.values.split_off(start);
                                        Map::shaped(shape, values.into_boxed_slice())
                                    }
                                    Closed::Own(index) => {
                                        // One exact allocation of entries.
                                        let keys = self.objects.keys.drain(keys_start..);
                                        let values = self.values.drain(start..);
                                        Map::from_parts(keys.zip(values), index)
                                    }
                                });
                            }
                            _ => return Err(self.unexpected("`,` or `}`")),
                        }
                    }
                }
            }
        }
    }

    /// Adds the frame's pending key with `value` to its members, or finds
    /// that the key is already there and applies the duplicate policy.
    fn add_member(&mut self, frame: &mut ObjectFrame, value: Value) -> Result<(), ParseError> {
        let Some(key) = frame.key.key.take() else {
            // The next key of the shape: distinct from the ones before.
            self.values.push(value);
            frame.len += 1;
            return Ok(());
        };
        let bit = 1u64 << (frame.key.hash >> 58);
        let keys = &self.objects.keys[frame.keys_start..];
        let is_key = |at: usize| keys.get(at).is_some_and(|k| **k == *key);
        let (existing, index_hash) = match &frame.index {
            Some(index) => {
                let hash = index.hash(&key);
                (index.find(hash, is_key), hash)
            }
            None if frame.seen & bit == 0 => (None, 0),
            None => ((0..keys.len()).find(|&at| is_key(at)), 0),
        };
        if let Some(at) = existing {
            if self.options.duplicate_keys == DuplicateKeys::Reject {
                let key = String::from(key);
                return Err(self.error_at(frame.key.at, ParseErrorKind::DuplicateKey { key }));
            }
            self.values[frame.start + at] = value;
            return Ok(());
        }
        self.objects.keys.push(key);
        self.values.push(value);
        frame.len += 1;
        let keys = &self.objects.keys[frame.keys_start..];
        match &mut frame.index {
            Some(index) => index.push(index_hash, keys.len() - 1),
            None if keys.len() > INDEX_ABOVE => {
                frame.index = Some(KeyIndex::build(keys.iter().map(|k| &**k)));
            }
            None => frame.seen |= bit,
        }
        Ok(())
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

    /// Reads `"key"` then `:`, the frame's next key.
    fn key(&mut self, frame: &mut ObjectFrame) -> Result<(), ParseError> {
        if self.peek() != Some(b'"') {
            return Err(self.unexpected("a string key"));
        }
        let at = self.pos;
        let text = match self.string()? {
            Text::Input(text) => text,
            Text::Scratch => self.scratch.as_str(),
        };
        self.objects.key(frame, text, at);
        self.skip_ws();
        if self.peek() != Some(b':') {
            return Err(self.unexpected("`:`"));
        }
        self.pos += 1;
        Ok(())
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

    /// Reads a number: integers that fit 64 bits as integers, anything
    /// else as its text, checked against the grammar in the same pass.
    fn number(&mut self) -> Result<Number, ParseError> {
        let bytes = self.bytes;
        let start = self.pos;
        let mut i = start;
        let negative = bytes.get(i) == Some(&b'-');
        if negative {
            i += 1;
        }
        // The integer part's value, while it fits.
        let mut magnitude: Option<u64> = Some(0);
        match bytes.get(i) {
            Some(b'0') => i += 1,
            Some(b'1'..=b'9') => {
                while let Some(&digit @ b'0'..=b'9') = bytes.get(i) {
                    magnitude = magnitude
                        .and_then(|m| m.checked_mul(10))
                        .and_then(|m| m.checked_add(u64::from(digit - b'0')));
                    i += 1;
                }
            }
            _ => return Err(self.invalid_number()),
        }
        let mut is_integer = true;
        if bytes.get(i) == Some(&b'.') {
            is_integer = false;
            i += 1;
            i = match digits_end(bytes, i) {
                end if end > i => end,
                _ => return Err(self.invalid_number()),
            };
        }
        if matches!(bytes.get(i), Some(b'e' | b'E')) {
            is_integer = false;
            i += 1;
            if matches!(bytes.get(i), Some(b'+' | b'-')) {
                i += 1;
            }
            i = match digits_end(bytes, i) {
                end if end > i => end,
                _ => return Err(self.invalid_number()),
            };
        }
        // A digit right after a complete number is a leading zero (`01`).
        if matches!(bytes.get(i), Some(b'0'..=b'9')) {
            return Err(self.error_at(i, ParseErrorKind::InvalidNumber));
        }
        self.pos = i;
        match (is_integer, negative, magnitude) {
            (true, false, Some(m)) => return Ok(Number::from(m)),
            // `-0` is not the integer 0: it keeps its sign as text.
            (true, true, Some(m @ 1..=0x8000_0000_0000_0000)) => {
                return Ok(Number::from((m as i64).wrapping_neg()));
            }
            _ => {}
        }
        // The grammar only admits ASCII, so this cannot fail.
        let text = std::str::from_utf8(&bytes[start..i]).unwrap_or_default();
        Ok(Number::from_grammar_text(text))
    }

    /// A number that breaks the grammar: the error points past the run of
    /// characters numbers are made of.
    fn invalid_number(&self) -> ParseError {
        let rest = &self.bytes[self.pos..];
        let good = rest
            .iter()
            .take_while(|b| matches!(b, b'-' | b'0'..=b'9' | b'.' | b'e' | b'E' | b'+'))
            .count();
        self.error_at(self.pos + good, ParseErrorKind::InvalidNumber)
    }

    /// Reads a string starting at its opening quote. The text is a slice of
    /// the input when the string has no escapes (checked for UTF-8 once, as
    /// a whole), or else unescaped into `self.scratch`.
    fn string(&mut self) -> Result<Text<'a>, ParseError> {
        self.pos += 1;
        let start = self.pos;
        self.pos = string_stop(self.bytes, start);
        match self.peek() {
            Some(b'"') => {
                let text = self.utf8(start, self.pos)?;
                self.pos += 1;
                return Ok(Text::Input(text));
            }
            Some(b'\\') => {}
            Some(b) => return Err(self.control_character(b)),
            None => return Err(self.error(ParseErrorKind::Eof { expected: "`\"`" })),
        }
        self.scratch.clear();
        let mut run_start = start;
        loop {
            let run = self.utf8(run_start, self.pos)?;
            self.scratch.push_str(run);
            match self.peek() {
                Some(b'"') => {
                    self.pos += 1;
                    return Ok(Text::Scratch);
                }
                Some(b'\\') => {
                    self.pos += 1;
                    self.escape()?;
                }
                Some(b) => return Err(self.control_character(b)),
                None => return Err(self.error(ParseErrorKind::Eof { expected: "`\"`" })),
            }
            run_start = self.pos;
            self.pos = string_stop(self.bytes, run_start);
        }
    }

    /// Reads the escape after a backslash into `self.scratch`.
    fn escape(&mut self) -> Result<(), ParseError> {
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
                self.scratch.push(c);
                return Ok(());
            }
            None => {
                return Err(self.error(ParseErrorKind::Eof {
                    expected: "an escape",
                }));
            }
            Some(_) => return Err(self.error_at(self.pos - 1, ParseErrorKind::InvalidEscape)),
        };
        self.pos += 1;
        self.scratch.push(c);
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
                    }));
                }
                Some(_) => return Err(self.unexpected("a hex digit")),
            };
            v = v * 16 + u16::from(digit);
            self.pos += 1;
        }
        Ok(v)
    }

    /// The text of `bytes[start..end]`, a run of string content between
    /// ASCII delimiters.
    fn utf8(&self, start: usize, end: usize) -> Result<&'a str, ParseError> {
        if let Some(text) = self.text.and_then(|text| text.get(start..end)) {
            return Ok(text);
        }
        let bytes: &'a [u8] = self.bytes;
        std::str::from_utf8(&bytes[start..end])
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

impl fmt::Debug for Reader<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Reader").field("pos", &self.pos).finish()
    }
}

/// The position of the first byte at or after `from` that ends a run of
/// plain string text: `"`, `\\`, a control character (below U+0020), or
/// the end of the input.
///
/// Eight bytes at a time (SWAR): each test below flags the bytes of a word
/// that match, exactly up to the first match (a borrow may flag bytes after
/// it, never before), so the lowest flag of the three is the first stop.
/// Strings are most of a JSON document's bytes, so this loop is much of
/// a parse's work.
fn string_stop(bytes: &[u8], from: usize) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let mut i = from;
    while let Some(word) = bytes.get(i..i + 8) {
        let Ok(word) = <[u8; 8]>::try_from(word) else {
            break;
        };
        let w = u64::from_le_bytes(word);
        let quote = w ^ (ONES * u64::from(b'"'));
        let backslash = w ^ (ONES * u64::from(b'\\'));
        let stops = (quote.wrapping_sub(ONES) & !quote)
            | (backslash.wrapping_sub(ONES) & !backslash)
            | (w.wrapping_sub(ONES * 0x20) & !w);
        let stops = stops & HIGHS;
        if stops != 0 {
            return i + (stops.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    while let Some(&b) = bytes.get(i) {
        if b == b'"' || b == b'\\' || b < 0x20 {
            break;
        }
        i += 1;
    }
    i
}

/// The end of the run of ASCII digits that starts at `i` (`i` itself when
/// there is none): a fraction's or an exponent's digits, at least one of
/// which the grammar wants.
#[inline]
fn digits_end(bytes: &[u8], mut i: usize) -> usize {
    while matches!(bytes.get(i), Some(b'0'..=b'9')) {
        i += 1;
    }
    i
}

/// What the parser keeps about objects across the input: the keys of the
/// open objects that follow no shape, and the recent shapes, so that
/// objects with the same keys share one.
///
/// Keys of objects that follow no shape are boxed one by one. They are
/// mostly distinct (a configuration's sections, a map keyed by name, the
/// first record of a series); sharing them through a cache of
/// reference-counted keys costs more (two atomic operations per key, and
/// per member at drop) than an allocation each.
struct Objects<'a> {
    /// The own keys of every open object that left its shape, outermost
    /// first (see `ObjectFrame::keys_start`).
    keys: Vec<Key>,
    shapes: &'a mut ShapeCache,
}

impl Objects<'_> {
    /// Takes `text`, read at byte `at`, as the frame's next key: the next
    /// key of its shape when it is that, or else a key of its own.
    fn key(&mut self, frame: &mut ObjectFrame, text: &str, at: usize) {
        frame.key.at = at;
        if frame.len == 0 {
            // The first key picks the shape the object may follow.
            frame.first_hash = key_hash(text.as_bytes());
            frame.shape = self.shapes.find(frame.first_hash, text);
            if frame.shape.is_some() {
                frame.key.key = None;
                return;
            }
        } else if let Some(shape) = &frame.shape {
            let is_next = |shape: &Shape| shape.keys().get(frame.len).is_some_and(|k| **k == *text);
            if is_next(shape) {
                frame.key.key = None;
                return;
            }
            // Another shape of the same first key, which the keys so far
            // also match (records with and without an optional member).
            let other = self.shapes.other(frame.first_hash, shape, frame.len);
            if let Some(other) = other.filter(|other| is_next(other)) {
                frame.shape = Some(other);
                frame.key.key = None;
                return;
            }
            self.leave_shape(frame);
        }
        frame.key.key = Some(Key::Boxed(text.into()));
        frame.key.hash = key_hash(text.as_bytes());
    }

    /// Gives the frame its own copy of the keys it matched so far.
    fn leave_shape(&mut self, frame: &mut ObjectFrame) {
        let Some(shape) = frame.shape.take() else {
            return;
        };
        let matched = &shape.keys()[..frame.len.min(shape.keys().len())];
        for key in matched {
            frame.seen |= 1u64 << (key_hash(key.as_bytes()) >> 58);
        }
        self.keys.extend_from_slice(matched);
        if matched.len() > INDEX_ABOVE {
            frame.index = Some(KeyIndex::build(matched.iter().map(|k| &**k)));
        }
    }

    /// The keys of the object that the frame finished: the shape it
    /// matched to the end; or its own keys, as a new shape filed for the
    /// objects after it when an object with the same first key came before
    /// it (a record of a series), or else kept by the object alone (a
    /// shape costs two more allocations, which objects of their own kind,
    /// such as the sections of a configuration, would pay for nothing).
    fn close(&mut self, mut frame: ObjectFrame) -> Closed {
        let again = self.shapes.note_first_key(frame.first_hash);
        if let Some(shape) = frame.shape.take_if(|s| s.keys().len() == frame.len) {
            return Closed::Shaped(shape);
        }
        self.leave_shape(&mut frame);
        if !again {
            return Closed::Own(frame.index);
        }
        let keys = self.keys.split_off(frame.keys_start);
        let shape = Arc::new(Shape::new(keys, frame.index));
        self.shapes.file(frame.first_hash, &shape);
        Closed::Shaped(shape)
    }
}

/// The keys of a finished object.
enum Closed {
    /// A shape.
    Shaped(Arc<Shape>),
    /// Its own, distinct, still at `ObjectFrame::keys_start` of
    /// `Objects::keys`, with an index of them when it has one.
    Own(Option<KeyIndex>),
}

/// The recent shapes of one input, by the hash of their first key: two per
/// slot, the newest first, so that records that alternate between two
/// shapes (with and without an optional member) keep matching one. On the
/// stack, so that it costs no allocation per parse.
struct ShapeCache {
    slots: [[Option<Arc<Shape>>; 2]; SHAPE_SLOTS],
    /// The hash of the first key of the last object closed, per slot.
    first_keys: [u64; SHAPE_SLOTS],
}

/// The slots of the [`ShapeCache`], a power of two: a slot is the top bits
/// of a first key's hash.
const SHAPE_SLOTS: usize = 64;

/// The slot of a first key's hash.
fn shape_slot(first_hash: u64) -> usize {
    (first_hash >> (64 - SHAPE_SLOTS.trailing_zeros())) as usize
}

impl Default for ShapeCache {
    fn default() -> ShapeCache {
        ShapeCache {
            slots: [const { [None, None] }; SHAPE_SLOTS],
            first_keys: [0; SHAPE_SLOTS],
        }
    }
}

impl ShapeCache {
    /// Notes an object whose first key has the hash `first_hash`, and
    /// whether the last object of the same slot had the same first key.
    fn note_first_key(&mut self, first_hash: u64) -> bool {
        let last = &mut self.first_keys[shape_slot(first_hash)];
        std::mem::replace(last, first_hash) == first_hash
    }

    fn slot(&self, first_hash: u64) -> &[Option<Arc<Shape>>; 2] {
        &self.slots[shape_slot(first_hash)]
    }

    /// A shape whose first key is `first`, whose hash is `first_hash`.
    fn find(&self, first_hash: u64, first: &str) -> Option<Arc<Shape>> {
        self.slot(first_hash)
            .iter()
            .flatten()
            .find(|shape| shape.keys().first().is_some_and(|k| **k == *first))
            .cloned()
    }

    /// The other shape of `shape`'s slot, when its first `len` keys are
    /// `shape`'s.
    fn other(&self, first_hash: u64, shape: &Arc<Shape>, len: usize) -> Option<Arc<Shape>> {
        let prefix = shape.keys().get(..len)?;
        self.slot(first_hash)
            .iter()
            .flatten()
            .find(|other| {
                !Arc::ptr_eq(other, shape)
                    && other
                        .keys()
                        .get(..len)
                        .is_some_and(|keys| keys.iter().zip(prefix).all(|(a, b)| **a == **b))
            })
            .cloned()
    }

    /// Files a new shape, first in its slot.
    fn file(&mut self, first_hash: u64, shape: &Arc<Shape>) {
        let slot = &mut self.slots[shape_slot(first_hash)];
        slot[1] = slot[0].take();
        slot[0] = Some(Arc::clone(shape));
    }
}

/// A fast hash of a key's text (FxHash's rotate, xor and multiply, over
/// 8-byte words), for the shape cache and an object's seen-keys filter,
/// where collisions only cost a miss or a search. Hash tables of untrusted keys
/// use SipHash ([`KeyIndex`]).
fn key_hash(bytes: &[u8]) -> u64 {
    const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;
    let mut hash = bytes.len() as u64;
    let mut words = bytes.chunks_exact(8);
    for word in &mut words {
        let word = <[u8; 8]>::try_from(word).map_or(0, u64::from_le_bytes);
        hash = (hash.rotate_left(5) ^ word).wrapping_mul(SEED);
    }
    let rest = words.remainder();
    if !rest.is_empty() {
        let mut word = [0; 8];
        word[..rest.len()].copy_from_slice(rest);
        hash = (hash.rotate_left(5) ^ u64::from_le_bytes(word)).wrapping_mul(SEED);
    }
    hash
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The shapes of the objects of `value`'s array.
    fn shapes(value: &Value) -> Vec<Option<Arc<Shape>>> {
        value
            .as_array()
            .unwrap()
            .iter()
            .map(|row| row.as_object().unwrap().shape().cloned())
            .collect()
    }

    /// Records parsed one at a time by one parser share one key list, as
    /// the records of one input do; parsed alone, each keeps its own.
    #[test]
    fn a_parser_shares_key_lists_across_inputs() {
        let record = |i: usize| format!(r#"{{"id":{i},"name":"n{i}","tags":[{{"k":{i}}}]}}"#);
        let whole = from_str(&format!("[{},{},{}]", record(1), record(2), record(3))).unwrap();
        let whole = shapes(&whole);
        assert!(whole[1].is_some());
        assert!(Arc::ptr_eq(
            whole[1].as_ref().unwrap(),
            whole[2].as_ref().unwrap()
        ));

        let mut parser = ParseOptions::new().parser();
        let rows: Vec<Value> = (1..=4)
            .map(|i| parser.parse(record(i).as_bytes()).unwrap())
            .collect();
        let parsed = shapes(&Value::Array(rows.clone()));
        // The first record is the first of its kind (its keys its own),
        // the second files its keys for the records after it.
        assert!(parsed[0].is_none());
        let shared = parsed[1].as_ref().unwrap();
        for shape in &parsed[2..] {
            assert!(Arc::ptr_eq(shared, shape.as_ref().unwrap()));
        }
        // Nested objects too: each row's `tags` is an object series of one.
        let tags: Vec<Value> = rows.iter().map(|row| row["tags"][0].clone()).collect();
        let tags = shapes(&Value::Array(tags));
        assert!(Arc::ptr_eq(
            tags[2].as_ref().unwrap(),
            tags[3].as_ref().unwrap()
        ));

        for i in 1..=3 {
            let alone = from_str(&record(i)).unwrap();
            assert!(alone.as_object().unwrap().shape().is_none());
        }
    }
}

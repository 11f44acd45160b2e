//! The rows of a JSON document, one at a time, in memory bounded by the
//! largest row: for `render` and `serve` of inputs too large to hold.
//!
//! A document is rows when its top level is an array (`[row, ...]`), or an
//! object whose one member is (`{"rows": [row, ...]}`, the shape of most
//! exports). [`RowReader`] reads its source through a window: it finds
//! each row's extent with a scan that knows only strings, escapes and
//! brackets, then parses just that slice with one [`Parser`] for all the
//! rows (records with the same keys share one key list, as in a whole
//! parse), so every row gets the parser's own checks and errors. Errors name the
//! line and column in the whole input, and the depth limit counts the
//! containers around a row, as if the document were parsed whole. Only
//! two errors are the reader's own: a second member after the rows
//! (`{"rows": [...], "total": 3}` is a document, but not rows: whatever
//! was written before it cannot be taken back), and what follows the
//! rows' array where the grammar wants `,`, `]` or `}`.
//!
//! The window holds the row being read and what was read after it, at
//! least [`READ`] bytes: rows are never copied again once parsed, and
//! bytes move within the window at most once per read. An unterminated
//! string in a compact file (no line break for the scan to stop at) is an
//! extent that runs to the end of the input, read whole before the parser
//! reports it.

use std::io::Read;

use codec_core::{
    Value,
    json::{ParseErrorKind, ParseOptions, Parser},
    value::DEFAULT_MAX_DEPTH,
};

use crate::error::CliError;

/// How much the window reads from its source at a time.
pub(crate) const READ: usize = 64 * 1024;

/// Where the rows are: the shape of the document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Rows {
    /// The document is the array of rows.
    Array,
    /// The rows are the array of the document's first member, this key.
    Member(String),
}

/// Reads the rows of a document from `source`, one at a time.
pub(crate) struct RowReader<R> {
    source: R,
    /// What was read is `window[..end]`; what is not yet consumed starts
    /// at `start`. The bytes after `end` are room for the next read,
    /// zeroed once when the window grows.
    window: Vec<u8>,
    start: usize,
    end: usize,
    /// The source is exhausted.
    eof: bool,
    /// Whether consumed bytes may be dropped: not before the document is
    /// known to be rows, as one that is not is given back whole.
    compact: bool,
    /// Line (1-based) and column (1-based, in characters) of
    /// `window[counted]`: the bytes from there to `start` are counted
    /// only when a position is needed or the window drops them ([`settle`],
    /// in bulk, not a count per row).
    ///
    /// [`settle`]: RowReader::settle
    line: usize,
    column: usize,
    counted: usize,
    /// The byte offset of `window[start]` in the input.
    offset: u64,
    name: String,
    shape: Rows,
    /// The rows' parser, its depth limit less the containers around a
    /// row. Kept across rows: a parser per row boxed every key of every
    /// record (see `open`).
    parser: Parser,
    state: State,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    /// Before the first row.
    First,
    /// After a row.
    Next,
    /// After the last row and the document's end.
    Done,
}

/// What a look at the start of a source found.
pub(crate) enum Opened<R> {
    /// Rows: a reader positioned at the first one.
    Rows(RowReader<R>),
    /// Not rows: every byte read so far, and the rest of the source.
    Other(Vec<u8>, R),
}

impl<R: Read> RowReader<R> {
    /// Looks at the start of `source` (named `name` in errors): a reader
    /// of its rows when it is rows, else what was read, to be read whole.
    pub(crate) fn open(source: R, name: &str) -> Result<Opened<R>, CliError> {
        let mut reader = RowReader {
            source,
            window: Vec::new(),
            start: 0,
            end: 0,
            eof: false,
            compact: false,
            line: 1,
            column: 1,
            counted: 0,
            offset: 0,
            name: name.to_owned(),
            shape: Rows::Array,
            parser: ParseOptions::new().parser(),
            state: State::First,
        };
        match reader.head()? {
            Some(shape) => {
                let outer = match shape {
                    Rows::Array => 1,
                    Rows::Member(_) => 2,
                };
                reader.parser = ParseOptions::new()
                    .max_depth(DEFAULT_MAX_DEPTH - outer)
                    .parser();
                reader.shape = shape;
                reader.compact = true;
                Ok(Opened::Rows(reader))
            }
            None => {
                reader.window.truncate(reader.end);
                Ok(Opened::Other(reader.window, reader.source))
            }
        }
    }

    /// The shape of the document.
    pub(crate) fn shape(&self) -> &Rows {
        &self.shape
    }

    /// The next row, or `None` after the last.
    pub(crate) fn next_row(&mut self) -> Result<Option<Value>, CliError> {
        if self.state == State::Done {
            return Ok(None);
        }
        self.skip_ws()?;
        if self.state == State::Next {
            match self.peek()? {
                Some(b',') => {
                    self.consume(1);
                    self.skip_ws()?;
                }
                Some(b']') => {
                    self.consume(1);
                    self.end()?;
                    return Ok(None);
                }
                _ => return Err(self.unexpected("`,` or `]`")),
            }
        } else if self.peek()? == Some(b']') {
            self.consume(1);
            self.end()?;
            return Ok(None);
        }
        self.state = State::Next;
        let len = self.extent()?;
        if len == 0 {
            return Err(self.unexpected("a value"));
        }
        // The byte after the row (the row's scan ended there), and the
        // character it starts, for an error there.
        let after = self.byte(len)?;
        self.byte(len + 3)?;
        if self.start + len > self.end {
            // Unreachable: the scan read every byte of the row.
            return Err(self.unexpected("a value"));
        }
        let parsed = self
            .parser
            .parse(&self.window[self.start..self.start + len]);
        if parsed.is_err() {
            self.settle();
        }
        let bytes = &self.window[self.start..self.start + len];
        let row = parsed.map_err(|e| {
            let kind = match e.kind() {
                ParseErrorKind::DepthLimit { .. } => ParseErrorKind::DepthLimit {
                    limit: DEFAULT_MAX_DEPTH,
                },
                // More after a whole row: in the array, the grammar wants
                // a separator there.
                ParseErrorKind::TrailingCharacters => match first_char(&bytes[e.offset()..]) {
                    Some(found) => ParseErrorKind::Unexpected {
                        expected: "`,` or `]`",
                        found,
                    },
                    None => ParseErrorKind::InvalidUtf8,
                },
                // The row's slice ended where the input goes on: the
                // parser of the whole input finds what is there.
                ParseErrorKind::Eof { expected } if after.is_some() => {
                    match first_char(&self.window[self.start + len..self.end]) {
                        Some(found) => ParseErrorKind::Unexpected { expected, found },
                        None => ParseErrorKind::InvalidUtf8,
                    }
                }
                kind => kind.clone(),
            };
            let (line, column) = if e.line() == 1 {
                (self.line, self.column + e.column() - 1)
            } else {
                (self.line + e.line() - 1, e.column())
            };
            CliError::Json {
                input: self.name.clone(),
                line,
                column,
                kind,
            }
        })?;
        self.consume(len);
        Ok(Some(row))
    }

    /// Reads the document's start: `[`, or `{"key": [`. `None` when the
    /// document is something else (then nothing was consumed).
    fn head(&mut self) -> Result<Option<Rows>, CliError> {
        self.skip_ws()?;
        match self.peek()? {
            Some(b'[') => {
                self.consume(1);
                Ok(Some(Rows::Array))
            }
            Some(b'{') => {
                // Looked at without consuming: a document that is not
                // rows is read whole, from its first byte.
                let key_at = self.ws_from(1)?;
                if self.byte(key_at)? != Some(b'"') {
                    return Ok(None);
                }
                let Ok(end) = self.string_end(key_at)? else {
                    return Ok(None);
                };
                let colon = self.ws_from(end)?;
                if self.byte(colon)? != Some(b':') {
                    return Ok(None);
                }
                let open = self.ws_from(colon + 1)?;
                if self.byte(open)? != Some(b'[') {
                    return Ok(None);
                }
                let key = &self.window[self.start + key_at..self.start + end];
                let key = match codec_core::from_slice(key) {
                    Ok(Value::String(key)) => key,
                    _ => return Ok(None),
                };
                self.consume(open + 1);
                Ok(Some(Rows::Member(key)))
            }
            _ => Ok(None),
        }
    }

    /// After the rows' `]`: `}` for a member, then only whitespace.
    fn end(&mut self) -> Result<(), CliError> {
        self.state = State::Done;
        if let Rows::Member(key) = &self.shape {
            let key = key.clone();
            self.skip_ws()?;
            match self.peek()? {
                Some(b'}') => self.consume(1),
                Some(b',') => {
                    self.settle();
                    return Err(CliError::Input(format!(
                        "{}:{}:{}: cannot stream this document: a member follows {key:?}, \
                         whose rows were already written (`--stream never` reads it whole)",
                        self.name, self.line, self.column
                    )));
                }
                _ => return Err(self.unexpected("`,` or `}`")),
            }
        }
        self.skip_ws()?;
        if self.peek()?.is_some() {
            return Err(self.error(ParseErrorKind::TrailingCharacters));
        }
        Ok(())
    }

    /// The length of the row at the current position: up to the `,`, `]`
    /// or whitespace after a scalar, or the bracket that closes a
    /// container. A scan that finds the grammar broken stops there, and
    /// the parser reports it.
    fn extent(&mut self) -> Result<usize, CliError> {
        let mut at = 0;
        let mut depth = 0usize;
        // Inside a string: `Some(escaped)`, whether the byte before was an
        // unescaped `\`.
        let mut string: Option<bool> = None;
        loop {
            if self.byte(at)?.is_none() {
                // The end of the input: the parser says what is missing.
                return Ok(at);
            }
            // The bytes read so far, scanned in place, not with a call per
            // byte.
            let window = &self.window[self.start + at..self.end];
            let mut i = 0;
            while let Some(&b) = window.get(i) {
                if let Some(escaped) = string {
                    if !escaped {
                        // Most bytes are a string's: skip to the next
                        // one that matters in a tight loop.
                        let rest = &window[i..];
                        match rest
                            .iter()
                            .position(|&b| b == b'"' || b == b'\\' || b < 0x20)
                        {
                            Some(skip) => i += skip,
                            None => {
                                i = window.len();
                                continue;
                            }
                        }
                    }
                    let b = window[i];
                    string = match b {
                        _ if escaped => Some(false),
                        b'"' => None,
                        b'\\' => Some(true),
                        // A raw control character: the parser says what
                        // is wrong there.
                        _ => return Ok(at + i + 1),
                    };
                    i += 1;
                    continue;
                }
                match b {
                    b'"' => string = Some(false),
                    b'[' | b'{' => depth += 1,
                    b']' | b'}' if depth > 0 => {
                        depth -= 1;
                        if depth == 0 {
                            return Ok(at + i + 1);
                        }
                    }
                    b',' | b']' | b'}' | b' ' | b'\n' | b'\r' | b'\t' if depth == 0 => {
                        return Ok(at + i);
                    }
                    _ => {}
                }
                i += 1;
            }
            at += window.len();
        }
    }

    /// The position after the string that opens at `at`; `Err` with
    /// where it broke: a raw control character, or the end of the input.
    fn string_end(&mut self, at: usize) -> Result<Result<usize, usize>, CliError> {
        let mut i = at + 1;
        loop {
            match self.byte(i)? {
                Some(b'"') => return Ok(Ok(i + 1)),
                Some(b'\\') => i += 2,
                Some(0..=0x1f) | None => return Ok(Err(i)),
                Some(_) => i += 1,
            }
        }
    }

    /// The byte `at` bytes past the current position, reading more when
    /// needed; `None` at the end of the input. Positions are relative to
    /// the current one, which a read may move within the window.
    fn byte(&mut self, at: usize) -> Result<Option<u8>, CliError> {
        while self.start + at >= self.end && !self.eof {
            self.fill()?;
        }
        Ok(self.window[..self.end].get(self.start + at).copied())
    }

    fn peek(&mut self) -> Result<Option<u8>, CliError> {
        self.byte(0)
    }

    /// The first position at or after `at` that is not whitespace.
    fn ws_from(&mut self, mut at: usize) -> Result<usize, CliError> {
        while let Some(b' ' | b'\n' | b'\r' | b'\t') = self.byte(at)? {
            at += 1;
        }
        Ok(at)
    }

    fn skip_ws(&mut self) -> Result<(), CliError> {
        let at = self.ws_from(0)?;
        self.consume(at);
        Ok(())
    }

    /// Reads more of the source into the window, first dropping what was
    /// consumed when that is most of the window.
    fn fill(&mut self) -> Result<(), CliError> {
        if self.compact && self.start > 0 && self.start >= self.end / 2 {
            self.settle();
            self.counted = 0;
            self.window.copy_within(self.start..self.end, 0);
            self.end -= self.start;
            self.start = 0;
        }
        if self.window.len() - self.end < READ {
            self.window.resize(self.end + READ, 0);
        }
        let read = loop {
            match self.source.read(&mut self.window[self.end..]) {
                Ok(n) => break n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(source) => {
                    return Err(CliError::Read {
                        path: self.name.clone().into(),
                        source,
                    });
                }
            }
        };
        self.end += read;
        self.eof = read == 0;
        Ok(())
    }

    /// Moves past `len` bytes (their lines and columns counted later).
    fn consume(&mut self, len: usize) {
        self.offset += len as u64;
        self.start += len;
    }

    /// Counts the lines and columns of the bytes consumed since the last
    /// count: `line` and `column` are then `window[start]`'s.
    fn settle(&mut self) {
        let bytes = &self.window[self.counted..self.start];
        // Two counts that compile to vector loops; the search for the
        // last line break (a byte at a time) only when there is one: a
        // compact file is one line, which that search would read back to
        // its start every time.
        let lines = count(bytes, |b| b == b'\n');
        let last = match lines {
            0 => None,
            _ => bytes.iter().rposition(|&b| b == b'\n'),
        };
        match last {
            Some(last) => {
                self.line += lines;
                self.column = 1 + chars(&bytes[last + 1..]);
            }
            None => self.column += chars(bytes),
        }
        self.counted = self.start;
    }

    /// The grammar wanted `expected` at the current position.
    fn unexpected(&mut self, expected: &'static str) -> CliError {
        // The whole character, when it is one.
        if let Err(error) = self.byte(3) {
            return error;
        }
        let found = first_char(&self.window[self.start..self.end]);
        let kind = match (self.window[..self.end].get(self.start), found) {
            (None, _) => ParseErrorKind::Eof { expected },
            (Some(_), Some(found)) => ParseErrorKind::Unexpected { expected, found },
            (Some(_), None) => ParseErrorKind::InvalidUtf8,
        };
        self.error(kind)
    }

    fn error(&mut self, kind: ParseErrorKind) -> CliError {
        self.settle();
        CliError::Json {
            input: self.name.clone(),
            line: self.line,
            column: self.column,
            kind,
        }
    }
}

/// The character `bytes` start with, when they start with one.
fn first_char(bytes: &[u8]) -> Option<char> {
    bytes
        .utf8_chunks()
        .next()
        .and_then(|chunk| chunk.valid().chars().next())
}

/// Characters in UTF-8 bytes: every byte that does not continue a
/// sequence starts one (as the parser counts columns).
fn chars(bytes: &[u8]) -> usize {
    count(bytes, |b| b & 0xC0 != 0x80)
}

/// The bytes for which `is` holds, counted in a `u8` per 255 bytes: a
/// vector loop of 32 bytes a step, where a `usize` count (`filter().count()`)
/// widens every byte.
fn count(bytes: &[u8], is: impl Fn(u8) -> bool) -> usize {
    bytes
        .chunks(255)
        .map(|chunk| {
            let n = chunk.iter().fold(0u8, |n, &b| n + u8::from(is(b)));
            usize::from(n)
        })
        .sum()
}

impl<R> std::fmt::Debug for RowReader<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RowReader")
            .field("name", &self.name)
            .field("shape", &self.shape)
            .field("line", &self.line)
            .field("column", &self.column)
            .field("window", &self.end)
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reads `json` with a window that gets one byte per read, so that
    /// every row and string crosses a read.
    struct Trickle<'a>(&'a [u8]);

    impl Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let Some((&first, rest)) = self.0.split_first() else {
                return Ok(0);
            };
            buf[0] = first;
            self.0 = rest;
            Ok(1)
        }
    }

    /// The shape and rows of `json`, or the reader's error.
    type ReadAll = Result<(Rows, Vec<Value>), String>;

    fn read_all(json: &str, trickle: bool) -> ReadAll {
        let source: Box<dyn Read> = if trickle {
            Box::new(Trickle(json.as_bytes()))
        } else {
            Box::new(json.as_bytes())
        };
        let mut reader = match RowReader::open(source, "in.json").map_err(|e| e.to_string())? {
            Opened::Rows(reader) => reader,
            Opened::Other(..) => return Err("not rows".into()),
        };
        let mut rows = Vec::new();
        while let Some(row) = reader.next_row().map_err(|e| e.to_string())? {
            rows.push(row);
        }
        Ok((reader.shape().clone(), rows))
    }

    /// Whether `read` is `expected` exactly: each row in its own key
    /// order, numbers' text included (`==` compares objects in any order,
    /// and the reader's parser shares key lists across rows).
    fn same_read(read: &ReadAll, expected: &ReadAll) -> bool {
        match (read, expected) {
            (Ok((shape, rows)), Ok((expected_shape, expected_rows))) => {
                shape == expected_shape
                    && rows.len() == expected_rows.len()
                    && rows.iter().zip(expected_rows).all(|(a, b)| a.identical(b))
            }
            _ => read == expected,
        }
    }

    #[test]
    fn reads_the_rows_that_the_parser_reads() {
        let cases: &[(&str, Rows)] = &[
            ("[]", Rows::Array),
            (" [ 1 , \"a,]\\\"\" ,[ ],{},null,-1.5e3 ] \n", Rows::Array),
            (
                "[{\"a\": [1, {\"b\": \"}\"}]}, {\"c\": \"é\\u00e9\"}]",
                Rows::Array,
            ),
            // Rows that share keys in other orders: each keeps its own.
            (
                "[{\"a\": 1, \"b\": 2}, {\"b\": 3, \"a\": 4}, {\"a\": 5, \"b\": 6}]",
                Rows::Array,
            ),
            ("{\"rows\": []}", Rows::Member("rows".into())),
            (
                "{ \"r\\u006fws\" :\n [ {\"id\": 1}, {\"id\": 2} ] }",
                Rows::Member("rows".into()),
            ),
        ];
        for (json, shape) in cases {
            let whole = codec_core::from_str(json).unwrap();
            let expected = match shape {
                Rows::Array => whole.as_array().unwrap().to_vec(),
                Rows::Member(key) => whole.get(key).unwrap().as_array().unwrap().to_vec(),
            };
            for trickle in [false, true] {
                let read = read_all(json, trickle);
                assert!(
                    same_read(&read, &Ok((shape.clone(), expected.clone()))),
                    "{json}: {read:?}"
                );
            }
        }
    }

    #[test]
    fn other_documents_are_given_back_whole() {
        let spaces = " ".repeat(3 * READ) + "{}";
        for json in [
            "{}",
            "{\"a\": 1}",
            "3",
            "\"x\"",
            "",
            "{\"a\" 1}",
            "{\"a\": {\"b\": []}}",
            &spaces,
        ] {
            let source = Trickle(json.as_bytes());
            match RowReader::open(source, "in.json").unwrap() {
                Opened::Rows(reader) => panic!("{json}: {reader:?}"),
                Opened::Other(read, mut rest) => {
                    let mut all = read;
                    rest.read_to_end(&mut all).unwrap();
                    assert_eq!(all, json.as_bytes());
                }
            }
        }
    }

    /// The parser's errors, at the positions it gives for the whole input.
    #[test]
    fn errors_are_the_parsers_at_their_place_in_the_input() {
        let cases: &[&str] = &[
            "[1, 2",
            "[1 2]",
            "[1,\n  {\"a\": tru}]",
            "[{\"a\": 1, \"a\": 2}]",
            "[\"é\", \"a\nb\"]",
            "[1]\n x",
            "[1,]",
            "[\"unterminated]",
            "{\"rows\": [1] ]",
            "{\"rows\": [1]",
            "[01]",
            "[1, \u{e9}]",
            "[\"\\x\"]",
            "[1x]",
            "[\"a\"x]",
            "[true false]",
            "[1, é]",
            "[[1] [2]]",
        ];
        for json in cases {
            let expected = codec_core::from_str(json).unwrap_err();
            let expected = format!(
                "in.json:{}:{}: invalid JSON: {}",
                expected.line(),
                expected.column(),
                expected.kind()
            );
            for trickle in [false, true] {
                assert_eq!(read_all(json, trickle), Err(expected.clone()), "{json:?}");
            }
        }
    }

    #[test]
    fn the_depth_limit_counts_the_containers_around_a_row() {
        for (outer, prefix, suffix) in [(1, "[", "]"), (2, "{\"r\": [", "]}")] {
            for depth in [DEFAULT_MAX_DEPTH - outer, DEFAULT_MAX_DEPTH - outer + 1] {
                let row = "[".repeat(depth) + &"]".repeat(depth);
                let json = format!("{prefix}1, {row}{suffix}");
                let whole = codec_core::from_str(&json);
                let streamed = read_all(&json, false);
                match whole {
                    Ok(_) => assert!(streamed.is_ok(), "{outer} {depth}"),
                    Err(e) => assert_eq!(
                        streamed,
                        Err(format!(
                            "in.json:{}:{}: invalid JSON: {}",
                            e.line(),
                            e.column(),
                            e.kind()
                        ))
                    ),
                }
            }
        }
    }

    #[test]
    fn a_member_after_the_rows_cannot_be_streamed() {
        let error = read_all("{\"rows\": [1],\n \"total\": 1}", false).unwrap_err();
        assert_eq!(
            error,
            "in.json:1:13: cannot stream this document: a member follows \"rows\", whose rows \
             were already written (`--stream never` reads it whole)"
        );
    }

    /// The window holds a row and a read, not the input.
    #[test]
    fn the_window_is_bounded_by_the_largest_row() {
        let row = format!("{{\"id\": 1, \"text\": \"{}\"}}", "x".repeat(1000));
        let json = format!("[{}]", vec![row; 2000].join(",\n"));
        let mut reader = match RowReader::open(json.as_bytes(), "in.json").unwrap() {
            Opened::Rows(reader) => reader,
            Opened::Other(..) => panic!("rows"),
        };
        let mut rows = 0;
        let mut largest = 0;
        while reader.next_row().unwrap().is_some() {
            rows += 1;
            largest = largest.max(reader.window.len());
        }
        assert_eq!(rows, 2000);
        assert!(json.len() > 2_000_000);
        assert!(largest <= 4 * READ, "{largest}");
    }

    fn json_row() -> impl proptest::strategy::Strategy<Value = String> {
        use proptest::prelude::*;
        let leaf = prop_oneof![
            Just("null".to_owned()),
            Just("true".to_owned()),
            Just("-0.5e2".to_owned()),
            "[a-z ,\\]\\[{}\"é]{0,4}".prop_map(|s| format!("{s:?}")),
        ];
        leaf.prop_recursive(3, 12, 3, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..3)
                    .prop_map(|v| format!("[{}]", v.join(","))),
                prop::collection::vec(("[a-c]", inner), 0..3).prop_map(|m| {
                    let members: Vec<String> = m
                        .into_iter()
                        .map(|(k, v)| format!("{k:?}:\n {v}"))
                        .collect();
                    format!("{{{}}}", members.join(", "))
                }),
            ]
        })
    }

    proptest::proptest! {
        /// Any document of rows, broken anywhere: the rows the parser
        /// reads, or its error at its place.
        #[test]
        fn agrees_with_the_parser_on_any_document(
            rows in proptest::collection::vec(json_row(), 0..5),
            member in proptest::bool::ANY,
            cut in proptest::option::of((0usize..400, "[\\]\\[{},:\" x\n]?")),
            trickle in proptest::bool::ANY,
        ) {
            let mut json = format!("[{}]", rows.join(" ,\n"));
            if member {
                json = format!("{{ \"rows\" : {json} }}");
            }
            if let Some((at, with)) = cut {
                let at = at % (json.len() + 1);
                if json.is_char_boundary(at) {
                    let next = json[at..].chars().next().map_or(0, char::len_utf8);
                    json.replace_range(at..at + next, &with);
                }
            }
            let whole = codec_core::from_str(&json);
            let opened = RowReader::open(json.as_bytes(), "in.json").unwrap();
            let streamed = match opened {
                Opened::Rows(_) => read_all(&json, trickle),
                Opened::Other(..) => return Ok(()),
            };
            match whole {
                Ok(value) => {
                    let (key, rows) = match value.as_object() {
                        // A second member: the reader's own error.
                        Some(map) if map.len() != 1 => return Ok(()),
                        Some(map) => {
                            let (key, rows) = map.iter().next().unwrap();
                            (Some(key.to_owned()), rows)
                        }
                        None => (None, &value),
                    };
                    let shape = key.map_or(Rows::Array, Rows::Member);
                    let rows = rows.as_array().unwrap().to_vec();
                    let expected = Ok((shape, rows));
                    proptest::prop_assert!(
                        same_read(&streamed, &expected),
                        "{:?} vs {:?}",
                        streamed,
                        expected
                    );
                }
                Err(e) if streamed.as_ref().is_err_and(|s| s.contains("a member follows")) => {
                    // Broken after a second member: the reader stopped
                    // at that member first.
                    proptest::prop_assert!(e.offset() > 0);
                }
                Err(e) => {
                    let expected = format!(
                        "in.json:{}:{}: invalid JSON: {}",
                        e.line(),
                        e.column(),
                        e.kind()
                    );
                    proptest::prop_assert_eq!(streamed, Err(expected));
                }
            }
        }
    }
}

//! [`parse`] and [`parse_lossless`]: markdown back to a [`Value`].
//!
//! One pass over the lines turns the text into the blocks of the outline
//! (headings, key lists, tables, a top-level scalar); [`crate::outline`]
//! nests them. Every construct has its own method on [`Lexer`] (`heading`,
//! `list`, `item`, `fence`, `table`), so a new rendering profile adds its
//! constructs there.
//!
//! # Linear time
//!
//! Each line is looked at a bounded number of times: classified once by
//! its first bytes, then consumed by exactly one construct. Inline text is
//! decoded left to right, a backslash skipping one character, a reference
//! at most 8 digits; a key's closing `**`, a heading's closing `#`s, a
//! row's pipes and a fence's closing line are found by the same forward
//! scan, never by searching again from an earlier point. Nothing
//! backtracks, so 1 MB of backticks, pipes, `#`, `*`, `[` or list markers
//! costs what 1 MB of letters does. Section nesting is bounded by
//! [`codec_core::DEFAULT_MAX_DEPTH`], so the reader's recursion is too.

use codec_core::{Value, DEFAULT_MAX_DEPTH};

use crate::dense_read;
use crate::outline::{self, Block, Kind, Label};
use crate::reading::{self, is_blank, Reading};

/// Why [`parse`] rejected its input, and where. Lines and columns count
/// from 1; columns count characters.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ParseError {
    /// The text at this place is not what the schema allows there.
    #[error("line {line}, column {column}: expected {expected}")]
    Expected {
        /// The line.
        line: usize,
        /// The column.
        column: usize,
        /// What the schema allows here.
        expected: &'static str,
    },
    /// Sections nested deeper than the limit.
    #[error("line {line}, column {column}: sections nested deeper than the limit of {limit}")]
    DepthLimit {
        /// The line of the heading too deep.
        line: usize,
        /// The column.
        column: usize,
        /// The limit in force ([`codec_core::DEFAULT_MAX_DEPTH`]).
        limit: usize,
    },
}

impl ParseError {
    /// The line of the error, from 1.
    pub fn line(&self) -> usize {
        match self {
            ParseError::Expected { line, .. } | ParseError::DepthLimit { line, .. } => *line,
        }
    }

    /// The column of the error, from 1, in characters.
    pub fn column(&self) -> usize {
        match self {
            ParseError::Expected { column, .. } | ParseError::DepthLimit { column, .. } => *column,
        }
    }
}

/// Reads markdown into a value: the default rendering exactly as far as
/// markdown text can carry it (see [`normalize`](crate::normalize)), and
/// tables and key lists written by others.
///
/// The reading is `SPEC.md`'s *Reading*: empty text is null, `true` and
/// `false` are bools, a JSON number is a number (its text kept), text with
/// commas after a key is a list, `[]` and `{}` are empty containers,
/// sections nest by heading level, `[i]` labels make an array.
///
/// ```
/// use codec_core::from_str;
///
/// let markdown = "- **name**: api\n- **tags**: a, b\n\n# users\n\n|id|ok|\n|---|---|\n|1|true|\n";
/// let value = codec_md::parse(markdown).unwrap();
/// let expected = r#"{"name": "api", "tags": ["a", "b"], "users": [{"id": 1, "ok": true}]}"#;
/// assert_eq!(value, from_str(expected).unwrap());
///
/// let error = codec_md::parse("- **a**: 1\n\ntext\n").unwrap_err();
/// assert_eq!((error.line(), error.column()), (3, 1));
/// ```
pub fn parse(markdown: &str) -> Result<Value, ParseError> {
    parse_with(markdown, Reading::Plain, false)
}

/// Reads the lossless rendering ([`Profile::Lossless`]) back
/// into exactly the value that was rendered: `parse_lossless(&render(v))
/// == v` for every value.
///
/// On top of [`parse`]'s reading, a quoted piece (`"42"`, `""`) is a
/// string, `\[x]` is a one-item list, `-` in a cell is a missing member,
/// `#` after a key places that key's section, and an h6 heading's closing
/// `#`s add to its depth.
///
/// [`Profile::Lossless`]: crate::Profile::Lossless
///
/// ```
/// use codec_core::from_str;
/// use codec_md::{MarkdownCodec, Profile};
/// use codec_core::CodecExt;
///
/// let value = from_str(r#"{"id": "007", "n": "42", "tags": ["x"], "empty": ""}"#).unwrap();
/// let codec = MarkdownCodec::builder().profile(Profile::Lossless).build();
/// let markdown = String::from_utf8(codec.to_vec(&value).unwrap()).unwrap();
/// assert_eq!(markdown, "- **id**: 007\n- **n**: \"42\"\n- **tags**: \\[x]\n- **empty**: \"\"\n");
/// assert_eq!(codec_md::parse_lossless(&markdown).unwrap(), value);
/// ```
pub fn parse_lossless(markdown: &str) -> Result<Value, ParseError> {
    parse_with(markdown, Reading::Lossless, false)
}

/// Reads the dense profile ([`Profile::Dense`]) back: [`parse`]'s reading,
/// plus its tables, its fenced `json` blocks and a document's JSON
/// paragraph.
///
/// A table row needs no outer pipes; a header cell's raw dots nest its
/// column (`customer.name`; `\.` is a key's own dot); an empty first header
/// cell makes the table an object keyed by its first column; an empty cell
/// is a missing member; a cell `[a, b]` is a list and a code span is JSON.
/// A fenced `json` block is its JSON, exactly, wherever a document or a
/// section's body may be; so is a top-level paragraph that starts with a
/// raw `{` or `[` and is JSON once its escapes are decoded (a string's
/// paragraph starts `\{` or `\[`). So `parse_dense` gives back every JSON subtree
/// exactly and every table's structure; scalars read as in [`parse`]
/// (`"42"` comes back as `42`), and a null in a table row as a missing
/// member.
///
/// [`Profile::Dense`]: crate::Profile::Dense
///
/// ```
/// use codec_core::{from_str, CodecExt};
/// use codec_md::{MarkdownCodec, Profile};
///
/// let value = from_str(r#"{"orders": [
///     {"id": "A-1", "customer": {"name": "Ada"}, "tags": ["gift", "rush"], "items": [{"sku": "X1"}]},
///     {"id": "A-2", "customer": {"name": "Bob"}, "tags": [], "items": [{"sku": "Y7"}]},
///     {"id": "A-3", "customer": {"name": "Cy"}, "tags": ["gift"], "items": []}
/// ]}"#).unwrap();
/// let codec = MarkdownCodec::builder().profile(Profile::Dense).build();
/// let markdown = String::from_utf8(codec.to_vec(&value).unwrap()).unwrap();
/// assert!(markdown.contains("A-1|Ada|[gift, rush]|`[{\"sku\":\"X1\"}]`\n"));
/// assert_eq!(codec_md::parse_dense(&markdown).unwrap(), value);
/// ```
pub fn parse_dense(markdown: &str) -> Result<Value, ParseError> {
    parse_with(markdown, Reading::Plain, true)
}

fn parse_with(markdown: &str, reading: Reading, dense: bool) -> Result<Value, ParseError> {
    let lines: Vec<&str> = markdown
        .split('\n')
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
        .collect();
    let mut lexer = Lexer {
        lines,
        pos: 0,
        reading,
        dense,
        blocks: Vec::new(),
    };
    lexer.run()?;
    outline::read(lexer.blocks, DEFAULT_MAX_DEPTH)
}

/// The line-by-line pass: markdown lines to outline blocks.
struct Lexer<'a> {
    lines: Vec<&'a str>,
    /// The next line to read (0-based).
    pos: usize,
    reading: Reading,
    /// The dense profile's tables and `json` fences ([`crate::dense_read`]).
    dense: bool,
    blocks: Vec<Block>,
}

/// A fence's opening line: its indent, character and length.
#[derive(Debug, Clone, Copy)]
struct Fence {
    indent: usize,
    mark: u8,
    len: usize,
}

impl<'a> Lexer<'a> {
    fn run(&mut self) -> Result<(), ParseError> {
        let mut first = true;
        loop {
            self.skip_blank();
            let Some(&text) = self.lines.get(self.pos) else {
                return Ok(());
            };
            let line = self.pos + 1;
            if let Some((level, rest)) = heading_start(text) {
                self.heading(level, rest, line);
            } else if bullet(text).is_some() {
                self.list()?;
            } else if let Some(fence) =
                fence_open(text, 3).filter(|_| self.dense && is_json_info(text))
            {
                // A fenced `json` block stands for a whole container: the
                // outline reads it as it reads a table.
                self.pos += 1;
                let content = self.fence(fence);
                let value = dense_read::json_block(&content, line)?;
                self.blocks.push(Block {
                    kind: Kind::Table(value),
                    line,
                });
            } else if self.dense && self.table_start().is_some() {
                self.dense_table()?;
            } else if let Some(columns) = self.table_start() {
                self.table(columns);
            } else if first {
                let value = match fence_open(text, 3) {
                    Some(fence) => {
                        self.pos += 1;
                        Value::String(self.fence(fence))
                    }
                    None => {
                        self.pos += 1;
                        let json = self.dense.then(|| dense_read::json_paragraph(text));
                        match json.flatten() {
                            Some(value) => value,
                            None => reading::line(text, self.reading)
                                .unwrap_or_else(|| Value::String("#".into())),
                        }
                    }
                };
                self.blocks.push(Block {
                    kind: Kind::Scalar(value),
                    line,
                });
            } else {
                return Err(ParseError::Expected {
                    line,
                    column: 1,
                    expected: "a heading, a `- key: value` line or a table",
                });
            }
            first = false;
        }
    }

    fn skip_blank(&mut self) {
        while self
            .lines
            .get(self.pos)
            .is_some_and(|l| l.trim_matches(is_blank).is_empty())
        {
            self.pos += 1;
        }
    }

    /// `# key`: its depth (the lossless reading adds an h6's closing `#`s)
    /// and its label.
    fn heading(&mut self, level: usize, rest: &str, line: usize) {
        self.pos += 1;
        let trimmed = rest.trim_matches(is_blank);
        let hashes = trimmed.len() - trimmed.trim_end_matches('#').len();
        let (content, closing) = if hashes == trimmed.len() {
            ("", hashes)
        } else if hashes > 0 && trimmed[..trimmed.len() - hashes].ends_with(is_blank) {
            (
                trimmed[..trimmed.len() - hashes].trim_end_matches(is_blank),
                hashes,
            )
        } else {
            (trimmed, 0)
        };
        let lossless = self.reading == Reading::Lossless;
        let depth = if lossless && level == 6 {
            6 + closing
        } else {
            level
        };
        self.blocks.push(Block {
            kind: Kind::Heading {
                depth,
                label: label(content),
                capped: !lossless && level == 6,
            },
            line,
        });
    }

    /// A list: its items, blank lines between them allowed.
    fn list(&mut self) -> Result<(), ParseError> {
        let line = self.pos + 1;
        let mut items = Vec::new();
        loop {
            let text = self.lines[self.pos];
            let Some(rest) = bullet(text) else { break };
            self.pos += 1;
            items.push(self.item(rest, self.pos)?);
            let after_item = self.pos;
            self.skip_blank();
            if self.lines.get(self.pos).is_none_or(|l| bullet(l).is_none()) {
                self.pos = after_item;
                break;
            }
        }
        self.blocks.push(Block {
            kind: Kind::List(items),
            line,
        });
        Ok(())
    }

    /// One item after its bullet: `**key**: value`, `**key:** value`,
    /// `: value` (the empty key) or `key: value`, and the fence under it.
    fn item(&mut self, rest: &str, line: usize) -> Result<(Label, Option<Value>), ParseError> {
        let column = |at: usize| 3 + rest[..at].chars().count();
        let (label, value_raw) = if let Some(after_open) = rest.strip_prefix("**") {
            let Some(close) = find_unescaped(after_open, "**") else {
                return Err(ParseError::Expected {
                    line,
                    column: column(rest.len()),
                    expected: "`**` after the key",
                });
            };
            let key_raw = &after_open[..close];
            let after = &after_open[close + 2..];
            if let Some(value) = after.strip_prefix(':') {
                (label(key_raw), value)
            } else if let Some(key_raw) = key_raw.strip_suffix(':').filter(|k| !k.ends_with('\\')) {
                (label(key_raw), after)
            } else {
                return Err(ParseError::Expected {
                    line,
                    column: column(close + 4),
                    expected: "`:` after the key",
                });
            }
        } else if let Some(value) = rest.strip_prefix(':') {
            (Label::Key(String::new()), value)
        } else {
            let Some(colon) = find_key_colon(rest) else {
                return Err(ParseError::Expected {
                    line,
                    column: column(rest.len()),
                    expected: "`: ` after a key (`- key: value`)",
                });
            };
            let key = reading::decode(rest[..colon].trim_matches(is_blank)).text;
            (Label::Key(key), &rest[colon + 1..])
        };
        if value_raw.trim_matches(is_blank).is_empty() {
            if let Some(fence) = self.lines.get(self.pos).and_then(|l| fence_open(l, 8)) {
                if fence.indent > 0 {
                    self.pos += 1;
                    return Ok((label, Some(Value::String(self.fence(fence)))));
                }
            }
        }
        Ok((label, reading::line(value_raw, self.reading)))
    }

    /// The lines of a fence whose opening line was read: up to its closing
    /// line, the end of the indented item, or the end of the document. Each
    /// line loses up to the fence's indent of leading spaces.
    fn fence(&mut self, fence: Fence) -> String {
        let mut content: Vec<&str> = Vec::new();
        while let Some(&text) = self.lines.get(self.pos) {
            let spaces = text.bytes().take_while(|&b| b == b' ').count();
            let rest = &text[spaces..];
            let blank = rest.trim_matches(is_blank).is_empty();
            if !blank && spaces < fence.indent {
                break;
            }
            self.pos += 1;
            let run = rest.bytes().take_while(|&b| b == fence.mark).count();
            if spaces <= fence.indent + 3
                && run >= fence.len
                && rest[run..].trim_matches(is_blank).is_empty()
            {
                break;
            }
            content.push(&text[spaces.min(fence.indent)..]);
        }
        content.join("\n")
    }

    /// The columns of a table starting here: a row with a pipe, then a
    /// delimiter row with as many cells.
    fn table_start(&self) -> Option<Vec<String>> {
        let header = *self.lines.get(self.pos)?;
        let delimiter = *self.lines.get(self.pos + 1)?;
        if !header.contains('|') || !delimiter.contains('|') {
            return None;
        }
        let cells = split_row(header);
        let marks = split_row(delimiter);
        (!cells.is_empty()
            && cells.len() == marks.len()
            && marks.iter().all(|m| is_delimiter_cell(m)))
        .then(|| {
            cells
                .iter()
                .map(|c| reading::decode(c.trim_matches(is_blank)).text)
                .collect()
        })
    }

    /// A dense table ([`dense_read::table`]): its raw header cells, then
    /// each row's raw cells, up to where [`Lexer::table`] stops.
    fn dense_table(&mut self) -> Result<(), ParseError> {
        let line = self.pos + 1;
        let header = split_row(self.lines[self.pos]);
        self.pos += 2;
        let start = self.pos;
        while let Some(&text) = self.lines.get(self.pos) {
            if ends_table(text) {
                break;
            }
            self.pos += 1;
        }
        let rows = (start..self.pos).map(|i| (i + 1, split_row(self.lines[i])));
        let value = dense_read::table(&header, rows)?;
        self.blocks.push(Block {
            kind: Kind::Table(value),
            line,
        });
        Ok(())
    }

    /// A table's rows, up to a blank line or another block: one object per
    /// row, a cell per column. A short row leaves its last members out; a
    /// long row's extra cells are dropped (as GFM does).
    fn table(&mut self, columns: Vec<String>) {
        let line = self.pos + 1;
        self.pos += 2;
        let mut rows = Vec::new();
        while let Some(&text) = self.lines.get(self.pos) {
            if ends_table(text) {
                break;
            }
            self.pos += 1;
            let cells = split_row(text);
            let mut row = codec_core::Map::with_capacity(columns.len());
            for (column, cell) in columns.iter().zip(cells) {
                let cell = cell.trim_matches(is_blank);
                if self.reading == Reading::Lossless && cell == "-" {
                    continue;
                }
                row.insert(column.clone(), reading::piece(cell, self.reading));
            }
            rows.push(Value::Object(row));
        }
        self.blocks.push(Block {
            kind: Kind::Table(Value::Array(rows)),
            line,
        });
    }
}

/// Whether a fence's opening line says `json` (its info string's first
/// word).
fn is_json_info(text: &str) -> bool {
    let info = text.trim_start_matches([' ', '`', '~']);
    info.split(is_blank).next() == Some("json")
}

/// `#` to `######` then a space or the end: the level and the rest.
fn heading_start(text: &str) -> Option<(usize, &str)> {
    let level = text.bytes().take(7).take_while(|&b| b == b'#').count();
    let rest = &text[level..];
    ((1..=6).contains(&level) && (rest.is_empty() || rest.starts_with(is_blank)))
        .then_some((level, rest))
}

/// `- `, `* ` or `+ ` (or the bullet alone): the rest of the line.
fn bullet(text: &str) -> Option<&str> {
    let rest = text.strip_prefix(['-', '*', '+'])?;
    if rest.is_empty() {
        return Some(rest);
    }
    rest.strip_prefix(is_blank)
}

/// An opening fence line: ``` or ~~~ (three or more) after at most
/// `max_indent` spaces; a backtick fence's info has no backtick.
fn fence_open(text: &str, max_indent: usize) -> Option<Fence> {
    let indent = text.bytes().take_while(|&b| b == b' ').count();
    let rest = &text[indent..];
    let mark = *rest.as_bytes().first()?;
    let len = rest.bytes().take_while(|&b| b == mark).count();
    let ok = indent <= max_indent
        && matches!(mark, b'`' | b'~')
        && len >= 3
        && !(mark == b'`' && rest[len..].contains('`'));
    ok.then_some(Fence { indent, mark, len })
}

/// A heading's or key's label: a raw `[i]` is an index, anything else a key.
fn label(raw: &str) -> Label {
    let raw = raw.trim_matches(is_blank);
    if let Some(digits) = raw.strip_prefix('[').and_then(|r| r.strip_suffix(']')) {
        let canonical = !digits.is_empty()
            && digits.bytes().all(|b| b.is_ascii_digit())
            && (digits.len() == 1 || !digits.starts_with('0'));
        if let Some(i) = canonical.then(|| digits.parse().ok()).flatten() {
            return Label::Index(i);
        }
    }
    Label::Key(reading::decode(raw).text)
}

/// The byte offset of the first `needle` not inside an escape.
fn find_unescaped(text: &str, needle: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'\\' && bytes.get(i + 1).is_some_and(u8::is_ascii_punctuation) {
            i += 2;
        } else if bytes[i..].starts_with(needle.as_bytes()) {
            return Some(i);
        } else {
            i += 1;
        }
    }
    None
}

/// The `:` that ends a plain key: the first unescaped one before a space
/// or the end of the line.
fn find_key_colon(text: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' if bytes.get(i + 1).is_some_and(u8::is_ascii_punctuation) => i += 2,
            b':' if bytes.get(i + 1).is_none_or(|&b| b == b' ' || b == b'\t') => return Some(i),
            _ => i += 1,
        }
    }
    None
}

/// A row's raw cells: split at unescaped pipes, without the outer pipes.
/// Whether `text` ends a table: a blank line or the start of another
/// block (heading, list item, fence, block quote).
fn ends_table(text: &str) -> bool {
    text.trim_matches(is_blank).is_empty()
        || heading_start(text).is_some()
        || bullet(text).is_some()
        || fence_open(text, 3).is_some()
        || text.starts_with('>')
}

fn split_row(text: &str) -> Vec<&str> {
    let trimmed = text.trim_matches(is_blank);
    let bytes = trimmed.as_bytes();
    let mut cells = Vec::new();
    let mut start = 0;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' if bytes.get(i + 1).is_some_and(u8::is_ascii_punctuation) => i += 2,
            b'|' => {
                cells.push(&trimmed[start..i]);
                i += 1;
                start = i;
            }
            _ => i += 1,
        }
    }
    let closed = start == bytes.len() && !cells.is_empty();
    if !closed {
        cells.push(&trimmed[start..]);
    }
    if trimmed.starts_with('|') && !cells.is_empty() {
        cells.remove(0);
    }
    cells
}

/// `---`, `:--`, `--:`, `:-:`, padded or not.
fn is_delimiter_cell(cell: &str) -> bool {
    let cell = cell.trim_matches(is_blank);
    let cell = cell.strip_prefix(':').unwrap_or(cell);
    let cell = cell.strip_suffix(':').unwrap_or(cell);
    !cell.is_empty() && cell.bytes().all(|b| b == b'-')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_rows() {
        let cases: &[(&str, &[&str])] = &[
            ("|a|b|", &["a", "b"]),
            ("| a | b |", &[" a ", " b "]),
            ("a | b", &["a ", " b"]),
            ("|a\\|b|", &["a\\|b"]),
            ("|a\\\\|b|", &["a\\\\", "b"]),
            ("||", &[""]),
            ("|", &[]),
            ("a|", &["a"]),
        ];
        for (row, cells) in cases {
            assert_eq!(split_row(row), *cells, "{row:?}");
        }
    }

    #[test]
    fn reads_labels() {
        assert_eq!(label("[0]"), Label::Index(0));
        assert_eq!(label("[12]"), Label::Index(12));
        assert_eq!(label("[012]"), Label::Key("[012]".into()));
        assert_eq!(label("\\[0]"), Label::Key("[0]".into()));
        assert_eq!(
            label("[99999999999999999999999]"),
            Label::Key("[99999999999999999999999]".into())
        );
    }
}

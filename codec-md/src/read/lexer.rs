//! The line pass shared by every reading: markdown lines to the blocks of
//! the outline (headings, key lists, tables, a top-level scalar), which
//! [`outline::read`] nests into a value.
//!
//! What differs between the layouts is a [`Reading`]: the hooks the pass
//! calls where a layout reads a construct its own way (a key's value, a
//! table, a heading's depth, a fence), the mirror of the writer's layouts.
//! Every construct has its own method on [`Lexer`] (`heading`, `list`,
//! `item`, `fence`, `table`).
//!
//! # Linear time
//!
//! Each line is looked at a bounded number of times: classified once by
//! its first bytes, then consumed by exactly one construct. Inline text is
//! decoded left to right, a backslash skipping one character, a reference
//! at most 7 digits; a key's closing `**`, a heading's closing `#`s, a
//! row's pipes and a fence's closing line are found by the same forward
//! scan, never by searching again from an earlier point. Nothing
//! backtracks, so 1 MB of backticks, pipes, `#`, `*`, `[` or list markers
//! costs what 1 MB of letters does. Section nesting is bounded by
//! [`codec_core::value::DEFAULT_MAX_DEPTH`], so the reader's recursion is too.

use codec_core::{Map, Value, value::DEFAULT_MAX_DEPTH};

use crate::error::ParseError;
use crate::read::inline::{self, Refs, is_blank};
use crate::read::outline::{self, Block, Item, Kind, Label};
use crate::read::table::{self, Row};

/// How a layout reads the constructs it writes its own way. The default
/// methods are `SPEC.md`'s *Reading*, shared by every layout that does not
/// change them.
pub(crate) trait Reading: Copy {
    /// A key's value (or a top-level paragraph's line), `None` for a
    /// member whose section comes later.
    fn line(self, raw: &str) -> Option<Value>;

    /// A GFM table's cell, `None` for a member the row lacks.
    fn cell(self, raw: &str) -> Option<Value>;

    /// A heading's depth, from its level (1 to 6) and the `#`s that close
    /// it, and whether it is capped: an h6 that may stand for any depth
    /// from 6 on.
    fn heading(self, level: usize, _closing: usize) -> (usize, bool) {
        (level, level == 6)
    }

    /// A table, from its header row and its rows (none longer than the
    /// header): an array of objects keyed by the header, a short row
    /// leaving out its last members. A column named twice is an error at
    /// its second header cell: a row object cannot hold both.
    fn table(self, header: &Row<'_>, rows: &[Row<'_>]) -> Result<Value, ParseError> {
        let columns: Vec<String> = header
            .cells()
            .map(|c| inline::decode(c.trim_matches(is_blank), Refs::All).text)
            .collect();
        if let Some(i) = table::repeated_column(&columns) {
            let column = header.column(i);
            return Err(ParseError::expected(
                table::DISTINCT_COLUMN,
                header.line,
                column,
            ));
        }
        let rows = rows.iter().map(|row_cells| {
            let mut row = Map::with_capacity(columns.len());
            for (column, cell) in columns.iter().zip(row_cells.cells()) {
                if let Some(value) = self.cell(cell.trim_matches(is_blank)) {
                    row.insert(column.clone(), value);
                }
            }
            Value::Object(row)
        });
        Ok(Value::Array(rows.collect()))
    }

    /// A fenced block where a document or a section's body may be: `Some`
    /// reader of its content when this layout writes a container so
    /// (the dense profile's `json` fences). `None`: a top-level fence is
    /// a string, and any other is not allowed there.
    fn container_fence(self, _info: &str) -> Option<ContainerFence> {
        None
    }

    /// A top-level paragraph, on line `line`.
    fn paragraph(self, text: &str, _line: usize) -> Result<Value, ParseError> {
        // Only the lossless `#` reads as no value; alone on its line it
        // is a heading, so this is never reached from a document.
        Ok(self.line(text).unwrap_or_else(|| Value::String("#".into())))
    }
}

/// Reads a container fence's content, given the line of its opening fence.
pub(crate) type ContainerFence = fn(&str, usize) -> Result<Value, ParseError>;

/// Reads `markdown` with `reading`: the line pass, then the outline.
pub(crate) fn read(
    markdown: &str,
    reading: impl Reading,
    options: &ParseOptions,
) -> Result<Value, ParseError> {
    let lines: Vec<&str> = markdown
        .split('\n')
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
        .collect();
    let mut lexer = Lexer {
        lines,
        pos: 0,
        reading,
        blocks: Vec::new(),
        max_size_factor: options.max_size_factor,
    };
    lexer.run()?;
    outline::read(lexer.blocks, DEFAULT_MAX_DEPTH)
}

/// How a reader may grow what it builds from its input
/// ([`ParseOptions::parse`]).
///
/// Every construct of every reading builds at most a few values per byte
/// of its text, but for a table's rows: each row copies the header's keys,
/// and in the dense reading makes the objects of its dotted columns'
/// paths, so a long header over many short rows could build far more than
/// the input (a 489 KB dense table of 500 columns 120 keys deep and 200
/// rows built 3.3 GB). A table is refused before it is built, with
/// [`ParseErrorKind::SizeLimit`](crate::ParseErrorKind::SizeLimit), when
/// its rows would build more than [`max_size_factor`] bytes per byte of
/// its text (at least 1 MiB): estimated as each header key's bytes and 32
/// bytes per key (a dotted header cell counts a key per raw dot), per row.
///
/// [`max_size_factor`]: ParseOptions::max_size_factor
///
/// ```
/// use codec_md::{ParseErrorKind, ParseOptions, Profile};
///
/// // 20 columns 50 keys deep, 200 rows: 10 KB that would build 200,000 objects.
/// let header: Vec<String> = (0..20).map(|i| format!("{i}{}", ".k".repeat(49))).collect();
/// let row = vec!["1"; 20].join("|");
/// let rows = format!("{row}\n").repeat(200);
/// let markdown = format!("|{}|\n|{}\n{rows}", header.join("|"), "---|".repeat(20));
/// let error = codec_md::parse_dense(&markdown).unwrap_err();
/// assert!(matches!(error.kind(), ParseErrorKind::SizeLimit { .. }));
/// let options = ParseOptions::default().max_size_factor(1_000);
/// assert!(options.parse(&markdown, Profile::Dense).is_ok());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct ParseOptions {
    /// The most bytes a table's rows may build per byte of the table's
    /// text (at least 1 MiB in all): [`DEFAULT_MAX_SIZE_FACTOR`] unless set.
    pub max_size_factor: usize,
}

/// [`ParseOptions::max_size_factor`]'s default: 64 bytes built per byte
/// read. Every table of the benchmark datasets' renderings is under 8.
pub const DEFAULT_MAX_SIZE_FACTOR: usize = 64;

/// A table's allowance whatever its size: small tables are never refused.
const MIN_TABLE_SIZE: usize = 1 << 20;

/// What a table's rows are estimated to build per key (a key's string and
/// its value's slot).
const KEY_BYTES: usize = 32;

impl Default for ParseOptions {
    fn default() -> ParseOptions {
        ParseOptions {
            max_size_factor: DEFAULT_MAX_SIZE_FACTOR,
        }
    }
}

impl ParseOptions {
    /// Sets [`ParseOptions::max_size_factor`].
    pub fn max_size_factor(mut self, factor: usize) -> ParseOptions {
        self.max_size_factor = factor;
        self
    }
}

/// Refuses a table of `bytes` bytes, `header` and `rows` rows, whose rows
/// would build more than `factor` bytes per byte ([`ParseOptions`]).
fn check_size(
    header: &Row<'_>,
    rows: usize,
    bytes: usize,
    factor: usize,
) -> Result<(), ParseError> {
    let per_row: usize = header
        .cells()
        .map(|cell| cell.len() + KEY_BYTES * (1 + cell.bytes().filter(|&b| b == b'.').count()))
        .sum();
    let size = per_row.saturating_mul(rows);
    let limit = factor.saturating_mul(bytes).max(MIN_TABLE_SIZE);
    if size <= limit {
        return Ok(());
    }
    let kind = crate::ParseErrorKind::SizeLimit {
        size,
        limit,
        factor,
    };
    Err(ParseError::new(kind, header.line, 1))
}

/// The line-by-line pass: markdown lines to outline blocks.
struct Lexer<'a, R> {
    lines: Vec<&'a str>,
    /// The next line to read (0-based).
    pos: usize,
    reading: R,
    blocks: Vec<Block>,
    /// [`ParseOptions::max_size_factor`].
    max_size_factor: usize,
}

/// A fence's opening line: its indent, character and length.
#[derive(Debug, Clone, Copy)]
struct Fence {
    indent: usize,
    mark: u8,
    len: usize,
}

impl<'a, R: Reading> Lexer<'a, R> {
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
            } else if let Some((fence, read)) = fence_open(text, 3)
                .and_then(|fence| Some((fence, self.reading.container_fence(info(text))?)))
            {
                // A container's fence stands for a whole container: the
                // outline reads it as it reads a table.
                self.pos += 1;
                let content = self.fence(fence);
                let value = read(&content, line)?;
                self.push(Kind::Table(value), line);
            } else if self.table_start() {
                self.table()?;
            } else if let Some(error) = self.bad_delimiter_row() {
                return Err(error);
            } else if first || self.after_index_heading() {
                self.pos += 1;
                let value = match fence_open(text, 3) {
                    Some(fence) => Value::String(self.fence(fence)),
                    None => {
                        if let Some((block, column)) = unread_block(text) {
                            return Err(ParseError::expected(block, line, column));
                        }
                        self.reading.paragraph(text, line)?
                    }
                };
                self.push(Kind::Scalar(value), line);
            } else {
                return Err(ParseError::expected(
                    "a heading, a `- key: value` line or a table",
                    line,
                    1,
                ));
            }
            first = false;
        }
    }

    /// Whether the last block is a heading `[i]`: a stream's row that is
    /// not a container is written under one as a document would be, a
    /// paragraph or a fence (`SPEC.md`, *Streaming*).
    fn after_index_heading(&self) -> bool {
        matches!(
            self.blocks.last(),
            Some(Block {
                kind: Kind::Heading {
                    label: Label::Index(_),
                    ..
                },
                ..
            })
        )
    }

    fn push(&mut self, kind: Kind, line: usize) {
        self.blocks.push(Block { kind, line });
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

    /// `# key`: its depth (as the reading counts it) and its label.
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
        let (depth, capped) = self.reading.heading(level, closing);
        let kind = Kind::Heading {
            depth,
            label: label(content),
            capped,
        };
        self.push(kind, line);
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
        self.push(Kind::List(items), line);
        Ok(())
    }

    /// One item after its bullet: `**key**: value`, `**key:** value`,
    /// `: value` (the empty key) or `key: value`, and the fence under it.
    fn item(&mut self, rest: &str, line: usize) -> Result<Item, ParseError> {
        let column = |at: usize| 3 + rest[..at].chars().count();
        let (label, value_raw) = if let Some(after_open) = rest.strip_prefix("**") {
            let Some(close) = find_unescaped(after_open, "**") else {
                return Err(ParseError::expected(
                    "`**` after the key",
                    line,
                    column(rest.len()),
                ));
            };
            let key_raw = &after_open[..close];
            let after = &after_open[close + 2..];
            if let Some(value) = after.strip_prefix(':') {
                (label(key_raw), value)
            } else if let Some(key_raw) = key_raw.strip_suffix(':').filter(|k| !k.ends_with('\\')) {
                (label(key_raw), after)
            } else {
                return Err(ParseError::expected(
                    "`:` after the key",
                    line,
                    column(close + 4),
                ));
            }
        } else if let Some(value) = rest.strip_prefix(':') {
            (Label::Key(String::new()), value)
        } else {
            let Some(colon) = find_key_colon(rest) else {
                return Err(ParseError::expected(
                    "`: ` after a key (`- key: value`)",
                    line,
                    column(rest.len()),
                ));
            };
            let key = inline::decode(rest[..colon].trim_matches(is_blank), Refs::All).text;
            (Label::Key(key), &rest[colon + 1..])
        };
        let value = if value_raw.trim_matches(is_blank).is_empty() {
            match self.lines.get(self.pos).and_then(|l| fence_open(l, 8)) {
                Some(fence) if fence.indent > 0 => {
                    self.pos += 1;
                    Some(Value::String(self.fence(fence)))
                }
                _ => self.reading.line(value_raw),
            }
        } else {
            self.reading.line(value_raw)
        };
        Ok(Item { label, value, line })
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

    /// Whether a table starts here: a row with a pipe, then a delimiter
    /// row with as many cells.
    fn table_start(&self) -> bool {
        let (Some(header), Some(delimiter)) =
            (self.lines.get(self.pos), self.lines.get(self.pos + 1))
        else {
            return false;
        };
        if !header.contains('|') || !delimiter.contains('|') {
            return false;
        }
        let cells = table::split_row(header);
        let marks = table::split_row(delimiter);
        !cells.is_empty()
            && cells.len() == marks.len()
            && marks.iter().all(|m| table::is_delimiter_cell(m))
    }

    /// The error of a table begun here whose delimiter row is wrong: a
    /// line with a pipe and cells, then a line with a pipe that starts no
    /// other block. That is never a valid document (a paragraph cannot be
    /// followed by a line of its own), so the error is where the row goes
    /// wrong: its first cell that is not `---`, `:--`, `--:` or `:-:`, or
    /// its end when it has another number of cells than the header.
    fn bad_delimiter_row(&self) -> Option<ParseError> {
        let header = *self.lines.get(self.pos)?;
        let delimiter = *self.lines.get(self.pos + 1)?;
        let begun = header.contains('|')
            && fence_open(header, 3).is_none()
            && delimiter.contains('|')
            && !ends_table(delimiter);
        let columns = table::split_row(header).len();
        if !begun || columns == 0 {
            return None;
        }
        let line = self.pos + 2;
        let row = Row::split(line, delimiter);
        let cells: Vec<&str> = row.cells().collect();
        if let Some(i) = cells.iter().position(|c| !table::is_delimiter_cell(c)) {
            let blanks = cells[i].len() - cells[i].trim_start_matches(is_blank).len();
            let column = row.column(i) + blanks;
            return Some(ParseError::expected(table::DELIMITER_CELL, line, column));
        }
        table::check_count(&cells, columns, delimiter, line).err()
    }

    /// A table: its header, then its rows up to a blank line or another
    /// block, read by the reading. A row with more cells than the header
    /// is an error at its end (GFM drops the extra cells, which would lose
    /// them without a word).
    fn table(&mut self) -> Result<(), ParseError> {
        let line = self.pos + 1;
        let header = Row::split(line, self.lines[self.pos]);
        let columns = header.cells().count();
        self.pos += 2;
        let mut rows = Vec::new();
        while let Some(&text) = self.lines.get(self.pos) {
            if ends_table(text) {
                break;
            }
            self.pos += 1;
            let row = Row::split(self.pos, text);
            let cells: Vec<&str> = row.cells().collect();
            if cells.len() > columns {
                table::check_count(&cells, columns, text, self.pos)?;
            }
            rows.push(row);
        }
        let (first, end) = (line - 1, self.pos);
        let bytes = self.lines[first..end].iter().map(|l| l.len() + 1).sum();
        check_size(&header, rows.len(), bytes, self.max_size_factor)?;
        let value = self.reading.table(&header, &rows)?;
        self.push(Kind::Table(value), line);
        Ok(())
    }
}

/// A fence's info string: its opening line after the fence characters.
fn info(text: &str) -> &str {
    text.trim_start_matches([' ', '`', '~'])
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

/// A block that markdown reads where a top-level paragraph would be, and
/// that no layout writes there (each escapes a string's leading `>`, `-`,
/// `*`, `_` and blanks): what `SPEC.md` rejects in its place, with the
/// column where it starts. Read as text, `> x` would lose its markup.
fn unread_block(text: &str) -> Option<(&'static str, usize)> {
    let indent = text.bytes().take_while(|&b| b == b' ').count();
    let rest = &text[indent..];
    if indent >= 4 || rest.starts_with('\t') {
        return Some(("a paragraph, not an indented code block", 1));
    }
    let column = indent + 1;
    if rest.starts_with('>') {
        return Some(("a paragraph, not a block quote", column));
    }
    let mark = *rest.as_bytes().first()?;
    let marks = rest.bytes().filter(|&b| b == mark).count();
    let rule = matches!(mark, b'-' | b'*' | b'_')
        && marks >= 3
        && rest.bytes().all(|b| b == mark || b == b' ' || b == b'\t');
    rule.then_some(("a paragraph, not a thematic break", column))
}

/// Whether `text` ends a table: a blank line or the start of another
/// block (heading, list item, fence, block quote).
fn ends_table(text: &str) -> bool {
    text.trim_matches(is_blank).is_empty()
        || heading_start(text).is_some()
        || bullet(text).is_some()
        || fence_open(text, 3).is_some()
        || text.starts_with('>')
}

/// A heading's or key's label: a raw `[i]` is an index, a raw `[i..]` the
/// rows of a stream from index `i` on, anything else a key.
fn label(raw: &str) -> Label {
    let raw = raw.trim_matches(is_blank);
    if let Some(inner) = raw.strip_prefix('[').and_then(|r| r.strip_suffix(']')) {
        let (digits, from) = match inner.strip_suffix("..") {
            Some(digits) => (digits, true),
            None => (inner, false),
        };
        let canonical = !digits.is_empty()
            && digits.bytes().all(|b| b.is_ascii_digit())
            && (digits.len() == 1 || !digits.starts_with('0'));
        if let Some(i) = canonical.then(|| digits.parse().ok()).flatten() {
            return if from {
                Label::From(i)
            } else {
                Label::Index(i)
            };
        }
    }
    Label::Key(inline::decode(raw, Refs::All).text)
}

/// The byte offset of the first `needle` not inside an escape.
fn find_unescaped(text: &str, needle: &str) -> Option<usize> {
    inline::find(text, |bytes, i| {
        bytes[i..]
            .starts_with(needle.as_bytes())
            .then_some(needle.len())
    })
}

/// The `:` that ends a plain key: the first unescaped one before a space
/// or the end of the line.
fn find_key_colon(text: &str) -> Option<usize> {
    inline::find(text, |bytes, i| {
        (bytes[i] == b':' && bytes.get(i + 1).is_none_or(|&b| b == b' ' || b == b'\t')).then_some(1)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_labels() {
        assert_eq!(label("[0]"), Label::Index(0));
        assert_eq!(label("[12]"), Label::Index(12));
        assert_eq!(label("[012]"), Label::Key("[012]".into()));
        assert_eq!(label("[3..]"), Label::From(3));
        assert_eq!(label("[03..]"), Label::Key("[03..]".into()));
        assert_eq!(label("[..]"), Label::Key("[..]".into()));
        assert_eq!(label("\\[3..]"), Label::Key("[3..]".into()));
        assert_eq!(label("\\[0]"), Label::Key("[0]".into()));
        assert_eq!(
            label("[99999999999999999999999]"),
            Label::Key("[99999999999999999999999]".into())
        );
    }
}

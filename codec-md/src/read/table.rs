//! GFM tables read back: a row split into its cells, the delimiter row, and
//! [`parse_table`], the exact inverse of the table rule.
//!
//! The document readers ([`crate::read::lexer`]) find a table with
//! [`split_row`] and [`is_delimiter_cell`] and read its rows by their
//! layout's rules; [`parse_table`] reads one table strictly, as the
//! renderer writes it, cell text exact.

use crate::error::{ParseError, ParseErrorKind};
use crate::read::inline::{self, Refs, is_blank};

/// A table read back by [`parse_table`]: the columns and the exact text of
/// every cell, unescaped.
///
/// A cell holds the scalar's rendered text: a string as it was, a number's
/// exact text, `true`/`false`, and the empty string for null and for a key
/// the row did not have.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Table {
    /// The column names, in order.
    pub columns: Vec<String>,
    /// One entry per row, each with one cell per column.
    pub rows: Vec<Vec<String>>,
}

/// Reads a table as [`render`](crate::render) writes it: the columns and
/// the exact, unescaped text of every cell.
///
/// The input is one table: a header row, a delimiter row (`|---|---|`) and
/// the rows, each `|`-delimited and unpadded, lines ending in `\n` or
/// `\r\n`; blank lines may follow. Header and body cells are decoded as the
/// renderer encodes them: `\` before ASCII punctuation gives the
/// punctuation, `&#N;` and `&#xH;` give the character (so `&#0;` gives back
/// NUL, which a GFM parser cannot), an unescaped `|` ends the cell, and
/// anything else is itself. A table is flat, so this reader has no depth
/// to limit.
///
/// Errors are [`ParseError`]s: `expected `|`` where a row does not start
/// or end with a pipe, `expected a delimiter cell `---`` at the first bad
/// cell of the delimiter row, [`ParseErrorKind::CellCount`] at the end of a
/// row with another number of cells than the header, `expected a column
/// name that no earlier column has` at a header cell that repeats one, and
/// `expected the end of the table` at text after the blank line that ends
/// it.
///
/// ```
/// let table = codec_md::parse_table("|name|note|\n|---|---|\n|a\\|b|&#32;x|\n").unwrap();
/// assert_eq!(table.columns, ["name", "note"]);
/// assert_eq!(table.rows, [["a|b", " x"]]);
///
/// let error = codec_md::parse_table("|a|b|\n|---|:--|\n").unwrap_err();
/// assert_eq!(error.to_string(), "line 2, column 6: expected a delimiter cell `---`");
/// ```
pub fn parse_table(markdown: &str) -> Result<Table, ParseError> {
    // Our tables never hold a raw CR, so a CRLF line ending is unambiguous.
    let mut lines = markdown
        .split('\n')
        .enumerate()
        .map(|(i, l)| (i + 1, l.strip_suffix('\r').unwrap_or(l)));
    let (_, header) = lines.next().unwrap_or((1, ""));
    let columns = exact_row(header, 1)?;

    let (line, delimiter) = lines.next().unwrap_or((2, ""));
    let cells = exact_row(delimiter, line)?;
    let mut column = 2;
    for cell in &cells {
        if cell != "---" {
            return Err(ParseError::expected(DELIMITER_CELL, line, column));
        }
        column += 4;
    }
    check_count(&cells, columns.len(), delimiter, line)?;
    if let Some(i) = repeated_column(&columns) {
        let rest = &header[1..];
        let at = inline::split(rest, inline::byte(b'|'))
            .nth(i)
            .map_or(0, |(at, _)| at);
        let column = rest[..at].chars().count() + 2;
        return Err(ParseError::expected(DISTINCT_COLUMN, 1, column));
    }

    let mut rows = Vec::new();
    for (line, text) in lines.by_ref() {
        if text.is_empty() {
            break;
        }
        let row = exact_row(text, line)?;
        check_count(&row, columns.len(), text, line)?;
        rows.push(row);
    }
    if let Some((line, text)) = lines.find(|(_, text)| !text.is_empty()) {
        let column = text.chars().take_while(|c| c.is_whitespace()).count() + 1;
        return Err(ParseError::expected("the end of the table", line, column));
    }
    Ok(Table { columns, rows })
}

/// What a delimiter row's cell must be.
pub(crate) const DELIMITER_CELL: &str = "a delimiter cell `---`";

/// What a header cell must be: a row object cannot hold two members of
/// one name, and a reader that kept one would lose the other's cells.
pub(crate) const DISTINCT_COLUMN: &str = "a column name that no earlier column has";

/// The index of the first column whose name (or, in a dense table, path)
/// an earlier column has.
pub(crate) fn repeated_column<T: Eq + std::hash::Hash>(columns: &[T]) -> Option<usize> {
    let mut seen = std::collections::HashSet::with_capacity(columns.len());
    columns.iter().position(|c| !seen.insert(c))
}

/// A [`ParseErrorKind::CellCount`] error at the end of `text` when `cells`
/// is not `expected` long.
pub(crate) fn check_count<T>(
    cells: &[T],
    expected: usize,
    text: &str,
    line: usize,
) -> Result<(), ParseError> {
    if cells.len() == expected {
        return Ok(());
    }
    let kind = ParseErrorKind::CellCount {
        expected,
        found: cells.len(),
    };
    Err(ParseError::new(kind, line, text.chars().count()))
}

/// Splits `|a|b|` into its decoded cells: the row must start and end with
/// an unescaped pipe.
fn exact_row(text: &str, line: usize) -> Result<Vec<String>, ParseError> {
    let Some(rest) = text.strip_prefix('|') else {
        return Err(ParseError::expected("`|`", line, 1));
    };
    let mut cells: Vec<String> = inline::split(rest, inline::byte(b'|'))
        .map(|(_, cell)| inline::decode(cell, Refs::Numeric).text)
        .collect();
    // Closed: the piece after the last pipe is empty (a final `\|` is
    // an escape, and leaves it non-empty).
    let closed = cells.len() > 1 && cells.last().is_some_and(String::is_empty);
    if !closed {
        return Err(ParseError::expected("`|`", line, text.chars().count() + 1));
    }
    cells.pop();
    Ok(cells)
}

/// A row of a document's table: its line, its text and its raw cells.
#[derive(Debug)]
pub(crate) struct Row<'a> {
    pub(crate) line: usize,
    text: &'a str,
    /// Each cell's byte offset in `text`, and its raw text.
    cells: Vec<(usize, &'a str)>,
}

impl<'a> Row<'a> {
    /// Line `line`, `text`, split as GFM splits a row ([`split_row`]).
    pub(crate) fn split(line: usize, text: &'a str) -> Row<'a> {
        let cells = split_row_at(text);
        Row { line, text, cells }
    }

    /// The raw cells.
    pub(crate) fn cells(&self) -> impl Iterator<Item = &'a str> + '_ {
        self.cells.iter().map(|&(_, cell)| cell)
    }

    /// The column (in characters, from 1) where cell `i` starts, for an
    /// error's position.
    pub(crate) fn column(&self, i: usize) -> usize {
        let at = self.cells.get(i).map_or(self.text.len(), |&(at, _)| at);
        self.text[..at].chars().count() + 1
    }
}

/// A row's raw cells, as GFM splits them: at unescaped pipes, blanks
/// around the row dropped, without the outer pipes (either may be absent).
pub(crate) fn split_row(text: &str) -> Vec<&str> {
    split_row_at(text)
        .into_iter()
        .map(|(_, cell)| cell)
        .collect()
}

/// [`split_row`], each cell with its byte offset in `text`.
fn split_row_at(text: &str) -> Vec<(usize, &str)> {
    let lead = text.len() - text.trim_start_matches(is_blank).len();
    let trimmed = text.trim_matches(is_blank);
    let mut cells: Vec<(usize, &str)> = inline::split(trimmed, inline::byte(b'|'))
        .map(|(at, cell)| (lead + at, cell))
        .collect();
    // A final pipe closes the row rather than opening an empty cell.
    if cells.len() > 1 && cells.last().is_some_and(|(_, cell)| cell.is_empty()) {
        cells.pop();
    }
    if trimmed.starts_with('|') && !cells.is_empty() {
        cells.remove(0);
    }
    cells
}

/// `---`, `:--`, `--:`, `:-:`, padded or not.
pub(crate) fn is_delimiter_cell(cell: &str) -> bool {
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
        let row = Row::split(1, "  | a |b");
        assert_eq!(row.cells().collect::<Vec<_>>(), [" a ", "b"]);
        assert_eq!((row.column(0), row.column(1), row.column(2)), (4, 8, 9));
    }

    #[test]
    fn splits_exact_rows_at_unescaped_pipes() {
        let cases: &[(&str, &[&str])] = &[
            ("||", &[""]),
            ("|a|b|", &["a", "b"]),
            ("|a\\|b|", &["a|b"]),
            ("|\\\\|", &["\\"]),
            ("|\\a|", &["\\a"]),
            ("|&#92;|", &["\\"]),
            ("|&amp;|", &["&amp;"]),
            ("|\\&amp;|", &["&amp;"]),
        ];
        for (row, cells) in cases {
            assert_eq!(exact_row(row, 1).unwrap(), *cells, "{row:?}");
        }
        for (row, column) in [("|", 2), ("|a", 3), ("|a\\|", 5), ("|a\\", 4)] {
            let error = exact_row(row, 1).unwrap_err();
            assert_eq!((error.line(), error.column()), (1, column), "{row:?}");
        }
    }
}

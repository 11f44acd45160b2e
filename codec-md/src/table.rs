//! [`parse_table`]: the inverse of the table rule.

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

/// Why [`parse_table`] rejected its input. Lines and columns count from 1;
/// columns count characters.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ParseTableError {
    /// A row does not start or end with a delimiter pipe (`|`), or the
    /// input is empty.
    #[error("line {line}, column {column}: expected `|`")]
    ExpectedPipe {
        /// The line.
        line: usize,
        /// The column.
        column: usize,
    },
    /// The second line is not a delimiter row of `---` cells.
    #[error("line {line}, column {column}: expected a delimiter cell `---`")]
    ExpectedDelimiter {
        /// The line.
        line: usize,
        /// The column.
        column: usize,
    },
    /// A row has a different number of cells than the header.
    #[error("line {line}, column {column}: expected {expected} cells, found {found}")]
    CellCount {
        /// The line.
        line: usize,
        /// The column of the row's end.
        column: usize,
        /// The number of columns.
        expected: usize,
        /// The number of cells in the row.
        found: usize,
    },
    /// Text after the blank line that ends the table.
    #[error("line {line}, column {column}: expected the end of the table")]
    TrailingText {
        /// The line.
        line: usize,
        /// The column.
        column: usize,
    },
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
/// anything else is itself.
///
/// ```
/// let table = codec_md::parse_table("|name|note|\n|---|---|\n|a\\|b|&#32;x|\n").unwrap();
/// assert_eq!(table.columns, ["name", "note"]);
/// assert_eq!(table.rows, [["a|b", " x"]]);
/// ```
pub fn parse_table(markdown: &str) -> Result<Table, ParseTableError> {
    // Our tables never hold a raw CR, so a CRLF line ending is unambiguous.
    let mut lines = markdown
        .split('\n')
        .enumerate()
        .map(|(i, l)| (i + 1, l.strip_suffix('\r').unwrap_or(l)));
    let (_, header) = lines.next().unwrap_or((1, ""));
    let columns = split_row(header, 1)?;

    let (line, delimiter) = lines.next().unwrap_or((2, ""));
    let cells = split_row(delimiter, line)?;
    let mut column = 2;
    for cell in &cells {
        if cell != "---" {
            return Err(ParseTableError::ExpectedDelimiter { line, column });
        }
        column += 4;
    }
    check_count(&cells, columns.len(), delimiter, line)?;

    let mut rows = Vec::new();
    for (line, text) in lines.by_ref() {
        if text.is_empty() {
            break;
        }
        let row = split_row(text, line)?;
        check_count(&row, columns.len(), text, line)?;
        rows.push(row);
    }
    if let Some((line, text)) = lines.find(|(_, text)| !text.is_empty()) {
        let column = text.chars().take_while(|c| c.is_whitespace()).count() + 1;
        return Err(ParseTableError::TrailingText { line, column });
    }
    Ok(Table { columns, rows })
}

fn check_count(
    cells: &[String],
    expected: usize,
    text: &str,
    line: usize,
) -> Result<(), ParseTableError> {
    if cells.len() == expected {
        return Ok(());
    }
    Err(ParseTableError::CellCount {
        line,
        column: text.chars().count(),
        expected,
        found: cells.len(),
    })
}

/// Splits `|a|b|` into its decoded cells.
fn split_row(text: &str, line: usize) -> Result<Vec<String>, ParseTableError> {
    let Some(mut rest) = text.strip_prefix('|') else {
        return Err(ParseTableError::ExpectedPipe { line, column: 1 });
    };
    let mut cells = Vec::new();
    let mut cell = String::new();
    let mut column = 2;
    let mut closed = false;
    while let Some(c) = rest.chars().next() {
        rest = &rest[c.len_utf8()..];
        closed = c == '|';
        match c {
            '|' => cells.push(std::mem::take(&mut cell)),
            '\\' => match rest.chars().next() {
                Some(p) if p.is_ascii_punctuation() => {
                    cell.push(p);
                    rest = &rest[1..];
                    column += 1;
                }
                _ => cell.push(c),
            },
            '&' => match decode_ref(rest) {
                Some((decoded, len)) => {
                    cell.push(decoded);
                    column += rest[..len].chars().count();
                    rest = &rest[len..];
                }
                None => cell.push(c),
            },
            _ => cell.push(c),
        }
        column += 1;
    }
    if !closed {
        return Err(ParseTableError::ExpectedPipe { line, column });
    }
    Ok(cells)
}

/// Decodes `#N;` or `#xH;` (after an `&`): the character and the bytes
/// taken.
fn decode_ref(rest: &str) -> Option<(char, usize)> {
    let body = rest.strip_prefix('#')?;
    let (radix, digits) = match body.strip_prefix(['x', 'X']) {
        Some(hex) => (16, hex),
        None => (10, body),
    };
    let len = digits
        .bytes()
        .take_while(|b| b.is_ascii_alphanumeric())
        .count();
    if len == 0 || digits.as_bytes().get(len) != Some(&b';') {
        return None;
    }
    let code = u32::from_str_radix(&digits[..len], radix).ok()?;
    let taken = rest.len() - digits.len() + len + 1;
    char::from_u32(code).map(|c| (c, taken))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_numeric_refs() {
        let cases: &[(&str, Option<(char, usize)>)] = &[
            ("#0;", Some(('\0', 3))),
            ("#32;x", Some((' ', 4))),
            ("#x1F600;", Some(('😀', 8))),
            ("#X41;", Some(('A', 5))),
            ("#xD800;", None),
            ("#;", None),
            ("#12", None),
            ("amp;", None),
            ("#99999999999;", None),
        ];
        for (input, expected) in cases {
            assert_eq!(decode_ref(input), *expected, "{input:?}");
        }
    }

    #[test]
    fn splits_rows_at_unescaped_pipes() {
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
            assert_eq!(split_row(row, 1).unwrap(), *cells, "{row:?}");
        }
    }
}

//! [`ParseError`]: why a reader rejected its input, and where.
//!
//! Every reader of the crate ([`parse`](crate::parse),
//! [`parse_lossless`](crate::parse_lossless), [`parse_dense`](crate::parse_dense),
//! [`parse_table`](crate::parse_table), [`MarkdownCodec::parse`](crate::MarkdownCodec::parse))
//! fails with this one type, shaped like `codec_core::ParseError`: what was
//! wrong ([`ParseErrorKind`]) and where (line and column). The table readers
//! share their kinds: a delimiter row with the wrong number of cells is the
//! same [`ParseErrorKind::CellCount`] whichever reader finds it.

/// Why a reader rejected its input, and where. Lines and columns count
/// from 1; columns count characters.
///
/// ```
/// use codec_md::ParseErrorKind;
///
/// let error = codec_md::parse("- **a**: 1\n\ntext\n").unwrap_err();
/// assert_eq!((error.line(), error.column()), (3, 1));
/// assert!(matches!(error.kind(), ParseErrorKind::Expected { .. }));
/// assert_eq!(
///     error.to_string(),
///     "line 3, column 1: expected a heading, a `- key: value` line or a table"
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}, column {column}: {kind}")]
pub struct ParseError {
    kind: ParseErrorKind,
    line: usize,
    column: usize,
}

/// What was wrong with a reader's input.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ParseErrorKind {
    /// The text at this place is not what the reading allows there.
    #[error("expected {expected}")]
    Expected {
        /// What the reading allows here.
        expected: &'static str,
    },
    /// A table row (or a table's delimiter row) with another number of
    /// cells than its header.
    #[error("expected {expected} cells, found {found}")]
    CellCount {
        /// The number of columns.
        expected: usize,
        /// The number of cells in the row.
        found: usize,
    },
    /// Nested deeper than the limit ([`codec_core::value::DEFAULT_MAX_DEPTH`],
    /// the JSON parser's).
    #[error("{nested} nested deeper than the limit of {limit}")]
    DepthLimit {
        /// What nests too deep: `sections`, `values` or `column paths`.
        nested: &'static str,
        /// The limit in force.
        limit: usize,
    },
    /// A table whose rows would build more than the size limit: each row
    /// copies the header's keys (and makes the objects of its dotted
    /// paths), so a long header over many rows could build far more than
    /// its text ([`ParseOptions`](crate::ParseOptions)).
    #[error(
        "a table that would build about {size} bytes, over the limit of {limit} \
         ({factor} bytes per byte of its text, at least 1 MiB); raise \
         ParseOptions::max_size_factor (`codec parse --max-size-factor`) to read it"
    )]
    SizeLimit {
        /// What its rows would build, estimated: per row, each header
        /// key's bytes and 32 bytes per key.
        size: usize,
        /// The limit: `factor` times the table's bytes, at least 1 MiB.
        limit: usize,
        /// [`ParseOptions::max_size_factor`](crate::ParseOptions::max_size_factor).
        factor: usize,
    },
}

impl ParseError {
    pub(crate) fn new(kind: ParseErrorKind, line: usize, column: usize) -> ParseError {
        ParseError { kind, line, column }
    }

    /// An [`ParseErrorKind::Expected`] error.
    pub(crate) fn expected(expected: &'static str, line: usize, column: usize) -> ParseError {
        ParseError::new(ParseErrorKind::Expected { expected }, line, column)
    }

    /// A [`ParseErrorKind::DepthLimit`] error: `nested` goes deeper than
    /// [`codec_core::value::DEFAULT_MAX_DEPTH`], the limit of every reader.
    pub(crate) fn depth(nested: &'static str, line: usize, column: usize) -> ParseError {
        let limit = codec_core::value::DEFAULT_MAX_DEPTH;
        ParseError::new(ParseErrorKind::DepthLimit { nested, limit }, line, column)
    }

    /// What was wrong.
    pub fn kind(&self) -> &ParseErrorKind {
        &self.kind
    }

    /// The line of the error, from 1.
    pub fn line(&self) -> usize {
        self.line
    }

    /// The column of the error, from 1, in characters.
    pub fn column(&self) -> usize {
        self.column
    }
}

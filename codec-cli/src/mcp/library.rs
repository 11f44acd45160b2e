//! The documents `codec mcp` serves: each one's value, or why it cannot
//! be read, and its rows, the part a model pages through.
//!
//! A document's rows are the items of its table: the document itself when
//! it is an array, or the array that is its only member (`{"repositories":
//! [...]}`, the shape of every benchmark dataset but two). A slice of rows
//! keeps that shape, so a page reads, and validates, like the document.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::fmt::Write as _;

use codec_core::{Map, Value};

use crate::error::CliError;

/// Where a document's rows are.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Table {
    /// The document is the array of rows.
    Root,
    /// The document is an object whose only member, this one, is the array.
    Member(String),
    /// No rows: a scalar, or an object of several members or of one that is
    /// not an array.
    None,
}

/// A document that was read.
#[derive(Debug)]
pub(crate) struct Document {
    value: Value,
    table: Table,
}

/// What `get` answers with: a document (borrowed: a large one is not
/// copied for each call), or a slice of its rows in its shape.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Page<'d> {
    pub(crate) value: Cow<'d, Value>,
    /// The index of its first row in the document.
    pub(crate) start: usize,
    /// How many rows it holds, when the document has rows.
    pub(crate) rows: Option<usize>,
}

/// Which rows of a document a page holds: `len` of them from row
/// `start`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Span {
    pub(crate) start: usize,
    pub(crate) len: usize,
}

/// A document, or the reason it cannot be served.
#[derive(Debug)]
enum Entry {
    Read(Document),
    Failed(String),
}

/// Every document by name, in name order.
#[derive(Debug)]
pub(crate) struct Library {
    entries: BTreeMap<String, Entry>,
}

/// Why `get` cannot answer: a tool error, in words a model can act on.
pub(crate) type Refusal = String;

impl Library {
    /// The documents read and those that failed (with their errors).
    pub(crate) fn new(
        documents: BTreeMap<String, Value>,
        failed: BTreeMap<String, CliError>,
    ) -> Library {
        let mut entries: BTreeMap<String, Entry> = documents
            .into_iter()
            .map(|(name, value)| (name, Entry::Read(Document::new(value))))
            .collect();
        for (name, error) in failed {
            entries.insert(name, Entry::Failed(error.to_string()));
        }
        Library { entries }
    }

    /// The names, in order.
    pub(crate) fn names(&self) -> impl Iterator<Item = &str> {
        self.entries.keys().map(String::as_str)
    }

    /// Whether every document that was read is an object (so `get`'s
    /// results are always objects, and its output schema can say so).
    pub(crate) fn all_objects(&self) -> bool {
        self.entries.values().all(|entry| match entry {
            Entry::Read(document) => matches!(document.value, Value::Object(_)),
            Entry::Failed(_) => true,
        })
    }

    /// `list`'s value: `{"documents": [{"name", "rows"?, "error"?}, ...]}`.
    pub(crate) fn listing(&self) -> Value {
        let documents = self
            .entries
            .iter()
            .map(|(name, entry)| {
                let mut row = Map::new();
                row.insert("name", Value::from(name.as_str()));
                match entry {
                    Entry::Read(document) => {
                        if let Some(rows) = document.rows() {
                            row.insert("rows", Value::from(rows.len()));
                        }
                    }
                    Entry::Failed(error) => {
                        row.insert("error", Value::from(error.as_str()));
                    }
                }
                Value::Object(row)
            })
            .collect();
        Value::Object(
            [("documents", Value::Array(documents))]
                .into_iter()
                .collect(),
        )
    }

    /// The document `name`, or why there is none to give.
    pub(crate) fn document(&self, name: &str) -> Result<&Document, Refusal> {
        match self.entries.get(name) {
            Some(Entry::Read(document)) => Ok(document),
            Some(Entry::Failed(error)) => Err(format!("document {name:?} cannot be read: {error}")),
            None => {
                let mut message = format!("no document named {name:?}; the documents are: ");
                let names: Vec<&str> = self.names().collect();
                let _ = write!(message, "{}", names.join(", "));
                Err(message)
            }
        }
    }
}

impl Document {
    fn new(value: Value) -> Document {
        let table = match &value {
            Value::Array(_) => Table::Root,
            Value::Object(map) if map.len() == 1 => match map.iter().next() {
                Some((key, Value::Array(_))) => Table::Member(key.to_owned()),
                _ => Table::None,
            },
            _ => Table::None,
        };
        Document { value, table }
    }

    /// The whole document, as a page.
    pub(crate) fn whole(&self) -> Page<'_> {
        Page {
            value: Cow::Borrowed(&self.value),
            start: 0,
            rows: self.rows().map(<[Value]>::len),
        }
    }

    /// Its rows, if it has a table.
    pub(crate) fn rows(&self) -> Option<&[Value]> {
        let rows = match &self.table {
            Table::Root => &self.value,
            Table::Member(key) => self.value.get(key)?,
            Table::None => return None,
        };
        match rows {
            Value::Array(rows) => Some(rows),
            _ => None,
        }
    }

    /// Which rows `offset..offset + limit` (to the end without a limit)
    /// are, or why there are none to give: checked, not copied.
    pub(crate) fn span(
        &self,
        name: &str,
        offset: usize,
        limit: Option<usize>,
    ) -> Result<Span, Refusal> {
        let Some(rows) = self.rows() else {
            return Err(format!(
                "document {name:?} has no rows to page through (it is not an array, nor an \
                 object whose only member is one); call get without offset and limit"
            ));
        };
        if offset > rows.len() || (offset == rows.len() && !rows.is_empty()) {
            return Err(format!(
                "offset {offset} is past the last row: {name:?} has {} rows (offsets 0 to {})",
                rows.len(),
                rows.len().saturating_sub(1)
            ));
        }
        let end = limit.map_or(rows.len(), |limit| {
            offset.saturating_add(limit).min(rows.len())
        });
        Ok(Span {
            start: offset,
            len: end - offset,
        })
    }

    /// The rows of `span` (which [`Document::span`] gave), copied, in the
    /// document's shape.
    pub(crate) fn page(&self, span: Span) -> Page<'_> {
        let rows = self.rows().unwrap_or_default();
        let end = span.start.saturating_add(span.len).min(rows.len());
        let rows = &rows[span.start.min(end)..end];
        let page = Value::Array(rows.to_vec());
        let value = match &self.table {
            Table::Member(key) => Value::Object([(key.as_str(), page)].into_iter().collect()),
            _ => page,
        };
        Page {
            value: Cow::Owned(value),
            start: span.start,
            rows: Some(rows.len()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use codec_core::from_str;

    fn library(documents: &[(&str, &str)]) -> Library {
        Library::new(
            documents
                .iter()
                .map(|(name, json)| (name.to_string(), from_str(json).unwrap()))
                .collect(),
            BTreeMap::new(),
        )
    }

    #[test]
    fn rows_are_the_table_of_the_document() {
        // (document, its rows)
        let cases: &[(&str, Option<&str>)] = &[
            ("[1, 2, 3]", Some("[1, 2, 3]")),
            (r#"{"repos": [{"a": 1}]}"#, Some(r#"[{"a": 1}]"#)),
            (r#"{"repos": [1], "total": 1}"#, None),
            (r#"{"flags": {"a": 1}}"#, None),
            ("[]", Some("[]")),
            ("3", None),
        ];
        for (json, rows) in cases {
            let document = Document::new(from_str(json).unwrap());
            let expected = rows.map(|r| match from_str(r).unwrap() {
                Value::Array(rows) => rows,
                _ => unreachable!(),
            });
            assert_eq!(document.rows().map(<[Value]>::to_vec), expected, "{json}");
        }
    }

    #[test]
    fn a_slice_keeps_the_shape_of_the_document() {
        let member = Document::new(from_str(r#"{"r": [0, 1, 2, 3]}"#).unwrap());
        let root = Document::new(from_str("[0, 1, 2, 3]").unwrap());
        let empty = Document::new(from_str("[]").unwrap());
        let none = Document::new(from_str(r#"{"a": 1, "b": 2}"#).unwrap());
        // (document, offset, limit, expected slice or refusal)
        type Case<'a> = (&'a Document, usize, Option<usize>, Result<&'a str, &'a str>);
        let cases: &[Case<'_>] = &[
            (&member, 1, Some(2), Ok(r#"{"r": [1, 2]}"#)),
            (&member, 2, None, Ok(r#"{"r": [2, 3]}"#)),
            (&member, 3, Some(10), Ok(r#"{"r": [3]}"#)),
            (&root, 0, Some(1), Ok("[0]")),
            (&root, 0, Some(usize::MAX), Ok("[0, 1, 2, 3]")),
            (&empty, 0, Some(5), Ok("[]")),
            (
                &root,
                4,
                None,
                Err(r#"offset 4 is past the last row: "d" has 4 rows (offsets 0 to 3)"#),
            ),
            (
                &empty,
                1,
                None,
                Err(r#"offset 1 is past the last row: "d" has 0 rows (offsets 0 to 0)"#),
            ),
            (
                &none,
                0,
                Some(1),
                Err(
                    "document \"d\" has no rows to page through (it is not an array, nor an \
                     object whose only member is one); call get without offset and limit",
                ),
            ),
        ];
        for (document, offset, limit, expected) in cases {
            let got = document.span("d", *offset, *limit).map(|span| {
                let page = document.page(span);
                assert_eq!(page.start, *offset);
                let document = Document::new(page.value.clone().into_owned());
                let rows = document.rows().map(<[Value]>::len);
                assert_eq!(page.rows, rows, "{offset} {limit:?}");
                page.value.into_owned()
            });
            let expected = expected
                .map(|json| from_str(json).unwrap())
                .map_err(str::to_owned);
            assert_eq!(got, expected, "{offset} {limit:?}");
        }
    }

    #[test]
    fn listing_and_lookup() {
        let documents = [("a", r#"{"rows": [1, 2]}"#), ("b", r#"{"x": 1}"#)]
            .into_iter()
            .map(|(name, json)| (name.to_owned(), from_str(json).unwrap()))
            .collect();
        let failed = [(
            "bad".to_owned(),
            CliError::Input("bad.json:1:2: invalid JSON".to_owned()),
        )]
        .into_iter()
        .collect();
        let library = Library::new(documents, failed);
        let listing = library.listing();
        assert!(
            listing.identical(
                &from_str(
                    r#"{"documents": [{"name": "a", "rows": 2}, {"name": "b"},
                        {"name": "bad", "error": "bad.json:1:2: invalid JSON"}]}"#
                )
                .unwrap()
            ),
            "{listing:?}"
        );
        assert!(library.all_objects());
        assert!(!self::library(&[("a", "[1]")]).all_objects());
        assert_eq!(
            library.document("bad").unwrap_err(),
            r#"document "bad" cannot be read: bad.json:1:2: invalid JSON"#
        );
        assert_eq!(
            library.document("c").unwrap_err(),
            r#"no document named "c"; the documents are: a, b, bad"#
        );
        assert_eq!(
            library.document("b").unwrap().whole(),
            Page {
                value: Cow::Owned(from_str(r#"{"x": 1}"#).unwrap()),
                start: 0,
                rows: None
            }
        );
    }
}

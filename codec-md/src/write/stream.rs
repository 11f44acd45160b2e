//! Rows as they come: the markdown of a stream of rows, written a row at a
//! time by `SPEC.md`'s *Streaming* rule, with the writer's own table rows,
//! cells, headings and sections (so the same escaping).
//!
//! A table needs only its columns before its first row: the declared
//! ones, or the first row's keys. A row that fits the open table (a flat
//! object whose keys are columns, in the lossless layout in the columns'
//! order) is one more line of it. A flat object with a key outside the
//! columns starts a new table under the heading `[i..]` (the index of its
//! first row), its columns the declared ones followed by the row's other
//! keys, or without declared columns the row's own keys. Any other row
//! is a section headed `[i]` holding the row written as a document. When
//! every row fits the first table, the output is the buffered table, byte
//! for byte.
//!
//! What is held between rows is the open table's columns, the number of
//! rows and whether a block was written: never the output, which the
//! caller may have sent.

use codec_core::{
    EncodeError, FastPath, Value, ValueView,
    rows::{RowEncoder, RowsShape},
    tape::Tape,
    to_value,
    view::ViewKind,
};

use super::default::DefaultLayout;
use super::escape::{self, Context};
use super::lossless::LosslessLayout;
use super::{Layout, MAX_HEADING, Options, Writer};
use crate::Profile;
use crate::schema::{self, Label};

/// The encoder of `shape`'s rows in `options`' profile: the default and
/// lossless layouts stream; the dense one does not (its choice between a
/// table and JSON weighs the whole document), so its rows are collected.
pub(crate) fn row_encoder(options: &Options, shape: &RowsShape) -> Option<Box<dyn RowEncoder>> {
    match options.profile {
        Profile::Default => Some(Box::new(MarkdownRows::new(DefaultLayout, options, shape))),
        Profile::Lossless => Some(Box::new(MarkdownRows::new(LosslessLayout, options, shape))),
        Profile::Dense => None,
    }
}

/// How a layout decides that a row fits a table's columns.
trait StreamLayout: Layout + Copy + Send + 'static {
    /// Whether a flat row with these keys is one more line of a table
    /// with `columns`: every key is a column; in the lossless layout, in
    /// the columns' order too (its reading keeps a row's key order).
    fn fits<'k>(keys: impl Iterator<Item = &'k str>, columns: &[String]) -> bool {
        // Rows usually repeat the columns in order: no search then.
        keys.enumerate().all(|(i, key)| {
            columns.get(i).is_some_and(|column| column == key)
                || columns.iter().any(|column| column == key)
        })
    }
}

impl StreamLayout for DefaultLayout {}

impl StreamLayout for LosslessLayout {
    fn fits<'k>(mut keys: impl Iterator<Item = &'k str>, columns: &[String]) -> bool {
        let mut rest = columns.iter();
        keys.all(|key| rest.any(|column| column == key))
    }
}

/// The row encoder of the default and lossless layouts.
struct MarkdownRows<L> {
    layout: L,
    max_depth: usize,
    member: Option<String>,
    declared: Option<Vec<String>>,
    /// The open table's columns: the last block was that table.
    table: Option<Vec<String>>,
    rows: usize,
    /// Whether a block was written: the next needs a blank line first.
    started: bool,
}

impl<L: StreamLayout> MarkdownRows<L> {
    fn new(layout: L, options: &Options, shape: &RowsShape) -> MarkdownRows<L> {
        MarkdownRows {
            layout,
            max_depth: options.max_depth,
            member: shape.member_key().map(str::to_owned),
            declared: shape.declared_columns().map(<[String]>::to_vec),
            table: None,
            rows: 0,
            started: false,
        }
    }

    /// The heading level of the rows' own headings: under the member's
    /// `#` when there is one.
    fn level(&self) -> usize {
        1 + usize::from(self.member.is_some())
    }

    /// The depth of the array of rows (1 for the document's own).
    fn depth(&self) -> usize {
        self.level()
    }

    /// Writes with the writer's walk into `out`, keeping whether a block
    /// was written.
    fn write<T>(&mut self, out: &mut Vec<u8>, write: impl FnOnce(&mut Writer<'_, L>) -> T) -> T {
        let mut writer = Writer::new(out, self.max_depth, self.layout);
        writer.started = self.started;
        let result = write(&mut writer);
        self.started = writer.started;
        result
    }

    /// The columns of a new table for a flat row with these keys: the
    /// declared ones followed by the row's other keys, or the row's keys.
    fn columns<'k>(&self, keys: impl Iterator<Item = &'k str>) -> Vec<String> {
        let mut columns = self.declared.clone().unwrap_or_default();
        for key in keys {
            if !columns.iter().any(|column| column == key) {
                columns.push(key.to_owned());
            }
        }
        columns
    }
}

/// A heading `[i..]` at `level`: the rows from `i` on, in the table under
/// it. A key is never written so (its `[` is escaped).
fn rows_heading<L: Layout>(w: &mut Writer<'_, L>, from: usize, level: usize) {
    w.block();
    w.out.resize(w.out.len() + level.min(MAX_HEADING), b'#');
    w.out.extend_from_slice(b" [");
    w.out
        .extend_from_slice(itoa::Buffer::new().format(from).as_bytes());
    w.out.extend_from_slice(b"..]");
    w.layout.heading_end(w.out, level);
    w.out.push(b'\n');
}

/// The members of `row` when it can be a table row: an object with at
/// least one member, every value a scalar and no string with a line
/// break (a cell cannot hold a line).
fn flat<'v, V: ValueView<'v>>(row: V) -> Option<V::Members> {
    let members = row.as_object()?;
    let flat = members.len() > 0
        && members.clone().all(|(_, value)| match value.kind() {
            ViewKind::String(s) => !schema::has_line_feed(s),
            ViewKind::Array(_) | ViewKind::Object(_) => false,
            _ => true,
        });
    flat.then_some(members)
}

impl<L: StreamLayout> MarkdownRows<L> {
    /// Appends the next row: a parsed [`Value`] or the [`Tape`] of a
    /// `Serialize` row, the same walk and the same bytes.
    fn write_row<'v, V: ValueView<'v>>(
        &mut self,
        row: V,
        out: &mut Vec<u8>,
    ) -> Result<(), EncodeError> {
        let (i, level, depth) = (self.rows, self.level(), self.depth());
        if i == 0
            && let Some(member) = self.member.take()
        {
            self.write(out, |w| {
                w.enter(1)?;
                w.heading(Label::Key(&member), 1);
                Ok::<_, EncodeError>(())
            })?;
            self.member = Some(member);
        }
        match flat(row) {
            Some(members) => {
                let keys = members.map(|(key, _)| key);
                let fits = self
                    .table
                    .as_deref()
                    .is_some_and(|columns| L::fits(keys.clone(), columns));
                if !fits {
                    let columns = self.columns(keys);
                    self.write(out, |w| {
                        w.enter(depth + 1)?;
                        if i > 0 {
                            rows_heading(w, i, level);
                        }
                        w.table_header(&columns);
                        Ok::<_, EncodeError>(())
                    })?;
                    self.table = Some(columns);
                }
                let columns = self.table.take().unwrap_or_default();
                self.write(out, |w| w.table_rows(std::iter::once(row), &columns));
                self.table = Some(columns);
            }
            None => {
                self.table = None;
                self.write(out, |w| {
                    w.heading(Label::Index(i), level);
                    w.document_at(row, level + 1, depth + 1)
                })?;
            }
        }
        self.rows += 1;
        Ok(())
    }
}

impl<L: StreamLayout> RowEncoder for MarkdownRows<L> {
    fn row(&mut self, row: &Value, out: &mut Vec<u8>) -> Result<(), EncodeError> {
        self.write_row(row, out)
    }

    /// Rows of a known type come on a [`Tape`] recorded with static
    /// dispatch ([`RowEncoder::row_tape`]).
    fn fast_path(&self) -> FastPath {
        FastPath::Tape
    }

    /// The row's [`Tape`], walked as a [`Value`] is, with no tree of maps
    /// and strings per row.
    fn row_tape(&mut self, tape: &Tape, out: &mut Vec<u8>) -> Result<(), EncodeError> {
        self.write_row(tape.root(), out)
    }

    /// A `dyn` row on a [`Tape`] of its own. A value too large for a
    /// tape, or whose serialization fails, goes through `to_value` as by
    /// default: the same bytes, or the same error.
    fn row_serialize(
        &mut self,
        row: &dyn erased_serde::Serialize,
        out: &mut Vec<u8>,
    ) -> Result<(), EncodeError> {
        match Tape::from_serialize(row) {
            Ok(tape) => self.write_row(tape.root(), out),
            Err(_) => self.row(&to_value(row)?, out),
        }
    }

    /// Nothing after rows: a table or a section ends the document as it
    /// is. No rows: the empty document, `[]` or `- **key**: []`.
    fn finish(&mut self, out: &mut Vec<u8>) -> Result<(), EncodeError> {
        if self.rows > 0 {
            return Ok(());
        }
        let shape = match &self.member {
            Some(key) => RowsShape::member(key.clone()),
            None => RowsShape::array(),
        };
        let empty = shape.document(Vec::new());
        self.write(out, |w| w.document(&empty))
    }

    /// A note after the rows written, a paragraph of its own: `Stream
    /// failed after N rows: REASON`, the reason escaped as any value (our
    /// words first, so no reason can open a block or pair with our
    /// markup). A reader sees that what it read is not all; the caller
    /// also ends the body so that the client does.
    fn fail(&mut self, out: &mut Vec<u8>, reason: &str) {
        let rows = self.rows;
        self.write(out, |w| {
            w.block();
            w.out.extend_from_slice(b"Stream failed after ");
            w.out
                .extend_from_slice(itoa::Buffer::new().format(rows).as_bytes());
            w.out
                .extend_from_slice(if rows == 1 { b" row: " } else { b" rows: " });
            escape::write_str(w.out, reason, Context::Value);
            w.out.push(b'\n');
        });
    }
}

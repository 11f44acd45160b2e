//! The dense layout ([`Profile::Dense`](crate::Profile::Dense)): the rules
//! of `SPEC.md`, plus denser tables and JSON where markdown costs more.
//!
//! What it adds (each rule is in `SPEC.md`, *Dense profile*):
//!
//! - Table rows without outer pipes (`1|Ada|true`): one token less per row
//!   on every benchmark table, the difference between losing and winning
//!   against TOON on flat data. The header and delimiter rows keep theirs,
//!   so the table still opens.
//! - Nested objects in rows become dotted columns (`customer.name`); a
//!   key's own `.` is written `\.`.
//! - An object whose members are all objects is a table with a key column
//!   (an empty first header cell).
//! - In a row, a string keeps its line breaks as `&#10;`, a scalar array is
//!   `[a, b]`, and anything else (an array of objects, `{}`) is compact
//!   JSON in a code span.
//! - Every container that would be a document or a section is written as
//!   markdown or as a fenced `json` block, whichever costs less by the rule
//!   of `SPEC.md` (*Which form*). A reader of the fence gets exactly the
//!   JSON: no markdown escape, link or HTML inside it.
//!
//! Two passes: [`plan`] walks the value once and decides which containers
//! are JSON; the writer's walk then writes what was decided.
//! [`parse_dense`](crate::parse_dense) reads all of it back.

use std::collections::HashMap;

use codec_core::{EncodeError, ValueView, view::ViewKind};

use super::escape::{self, Context, Scalar};
use super::estimate::estimate_hundredths;
use super::json;
use super::{Layout, MAX_HEADING, Writer};
use crate::schema::{Label, Placement, elements, is_inline_list, members, placement_of};
use crate::schema::{has_line_feed, same_key};

/// A cell keeps a string with at most this many line breaks (as `&#10;`);
/// a row with a longer one makes the array a list of sections, where the
/// string is a fenced block. In o200k `&#10;` costs 3 tokens against 1 in
/// a fence, while leaving the table costs about 50 tokens per row
/// (event-logs), so on tokens refs would pay up to about 25 lines per row.
/// The limit is set lower for the reader: 8 lines keeps a stack trace in
/// its cell, and a longer text (a source file) gets its fence.
const MAX_CELL_BREAKS: usize = 8;

/// A keyed table needs at least this many rows. A map with one object
/// member is better as its section: as a one-row table its columns would
/// flatten everything below (keyed: the 500 flags under `flags` would be
/// 2,000 columns of one row).
const MIN_KEYED_ROWS: usize = 2;

/// The dense layout: the default's hooks, except for the document and a
/// section's body, which are written in the form [`plan`] decided.
#[derive(Debug, Default)]
pub(super) struct DenseLayout {
    /// The containers written as a table or as JSON, by
    /// [`ValueView::id`], sorted; any other is a body of list lines and
    /// sections.
    forms: Vec<(usize, Form)>,
    /// The tables, as the plan laid them out.
    tables: Vec<TableLayout>,
}

impl Layout for DenseLayout {
    /// A container is planned, then written; a scalar as in the default.
    fn document<'v, V: ValueView<'v>>(
        w: &mut Writer<'_, Self>,
        value: V,
    ) -> Result<(), EncodeError> {
        if value.is_scalar() {
            return w.document(value);
        }
        w.enter(1)?;
        w.layout = plan(value, w.max_depth)?;
        container(w, value, 1, 0, true)
    }

    fn section_body<'v, V: ValueView<'v>>(
        w: &mut Writer<'_, Self>,
        value: V,
        level: usize,
        depth: usize,
    ) -> Result<(), EncodeError> {
        container(w, value, level, depth, false)
    }
}

/// A container's form, when it is not a body.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Form {
    /// A dense table, plain, dotted or keyed: its layout's place in
    /// [`DenseLayout::tables`].
    Table(usize),
    /// A fenced `json` block.
    Json,
}

/// Writes `value`, the document's container (`top`) or a section's at
/// `depth`, in the form [`plan`] decided.
fn container<'v, V: ValueView<'v>>(
    w: &mut Writer<'_, DenseLayout>,
    value: V,
    level: usize,
    depth: usize,
    top: bool,
) -> Result<(), EncodeError> {
    let forms = &w.layout.forms;
    let form = match forms.binary_search_by_key(&value.id(), |&(id, _)| id) {
        Ok(at) => Some(forms[at].1),
        Err(_) => None,
    };
    if form == Some(Form::Json) {
        return json_fence(w, value, depth);
    }
    if let Some(Form::Table(at)) = form {
        let table = std::mem::take(&mut w.layout.tables[at]);
        write_table(w, value, &table);
        w.layout.tables[at] = table;
        return Ok(());
    }
    match value.kind() {
        ViewKind::Array(items) if top && items.len() == 0 => {
            w.line(|_, out| out.extend_from_slice(b"[]"));
        }
        ViewKind::Object(map) if top && map.len() == 0 => {
            w.line(|_, out| out.extend_from_slice(b"{}"));
        }
        ViewKind::Array(items) if top && is_inline_list(items.clone()) => {
            w.line(|layout, out| layout.list(out, items, true));
        }
        ViewKind::Array(items) => w.body(elements(items), None::<V::Members>, level, depth)?,
        ViewKind::Object(map) => w.body(members(map.clone()), Some(map), level, depth)?,
        _ => {}
    }
    Ok(())
}

/// A fenced `json` block of `value`'s exact compact JSON
/// ([`json::write_fenced`]), its fence longer than any backtick run in it.
fn json_fence<'v, V: ValueView<'v>>(
    w: &mut Writer<'_, DenseLayout>,
    value: V,
    depth: usize,
) -> Result<(), EncodeError> {
    w.block();
    let start = w.out.len();
    w.out.extend_from_slice(b"```json\n");
    let from = w.out.len();
    json::write_fenced(w.out, value, depth, w.max_depth)?;
    // The longest run of backticks: most JSON has none.
    let (mut longest, mut run, mut next) = (0, 0, from);
    for at in memchr::memchr_iter(b'`', &w.out[from..]) {
        run = if from + at == next { run + 1 } else { 1 };
        (longest, next) = (longest.max(run), from + at + 1);
    }
    // A fence longer than any run: more backticks before the first three.
    let ticks = (longest + 1).max(3);
    let more = std::iter::repeat_n(b'`', ticks - 3);
    w.out.splice(start..start, more);
    w.out.push(b'\n');
    w.out.resize(w.out.len() + ticks, b'`');
    w.out.push(b'\n');
    Ok(())
}

/// A table as the plan laid it out ([`TableLayout::of`]), for the writer
/// to write with no search: its header and delimiter rows, and where each
/// row's leaves go.
#[derive(Debug, Default)]
struct TableLayout {
    /// The header and delimiter rows, as written.
    header: Vec<u8>,
    columns: usize,
    keyed: bool,
    /// Each row: `None` when its leaves are the first columns in order
    /// (most rows), else each leaf's column.
    rows: Vec<Option<Vec<usize>>>,
}

impl TableLayout {
    fn of<'v, V: ValueView<'v>>(table: &DenseTable<'v, V>) -> TableLayout {
        let mut header = Vec::with_capacity(16 * table.width());
        header.push(b'|');
        if table.keyed {
            header.push(b'|');
        }
        let mut path = Vec::new();
        for column in 0..table.columns.len() {
            table.columns.path(column, &mut path);
            for (i, key) in path.iter().enumerate() {
                if i > 0 {
                    header.push(b'.');
                }
                escape::write_str(&mut header, key, Context::Path);
            }
            header.push(b'|');
        }
        // One hyphen a cell, the fewest GFM takes: `|-|` costs fewer
        // tokens than `|---|`.
        header.extend_from_slice(b"\n|");
        for _ in 0..table.width() {
            header.extend_from_slice(b"-|");
        }
        header.push(b'\n');
        let mut row_start = 0;
        let rows = table.rows.iter().map(|&(_, row_end)| {
            let cells = &table.cells[row_start..row_end];
            row_start = row_end;
            let in_order = cells
                .iter()
                .enumerate()
                .all(|(i, &(column, _))| i == column);
            (!in_order).then(|| cells.iter().map(|&(column, _)| column).collect())
        });
        TableLayout {
            columns: table.columns.len(),
            keyed: table.keyed,
            rows: rows.collect(),
            header,
        }
    }
}

/// A dense table laid out as `table` says: header and delimiter rows with
/// outer pipes, body rows without.
fn write_table<'v, V: ValueView<'v>>(
    w: &mut Writer<'_, DenseLayout>,
    value: V,
    table: &TableLayout,
) {
    w.block();
    w.out.extend_from_slice(&table.header);
    match value.kind() {
        ViewKind::Array(items) => write_rows(w.out, items.map(|row| (None, row)), table),
        ViewKind::Object(map) => write_rows(w.out, map.map(|(key, row)| (Some(key), row)), table),
        _ => {}
    }
}

/// The rows of a [`write_table`].
fn write_rows<'v, V: ValueView<'v>>(
    out: &mut Vec<u8>,
    rows: impl Iterator<Item = (Option<&'v str>, V)>,
    table: &TableLayout,
) {
    // A one-column table keeps its outer pipes: a line with no pipe at
    // all reads as a row to some parsers only.
    let outer = table.columns + usize::from(table.keyed) == 1;
    let mut cells: Vec<Option<V>> = Vec::new();
    for ((key, row), layout) in rows.zip(&table.rows) {
        let Some(map) = row.as_object() else {
            continue;
        };
        let start = out.len();
        if outer {
            out.push(b'|');
        }
        let mut cell = Cell {
            out,
            start,
            first: true,
        };
        if let Some(key) = key {
            escape::write_first_cell(cell.out, key);
            cell.first = false;
        }
        let mut written = 0;
        match layout {
            None => each_leaf::<V>(map, &mut |value| {
                cell.write(Some(value));
                written += 1;
            }),
            Some(columns) => {
                cells.clear();
                cells.resize(table.columns, None);
                let mut at = columns.iter();
                each_leaf::<V>(map, &mut |value| {
                    if let Some(&column) = at.next() {
                        cells[column] = Some(value);
                    }
                });
                cells.iter().for_each(|&value| cell.write(value));
                written = table.columns;
            }
        }
        (written..table.columns).for_each(|_| cell.write(None::<V>));
        if outer {
            cell.out.push(b'|');
        }
        cell.out.push(b'\n');
    }
}

/// A row's cells as they are written: each after a pipe but the first.
struct Cell<'o> {
    out: &'o mut Vec<u8>,
    /// Where the row starts.
    start: usize,
    first: bool,
}

impl Cell<'_> {
    fn write<'v, V: ValueView<'v>>(&mut self, value: Option<V>) {
        if !self.first {
            // An empty first cell needs the leading pipe, else the row
            // would start at the second cell.
            if self.out.len() == self.start {
                self.out.push(b'|');
            }
            self.out.push(b'|');
        }
        if let Some(value) = value {
            write_cell(self.out, value, self.first);
        }
        self.first = false;
    }
}

/// Calls `leaf` with each of `map`'s leaves in order: what is not a
/// non-empty object, whose own leaves come in its place.
fn each_leaf<'v, V: ValueView<'v>>(map: V::Members, leaf: &mut impl FnMut(V)) {
    for (_, value) in map {
        if !value.is_scalar()
            && let ViewKind::Object(inner) = value.kind()
            && inner.len() > 0
        {
            each_leaf::<V>(inner, leaf);
        } else {
            leaf(value);
        }
    }
}

/// One cell's value: a scalar, `[a, b]`, or JSON in a code span (whose
/// depth the table checked).
fn write_cell<'v, V: ValueView<'v>>(out: &mut Vec<u8>, value: V, first: bool) {
    match value.kind() {
        ViewKind::Null => {}
        ViewKind::Bool(true) => out.extend_from_slice(b"true"),
        ViewKind::Bool(false) => out.extend_from_slice(b"false"),
        ViewKind::Number(n) => n.write_to(out),
        ViewKind::String(s) if first => escape::write_first_cell(out, s),
        ViewKind::String(s) => match s.as_bytes().first() {
            // `[` opens a list and a backtick a JSON cell: a string that
            // starts with one says it is text.
            Some(b'[' | b'`') => {
                out.push(b'\\');
                out.push(s.as_bytes()[0]);
                escape::write_str(out, &s[1..], Context::Cell);
            }
            _ => escape::write_str(out, s, Context::Cell),
        },
        ViewKind::Array(items) if is_cell_list(items.clone()) => {
            out.push(b'[');
            escape::write_list_in(out, items.map(Scalar::of), Context::Cell, false);
            // No space before the bracket after an empty last item.
            if out.last() == Some(&b' ') {
                out.pop();
            }
            out.push(b']');
        }
        ViewKind::Array(_) | ViewKind::Object(_) => {
            out.push(b'`');
            // Cannot fail: the table checked the depth of its cells.
            let _ = json::write(out, value, 0, usize::MAX);
            out.push(b'`');
        }
    }
}

/// Whether a row's array is written `[a, b]`: scalars only, and no string
/// that holds the separator's comma, a bracket or a line break (those make
/// it a JSON cell).
fn is_cell_list<'v, V: ValueView<'v>>(mut items: impl Iterator<Item = V>) -> bool {
    items.all(|item| match item.kind() {
        ViewKind::String(s) => !s.bytes().any(|b| matches!(b, b',' | b'[' | b']' | b'\n')),
        ViewKind::Array(_) | ViewKind::Object(_) => false,
        _ => true,
    })
}

/// What a container costs in each form, in hundredths of a token (the
/// estimate's unit, [`estimate_hundredths`]), counting only where the two
/// forms differ: a scalar is the same text in both (`SPEC.md`, *Which
/// form*).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Cost {
    markdown: usize,
    json: usize,
}

impl std::ops::AddAssign for Cost {
    fn add_assign(&mut self, other: Cost) {
        self.markdown += other.markdown;
        self.json += other.json;
    }
}

// What each form spends around its scalars, in hundredths, from the
// estimate's weights: a punctuation run of two bytes or more costs 0.25 a
// byte, a line feed 2, a word 1.2.

/// A list line's `- **`, `**: ` and line feed.
const LIST_LINE: usize = 400;
/// A heading's line feed; its `#`s and space cost 0.25 a byte.
const HEADING: usize = 200;
/// A JSON member's `,"` (or `{"`) and `":`.
const KEY: usize = 100;
/// A JSON string's quotes, or a container's brackets, a JSON cell's
/// backticks, merged with the punctuation around them.
const PAIR: usize = 50;
/// A JSON comma, or a table row's pipe between cells (0.6 before a word,
/// nothing before a digit).
const SEPARATOR: usize = 25;
/// JSON's `null`, where markdown writes nothing.
const NULL: usize = 120;
/// A line feed: a table row's, a fenced line's.
const LINE_FEED: usize = 200;
/// A line break inside a string: `&#10;` in a cell, `\n` in JSON.
const CELL_BREAK: usize = 250;
const JSON_BREAK: usize = 60;
/// A fenced block's ```` ``` ```` lines around a string on a list line,
/// and each of its lines' indent and line feed.
const FENCED: usize = 650;
const FENCED_LINE: usize = 250;
/// The fence around a container's JSON: ```` ```json ````, two line
/// feeds, ```` ``` ````: 5 tokens in o200k.
const FENCE: usize = 500;

/// Decides the form of each container that would be the document or a
/// section: JSON when its JSON with its fence costs less than its markdown
/// ([`Cost`]), its sections as they were decided; else a table when it is
/// one, else a body. One walk, bottom-up: a container's cost is its
/// sections' and its own. Returns the layout that writes what was decided;
/// fails where the markdown would (a container too deep).
fn plan<'v, V: ValueView<'v>>(value: V, max_depth: usize) -> Result<DenseLayout, EncodeError> {
    let mut planner = Planner {
        max_depth,
        forms: Vec::new(),
        tables: Vec::new(),
    };
    planner.choose(value, 1, 0, true)?;
    planner.forms.sort_unstable_by_key(|&(id, _)| id);
    Ok(DenseLayout {
        tables: planner.tables(),
        forms: planner.forms,
    })
}

struct Planner<'v, V: ValueView<'v>> {
    max_depth: usize,
    /// The forms decided so far.
    forms: Vec<(usize, Form)>,
    /// The tables decided so far (laid out once all is decided: a table
    /// inside JSON is not).
    tables: Vec<DenseTable<'v, V>>,
}

impl<'v, V: ValueView<'v>> Planner<'v, V> {
    fn tables(&self) -> Vec<TableLayout> {
        self.tables.iter().map(TableLayout::of).collect()
    }

    /// Decides the form of `value`, the document's container (`top`) or a
    /// section's at `depth`, as [`container`] will write it. Returns what
    /// it costs as decided (`markdown`) and as JSON.
    fn choose(
        &mut self,
        value: V,
        level: usize,
        depth: usize,
        top: bool,
    ) -> Result<Cost, EncodeError> {
        let inside = (self.forms.len(), self.tables.len());
        let (cost, table) = self.costs(value, level, depth, top)?;
        // Markdown wins ties: it is the format the reader asked for.
        if cost.markdown <= cost.json + FENCE {
            if let Some(table) = table {
                self.forms
                    .push((value.id(), Form::Table(self.tables.len())));
                self.tables.push(table);
            }
            return Ok(cost);
        }
        // What is inside JSON has no form of its own.
        self.forms.truncate(inside.0);
        self.tables.truncate(inside.1);
        self.forms.push((value.id(), Form::Json));
        Ok(Cost {
            markdown: cost.json + FENCE,
            json: cost.json,
        })
    }

    /// What `value` costs as [`container`] writes its markdown, and as
    /// JSON; and the table, when that markdown is one.
    fn costs(
        &mut self,
        value: V,
        level: usize,
        depth: usize,
        top: bool,
    ) -> Result<(Cost, Option<DenseTable<'v, V>>), EncodeError> {
        let max_depth = self.max_depth;
        let table = match value.kind() {
            ViewKind::Array(items) => DenseTable::of_array(items, depth + 1, max_depth)?,
            ViewKind::Object(map) => DenseTable::<V>::of_map(map, depth + 1, max_depth)?,
            _ => None,
        };
        if let Some(table) = table
            && let Some(cost) = table.cost()
        {
            // Its JSON's rows and nested objects are containers too, one
            // deeper than the markdown counts them.
            if table.reached + 1 > max_depth {
                return Err(EncodeError::DepthLimit { limit: max_depth });
            }
            return Ok((cost, Some(table)));
        }
        let cost = match value.kind() {
            ViewKind::Array(items) if top && is_inline_list(items.clone()) => {
                let mut cost = list_cost(items);
                cost.markdown += LINE_FEED;
                cost
            }
            ViewKind::Array(items) => self.body(elements(items), level, depth)?,
            ViewKind::Object(map) => self.body(members(map), level, depth)?,
            _ => Cost::default(),
        };
        Ok((cost, None))
    }

    /// What a container's body costs, [`Writer::body`]'s list lines and
    /// sections, and its JSON's members or elements: a label is in both
    /// but for an element's `[i]`, which JSON does not write.
    fn body(
        &mut self,
        entries: impl Iterator<Item = (Label<'v>, V)>,
        level: usize,
        depth: usize,
    ) -> Result<Cost, EncodeError> {
        let mut cost = Cost {
            markdown: 0,
            json: PAIR,
        };
        for (label, value) in entries {
            cost.json += match label {
                Label::Key(_) => KEY,
                Label::Index(_) => SEPARATOR,
            };
            if let Label::Index(i) = label {
                cost.markdown += digits_cost(i);
            }
            if !value.is_scalar() && depth + 1 > self.max_depth {
                return Err(EncodeError::DepthLimit {
                    limit: self.max_depth,
                });
            }
            let kind = value.kind();
            cost += match placement_of(label, &kind) {
                Placement::Section => {
                    let inner = self.choose(value, level + 1, depth + 1, false)?;
                    let hashes = 25 * (level.min(MAX_HEADING) + 1);
                    Cost {
                        markdown: HEADING + hashes + inner.markdown,
                        json: inner.json,
                    }
                }
                Placement::Fenced(s) => {
                    let breaks = s.bytes().filter(|&b| b == b'\n').count();
                    Cost {
                        markdown: LIST_LINE + FENCED + FENCED_LINE * (breaks + 1),
                        json: PAIR + JSON_BREAK * breaks,
                    }
                }
                Placement::Inline => {
                    let mut cost = inline_cost(kind);
                    cost.markdown += LIST_LINE;
                    cost
                }
            };
        }
        Ok(cost)
    }
}

/// What `[i]`'s digits cost: 1.9 a group of three.
fn digits_cost(i: usize) -> usize {
    190 * itoa::Buffer::new().format(i).len().div_ceil(3)
}

/// What a value of `kind` on a list line or in a cell costs beyond its
/// scalars' text: a string's quotes (and its line breaks, in a cell),
/// JSON's `null`, a list's separators and brackets.
fn inline_cost<'v, V: ValueView<'v>>(kind: ViewKind<'v, V>) -> Cost {
    match kind {
        ViewKind::String(s) if has_line_feed(s) => {
            let breaks = s.bytes().filter(|&b| b == b'\n').count();
            Cost {
                markdown: CELL_BREAK * breaks,
                json: PAIR + JSON_BREAK * breaks,
            }
        }
        ViewKind::String(_) => Cost {
            markdown: 0,
            json: PAIR,
        },
        ViewKind::Null => Cost {
            markdown: 0,
            json: NULL,
        },
        ViewKind::Array(items) if items.len() > 0 => list_cost(items),
        _ => Cost::default(),
    }
}

/// What a list of scalars costs: `a, b` against `["a","b"]`.
fn list_cost<'v, V: ValueView<'v>>(items: impl ExactSizeIterator<Item = V>) -> Cost {
    let separators = items.len().saturating_sub(1);
    let mut cost = Cost {
        markdown: 2 * SEPARATOR * separators,
        json: PAIR + SEPARATOR * separators,
    };
    for item in items {
        cost.json += inline_cost(item.kind()).json;
    }
    cost
}

/// A table of the dense profile: the column paths, the rows, and each
/// row's cells with their column, found once. Memory is the columns and a
/// reference per cell.
struct DenseTable<'v, V: ValueView<'v>> {
    /// Whether the first column holds the keys of a map.
    keyed: bool,
    /// Each column's path of keys (`["customer", "name"]`), first seen
    /// first.
    columns: Columns<'v>,
    /// Each row: the map key (in a keyed table), and where its cells end.
    rows: Vec<(Option<&'v str>, usize)>,
    /// Each row's cells, one row after the other: (column, value).
    cells: Vec<(usize, V)>,
    /// The depth of its deepest object, or of the deepest container in a
    /// JSON cell.
    reached: usize,
}

impl<'v, V: ValueView<'v>> DenseTable<'v, V> {
    fn width(&self) -> usize {
        self.columns.len() + usize::from(self.keyed)
    }

    /// The table of an array, when every element is an object whose
    /// leaves fit in cells. `depth` is the rows' depth.
    fn of_array(
        items: V::Elements,
        depth: usize,
        max_depth: usize,
    ) -> Result<Option<DenseTable<'v, V>>, EncodeError> {
        let rows = items.map(|item| item.as_object().map(|map| (None, map)));
        let table = DenseTable::build(rows, false, depth, max_depth)?;
        // An empty first header cell means a key column: an array's table
        // cannot start with the empty key.
        Ok(table.filter(|table| table.columns.columns.first() != Some(&(ROW, ""))))
    }

    /// The keyed table of an object whose members are all non-empty
    /// objects.
    fn of_map(
        map: V::Members,
        depth: usize,
        max_depth: usize,
    ) -> Result<Option<DenseTable<'v, V>>, EncodeError> {
        if map.len() < MIN_KEYED_ROWS {
            return Ok(None);
        }
        let rows = map.map(|(key, value)| match value.as_object() {
            Some(inner) if inner.len() > 0 => Some((Some(key), inner)),
            _ => None,
        });
        DenseTable::build(rows, true, depth, max_depth)
    }

    /// The table of `rows` at `depth`, when each is an object and at most
    /// half its cells are empty (whether its strings fit in cells is
    /// [`DenseTable::cost`]'s to say). Fails when an object or a JSON cell
    /// is too deep.
    fn build(
        rows: impl Iterator<Item = Option<(Option<&'v str>, V::Members)>>,
        keyed: bool,
        depth: usize,
        max_depth: usize,
    ) -> Result<Option<DenseTable<'v, V>>, EncodeError> {
        // The rows to come, bounded, since a table can still fail at its
        // second row.
        let expected = rows.size_hint().0.min(MAX_RESERVED_ROWS);
        let mut table = DenseTable {
            keyed,
            columns: Columns::default(),
            rows: Vec::new(),
            cells: Vec::new(),
            reached: depth,
        };
        let (mut path, mut present) = (Vec::new(), 0);
        for row in rows {
            let Some((key, map)) = row else {
                return Ok(None);
            };
            let row_start = table.cells.len();
            if table.rows.is_empty() {
                // Room for the rows, and for each a cell per member of the
                // first (at least), bounded; not before a first row is an
                // object (most objects' first member is not).
                table.rows.reserve(expected);
                let cells = map.len().saturating_mul(expected);
                table.cells.reserve(cells.min(MAX_RESERVED_CELLS));
            }
            // Most rows after the first list the columns in order: their
            // cells without the walk's paths.
            let (columns, cells) = (&table.columns, &mut table.cells);
            let mut next = 0;
            let reached = &mut table.reached;
            let ordered = depth <= max_depth
                && ordered_cells(
                    columns,
                    map.clone(),
                    ROW,
                    (depth, max_depth),
                    &mut next,
                    reached,
                    cells,
                );
            if !ordered {
                table.cells.truncate(row_start);
                let (columns, cells) = (&mut table.columns, &mut table.cells);
                let mut at = 0;
                let mut leaf = |path: &[&'v str], value| {
                    // Rows usually repeat the columns in order: no search then.
                    let column = match columns.is_at(at, path) {
                        true => at,
                        false => columns.find(path).unwrap_or_else(|| columns.push(path)),
                    };
                    cells.push((column, value));
                    at += 1;
                };
                let reached = &mut table.reached;
                leaves::<V>(map, depth, max_depth, &mut path, reached, &mut leaf)?;
                if table.rows.is_empty() {
                    // The first row's cells for each row, bounded.
                    let cells = at.saturating_mul(expected.saturating_sub(1));
                    table.cells.reserve(cells.min(MAX_RESERVED_CELLS));
                }
            }
            present += table.cells.len() - row_start;
            table.rows.push((key, table.cells.len()));
        }
        // At most half the cells empty, as in the default profile: a
        // sparser table grows with the square of its input (n rows with n
        // different keys), which an untrusted input must not cause.
        let cells = table.rows.len().checked_mul(table.columns.len());
        let dense_enough = cells.is_some_and(|cells| cells <= present.saturating_mul(2));
        Ok((!table.columns.is_empty() && dense_enough).then_some(table))
    }

    /// What the table costs as markdown and as JSON ([`Cost`]): its header
    /// once against its keys on every row (and the keys and braces of the
    /// objects its dotted columns open), a line feed and pipes a row
    /// against braces, and what its cells add ([`inline_cost`]; a JSON
    /// cell's backticks). `None` when a string has more line breaks than a
    /// cell holds: then it is no table.
    ///
    /// Out of line: inlined into the planner's recursion, its loop over
    /// every cell compiled to more instructions.
    #[inline(never)]
    fn cost(&self) -> Option<Cost> {
        let objects = &self.columns.objects;
        let key = |key: &str| KEY + estimate_hundredths(key.as_bytes());
        let columns: Vec<usize> = self.columns.columns.iter().map(|&(_, k)| key(k)).collect();
        let opens: Vec<usize> = objects.iter().map(|&(_, k)| key(k) + PAIR).collect();
        let mut cost = Cost {
            markdown: 2 * LINE_FEED + 25 * (1 + 2 * self.width()),
            json: PAIR,
        };
        // Each header cell: its path's keys, each after a pipe or a dot.
        for &(mut object, _) in &self.columns.columns {
            while let Some(&(parent, _)) = objects.get(object) {
                cost.markdown += opens[object] - KEY - PAIR + 60;
                object = parent;
            }
        }
        cost.markdown += columns.iter().map(|key| key - KEY + 60).sum::<usize>();
        // The row in which each object was last opened.
        let mut opened = vec![usize::MAX; objects.len()];
        let mut row_start = 0;
        for (row, &(map_key, row_end)) in self.rows.iter().enumerate() {
            cost.markdown += LINE_FEED + SEPARATOR * (self.width() - 1);
            cost.json += PAIR + SEPARATOR + if map_key.is_some() { KEY } else { 0 };
            for &(column, value) in &self.cells[row_start..row_end] {
                cost.json += columns[column];
                cost += match value.kind() {
                    ViewKind::String(s) if has_line_feed(s) => {
                        let breaks = s.bytes().filter(|&b| b == b'\n').count();
                        if breaks > MAX_CELL_BREAKS {
                            return None;
                        }
                        Cost {
                            markdown: CELL_BREAK * breaks,
                            json: PAIR + JSON_BREAK * breaks,
                        }
                    }
                    ViewKind::String(_) => Cost {
                        markdown: 0,
                        json: PAIR,
                    },
                    ViewKind::Null => Cost {
                        markdown: 0,
                        json: NULL,
                    },
                    // `[a, b]`, or JSON between backticks (told by the
                    // first item: a cheaper test than the writer's).
                    ViewKind::Array(items) if items.clone().next().is_none_or(V::is_scalar) => {
                        list_cost(items)
                    }
                    ViewKind::Array(_) | ViewKind::Object(_) => Cost {
                        markdown: PAIR,
                        json: 0,
                    },
                    _ => Cost::default(),
                };
                let mut object = self.columns.columns[column].0;
                while let Some(&(parent, _)) = objects.get(object) {
                    if opened[object] == row {
                        break;
                    }
                    opened[object] = row;
                    cost.json += opens[object];
                    object = parent;
                }
            }
            row_start = row_end;
        }
        Some(cost)
    }
}

/// The most rows a table reserves room for before it has them: its
/// elements are there, so it is the input's own size, but a table can
/// still fail at its second row.
const MAX_RESERVED_ROWS: usize = 64 * 1024;

/// The most cells a table reserves room for before it has them, its first
/// row's for each row: at most 1.5 MB (a cell is 24 bytes on a tape), so
/// that a wide first row over many rows cannot reserve more than the
/// input could fill.
const MAX_RESERVED_CELLS: usize = 64 * 1024;

/// Pushes the cells of `map`, the members of `object` (one of the
/// columns' objects, or [`ROW`]) at `depth`, when its leaves are the
/// columns from `next` on, in order, and says so, with `next` past them
/// and `reached` raised to the depth of its deepest JSON cell; false,
/// with some cells pushed, at the first member that is not the next
/// column (or an object around it), or a JSON cell deeper than the limit
/// (the walk, [`leaves`], then reports it). An object entered is one of
/// the columns', which the row that made it reached at the same depth.
fn ordered_cells<'v, V: ValueView<'v>>(
    columns: &Columns<'v>,
    map: V::Members,
    object: usize,
    (depth, max_depth): (usize, usize),
    next: &mut usize,
    reached: &mut usize,
    cells: &mut Vec<(usize, V)>,
) -> bool {
    for (key, value) in map {
        let Some(&(column_object, column_key)) = columns.columns.get(*next) else {
            return false;
        };
        // Most cells are scalars: told without reading their kind.
        if !value.is_scalar() {
            if let ViewKind::Object(inner) = value.kind()
                && inner.len() > 0
            {
                // The object named `key` in `object` that the next column
                // is in.
                let mut child = column_object;
                let found = loop {
                    match columns.objects.get(child) {
                        Some(&(up, name)) if up == object => break same_key(name, key),
                        Some(&(up, _)) => child = up,
                        None => break false,
                    }
                };
                let limits = (depth + 1, max_depth);
                if !found || !ordered_cells(columns, inner, child, limits, next, reached, cells) {
                    return false;
                }
                continue;
            }
            // A JSON cell, as deep as the walk would check.
            let deepest = depth + value.depth();
            if deepest > max_depth {
                return false;
            }
            *reached = (*reached).max(deepest);
        }
        if column_object != object || !same_key(column_key, key) {
            return false;
        }
        cells.push((*next, value));
        *next += 1;
    }
    true
}

/// Columns, and objects on their paths, searched one by one before a
/// table hashes them: hashing the paths of small tables costs more than
/// searching a few.
const SEARCHED_COLUMNS: usize = 16;

/// The object that holds a table's own columns ([`Columns`]).
const ROW: usize = usize::MAX;

/// A table's columns, each a path of keys (`customer.name`), first seen
/// first: a tree of the objects on the paths, each object its parent
/// and its key, and each column its object and its last key. A column
/// costs the same at any depth (a path of keys per column was quadratic
/// in memory for a deep row).
#[derive(Debug, Default)]
struct Columns<'v> {
    /// The objects on the paths: each one's parent ([`ROW`] at the top)
    /// and key.
    objects: Vec<(usize, &'v str)>,
    /// The objects by parent and key, once there are too many to search.
    children: Option<HashMap<(usize, &'v str), usize>>,
    /// Each column: its object and its last key.
    columns: Vec<(usize, &'v str)>,
    /// The columns by object and last key, once there are too many to
    /// search.
    index: Option<HashMap<(usize, &'v str), usize>>,
}

impl<'v> Columns<'v> {
    fn len(&self) -> usize {
        self.columns.len()
    }

    fn is_empty(&self) -> bool {
        self.columns.is_empty()
    }

    /// The keys of column `at`, into `path`.
    fn path(&self, at: usize, path: &mut Vec<&'v str>) {
        path.clear();
        let Some(&(mut object, last)) = self.columns.get(at) else {
            return;
        };
        path.push(last);
        while let Some(&(parent, key)) = self.objects.get(object) {
            path.push(key);
            object = parent;
        }
        path.reverse();
    }

    /// Whether column `at` is `path`.
    fn is_at(&self, at: usize, path: &[&str]) -> bool {
        let Some((last, mut objects)) = path.split_last() else {
            return false;
        };
        let Some(&(mut object, key)) = self.columns.get(at) else {
            return false;
        };
        if !same_key(key, last) {
            return false;
        }
        while let Some((next, rest)) = objects.split_last() {
            match self.objects.get(object) {
                Some(&(parent, key)) if same_key(key, next) => object = parent,
                _ => return false,
            }
            objects = rest;
        }
        object == ROW
    }

    /// The column of `path`: its objects found one by one ([`child`]:
    /// none when one is missing), then the column of the last object and
    /// key, searched while there are few, else hashed.
    ///
    /// [`child`]: Columns::child
    fn find(&self, path: &[&str]) -> Option<usize> {
        let (last, objects) = path.split_last()?;
        let mut object = ROW;
        for &key in objects {
            object = self.child(object, key)?;
        }
        match &self.index {
            Some(index) => index.get(&(object, *last)).copied(),
            None => self
                .columns
                .iter()
                .position(|&(up, key)| up == object && same_key(key, last)),
        }
    }

    /// The object named `key` in `parent`, if there is one.
    fn child(&self, parent: usize, key: &str) -> Option<usize> {
        match &self.children {
            Some(children) => children.get(&(parent, key)).copied(),
            None => self
                .objects
                .iter()
                .position(|&(up, name)| up == parent && same_key(name, key)),
        }
    }

    /// Adds the column `path`, which is not one yet; its position. (A
    /// leaf's path holds at least its own key.)
    fn push(&mut self, path: &[&'v str]) -> usize {
        let (last, objects) = path
            .split_last()
            .map_or(("", path), |(&last, objects)| (last, objects));
        let mut object = ROW;
        for &key in objects {
            let parent = object;
            if let Some(child) = self.child(parent, key) {
                object = child;
                continue;
            }
            object = self.objects.len();
            if object == 0 {
                // Room for as many as are searched, at once.
                self.objects.reserve(SEARCHED_COLUMNS);
            }
            self.objects.push((parent, key));
            index_last(&mut self.children, &self.objects);
        }
        let at = self.columns.len();
        if at == 0 {
            self.columns.reserve(SEARCHED_COLUMNS);
        }
        self.columns.push((object, last));
        index_last(&mut self.index, &self.columns);
        at
    }
}

/// After `list` (a table's objects or columns) grew by one: its index
/// gets the new entry, or is built once the list is too long to search
/// ([`SEARCHED_COLUMNS`]).
fn index_last<'v>(index: &mut Option<HashMap<(usize, &'v str), usize>>, list: &[(usize, &'v str)]) {
    let Some((&last, _)) = list.split_last() else {
        return;
    };
    match index {
        Some(index) => {
            index.insert(last, list.len() - 1);
        }
        None if list.len() > SEARCHED_COLUMNS => {
            let positions = list.iter().enumerate();
            *index = Some(positions.map(|(at, &entry)| (entry, at)).collect());
        }
        None => {}
    }
}

/// Calls `leaf` with the path and value of every cell of `map`: nested
/// non-empty objects are walked (dotted columns), anything else is a cell.
/// Raises `reached` to the depth of the deepest object or of the deepest
/// container in a JSON cell; fails past `max_depth`.
fn leaves<'v, V: ValueView<'v>>(
    map: V::Members,
    depth: usize,
    max_depth: usize,
    path: &mut Vec<&'v str>,
    reached: &mut usize,
    leaf: &mut impl FnMut(&[&'v str], V),
) -> Result<(), EncodeError> {
    if depth > max_depth {
        return Err(EncodeError::DepthLimit { limit: max_depth });
    }
    *reached = (*reached).max(depth);
    for (key, value) in map {
        path.push(key);
        match value.kind() {
            ViewKind::Object(inner) if inner.len() > 0 => {
                leaves::<V>(inner, depth + 1, max_depth, path, reached, leaf)?;
            }
            ViewKind::Array(_) | ViewKind::Object(_) => {
                // A JSON cell: its depth checked now, so writing cannot fail.
                let deepest = depth + value.depth();
                if deepest > max_depth {
                    return Err(EncodeError::DepthLimit { limit: max_depth });
                }
                *reached = (*reached).max(deepest);
                leaf(path, value);
            }
            _ => leaf(path, value),
        }
        path.pop();
    }
    Ok(())
}
#[cfg(test)]
mod tests {
    use codec_core::{Value, from_str};

    use super::*;
    use crate::Profile;
    use crate::write::{Options, render};

    /// Rule tests use small inputs, where JSON would win: they write
    /// markdown whatever the plan says, except for the cases about it.
    fn dense(json: &str) -> String {
        let value = from_str(json).unwrap_or_else(|e| panic!("{json}: {e}"));
        match json.contains("idleTimeout") {
            true => render_dense(&value),
            false => markdown_only(&value),
        }
    }

    /// `value` in the dense profile.
    fn render_dense(value: &Value) -> String {
        let mut out = Vec::new();
        let options = Options {
            max_depth: codec_core::value::DEFAULT_MAX_DEPTH,
            profile: Profile::Dense,
        };
        render(value, &mut out, &options).unwrap();
        String::from_utf8(out).unwrap()
    }

    /// `value` in the dense layout with no container planned as JSON:
    /// every container that can be a table is one.
    fn markdown_only(value: &Value) -> String {
        fn tables(value: &Value, depth: usize, layout: &mut DenseLayout) {
            let table = match value {
                Value::Array(items) => DenseTable::of_array(items.iter(), depth + 1, 128),
                Value::Object(map) => DenseTable::<&Value>::of_map(map.iter(), depth + 1, 128),
                _ => return,
            };
            if let Some(table) = table.unwrap().filter(|table| table.cost().is_some()) {
                let form = Form::Table(layout.tables.len());
                layout.forms.push((value.id(), form));
                layout.tables.push(TableLayout::of(&table));
            }
            let children: Vec<&Value> = match value {
                Value::Array(items) => items.iter().collect(),
                Value::Object(map) => map.iter().map(|(_, v)| v).collect(),
                _ => Vec::new(),
            };
            children
                .into_iter()
                .for_each(|child| tables(child, depth + 1, layout));
        }
        let mut layout = DenseLayout::default();
        tables(value, 0, &mut layout);
        layout.forms.sort_unstable_by_key(|&(id, _)| id);
        let mut out = Vec::new();
        let mut w = Writer::new(&mut out, codec_core::value::DEFAULT_MAX_DEPTH, layout);
        match value.is_scalar() {
            true => w.document(value).unwrap(),
            false => container(&mut w, value, 1, 0, true).unwrap(),
        }
        String::from_utf8(out).unwrap()
    }

    /// Every column's keys.
    fn paths_of<'v>(columns: &Columns<'v>) -> Vec<Vec<&'v str>> {
        let mut paths = vec![Vec::new(); columns.len()];
        for (at, path) in paths.iter_mut().enumerate() {
            columns.path(at, path);
        }
        paths
    }

    proptest::proptest! {
        // Cheap cases, and a row read wrong in order shows in few of them
        // (a nested object under another key: 1 in ~1,000).
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(4096))]

        /// A table finds the same cells, columns and depth, taking the rows
        /// in column order the short way ([`ordered_cells`]), as the walk
        /// finds for every row: rows with their keys in order or not,
        /// missing or extra keys, objects nested one and two deep, arrays
        /// and empty objects at either depth; with depth limits that the
        /// rows and their cells reach.
        #[test]
        fn ordered_rows_find_what_the_walk_finds(
            rows in proptest::collection::vec(
                proptest::collection::vec(
                    (
                        proptest::sample::select(vec!["a", "b", "c", "d"]),
                        proptest::sample::select(vec![
                            "1", "\"x\"", "null", "{\"e\": 1}", "{}", "[1]",
                            "{\"e\": {\"f\": 2}}", "{\"e\": [1]}", "{\"e\": {\"f\": [[1]]}}",
                            "{\"f\": \"x\", \"e\": [1]}", "{\"e\": {\"f\": {}}, \"g\": 3}",
                        ]),
                    ),
                    0..5,
                ),
                1..6,
            ),
            max_depth in 1usize..4,
        ) {
            let rows: Vec<String> = rows
                .iter()
                .map(|members| {
                    let mut seen = std::collections::HashSet::new();
                    let members: Vec<String> = members
                        .iter()
                        .filter(|(key, _)| seen.insert(*key))
                        .map(|(key, value)| format!("\"{key}\": {value}"))
                        .collect();
                    format!("{{{}}}", members.join(", "))
                })
                .collect();
            let value = from_str(&format!("[{}]", rows.join(", "))).unwrap();
            let Value::Array(items) = &value else { unreachable!() };
            let rows = items.iter().map(|item| item.as_object().map(|map| (None, map.iter())));
            let built = DenseTable::<&Value>::build(rows, false, 1, max_depth)
                .map(|table| {
                    table.map(|t| {
                        let cells = t.cells.iter().map(|&(column, v)| (column, v.id())).collect();
                        let rows = t.rows.iter().map(|&(_, end)| end).collect();
                        (paths_of(&t.columns), rows, cells, t.reached)
                    })
                })
                .map_err(|e| e.to_string());
            proptest::prop_assert_eq!(built, walked(items, max_depth));
        }
    }

    /// What [`DenseTable::build`] finds for `items` at depth 1, every row
    /// found by the walk ([`leaves`]).
    #[allow(clippy::type_complexity)]
    fn walked<'v>(
        items: &'v [Value],
        max_depth: usize,
    ) -> Result<Option<(Vec<Vec<&'v str>>, Vec<usize>, Vec<(usize, usize)>, usize)>, String> {
        let (mut columns, mut cells, mut rows) = (Columns::<'v>::default(), Vec::new(), Vec::new());
        let (mut path, mut reached) = (Vec::new(), 1);
        for item in items {
            let Some(map) = item.as_object() else {
                return Ok(None);
            };
            let mut leaf = |path: &[&'v str], value: &'v Value| {
                let column = columns.find(path).unwrap_or_else(|| columns.push(path));
                cells.push((column, value.id()));
            };
            leaves::<&Value>(map.iter(), 1, max_depth, &mut path, &mut reached, &mut leaf)
                .map_err(|e| e.to_string())?;
            rows.push(cells.len());
        }
        let dense_enough = rows.len() * columns.len() <= 2 * cells.len();
        Ok((!columns.is_empty() && dense_enough)
            .then(|| (paths_of(&columns), rows, cells, reached)))
    }

    proptest::proptest! {
        /// The columns find each path where a list of paths finds it,
        /// columns and objects searched and, past [`SEARCHED_COLUMNS`] of
        /// each, hashed: paths that share objects, the same key under
        /// different objects, a key both a column and an object.
        #[test]
        fn columns_find_what_a_list_finds(
            paths in proptest::collection::vec(
                proptest::collection::vec(proptest::sample::select(vec!["a", "b", "c", ""]), 1..5),
                1..60,
            ),
        ) {
            let mut columns = Columns::default();
            let mut list: Vec<Vec<&str>> = Vec::new();
            for path in &paths {
                let expected = list.iter().position(|p| p == path);
                proptest::prop_assert_eq!(columns.find(path), expected, "{:?} in {:?}", path, list);
                if expected.is_none() {
                    proptest::prop_assert_eq!(columns.push(path), list.len());
                    list.push(path.clone());
                }
                let at = list.iter().position(|p| p == path).unwrap();
                proptest::prop_assert!(columns.is_at(at, path));
                proptest::prop_assert!(!columns.is_at(at + 1, path));
            }
            proptest::prop_assert_eq!(paths_of(&columns), list);
        }
    }

    #[test]
    fn follows_each_rule() {
        let cases: &[(&str, &str)] = &[
            // Rows without outer pipes; an empty first cell keeps its pipe.
            (
                r#"[{"a": 1, "b": "x"}, {"b": "y", "c": null}]"#,
                "|a|b|c|\n|-|-|-|\n1|x|\n||y|\n",
            ),
            // One column keeps its outer pipes.
            (r#"[{"a": 1}, {"a": null}]"#, "|a|\n|-|\n|1|\n||\n"),
            // Dotted columns; a key's own dot is escaped.
            (
                r#"[{"id": 1, "user": {"name": "ada", "a.b": 2}}]"#,
                "|id|user.name|user.a\\.b|\n|-|-|-|\n1|ada|2\n",
            ),
            // Line breaks as refs, lists in brackets, JSON in a code span.
            (
                r#"[{"s": "a\nb", "t": ["x", 1, null], "u": [{"k": "`|"}], "v": {}}]"#,
                "|s|t|u|v|\n|-|-|-|-|\na&#10;b|[x, 1,]|`[{\"k\":\"\\u0060\\u007c\"}]`|`{}`\n",
            ),
            // A string that starts like a list or a JSON cell says so.
            (
                r#"[{"a": "[x]", "b": "[y]", "c": "`z"}]"#,
                "|a|b|c|\n|-|-|-|\n\\[x]|\\[y]|\\`z\n",
            ),
            // The first cell is protected like a paragraph's start.
            (
                r##"[{"a": "# h", "b": 1}, {"a": "- i", "b": 2}]"##,
                "|a|b|\n|-|-|\n\\# h|1\n\\- i|2\n",
            ),
            // A map of objects: a keyed table.
            (
                r#"{"x": {"a": 1}, "y": {"a": 2, "b": true}}"#,
                "||a|b|\n|-|-|-|\nx|1|\ny|2|true\n",
            ),
            // Too many line breaks in a row: not a table.
            (
                r#"[{"a": "1\n2\n3\n4\n5\n6\n7\n8\n9\n10", "b": 1}]"#,
                "# [0]\n\n- **a**:\n  ```\n  1\n  2\n  3\n  4\n  5\n  6\n  7\n  8\n  9\n  10\n  ```\n- **b**: 1\n",
            ),
            // An array table cannot start with the empty key.
            (r#"[{"": 1, "a": 2}]"#, "# [0]\n\n- : 1\n- **a**: 2\n"),
            // Where JSON is cheaper, the document is its JSON, in a
            // fence with no markdown escape.
            (
                r#"{"pool": {"min": 2, "max": 14, "idleTimeout": 30000}}"#,
                "```json\n{\"pool\":{\"min\":2,\"max\":14,\"idleTimeout\":30000}}\n```\n",
            ),
            (
                r#"{"pool": {"min": 2, "max": 14, "idleTimeout": "*a* <b> [c](d) &amp; http://x"}}"#,
                "```json\n{\"pool\":{\"min\":2,\"max\":14,\"idleTimeout\":\"*a* <b> [c](d) &amp; http://x\"}}\n```\n",
            ),
            // A string paragraph's `{` or `[` is escaped: it is not JSON.
            (r#""{\"a\":1}""#, "\\{\"a\":1}\n"),
            (r#""[1]""#, "\\[1]\n"),
            // Scalars as in the default profile.
            ("null", ""),
            ("1.10", "1.10\n"),
            ("[]", "[]\n"),
            ("{}", "{}\n"),
        ];
        for (json, expected) in cases {
            assert_eq!(dense(json), *expected, "{json}");
        }
    }

    /// A wide table finds the columns of a row that lists them out of
    /// order, by search and, past [`SEARCHED_COLUMNS`], by hash: the
    /// cells land where the row in order puts them.
    #[test]
    fn wide_rows_out_of_order_keep_their_columns() {
        let row = |keys: &mut dyn Iterator<Item = usize>, prefix: &str| {
            let members: Vec<String> = keys.map(|k| format!(r#""k{k}": "{prefix}{k}""#)).collect();
            format!("{{{}}}", members.join(", "))
        };
        for width in [4, SEARCHED_COLUMNS + 4] {
            let first = row(&mut (0..width), "a");
            let last = row(&mut (width..width + 2), "c");
            let in_order = format!("[{first}, {}, {last}]", row(&mut (0..width), "b"));
            let reversed = format!("[{first}, {}, {last}]", row(&mut (0..width).rev(), "b"));
            let expected = dense(&in_order);
            assert!(
                expected.contains(&format!("|k{}|", width + 1)),
                "{expected}"
            );
            assert_eq!(dense(&reversed), expected, "width {width}");
        }
    }

    #[test]
    fn stops_at_the_depth_limit() {
        let options = Options {
            max_depth: 3,
            profile: Profile::Dense,
        };
        for (depth, ok) in [(3, true), (4, false)] {
            for objects in [false, true] {
                let value = codec_core::testkit::nested(depth, objects);
                let result = render(&value, &mut Vec::new(), &options);
                match result {
                    Ok(()) => assert!(ok, "depth {depth} objects {objects}"),
                    Err(EncodeError::DepthLimit { limit: 3 }) => assert!(!ok),
                    Err(e) => panic!("{e}"),
                }
            }
        }
        // Inside a table row: dotted columns and JSON cells count too.
        let row = from_str(r#"[{"a": {"b": {"c": 1}}}]"#).unwrap();
        assert!(render(&row, &mut Vec::new(), &options).is_err());
        let row = from_str(r#"[{"a": [[1]]}]"#).unwrap();
        assert!(render(&row, &mut Vec::new(), &options).is_err());
    }

    /// `value` in the dense layout, its document's container as JSON when
    /// `top_json`, else as markdown, and every other container as planned.
    fn with_top(value: &Value, top_json: bool) -> String {
        let mut planner = Planner {
            max_depth: codec_core::value::DEFAULT_MAX_DEPTH,
            forms: Vec::new(),
            tables: Vec::new(),
        };
        let (_, table) = planner.costs(value, 1, 0, true).unwrap();
        let (mut forms, mut tables) = (planner.forms.clone(), planner.tables());
        match (top_json, table) {
            (true, _) => forms.push((value.id(), Form::Json)),
            (false, Some(table)) => {
                forms.push((value.id(), Form::Table(tables.len())));
                tables.push(TableLayout::of(&table));
            }
            (false, None) => {}
        }
        forms.sort_unstable_by_key(|&(id, _)| id);
        let mut out = Vec::new();
        let layout = DenseLayout { forms, tables };
        let mut w = Writer::new(&mut out, codec_core::value::DEFAULT_MAX_DEPTH, layout);
        container(&mut w, value, 1, 0, true).unwrap();
        String::from_utf8(out).unwrap()
    }

    /// The plan's choice for a document against real o200k counts: its
    /// markdown (its sections as planned) and its fenced JSON, and
    /// whenever they differ by more than 10%, the plan writes the cheaper.
    /// Configurations (nested-config, the examples of `SPEC.md`), tables
    /// of two and three rows, records with a nested object, lists.
    #[test]
    fn plan_agrees_with_o200k() {
        let bpe = tiktoken_rs::o200k_base_singleton();
        let real = |s: &str| bpe.count_ordinary(s);
        let nested_config = include_str!("../../tests/data/nested-config.json");
        let cases = [
            nested_config,
            r#"{"name": "api", "db": {"host": "db.local", "pool": {"min": 2, "max": 14}}}"#,
            r#"{"pool": {"min": 2, "max": 14, "idleTimeout": 30000}}"#,
            r#"{"flags": {"dark_mode": {"enabled": true, "rollout": 70, "owner": "ada"}, "beta.search": {"enabled": false, "rollout": 5, "owner": "bob"}, "new_ui": {"enabled": true, "rollout": 100, "owner": ""}}}"#,
            r#"{"orders": [{"id": "A-1", "customer": {"name": "Ada", "email": "ada@example.com"}, "tags": ["gift", "rush"], "items": [{"sku": "X1", "qty": 2}], "note": "leave at door\nring twice"}, {"id": "A-2", "customer": {"name": "Bob", "email": "bob@example.com"}, "tags": [], "items": [{"sku": "Y7", "qty": 1}], "note": ""}]}"#,
            r#"[{"id": 1, "name": "Ada Lovelace", "email": "ada@example.com"}, {"id": 2, "name": "Bob Stone", "email": "bob@example.org"}]"#,
            r#"{"user": {"id": 7, "name": "Ada", "address": {"city": "London", "zip": "N1"}}, "roles": ["admin", "dev"]}"#,
            r#"{"a": "see http://google.com", "b": "@evil.com/x", "c": {"d": {"e": [1, {"f": 2}]}}}"#,
            r#"{"title": "Release notes", "body": "line one\nline two\nline three", "tags": ["a", "b", "c"], "draft": false}"#,
        ];
        for json in cases {
            let value: Value = from_str(json).unwrap();
            let chose_json = plan(&value, 128)
                .unwrap()
                .forms
                .contains(&(value.id(), Form::Json));
            let (markdown, fenced) = (
                real(&with_top(&value, false)),
                real(&with_top(&value, true)),
            );
            eprintln!("markdown {markdown}, JSON {fenced}, chose JSON {chose_json}: {json:.50}");
            if markdown * 10 > fenced * 11 || fenced * 10 > markdown * 11 {
                assert_eq!(
                    chose_json,
                    fenced < markdown,
                    "{json}: markdown {markdown}, JSON {fenced}"
                );
            }
        }
    }

    /// Objects nested deep, each level a section that JSON wins: the
    /// document is one fence, written once.
    #[test]
    fn deep_sections_are_one_fence() {
        for depth in [1, 2, 5, 40, 120] {
            let mut json = String::from(r#"{"id": 7, "tag": "x|y`z", "n": [1, 2]}"#);
            for level in 0..depth {
                json = format!(r#"{{"k{level}": {json}, "s": "a*b", "m": {{"p": {level}}}}}"#);
            }
            let value = from_str(&json).unwrap();
            let dense = render_dense(&value);
            assert!(dense.starts_with("```json\n{\"k"), "depth {depth}: {dense}");
            assert_eq!(dense.matches("```").count(), 2, "depth {depth}");
        }
    }

    fn estimate(text: &[u8]) -> usize {
        estimate_hundredths(text) / 100
    }

    /// The estimate against real o200k counts: on markdown and JSON texts
    /// of several shapes, its choice between the two agrees with the real
    /// one whenever they differ by more than 10%.
    #[test]
    fn estimate_agrees_with_o200k() {
        let bpe = tiktoken_rs::o200k_base_singleton();
        let real = |s: &str| bpe.count_ordinary(s);
        let pairs: &[(&str, &str)] = &[
            (
                "- **min**: 2\n- **max**: 14\n- **idleTimeout**: 30000\n",
                r#"{"min":2,"max":14,"idleTimeout":30000}"#,
            ),
            (
                "|id|name|email|\n|-|-|-|\n1|Ada Lovelace|ada@example.com\n2|Bob Stone|bob@example.org\n3|Cy Young|cy@example.net\n",
                r#"[{"id":1,"name":"Ada Lovelace","email":"ada@example.com"},{"id":2,"name":"Bob Stone","email":"bob@example.org"},{"id":3,"name":"Cy Young","email":"cy@example.net"}]"#,
            ),
            (
                "||enabled|rollout|\n|-|-|-|\nflag_a|true|82\nflag_b|false|35\nflag_c|true|7\n",
                r#"{"flag_a":{"enabled":true,"rollout":82},"flag_b":{"enabled":false,"rollout":35},"flag_c":{"enabled":true,"rollout":7}}"#,
            ),
            ("- **a**: x\n", r#"{"a":"x"}"#),
        ];
        for (markdown, json) in pairs {
            for text in [markdown, json] {
                let (estimated, counted) = (estimate(text.as_bytes()), real(text));
                assert!(
                    estimated * 10 >= counted * 7 && estimated * 10 <= counted * 13,
                    "{text:?}: estimated {estimated}, o200k {counted}"
                );
            }
            let (m, j) = (real(markdown), real(json) + (FENCE / 100));
            if m * 10 > j * 11 || j * 10 > m * 11 {
                let chosen =
                    estimate(markdown.as_bytes()) <= estimate(json.as_bytes()) + (FENCE / 100);
                assert_eq!(chosen, m <= j, "{markdown:?}: o200k {m} against {j}");
            }
        }
        // The fence's own cost.
        assert_eq!(real("```json\n{}\n```\n") - real("{}"), (FENCE / 100));
    }
}

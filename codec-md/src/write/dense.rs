//! The dense layout ([`Profile::Dense`](crate::Profile::Dense)): the rules
//! of `SPEC.md`, plus denser tables and JSON where markdown costs more.
//!
//! What it adds (each rule is in `SPEC.md`, *Dense profile*):
//!
//! - Table rows without outer pipes (`1|Ada|true`): one token less per row
//!   on every benchmark table (tabular: 51,368 to 49,365 tokens), the
//!   difference between losing and winning against TOON on flat data. The
//!   header and delimiter rows keep theirs, so the table still opens.
//! - Nested objects in rows become dotted columns (`customer.name`); a
//!   key's own `.` is written `\.`.
//! - An object whose members are all objects is a table with a key column
//!   (an empty first header cell).
//! - In a row, a string keeps its line breaks as `&#10;`, a scalar array is
//!   `[a, b]`, and anything else (an array of objects, `{}`) is compact
//!   JSON in a code span.
//! - Every container that would be a document or a section is written as
//!   markdown or as a fenced `json` block, whichever
//!   [`estimate_hundredths`] says is cheaper. A reader of the fence gets
//!   exactly the JSON: no markdown escape, link or HTML inside it.
//!
//! The thresholds, and the measurements behind them, are the constants
//! below. [`parse_dense`](crate::parse_dense) reads all of it back.

use std::collections::HashMap;

use codec_core::{EncodeError, ValueView, view::ViewKind};

use super::escape::{self, Context, Scalar};
use super::estimate::{self, Edges, Estimate, Measure, Word, estimate_hundredths};
use super::json;
use super::{Layout, Writer};
use crate::schema::{self, elements, is_inline_list, members, same_key};

/// A cell keeps a string with at most this many line breaks (as `&#10;`);
/// a row with a longer one makes the array a list of sections, where the
/// string is a fenced block. Measured in o200k: `&#10;` costs 3 tokens
/// against 1 in a fence, while leaving the table costs about 50 tokens per
/// row (event-logs, 2,000 rows: 94,344 tokens as one table, 193,099 as the
/// default profile's sections), so on tokens refs would pay up to about 25
/// lines per row. The limit is set lower for the reader: 8 lines keeps a
/// stack trace in its cell, and a longer text (a source file) gets its
/// fence.
const MAX_CELL_BREAKS: usize = 8;

/// Tokens a fenced `json` block costs around its JSON (```` ```json ````,
/// two line feeds, ```` ``` ````): 5 in o200k.
const FENCE_TOKENS: usize = 5;

/// A table of at least this many rows leaves the words it writes as they
/// are out of both its estimates ([`RawString::Word`]) rather than measure
/// them. Smaller tables measure them: those are the tables whose bound
/// may not decide (nested-config's, of two and three rows), and their
/// markdown would then be estimated again (nested-config: 255k
/// instructions an encoding measuring, 270k leaving out).
const MIN_ROWS_LEAVING_WORDS_OUT: usize = 4;

/// A keyed table needs at least this many rows. A map with one object
/// member is better as its section: as a one-row table its columns would
/// flatten everything below (keyed: the 500 flags under `flags` would be
/// 2,000 columns of one row).
const MIN_KEYED_ROWS: usize = 2;

/// The dense layout: the default's hooks, except for the document and a
/// section's body, which are markdown or JSON ([`markdown_or_json`]).
#[derive(Debug)]
pub(super) struct DenseLayout {
    /// The sections decided so far inside the container being decided,
    /// so it need not estimate them again.
    decided: Vec<Decided>,
    /// Keep the markdown whatever the estimate says: for the rule tests,
    /// whose small inputs JSON would win. False outside them.
    markdown_only: bool,
    /// Estimate every table's JSON, as if no bound could decide, and
    /// every word of every table ([`MIN_ROWS_LEAVING_WORDS_OUT`]): for the
    /// test that the bounds change no choice. False outside it.
    exact_always: bool,
    /// Write every container's JSON whole, copying no section's: for the
    /// test that copying changes no byte. False outside it.
    rewrite_json: bool,
    /// What the JSON estimate keeps from one container to the next.
    scratch: json::JsonScratch,
    /// The tables whose JSON has only a lower bound so far, in the order
    /// they were written: see [`markdown_or_json`].
    loose: Vec<Loose>,
    /// The JSON of the container being written as JSON, before it goes
    /// into the output.
    json: Vec<u8>,
}

impl DenseLayout {
    pub(super) fn new() -> DenseLayout {
        DenseLayout {
            decided: Vec::new(),
            markdown_only: false,
            exact_always: false,
            rewrite_json: false,
            scratch: json::JsonScratch::default(),
            loose: Vec::new(),
            json: Vec::new(),
        }
    }

    /// The layout that never trades markdown for JSON.
    #[cfg(test)]
    fn markdown_only() -> DenseLayout {
        DenseLayout {
            markdown_only: true,
            ..DenseLayout::new()
        }
    }
}

impl Layout for DenseLayout {
    /// A container is markdown, or its JSON (a paragraph, or a fenced
    /// `json` block) when that is cheaper; a scalar as in the default.
    fn document<'v, V: ValueView<'v>>(
        w: &mut Writer<'_, Self>,
        value: V,
    ) -> Result<(), EncodeError> {
        if value.is_scalar() {
            return w.document(value);
        }
        w.enter(1)?;
        markdown_or_json(w, value, 1, 0, true)
    }

    /// Markdown, or a fenced `json` block when that is cheaper.
    fn section_body<'v, V: ValueView<'v>>(
        w: &mut Writer<'_, Self>,
        value: V,
        level: usize,
        depth: usize,
    ) -> Result<(), EncodeError> {
        markdown_or_json(w, value, level, depth, false)
    }
}

/// A table whose JSON has only a lower bound so far ([`dense_table`]).
/// When it left words out of both its costs ([`RawString::Word`]) and its
/// JSON is estimated ([`exact_json`]), its markdown is estimated whole,
/// from the output, which still holds it.
#[derive(Debug, Clone, Copy)]
struct Loose {
    /// Its [`ValueView::id`].
    value: usize,
    /// The bound of its JSON's cost.
    bound: usize,
    /// Where its markdown is in the output, when it left words out, and
    /// what it costs without them.
    markdown: Option<(usize, usize)>,
    markdown_cost: usize,
}

/// A container that [`markdown_or_json`] decided, as the one enclosing it
/// sees it: where its output is in the output buffer, what that output and
/// the container's JSON are estimated to cost (hundredths of a token), and
/// which value it is (its [`ValueView::id`]). The JSON's cost is a lower
/// bound while tables inside it are [`DenseLayout::loose`].
#[derive(Debug, Clone, Copy)]
struct Decided {
    start: usize,
    end: usize,
    cost: usize,
    json_cost: usize,
    value: usize,
    /// Where its JSON is in the output, when it was written as a fence:
    /// a container above it that chooses JSON copies it from there.
    json: Option<(usize, usize)>,
}

/// Writes `value` (a container at `depth`) as markdown, and keeps it or
/// writes the JSON instead, whichever [`estimate_hundredths`] says is
/// cheaper.
///
/// The sections inside decide first and report their ranges and costs
/// ([`Decided`]), so this estimate reads only the markdown between them
/// and the JSON around them: each byte of the input is estimated once, and
/// written as JSON only where JSON is kept. The markdown is written in
/// place and cut off when JSON wins; the JSON is estimated without being
/// written ([`json::estimate_skipping`]). Measured on tabular (callgrind):
/// copying the markdown out of a scratch buffer and writing the JSON to
/// estimate it were 9M of the 24M instructions of a dense rendering.
///
/// A table's JSON is not estimated at first: the table gives a lower bound
/// of it ([`dense_table`]), and the containers around it add to that bound
/// what they estimate around it. While markdown costs no more than the
/// bound, it costs no more than the JSON, so it is kept with no estimate
/// of the table's JSON at all; only where the bound cannot decide are the
/// tables' JSON estimated ([`exact_json`]), giving the very numbers an
/// estimate of everything would have, hence the same choices.
fn markdown_or_json<'v, V: ValueView<'v>>(
    w: &mut Writer<'_, DenseLayout>,
    value: V,
    level: usize,
    depth: usize,
    top: bool,
) -> Result<(), EncodeError> {
    let start = w.out.len();
    let loose_from = w.layout.loose.len();
    let outer = std::mem::take(&mut w.layout.decided);
    let started = w.started;
    let result = markdown(w, value, level, depth, top);
    let mut inner = std::mem::replace(&mut w.layout.decided, outer);
    // Markdown wins ties: it is the format the reader asked for.
    let markdown_only = w.layout.markdown_only;
    let cheaper = |markdown_cost: usize, json_cost: usize| {
        markdown_cost <= json_cost + 100 * FENCE_TOKENS || markdown_only
    };
    let (mut markdown_cost, mut json_cost) = match result? {
        // A table: its markdown measured, a bound of its JSON.
        Some(costs) => {
            if cfg!(debug_assertions) {
                check_bound(w, value, depth, start, &costs)?;
            }
            let mut json_cost = costs.json;
            if !cheaper(costs.markdown, json_cost) || w.layout.exact_always {
                json_cost += costs.deferred_bound(&mut w.layout.scratch);
            }
            w.layout.loose.push(Loose {
                value: value.id(),
                bound: json_cost,
                markdown: costs.words_left_out.then_some((start, w.out.len())),
                markdown_cost: costs.markdown,
            });
            (costs.markdown, json_cost)
        }
        None => {
            let mut markdown_cost = 0;
            let mut at = start;
            for section in &inner {
                markdown_cost += estimate_hundredths(&w.out[at..section.start]) + section.cost;
                at = section.end;
            }
            markdown_cost += estimate_hundredths(&w.out[at..]);
            inner.sort_unstable_by_key(|section| section.value);
            let skip = |v: V| {
                inner
                    .binary_search_by_key(&v.id(), |section| section.value)
                    .is_ok()
            };
            let mut estimate = Estimate::new();
            let scratch = &mut w.layout.scratch;
            json::estimate_skipping(&mut estimate, value, depth, w.max_depth, &skip, scratch)?;
            let json_cost =
                estimate.finish() + inner.iter().map(|section| section.json_cost).sum::<usize>();
            (markdown_cost, json_cost)
        }
    };

    let undecided = !cheaper(markdown_cost, json_cost);
    if (undecided || w.layout.exact_always) && w.layout.loose.len() > loose_from {
        // The bound cannot say: the exact cost, from the tables' JSON,
        // and the words they left out, back in the markdown's.
        let exact = exact_json(w, value, depth, loose_from)?;
        json_cost = json_cost - exact.bound + exact.json;
        markdown_cost += exact.words;
    }
    let keep_markdown = cheaper(markdown_cost, json_cost);
    let mut fence = None;
    let cost = if keep_markdown {
        markdown_cost
    } else {
        // The JSON, with the sections' own JSON copied from their fences,
        // before the markdown holding them is cut.
        let mut json = std::mem::take(&mut w.layout.json);
        json.clear();
        if inner.iter().any(|section| section.json.is_some()) && !w.layout.rewrite_json {
            let out = &*w.out;
            let written = |v: V| {
                let i = inner
                    .binary_search_by_key(&v.id(), |section| section.value)
                    .ok()?;
                inner[i].json.map(|(from, to)| &out[from..to])
            };
            json::write_reusing(&mut json, value, depth, w.max_depth, &written)?;
        } else {
            json::write_fenced(&mut json, value, depth, w.max_depth)?;
        }
        w.out.truncate(start);
        w.started = started;
        w.block();
        fence = Some(json_fence(w, &json));
        w.layout.json = json;
        json_cost + 100 * FENCE_TOKENS
    };
    w.layout.decided.push(Decided {
        start,
        end: w.out.len(),
        cost,
        json_cost,
        value: value.id(),
        json: fence,
    });
    Ok(())
}

/// Estimates the JSON of the tables inside `value` (a container at
/// `depth`) whose JSON is only bounded: the [`DenseLayout::loose`] ones
/// from `loose_from` on, all of them inside `value`, since the walk
/// decides depth first. Forgets them: with [`Exact`], the caller's costs
/// are exact.
fn exact_json<'v, V: ValueView<'v>>(
    w: &mut Writer<'_, DenseLayout>,
    value: V,
    depth: usize,
    loose_from: usize,
) -> Result<Exact, EncodeError> {
    let mut tables = w.layout.loose.split_off(loose_from);
    tables.sort_unstable_by_key(|table| table.value);
    let out = &*w.out;
    let mut exact = Exact {
        json: 0,
        bound: tables.iter().map(|table| table.bound).sum(),
        words: 0,
    };
    let mut left = tables.len();
    let (max_depth, scratch) = (w.max_depth, &mut w.layout.scratch);
    find_tables(
        value,
        depth,
        &tables,
        &mut left,
        &mut |value, depth, table| {
            let mut estimate = Estimate::new();
            let never = |_: V| false;
            json::estimate_skipping(&mut estimate, value, depth, max_depth, &never, scratch)?;
            let estimate = estimate.finish();
            let words = table.markdown.map_or(0, |(from, to)| {
                estimate_hundredths(&out[from..to]).saturating_sub(table.markdown_cost)
            });
            let bound = table.bound + words;
            debug_assert!(bound <= estimate, "bound {bound} above {estimate}");
            exact.json += estimate;
            exact.words += words;
            Ok(())
        },
    )?;
    Ok(exact)
}

/// With debug assertions, on every table, whether or not its bound
/// decides: the bound of its JSON, its deferred strings' too, and the
/// words it left out of both estimates back in, is at most what its JSON
/// is estimated to cost ([`exact_json`] checks it only where the bound
/// does not decide). The markdown written from `start` on is the table's.
fn check_bound<'v, V: ValueView<'v>>(
    w: &mut Writer<'_, DenseLayout>,
    value: V,
    depth: usize,
    start: usize,
    costs: &Costs<'v>,
) -> Result<(), EncodeError> {
    let scratch = &mut w.layout.scratch;
    let deferred = costs.deferred_bound(scratch);
    let words = match costs.words_left_out {
        true => estimate_hundredths(&w.out[start..]) - costs.markdown,
        false => 0,
    };
    let mut estimate = Estimate::new();
    let never = |_: V| false;
    json::estimate_skipping(&mut estimate, value, depth, w.max_depth, &never, scratch)?;
    let (bound, json) = (costs.json + deferred + words, estimate.finish());
    debug_assert!(
        bound <= json,
        "a table's bound {bound} above its JSON's {json}"
    );
    Ok(())
}

/// What [`exact_json`] found of the tables it estimated: what their JSON
/// costs, the sum of the bounds it replaces, and what the words the
/// tables left out of both estimates cost ([`RawString::Word`]), which the
/// JSON's cost now holds and the markdown's must too.
struct Exact {
    json: usize,
    bound: usize,
    words: usize,
}

/// Calls `found` with each of `tables` (sorted by value) inside `value`,
/// a container at `depth`, with the table's depth; `left` counts those
/// not found yet. Tables hold no sections, so none is inside another.
fn find_tables<'v, V: ValueView<'v>>(
    value: V,
    depth: usize,
    tables: &[Loose],
    left: &mut usize,
    found: &mut impl FnMut(V, usize, &Loose) -> Result<(), EncodeError>,
) -> Result<(), EncodeError> {
    if let Ok(i) = tables.binary_search_by_key(&value.id(), |table| table.value) {
        *left -= 1;
        return found(value, depth, &tables[i]);
    }
    let mut visit = |child: V| match child.is_scalar() || *left == 0 {
        true => Ok(()),
        false => find_tables(child, depth + 1, tables, left, found),
    };
    match value.kind() {
        ViewKind::Array(items) => items.into_iter().try_for_each(&mut visit),
        ViewKind::Object(members) => members.map(|(_, v)| v).try_for_each(&mut visit),
        _ => Ok(()),
    }
}

/// A fenced `json` block of `json`, a value's exact compact JSON
/// ([`json::write_fenced`]), its fence longer than any backtick run in
/// it. Returns where the JSON is in the output.
fn json_fence(w: &mut Writer<'_, DenseLayout>, json: &[u8]) -> (usize, usize) {
    let longest = json.split(|&b| b != b'`').map(<[u8]>::len).max();
    let ticks = (longest.unwrap_or(0) + 1).max(3);
    w.out.resize(w.out.len() + ticks, b'`');
    w.out.extend_from_slice(b"json\n");
    let from = w.out.len();
    w.out.extend_from_slice(json);
    let to = w.out.len();
    w.out.push(b'\n');
    w.out.resize(w.out.len() + ticks, b'`');
    w.out.push(b'\n');
    (from, to)
}

/// What a table's markdown is estimated to cost (hundredths of a token),
/// and a lower bound of its JSON's estimate ([`dense_table`]) but for the
/// strings it `deferred`, whose part of the bound ([`string_bound`]) is
/// added only where the rest cannot decide.
#[derive(Debug)]
struct Costs<'v> {
    markdown: usize,
    json: usize,
    deferred: Vec<&'v str>,
    /// The [`RawString::Lines`] strings it deferred, written with their
    /// lines' middles left out of the markdown's estimate
    /// ([`write_lines`]): their part of the bound leaves them out too
    /// ([`lines_bound`]).
    deferred_lines: Vec<&'v str>,
    /// Whether both costs leave out the words of [`RawString::Word`].
    words_left_out: bool,
}

impl Costs<'_> {
    /// The deferred strings' part of the bound.
    fn deferred_bound(&self, scratch: &mut json::JsonScratch) -> usize {
        let strings: usize = self.deferred.iter().map(|s| string_bound(s, scratch)).sum();
        let lines: usize = self.deferred_lines.iter().map(|s| lines_bound(s)).sum();
        strings + lines
    }
}

/// The markdown of a container: a dense table when it is one, else the
/// default layout (whose sections decide again). A table returns its
/// [`Costs`], measured while it was written.
fn markdown<'v, V: ValueView<'v>>(
    w: &mut Writer<'_, DenseLayout>,
    value: V,
    level: usize,
    depth: usize,
    top: bool,
) -> Result<Option<Costs<'v>>, EncodeError> {
    match value.kind() {
        ViewKind::Array(items) if top && items.len() == 0 => {
            w.line(|_, out| out.extend_from_slice(b"[]"));
        }
        ViewKind::Object(map) if top && map.len() == 0 => {
            w.line(|_, out| out.extend_from_slice(b"{}"));
        }
        ViewKind::Array(items) => {
            if let Some(table) = DenseTable::<V>::of_array(items.clone(), depth + 1, w.max_depth)?
                && let Some(costs) = dense_table(w, &table)?
            {
                return Ok(Some(costs));
            }
            if top && is_inline_list(items.clone()) {
                w.line(|layout, out| layout.list(out, items, true));
            } else {
                w.body(elements(items), None::<V::Members>, level, depth)?;
            }
        }
        ViewKind::Object(map) => {
            if let Some(table) = DenseTable::<V>::of_map(map.clone(), depth + 1, w.max_depth)?
                && let Some(costs) = dense_table(w, &table)?
            {
                return Ok(Some(costs));
            }
            w.body(members(map.clone()), Some(map), level, depth)?;
        }
        _ => {}
    }
    Ok(None)
}

/// A dense table: header and delimiter rows with outer pipes, body rows
/// without. Returns its [`Costs`]: the estimate of everything it wrote,
/// and a lower bound of the estimate of the container's JSON, which is not
/// estimated (it is where the bound cannot decide, [`exact_json`]). `None`,
/// with nothing written, when a cell of a row taken the short way
/// ([`ShortRow`]) has more line breaks than a cell holds: then it is no
/// table.
///
/// The bound adds up runs of the JSON whose cost is known from the table,
/// and nothing for the rest (no run costs less than nothing):
///
/// - around each key, `{"` or `,"` before it and `":` after it: two bytes
///   each of punctuation runs of two bytes or more, which cost a quarter
///   token a byte whatever they merge with (the `":` only where the value
///   cannot merge with it into a dearer run: one that starts with a letter
///   or digit, or a number);
/// - a key written without escapes that starts and ends with a letter or
///   digit, between its quotes: its own runs ([`Word::alone`]);
/// - each value's JSON text (a string's between its quotes) estimated
///   alone: its inner runs cost what they cost in the JSON, and its edge
///   runs only merge with punctuation the bound does not count, into runs
///   that cost more. A string written as it is in the markdown, starting
///   and ending with a letter or digit, is the word measured for the
///   markdown; numbers and JSON cells are read back from the markdown.
///   Any other string is estimated again, for its JSON, only when the
///   rest of the bound cannot decide ([`Costs::deferred`]): on github,
///   those estimates were a tenth of a dense rendering, for nothing.
///
/// Measured on tabular (callgrind): estimating the JSON of every table
/// was 40% of a dense rendering; the bound decides every table of the
/// benchmark datasets but nested-config's, which is written as JSON.
///
/// A table of [`MIN_ROWS_LEAVING_WORDS_OUT`] rows or more does not
/// measure the words it writes as they are: strings it finds a
/// [`RawString::Word`], numbers that start and end with a digit, booleans.
/// Each is the same text in both, costing what it costs alone in both
/// (between pipes or a pipe and a line feed, between quotes or
/// punctuation), so it is left out of both costs ([`leave_out`]), and
/// what decides, the difference of the two, is the same. Only where
/// the bound cannot decide is the markdown estimated whole
/// ([`exact_json`]), so that both costs hold the words again. Measuring
/// those words was a third of github's dense rendering (callgrind). Any
/// other text written the same in both, a raw string that is no word
/// ([`RawString::Edges`]) or a JSON cell, is left out of both but for its
/// first and last runs ([`Edges`]): its middle runs cost the same in
/// both.
fn dense_table<'v, V: ValueView<'v>>(
    w: &mut Writer<'_, DenseLayout>,
    table: &DenseTable<'v, V>,
) -> Result<Option<Costs<'v>>, EncodeError> {
    let (from, started) = (w.out.len(), w.started);
    w.block();
    let out = &mut *w.out;
    out.push(b'|');
    if table.keyed {
        out.push(b'|');
    }
    let mut path = Vec::new();
    for column in 0..table.columns.len() {
        table.columns.path(column, &mut path);
        for (i, key) in path.iter().enumerate() {
            if i > 0 {
                out.push(b'.');
            }
            escape::write_str(out, key, Context::Path);
        }
        out.push(b'|');
    }
    out.push(b'\n');
    out.push(b'|');
    for _ in 0..table.width() {
        out.extend_from_slice(b"---|");
    }
    out.push(b'\n');
    let key_bounds = table.key_bounds();
    // A one-column table keeps its outer pipes: a line with no pipe at
    // all reads as a row to some parsers only.
    let outer = table.width() == 1;
    let mut cells: Vec<Option<V>> = vec![None; table.columns.len()];
    // The markdown is estimated from `out`, up to `fed`, but for the
    // strings written as they are, which are fed as their measure.
    let mut markdown = Estimate::new();
    let mut fed = from;
    let mut json = 0;
    let mut deferred = Vec::new();
    let mut deferred_lines = Vec::new();
    let mut row_start = 0;
    let words_left_out = table.rows.len() >= MIN_ROWS_LEAVING_WORDS_OUT && !w.layout.exact_always;
    // What the words left out of both estimates cost, when debug
    // assertions check it.
    let mut left_out = 0;
    for &(key, row_end) in &table.rows {
        cells.iter_mut().for_each(|cell| *cell = None);
        for &(column, value) in &table.cells[row_start..row_end] {
            cells[column] = Some(value);
        }
        row_start = row_end;
        let start = out.len();
        if outer {
            out.push(b'|');
        }
        let mut first = true;
        if let Some(key) = key {
            escape::write_first_cell(out, key);
            json += key_bound(key) + KEY_PUNCTUATION;
            first = false;
        }
        for (cell, key_bound) in cells.iter().zip(&key_bounds) {
            if !first {
                // An empty first cell needs the leading pipe, else the
                // row would start at the second cell.
                if out.len() == start {
                    out.push(b'|');
                }
                out.push(b'|');
            }
            let Some(value) = *cell else {
                first = false;
                continue;
            };
            json += key_bound;
            let at = out.len();
            match value.kind() {
                ViewKind::String(s) => match raw_string(s, first, words_left_out) {
                    // Most cells: the same word in both texts, left out of
                    // both estimates (their difference is what decides).
                    RawString::Word => {
                        out.extend_from_slice(s.as_bytes());
                        leave_out(&mut markdown, out, &mut fed, at, &mut left_out);
                        json += KEY_PUNCTUATION;
                    }
                    // The same text in both but for its edges.
                    RawString::Edges(edges) => {
                        out.extend_from_slice(s.as_bytes());
                        let text = at..out.len();
                        json += leave_out_middle(
                            &mut markdown,
                            out,
                            &mut fed,
                            text,
                            &edges,
                            &mut left_out,
                        ) + alnum_punctuation(s);
                    }
                    // Any other: as it is in a cell ([`raw_cell`]), or
                    // escaped.
                    raw => match raw_cell(s, first, raw) {
                        Some(RawCell { word, quote }) => {
                            out.extend_from_slice(s.as_bytes());
                            if let Some(word) = &word {
                                markdown.feed(&out[fed..at]);
                                markdown.feed_word(word, s.as_bytes());
                                fed = out.len();
                            }
                            // Raw in a cell, it is printable ASCII with no
                            // backtick, `|` or backslash: plain in JSON
                            // unless it holds a quote.
                            json += match word {
                                Some(word) if !quote => word.alone() + KEY_PUNCTUATION,
                                _ => {
                                    deferred.push(s);
                                    0
                                }
                            };
                        }
                        None => {
                            if table.short_rows && too_many_breaks(s) {
                                // A row taken the short way: not a table after
                                // all, as [`leaves`] would have found.
                                out.truncate(from);
                                w.started = started;
                                return Ok(None);
                            }
                            // Lines as they are but for their line feeds
                            // (a stack trace): the same text in both
                            // between line feeds, left out of both but for
                            // the edges of the long ones.
                            let lines = matches!(raw, RawString::Lines)
                                && !first
                                && write_lines(&mut markdown, out, &mut fed, s, &mut left_out);
                            if lines {
                                if cfg!(debug_assertions) {
                                    let mut cell = Vec::new();
                                    let _ = write_cell(&mut cell, value, first, table.max_depth);
                                    debug_assert_eq!(cell, out[at..], "a cell's lines");
                                }
                                deferred_lines.push(s);
                            } else {
                                let _ = write_cell(out, value, first, table.max_depth);
                                deferred.push(s);
                            }
                        }
                    },
                },
                ViewKind::Number(n) => {
                    n.write_to(out);
                    let text = &out[at..];
                    if words_left_out && is_word(text) {
                        leave_out(&mut markdown, out, &mut fed, at, &mut left_out);
                        json += KEY_PUNCTUATION;
                    } else {
                        json += estimate::number_hundredths(text) + KEY_PUNCTUATION;
                    }
                }
                ViewKind::Bool(_) if words_left_out => {
                    let _ = write_cell(out, value, first, table.max_depth);
                    leave_out(&mut markdown, out, &mut fed, at, &mut left_out);
                    json += KEY_PUNCTUATION;
                }
                ViewKind::Bool(_) | ViewKind::Null => {
                    let _ = write_cell(out, value, first, table.max_depth);
                    json += WORD_HUNDREDTHS + KEY_PUNCTUATION;
                }
                ViewKind::Array(_) | ViewKind::Object(_) => {
                    // Cannot fail: the table checked the depth of its cells.
                    let _ = write_cell(out, value, first, table.max_depth);
                    if out.get(at) == Some(&b'`') {
                        // A JSON cell: its JSON is the row's JSON there
                        // and the cell's markdown between backticks,
                        // measured once for both; in a table that leaves
                        // words out, its middle runs are left out of both
                        // (nested's items: they were measured a byte at a
                        // time, 16% of its dense rendering).
                        let end = out.len() - 1;
                        let text = &out[at + 1..end];
                        if let Some(edges) = Edges::of(text).filter(|_| words_left_out) {
                            let text = at + 1..end;
                            json += leave_out_middle(
                                &mut markdown,
                                out,
                                &mut fed,
                                text,
                                &edges,
                                &mut left_out,
                            );
                        } else if let Some(measure) = Measure::new(text) {
                            json += measure.alone();
                            markdown.feed(&out[fed..at + 1]);
                            markdown.feed_measure(&measure);
                            fed = end;
                        }
                    }
                }
            }
            first = false;
        }
        if outer {
            out.push(b'|');
        }
        out.push(b'\n');
    }
    markdown.feed(&out[fed..]);
    let markdown = markdown.finish();
    if cfg!(debug_assertions) {
        let whole = estimate_hundredths(&out[from..]);
        debug_assert_eq!(markdown + left_out, whole, "the words left out");
    }
    // The JSON's depth: its rows and nested objects are containers too,
    // one deeper than the markdown counts them.
    if table.reached + 1 > table.max_depth {
        return Err(EncodeError::DepthLimit {
            limit: table.max_depth,
        });
    }
    Ok(Some(Costs {
        markdown,
        json,
        deferred,
        deferred_lines,
        words_left_out,
    }))
}

/// Feeds `markdown` the output from `fed` to `at`, and leaves out of it
/// the word written from `at` on ([`Estimate::skip_word`]), which the
/// JSON holds as it is: the same text between punctuation, a string
/// ([`RawString::Word`]), a number or a boolean. With debug assertions, adds
/// what the word costs to `left_out`, for [`dense_table`]'s check.
#[inline]
fn leave_out(
    markdown: &mut Estimate,
    out: &[u8],
    fed: &mut usize,
    at: usize,
    left_out: &mut usize,
) {
    // Mostly the pipe between two cells.
    match &out[*fed..at] {
        &[byte] => markdown.skip_word_after(byte, out[at]),
        text => {
            markdown.feed(text);
            markdown.skip_word(out[at]);
        }
    }
    *fed = out.len();
    if cfg!(debug_assertions) {
        *left_out += Word::new(&out[at..]).map_or(0, |word| word.alone());
    }
}

/// Feeds `markdown` the output from `fed` to where `text` starts, and
/// `text`, written the same in the JSON, less its middle runs
/// ([`Estimate::feed_edges`]), which cost the same in both; `fed` moves
/// past it. Returns what its edge runs cost alone, its part of the JSON's
/// bound ([`Edges::alone`]). With debug assertions, adds what the middle
/// costs to `left_out`, for [`dense_table`]'s check.
#[inline]
fn leave_out_middle(
    markdown: &mut Estimate,
    out: &[u8],
    fed: &mut usize,
    text: std::ops::Range<usize>,
    edges: &Edges,
    left_out: &mut usize,
) -> usize {
    markdown.feed(&out[*fed..text.start]);
    *fed = text.end;
    let text = &out[text];
    markdown.feed_edges(text, edges);
    let alone = edges.alone(text);
    if cfg!(debug_assertions) {
        *left_out += estimate_hundredths(text) - alone;
    }
    alone
}

/// Whether the string `s` has more line breaks than a cell holds. Most
/// strings have none: one search says so.
fn too_many_breaks(s: &str) -> bool {
    schema::has_line_feed(s) && s.bytes().filter(|&b| b == b'\n').count() > MAX_CELL_BREAKS
}

/// Whether `text` starts and ends with an ASCII letter or digit.
fn is_word(text: &[u8]) -> bool {
    matches!((text.first(), text.last()), (Some(head), Some(tail)) if head.is_ascii_alphanumeric() && tail.is_ascii_alphanumeric())
}

/// What the JSON's punctuation on one side of a key (`{"` or `,"` before,
/// `":` after) costs at least, in hundredths: two bytes of a run of two or
/// more.
const KEY_PUNCTUATION: usize = 50;

/// What `true`, `false` or `null` costs between punctuation: one word.
const WORD_HUNDREDTHS: usize = 120;

/// The bound of a key in the JSON ([`dense_table`]): the punctuation
/// before it, and its own runs when it is a word needing no escape.
fn key_bound(key: &str) -> usize {
    KEY_PUNCTUATION + json::plain_word(key).map_or(0, |word| word.alone())
}

/// The bound of a string value in the JSON ([`dense_table`]): its JSON
/// text between the quotes estimated alone, and the `":` before it when
/// it starts with a letter or digit (then that run is `":"` whole).
fn string_bound(s: &str, scratch: &mut json::JsonScratch) -> usize {
    scratch.string_hundredths(s) + alnum_punctuation(s)
}

/// [`string_bound`] of a [`RawString::Lines`] string, less the middles of
/// the lines [`line_edges`] leaves out: its lines as they are, each line
/// feed written `\n`, estimated alone.
fn lines_bound(s: &str) -> usize {
    let bytes = s.as_bytes();
    let mut estimate = Estimate::new();
    for (i, line) in lines(bytes).enumerate() {
        if i > 0 {
            estimate.feed(b"\\n");
        }
        let line = &bytes[line];
        match line_edges(line) {
            Some(edges) => estimate.feed_edges(line, &edges),
            None => estimate.feed(line),
        }
    }
    estimate.finish() + alnum_punctuation(s)
}

/// Where the lines of a [`RawString::Lines`] string are in it, split at
/// its line feeds: the one split both its estimates ([`write_lines`],
/// [`lines_bound`]) leave the same middles out of.
fn lines(bytes: &[u8]) -> impl Iterator<Item = std::ops::Range<usize>> + '_ {
    let mut start = 0;
    let ends = memchr::memchr_iter(b'\n', bytes).chain([bytes.len()]);
    ends.map(move |end| {
        let line = start..end;
        start = end + 1;
        line
    })
}

/// A line of a [`RawString::Lines`] string shorter than this is estimated
/// whole in both texts: finding a short line's edges costs about what
/// feeding its few middle bytes does (a stack trace's `  at utilis`).
const MIN_LINE_LEFT_OUT: usize = 16;

/// The edges of a line of a [`RawString::Lines`] string whose middle both
/// estimates leave out: one of [`MIN_LINE_LEFT_OUT`] bytes or more, of
/// three runs or more. The line is the same text in the cell and in the
/// JSON, between a line feed's `&#10;` or `\n` and the next, so its
/// middle costs the same in both ([`Edges`]).
fn line_edges(line: &[u8]) -> Option<Edges> {
    match line.len() >= MIN_LINE_LEFT_OUT {
        true => Edges::of(line),
        false => None,
    }
}

/// Writes the [`RawString::Lines`] string `s` in a cell that is not the
/// first, as [`write_cell`] does, and feeds `markdown` the output from
/// `fed` on, up to it and through its lines less the middles
/// [`line_edges`] leaves out ([`leave_out_middle`]); `fed` moves past the
/// last line left out. Returns false, writing nothing, when `s` holds an
/// autolink trigger, which the cell escapes ([`escape::write_lines`]).
/// Out of line: inlined in [`dense_table`]'s loop, it made the tables
/// with no line feed up to 0.6% dearer to render, against 0.4% this way
/// (callgrind).
#[inline(never)]
fn write_lines(
    markdown: &mut Estimate,
    out: &mut Vec<u8>,
    fed: &mut usize,
    s: &str,
    left_out: &mut usize,
) -> bool {
    let at = out.len();
    if !escape::write_lines(out, s) {
        return false;
    }
    let bytes = s.as_bytes();
    for (i, line) in lines(bytes).enumerate() {
        if let Some(edges) = line_edges(&bytes[line.clone()]) {
            // In the output, after the four bytes each `&#10;` before it
            // adds.
            let text = at + line.start + 4 * i..at + line.end + 4 * i;
            leave_out_middle(markdown, out, fed, text, &edges, left_out);
        }
    }
    true
}

/// The `":` before a string value that starts with an ASCII letter or
/// digit, which the bound counts ([`string_bound`]): the run is then
/// `":"` whole.
fn alnum_punctuation(s: &str) -> usize {
    match s.as_bytes().first() {
        Some(b) if b.is_ascii_alphanumeric() => KEY_PUNCTUATION,
        _ => 0,
    }
}

/// A string that [`write_cell`] writes as it is ([`is_raw_cell`]): its
/// measure ([`Word::new`]) and whether it holds a quote.
struct RawCell {
    word: Option<Word>,
    quote: bool,
}

/// The bytes after which a cell's string is not simply written as it is:
/// those that may need an escape in a cell ([`escape::special_bytes`],
/// every byte beyond ASCII among them), and the quote, which JSON
/// escapes. [`raw_cell`] takes the long way at them, and a string with
/// none of them may be a word [`RawString::Word`] leaves out.
const RAW_CELL_MARKED: [bool; 256] = escape::marked(escape::special_bytes(), b"\"");

/// [`RAW_CELL_MARKED`] as [`Word::measure`] reads it.
static RAW_CELL_CLASSES: [u8; 256] = estimate::classes_stopping_at(RAW_CELL_MARKED);

/// The [`RawCell`] of `s` when [`write_cell`] writes it as it is, else
/// `None`. Most strings hold no byte that needs a look, and one pass over
/// them both says that they are raw and measures them (they were read
/// three times); a string with a quote or an `_` is read as before. One
/// that [`raw_string`] found [`RawString::Escaped`] is not read again.
fn raw_cell(s: &str, first: bool, raw: RawString) -> Option<RawCell> {
    let bytes = s.as_bytes();
    if matches!(raw, RawString::Escaped | RawString::Lines) || !escape::plain_edges(bytes, first) {
        return None;
    }
    match Word::measure(bytes, &RAW_CELL_CLASSES) {
        Ok(word) => Some(RawCell { word, quote: false }),
        // A quote, or an `_` that may be inside a word (`a_b`): the rules.
        Err(at) if matches!(bytes[at], b'"' | b'_') => is_raw_cell(s, first).then(|| RawCell {
            word: Word::new(bytes),
            quote: s.contains('"'),
        }),
        // Any other byte it stops at needs an escape.
        Err(_) => None,
    }
}

/// What a table that leaves words out ([`MIN_ROWS_LEAVING_WORDS_OUT`])
/// does with a string cell in its estimates ([`raw_string`]).
#[derive(Clone, Copy)]
enum RawString {
    /// A raw word: left out of both whole ([`Estimate::skip_word`]).
    Word,
    /// Raw, not a word, of three runs or more: left out of both but for
    /// its edge runs ([`Estimate::feed_edges`], [`Edges::alone`]).
    Edges(Edges),
    /// Any other: measured ([`raw_cell`]).
    Measured,
    /// A string whose first byte that needs a look is neither a quote nor
    /// an `_`, which [`raw_cell`] would measure up to that byte to find it
    /// needs an escape in a cell.
    Escaped,
    /// A string whose only bytes that need a look are line feeds inside
    /// it and `_`s inside words (a stack trace): a cell writes its lines
    /// as they are, each line feed `&#10;` (when it holds no autolink
    /// trigger, [`escape::write_lines`]), and the JSON writes them as they
    /// are, each line feed `\n`. The middles of its long lines are left
    /// out of both estimates ([`write_lines`], [`lines_bound`]).
    Lines,
}

/// How [`dense_table`] estimates the string `s`, a cell's, when it leaves
/// words out (`words_left_out`). When [`write_cell`] writes it as it is,
/// and the dense JSON as it is between its quotes (it holds no
/// [`RAW_CELL_MARKED`] byte, as in [`raw_cell`]'s first case), its runs
/// are its own in both texts but for the edge runs, which may merge with
/// the pipes, quotes or line feeds around them. So:
///
/// - when it starts and ends with an ASCII letter or digit, its edges
///   merge with nothing either, and it costs the same in both texts: it
///   is left out of both estimates ([`RawString::Word`]): dates, names,
///   most identifiers and URLs;
/// - else, with three runs or more, its middle runs cost the same in both
///   texts, and only its edges are estimated ([`RawString::Edges`]): a
///   sentence, whose last run is its period, which was measured a byte at
///   a time for the JSON's bound and fed a byte at a time to the
///   markdown's estimate (github's descriptions: 13% of its dense
///   rendering, callgrind).
///
/// Being raw is found in a pass with no branch a byte
/// ([`escape::first_marked`]); a string with a byte that needs a look is
/// [`marked_from`]'s.
fn raw_string(s: &str, first: bool, words_left_out: bool) -> RawString {
    let bytes = s.as_bytes();
    if !words_left_out || !escape::plain_edges(bytes, first) {
        return RawString::Measured;
    }
    let raw = match is_word(bytes) {
        true => RawString::Word,
        false => match Edges::of(bytes) {
            Some(edges) => RawString::Edges(edges),
            None => return RawString::Measured,
        },
    };
    match escape::first_marked(bytes, &RAW_CELL_MARKED) {
        None => raw,
        Some(chunk) => marked_from(bytes, chunk, raw),
    }
}

/// What [`raw_string`] makes of a string, `raw` had it no byte that needs
/// a look, whose first such byte is in the chunk of eight bytes at
/// `chunk`: out of line, so that the raw strings' path stays as short as
/// it was.
///
/// - When its only such bytes are `_`s inside words (`john_doe`), a cell
///   writes it as it is (R5: such an `_` opens no emphasis), and so does
///   the JSON: `raw` still (tabular's emails, a tenth of them, were
///   measured and checked by the rules: 1,000 instructions each).
/// - When the first other such byte is a line feed and every such byte
///   from it on is a line feed inside the string or an `_` inside a word
///   ([`are_lines_from`]): [`RawString::Lines`] (a stack trace).
/// - Else, measuring a few bytes costs less than finding the one marked:
///   a string whose first 16 bytes hold it is measured ([`raw_cell`]).
/// - Else a quote or an `_` may still leave it raw, and it is measured;
///   any other byte needs an escape, and it is not.
#[inline(never)]
fn marked_from(bytes: &[u8], chunk: usize, raw: RawString) -> RawString {
    let mut underscore = false;
    for (at, &b) in bytes.iter().enumerate().skip(chunk) {
        if !RAW_CELL_MARKED[usize::from(b)] {
            continue;
        }
        if b == b'_' && escape::is_intraword(bytes, at) {
            underscore = true;
            continue;
        }
        if b == b'\n' && are_lines_from(bytes, at) {
            return RawString::Lines;
        }
        // The first byte that needs a look: this one, or an `_` before.
        return match chunk < 16 || underscore || matches!(b, b'"' | b'_') {
            true => RawString::Measured,
            false => RawString::Escaped,
        };
    }
    raw
}

/// Whether every byte of `bytes` from `at` on that needs a look in a cell
/// ([`RAW_CELL_MARKED`]) is a line feed inside it or an `_` inside a word:
/// the rest of a [`RawString::Lines`] string.
#[inline(never)]
fn are_lines_from(bytes: &[u8], at: usize) -> bool {
    let last = bytes.len() - 1;
    bytes.iter().enumerate().skip(at).all(|(i, &b)| {
        !RAW_CELL_MARKED[usize::from(b)]
            || (b == b'\n' && i != 0 && i != last)
            || (b == b'_' && escape::is_intraword(bytes, i))
    })
}

/// Whether [`write_cell`] writes the string `s` as it is: it needs no
/// escape there, and is ASCII (a cell with other characters is measured
/// the long way, as [`raw_cell`]'s pass does, so the estimate, and every
/// choice made with it, stays as it was when the escaper's quick test
/// took no character beyond ASCII).
fn is_raw_cell(s: &str, first: bool) -> bool {
    if !s.is_ascii() {
        return false;
    }
    if first {
        escape::is_plain(s, true)
    } else {
        !matches!(s.as_bytes().first(), Some(b'[' | b'`')) && escape::is_plain_in(s, Context::Cell)
    }
}

/// One cell's value: a scalar, `[a, b]`, or JSON in a code span.
fn write_cell<'v, V: ValueView<'v>>(
    out: &mut Vec<u8>,
    value: V,
    first: bool,
    max_depth: usize,
) -> Result<(), EncodeError> {
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
            json::write(out, value, 0, max_depth)?;
            out.push(b'`');
        }
    }
    Ok(())
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

/// A table of the dense profile: the column paths, the rows, and each
/// row's cells with their column, found once. Memory is the columns and a
/// reference per cell (walking each row again to find its cells when it
/// was written was a tenth of a dense rendering of tabular, callgrind).
struct DenseTable<'v, V: ValueView<'v>> {
    /// Whether the first column holds the keys of a map.
    keyed: bool,
    /// Each column's path of keys (`["customer", "name"]`), first seen
    /// first.
    columns: Columns<'v>,
    /// Each row: the map key (in a keyed table) and the object's members.
    rows: Vec<(Option<&'v str>, usize)>,
    /// Whether a row was taken the short way ([`ShortRow`]), whose
    /// strings' line breaks are counted when they are written.
    short_rows: bool,
    /// Each row's cells, one row after the other: (column, value).
    cells: Vec<(usize, V)>,
    max_depth: usize,
    /// The depth of its deepest object, or of the deepest container in a
    /// JSON cell.
    reached: usize,
}

impl<'v, V: ValueView<'v>> DenseTable<'v, V> {
    fn width(&self) -> usize {
        self.columns.len() + usize::from(self.keyed)
    }

    /// What each column's keys add to the bound of a row's JSON when its
    /// cell is there ([`dense_table`]): its last key, with `":` when the
    /// value is one to count it ([`key_bound`] and [`KEY_PUNCTUATION`] are
    /// added per value), and the keys of the nested objects it is the
    /// first column of, each with its `":`, since `{"` follows.
    fn key_bounds(&self) -> Vec<usize> {
        let nested = self.columns.nested;
        // Which objects an earlier column was in: a column's objects
        // from its own up to the first seen (whose own are seen too).
        let mut seen = vec![false; self.columns.objects.len()];
        let mut bounds = Vec::with_capacity(self.columns.len());
        for &(mut object, last) in &self.columns.columns {
            let mut bound = key_bound(last);
            if nested {
                while let Some(&(parent, key)) = self.columns.objects.get(object) {
                    if seen[object] {
                        break;
                    }
                    seen[object] = true;
                    bound += key_bound(key) + KEY_PUNCTUATION;
                    object = parent;
                }
            }
            bounds.push(bound);
        }
        bounds
    }

    /// The table of an array, when every element is an object whose
    /// leaves fit in cells. `depth` is the rows' depth.
    fn of_array(
        items: V::Elements,
        depth: usize,
        max_depth: usize,
    ) -> Result<Option<DenseTable<'v, V>>, EncodeError> {
        let rows = items.map(|item| item.as_object().map(|map| (None, map)));
        let Some(table) = DenseTable::build(rows, false, depth, max_depth)? else {
            return Ok(None);
        };
        // An empty first header cell means a key column: an array's table
        // cannot start with the empty key.
        if table.columns.columns.first() == Some(&(ROW, "")) {
            return Ok(None);
        }
        Ok(Some(table))
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

    fn build(
        rows: impl Iterator<Item = Option<(Option<&'v str>, V::Members)>>,
        keyed: bool,
        depth: usize,
        max_depth: usize,
    ) -> Result<Option<DenseTable<'v, V>>, EncodeError> {
        DenseTable::build_rows(rows, keyed, depth, max_depth, true)
    }

    /// Pushes the cells of a row at `depth` the short way, and raises
    /// `reached` to its depth, when it is a row for it ([`ShortRow`];
    /// [`flat_row`] while no column is nested).
    fn take_short(&mut self, map: V::Members, depth: usize) -> bool {
        if !self.columns.nested {
            let taken = depth <= self.max_depth && flat_row(map, &self.columns, &mut self.cells);
            if taken {
                self.reached = self.reached.max(depth);
            }
            return taken;
        }
        let row = ShortRow {
            columns: &self.columns,
            max_depth: self.max_depth,
        };
        let (mut next, mut deepest) = (0, depth);
        let taken = row.cells(map, ROW, depth, &mut next, &mut deepest, &mut self.cells);
        if taken {
            self.reached = self.reached.max(deepest);
        }
        taken
    }

    /// [`DenseTable::build`]; `short` lets rows take the short way
    /// ([`ShortRow`]), which the tests compare with the long one.
    fn build_rows(
        rows: impl Iterator<Item = Option<(Option<&'v str>, V::Members)>>,
        keyed: bool,
        depth: usize,
        max_depth: usize,
        short: bool,
    ) -> Result<Option<DenseTable<'v, V>>, EncodeError> {
        // The rows to come, to size the table's lists once rather than
        // grow them step by step (a small table's growth was a tenth of
        // its rendering); bounded, since a table can still fail.
        let expected = rows.size_hint().0.min(MAX_RESERVED_ROWS);
        let mut table = DenseTable {
            keyed,
            columns: Columns::default(),
            rows: Vec::with_capacity(expected),
            short_rows: false,
            cells: Vec::new(),
            max_depth,
            reached: 0,
        };
        let mut path = Vec::new();
        let mut present = 0usize;
        for row in rows {
            let Some((key, map)) = row else {
                return Ok(None);
            };
            let row_start = table.cells.len();
            if short && table.take_short(map.clone(), depth) {
                table.short_rows = true;
                present += table.cells.len() - row_start;
                table.rows.push((key, table.cells.len()));
                continue;
            }
            table.cells.truncate(row_start);
            if table.rows.is_empty() {
                // Most first rows are flat: a cell and a column a member.
                table.cells.reserve(map.len());
                table.columns.columns.reserve(map.len());
            }
            let mut at = 0;
            let (columns, cells) = (&mut table.columns, &mut table.cells);
            let fits = leaves::<V>(
                map.clone(),
                depth,
                max_depth,
                &mut path,
                &mut table.reached,
                &mut |path: &[&'v str], value: V| {
                    // Rows usually repeat the columns in order: no hash then.
                    let column = if columns.is_at(at, path) {
                        at
                    } else {
                        columns.find(path).unwrap_or_else(|| columns.push(path))
                    };
                    cells.push((column, value));
                    at += 1;
                },
            )?;
            if !fits {
                return Ok(None);
            }
            if table.rows.is_empty() {
                // The first row's cells for each row, bounded: a wide
                // first row times many rows must not reserve more than
                // the input could fill.
                let cells = at.saturating_mul(expected.saturating_sub(1));
                table.cells.reserve(cells.min(MAX_RESERVED_CELLS));
            }
            present += at;
            table.rows.push((key, table.cells.len()));
        }
        // At most half the cells empty, as in the default profile: a
        // sparser table grows with the square of its input (n rows with n
        // different keys), which an untrusted input must not cause. On the
        // datasets the sparsest table is event-logs, 82% full.
        let cells = table.rows.len().checked_mul(table.columns.len());
        let dense_enough = cells.is_some_and(|cells| cells <= present.saturating_mul(2));
        Ok((!table.columns.is_empty() && dense_enough).then_some(table))
    }
}

/// The most rows a table reserves room for before it has them: its
/// elements are there, so it is the input's own size, but a table can
/// still fail at its second row.
const MAX_RESERVED_ROWS: usize = 64 * 1024;

/// The most cells a table reserves room for before it has them, its first
/// row's for each row: at most 1.5 MB (a cell is 24 bytes on a tape), and
/// no more than the rows can fill only while the first row is no wider
/// than the rest (a first row of 100,000 keys over 1,024 rows would have
/// reserved 2.4 GB). Large enough that the tables of the datasets are
/// reserved whole: event-logs' cells were reserved for 1,024 of its 2,000
/// rows, and growing them copied them when the allocator could not grow
/// them in place (219k instructions, 2% of its dense rendering,
/// callgrind).
const MAX_RESERVED_CELLS: usize = 64 * 1024;

/// The short way to a row's cells, for a row whose leaves are the
/// table's first columns in their order (most rows after the first): the
/// cells [`leaves`] finds for such a row, without its walk (a path pushed,
/// compared with a column's and popped, and a call, per cell: finding the
/// cells was a quarter of tabular's dense rendering, and the walk of
/// event-logs' rows, each with an `error` object, 23% of it).
///
/// A string's line breaks are not counted here but where [`dense_table`]
/// writes it, if it is not a raw cell (one with a line break never is):
/// searching every string for one was 4.5% of github's dense rendering.
struct ShortRow<'c, 'v> {
    columns: &'c Columns<'v>,
    max_depth: usize,
}

impl<'v> ShortRow<'_, 'v> {
    /// Pushes the cells of `map`, the members of `object` (one of the
    /// columns' objects, or [`ROW`]) at `depth`, from column `next` on,
    /// and says so, with `next` past them and `deepest` raised to the
    /// depth of its deepest JSON cell; false, with some cells pushed, when
    /// a member is not the next column's (or an object around it), or is
    /// a JSON cell deeper than the limit (the walk reports it).
    ///
    /// An object entered here is one of the columns', which the row that
    /// made the column reached at the same depth: within the limit, and
    /// counted in the table's depth already.
    fn cells<V: ValueView<'v>>(
        &self,
        map: V::Members,
        object: usize,
        depth: usize,
        next: &mut usize,
        deepest: &mut usize,
        cells: &mut Vec<(usize, V)>,
    ) -> bool {
        for (key, value) in map {
            let Some(&(column_object, column_key)) = self.columns.columns.get(*next) else {
                return false;
            };
            match value.kind() {
                ViewKind::Null | ViewKind::Bool(_) | ViewKind::Number(_) | ViewKind::String(_) => {
                    if column_object != object || !same_key(column_key, key) {
                        return false;
                    }
                    cells.push((*next, value));
                    *next += 1;
                }
                ViewKind::Object(inner) if inner.len() > 0 => {
                    let Some(child) = self.child(column_object, object, key) else {
                        return false;
                    };
                    if !self.cells(inner, child, depth + 1, next, deepest, cells) {
                        return false;
                    }
                }
                ViewKind::Array(_) | ViewKind::Object(_) => {
                    // A JSON cell, as deep as the walk would check.
                    let cell_depth = depth + value.depth();
                    if column_object != object
                        || !same_key(column_key, key)
                        || cell_depth > self.max_depth
                    {
                        return false;
                    }
                    *deepest = (*deepest).max(cell_depth);
                    cells.push((*next, value));
                    *next += 1;
                }
            }
        }
        true
    }

    /// The object named `key` in `parent` that `object` (a column's) is in
    /// or is, if there is one.
    fn child(&self, mut object: usize, parent: usize, key: &str) -> Option<usize> {
        loop {
            let &(up, name) = self.columns.objects.get(object)?;
            if up == parent {
                return same_key(name, key).then_some(object);
            }
            object = up;
        }
    }
}

/// [`ShortRow::cells`] of a row of a table with no nested column: each
/// member a scalar, the column at its position.
fn flat_row<'v, V: ValueView<'v>>(
    map: V::Members,
    columns: &Columns<'v>,
    cells: &mut Vec<(usize, V)>,
) -> bool {
    for (at, (key, value)) in map.enumerate() {
        match columns.columns.get(at) {
            Some(&(ROW, column)) if same_key(column, key) => {}
            _ => return false,
        }
        if !value.is_scalar() {
            return false;
        }
        cells.push((at, value));
    }
    true
}

/// Columns, and objects on their paths, searched one by one before a
/// table hashes them: hashing the paths of small tables (a `Vec` and
/// SipHash per column) was a twentieth of the dense rendering of
/// nested-config (callgrind), whose tables have a few columns each.
const SEARCHED_COLUMNS: usize = 16;

/// The object that holds a table's own columns ([`Columns`]).
const ROW: usize = usize::MAX;

/// A table's columns, each a path of keys (`customer.name`), first seen
/// first: a tree of the objects on the paths, each object its parent
/// and its key, and each column its object and its last key. A column
/// costs the same at any depth: a path of keys per column (and a copy in
/// the index) was quadratic in memory (a row holding one object 120 deep
/// with 64,000 members, 2 MB of JSON, took 340 MB to render).
#[derive(Debug, Default)]
struct Columns<'v> {
    /// The objects on the paths: each one's parent ([`ROW`] at the top)
    /// and key.
    objects: Vec<(usize, &'v str)>,
    /// The objects by parent and key, once there are too many to search
    /// ([`Columns::child`]).
    children: Option<HashMap<(usize, &'v str), usize>>,
    /// Each column: its object and its last key.
    columns: Vec<(usize, &'v str)>,
    /// The columns by object and last key, once there are too many to
    /// search.
    index: Option<HashMap<(usize, &'v str), usize>>,
    /// Whether a column is inside an object (a dotted column).
    nested: bool,
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

    /// Every column's keys.
    #[cfg(test)]
    fn paths(&self) -> Vec<Vec<&'v str>> {
        let mut paths = vec![Vec::new(); self.len()];
        for (at, path) in paths.iter_mut().enumerate() {
            self.path(at, path);
        }
        paths
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

    /// The column of `path`: searched while there are few, else found by
    /// its object and last key.
    fn find(&self, path: &[&str]) -> Option<usize> {
        let Some(index) = &self.index else {
            return (0..self.len()).find(|&at| self.is_at(at, path));
        };
        let (last, objects) = path.split_last()?;
        let mut object = ROW;
        for &key in objects {
            object = self.child(object, key)?;
        }
        index.get(&(object, *last)).copied()
    }

    /// The object named `key` in `parent`, if there is one: searched one
    /// by one while there are at most [`SEARCHED_COLUMNS`] objects (hashing
    /// each nested column's keys was 2.5% of the dense rendering of
    /// nested-config, whose tables nest a few objects, callgrind).
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
    /// leaf's path holds at least its own key; an empty one would be the
    /// empty key's.)
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
            self.objects.push((parent, key));
            index_last(&mut self.children, &self.objects);
        }
        let at = self.columns.len();
        self.columns.push((object, last));
        self.nested |= object != ROW;
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
/// Returns whether every leaf fits in a cell (line breaks, depth), and
/// raises `reached` to the depth of the deepest object or of the deepest
/// container in a JSON cell.
fn leaves<'v, V: ValueView<'v>>(
    map: V::Members,
    depth: usize,
    max_depth: usize,
    path: &mut Vec<&'v str>,
    reached: &mut usize,
    leaf: &mut impl FnMut(&[&'v str], V),
) -> Result<bool, EncodeError> {
    if depth > max_depth {
        return Err(EncodeError::DepthLimit { limit: max_depth });
    }
    *reached = (*reached).max(depth);
    for (key, value) in map {
        path.push(key);
        let fits = match value.kind() {
            ViewKind::Object(inner) if inner.len() > 0 => {
                leaves::<V>(inner, depth + 1, max_depth, path, reached, leaf)?
            }
            // Most strings have no line break: one search says so.
            ViewKind::String(s) if too_many_breaks(s) => false,
            ViewKind::Array(_) | ViewKind::Object(_) => {
                // A JSON cell: check its depth now, so writing cannot fail.
                let deepest = depth + value.depth();
                if deepest > max_depth {
                    return Err(EncodeError::DepthLimit { limit: max_depth });
                }
                *reached = (*reached).max(deepest);
                leaf(path, value);
                true
            }
            _ => {
                leaf(path, value);
                true
            }
        };
        path.pop();
        if !fits {
            return Ok(false);
        }
    }
    Ok(true)
}

#[cfg(test)]
mod tests {
    use codec_core::{Value, from_str};
    use proptest::strategy::Strategy;

    use super::*;
    use crate::Profile;
    use crate::write::{Options, render};

    /// Rule tests use small inputs, where JSON would win: they turn the
    /// choice off, except for the cases about it.
    fn dense(json: &str) -> String {
        let value = from_str(json).unwrap_or_else(|e| panic!("{json}: {e}"));
        let mut out = Vec::new();
        let layout = if json.contains("idleTimeout") {
            DenseLayout::new()
        } else {
            DenseLayout::markdown_only()
        };
        Writer::new(&mut out, codec_core::value::DEFAULT_MAX_DEPTH, layout)
            .write(&value)
            .unwrap();
        String::from_utf8(out).unwrap()
    }

    proptest::proptest! {
        // Cheap cases, and a row the short way reads wrong shows in few of
        // them (a nested object under another key: 1 in ~1,000).
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(4096))]

        /// A table's rows find the same cells, columns and depth the short
        /// way as the long one: rows with their keys in order or not,
        /// missing or extra keys, objects nested one and two deep, arrays
        /// and empty objects at either depth, line breaks; with depth
        /// limits that the rows and their cells reach.
        #[test]
        fn short_rows_find_what_the_walk_finds(
            rows in proptest::collection::vec(
                proptest::collection::vec(
                    (
                        proptest::sample::select(vec!["a", "b", "c", "d"]),
                        proptest::sample::select(vec![
                            "1", "\"x\"", "null", "true", "\"x\\ny\"", "{\"e\": 1}", "{}", "[1]",
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
            let json = format!("[{}]", rows.join(", "));
            let [short, long] = both_ways(&json, max_depth);
            proptest::prop_assert_eq!(short, long, "{}", json);
        }
    }

    /// What a table built the short way and the long way finds in the
    /// array `json`: its columns, rows (how many cells each ends after),
    /// cells (column, and the value's id) and depth, or its error.
    #[allow(clippy::type_complexity)]
    fn both_ways(
        json: &str,
        max_depth: usize,
    ) -> [Result<Option<(Vec<String>, Vec<usize>, Vec<(usize, usize)>, usize)>, String>; 2] {
        let value = from_str(json).unwrap();
        let Value::Array(items) = &value else {
            unreachable!()
        };
        [true, false].map(|short| {
            let rows = items
                .iter()
                .map(|item| item.as_object().map(|map| (None, map.iter())));
            DenseTable::<&Value>::build_rows(rows, false, 1, max_depth, short)
                .map(|table| {
                    table.map(|t| {
                        let cells: Vec<(usize, usize)> = t
                            .cells
                            .iter()
                            .map(|&(column, value)| (column, value.id()))
                            .collect();
                        let columns = t
                            .columns
                            .paths()
                            .iter()
                            .map(|path| path.join("."))
                            .collect();
                        let rows = t.rows.iter().map(|&(_, end)| end).collect();
                        (columns, rows, cells, t.reached)
                    })
                })
                .map_err(|e| e.to_string())
        })
    }

    /// The short way's cases, each where one row after the first takes it
    /// (or not) and a mistake shows: a nested object under another key, a
    /// JSON cell deeper than the rows before it, an object or a cell past
    /// the depth limit, a member before its column, a prefix of the
    /// columns.
    #[test]
    fn rows_taken_the_short_way() {
        for (json, max_depth) in [
            (r#"[{"a": {"e": 1}}, {"b": {"e": 1}}]"#, 3),
            (r#"[{"a": {"e": 1}}, {"a": {"e": [1]}}]"#, 3),
            (r#"[{"a": {"e": 1}}, {"a": {"e": [[1]]}}]"#, 3),
            (r#"[{"a": {"e": {"f": 1}}}, {"a": {"e": {"f": [1]}}}]"#, 3),
            (r#"[{"a": {"e": {"f": 1}}}, {"a": {"e": {"f": [1]}}}]"#, 4),
            (
                r#"[{"x": 1, "a": {"e": 1, "g": 2}}, {"x": 2, "a": {"g": 2, "e": 1}}]"#,
                3,
            ),
            (
                r#"[{"x": 1, "a": {"e": 1, "g": 2}}, {"x": 2, "a": {"e": 1}}, {"x": 3}]"#,
                3,
            ),
            (r#"[{"x": 1, "a": {"e": 1}}, {"a": {"e": 1}, "x": 2}]"#, 3),
            (r#"[{"a": {"e": 1}}, {"a": {"e": {}}}]"#, 3),
            (r#"[{"a": {"e": 1}}, {"a": {"e": "x\ny"}}]"#, 2),
        ] {
            let [short, long] = both_ways(json, max_depth);
            assert_eq!(short, long, "{json} within {max_depth}");
        }
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
                proptest::prop_assert_eq!(columns.nested, list.iter().any(|p| p.len() > 1));
            }
            proptest::prop_assert_eq!(columns.paths(), list);
        }
    }

    proptest::proptest! {
        /// Each column's key bound counts the keys of the objects it is
        /// the first column of, as a search of every earlier path says:
        /// columns of one object apart (`a.x`, `b.y`, `a.z`), objects
        /// of the same key under different parents, deep paths.
        #[test]
        fn key_bounds_count_each_object_once(
            rows in proptest::collection::vec(
                proptest::collection::vec(
                    proptest::collection::vec(proptest::sample::select(vec!["a", "b", "x y"]), 1..6),
                    1..6,
                ),
                1..4,
            ),
        ) {
            // Each row makes its paths where they are free (a path
            // through another's value is skipped); later rows add columns
            // to objects that earlier columns opened.
            let mut leaf = 0;
            let rows: Vec<Value> = rows
                .iter()
                .map(|paths| {
                    let mut row = Value::Object(codec_core::Map::new());
                    for path in paths {
                        let mut at = &mut row;
                        for key in &path[..path.len() - 1] {
                            let Value::Object(map) = at else { break };
                            if !map.contains_key(key) {
                                map.insert(key.to_string(), Value::Object(codec_core::Map::new()));
                            }
                            at = map.get_mut(key).unwrap();
                        }
                        let last = path[path.len() - 1];
                        if let Value::Object(map) = at
                            && !map.contains_key(last) {
                                leaf += 1;
                                map.insert(last.to_string(), Value::from(leaf));
                            }
                    }
                    row
                })
                .collect();
            let rows = rows.iter().map(|row| row.as_object().map(|map| (None, map.iter())));
            let table = DenseTable::<&Value>::build_rows(rows, false, 1, 128, true).unwrap();
            let Some(table) = table else { return Ok(()) };
            let columns = table.columns.paths();
            let nested = columns.iter().any(|path| path.len() > 1);
            let expected: Vec<usize> = columns
                .iter()
                .enumerate()
                .map(|(at, path)| {
                    let (last, objects) = path.split_last().unwrap();
                    let firsts = (1..=objects.len()).filter(|&i| {
                        nested && !columns[..at].iter().any(|p| p.len() > i && p[..i] == path[..i])
                    });
                    key_bound(last)
                        + firsts.map(|i| key_bound(path[i - 1]) + KEY_PUNCTUATION).sum::<usize>()
                })
                .collect();
            proptest::prop_assert_eq!(table.key_bounds(), expected, "{:?}", columns);
        }
    }

    proptest::proptest! {
        /// A cell's string is raw, and measured, in one pass exactly when
        /// the rules that read it three times say so, with their measure.
        #[test]
        fn raw_cells_are_found_in_one_pass(
            s in r#"([a-zA-Z0-9]{0,6}|[ _.:"'|`\[\]*#<&-]|é|\n|\u{0}){0,6}"#,
            first: bool,
        ) {
            let expected = is_raw_cell(&s, first).then(|| (Word::new(s.as_bytes()), s.contains('"')));
            let found = raw_cell(&s, first, RawString::Measured).map(|cell| (cell.word, cell.quote));
            proptest::prop_assert_eq!(found, expected);
        }

        /// A string [`raw_string`] finds escaped is one the rules do not
        /// write as it is; one it leaves out, whole or but for its edges,
        /// one they do. Fails if a quote or an `_` first made a string
        /// escaped (`"a"b…` may still be raw), or if any `_` left a string
        /// raw, not only one inside a word (`a_ b`).
        #[test]
        fn strings_left_out_or_escaped_are_the_rules_ones(
            s in proptest::prop_oneof![
                r#"[a-zA-Z0-9 .:'-]{0,24}([a-zA-Z0-9]{0,6}|[ _.:"'|`\[\]*#<&-]|é|\n|\u{0}){0,6}"#,
                // Snake case, and `_`s that are not inside a word.
                "[a-z0-9]{0,20}([a-z0-9]{1,3}|_|_ | _|__|[.-]){1,6}",
                // Lines (stack traces, URLs among them).
                r#"([a-zA-Z0-9 .:()_/"-]{0,20}\n){1,4}[a-zA-Z0-9 .:()_/-]{0,20}(http://x)?"#,
            ],
            first: bool,
        ) {
            let raw = is_raw_cell(&s, first);
            match raw_string(&s, first, true) {
                RawString::Escaped => proptest::prop_assert!(!raw, "{:?}", s),
                RawString::Word | RawString::Edges(_) => proptest::prop_assert!(raw, "{:?}", s),
                RawString::Measured => {}
                // Not raw: written by lines, as the rules write it in a
                // cell, or not at all.
                RawString::Lines => {
                    proptest::prop_assert!(!raw, "{:?}", s);
                    let mut lines = Vec::new();
                    if !first && escape::write_lines(&mut lines, &s) {
                        let mut cell = Vec::new();
                        escape::write_str(&mut cell, &s, Context::Cell);
                        proptest::prop_assert_eq!(lines, cell, "{:?}", s);
                    }
                }
            }
        }
    }

    #[test]
    fn follows_each_rule() {
        let cases: &[(&str, &str)] = &[
            // Rows without outer pipes; an empty first cell keeps its pipe.
            (
                r#"[{"a": 1, "b": "x"}, {"b": "y", "c": null}]"#,
                "|a|b|c|\n|---|---|---|\n1|x|\n||y|\n",
            ),
            // One column keeps its outer pipes.
            (r#"[{"a": 1}, {"a": null}]"#, "|a|\n|---|\n|1|\n||\n"),
            // Dotted columns; a key's own dot is escaped.
            (
                r#"[{"id": 1, "user": {"name": "ada", "a.b": 2}}]"#,
                "|id|user.name|user.a\\.b|\n|---|---|---|\n1|ada|2\n",
            ),
            // Line breaks as refs, lists in brackets, JSON in a code span.
            (
                r#"[{"s": "a\nb", "t": ["x", 1, null], "u": [{"k": "`|"}], "v": {}}]"#,
                "|s|t|u|v|\n|---|---|---|---|\na&#10;b|[x, 1,]|`[{\"k\":\"\\u0060\\u007c\"}]`|`{}`\n",
            ),
            // A string that starts like a list or a JSON cell says so.
            (
                r#"[{"a": "[x]", "b": "[y]", "c": "`z"}]"#,
                "|a|b|c|\n|---|---|---|\n\\[x]|\\[y]|\\`z\n",
            ),
            // The first cell is protected like a paragraph's start.
            (
                r##"[{"a": "# h", "b": 1}, {"a": "- i", "b": 2}]"##,
                "|a|b|\n|---|---|\n\\# h|1\n\\- i|2\n",
            ),
            // A map of objects: a keyed table.
            (
                r#"{"x": {"a": 1}, "y": {"a": 2, "b": true}}"#,
                "||a|b|\n|---|---|---|\nx|1|\ny|2|true\n",
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

    proptest::proptest! {
        /// A table's JSON is estimated only where its bound cannot decide,
        /// and a large table's words are in neither estimate: every choice
        /// is the one that estimating all of every table's markdown and
        /// JSON makes, every bound is at most that estimate (checked in
        /// [`exact_json`] when debug assertions are on), and the words
        /// left out cost what they cost in the markdown (checked in
        /// [`dense_table`]).
        #[test]
        fn bounds_change_no_choice(json in tables_json()) {
            // Random keys may repeat, which the parser refuses.
            let Ok(value) = from_str(&json) else {
                return Ok(());
            };
            let exact = DenseLayout { exact_always: true, ..DenseLayout::new() };
            proptest::prop_assert_eq!(render_in(&value, DenseLayout::new()), render_in(&value, exact));
        }

        /// A container written as JSON copies the JSON its sections wrote
        /// to their fences: the bytes of writing it whole.
        #[test]
        fn copying_json_changes_no_byte(json in tables_json()) {
            let Ok(value) = from_str(&json) else {
                return Ok(());
            };
            proptest::prop_assert_eq!(render_dense(&value, false), render_dense(&value, true));
        }
    }

    proptest::proptest! {
        /// Tables large enough to leave words out, of sentences, paths and
        /// words (raw, their edges punctuation or not) beside strings that
        /// need escapes, lines and JSON cells: every choice is the one
        /// estimating everything makes, and every table's bound is at most
        /// its JSON's estimate ([`check_bound`], with debug assertions).
        /// Fails if a string, a line or a JSON cell left out but for its
        /// edges counts its middle in the bound.
        #[test]
        fn cells_left_out_but_for_their_edges_change_no_choice(
            rows in proptest::collection::vec(
                proptest::collection::vec(
                    proptest::prop_oneof![
                        3 => "[(/-]?[a-z]{1,6}([ ,/:.-][a-z0-9]{1,6}){1,5}[.)!/]?"
                            .prop_map(|s| json_string(&s)),
                        1 => "[a-z0-9]{1,8}".prop_map(|s| json_string(&s)),
                        1 => "[a-z .*_\"|é]{0,10}".prop_map(|s| json_string(&s)),
                        // Lines (a stack trace), long and short, a URL
                        // among them now and then.
                        2 => "[A-Z][a-z]{1,5}: [a-z]{1,9}( [a-z_]{1,9}){0,5}[.]?(\n  at [a-z.]{1,12}(:[0-9]{1,3})?){1,3}( http://x)?"
                            .prop_map(|s| json_string(&s)),
                        // JSON cells: an array of records, an empty one.
                        2 => proptest::collection::vec(("[a-z]{1,5}", 0u32..100), 1..4)
                            .prop_map(|items| {
                                let items: Vec<String> = items
                                    .iter()
                                    .map(|(name, n)| format!(r#"{{"name": "{name} x", "n": {n}}}"#))
                                    .collect();
                                format!("[{}]", items.join(", "))
                            }),
                        1 => proptest::strategy::Just("{}".to_owned()),
                    ],
                    3,
                ),
                4..10,
            ),
        ) {
            let rows: Vec<String> = rows
                .iter()
                .map(|cells| {
                    let members: Vec<(String, String)> = cells
                        .iter()
                        .enumerate()
                        .map(|(i, cell)| (format!("\"c{i}\""), cell.clone()))
                        .collect();
                    object(&members)
                })
                .collect();
            let value = from_str(&format!("{{\"t\": [{}]}}", rows.join(","))).unwrap();
            let exact = DenseLayout { exact_always: true, ..DenseLayout::new() };
            proptest::prop_assert_eq!(render_in(&value, DenseLayout::new()), render_in(&value, exact));
        }
    }

    /// `value` in the dense profile, with every container's JSON written
    /// whole when `rewrite` (see [`DenseLayout::rewrite_json`]).
    fn render_dense(value: &Value, rewrite: bool) -> String {
        let layout = DenseLayout {
            rewrite_json: rewrite,
            ..DenseLayout::new()
        };
        render_in(value, layout)
    }

    /// `value` in `layout`, a dense one.
    fn render_in(value: &Value, layout: DenseLayout) -> String {
        let mut out = Vec::new();
        Writer::new(&mut out, codec_core::value::DEFAULT_MAX_DEPTH, layout)
            .write(value)
            .unwrap();
        String::from_utf8(out).unwrap()
    }

    /// Objects nested deep, each level a section that JSON wins, as the
    /// dotted headers of `fuzz/slow/md_parse_dense/` read: each level
    /// copies the JSON of the one below instead of writing it again (the
    /// work was the value's size times its depth), with the same bytes.
    #[test]
    fn deep_sections_written_as_json_copy_it() {
        for depth in [1, 2, 5, 40, 120] {
            let mut json = String::from(r#"{"id": 7, "tag": "x|y`z", "n": [1, 2]}"#);
            for level in 0..depth {
                json = format!(r#"{{"k{level}": {json}, "s": "a*b", "m": {{"p": {level}}}}}"#);
            }
            let value = from_str(&json).unwrap();
            json::COPIED.with(|copied| copied.set(0));
            let copied = render_dense(&value, false);
            let copies = json::COPIED.with(|copied| copied.get());
            assert_eq!(copied, render_dense(&value, true), "depth {depth}");
            assert!(
                copied.starts_with("```json\n{\"k"),
                "depth {depth}: {copied}"
            );
            assert!(copies >= depth - 1, "depth {depth}: {copies} copies");
        }
    }

    /// JSON of tables (arrays of records, maps of records, nested in
    /// objects) whose cells are words, numbers, escapes, quotes, nested
    /// records and JSON cells: small enough that JSON often wins.
    fn tables_json() -> impl proptest::strategy::Strategy<Value = String> {
        use proptest::prelude::*;
        let string = prop_oneof![
            "[a-z]{1,12}",
            "[a-z0-9]{1,4}( [a-z]{1,6}){0,3}",
            // Sentences and paths: raw, edged with punctuation.
            "[(/-]?[a-z]{1,6}([ ,/:.-][a-z0-9]{1,6}){0,4}[.)!/]?",
            "[a-z\"`|*_.:@ é\n\\\\-]{0,8}",
            "[0-9]{1,6}",
            Just(String::new()),
        ]
        .prop_map(|s| json_string(&s));
        let scalar = prop_oneof![
            string,
            "-?[0-9]{1,7}(\\.[0-9]{1,3})?",
            Just("true".to_owned()),
            Just("false".to_owned()),
            Just("null".to_owned()),
            Just("[]".to_owned()),
            Just("{}".to_owned()),
            Just("[1, \"a\"]".to_owned()),
            Just("[{\"k\": \"v\"}]".to_owned()),
        ];
        let key = prop_oneof!["[a-z]{1,10}", "[a-zA-Z_.-]{0,5}"].prop_map(|k| json_string(&k));
        let cell = prop_oneof![
            4 => scalar.clone(),
            1 => proptest::collection::vec((key.clone(), scalar), 1..3)
                .prop_map(|members| object(&members)),
        ];
        let record =
            proptest::collection::vec((key.clone(), cell.clone()), 1..5).prop_map(|m| object(&m));
        // Rows of the same columns, a cell sometimes missing: tables of
        // many rows, where random records are too sparse to be one.
        let uniform =
            proptest::collection::btree_set(key.clone(), 1..5).prop_flat_map(move |keys| {
                let row = proptest::collection::vec(
                    proptest::option::weighted(0.85, cell.clone()),
                    keys.len(),
                );
                proptest::collection::vec(row, 1..12).prop_map(move |rows| {
                    let rows: Vec<String> = rows
                        .iter()
                        .map(|cells| {
                            let members = keys.iter().zip(cells);
                            let members =
                                members.filter_map(|(k, v)| Some((k.clone(), v.clone()?)));
                            object(&members.collect::<Vec<_>>())
                        })
                        .collect();
                    format!("[{}]", rows.join(","))
                })
            });
        let table = prop_oneof![
            proptest::collection::vec(record.clone(), 1..5)
                .prop_map(|rows| format!("[{}]", rows.join(","))),
            proptest::collection::vec((key.clone(), record), 2..5).prop_map(|rows| object(&rows)),
            uniform,
        ];
        let section = prop_oneof![
            table.clone(),
            proptest::collection::vec((key.clone(), table), 1..3).prop_map(|m| object(&m))
        ];
        proptest::collection::vec((key, section), 1..4).prop_map(|m| object(&m))
    }

    fn object(members: &[(String, String)]) -> String {
        let members: Vec<String> = members.iter().map(|(k, v)| format!("{k}: {v}")).collect();
        format!("{{{}}}", members.join(", "))
    }

    /// `s` as a JSON string.
    fn json_string(s: &str) -> String {
        let mut out = Vec::new();
        json::write(&mut out, &codec_core::Value::from(s), 0, 128).unwrap();
        String::from_utf8(out).unwrap()
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
                "|id|name|email|\n|---|---|---|\n1|Ada Lovelace|ada@example.com\n2|Bob Stone|bob@example.org\n3|Cy Young|cy@example.net\n",
                r#"[{"id":1,"name":"Ada Lovelace","email":"ada@example.com"},{"id":2,"name":"Bob Stone","email":"bob@example.org"},{"id":3,"name":"Cy Young","email":"cy@example.net"}]"#,
            ),
            (
                "||enabled|rollout|\n|---|---|---|\nflag_a|true|82\nflag_b|false|35\nflag_c|true|7\n",
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
            let (m, j) = (real(markdown), real(json) + FENCE_TOKENS);
            if m * 10 > j * 11 || j * 10 > m * 11 {
                let chosen =
                    estimate(markdown.as_bytes()) <= estimate(json.as_bytes()) + FENCE_TOKENS;
                assert_eq!(chosen, m <= j, "{markdown:?}: o200k {m} against {j}");
            }
        }
        // The fence's own cost.
        assert_eq!(real("```json\n{}\n```\n") - real("{}"), FENCE_TOKENS);
    }
}

//! The writer: lays a value out as GFM blocks (tables, key lists, headed
//! sections, fenced code) straight into the output buffer.
//!
//! One walk and one layout per profile, the way serde_json's `Formatter`
//! makes output styles pluggable. [`Writer`] walks the value: the
//! document, a container's body (a list of what fits on a line, then a
//! section per nested container), list items, sections, tables, scalars.
//! At each of those places it asks its [`Layout`], whose hooks default to
//! `SPEC.md`'s rules; a profile's layout overrides only the hooks where it
//! differs, and keeps its own state:
//!
//! - [`default`]: `SPEC.md`'s layout, every hook as the trait gives it;
//! - [`lossless`]: the fewest markers that make the reading exact;
//! - [`dense`]: denser tables, and JSON where markdown costs more.
//!
//! The walk is generic over the layout and over the input (no dynamic
//! dispatch): any [`ValueView`], a parsed [`Value`](codec_core::Value) or
//! the [`Tape`](codec_core::tape::Tape) of a handler's typed data, so both get
//! the same walk, the same layouts and the same bytes. It touches the
//! input in few places: [`Writer::document`], [`Writer::container`], the
//! entries that [`schema::members`] and [`schema::elements`] give
//! [`Writer::body`], a table's rows and [`Writer::scalar`].
//!
//! Inline text goes through [`escape`] (the rules of `ESCAPING.md`), fenced
//! code through [`fence`], the dense profile's JSON through [`json`].
//! Blocks are separated by exactly one blank line, and no line ever begins
//! with user text (except inside a fence), so no value can open, close or
//! swallow a block.

mod default;
mod dense;
mod escape;
mod estimate;
mod fence;
mod json;
mod keys;
mod lossless;
mod stream;

pub(crate) use stream::row_encoder;

use std::collections::HashMap;

use codec_core::{EncodeError, TextLimit, ValueView, view::ViewKind};

use self::default::DefaultLayout;
use self::dense::DenseLayout;
use self::escape::{Context, Scalar};
use self::lossless::LosslessLayout;
use crate::Profile;
use crate::schema::{self, Label, Placement, elements, members, placement, placement_of};
use crate::truncate::{Bounded, Units};

/// Rendering options. Private: the builder is the public face.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Options {
    /// Containers nested deeper than this are an error.
    pub(crate) max_depth: usize,
    /// The layout rules.
    pub(crate) profile: Profile,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            max_depth: codec_core::value::DEFAULT_MAX_DEPTH,
            profile: Profile::Default,
        }
    }
}

/// The deepest heading: sections nested further stay at h6.
const MAX_HEADING: usize = 6;

/// Appends the markdown of `value` (a `&Value`, or a tape's root) to
/// `out`.
pub(crate) fn render<'v, V: ValueView<'v>>(
    value: V,
    out: &mut Vec<u8>,
    options: &Options,
) -> Result<(), EncodeError> {
    match options.profile {
        Profile::Default => Writer::new(out, options.max_depth, DefaultLayout).write(value),
        Profile::Lossless => Writer::new(out, options.max_depth, LosslessLayout).write(value),
        Profile::Dense => Writer::new(out, options.max_depth, DenseLayout::default()).write(value),
    }
    .map(drop)
}

/// [`render`], and the rows and items of the rendering, for a cut
/// ([`Units`]): recorded as they are written for the default profile,
/// whose every row and item is a line the writer knows it writes; `None`
/// for the other profiles (the cut scans their text).
pub(crate) fn render_counted<'v, V: ValueView<'v>>(
    value: V,
    out: &mut Vec<u8>,
    options: &Options,
) -> Result<Option<Units>, EncodeError> {
    match options.profile {
        Profile::Default => {
            let mut writer = Writer::new(out, options.max_depth, DefaultLayout);
            writer.units = Some(Units::new());
            writer.write(value)
        }
        _ => render(value, out, options).map(|()| None),
    }
}

/// How many bytes a bounded rendering lets pile up past its head before
/// it measures and drops them: a few rows at a time would measure in
/// pieces too small to be cheap, the whole rest would be the buffer the
/// bound is there to save.
pub(crate) const DROP_ABOVE: usize = 64 * 1024;

/// [`render_counted`], keeping only the head of a rendering over
/// `limit`: its start up to the first unit end where it is over the
/// limit, which holds every cut the limit can make
/// ([`codec_core::truncate::truncate_head_with`]). What is written after
/// it is measured in the limit's unit, its units counted, and dropped once
/// more than `drop_above` bytes of it pile up, so the buffer holds about
/// the head, not the rendering, and the cut and its note are those of the
/// whole.
///
/// For the default profile (whose writer records its units) and a limit
/// that adds up (chars or bytes); otherwise, or when a line written after
/// something was dropped turns out to need the cut's scan of the whole
/// text, the whole rendering.
pub(crate) fn render_bounded<'v, V: ValueView<'v>>(
    value: V,
    out: &mut Vec<u8>,
    options: &Options,
    limit: &TextLimit,
    drop_above: usize,
) -> Result<Bounded, EncodeError> {
    if options.profile != Profile::Default || !limit.adds_up() {
        return render_counted(value, out, options).map(Bounded::Whole);
    }
    let start = out.len();
    let mut writer = Writer::new(out, options.max_depth, DefaultLayout);
    writer.units = Some(Units::new());
    writer.bound = Some(Bound {
        limit: limit.clone(),
        drop_above,
        head: Head::default(),
    });
    DefaultLayout::document(&mut writer, value)?;
    match writer.finish_bounded() {
        Some(bounded) => Ok(bounded),
        None => {
            out.truncate(start);
            render_counted(value, out, options).map(Bounded::Whole)
        }
    }
}

/// The limit of a bounded rendering, and how far it got.
#[derive(Debug)]
struct Bound {
    limit: TextLimit,
    drop_above: usize,
    head: Head,
}

/// Where a bounded rendering's head ends and what was dropped after it;
/// a copy is what a rewind restores ([`Mark`]).
#[derive(Debug, Clone, Copy, Default)]
struct Head {
    /// Where the head ends, in bytes from the rendering's start: at the
    /// first unit end where the rendering is over the limit; `None` while
    /// it is not.
    end: Option<usize>,
    /// How many of the rendering's first bytes were measured, and their
    /// size in the limit's unit: up to `end` once there is one.
    measured: usize,
    size: usize,
    /// The bytes written after the head and dropped, and their size.
    dropped: usize,
    dropped_size: usize,
}

/// Where the writer stood, for a rewind ([`Writer::rewind`]).
struct Mark {
    len: usize,
    started: bool,
    units: Option<(usize, usize, usize)>,
    head: Option<Head>,
}

/// The size of `bytes` of the rendering, cut at a line end, in `limit`'s
/// unit.
fn measure(limit: &TextLimit, bytes: &[u8]) -> usize {
    // The writer writes only UTF-8, and a line end is a char boundary.
    std::str::from_utf8(bytes).map_or(bytes.len(), |text| limit.measure(text))
}

/// What a profile writes at each place of the walk. Every hook has
/// `SPEC.md`'s behaviour unless the layout overrides it.
///
/// Hooks that write blocks take the whole [`Writer`] (and may call back
/// into the walk); hooks that write inline text take the layout and the
/// buffer.
trait Layout: Sized {
    /// Whether an object's key list marks where each section's member
    /// came, with [`Layout::section_place`], when a listed member follows
    /// it. `SPEC.md` moves sections after the list and marks nothing.
    const MARKS_SECTION_PLACES: bool = false;

    /// Whether [`Layout::string`] writes a string after a key as
    /// [`escape::write_str`] does: the walk then writes a plain string's
    /// list line itself ([`Writer::plain_item`]).
    const STRINGS_AS_ESCAPED: bool = true;

    /// The whole document: [`Writer::document`].
    fn document<'v, V: ValueView<'v>>(
        w: &mut Writer<'_, Self>,
        value: V,
    ) -> Result<(), EncodeError> {
        w.document(value)
    }

    /// A section's body, after its heading: [`Writer::container`].
    fn section_body<'v, V: ValueView<'v>>(
        w: &mut Writer<'_, Self>,
        value: V,
        level: usize,
        depth: usize,
    ) -> Result<(), EncodeError> {
        w.container(value, level, depth)
    }

    /// A top-level string that is not fenced: its escaped paragraph line,
    /// and no block at all for `""` (an empty document reads as null).
    fn paragraph(w: &mut Writer<'_, Self>, s: &str) {
        if !s.is_empty() {
            w.line(|_, out| escape::write_paragraph(out, s));
        }
    }

    /// The list line that marks a section's place in the key list, when
    /// [`Layout::MARKS_SECTION_PLACES`]. `depth` is the member's.
    fn section_place(
        w: &mut Writer<'_, Self>,
        label: Label<'_>,
        depth: usize,
    ) -> Result<(), EncodeError> {
        let _ = (w, label, depth);
        Ok(())
    }

    /// A string in a table cell or after a key.
    fn string(&self, out: &mut Vec<u8>, s: &str, context: Context) {
        escape::write_str(out, s, context);
    }

    /// Scalars as an inline list, `a, b, c`; `line_start` when the list
    /// begins a paragraph line.
    fn list<'v, V: ValueView<'v>>(
        &self,
        out: &mut Vec<u8>,
        items: impl ExactSizeIterator<Item = V> + Clone,
        line_start: bool,
    ) {
        escape::write_list(out, items.map(Scalar::of), line_start);
    }

    /// The columns of `items`, when they are written as a table.
    fn table_columns<'v, V: ValueView<'v>>(
        &self,
        items: impl ExactSizeIterator<Item = V> + Clone,
    ) -> Option<Vec<&'v str>> {
        schema::table_columns(items)
    }

    /// The cell of a column that a row lacks: empty (it reads as null).
    fn missing_cell(&self, out: &mut Vec<u8>) {
        let _ = out;
    }

    /// After a heading's text, for a section at `level` (deeper than
    /// [`MAX_HEADING`] once headings stop growing): nothing.
    fn heading_end(&self, out: &mut Vec<u8>, level: usize) {
        let _ = (out, level);
    }
}

/// The walk over a value, writing into `out` as layout `L` says.
struct Writer<'o, L> {
    out: &'o mut Vec<u8>,
    max_depth: usize,
    /// Whether a block was written: the next one needs a blank line first.
    started: bool,
    layout: L,
    /// The keys of list lines, which repeat on every row.
    keys: escape::KeyWriter,
    /// The rows and items written, when they are recorded
    /// ([`render_counted`]); their ends count from `start`.
    units: Option<Units>,
    /// Where the rendering starts in `out`.
    start: usize,
    /// The limit of a bounded rendering ([`render_bounded`]).
    bound: Option<Bound>,
}

impl<'o, L: Layout> Writer<'o, L> {
    fn new(out: &'o mut Vec<u8>, max_depth: usize, layout: L) -> Writer<'o, L> {
        let start = out.len();
        Writer {
            out,
            max_depth,
            started: false,
            layout,
            keys: escape::KeyWriter::default(),
            units: None,
            start,
            bound: None,
        }
    }

    /// Writes the document; the units written, if recorded.
    fn write<'v, V: ValueView<'v>>(mut self, value: V) -> Result<Option<Units>, EncodeError> {
        L::document(&mut self, value)?;
        Ok(self.units)
    }

    /// Records an item of the cut ([`Units`]) that ends with the line just
    /// written: a paragraph, a list item (its fence included) or a fenced
    /// block, which the default layout writes only as whole lines.
    #[inline]
    fn item_written(&mut self) {
        self.unit_written(false);
    }

    /// Records a table row that ends with the line just written.
    #[inline]
    fn row_written(&mut self) {
        self.unit_written(true);
    }

    /// Records a row or an item that ends with the line just written. Past
    /// the head of a bounded rendering, where no cut falls, it is only
    /// counted.
    #[inline]
    fn unit_written(&mut self, row: bool) {
        let Some(units) = &mut self.units else {
            return;
        };
        let past_head = self.bound.as_ref().is_some_and(|b| b.head.end.is_some());
        // Before the line feed, as the scan counts a line's end.
        let end = self.out.len() - 1 - self.start;
        match (row, past_head) {
            (true, false) => units.row(end),
            (false, false) => units.item(end),
            (true, true) => units.count_row(),
            (false, true) => units.count_item(),
        }
        if self.bound.is_some() {
            self.unit_ended();
        }
    }

    /// After a unit of a bounded rendering: once the rendering is over the
    /// limit, its head ends here; after that, what piles up past the head
    /// is dropped.
    fn unit_ended(&mut self) {
        let Some(bound) = &mut self.bound else {
            return;
        };
        let len = self.out.len() - self.start;
        match bound.head.end {
            // No text has more chars than bytes: one no longer in bytes
            // than the limit is within it, unmeasured.
            None if len <= bound.limit.max() => {}
            None => {
                let unmeasured = &self.out[self.start + bound.head.measured..];
                bound.head.size += measure(&bound.limit, unmeasured);
                bound.head.measured = len;
                if bound.head.size > bound.limit.max() {
                    bound.head.end = Some(len);
                }
            }
            Some(end) if len - end > bound.drop_above => self.drop_tail(),
            Some(_) => {}
        }
    }

    /// Measures and drops what was written after the head of a bounded
    /// rendering over its limit.
    fn drop_tail(&mut self) {
        let Some(bound) = &mut self.bound else {
            return;
        };
        let Some(end) = bound.head.end else {
            return;
        };
        let head_end = self.start + end;
        if self.out.len() > head_end {
            bound.head.dropped_size += measure(&bound.limit, &self.out[head_end..]);
            bound.head.dropped += self.out.len() - head_end;
            self.out.truncate(head_end);
        }
    }

    /// Where the writer stands, for [`Writer::rewind`]. What piled up
    /// past a bounded rendering's head is dropped first, so that the
    /// buffer ends at the mark (what is before it is never taken back).
    fn mark(&mut self) -> Mark {
        self.drop_tail();
        Mark {
            len: self.out.len(),
            started: self.started,
            units: self.units.as_ref().map(Units::mark),
            head: self.bound.as_ref().map(|bound| bound.head),
        }
    }

    /// Takes back what was written since `mark`.
    fn rewind(&mut self, mark: Mark) {
        self.out.truncate(mark.len);
        self.started = mark.started;
        if let (Some(units), Some(at)) = (&mut self.units, mark.units) {
            units.rewind(at);
        }
        if let (Some(bound), Some(head)) = (&mut self.bound, mark.head) {
            bound.head = head;
        }
    }

    /// The end of a bounded rendering: its head with the rest measured,
    /// the whole rendering when it never went over its limit (or when its
    /// units were lost before anything was dropped: the cut then scans
    /// it), or `None` when its units were lost after something was
    /// dropped (the cut needs the whole text then).
    fn finish_bounded(mut self) -> Option<Bounded> {
        self.drop_tail();
        let head = self
            .bound
            .as_ref()
            .map(|bound| bound.head)
            .unwrap_or_default();
        match (self.units, head.end) {
            (Some(units), Some(end)) => Some(Bounded::Head {
                units,
                len: end + head.dropped,
                size: head.size + head.dropped_size,
            }),
            (None, _) if head.dropped > 0 => None,
            (units, _) => Some(Bounded::Whole(units)),
        }
    }

    /// `SPEC.md`'s document: a scalar or an inline list as a paragraph, a
    /// multi-line string fenced, `[]` and `{}` as they are, a table, or a
    /// container's body.
    fn document<'v, V: ValueView<'v>>(&mut self, value: V) -> Result<(), EncodeError> {
        self.document_at(value, 1, 1)
    }

    /// A document whose sections start at `level`, its container at
    /// `depth`: the whole document, or a row of a stream under its `[i]`
    /// heading ([`stream`]).
    fn document_at<'v, V: ValueView<'v>>(
        &mut self,
        value: V,
        level: usize,
        depth: usize,
    ) -> Result<(), EncodeError> {
        match value.kind() {
            ViewKind::Null => {}
            ViewKind::Bool(_) | ViewKind::Number(_) => {
                self.block();
                self.scalar(value, Context::Value);
                self.out.push(b'\n');
                self.item_written();
            }
            ViewKind::String(s) if schema::has_line_feed(s) && schema::fence_eligible(s) => {
                self.block();
                fence::write(self.out, s, None, b"");
                self.item_written();
            }
            ViewKind::String(s) => L::paragraph(self, s),
            ViewKind::Array(items) => {
                self.enter(depth)?;
                if items.len() == 0 {
                    self.line(|_, out| out.extend_from_slice(b"[]"));
                } else if self.uniform_table(items.clone(), depth) {
                    // Written in one pass.
                } else if let Some(columns) = self.layout.table_columns(items.clone()) {
                    self.enter(depth + 1)?;
                    self.table(items, &columns);
                } else if schema::is_inline_list(items.clone()) {
                    self.line(|layout, out| layout.list(out, items, true));
                } else {
                    self.body(elements(items), None::<V::Members>, level, depth)?;
                }
            }
            ViewKind::Object(map) => {
                self.enter(depth)?;
                if map.len() == 0 {
                    self.line(|_, out| out.extend_from_slice(b"{}"));
                } else {
                    self.body(members(map.clone()), Some(map), level, depth)?;
                }
            }
        }
        Ok(())
    }

    /// `SPEC.md`'s body of a container at `depth` under a heading: an
    /// object's members, an array's table or its elements.
    fn container<'v, V: ValueView<'v>>(
        &mut self,
        value: V,
        level: usize,
        depth: usize,
    ) -> Result<(), EncodeError> {
        match value.kind() {
            ViewKind::Object(map) => self.body(members(map.clone()), Some(map), level, depth),
            ViewKind::Array(items) if self.uniform_table(items.clone(), depth) => Ok(()),
            ViewKind::Array(items) => match self.layout.table_columns(items.clone()) {
                Some(columns) => {
                    self.enter(depth + 1)?;
                    self.table(items, &columns);
                    Ok(())
                }
                None => self.body(elements(items), None::<V::Members>, level, depth),
            },
            _ => Ok(()),
        }
    }

    /// Fails when a container at `depth` (1 for the top level) is too deep.
    fn enter(&self, depth: usize) -> Result<(), EncodeError> {
        if depth > self.max_depth {
            return Err(EncodeError::DepthLimit {
                limit: self.max_depth,
            });
        }
        Ok(())
    }

    /// Starts a block: one blank line after the previous one.
    fn block(&mut self) {
        if self.started {
            self.out.push(b'\n');
        }
        self.started = true;
    }

    /// A paragraph line: a new block, what `write` writes, and a line
    /// feed. No trailing space: after the separator before an empty last
    /// list item (parsers drop it anyway). A string never ends in a raw
    /// space (its edge whitespace is written as references).
    fn line(&mut self, write: impl FnOnce(&L, &mut Vec<u8>)) {
        self.block();
        let start = self.out.len();
        write(&self.layout, self.out);
        // Only a space of this line: the bytes before the rendering are
        // the caller's.
        if self.out.len() > start && self.out.last() == Some(&b' ') {
            self.out.pop();
        }
        // A line with nothing visible (`[null]` is an empty list line) is
        // a blank line to a reader, and to the cut: no item. Read only
        // when units are recorded.
        let blank = self.units.is_some()
            && std::str::from_utf8(&self.out[start..]).map_or(true, |l| l.trim().is_empty());
        self.check_line(start);
        self.out.push(b'\n');
        if !blank {
            self.item_written();
        }
    }

    /// Stops recording units when the line from `start` to the end of
    /// `out` could make the line before it read as a table's header (a
    /// key list line of only `-`, `:`, `|` and spaces, say `- : |`, the
    /// empty key's): the cut's scan then reads a table there, and its
    /// reading is the one that counts.
    #[inline]
    fn check_line(&mut self, start: usize) {
        if self.units.is_some() && crate::truncate::may_read_as_delimiter_row(&self.out[start..]) {
            self.units = None;
        }
    }

    /// The body of a container at `depth`: first one list of everything
    /// that fits on a line, then a section per nested container, each in
    /// source order. Sections come last because a heading ends the list:
    /// a list line after a section would read as part of that section.
    /// `siblings` are an object's members (a fence's language may come
    /// from them).
    // The entries are counted by hand: an `Enumerate` around them was a
    // call per member that the compiler did not inline.
    #[allow(clippy::explicit_counter_loop)]
    fn body<'v, V, I, M>(
        &mut self,
        entries: I,
        siblings: Option<M>,
        level: usize,
        depth: usize,
    ) -> Result<(), EncodeError>
    where
        V: ValueView<'v>,
        I: Iterator<Item = (Label<'v>, V)> + Clone,
        M: Iterator<Item = (&'v str, V)> + Clone,
    {
        let mut listed = false;
        let mut sections = 0usize;
        // Which entries from the first section on are sections (the first
        // 64 of them), so that the second pass asks none its placement
        // again; and where that pass starts: the entries from the first
        // section, so that it does not walk the list's members again.
        let mut section_bits = 0u64;
        let mut from_first_section: Option<I> = None;
        let last_listed = match siblings {
            Some(_) if L::MARKS_SECTION_PLACES => entries
                .clone()
                .enumerate()
                .filter(|(_, (label, value))| {
                    !matches!(placement(*label, *value), Placement::Section)
                })
                .map(|(i, _)| i)
                .last(),
            _ => None,
        };
        // The language the siblings name, found at the first fence.
        let mut language: Option<Option<&'v str>> = None;
        let mut rest = entries;
        // Entries read, and where the first section is among them.
        let mut i = 0;
        let mut first_section = 0;
        loop {
            let before = rest.clone();
            let Some((label, value)) = rest.next() else {
                break;
            };
            let at = i;
            i += 1;
            let kind = value.kind();
            if let Some(key) = self.plain_member(label, &kind) {
                if !listed {
                    self.block();
                    listed = true;
                }
                self.plain_item(key, kind);
                continue;
            }
            let placement = placement_of(label, &kind);
            let is_section = matches!(placement, Placement::Section);
            let marked = is_section && last_listed.is_some_and(|last| at < last);
            if is_section {
                if sections == 0 {
                    from_first_section = Some(before);
                    first_section = at;
                }
                sections += 1;
                if at - first_section < 64 {
                    section_bits |= 1 << (at - first_section);
                }
            }
            if is_section && !marked {
                continue;
            }
            if !listed {
                self.block();
                listed = true;
            }
            if marked {
                L::section_place(self, label, depth + 1)?;
            } else {
                let fence = match placement {
                    Placement::Fenced(s) => {
                        let language = fence::language(label, || {
                            *language.get_or_insert_with(|| {
                                siblings.clone().and_then(fence::sibling_language)
                            })
                        });
                        Some((s, language))
                    }
                    _ => None,
                };
                self.item(label, kind, fence, depth + 1)?;
            }
        }
        let Some(entries) = from_first_section else {
            return Ok(());
        };
        let mut i = 0;
        for (label, value) in entries {
            let at = i;
            i += 1;
            let is_section = if at < 64 {
                section_bits & (1 << at) != 0
            } else {
                // Only a container can be a section: a scalar needs no
                // second look (a string's would search it for a line feed
                // again).
                !value.is_scalar() && matches!(placement(label, value), Placement::Section)
            };
            if is_section {
                self.section(label, value, level, depth + 1)?;
                sections -= 1;
                if sections == 0 {
                    break;
                }
            }
        }
        Ok(())
    }

    /// The key of a member whose list line the walk writes straight: a
    /// number, a bool, null, or a string written as it is under a key that
    /// names no code (never fenced: a plain string holds no line feed).
    /// Most members of records are; the walk classifies their strings
    /// once, for placement and escaping both.
    #[inline(always)]
    fn plain_member<'v, 'k, V: ValueView<'v>>(
        &self,
        label: Label<'k>,
        kind: &ViewKind<'v, V>,
    ) -> Option<&'k str> {
        let Label::Key(key) = label else {
            return None;
        };
        let plain = match *kind {
            ViewKind::Null | ViewKind::Bool(_) | ViewKind::Number(_) => true,
            ViewKind::String(s) => {
                L::STRINGS_AS_ESCAPED
                    && !s.is_empty()
                    && !schema::is_code_key(key)
                    && escape::is_plain(s, false)
            }
            ViewKind::Array(_) | ViewKind::Object(_) => false,
        };
        (plain && !key.is_empty()).then_some(key)
    }

    /// The list line of a [`Writer::plain_member`]: what
    /// [`Writer::item`] writes for it.
    #[inline(always)]
    fn plain_item<'v, V: ValueView<'v>>(&mut self, key: &str, kind: ViewKind<'v, V>) {
        self.out.extend_from_slice(b"- **");
        self.keys.write(self.out, key);
        match kind {
            ViewKind::String(s) => {
                self.out.extend_from_slice(b"**: ");
                self.out.extend_from_slice(s.as_bytes());
            }
            ViewKind::Number(n) => {
                self.out.extend_from_slice(b"**: ");
                n.write_to(self.out);
            }
            ViewKind::Bool(true) => self.out.extend_from_slice(b"**: true"),
            ViewKind::Bool(false) => self.out.extend_from_slice(b"**: false"),
            _ => self.out.extend_from_slice(b"**:"),
        }
        self.out.push(b'\n');
        self.item_written();
    }

    /// One list line, `- **key**: value`, and its fence if it has one
    /// (the string and its language).
    #[inline(always)]
    fn item<'v, V: ValueView<'v>>(
        &mut self,
        label: Label<'_>,
        kind: ViewKind<'v, V>,
        fence: Option<(&str, Option<&str>)>,
        depth: usize,
    ) -> Result<(), EncodeError> {
        let start = self.out.len();
        // The marks around the label in as few writes as they can be.
        let end: &[u8] = if fence.is_some() { b":\n" } else { b": " };
        match label {
            // `****` is literal text, so an empty key is no key at all.
            Label::Key("") => self.out.extend_from_slice(b"- "),
            Label::Key(key) => {
                self.out.extend_from_slice(b"- **");
                self.keys.write(self.out, key);
                self.out.extend_from_slice(b"**");
            }
            Label::Index(i) => {
                self.out.extend_from_slice(b"- ");
                self.index(i, true);
            }
        }
        self.out.extend_from_slice(end);
        if let Some((s, language)) = fence {
            fence::write(self.out, s, language, b"  ");
            self.item_written();
            return Ok(());
        }
        match kind {
            ViewKind::Array(items) => {
                self.enter(depth)?;
                if items.len() == 0 {
                    self.out.extend_from_slice(b"[]");
                } else {
                    self.layout.list(self.out, items, false);
                }
            }
            ViewKind::Object(_) => {
                self.enter(depth)?;
                self.out.extend_from_slice(b"{}");
            }
            kind => self.scalar_of(kind, Context::Value),
        }
        // No trailing space: after an empty value, or after the separator
        // before an empty last list item (parsers drop it anyway).
        if self.out.last() == Some(&b' ') {
            self.out.pop();
        }
        // Only the empty key's line (`- : |`) can be all `-`, `:`, `|`.
        if let Label::Key("") = label {
            self.check_line(start);
        }
        self.out.push(b'\n');
        self.item_written();
        Ok(())
    }

    /// A heading and the container under it.
    fn section<'v, V: ValueView<'v>>(
        &mut self,
        label: Label<'_>,
        value: V,
        level: usize,
        depth: usize,
    ) -> Result<(), EncodeError> {
        self.enter(depth)?;
        self.heading(label, level);
        L::section_body(self, value, level + 1, depth)
    }

    /// A heading at `level` (`#` to `######`, then the layout's end).
    fn heading(&mut self, label: Label<'_>, level: usize) {
        self.block();
        let hashes = level.min(MAX_HEADING);
        self.out.extend_from_slice(&b"######"[..hashes]);
        match label {
            Label::Key("") => {}
            Label::Key(key) => {
                self.out.push(b' ');
                self.keys.write_in(self.out, key, Context::Heading);
            }
            Label::Index(i) => {
                self.out.push(b' ');
                self.index(i, false);
            }
        }
        self.layout.heading_end(self.out, level);
        self.out.push(b'\n');
    }

    /// `[i]`, bold on a list line.
    fn index(&mut self, i: usize, bold: bool) {
        if bold {
            self.out.extend_from_slice(b"**");
        }
        self.out.push(b'[');
        self.out
            .extend_from_slice(itoa::Buffer::new().format(i).as_bytes());
        self.out.push(b']');
        if bold {
            self.out.extend_from_slice(b"**");
        }
    }

    /// The table of `rows`, an array at `depth`, when every row lists the
    /// same keys in the same order and each value is a scalar with no line
    /// feed, as most tables' rows do: written in one pass, the first row's
    /// keys its columns, without the pass that finds the columns
    /// ([`Layout::table_columns`]: for such rows every layout's columns
    /// are the first row's keys). False, with nothing written, when the
    /// rows are not all so (found while writing them: what was written is
    /// taken back) or the table would be too deep; the caller then lays
    /// the array out the long way.
    #[inline(never)]
    fn uniform_table<'v, V: ValueView<'v>>(
        &mut self,
        rows: impl Iterator<Item = V> + Clone,
        depth: usize,
    ) -> bool {
        let Some(ViewKind::Object(columns)) = rows.clone().next().map(V::kind) else {
            return false;
        };
        if columns.len() == 0 || depth + 1 > self.max_depth {
            return false;
        }
        let mark = self.mark();
        self.block();
        self.out.push(b'|');
        for (column, value) in columns.clone() {
            // Records with nested objects say so at the first row, before
            // any row is written (a line feed is found when the row is).
            if !value.is_scalar() {
                self.rewind(mark);
                return false;
            }
            self.keys.write_cell(self.out, column);
            self.out.push(b'|');
        }
        self.out.push(b'\n');
        self.out.push(b'|');
        for _ in columns.clone() {
            self.out.extend_from_slice(b"---|");
        }
        self.out.push(b'\n');
        for row in rows {
            if !self.uniform_row(row, columns.clone()) {
                self.rewind(mark);
                return false;
            }
            self.row_written();
        }
        true
    }

    /// A row of [`Writer::uniform_table`], when it is one: its members are
    /// `columns` in order, each a scalar with no line feed.
    #[inline]
    fn uniform_row<'v, V: ValueView<'v>>(&mut self, row: V, columns: V::Members) -> bool {
        let ViewKind::Object(members) = row.kind() else {
            return false;
        };
        if members.len() != columns.len() {
            return false;
        }
        self.out.push(b'|');
        // Side by side by hand: a `Zip` of the two was a call per cell.
        let mut columns = columns;
        for (key, value) in members {
            match columns.next() {
                Some((column, _)) if schema::same_key(column, key) => {}
                _ => return false,
            }
            match value.kind() {
                ViewKind::Array(_) | ViewKind::Object(_) => return false,
                ViewKind::String(s) if schema::has_line_feed(s) => return false,
                kind => self.scalar_of(kind, Context::Cell),
            }
            self.out.push(b'|');
        }
        self.out.push(b'\n');
        true
    }

    /// A table: header, delimiter, one row per object, unpadded.
    fn table<'v, V: ValueView<'v>>(&mut self, rows: impl Iterator<Item = V>, columns: &[&str]) {
        self.table_header(columns);
        self.table_rows(rows, columns);
    }

    /// A table's header and delimiter rows, a new block.
    fn table_header<C: AsRef<str>>(&mut self, columns: &[C]) {
        self.block();
        self.out.push(b'|');
        for column in columns {
            self.keys.write_cell(self.out, column.as_ref());
            self.out.push(b'|');
        }
        self.out.push(b'\n');
        self.out.push(b'|');
        for _ in columns {
            self.out.extend_from_slice(b"---|");
        }
        self.out.push(b'\n');
    }

    /// A table's rows, one per object, under its header (a stream writes
    /// its rows one call at a time).
    fn table_rows<'v, V: ValueView<'v>, C: AsRef<str>>(
        &mut self,
        rows: impl Iterator<Item = V>,
        columns: &[C],
    ) {
        // The cells of a row that lists its members out of the columns'
        // order, or not all of them, made at the first such row.
        let mut cells: Vec<Option<V>> = Vec::new();
        // Each column's position, made at the first row that lists its
        // members out of the columns' order.
        let mut index: Option<HashMap<&str, usize>> = None;
        for row in rows {
            let ViewKind::Object(members) = row.kind() else {
                continue;
            };
            // Rows usually list every column in order: their cells are
            // written as their members come, and a row found out of order
            // halfway is written again the long way.
            if members.len() == columns.len() {
                let start = self.out.len();
                self.out.push(b'|');
                let mut in_order = true;
                for ((key, value), column) in members.clone().zip(columns) {
                    if !schema::same_key(column.as_ref(), key) {
                        in_order = false;
                        break;
                    }
                    self.scalar(value, Context::Cell);
                    self.out.push(b'|');
                }
                if in_order {
                    self.out.push(b'\n');
                    self.row_written();
                    continue;
                }
                self.out.truncate(start);
            }
            cells.clear();
            cells.resize(columns.len(), None);
            for (at, (key, value)) in members.enumerate() {
                // Members in the columns' order need no hash.
                let column = match columns.get(at) {
                    Some(column) if schema::same_key(column.as_ref(), key) => Some(at),
                    _ => index
                        .get_or_insert_with(|| {
                            columns
                                .iter()
                                .enumerate()
                                .map(|(i, c)| (c.as_ref(), i))
                                .collect()
                        })
                        .get(key)
                        .copied(),
                };
                if let Some(cell) = column.and_then(|column| cells.get_mut(column)) {
                    *cell = Some(value);
                }
            }
            self.out.push(b'|');
            for cell in &cells {
                match cell {
                    Some(cell) => self.scalar(*cell, Context::Cell),
                    None => self.layout.missing_cell(self.out),
                }
                self.out.push(b'|');
            }
            self.out.push(b'\n');
            self.row_written();
        }
    }

    /// A scalar inline: a number's exact text, `true`/`false`, nothing for
    /// null, a string as the layout writes it.
    #[inline]
    fn scalar<'v, V: ValueView<'v>>(&mut self, value: V, context: Context) {
        self.scalar_of(value.kind(), context);
    }

    /// [`Writer::scalar`] of a value whose kind was read.
    #[inline]
    fn scalar_of<'v, V: ValueView<'v>>(&mut self, kind: ViewKind<'v, V>, context: Context) {
        match kind {
            ViewKind::Null | ViewKind::Array(_) | ViewKind::Object(_) => {}
            ViewKind::Bool(true) => self.out.extend_from_slice(b"true"),
            ViewKind::Bool(false) => self.out.extend_from_slice(b"false"),
            ViewKind::Number(n) => n.write_to(self.out),
            ViewKind::String(s) => self.layout.string(self.out, s, context),
        }
    }
}

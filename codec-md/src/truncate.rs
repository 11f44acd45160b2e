//! Cutting markdown this crate wrote down to a limit, only where a row or
//! an item ends: the markdown codec's [`Codec::truncate`] and its
//! [budget](crate::MarkdownCodecBuilder::budget).
//!
//! The frame (room for the note, the note itself, the final measure that
//! makes a token limit exact) is codec-core's [`truncate_with`]; this
//! module says where markdown may be cut. A text is a run of units:
//!
//! - a **row**: one line of a table after its delimiter row (`|1|ada|`,
//!   or the dense profile's `1|ada`);
//! - an **item**: a list item with its continuation lines (a fenced block
//!   under `- **stack**:` is part of its item), a paragraph, or a
//!   top-level fenced code block.
//!
//! Headings, a table's header and delimiter rows and blank lines are
//! structure, not units. A cut falls only at the end of a unit, so every
//! value kept is whole (a cut cell would read as a real value,
//! `alice@exa`), no fence is left open, and a heading or a table header
//! is kept only with at least one unit under it. A unit longer than the
//! whole budget is left out whole, with everything after it: a budget
//! smaller than the first unit keeps nothing but the note. The note says
//! how many rows and items were left out, and ends with the limit's hint
//! (how to get the rest).
//!
//! [`Codec::truncate`]: codec_core::Codec::truncate

use codec_core::{
    TextLimit, Truncation,
    truncate::{Cut, Omission, Tally, truncate_head_with, truncate_with},
};

/// `text`, markdown, cut to fit `limit`, note included, at the end of a
/// whole row or item; `text` itself when it fits. What
/// [`MarkdownCodec`](crate::MarkdownCodec) does for
/// [`Codec::truncate`](codec_core::Codec::truncate) and for its
/// [budget](crate::MarkdownCodecBuilder::budget), for every profile.
///
/// ```
/// use codec_core::TextLimit;
///
/// let mut table = String::from("| id | name |\n| --- | --- |\n");
/// for i in 0..100 {
///     table.push_str(&format!("| {i} | name {i} |\n"));
/// }
/// let limit = TextLimit::chars(400).with_hint("Request `?offset={rows}` for the next rows.");
/// let cut = codec_md::truncate(table, &limit);
/// let (kept, note) = cut.text.split_once("\n\n").unwrap();
/// assert!(kept.lines().all(|row| row.ends_with(" |")), "whole rows only");
/// assert_eq!(kept.lines().count(), 2 + 14);
/// assert_eq!(
///     note,
///     "[Truncated: showing the first 245 of 1708 characters; 86 of 100 rows were left out. \
///      Request `?offset=14` for the next rows.]"
/// );
/// assert!(cut.text.chars().count() <= 400);
/// let rows = cut.omitted.unwrap().rows.unwrap();
/// assert_eq!((rows.kept, rows.total), (14, 100));
/// ```
pub fn truncate(text: String, limit: &TextLimit) -> Truncation {
    cut(text, limit, None)
}

/// [`truncate`], with the units of `text` when the writer recorded them
/// as it wrote it ([`Units`]): the same cut, without reading the text
/// again. Otherwise the text is scanned, only when it must be cut: most
/// texts fit, and the scan reads every line, a real share of a small
/// result's work.
fn cut(text: String, limit: &TextLimit, mut units: Option<Units>) -> Truncation {
    truncate_with(text, limit, |text, budget| {
        let end = limit.longest_prefix(text, budget);
        units
            .get_or_insert_with(|| Units::scan(text))
            .cut_within(end)
    })
}

/// [`cut`] of a rendering of which only `head`, its start, was kept
/// ([`Bounded::Head`]): `len` bytes and `size` in the limit's unit in
/// all, with the units the writer recorded in the head and counted after
/// it.
fn cut_head(head: String, len: usize, size: usize, limit: &TextLimit, units: Units) -> Truncation {
    truncate_head_with(head, len, size, limit, |text, budget| {
        units.cut_within(limit.longest_prefix(text, budget))
    })
}

/// Cuts the markdown that `out[start..]` holds to `limit`, in place: what
/// the codec's budget does after each rendering, given the units the
/// writer recorded, if it did. A whole rendering no longer in bytes than
/// the limit fits without being measured; any other is measured once (a
/// count of its tokens, for a token limit) and, when it fits, put back as
/// it was. A rendering of which only the head was kept is over the limit,
/// measured as it was written.
///
/// Returns what the cut left out, `None` when the rendering fits.
pub(crate) fn apply_budget(
    out: &mut Vec<u8>,
    start: usize,
    limit: &TextLimit,
    written: Bounded,
) -> Option<Omission> {
    // No text has more chars or tokens than bytes.
    if matches!(written, Bounded::Whole(_)) && out.len() - start <= limit.max() {
        return None;
    }
    // The whole buffer is the rendering (the usual case): taken, not
    // copied.
    let rendered = match start {
        0 => std::mem::take(out),
        _ => out.split_off(start),
    };
    match String::from_utf8(rendered) {
        Ok(text) => {
            let Truncation { text, omitted, .. } = match written {
                Bounded::Whole(units) => cut(text, limit, units),
                Bounded::Head { units, len, size } => cut_head(text, len, size, limit, units),
            };
            // A cut text that fills a quarter of its buffer is handed back
            // as it is, not copied; a smaller one is copied, so that the
            // large buffer is freed now, not with the text (a large buffer
            // kept to the end of the result made the allocator copy the
            // next ones as they grew). Above 1 MB the
            // frame has already shrunk such a text (`truncate_with`, by
            // the same four-times rule), so what is copied here is small.
            if start == 0 && text.capacity() <= 4 * text.len() {
                *out = text.into_bytes();
            } else {
                out.extend_from_slice(text.as_bytes());
            }
            omitted
        }
        // The renderer writes only UTF-8; nothing to cut otherwise.
        Err(e) => {
            out.extend_from_slice(e.as_bytes());
            None
        }
    }
}

/// What a rendering bounded by a limit (the writer's `render_bounded`)
/// leaves in its buffer, for the cut.
#[derive(Debug)]
pub(crate) enum Bounded {
    /// The whole rendering, with its units when they were recorded.
    Whole(Option<Units>),
    /// Only its head: the rendering was over the limit, and what was
    /// written after the head was measured and dropped. In all it was
    /// `len` bytes, `size` in the limit's unit; its units past the head
    /// were counted, not recorded.
    Head {
        units: Units,
        len: usize,
        size: usize,
    },
}

/// Where a markdown text may be cut: after each whole unit, with how many
/// rows and items come before that place.
///
/// Found by [`Units::scan`] in any text, or recorded by the writer as it
/// writes a rendering of the default profile (every row and item it
/// writes is a line or a fenced item that the scan reads as that unit;
/// `tests/codec_md/budget.rs` checks that both give the same cut, and the unit
/// tests that they give the same units). Recording them spares reading a
/// large rendering again, which cost a large share of an MCP result cut
/// to 25,000 chars.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Units {
    /// The end of each unit, in text order: the byte index its last line
    /// ends at (before the line feed), shifted left one, and 1 in the low
    /// bit for a row. Eight bytes a unit, where an [`End`] is 24: the
    /// writer records every unit of a text that mostly fits, and growing
    /// a vector three times as wide was much of what that cost.
    ends: Vec<u64>,
    rows: usize,
    items: usize,
}

/// The end of a unit: the byte index its last line ends at (before the
/// line feed), and the rows and items up to it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct End {
    at: usize,
    rows: usize,
    items: usize,
}

/// The block the scan is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Block {
    /// Between blocks, or in structure (a heading).
    None,
    /// A paragraph or a list item whose last line so far ends at `end`.
    Item { end: usize },
    /// The rows of a table.
    Table,
    /// A top-level fenced code block.
    Fence,
}

/// An open code fence: its marker, the length of its run, and its indent
/// (what a closing fence is compared with).
#[derive(Debug, Clone, Copy)]
struct Fence {
    marker: u8,
    len: usize,
}

impl Units {
    /// No unit yet: only the empty cut, at 0.
    pub(crate) fn new() -> Units {
        // Room for a small response's units at once: growing from one
        // end would be much of what the writer's count costs on a small
        // document.
        Units {
            ends: Vec::with_capacity(128),
            rows: 0,
            items: 0,
        }
    }

    /// One pass over the lines.
    fn scan(text: &str) -> Units {
        let mut units = Units::new();
        let mut block = Block::None;
        let mut fence: Option<Fence> = None;
        let mut lines = Lines::new(text).peekable();
        while let Some((start, end)) = lines.next() {
            let line = &text[start..end];
            if let Some(open) = fence {
                if closes(line, open) {
                    fence = None;
                }
                match block {
                    Block::Fence if fence.is_none() => {
                        units.item(end);
                        block = Block::None;
                    }
                    Block::Item { .. } => block = Block::Item { end },
                    _ => {}
                }
                continue;
            }
            // A line that starts with a visible ASCII byte is not blank:
            // most lines, told without trimming them.
            let visible = line.as_bytes().first().is_some_and(u8::is_ascii_graphic);
            if !visible && line.trim().is_empty() {
                units.close(block);
                block = Block::None;
                continue;
            }
            if is_heading(line) {
                units.close(block);
                block = Block::None;
                continue;
            }
            if block == Block::Table && !opens_block(line) {
                units.row(end);
                continue;
            }
            let indented = line.starts_with([' ', '\t']);
            if let (Block::Item { .. }, true) = (block, indented) {
                // A list item's continuation: its fenced block, say.
                fence = opens_fence(line.trim_start_matches(' '));
                block = Block::Item { end };
                continue;
            }
            let opened = opens_fence(line);
            let next = lines.peek().map_or("", |&(s, e)| &text[s..e]);
            // Most next lines fail the delimiter row's byte test within a few
            // bytes: then no search of this line for a pipe.
            let table =
                may_be_delimiter_row(next.as_bytes()) && has_pipe(line) && is_delimiter_row(next);
            if let Block::Item { .. } = block
                && !is_list_item(line)
                && opened.is_none()
                && !table
            {
                // A paragraph's next line (or a list item's lazy one).
                block = Block::Item { end };
                continue;
            }
            units.close(block);
            block = if opened.is_some() {
                fence = opened;
                Block::Fence
            } else if table {
                lines.next();
                Block::Table
            } else {
                // A list item, or a paragraph's first line.
                Block::Item { end }
            };
        }
        if fence.is_none() || block != Block::Fence {
            units.close(block);
        } else {
            // A fence never closed runs to the end: one item.
            units.item(text.trim_end_matches(['\n', '\r']).len());
        }
        units
    }

    /// A table row whose line ends at byte `end`.
    pub(crate) fn row(&mut self, end: usize) {
        self.rows += 1;
        self.ends.push((end as u64) << 1 | 1);
    }

    /// A table row past the head of a bounded rendering: counted, its end
    /// not recorded (no cut falls there).
    pub(crate) fn count_row(&mut self) {
        self.rows += 1;
    }

    /// An item past the head of a bounded rendering: counted, its end not
    /// recorded.
    pub(crate) fn count_item(&mut self) {
        self.items += 1;
    }

    /// Where the record stands, for [`Units::rewind`].
    pub(crate) fn mark(&self) -> (usize, usize, usize) {
        (self.ends.len(), self.rows, self.items)
    }

    /// Forgets the units recorded since `mark` ([`Units::mark`]): the
    /// writer took back what it wrote after it.
    pub(crate) fn rewind(&mut self, mark: (usize, usize, usize)) {
        let (len, rows, items) = mark;
        self.ends.truncate(len);
        self.rows = rows;
        self.items = items;
    }

    /// An item whose last line ends at byte `end`.
    pub(crate) fn item(&mut self, end: usize) {
        self.items += 1;
        self.ends.push((end as u64) << 1);
    }

    /// The end of the first `n` units (the empty cut at 0 for none).
    fn end(&self, n: usize) -> End {
        let Some(n) = n.checked_sub(1) else {
            return End {
                at: 0,
                rows: 0,
                items: 0,
            };
        };
        // Counted only for the few cuts a truncation tries.
        let rows = self.ends[..=n].iter().filter(|&&end| end & 1 == 1).count();
        End {
            at: (self.ends[n] >> 1) as usize,
            rows,
            items: n + 1 - rows,
        }
    }

    /// Ends the block the scan was in: an open paragraph or list item is
    /// a whole item now.
    fn close(&mut self, block: Block) {
        if let Block::Item { end } = block {
            self.item(end);
        }
    }

    /// The cut at the last unit end at or before byte `limit`.
    fn cut_within(&self, limit: usize) -> Cut {
        let within = self
            .ends
            .partition_point(|&end| (end >> 1) as usize <= limit);
        let end = self.end(within);
        Cut::at(end.at).tally(
            Tally::new(end.rows, self.rows),
            Tally::new(end.items, self.items),
        )
    }
}

/// The lines of a text as byte ranges, without their line feed (and a
/// carriage return before it).
struct Lines<'t> {
    text: &'t str,
    at: usize,
}

impl<'t> Lines<'t> {
    fn new(text: &'t str) -> Lines<'t> {
        Lines { text, at: 0 }
    }
}

impl Iterator for Lines<'_> {
    type Item = (usize, usize);

    fn next(&mut self) -> Option<(usize, usize)> {
        if self.at >= self.text.len() {
            return None;
        }
        let start = self.at;
        let bytes = self.text.as_bytes();
        // memchr's vector search, far cheaper per line than
        // `str::find`.
        let newline = memchr::memchr(b'\n', &bytes[start..]).map(|i| start + i);
        self.at = newline.map_or(bytes.len(), |i| i + 1);
        let mut end = newline.unwrap_or(bytes.len());
        if end > start && bytes[end - 1] == b'\r' {
            end -= 1;
        }
        Some((start, end))
    }
}

/// An ATX heading: one to six `#` at the start, then a space or nothing.
fn is_heading(line: &str) -> bool {
    let hashes = line.bytes().take_while(|&b| b == b'#').count();
    (1..=6).contains(&hashes) && matches!(line.as_bytes().get(hashes), None | Some(b' ' | b'\t'))
}

fn is_list_item(line: &str) -> bool {
    matches!(
        line.as_bytes(),
        [b'-' | b'*' | b'+'] | [b'-' | b'*' | b'+', b' ' | b'\t', ..]
    )
}

/// A line that ends a table (GFM: a heading, a list item, a fence or a
/// block quote begins).
fn opens_block(line: &str) -> bool {
    is_heading(line) || is_list_item(line) || opens_fence(line).is_some() || line.starts_with('>')
}

/// False when `line` is surely not a delimiter row: it holds a byte that
/// is neither whitespace (ASCII or the start of any other) nor `|`, `-`,
/// `:`. What [`is_delimiter_row`] says, told from the first such byte.
fn may_be_delimiter_row(line: &[u8]) -> bool {
    !line
        .iter()
        .any(|&b| b > b' ' && b < 0x80 && !matches!(b, b'|' | b'-' | b':'))
}

/// Whether the scan could read `line` as a delimiter row, the line that
/// makes the one before it a table's header: what the writer asks of the
/// lines it writes outside tables, to know when its own count of units
/// may not be the scan's.
pub(crate) fn may_read_as_delimiter_row(line: &[u8]) -> bool {
    // Bytes, not `str`: the writer asks before its line is whole text.
    // Most lines fail the first test within a few bytes (`- **`).
    may_be_delimiter_row(line)
        && memchr::memchr(b'|', line).is_some()
        && memchr::memchr(b'-', line).is_some()
}

fn is_delimiter_row(line: &str) -> bool {
    let line = line.trim();
    has_pipe(line)
        && line.contains('-')
        && line
            .bytes()
            .all(|b| matches!(b, b'|' | b'-' | b':' | b' ' | b'\t'))
}

/// Whether `line` holds a `|`: every line not in a table is asked.
fn has_pipe(line: &str) -> bool {
    memchr::memchr(b'|', line.as_bytes()).is_some()
}

/// The fence a line opens: up to three spaces, then three or more
/// backticks or tildes.
#[inline]
fn opens_fence(line: &str) -> Option<Fence> {
    // Most lines start with neither a marker nor a space: told inline.
    if !matches!(line.as_bytes().first(), Some(b'`' | b'~' | b' ')) {
        return None;
    }
    let rest = line.trim_start_matches(' ');
    if line.len() - rest.len() > 3 {
        return None;
    }
    let marker = *rest.as_bytes().first()?;
    if marker != b'`' && marker != b'~' {
        return None;
    }
    let len = rest.bytes().take_while(|&b| b == marker).count();
    // A backtick fence's info string holds no backtick.
    let info_ok = marker == b'~' || !rest[len..].contains('`');
    (len >= 3 && info_ok).then_some(Fence { marker, len })
}

/// Whether `line` closes `fence`: the same marker, at least as long, and
/// nothing after it but spaces (any indent: a list item's fence is
/// indented).
fn closes(line: &str, fence: Fence) -> bool {
    let rest = line.trim_start_matches(' ');
    let len = rest.bytes().take_while(|&b| b == fence.marker).count();
    len >= fence.len && rest[len..].trim().is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chars(text: &str, max: usize) -> Truncation {
        super::truncate(text.to_owned(), &TextLimit::chars(max))
    }

    /// Truncates and checks the invariants every cut must keep: within
    /// the limit, a prefix ending at a line end, a note.
    fn cut(text: &str, max: usize) -> String {
        let out = chars(text, max).text;
        assert!(out.chars().count() <= max, "over the limit: {out:?}");
        assert!(out.contains("[Truncated: showing the first"), "{out:?}");
        let kept = kept(&out);
        assert!(text.starts_with(kept), "not a prefix: {kept:?}");
        assert!(
            kept.is_empty() || text[kept.len()..].starts_with('\n'),
            "{kept:?}"
        );
        out
    }

    fn kept(out: &str) -> &str {
        let note = out.find("[Truncated").unwrap();
        out[..note].trim_end_matches('\n')
    }

    /// The units of a text, as the cut sees them: each kept prefix's last
    /// line, with the rows and items before it.
    fn ends(text: &str) -> Vec<(String, usize, usize)> {
        let units = Units::scan(text);
        (1..=units.ends.len())
            .map(|n| units.end(n))
            .map(|e| {
                let line = text[..e.at].rsplit('\n').next().unwrap_or("");
                (line.to_owned(), e.rows, e.items)
            })
            .collect()
    }

    #[test]
    fn short_text_is_unchanged() {
        for (text, max) in [("", 0), ("abc", 3), ("日本語", 3), ("a\nb", 100)] {
            assert_eq!(chars(text, max), Truncation::whole(text.to_owned()));
        }
    }

    #[test]
    fn finds_every_unit_end() {
        let text = "\
- **name**: api
- **log**:
  ```

  a
  ```
- **port**: 1

# users

|id|name|
|---|---|
|1|ada|
|2|bob|

## [0]

para one
para two

```
top

level
```
1|x
";
        let expected: &[(&str, usize, usize)] = &[
            ("- **name**: api", 0, 1),
            ("  ```", 0, 2),
            ("- **port**: 1", 0, 3),
            ("|1|ada|", 1, 3),
            ("|2|bob|", 2, 3),
            ("para two", 2, 4),
            ("```", 2, 5),
            ("1|x", 2, 6),
        ];
        let found = ends(text);
        let found: Vec<(&str, usize, usize)> =
            found.iter().map(|(l, r, i)| (l.as_str(), *r, *i)).collect();
        assert_eq!(found, expected);
    }

    #[test]
    fn dense_rows_and_keyed_tables_are_rows() {
        let text = "# flags\n\n||on|n|\n|---|---|---|\na|true|1\n\\# b|false|2\n|c|3\n";
        let found = ends(text);
        let rows: Vec<usize> = found.iter().map(|e| e.1).collect();
        assert_eq!(rows, [1, 2, 3], "{found:?}");
    }

    #[test]
    fn counts_and_says_what_was_left_out() {
        let mut text = String::from("- **total**: 200\n\n# rows\n\n|id|name|\n|---|---|\n");
        for i in 0..200 {
            text.push_str(&format!("|{i}|name {i}|\n"));
        }
        let out = cut(&text, 600);
        let kept = kept(&out);
        let rows = kept
            .lines()
            .filter(|l| l.starts_with("|") && !l.contains("-"))
            .count()
            - 1;
        assert!(rows > 10, "{kept}");
        let total = text.chars().count();
        assert_eq!(
            &out[kept.len() + 2..],
            format!(
                "[Truncated: showing the first {} of {total} characters; {} of 200 rows were \
                 left out. Narrow the request (a filter, fewer fields, a smaller page) to see \
                 the rest.]",
                kept.chars().count(),
                200 - rows
            )
        );
    }

    #[test]
    fn keeps_whole_table_rows_and_never_a_lone_header() {
        let mut text = String::from("intro\n\n| id | name |\n| --- | --- |\n");
        for i in 0..200 {
            text.push_str(&format!("| {i} | name {i} |\n"));
        }
        for max in [250, 300, 400, 1000, 1500] {
            let out = cut(&text, max);
            let kept = kept(&out);
            let last = kept.lines().last().unwrap();
            assert!(last == "intro" || last.ends_with(" |"), "{max}: {kept:?}");
            assert!(!kept.ends_with("| --- | --- |"), "{max}: {kept:?}");
        }
        // Every limit from the note alone up: the header and delimiter
        // rows come only with a row under them.
        let mut seen = std::collections::BTreeSet::new();
        for max in 150..400 {
            let out = chars(&text, max).text;
            let kept = kept(&out).to_owned();
            let last = kept.lines().last().unwrap_or("");
            assert!(
                ["", "intro"].contains(&last) || last.starts_with("| ") && !last.contains("---"),
                "{max}: {kept:?}"
            );
            seen.insert(kept.lines().count());
        }
        // Nothing, the intro, then the table with 1, 2, ... rows.
        assert!(
            seen.contains(&0) && seen.contains(&1) && seen.contains(&5),
            "{seen:?}"
        );
        assert!(!seen.contains(&3) && !seen.contains(&4), "{seen:?}");
    }

    #[test]
    fn never_cuts_inside_a_row_an_item_or_a_fence() {
        // Rows and items far longer than any window: the cut drops them.
        let mut text = String::from("|id|bio|\n|---|---|\n");
        for i in 0..20 {
            text.push_str(&format!("|{i}|{}|\n", "word ".repeat(100)));
        }
        text.push_str("\n- **log**:\n  ```\n");
        for i in 0..300 {
            text.push_str(&format!("  line {i}\n"));
        }
        text.push_str("  ```\n- **after**: 1\n");
        for max in [900, 1500, 2500, 12_000] {
            let out = cut(&text, max);
            let kept = kept(&out);
            assert!(kept.lines().all(|l| l.ends_with('|')), "{max}: {kept:?}");
        }
        let whole_rows = text.find("\n\n- **log**").unwrap();
        let out = cut(&text, whole_rows + 400);
        assert_eq!(kept(&out), &text[..whole_rows]);
    }

    #[test]
    fn a_budget_smaller_than_the_first_unit_keeps_the_note() {
        let text = format!("{}\n", "word ".repeat(500));
        let out = cut(&text, 400);
        assert_eq!(
            out,
            "[Truncated: showing the first 0 of 2501 characters; 1 of 1 items were left out. \
             Narrow the request (a filter, fewer fields, a smaller page) to see the rest.]"
        );
    }

    #[test]
    fn fence_detection() {
        let cases: &[(&str, Option<(u8, usize)>)] = &[
            ("```", Some((b'`', 3))),
            ("````rust", Some((b'`', 4))),
            ("~~~", Some((b'~', 3))),
            ("   ```", Some((b'`', 3))),
            ("    ```", None),
            ("``", None),
            ("``` a`b", None),
            ("~~~ a`b", Some((b'~', 3))),
        ];
        for &(line, expected) in cases {
            assert_eq!(
                opens_fence(line).map(|f| (f.marker, f.len)),
                expected,
                "{line:?}"
            );
        }
        let fence = Fence {
            marker: b'`',
            len: 4,
        };
        for (line, closed) in [
            ("````", true),
            ("  `````  ", true),
            ("```", false),
            ("```` x", false),
        ] {
            assert_eq!(closes(line, fence), closed, "{line:?}");
        }
    }

    /// The units the default profile's writer records, and the scan's
    /// of the same rendering.
    fn recorded_and_scanned(value: &codec_core::Value) -> (Units, Units) {
        let mut out = b"before ".to_vec();
        let recorded = crate::write::render_counted(value, &mut out, &Default::default())
            .unwrap()
            .expect("the default profile records its units");
        let text = std::str::from_utf8(&out[b"before ".len()..]).unwrap();
        (recorded, Units::scan(text))
    }

    #[test]
    fn the_writer_records_the_units_the_scan_finds() {
        let cases = [
            "null",
            "true",
            "-1.5",
            r#""""#,
            r#""plain""#,
            r##""# x""##,
            r#""a\nb\n\n```\nc""#,
            r#""a\r\nb""#,
            "[]",
            "{}",
            "[1, 2]",
            r#"["- a", "b"]"#,
            r#"{"a": 1, "b": {"c": 2, "d": [1, 2]}, "e": 3}"#,
            r#"{"a": null, "b": "", "": 1, "[0]": 2, "| x": "|---|"}"#,
            r#"{"a":{"b":{"c":{"d":{"e":{"f":{"g":{"h":1}}}}}}}}"#,
            r##"[{"a": 1, "b": "x"}, {"b": "y", "c": null}, {"c": "- z", "a": "# h"}]"##,
            r#"[{"a": "x\ny"}, {"a": "```"}]"#,
            r#"[{}, {}]"#,
            r#"[[1], {"a": 1}, 2, [{"a": 1}, {"a": "-"}], [[]]]"#,
            r#"{"stdout": "ok\n\n  ````\n", "lang": "c", "code": "x", "PATCH": "-a"}"#,
            r#"{"code": "", "log": "a\u0000", "t": [{"k": "---"}, {"k": ":-:"}]}"#,
            r#"{"rows": [{"id": 1, "name": "ada"}, {"id": 2}], "total": 2}"#,
            // Rows that turn out not to be a table after some were written.
            r#"[{"a": 1}, {"a": 2}, {"a": [1, 2]}]"#,
            r#"[{"a": 1, "b": 2}, {"a": 3, "b": 4}, {"b": 5, "a": 6}]"#,
            r#"{"t": [{"a": "x"}, {"a": "y"}, {"a": "y\nz"}], "n": 1}"#,
        ];
        for json in cases {
            let value = codec_core::from_str(json).unwrap();
            let (recorded, scanned) = recorded_and_scanned(&value);
            assert_eq!(recorded, scanned, "{json}");
        }
    }

    /// The markdown of `value` cut to `limit` by a bounded rendering that
    /// drops what piles up past its head beyond `drop_above` bytes, written
    /// after other bytes; and the cut of the whole rendering.
    pub(super) fn bounded_and_whole(
        value: &codec_core::Value,
        limit: &TextLimit,
        drop_above: usize,
    ) -> ((String, Option<Omission>), (String, Option<Omission>)) {
        let options = crate::write::Options::default();
        let mut out = b"before ".to_vec();
        let rendered =
            crate::write::render_bounded(value, &mut out, &options, limit, drop_above).unwrap();
        let omitted = apply_budget(&mut out, b"before ".len(), limit, rendered);
        let bounded = String::from_utf8(out.split_off(b"before ".len())).unwrap();
        let mut whole = Vec::new();
        crate::write::render(value, &mut whole, &options).unwrap();
        let whole = super::truncate(String::from_utf8(whole).unwrap(), limit);
        ((bounded, omitted), (whole.text, whole.omitted))
    }

    /// A rendering that keeps only its head cuts as the whole one: the
    /// same text and note, rows and items, for every limit and however
    /// often it drops what it wrote after the head; also when a table it
    /// wrote past the head turns out not to be one (the writer takes it
    /// back), or a line it writes after dropping needs the cut's scan.
    #[test]
    fn a_bounded_rendering_cuts_as_the_whole_one() {
        let rows = |n: usize, cell: &dyn Fn(usize) -> String| {
            let rows: Vec<String> = (0..n)
                .map(|i| {
                    format!(
                        r#"{{"id": {i}, "name": {:?}, "ok": {}}}"#,
                        cell(i),
                        i % 2 == 0
                    )
                })
                .collect();
            format!("[{}]", rows.join(","))
        };
        let ascii = rows(3_000, &|i| format!("user {i}"));
        let wide = rows(3_000, &|i| format!("é{i} 日本 😀"));
        let mut late = rows(3_000, &|i| format!("user {i}"));
        late.insert_str(
            late.len() - 1,
            r#", {"id": {"n": 1}, "name": "x", "ok": true}"#,
        );
        let mut early = rows(3_000, &|i| format!("user {i}"));
        early.insert_str(1, r#"{"id": 1, "name": "a|b\nc", "ok": true}, "#);
        let sections = format!(
            r#"{{"a": 1, "log": "x\ny", "t": {ascii}, "u": {{"b": [1, 2], "c": {wide}}}, "s": "z"}}"#
        );
        let lost = format!(r#"{{"t": {ascii}, "u": {{"": "|", "v": 2}}}}"#);
        let long_first = format!(
            r#"{{"a": "{}", "t": {ascii}}}"#,
            "word ".repeat(10_000).trim()
        );
        let items = format!(
            "[{}]",
            (0..5_000)
                .map(|i| format!(r#"{{"k": {i}, "n": {{"m": {i}}}}}"#))
                .collect::<Vec<_>>()
                .join(",")
        );
        let limits = [
            TextLimit::chars(200),
            TextLimit::chars(1_000),
            TextLimit::chars(25_000).with_hint("Request ?offset={rows} ({items} items)."),
            TextLimit::bytes(333),
            TextLimit::bytes(5_000),
            TextLimit::chars(400_000),
        ];
        for json in [
            &ascii,
            &wide,
            &late,
            &early,
            &sections,
            &lost,
            &long_first,
            &items,
        ] {
            let value = codec_core::from_str(json).unwrap();
            for limit in &limits {
                for drop_above in [0, 100, crate::write::DROP_ABOVE] {
                    let (bounded, whole) = bounded_and_whole(&value, limit, drop_above);
                    assert!(
                        bounded == whole,
                        "{limit:?}, dropping above {drop_above}, {}...: {:?} != {:?}",
                        &json[..60],
                        bounded.1,
                        whole.1
                    );
                }
            }
        }
    }

    #[test]
    fn a_limit_smaller_than_the_note_gives_the_note() {
        let out = chars(&"x".repeat(50), 10).text;
        assert_eq!(
            out,
            "[Truncated: showing the first 0 of 50 characters; 1 of 1 items were left out. \
             Narrow the request (a filter, fewer fields, a smaller page) to see the rest.]"
        );
    }
}

#[cfg(test)]
mod proptests {
    use codec_core::Value;
    use proptest::prelude::*;

    use super::*;

    /// Text made of the characters the cut treats specially, and some
    /// multi-byte ones.
    fn markdownish() -> impl Strategy<Value = String> {
        proptest::collection::vec(
            prop_oneof![
                Just("\n".to_owned()),
                Just("\n\n".to_owned()),
                Just("|".to_owned()),
                Just("\n|---|".to_owned()),
                Just("\n```".to_owned()),
                Just("\n~~~~".to_owned()),
                Just("\n# ".to_owned()),
                Just("\n- ".to_owned()),
                Just("\n  ".to_owned()),
                Just("&#123;".to_owned()),
                Just("\\".to_owned()),
                Just(" ".to_owned()),
                Just("é".to_owned()),
                Just("😀".to_owned()),
                "[a-z]{1,12}",
            ],
            0..400,
        )
        .prop_map(|parts| parts.concat())
    }

    /// Strings with what the scan reads as structure.
    fn hostile() -> impl Strategy<Value = String> {
        proptest::collection::vec(
            prop_oneof![
                "[a-z ]{0,8}",
                Just("\n".to_owned()),
                Just("\n\n".to_owned()),
                Just("|".to_owned()),
                Just("|---|".to_owned()),
                Just("```".to_owned()),
                Just("~~~".to_owned()),
                Just("- ".to_owned()),
                Just("# ".to_owned()),
                Just("> ".to_owned()),
                Just("  ".to_owned()),
                Just("\r".to_owned()),
                any::<char>().prop_map(String::from),
            ],
            0..5,
        )
        .prop_map(|parts| parts.concat())
    }

    fn value() -> impl Strategy<Value = Value> {
        let scalar = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            any::<i64>().prop_map(Value::from),
            hostile().prop_map(Value::String),
        ];
        scalar.prop_recursive(4, 64, 8, |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
                proptest::collection::vec((prop_oneof!["[a-z]{1,4}", hostile()], inner), 0..6)
                    .prop_map(|m| Value::Object(m.into_iter().collect())),
                proptest::collection::vec(
                    proptest::collection::vec(("[a-c]", hostile()), 1..3).prop_map(|m| {
                        Value::Object(m.into_iter().map(|(k, v)| (k, Value::String(v))).collect())
                    }),
                    1..6,
                )
                .prop_map(Value::Array),
            ]
        })
    }

    /// Whether a fenced code block is still open at the end of `text`.
    fn fence_open(text: &str) -> bool {
        let mut open: Option<Fence> = None;
        for line in text.lines() {
            match open {
                Some(fence) if closes(line, fence) => open = None,
                Some(_) => {}
                None => open = opens_fence(line.trim_start_matches(' ')),
            }
        }
        open.is_some()
    }

    proptest! {
        /// A bounded rendering that drops all it can, as soon as it can,
        /// cuts as the whole one.
        #[test]
        fn a_bounded_rendering_cuts_as_the_whole_one(
            value in value(),
            max in 0usize..600,
            bytes in any::<bool>(),
        ) {
            let limit = if bytes { TextLimit::bytes(max) } else { TextLimit::chars(max) };
            let (bounded, whole) = super::tests::bounded_and_whole(&value, &limit, 0);
            prop_assert_eq!(bounded, whole);
        }

        #[test]
        fn the_writer_records_the_units_the_scan_finds(value in value()) {
            let mut out = Vec::new();
            let recorded = crate::write::render_counted(&value, &mut out, &Default::default())
                .unwrap();
            let text = String::from_utf8(out).unwrap();
            // None when a line could read as a table's delimiter row:
            // then the cut scans.
            if let Some(recorded) = recorded {
                prop_assert_eq!(recorded, Units::scan(&text), "{}", text);
            } else {
                prop_assert!(
                    text.lines().any(|l| may_read_as_delimiter_row(l.as_bytes())),
                    "{}",
                    text
                );
            }
        }

        #[test]
        fn cuts_are_whole_units_within_the_limit(text in markdownish(), max in 0usize..1200) {
            let total = text.chars().count();
            let cut = truncate(text.clone(), &TextLimit::chars(max));
            if total <= max {
                prop_assert_eq!(cut.text, text);
                return Ok(());
            }
            let out = cut.text;
            let note_at = out.find("[Truncated: showing the first").expect("a note");
            let kept = out[..note_at].trim_end_matches('\n');
            prop_assert!(text.starts_with(kept), "{:?} is not a prefix", kept);
            // The cut is at a unit's end, so at a line's end.
            prop_assert!(kept.is_empty() || text[kept.len()..].starts_with(['\n', '\r']));
            prop_assert!(!fence_open(kept), "a fence left open: {:?}", kept);
            let units = Units::scan(&text);
            prop_assert!(
                (0..=units.ends.len()).any(|n| units.end(n).at == kept.len()),
                "not a unit end: {:?}", kept
            );
            let note_len = out.chars().count() - kept.chars().count();
            if max >= note_len + 16 {
                prop_assert!(out.chars().count() <= max, "{} > {}", out.chars().count(), max);
            }
        }
    }
}

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

use codec_core::{truncate_with, Cut, Tally, TextLimit, Truncation};

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
    // Scanned only when the text must be cut: most texts fit, and the
    // scan reads every line (an MCP result of 20 rows, whose text fits,
    // spent 8% of its instructions on it for tabular-20, 24% for
    // nested-20; callgrind).
    let mut units: Option<Units> = None;
    truncate_with(text, limit, |text, budget| {
        let end = limit.longest_prefix(text, budget);
        units
            .get_or_insert_with(|| Units::scan(text))
            .cut_within(end)
    })
}

/// Cuts the markdown that `out[start..]` holds to `limit`, in place: what
/// the codec's budget does after each rendering. A rendering no longer in
/// bytes than the limit fits without being measured; any other is
/// measured once (a count of its tokens, for a token limit) and, when it
/// fits, put back as it was.
pub(crate) fn apply_budget(out: &mut Vec<u8>, start: usize, limit: &TextLimit) {
    // No text has more chars or tokens than bytes.
    if out.len() - start <= limit.max() {
        return;
    }
    let rendered = out.split_off(start);
    match String::from_utf8(rendered) {
        Ok(text) => out.extend_from_slice(truncate(text, limit).text.as_bytes()),
        // The renderer writes only UTF-8; nothing to cut otherwise.
        Err(e) => out.extend_from_slice(e.as_bytes()),
    }
}

/// Where a markdown text may be cut: after each whole unit, with how many
/// rows and items come before that place.
#[derive(Debug)]
struct Units {
    /// In text order, starting with the empty cut at 0.
    ends: Vec<End>,
    rows: usize,
    items: usize,
}

/// The end of a unit: the byte index its last line ends at (before the
/// line feed), and the rows and items up to it.
#[derive(Debug, Clone, Copy)]
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
    /// One pass over the lines.
    fn scan(text: &str) -> Units {
        let mut units = Units {
            ends: vec![End {
                at: 0,
                rows: 0,
                items: 0,
            }],
            rows: 0,
            items: 0,
        };
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
            let table = line.contains('|') && is_delimiter_row(next);
            if let Block::Item { .. } = block {
                if !is_list_item(line) && opened.is_none() && !table {
                    // A paragraph's next line (or a list item's lazy one).
                    block = Block::Item { end };
                    continue;
                }
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

    fn row(&mut self, end: usize) {
        self.rows += 1;
        self.push(end);
    }

    fn item(&mut self, end: usize) {
        self.items += 1;
        self.push(end);
    }

    fn push(&mut self, at: usize) {
        self.ends.push(End {
            at,
            rows: self.rows,
            items: self.items,
        });
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
        let last = self.ends.partition_point(|end| end.at <= limit);
        // The first end, at 0, is always within.
        let end = self.ends[last.saturating_sub(1)];
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
        let newline = self.text[start..].find('\n').map(|i| start + i);
        self.at = newline.map_or(self.text.len(), |i| i + 1);
        let mut end = newline.unwrap_or(self.text.len());
        if self.text[start..end].ends_with('\r') {
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

fn is_delimiter_row(line: &str) -> bool {
    let line = line.trim();
    line.contains('|')
        && line.contains('-')
        && line
            .bytes()
            .all(|b| matches!(b, b'|' | b'-' | b':' | b' ' | b'\t'))
}

/// The fence a line opens: up to three spaces, then three or more
/// backticks or tildes.
fn opens_fence(line: &str) -> Option<Fence> {
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
        units
            .ends
            .iter()
            .skip(1)
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
                units.ends.iter().any(|e| e.at == kept.len()),
                "not a unit end: {:?}", kept
            );
            let note_len = out.chars().count() - kept.chars().count();
            if max >= note_len + 16 {
                prop_assert!(out.chars().count() <= max, "{} > {}", out.chars().count(), max);
            }
        }
    }
}

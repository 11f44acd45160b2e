//! Cutting a long text block down to `max_text_chars`, at a boundary that
//! keeps the markdown readable, with a note that says what was cut.
//!
//! Lengths are counted in `char`s (Unicode scalar values), the unit the
//! limit is documented in: close to what an agent's "25,000 characters"
//! guidance means, and never splits a UTF-8 sequence.
//!
//! Where to cut, in order of preference:
//!
//! 1. At the end of a line, when one ends in the last quarter of the room
//!    (at most 2,000 characters back): the text loses no more than that,
//!    and no table row, list item or escape is cut in half. A table's
//!    header row is never kept without its delimiter row (it would read as
//!    a paragraph).
//! 2. Before a table row however far back its line starts: a cut cell
//!    would read as a real value (`alice@exa`).
//! 3. Otherwise, inside the long line: at the last space within 80
//!    characters, else at the limit itself; never inside a `&#…;` character
//!    reference nor after a lone escaping backslash.
//!
//! A cut inside a fenced code block closes the fence, so the note is not
//! read as code. The note goes after a blank line, and the whole text, note
//! included, fits the limit unless the limit is smaller than the note.

/// How far back (in chars) a line end may be and still be preferred.
const MAX_LINE_WINDOW: usize = 2_000;
/// How far back (in chars) a space may be and still be preferred.
const SPACE_WINDOW: usize = 80;

/// `text` cut to at most `max_chars` chars, note included; `text` itself
/// when it fits.
pub(crate) fn truncate(text: String, max_chars: usize) -> String {
    let total = text.chars().count();
    if total <= max_chars {
        return text;
    }
    // The note is longest when the most is kept: size it for that.
    let reserve = note(total, total, total).chars().count() + "\n\n".len();
    let mut budget = max_chars.saturating_sub(reserve);
    let mut attempt = 0;
    let (cut, fence) = loop {
        let cut = choose_cut(&text, budget);
        let fence = open_fence(&text[..cut]);
        let closing = fence.as_ref().map_or(0, |f| f.chars().count() + 1);
        let kept = text[..cut].chars().count();
        // Closing a fence takes room too: cut again, earlier, if it does not
        // fit (a few tries; the fence found may change with the cut).
        if kept + closing <= budget || attempt == 3 || budget == 0 {
            break (cut, fence);
        }
        budget = budget.saturating_sub(closing);
        attempt += 1;
    };
    let kept_text = &text[..cut];
    let kept = kept_text.chars().count();
    let mut out = String::with_capacity(cut + reserve + 8);
    out.push_str(kept_text);
    if let Some(fence) = fence {
        out.push('\n');
        out.push_str(&fence);
    }
    if !out.is_empty() {
        out.push_str("\n\n");
    }
    out.push_str(&note(kept, total - kept, total));
    out
}

/// The note appended to a cut text.
fn note(kept: usize, omitted: usize, total: usize) -> String {
    format!(
        "[Truncated: showing the first {kept} of {total} characters; {omitted} more were omitted. \
         Narrow the request (a filter, fewer fields, a smaller page) to see the rest.]"
    )
}

/// The byte index to cut `text` at, keeping at most `budget` chars.
fn choose_cut(text: &str, budget: usize) -> usize {
    let hard = text
        .char_indices()
        .nth(budget)
        .map_or(text.len(), |(i, _)| i);
    let head = &text[..hard];
    let window = (budget / 4).min(MAX_LINE_WINDOW);
    if let Some(newline) = head.rfind('\n') {
        if head[newline..].chars().count() <= window + 1 || is_table_row(&head[newline + 1..]) {
            return line_cut(text, newline);
        }
    }
    mid_line_cut(head)
}

/// A cut at the line end at byte `newline`, dropping trailing blank lines
/// and a table header whose delimiter row would be cut off.
fn line_cut(text: &str, newline: usize) -> usize {
    let mut cut = text[..newline].trim_end_matches(['\n', '\r']).len();
    let last_line_start = text[..cut].rfind('\n').map_or(0, |i| i + 1);
    let next_line = text[newline + 1..].lines().next().unwrap_or("");
    if is_table_row(&text[last_line_start..cut]) && is_delimiter_row(next_line) {
        cut = text[..last_line_start].trim_end_matches(['\n', '\r']).len();
    }
    cut
}

/// A cut inside a long line: at a space close to the limit, never inside a
/// character reference nor after an escaping backslash.
fn mid_line_cut(head: &str) -> usize {
    let mut cut = head.len();
    let line_start = head.rfind('\n').map_or(0, |i| i + 1);
    if let Some(space) = head[line_start..].rfind(' ') {
        let space = line_start + space;
        if head[space..].chars().count() <= SPACE_WINDOW {
            cut = head[..space].trim_end_matches(' ').len();
        }
    }
    let kept = &head[..cut];
    // `&#128512;` cut to `&#12`: step back before the `&`.
    if let Some(amp) = kept.rfind('&') {
        let tail = &kept[amp + 1..];
        if tail.len() <= 10
            && !tail.contains(';')
            && tail.bytes().all(|b| b == b'#' || b.is_ascii_alphanumeric())
        {
            cut = amp;
        }
    }
    // An odd run of trailing backslashes ends in an escape that lost its
    // character.
    let backslashes = head[..cut]
        .bytes()
        .rev()
        .take_while(|&b| b == b'\\')
        .count();
    if backslashes % 2 == 1 {
        cut -= 1;
    }
    cut
}

fn is_table_row(line: &str) -> bool {
    line.trim_start().starts_with('|')
}

fn is_delimiter_row(line: &str) -> bool {
    let line = line.trim();
    line.starts_with('|')
        && line.contains('-')
        && line
            .bytes()
            .all(|b| matches!(b, b'|' | b'-' | b':' | b' ' | b'\t'))
}

/// The closing fence for the fenced code block still open at the end of
/// `text`, if any.
fn open_fence(text: &str) -> Option<String> {
    let mut open: Option<(u8, usize)> = None;
    for line in text.lines() {
        let indent = line.len() - line.trim_start_matches(' ').len();
        if indent > 3 {
            continue;
        }
        let rest = &line[indent..];
        let Some(&marker @ (b'`' | b'~')) = rest.as_bytes().first() else {
            continue;
        };
        let run = rest.bytes().take_while(|&b| b == marker).count();
        if run < 3 {
            continue;
        }
        match open {
            None => open = Some((marker, run)),
            Some((m, len)) if m == marker && run >= len && rest[run..].trim().is_empty() => {
                open = None;
            }
            Some(_) => {}
        }
    }
    open.map(|(marker, len)| String::from(char::from(marker)).repeat(len))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Truncates and checks the invariants every cut must keep.
    fn cut(text: &str, max: usize) -> String {
        let out = truncate(text.to_owned(), max);
        let total = text.chars().count();
        let note_len = note(total, total, total).chars().count();
        if max >= note_len + 2 {
            assert!(out.chars().count() <= max, "over the limit: {out:?}");
        }
        assert!(out.contains("[Truncated: showing the first"), "{out:?}");
        out
    }

    fn kept(out: &str) -> &str {
        let note = out.find("[Truncated").unwrap();
        out[..note].trim_end_matches('\n')
    }

    #[test]
    fn short_text_is_unchanged() {
        for (text, max) in [("", 0), ("abc", 3), ("日本語", 3), ("a\nb", 100)] {
            assert_eq!(truncate(text.to_owned(), max), text);
        }
    }

    #[test]
    fn counts_chars_and_says_how_much_was_cut() {
        let text = "é".repeat(1000);
        let out = cut(&text, 500);
        let kept_chars = kept(&out).chars().count();
        assert!(kept_chars > 300, "{kept_chars}");
        assert!(out.ends_with(&format!(
            "[Truncated: showing the first {kept_chars} of 1000 characters; {} more were omitted. \
             Narrow the request (a filter, fewer fields, a smaller page) to see the rest.]",
            1000 - kept_chars
        )));
    }

    #[test]
    fn prefers_a_line_end() {
        let lines: Vec<String> = (0..100)
            .map(|i| format!("- **item {i}**: value {i}"))
            .collect();
        let text = lines.join("\n");
        let out = cut(&text, 600);
        let kept = kept(&out);
        assert!(lines.iter().any(|l| kept.ends_with(l.as_str())), "{kept:?}");
        assert!(kept.len() > 300);
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
            assert!(!kept.ends_with("| id | name |"), "{max}: {kept:?}");
        }
        // Room for the intro and the header but not the delimiter row.
        let total = text.chars().count();
        let reserve = note(total, total, total).chars().count() + 2;
        let room = "intro\n\n| id | name |\n| -".len();
        let out = cut(&text, reserve + room);
        assert_eq!(kept(&out), "intro");
    }

    #[test]
    fn never_cuts_inside_a_table_row() {
        // Rows far longer than the window: the cut drops the partial row.
        let mut text = String::from("|id|bio|\n|---|---|\n");
        for i in 0..20 {
            text.push_str(&format!("|{i}|{}|\n", "word ".repeat(100)));
        }
        for max in [900, 1500, 2500] {
            let out = cut(&text, max);
            let kept = kept(&out);
            assert!(kept.lines().all(|l| l.ends_with('|')), "{max}: {kept:?}");
        }
    }

    #[test]
    fn closes_a_cut_fence() {
        let body: String = (0..300).map(|i| format!("line {i}\n")).collect();
        for fence in ["```", "````", "~~~"] {
            let text = format!("**log**\n\n{fence}text\n{body}{fence}\n\nafter");
            let out = cut(&text, 800);
            let kept_and_fence = kept(&out);
            assert!(kept_and_fence.ends_with(&format!("\n{fence}")), "{out:?}");
            assert!(open_fence(kept_and_fence).is_none());
        }
    }

    #[test]
    fn fence_detection() {
        let cases: &[(&str, Option<&str>)] = &[
            ("a\n```\nb", Some("```")),
            ("```\nb\n```", None),
            ("````\n```\nb", Some("````")),
            ("```\n~~~\nb", Some("```")),
            ("    ```\nb", None),
            ("``` x\nb\n``` not closing", Some("```")),
            ("``\nb", None),
        ];
        for &(text, expected) in cases {
            assert_eq!(open_fence(text).as_deref(), expected, "{text:?}");
        }
    }

    #[test]
    fn a_long_line_is_cut_at_a_space_or_a_safe_char() {
        let words = "word ".repeat(400);
        let out = cut(&words, 400);
        assert!(kept(&out).ends_with("word"), "{out:?}");

        let refs = "&#128512;".repeat(200);
        let out = cut(&refs, 400);
        assert!(kept(&out).ends_with(';'), "{out:?}");

        let escapes = "\\*".repeat(500);
        let out = cut(&escapes, 400);
        assert!(kept(&out).ends_with('*'), "{out:?}");
    }

    #[test]
    fn a_limit_smaller_than_the_note_gives_the_note() {
        let out = truncate("x".repeat(50), 10);
        assert_eq!(
            out,
            "[Truncated: showing the first 0 of 50 characters; 50 more were omitted. \
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
                Just("|".to_owned()),
                Just("|---|".to_owned()),
                Just("```".to_owned()),
                Just("~~~~".to_owned()),
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

    proptest! {
        #[test]
        fn cuts_are_prefixes_within_the_limit(text in markdownish(), max in 0usize..1200) {
            let total = text.chars().count();
            let out = truncate(text.clone(), max);
            if total <= max {
                prop_assert_eq!(out, text);
                return Ok(());
            }
            let note_at = out.find("[Truncated: showing the first").expect("a note");
            let kept = out[..note_at].trim_end_matches('\n');
            // The kept part is a prefix of the input, or one that ends in an
            // open fence followed by the fence the cut added to close it.
            if !text.starts_with(kept) {
                let (head, fence) = kept.rsplit_once('\n').expect("a closing fence");
                prop_assert!(text.starts_with(head), "{:?} is not a prefix", head);
                prop_assert_eq!(open_fence(head), Some(fence.to_owned()));
            }
            prop_assert!(open_fence(kept).is_none(), "a fence left open: {:?}", kept);
            let reserve = note(total, total, total).chars().count() + 2;
            if max >= reserve + 16 {
                prop_assert!(out.chars().count() <= max, "{} > {}", out.chars().count(), max);
            }
        }
    }
}

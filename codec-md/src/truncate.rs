//! Cutting markdown this crate wrote down to a limit, at a boundary that
//! keeps it readable: the markdown codec's [`Codec::truncate`].
//!
//! The frame (room for the note, the note itself, what a cut keeps) is
//! codec-core's [`truncate_with`]; the plain rules (a line end near the
//! limit, else a word end) are its too. Markdown adds, in order of
//! preference:
//!
//! 1. A line end, as in the plain cut, except that a table's header row is
//!    never kept without its delimiter row (it would read as a paragraph).
//! 2. Before a table row however far back its line starts: a cut cell
//!    would read as a real value (`alice@exa`).
//! 3. Otherwise, inside the long line: at a word end, else at the limit;
//!    never inside a `&#…;` character reference nor after a lone escaping
//!    backslash.
//!
//! A cut inside a fenced code block closes the fence, so the note is not
//! read as code.
//!
//! [`Codec::truncate`]: codec_core::Codec::truncate

use codec_core::{truncate_with, TextLimit, Truncation};

/// `text`, markdown, cut to fit `limit`, note included; `text` itself
/// when it fits. What [`MarkdownCodec`](crate::MarkdownCodec) does for
/// [`Codec::truncate`](codec_core::Codec::truncate), for every profile.
///
/// ```
/// use codec_core::TextLimit;
///
/// let mut table = String::from("| id | name |\n| --- | --- |\n");
/// for i in 0..100 {
///     table.push_str(&format!("| {i} | name {i} |\n"));
/// }
/// let cut = codec_md::truncate(table, &TextLimit::Chars(400));
/// let kept = cut.text.split("\n\n[Truncated").next().unwrap();
/// assert!(kept.lines().all(|row| row.ends_with(" |")), "whole rows only");
/// assert!(cut.text.chars().count() <= 400);
/// assert_eq!(cut.omitted.unwrap().total, 1_708);
/// ```
pub fn truncate(text: String, limit: &TextLimit) -> Truncation {
    truncate_with(text, limit, |text, budget| {
        let cut = choose_cut(text, budget, limit);
        (cut, open_fence(&text[..cut]))
    })
}

/// The byte index to cut `text` at, keeping at most `budget` of it.
fn choose_cut(text: &str, budget: usize, limit: &TextLimit) -> usize {
    let head = &text[..limit.longest_prefix(text, budget)];
    if let Some(newline) = head.rfind('\n') {
        if limit.near_line_end(head, budget).is_some() || is_table_row(&head[newline + 1..]) {
            return line_cut(text, newline);
        }
    }
    mid_line_cut(head, limit)
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

/// A cut inside a long line: at a word end close to the limit, never
/// inside a character reference nor after an escaping backslash.
fn mid_line_cut(head: &str, limit: &TextLimit) -> usize {
    let mut cut = limit.word_end(head);
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

    fn truncate(text: String, max: usize) -> String {
        super::truncate(text, &TextLimit::Chars(max)).text
    }

    fn note(kept: usize, omitted: usize, total: usize) -> String {
        format!(
            "[Truncated: showing the first {kept} of {total} characters; {omitted} more were \
             omitted. Narrow the request (a filter, fewer fields, a smaller page) to see the rest.]"
        )
    }

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

    fn note_len(total: usize) -> usize {
        format!(
            "[Truncated: showing the first {total} of {total} characters; {total} more were \
             omitted. Narrow the request (a filter, fewer fields, a smaller page) to see the rest.]"
        )
        .chars()
        .count()
    }

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
            let out = truncate(text.clone(), &TextLimit::Chars(max)).text;
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
            let reserve = note_len(total) + 2;
            if max >= reserve + 16 {
                prop_assert!(out.chars().count() <= max, "{} > {}", out.chars().count(), max);
            }
        }
    }
}

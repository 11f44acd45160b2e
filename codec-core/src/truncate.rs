//! Cutting a codec's text down to a limit: the [`TextLimit`], the
//! [`Truncation`] that says what was left out, and the plain cut that
//! [`Codec::truncate`](crate::Codec::truncate) makes unless a codec knows
//! its syntax better.
//!
//! Every cut has the same frame, [`truncate_with`]: a text that fits is
//! returned as it is; otherwise room is kept for a note, a codec-specific
//! rule picks where to cut within the rest (and what to close, such as a
//! markdown code fence), and the note says how much was kept. The whole
//! text, note included, fits the limit unless the limit is smaller than
//! the note (then the note alone is given).
//!
//! The plain cut ([`truncate_plain`]) knows only lines and words: it cuts
//! at the end of a line when one ends in the last quarter of the room (at
//! most 2,000 back), else at the last space within 80 of the limit, else
//! at the limit itself, never inside a UTF-8 sequence.

/// How far back (in the limit's unit) a line end may be and still be
/// preferred.
const MAX_LINE_WINDOW: usize = 2_000;
/// How far back (in the limit's unit) a space may be and still be
/// preferred.
const SPACE_WINDOW: usize = 80;

/// How large a text may be.
///
/// Non-exhaustive: limits in bytes and in tokens (through a counter) are
/// planned, which is why cuts take it by reference.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum TextLimit {
    /// At most this many `char`s (Unicode scalar values).
    Chars(usize),
}

impl TextLimit {
    /// The largest size allowed, in the limit's unit.
    pub fn max(&self) -> usize {
        match *self {
            TextLimit::Chars(max) => max,
        }
    }

    /// The size of `text` in the limit's unit.
    pub fn measure(&self, text: &str) -> usize {
        match self {
            TextLimit::Chars(_) => text.chars().count(),
        }
    }

    /// The length in bytes of the longest prefix of `text` whose size is
    /// at most `budget`: always a char boundary.
    pub fn longest_prefix(&self, text: &str, budget: usize) -> usize {
        match self {
            TextLimit::Chars(_) => text
                .char_indices()
                .nth(budget)
                .map_or(text.len(), |(i, _)| i),
        }
    }

    /// The byte index of the last line end (`\n`) in `head`, a prefix cut
    /// with `budget` of room, when it is close enough to prefer: in the
    /// last quarter of the room and at most 2,000 back.
    pub fn near_line_end(&self, head: &str, budget: usize) -> Option<usize> {
        let window = (budget / 4).min(MAX_LINE_WINDOW);
        let newline = head.rfind('\n')?;
        (self.measure(&head[newline..]) <= window + 1).then_some(newline)
    }

    /// Where to cut inside the last line of `head`: before the last run of
    /// spaces within 80 of its end, else at its end.
    pub fn word_end(&self, head: &str) -> usize {
        let line_start = head.rfind('\n').map_or(0, |i| i + 1);
        match head[line_start..].rfind(' ') {
            Some(space) if self.measure(&head[line_start + space..]) <= SPACE_WINDOW => {
                head[..line_start + space].trim_end_matches(' ').len()
            }
            _ => head.len(),
        }
    }

    /// The note that ends a cut text.
    fn note(&self, kept: usize, omitted: usize, total: usize) -> String {
        let unit = match self {
            TextLimit::Chars(_) => "characters",
        };
        format!(
            "[Truncated: showing the first {kept} of {total} {unit}; {omitted} more were omitted. \
             Narrow the request (a filter, fewer fields, a smaller page) to see the rest.]"
        )
    }
}

/// A text cut to a limit, and what was left out.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Truncation {
    /// The text to use: the original when it fits; otherwise the part
    /// kept (with anything the cut closed), a blank line and a note.
    pub text: String,
    /// What was left out, or `None` when the text fit whole.
    pub omitted: Option<Omission>,
}

impl Truncation {
    /// A text that fits whole.
    pub fn whole(text: String) -> Truncation {
        Truncation {
            text,
            omitted: None,
        }
    }
}

/// How much of a text a cut kept, in the limit's unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Omission {
    /// The size of the part kept.
    pub kept: usize,
    /// The size of the whole original text.
    pub total: usize,
}

impl Omission {
    /// The size of the part left out.
    pub fn omitted(&self) -> usize {
        self.total - self.kept
    }
}

/// Cuts `text` to `limit` with a codec's own rule: the frame every cut
/// shares.
///
/// `choose(text, budget)` returns the byte index to cut at, keeping at
/// most `budget` of the text, and the text that closes what the cut left
/// open (written on a line of its own after the kept part), if any. When
/// the closing text does not fit beside the kept part, `choose` is asked
/// again with less room (a few times; the cut may move and change what
/// needs closing). The index must be a char boundary at most `text.len()`;
/// it is clamped down to one otherwise, so no rule can make the frame
/// panic.
pub fn truncate_with<F>(text: String, limit: &TextLimit, mut choose: F) -> Truncation
where
    F: FnMut(&str, usize) -> (usize, Option<String>),
{
    let total = limit.measure(&text);
    if total <= limit.max() {
        return Truncation::whole(text);
    }
    // No note is longer than one with every count at its largest.
    let reserve = limit.measure(&limit.note(total, total, total)) + "\n\n".len();
    let mut budget = limit.max().saturating_sub(reserve);
    let mut attempt = 0;
    let (cut, closing) = loop {
        let (cut, closing) = choose(&text, budget);
        let cut = char_boundary(&text, cut);
        let room = closing.as_ref().map_or(0, |c| limit.measure(c) + 1);
        let kept = limit.measure(&text[..cut]);
        if kept + room <= budget || attempt == 3 || budget == 0 {
            break (cut, closing);
        }
        budget = budget.saturating_sub(room);
        attempt += 1;
    };
    let kept_text = &text[..cut];
    let kept = limit.measure(kept_text);
    let note = limit.note(kept, total - kept, total);
    let mut out = String::with_capacity(cut + note.len() + 8);
    out.push_str(kept_text);
    if let Some(closing) = closing {
        out.push('\n');
        out.push_str(&closing);
    }
    if !out.is_empty() {
        out.push_str("\n\n");
    }
    out.push_str(&note);
    Truncation {
        text: out,
        omitted: Some(Omission { kept, total }),
    }
}

/// The plain cut, for text whose syntax the cut does not know: what
/// [`Codec::truncate`](crate::Codec::truncate) does by default.
///
/// It cuts at the end of a line when one ends in the last quarter of the
/// room (at most 2,000 back), else at the last space within 80 of the
/// limit, else at the limit itself, never inside a UTF-8 sequence; then a
/// blank line and the note, all within the limit (see [`truncate_with`]).
///
/// ```
/// use codec_core::{truncate_plain, TextLimit};
///
/// let text = "alpha beta gamma delta ".repeat(20);
/// let cut = truncate_plain(text, &TextLimit::Chars(200));
/// assert!(cut.text.starts_with("alpha beta gamma delta alpha"));
/// assert!(cut.text.ends_with("Narrow the request (a filter, fewer fields, a smaller page) to see the rest.]"));
/// assert!(cut.text.chars().count() <= 200);
/// let omitted = cut.omitted.unwrap();
/// assert_eq!((omitted.kept, omitted.total), (39, 460));
/// ```
pub fn truncate_plain(text: String, limit: &TextLimit) -> Truncation {
    truncate_with(text, limit, |text, budget| {
        let head = &text[..limit.longest_prefix(text, budget)];
        let cut = match limit.near_line_end(head, budget) {
            Some(newline) => head[..newline].trim_end_matches(['\n', '\r']).len(),
            None => limit.word_end(head),
        };
        (cut, None)
    })
}

/// `at`, or the char boundary before it, within `text`.
fn char_boundary(text: &str, at: usize) -> usize {
    let mut at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kept(out: &str) -> &str {
        let note = out.find("[Truncated").expect("a note");
        out[..note].trim_end_matches('\n')
    }

    #[test]
    fn a_text_that_fits_is_unchanged() {
        for (text, max) in [("", 0), ("abc", 3), ("日本語", 3), ("a\nb", 100)] {
            let cut = truncate_plain(text.to_owned(), &TextLimit::Chars(max));
            assert_eq!(cut, Truncation::whole(text.to_owned()));
        }
    }

    #[test]
    fn plain_cuts() {
        let lines: String = (0..100).map(|i| format!("line {i}\n")).collect();
        let words = "word ".repeat(400);
        let solid = "x".repeat(1000);
        let json = format!("[{}]", r#"{"id":1,"name":"a b"},"#.repeat(60));
        // (text, limit, how the kept part must end)
        let cases: &[(&str, usize, &str)] = &[
            (&lines, 400, "\nline 30"),
            (&words, 400, "word"),
            (&solid, 400, "xxx"),
            (&json, 400, r#""name":"a"#),
        ];
        for &(text, max, end) in cases {
            let cut = truncate_plain(text.to_owned(), &TextLimit::Chars(max));
            let kept = kept(&cut.text);
            assert!(text.starts_with(kept), "{text:?}");
            assert!(kept.ends_with(end), "{max}: {kept:?}");
            assert!(cut.text.chars().count() <= max, "{}", cut.text);
            let omission = cut.omitted.unwrap();
            assert_eq!(omission.kept, kept.chars().count());
            assert_eq!(omission.total, text.chars().count());
            assert!(cut.text.ends_with(&format!(
                "[Truncated: showing the first {} of {} characters; {} more were omitted. \
                 Narrow the request (a filter, fewer fields, a smaller page) to see the rest.]",
                omission.kept,
                omission.total,
                omission.omitted()
            )));
        }
    }

    #[test]
    fn counts_chars_never_bytes() {
        let text = "é".repeat(1000);
        let cut = truncate_plain(text, &TextLimit::Chars(500));
        assert!(cut.text.chars().count() <= 500, "{}", cut.text);
        assert!(kept(&cut.text).chars().count() > 300);
    }

    #[test]
    fn a_limit_smaller_than_the_note_gives_the_note() {
        let cut = truncate_plain("x".repeat(50), &TextLimit::Chars(10));
        assert_eq!(
            cut.text,
            "[Truncated: showing the first 0 of 50 characters; 50 more were omitted. \
             Narrow the request (a filter, fewer fields, a smaller page) to see the rest.]"
        );
        assert_eq!(cut.omitted, Some(Omission { kept: 0, total: 50 }));
    }

    #[test]
    fn a_closing_that_does_not_fit_moves_the_cut() {
        let text = "a".repeat(2000);
        let limit = TextLimit::Chars(500);
        let mut asked = Vec::new();
        let cut = truncate_with(text, &limit, |text, budget| {
            asked.push(budget);
            (limit.longest_prefix(text, budget), Some("END".to_owned()))
        });
        // A rule that fills all the room never fits its closing: asked
        // again three times with less, then the last cut is taken, which
        // leaves room for it.
        assert_eq!(asked.len(), 4, "{asked:?}");
        assert!(asked.windows(2).all(|w| w[0] - w[1] == "END".len() + 1));
        assert!(kept(&cut.text).ends_with("a\nEND"));
        assert!(cut.text.chars().count() <= 500);
    }

    #[test]
    fn a_rule_that_cuts_off_a_boundary_cannot_panic() {
        let text = "日本語".repeat(300);
        for at in [1, 2, usize::MAX] {
            let cut = truncate_with(text.clone(), &TextLimit::Chars(300), |_, _| (at, None));
            assert!(cut.omitted.is_some());
        }
    }
}

//! Cutting a codec's text down to a limit: the [`TextLimit`] (in chars,
//! bytes or a tokenizer's tokens, with the hint its note gives), the
//! [`Truncation`] that says what was left out, and the plain cut that
//! [`Codec::truncate`](crate::Codec::truncate) makes unless a codec knows
//! its syntax better.
//!
//! Every cut has the same frame, [`truncate_with`]: a text that fits is
//! returned as it is; otherwise room is kept for a note, a codec-specific
//! rule picks where to cut within the rest (and what to close, such as a
//! markdown code fence, and how many rows and items it kept), and the note
//! says how much was kept and how to get the rest. The whole text, note
//! included, is sized once more in the limit's own unit and fits it
//! unless the limit is smaller than the note (then the note alone is
//! given): in chars and bytes as the sum of its parts, the kept part cut
//! from the text in place; for tokens by counting the assembled whole,
//! which is what makes the limit exact, since a tokenizer's counts do not
//! add up across a cut.
//!
//! The plain cut ([`truncate_plain`]) knows only lines and words: it cuts
//! at the end of a line when one ends in the last quarter of the room (at
//! most 2,000 back), else at the last space within 80 of the limit, else
//! at the limit itself, never inside a UTF-8 sequence.

use std::fmt;
use std::sync::Arc;

use crate::tokens::{TokenCounter, floor_char_boundary};

/// How far back (in the limit's unit) a line end may be and still be
/// preferred.
const MAX_LINE_WINDOW: usize = 2_000;
/// How far back (in the limit's unit) a space may be and still be
/// preferred.
const SPACE_WINDOW: usize = 80;
/// How many times the frame cuts again with less room when the measured
/// whole is over the limit (only counts that do not add up, tokens, ever
/// need it; one more round is the rule).
const MAX_ROUNDS: usize = 8;
/// A cut text made in place gives back its memory above this capacity.
const SHRINK_ABOVE: usize = 1 << 20;
/// The last sentence of a note when the caller gave no hint.
const DEFAULT_HINT: &str =
    "Narrow the request (a filter, fewer fields, a smaller page) to see the rest.";

/// How large a text may be, and what the note of a cut text tells its
/// reader about getting the rest.
///
/// A limit counts in one unit: [`chars`](TextLimit::chars) (Unicode
/// scalar values), [`bytes`](TextLimit::bytes) of UTF-8, or a tokenizer's
/// [`tokens`](TextLimit::tokens) through a [`TokenCounter`], such as
/// `O200k` (feature `o200k`) for the exact `o200k_base` count. Whatever
/// the unit, a cut text, note included, is measured in it and fits
/// (unless the limit is smaller than the note itself).
///
/// A budget is set where a text is written: on the markdown codec
/// (`codec_md::MarkdownCodecBuilder::budget`), which cuts every rendering
/// to it, or on the MCP codec's text block
/// (`codec_mcp::McpCodecBuilder::text_limit`); both cut through
/// [`Codec::truncate`](crate::Codec::truncate), so the same limit cuts
/// the same way in both.
///
/// ```
/// use std::sync::Arc;
///
/// use codec_core::{TextLimit, TokenCounter};
///
/// /// A tokenizer whose tokens are words, for the example.
/// struct Words;
/// impl TokenCounter for Words {
///     fn name(&self) -> &str { "word" }
///     fn count(&self, text: &str) -> usize { text.split_whitespace().count() }
/// }
///
/// let limit = TextLimit::tokens(2_000, Arc::new(Words))
///     .with_hint("Request `?offset={rows}` for the next rows.");
/// assert_eq!(limit.max(), 2_000);
/// assert_eq!(limit.unit(), "word tokens");
/// assert_eq!(limit.measure("three short words"), 3);
/// assert_eq!(TextLimit::bytes(10).measure("é"), 2);
/// assert_eq!(TextLimit::chars(10).measure("é"), 1);
/// ```
#[derive(Clone)]
pub struct TextLimit {
    max: usize,
    unit: Unit,
    hint: Option<Hint>,
}

/// What a [`TextLimit`] counts.
#[derive(Clone)]
enum Unit {
    Chars,
    Bytes,
    Tokens(Arc<dyn TokenCounter>),
}

/// The last sentence of a note: a template, or the caller's function of
/// what was left out.
#[derive(Clone)]
enum Hint {
    Template(Arc<str>),
    Function(Arc<dyn Fn(&Omission) -> String + Send + Sync>),
}

impl TextLimit {
    /// At most `max` chars (Unicode scalar values).
    pub fn chars(max: usize) -> TextLimit {
        TextLimit {
            max,
            unit: Unit::Chars,
            hint: None,
        }
    }

    /// At most `max` bytes of UTF-8.
    pub fn bytes(max: usize) -> TextLimit {
        TextLimit {
            max,
            unit: Unit::Bytes,
            hint: None,
        }
    }

    /// At most `max` tokens of `counter`'s tokenizer, counted exactly: the
    /// cut text, note included, is counted with `counter` before it is
    /// returned.
    ///
    /// What it costs: a text that fits is counted once; a text that does
    /// not is counted once more whole (to find where `max` tokens end, by
    /// [`TokenCounter::longest_prefix`]) and then its kept part and the
    /// result, which are at most about `max` tokens each.
    pub fn tokens(max: usize, counter: Arc<dyn TokenCounter>) -> TextLimit {
        TextLimit {
            max,
            unit: Unit::Tokens(counter),
            hint: None,
        }
    }

    /// The sentence that ends the note of a cut text, telling the reader
    /// how to get the rest (default: "Narrow the request (a filter, fewer
    /// fields, a smaller page) to see the rest.").
    ///
    /// `{rows}` and `{items}` in it are replaced by the number of table
    /// rows and of items (list items, paragraphs, blocks) the cut kept,
    /// when the codec's cut counts them (the markdown codec's does; the
    /// plain cut does not, and leaves them as written). With one table,
    /// `{rows}` is also the index, from 0, of the first row left out: a
    /// service that pages its rows writes `"Request ?offset={rows} for
    /// the next rows."`. For a hint that needs arithmetic (a page that
    /// did not start at row 0), see [`TextLimit::with_hint_fn`].
    pub fn with_hint(mut self, hint: impl Into<String>) -> TextLimit {
        self.hint = Some(Hint::Template(Arc::from(hint.into())));
        self
    }

    /// The sentence that ends the note of a cut text, written by `hint`
    /// from what the cut left out (as [`TextLimit::with_hint`], when the
    /// caller must compute it: `move |o| format!("Call `get` with
    /// rows={}.. for the rest.", start + o.rows.map_or(0, |r| r.kept))`).
    ///
    /// To keep room for the note before the cut is known, `hint` is also
    /// called with every count at an upper bound.
    pub fn with_hint_fn(
        mut self,
        hint: impl Fn(&Omission) -> String + Send + Sync + 'static,
    ) -> TextLimit {
        self.hint = Some(Hint::Function(Arc::new(hint)));
        self
    }

    /// The largest size allowed, in the limit's unit.
    pub fn max(&self) -> usize {
        self.max
    }

    /// The limit's unit as the note names it: `characters`, `bytes`, or
    /// the tokenizer's name and `tokens` (`o200k tokens`).
    pub fn unit(&self) -> String {
        match &self.unit {
            Unit::Chars => "characters".to_owned(),
            Unit::Bytes => "bytes".to_owned(),
            Unit::Tokens(counter) => format!("{} tokens", counter.name()),
        }
    }

    /// The size of `text` in the limit's unit.
    pub fn measure(&self, text: &str) -> usize {
        match &self.unit {
            // An ASCII text is as many chars as bytes, which a word-wise
            // check finds sooner than the count.
            Unit::Chars if text.is_ascii() => text.len(),
            Unit::Chars => text.chars().count(),
            Unit::Bytes => text.len(),
            Unit::Tokens(counter) => counter.count(text),
        }
    }

    /// Whether sizes in the limit's unit add up, a text's size being the
    /// sum of its parts' sizes: true for chars and bytes, false for a
    /// tokenizer's tokens (a count of a whole is not its parts'). A writer
    /// can then measure what it writes piece by piece
    /// ([`truncate_head_with`]).
    pub fn adds_up(&self) -> bool {
        matches!(self.unit, Unit::Chars | Unit::Bytes)
    }

    /// Whether `text` fits the limit whole.
    pub fn fits(&self, text: &str) -> bool {
        // A text has at least as many bytes as chars or tokens: most texts
        // that fit are known to without counting.
        text.len() <= self.max || self.measure(text) <= self.max
    }

    /// The length in bytes of the longest prefix of `text` whose size is
    /// at most `budget`: always a char boundary.
    pub fn longest_prefix(&self, text: &str, budget: usize) -> usize {
        match &self.unit {
            // An ASCII prefix is one byte a char: checked a word at a
            // time, not by counting chars one by one.
            Unit::Chars if text.len() > budget && text.as_bytes()[..budget].is_ascii() => budget,
            Unit::Chars => nth_char_start(text, budget),
            Unit::Bytes => floor_char_boundary(text, budget),
            Unit::Tokens(counter) => {
                floor_char_boundary(text, counter.longest_prefix(text, budget))
            }
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

    /// The note that ends a text cut as `omission` says, in the limit's
    /// unit, ending with the hint:
    ///
    /// - `[Truncated: showing the first 39 of 460 characters; 421 more
    ///   were omitted. Narrow the request (a filter, fewer fields, a
    ///   smaller page) to see the rest.]` when the cut counted no rows or
    ///   items (the plain cut);
    /// - `[Truncated: showing the first 1980 of 8902 o200k tokens; 80 of
    ///   100 rows were left out. Request ?offset=20 for the next rows.]`
    ///   when it did (`rows and items`, or `items` alone, as counted).
    pub fn note(&self, omission: &Omission) -> String {
        let tally = |t: Option<Tally>| t.map(|t| (t.omitted(), t.total));
        let figures = Figures {
            kept: omission.kept,
            omitted: omission.omitted(),
            total: omission.total,
            rows: tally(omission.rows),
            items: tally(omission.items),
        };
        self.write_note(&figures, omission)
    }

    /// The longest note a cut of a text of `largest` bytes can end with:
    /// every figure at `largest`, which no count exceeds; with rows and
    /// items when `tallied`.
    fn widest_note(&self, largest: usize, tallied: bool) -> String {
        let most = tallied.then_some((largest, largest));
        let figures = Figures {
            kept: largest,
            omitted: largest,
            total: largest,
            rows: most,
            items: most,
        };
        let hint_input = Omission {
            kept: largest,
            total: largest,
            rows: most.map(|_| Tally::new(largest, largest)),
            items: most.map(|_| Tally::new(largest, largest)),
        };
        self.write_note(&figures, &hint_input)
    }

    /// The last sentence of the note of a cut as `omission` says: the
    /// hint of [`TextLimit::with_hint`] (its `{rows}` and `{items}` filled
    /// in) or [`TextLimit::with_hint_fn`], or the default one. A caller
    /// that wraps a limit's hint in its own function calls it.
    pub fn hint(&self, omission: &Omission) -> String {
        match &self.hint {
            None => DEFAULT_HINT.to_owned(),
            Some(Hint::Template(template)) => {
                let mut hint = template.to_string();
                if let Some(rows) = omission.rows {
                    hint = hint.replace("{rows}", &rows.kept.to_string());
                }
                if let Some(items) = omission.items {
                    hint = hint.replace("{items}", &items.kept.to_string());
                }
                hint
            }
            Some(Hint::Function(hint)) => hint(omission),
        }
    }

    fn write_note(&self, figures: &Figures, omission: &Omission) -> String {
        let hint = self.hint(omission);
        let Figures {
            kept,
            omitted,
            total,
            rows,
            items,
        } = *figures;
        let unit = self.unit();
        if rows.is_none() && items.is_none() {
            return format!(
                "[Truncated: showing the first {kept} of {total} {unit}; {omitted} more were \
                 omitted. {hint}]"
            );
        }
        // The units of which some were left out: rows, items, or both
        // (items alone when the counts say nothing was, which a cut that
        // keeps whole units never does).
        let parts: Vec<String> = [(rows, "rows"), (items, "items")]
            .into_iter()
            .filter_map(|(tally, name)| {
                let (left_out, all) = tally?;
                (left_out > 0).then(|| format!("{left_out} of {all} {name}"))
            })
            .collect();
        let left_out = match parts.as_slice() {
            [] => {
                let (tally, name) = match items {
                    Some(items) => (items, "items"),
                    None => (rows.unwrap_or_default(), "rows"),
                };
                format!("{} of {} {name} were left out", tally.0, tally.1)
            }
            parts => format!("{} were left out", parts.join(" and ")),
        };
        format!("[Truncated: showing the first {kept} of {total} {unit}; {left_out}. {hint}]")
    }
}

/// The numbers a note shows: sizes in the limit's unit, and rows and
/// items as (left out, in all).
#[derive(Clone, Copy)]
struct Figures {
    kept: usize,
    omitted: usize,
    total: usize,
    rows: Option<(usize, usize)>,
    items: Option<(usize, usize)>,
}

impl fmt::Debug for TextLimit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let hint = match &self.hint {
            None => None,
            Some(Hint::Template(template)) => Some(template.to_string()),
            Some(Hint::Function(_)) => Some("<function>".to_owned()),
        };
        f.debug_struct("TextLimit")
            .field("max", &self.max)
            .field("unit", &self.unit())
            .field("hint", &hint)
            .finish()
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

/// How much of a text a cut kept: its size in the limit's unit, and the
/// rows and items when the codec's cut counts them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Omission {
    /// The size of the part kept.
    pub kept: usize,
    /// The size of the whole original text.
    pub total: usize,
    /// Table rows kept and in all, when the cut counts them.
    pub rows: Option<Tally>,
    /// Items (list items, paragraphs, blocks: whatever the codec's unit
    /// outside tables is) kept and in all, when the cut counts them.
    pub items: Option<Tally>,
}

impl Omission {
    /// A cut that kept `kept` of `total`, counting no rows or items.
    pub fn new(kept: usize, total: usize) -> Omission {
        Omission {
            kept,
            total,
            rows: None,
            items: None,
        }
    }

    /// The size of the part left out.
    pub fn omitted(&self) -> usize {
        self.total - self.kept
    }
}

/// How many of a text's units (rows, items) a cut kept, of how many.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Tally {
    /// Units kept: the first `kept` of them.
    pub kept: usize,
    /// Units in the whole text.
    pub total: usize,
}

impl Tally {
    /// `kept` of `total` (`kept` is clamped to `total`).
    pub fn new(kept: usize, total: usize) -> Tally {
        Tally {
            kept: kept.min(total),
            total,
        }
    }

    /// Units left out.
    pub fn omitted(&self) -> usize {
        self.total - self.kept
    }
}

/// Where a codec's rule cuts a text, for [`truncate_with`].
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Cut {
    /// The byte index to cut at: the text before it is kept.
    pub at: usize,
    /// What closes what the cut left open (written on a line of its own
    /// after the kept part), such as a code fence.
    pub closing: Option<String>,
    /// The table rows kept, of all, if the rule counts them.
    pub rows: Option<Tally>,
    /// The items kept, of all, if the rule counts them.
    pub items: Option<Tally>,
}

impl Cut {
    /// A cut at byte `at`, closing nothing, counting nothing.
    pub fn at(at: usize) -> Cut {
        Cut {
            at,
            closing: None,
            rows: None,
            items: None,
        }
    }

    /// The same cut, closed by `closing` (`None`: nothing to close).
    pub fn closing(mut self, closing: Option<String>) -> Cut {
        self.closing = closing;
        self
    }

    /// The same cut, with the rows and items it kept.
    pub fn tally(mut self, rows: Tally, items: Tally) -> Cut {
        self.rows = Some(rows);
        self.items = Some(items);
        self
    }
}

/// Cuts `text` to `limit` with a codec's own rule: the frame every cut
/// shares.
///
/// `choose(text, budget)` returns the [`Cut`]: the byte index to cut at,
/// keeping at most `budget` of the text, the text that closes what the
/// cut left open, if any, and the rows and items kept, if the rule counts
/// them. When the closing text does not fit beside the kept part,
/// `choose` is asked again with less room (a few times; the cut may move
/// and change what needs closing). The index must be a char boundary at
/// most `text.len()`; it is clamped down to one otherwise, so no rule can
/// make the frame panic.
///
/// The result, note included, is measured in the limit's unit (in chars
/// or bytes, as the sum of its parts, which is its size; the kept part is
/// then cut from `text` in place, not copied); when it is over (a
/// tokenizer's count of a whole is not the sum of its parts'), `choose` is
/// asked again with less room, so a returned text always fits unless the
/// limit is smaller than the note alone.
pub fn truncate_with<F>(text: String, limit: &TextLimit, choose: F) -> Truncation
where
    F: FnMut(&str, usize) -> Cut,
{
    let total = limit.measure(&text);
    let len = text.len();
    truncate_head_with(text, len, total, limit, choose)
}

/// [`truncate_with`] for a text of which only the start, the head
/// `text`, was kept: the whole was `len` bytes and `total` in the limit's
/// unit, and the cut (and its note) is the one `truncate_with` makes of
/// the whole, so a writer can drop what it writes past the head instead
/// of holding the whole text. (`truncate_with` is this function given the
/// whole text.)
///
/// That holds when the limit [adds up](TextLimit::adds_up) (the whole's
/// size is known from its parts') and the head is over the limit (so
/// every cut falls inside it), ending where `choose` may cut; `choose` is
/// given the head as the text. Otherwise the cut is the head's, as if it
/// were the whole text of that `len` and `total`.
///
/// ```
/// use codec_core::TextLimit;
/// use codec_core::truncate::{Cut, truncate_head_with, truncate_plain, truncate_with};
///
/// let text = "a line of text\n".repeat(1_000);
/// let limit = TextLimit::chars(200);
/// let rule = |text: &str, budget: usize| Cut::at(limit.longest_prefix(text, budget));
/// let head = text[..300].to_owned();
/// let cut = truncate_head_with(head, text.len(), text.len(), &limit, rule);
/// assert_eq!(cut, truncate_with(text, &limit, rule));
/// ```
pub fn truncate_head_with<F>(
    text: String,
    len: usize,
    total: usize,
    limit: &TextLimit,
    mut choose: F,
) -> Truncation
where
    F: FnMut(&str, usize) -> Cut,
{
    if total <= limit.max() {
        return Truncation::whole(text);
    }
    // No count is larger than the text's length in bytes, so a note with
    // every count at that size is as long as any note can be: room for it
    // is kept, for a note without rows and items (the plain cut's) until
    // the rule says it counts them.
    let largest = len.max(total);
    let reserve = |tallied| limit.measure(&limit.widest_note(largest, tallied)) + "\n\n".len();
    let mut budget = limit.max().saturating_sub(reserve(false));
    let mut tallied = false;
    let mut rounds = 0;
    loop {
        let (mut cut, mut kept) = fitting_cut(&text, limit, budget, &mut choose);
        if !tallied && (cut.rows.is_some() || cut.items.is_some()) {
            tallied = true;
            budget = budget.min(limit.max().saturating_sub(reserve(true)));
            (cut, kept) = fitting_cut(&text, limit, budget, &mut choose);
        }
        let kept = kept.unwrap_or_else(|| limit.measure(&text[..cut.at]));
        let omission = Omission {
            kept,
            total,
            rows: cut.rows,
            items: cut.items,
        };
        let note = limit.note(&omission);
        let size = match limit.unit {
            // Chars and bytes add up: the result's size is its parts',
            // and the text is cut where it is, not measured and copied
            // again.
            Unit::Chars | Unit::Bytes => {
                let closing = cut.closing.as_ref().map_or(0, |c| limit.measure(c) + 1);
                let blank = if cut.at > 0 || closing > 0 { 2 } else { 0 };
                kept + closing + blank + limit.measure(&note)
            }
            Unit::Tokens(_) => {
                let out = assemble(&text[..cut.at], cut.closing.as_deref(), &note);
                let size = limit.measure(&out);
                if size <= limit.max() || budget == 0 {
                    return Truncation {
                        text: out,
                        omitted: Some(omission),
                    };
                }
                size
            }
        };
        if size <= limit.max() || budget == 0 {
            let mut text = text;
            text.truncate(cut.at);
            close(&mut text, cut.closing.as_deref(), &note);
            // The cut text does not hold on to a large text's memory (a
            // 10 MB rendering cut to 25 KB). Below a megabyte it keeps
            // it: shrinking is a copy, and the caller drops it soon.
            if text.capacity() > SHRINK_ABOVE && text.capacity() > 4 * text.len() {
                text.shrink_to_fit();
            }
            return Truncation {
                text,
                omitted: Some(omission),
            };
        }
        rounds += 1;
        budget = if rounds == MAX_ROUNDS {
            0
        } else {
            budget.saturating_sub((size - limit.max()).max(1))
        };
    }
}

/// The rule's cut with `budget` of room, moved back until its closing
/// fits beside it; with the size of the part it keeps, when it was
/// measured.
fn fitting_cut<F>(
    text: &str,
    limit: &TextLimit,
    mut budget: usize,
    choose: &mut F,
) -> (Cut, Option<usize>)
where
    F: FnMut(&str, usize) -> Cut,
{
    let mut attempt = 0;
    loop {
        let mut cut = choose(text, budget);
        cut.at = floor_char_boundary(text, cut.at);
        let room = cut.closing.as_ref().map_or(0, |c| limit.measure(c) + 1);
        // No text has more chars or tokens than bytes: a kept part no
        // longer in bytes than the room fits unmeasured (an ASCII text cut
        // in chars; the first cut, before the rule says it counts rows,
        // is not kept).
        if cut.at + room <= budget {
            return (cut, None);
        }
        let kept = limit.measure(&text[..cut.at]);
        if kept + room <= budget || attempt == 3 || budget == 0 {
            return (cut, Some(kept));
        }
        budget = budget.saturating_sub(room);
        attempt += 1;
    }
}

/// The kept part, its closing, a blank line and the note, as a new text.
fn assemble(kept: &str, closing: Option<&str>, note: &str) -> String {
    let mut out = String::with_capacity(kept.len() + note.len() + 8);
    out.push_str(kept);
    close(&mut out, closing, note);
    out
}

/// Appends to `kept`, the part of a text a cut keeps, its closing, a blank
/// line and the note.
fn close(kept: &mut String, closing: Option<&str>, note: &str) {
    if let Some(closing) = closing {
        kept.push('\n');
        kept.push_str(closing);
    }
    if !kept.is_empty() {
        kept.push_str("\n\n");
    }
    kept.push_str(note);
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
/// use codec_core::{TextLimit, truncate::truncate_plain};
///
/// let text = "alpha beta gamma delta ".repeat(20);
/// let cut = truncate_plain(text, &TextLimit::chars(200));
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
        Cut::at(cut)
    })
}

/// The byte index where char `n` (from 0) of `text` starts, or its length
/// when it has no more than `n` chars: `char_indices().nth(n)`, counting
/// the bytes that start a char eight at a time, where decoding every char
/// would be most of the work of cutting a long non-ASCII text.
fn nth_char_start(text: &str, n: usize) -> usize {
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let bytes = text.as_bytes();
    // Chars started before `at`.
    let mut chars = 0;
    let mut at = 0;
    while let Some(chunk) = bytes.get(at..at + 8) {
        let word = u64::from_le_bytes(chunk.try_into().unwrap_or([0; 8]));
        // A continuation byte is 0b10xxxxxx: its top bit set, the next
        // one clear.
        let continuations = (word & !(word << 1) & HIGH).count_ones() as usize;
        let starts = 8 - continuations;
        if chars + starts > n {
            break;
        }
        chars += starts;
        at += 8;
    }
    while let Some(&b) = bytes.get(at) {
        if b & 0xC0 != 0x80 {
            if chars == n {
                return at;
            }
            chars += 1;
        }
        at += 1;
    }
    bytes.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
        /// Where char `n` starts, as `char_indices` says.
        #[test]
        fn nth_char_start_is_char_indices(text in "(\\PC|[\u{80}-\u{7ff}]|😀)*", n in 0usize..80) {
            let expected = text.char_indices().nth(n).map_or(text.len(), |(i, _)| i);
            proptest::prop_assert_eq!(nth_char_start(&text, n), expected);
        }

        /// A cut in chars or bytes, sized as the sum of its parts and made
        /// in place, is the cut that measuring the assembled whole makes
        /// (a token counter that counts chars or bytes, named for its
        /// unit), closing and rows included, at every limit.
        #[test]
        fn summed_sizes_cut_as_measured_ones(
            text in "(a{0,6}\n|é|日本|😀| )*",
            max in 0usize..400,
            closing in proptest::option::of("[x\n]{0,5}"),
            bytes in proptest::bool::ANY,
        ) {
            let (summed, measured) = if bytes {
                (TextLimit::bytes(max), TextLimit::tokens(max, Arc::new(Measure(true))))
            } else {
                (TextLimit::chars(max), TextLimit::tokens(max, Arc::new(Measure(false))))
            };
            let rule = |limit: &TextLimit| {
                let closing = closing.clone();
                let limit = limit.clone();
                move |text: &str, budget: usize| {
                    let at = limit.longest_prefix(text, budget);
                    let rows = text[..at].matches('\n').count();
                    Cut::at(at)
                        .closing(closing.clone())
                        .tally(Tally::new(rows, text.matches('\n').count()), Tally::default())
                }
            };
            let a = truncate_with(text.clone(), &summed, rule(&summed));
            let b = truncate_with(text, &measured, rule(&measured));
            let unit = measured.unit();
            proptest::prop_assert_eq!(a.text, b.text.replace(&unit, &summed.unit()));
            proptest::prop_assert_eq!(a.omitted, b.omitted);
        }
    }

    fn kept(out: &str) -> &str {
        let note = out.find("[Truncated").expect("a note");
        out[..note].trim_end_matches('\n')
    }

    /// Tokens are words and the spaces before them, so that counts of a
    /// whole are not the sum of its parts': `a` and `b` are a token each,
    /// `a b` is one more (the space).
    struct Spaces;

    impl TokenCounter for Spaces {
        fn name(&self) -> &str {
            "space"
        }
        fn count(&self, text: &str) -> usize {
            text.split_whitespace().count() + text.matches(' ').count()
        }
    }

    /// Chars (or bytes, when true) counted as tokens: the frame measures
    /// its results whole.
    struct Measure(bool);

    impl TokenCounter for Measure {
        fn name(&self) -> &str {
            "measured"
        }
        fn count(&self, text: &str) -> usize {
            match self.0 {
                true => text.len(),
                false => text.chars().count(),
            }
        }
    }

    #[test]
    fn a_text_that_fits_is_unchanged() {
        for (text, max) in [("", 0), ("abc", 3), ("日本語", 3), ("a\nb", 100)] {
            for limit in [
                TextLimit::chars(max),
                TextLimit::bytes(max.max(text.len())),
                TextLimit::tokens(max, Arc::new(Spaces)),
            ] {
                let cut = truncate_plain(text.to_owned(), &limit);
                assert_eq!(cut, Truncation::whole(text.to_owned()), "{limit:?}");
            }
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
            let cut = truncate_plain(text.to_owned(), &TextLimit::chars(max));
            let kept = kept(&cut.text);
            assert!(text.starts_with(kept), "{text:?}");
            assert!(kept.ends_with(end), "{max}: {kept:?}");
            assert!(cut.text.chars().count() <= max, "{}", cut.text);
            let omission = cut.omitted.unwrap();
            assert_eq!(omission.kept, kept.chars().count());
            assert_eq!(omission.total, text.chars().count());
            assert_eq!((omission.rows, omission.items), (None, None));
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
        let cut = truncate_plain(text, &TextLimit::chars(500));
        assert!(cut.text.chars().count() <= 500, "{}", cut.text);
        assert!(kept(&cut.text).chars().count() > 300);
    }

    #[test]
    fn counts_bytes_and_keeps_whole_chars() {
        let text = "é".repeat(1000);
        let cut = truncate_plain(text, &TextLimit::bytes(501));
        assert!(cut.text.len() <= 501, "{}", cut.text);
        let kept = kept(&cut.text);
        assert!(kept.len() > 300 && kept.chars().all(|c| c == 'é'), "{kept}");
        assert!(
            cut.text.contains(" of 2000 bytes; "),
            "the note counts bytes: {}",
            cut.text
        );
    }

    /// A tokenizer whose counts do not add up still gets a result within
    /// its limit: the frame counts the whole and cuts again.
    #[test]
    fn token_limits_are_exact() {
        let text = "ab ".repeat(2_000);
        for max in [60, 61, 100, 157, 400, 1_000] {
            let limit = TextLimit::tokens(max, Arc::new(Spaces));
            let cut = truncate_plain(text.clone(), &limit);
            let size = Spaces.count(&cut.text);
            assert!(size <= max, "{max}: {size} tokens: {}", cut.text);
            let omission = cut.omitted.unwrap();
            assert_eq!(omission.total, Spaces.count(&text));
            assert_eq!(omission.kept, Spaces.count(kept(&cut.text)));
            assert!(cut.text.contains(" space tokens; "), "{}", cut.text);
            assert!(max < 100 || omission.kept > max / 3, "{max}: {omission:?}");
        }
    }

    /// A cut made in place keeps none of a large text's memory.
    #[test]
    fn a_large_text_cut_gives_its_memory_back() {
        let text = "line of text\n".repeat(200_000);
        let cut = truncate_plain(text, &TextLimit::chars(1_000));
        assert!(cut.text.chars().count() <= 1_000);
        assert!(cut.text.capacity() < 4_000, "{}", cut.text.capacity());
    }

    #[test]
    fn a_limit_smaller_than_the_note_gives_the_note() {
        let cut = truncate_plain("x".repeat(50), &TextLimit::chars(10));
        assert_eq!(
            cut.text,
            "[Truncated: showing the first 0 of 50 characters; 50 more were omitted. \
             Narrow the request (a filter, fewer fields, a smaller page) to see the rest.]"
        );
        assert_eq!(cut.omitted, Some(Omission::new(0, 50)));
    }

    #[test]
    fn a_closing_that_does_not_fit_moves_the_cut() {
        let text = "a".repeat(2000);
        let limit = TextLimit::chars(500);
        let mut asked = Vec::new();
        let cut = truncate_with(text, &limit, |text, budget| {
            asked.push(budget);
            Cut::at(limit.longest_prefix(text, budget)).closing(Some("END".to_owned()))
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
            let cut = truncate_with(text.clone(), &TextLimit::chars(300), |_, _| Cut::at(at));
            assert!(cut.omitted.is_some());
        }
    }

    #[test]
    fn notes_count_rows_and_items_and_end_with_the_hint() {
        let omission = |rows: Option<(usize, usize)>, items: Option<(usize, usize)>| Omission {
            kept: 10,
            total: 50,
            rows: rows.map(|(k, t)| Tally::new(k, t)),
            items: items.map(|(k, t)| Tally::new(k, t)),
        };
        let plain = TextLimit::chars(100);
        let paged = TextLimit::chars(100).with_hint("Request ?offset={rows} ({items} items).");
        let computed = TextLimit::bytes(100)
            .with_hint_fn(|o| format!("Call get with rows={}..", 40 + o.rows.unwrap().kept));
        // (limit, omission, note)
        let cases = [
            (
                &plain,
                omission(Some((3, 10)), Some((1, 4))),
                "[Truncated: showing the first 10 of 50 characters; 7 of 10 rows and 3 of 4 \
                 items were left out. Narrow the request (a filter, fewer fields, a smaller \
                 page) to see the rest.]",
            ),
            (
                &paged,
                omission(Some((3, 10)), Some((1, 1))),
                "[Truncated: showing the first 10 of 50 characters; 7 of 10 rows were left \
                 out. Request ?offset=3 (1 items).]",
            ),
            (
                &paged,
                omission(Some((0, 0)), Some((2, 9))),
                "[Truncated: showing the first 10 of 50 characters; 7 of 9 items were left \
                 out. Request ?offset=0 (2 items).]",
            ),
            (
                &paged,
                omission(None, None),
                "[Truncated: showing the first 10 of 50 characters; 40 more were omitted. \
                 Request ?offset={rows} ({items} items).]",
            ),
            (
                &computed,
                omission(Some((25, 100)), Some((0, 0))),
                "[Truncated: showing the first 10 of 50 bytes; 75 of 100 rows were left out. \
                 Call get with rows=65..]",
            ),
        ];
        for (limit, omission, note) in cases {
            assert_eq!(limit.note(&omission), note, "{limit:?}");
        }
    }

    #[test]
    fn limits_show_their_unit_and_hint() {
        let limit = TextLimit::tokens(5, Arc::new(Spaces)).with_hint("Ask again.");
        assert_eq!(
            format!("{limit:?}"),
            r#"TextLimit { max: 5, unit: "space tokens", hint: Some("Ask again.") }"#
        );
        assert!(limit.fits("a b c"));
        assert!(!limit.fits("a b c d"));
    }
}

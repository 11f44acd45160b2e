//! Inline escaping: writes any string into a line of markdown so that a GFM
//! parser gives back exactly that text and no structure.
//!
//! The scheme, its contexts and the reason for each rule are in
//! `codec-md/ESCAPING.md`; the rule numbers in comments (R1-R12) are its
//! character rules. It is lazy on
//! purpose: a character is escaped only when something else in the same
//! inline context could pair with it, so ordinary values (numbers, words,
//! paths, URLs, dates, emails) are written byte for byte. Most strings take
//! the fast path: one table lookup per byte and a single copy.

use codec_core::{
    ValueView,
    view::{NumberView, ViewKind},
};

use super::keys::KeyTable;

/// Where inline text is written. The context decides which characters can
/// end or add structure there.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Context {
    /// A table cell, between two delimiter pipes.
    Cell,
    /// The value after `- **key**: `.
    Value,
    /// A key between the `**` of `- **key**:`. Strict: it shares the line
    /// with our own markup.
    Key,
    /// A heading's text after `# `. Strict.
    Heading,
    /// A column path of the dense profile (`customer.name`), one key at a
    /// time: strict, with `|` escaped as in a cell and every `.` escaped,
    /// so the path's own dots are the only raw ones.
    Path,
}

impl Context {
    fn strict(self) -> bool {
        matches!(self, Context::Key | Context::Heading | Context::Path)
    }

    /// Between two delimiter pipes: `|` and a final backslash need care.
    fn in_cell(self) -> bool {
        matches!(self, Context::Cell | Context::Path)
    }
}

/// Bytes that may need attention: markdown punctuation, controls, DEL and
/// every non-ASCII byte (invisible and bidi characters, Unicode
/// whitespace). A string without any of them, not starting or ending with
/// whitespace, is written as it is; one whose only marked bytes are
/// beyond ASCII has its characters looked at ([`is_plain_from`]).
pub(super) const fn special_bytes() -> [bool; 256] {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 256 {
        table[b] = b < 0x20 || b >= 0x7f;
        b += 1;
    }
    marked(table, b"*~`_[<&|#\\")
}

/// `table` with the entries of `bytes` set.
pub(super) const fn marked(mut table: [bool; 256], bytes: &[u8]) -> [bool; 256] {
    let mut i = 0;
    while i < bytes.len() {
        table[bytes[i] as usize] = true;
        i += 1;
    }
    table
}

static SPECIAL: [bool; 256] = special_bytes();

/// [`SPECIAL`], plus `:` and `.`: what strict contexts look at, since
/// they also neutralize every autolink trigger (R12).
static STRICT_SPECIAL: [bool; 256] = marked(special_bytes(), b":.");

/// Whether `s` can be written raw in `context` with no analysis.
#[inline(always)]
pub(super) fn is_plain(s: &str, line_start: bool) -> bool {
    let bytes = s.as_bytes();
    plain_edges(bytes, line_start)
        && match first_marked(bytes, &SPECIAL) {
            None => true,
            Some(from) => is_plain_from(s, from, |at, b| is_plain_byte(bytes, at, b)),
        }
}

/// Whether the ASCII byte `b` at `at` of `bytes` is written as it is in a
/// context that is not strict ([`is_plain`]'s rule): unmarked, or an `_`
/// inside a word.
#[inline(always)]
fn is_plain_byte(bytes: &[u8], at: usize, b: u8) -> bool {
    !SPECIAL[usize::from(b)] || (b == b'_' && is_intraword(bytes, at))
}

/// Whether the characters of `s` from `from` (or the start of the
/// character it falls in) are written as they are: each ASCII byte as
/// `ascii` says (given its position), and every other character unless
/// markdown never holds it raw (R1) or it is whitespace at an edge (R2).
/// The escaper's other rules look only at ASCII punctuation, so a string
/// whose only marked bytes are letters of other scripts, accents or emoji
/// (most descriptions and names) is plain.
#[inline]
fn is_plain_from(s: &str, from: usize, ascii: impl Fn(usize, u8) -> bool) -> bool {
    let bytes = s.as_bytes();
    let mut from = from;
    while !s.is_char_boundary(from) {
        from -= 1;
    }
    bytes[from..].iter().enumerate().all(|(i, &b)| match b {
        0..=0x7f => ascii(from + i, b),
        // A character's other bytes: looked at with its first.
        0x80..=0xbf => true,
        _ => is_plain_char(s, from + i),
    })
}

/// Whether the character starting at byte `at` of `s`, not ASCII, is
/// written as it is ([`is_plain_from`]).
fn is_plain_char(s: &str, at: usize) -> bool {
    let Some(c) = s.get(at..).and_then(|rest| rest.chars().next()) else {
        return false;
    };
    !(is_never_raw(c) || (c.is_whitespace() && (at == 0 || at + c.len_utf8() == s.len())))
}

/// Where the first eight-byte chunk of `bytes` with a byte marked in
/// `table` starts: most strings have none, and a chunk is tested with no
/// branch per byte.
#[inline]
pub(super) fn first_marked(bytes: &[u8], table: &[bool; 256]) -> Option<usize> {
    let mut chunks = bytes.chunks_exact(8);
    let mut at = 0;
    for chunk in &mut chunks {
        if chunk
            .iter()
            .fold(false, |any, &b| any | table[usize::from(b)])
        {
            return Some(at);
        }
        at += 8;
    }
    let rest = chunks.remainder();
    rest.iter()
        .fold(false, |any, &b| any | table[usize::from(b)])
        .then_some(at)
}

/// What [`is_plain`] asks of a text's ends: no space at either, and at
/// the start of a line no first byte that could open a block there
/// (punctuation, or the digits of `1.`).
#[inline]
pub(super) fn plain_edges(bytes: &[u8], line_start: bool) -> bool {
    let (Some(&first), Some(&last)) = (bytes.first(), bytes.last()) else {
        return true;
    };
    first != b' '
        && last != b' '
        && !(line_start
            && (first.is_ascii_punctuation()
                || (first.is_ascii_digit() && list_marker(bytes).is_some())))
}

/// Where the `.` or `)` is that makes a paragraph line starting with
/// `bytes` open an ordered list (`1.`, `12)`: one to nine digits), which
/// the escaper writes with a backslash whatever follows it. A line that
/// starts with a digit opens no other block.
fn list_marker(bytes: &[u8]) -> Option<usize> {
    // Past nine digits nothing can be a marker: no need to count on.
    let digits = bytes
        .iter()
        .take(10)
        .take_while(|b| b.is_ascii_digit())
        .count();
    ((1..=9).contains(&digits) && matches!(bytes.get(digits), Some(b'.' | b')'))).then_some(digits)
}

/// Whether the `_` at `i` sits between two ASCII alphanumerics (`a_b`): it
/// can neither open nor close emphasis, in any context (R5).
pub(super) fn is_intraword(bytes: &[u8], i: usize) -> bool {
    i > 0
        && bytes[i - 1].is_ascii_alphanumeric()
        && bytes.get(i + 1).is_some_and(u8::is_ascii_alphanumeric)
}

/// Whether `s` can be written raw in `context`: [`is_plain`], and in a
/// strict context no autolink trigger (R12) and, in a path, no `.`. One
/// pass over the bytes.
pub(super) fn is_plain_in(s: &str, context: Context) -> bool {
    if !context.strict() {
        return is_plain(s, false);
    }
    let bytes = s.as_bytes();
    let (Some(&first), Some(&last)) = (bytes.first(), bytes.last()) else {
        return true;
    };
    let Some(from) = first_marked(bytes, &STRICT_SPECIAL) else {
        return first != b' ' && last != b' ';
    };
    if first == b' ' || last == b' ' {
        return false;
    }
    // Most keys are words joined by `_` (`flag_0_finding`): passed over
    // here, the rest looked at byte by byte from the first other mark.
    let mut from = from;
    while let Some(&b) = bytes.get(from) {
        if !STRICT_SPECIAL[usize::from(b)] {
            from += 1;
        } else if b == b'_' && is_intraword(bytes, from) {
            from += 2;
        } else {
            break;
        }
    }
    from == bytes.len()
        || is_plain_from(s, from, |at, b| is_strict_plain_byte(bytes, at, b, context))
}

/// Whether the ASCII byte `b` at `at` of `bytes` is written as it is in
/// the strict `context` ([`is_plain_in`]'s rule): unmarked, an `_` inside
/// a word, or a `:` or `.` that triggers no autolink (any `.` in a path
/// is escaped).
#[inline(always)]
fn is_strict_plain_byte(bytes: &[u8], at: usize, b: u8, context: Context) -> bool {
    !STRICT_SPECIAL[usize::from(b)]
        || match b {
            b'_' => is_intraword(bytes, at),
            b'.' if context == Context::Path => false,
            b':' | b'.' => !url_trigger(bytes, at),
            _ => false,
        }
}

/// Writes `s` in `context`.
#[inline]
pub(super) fn write_str(out: &mut Vec<u8>, s: &str, context: Context) {
    if !context.strict() {
        write_loose_str(out, s, context);
        return;
    }
    if is_plain_in(s, context) {
        out.extend_from_slice(s.as_bytes());
        return;
    }
    write_line(out, Line::One(s), context, false);
}

/// [`write_str`] in a context that is not strict (a value, a cell): the
/// string is plain, or plain but for line feeds inside it and holding no
/// autolink trigger (lines of text, a stack trace in a dense cell), or
/// escaped. One pass over its marked part says which of the first two it
/// is, rather than one pass to find it not plain and another to find it
/// plain but for its line feeds.
fn write_loose_str(out: &mut Vec<u8>, s: &str, context: Context) {
    let bytes = s.as_bytes();
    let plain = plain_edges(bytes, false)
        && match first_marked(bytes, &SPECIAL) {
            None => {
                out.extend_from_slice(bytes);
                return;
            }
            Some(from) => {
                let last = bytes.len() - 1;
                let line_feeds = std::cell::Cell::new(false);
                // [`is_plain`]'s rule, but a line feed inside the string,
                // noted, passes.
                let plain = is_plain_from(s, from, |at, b| match b {
                    b'\n' => {
                        line_feeds.set(true);
                        at != 0 && at != last
                    }
                    _ => is_plain_byte(bytes, at, b),
                });
                if plain && !line_feeds.get() {
                    out.extend_from_slice(bytes);
                    return;
                }
                // R12's triggers, which only a line's escaping looks at.
                plain && !memchr::memchr2_iter(b':', b'.', bytes).any(|at| url_trigger(bytes, at))
            }
        };
    if plain {
        write_line_feeds_as_refs(out, s);
    } else {
        write_line(out, Line::One(s), context, false);
    }
}

/// Writes `s`, plain but for line feeds inside it and holding no
/// autolink trigger ([`write_loose_str`]), with `&#10;` for each line
/// feed: what the escaper writes for it. No rule pairs with a line feed,
/// and with no trigger R12's second writing cannot happen.
fn write_line_feeds_as_refs(out: &mut Vec<u8>, s: &str) {
    // Every line feed found by one vectorized search over the string, as
    // a fence's lines are (a search per line cost more than the line).
    let bytes = s.as_bytes();
    let mut start = 0;
    for at in memchr::memchr_iter(b'\n', bytes) {
        out.extend_from_slice(&bytes[start..at]);
        out.extend_from_slice(b"&#10;");
        start = at + 1;
    }
    out.extend_from_slice(&bytes[start..]);
}

/// Writes the keys of list lines (`- **key**:`, [`Context::Key`]),
/// remembering which were plain.
///
/// The same keys come back on every row of a list of records, and a
/// struct's field names (on a tape, or in a `Value` built from structs) or
/// a parsed object's shared key list keep one address: a key at an
/// address known to be plain is copied without looking at its bytes
/// again.
#[derive(Debug, Default)]
pub(super) struct KeyWriter {
    /// Keys known to be plain ([`KeyTable`]).
    plain: KeyTable<()>,
}

impl KeyWriter {
    /// Writes `key` as [`write_str`] does in [`Context::Key`].
    #[inline]
    pub(super) fn write(&mut self, out: &mut Vec<u8>, key: &str) {
        self.write_in(out, key, Context::Key);
    }

    /// Writes `key` as [`write_str`] does in `context`, [`Context::Key`]
    /// or [`Context::Heading`]: the two strict contexts take the same
    /// strings as they are (a `#`, which only a heading escapes, is never
    /// plain), so one memory of plain keys serves both (a record's
    /// nested objects repeat their headings as its members their keys).
    #[inline]
    pub(super) fn write_in(&mut self, out: &mut Vec<u8>, key: &str, context: Context) {
        debug_assert!(matches!(context, Context::Key | Context::Heading));
        if self.is_plain(key) {
            out.extend_from_slice(key.as_bytes());
            return;
        }
        write_line(out, Line::One(key), context, false);
    }

    /// Writes `key` as [`write_str`] does in [`Context::Cell`], a table's
    /// column: a key plain in the strict contexts is plain in a cell too
    /// (a cell looks at fewer bytes), so the same memory serves it.
    #[inline]
    pub(super) fn write_cell(&mut self, out: &mut Vec<u8>, key: &str) {
        if self.is_plain(key) {
            out.extend_from_slice(key.as_bytes());
            return;
        }
        write_str(out, key, Context::Cell);
    }

    /// Whether `key` is plain in [`Context::Key`]: known by its address,
    /// or looked at (and remembered while the table has room).
    #[inline(always)]
    fn is_plain(&mut self, key: &str) -> bool {
        let Err(slot) = self.plain.find(key) else {
            return true;
        };
        if !is_plain_in(key, Context::Key) {
            return false;
        }
        self.plain.remember(slot, key, ());
        true
    }
}

/// Writes `s` as the whole of a paragraph line: the value rules, plus a
/// backslash before anything at the start of the line that would open a
/// block (`#`, `-`, `>`, `1.`, `<div`, ...).
pub(super) fn write_paragraph(out: &mut Vec<u8>, s: &str) {
    if is_plain(s, true) {
        out.extend_from_slice(s.as_bytes());
        return;
    }
    write_line(out, Line::One(s), Context::Value, true);
}

/// Writes `s` as the first cell of a table row that has no leading pipe
/// (the dense profile): the cell rules, plus the paragraph's protection of
/// the line start, since a row line that starts a block ends the table.
pub(super) fn write_first_cell(out: &mut Vec<u8>, s: &str) {
    if is_plain(s, true) {
        out.extend_from_slice(s.as_bytes());
        return;
    }
    write_line(out, Line::One(s), Context::Cell, true);
}

/// Writes scalars as an inline list, `a, b, c`. The strings are escaped as
/// one line (a `*` in one item could pair with a `*` in another);
/// `line_start` protects the start of a paragraph line.
pub(super) fn write_list<'a>(
    out: &mut Vec<u8>,
    items: impl Iterator<Item = Scalar<'a>> + Clone,
    line_start: bool,
) {
    write_list_in(out, items, Context::Value, line_start);
}

/// [`write_list`] in `context` (a value, or a cell of the dense profile).
pub(super) fn write_list_in<'a>(
    out: &mut Vec<u8>,
    items: impl Iterator<Item = Scalar<'a>> + Clone,
    context: Context,
    line_start: bool,
) {
    // Most lists are plain: written as they are read, each item looked
    // at once, and taken back at the first that is not, rather than two
    // passes, one to check and one to write.
    let start = out.len();
    let mut first = true;
    let plain = items.clone().all(|item| {
        if let Scalar::Str(s) = item
            && !is_plain(s, line_start && first)
        {
            return false;
        }
        if !first {
            out.extend_from_slice(b", ");
        }
        first = false;
        item.write_raw(out);
        true
    });
    if plain {
        return;
    }
    out.truncate(start);
    let items: Vec<Scalar<'a>> = items.collect();
    write_line(out, Line::List(&items), context, line_start);
}

/// An item of an inline list, as the escaper sees it: only strings are
/// escaped, since the text of numbers, bools and null has no markdown
/// meaning.
#[derive(Debug, Clone, Copy)]
pub(super) enum Scalar<'a> {
    /// `null`, written as nothing; also a container, which no list holds.
    Null,
    Bool(bool),
    Number(NumberView<'a>),
    Str(&'a str),
}

impl<'a> Scalar<'a> {
    /// The scalar `value` is.
    #[inline]
    pub(super) fn of<V: ValueView<'a>>(value: V) -> Scalar<'a> {
        match value.kind() {
            ViewKind::Bool(b) => Scalar::Bool(b),
            ViewKind::Number(n) => Scalar::Number(n),
            ViewKind::String(s) => Scalar::Str(s),
            ViewKind::Null | ViewKind::Array(_) | ViewKind::Object(_) => Scalar::Null,
        }
    }

    fn as_str(self) -> Option<&'a str> {
        match self {
            Scalar::Str(s) => Some(s),
            _ => None,
        }
    }

    /// Writes the scalar with no escaping: a number's exact text, `true`,
    /// `false`, nothing for null. Strings are written raw: callers check
    /// them.
    #[inline]
    fn write_raw(self, out: &mut Vec<u8>) {
        match self {
            Scalar::Null => {}
            Scalar::Bool(true) => out.extend_from_slice(b"true"),
            Scalar::Bool(false) => out.extend_from_slice(b"false"),
            Scalar::Number(n) => n.write_to(out),
            Scalar::Str(s) => out.extend_from_slice(s.as_bytes()),
        }
    }
}

/// The text of an inline line: one string, or the items of an inline
/// list joined by `, `.
#[derive(Debug, Clone, Copy)]
enum Line<'a> {
    One(&'a str),
    List(&'a [Scalar<'a>]),
}

impl<'a> Line<'a> {
    /// Each item's string, `None` for the other scalars.
    fn strings(self) -> impl Iterator<Item = Option<&'a str>> {
        let (one, items) = match self {
            Line::One(s) => (Some(s), &[][..]),
            Line::List(items) => (None, items),
        };
        one.map(Some)
            .into_iter()
            .chain(items.iter().map(|item| item.as_str()))
    }
}

/// A position in a line: (piece, byte offset).
type Pos = (usize, usize);

/// What the whole line needs, from one analysis pass.
#[derive(Debug)]
struct Plan {
    context: Context,
    line_start: bool,
    /// R3: escape every `*` / `~`.
    star: bool,
    tilde: bool,
    /// R4: escape every backtick.
    backtick: bool,
    /// R5: escape `_` runs that are not intraword.
    underscore: bool,
    /// R6: a `[` before this position is escaped (it is the last `](`).
    link_close: Option<Pos>,
    /// R7: a `<` before this position may open a tag (it is the last `>`).
    tag_close: Option<Pos>,
    /// R12: the line holds an autolink trigger.
    has_url: bool,
    /// R12: neutralize autolink triggers.
    urls: bool,
}

fn write_line(out: &mut Vec<u8>, line: Line<'_>, context: Context, line_start: bool) {
    let mut plan = Plan {
        context,
        line_start,
        star: context.strict(),
        tilde: context.strict(),
        backtick: context.strict(),
        underscore: context.strict(),
        link_close: None,
        tag_close: None,
        has_url: false,
        urls: context.strict(),
    };
    let mut star_runs = 0;
    let mut tilde_runs = 0;
    let mut underscore_runs = 0;
    // Backtick run lengths seen: a bit per short length, a list of the
    // long ones (each takes over 64 bytes, so the list stays small).
    let mut short_runs = 0u64;
    let mut long_runs: Vec<usize> = Vec::new();
    for (index, piece) in line.strings().enumerate() {
        let Some(s) = piece else { continue };
        let bytes = s.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            let b = bytes[i];
            let run = bytes[i..].iter().take_while(|&&c| c == b).count();
            match b {
                b'*' => star_runs += 1,
                b'~' => tilde_runs += 1,
                b'_' => underscore_runs += 1,
                b'`' if !plan.backtick => {
                    plan.backtick = if run < 64 {
                        let seen = short_runs & (1 << run) != 0;
                        short_runs |= 1 << run;
                        seen
                    } else {
                        let seen = long_runs.contains(&run);
                        long_runs.push(run);
                        seen
                    };
                }
                // R6: the last `]` of a run is the one `(` follows, and it
                // closes a link whose text holds brackets (`[[a]](b)`).
                b']' if bytes.get(i + run) == Some(&b'(') => {
                    plan.link_close = Some((index, i + run - 1));
                }
                b'>' => plan.tag_close = Some((index, i + run - 1)),
                b':' | b'.' => plan.has_url |= url_trigger(bytes, i),
                _ => {}
            }
            i += run;
        }
    }
    plan.star |= star_runs >= 2;
    plan.tilde |= tilde_runs >= 2;
    plan.underscore |= underscore_runs >= 2;
    // Escaping a line's first backtick shortens its run, which could then
    // pair with a shorter one: escape them all.
    plan.backtick |=
        line_start && matches!(line.strings().next(), Some(Some(s)) if s.starts_with('`'));

    let start = out.len();
    let changed = write_pieces(out, line, &plan);
    if changed && plan.has_url && !plan.urls {
        // R12: escapes inside a bare URL would show up in its link text, so
        // once anything was escaped, no URL may autolink.
        out.truncate(start);
        plan.urls = true;
        write_pieces(out, line, &plan);
    }
}

/// Writes the pieces joined by `, `; returns whether anything was escaped.
fn write_pieces(out: &mut Vec<u8>, line: Line<'_>, plan: &Plan) -> bool {
    let items = match line {
        Line::One(s) => return write_escaped(out, s, 0, plan),
        Line::List(items) => items,
    };
    let mut changed = false;
    for (index, item) in items.iter().enumerate() {
        if index > 0 {
            out.extend_from_slice(b", ");
        }
        match item {
            Scalar::Str(s) => changed |= write_escaped(out, s, index, plan),
            other => other.write_raw(out),
        }
    }
    changed
}

/// R1: the characters markdown never holds raw, the one definition: line
/// breaks (LF, CR, and U+0085 NEL, U+2028, U+2029, which some readers
/// break lines at), the other C0 and C1 controls except TAB, DEL, and the
/// invisible and bidi characters (soft hyphen, zero-width and joiner
/// characters, marks, embeddings and overrides, word joiner and invisible
/// operators, BOM), which would let text look other than it is. The
/// escaper writes them as references; the dense profile's JSON writes
/// them `\uXXXX` ([`super::json`]).
pub(super) const fn is_never_raw(c: char) -> bool {
    matches!(c,
        '\0'..='\u{8}' | '\u{a}'..='\u{1f}' | '\u{7f}'..='\u{9f}' | '\u{ad}'
        | '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}'
        | '\u{2028}' | '\u{2029}' | '\u{2060}'..='\u{206f}' | '\u{feff}')
}

/// `&#N;`, `N` the code point in decimal (without the formatting
/// machinery: a stack trace's line breaks are a reference each).
fn write_ref(out: &mut Vec<u8>, c: char) {
    out.extend_from_slice(b"&#");
    out.extend_from_slice(itoa::Buffer::new().format(u32::from(c)).as_bytes());
    out.push(b';');
}

/// Writes one string of the line; returns whether anything was escaped.
fn write_escaped(out: &mut Vec<u8>, s: &str, index: usize, plan: &Plan) -> bool {
    let bytes = s.as_bytes();
    let context = plan.context;
    // R2: the whitespace at either end becomes refs.
    let lead_end = s.len() - s.trim_start_matches(char::is_whitespace).len();
    let trail_start = s.trim_end_matches(char::is_whitespace).len().max(lead_end);
    let is_ref = |at: usize, c: char| at < lead_end || at >= trail_start || is_never_raw(c);
    // R10: a heading's trailing `#` run.
    let trailing_hashes = s.len() - s.trim_end_matches('#').len();
    let hash_run_start = (trailing_hashes > 0).then(|| s.len() - trailing_hashes);
    let list_marker = (plan.line_start && index == 0)
        .then(|| list_marker(bytes))
        .flatten();

    let mut changed = false;
    let mut escape_underscores = false;
    let mut chars = s.char_indices().peekable();
    let mut prev: Option<char> = None;
    let line_start = plan.line_start && index == 0;
    // A space inside the text (not at an edge, R2) is quiet too: no rule
    // escapes it, and the rules that look at what follows a character
    // peek at it rather than take it.
    let quiet = |i: usize| {
        let b = bytes[i];
        QUIET[usize::from(b)] || (b == b' ' && i >= lead_end && i < trail_start)
    };
    while let Some((at, c)) = chars.next() {
        // A run of bytes no rule looks at is copied as it is (the start of
        // a paragraph line looks at its first byte).
        if quiet(at) && !(line_start && at == 0) {
            let run = (at..bytes.len()).take_while(|&i| quiet(i)).count();
            out.extend_from_slice(&bytes[at..at + run]);
            prev = Some(char::from(bytes[at + run - 1]));
            // Quiet bytes are ASCII: one char each.
            if run > 1 {
                chars.nth(run - 2);
            }
            continue;
        }
        let next = chars.peek().copied();
        let escape = match c {
            _ if is_ref(at, c) => Some(Emit::Ref),
            '\\' => match next {
                // `\|` would escape the delimiter pipe (R11).
                None if context.in_cell() => Some(Emit::Ref),
                None => Some(Emit::Backslash),
                Some((n_at, n)) => {
                    (n.is_ascii_punctuation() || is_ref(n_at, n)).then_some(Emit::Backslash)
                }
            },
            '*' => plan.star.then_some(Emit::Backslash),
            '~' => plan.tilde.then_some(Emit::Backslash),
            '`' => plan.backtick.then_some(Emit::Backslash),
            '_' => {
                if prev != Some('_') {
                    // First `_` of a run: intraword runs stay raw (R5).
                    let run_end = at + s[at..].bytes().take_while(|&b| b == b'_').count();
                    let after = s[run_end..].chars().next();
                    let intraword = prev.is_some_and(char::is_alphanumeric)
                        && after.is_some_and(char::is_alphanumeric);
                    escape_underscores = plan.underscore && !intraword;
                }
                escape_underscores.then_some(Emit::Backslash)
            }
            '[' => (context.strict() || plan.link_close.is_some_and(|p| (index, at) < p))
                .then_some(Emit::Backslash),
            '<' => (context.strict()
                || (next.is_some_and(|(_, n)| !n.is_whitespace())
                    && plan.tag_close.is_some_and(|p| (index, at) < p)))
            .then_some(Emit::Backslash),
            '&' => looks_like_entity(&bytes[at + 1..]).then_some(Emit::Backslash),
            '|' => context.in_cell().then_some(Emit::Backslash),
            '#' => (context == Context::Heading && (at == 0 || Some(at) == hash_run_start))
                .then_some(Emit::Backslash),
            ':' | '.' => ((plan.urls && url_trigger(bytes, at))
                || (c == '.' && context == Context::Path))
                .then_some(Emit::Backslash),
            _ => None,
        };
        // At the start of a paragraph line, punctuation could open a block.
        let at_line_start = plan.line_start
            && index == 0
            && ((at == 0 && c.is_ascii_punctuation()) || list_marker == Some(at));
        match escape.or(at_line_start.then_some(Emit::Backslash)) {
            Some(Emit::Ref) => write_ref(out, c),
            Some(Emit::Backslash) => {
                out.push(b'\\');
                out.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes());
            }
            None => out.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes()),
        }
        changed |= escape.is_some() || at_line_start;
        prev = Some(c);
    }
    changed
}

/// Bytes no rule of [`write_escaped`] looks at, wherever they are in a
/// line but its first byte: ASCII letters and digits, and the punctuation
/// that neither pairs, nor opens, nor ends anything in a line. Whitespace
/// is not quiet (at a string's edges it becomes a reference), nor is `)`
/// or `.` (`1)` and `1.` open a list at the start of a paragraph).
static QUIET: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 128 {
        table[b] = (b as u8).is_ascii_alphanumeric();
        b += 1;
    }
    marked(table, b"!\"$%'(+,-/;=>?@]^{}")
};

/// How a character that is not written raw is written.
#[derive(Debug, Clone, Copy)]
enum Emit {
    /// A backslash, then the character.
    Backslash,
    /// A numeric reference, `&#N;`.
    Ref,
}

/// R8: whether the text after an `&` reads as an entity or a numeric
/// reference (`#123;`, `#x1F;`, `name;`).
fn looks_like_entity(rest: &[u8]) -> bool {
    let (digits, body): (fn(&u8) -> bool, &[u8]) = match rest {
        [b'#', b'x' | b'X', body @ ..] => (u8::is_ascii_hexdigit, body),
        [b'#', body @ ..] => (u8::is_ascii_digit, body),
        [first, ..] if first.is_ascii_alphabetic() => (u8::is_ascii_alphanumeric, rest),
        _ => return false,
    };
    let len = body.iter().take_while(|b| digits(b)).count();
    len > 0 && body.get(len) == Some(&b';')
}

/// R12: whether the `:` or `.` at `at` completes an autolink trigger:
/// `http://`, `https://`, `ftp://`, `mailto:`, `xmpp:`, `www.` (any case).
pub(super) fn url_trigger(bytes: &[u8], at: usize) -> bool {
    let before = &bytes[..at];
    let ends_with = |word: &[u8]| {
        before.len() >= word.len() && before[before.len() - word.len()..].eq_ignore_ascii_case(word)
    };
    match bytes[at] {
        b'.' => ends_with(b"www"),
        b':' => {
            (bytes[at + 1..].starts_with(b"//")
                && (ends_with(b"http") || ends_with(b"https") || ends_with(b"ftp")))
                || ends_with(b"mailto")
                || ends_with(b"xmpp")
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use codec_core::Value;

    use super::*;

    proptest::proptest! {
        /// The strict check that passes over `_`-joined words first says
        /// what the check byte by byte from the first mark says.
        #[test]
        fn strict_plainness_is_the_byte_by_byte_one(
            s in r"[a-z0-9_ .:/é\u{a0}*#-]{0,12}|[a-z]{1,5}(_[a-z0-9]{0,4}){0,4}_?",
            context in proptest::sample::select(vec![Context::Key, Context::Heading, Context::Path]),
        ) {
            proptest::prop_assert_eq!(is_plain_in(&s, context), is_plain_in_reference(&s, context));
        }
    }

    proptest::proptest! {
        /// An inline list written in one pass, taken back at its first
        /// item that is not plain, is the list the check-then-write
        /// passes wrote.
        #[test]
        fn lists_in_one_pass_are_the_two_pass_ones(
            strings in proptest::collection::vec(r"[a-z ]{0,4}|[a-z*_#1.\\-]{1,3}", 0..5),
            line_start in proptest::bool::ANY,
            context in proptest::sample::select(vec![Context::Value, Context::Cell]),
        ) {
            let number = codec_core::Value::from(7);
            let scalars = || {
                strings
                    .iter()
                    .map(|s| Scalar::Str(s))
                    .chain([Scalar::Null, Scalar::Bool(true), Scalar::of(&number)])
            };
            let mut one_pass = b"before".to_vec();
            write_list_in(&mut one_pass, scalars(), context, line_start);
            let mut two_passes = b"before".to_vec();
            let plain = scalars().enumerate().all(|(i, item)| match item {
                Scalar::Str(s) => is_plain(s, line_start && i == 0),
                _ => true,
            });
            if plain {
                for (i, item) in scalars().enumerate() {
                    if i > 0 {
                        two_passes.extend_from_slice(b", ");
                    }
                    item.write_raw(&mut two_passes);
                }
            } else {
                let items: Vec<Scalar<'_>> = scalars().collect();
                write_line(&mut two_passes, Line::List(&items), context, line_start);
            }
            proptest::prop_assert_eq!(String::from_utf8(one_pass).unwrap(), String::from_utf8(two_passes).unwrap());
        }
    }

    /// [`is_plain_in`] in a strict context as it was before its pass over
    /// `_`-joined words.
    fn is_plain_in_reference(s: &str, context: Context) -> bool {
        let bytes = s.as_bytes();
        let (Some(&first), Some(&last)) = (bytes.first(), bytes.last()) else {
            return true;
        };
        let Some(from) = first_marked(bytes, &STRICT_SPECIAL) else {
            return first != b' ' && last != b' ';
        };
        first != b' '
            && last != b' '
            && is_plain_from(s, from, |at, b| is_strict_plain_byte(bytes, at, b, context))
    }

    proptest::proptest! {
        /// A value's or a cell's string is written as the escaper writes
        /// it, whichever of [`write_loose_str`]'s ways it takes: plain,
        /// plain but for its line feeds (written as references), or
        /// escaped.
        #[test]
        fn loose_strings_are_what_the_escaper_writes(
            pieces in proptest::collection::vec(
                proptest::prop_oneof![
                    6 => "[a-z0-9 ,:./()-]{1,6}",
                    2 => "\n",
                    1 => "_|a_b|é|\u{a0}|\u{2028}|\\*|`|<|&|\\[|\\]\\(|\t|\r|http://|www\\.|mailto:",
                ],
                0..8,
            ),
        ) {
            let s = pieces.concat();
            for context in [Context::Value, Context::Cell] {
                let mut expected = Vec::new();
                write_line(&mut expected, Line::One(&s), context, false);
                let mut written = Vec::new();
                write_str(&mut written, &s, context);
                proptest::prop_assert_eq!(
                    String::from_utf8(written).unwrap(),
                    String::from_utf8(expected).unwrap(),
                    "{:?} {:?}", s, context
                );
            }
        }
    }

    proptest::proptest! {
        /// A string that `is_plain_in` lets through is what the escaper
        /// writes for it, in every context: the fast path and the rules
        /// agree, on letters of other scripts, emoji, Unicode whitespace
        /// and the characters never written raw among the ASCII ones.
        #[test]
        fn plain_is_written_as_it_is(
            s in "[a-z_.:/ *é😎\u{a0}\u{3000}\u{85}\u{ad}\u{200b}\u{2028}\u{feff}\u{1f}]{0,10}",
        ) {
            for context in [Context::Value, Context::Cell, Context::Key, Context::Heading, Context::Path] {
                let mut written = Vec::new();
                write_line(&mut written, Line::One(&s), context, false);
                if is_plain_in(&s, context) {
                    proptest::prop_assert_eq!(String::from_utf8(written).unwrap(), s.clone(), "{:?}", context);
                }
            }
            let mut written = Vec::new();
            write_line(&mut written, Line::One(&s), Context::Value, true);
            if is_plain(&s, true) {
                proptest::prop_assert_eq!(String::from_utf8(written).unwrap(), s.clone());
            }
        }
    }

    proptest::proptest! {
        /// A string that `is_plain` lets through at the start of a line
        /// is what the escaper writes for it there: the fast path and the
        /// rules agree (digits first, with and without a list marker).
        #[test]
        fn plain_at_a_line_start_is_written_as_it_is(
            s in r#"[0-9]{0,11}[.)\-:/ a-z0-9_]{0,6}"#,
        ) {
            for context in [Context::Value, Context::Cell] {
                let mut written = Vec::new();
                write_line(&mut written, Line::One(&s), context, true);
                if is_plain(&s, true) {
                    proptest::prop_assert_eq!(String::from_utf8(written).unwrap(), s.clone());
                }
            }
        }
    }

    fn escaped(s: &str, context: Context) -> String {
        let mut out = Vec::new();
        write_str(&mut out, s, context);
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn writes_each_context() {
        use Context::*;
        let cases: &[(&str, Context, &str)] = &[
            // Ordinary values stay byte-identical.
            ("42", Value, "42"),
            ("src/main.rs", Cell, "src/main.rs"),
            ("snake_case", Key, "snake_case"),
            (
                "https://example.com/a_b?x=1&y=2#frag",
                Value,
                "https://example.com/a_b?x=1&y=2#frag",
            ),
            ("it`s", Value, "it`s"),
            ("a < b > c", Value, "a < b > c"),
            ("AT&T", Value, "AT&T"),
            ("C:\\Users\\me", Value, "C:\\Users\\me"),
            // R1 and R2.
            ("a\nb", Value, "a&#10;b"),
            ("x\0y", Cell, "x&#0;y"),
            (" a ", Value, "&#32;a&#32;"),
            // Inner spaces stay raw beside escapes; edge ones are refs.
            ("  a *b*  c\u{a0}", Value, "&#32;&#32;a \\*b\\*  c&#160;"),
            ("x \\ y", Value, "x \\ y"),
            ("< a> b", Value, "< a> b"),
            ("a\u{3000}b c", Cell, "a\u{3000}b c"),
            ("\u{202e}", Value, "&#8238;"),
            // C1 controls: U+0085 (NEL) breaks lines for some readers.
            ("a\u{85}b\u{80}c\u{9f}", Value, "a&#133;b&#128;c&#159;"),
            ("\u{85}", Key, "&#133;"),
            ("a\u{a0}b", Value, "a\u{a0}b"),
            // R3-R5.
            ("*a*", Value, "\\*a\\*"),
            ("a*", Value, "a*"),
            ("a*", Key, "a\\*"),
            ("`a` and `b`", Value, "\\`a\\` and \\`b\\`"),
            ("_a_b_", Value, "\\_a_b\\_"),
            // R6-R9.
            ("[x](y)", Value, "\\[x](y)"),
            // R6 through nested brackets: a `]` run closes the link.
            ("[[a]](b)", Value, "\\[\\[a]](b)"),
            ("[a[b]](u)", Cell, "\\[a\\[b]](u)"),
            ("U[[]]()", Value, "U\\[\\[]]()"),
            ("[[a]] (b)", Value, "[[a]] (b)"),
            ("[x]", Key, "\\[x]"),
            ("<b>", Value, "\\<b>"),
            ("&amp;", Value, "\\&amp;"),
            ("&#x1F;", Cell, "\\&#x1F;"),
            ("a|b", Cell, "a\\|b"),
            ("a|b", Value, "a|b"),
            // R10.
            ("# Title #", Heading, "\\# Title \\#"),
            ("# Title #", Key, "# Title #"),
            // R11.
            ("dir\\", Cell, "dir&#92;"),
            ("dir\\", Value, "dir\\\\"),
            ("a\\|b", Cell, "a\\\\\\|b"),
            ("a\\*", Key, "a\\\\\\*"),
            ("a\\\n", Value, "a\\\\&#10;"),
            // R12.
            ("*a* http://x", Value, "\\*a\\* http\\://x"),
            ("www.x.com", Key, "www\\.x.com"),
        ];
        for (input, context, expected) in cases {
            assert_eq!(
                escaped(input, *context),
                *expected,
                "{input:?} in {context:?}"
            );
        }
    }

    /// The chunked search finds a marked byte at every place: in each
    /// eight-byte chunk and in the remainder after them.
    #[test]
    fn finds_a_marked_byte_anywhere() {
        for len in 0..=25 {
            let clean = "a".repeat(len);
            assert_eq!(first_marked(clean.as_bytes(), &SPECIAL), None, "{len}");
            assert!(is_plain(&clean, false));
            for at in 0..len {
                for marked in ["*", "\n", "\u{7f}", "\u{200b}", "\u{e9}", "\u{a0}"] {
                    let s = format!("{}{marked}{}", &clean[..at], &clean[at + 1..]);
                    let found = first_marked(s.as_bytes(), &SPECIAL);
                    assert_eq!(found, Some(at / 8 * 8), "{s:?}");
                    // A letter is plain anywhere, a no-break space but at
                    // an edge; the others never.
                    let plain =
                        marked == "\u{e9}" || (marked == "\u{a0}" && at > 0 && at + 1 < len);
                    assert_eq!(is_plain(&s, false), plain, "{s:?}");
                    assert_eq!(is_plain_in(&s, Context::Key), plain, "{s:?}");
                }
                // `_` between letters is plain; at an edge of a word, not.
                let s = format!("{}_{}", &clean[..at], &clean[at + 1..]);
                let intraword = at > 0 && at + 1 < len;
                assert_eq!(is_plain(&s, false), intraword, "{s:?}");
                assert_eq!(is_plain_in(&s, Context::Key), intraword, "{s:?}");
                // A strict context's own marks: `:` only where it could
                // start an autolink, `.` always in a path.
                let s = format!("{}.{}", &clean[..at], &clean[at + 1..]);
                assert!(is_plain(&s, false), "{s:?}");
                assert!(!is_plain_in(&s, Context::Path), "{s:?}");
            }
        }
    }

    /// Ordinary values cost nothing: written byte for byte in cells and
    /// values, and (the ones that name things) in keys and headings.
    #[test]
    fn leaves_ordinary_values_alone() {
        let values = [
            "42",
            "-3.14",
            "1e10",
            "hello",
            "Hello, world!",
            "src/main.rs",
            "/usr/local/bin",
            "a/b/c.tar.gz",
            "~/.config",
            "C:\\Users\\me",
            "https://example.com/a_b?x=1&y=2#frag",
            "http://localhost:8080/api",
            "www.example.com",
            "2025-06-01",
            "2025-06-01T12:00:00.479Z",
            "first.last+tag@example.com",
            "snake_case_name",
            "kebab-case",
            "v1.2.3",
            "#1234",
            "50%",
            "$19.99",
            "(555) 123-4567",
            "it's \"quoted\"",
            "x > y",
            "a < b",
            "1 + 2 = 3",
            "a*b",
            "AT&T",
            "héllo 世界",
        ];
        for value in values {
            for context in [Context::Cell, Context::Value] {
                assert_eq!(escaped(value, context), value, "{value:?} in {context:?}");
            }
        }
        for key in [
            "id",
            "userId",
            "created_at",
            "e-mail",
            "v1.2",
            "Hello, world!",
            "50%",
        ] {
            for context in [Context::Key, Context::Heading] {
                assert_eq!(escaped(key, context), key, "{key:?} in {context:?}");
            }
        }
    }

    #[test]
    fn protects_the_start_of_a_paragraph() {
        let cases: &[(&str, &str)] = &[
            ("plain", "plain"),
            ("# not a heading", "\\# not a heading"),
            ("- item", "\\- item"),
            ("1. item", "1\\. item"),
            ("2024-01-01", "2024-01-01"),
            ("<div", "\\<div"),
            ("> quote", "\\> quote"),
            ("````a```", "\\`\\`\\`\\`a\\`\\`\\`"),
        ];
        for (input, expected) in cases {
            let mut out = Vec::new();
            write_paragraph(&mut out, input);
            assert_eq!(String::from_utf8(out).unwrap(), *expected, "{input:?}");
        }
    }

    #[test]
    fn escapes_a_list_as_one_line() {
        let cases: &[(Vec<Value>, &str)] = &[
            (
                vec![1.into(), "a".into(), true.into(), Value::Null],
                "1, a, true, ",
            ),
            (vec!["*a".into(), "b*".into()], "\\*a, b\\*"),
            (vec!["[a".into(), "](b)".into()], "\\[a, ](b)"),
        ];
        for (items, expected) in cases {
            let mut out = Vec::new();
            write_list(&mut out, items.iter().map(Scalar::of), false);
            assert_eq!(String::from_utf8(out).unwrap(), *expected, "{items:?}");
        }
    }
}

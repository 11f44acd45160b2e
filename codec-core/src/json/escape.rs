//! JSON strings: the escapes JSON requires, written as `serde_json` writes
//! them, and the extra ones a [`JsonEscapes`] asks for.

/// Which characters a [`JsonWriter`](crate::json::JsonWriter) writes as
/// `\uXXXX` besides the ones JSON requires.
///
/// JSON's own escapes are always written, exactly as `serde_json` writes
/// them: `\"`, `\\`, `\b`, `\f`, `\n`, `\r`, `\t`, and `\u00XX` for the
/// other control characters. A format that embeds JSON implements this for
/// the characters it must never see raw: codec-md's dense profile escapes
/// backticks (its JSON sits in code spans), `|` (and in table cells) and
/// the characters markdown never writes raw. A reader of the JSON gets the
/// same strings back either way.
///
/// ```
/// use codec_core::json::{JsonEscapes, JsonWriter};
///
/// /// `<` as `\u003c`, so the JSON can sit in an HTML `<script>`.
/// #[derive(Clone, Copy)]
/// struct ScriptSafe;
///
/// impl JsonEscapes for ScriptSafe {
///     const NON_ASCII: bool = false;
///     fn escapes(self, c: char) -> bool {
///         c == '<'
///     }
/// }
///
/// let mut out = Vec::new();
/// JsonWriter::compact().escapes(ScriptSafe).write_str("</script>\n", &mut out);
/// assert_eq!(out, br#""\u003c/script>\n""#);
/// ```
pub trait JsonEscapes: Copy {
    /// Whether [`escapes`](JsonEscapes::escapes) can be true for a
    /// character outside ASCII. When false, the writer copies non-ASCII
    /// text without decoding it.
    const NON_ASCII: bool;

    /// Whether [`escapes`](JsonEscapes::escapes) can be true for an ASCII
    /// character (true unless set). When neither this nor
    /// [`NON_ASCII`](JsonEscapes::NON_ASCII) is, only JSON's own escapes
    /// are written, and the writer skips plain text eight bytes at a time.
    const ASCII: bool = true;

    /// The ASCII characters [`escapes`](JsonEscapes::escapes) can be true
    /// for, when they can be listed (`None`, the default, when not). With
    /// a list the writer skips text eight bytes at a time while it holds
    /// none of them, none of JSON's escapes and (when
    /// [`NON_ASCII`](JsonEscapes::NON_ASCII)) no byte beyond ASCII, and
    /// asks `escapes` about the rest; an ASCII character left off the
    /// list may then be written raw whatever `escapes` says of it. Each
    /// listed byte costs the scan a few instructions per eight bytes.
    const ASCII_ESCAPED: Option<&'static [u8]> = None;

    /// Whether `c` is written `\uXXXX` (a surrogate pair of them above
    /// U+FFFF). Asked only about characters JSON lets through raw.
    fn escapes(self, c: char) -> bool;
}

/// JSON's own escapes and nothing else: `serde_json`'s output.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct StandardEscapes;

impl JsonEscapes for StandardEscapes {
    const NON_ASCII: bool = false;
    const ASCII: bool = false;

    #[inline]
    fn escapes(self, _: char) -> bool {
        false
    }
}

// Which bytes JSON requires escaped, and how: 0 for none, b'u' for
// \u00XX, otherwise the letter after the backslash. The same table as
// serde_json's.
const __: u8 = 0;
const UU: u8 = b'u';
static ESCAPE: [u8; 256] = {
    let mut table = [__; 256];
    let mut i = 0;
    while i < 0x20 {
        table[i] = UU;
        i += 1;
    }
    table[0x08] = b'b';
    table[0x09] = b't';
    table[0x0A] = b'n';
    table[0x0C] = b'f';
    table[0x0D] = b'r';
    table[b'"' as usize] = b'"';
    table[b'\\' as usize] = b'\\';
    table
};

/// Writes `s` as a JSON string, quotes included: JSON's escapes, then
/// `\uXXXX` for what `escapes` asks.
///
/// The loop only looks. When what may need an escape is known (JSON's
/// own escapes, plus [`JsonEscapes::ASCII_ESCAPED`] and, with
/// [`JsonEscapes::NON_ASCII`], every byte beyond ASCII) it skips eight
/// bytes at a time to the first that may ([`attention_mask`]); otherwise
/// it makes one table lookup per byte. Only the lead bytes of non-ASCII
/// characters are looked at further, when `E` may escape one. Writing an
/// escape is out of line ([`write_escape`]): in
/// the loop, its registers pushed the table's address out of one.
///
/// A string over [`LONG`] bytes is written out of line
/// ([`write_long_str`]); with JSON's own escapes only (an MCP result's
/// markdown text), by [`write_long_standard`], which copies the short
/// runs between escapes as fixed-size windows.
#[inline(always)]
pub(crate) fn write_str<E: JsonEscapes>(out: &mut Vec<u8>, s: &str, escapes: E) {
    if s.len() > LONG {
        write_long_str(out, s, escapes);
    } else {
        write_str_here::<E, false>(out, s, escapes);
    }
}

/// Strings longer than this are written out of line ([`write_long_str`]).
const LONG: usize = 256;

/// [`write_str`] of a long string (a markdown text in an MCP result), out
/// of line: the writer inlined at every call stays small, the short
/// strings', and the long ones keep the indexed scan.
#[inline(never)]
fn write_long_str<E: JsonEscapes>(out: &mut Vec<u8>, s: &str, escapes: E) {
    if !E::ASCII && !E::NON_ASCII {
        write_long_standard(out, s);
    } else {
        write_str_here::<E, true>(out, s, escapes);
    }
}

/// A long string with JSON's own escapes only: scanned eight bytes at a
/// time, and each run before an escape copied as a fixed 24 bytes cut
/// back when it is shorter. A markdown text has a line feed to escape
/// every 20-odd bytes, and the call that copied each line cost as much
/// as finding its end.
fn write_long_standard(out: &mut Vec<u8>, s: &str) {
    out.reserve(s.len() + 2);
    out.push(b'"');
    let bytes = s.as_bytes();
    // The first byte not written yet.
    let mut start = 0;
    let mut rest = bytes;
    while let Some((chunk, tail)) = rest.split_first_chunk::<8>() {
        let mask = json_escape_mask(u64::from_le_bytes(*chunk));
        if mask == 0 {
            rest = tail;
            continue;
        }
        // The lowest flag is exact: the first byte to escape.
        let at = bytes.len() - rest.len() + (mask.trailing_zeros() / 8) as usize;
        copy_run(out, bytes, start, at);
        write_json_escape(out, bytes[at]);
        start = at + 1;
        rest = bytes.get(start..).unwrap_or_default();
    }
    let tail = bytes.len() - rest.len();
    for (at, &b) in rest.iter().enumerate() {
        if ESCAPE[usize::from(b)] != __ {
            copy_run(out, bytes, start, tail + at);
            write_json_escape(out, b);
            start = tail + at + 1;
        }
    }
    out.extend_from_slice(bytes.get(start..).unwrap_or_default());
    out.push(b'"');
}

/// Appends `bytes[start..end]`: a short run as the fixed 24 bytes from
/// `start`, cut back (when the string has them), a longer one as it is.
#[inline(always)]
fn copy_run(out: &mut Vec<u8>, bytes: &[u8], start: usize, end: usize) {
    let len = end - start;
    if len <= 24
        && let Some(window) = bytes.get(start..).and_then(<[u8]>::first_chunk::<24>)
    {
        out.extend_from_slice(window);
        out.truncate(out.len() - (24 - len));
        return;
    }
    out.extend_from_slice(&bytes[start..end]);
}

/// JSON's escape of `b`, a byte it escapes (a control character, `"` or
/// `\\`).
#[inline(always)]
fn write_json_escape(out: &mut Vec<u8>, b: u8) {
    match ESCAPE[usize::from(b)] {
        UU => write_unicode_escape(out, char::from(b)),
        escape => out.extend_from_slice(&[b'\\', escape]),
    }
}

/// [`write_str`]'s loop, with the eight-byte scan `LONG_SCAN` picks:
/// [`scan_indexed`] for long strings, [`scan_sliced`] for the others.
#[inline(always)]
fn write_str_here<E: JsonEscapes, const LONG_SCAN: bool>(out: &mut Vec<u8>, s: &str, escapes: E) {
    // Room for the string and its quotes at once: most strings need no
    // escape, and then nothing below grows the buffer again.
    out.reserve(s.len() + 2);
    out.push(b'"');
    let bytes = s.as_bytes();
    let mut start = 0;
    let mut i = 0;
    // Eight bytes at a time, when what may need a look is known.
    let scan = (!E::ASCII && !E::NON_ASCII) || E::ASCII_ESCAPED.is_some();
    while i < bytes.len() {
        if scan {
            // While none of eight bytes needs a look: a byte-at-a-time
            // loop was most of the time of writing a string, with JSON's
            // escapes and with codec-md's (JSON cells, fences) alike.
            let found = match LONG_SCAN {
                true => scan_indexed::<E>(bytes, &mut i),
                false => scan_sliced::<E>(bytes, &mut i),
            };
            if found {
                let escape = ESCAPE[usize::from(bytes[i])];
                if escape != __ && escape != UU {
                    // `\n`, `\"` and the other short escapes, written here:
                    // a markdown text in an MCP result has one a line, and
                    // a call to `write_escape` for each would cost more
                    // than the escape.
                    out.extend_from_slice(&bytes[start..i]);
                    out.extend_from_slice(&[b'\\', escape]);
                    i += 1;
                    start = i;
                    continue;
                }
                // Anything else flagged is looked at below.
            } else {
                // Fewer than eight bytes left: one test of the string's
                // last eight (the bytes before `i` it shares passed one,
                // unless one was flagged and needed nothing), or of the
                // whole string padded with a plain byte, instead of a
                // lookup per byte. Keys are short, so this tail is a large
                // share of writing them.
                if bytes.len() - i < 8 && attention_mask::<E>(last_word(bytes)) == 0 {
                    break;
                }
                if i >= bytes.len() {
                    break;
                }
            }
        }
        let b = bytes[i];
        let candidate = ESCAPE[usize::from(b)] != __
            || (b < 0x80 && escapes.escapes(char::from(b)))
            || (E::NON_ASCII && b >= 0xC0);
        if candidate && let Some(next) = write_escape(out, s, start, i, escapes) {
            start = next;
            i = next;
            continue;
        }
        i += 1;
    }
    out.extend_from_slice(&bytes[start..]);
    out.push(b'"');
}

/// Moves `i` to the first byte from `i` on that may need a look, eight
/// bytes at a time, and says whether one was found (false: fewer than
/// eight bytes are left from `i`, none of them looked at). The scan of
/// long strings: an index and a bound per chunk.
#[inline(always)]
fn scan_indexed<E: JsonEscapes>(bytes: &[u8], i: &mut usize) -> bool {
    while let Some(chunk) = bytes.get(*i..*i + 8) {
        let mask = attention_mask::<E>(u64::from_le_bytes(chunk.try_into().unwrap_or([0; 8])));
        if mask != 0 {
            // The lowest flagged byte is one that needs a look (a borrow
            // only flags bytes above it): no byte-by-byte search for it.
            *i += (mask.trailing_zeros() / 8) as usize;
            return true;
        }
        *i += 8;
    }
    false
}

/// [`scan_indexed`], walking a slice: one comparison per chunk, but more
/// to set up and to finish. It suits short strings (keys, values); a
/// markdown text, with a line feed to escape every 20-odd bytes, is
/// cheaper with the indexed scan.
#[inline(always)]
fn scan_sliced<E: JsonEscapes>(bytes: &[u8], i: &mut usize) -> bool {
    let mut rest = bytes.get(*i..).unwrap_or_default();
    let mut mask = 0;
    while let Some((chunk, tail)) = rest.split_first_chunk::<8>() {
        mask = attention_mask::<E>(u64::from_le_bytes(*chunk));
        if mask != 0 {
            break;
        }
        rest = tail;
    }
    *i = bytes.len() - rest.len();
    if mask == 0 {
        return false;
    }
    *i += (mask.trailing_zeros() / 8) as usize;
    true
}

/// The last eight bytes of `bytes` as a word; a shorter `bytes` padded
/// after its end with `a`, which needs no escape.
#[inline]
fn last_word(bytes: &[u8]) -> u64 {
    match bytes.len().checked_sub(8) {
        Some(start) => u64::from_le_bytes(bytes[start..].try_into().unwrap_or([0; 8])),
        None => {
            let mut word = [b'a'; 8];
            word[..bytes.len()].copy_from_slice(bytes);
            u64::from_le_bytes(word)
        }
    }
}

/// A byte of ones, and the high bit of every byte, in a word of eight.
const ONES: u64 = 0x0101_0101_0101_0101;
const HIGH: u64 = 0x8080_8080_8080_8080;

/// The high bit of each byte of `word` below `n`, by the usual bit trick:
/// such a byte sets its high bit in `word - n` and not in `word`. The
/// lowest one set is exact; a borrow may flag bytes above it.
#[inline(always)]
fn below(word: u64, n: u8) -> u64 {
    word.wrapping_sub(ONES * u64::from(n)) & !word & HIGH
}

/// The high bit of each byte of `word` equal to `b` ([`below`] 1 of the
/// word with `b` taken out), the lowest one exact.
#[inline(always)]
fn equal_to(word: u64, b: u8) -> u64 {
    below(word ^ (ONES * u64::from(b)), 1)
}

/// The high bit of each byte of `word` that may need an escape (a
/// control character, `"` or `\\`): the lowest one set is exactly the
/// first byte that does (bytes above it may be flagged by a borrow).
#[inline]
fn json_escape_mask(word: u64) -> u64 {
    below(word, 0x20) | equal_to(word, b'"') | equal_to(word, b'\\')
}

/// The high bit of each byte of `word` that may need a look by `E`: one
/// JSON escapes, one of [`JsonEscapes::ASCII_ESCAPED`], and with
/// [`JsonEscapes::NON_ASCII`] any byte beyond ASCII. As with
/// [`json_escape_mask`], the lowest one set is exactly the first such
/// byte.
#[inline(always)]
fn attention_mask<E: JsonEscapes>(word: u64) -> u64 {
    let mut mask = json_escape_mask(word);
    if E::NON_ASCII {
        mask |= word & HIGH;
    }
    if let Some(escaped) = E::ASCII_ESCAPED {
        for &b in escaped {
            mask |= equal_to(word, b);
        }
    }
    mask
}

/// Writes `s[start..at]` and the escape of the character at `at`, and
/// returns where the text after it starts; or, when that character needs
/// no escape, writes nothing and returns `None`.
#[inline(never)]
fn write_escape<E: JsonEscapes>(
    out: &mut Vec<u8>,
    s: &str,
    start: usize,
    at: usize,
    escapes: E,
) -> Option<usize> {
    let bytes = s.as_bytes();
    let b = bytes[at];
    let escape = ESCAPE[usize::from(b)];
    // `at` is a character boundary: an ASCII byte or a lead byte.
    let c = match s.get(at..).and_then(|rest| rest.chars().next()) {
        Some(c) if escape != __ || escapes.escapes(c) => c,
        // A character nothing escapes: copied later with the rest.
        _ => return None,
    };
    out.extend_from_slice(&bytes[start..at]);
    if escape == __ || escape == UU {
        write_unicode_escape(out, c);
    } else {
        out.extend_from_slice(&[b'\\', escape]);
    }
    Some(at + c.len_utf8())
}

/// `\uXXXX`, lower-case hex, one per UTF-16 unit.
fn write_unicode_escape(out: &mut Vec<u8>, c: char) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut units = [0u16; 2];
    for &mut unit in c.encode_utf16(&mut units) {
        out.extend_from_slice(b"\\u");
        for shift in [12, 8, 4, 0] {
            out.push(HEX[usize::from((unit >> shift) & 0xF)]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_like_serde_json() {
        let cases = [
            "",
            "plain",
            "quote \" backslash \\ slash /",
            "\u{0}\u{1}\u{8}\t\n\u{b}\u{c}\r\u{1f} \u{7f}",
            "é ü 日本 😀 \u{2028} \u{85}",
        ];
        for s in cases {
            let mut out = Vec::new();
            write_str(&mut out, s, StandardEscapes);
            assert_eq!(
                String::from_utf8(out).unwrap(),
                serde_json::to_string(s).unwrap(),
                "{s:?}"
            );
        }
    }

    /// Backticks, DEL and two ranges outside ASCII, as an embedding format
    /// would ask.
    #[derive(Clone, Copy)]
    struct Extra;

    impl JsonEscapes for Extra {
        const NON_ASCII: bool = true;
        fn escapes(self, c: char) -> bool {
            matches!(c, '`' | '\u{7f}' | '\u{80}'..='\u{9f}' | '\u{1f600}')
        }
    }

    /// [`Extra`] with its ASCII characters listed: the eight-byte scan.
    #[derive(Clone, Copy)]
    struct ExtraListed;

    impl JsonEscapes for ExtraListed {
        const NON_ASCII: bool = true;
        const ASCII_ESCAPED: Option<&'static [u8]> = Some(b"`\x7f");
        fn escapes(self, c: char) -> bool {
            Extra.escapes(c)
        }
    }

    #[test]
    fn escapes_what_it_is_asked_to() {
        let cases: &[(&str, &str)] = &[
            ("plain é", r#""plain é""#),
            ("a`b", r#""a\u0060b""#),
            // JSON's own escapes keep their short forms.
            ("\n\t\u{8}\"\\", r#""\n\t\b\"\\""#),
            ("\u{7f}\u{85}\u{a0}", "\"\\u007f\\u0085\u{a0}\""),
            ("x😀y😁", "\"x\\ud83d\\ude00y😁\""),
        ];
        for (s, expected) in cases {
            let mut out = Vec::new();
            write_str(&mut out, s, Extra);
            assert_eq!(String::from_utf8(out).unwrap(), *expected, "{s:?}");
            let mut listed = Vec::new();
            write_str(&mut listed, s, ExtraListed);
            assert_eq!(String::from_utf8(listed).unwrap(), *expected, "{s:?}");
            // Any JSON reader gets the same string back.
            assert_eq!(
                serde_json::from_str::<String>(expected).unwrap(),
                *s,
                "{s:?}"
            );
        }
    }

    proptest::proptest! {
        /// The eight-byte test says what a byte-by-byte one says, and
        /// its lowest flag is at the first byte that needs an escape.
        #[test]
        fn words_need_escapes_exactly_when_a_byte_does(bytes in proptest::array::uniform8(0u8..)) {
            let bytewise = bytes.iter().any(|&b| ESCAPE[usize::from(b)] != __);
            let word = u64::from_le_bytes(bytes);
            proptest::prop_assert_eq!(json_escape_mask(word) != 0, bytewise);
            let first = bytes.iter().position(|&b| ESCAPE[usize::from(b)] != __);
            let flagged = (json_escape_mask(word) != 0)
                .then(|| (json_escape_mask(word).trailing_zeros() / 8) as usize);
            proptest::prop_assert_eq!(flagged, first);
        }

        /// Any string, with or without extra escapes: valid JSON that reads
        /// back as the string, no escaped character left raw, and
        /// serde_json's bytes when nothing extra is asked.
        #[test]
        fn any_string_reads_back(s in "(\\PC|[\u{0}-\u{1f}`\u{7f}-\u{9f}\u{1f600}])*") {
            let mut standard = Vec::new();
            write_str(&mut standard, &s, StandardEscapes);
            proptest::prop_assert_eq!(&standard, &serde_json::to_vec(&s).unwrap());
            let mut extra = Vec::new();
            write_str(&mut extra, &s, Extra);
            let text = String::from_utf8(extra).unwrap();
            proptest::prop_assert_eq!(serde_json::from_str::<String>(&text).unwrap(), s.clone());
            proptest::prop_assert!(!text.chars().any(|c| Extra.escapes(c)), "{}", text);
            // The eight-byte scan writes what the byte-by-byte loop does.
            let mut listed = Vec::new();
            write_str(&mut listed, &s, ExtraListed);
            proptest::prop_assert_eq!(listed, text.as_bytes());
        }

        /// Lines of text (a markdown text in an MCP result: runs of every
        /// length between escapes) as serde_json writes them.
        #[test]
        fn lines_of_text(lines in proptest::collection::vec("[a-z \"\\\\\t]{0,40}", 0..60)) {
            let text = lines.join("\n");
            let mut out = Vec::new();
            write_str(&mut out, &text, StandardEscapes);
            proptest::prop_assert_eq!(out, serde_json::to_vec(&text).unwrap());
        }

        /// Long strings (written out of line, with the other scan) as
        /// serde_json writes them, and both scans alike on any string.
        #[test]
        fn long_strings_and_both_scans(s in "(\\PC|[\u{0}-\u{1f}\"\\\\`\u{7f}-\u{9f}])*", times in 1usize..40) {
            let long = s.repeat(times);
            let mut out = Vec::new();
            write_str(&mut out, &long, StandardEscapes);
            proptest::prop_assert_eq!(&out, &serde_json::to_vec(&long).unwrap());
            for s in [&s, &long] {
                let (mut indexed, mut sliced) = (Vec::new(), Vec::new());
                write_str_here::<_, true>(&mut indexed, s, ExtraListed);
                write_str_here::<_, false>(&mut sliced, s, ExtraListed);
                proptest::prop_assert_eq!(&indexed, &sliced);
                let (mut indexed, mut sliced) = (Vec::new(), Vec::new());
                write_str_here::<_, true>(&mut indexed, s, StandardEscapes);
                write_str_here::<_, false>(&mut sliced, s, StandardEscapes);
                proptest::prop_assert_eq!(indexed, sliced);
            }
        }
    }
}

//! The `Accept` parser (RFC 9110 §12.5.1 and §5.6): one linear pass over
//! the bytes of a field line, no regex, no allocation.
//!
//! Lenient per element: an element that does not parse is reported as
//! skipped and parsing resumes after the next comma that is not inside a
//! quoted string; the rest of the header still counts. What is read:
//!
//! - empty list elements (`a/b,,c/d`, leading and trailing commas) are
//!   ignored, as §5.6.1 requires of recipients;
//! - optional whitespace (space, tab) around `,` and `;`; none around `=`
//!   (an element with `q = 1` is skipped);
//! - type, subtype and parameter names are tokens, compared
//!   case-insensitively by the matcher; a bare `*` is read as `*/*`;
//!   `*/subtype` is skipped;
//! - parameter values are tokens or quoted strings with `\` escapes;
//!   commas and semicolons inside quotes do not split;
//! - the first `q` parameter (any case) is the weight, read by
//!   [`Quality::parse`] from everything up to the next delimiter (so
//!   `q=`, `q=0.5@` and a quoted `q` are malformed weights, not skipped
//!   elements); parameters after it are the obsolete `accept-ext` and are
//!   ignored;
//! - at most [`MAX_PARAMS`] media-type parameters per element: an element
//!   with more is skipped.
//!
//! The element cap ([`MAX_ELEMENTS`]) is applied by the negotiator across
//! all the `Accept` lines of a request.

use crate::quality::Quality;

/// The most non-empty elements read from one request's `Accept` lines;
/// later ones are ignored. Real headers have fewer than 15 (Firefox sends
/// 6); the cap bounds the work an adversarial header can cause at
/// elements × offers.
pub const MAX_ELEMENTS: usize = 64;

/// The most media-type parameters (not counting `q`) one `Accept` element
/// may carry; an element with more is skipped whole (its other ranges
/// still count). Not truncated to its first eight: a range's parameters
/// narrow what it matches (`text/markdown; variant=CommonMark`), so
/// dropping one would make it match a type the client excluded.
pub const MAX_PARAMS: usize = 8;

/// A media-type parameter of a range, as it appears in the header.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Param<'h> {
    pub(crate) name: &'h [u8],
    /// The token, or the content of the quoted string with its escapes.
    pub(crate) value: &'h [u8],
    pub(crate) quoted: bool,
}

impl<'h> Param<'h> {
    /// The value's bytes with quoted-pair escapes removed.
    pub(crate) fn value_bytes(&self) -> impl Iterator<Item = u8> + use<'h> {
        let quoted = self.quoted;
        let mut bytes = self.value.iter().copied();
        std::iter::from_fn(move || {
            let b = bytes.next()?;
            if quoted && b == b'\\' {
                bytes.next()
            } else {
                Some(b)
            }
        })
    }
}

/// One media range with its weight.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Range<'h> {
    /// `*` for any type.
    pub(crate) type_: &'h [u8],
    /// `*` for any subtype.
    pub(crate) subtype: &'h [u8],
    params: [Param<'h>; MAX_PARAMS],
    param_count: u8,
    pub(crate) quality: Quality,
}

impl<'h> Range<'h> {
    /// An empty range, to be filled by [`Elements::next_into`].
    pub(crate) const EMPTY: Range<'static> = Range {
        type_: b"",
        subtype: b"",
        params: [Param {
            name: b"",
            value: b"",
            quoted: false,
        }; MAX_PARAMS],
        param_count: 0,
        quality: Quality::ONE,
    };

    /// The media-type parameters, `q` and extensions excluded.
    pub(crate) fn params(&self) -> &[Param<'h>] {
        &self.params[..usize::from(self.param_count)]
    }

    /// How specific the range is: `*/*` < `type/*` < `type/subtype`, and
    /// within each, more parameters is more specific (`text/plain;
    /// format=flowed` beats `text/plain`).
    pub(crate) fn specificity(&self) -> u8 {
        let level = if self.type_ == b"*" {
            0
        } else if self.subtype == b"*" {
            1
        } else {
            2
        };
        level * (MAX_PARAMS as u8 + 1) + self.param_count
    }
}

/// The elements of one `Accept` field line, in order: `Some(range)` for
/// each element that parsed, `None` for each one skipped. Empty elements
/// are not yielded.
#[derive(Debug)]
pub(crate) struct Elements<'h> {
    input: &'h [u8],
    pos: usize,
}

impl<'h> Elements<'h> {
    pub(crate) fn new(input: &'h [u8]) -> Elements<'h> {
        Elements { input, pos: 0 }
    }

    fn peek(&self) -> Option<u8> {
        self.input.get(self.pos).copied()
    }

    fn skip_ows(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t')) {
            self.pos += 1;
        }
    }

    fn token(&mut self) -> Result<&'h [u8], Skip> {
        let start = self.pos;
        while self.peek().is_some_and(is_tchar) {
            self.pos += 1;
        }
        if self.pos == start {
            Err(Skip)
        } else {
            Ok(&self.input[start..self.pos])
        }
    }

    /// A token or a quoted string; for a quoted string, the bytes between
    /// the quotes (escapes kept) and `true`.
    fn value(&mut self) -> Result<(&'h [u8], bool), Skip> {
        if self.peek() != Some(b'"') {
            return Ok((self.token()?, false));
        }
        self.pos += 1;
        let start = self.pos;
        loop {
            match self.peek() {
                Some(b'"') => {
                    let value = &self.input[start..self.pos];
                    self.pos += 1;
                    return Ok((value, true));
                }
                Some(b'\\') => match self.input.get(self.pos + 1) {
                    Some(&c) if is_quoted_pair_char(c) => self.pos += 2,
                    _ => return Err(Skip),
                },
                Some(c) if is_qdtext(c) => self.pos += 1,
                _ => return Err(Skip),
            }
        }
    }

    /// The value of `q`: everything up to the next delimiter, so that a
    /// broken weight (`q=`, `q=0.5@`, `q="1"`) is a malformed weight on a
    /// range that still counts, not a skipped element (which would let a
    /// wildcard's weight apply instead).
    fn weight(&mut self) -> Result<Quality, Skip> {
        if self.peek() == Some(b'"') {
            self.value()?;
            return Ok(Quality::MALFORMED);
        }
        let start = self.pos;
        while !matches!(self.peek(), None | Some(b',' | b';' | b' ' | b'\t' | b'"')) {
            self.pos += 1;
        }
        Ok(Quality::parse(&self.input[start..self.pos]))
    }

    /// Parses one element into `range`, which is reused from element to
    /// element: moving a `Range` (over 300 bytes) per element is a large
    /// share of a negotiation's work.
    fn element(&mut self, range: &mut Range<'h>) -> Result<(), Skip> {
        let type_ = self.token()?;
        let subtype = if self.peek() == Some(b'/') {
            self.pos += 1;
            self.token()?
        } else if type_ == b"*" {
            // A bare `*` (Java's default `Accept` sends one) means `*/*`.
            b"*"
        } else {
            return Err(Skip);
        };
        if type_ == b"*" && subtype != b"*" {
            return Err(Skip);
        }
        range.type_ = type_;
        range.subtype = subtype;
        range.param_count = 0;
        range.quality = Quality::ONE;
        let mut after_q = false;
        loop {
            self.skip_ows();
            match self.peek() {
                None => return Ok(()),
                Some(b',') => {
                    self.pos += 1;
                    return Ok(());
                }
                Some(b';') => self.pos += 1,
                Some(_) => return Err(Skip),
            }
            self.skip_ows();
            if matches!(self.peek(), None | Some(b',' | b';')) {
                // An empty parameter: `a/b;;c=d` and `a/b;` are allowed.
                continue;
            }
            let name = self.token()?;
            if self.peek() != Some(b'=') {
                return Err(Skip);
            }
            self.pos += 1;
            if !after_q && name.eq_ignore_ascii_case(b"q") {
                range.quality = self.weight()?;
                after_q = true;
                continue;
            }
            let (value, quoted) = self.value()?;
            if after_q {
                continue;
            }
            {
                let slot = range.params.get_mut(usize::from(range.param_count));
                *slot.ok_or(Skip)? = Param {
                    name,
                    value,
                    quoted,
                };
                range.param_count += 1;
            }
        }
    }

    /// Moves past the element that started at `start`: after the next
    /// comma outside a quoted string. When a quote is never closed, the
    /// element ends at the first comma after that quote, so one stray
    /// quote cannot swallow the rest of the header.
    fn recover(&mut self, start: usize) {
        let input = self.input;
        let mut i = start;
        let mut open_quote = None;
        while i < input.len() {
            match (input[i], open_quote) {
                (b'\\', Some(_)) => i += 1,
                (b'"', Some(_)) => open_quote = None,
                (b'"', None) => open_quote = Some(i),
                (b',', None) => {
                    self.pos = i + 1;
                    return;
                }
                _ => {}
            }
            i += 1;
        }
        self.pos = match open_quote {
            Some(quote) => input[quote..]
                .iter()
                .position(|&b| b == b',')
                .map_or(input.len(), |comma| quote + comma + 1),
            None => input.len(),
        };
    }
}

/// Why an element was skipped (kept private: the negotiator only counts).
#[derive(Debug)]
struct Skip;

impl<'h> Elements<'h> {
    /// Parses the next non-empty element into `range`: `Some(true)` when
    /// it parsed, `Some(false)` when it was skipped (`range` then holds
    /// garbage), `None` at the end of the line.
    pub(crate) fn next_into(&mut self, range: &mut Range<'h>) -> Option<bool> {
        loop {
            self.skip_ows();
            match self.peek()? {
                b',' => self.pos += 1,
                _ => break,
            }
        }
        let start = self.pos;
        match self.element(range) {
            Ok(()) => Some(true),
            Err(Skip) => {
                self.recover(start);
                Some(false)
            }
        }
    }
}

/// For the tests: each element as an owned `Range`.
#[cfg(test)]
impl<'h> Iterator for Elements<'h> {
    type Item = Option<Range<'h>>;

    fn next(&mut self) -> Option<Option<Range<'h>>> {
        let mut range = Range::EMPTY;
        let parsed = self.next_into(&mut range)?;
        Some(parsed.then_some(range))
    }
}

/// RFC 9110 §5.6.2 `tchar`, as a table: the hottest test of the parser.
pub(crate) fn is_tchar(b: u8) -> bool {
    TCHAR[usize::from(b)]
}

static TCHAR: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        table[b] = c.is_ascii_alphanumeric()
            || matches!(
                c,
                b'!' | b'#'
                    | b'$'
                    | b'%'
                    | b'&'
                    | b'\''
                    | b'*'
                    | b'+'
                    | b'-'
                    | b'.'
                    | b'^'
                    | b'_'
                    | b'`'
                    | b'|'
                    | b'~'
            );
        b += 1;
    }
    table
};

/// RFC 9110 §5.6.4 `qdtext`, obs-text included.
fn is_qdtext(b: u8) -> bool {
    matches!(b, b'\t' | b' ' | 0x21 | 0x23..=0x5b | 0x5d..=0x7e | 0x80..=0xff)
}

/// What may follow `\` in a quoted string: HTAB, SP, VCHAR, obs-text.
fn is_quoted_pair_char(b: u8) -> bool {
    matches!(b, b'\t' | b' ' | 0x21..=0x7e | 0x80..=0xff)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Renders what was parsed: `type/subtype;name=value;q=Q` for each
    /// element, `!` for a skipped one, joined by `,`.
    fn render(input: &str) -> String {
        Elements::new(input.as_bytes())
            .map(|element| match element {
                None => "!".to_owned(),
                Some(range) => {
                    let mut out = format!(
                        "{}/{}",
                        String::from_utf8_lossy(range.type_),
                        String::from_utf8_lossy(range.subtype)
                    );
                    for p in range.params() {
                        let value: Vec<u8> = p.value_bytes().collect();
                        out.push_str(&format!(
                            ";{}={}",
                            String::from_utf8_lossy(p.name),
                            String::from_utf8_lossy(&value)
                        ));
                    }
                    if range.quality != Quality::ONE {
                        out.push_str(&format!(";q={}", range.quality));
                    }
                    out
                }
            })
            .collect::<Vec<_>>()
            .join(",")
    }

    #[test]
    fn parses_elements() {
        let cases: &[(&str, &str)] = &[
            ("", ""),
            ("   ", ""),
            (",", ""),
            (" , ,\t,", ""),
            ("text/html", "text/html"),
            ("Text/HTML", "Text/HTML"),
            ("*/*", "*/*"),
            ("*", "*/*"),
            ("*; q=.2", "*/*;q=malformed"),
            ("text/*", "text/*"),
            ("a/b,c/d", "a/b,c/d"),
            (",a/b,,c/d,", "a/b,c/d"),
            ("a/b ; q=0.5 , c/d", "a/b;q=0.5,c/d"),
            ("a/b\t;\tq=0.5\t,\tc/d", "a/b;q=0.5,c/d"),
            ("a/b;x=1;y=\"two words\"", "a/b;x=1;y=two words"),
            ("a/b;x=\"a,b;c\", c/d", "a/b;x=a,b;c,c/d"),
            ("a/b;x=\"q\\\"uote\\\\\"", "a/b;x=q\"uote\\"),
            ("a/b;;x=1;", "a/b;x=1"),
            ("a/b; Q=0", "a/b;q=0"),
            ("a/b;q=0.5;ext=1;q=1", "a/b;q=0.5"),
            ("a/b;q=\"0.5\"", "a/b;q=malformed"),
            ("a/b;q=2", "a/b;q=malformed"),
            ("a/b;q=", "a/b;q=malformed"),
            ("a/b;q=;x=1", "a/b;q=malformed"),
            ("a/b;q=0.5@, c/d", "a/b;q=malformed,c/d"),
            ("a/b;q=0,5", "a/b;q=0,!"),
            // Bad elements are skipped, never the whole header.
            ("a/b, nonsense, c/d", "a/b,!,c/d"),
            ("a, c/d", "!,c/d"),
            ("*/b, c/d", "!,c/d"),
            ("a/, c/d", "!,c/d"),
            ("/b, c/d", "!,c/d"),
            ("a/b c, c/d", "!,c/d"),
            ("a/b;x, c/d", "!,c/d"),
            ("a/b;x=, c/d", "!,c/d"),
            ("a/b;=1, c/d", "!,c/d"),
            ("a/b;q = 1, c/d", "!,c/d"),
            ("a/b;x=\"bad\x01\", c/d", "!,c/d"),
            ("a/b;x=\"ok, y\" junk, c/d", "!,c/d"),
            ("a/b;x=\"1\"junk, c/d", "!,c/d"),
            // An unterminated quote ends the element at the next comma.
            ("a/b;x=\"open, c/d", "!,c/d"),
            ("a/b;x=\"op\\\"en, c/d", "!,c/d"),
            ("text/h\u{e9}ml, c/d", "!,c/d"),
            ("a/b;x=\"caf\u{e9}\"", "a/b;x=caf\u{e9}"),
        ];
        for (input, expected) in cases {
            assert_eq!(render(input), *expected, "Accept: {input:?}");
        }
    }

    #[test]
    fn caps_parameters() {
        let eight = "a/b;p1=1;p2=2;p3=3;p4=4;p5=5;p6=6;p7=7;p8=8;q=0.5";
        assert_eq!(render(eight).matches(';').count(), 9);
        let nine = "a/b;p1=1;p2=2;p3=3;p4=4;p5=5;p6=6;p7=7;p8=8;p9=9, c/d";
        assert_eq!(render(nine), "!,c/d");
    }

    #[test]
    fn orders_specificity() {
        let spec = |input: &str| {
            Elements::new(input.as_bytes())
                .next()
                .flatten()
                .unwrap()
                .specificity()
        };
        let ordered = [
            "*/*",
            "*/*;a=1",
            "text/*",
            "text/*;a=1",
            "text/plain",
            "text/plain;format=flowed",
            "text/plain;format=flowed;a=1",
        ];
        for pair in ordered.windows(2) {
            assert!(spec(pair[0]) < spec(pair[1]), "{} < {}", pair[0], pair[1]);
        }
        assert_eq!(spec("text/plain;q=0.5;ext=1"), spec("text/plain"));
    }
}

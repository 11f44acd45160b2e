//! The dense profile's JSON (fenced `json` blocks and JSON cells):
//! codec-core's [`JsonWriter`], compact.
//!
//! The output is exact JSON: keys in source order, numbers verbatim.
//! Strings are escaped as JSON requires, and also, as `\uXXXX`, the
//! characters markdown never holds raw (R1 of `ESCAPING.md`: controls,
//! DEL, invisible and bidi characters). A fence holds the rest as it is
//! (its fence is longer than any backtick run in it); a JSON cell, a code
//! span in a table row, also escapes backticks (they could close the
//! span) and `|` (it could end the cell) ([`MarkdownSafe`]). A JSON
//! reader gets the same strings back; the markdown needs no escaping at
//! all around it.

use codec_core::{
    EncodeError, ValueView,
    json::{JsonEscapes, JsonWriter},
    view::ViewKind,
};

use super::escape;
use super::estimate::{Estimate, Word, estimate_hundredths};
use super::keys::KeyTable;

/// What a JSON cell writes `\uXXXX` besides JSON's own escapes: a
/// backtick, `|`, and the characters markdown never holds raw.
#[derive(Debug, Clone, Copy)]
struct MarkdownSafe;

/// What a fenced `json` block writes `\uXXXX` besides JSON's own escapes:
/// the characters markdown never holds raw.
#[derive(Debug, Clone, Copy)]
struct FenceSafe;

impl JsonEscapes for FenceSafe {
    const NON_ASCII: bool = true;
    /// Of ASCII, JSON escapes the controls but DEL.
    const ASCII_ESCAPED: Option<&'static [u8]> = Some(b"\x7f");

    #[inline]
    fn escapes(self, c: char) -> bool {
        escape::is_never_raw(c)
    }
}

/// [`MarkdownSafe`] for ASCII, one lookup per byte.
static ASCII: [bool; 128] = {
    let mut table = [false; 128];
    let mut b = 0;
    while b < 128 {
        let c = b as u8 as char;
        table[b] = c == '`' || c == '|' || escape::is_never_raw(c);
        b += 1;
    }
    table
};

impl JsonEscapes for MarkdownSafe {
    const NON_ASCII: bool = true;
    /// Of ASCII, JSON escapes the controls but DEL: `escapes` is true
    /// for no other character (the test `lists_its_ascii_escapes`).
    const ASCII_ESCAPED: Option<&'static [u8]> = Some(b"`|\x7f");

    #[inline]
    fn escapes(self, c: char) -> bool {
        match ASCII.get(c as usize) {
            Some(&ascii) => ascii,
            None => escape::is_never_raw(c),
        }
    }
}

/// The writer for a value inside `depth` open containers.
fn writer<E: JsonEscapes>(escapes: E, depth: usize, max_depth: usize) -> JsonWriter<E> {
    JsonWriter::compact()
        .escapes(escapes)
        .max_depth(max_depth)
        .inside(depth)
}

/// Appends the compact JSON of `value` for a JSON cell ([`MarkdownSafe`]).
/// Containers nested deeper than `max_depth - depth` are an
/// [`EncodeError::DepthLimit`].
pub(super) fn write<'v, V: ValueView<'v>>(
    out: &mut Vec<u8>,
    value: V,
    depth: usize,
    max_depth: usize,
) -> Result<(), EncodeError> {
    writer(MarkdownSafe, depth, max_depth).write_view(value, out)
}

/// [`write`] for a fenced `json` block ([`FenceSafe`]).
pub(super) fn write_fenced<'v, V: ValueView<'v>>(
    out: &mut Vec<u8>,
    value: V,
    depth: usize,
    max_depth: usize,
) -> Result<(), EncodeError> {
    writer(FenceSafe, depth, max_depth).write_view(value, out)
}

/// [`write_fenced`], but a container for which `written` gives JSON already
/// written (a section's fence) is copied rather than written again: the
/// same bytes, since compact JSON does not depend on what is around it.
/// For the dense profile's JSON of a container whose sections chose JSON
/// too, which would otherwise write each of those sections' JSON once
/// more per container above it that also chooses JSON. Fails where
/// [`write`] would.
pub(super) fn write_reusing<'v, 'b, V: ValueView<'v>>(
    out: &mut Vec<u8>,
    value: V,
    depth: usize,
    max_depth: usize,
    written: &impl Fn(V) -> Option<&'b [u8]>,
) -> Result<(), EncodeError> {
    let mut sink = Bytes {
        out,
        written,
        max_depth,
    };
    walk(&mut sink, value, depth, max_depth)
}

#[cfg(test)]
thread_local! {
    /// How many times [`write_reusing`] copied a section's JSON on this
    /// thread: the tests see that it does.
    pub(super) static COPIED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// The estimate of what [`write`] writes for `value` ([`Estimate`]), but
/// with every member or element for which `skip` is true written as
/// nothing (its key and separators stay): the JSON around subtrees whose
/// cost is already known, for the dense profile's choice. Nothing is
/// written: the JSON's bytes are fed to `estimate` where they are, a
/// string that needs no escape as it is (`scratch` holds one that does,
/// as the writer escapes it). Fails where [`write`] would.
pub(super) fn estimate_skipping<'v, V: ValueView<'v>>(
    estimate: &mut Estimate,
    value: V,
    depth: usize,
    max_depth: usize,
    skip: &impl Fn(V) -> bool,
    scratch: &mut JsonScratch,
) -> Result<(), EncodeError> {
    let mut sink = Estimated {
        estimate,
        skip,
        scratch,
    };
    walk(&mut sink, value, depth, max_depth)
}

/// Where [`walk`] puts the compact JSON of a value: its bytes
/// ([`write_reusing`]) or their estimate ([`estimate_skipping`]).
trait Sink<'v, V: ValueView<'v>> {
    /// Takes a container whole (true: a section whose JSON is known) or
    /// leaves it to be walked (false).
    fn container(&mut self, value: V) -> bool;
    /// A byte of punctuation.
    fn byte(&mut self, byte: u8);
    /// A member's key, quoted.
    fn key(&mut self, key: &str);
    /// A scalar, inside `depth` open containers.
    fn scalar(&mut self, value: V, kind: ViewKind<'v, V>, depth: usize) -> Result<(), EncodeError>;
}

/// The compact JSON of `value`, inside `depth` open containers, as the
/// JSON writer writes it (and failing where it fails: a container deeper
/// than `max_depth`), into `sink`.
fn walk<'v, V: ValueView<'v>>(
    sink: &mut impl Sink<'v, V>,
    value: V,
    depth: usize,
    max_depth: usize,
) -> Result<(), EncodeError> {
    let kind = value.kind();
    if !matches!(kind, ViewKind::Array(_) | ViewKind::Object(_)) {
        return sink.scalar(value, kind, depth);
    }
    if sink.container(value) {
        return Ok(());
    }
    if depth + 1 > max_depth {
        return Err(EncodeError::DepthLimit { limit: max_depth });
    }
    match kind {
        ViewKind::Array(items) => {
            sink.byte(b'[');
            for (i, item) in items.enumerate() {
                if i > 0 {
                    sink.byte(b',');
                }
                walk_item(sink, item, depth + 1, max_depth)?;
            }
            sink.byte(b']');
        }
        ViewKind::Object(members) => {
            sink.byte(b'{');
            for (i, (key, item)) in members.enumerate() {
                if i > 0 {
                    sink.byte(b',');
                }
                sink.key(key);
                sink.byte(b':');
                walk_item(sink, item, depth + 1, max_depth)?;
            }
            sink.byte(b'}');
        }
        _ => {}
    }
    Ok(())
}

/// [`walk`] of a member or element: a scalar in place (only containers
/// are taken whole), a container by recursion.
#[inline]
fn walk_item<'v, V: ValueView<'v>>(
    sink: &mut impl Sink<'v, V>,
    item: V,
    depth: usize,
    max_depth: usize,
) -> Result<(), EncodeError> {
    match item.kind() {
        ViewKind::Array(_) | ViewKind::Object(_) => walk(sink, item, depth, max_depth),
        scalar => sink.scalar(item, scalar, depth),
    }
}

/// [`write_reusing`]'s sink: the bytes, copied where `written` has them.
struct Bytes<'o, 'w, F> {
    out: &'o mut Vec<u8>,
    written: &'w F,
    max_depth: usize,
}

impl<'v, 'b, V: ValueView<'v>, F: Fn(V) -> Option<&'b [u8]>> Sink<'v, V> for Bytes<'_, '_, F> {
    fn container(&mut self, value: V) -> bool {
        let Some(json) = (self.written)(value) else {
            return false;
        };
        #[cfg(test)]
        COPIED.with(|copied| copied.set(copied.get() + 1));
        self.out.extend_from_slice(json);
        true
    }

    fn byte(&mut self, byte: u8) {
        self.out.push(byte);
    }

    fn key(&mut self, key: &str) {
        writer(FenceSafe, 0, self.max_depth).write_str(key, self.out);
    }

    fn scalar(&mut self, value: V, _: ViewKind<'v, V>, depth: usize) -> Result<(), EncodeError> {
        write_fenced(self.out, value, depth, self.max_depth)
    }
}

/// [`estimate_skipping`]'s sink: the estimate, nothing for a skipped
/// container.
struct Estimated<'e, 's, 'c, F> {
    estimate: &'e mut Estimate,
    skip: &'s F,
    scratch: &'c mut JsonScratch,
}

impl<'v, V: ValueView<'v>, F: Fn(V) -> bool> Sink<'v, V> for Estimated<'_, '_, '_, F> {
    fn container(&mut self, value: V) -> bool {
        (self.skip)(value)
    }

    fn byte(&mut self, byte: u8) {
        self.estimate.feed_byte(byte);
    }

    fn key(&mut self, key: &str) {
        self.scratch.feed_key(self.estimate, key);
    }

    #[inline]
    fn scalar(&mut self, _: V, kind: ViewKind<'v, V>, _: usize) -> Result<(), EncodeError> {
        match kind {
            ViewKind::Null => self.estimate.feed(b"null"),
            ViewKind::Bool(true) => self.estimate.feed(b"true"),
            ViewKind::Bool(false) => self.estimate.feed(b"false"),
            ViewKind::Number(n) => n.with_text(|text| self.estimate.feed(text.as_bytes())),
            ViewKind::String(s) => self.scratch.feed_str(self.estimate, s),
            ViewKind::Array(_) | ViewKind::Object(_) => {}
        }
        Ok(())
    }
}

/// What the JSON estimate keeps from one string to the next: a buffer for
/// a string that needs escapes, and the keys measured so far.
#[derive(Debug, Default)]
pub(super) struct JsonScratch {
    escaped: Vec<u8>,
    /// Keys by address, as [`Word`]s when they are words. A table's rows
    /// repeat their keys at one address (a struct's field names, a parsed
    /// object's shared key list): each key is measured once, not once a
    /// row.
    keys: KeyTable<Option<Word>>,
}

impl JsonScratch {
    /// Feeds `s` as a JSON string of the dense profile: quoted, and
    /// escaped as [`MarkdownSafe`] escapes it.
    fn feed_str(&mut self, estimate: &mut Estimate, s: &str) {
        if is_json_plain(s) {
            estimate.feed_byte(b'"');
            estimate.feed(s.as_bytes());
            estimate.feed_byte(b'"');
        } else {
            self.escaped.clear();
            writer(MarkdownSafe, 0, usize::MAX).write_str(s, &mut self.escaped);
            estimate.feed(&self.escaped);
        }
    }

    /// The estimate of `s`'s JSON text between its quotes, alone.
    pub(super) fn string_hundredths(&mut self, s: &str) -> usize {
        if is_json_plain(s) {
            return estimate_hundredths(s.as_bytes());
        }
        self.escaped.clear();
        writer(MarkdownSafe, 0, usize::MAX).write_str(s, &mut self.escaped);
        estimate_hundredths(&self.escaped[1..self.escaped.len() - 1])
    }

    /// [`JsonScratch::feed_str`] for a key, measured once per address.
    fn feed_key(&mut self, estimate: &mut Estimate, key: &str) {
        let word = self.keys.find(key).unwrap_or_else(|slot| {
            let word = is_json_plain(key)
                .then(|| Word::new(key.as_bytes()))
                .flatten();
            self.keys.remember(slot, key, word);
            word
        });
        match word {
            Some(word) => {
                estimate.feed_byte(b'"');
                estimate.feed_word(&word, key.as_bytes());
                estimate.feed_byte(b'"');
            }
            None => self.feed_str(estimate, key),
        }
    }
}

/// The measure of `s` ([`Word::new`]) when the dense profile's JSON
/// writes it with no escape: between its quotes it then costs
/// [`Word::alone`].
pub(super) fn plain_word(s: &str) -> Option<Word> {
    is_json_plain(s).then(|| Word::new(s.as_bytes())).flatten()
}

/// Whether the dense profile's JSON writes `s` with no escape.
fn is_json_plain(s: &str) -> bool {
    s.bytes().all(|b| JSON_PLAIN[usize::from(b)])
}

/// The bytes the dense profile's JSON writes as they are in a string:
/// printable ASCII but `"`, `\\` and what [`MarkdownSafe`] escapes.
static JSON_PLAIN: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0x20;
    while b < 0x7f {
        table[b] = !ASCII[b] && b != b'"' as usize && b != b'\\' as usize;
        b += 1;
    }
    table
};

#[cfg(test)]
mod tests {
    use codec_core::{Value, from_str};

    use super::*;

    /// The writer asks `escapes` only about the ASCII characters listed:
    /// every other one it would escape is one JSON escapes anyway.
    #[test]
    fn lists_its_ascii_escapes() {
        let listed = MarkdownSafe::ASCII_ESCAPED.unwrap_or_default();
        for b in 0u8..0x80 {
            if MarkdownSafe.escapes(char::from(b)) {
                assert!(b < 0x20 || listed.contains(&b), "{b:#x}");
            }
        }
        // And each listed one is escaped.
        assert!(listed.iter().all(|&b| MarkdownSafe.escapes(char::from(b))));
    }

    #[test]
    fn writes_exact_compact_json() {
        let cases: &[(&str, &str)] = &[
            ("null", "null"),
            ("[1.10, 1e400, -0.0, true]", "[1.10,1e400,-0.0,true]"),
            (r#"{"b": {"a": []}, "a": {}}"#, r#"{"b":{"a":[]},"a":{}}"#),
            (r#""a\"b\\c\nd\re\tf""#, r#""a\"b\\c\nd\re\tf""#),
            (
                r#""`|\u0000\u001f\u007f""#,
                r#""\u0060\u007c\u0000\u001f\u007f""#,
            ),
            (r#""\u202e\ufeff é 😀""#, r#""\u202e\ufeff é 😀""#),
            // JSON's own short escapes, as codec-json writes them.
            (r#""\b\f\u0085\u00a0""#, "\"\\b\\f\\u0085\u{a0}\""),
        ];
        for (input, expected) in cases {
            let mut out = Vec::new();
            write(&mut out, &from_str(input).unwrap(), 0, 128).unwrap();
            assert_eq!(String::from_utf8(out).unwrap(), *expected, "{input}");
            // Another JSON reader gets the same value back.
            assert_eq!(
                from_str(expected).unwrap(),
                from_str(input).unwrap(),
                "{input}"
            );
        }
    }

    /// The estimate of a skipped subtree is nothing; of everything else,
    /// the estimate of what [`write`] writes.
    #[test]
    fn estimates_what_it_would_write() {
        use crate::write::estimate::estimate_hundredths;

        let value = from_str(
            r#"{"a": {"x": "`"}, "b": [1, {"y": 2}], "c": "|", "d": ["é\n\u202e", true, null, -0.5e3], "e": [{"k1": 1, "k": "x", "|": 0}, {"k1": 2, "k": "y", "|": 1}]}"#,
        )
        .unwrap();
        let estimated = |skip: &dyn Fn(&Value) -> bool| {
            let mut estimate = Estimate::new();
            let mut scratch = JsonScratch::default();
            estimate_skipping(&mut estimate, &value, 0, 128, &skip, &mut scratch).unwrap();
            estimate.finish()
        };
        let mut written = Vec::new();
        write(&mut written, &value, 0, 128).unwrap();
        assert_eq!(estimated(&|_| false), estimate_hundredths(&written));
        let (a, y) = (&value["a"], &value["b"][1]);
        let skeleton = concat!(
            r#"{"a":,"b":[1,],"c":"\u007c","d":["é\n\u202e",true,null,-0.5e3],"#,
            r#""e":[{"k1":1,"k":"x","\u007c":0},{"k1":2,"k":"y","\u007c":1}]}"#
        );
        assert_eq!(
            estimated(&|v| std::ptr::eq(v, a) || std::ptr::eq(v, y)),
            estimate_hundredths(skeleton.as_bytes())
        );
    }

    #[test]
    fn stops_at_the_depth_limit() {
        let value = codec_core::testkit::nested(3, true);
        assert!(write(&mut Vec::new(), &value, 0, 3).is_ok());
        assert!(matches!(
            write(&mut Vec::new(), &value, 0, 2),
            Err(EncodeError::DepthLimit { limit: 2 })
        ));
    }
}

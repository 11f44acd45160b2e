//! The rules of `SPEC.md` that the writer and the reader share: where each
//! member of a value goes (on a list line, in a fence under it, or in a
//! section of its own), when an array is a table or an inline list, and
//! what a piece of text reads as.
//!
//! The writer ([`crate::write`]) lays a value out by these rules, the
//! lossless layout quotes a string exactly when [`scalar`] would read it as
//! something else, and [`normalize`](crate::normalize) predicts a reading
//! from them; one definition of each, so the three cannot disagree. This
//! module depends on nothing else in the crate.

use std::collections::HashSet;

use codec_core::{Number, Value, ValueView, view::ViewKind};

/// Keys whose string values are code, written fenced even on one line.
const CODE_KEYS: [&str; 9] = [
    "diff",
    "patch",
    "code",
    "snippet",
    "source",
    "stdout",
    "stderr",
    "traceback",
    "stacktrace",
];

/// Where a member or array element goes in its container's body.
pub(crate) enum Placement<'v> {
    /// On a list line: a scalar, an inline list, `[]` or `{}`.
    Inline,
    /// On a list line, its string in a fenced block under it.
    Fenced(&'v str),
    /// A headed section after the list.
    Section,
}

/// What names a member: an object key, or `[i]` for an array element.
#[derive(Clone, Copy)]
pub(crate) enum Label<'v> {
    Key(&'v str),
    Index(usize),
}

/// An object's members, labelled by key.
pub(crate) fn members<'v, V, I>(members: I) -> impl Iterator<Item = (Label<'v>, V)> + Clone
where
    V: ValueView<'v>,
    I: Iterator<Item = (&'v str, V)> + Clone,
{
    Members(members)
}

/// [`members`]' iterator: a step of it is a step of the object's, inlined
/// where it is walked (a closure's `Map` was a call per member).
#[derive(Clone)]
struct Members<I>(I);

impl<'v, V, I: Iterator<Item = (&'v str, V)>> Iterator for Members<I> {
    type Item = (Label<'v>, V);

    #[inline(always)]
    fn next(&mut self) -> Option<(Label<'v>, V)> {
        self.0.next().map(|(key, value)| (Label::Key(key), value))
    }
}

/// An array's elements, labelled `[i]`.
pub(crate) fn elements<'v, V, I>(items: I) -> impl Iterator<Item = (Label<'v>, V)> + Clone
where
    V: ValueView<'v>,
    I: Iterator<Item = V> + Clone,
{
    items.enumerate().map(|(i, v)| (Label::Index(i), v))
}

/// Whether two keys are equal. Rows repeat their struct's field names,
/// which a tape and `to_value` keep by reference: the same address is the
/// same key, without comparing bytes.
#[inline]
pub(crate) fn same_key(a: &str, b: &str) -> bool {
    a.len() == b.len() && (std::ptr::eq(a.as_ptr(), b.as_ptr()) || a == b)
}

/// Where `value`, named `label`, goes in its container's body.
pub(crate) fn placement<'v, V: ValueView<'v>>(label: Label<'_>, value: V) -> Placement<'v> {
    placement_of(label, &value.kind())
}

/// [`placement`] of a value whose kind was read: a walk that reads it
/// once (a tape's kind is a lookup) asks its placement from it. Always
/// inlined: the body asks it of every member that is not a plain scalar,
/// and as a call (the compiler's choice with `#[inline]`) the kind it had
/// just matched was matched again there.
#[inline(always)]
pub(crate) fn placement_of<'v, V: ValueView<'v>>(
    label: Label<'_>,
    kind: &ViewKind<'v, V>,
) -> Placement<'v> {
    match *kind {
        ViewKind::String(s)
            if (has_line_feed(s) || matches!(label, Label::Key(key) if is_code_key(key)))
                && fence_eligible(s) =>
        {
            Placement::Fenced(s)
        }
        ViewKind::Array(ref items) if items.len() > 0 && !is_inline_list(items.clone()) => {
            Placement::Section
        }
        ViewKind::Object(ref members) if members.len() > 0 => Placement::Section,
        _ => Placement::Inline,
    }
}

/// Whether `s` holds a line feed: eight bytes at a time, with no branch
/// per byte (`str::contains` is a call into `memchr`, which costs more
/// than the search on the short strings of most records).
#[inline]
pub(crate) fn has_line_feed(s: &str) -> bool {
    let mut chunks = s.as_bytes().chunks_exact(8);
    for chunk in &mut chunks {
        if chunk.iter().fold(false, |any, &b| any | (b == b'\n')) {
            return true;
        }
    }
    chunks
        .remainder()
        .iter()
        .fold(false, |any, &b| any | (b == b'\n'))
}

/// Whether `key` names code (`diff`, `stdout`, ...; any case).
#[inline]
pub(crate) fn is_code_key(key: &str) -> bool {
    // Most keys are not code keys: a first letter or a length outside
    // theirs says so without comparing (`| 0x20` lowers an ASCII letter
    // and makes no other byte one of these).
    key.as_bytes()
        .first()
        .is_some_and(|b| matches!(b | 0x20, b'c' | b'd' | b'p' | b's' | b't'))
        && (4..=10).contains(&key.len())
        && is_one_of_the_code_keys(key)
}

/// [`is_code_key`] past its quick test, out of line.
fn is_one_of_the_code_keys(key: &str) -> bool {
    CODE_KEYS.iter().any(|k| key.eq_ignore_ascii_case(k))
}

/// A fence cannot hold CR (parsers normalize line endings) or NUL.
/// memchr's vector search: fenced strings are searched whole, and stack
/// traces are long.
pub(crate) fn fence_eligible(s: &str) -> bool {
    memchr::memchr2(b'\r', 0, s.as_bytes()).is_none()
}

/// Whether an array is written inline, `a, b, c`: only scalars, and no
/// string that holds the separator's comma or a line break.
pub(crate) fn is_inline_list<'v, V: ValueView<'v>>(mut items: impl Iterator<Item = V>) -> bool {
    items.all(|item| match item.kind() {
        ViewKind::String(s) => !s.bytes().any(|b| b == b',' || b == b'\n'),
        ViewKind::Array(_) | ViewKind::Object(_) => false,
        _ => true,
    })
}

/// The columns of a table, when `items` is one: every element an object,
/// every value a scalar with no line break, at least one column, and at
/// most half the cells empty (a sparser table would make the output grow
/// with the square of the input).
pub(crate) fn table_columns<'v, V: ValueView<'v>>(
    items: impl ExactSizeIterator<Item = V>,
) -> Option<Vec<&'v str>> {
    let rows = items.len();
    let mut columns: Vec<&str> = Vec::new();
    // The columns again, hashed, once there are too many to search.
    let mut seen: Option<HashSet<&str>> = None;
    let mut present = 0usize;
    for item in items {
        let ViewKind::Object(members) = item.kind() else {
            return None;
        };
        for (i, (key, value)) in members.enumerate() {
            match value.kind() {
                ViewKind::Array(_) | ViewKind::Object(_) => return None,
                ViewKind::String(s) if has_line_feed(s) => return None,
                _ => {}
            }
            present += 1;
            // Rows usually repeat the columns in order: no search then.
            if !columns.get(i).is_some_and(|c| same_key(c, key))
                && is_new_column(&columns, &mut seen, key)
            {
                columns.push(key);
            }
        }
    }
    let cells = rows.checked_mul(columns.len())?;
    (!columns.is_empty() && cells <= present.saturating_mul(2)).then_some(columns)
}

/// Whether `key` is not yet one of `columns`: a search while there are
/// few (hashing every key of a small table cost more than the table's
/// rows: nested.json's 500 item tables), a set beyond.
fn is_new_column<'v>(
    columns: &[&'v str],
    seen: &mut Option<HashSet<&'v str>>,
    key: &'v str,
) -> bool {
    const SEARCHED: usize = 16;
    match seen {
        Some(seen) => seen.insert(key),
        None if columns.len() < SEARCHED => !columns.iter().any(|c| same_key(c, key)),
        None => {
            let set = seen.insert(columns.iter().copied().collect());
            set.insert(key)
        }
    }
}

/// A scalar from its decoded text: empty is null, `true`/`false` are
/// bools, a JSON number is that number (its text kept), else a string.
pub(crate) fn scalar(text: &str) -> Value {
    match text {
        "" => Value::Null,
        "true" => Value::Bool(true),
        "false" => Value::Bool(false),
        _ => match Number::from_json_text(text) {
            Some(n) => Value::Number(n),
            None => Value::String(text.to_owned()),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::{fence_eligible, has_line_feed, is_code_key};

    #[test]
    fn finds_a_line_feed_anywhere() {
        for len in 0..=25 {
            let clean = "a".repeat(len);
            assert!(!has_line_feed(&clean));
            for at in 0..len {
                let s = format!("{}\n{}", &clean[..at], &clean[at + 1..]);
                assert!(has_line_feed(&s), "{s:?}");
                let s = format!("{}\r{}", &clean[..at], &clean[at + 1..]);
                assert!(!has_line_feed(&s), "{s:?}");
            }
        }
    }

    #[test]
    fn finds_what_no_fence_can_hold_anywhere() {
        for len in 0..=25 {
            let clean = "a\n".repeat(len);
            assert!(fence_eligible(&clean));
            for at in 0..clean.len() {
                for stop in ["\r", "\0"] {
                    let s = format!("{}{stop}{}", &clean[..at], &clean[at + 1..]);
                    assert!(!fence_eligible(&s), "{s:?}");
                }
            }
        }
    }

    #[test]
    fn knows_the_code_keys_in_any_case() {
        for key in ["diff", "PATCH", "Code", "snippet", "source", "stdout"] {
            assert!(is_code_key(key), "{key}");
        }
        for key in ["stderr", "TraceBack", "STACKTRACE"] {
            assert!(is_code_key(key), "{key}");
        }
        for key in [
            "",
            "c",
            "codes",
            "ode",
            "name",
            "sourc",
            "#ode",
            "Cod\u{e9}",
        ] {
            assert!(!is_code_key(key), "{key}");
        }
    }
}

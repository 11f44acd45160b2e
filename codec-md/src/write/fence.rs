//! Fenced code blocks (`ESCAPING.md`, *Fenced code*): a string written
//! verbatim between fences longer than any backtick run in it.

use codec_core::ValueView;

use crate::schema::Label;

/// Sibling keys that name the fence language, in order of preference.
const LANGUAGE_KEYS: [&str; 4] = ["language", "lang", "ext", "filetype"];

/// Writes `s` as a fenced code block, every non-empty line after `indent`.
/// The fence is longer than any backtick run in `s`. The caller checks
/// that `s` can be fenced ([`crate::schema::fence_eligible`]).
pub(super) fn write(out: &mut Vec<u8>, s: &str, language: Option<&str>, indent: &[u8]) {
    // Most code has no backtick: one search says so.
    let longest = if s.contains('`') {
        s.as_bytes()
            .split(|&b| b != b'`')
            .map(<[u8]>::len)
            .max()
            .unwrap_or(0)
    } else {
        0
    };
    let ticks = (longest + 1).max(3);
    let fence_line = |out: &mut Vec<u8>| {
        out.extend_from_slice(indent);
        out.resize(out.len() + ticks, b'`');
    };
    fence_line(out);
    if let Some(language) = language {
        out.extend_from_slice(language.as_bytes());
    }
    out.push(b'\n');
    // The lines, each end found by one vectorized search over the whole
    // string (a search per line costs more on the short lines of code).
    let bytes = s.as_bytes();
    let mut start = 0;
    for end in memchr::memchr_iter(b'\n', bytes).chain(std::iter::once(bytes.len())) {
        let line = &bytes[start..end];
        if !line.is_empty() {
            out.extend_from_slice(indent);
            out.extend_from_slice(line);
        }
        out.push(b'\n');
        start = end + 1;
    }
    fence_line(out);
    out.push(b'\n');
}

/// The info string of a member's fence: `diff` for a `diff` or `patch`
/// key, else `siblings`, the language its object names
/// ([`sibling_language`]), asked only then.
pub(super) fn language<'v>(
    label: Label<'_>,
    siblings: impl FnOnce() -> Option<&'v str>,
) -> Option<&'v str> {
    match label {
        Label::Key(key)
            if key.eq_ignore_ascii_case("diff") || key.eq_ignore_ascii_case("patch") =>
        {
            Some("diff")
        }
        _ => siblings(),
    }
}

/// The language an object's members name: the first of the
/// `language`/`lang`/`ext`/`filetype` members (in that order of
/// preference) that is a valid info string. One pass over the members,
/// so an object with many fenced members costs no more than one.
pub(super) fn sibling_language<'v, V: ValueView<'v>>(
    members: impl Iterator<Item = (&'v str, V)>,
) -> Option<&'v str> {
    let mut best: Option<(usize, &'v str)> = None;
    for (key, value) in members {
        let Some(rank) = LANGUAGE_KEYS.iter().position(|k| *k == key) else {
            continue;
        };
        if best.is_some_and(|(best, _)| best < rank) {
            continue;
        }
        let Some(value) = value.as_str() else {
            continue;
        };
        let valid = !value.is_empty()
            && value
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"_+.#-".contains(&b));
        if valid {
            best = Some((rank, value));
        }
    }
    best.map(|(_, language)| language)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The shared fence vectors at both placements, read back by comrak.
    #[test]
    fn fences_come_back_exact() {
        use comrak::nodes::NodeValue;

        let data =
            codec_core::from_slice(include_bytes!("../../tests/data/escape-vectors.json")).unwrap();
        let vectors = data["code_blocks"]["vectors"].as_array().unwrap();
        for vector in vectors {
            let input = vector["input"].as_str().unwrap();
            let expected = vector["expected_literal"].as_str().unwrap();
            let in_item = vector["placement"].as_str().unwrap().starts_with("inside");
            let mut out = Vec::new();
            if in_item {
                out.extend_from_slice(b"- **k**:\n");
            }
            write(
                &mut out,
                input,
                Some("txt"),
                if in_item { b"  " } else { b"" },
            );
            let markdown = String::from_utf8(out).unwrap();
            let arena = comrak::Arena::new();
            let root = comrak::parse_document(&arena, &markdown, &comrak::Options::default());
            let literals: Vec<String> = root
                .descendants()
                .filter_map(|node| match &node.data().value {
                    NodeValue::CodeBlock(code) => Some(format!("{}|{}", code.info, code.literal)),
                    _ => None,
                })
                .collect();
            assert_eq!(
                literals,
                [format!("txt|{expected}")],
                "{vector:?}\n{markdown}"
            );
        }
    }
}

//! Fenced code blocks (`ESCAPING.md`, *Fenced code*): a string written
//! verbatim between fences longer than any backtick run in it.

use codec_core::Map;

use crate::schema::Label;

/// Sibling keys that name the fence language, in order of preference.
const LANGUAGE_KEYS: [&str; 4] = ["language", "lang", "ext", "filetype"];

/// Writes `s` as a fenced code block, every non-empty line after `indent`.
/// The fence is longer than any backtick run in `s`. The caller checks
/// that `s` can be fenced ([`crate::schema::fence_eligible`]).
pub(super) fn write(out: &mut Vec<u8>, s: &str, language: Option<&str>, indent: &[u8]) {
    let longest = s
        .as_bytes()
        .split(|&b| b != b'`')
        .map(<[u8]>::len)
        .max()
        .unwrap_or(0);
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
    for line in s.split('\n') {
        if !line.is_empty() {
            out.extend_from_slice(indent);
            out.extend_from_slice(line.as_bytes());
        }
        out.push(b'\n');
    }
    fence_line(out);
    out.push(b'\n');
}

/// The info string of a member's fence: `diff` for a `diff` or `patch`
/// key, else the language a sibling `language`/`lang`/`ext`/`filetype`
/// string names, when it is a valid info string.
pub(super) fn language<'v>(label: Label<'_>, siblings: Option<&'v Map>) -> Option<&'v str> {
    match label {
        Label::Key(key)
            if key.eq_ignore_ascii_case("diff") || key.eq_ignore_ascii_case("patch") =>
        {
            Some("diff")
        }
        _ => LANGUAGE_KEYS.iter().find_map(|key| {
            let value = siblings?.get(key)?.as_str()?;
            let valid = !value.is_empty()
                && value
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"_+.#-".contains(&b));
            valid.then_some(value)
        }),
    }
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

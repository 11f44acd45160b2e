//! Reading format overrides from a request target: `?format=md` and
//! `/items.md`.
//!
//! Format names are plain tokens (`json`, `md`), so values are compared as
//! they appear, without percent-decoding: `?format=%6Dd` is an unknown
//! format, reported with the list of valid ones.

/// The path of a request target (`/a/b.md?x=1#f` gives `/a/b.md`).
pub(crate) fn path(target: &str) -> &str {
    let end = target.find(['?', '#']).unwrap_or(target.len());
    &target[..end]
}

/// The value of the first `name=value` pair of the target's query; a
/// bare `name` (or `name=`) gives `""`.
pub(crate) fn query_value<'t>(target: &'t str, name: &str) -> Option<&'t str> {
    // Byte searches: a request target is short, and a `char` pattern's
    // searcher cost more than the rest of the call on `/`.
    let target = &target[..find_byte(target, b'#').unwrap_or(target.len())];
    let query = &target[find_byte(target, b'?')? + 1..];
    query.split('&').find_map(|pair| {
        let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
        (key == name).then_some(value)
    })
}

/// Where `byte` (ASCII) first occurs in `text`.
fn find_byte(text: &str, byte: u8) -> Option<usize> {
    text.bytes().position(|b| b == byte)
}

/// The extension of the path's last segment (`md` in `/items.md`), if it
/// has one; a leading dot (`/.well-known`) is not an extension.
pub(crate) fn path_extension(target: &str) -> Option<&str> {
    let path = path(target);
    let segment = &path[path.rfind('/').map_or(0, |i| i + 1)..];
    let dot = segment.rfind('.')?;
    (dot > 0 && dot + 1 < segment.len()).then(|| &segment[dot + 1..])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_query_values() {
        let cases: &[(&str, Option<&str>)] = &[
            ("/items", None),
            ("/items?", None),
            ("/items?format=md", Some("md")),
            ("/items?a=1&format=json&b=2", Some("json")),
            ("/items?format=md&format=json", Some("md")),
            ("/items?format", Some("")),
            ("/items?format=", Some("")),
            ("/items?formats=md", None),
            ("/items?xformat=md", None),
            ("/items?format=md#frag", Some("md")),
            ("/items#?format=md", None),
            ("?format=MD", Some("MD")),
        ];
        for (target, expected) in cases {
            assert_eq!(query_value(target, "format"), *expected, "{target}");
        }
    }

    #[test]
    fn reads_path_extensions() {
        let cases: &[(&str, Option<&str>)] = &[
            ("/items", None),
            ("/items.md", Some("md")),
            ("/items.v2.json", Some("json")),
            ("/items.md?format=json", Some("md")),
            ("/dir.md/items", None),
            ("/.well-known", None),
            ("/items.", None),
            ("/", None),
            ("", None),
            ("/items.md#x", Some("md")),
        ];
        for (target, expected) in cases {
            assert_eq!(path_extension(target), *expected, "{target}");
        }
    }
}

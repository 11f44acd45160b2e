//! The one-line text of [`TextFormat::Summary`](crate::TextFormat::Summary):
//! what a result's `structuredContent` holds, for clients that give the
//! model the structured content, so the data is not billed twice.
//!
//! A value whose compact JSON is short is that JSON (the specification's
//! "serialized JSON in a TextContent block", at no extra cost); a longer
//! one is described by its shape: `The result is in structuredContent: an
//! object with repositories (100 items).`

use std::fmt::Write as _;

use codec_core::{ValueView, json::JsonWriter, view::ViewKind};

/// Up to this many chars, the text is the value's compact JSON.
const MAX_JSON_CHARS: usize = 120;

/// Members named in the description of an object; the rest are counted.
const MAX_MEMBERS_NAMED: usize = 8;

/// The one line for `value`.
pub(crate) fn line<'v>(value: impl ValueView<'v>) -> String {
    let mut json = Vec::new();
    if JsonWriter::compact().write_view(value, &mut json).is_ok()
        && let Ok(json) = String::from_utf8(json)
        && json.chars().count() <= MAX_JSON_CHARS
    {
        return json;
    }
    let mut line = String::from("The result is in structuredContent: ");
    describe(value, &mut line);
    line.push('.');
    line
}

/// `an object with a (3 items), b`, `an array of 100 items`, ...
fn describe<'v>(value: impl ValueView<'v>, out: &mut String) {
    match value.kind() {
        ViewKind::Array(items) => {
            let _ = write!(out, "an array of {}", items_of(items.len()));
        }
        ViewKind::Object(map) => {
            out.push_str("an object with ");
            let len = map.len();
            if len == 0 {
                out.push_str("no members");
            }
            for (i, (key, member)) in map.take(MAX_MEMBERS_NAMED).enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                out.push_str(key);
                match member.kind() {
                    ViewKind::Array(items) => {
                        let _ = write!(out, " ({})", items_of(items.len()));
                    }
                    ViewKind::Object(map) => {
                        let _ = write!(out, " ({} member{})", map.len(), plural(map.len()));
                    }
                    _ => {}
                }
            }
            if len > MAX_MEMBERS_NAMED {
                let _ = write!(out, " and {} more", len - MAX_MEMBERS_NAMED);
            }
        }
        ViewKind::String(text) => {
            let chars = text.chars().count();
            let _ = write!(out, "a string of {chars} character{}", plural(chars));
        }
        // Scalars other than strings are short enough to be JSON.
        _ => out.push_str(kind(value)),
    }
}

fn items_of(n: usize) -> String {
    format!("{n} item{}", plural(n))
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// What a value is, in words: `a number`, `an object` (errors and
/// summaries name it).
pub(crate) fn kind<'v>(value: impl ValueView<'v>) -> &'static str {
    match value.kind() {
        ViewKind::Null => "null",
        ViewKind::Bool(_) => "a boolean",
        ViewKind::Number(_) => "a number",
        ViewKind::String(_) => "a string",
        ViewKind::Array(_) => "an array",
        ViewKind::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use codec_core::from_str;

    #[test]
    fn short_values_are_their_json_and_long_ones_their_shape() {
        let long = "x".repeat(200);
        let many: Vec<String> = (0..10).map(|i| format!(r#""k{i}": {i}"#)).collect();
        let wide = format!(r#"{{"pad": "{}", {}}}"#, "p".repeat(100), many.join(", "));
        let cases: &[(String, &str)] = &[
            ("null".into(), "null"),
            ("0.90".into(), "0.90"),
            (r#"{"ok": true, "id": 7}"#.into(), r#"{"ok":true,"id":7}"#),
            (
                format!(r#""{long}""#),
                "The result is in structuredContent: a string of 200 characters.",
            ),
            (
                format!(r#"{{"repositories": [{}]}}"#, vec!["1"; 100].join(",")),
                "The result is in structuredContent: an object with repositories (100 items).",
            ),
            (
                format!(r#"[{}]"#, vec![r#"{"a": 1}"#; 30].join(",")),
                "The result is in structuredContent: an array of 30 items.",
            ),
            (
                format!(r#"{{"one": [1], "cfg": {{"a": 1}}, "text": "{long}"}}"#),
                "The result is in structuredContent: an object with one (1 item), cfg (1 member), text.",
            ),
            (
                wide,
                "The result is in structuredContent: an object with pad, k0, k1, k2, k3, k4, k5, k6 and 3 more.",
            ),
        ];
        for (json, expected) in cases {
            assert_eq!(line(&from_str(json).unwrap()), *expected, "{json}");
        }
    }
}

//! The `json` target: codec-core's JSON parser against serde_json.

use codec_core::{
    Value,
    json::{JsonWriter, ParseErrorKind},
    value::DEFAULT_MAX_DEPTH,
};

use crate::Verdict;

/// Parses `data` with [`codec_core::from_slice`] and with serde_json, and
/// checks that they agree on what is valid JSON and what it means, except
/// where codec-core documents otherwise; then writes the value with
/// [`JsonWriter`], compact and pretty, and checks that it reads back
/// exactly (key order and numbers' text) and means the same to
/// serde_json.
///
/// The documented differences: codec-core rejects a repeated key
/// (serde_json keeps the last), keeps numbers beyond `f64` verbatim
/// (serde_json rejects `1e400`), and accepts a 128th level of nesting
/// (serde_json's recursion limit rejects it).
///
/// # Panics
///
/// When the parsers disagree, or the writer's JSON does not read back.
pub fn json(data: &[u8]) -> Verdict {
    let ours = codec_core::from_slice(data);
    let theirs = serde_json::from_slice::<serde_json::Value>(data);
    let input = String::from_utf8_lossy(data);
    match (&ours, &theirs) {
        (Ok(value), Ok(reference)) => assert!(
            to_serde(value) == *reference,
            "{input:?}: codec-core reads {value:?}, serde_json {reference:?}"
        ),
        (Ok(value), Err(e)) => assert!(
            serde_json_limit(value, e),
            "{input:?}: codec-core reads {value:?}, serde_json rejects it: {e}"
        ),
        (Err(e), Ok(reference)) => assert!(
            matches!(e.kind(), ParseErrorKind::DuplicateKey { .. }),
            "{input:?}: codec-core rejects it ({e}), serde_json reads {reference:?}"
        ),
        (Err(_), Err(_)) => {}
    }
    if let Ok(value) = ours {
        for writer in [JsonWriter::compact(), JsonWriter::pretty()] {
            let mut out = Vec::new();
            writer
                .write_value(&value, &mut out)
                .unwrap_or_else(|e| panic!("{input:?}: a parsed value does not write: {e}"));
            let written = String::from_utf8_lossy(&out);
            let back = codec_core::from_slice(&out)
                .unwrap_or_else(|e| panic!("{input:?}: its JSON {written:?} does not read: {e}"));
            assert!(
                back.identical(&value),
                "{input:?}: its JSON {written:?} reads as {back:?}"
            );
            let reference = serde_json::from_slice::<serde_json::Value>(&out);
            assert_eq!(
                reference.ok(),
                theirs.as_ref().ok().cloned(),
                "{input:?}: serde_json reads its JSON {written:?} otherwise"
            );
        }
    }
    Verdict::Keep
}

/// Whether serde_json rejects what codec-core read for a documented
/// reason: a number beyond `f64`, or nesting at codec-core's limit.
fn serde_json_limit(value: &Value, error: &serde_json::Error) -> bool {
    let message = error.to_string();
    (message.starts_with("number out of range") && has_huge_number(value))
        || (message.starts_with("recursion limit exceeded") && value.depth() == DEFAULT_MAX_DEPTH)
}

fn has_huge_number(value: &Value) -> bool {
    let mut stack = vec![value];
    while let Some(value) = stack.pop() {
        match value {
            Value::Number(n) if n.to_string().parse::<f64>().is_ok_and(f64::is_infinite) => {
                return true;
            }
            Value::Array(items) => stack.extend(items),
            Value::Object(map) => stack.extend(map.values()),
            _ => {}
        }
    }
    false
}

/// The serde_json value with the same meaning: numbers read by
/// serde_json from their exact text.
fn to_serde(value: &Value) -> serde_json::Value {
    match value {
        Value::Null => serde_json::Value::Null,
        Value::Bool(b) => serde_json::Value::Bool(*b),
        Value::Number(n) => serde_json::from_str(&n.to_string()).expect("a JSON number"),
        Value::String(s) => serde_json::Value::String(s.clone()),
        Value::Array(items) => items.iter().map(to_serde).collect(),
        Value::Object(map) => serde_json::Value::Object(
            map.iter()
                .map(|(k, v)| (k.to_owned(), to_serde(v)))
                .collect(),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The documented differences pass; each is exercised.
    #[test]
    fn documented_differences_pass() {
        let deep = |d: usize| format!("{}{}", "[".repeat(d), "]".repeat(d));
        let (at_limit, over_limit) = (deep(DEFAULT_MAX_DEPTH), deep(DEFAULT_MAX_DEPTH + 1));
        let cases: [&[u8]; 8] = [
            br#"{"a": 1, "a": 2}"#,
            b"1e400",
            b"[-1E400, 2]",
            at_limit.as_bytes(),
            over_limit.as_bytes(),
            br#"{"b": 1.10, "a": "\ud83d\ude00\u0000"}"#,
            b"\"\\ud800\"",
            b"\xff",
        ];
        for data in cases {
            assert_eq!(json(data), Verdict::Keep);
        }
    }
}

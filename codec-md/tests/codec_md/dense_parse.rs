//! `parse_dense` reads the dense profile back: the benchmark datasets come
//! back exactly, decided cases come back as documented, and on random
//! values the reading is a normal form: what it gives back renders and
//! reads back to itself, up to what `normalize` says the default layout
//! cannot carry.

use codec_core::{Value, from_slice, from_str};
use codec_md::parse_dense;
use proptest::prelude::*;

use crate::common;

use common::{DATASETS, dense};

#[track_caller]
fn round_trip(value: &Value) -> Value {
    let markdown = dense(value);
    parse_dense(&markdown).unwrap_or_else(|e| panic!("{e}\n{markdown}"))
}

/// Every dataset's values are ordinary (no null in a row, no string that
/// reads as a number), so each comes back exactly: tables with dotted
/// columns, keyed tables, lists and JSON in cells, `&#10;` in cells, and
/// nested-config's JSON fence.
#[test]
fn datasets_come_back_exactly() {
    for (name, json) in DATASETS {
        let value = from_slice(json).unwrap();
        assert!(round_trip(&value) == value, "{name} does not come back");
    }
}

/// What the text cannot carry, read as documented.
#[test]
fn reads_decided_cases() {
    let rows = |row: &str| format!("[{}]", [row; 6].join(","));
    let cases: Vec<(String, String)> = vec![
        // A null in a row is a missing member; "" too.
        (rows(r#"{"a": 1, "b": null, "c": ""}"#), rows(r#"{"a": 1}"#)),
        // Scalars read as in `parse`: "42" is 42.
        (
            rows(r#"{"a": "42", "b": "true"}"#),
            rows(r#"{"a": 42, "b": true}"#),
        ),
        // A key's own dot, an empty key inside a path.
        (
            rows(r#"{"a.b": 1, "c": {"": 2, "d.e": {"f": 3}}}"#),
            rows(r#"{"a.b": 1, "c": {"": 2, "d.e": {"f": 3}}}"#),
        ),
        // Strings that start like a list or JSON stay strings.
        (
            rows(r#"{"a": "[x]", "b": "`y`", "c": "[1, 2]"}"#),
            rows(r#"{"a": "[x]", "b": "`y`", "c": "[1, 2]"}"#),
        ),
        // A one-item list stays a list in a cell; JSON cells are exact.
        (
            rows(r#"{"a": ["x"], "b": [{"c": "07"}], "d": {}}"#),
            rows(r#"{"a": ["x"], "b": [{"c": "07"}], "d": {}}"#),
        ),
    ];
    for (input, expected) in cases {
        let value = from_str(&input).unwrap();
        assert_eq!(
            round_trip(&value),
            from_str(&expected).unwrap(),
            "{input}\n{}",
            dense(&value)
        );
    }
}

/// A document written as JSON is a fenced `json` block that reads back as
/// exactly that JSON; a paragraph of JSON (what the profile wrote before
/// the fence) still reads as its JSON; a top-level string that looks like
/// JSON starts with a backslash and stays a string.
#[test]
fn json_documents_and_json_like_strings() {
    let config = r#"{"name": "api", "db": {"host": "db.local", "pool": {"min": 2, "max": 14, "idleTimeout": 30000}}, "ratio": 1.10}"#;
    let value = from_str(config).unwrap();
    let markdown = dense(&value);
    assert!(markdown.starts_with("```json\n{\"name\":"), "{markdown}");
    let back = round_trip(&value);
    assert!(back == value && format!("{back:?}") == format!("{value:?}"));
    let paragraph = markdown.lines().nth(1).unwrap();
    let back = codec_md::parse_dense(paragraph).unwrap();
    assert!(back == value && format!("{back:?}") == format!("{value:?}"));

    // (The strings "{}" and "[]" read as the empty containers, as in
    // `parse`: `normalize` says so.)
    for s in [
        r#"{"a": 1}"#,
        "[1]",
        "{x",
        "[x](y)",
        "[x]: /url",
        r#"{"a":"b"}"#,
        "{ }",
    ] {
        let value = Value::String(s.to_owned());
        let markdown = dense(&value);
        assert!(markdown.starts_with('\\'), "{s:?}: {markdown}");
        assert_eq!(round_trip(&value), value, "{s:?}: {markdown}");
    }
}

/// The keys of an object, in order, and those of its nested objects.
fn key_order(value: &Value) -> Vec<String> {
    let mut keys = Vec::new();
    let mut stack = vec![(String::new(), value)];
    while let Some((path, value)) = stack.pop() {
        match value {
            Value::Object(map) => {
                for (key, member) in map.iter().rev() {
                    stack.push((format!("{path}/{key}"), member));
                }
                keys.extend(map.keys().map(|key| format!("{path}/{key}")));
            }
            Value::Array(items) => {
                for (i, item) in items.iter().enumerate().rev() {
                    stack.push((format!("{path}/{i}"), item));
                }
            }
            _ => {}
        }
    }
    keys
}

/// The decision of SPEC.md (*Reading the dense profile*): a table row's
/// members come back in the columns' order (the union of the rows' keys,
/// first seen first), whatever order the row listed them in and whichever
/// of its cells were empty; JSON subtrees keep their order exactly. So a
/// row keeps its order exactly when it lists its keys in the columns'
/// order, as every row of every dataset does.
#[test]
fn rows_come_back_in_the_columns_order() {
    let mut rows: Vec<String> = (0..8)
        .map(|i| format!(r#"{{"id": {i}, "name": "user{i}", "email": "u{i}@example.com"}}"#))
        .collect();
    rows[3] = r#"{"name": "x", "id": 3, "email": "e"}"#.into();
    rows[5] = r#"{"id": 5, "email": null, "name": "y"}"#.into();
    rows[6] = r#"{"id": 6, "c": {"y": 1, "x": 2}, "name": "z", "j": [{"b": 1, "a": 2}]}"#.into();
    let value = from_str(&format!("[{}]", rows.join(","))).unwrap();
    let markdown = dense(&value);
    assert!(
        markdown.starts_with("|id|name|email|c.y|c.x|j|\n"),
        "{markdown}"
    );
    let back = parse_dense(&markdown).unwrap();
    let order = |row: usize| back[row].as_object().unwrap().keys().collect::<Vec<_>>();
    assert_eq!(order(3), ["id", "name", "email"], "not the row's own order");
    assert_eq!(
        order(5),
        ["id", "name"],
        "an empty cell is a missing member"
    );
    assert_eq!(
        order(6),
        ["id", "name", "c", "j"],
        "a nested object at its columns"
    );
    assert_eq!(key_order(&back[6]["c"]), ["/y", "/x"]);
    assert_eq!(
        key_order(&back[6]["j"]),
        ["/0/b", "/0/a"],
        "JSON keeps its order"
    );

    // An object whose first column is empty in a row still comes back at
    // that column, so a reading read again keeps its order (the fuzzer's
    // md_parse_dense case, minimized: `a.o` is empty in the last rows).
    let mut rows = vec![
        r#"{"a": {"o": "p"}}"#.to_owned(),
        r#"{"d": {"e": "q"}, "a": {"e": "r", "o": "s"}}"#.to_owned(),
    ];
    rows.extend((0..6).map(|i| format!(r#"{{"d": {{"e": "u{i}"}}, "a": {{"e": "c"}}}}"#)));
    let value = from_str(&format!("[{}]", rows.join(","))).unwrap();
    let markdown = dense(&value);
    assert!(markdown.starts_with("|a.o|d.e|a.e|\n"), "{markdown}");
    let once = round_trip(&value);
    assert_eq!(key_order(&once[2]), ["/a", "/d", "/a/e", "/d/e"]);
    assert_eq!(key_order(&round_trip(&once)), key_order(&once));

    // Rows in the columns' order keep it exactly: every dataset.
    for (name, json) in DATASETS {
        let value = from_slice(json).unwrap();
        assert_eq!(
            key_order(&round_trip(&value)),
            key_order(&value),
            "{name}: key order"
        );
    }
}

fn text() -> impl Strategy<Value = String> {
    let atoms = prop_oneof![
        4 => "[a-z]{1,5}",
        1 => Just("|".to_owned()),
        1 => Just("\\".to_owned()),
        1 => Just(".".to_owned()),
        1 => Just("[".to_owned()),
        1 => Just("]".to_owned()),
        1 => Just("`".to_owned()),
        1 => Just(", ".to_owned()),
        1 => Just("\n".to_owned()),
        1 => Just(" ".to_owned()),
        1 => Just("# ".to_owned()),
        1 => Just("- ".to_owned()),
        1 => Just("&#10;".to_owned()),
        1 => Just("*".to_owned()),
        1 => "[0-9]{1,3}",
        1 => any::<char>().prop_map(String::from),
    ];
    prop::collection::vec(atoms, 0..5).prop_map(|parts| parts.concat())
}

fn scalar() -> impl Strategy<Value = Value> {
    prop_oneof![
        1 => Just(Value::Null),
        1 => any::<bool>().prop_map(Value::Bool),
        1 => any::<i32>().prop_map(Value::from),
        4 => text().prop_map(Value::String),
    ]
}

fn object<S: Strategy<Value = Value>>(
    inner: S,
    len: std::ops::Range<usize>,
) -> impl Strategy<Value = Value> {
    prop::collection::vec((text(), inner), len).prop_map(|m| Value::Object(m.into_iter().collect()))
}

fn member() -> impl Strategy<Value = Value> {
    prop_oneof![
        4 => scalar(),
        1 => object(scalar(), 0..3),
        1 => prop::collection::vec(scalar(), 0..4).prop_map(Value::Array),
        1 => prop::collection::vec(object(scalar(), 0..3), 0..3).prop_map(Value::Array),
    ]
}

fn value() -> impl Strategy<Value = Value> {
    let row = || object(member(), 1..4);
    let leaf = prop_oneof![
        2 => scalar(),
        3 => prop::collection::vec(row(), 1..8).prop_map(Value::Array),
        2 => object(row(), 1..6),
    ];
    leaf.prop_recursive(3, 32, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            object(inner, 0..4),
        ]
    })
}

/// Where `normalize` has no fixed point the reading has no normal form:
/// a string ending in commas after a key loses one comma, and gains a
/// level, at each reading of its list (`"a,,"` reads as `["a,", null]`,
/// whose item reads as `["a", null]`). Found by the `md_parse_dense` fuzz
/// target (`fuzz/regressions/md_parse_dense/trailing-commas`), where the
/// dense profile wrote `["\u0000M\u007f:`\u007f`:,,,", null]` as this
/// list; it now writes that value as JSON, and the list is read as it is.
#[test]
fn trailing_commas_have_no_normal_form() {
    let list = "- **[0]**: &#0;M&#127;:\\`&#127;\\`:,,,\n- **[1]**:\n";
    let once = parse_dense(list).unwrap();
    let markdown = codec_md::render(&once).unwrap();
    let twice = parse_dense(&markdown).unwrap();
    let normal = codec_md::normalize(&once);
    assert_ne!(codec_md::normalize(&normal), normal, "{markdown}");
    assert_ne!(codec_md::normalize(&twice), normal, "{markdown}");
}

proptest! {
    // 256 cases keep CI fast; PROPTEST_CASES=100000 searches harder.
    #![proptest_config(ProptestConfig::with_cases(
        std::env::var("PROPTEST_CASES").ok().and_then(|n| n.parse().ok()).unwrap_or(256)
    ))]

    /// Every dense rendering parses, and the reading is a normal form up
    /// to what the default layout cannot carry: reading what was read
    /// changes nothing that [`codec_md::normalize`] keeps (a one-item list
    /// on a key's line, for one, reads as its item in both profiles),
    /// wherever `normalize` has a fixed point (see
    /// [`trailing_commas_have_no_normal_form`]). Key order included
    /// (`Value`'s equality ignores it): a row's objects are at their
    /// columns whichever of its cells are empty.
    #[test]
    fn reading_is_a_normal_form(value in value()) {
        let once = round_trip(&value);
        let twice = round_trip(&once);
        let normal = codec_md::normalize(&once);
        prop_assume!(codec_md::normalize(&normal) == normal, "no normal form");
        let again = codec_md::normalize(&twice);
        prop_assert_eq!(&again, &normal, "\n{}\n---\n{}", dense(&value), dense(&once));
        prop_assert_eq!(
            key_order(&again),
            key_order(&normal),
            "\n{}\n---\n{}",
            dense(&value),
            dense(&once)
        );
    }
}

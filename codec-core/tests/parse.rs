//! JSON bytes to Value: order, verbatim numbers, positioned errors, limits.

use codec_core::{
    from_slice, from_slice_with, from_str, DuplicateKeys, ParseErrorKind, ParseOptions, Value,
};

#[test]
fn keeps_key_order_and_number_text() {
    let value = from_str(r#" {"zeta": 76, "alpha": [0.98, 1.10, 1e400, -0.0, 12345678901234567890], "mid": {"b": true, "a": null}} "#).unwrap();
    let keys: Vec<_> = value.as_object().unwrap().keys().collect();
    assert_eq!(keys, ["zeta", "alpha", "mid"]);
    let numbers: Vec<String> = value["alpha"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_number().unwrap().to_string())
        .collect();
    assert_eq!(
        numbers,
        ["0.98", "1.10", "1e400", "-0.0", "12345678901234567890"]
    );
    assert_eq!(value["zeta"].as_number().unwrap().as_u64(), Some(76));
    let inner: Vec<_> = value["mid"].as_object().unwrap().keys().collect();
    assert_eq!(inner, ["b", "a"]);
}

#[test]
fn strings_and_escapes() {
    let cases: &[(&str, &str)] = &[
        (r#""plain""#, "plain"),
        (r#""\"\\\/\b\f\n\r\t""#, "\"\\/\u{8}\u{c}\n\r\t"),
        (r#""\u00e9\u0000""#, "é\u{0}"),
        (r#""\ud83d\ude00""#, "😀"),
        ("\"日本語\"", "日本語"),
        (r#""mixed \u0041 and é""#, "mixed A and é"),
    ];
    for (input, expected) in cases {
        assert_eq!(
            from_str(input).unwrap(),
            Value::String((*expected).into()),
            "{input}"
        );
    }
}

/// Every malformed input: the error kind and its exact line and column.
#[test]
fn errors_name_what_and_where() {
    let cases: &[(&[u8], &str)] = &[
        (
            b"",
            "unexpected end of input, expected a value at line 1 column 1",
        ),
        (
            b"   ",
            "unexpected end of input, expected a value at line 1 column 4",
        ),
        (
            b"{",
            "unexpected end of input, expected a string key at line 1 column 2",
        ),
        (
            b"[1,",
            "unexpected end of input, expected a value at line 1 column 4",
        ),
        (
            b"[1 2]",
            "expected `,` or `]`, found '2' at line 1 column 4",
        ),
        (b"{\"a\" 1}", "expected `:`, found '1' at line 1 column 6"),
        (
            b"{\"a\":1,}",
            "expected a string key, found '}' at line 1 column 8",
        ),
        (b"[1,]", "expected a value, found ']' at line 1 column 4"),
        (
            b"{\n  \"a\": tru\n}",
            "expected true, found '\\n' at line 2 column 11",
        ),
        (
            b"nul",
            "unexpected end of input, expected null at line 1 column 4",
        ),
        (b"01", "invalid number at line 1 column 2"),
        (b"1.", "invalid number at line 1 column 3"),
        (b"-", "invalid number at line 1 column 2"),
        (b"1e+", "invalid number at line 1 column 4"),
        (b"+1", "expected a value, found '+' at line 1 column 1"),
        (
            b"[1] x",
            "trailing characters after the value at line 1 column 5",
        ),
        (
            b"{} {}",
            "trailing characters after the value at line 1 column 4",
        ),
        (
            b"\"abc",
            "unexpected end of input, expected `\"` at line 1 column 5",
        ),
        (
            b"\"a\tb\"",
            "control character '\\t' in a string must be escaped at line 1 column 3",
        ),
        (b"\"\\x\"", "invalid escape in a string at line 1 column 2"),
        (
            b"\"\\u12\"",
            "expected a hex digit, found '\"' at line 1 column 6",
        ),
        (
            b"\"\\ud800\"",
            "unpaired surrogate in a \\u escape at line 1 column 2",
        ),
        (
            b"\"\\udc00\"",
            "unpaired surrogate in a \\u escape at line 1 column 2",
        ),
        (
            b"\"\\ud800\\u0041\"",
            "unpaired surrogate in a \\u escape at line 1 column 2",
        ),
        (
            b"{\"a\":1,\"a\":2}",
            "duplicate key \"a\" at line 1 column 8",
        ),
        (b"\"\xff\"", "invalid UTF-8 at line 1 column 2"),
        (
            b"[\"ok\", \"\xe9t\xe9\"]",
            "invalid UTF-8 at line 1 column 9",
        ),
        (
            b"\xef\xbb\xbf{}",
            "expected a value, found '\\u{feff}' at line 1 column 1",
        ),
        (b"\xff", "invalid UTF-8 at line 1 column 1"),
        (b"\"\xc3\"", "invalid UTF-8 at line 1 column 2"),
        (
            "é".as_bytes(),
            "expected a value, found 'é' at line 1 column 1",
        ),
        (
            "[\"日本\", x]".as_bytes(),
            "expected a value, found 'x' at line 1 column 8",
        ),
    ];
    for (input, expected) in cases {
        let err = from_slice(input).expect_err(&String::from_utf8_lossy(input));
        assert_eq!(
            err.to_string(),
            *expected,
            "input {:?}",
            String::from_utf8_lossy(input)
        );
    }
}

#[test]
fn error_accessors() {
    let err = from_str("{\n\n   x").unwrap_err();
    assert_eq!((err.line(), err.column(), err.offset()), (3, 4, 6));
    assert!(matches!(
        err.kind(),
        ParseErrorKind::Unexpected { found: 'x', .. }
    ));
}

#[test]
fn a_million_levels_deep_is_a_clean_error() {
    for open in [b'[', b'{'] {
        let input = if open == b'[' {
            vec![b'['; 1_000_000]
        } else {
            b"{\"a\":".repeat(1_000_000)
        };
        let err = from_slice(&input).unwrap_err();
        assert_eq!(err.kind(), &ParseErrorKind::DepthLimit { limit: 128 });
        assert_eq!(err.line(), 1);
    }
}

#[test]
fn depth_limit_is_exact_and_configurable() {
    let nest = |n: usize| format!("{}{}", "[".repeat(n), "]".repeat(n));
    assert!(from_str(&nest(128)).is_ok());
    let err = from_str(&nest(129)).unwrap_err();
    assert_eq!(
        err.to_string(),
        "nesting deeper than the limit of 128 at line 1 column 129"
    );
    let options = ParseOptions::new().max_depth(3);
    assert!(from_slice_with(nest(3).as_bytes(), &options).is_ok());
    assert!(from_slice_with(nest(4).as_bytes(), &options).is_err());
    // A deep value within a raised limit parses and drops without trouble.
    let options = ParseOptions::new().max_depth(5_000);
    assert_eq!(
        from_slice_with(nest(5_000).as_bytes(), &options)
            .unwrap()
            .depth(),
        5_000
    );
}

#[test]
fn duplicate_keys_policy() {
    let input = br#"{"a":1,"b":2,"a":3}"#;
    assert!(matches!(
        from_slice(input).unwrap_err().kind(),
        ParseErrorKind::DuplicateKey { key } if key == "a"
    ));
    let options = ParseOptions::new().duplicate_keys(DuplicateKeys::LastWins);
    let value = from_slice_with(input, &options).unwrap();
    let members: Vec<_> = value
        .as_object()
        .unwrap()
        .iter()
        .map(|(k, v)| format!("{k}={}", v.as_number().unwrap()))
        .collect();
    assert_eq!(members, ["a=3", "b=2"]);
}

#[test]
fn length_limit() {
    let options = ParseOptions::new().max_len(4);
    assert!(from_slice_with(b"[1,2]", &options).is_err());
    assert!(from_slice_with(b"[12]", &options).is_ok());
    assert_eq!(
        from_slice_with(b"[1,2]", &options).unwrap_err().to_string(),
        "input of 5 bytes is longer than the limit of 4 at line 1 column 1"
    );
}

#[test]
fn a_large_input_parses() {
    // 200k records, about 9 MB: linear work, no recursion.
    let mut input = b"[".to_vec();
    for i in 0..200_000 {
        if i > 0 {
            input.push(b',');
        }
        input.extend_from_slice(
            format!(r#"{{"id":{i},"name":"user {i}","score":{i}.5}}"#).as_bytes(),
        );
    }
    input.push(b']');
    let value = from_slice(&input).unwrap();
    assert_eq!(value.as_array().unwrap().len(), 200_000);
    assert_eq!(
        value[199_999]["score"].as_number().unwrap().to_string(),
        "199999.5"
    );
}

#[test]
fn agrees_with_serde_json_on_the_shared_datasets() {
    // The github dataset is real data: parse it both ways and compare the
    // shapes (serde_json's Value sorts keys and normalizes numbers, so
    // compare after the same treatment).
    let bytes = include_bytes!("data/github.json");
    let ours = from_slice(bytes).unwrap();
    let theirs: serde_json::Value = serde_json::from_slice(bytes).unwrap();
    let ours_as_serde: serde_json::Value = serde_json::to_value(&ours).unwrap();
    assert_eq!(ours_as_serde, theirs);
}

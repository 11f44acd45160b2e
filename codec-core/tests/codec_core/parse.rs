//! JSON bytes to Value: order, verbatim numbers, positioned errors, limits.

use codec_core::{
    Map, Value, from_slice, from_str,
    json::{DuplicateKeys, ParseErrorKind, ParseOptions, from_slice_with},
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
    let bytes = include_bytes!("../data/github.json");
    let ours = from_slice(bytes).unwrap();
    let theirs: serde_json::Value = serde_json::from_slice(bytes).unwrap();
    let ours_as_serde: serde_json::Value = serde_json::to_value(&ours).unwrap();
    assert_eq!(ours_as_serde, theirs);
}

/// Objects that repeat, drift from or alternate between the keys of the
/// objects before them (which the parser shares among them): every one
/// reads back in its own order, with its own values.
#[test]
fn series_of_objects_keep_their_own_keys() {
    let wide = |n: usize, skip: usize| {
        let members: Vec<String> = (0..n)
            .filter(|&i| i != skip)
            .map(|i| format!(r#""k{i}":{i}"#))
            .collect();
        format!("{{{}}}", members.join(","))
    };
    let cases: Vec<String> =
        vec![
        r#"[{"a":1,"b":2},{"a":3,"b":4},{"a":5,"b":6}]"#.into(),
        // An optional member, on and off.
        r#"[{"a":1,"b":2},{"a":1,"b":2,"e":3},{"a":1,"b":2},{"a":1,"b":2,"e":3},{"a":1,"b":2}]"#
            .into(),
        // Fewer keys, a different key in the middle, another order.
        r#"[{"a":1,"b":2},{"a":1,"b":2},{"a":1},{"a":1,"x":2,"b":3},{"b":1,"a":2},{"a":[]}]"#
            .into(),
        // Three shapes of one first key, in turn.
        r#"[{"a":1,"b":2},{"a":1,"c":2},{"a":1,"d":2},{"a":1,"b":2},{"a":1,"c":2},{"a":1,"d":2}]"#
            .into(),
        // Nested series, and an escaped key equal to a plain one.
        r#"[{"o":{"p":1,"q":[{"r":1},{"r":2}]}},{"o":{"p":2,"q":[{"r":3}]}},{"\u006f":{"p":3}}]"#
            .into(),
        // Wide objects (hashed keys), repeated, then drifting after the
        // 28th key, then missing one.
        format!("[{},{},{},{}]", wide(30, 99), wide(30, 99), wide(31, 99), wide(30, 28)),
        format!("[{},{},{}]", wide(40, 99), wide(40, 3), wide(40, 99)),
    ];
    for input in &cases {
        let value = from_str(input).unwrap();
        // Value serializes objects in their order: the compact input back.
        let expected = input.replace(r#""\u006f""#, r#""o""#);
        assert_eq!(serde_json::to_string(&value).unwrap(), expected);
        for object in value.as_array().unwrap() {
            let object = object.as_object().unwrap();
            for (i, (key, member)) in object.iter().enumerate() {
                assert_eq!(object.get(key), Some(member), "{key} in {input}");
                assert_eq!(object.index_of(key), Some(i), "{key} in {input}");
            }
            assert_eq!(object.get("absent"), None);
        }
    }
}

/// A repeated key is found wherever it is: while the keys follow the
/// objects before them, after they leave them, and past the size at which
/// keys are hashed.
#[test]
fn duplicate_keys_in_series_of_objects() {
    let wide: String = (0..30).map(|i| format!(r#""k{i}":{i},"#)).collect();
    // (input, the repeated key, the value with the last value kept)
    let cases: Vec<(String, &str, String)> = vec![
        (
            r#"[{"a":1,"b":2},{"a":1,"b":2},{"a":1,"a":2}]"#.into(),
            "a",
            r#"[{"a":1,"b":2},{"a":1,"b":2},{"a":2}]"#.into(),
        ),
        (
            r#"[{"a":1,"b":2},{"a":1,"b":2},{"a":1,"b":2,"a":3}]"#.into(),
            "a",
            r#"[{"a":1,"b":2},{"a":1,"b":2},{"a":3,"b":2}]"#.into(),
        ),
        (
            format!(r#"[{{{wide}"z":0}},{{{wide}"k0":9}}]"#),
            "k0",
            format!(
                r#"[{{{wide}"z":0}},{{"k0":9,{}}}]"#,
                &wide[7..wide.len() - 1]
            ),
        ),
    ];
    for (input, key, last_wins) in &cases {
        // The error points at the repeated key, its last occurrence.
        let column = input.rfind(&format!("\"{key}\"")).unwrap() + 1;
        let error = format!("duplicate key \"{key}\" at line 1 column {column}");
        assert_eq!(from_str(input).unwrap_err().to_string(), error, "{input}");
        let options = ParseOptions::new().duplicate_keys(DuplicateKeys::LastWins);
        let value = from_slice_with(input.as_bytes(), &options).unwrap();
        assert_eq!(serde_json::to_string(&value).unwrap(), *last_wins);
    }
}

/// A parsed object (whose keys the parser may share with the objects
/// before it) behaves as one built by `insert`, through every operation,
/// small and large.
#[test]
fn parsed_maps_behave_as_built_ones() {
    for len in [3, 30] {
        let record: Vec<String> = (0..len).map(|i| format!(r#""k{i}":{i}"#)).collect();
        let record = format!("{{{}}}", record.join(","));
        let input = format!("[{record},{record},{record}]");
        let parsed = from_str(&input).unwrap();
        let built: Map = (0..len)
            .map(|i| (format!("k{i}"), Value::from(i)))
            .collect();
        // The members in order (`Map`'s `==` ignores order).
        let pairs = |m: &Map| -> Vec<(String, Value)> {
            m.iter().map(|(k, v)| (k.to_owned(), v.clone())).collect()
        };
        for object in parsed.as_array().unwrap() {
            let mut ours = object.as_object().unwrap().clone();
            let mut theirs = built.clone();
            assert_eq!(pairs(&ours), pairs(&theirs));
            *ours.get_mut("k1").unwrap() = Value::from("one");
            *theirs.get_mut("k1").unwrap() = Value::from("one");
            assert_eq!(
                ours.insert("k2", Value::Null),
                theirs.insert("k2", Value::Null)
            );
            assert_eq!(pairs(&ours), pairs(&theirs));
            assert_eq!(ours.insert("new", Value::Null), None);
            theirs.insert("new", Value::Null);
            assert_eq!(ours.remove("k0"), theirs.remove("k0"));
            assert_eq!(pairs(&ours), pairs(&theirs));
            ours.sort_keys();
            theirs.sort_keys();
            assert_eq!(pairs(&ours), pairs(&theirs));
            assert_eq!(ours.index_of("new"), theirs.index_of("new"));
            let owned: Vec<(String, Value)> = ours.clone().into_iter().rev().collect();
            let expected: Vec<(String, Value)> = theirs.clone().into_iter().rev().collect();
            assert_eq!(owned, expected);
            assert_eq!(ours, theirs);
        }
        // The other objects of the series did not change, nor did the
        // keys they share.
        assert_eq!(pairs(parsed[2].as_object().unwrap()), pairs(&built));
    }
}

/// A `Parser` reads each of many inputs as `from_slice_with` reads it
/// alone, whatever came before it: the records of a real dataset one at a
/// time, series of objects that drift from the keys before them, and
/// errors (of syntax, depth, length, duplicates) between good inputs,
/// under several options.
#[test]
fn a_parser_reads_each_input_as_from_slice_with() {
    let github = from_slice(include_bytes!("../data/github.json")).unwrap();
    let mut inputs: Vec<String> = github["repositories"]
        .as_array()
        .unwrap()
        .iter()
        .map(|record| serde_json::to_string(record).unwrap())
        .collect();
    let series = [
        r#"{"a":1,"b":2}"#,
        r#"{"a":1,"b":2,"e":3}"#,
        r#"{"a":1}"#,
        r#"{"a":1,"x":2,"b":3}"#,
        r#"{"b":1,"a":2}"#,
        r#"{"a":[{"a":1,"b":2},{"a":1,"b":2}]}"#,
        r#"{"a":1,"b":2,"a":3}"#,
        r#"{"a":1,"b":2}"#,
        r#"{"a":1,"b":2,"b":3}"#,
        r#"{"a":1,"b":[[[[1]]]]}"#,
        r#"{"a":1,"b":2"#,
        r#"{"a":1,"b":2} x"#,
        r#"{"a":1,"b":"\ud800"}"#,
        "",
        "[1, 2",
        r#"{"a":1,"b":2}"#,
    ];
    inputs.extend(series.iter().map(|s| s.to_string()));
    inputs.push(serde_json::to_string(&github).unwrap());
    let options = [
        ParseOptions::new(),
        ParseOptions::new().duplicate_keys(DuplicateKeys::LastWins),
        ParseOptions::new().max_depth(4),
        ParseOptions::new().max_len(20),
    ];
    for options in options {
        let mut parser = options.clone().parser();
        // Twice over: the second time, every shape is already known.
        for input in inputs.iter().chain(&inputs) {
            let alone = from_slice_with(input.as_bytes(), &options);
            match (parser.parse(input.as_bytes()), alone) {
                // In its own key order, whatever shapes the parser knows.
                (Ok(parsed), Ok(alone)) => assert!(
                    parsed.identical(&alone),
                    "{options:?} {input}: {parsed:?} vs {alone:?}"
                ),
                (parsed, alone) => assert_eq!(parsed, alone, "{options:?} {input}"),
            }
        }
    }
}

//! The public API: the codec through every entry point (codec-core's test
//! kit), limits, and `parse_table`.

use crate::support;

use std::collections::{BTreeMap, HashMap};

use codec_core::testkit::{CodecTester, nested};
use codec_core::{
    Codec, CodecExt, EncodeError, Value, from_slice, to_value, value::DEFAULT_MAX_DEPTH,
};
use codec_md::{MarkdownCodec, ParseErrorKind, Table, parse_table, render};
use serde::Serialize;

#[test]
fn names_its_format_and_media_type() {
    for codec in [
        MarkdownCodec::new(),
        MarkdownCodec::default(),
        MarkdownCodec::builder().build(),
    ] {
        assert_eq!(codec.format(), "md");
        assert_eq!(
            codec.media_type().as_str(),
            "text/markdown; charset=utf-8; variant=GFM"
        );
    }
}

#[derive(Serialize)]
struct Repo {
    name: &'static str,
    stars: u32,
    score: f64,
    topics: Vec<&'static str>,
    owner: Owner,
    meta: HashMap<&'static str, i32>,
}

#[derive(Serialize)]
struct Owner {
    login: &'static str,
    admin: bool,
}

/// A rendering appends to the caller's buffer and never takes back a
/// byte written before it: an empty list line (`[null]`) once dropped the
/// space a buffer ended with, and a budgeted codec then panicked.
#[test]
fn a_rendering_keeps_the_bytes_before_it() {
    let budgeted = MarkdownCodec::builder()
        .budget(Some(codec_core::TextLimit::chars(100)))
        .build();
    for json in ["[null]", "[null, null]", r#"{"a": [null]}"#, r#"[[null]]"#] {
        let value = from_slice(json.as_bytes()).unwrap();
        for codec in [MarkdownCodec::new(), budgeted.clone()] {
            let alone = codec.to_vec(&value).unwrap();
            let mut out = b"before ".to_vec();
            codec.encode_value(&value, &mut out).unwrap();
            assert_eq!(out[..7], *b"before ", "{json}");
            assert_eq!(out[7..], alone, "{json}");
        }
    }
}

#[test]
fn serializes_like_the_json_codec_normalizes() {
    let codec = MarkdownCodec::new();
    let tester = CodecTester::new(&codec);
    let repo = Repo {
        name: "codecs",
        stars: 76,
        score: 0.98,
        topics: vec!["rust", "llm"],
        owner: Owner {
            login: "ada",
            admin: true,
        },
        meta: HashMap::from([("z", 1), ("a", 2), ("m", 3)]),
    };
    // Struct fields keep their order; map keys are sorted.
    let bytes = tester.check_serialize("struct", &repo);
    assert_eq!(
        String::from_utf8(bytes).unwrap(),
        concat!(
            "- **name**: codecs\n",
            "- **stars**: 76\n",
            "- **score**: 0.98\n",
            "- **topics**: rust, llm\n",
            "\n",
            "# owner\n",
            "\n",
            "- **login**: ada\n",
            "- **admin**: true\n",
            "\n",
            "# meta\n",
            "\n",
            "- **a**: 2\n",
            "- **m**: 3\n",
            "- **z**: 1\n",
        )
    );
    let rows = vec![
        BTreeMap::from([("b", 1), ("a", 2)]),
        BTreeMap::from([("a", 3), ("b", 4)]),
    ];
    let bytes = tester.check_serialize("maps", &rows);
    assert_eq!(bytes, b"|a|b|\n|---|---|\n|2|1|\n|3|4|\n");
    for (label, value) in [
        ("unit", to_value(&()).unwrap()),
        ("string", Value::from("x\ny")),
        ("float", Value::from(1e300)),
        ("empty", Value::Array(vec![])),
    ] {
        tester.check_value(label, &value);
    }
}

#[test]
fn datasets_through_every_entry_point() {
    let codec = MarkdownCodec::new();
    let tester = CodecTester::new(&codec);
    for (name, json) in [
        ("github", &include_bytes!("../data/github.json")[..]),
        (
            "nested-config",
            include_bytes!("../data/nested-config.json"),
        ),
        (
            "event-logs-40",
            include_bytes!("../data/event-logs-40.json"),
        ),
    ] {
        let value = from_slice(json).unwrap();
        let bytes = tester.check_value(name, &value);
        assert_eq!(bytes, render(&value).unwrap().into_bytes(), "{name}");
    }
}

#[test]
fn rejects_values_deeper_than_the_core_limit() {
    let codec = MarkdownCodec::new();
    CodecTester::new(&codec).check_depth_limit();
    for objects in [false, true] {
        // At the limit: fine, and no stack overflow on the way.
        let deepest = nested(DEFAULT_MAX_DEPTH, objects);
        assert!(render(&deepest).is_ok(), "objects: {objects}");
        let too_deep = nested(DEFAULT_MAX_DEPTH + 1, objects);
        assert!(
            matches!(render(&too_deep), Err(EncodeError::DepthLimit { limit }) if limit == DEFAULT_MAX_DEPTH),
            "objects: {objects}"
        );
    }
    // A table's rows are one level below the array.
    let mut table = Value::Array(vec![Value::Object(
        [("a", Value::Null)].into_iter().collect(),
    )]);
    for _ in 0..DEFAULT_MAX_DEPTH - 1 {
        table = Value::Array(vec![table]);
    }
    assert!(matches!(
        render(&table),
        Err(EncodeError::DepthLimit { .. })
    ));
}

/// Output stays proportional to the input, even for an array of objects
/// that share no key (a table would be quadratic).
#[test]
fn output_is_linear_in_the_input() {
    let n = 20_000;
    let uniform: Vec<Value> = (0..n)
        .map(|i| {
            Value::Object(
                [("id", Value::from(i)), ("name", Value::from("x"))]
                    .into_iter()
                    .collect(),
            )
        })
        .collect();
    let sparse: Vec<Value> = (0..n)
        .map(|i| Value::Object([(format!("k{i}"), Value::from(i))].into_iter().collect()))
        .collect();
    for (label, items) in [("uniform", uniform), ("sparse", sparse)] {
        let value = Value::Array(items);
        let markdown = render(&value).unwrap();
        assert!(markdown.len() < 40 * n, "{label}: {} bytes", markdown.len());
    }
}

#[test]
fn parse_table_reads_back_every_cell() {
    let value = from_slice(include_bytes!("../data/github.json")).unwrap();
    let rows = value["repositories"].as_array().unwrap();
    let markdown = render(&value["repositories"]).unwrap();
    let table = parse_table(&markdown).unwrap();
    let columns: Vec<&str> = rows[0].as_object().unwrap().keys().collect();
    assert_eq!(table.columns, columns);
    assert_eq!(table.rows.len(), rows.len());
    for (cells, row) in table.rows.iter().zip(rows) {
        for (cell, column) in cells.iter().zip(&columns) {
            let exact = match &row[*column] {
                Value::String(s) => s.clone(),
                other => support::text(other),
            };
            assert_eq!(cell, &exact);
        }
    }
}

#[test]
fn parse_table_decodes_exactly() {
    let value =
        from_slice(br#"[{"a": "x\u0000y", "b|": "\\", "c": null}, {"a": " &amp; ", "d": 1.10}]"#)
            .unwrap();
    let table = parse_table(&render(&value).unwrap()).unwrap();
    assert_eq!(
        table,
        Table {
            columns: vec!["a".into(), "b|".into(), "c".into(), "d".into()],
            rows: vec![
                vec!["x\0y".into(), "\\".into(), "".into(), "".into()],
                vec![" &amp; ".into(), "".into(), "".into(), "1.10".into()],
            ],
        }
    );
}

#[test]
fn parse_table_says_where_and_what_it_expected() {
    let pipe = ParseErrorKind::Expected { expected: "`|`" };
    let delimiter = ParseErrorKind::Expected {
        expected: "a delimiter cell `---`",
    };
    let end = ParseErrorKind::Expected {
        expected: "the end of the table",
    };
    let count = |expected, found| ParseErrorKind::CellCount { expected, found };
    let cases: &[(&str, ParseErrorKind, (usize, usize), &str)] = &[
        ("", pipe.clone(), (1, 1), "line 1, column 1: expected `|`"),
        (
            "- **a**: 1\n",
            pipe.clone(),
            (1, 1),
            "line 1, column 1: expected `|`",
        ),
        (
            "|a|b\n",
            pipe.clone(),
            (1, 5),
            "line 1, column 5: expected `|`",
        ),
        (
            "|a|\n",
            pipe.clone(),
            (2, 1),
            "line 2, column 1: expected `|`",
        ),
        (
            "|a|b|\n|---|:--|\n",
            delimiter,
            (2, 6),
            "line 2, column 6: expected a delimiter cell `---`",
        ),
        (
            "|a|b|\n|---|\n",
            count(2, 1),
            (2, 5),
            "line 2, column 5: expected 2 cells, found 1",
        ),
        (
            "|a|\n|---|\n|1|2|\n",
            count(1, 2),
            (3, 5),
            "line 3, column 5: expected 1 cells, found 2",
        ),
        (
            "|a|b|a|\n|---|---|---|\n",
            ParseErrorKind::Expected {
                expected: "a column name that no earlier column has",
            },
            (1, 6),
            "line 1, column 6: expected a column name that no earlier column has",
        ),
        (
            "|a|\n|---|\n|1\\|\n",
            pipe,
            (3, 5),
            "line 3, column 5: expected `|`",
        ),
        (
            "|a|\n|---|\n|1|\n\n  more\n",
            end,
            (5, 3),
            "line 5, column 3: expected the end of the table",
        ),
    ];
    for (input, kind, position, message) in cases {
        let found = parse_table(input).unwrap_err();
        assert_eq!(found.kind(), kind, "{input:?}");
        assert_eq!((found.line(), found.column()), *position, "{input:?}");
        assert_eq!(found.to_string(), *message, "{input:?}");
    }
    // CRLF line endings are fine.
    let table = parse_table("|a|b|\r\n|---|---|\r\n|1|&#13;|\r\n").unwrap();
    assert_eq!(table.rows, [["1", "\r"]]);
    // Blank lines after the table are fine; so is a table with no rows.
    let table = parse_table("|a|\n|---|\n\n\n").unwrap();
    assert_eq!(table.columns, ["a"]);
    assert!(table.rows.is_empty());
}

#[test]
fn render_writes_into_the_callers_buffer() {
    let codec = MarkdownCodec::new();
    let mut out = b"prefix:".to_vec();
    codec.encode(&[1, 2, 3], &mut out).unwrap();
    assert_eq!(out, b"prefix:1, 2, 3\n");
}

/// Lossless and dense are profiles, not options that could be combined:
/// each writes its own rendering, and the default is `Profile::Default`.
#[test]
fn each_profile_writes_its_own_rendering() {
    use codec_core::CodecExt;
    use codec_md::{MarkdownCodec, Profile};
    let rows: Vec<_> = (0..12)
        .map(|i| {
            codec_core::from_str(&format!(
                r#"{{"id":{i},"zip":"0{i:04}","n":"{i}","note":null}}"#
            ))
            .unwrap()
        })
        .collect();
    let value = codec_core::Value::Array(rows);
    let rendered = |profile| {
        MarkdownCodec::builder()
            .profile(profile)
            .build()
            .to_vec(&value)
            .unwrap()
    };
    let [default, lossless, dense] =
        [Profile::Default, Profile::Lossless, Profile::Dense].map(rendered);
    assert_eq!(default, MarkdownCodec::new().to_vec(&value).unwrap());
    assert_ne!(lossless, default);
    assert_ne!(dense, default);
    assert_ne!(dense, lossless);
}

/// A codec reads back what it writes, with its layout's reading: the
/// same value as the matching function, for every profile and mode.
#[test]
fn a_codec_reads_back_what_it_writes() {
    use codec_core::{CodecExt, Value};
    use codec_md::{MarkdownCodec, ParseError, Profile, parse, parse_dense, parse_lossless};

    type Reader = fn(&str) -> Result<Value, ParseError>;
    let codecs: [(&str, MarkdownCodec, Reader); 3] = [
        ("default", MarkdownCodec::new(), parse),
        (
            "lossless",
            MarkdownCodec::builder().profile(Profile::Lossless).build(),
            parse_lossless,
        ),
        (
            "dense",
            MarkdownCodec::builder().profile(Profile::Dense).build(),
            parse_dense,
        ),
    ];
    let value = codec_core::from_str(
        r#"{"id": "007", "n": "42", "tags": ["x"], "note": "a, b",
            "rows": [{"a": 1, "b": {"c": "d"}}, {"a": 2, "b": {"c": "e"}}]}"#,
    )
    .unwrap();
    for (label, codec, reader) in codecs {
        let markdown = String::from_utf8(codec.to_vec(&value).unwrap()).unwrap();
        let read = codec.parse(&markdown).unwrap();
        assert_eq!(read, reader(&markdown).unwrap(), "{label}");
        // The lossless codec gives back exactly the value; the default
        // one what plain markdown carries ("42" reads as 42).
        match label {
            "lossless" => assert_eq!(read, value, "{markdown}"),
            "default" => assert_eq!(read, codec_md::normalize(&value), "{markdown}"),
            _ => {}
        }
    }
    let error = MarkdownCodec::new()
        .parse("- **a**: 1\n\ntext\n")
        .unwrap_err();
    assert_eq!((error.line(), error.column()), (3, 1));
}

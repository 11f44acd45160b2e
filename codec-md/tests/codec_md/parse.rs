//! `parse`: each construct of the schema read back, markdown written by
//! others (the table styles common tools emit, the GFM spec's table
//! examples, key lists), errors with their position, and adversarial
//! inputs that a parser with any backtracking would take quadratic time on.

use codec_core::{Value, from_str};
use codec_md::{ParseError, ParseErrorKind, parse, parse_lossless};

fn json(text: &str) -> Value {
    from_str(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

#[test]
fn reads_each_construct() {
    let cases: &[(&str, &str)] = &[
        ("", "null"),
        ("\n\n", "null"),
        ("true\n", "true"),
        ("1.10\n", "1.10"),
        ("plain\n", r#""plain""#),
        ("\\# x\n", r##""# x""##),
        ("a, b, 3\n", r#"["a", "b", 3]"#),
        ("[]\n", "[]"),
        ("{}\n", "{}"),
        ("```\na\n\nb\n```\n", r#""a\n\nb""#),
        (
            "- **a**: 1\n- **b**:\n- : x\n",
            r#"{"a": 1, "b": null, "": "x"}"#,
        ),
        ("- **\\[0]**: 1\n", r#"{"[0]": 1}"#),
        ("- **[1]**: b\n- **[0]**: a\n", r#"["a", "b"]"#),
        (
            "- **[0]**: a\n- **[2]**: c\n",
            r#"{"[0]": "a", "[2]": "c"}"#,
        ),
        ("- **a**: {}\n- **b**: []\n", r#"{"a": {}, "b": []}"#),
        (
            "- **code**:\n  ```rust\n  fn main() {}\n\n  x\n  ```\n",
            r#"{"code": "fn main() {}\n\nx"}"#,
        ),
        (
            "- **a**: x&#13;&#10;y &amp;\\&amp;\n",
            r#"{"a": "x\r\ny &&amp;"}"#,
        ),
        (
            "- **a**: 1\n\n# b\n\n- **c**: 2\n\n## d\n\n|x|y|\n|---|---|\n|1||\n\n# e\n\n- **f**: g\n",
            r#"{"a": 1, "b": {"c": 2, "d": [{"x": 1, "y": null}]}, "e": {"f": "g"}}"#,
        ),
        ("#\n\n- **a**: 1\n", r#"{"": {"a": 1}}"#),
        ("# [0]\n\n- **a**: 1\n", r#"[{"a": 1}]"#),
        ("|a\\|b|\n|---|\n|c\\|d|\n", r#"[{"a|b": "c|d"}]"#),
        ("|id|\n|---|\n", "[]"),
        // Below h6: an h6 with no list of its own holds the h6s after it.
        (
            "###### f\n\n###### g\n\n- **h**: 1\n\n###### i\n\n- **j**: 2\n",
            r#"{"f": {"g": {"h": 1}, "i": {"j": 2}}}"#,
        ),
        // CRLF line endings.
        ("- **a**: 1\r\n- **b**: x\r\n", r#"{"a": 1, "b": "x"}"#),
    ];
    for (markdown, expected) in cases {
        let found = parse(markdown).unwrap_or_else(|e| panic!("{markdown:?}: {e}"));
        assert_eq!(found, json(expected), "{markdown:?}");
    }
}

#[test]
fn lossless_reads_its_markers() {
    let cases: &[(&str, &str)] = &[
        (
            "- **a**: \"42\"\n- **b**: \"\"\n- **c**:\n",
            r#"{"a": "42", "b": "", "c": null}"#,
        ),
        (
            "- **a**: x\\, y\n- **b**: \\[x]\n",
            r#"{"a": "x, y", "b": ["x"]}"#,
        ),
        ("|a|b|\n|---|---|\n|-|\"-\"|\n", r#"[{"b": "-"}]"#),
        (
            "- **s**: #\n- **t**: 1\n\n# s\n\n- **u**: 2\n",
            r#"{"s": {"u": 2}, "t": 1}"#,
        ),
        (
            "###### f\n\n###### g #\n\n- **h**: 1\n\n###### i\n\n- **j**: 2\n",
            r#"{"f": {"g": {"h": 1}}, "i": {"j": 2}}"#,
        ),
        ("\"\"\n", r#""""#),
        ("\\[1]\n", "[1]"),
    ];
    for (markdown, expected) in cases {
        let found = parse_lossless(markdown).unwrap_or_else(|e| panic!("{markdown:?}: {e}"));
        assert_eq!(found, json(expected), "{markdown:?}");
    }
}

/// Tables in the styles that common tools write, read back with their
/// cells typed by the documented reading. The files are in
/// `tests/data/foreign/`, one per style.
#[test]
fn reads_tables_written_by_others() {
    let cases: &[(&str, &str, &str)] = &[
        (
            "markdown-table (npm), aligned and padded",
            include_str!("../data/foreign/markdown-table.md"),
            r#"[{"Branch": "main", "Commit": "0123456789abcdef", "Age": 3},
                {"Branch": "staging", "Commit": "fedcba9876543210", "Age": null}]"#,
        ),
        (
            "tabulate github",
            include_str!("../data/foreign/tabulate-github.md"),
            r#"[{"item": "spam", "qty": 42, "ok": "True"}, {"item": "eggs", "qty": 451, "ok": false}]"#,
        ),
        (
            "tabulate pipe",
            include_str!("../data/foreign/tabulate-pipe.md"),
            r#"[{"item": "spam", "qty": 42}, {"item": "eggs", "qty": 451}, {"item": "bacon", "qty": 0}]"#,
        ),
        (
            "pandas to_markdown",
            include_str!("../data/foreign/pandas.md"),
            r#"[{"": 0, "animal_1": "elk", "animal_2": "dog", "weight": 12.5},
                {"": 1, "animal_1": "pig", "animal_2": "quetzal", "weight": "nan"}]"#,
        ),
        (
            "no outer pipes, escaped pipe, code span",
            include_str!("../data/foreign/no-outer-pipes.md"),
            r#"[{"name": "Ada", "note": "a | b"}, {"name": "Bob", "note": "`x`"}]"#,
        ),
        (
            "key lists",
            include_str!("../data/foreign/key-list.md"),
            r#"{"name": "Ada Lovelace", "born": 1815, "fields": ["math", "engines"],
                "active": true, "note": null, "address": {"city": "London", "country": "UK"}}"#,
        ),
    ];
    for (label, markdown, expected) in cases {
        let found = parse(markdown).unwrap_or_else(|e| panic!("{label}: {e}"));
        assert_eq!(found, json(expected), "{label}");
    }
}

/// The table examples of the GFM spec (198-205): what it calls a table is
/// read as one; what it does not is rejected with a position.
#[test]
fn reads_the_gfm_spec_table_examples() {
    let accepted: &[(&str, &str)] = &[
        (
            "| foo | bar |\n| --- | --- |\n| baz | bim |\n",
            r#"[{"foo": "baz", "bar": "bim"}]"#,
        ),
        (
            "| abc | defghi |\n:-: | -----------:\nbar | baz\n",
            r#"[{"abc": "bar", "defghi": "baz"}]"#,
        ),
        (
            "| f\\|oo  |\n| ------ |\n| b `\\|` az |\n| b **\\|** im |\n",
            r#"[{"f|oo": "b `|` az"}, {"f|oo": "b **|** im"}]"#,
        ),
        // A short row leaves its last members out (a long row is an
        // error: `tables_lose_no_cell`).
        (
            "| abc | def |\n| --- | --- |\n| bar |\n| bar | baz |\n",
            r#"[{"abc": "bar"}, {"abc": "bar", "def": "baz"}]"#,
        ),
        ("| abc | def |\n| --- | --- |\n", "[]"),
    ];
    for (markdown, expected) in accepted {
        let found = parse(markdown).unwrap_or_else(|e| panic!("{markdown:?}: {e}"));
        assert_eq!(found, json(expected), "{markdown:?}");
    }
    let rejected: &[(&str, usize)] = &[
        // A block quote after the table.
        ("| abc | def |\n| --- | --- |\n| bar | baz |\n> bar\n", 4),
        // Paragraph text after the table.
        (
            "| abc | def |\n| --- | --- |\n| bar | baz |\nbar\n\nbar\n",
            6,
        ),
        // Header and delimiter row differ: not a table, two paragraph lines.
        ("| abc | def |\n| --- |\n| bar |\n", 2),
    ];
    for (markdown, line) in rejected {
        let error = parse(markdown).unwrap_err();
        assert_eq!(error.line(), *line, "{markdown:?}: {error}");
    }
}

#[test]
fn errors_say_where_and_what_was_expected() {
    let cases: &[(&str, (usize, usize), &str, &str)] = &[
        (
            "- **a**: 1\n\ntext\n",
            (3, 1),
            "a heading, a `- key: value` line or a table",
            "line 3, column 1: expected a heading, a `- key: value` line or a table",
        ),
        (
            "- **a: 1\n",
            (1, 9),
            "`**` after the key",
            "line 1, column 9: expected `**` after the key",
        ),
        (
            "- **a** 1\n",
            (1, 8),
            "`:` after the key",
            "line 1, column 8: expected `:` after the key",
        ),
        (
            "- **a**: 1\n- no colon here\n",
            (2, 16),
            "`: ` after a key (`- key: value`)",
            "line 2, column 16: expected `: ` after a key (`- key: value`)",
        ),
        (
            "one\ntwo\n",
            (2, 1),
            "a heading, a `- key: value` line or a table",
            "line 2, column 1: expected a heading, a `- key: value` line or a table",
        ),
        (
            "plain\n\n# a\n\n- **b**: 1\n",
            (3, 1),
            "the end of the document (a list, table or paragraph ends it here)",
            "line 3, column 1: expected the end of the document (a list, table or paragraph ends it here)",
        ),
    ];
    for (markdown, position, expected, message) in cases {
        let found = parse(markdown).unwrap_err();
        assert_eq!(
            found.kind(),
            &ParseErrorKind::Expected { expected },
            "{markdown:?}"
        );
        assert_eq!((found.line(), found.column()), *position, "{markdown:?}");
        assert_eq!(found.to_string(), *message, "{markdown:?}");
    }
    // Nesting is bounded: 200 h6 headings with nothing under them would
    // each hold the next.
    let deep = "######\n\n".repeat(200);
    let error = parse(&deep).unwrap_err();
    assert!(
        matches!(error.kind(), ParseErrorKind::DepthLimit { limit: 128, .. }),
        "{error}"
    );
    assert_eq!(
        error.to_string(),
        "line 257, column 1: sections nested deeper than the limit of 128"
    );
}

/// Blocks markdown reads where a top-level paragraph would be, which no
/// layout writes there (a string's leading `>`, `---` or indent is
/// escaped): each is an error at the column where it starts, in every
/// reader, as a block quote of several lines is, never a string that lost
/// its markup. The escaped forms read as the strings.
#[test]
fn blocks_in_a_paragraph_s_place_are_refused() {
    let quote = "a paragraph, not a block quote";
    let rule = "a paragraph, not a thematic break";
    let code = "a paragraph, not an indented code block";
    let cases: &[(&str, (usize, usize), &str)] = &[
        ("> x\n", (1, 1), quote),
        ("  > x\n", (1, 3), quote),
        (">\n", (1, 1), quote),
        ("> x\n> y\n", (1, 1), quote),
        ("---\n", (1, 1), rule),
        ("***\n", (1, 1), rule),
        ("_ _ _\n", (1, 1), rule),
        (" -- - \n", (1, 2), rule),
        ("    code\n", (1, 1), code),
        ("\tcode\n", (1, 1), code),
        ("  \tcode\n", (1, 1), code),
        // A streamed row written as a document.
        ("# [0..]\n\n## [0]\n\n> x\n", (5, 1), quote),
    ];
    for (markdown, (line, column), expected) in cases {
        for (name, reader) in [
            ("parse", parse as fn(&str) -> Result<Value, ParseError>),
            ("parse_lossless", parse_lossless),
            ("parse_dense", codec_md::parse_dense),
        ] {
            let error = reader(markdown).unwrap_err();
            assert_eq!(
                error.kind(),
                &ParseErrorKind::Expected { expected },
                "{name} {markdown:?}"
            );
            assert_eq!(
                (error.line(), error.column()),
                (*line, *column),
                "{name} {markdown:?}"
            );
        }
    }
    for text in ["> x", "---", "    code", "\tcode", "***", "_ _ _", " > x"] {
        let value = Value::String(text.into());
        let markdown = codec_md::render(&value).unwrap();
        assert_eq!(parse(&markdown).unwrap(), value, "{markdown:?}");
        assert_eq!(parse_lossless(&markdown).unwrap(), value, "{markdown:?}");
    }
    // Not blocks: a dash run shorter than three, text after the marks.
    assert_eq!(parse("--\n").unwrap(), Value::String("--".into()));
    assert_eq!(parse("--- x\n").unwrap(), Value::String("--- x".into()));
    assert_eq!(parse("   x\n").unwrap(), Value::String("x".into()));
}

/// A table never loses a cell: a column named twice is an error at its
/// second header cell, a row longer than the header at its end, in every
/// reader (a dense table's column paths too, whether or not a row fills
/// both); a short row still leaves out its last members.
#[test]
fn tables_lose_no_cell() {
    let repeated = "a column name that no earlier column has";
    let cases: &[(&str, &str, (usize, usize), &str)] = &[
        ("parse", "|a|a|\n|---|---|\n|1|2|\n", (1, 4), repeated),
        ("parse", "| a | b | a |\n|---|---|---|\n", (1, 10), repeated),
        ("parse", "|x|&#120;|\n|---|---|\n", (1, 4), repeated),
        (
            "parse_lossless",
            "|a|a|\n|---|---|\n|1|2|\n",
            (1, 4),
            repeated,
        ),
        ("parse_dense", "|a|a|\n|---|---|\n|1|2|\n", (1, 4), repeated),
        ("parse_dense", "|a|a|\n|---|---|\n|1||\n", (1, 4), repeated),
        ("parse_dense", "|a|a|\n|---|---|\n", (1, 4), repeated),
        (
            "parse_dense",
            "| |a.b|x|a.b|\n|---|---|---|---|\n",
            (1, 10),
            repeated,
        ),
        (
            "parse_dense",
            "|a.b|a&#46;b|a.b|\n|---|---|---|\n",
            (1, 14),
            repeated,
        ),
        // Distinct paths, one through the other's cell: an error where a
        // row fills both.
        (
            "parse_dense",
            "|a|a.b|\n|---|---|\n|1|2|\n",
            (3, 1),
            "column paths that do not pass through another column's cell",
        ),
    ];
    let reader = |name: &str| match name {
        "parse" => parse as fn(&str) -> Result<Value, ParseError>,
        "parse_lossless" => parse_lossless,
        _ => codec_md::parse_dense,
    };
    for (name, markdown, (line, column), expected) in cases {
        let error = reader(name)(markdown).unwrap_err();
        assert_eq!(
            error.kind(),
            &ParseErrorKind::Expected { expected },
            "{name} {markdown:?}"
        );
        assert_eq!(
            (error.line(), error.column()),
            (*line, *column),
            "{name} {markdown:?}"
        );
    }
    let long = [
        ("|a|b|\n|---|---|\n|1|2|3|\n", (3, 7)),
        (
            "# t\n\n| a | b |\n| --- | --- |\n| 1 | 2 |\n| 1 | 2 | 3 |\n",
            (6, 13),
        ),
        ("a | b\n--- | ---\n1 | 2 | 3\n", (3, 9)),
    ];
    for (markdown, position) in long {
        for name in ["parse", "parse_lossless", "parse_dense"] {
            let error = reader(name)(markdown).unwrap_err();
            assert_eq!(
                error.kind(),
                &ParseErrorKind::CellCount {
                    expected: 2,
                    found: 3
                },
                "{name} {markdown:?}"
            );
            assert_eq!(
                (error.line(), error.column()),
                position,
                "{name} {markdown:?}"
            );
        }
    }
    let short = "|a|b|\n|---|---|\n|1|\n";
    for name in ["parse", "parse_lossless", "parse_dense"] {
        assert_eq!(
            reader(name)(short).unwrap(),
            json(r#"[{"a": 1}]"#),
            "{name}"
        );
    }
}

/// A table whose delimiter row is wrong is reported on that row, at its
/// first bad cell or (a wrong number of cells) at its end, by every
/// reader: not as a stray paragraph line, and not at the header.
#[test]
fn bad_delimiter_rows_are_reported_where_they_are() {
    let cases: &[(&str, (usize, usize), &str)] = &[
        (
            "|a|\n|-x-|\n|1|\n",
            (2, 2),
            "expected a delimiter cell `---`",
        ),
        (
            "# t\n\n| a | b |\n| --- | -x- |\n| 1 | 2 |\n",
            (4, 9),
            "expected a delimiter cell `---`",
        ),
        ("a|b\n--|x\n", (2, 4), "expected a delimiter cell `---`"),
        (
            "- **k**: 1\n\n# t\n\n|a|b|\n|a|b|\n",
            (6, 2),
            "expected a delimiter cell `---`",
        ),
        ("|a|b|\n|---|\n|1|2|\n", (2, 5), "expected 2 cells, found 1"),
        (
            "- **k**: 1\n\n# t\n\n|a|\n|---|:-:|\n",
            (6, 9),
            "expected 1 cells, found 2",
        ),
    ];
    for (markdown, (line, column), message) in cases {
        for (name, reader) in [
            ("parse", parse as fn(&str) -> Result<Value, ParseError>),
            ("parse_lossless", parse_lossless),
            ("parse_dense", codec_md::parse_dense),
        ] {
            let error = reader(markdown).unwrap_err();
            assert_eq!(
                error.to_string(),
                format!("line {line}, column {column}: {message}"),
                "{name} {markdown:?}"
            );
        }
    }
    // A fence's opening line is not a table's header.
    assert_eq!(
        parse("```x|y\nz|w\n```\n").unwrap(),
        Value::String("z|w".into())
    );
}

/// 1 MB of each character that opens a construct: each parse ends (a
/// quadratic parser would take minutes here and time the test run out)
/// with the result pinned, and never panics. The design that makes this
/// linear is in `src/read/lexer.rs`.
#[test]
fn adversarial_inputs_parse_in_one_pass() {
    const MB: usize = 1 << 20;
    let long = |unit: &str| unit.repeat(MB / unit.len());
    type Check = fn(&Result<Value, ParseError>) -> bool;
    let cases: Vec<(&str, String, Check)> = vec![
        ("backticks", long("`"), |r| {
            r == &Ok(Value::String(String::new()))
        }),
        ("backtick lines", long("````\n"), |r| {
            r.as_ref().is_err_and(|e| e.line() == 3)
        }),
        ("short backtick runs", long("`` "), |r| {
            matches!(r, Ok(Value::String(_)))
        }),
        ("pipes", long("|"), |r| matches!(r, Ok(Value::String(_)))),
        ("pipe lines", long("|\n"), |r| {
            r.as_ref().is_err_and(|e| e.line() == 2)
        }),
        ("delimiter rows", long("|-|\n"), |r| r.is_ok()),
        ("hashes", long("#"), |r| matches!(r, Ok(Value::String(_)))),
        ("heading lines", long("# \n"), |r| r.is_ok()),
        // Plain: each holds the next, up to the limit; lossless: siblings.
        ("h6 lines", long("###### a\n"), |r| {
            matches!(r, Ok(Value::Object(_)))
                || r.as_ref()
                    .is_err_and(|e| matches!(e.kind(), ParseErrorKind::DepthLimit { .. }))
        }),
        // A run of three or more `*` is a thematic break.
        ("stars", long("*"), |r| {
            r.as_ref().is_err_and(|e| (e.line(), e.column()) == (1, 1))
        }),
        ("star words", long("**a"), |r| {
            matches!(r, Ok(Value::String(_)))
        }),
        ("star items", long("* "), |r| r.is_err()),
        ("brackets", long("["), |r| matches!(r, Ok(Value::String(_)))),
        ("link openers", long("[a]("), |r| {
            matches!(r, Ok(Value::String(_)))
        }),
        ("nested markers", long("- "), |r| r.is_err()),
        ("nested marker lines", long("- - - x\n"), |r| r.is_err()),
        (
            "indented markers",
            format!("- **a**: 1\n{}", long("  - ")),
            |r| r.is_err(),
        ),
        ("bold keys", format!("- {}", long("**")), |r| r.is_err()),
        ("escapes", long("\\"), |r| matches!(r, Ok(Value::String(_)))),
        (
            "escaped pipes",
            format!("|a|\n|---|\n|{}|\n", long("\\|")),
            |r| r.is_ok(),
        ),
        ("refs", long("&#"), |r| matches!(r, Ok(Value::String(_)))),
        ("commas", long(","), |r| matches!(r, Ok(Value::Array(_)))),
        ("quotes", long("\""), |r| matches!(r, Ok(Value::String(_)))),
        ("items", long("- **a**: 1\n"), |r| r.is_ok()),
        ("colons", format!("- {}", long(":")), |r| r.is_ok()),
    ];
    for (label, input, check) in cases {
        for lossless in [false, true] {
            let result = if lossless {
                parse_lossless(&input)
            } else {
                parse(&input)
            };
            assert!(
                check(&result),
                "{label} (lossless {lossless}): {:?}",
                result.as_ref().map(|_| "a value")
            );
        }
    }
}

mod never_panics {
    use proptest::prelude::*;

    /// Lines made of the schema's own pieces, shuffled: headings, bullets,
    /// keys, pipes, fences, escapes, refs, quotes and non-ASCII text.
    fn markdownish() -> impl Strategy<Value = String> {
        let atoms = prop_oneof![
            Just("\n"),
            Just("\r\n"),
            Just("# "),
            Just("###### "),
            Just(" #"),
            Just("- "),
            Just("* "),
            Just("**"),
            Just("**[0]**"),
            Just(": "),
            Just(":"),
            Just("|"),
            Just("|---|"),
            Just(":-:"),
            Just("```"),
            Just("  ```"),
            Just("~~~"),
            Just("\\"),
            Just("\\["),
            Just("]"),
            Just("&#"),
            Just("&#x1F600;"),
            Just("&amp;"),
            Just("\""),
            Just(", "),
            Just("42"),
            Just("é"),
            Just("😀"),
            Just("a"),
            Just(" "),
        ];
        prop::collection::vec(atoms, 0..40).prop_map(|parts| parts.concat())
    }

    proptest! {
        // 256 cases keep CI fast; PROPTEST_CASES=100000 searches harder.
        #![proptest_config(ProptestConfig::with_cases(
            std::env::var("PROPTEST_CASES").ok().and_then(|n| n.parse().ok()).unwrap_or(256)
        ))]

        #[test]
        fn on_markdownish_input(text in markdownish()) {
            let _ = codec_md::parse(&text);
            let _ = codec_md::parse_lossless(&text);
        }

        #[test]
        fn on_any_input(text in any::<String>()) {
            let _ = codec_md::parse(&text);
            let _ = codec_md::parse_lossless(&text);
        }
    }
}

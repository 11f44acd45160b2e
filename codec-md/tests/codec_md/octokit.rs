//! Recorded GitHub API responses (`tests/data/octokit/`, from
//! `@octokit/fixtures`) through the default profile: each reads back as
//! `normalize` says, and a string whose commas the renderer would never
//! have written as list separators (`1,000`, GitHub's URL templates
//! `…/notifications{?since,all,participating}`) comes back as that string
//! (issue 17, finding 6).

use std::path::{Path, PathBuf};

use codec_core::Value;
use codec_md::{normalize, parse, render};

/// The response bodies, by file name.
fn responses() -> Vec<(String, Value)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/octokit");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|path| {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            let value = codec_core::from_slice(&std::fs::read(&path).unwrap())
                .unwrap_or_else(|e| panic!("{name}: {e}"));
            (name, value)
        })
        .collect()
}

/// Whether the renderer could have written `s` as an inline list: items
/// are joined by `, `, and an empty last item leaves a final `,`.
fn reads_as_list(s: &str) -> bool {
    s.contains(", ") || s.contains(",\t") || s.ends_with(',')
}

/// The strings of `value` with a comma that is not a list separator, and
/// where they are (a path of keys and indices).
fn bare_comma_strings(value: &Value, path: &mut Vec<String>, out: &mut Vec<(Vec<String>, String)>) {
    match value {
        Value::String(s) if s.contains(',') && !reads_as_list(s) => {
            out.push((path.clone(), s.clone()));
        }
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                path.push(i.to_string());
                bare_comma_strings(item, path, out);
                path.pop();
            }
        }
        Value::Object(map) => {
            for (key, member) in map {
                path.push(key.to_string());
                bare_comma_strings(member, path, out);
                path.pop();
            }
        }
        _ => {}
    }
}

/// The member at `path`, by key in objects and index in arrays.
fn at<'v>(value: &'v Value, path: &[String]) -> Option<&'v Value> {
    path.iter().try_fold(value, |value, step| match value {
        Value::Array(items) => items.get(step.parse::<usize>().ok()?),
        Value::Object(map) => map.get(step),
        _ => None,
    })
}

#[test]
fn recorded_github_responses_read_back_as_normalize_says() {
    let responses = responses();
    assert!(responses.len() >= 40, "{} responses", responses.len());
    let mut bare = 0;
    for (name, value) in &responses {
        let markdown = render(value).unwrap();
        let parsed = parse(&markdown).unwrap_or_else(|e| panic!("{name}: {e}\n{markdown}"));
        assert!(
            parsed == normalize(value),
            "{name}: parse(render(v)) != normalize(v)\n{markdown}"
        );
        let mut strings = Vec::new();
        bare_comma_strings(value, &mut Vec::new(), &mut strings);
        for (path, s) in strings {
            assert_eq!(
                at(&parsed, &path),
                Some(&Value::String(s.clone())),
                "{name}: {} does not come back as {s:?}",
                path.join(".")
            );
            bare += 1;
        }
    }
    // The repositories, the organization and the API root hold URL
    // templates (19 strings in all).
    assert!(bare >= 15, "only {bare} strings with bare commas");
}

/// The reading splits where the renderer separates items, and only there.
#[test]
fn only_separators_split() {
    let cases: &[(&str, &str)] = &[
        (
            r#"{"url": "https://api.github.com/notifications{?since,all,participating}"}"#,
            r#"{"url": "https://api.github.com/notifications{?since,all,participating}"}"#,
        ),
        (r#"{"n": "1,000"}"#, r#"{"n": "1,000"}"#),
        (r#"{"n": "1,000, 2,000"}"#, r#"{"n": ["1,000", "2,000"]}"#),
        (r#"{"a": "x, y"}"#, r#"{"a": ["x", "y"]}"#),
        (r#"{"a": "x,"}"#, r#"{"a": ["x", null]}"#),
        (r#"{"a": "x, "}"#, r#"{"a": "x, "}"#),
        (r#"{"a": ",x"}"#, r#"{"a": ",x"}"#),
        (r#"{"a": ", x"}"#, r#"{"a": [null, "x"]}"#),
        (r#"{"a": "x ,y"}"#, r#"{"a": "x ,y"}"#),
        (r#"{"a": "x\t,\ty"}"#, r#"{"a": ["x", "y"]}"#),
        (r#"["1,000", "2"]"#, r#"["1,000", 2]"#),
        (r#"",x""#, r#"",x""#),
        (r#"", x""#, r#"[null, "x"]"#),
        (r#""a,b""#, r#""a,b""#),
    ];
    for (input, expected) in cases {
        let value = codec_core::from_str(input).unwrap();
        let expected = codec_core::from_str(expected).unwrap();
        let markdown = render(&value).unwrap();
        assert_eq!(normalize(&value), expected, "normalize {input}");
        assert_eq!(parse(&markdown).unwrap(), expected, "parse {markdown:?}");
    }
}

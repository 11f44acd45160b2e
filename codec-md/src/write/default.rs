//! The default layout: the schema of `SPEC.md`, exactly the hooks'
//! defaults ([`Layout`]): key lists, headed sections, flat tables, fenced
//! code, and the lazy escaping of `ESCAPING.md`.

use super::Layout;

/// `SPEC.md`'s layout ([`Profile::Default`](crate::Profile::Default)).
#[derive(Debug, Clone, Copy)]
pub(super) struct DefaultLayout;

impl Layout for DefaultLayout {}

#[cfg(test)]
mod tests {
    use codec_core::{EncodeError, from_str, testkit::nested};

    use crate::write::{Options, render};

    fn rendered(json: &str) -> String {
        let value = from_str(json).unwrap_or_else(|e| panic!("{json}: {e}"));
        let mut out = Vec::new();
        render(&value, &mut out, &Options::default()).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn follows_each_rule() {
        let cases: &[(&str, &str)] = &[
            // Scalars at the top level.
            ("null", ""),
            ("true", "true\n"),
            ("1.10", "1.10\n"),
            ("-0.0", "-0.0\n"),
            (r#""""#, ""),
            (r#""plain""#, "plain\n"),
            (r##""# x""##, "\\# x\n"),
            (r#""12) x""#, "12\\) x\n"),
            (r#""a\nb""#, "```\na\nb\n```\n"),
            (r#""a\r\nb""#, "a&#13;&#10;b\n"),
            // Objects: scalars listed, containers as sections after them.
            (
                r#"{"a": 1, "b": {"c": 2}, "d": 3}"#,
                "- **a**: 1\n- **d**: 3\n\n# b\n\n- **c**: 2\n",
            ),
            (r#"{"a": null, "b": ""}"#, "- **a**:\n- **b**:\n"),
            (r#"{"": 1}"#, "- : 1\n"),
            (r#"{"": {"a": 1}}"#, "#\n\n- **a**: 1\n"),
            (r#"{"[0]": 1}"#, "- **\\[0]**: 1\n"),
            ("{}", "{}\n"),
            (r#"{"a": {}, "b": []}"#, "- **a**: {}\n- **b**: []\n"),
            // Headings grow with nesting and stop at h6.
            (
                r#"{"a":{"b":{"c":{"d":{"e":{"f":{"g":{"h":1}}}}}}}}"#,
                "# a\n\n## b\n\n### c\n\n#### d\n\n##### e\n\n###### f\n\n###### g\n\n- **h**: 1\n",
            ),
            // Scalar arrays.
            (r#"{"a": [1, "x", true, null]}"#, "- **a**: 1, x, true,\n"),
            (r#"{"a": [null, 1]}"#, "- **a**: , 1\n"),
            (r#"{"a": ["x,y"]}"#, "# a\n\n- **[0]**: x,y\n"),
            (r#"[1, 2]"#, "1, 2\n"),
            (r#"["- a", "b"]"#, "\\- a, b\n"),
            ("[]", "[]\n"),
            // Tables.
            (
                r#"[{"a": 1, "b": "x"}, {"b": "y", "c": null}]"#,
                "|a|b|c|\n|---|---|---|\n|1|x||\n||y||\n",
            ),
            (r#"[{"a|b": "c|d"}]"#, "|a\\|b|\n|---|\n|c\\|d|\n"),
            // A row with every column, out of order, or in order after one.
            (
                r#"[{"a": 1, "b": 2}, {"b": 3, "a": 4}, {"a": 5, "b": 6}]"#,
                "|a|b|\n|---|---|\n|1|2|\n|4|3|\n|5|6|\n",
            ),
            (r#"[{"code": "x"}]"#, "|code|\n|---|\n|x|\n"),
            // Not tables: a line break, no columns, too sparse, mixed.
            (
                r#"[{"a": "x\ny"}]"#,
                "# [0]\n\n- **a**:\n  ```\n  x\n  y\n  ```\n",
            ),
            ("[{}, {}]", "- **[0]**: {}\n- **[1]**: {}\n"),
            (
                r#"[{"a": 1}, {"b": 2}, {"c": 3}]"#,
                "# [0]\n\n- **a**: 1\n\n# [1]\n\n- **b**: 2\n\n# [2]\n\n- **c**: 3\n",
            ),
            (
                r#"[[1], {"a": 1}, 2]"#,
                "- **[0]**: 1\n- **[2]**: 2\n\n# [1]\n\n- **a**: 1\n",
            ),
            (r#"[[{"a": 1}]]"#, "# [0]\n\n|a|\n|---|\n|1|\n"),
            // Code.
            (r#"{"stdout": "ok"}"#, "- **stdout**:\n  ```\n  ok\n  ```\n"),
            (
                r#"{"PATCH": "-a"}"#,
                "- **PATCH**:\n  ```diff\n  -a\n  ```\n",
            ),
            (
                r#"{"filetype": "c++", "lang": "c", "source": "x"}"#,
                "- **filetype**: c++\n- **lang**: c\n- **source**:\n  ```c\n  x\n  ```\n",
            ),
            (
                r#"{"lang": "a b", "code": "x"}"#,
                "- **lang**: a b\n- **code**:\n  ```\n  x\n  ```\n",
            ),
            (
                r#"{"code": "a\n\nb"}"#,
                "- **code**:\n  ```\n  a\n\n  b\n  ```\n",
            ),
            (
                r#"{"code": "``` ````"}"#,
                "- **code**:\n  `````\n  ``` ````\n  `````\n",
            ),
            (r#"{"code": "a\u0000"}"#, "- **code**: a&#0;\n"),
            (r#"{"code": ""}"#, "- **code**:\n  ```\n\n  ```\n"),
        ];
        for (json, expected) in cases {
            assert_eq!(rendered(json), *expected, "{json}");
        }
    }

    #[test]
    fn stops_at_the_depth_limit() {
        let options = Options {
            max_depth: 3,
            ..Options::default()
        };
        for (depth, ok) in [(3, true), (4, false)] {
            for objects in [false, true] {
                let result = render(&nested(depth, objects), &mut Vec::new(), &options);
                match result {
                    Ok(()) => assert!(ok, "depth {depth} objects {objects}"),
                    Err(EncodeError::DepthLimit { limit: 3 }) => assert!(!ok),
                    Err(e) => panic!("{e}"),
                }
            }
        }
    }
}

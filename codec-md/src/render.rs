//! The renderer: lays a [`Value`] out as GFM blocks (tables, key lists,
//! headed sections, fenced code) straight into the output buffer.
//!
//! Layout rules are in `SPEC.md`; the inline escaping is in
//! [`crate::escape`]. Blocks are separated by exactly one blank line, and
//! no line ever begins with user text (except inside a fence), so no value
//! can open, close or swallow a block.

use std::collections::HashSet;

use codec_core::{EncodeError, Map, Value};

use crate::escape::{self, Context};
use crate::lossless;
use crate::Profile;

/// Rendering options. Private for now: the builder is the public face.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Options {
    /// Containers nested deeper than this are an error.
    pub(crate) max_depth: usize,
    /// The layout rules: `SPEC.md`'s, or the dense profile's
    /// ([`crate::dense`]).
    pub(crate) profile: Profile,
    /// The lossless markers ([`crate::lossless`]).
    pub(crate) lossless: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            max_depth: codec_core::DEFAULT_MAX_DEPTH,
            profile: Profile::Default,
            lossless: false,
        }
    }
}

/// Keys whose string values are code, rendered fenced even on one line.
const CODE_KEYS: [&str; 9] = [
    "diff",
    "patch",
    "code",
    "snippet",
    "source",
    "stdout",
    "stderr",
    "traceback",
    "stacktrace",
];

/// Sibling keys that name the fence language, in order of preference.
const LANGUAGE_KEYS: [&str; 4] = ["language", "lang", "ext", "filetype"];

/// The deepest heading: sections nested further stay at h6.
const MAX_HEADING: usize = 6;

/// Appends the markdown of `value` to `out`.
pub(crate) fn render(
    value: &Value,
    out: &mut Vec<u8>,
    options: &Options,
) -> Result<(), EncodeError> {
    let mut renderer = Renderer {
        out,
        max_depth: options.max_depth,
        started: false,
        dense: options.profile == Profile::Dense,
        lossless: options.lossless,
        decided: Vec::new(),
    };
    renderer.document(value)
}

/// How a member or array element is laid out in its container's body.
pub(crate) enum Layout<'v> {
    /// On a list line: a scalar, an inline list, `[]` or `{}`.
    Inline,
    /// On a list line, its string in a fenced block under it.
    Fenced(&'v str),
    /// A headed section after the list.
    Section,
}

/// What names a member: an object key, or `[i]` for an array element.
#[derive(Clone, Copy)]
pub(crate) enum Label<'v> {
    Key(&'v str),
    Index(usize),
}

pub(crate) struct Renderer<'o> {
    pub(crate) out: &'o mut Vec<u8>,
    pub(crate) max_depth: usize,
    /// Whether a block was written: the next one needs a blank line first.
    pub(crate) started: bool,
    /// The dense profile: its tables and JSON subtrees ([`crate::dense`]).
    pub(crate) dense: bool,
    /// The lossless markers ([`crate::lossless`]).
    pub(crate) lossless: bool,
    /// The dense profile's sections decided so far inside the container
    /// being decided ([`crate::dense`]), so it need not estimate them again.
    pub(crate) decided: Vec<crate::dense::Decided>,
}

impl Renderer<'_> {
    fn document(&mut self, value: &Value) -> Result<(), EncodeError> {
        match value {
            Value::Array(_) | Value::Object(_) if self.dense => self.dense_document(value)?,
            Value::Null => {}
            Value::Bool(_) | Value::Number(_) => {
                self.block();
                self.scalar(value, Context::Value);
                self.out.push(b'\n');
            }
            Value::String(s) if s.is_empty() && !self.lossless => {}
            Value::String(s) if s.contains('\n') && fence_eligible(s) => {
                self.block();
                fence(self.out, s, None, b"");
            }
            Value::String(s) => {
                self.block();
                if self.lossless {
                    lossless::write_paragraph(self.out, s);
                } else {
                    escape::write_paragraph(self.out, s);
                }
                self.out.push(b'\n');
            }
            Value::Array(items) => {
                self.enter(1)?;
                if items.is_empty() {
                    self.block();
                    self.out.extend_from_slice(b"[]\n");
                } else if let Some(columns) = self.table_columns(items) {
                    self.enter(2)?;
                    self.table(items, &columns);
                } else if is_inline_list(items) {
                    self.block();
                    if self.lossless {
                        lossless::write_list(self.out, items, true);
                    } else {
                        escape::write_list(self.out, items, true);
                    }
                    if self.out.last() == Some(&b' ') {
                        self.out.pop();
                    }
                    self.out.push(b'\n');
                } else {
                    self.body(elements(items), None, 1, 1)?;
                }
            }
            Value::Object(map) => {
                self.enter(1)?;
                if map.is_empty() {
                    self.block();
                    self.out.extend_from_slice(b"{}\n");
                } else {
                    self.body(members(map), Some(map), 1, 1)?;
                }
            }
        }
        Ok(())
    }

    /// Fails when a container at `depth` (1 for the top level) is too deep.
    pub(crate) fn enter(&self, depth: usize) -> Result<(), EncodeError> {
        if depth > self.max_depth {
            return Err(EncodeError::DepthLimit {
                limit: self.max_depth,
            });
        }
        Ok(())
    }

    /// Starts a block: one blank line after the previous one.
    pub(crate) fn block(&mut self) {
        if self.started {
            self.out.push(b'\n');
        }
        self.started = true;
    }

    /// The body of a container at `depth`: first one list of everything
    /// that fits on a line, then a section per nested container, each in
    /// source order. Sections come last because a heading ends the list:
    /// a list line after a section would read as part of that section.
    pub(crate) fn body<'v, I>(
        &mut self,
        entries: I,
        siblings: Option<&'v Map>,
        level: usize,
        depth: usize,
    ) -> Result<(), EncodeError>
    where
        I: Iterator<Item = (Label<'v>, &'v Value)> + Clone,
    {
        let mut listed = false;
        let mut sections = 0;
        // Lossless: a section that came before a listed member keeps its
        // place with a `- **key**: #` line.
        let last_listed = match siblings {
            Some(_) if self.lossless => entries
                .clone()
                .enumerate()
                .filter(|(_, (label, value))| !matches!(layout(*label, value), Layout::Section))
                .map(|(i, _)| i)
                .last(),
            _ => None,
        };
        for (i, (label, value)) in entries.clone().enumerate() {
            let layout = layout(label, value);
            if matches!(layout, Layout::Section) {
                sections += 1;
                if last_listed.is_some_and(|last| i < last) {
                    if !listed {
                        self.block();
                        listed = true;
                    }
                    self.item(label, &Value::Null, Layout::Inline, None, depth + 1)?;
                    self.out.pop();
                    self.out.extend_from_slice(b" #\n");
                }
                continue;
            }
            if !listed {
                self.block();
                listed = true;
            }
            self.item(label, value, layout, siblings, depth + 1)?;
        }
        if sections == 0 {
            return Ok(());
        }
        for (label, value) in entries {
            if matches!(layout(label, value), Layout::Section) {
                self.section(label, value, level, depth + 1)?;
            }
        }
        Ok(())
    }

    /// One list line, `- **key**: value`, and its fence if it has one.
    fn item(
        &mut self,
        label: Label<'_>,
        value: &Value,
        layout: Layout<'_>,
        siblings: Option<&Map>,
        depth: usize,
    ) -> Result<(), EncodeError> {
        self.out.extend_from_slice(b"- ");
        match label {
            // `****` is literal text, so an empty key is no key at all.
            Label::Key("") => {}
            Label::Key(key) => {
                self.out.extend_from_slice(b"**");
                escape::write_str(self.out, key, Context::Key);
                self.out.extend_from_slice(b"**");
            }
            Label::Index(i) => self.index(i, true),
        }
        self.out.push(b':');
        if let Layout::Fenced(s) = layout {
            self.out.push(b'\n');
            let language = match label {
                Label::Key(key)
                    if key.eq_ignore_ascii_case("diff") || key.eq_ignore_ascii_case("patch") =>
                {
                    Some("diff")
                }
                _ => siblings.and_then(language),
            };
            fence(self.out, s, language, b"  ");
            return Ok(());
        }
        self.out.push(b' ');
        match value {
            Value::Array(items) => {
                self.enter(depth)?;
                if items.is_empty() {
                    self.out.extend_from_slice(b"[]");
                } else {
                    if self.lossless {
                        lossless::write_list(self.out, items, false);
                    } else {
                        escape::write_list(self.out, items, false);
                    }
                }
            }
            Value::Object(_) => {
                self.enter(depth)?;
                self.out.extend_from_slice(b"{}");
            }
            scalar => self.scalar(scalar, Context::Value),
        }
        // No trailing space: after an empty value, or after the separator
        // before an empty last list item (parsers drop it anyway).
        if self.out.last() == Some(&b' ') {
            self.out.pop();
        }
        self.out.push(b'\n');
        Ok(())
    }

    /// A heading and the container under it.
    fn section(
        &mut self,
        label: Label<'_>,
        value: &Value,
        level: usize,
        depth: usize,
    ) -> Result<(), EncodeError> {
        self.enter(depth)?;
        self.block();
        let hashes = level.min(MAX_HEADING);
        self.out.resize(self.out.len() + hashes, b'#');
        match label {
            Label::Key("") => {}
            Label::Key(key) => {
                self.out.push(b' ');
                escape::write_str(self.out, key, Context::Heading);
            }
            Label::Index(i) => {
                self.out.push(b' ');
                self.index(i, false);
            }
        }
        if self.lossless && level > MAX_HEADING {
            // Lossless: an h6's closing `#`s say how far below h6 it is.
            self.out.push(b' ');
            self.out.resize(self.out.len() + level - MAX_HEADING, b'#');
        }
        self.out.push(b'\n');
        if self.dense {
            return self.dense_section_body(value, level + 1, depth);
        }
        match value {
            Value::Object(map) => self.body(members(map), Some(map), level + 1, depth),
            Value::Array(items) => match self.table_columns(items) {
                Some(columns) => {
                    self.enter(depth + 1)?;
                    self.table(items, &columns);
                    Ok(())
                }
                None => self.body(elements(items), None, level + 1, depth),
            },
            _ => Ok(()),
        }
    }

    /// The columns of `items` when they are a table; a lossless table also
    /// needs every row's keys in the columns' order.
    fn table_columns<'v>(&self, items: &'v [Value]) -> Option<Vec<&'v str>> {
        table_columns(items)
            .filter(|columns| !self.lossless || lossless::keeps_order(items, columns))
    }

    /// `[i]`, bold on a list line.
    fn index(&mut self, i: usize, bold: bool) {
        if bold {
            self.out.extend_from_slice(b"**");
        }
        self.out.push(b'[');
        self.out
            .extend_from_slice(itoa::Buffer::new().format(i).as_bytes());
        self.out.push(b']');
        if bold {
            self.out.extend_from_slice(b"**");
        }
    }

    /// A table: header, delimiter, one row per object, unpadded.
    fn table(&mut self, rows: &[Value], columns: &[&str]) {
        self.block();
        self.out.push(b'|');
        for column in columns {
            escape::write_str(self.out, column, Context::Cell);
            self.out.push(b'|');
        }
        self.out.push(b'\n');
        self.out.push(b'|');
        for _ in columns {
            self.out.extend_from_slice(b"---|");
        }
        self.out.push(b'\n');
        for row in rows {
            let Value::Object(map) = row else { continue };
            self.out.push(b'|');
            for (i, column) in columns.iter().enumerate() {
                // Rows usually list the columns in order: skip the hash.
                let cell = match map.get_index(i) {
                    Some((key, value)) if key == *column => Some(value),
                    _ => map.get(column),
                };
                if let Some(cell) = cell {
                    self.scalar(cell, Context::Cell);
                } else if self.lossless {
                    self.out.push(b'-');
                }
                self.out.push(b'|');
            }
            self.out.push(b'\n');
        }
    }

    /// A scalar inline: a number's exact text, `true`/`false`, nothing for
    /// null, an escaped string.
    fn scalar(&mut self, value: &Value, context: Context) {
        match value {
            Value::Null | Value::Array(_) | Value::Object(_) => {}
            Value::Bool(true) => self.out.extend_from_slice(b"true"),
            Value::Bool(false) => self.out.extend_from_slice(b"false"),
            Value::Number(n) => n.write_to(self.out),
            Value::String(s) if self.lossless => {
                let place = match context {
                    Context::Cell => lossless::Place::Cell,
                    _ => lossless::Place::Value,
                };
                lossless::write_str(self.out, s, place);
            }
            Value::String(s) => escape::write_str(self.out, s, context),
        }
    }
}

pub(crate) fn members(map: &Map) -> impl Iterator<Item = (Label<'_>, &Value)> + Clone {
    map.iter().map(|(k, v)| (Label::Key(k), v))
}

pub(crate) fn elements(items: &[Value]) -> impl Iterator<Item = (Label<'_>, &Value)> + Clone {
    items.iter().enumerate().map(|(i, v)| (Label::Index(i), v))
}

pub(crate) fn layout<'v>(label: Label<'_>, value: &'v Value) -> Layout<'v> {
    match value {
        Value::String(s)
            if (s.contains('\n') || matches!(label, Label::Key(key) if is_code_key(key)))
                && fence_eligible(s) =>
        {
            Layout::Fenced(s)
        }
        Value::Array(items) if !items.is_empty() && !is_inline_list(items) => Layout::Section,
        Value::Object(map) if !map.is_empty() => Layout::Section,
        _ => Layout::Inline,
    }
}

fn is_code_key(key: &str) -> bool {
    CODE_KEYS.iter().any(|k| key.eq_ignore_ascii_case(k))
}

/// A fence cannot hold CR (parsers normalize line endings) or NUL.
pub(crate) fn fence_eligible(s: &str) -> bool {
    !s.bytes().any(|b| b == b'\r' || b == 0)
}

/// The fence language from a sibling `language`/`lang`/`ext`/`filetype`
/// string, when it is a valid info string.
fn language(siblings: &Map) -> Option<&str> {
    LANGUAGE_KEYS.iter().find_map(|key| {
        let value = siblings.get(key)?.as_str()?;
        let valid = !value.is_empty()
            && value
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"_+.#-".contains(&b));
        valid.then_some(value)
    })
}

/// Whether an array is written inline, `a, b, c`: only scalars, and no
/// string that holds the separator's comma or a line break.
pub(crate) fn is_inline_list(items: &[Value]) -> bool {
    items.iter().all(|item| match item {
        Value::String(s) => !s.bytes().any(|b| b == b',' || b == b'\n'),
        other => other.is_scalar(),
    })
}

/// The columns of a table, when `items` is one: every element an object,
/// every value a scalar with no line break, at least one column, and at
/// most half the cells empty (a sparser table would make the output grow
/// with the square of the input).
pub(crate) fn table_columns(items: &[Value]) -> Option<Vec<&str>> {
    let mut columns: Vec<&str> = Vec::new();
    let mut seen: HashSet<&str> = HashSet::new();
    let mut present = 0usize;
    for item in items {
        let map = item.as_object()?;
        for (i, (key, value)) in map.iter().enumerate() {
            match value {
                Value::Array(_) | Value::Object(_) => return None,
                Value::String(s) if s.contains('\n') => return None,
                _ => {}
            }
            present += 1;
            // Rows usually repeat the columns in order: skip the hash then.
            if columns.get(i) != Some(&key) && seen.insert(key) {
                columns.push(key);
            }
        }
    }
    let cells = items.len().checked_mul(columns.len())?;
    (!columns.is_empty() && cells <= present.saturating_mul(2)).then_some(columns)
}

/// Writes `s` as a fenced code block, every non-empty line after `indent`.
/// The fence is longer than any backtick run in `s`.
pub(crate) fn fence(out: &mut Vec<u8>, s: &str, language: Option<&str>, indent: &[u8]) {
    let longest = s
        .as_bytes()
        .split(|&b| b != b'`')
        .map(<[u8]>::len)
        .max()
        .unwrap_or(0);
    let ticks = (longest + 1).max(3);
    let fence_line = |out: &mut Vec<u8>| {
        out.extend_from_slice(indent);
        out.resize(out.len() + ticks, b'`');
    };
    fence_line(out);
    if let Some(language) = language {
        out.extend_from_slice(language.as_bytes());
    }
    out.push(b'\n');
    for line in s.split('\n') {
        if !line.is_empty() {
            out.extend_from_slice(indent);
            out.extend_from_slice(line.as_bytes());
        }
        out.push(b'\n');
    }
    fence_line(out);
    out.push(b'\n');
}

#[cfg(test)]
mod tests {
    use codec_core::{from_str, testkit::nested};

    use super::*;

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

    /// The shared fence vectors at both placements, read back by comrak.
    #[test]
    fn fences_come_back_exact() {
        use comrak::nodes::NodeValue;

        let data =
            codec_core::from_slice(include_bytes!("../tests/data/escape-vectors.json")).unwrap();
        let vectors = data["code_blocks"]["vectors"].as_array().unwrap();
        for vector in vectors {
            let input = vector["input"].as_str().unwrap();
            let expected = vector["expected_literal"].as_str().unwrap();
            let in_item = vector["placement"].as_str().unwrap().starts_with("inside");
            let mut out = Vec::new();
            if in_item {
                out.extend_from_slice(b"- **k**:\n");
            }
            fence(
                &mut out,
                input,
                Some("txt"),
                if in_item { b"  " } else { b"" },
            );
            let markdown = String::from_utf8(out).unwrap();
            let arena = comrak::Arena::new();
            let root = comrak::parse_document(&arena, &markdown, &comrak::Options::default());
            let literals: Vec<String> = root
                .descendants()
                .filter_map(|node| match &node.data().value {
                    NodeValue::CodeBlock(code) => Some(format!("{}|{}", code.info, code.literal)),
                    _ => None,
                })
                .collect();
            assert_eq!(
                literals,
                [format!("txt|{expected}")],
                "{vector:?}\n{markdown}"
            );
        }
    }
}

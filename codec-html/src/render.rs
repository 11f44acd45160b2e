//! The layout walk: a [`Value`] as the blocks of the markdown codec's
//! default profile (`codec-md/SPEC.md`), written as HTML elements straight
//! into the output buffer. The mapping is documented on
//! [`HtmlCodec`](crate::HtmlCodec).
//!
//! The decisions (what is a table, an inline list, a section, a code
//! block, which language) are the SPEC's rules, restated here because
//! this crate depends on `codec-core` alone; `tests/codec_html/layout.rs` checks that
//! both codecs still make the same ones.

use std::collections::HashSet;

use codec_core::{EncodeError, Map, Value};

use crate::escape;

/// Rendering options; the builder is the public face.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Options {
    /// Containers nested deeper than this are an error.
    pub(crate) max_depth: usize,
    /// Whether plain `http(s)` URLs are links ([`escape::is_link`]).
    pub(crate) link_urls: bool,
    /// Whether paths on the site are links ([`escape::is_path`]).
    pub(crate) link_paths: bool,
}

/// Keys whose string values are code, in a code block even on one line.
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

/// Sibling keys that name the code language, in order of preference.
const LANGUAGE_KEYS: [&str; 4] = ["language", "lang", "ext", "filetype"];

/// The deepest heading element; deeper sections stay `<h6>` (and still
/// nest).
const MAX_HEADING: usize = 6;

/// The level of the top-level sections: `<h1>` is the page's title.
const TOP_LEVEL: usize = 2;

/// Appends the elements of `value` (the content of `<main>`) to `out`.
pub(crate) fn render(
    value: &Value,
    out: &mut Vec<u8>,
    options: &Options,
) -> Result<(), EncodeError> {
    Renderer {
        out,
        max_depth: options.max_depth,
        link_urls: options.link_urls,
        link_paths: options.link_paths,
    }
    .document(value)
}

/// How a member or array element is laid out in its container's body.
enum Layout<'v> {
    /// In the `<dl>`: a scalar, an inline list, `[]` or `{}`.
    Inline,
    /// In the `<dl>`, its string in a code block.
    Code(&'v str),
    /// A section after the `<dl>`.
    Section,
}

/// What names a member: an object key, or `[i]` for an array element.
#[derive(Clone, Copy)]
enum Label<'v> {
    Key(&'v str),
    Index(usize),
}

struct Renderer<'o> {
    out: &'o mut Vec<u8>,
    max_depth: usize,
    link_urls: bool,
    link_paths: bool,
}

impl Renderer<'_> {
    fn document(&mut self, value: &Value) -> Result<(), EncodeError> {
        match value {
            Value::String(s) if s.contains('\n') && fence_eligible(s) => {
                self.code(s, None);
            }
            Value::Array(items) => {
                self.enter(1)?;
                if items.is_empty() {
                    self.push(b"<p class=\"empty\">[]</p>\n");
                } else if let Some(columns) = table_columns(items) {
                    self.enter(2)?;
                    self.table(items, &columns);
                } else if is_inline_list(items) {
                    self.push(b"<p class=\"list\">");
                    self.list(items);
                    self.push(b"</p>\n");
                } else {
                    self.body(elements(items), None, TOP_LEVEL, 1)?;
                }
            }
            Value::Object(map) => {
                self.enter(1)?;
                if map.is_empty() {
                    self.push(b"<p class=\"empty\">{}</p>\n");
                } else {
                    self.body(members(map), Some(map), TOP_LEVEL, 1)?;
                }
            }
            scalar => {
                self.open_scalar(b"p", scalar);
                self.scalar(scalar);
                self.push(b"</p>\n");
            }
        }
        Ok(())
    }

    /// Fails when a container at `depth` (1 for the top level) is too deep.
    fn enter(&self, depth: usize) -> Result<(), EncodeError> {
        if depth > self.max_depth {
            return Err(EncodeError::DepthLimit {
                limit: self.max_depth,
            });
        }
        Ok(())
    }

    fn push(&mut self, bytes: &[u8]) {
        self.out.extend_from_slice(bytes);
    }

    /// The body of a container at `depth`: one `<dl>` of everything that
    /// is not a section, then a section per nested container, each in
    /// source order (the markdown's order: there a heading ends a list).
    fn body<'v, I>(
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
        let mut sections = false;
        for (label, value) in entries.clone() {
            let layout = layout(label, value);
            if matches!(layout, Layout::Section) {
                sections = true;
                continue;
            }
            if !listed {
                self.push(b"<dl>\n");
                listed = true;
            }
            self.item(label, value, layout, siblings, depth + 1)?;
        }
        if listed {
            self.push(b"</dl>\n");
        }
        if sections {
            for (label, value) in entries {
                if matches!(layout(label, value), Layout::Section) {
                    self.section(label, value, level, depth + 1)?;
                }
            }
        }
        Ok(())
    }

    /// One `<dt>` and its `<dd>`.
    fn item(
        &mut self,
        label: Label<'_>,
        value: &Value,
        layout: Layout<'_>,
        siblings: Option<&Map>,
        depth: usize,
    ) -> Result<(), EncodeError> {
        self.label(b"dt", label);
        if let Layout::Code(s) = layout {
            let language = match label {
                Label::Key(key)
                    if key.eq_ignore_ascii_case("diff") || key.eq_ignore_ascii_case("patch") =>
                {
                    Some("diff")
                }
                _ => siblings.and_then(language),
            };
            self.push(b"<dd>");
            self.code(s, language);
            self.out.pop();
            self.push(b"</dd>\n");
            return Ok(());
        }
        match value {
            Value::Array(items) => {
                self.enter(depth)?;
                if items.is_empty() {
                    self.push(b"<dd class=\"empty\">[]</dd>\n");
                } else {
                    self.push(b"<dd class=\"list\">");
                    self.list(items);
                    self.push(b"</dd>\n");
                }
            }
            Value::Object(_) => {
                self.enter(depth)?;
                self.push(b"<dd class=\"empty\">{}</dd>\n");
            }
            scalar => {
                self.open_scalar(b"dd", scalar);
                self.scalar(scalar);
                self.push(b"</dd>\n");
            }
        }
        Ok(())
    }

    /// `<tag>` or `<tag class="index">` with the label's text, closed.
    fn label(&mut self, tag: &[u8], label: Label<'_>) {
        self.out.push(b'<');
        self.push(tag);
        match label {
            Label::Key(key) => {
                self.out.push(b'>');
                escape::write_text(self.out, key);
            }
            Label::Index(i) => {
                self.push(b" class=\"index\">[");
                self.push(itoa::Buffer::new().format(i).as_bytes());
                self.out.push(b']');
            }
        }
        self.push(b"</");
        self.push(tag);
        self.push(b">\n");
    }

    /// A section: its heading and the container under it.
    fn section(
        &mut self,
        label: Label<'_>,
        value: &Value,
        level: usize,
        depth: usize,
    ) -> Result<(), EncodeError> {
        self.enter(depth)?;
        self.push(b"<section>\n");
        let heading = [b'h', b'0' + level.min(MAX_HEADING) as u8];
        self.label(&heading, label);
        match value {
            Value::Object(map) => self.body(members(map), Some(map), level + 1, depth)?,
            Value::Array(items) => match table_columns(items) {
                Some(columns) => {
                    self.enter(depth + 1)?;
                    self.table(items, &columns);
                }
                None => self.body(elements(items), None, level + 1, depth)?,
            },
            _ => {}
        }
        self.push(b"</section>\n");
        Ok(())
    }

    /// A table in its scrolling box: header, one row per object.
    fn table(&mut self, rows: &[Value], columns: &[&str]) {
        // Focusable, so a keyboard can scroll a wide table.
        self.push(b"<div class=\"scroll\" tabindex=\"0\"><table>\n<thead><tr>");
        for column in columns {
            self.push(b"<th>");
            escape::write_text(self.out, column);
            self.push(b"</th>");
        }
        self.push(b"</tr></thead>\n<tbody>\n");
        for row in rows {
            let Value::Object(map) = row else { continue };
            self.push(b"<tr>");
            for (i, column) in columns.iter().enumerate() {
                // Rows usually list the columns in order: skip the hash.
                let cell = match map.get_index(i) {
                    Some((key, value)) if key == *column => Some(value),
                    _ => map.get(column),
                };
                match cell {
                    // Text wraps; a word (an id, a date, a path) never does.
                    Some(Value::String(s)) if s.contains([' ', '\t']) => {
                        self.push(b"<td class=\"text\">");
                        escape::write_text(self.out, s);
                    }
                    Some(cell) => {
                        self.open_scalar(b"td", cell);
                        self.scalar(cell);
                    }
                    None => self.push(b"<td>"),
                }
                self.push(b"</td>");
            }
            self.push(b"</tr>\n");
        }
        self.push(b"</tbody>\n</table></div>\n");
    }

    /// Inline list items, each in a `<span>` (so its text direction stays
    /// its own), joined by `, `.
    fn list(&mut self, items: &[Value]) {
        for (i, item) in items.iter().enumerate() {
            if i > 0 {
                self.push(b", ");
            }
            self.open_scalar(b"span", item);
            self.scalar(item);
            self.push(b"</span>");
        }
    }

    /// `<tag>`, with the class of a scalar that is not a string.
    fn open_scalar(&mut self, tag: &[u8], value: &Value) {
        self.out.push(b'<');
        self.push(tag);
        self.push(match value {
            Value::Null => b" class=\"null\">",
            Value::Bool(_) => b" class=\"bool\">",
            Value::Number(_) => b" class=\"num\">",
            _ => b">",
        });
    }

    /// A scalar's text: a number's exact text, `true`/`false`, nothing for
    /// null (its element's class says it), a string escaped or as a link.
    fn scalar(&mut self, value: &Value) {
        match value {
            Value::Null | Value::Array(_) | Value::Object(_) => {}
            Value::Bool(true) => self.push(b"true"),
            Value::Bool(false) => self.push(b"false"),
            Value::Number(n) => n.write_to(self.out),
            Value::String(s) if self.link_urls && escape::is_link(s) => {
                self.push(b"<a href=\"");
                escape::write_attr(self.out, s);
                self.push(b"\" rel=\"nofollow noopener noreferrer\">");
                escape::write_text(self.out, s);
                self.push(b"</a>");
            }
            Value::String(s) if self.link_paths && escape::is_path(s) => {
                self.push(b"<a href=\"");
                escape::write_attr(self.out, s);
                self.push(b"\">");
                escape::write_text(self.out, s);
                self.push(b"</a>");
            }
            Value::String(s) => escape::write_text(self.out, s),
        }
    }

    /// `<pre><code>`, with a `language-X` class when there is a language.
    fn code(&mut self, s: &str, language: Option<&str>) {
        self.push(b"<pre><code");
        if let Some(language) = language {
            self.push(b" class=\"language-");
            escape::write_attr(self.out, language);
            self.out.push(b'"');
        }
        self.out.push(b'>');
        escape::write_text(self.out, s);
        self.push(b"</code></pre>\n");
    }
}

fn members(map: &Map) -> impl Iterator<Item = (Label<'_>, &Value)> + Clone {
    map.iter().map(|(k, v)| (Label::Key(k), v))
}

fn elements(items: &[Value]) -> impl Iterator<Item = (Label<'_>, &Value)> + Clone {
    items.iter().enumerate().map(|(i, v)| (Label::Index(i), v))
}

fn layout<'v>(label: Label<'_>, value: &'v Value) -> Layout<'v> {
    match value {
        Value::String(s)
            if (s.contains('\n') || matches!(label, Label::Key(key) if is_code_key(key)))
                && fence_eligible(s) =>
        {
            Layout::Code(s)
        }
        Value::Array(items) if !items.is_empty() && !is_inline_list(items) => Layout::Section,
        Value::Object(map) if !map.is_empty() => Layout::Section,
        _ => Layout::Inline,
    }
}

fn is_code_key(key: &str) -> bool {
    CODE_KEYS.iter().any(|k| key.eq_ignore_ascii_case(k))
}

/// The markdown's rule, kept so the two layouts agree: a string with CR or
/// NUL is never a code block (a markdown fence cannot hold either).
fn fence_eligible(s: &str) -> bool {
    !s.bytes().any(|b| b == b'\r' || b == 0)
}

/// The code language from a sibling `language`/`lang`/`ext`/`filetype`
/// string made only of `A-Z a-z 0-9 _ + . # -`.
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

/// Whether an array is an inline list: only scalars, and no string that
/// holds a comma or a line break (the markdown's rule, which needs the
/// comma to split the list back).
fn is_inline_list(items: &[Value]) -> bool {
    items.iter().all(|item| match item {
        Value::String(s) => !s.bytes().any(|b| b == b',' || b == b'\n'),
        other => other.is_scalar(),
    })
}

/// The columns of a table, when `items` is one: every element an object,
/// every value a scalar with no line break, at least one column, and at
/// most half the cells empty (a sparser table would make the page grow
/// with the square of the input).
fn table_columns(items: &[Value]) -> Option<Vec<&str>> {
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

#[cfg(test)]
mod tests {
    use codec_core::{from_str, testkit::nested};

    use super::*;

    fn rendered(json: &str) -> String {
        let value = from_str(json).unwrap_or_else(|e| panic!("{json}: {e}"));
        let mut out = Vec::new();
        let options = Options {
            max_depth: codec_core::value::DEFAULT_MAX_DEPTH,
            link_urls: true,
            link_paths: false,
        };
        render(&value, &mut out, &options).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn follows_each_rule() {
        let cases: &[(&str, &str)] = &[
            // Scalars at the top level.
            ("null", "<p class=\"null\"></p>\n"),
            ("true", "<p class=\"bool\">true</p>\n"),
            ("1.10", "<p class=\"num\">1.10</p>\n"),
            (r#""""#, "<p></p>\n"),
            (r#""<b>&""#, "<p>&lt;b&gt;&amp;</p>\n"),
            (r#""a\nb""#, "<pre><code>a\nb</code></pre>\n"),
            (r#""a\r\nb""#, "<p>a&#13;\nb</p>\n"),
            (
                r#""https://a.example/?x=1&y=2""#,
                "<p><a href=\"https://a.example/?x=1&amp;y=2\" rel=\"nofollow noopener noreferrer\">https://a.example/?x=1&amp;y=2</a></p>\n",
            ),
            (r#""javascript:alert(1)""#, "<p>javascript:alert(1)</p>\n"),
            // Objects: a list of what fits, sections for containers after it.
            (
                r#"{"a": 1, "b": {"c": null}, "d": "x"}"#,
                "<dl>\n<dt>a</dt>\n<dd class=\"num\">1</dd>\n<dt>d</dt>\n<dd>x</dd>\n</dl>\n\
                 <section>\n<h2>b</h2>\n<dl>\n<dt>c</dt>\n<dd class=\"null\"></dd>\n</dl>\n</section>\n",
            ),
            (r#"{"": ""}"#, "<dl>\n<dt></dt>\n<dd></dd>\n</dl>\n"),
            (
                r#"{"a": {}, "b": []}"#,
                "<dl>\n<dt>a</dt>\n<dd class=\"empty\">{}</dd>\n<dt>b</dt>\n<dd class=\"empty\">[]</dd>\n</dl>\n",
            ),
            ("{}", "<p class=\"empty\">{}</p>\n"),
            ("[]", "<p class=\"empty\">[]</p>\n"),
            // Inline lists.
            (
                r#"{"a": [1, "x", true, null]}"#,
                "<dl>\n<dt>a</dt>\n<dd class=\"list\"><span class=\"num\">1</span>, <span>x</span>, \
                 <span class=\"bool\">true</span>, <span class=\"null\"></span></dd>\n</dl>\n",
            ),
            (
                r#"["x", 2]"#,
                "<p class=\"list\"><span>x</span>, <span class=\"num\">2</span></p>\n",
            ),
            // A comma in an item: indexed lines instead.
            (
                r#"{"a": ["x,y"]}"#,
                "<section>\n<h2>a</h2>\n<dl>\n<dt class=\"index\">[0]</dt>\n<dd>x,y</dd>\n</dl>\n</section>\n",
            ),
            // Tables: union of columns, missing cells empty.
            (
                r#"[{"a": 1, "b": "x"}, {"b": "<y>", "c": null}]"#,
                "<div class=\"scroll\" tabindex=\"0\"><table>\n<thead><tr><th>a</th><th>b</th><th>c</th></tr></thead>\n<tbody>\n\
                 <tr><td class=\"num\">1</td><td>x</td><td></td></tr>\n\
                 <tr><td></td><td>&lt;y&gt;</td><td class=\"null\"></td></tr>\n\
                 </tbody>\n</table></div>\n",
            ),
            // A cell with a space may wrap; a word never does.
            (
                r#"[{"a": "two words", "b": "2026-07-23T18:57:15Z"}]"#,
                "<div class=\"scroll\" tabindex=\"0\"><table>\n<thead><tr><th>a</th><th>b</th></tr></thead>\n<tbody>\n\
                 <tr><td class=\"text\">two words</td><td>2026-07-23T18:57:15Z</td></tr>\n\
                 </tbody>\n</table></div>\n",
            ),
            // Not tables: too sparse, a line break.
            (
                r#"[{"a": 1}, {"b": 2}, {"c": 3}]"#,
                "<section>\n<h2 class=\"index\">[0]</h2>\n<dl>\n<dt>a</dt>\n<dd class=\"num\">1</dd>\n</dl>\n</section>\n\
                 <section>\n<h2 class=\"index\">[1]</h2>\n<dl>\n<dt>b</dt>\n<dd class=\"num\">2</dd>\n</dl>\n</section>\n\
                 <section>\n<h2 class=\"index\">[2]</h2>\n<dl>\n<dt>c</dt>\n<dd class=\"num\">3</dd>\n</dl>\n</section>\n",
            ),
            (
                r#"[{"a": "x\ny"}]"#,
                "<section>\n<h2 class=\"index\">[0]</h2>\n<dl>\n<dt>a</dt>\n<dd><pre><code>x\ny</code></pre></dd>\n</dl>\n</section>\n",
            ),
            // Code: by key, by line break; the language from a sibling.
            (
                r#"{"lang": "rust", "code": "fn main() {}", "patch": "-a", "log": "1\n2"}"#,
                "<dl>\n<dt>lang</dt>\n<dd>rust</dd>\n\
                 <dt>code</dt>\n<dd><pre><code class=\"language-rust\">fn main() {}</code></pre></dd>\n\
                 <dt>patch</dt>\n<dd><pre><code class=\"language-diff\">-a</code></pre></dd>\n\
                 <dt>log</dt>\n<dd><pre><code class=\"language-rust\">1\n2</code></pre></dd>\n</dl>\n",
            ),
            (
                r#"{"lang": "a b", "code": "x", "stdout": "a\u0000"}"#,
                "<dl>\n<dt>lang</dt>\n<dd>a b</dd>\n<dt>code</dt>\n<dd><pre><code>x</code></pre></dd>\n\
                 <dt>stdout</dt>\n<dd>a\u{fffd}</dd>\n</dl>\n",
            ),
            // Headings grow with nesting, stay h6, and sections still nest.
            (
                r#"{"a":{"b":{"c":{"d":{"e":{"f":{"g":1}}}}}}}"#,
                "<section>\n<h2>a</h2>\n<section>\n<h3>b</h3>\n<section>\n<h4>c</h4>\n<section>\n<h5>d</h5>\n\
                 <section>\n<h6>e</h6>\n<section>\n<h6>f</h6>\n<dl>\n<dt>g</dt>\n<dd class=\"num\">1</dd>\n</dl>\n\
                 </section>\n</section>\n</section>\n</section>\n</section>\n</section>\n",
            ),
        ];
        for (json, expected) in cases {
            assert_eq!(rendered(json), *expected, "{json}");
        }
    }

    #[test]
    fn links_can_be_turned_off() {
        let value = Value::from("https://example.com");
        let mut out = Vec::new();
        let options = Options {
            max_depth: 8,
            link_urls: false,
            link_paths: false,
        };
        render(&value, &mut out, &options).unwrap();
        assert_eq!(out, b"<p>https://example.com</p>\n");
    }

    #[test]
    fn paths_are_links_only_when_asked() {
        let value = Value::Array(vec![
            Value::from("/rows"),
            Value::from("/My%20File?format=md"),
            Value::from("//evil.example/x"),
            Value::from("/a b"),
            Value::from("rows"),
        ]);
        let mut options = Options {
            max_depth: 8,
            link_urls: true,
            link_paths: false,
        };
        let mut out = Vec::new();
        render(&value, &mut out, &options).unwrap();
        assert!(!String::from_utf8_lossy(&out).contains("<a "));
        options.link_paths = true;
        let mut out = Vec::new();
        render(&value, &mut out, &options).unwrap();
        let page = String::from_utf8(out).unwrap();
        assert!(page.contains("<a href=\"/rows\">/rows</a>"), "{page}");
        assert!(
            page.contains("<a href=\"/My%20File?format=md\">/My%20File?format=md</a>"),
            "{page}"
        );
        assert_eq!(page.matches("<a ").count(), 2, "{page}");
    }

    #[test]
    fn stops_at_the_depth_limit() {
        let options = Options {
            max_depth: 3,
            link_urls: true,
            link_paths: false,
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

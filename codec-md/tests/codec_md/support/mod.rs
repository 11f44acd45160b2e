//! The oracle for the structure tests: parses markdown into the blocks of
//! the schema with comrak (a port of GitHub's cmark-gfm) and, as a second
//! opinion, pulldown-cmark; and computes from a [`Value`] the blocks
//! `SPEC.md` says its rendering must have, independently of the renderer.
//!
//! The AST is walked by hand: inside a key, value, cell or heading only
//! text and autolinks are accepted, so any escape that lets a string add
//! emphasis, a link, HTML, a code span or a line break fails the walk.
//! [`dense`] holds the dense profile's model.
//!
//! The fuzz targets (`fuzz-targets/src/lib.rs`) include this module by
//! path, so they check exactly what these tests check: keep it free of
//! anything but the oracle.

#![allow(dead_code, unreachable_pub)]

pub mod dense;

use std::cell::Cell;

use comrak::nodes::{AstNode, NodeValue};
use comrak::{Arena, Options, parse_document};

use codec_core::{Map, Value};
use proptest::prelude::*;

thread_local! {
    static CODE_SPANS: Cell<bool> = const { Cell::new(false) };
}

/// Written around a code span's literal: a noncharacter, so no text
/// reads as a code span.
pub const CODE_SPAN: char = '\u{fdd0}';

/// Lets both parsers' inline walks accept code spans, read as
/// [`CODE_SPAN`], literal, [`CODE_SPAN`]: the dense profile's JSON cells.
/// Off by default, so any code span in a default rendering still fails.
pub fn allow_code_spans(yes: bool) {
    CODE_SPANS.set(yes);
}

/// A fenced block of a markdown document (`SPEC.md`'s examples): its info
/// string, content and line.
#[derive(Debug, Clone)]
pub struct Fence {
    pub info: String,
    pub content: String,
    pub line: usize,
}

/// The fenced blocks of `markdown`, read by a GFM parser: exactly what a
/// reader of the rendered document sees.
pub fn fences(markdown: &str) -> Vec<Fence> {
    let arena = Arena::new();
    let root = parse_document(&arena, markdown, &Options::default());
    root.descendants()
        .filter_map(|node| match &node.data().value {
            NodeValue::CodeBlock(code) => Some(Fence {
                info: code.info.clone(),
                content: code.literal.clone(),
                line: node.data().sourcepos.start.line,
            }),
            _ => None,
        })
        .collect()
}

/// A block of a rendered document, as the schema reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Block {
    /// A top-level paragraph: a scalar, a scalar list, `[]` or `{}`.
    Paragraph(String),
    /// A top-level fenced code block.
    Code { info: String, literal: String },
    /// A heading.
    Heading { level: u8, text: String },
    /// A list of `- **key**: value` lines.
    List(Vec<(String, Item)>),
    /// A table.
    Table {
        columns: Vec<String>,
        rows: Vec<Vec<String>>,
    },
}

/// The value of a list line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Item {
    /// Inline text after `: `.
    Text(String),
    /// A fenced block under the line.
    Code { info: String, literal: String },
}

/// Parses `markdown` as GFM and reads its blocks, panicking on anything
/// the schema does not produce.
pub fn parse(markdown: &str) -> Vec<Block> {
    let arena = Arena::new();
    let mut options = Options::default();
    options.extension.table = true;
    options.extension.strikethrough = true;
    options.extension.autolink = true;
    options.extension.tasklist = true;
    let root = parse_document(&arena, markdown, &options);
    root.children().map(|node| block(node, markdown)).collect()
}

fn block<'a>(node: &'a AstNode<'a>, markdown: &str) -> Block {
    let value = node.data().value.clone();
    match value {
        NodeValue::Paragraph => Block::Paragraph(inline_text(node, markdown)),
        NodeValue::CodeBlock(code) => {
            assert!(code.fenced, "indented code block in\n{markdown}");
            Block::Code {
                info: code.info.clone(),
                literal: strip_one_lf(&code.literal),
            }
        }
        NodeValue::Heading(heading) => {
            assert!(!heading.setext, "setext heading in\n{markdown}");
            Block::Heading {
                level: heading.level,
                text: inline_text(node, markdown),
            }
        }
        NodeValue::List(_) => Block::List(node.children().map(|n| item(n, markdown)).collect()),
        NodeValue::Table(_) => {
            let mut rows = node.children().map(|row| {
                row.children()
                    .map(|cell| {
                        assert!(matches!(cell.data().value, NodeValue::TableCell));
                        inline_text(cell, markdown)
                    })
                    .collect::<Vec<_>>()
            });
            let columns = rows.next().expect("a table has a header");
            Block::Table {
                columns,
                rows: rows.collect(),
            }
        }
        other => panic!("unexpected block {other:?} in\n{markdown}"),
    }
}

fn item<'a>(node: &'a AstNode<'a>, markdown: &str) -> (String, Item) {
    assert!(
        matches!(node.data().value, NodeValue::Item(_)),
        "a list holds items"
    );
    let mut children = node.children();
    let paragraph = children.next().expect("an item has a paragraph");
    assert!(
        matches!(paragraph.data().value, NodeValue::Paragraph),
        "an item starts with a paragraph in\n{markdown}"
    );
    let mut inlines = paragraph.children().peekable();
    let key = match inlines.peek() {
        Some(first) if matches!(first.data().value, NodeValue::Strong) => {
            let key = inline_text(first, markdown);
            inlines.next();
            key
        }
        _ => String::new(),
    };
    let mut rest = String::new();
    for node in inlines {
        push_inline(node, &mut rest, markdown);
    }
    let value = rest
        .strip_prefix(':')
        .unwrap_or_else(|| panic!("item {key:?} lacks `:` ({rest:?}) in\n{markdown}"));
    let value = match children.next() {
        None => Item::Text(value.strip_prefix(' ').unwrap_or(value).to_owned()),
        Some(code) => {
            assert_eq!(value, "", "text before a fence in\n{markdown}");
            let NodeValue::CodeBlock(code) = &code.data().value else {
                panic!("an item holds a paragraph and a fence only, in\n{markdown}")
            };
            assert!(code.fenced);
            Item::Code {
                info: code.info.clone(),
                literal: strip_one_lf(&code.literal),
            }
        }
    };
    assert!(children.next().is_none(), "extra blocks in an item");
    (key, value)
}

fn strip_one_lf(literal: &str) -> String {
    literal
        .strip_suffix('\n')
        .expect("a fence literal ends in LF")
        .to_owned()
}

/// The text of a node's inline children: text and autolinks only.
fn inline_text<'a>(node: &'a AstNode<'a>, markdown: &str) -> String {
    let mut text = String::new();
    for child in node.children() {
        push_inline(child, &mut text, markdown);
    }
    text
}

fn push_inline<'a>(node: &'a AstNode<'a>, text: &mut String, markdown: &str) {
    let value = node.data().value.clone();
    match value {
        NodeValue::Text(t) => text.push_str(&t),
        NodeValue::Code(code) if CODE_SPANS.get() => {
            text.push(CODE_SPAN);
            text.push_str(&code.literal);
            text.push(CODE_SPAN);
        }
        NodeValue::Link(link) => {
            let label = inline_text(node, markdown);
            let autolink = link.url == label
                || link.url == format!("mailto:{label}")
                || link.url == format!("http://{label}")
                || link.url == format!("https://{label}");
            assert!(
                autolink,
                "a link that is not an autolink: {link:?} in\n{markdown}"
            );
            text.push_str(&label);
        }
        other => panic!("unexpected inline {other:?} in\n{markdown}"),
    }
}

/// Parses `markdown` with pulldown-cmark, a second, independent GFM
/// implementation, into the same blocks. It has no bare-URL autolinks, so
/// any link at all is a failure here.
pub fn parse_pulldown(markdown: &str) -> Vec<Block> {
    use pulldown_cmark::{CodeBlockKind, Event, Options, Parser, Tag, TagEnd};

    let options =
        Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH | Options::ENABLE_TASKLISTS;
    let mut events = Parser::new_ext(markdown, options).peekable();
    let mut blocks = Vec::new();

    // Text up to (and consuming) `end`, or up to a fence start.
    fn inline<'a>(
        events: &mut std::iter::Peekable<impl Iterator<Item = Event<'a>>>,
        stop: &dyn Fn(&Event<'a>) -> bool,
        markdown: &str,
    ) -> String {
        let mut text = String::new();
        while let Some(event) = events.peek() {
            if stop(event) {
                break;
            }
            match events.next().unwrap() {
                Event::Text(t) => text.push_str(&t),
                Event::Code(t) if CODE_SPANS.get() => {
                    text.push(CODE_SPAN);
                    text.push_str(&t);
                    text.push(CODE_SPAN);
                }
                other => panic!("pulldown: unexpected inline {other:?} in\n{markdown}"),
            }
        }
        text
    }

    fn code<'a>(events: &mut impl Iterator<Item = Event<'a>>, markdown: &str) -> String {
        let mut literal = String::new();
        for event in events.by_ref() {
            match event {
                Event::Text(t) => literal.push_str(&t),
                Event::End(TagEnd::CodeBlock) => return strip_one_lf(&literal),
                other => panic!("pulldown: unexpected {other:?} in a fence in\n{markdown}"),
            }
        }
        panic!("pulldown: unclosed fence in\n{markdown}")
    }

    fn info(kind: CodeBlockKind<'_>, markdown: &str) -> String {
        match kind {
            CodeBlockKind::Fenced(info) => info.to_string(),
            CodeBlockKind::Indented => panic!("pulldown: indented code in\n{markdown}"),
        }
    }

    let is_end = |e: &Event<'_>| matches!(e, Event::End(_));
    while let Some(event) = events.next() {
        let block = match event {
            Event::Start(Tag::Paragraph) => {
                let text = inline(&mut events, &is_end, markdown);
                assert_eq!(events.next(), Some(Event::End(TagEnd::Paragraph)));
                Block::Paragraph(text)
            }
            Event::Start(Tag::Heading { level, .. }) => {
                let text = inline(&mut events, &is_end, markdown);
                assert!(matches!(
                    events.next(),
                    Some(Event::End(TagEnd::Heading(_)))
                ));
                Block::Heading {
                    level: level as u8,
                    text,
                }
            }
            Event::Start(Tag::CodeBlock(kind)) => Block::Code {
                info: info(kind, markdown),
                literal: code(&mut events, markdown),
            },
            Event::Start(Tag::List(None)) => {
                let mut items = Vec::new();
                loop {
                    match events.next() {
                        Some(Event::Start(Tag::Item)) => {}
                        Some(Event::End(TagEnd::List(false))) => break,
                        other => panic!("pulldown: unexpected {other:?} in a list in\n{markdown}"),
                    }
                    let loose = events.next_if_eq(&Event::Start(Tag::Paragraph)).is_some();
                    let key = match events.next_if_eq(&Event::Start(Tag::Strong)) {
                        Some(_) => {
                            let key = inline(&mut events, &is_end, markdown);
                            assert_eq!(events.next(), Some(Event::End(TagEnd::Strong)));
                            key
                        }
                        None => String::new(),
                    };
                    let stop = |e: &Event<'_>| {
                        matches!(e, Event::End(_) | Event::Start(Tag::CodeBlock(_)))
                    };
                    let rest = inline(&mut events, &stop, markdown);
                    if loose {
                        assert_eq!(events.next(), Some(Event::End(TagEnd::Paragraph)));
                    }
                    let value = rest.strip_prefix(':').unwrap_or_else(|| {
                        panic!("pulldown: item {key:?} lacks `:` in\n{markdown}")
                    });
                    let item = match events.next() {
                        Some(Event::Start(Tag::CodeBlock(kind))) => {
                            assert_eq!(value, "");
                            let item = Item::Code {
                                info: info(kind, markdown),
                                literal: code(&mut events, markdown),
                            };
                            assert_eq!(events.next(), Some(Event::End(TagEnd::Item)));
                            item
                        }
                        Some(Event::End(TagEnd::Item)) => {
                            Item::Text(value.strip_prefix(' ').unwrap_or(value).to_owned())
                        }
                        other => panic!("pulldown: unexpected {other:?} in an item in\n{markdown}"),
                    };
                    items.push((key, item));
                }
                Block::List(items)
            }
            Event::Start(Tag::Table(_)) => {
                let mut rows: Vec<Vec<String>> = Vec::new();
                loop {
                    match events.next() {
                        Some(Event::Start(Tag::TableHead | Tag::TableRow)) => rows.push(Vec::new()),
                        Some(Event::End(TagEnd::TableHead | TagEnd::TableRow)) => {}
                        Some(Event::Start(Tag::TableCell)) => {
                            let text = inline(&mut events, &is_end, markdown);
                            assert_eq!(events.next(), Some(Event::End(TagEnd::TableCell)));
                            rows.last_mut().unwrap().push(text);
                        }
                        Some(Event::End(TagEnd::Table)) => break,
                        other => panic!("pulldown: unexpected {other:?} in a table in\n{markdown}"),
                    }
                }
                let columns = rows.remove(0);
                Block::Table { columns, rows }
            }
            other => panic!("pulldown: unexpected block {other:?} in\n{markdown}"),
        };
        blocks.push(block);
    }
    blocks
}

/// Strings made of what a link is made of: brackets, parentheses,
/// backslashes, angle brackets, letters and URLs. A third are random
/// sequences of those, a third are shaped like an inline link
/// (`a[b](c)d`, each part such a sequence), a third like a link whose text
/// holds such a link, so that nested link text (`[[x]](y)`), destinations
/// and autolinks come up often.
pub fn link_string() -> impl proptest::strategy::Strategy<Value = String> {
    use proptest::prelude::*;
    let atom = prop_oneof![
        4 => prop::sample::select(vec!["[", "]", "(", ")", "\\", "<", ">"]).prop_map(str::to_owned),
        2 => "[a-z]{1,2}",
        1 => prop::sample::select(vec![
            "https://evil.example",
            "http://a.b/c",
            "www.x.org",
            "mailto:a@b.co",
            "a@b.co",
            " ",
        ])
        .prop_map(str::to_owned),
    ];
    let random = prop::collection::vec(atom, 0..8).prop_map(|parts| parts.concat());
    let link = (
        random.clone(),
        random.clone(),
        random.clone(),
        random.clone(),
    )
        .prop_map(|(before, text, destination, after)| {
            format!("{before}[{text}]({destination}){after}")
        });
    // Link text that holds a bracketed part: `[a[b]c](d)`.
    let nested = (random.clone(), random.clone(), random.clone(), link.clone()).prop_map(
        |(before, inner, after, link)| {
            let (open, rest) = link.split_once('[').unwrap_or_default();
            format!("{open}[{before}[{inner}]{after}{rest}")
        },
    );
    prop_oneof![random, link, nested].prop_filter("not empty", |s| !s.is_empty())
}

// ---------------------------------------------------------------------------
// The blocks a value must render to, by SPEC.md.

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

/// The blocks `value` renders to.
pub fn expected(value: &Value) -> Vec<Block> {
    let mut blocks = Vec::new();
    match value {
        Value::Null => {}
        Value::String(s) if s.is_empty() => {}
        Value::String(s) if s.contains('\n') && fenceable(s) => blocks.push(Block::Code {
            info: String::new(),
            literal: s.clone(),
        }),
        Value::Bool(_) | Value::Number(_) | Value::String(_) => {
            blocks.push(Block::Paragraph(text(value)))
        }
        Value::Array(items) if items.is_empty() => blocks.push(Block::Paragraph("[]".into())),
        Value::Object(map) if map.is_empty() => blocks.push(Block::Paragraph("{}".into())),
        Value::Array(items) => {
            if let Some(table) = table(items) {
                blocks.push(table);
            } else if inline_list(items) {
                blocks.push(Block::Paragraph(list_text(items)));
            } else {
                body(&indexed(items), None, 1, &mut blocks);
            }
        }
        Value::Object(map) => body(&keyed(map), Some(map), 1, &mut blocks),
    }
    // An empty paragraph is no block at all.
    blocks.retain(|b| b != &Block::Paragraph(String::new()));
    blocks
}

pub fn keyed(map: &Map) -> Vec<(String, &Value, bool)> {
    map.iter()
        .map(|(k, v)| (k.replace('\0', "\u{fffd}"), v, true))
        .collect()
}

pub fn indexed(items: &[Value]) -> Vec<(String, &Value, bool)> {
    items
        .iter()
        .enumerate()
        .map(|(i, v)| (format!("[{i}]"), v, false))
        .collect()
}

pub fn is_section(value: &Value) -> bool {
    match value {
        Value::Array(items) => !items.is_empty() && !inline_list(items),
        Value::Object(map) => !map.is_empty(),
        _ => false,
    }
}

fn body(
    entries: &[(String, &Value, bool)],
    siblings: Option<&Map>,
    level: u8,
    blocks: &mut Vec<Block>,
) {
    let items: Vec<(String, Item)> = entries
        .iter()
        .filter(|(_, v, _)| !is_section(v))
        .map(|(key, value, is_key)| (key.clone(), list_item(key, value, *is_key, siblings)))
        .collect();
    if !items.is_empty() {
        blocks.push(Block::List(items));
    }
    for (key, value, _) in entries.iter().filter(|(_, v, _)| is_section(v)) {
        blocks.push(Block::Heading {
            level: level.min(6),
            text: key.clone(),
        });
        match value {
            Value::Object(map) => body(&keyed(map), Some(map), level + 1, blocks),
            Value::Array(items) => match table(items) {
                Some(table) => blocks.push(table),
                None => body(&indexed(items), None, level + 1, blocks),
            },
            _ => unreachable!(),
        }
    }
}

pub fn list_item(key: &str, value: &Value, is_key: bool, siblings: Option<&Map>) -> Item {
    match value {
        Value::String(s) if fenceable(s) && (s.contains('\n') || is_key && is_code(key)) => {
            let info = if is_key
                && (key.eq_ignore_ascii_case("diff") || key.eq_ignore_ascii_case("patch"))
            {
                "diff".to_owned()
            } else {
                siblings.and_then(language).unwrap_or_default()
            };
            Item::Code {
                info,
                literal: s.clone(),
            }
        }
        Value::Array(items) if items.is_empty() => Item::Text("[]".into()),
        Value::Array(items) => Item::Text(list_text(items)),
        Value::Object(_) => Item::Text("{}".into()),
        scalar => Item::Text(text(scalar)),
    }
}

fn language(map: &Map) -> Option<String> {
    ["language", "lang", "ext", "filetype"]
        .iter()
        .find_map(|k| {
            let s = map.get(k)?.as_str()?;
            let ok = !s.is_empty()
                && s.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"_+.#-".contains(&b));
            ok.then(|| s.to_owned())
        })
}

/// Whether `key` names code, so its string is fenced (`SPEC.md`, *Code*).
pub fn is_code(key: &str) -> bool {
    CODE_KEYS.iter().any(|k| key.eq_ignore_ascii_case(k))
}

pub fn fenceable(s: &str) -> bool {
    !s.contains(['\r', '\0'])
}

pub fn inline_list(items: &[Value]) -> bool {
    items.iter().all(|v| match v {
        Value::String(s) => !s.contains([',', '\n']),
        v => v.is_scalar(),
    })
}

pub fn list_text(items: &[Value]) -> String {
    let mut line = items.iter().map(text).collect::<Vec<_>>().join(", ");
    if items.len() > 1 && items.last().is_some_and(|v| text(v).is_empty()) {
        // The separator's space before an empty last item is not written.
        line.pop();
    }
    line
}

fn table(items: &[Value]) -> Option<Block> {
    let mut columns: Vec<String> = Vec::new();
    let mut present = 0;
    for item in items {
        for (k, v) in item.as_object()? {
            if !v.is_scalar() || v.as_str().is_some_and(|s| s.contains('\n')) {
                return None;
            }
            present += 1;
            if !columns.iter().any(|c| c == k) {
                columns.push(k.to_owned());
            }
        }
    }
    if columns.is_empty() || items.len() * columns.len() > 2 * present {
        return None;
    }
    let rows = items
        .iter()
        .map(|item| {
            columns
                .iter()
                .map(|c| item.get(c).map(text).unwrap_or_default())
                .collect()
        })
        .collect();
    let columns = columns
        .iter()
        .map(|c| c.replace('\0', "\u{fffd}"))
        .collect();
    Some(Block::Table { columns, rows })
}

/// A scalar's text as a GFM parser reads it back: NUL becomes U+FFFD.
pub fn text(value: &Value) -> String {
    match value {
        Value::Null | Value::Array(_) | Value::Object(_) => String::new(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        Value::String(s) => s.replace('\0', "\u{fffd}"),
    }
}

/// Renders `value`, parses the markdown with comrak and with
/// pulldown-cmark, and checks both read exactly the blocks the schema gives
/// `value`. Returns the markdown.
#[track_caller]
pub fn check_structure(value: &Value) -> String {
    let markdown = codec_md::render(value).expect("render");
    let expected = expected(value);
    for (parser, parsed) in [
        ("comrak", parse(&markdown)),
        ("pulldown-cmark", parse_pulldown(&markdown)),
    ] {
        assert!(
            parsed == expected,
            "structure differs for {value:?} by {parser}\n--- markdown\n{markdown}\n--- parsed\n{parsed:#?}\n--- expected\n{expected:#?}"
        );
    }
    markdown
}

/// Strings that try every trick, mixed with ordinary text.
pub fn hostile_string() -> impl Strategy<Value = String> {
    let atoms = prop_oneof![
        Just("|".to_owned()),
        Just("\\".to_owned()),
        Just("\\|".to_owned()),
        Just("`".to_owned()),
        Just("```".to_owned()),
        Just("- **x**: ".to_owned()),
        Just("<!--".to_owned()),
        Just("-->".to_owned()),
        Just("<b>".to_owned()),
        Just("&amp;".to_owned()),
        Just("&#124;".to_owned()),
        Just("http://".to_owned()),
        Just("https://a.b/".to_owned()),
        Just("www.".to_owned()),
        Just("mailto:".to_owned()),
        Just("a@b.co".to_owned()),
        Just("[x](y)".to_owned()),
        Just("](".to_owned()),
        Just("\n".to_owned()),
        Just("\r".to_owned()),
        Just("\r\n".to_owned()),
        Just("\t".to_owned()),
        Just("\0".to_owned()),
        Just(" ".to_owned()),
        Just("\u{a0}".to_owned()),
        Just("\u{202e}".to_owned()),
        Just("\u{200b}".to_owned()),
        Just("\u{feff}".to_owned()),
        Just("\u{1b}".to_owned()),
        Just("\u{7f}".to_owned()),
        Just("# ".to_owned()),
        Just("#".to_owned()),
        Just("1. ".to_owned()),
        Just("> ".to_owned()),
        Just("---".to_owned()),
        Just("===".to_owned()),
        Just("[ ] ".to_owned()),
        Just(", ".to_owned()),
        "[!-/:-@\\[-`{-~]{1,3}",
        "[\x00-\x1f\x7f-\u{9f}]",
        "[\u{200b}-\u{200f}\u{202a}-\u{202e}\u{2060}-\u{206f}\u{2028}\u{2029}\u{ad}]",
        "`{1,8}",
        "[a-z_*~]{1,4}",
        "[a-zA-Z0-9 ]{0,6}",
        any::<char>().prop_map(String::from),
    ];
    prop::collection::vec(atoms, 0..8).prop_map(|parts| parts.concat())
}

pub fn key() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => "[a-z]{1,6}",
        1 => Just("code".to_owned()),
        1 => Just("diff".to_owned()),
        1 => Just("lang".to_owned()),
        2 => hostile_string(),
    ]
}

pub fn scalar() -> impl Strategy<Value = Value> {
    prop_oneof![
        1 => Just(Value::Null),
        1 => any::<bool>().prop_map(Value::Bool),
        1 => any::<i64>().prop_map(Value::from),
        1 => any::<f64>().prop_map(Value::from),
        4 => hostile_string().prop_map(Value::String),
    ]
}

pub fn value() -> impl Strategy<Value = Value> {
    scalar().prop_recursive(4, 48, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::vec((key(), inner), 0..6)
                .prop_map(|members| Value::Object(members.into_iter().collect())),
            // Arrays of flat objects over a few shared keys: tables.
            prop::collection::vec(
                prop::collection::vec((key(), scalar()), 1..4)
                    .prop_map(|m| Value::Object(m.into_iter().collect())),
                1..5
            )
            .prop_map(Value::Array),
        ]
    })
}

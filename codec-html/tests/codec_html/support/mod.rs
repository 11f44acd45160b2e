//! The oracle: pages read back by a real HTML5 parser (html5ever, through
//! scraper), and what the tests compare of them.

#![allow(dead_code, unreachable_pub)]

use std::collections::{BTreeSet, HashSet};

use codec_core::{Codec, Value};
use scraper::{ElementRef, Html, Node};

/// The page of `value` by `codec`, as text.
pub fn page(codec: &dyn Codec, value: &Value) -> String {
    let mut out = Vec::new();
    codec
        .encode_value(value, &mut out)
        .unwrap_or_else(|e| panic!("{e}"));
    String::from_utf8(out).expect("pages are UTF-8")
}

/// A page as its parser sees it.
#[derive(Debug, Default)]
pub struct Dom {
    /// Every element with its attributes, in document order, text left
    /// out; a link's address shows as `*` (it is its text, checked by
    /// [`check_allowed`]).
    pub structure: String,
    /// Every text node of `<main>`, with the path of elements above it.
    pub texts: Vec<(String, String)>,
    /// The whole text of every element of `<main>`.
    pub element_texts: BTreeSet<String>,
}

pub fn dom(html: &str) -> Dom {
    dom_of(&Html::parse_document(html))
}

/// [`dom`] of a page already parsed.
pub fn dom_of(document: &Html) -> Dom {
    let mut dom = Dom::default();
    walk(document.root_element(), &mut Vec::new(), false, &mut dom);
    dom
}

fn walk(element: ElementRef<'_>, path: &mut Vec<String>, in_main: bool, dom: &mut Dom) {
    let e = element.value();
    let name = e.name();
    let in_main = in_main || name == "main";
    let mut attributes: Vec<(&str, &str)> = e.attrs().collect();
    attributes.sort_unstable();
    dom.structure.push('<');
    dom.structure.push_str(name);
    for (attribute, value) in attributes {
        let value = if name == "a" && attribute == "href" && in_main {
            "*"
        } else {
            value
        };
        dom.structure.push_str(&format!(" {attribute}={value:?}"));
    }
    dom.structure.push('>');
    if in_main && name != "main" {
        dom.element_texts.insert(element.text().collect());
    }
    path.push(name.to_owned());
    for child in element.children() {
        if let Some(child) = ElementRef::wrap(child) {
            walk(child, path, in_main, dom);
            continue;
        }
        match child.value() {
            Node::Text(text) if in_main => dom.texts.push((path.join(">"), text.to_string())),
            Node::Comment(comment) => dom.structure.push_str(&format!("<!--{:?}-->", &**comment)),
            _ => {}
        }
    }
    path.pop();
    dom.structure.push_str("</");
    dom.structure.push_str(name);
    dom.structure.push('>');
}

/// The elements and attributes a page may have; any other is markup a
/// value added.
const ELEMENTS: &[&str] = &[
    "html", "head", "meta", "title", "link", "style", "body", "header", "nav", "main", "section",
    "h1", "h2", "h3", "h4", "h5", "h6", "p", "div", "table", "thead", "tbody", "tr", "th", "td",
    "dl", "dt", "dd", "span", "pre", "code", "a", "data",
];
const ATTRIBUTES: &[&str] = &[
    "lang",
    "charset",
    "http-equiv",
    "name",
    "content",
    "rel",
    "type",
    "href",
    "aria-label",
    "class",
    "tabindex",
    "colspan",
    "value",
];

/// Checks that a page holds only the page's own kinds of elements and
/// attributes, one stylesheet, no comment, and links of two kinds only:
/// the alternates (`?format=`) and plain `http(s)` URLs whose text is
/// their address.
pub fn check_allowed(html: &str, label: &str) {
    check_allowed_in(&Html::parse_document(html), label);
}

/// [`check_allowed`] of a page already parsed.
pub fn check_allowed_in(document: &Html, label: &str) {
    let mut styles = 0;
    for node in document.tree.nodes() {
        match node.value() {
            Node::Comment(c) => panic!("{label}: a comment {:?}", &**c),
            Node::Element(e) => {
                assert!(
                    ELEMENTS.contains(&e.name()),
                    "{label}: element <{}>",
                    e.name()
                );
                for (attribute, _) in e.attrs() {
                    assert!(
                        ATTRIBUTES.contains(&attribute),
                        "{label}: attribute {attribute} on <{}>",
                        e.name()
                    );
                }
                styles += usize::from(e.name() == "style");
                if e.name() == "link" {
                    assert_eq!(e.attr("rel"), Some("alternate"), "{label}");
                    assert!(e.attr("href").unwrap().starts_with("?format="), "{label}");
                }
                if e.name() == "a" {
                    let a = ElementRef::wrap(node).unwrap();
                    let href = e.attr("href").unwrap();
                    if href.starts_with('?') {
                        continue;
                    }
                    let text: String = a.text().collect();
                    assert_eq!(href, text, "{label}: a link's text is its address");
                    let scheme = href.split_once(':').unwrap().0.to_ascii_lowercase();
                    assert!(scheme == "http" || scheme == "https", "{label}: {href}");
                    assert_eq!(e.attr("rel"), Some("nofollow noopener noreferrer"));
                }
            }
            _ => {}
        }
    }
    assert_eq!(styles, 1, "{label}: one stylesheet");
}

/// What the DOM holds of a string: itself, except NUL (no HTML document
/// can carry it), which is U+FFFD.
pub fn expected_text(s: &str) -> String {
    s.replace('\0', "\u{fffd}")
}

/// Every string of a value, keys included.
pub fn strings(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::String(s) => out.push(s.clone()),
        Value::Array(items) => items.iter().for_each(|item| strings(item, out)),
        Value::Object(map) => {
            for (key, value) in map.iter() {
                out.push(key.to_owned());
                strings(value, out);
            }
        }
        _ => {}
    }
}

/// Every check of a value's page, with the page parsed once: only the
/// page's own markup ([`check_allowed`]), and every string of `value`,
/// keys included, the whole text of some element of `<main>`: none was
/// cut, merged or turned into markup.
pub fn check_page(value: &Value, html: &str, label: &str) {
    let document = parse_page(html, label);
    check_allowed_in(&document, label);
    let texts = main_texts(&document);
    let mut all = Vec::new();
    strings(value, &mut all);
    for s in all {
        assert!(
            texts.contains(&expected_text(&s)),
            "{label}: no element holds exactly {s:?}"
        );
    }
}

/// The stylesheet codec-html writes whole in every page.
const STYLESHEET: &str = include_str!("../../../src/style.css");

/// A page parsed with its built-in stylesheet left out of the parser's
/// input. The stylesheet is 2.9 KB of CSS in every page, most of what the
/// parser reads of a small one, and the same every time: `<style>` holds
/// raw text up to the first `</style`, which the stylesheet does not
/// contain (codec-html's `stylesheet_is_self_contained` test), so the
/// parser is in the same state after `<style></style>` as after the whole
/// element, and the rest of the page parses the same. The page must hold
/// the stylesheet whole; [`dom`] parses whole pages.
pub fn parse_page(html: &str, label: &str) -> Html {
    let open = "<style>";
    let start = html
        .find(open)
        .unwrap_or_else(|| panic!("{label}: no <style>"));
    let css = start + open.len();
    assert!(
        html[css..].starts_with(STYLESHEET)
            && html[css + STYLESHEET.len()..].starts_with("</style>"),
        "{label}: the stylesheet is not whole"
    );
    let rest = &html[css + STYLESHEET.len()..];
    Html::parse_document(&[&html[..css], rest].concat())
}

/// The whole text of every element of `<main>` ([`Dom::element_texts`]
/// without the rest of a [`Dom`]).
fn main_texts(document: &Html) -> HashSet<String> {
    let elements = document
        .root_element()
        .descendants()
        .filter_map(ElementRef::wrap);
    let mut texts = HashSet::new();
    for main in elements.filter(|e| e.value().name() == "main") {
        let inside = main.descendants().filter_map(ElementRef::wrap);
        for element in inside.filter(|e| e.value().name() != "main") {
            texts.insert(element.text().collect());
        }
    }
    texts
}

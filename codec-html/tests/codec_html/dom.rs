//! Hostile strings in every place a string goes, read back by a real HTML5
//! parser: the DOM holds exactly each string's text, and exactly the
//! elements and attributes that a harmless string in its place gives.

use crate::support;

use codec_core::{Map, Value, from_slice};
use codec_html::HtmlCodec;
use proptest::prelude::*;

use support::{check_allowed, check_page, dom, expected_text, page};

fn object(members: Vec<(&str, Value)>) -> Value {
    Value::Object(members.into_iter().collect::<Map>())
}

/// Every place a string can stand, each in a value of its own.
fn contexts(s: &str) -> Vec<(&'static str, Value)> {
    let row = |c: &str, d: u8| object(vec![("c", c.into()), ("d", d.into())]);
    vec![
        ("top-level", s.into()),
        ("value", object(vec![("k", s.into())])),
        ("key", object(vec![(s, 1.into())])),
        ("heading", object(vec![(s, object(vec![("a", 1.into())]))])),
        ("cell", Value::Array(vec![row(s, 1), row("z", 2)])),
        (
            "header",
            Value::Array(vec![
                object(vec![(s, 1.into())]),
                object(vec![(s, 2.into())]),
            ]),
        ),
        (
            "list item",
            object(vec![("k", Value::Array(vec![s.into(), "y".into()]))]),
        ),
        (
            "code",
            object(vec![("lang", "rust".into()), ("code", s.into())]),
        ),
        ("top-level list", Value::Array(vec![s.into(), "y".into()])),
    ]
}

/// A harmless string that the layout treats as `s`: the same line
/// breaks, CR, NUL and commas (which decide code blocks, tables and inline
/// lists), spaces (a table cell with a space may wrap), and a link where
/// `s` is a link. Its page must have exactly
/// the elements of `s`'s page.
fn twin(s: &str) -> String {
    let mut twin = if is_plain_url(s) {
        "https://twin.example/".to_owned()
    } else {
        "tw".to_owned()
    };
    for (c, marker) in [
        ('\n', "\n"),
        ('\r', "\r"),
        ('\0', "\0"),
        (',', ","),
        (' ', " "),
        ('\t', " "),
    ] {
        if s.contains(c) {
            twin.push_str(marker);
        }
    }
    if s.is_empty() {
        twin.clear();
    }
    twin
}

/// The documented link rule, stated again as the test's own oracle.
fn is_plain_url(s: &str) -> bool {
    let lower = s.to_ascii_lowercase();
    let Some(rest) = lower
        .strip_prefix("https://")
        .or_else(|| lower.strip_prefix("http://"))
    else {
        return false;
    };
    !rest.is_empty()
        && !rest.starts_with(['/', '?', '#'])
        && rest
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-._~:/?#[]@!$&'()*+,;=%".contains(c))
}

/// `s` in every context: the same elements and attributes as its twin's
/// page, and the same text except that `s` stands where the twin did.
fn check(s: &str) {
    let codec = HtmlCodec::new();
    let twin = twin(s);
    for ((context, value), (_, twin_value)) in contexts(s).into_iter().zip(contexts(&twin)) {
        let label = format!("{s:?} as {context}");
        let html = page(&codec, &value);
        check_allowed(&html, &label);
        let (real, expected) = (dom(&html), dom(&page(&codec, &twin_value)));
        assert_eq!(real.structure, expected.structure, "{label}\n{html}");
        let twin_text = expected_text(&twin);
        let expected_texts: Vec<(String, String)> = expected
            .texts
            .into_iter()
            .map(|(path, text)| {
                let text = if text == twin_text {
                    expected_text(s)
                } else {
                    text
                };
                (path, text)
            })
            .collect();
        assert_eq!(real.texts, expected_texts, "{label}\n{html}");
    }
}

#[test]
fn hostile_strings_are_text() {
    let cases = [
        "",
        "plain",
        "<script>document.title='pwned'</script>",
        "<img src=x onerror=\"document.title='pwned'\">",
        "\" onmouseover=\"alert(1)\" x=\"",
        "' autofocus onfocus='alert(1)' '",
        "javascript:alert(1)",
        "JaVaScRiPt:alert(1)",
        "https://example.com/search?q=a&lang=en",
        "https://example.com/\"><script>alert(1)</script>",
        "https://example.com/a,b",
        "HTTP://EXAMPLE.COM",
        "</td></tr></table><h1>x</h1>",
        "</dd></dl></main><p>x</p>",
        "</code></pre><script>alert(1)</script>",
        "<b><i>unbalanced",
        "</b></i></span>",
        "<!-- comment",
        "-->",
        "<![CDATA[x]]>",
        "<style>body{display:none}</style>",
        "<link rel=stylesheet href=//evil.example/x.css>",
        "<base href=https://evil.example/>",
        "<meta http-equiv=refresh content=0;url=javascript:alert(1)>",
        "<iframe src=javascript:alert(1)>",
        "<svg onload=alert(1)>",
        "<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>",
        "<plaintext>",
        "<xmp>",
        "<textarea>",
        "<noscript><p title=\"</noscript><img src=x onerror=alert(1)>\">",
        "<template>",
        "**bold** _em_ [x](javascript:alert(1)) `code` # h |a|b|",
        "&lt;script&gt;",
        "&amp;amp;",
        "&#60;b&#62;",
        "&nbsp;",
        "&#0;",
        "&",
        "&&;;",
        "\u{202e}exe.txt\u{202c}",
        "\u{2066}isolate\u{2069}\u{200f}",
        "zero\u{200b}width\u{feff}",
        "a\0b",
        "\0",
        "one\r\ntwo",
        "\r",
        "line\nbreak",
        "\nleading line break",
        "  padded  ",
        "\t",
        "\u{85}\u{9f}\u{1b}\u{7f}",
        "\u{c}form feed",
        "\u{fffe}\u{fdd0}",
        "<",
        ">",
        "a, b",
    ];
    for s in cases {
        check(s);
    }
}

/// The datasets and the hostile fixture (which the browser test serves
/// too): only the page's own markup, and every string whole.
#[test]
fn documents_show_every_string() {
    let codec = HtmlCodec::new();
    for (name, json) in [
        ("github", &include_bytes!("../data/github.json")[..]),
        (
            "nested-config",
            include_bytes!("../data/nested-config.json"),
        ),
        ("hostile", include_bytes!("../data/hostile.json")),
    ] {
        let value = from_slice(json).unwrap();
        let html = page(&codec, &value);
        check_page(&value, &html, name);
    }
}

/// Strings that try every trick, mixed with ordinary text.
fn hostile_string() -> impl Strategy<Value = String> {
    let atoms = prop_oneof![
        Just("<".to_owned()),
        Just(">".to_owned()),
        Just("</".to_owned()),
        Just("<script>".to_owned()),
        Just("</script>".to_owned()),
        Just("<img src=x onerror=alert(1)>".to_owned()),
        Just("<a href=\"javascript:alert(1)\">".to_owned()),
        Just("<style>".to_owned()),
        Just("<!--".to_owned()),
        Just("-->".to_owned()),
        Just("<![CDATA[".to_owned()),
        Just("\"".to_owned()),
        Just("'".to_owned()),
        Just("=".to_owned()),
        Just(" onload=".to_owned()),
        Just("&".to_owned()),
        Just("&amp;".to_owned()),
        Just("&lt;".to_owned()),
        Just("&#0;".to_owned()),
        Just("&#x3c;".to_owned()),
        Just("&nbsp".to_owned()),
        Just("http://".to_owned()),
        Just("https://a.example/".to_owned()),
        Just("javascript:".to_owned()),
        Just("**".to_owned()),
        Just("[x](y)".to_owned()),
        Just("|".to_owned()),
        Just("`".to_owned()),
        Just("# ".to_owned()),
        Just(", ".to_owned()),
        Just("\n".to_owned()),
        Just("\r".to_owned()),
        Just("\r\n".to_owned()),
        Just("\t".to_owned()),
        Just("\0".to_owned()),
        Just(" ".to_owned()),
        Just("\u{a0}".to_owned()),
        Just("\u{202e}".to_owned()),
        Just("\u{2066}".to_owned()),
        Just("\u{200b}".to_owned()),
        Just("\u{feff}".to_owned()),
        "[!-/:-@\\[-`{-~]{1,3}",
        "[\x00-\x1f\x7f-\u{9f}]",
        "[a-z0-9]{1,6}",
        "\\PC{1,3}",
    ];
    prop::collection::vec(atoms, 0..8).prop_map(|parts| parts.concat())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    #[test]
    fn random_hostile_strings_are_text(s in hostile_string()) {
        check(&s);
    }
}

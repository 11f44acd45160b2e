//! The character rules: how text and attribute values are written so that
//! no string can add markup, and which strings are links.
//!
//! Text is written so that an HTML5 parser's DOM holds exactly the string:
//! `&`, `<` and `>` become references (so nothing can open a tag, a
//! comment or a reference), CR becomes `&#13;` (the parser would turn a
//! raw CR into LF), and NUL, which no HTML document can carry (the parser
//! drops it, and reads `&#0;` as U+FFFD), is written as U+FFFD. Every other
//! character, controls and bidi controls included, is written as itself:
//! a reference to U+0080..U+009F would be read as a windows-1252
//! character, and the page isolates the direction of each inline string in
//! its stylesheet instead.

/// Appends `s` as the text of an element.
pub(crate) fn write_text(out: &mut Vec<u8>, s: &str) {
    write_escaped(out, s, false);
}

/// Appends `s` as a double-quoted attribute value: as text, plus `"`.
pub(crate) fn write_attr(out: &mut Vec<u8>, s: &str) {
    write_escaped(out, s, true);
}

fn write_escaped(out: &mut Vec<u8>, s: &str, attribute: bool) {
    let bytes = s.as_bytes();
    let mut start = 0;
    for (i, &b) in bytes.iter().enumerate() {
        let replacement: &[u8] = match b {
            b'&' => b"&amp;",
            b'<' => b"&lt;",
            b'>' => b"&gt;",
            b'\r' => b"&#13;",
            b'\0' => "\u{fffd}".as_bytes(),
            b'"' if attribute => b"&quot;",
            _ => continue,
        };
        out.extend_from_slice(&bytes[start..i]);
        out.extend_from_slice(replacement);
        start = i + 1;
    }
    out.extend_from_slice(&bytes[start..]);
}

/// Whether a string value is written as a link to itself: an absolute
/// `http` or `https` URL (scheme in any case) with a host, made only of
/// the characters RFC 3986 allows in a URI (no space, control, quote,
/// `<`, `>`, `\`, `^`, `` ` ``, `{`, `|`, `}` or non-ASCII).
///
/// The link's text is its address, character for character, so what a
/// reader sees is where the link goes: no other scheme (`javascript:`,
/// `data:`), no relative reference, and no character that a browser would
/// drop, normalize (`\` is `/` in an `http` URL) or show differently from
/// its address (bidi controls, look-alike letters).
pub(crate) fn is_link(s: &str) -> bool {
    let rest = match s.get(..8) {
        Some(p) if p.eq_ignore_ascii_case("https://") => &s[8..],
        _ => match s.get(..7) {
            Some(p) if p.eq_ignore_ascii_case("http://") => &s[7..],
            _ => return false,
        },
    };
    let has_host = rest
        .bytes()
        .next()
        .is_some_and(|b| !matches!(b, b'/' | b'?' | b'#'));
    has_host && rest.bytes().all(is_uri_char)
}

/// Whether a string value is a path on this site, written as a link to
/// it: `/` not followed by another `/` (that would name another host),
/// then only the characters [`is_link`] allows.
pub(crate) fn is_path(s: &str) -> bool {
    s.starts_with('/') && !s.starts_with("//") && s.bytes().all(is_uri_char)
}

/// RFC 3986's unreserved, reserved and `%` characters.
fn is_uri_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"-._~:/?#[]@!$&'()*+,;=%".contains(&b)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(s: &str) -> String {
        let mut out = Vec::new();
        write_text(&mut out, s);
        String::from_utf8(out).unwrap()
    }

    fn attr(s: &str) -> String {
        let mut out = Vec::new();
        write_attr(&mut out, s);
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn escapes_markup_and_what_a_parser_would_change() {
        let cases: &[(&str, &str, &str)] = &[
            // input, as text, as an attribute value
            ("", "", ""),
            ("plain words", "plain words", "plain words"),
            ("<script>", "&lt;script&gt;", "&lt;script&gt;"),
            ("a & b", "a &amp; b", "a &amp; b"),
            ("&amp;", "&amp;amp;", "&amp;amp;"),
            (
                r#"x" onclick="y"#,
                r#"x" onclick="y"#,
                "x&quot; onclick=&quot;y",
            ),
            ("it's", "it's", "it's"),
            ("a\r\nb", "a&#13;\nb", "a&#13;\nb"),
            ("a\0b", "a\u{fffd}b", "a\u{fffd}b"),
            ("\u{202e}\u{85}\t", "\u{202e}\u{85}\t", "\u{202e}\u{85}\t"),
            ("é😎", "é😎", "é😎"),
        ];
        for (input, as_text, as_attr) in cases {
            assert_eq!(text(input), *as_text, "text {input:?}");
            assert_eq!(attr(input), *as_attr, "attribute {input:?}");
        }
    }

    #[test]
    fn links_only_plain_http_urls() {
        let cases: &[(&str, bool)] = &[
            ("https://example.com", true),
            ("http://example.com/a_b?x=1&y=%20#top", true),
            ("HTTPS://EXAMPLE.COM/", true),
            ("https://[::1]:8080/x", true),
            ("https://user@host/p;q=1,2", true),
            ("https://", false),
            ("https:///path", false),
            ("https://?q", false),
            ("http:example.com", false),
            ("//example.com", false),
            ("/relative", false),
            ("javascript:alert(1)", false),
            ("JavaScript://example.com/%0aalert(1)", false),
            ("data:text/html,<script>", false),
            ("mailto:a@b.c", false),
            ("ftp://example.com", false),
            (" https://example.com", false),
            ("https://example.com ", false),
            ("https://example.com/a b", false),
            ("https://example.com/\"onmouseover=x", false),
            ("https://example.com/<b>", false),
            ("https:\\\\evil.example", false),
            ("https://exa\u{202e}mple.com", false),
            ("https://ex\u{430}mple.com", false),
            ("https://example.com/\t", false),
            ("https://example.com/{x}", false),
        ];
        for (input, expected) in cases {
            assert_eq!(is_link(input), *expected, "{input:?}");
        }
    }
}

//! A document's name as a URL path, and a request path back to a name.
//!
//! A name is a file stem, any UTF-8 text: `My File` is served at
//! `/My%20File`, `café` at `/caf%C3%A9`. The path is the one segment RFC
//! 3986 §3.3 allows, every other byte percent-encoded, so what the index
//! and the startup log advertise is a URL a client can send as it is.
//!
//! Reading a request path is strict where being lenient would be a guess:
//! a `%` not followed by two hex digits, or escapes that decode to bytes
//! that are not UTF-8, make the path malformed (400). Everything else
//! decodes, and is then only a key to look up among the documents loaded
//! at start: the server never opens a file after it starts, so `..`,
//! `%2F` or `%2e%2e` can name nothing but a document of that exact name,
//! and there is none (a file name holds no `/`), so they are 404s.

use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, percent_decode_str, utf8_percent_encode};

/// The bytes a path segment must escape: all but RFC 3986's `pchar`
/// (unreserved, sub-delims, `:` and `@`); non-ASCII is always escaped.
const SEGMENT: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~')
    .remove(b'!')
    .remove(b'$')
    .remove(b'&')
    .remove(b'\'')
    .remove(b'(')
    .remove(b')')
    .remove(b'*')
    .remove(b'+')
    .remove(b',')
    .remove(b';')
    .remove(b'=')
    .remove(b':')
    .remove(b'@');

/// `/` and the name as one percent-encoded segment.
pub(crate) fn path_of(name: &str) -> String {
    format!("/{}", utf8_percent_encode(name, SEGMENT))
}

/// Why a request path names nothing at all.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum PathError {
    /// A `%` without two hex digits after it.
    #[error("malformed percent-encoding at byte {offset} of the path")]
    Malformed { offset: usize },
    /// The escapes decode to bytes that are not UTF-8.
    #[error("the path does not decode to UTF-8 text")]
    NotUtf8,
}

/// The document name a request path (`Uri::path`, starting with `/`)
/// asks for, percent-decoded; `""` for `/`.
pub(crate) fn name_of(path: &str) -> Result<String, PathError> {
    let encoded = path.strip_prefix('/').unwrap_or(path);
    let bytes = encoded.as_bytes();
    for (i, _) in encoded.match_indices('%') {
        let hex = bytes.get(i + 1..i + 3);
        if !hex.is_some_and(|h| h.iter().all(u8::is_ascii_hexdigit)) {
            // +1: the offset counts the leading `/`.
            return Err(PathError::Malformed { offset: i + 1 });
        }
    }
    percent_decode_str(encoded)
        .decode_utf8()
        .map(|name| name.into_owned())
        .map_err(|_| PathError::NotUtf8)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_through_their_paths() {
        let cases: &[(&str, &str)] = &[
            ("rows", "/rows"),
            ("My File", "/My%20File"),
            ("café", "/caf%C3%A9"),
            ("a%2Fb", "/a%252Fb"),
            ("a?b#c", "/a%3Fb%23c"),
            ("x\"<>\\^`{|}", "/x%22%3C%3E%5C%5E%60%7B%7C%7D"),
            ("v1.2_beta-~!$&'()*+,;=:@", "/v1.2_beta-~!$&'()*+,;=:@"),
            ("tab\there", "/tab%09here"),
        ];
        for (name, path) in cases {
            assert_eq!(path_of(name), *path, "{name:?}");
            assert_eq!(name_of(path).as_deref(), Ok(*name), "{path:?}");
        }
    }

    #[test]
    fn request_paths() {
        let cases: &[(&str, Result<&str, PathError>)] = &[
            ("/", Ok("")),
            ("/caf%c3%a9", Ok("café")),
            ("/My%20File", Ok("My File")),
            // Decoded, and then simply no document's name.
            ("/a%2Fb", Ok("a/b")),
            ("/..%2Frows", Ok("../rows")),
            ("/%2e%2e", Ok("..")),
            ("/rows/", Ok("rows/")),
            ("/%", Err(PathError::Malformed { offset: 1 })),
            ("/ab%4", Err(PathError::Malformed { offset: 3 })),
            ("/%zz", Err(PathError::Malformed { offset: 1 })),
            ("/%C3", Err(PathError::NotUtf8)),
            ("/%FF%FE", Err(PathError::NotUtf8)),
        ];
        for (path, expected) in cases {
            assert_eq!(
                name_of(path),
                expected.clone().map(str::to_owned),
                "{path:?}"
            );
        }
    }
}

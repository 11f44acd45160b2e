//! [`MediaType`]: a parsed `type/subtype; name=value` (RFC 9110 §8.3.1).

use std::fmt;
use std::str::FromStr;

/// A media type such as `text/markdown; charset=utf-8; variant=GFM`.
///
/// Type, subtype and parameter names are case-insensitive and stored in
/// lower case; parameter values keep their case (whether a value compares
/// case-insensitively depends on the parameter: `charset` does). Quoted
/// values are unquoted on parsing and quoted again on formatting only when
/// they need it. The formatted text (`Display`, [`MediaType::as_str`]) is
/// canonical: `type/subtype` then `; name=value` per parameter, in order.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct MediaType {
    // The canonical text, so `as_str` and `Display` cost nothing.
    text: String,
    slash: usize,
    essence_end: usize,
    params: Vec<(String, String)>,
}

/// Why a media type did not parse.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum MediaTypeError {
    /// The type or subtype is missing or not a token.
    #[error("invalid media type {text:?}: expected `type/subtype` made of token characters")]
    InvalidEssence {
        /// The input.
        text: String,
    },
    /// A parameter is not `name=value` with a token name and a token or
    /// quoted-string value.
    #[error("invalid media type {text:?}: bad parameter at byte {offset}")]
    InvalidParameter {
        /// The input.
        text: String,
        /// Byte offset of the parameter in the input.
        offset: usize,
    },
}

impl MediaType {
    /// Parses a media type, panicking when it is invalid. For constants
    /// written in code; use [`str::parse`] for input.
    #[track_caller]
    pub fn from_static(text: &'static str) -> MediaType {
        match text.parse() {
            Ok(media_type) => media_type,
            Err(e) => panic!("{e}"),
        }
    }

    /// Builds a media type from parts. Names are lower-cased.
    ///
    /// # Errors
    ///
    /// [`MediaTypeError::InvalidEssence`] when the type or subtype is not a
    /// token; [`MediaTypeError::InvalidParameter`] when a name is not a
    /// token or a value holds a control character (other than HTAB) or
    /// DEL, which no quoted-string can carry (RFC 9110 §5.6.4), so the
    /// text would not parse back.
    pub fn new<'a>(
        type_: &str,
        subtype: &str,
        params: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> Result<MediaType, MediaTypeError> {
        let invalid = || MediaTypeError::InvalidEssence {
            text: format!("{type_}/{subtype}"),
        };
        if !is_token(type_) || !is_token(subtype) {
            return Err(invalid());
        }
        let mut text = String::with_capacity(type_.len() + subtype.len() + 1);
        push_lower(&mut text, type_);
        let slash = text.len();
        text.push('/');
        push_lower(&mut text, subtype);
        let essence_end = text.len();
        let mut media_type = MediaType {
            text,
            slash,
            essence_end,
            params: Vec::new(),
        };
        for (name, value) in params {
            if !is_token(name) || !value.chars().all(is_quotable) {
                return Err(MediaTypeError::InvalidParameter {
                    offset: media_type.text.len(),
                    text: media_type.text,
                });
            }
            media_type.push_param(name.to_ascii_lowercase(), value.to_owned());
        }
        Ok(media_type)
    }

    fn push_param(&mut self, name: String, value: String) {
        self.text.push_str("; ");
        self.text.push_str(&name);
        self.text.push('=');
        if is_token(&value) {
            self.text.push_str(&value);
        } else {
            self.text.push('"');
            for c in value.chars() {
                if c == '"' || c == '\\' {
                    self.text.push('\\');
                }
                self.text.push(c);
            }
            self.text.push('"');
        }
        self.params.push((name, value));
    }

    /// The top-level type, lower case: `text` in `text/markdown`.
    pub fn type_(&self) -> &str {
        &self.text[..self.slash]
    }

    /// The subtype, lower case: `markdown` in `text/markdown`.
    pub fn subtype(&self) -> &str {
        &self.text[self.slash + 1..self.essence_end]
    }

    /// `type/subtype` without parameters, lower case.
    pub fn essence(&self) -> &str {
        &self.text[..self.essence_end]
    }

    /// The structured syntax suffix (RFC 6839): `json` in
    /// `application/vnd.mcp+json`.
    pub fn suffix(&self) -> Option<&str> {
        let subtype = self.subtype();
        subtype.rfind('+').map(|i| &subtype[i + 1..])
    }

    /// The parameters in order, names lower case, values unquoted.
    pub fn params(&self) -> impl ExactSizeIterator<Item = (&str, &str)> {
        self.params.iter().map(|(n, v)| (n.as_str(), v.as_str()))
    }

    /// The value of parameter `name` (case-insensitive).
    pub fn param(&self, name: &str) -> Option<&str> {
        self.params
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The canonical text.
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// Whether this is a `text/*` type, whose `Content-Type` should name a
    /// `charset` (RFC 9110 §8.3.1: text types default to US-ASCII
    /// otherwise). JSON types are not: RFC 8259 defines no `charset`
    /// parameter for them, and JSON is UTF-8.
    pub fn is_text(&self) -> bool {
        self.type_() == "text"
    }
}

impl FromStr for MediaType {
    type Err = MediaTypeError;

    fn from_str(input: &str) -> Result<MediaType, MediaTypeError> {
        let trimmed = input.trim_matches(is_ows);
        let essence_len = trimmed.find(';').unwrap_or(trimmed.len());
        let essence = trimmed[..essence_len].trim_end_matches(is_ows);
        let (type_, subtype) =
            essence
                .split_once('/')
                .ok_or_else(|| MediaTypeError::InvalidEssence {
                    text: input.to_owned(),
                })?;
        let mut media_type =
            MediaType::new(type_, subtype, []).map_err(|_| MediaTypeError::InvalidEssence {
                text: input.to_owned(),
            })?;
        let offset = input.len() - input.trim_start_matches(is_ows).len();
        let mut rest = &trimmed[essence_len..];
        while let Some(after_semicolon) = rest.strip_prefix(';') {
            let at = offset + trimmed.len() - rest.len();
            let bad = || MediaTypeError::InvalidParameter {
                text: input.to_owned(),
                offset: at,
            };
            let param = after_semicolon.trim_start_matches(is_ows);
            if param.is_empty() || param.starts_with(';') {
                // Empty parameters (`a/b;;c=d`, `a/b;`) are allowed by
                // RFC 9110's grammar: `*( OWS ";" [ OWS parameter ] )`.
                rest = param;
                continue;
            }
            let eq = param.find('=').ok_or_else(bad)?;
            let name = &param[..eq];
            if !is_token(name) {
                return Err(bad());
            }
            let (value, consumed) = parse_param_value(&param[eq + 1..]).ok_or_else(bad)?;
            media_type.push_param(name.to_ascii_lowercase(), value);
            rest = param[eq + 1 + consumed..].trim_start_matches(is_ows);
            if !rest.is_empty() && !rest.starts_with(';') {
                return Err(bad());
            }
        }
        Ok(media_type)
    }
}

/// Parses a token or a quoted-string at the start of `input`; returns the
/// (unquoted) value and how many bytes it took.
fn parse_param_value(input: &str) -> Option<(String, usize)> {
    let Some(quoted) = input.strip_prefix('"') else {
        let end = input.find(|c: char| !is_tchar(c)).unwrap_or(input.len());
        return (end > 0).then(|| (input[..end].to_owned(), end));
    };
    let mut value = String::new();
    let mut chars = quoted.char_indices();
    while let Some((i, c)) = chars.next() {
        match c {
            '"' => return Some((value, i + 2)),
            '\\' => match chars.next()? {
                (_, c) if is_quotable(c) => value.push(c),
                _ => return None,
            },
            c if is_qdtext(c) => value.push(c),
            _ => return None,
        }
    }
    None
}

fn push_lower(out: &mut String, s: &str) {
    out.extend(s.chars().map(|c| c.to_ascii_lowercase()));
}

fn is_ows(c: char) -> bool {
    c == ' ' || c == '\t'
}

/// RFC 9110 §5.6.2 `tchar`.
pub(crate) fn is_tchar(c: char) -> bool {
    c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c)
}

fn is_token(s: &str) -> bool {
    !s.is_empty() && s.chars().all(is_tchar)
}

/// RFC 9110 §5.6.4 `qdtext` (obs-text allowed).
fn is_qdtext(c: char) -> bool {
    is_quotable(c) && c != '"' && c != '\\'
}

/// What a quoted-string can carry, escaped or not: the characters a
/// quoted-pair may escape (RFC 9110 §5.6.4: HTAB, SP, VCHAR, obs-text).
/// Checked on parsing and on building alike, so every value the type
/// holds formats as text that parses back.
fn is_quotable(c: char) -> bool {
    c == '\t' || (c >= ' ' && c != '\u{7f}')
}

impl fmt::Display for MediaType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

impl fmt::Debug for MediaType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "MediaType({:?})", self.text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_formats_canonically() {
        let cases: &[(&str, &str)] = &[
            ("application/json", "application/json"),
            (
                "Text/Markdown ; Charset=utf-8;variant=GFM",
                "text/markdown; charset=utf-8; variant=GFM",
            ),
            ("text/plain; a=\"b;c\"", "text/plain; a=\"b;c\""),
            ("text/plain; a=\"x\\\"y\"", "text/plain; a=\"x\\\"y\""),
            ("text/plain; a=\"tok\"", "text/plain; a=tok"),
            ("text/plain;;a=b;", "text/plain; a=b"),
            ("  application/vnd.mcp+json  ", "application/vnd.mcp+json"),
        ];
        for (input, canonical) in cases {
            let mt: MediaType = input.parse().unwrap_or_else(|e| panic!("{input}: {e}"));
            assert_eq!(mt.as_str(), *canonical, "{input}");
            let again: MediaType = mt.as_str().parse().unwrap();
            assert_eq!(again, mt, "round trip of {input}");
        }
    }

    #[test]
    fn accessors() {
        let mt = MediaType::from_static("Text/Markdown; Charset=UTF-8; variant=GFM");
        assert_eq!(mt.type_(), "text");
        assert_eq!(mt.subtype(), "markdown");
        assert_eq!(mt.essence(), "text/markdown");
        assert_eq!(mt.param("CHARSET"), Some("UTF-8"));
        assert_eq!(mt.params().count(), 2);
        assert!(mt.is_text());
        let mcp = MediaType::from_static("application/vnd.mcp+json");
        assert_eq!(mcp.suffix(), Some("json"));
        assert!(!mcp.is_text());
        assert!(!MediaType::from_static("application/json").is_text());
        assert!(!MediaType::from_static("image/png").is_text());
    }

    #[test]
    fn rejects_invalid() {
        for input in [
            "",
            "text",
            "text/",
            "/plain",
            "te xt/plain",
            "text/plain; a",
            "text/plain; =b",
            "text/plain; a=",
            "text/plain; a=\"unterminated",
            "text/plain; a=b c",
            "text/pl@in",
        ] {
            assert!(input.parse::<MediaType>().is_err(), "{input:?} parsed");
        }
    }

    #[test]
    fn error_names_the_parameter_offset() {
        let err = "text/plain; a=b; c".parse::<MediaType>().unwrap_err();
        assert_eq!(
            err,
            MediaTypeError::InvalidParameter {
                text: "text/plain; a=b; c".into(),
                offset: 15
            }
        );
    }
}

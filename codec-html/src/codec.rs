//! [`HtmlCodec`]: the [`Codec`] for `text/html`, and its builder.

use std::sync::Arc;

use codec_core::{Codec, EncodeError, MediaType, TokenCounter, Value};

use crate::page::Page;
use crate::render::Options;

/// The media type this codec writes.
const MEDIA_TYPE: &str = "text/html; charset=utf-8";

/// The HTML codec: any value as a page a person reads in a browser, laid
/// out as the markdown codec's default profile, with the same response's
/// agent formats and their costs in its header.
///
/// Format name `html`, media type `text/html; charset=utf-8`. The page is
/// designed for [`CONTENT_SECURITY_POLICY`](crate::CONTENT_SECURITY_POLICY):
/// send it with every response this codec writes.
///
/// The page's `<main>` is the markdown default profile's layout
/// (`codec-md/SPEC.md`), block for block:
///
/// | markdown | HTML |
/// |---|---|
/// | `- **key**: value` list | `<dl>` of `<dt>` and `<dd>` |
/// | `# key` section, one `#` more per level | `<section>` headed `<h2>` (the page's `<h1>` is its title), one level more per nesting, up to `<h6>`; sections keep nesting below it |
/// | table | `<table>` with `<thead>` and `<tbody>`, in a `<div class="scroll">` that scrolls sideways when the table is wider than the page |
/// | fenced block with a language | `<pre><code class="language-X">` |
/// | inline list `a, b` | each item in a `<span>`, joined by `, ` |
///
/// Where HTML can say more without changing that structure, it does:
/// numbers and booleans carry the classes `num` and `bool`, `null` is an
/// empty element of class `null` (the stylesheet shows it), array indices
/// are of class `index` (so `[0]` the index differs from `[0]` a key), an
/// empty container is `[]` or `{}` of class `empty`, and a table cell whose
/// string has a space is of class `text` (it may wrap; a word never
/// does).
///
/// ```
/// use codec_core::{Codec, CodecExt};
/// use codec_html::HtmlCodec;
///
/// let codec = HtmlCodec::new();
/// assert_eq!(codec.format(), "html");
/// let page = String::from_utf8(codec.to_vec(&["<b>bold?</b>"]).unwrap()).unwrap();
/// assert!(page.contains("<main>\n<p class=\"list\"><span>&lt;b&gt;bold?&lt;/b&gt;</span></p>\n</main>"));
/// ```
#[derive(Debug, Clone)]
pub struct HtmlCodec {
    media_type: MediaType,
    page: Page,
}

impl HtmlCodec {
    /// The codec with the default options: title `Response`, no
    /// alternates, links for plain `http(s)` URLs.
    pub fn new() -> HtmlCodec {
        HtmlCodec::builder().finish()
    }

    /// A builder, for the title, the alternates and their token counter.
    pub fn builder() -> HtmlCodecBuilder {
        HtmlCodecBuilder {
            title: "Response".to_owned(),
            alternates: Vec::new(),
            counter: None,
            link_urls: true,
            link_paths: false,
            format_param: "format".to_owned(),
        }
    }
}

impl Default for HtmlCodec {
    fn default() -> HtmlCodec {
        HtmlCodec::new()
    }
}

impl Codec for HtmlCodec {
    fn format(&self) -> &str {
        "html"
    }

    fn media_type(&self) -> &MediaType {
        &self.media_type
    }

    fn encode_value(&self, value: &Value, out: &mut Vec<u8>) -> Result<(), EncodeError> {
        self.page.write(value, out)
    }
}

/// Builds an [`HtmlCodec`].
///
/// ```
/// use std::sync::Arc;
///
/// use codec_core::{Codec, CodecExt, EncodeError, MediaType, TokenCounter, Value};
/// use codec_html::HtmlCodec;
///
/// /// An agent format: one line per array element.
/// struct Lines(MediaType);
///
/// impl Codec for Lines {
///     fn format(&self) -> &str { "lines" }
///     fn media_type(&self) -> &MediaType { &self.0 }
///     fn encode_value(&self, value: &Value, out: &mut Vec<u8>) -> Result<(), EncodeError> {
///         for item in value.as_array().unwrap_or_default() {
///             out.extend_from_slice(item.as_str().unwrap_or("?").as_bytes());
///             out.push(b'\n');
///         }
///         Ok(())
///     }
/// }
///
/// /// A tokenizer whose tokens are lines.
/// struct LineTokens;
///
/// impl TokenCounter for LineTokens {
///     fn name(&self) -> &str { "line" }
///     fn count(&self, text: &str) -> usize { text.lines().count() }
/// }
///
/// let codec = HtmlCodec::builder()
///     .title("Fruit")
///     .alternate(Arc::new(Lines(MediaType::from_static("text/plain; charset=utf-8"))))
///     .token_counter(Arc::new(LineTokens))
///     .build()
///     .unwrap();
/// let page = String::from_utf8(codec.to_vec(&["apple", "pear"]).unwrap()).unwrap();
/// assert!(page.contains("<title>Fruit</title>"));
/// assert!(page.contains(r#"<link rel="alternate" type="text/plain; charset=utf-8" href="?format=lines">"#));
/// // The alternate's link, media type, bytes and tokens of this value.
/// assert!(page.contains(concat!(
///     r#"<tr><td><a href="?format=lines">lines</a></td><td>text/plain; charset=utf-8</td>"#,
///     r#"<td><data value="11">11</data></td><td class="best"><data value="2">2</data></td></tr>"#,
/// )));
/// ```
#[derive(Debug, Clone)]
pub struct HtmlCodecBuilder {
    title: String,
    alternates: Vec<Arc<dyn Codec>>,
    counter: Option<Arc<dyn TokenCounter>>,
    link_urls: bool,
    link_paths: bool,
    format_param: String,
}

impl HtmlCodecBuilder {
    /// The page's `<title>` and `<h1>`: `Response` unless set. Any text
    /// (it is escaped).
    pub fn title(mut self, title: impl Into<String>) -> HtmlCodecBuilder {
        self.title = title.into();
        self
    }

    /// Adds an alternate: the page links to the same resource in its
    /// format (`?format=NAME`, relative) and, in `<head>`, declares it as
    /// a `<link rel="alternate">`. None unless added; the page lists them
    /// in the order added.
    ///
    /// Each page encodes its value once with every alternate, to show the
    /// bytes (and, with a [token counter](HtmlCodecBuilder::token_counter),
    /// the tokens) of this very response in each format: that is the cost
    /// of a page, on top of its own rendering.
    pub fn alternate(mut self, codec: Arc<dyn Codec>) -> HtmlCodecBuilder {
        self.alternates.push(codec);
        self
    }

    /// Adds several alternates, in order (see
    /// [`alternate`](HtmlCodecBuilder::alternate)).
    pub fn alternates(
        mut self,
        codecs: impl IntoIterator<Item = Arc<dyn Codec>>,
    ) -> HtmlCodecBuilder {
        self.alternates.extend(codecs);
        self
    }

    /// Counts the tokens of each alternate's encoding, shown beside its
    /// bytes in a column named after the counter (`o200k tokens`) and the
    /// fewest marked. None unless set: then the page shows bytes only.
    /// `codec_core::tokens::O200k` (feature `o200k`) is the exact `o200k_base`
    /// count.
    pub fn token_counter(mut self, counter: Arc<dyn TokenCounter>) -> HtmlCodecBuilder {
        self.counter = Some(counter);
        self
    }

    /// Whether a string that is a plain absolute `http` or `https` URL is a
    /// link to itself: `true` unless set.
    ///
    /// Only such URLs, and only when the whole string is the URL made of
    /// the characters RFC 3986 allows (no space, quote, `<`, `\`, control,
    /// bidi control or non-ASCII letter), so the link's text is exactly
    /// where it goes; every link has `rel="nofollow noopener noreferrer"`,
    /// so the linked site neither gains rank from, reaches back into, nor
    /// learns the address of the page. Every other string, `javascript:`
    /// and `data:` URLs included, is text. `false` makes every string text.
    pub fn link_urls(mut self, yes: bool) -> HtmlCodecBuilder {
        self.link_urls = yes;
        self
    }

    /// Whether strings that are a path on this site (`/rows`,
    /// `/My%20File?format=md`: a `/` not followed by another, then only
    /// the characters [`HtmlCodecBuilder::link_urls`] allows) are links to
    /// it (off by default): for pages whose data lists the site's own
    /// resources, as `codec serve`'s index does. Same-site, so these links
    /// carry no `rel`.
    pub fn link_paths(mut self, yes: bool) -> HtmlCodecBuilder {
        self.link_paths = yes;
        self
    }

    /// The query parameter of the alternates' links: `format` unless set
    /// (`?format=md`). Set it to the negotiator's own when that is another.
    pub fn format_param(mut self, name: &str) -> HtmlCodecBuilder {
        self.format_param = name.to_owned();
        self
    }

    /// The codec.
    ///
    /// # Errors
    ///
    /// A [`BuildError`] when the format parameter or an alternate's format
    /// name could not stand in a query string as it is.
    pub fn build(self) -> Result<HtmlCodec, BuildError> {
        let valid_param = !self.format_param.is_empty()
            && self
                .format_param
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
        if !valid_param {
            return Err(BuildError::InvalidFormatParam {
                name: self.format_param,
            });
        }
        if let Some(codec) = self
            .alternates
            .iter()
            .find(|codec| !codec_core::is_valid_format_name(codec.format()))
        {
            return Err(BuildError::InvalidAlternate {
                format: codec.format().to_owned(),
            });
        }
        Ok(self.finish())
    }

    /// The codec from settings already checked.
    fn finish(self) -> HtmlCodec {
        HtmlCodec {
            media_type: MediaType::from_static(MEDIA_TYPE),
            page: Page {
                title: self.title,
                options: Options {
                    max_depth: codec_core::value::DEFAULT_MAX_DEPTH,
                    link_urls: self.link_urls,
                    link_paths: self.link_paths,
                },
                alternates: self.alternates,
                counter: self.counter,
                format_param: self.format_param,
            },
        }
    }
}

/// Why [`HtmlCodecBuilder::build`] rejected its settings.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum BuildError {
    /// The format parameter is empty or holds a character other than ASCII
    /// letters, digits, `-` and `_`.
    #[error("invalid format parameter {name:?}: use ASCII letters, digits, `-` and `_`")]
    InvalidFormatParam {
        /// The name given.
        name: String,
    },
    /// An alternate's format name is not a valid format name (see
    /// `codec_core::is_valid_format_name`).
    #[error("alternate codec has an invalid format name {format:?}")]
    InvalidAlternate {
        /// The alternate's format name.
        format: String,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rejects_what_cannot_stand_in_a_query() {
        struct Named(&'static str, MediaType);
        impl Codec for Named {
            fn format(&self) -> &str {
                self.0
            }
            fn media_type(&self) -> &MediaType {
                &self.1
            }
            fn encode_value(&self, _: &Value, _: &mut Vec<u8>) -> Result<(), EncodeError> {
                Ok(())
            }
        }
        let named = |name| -> Arc<dyn Codec> {
            Arc::new(Named(name, MediaType::from_static("text/plain")))
        };
        let cases: &[(&str, &str, Option<BuildError>)] = &[
            ("format", "md", None),
            ("f_2-x", "x-csv2", None),
            (
                "",
                "md",
                Some(BuildError::InvalidFormatParam { name: "".into() }),
            ),
            (
                "a&b",
                "md",
                Some(BuildError::InvalidFormatParam { name: "a&b".into() }),
            ),
            (
                "format",
                "M\"D",
                Some(BuildError::InvalidAlternate {
                    format: "M\"D".into(),
                }),
            ),
        ];
        for (param, format, expected) in cases {
            let result = HtmlCodec::builder()
                .format_param(param)
                .alternate(named(format))
                .build();
            assert_eq!(result.err(), *expected, "{param:?} {format:?}");
        }
        assert_eq!(
            BuildError::InvalidFormatParam { name: "a&b".into() }.to_string(),
            "invalid format parameter \"a&b\": use ASCII letters, digits, `-` and `_`"
        );
    }
}

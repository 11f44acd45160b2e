//! [`MarkdownCodec`]: the [`Codec`] for `text/markdown; variant=GFM`.

use codec_core::{Codec, EncodeError, FastPath, MediaType, Tape, TextLimit, Truncation, Value};

use crate::read;
use crate::write::{self, Options};
use crate::{ParseError, Profile};

/// The media type this codec writes.
const MEDIA_TYPE: &str = "text/markdown; charset=utf-8; variant=GFM";

/// The markdown codec: writes any value as GitHub-flavored markdown by the
/// rules of `SPEC.md`.
///
/// Format name `md`, media type `text/markdown; charset=utf-8;
/// variant=GFM`. Native Rust values are recorded on a
/// [`Tape`] ([`FastPath::Tape`]), normalized as [`codec_core::to_value`]
/// normalizes them (struct field order, sorted map keys), so the markdown
/// mirrors the JSON codec member for member.
///
/// ```
/// use std::collections::HashMap;
///
/// use codec_core::{Codec, CodecExt};
/// use codec_md::MarkdownCodec;
///
/// let codec = MarkdownCodec::new();
/// assert_eq!(codec.format(), "md");
/// // Map keys are sorted, as the JSON codec sorts them.
/// let scores = HashMap::from([("bob", 3), ("ada", 76)]);
/// let body = codec.to_vec(&scores).unwrap();
/// assert_eq!(body, b"- **ada**: 76\n- **bob**: 3\n");
/// ```
#[derive(Debug, Clone)]
pub struct MarkdownCodec {
    media_type: MediaType,
    options: Options,
}

impl MarkdownCodec {
    /// The codec with the default options.
    pub fn new() -> MarkdownCodec {
        MarkdownCodec::builder().build()
    }

    /// A builder, for the options: the [`Profile`].
    pub fn builder() -> MarkdownCodecBuilder {
        MarkdownCodecBuilder {
            options: Options::default(),
        }
    }

    /// Reads back what this codec writes, with the reading of its layout:
    /// [`parse`](crate::parse) for the default profile,
    /// [`parse_lossless`](crate::parse_lossless) for the lossless
    /// rendering, [`parse_dense`](crate::parse_dense) for
    /// [`Profile::Dense`]. So a service or a test that holds a codec need
    /// not pick the matching function.
    ///
    /// ```
    /// use codec_core::{from_str, CodecExt};
    /// use codec_md::{MarkdownCodec, Profile};
    ///
    /// let value = from_str(r#"{"id": "007", "tags": ["x"]}"#).unwrap();
    /// let lossless = MarkdownCodec::builder().profile(Profile::Lossless).build();
    /// let markdown = String::from_utf8(lossless.to_vec(&value).unwrap()).unwrap();
    /// assert_eq!(lossless.parse(&markdown).unwrap(), value);
    ///
    /// let dense = MarkdownCodec::builder().profile(Profile::Dense).build();
    /// let markdown = String::from_utf8(dense.to_vec(&value).unwrap()).unwrap();
    /// assert_eq!(dense.parse(&markdown).unwrap(), codec_md::parse_dense(&markdown).unwrap());
    /// ```
    pub fn parse(&self, markdown: &str) -> Result<Value, ParseError> {
        read::read_back(markdown, self.options.profile)
    }
}

impl Default for MarkdownCodec {
    fn default() -> MarkdownCodec {
        MarkdownCodec::new()
    }
}

impl Codec for MarkdownCodec {
    fn format(&self) -> &str {
        "md"
    }

    fn media_type(&self) -> &MediaType {
        &self.media_type
    }

    fn encode_value(&self, value: &Value, out: &mut Vec<u8>) -> Result<(), EncodeError> {
        write::render(value, out, &self.options)
    }

    /// A tape: the writer walks typed data as it walks a [`Value`], with
    /// no tree built.
    fn fast_path(&self) -> FastPath {
        FastPath::Tape
    }

    /// The same walk as [`Codec::encode_value`], over the tape.
    fn encode_tape(&self, tape: &Tape, out: &mut Vec<u8>) -> Result<(), EncodeError> {
        write::render(tape.root(), out, &self.options)
    }

    /// Cuts at markdown boundaries: [`truncate`](crate::truncate).
    fn truncate(&self, text: String, limit: &TextLimit) -> Truncation {
        crate::truncate::truncate(text, limit)
    }
}

/// Builds a [`MarkdownCodec`].
#[derive(Debug, Clone)]
pub struct MarkdownCodecBuilder {
    options: Options,
}

impl MarkdownCodecBuilder {
    /// The layout rules: [`Profile::Default`] (`SPEC.md`) unless set. The
    /// media type is `text/markdown` for every profile.
    ///
    /// ```
    /// use codec_core::{from_slice, CodecExt};
    /// use codec_md::{MarkdownCodec, Profile};
    ///
    /// let codec = MarkdownCodec::builder().profile(Profile::Dense).build();
    /// let value = from_slice(br#"{"users": [
    ///     {"id": 1, "name": {"first": "Ada", "last": "Lovelace"}, "langs": ["en", "fr"]},
    ///     {"id": 2, "name": {"first": "Alan", "last": "Turing"}, "langs": ["en"]},
    ///     {"id": 3, "name": {"first": "Grace", "last": "Hopper"}, "langs": []}
    /// ]}"#).unwrap();
    /// let markdown = codec.to_vec(&value).unwrap();
    /// assert_eq!(
    ///     String::from_utf8(markdown).unwrap(),
    ///     concat!(
    ///         "# users\n",
    ///         "\n",
    ///         "|id|name.first|name.last|langs|\n",
    ///         "|---|---|---|---|\n",
    ///         "1|Ada|Lovelace|[en, fr]\n",
    ///         "2|Alan|Turing|[en]\n",
    ///         "3|Grace|Hopper|[]\n",
    ///     )
    /// );
    /// // Where markdown would cost more than JSON, it is JSON: a section's
    /// // body a fenced `json` block, the whole document one paragraph.
    /// let small = from_slice(br#"{"pool": {"min": 2, "max": 14}}"#).unwrap();
    /// assert_eq!(codec.to_vec(&small).unwrap(), b"{\"pool\":{\"min\":2,\"max\":14}}\n");
    /// assert_eq!(codec_md::parse_dense(r#"{"pool":{"min":2,"max":14}}"#).unwrap(), small);
    /// ```
    ///
    /// The lossless profile reads back exactly:
    ///
    /// ```
    /// use codec_core::{from_str, CodecExt};
    /// use codec_md::{MarkdownCodec, Profile};
    ///
    /// let codec = MarkdownCodec::builder().profile(Profile::Lossless).build();
    /// let value = from_str(r#"[{"zip": "02139", "n": "7"}, {"n": null}]"#).unwrap();
    /// let markdown = codec.to_vec(&value).unwrap();
    /// assert_eq!(markdown, b"|zip|n|\n|---|---|\n|02139|\"7\"|\n|-||\n");
    /// assert_eq!(codec_md::parse_lossless(std::str::from_utf8(&markdown).unwrap()).unwrap(), value);
    /// ```
    pub fn profile(mut self, profile: Profile) -> MarkdownCodecBuilder {
        self.options.profile = profile;
        self
    }

    /// The codec.
    pub fn build(self) -> MarkdownCodec {
        MarkdownCodec {
            media_type: MediaType::from_static(MEDIA_TYPE),
            options: self.options,
        }
    }
}

/// Renders `value` as markdown, by the same rules as [`MarkdownCodec`].
///
/// ```
/// use codec_core::from_slice;
///
/// let value = from_slice(br#"{"name": "ada", "tags": ["math", "engines"]}"#).unwrap();
/// let markdown = codec_md::render(&value).unwrap();
/// assert_eq!(markdown, "- **name**: ada\n- **tags**: math, engines\n");
/// ```
pub fn render(value: &Value) -> Result<String, EncodeError> {
    let mut out = Vec::new();
    write::render(value, &mut out, &Options::default())?;
    // The renderer writes only whole UTF-8 strings and ASCII.
    Ok(String::from_utf8(out).expect("markdown is UTF-8"))
}

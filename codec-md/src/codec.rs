//! [`MarkdownCodec`]: the [`Codec`] for `text/markdown; variant=GFM`.

use codec_core::{
    Codec, EncodeError, FastPath, MediaType, TextLimit, Truncation, Value, ValueView,
    rows::{RowEncoder, RowsShape},
    tape::Tape,
    truncate::Omission,
};

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
    /// Every rendering is cut to it (see [`MarkdownCodecBuilder::budget`]).
    budget: Option<TextLimit>,
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
            budget: None,
        }
    }

    /// The budget every rendering is cut to, if one was set
    /// ([`MarkdownCodecBuilder::budget`]).
    pub fn budget(&self) -> Option<&TextLimit> {
        self.budget.as_ref()
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

    /// Appends the rendering of `value` (a `&Value` or a tape's root),
    /// cut to the budget if one is set.
    fn write<'v, V: ValueView<'v>>(&self, value: V, out: &mut Vec<u8>) -> Result<(), EncodeError> {
        match &self.budget {
            None => write::render(value, out, &self.options),
            Some(budget) => self.encode_within(value, budget, out).map(drop),
        }
    }

    /// Appends the rendering of `value` (a `&Value` or a tape's root) in
    /// this codec's profile, cut to `budget` as [`MarkdownCodecBuilder::budget`]
    /// cuts it, and returns what the cut left out (`None` when the
    /// rendering fits): for a caller that cuts something else at the same
    /// rows, as the MCP codec cuts a result's structured content. The
    /// rendering is not held whole (see [`MarkdownCodecBuilder::budget`]).
    ///
    /// ```
    /// use codec_core::{TextLimit, from_str};
    ///
    /// let rows: Vec<String> = (0..50).map(|i| format!(r#"{{"id": {i}}}"#)).collect();
    /// let value = from_str(&format!("[{}]", rows.join(","))).unwrap();
    /// let mut out = Vec::new();
    /// let codec = codec_md::MarkdownCodec::new();
    /// let cut = codec.encode_within(&value, &TextLimit::chars(200), &mut out).unwrap();
    /// // The note takes most of 200 chars: one row fits beside it.
    /// let rows = cut.unwrap().rows.unwrap();
    /// assert_eq!((rows.kept, rows.total), (1, 50));
    /// ```
    pub fn encode_within<'v, V: ValueView<'v>>(
        &self,
        value: V,
        budget: &TextLimit,
        out: &mut Vec<u8>,
    ) -> Result<Option<Omission>, EncodeError> {
        let start = out.len();
        let rendered = write::render_bounded(value, out, &self.options, budget, write::DROP_ABOVE)?;
        Ok(crate::truncate::apply_budget(out, start, budget, rendered))
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
        self.write(value, out)
    }

    /// A tape: the writer walks typed data as it walks a [`Value`], with
    /// no tree built.
    fn fast_path(&self) -> FastPath {
        FastPath::Tape
    }

    /// The same walk as [`Codec::encode_value`], over the tape.
    fn encode_tape(&self, tape: &Tape, out: &mut Vec<u8>) -> Result<(), EncodeError> {
        self.write(tape.root(), out)
    }

    /// Cuts only where a row or an item ends: [`truncate`](crate::truncate).
    fn truncate(&self, text: String, limit: &TextLimit) -> Truncation {
        crate::truncate::truncate(text, limit)
    }

    /// Rows as they come, by `SPEC.md`'s *Streaming* rule: one table while
    /// the rows fit its columns (the declared ones, or the first row's),
    /// the buffered table byte for byte when they all do; a new table
    /// under `[i..]` for a row with other keys; a section `[i]` for a row
    /// that is not a flat object. A failed stream ends with a note, `Stream
    /// failed after N rows: ...`.
    ///
    /// `None`, so the rows are collected and written whole, for the dense
    /// profile (whose choice between a table and JSON weighs the whole
    /// document) and with a budget (whose note counts every row left out).
    fn row_encoder(&self, shape: &RowsShape) -> Option<Box<dyn RowEncoder>> {
        if self.budget.is_some() {
            return None;
        }
        write::row_encoder(&self.options, shape)
    }
}

/// Builds a [`MarkdownCodec`].
#[derive(Debug, Clone)]
pub struct MarkdownCodecBuilder {
    options: Options,
    budget: Option<TextLimit>,
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
    ///         "|-|-|-|-|\n",
    ///         "1|Ada|Lovelace|[en, fr]\n",
    ///         "2|Alan|Turing|[en]\n",
    ///         "3|Grace|Hopper|[]\n",
    ///     )
    /// );
    /// // Where markdown would cost more than JSON, it is JSON: a fenced
    /// // `json` block, for a section's body or the whole document.
    /// let small = from_slice(br#"{"pool": {"min": 2, "max": 14}}"#).unwrap();
    /// assert_eq!(
    ///     codec.to_vec(&small).unwrap(),
    ///     b"```json\n{\"pool\":{\"min\":2,\"max\":14}}\n```\n"
    /// );
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

    /// A budget for every rendering: none unless set. A rendering over it
    /// is cut where a table row or an item (a list item, a paragraph, a
    /// code block) ends, never inside one, and ends with a note that says
    /// how many rows and items were left out and how to get the rest (the
    /// limit's hint). Whole, note included, it fits the budget, measured
    /// in the limit's unit: chars, bytes, or tokens counted exactly (with
    /// `codec_core::tokens::O200k`, feature `o200k` of codec-core, for GPT-4o's
    /// and later models' `o200k_base`); see [`truncate`](crate::truncate)
    /// and `SPEC.md`, *Budget*.
    ///
    /// What it costs: a rendering is measured once (for tokens, counted
    /// once: about 4 ms for 44 KB in a release build); one over the budget
    /// is counted a few more times, each on at most the budget's size but
    /// one (the search for where the budget ends) on the whole. In chars
    /// or bytes, with the default profile, a rendering over the budget is
    /// not held whole: past the first row or item where it is over, the
    /// writer measures what it writes and drops it, so its memory is about
    /// the budget's, not the rendering's (its time is still the whole
    /// rendering's: the note counts all of it).
    ///
    /// A service that pages its rows says how in the hint, and `{rows}` in
    /// it is replaced by the number of rows kept:
    ///
    /// ```
    /// use codec_core::{from_str, CodecExt, TextLimit};
    /// use codec_md::MarkdownCodec;
    ///
    /// let budget = TextLimit::chars(300).with_hint("Request `?offset={rows}` for the next rows.");
    /// let codec = MarkdownCodec::builder().budget(Some(budget)).build();
    /// let rows: Vec<String> = (0..50).map(|i| format!(r#"{{"id": {i}, "name": "user {i}"}}"#)).collect();
    /// let value = from_str(&format!("[{}]", rows.join(","))).unwrap();
    /// let markdown = String::from_utf8(codec.to_vec(&value).unwrap()).unwrap();
    /// assert!(markdown.chars().count() <= 300);
    /// assert!(markdown.starts_with("|id|name|\n|---|---|\n|0|user 0|\n"));
    /// assert!(markdown.ends_with(
    ///     "|10|user 10|\n\n[Truncated: showing the first 142 of 650 characters; 39 of 50 \
    ///      rows were left out. Request `?offset=11` for the next rows.]"
    /// ));
    /// ```
    ///
    /// In exact o200k tokens (a token budget needs a counter; the `o200k`
    /// feature of codec-core gives the exact one):
    ///
    /// ```
    /// use std::sync::Arc;
    /// use codec_core::{TextLimit, tokens::O200k};
    ///
    /// let budget = TextLimit::tokens(25_000, Arc::new(O200k::new()));
    /// let codec = codec_md::MarkdownCodec::builder().budget(Some(budget)).build();
    /// ```
    pub fn budget(mut self, limit: Option<TextLimit>) -> MarkdownCodecBuilder {
        self.budget = limit;
        self
    }

    /// The codec.
    pub fn build(self) -> MarkdownCodec {
        MarkdownCodec {
            media_type: MediaType::from_static(MEDIA_TYPE),
            options: self.options,
            budget: self.budget,
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

//! [`TokenCounter`]: what a text costs a model, in its tokenizer's tokens.
//!
//! A response codec exists to save an agent tokens, so the tools around it
//! (a page that compares formats, an `x-markdown-tokens` header, a token
//! budget) need the count of a rendering. The trait is here, beside
//! [`Codec`](crate::Codec), so a codec or a server can take any counter
//! without depending on a tokenizer; [`O200k`] (feature `o200k`) is the
//! exact count of the `o200k_base` encoding.

use std::fmt;

/// Counts the tokens a tokenizer makes of a text.
///
/// A count is exact for the tokenizer [`name`](TokenCounter::name) names:
/// whatever shows or enforces it (a page, a header, a budget) presents it
/// as a count. An estimate is not a `TokenCounter`.
///
/// ```
/// use codec_core::TokenCounter;
///
/// /// A tokenizer whose tokens are bytes.
/// struct Bytes;
///
/// impl TokenCounter for Bytes {
///     fn name(&self) -> &str { "bytes" }
///     fn count(&self, text: &str) -> usize { text.len() }
/// }
///
/// let counter: &dyn TokenCounter = &Bytes;
/// assert_eq!(counter.count("héllo"), 6);
/// ```
pub trait TokenCounter: Send + Sync {
    /// The tokenizer's name as a reader should see it beside a count, such
    /// as `o200k`.
    fn name(&self) -> &str;

    /// The number of tokens of `text`.
    fn count(&self, text: &str) -> usize;
}

impl fmt::Debug for dyn TokenCounter + '_ {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TokenCounter")
            .field("name", &self.name())
            .finish()
    }
}

/// The exact token count of OpenAI's `o200k_base` encoding (GPT-4o, GPT-4.1,
/// GPT-5 and the `o` series), by `tiktoken-rs`. Named `o200k`.
///
/// Special-token text such as `<|endoftext|>` is counted as the ordinary
/// text it is in a response body. The vocabulary is embedded in the binary
/// and loaded once per process, by [`O200k::new`]: see the `o200k`
/// feature in `Cargo.toml` for what that costs.
///
/// ```
/// use codec_core::{O200k, TokenCounter};
///
/// let o200k = O200k::new();
/// assert_eq!(o200k.name(), "o200k");
/// // "hello" and " world".
/// assert_eq!(o200k.count("hello world"), 2);
/// ```
#[cfg(feature = "o200k")]
#[derive(Clone, Copy)]
pub struct O200k {
    bpe: &'static tiktoken_rs::CoreBPE,
}

#[cfg(feature = "o200k")]
impl O200k {
    /// The counter. The first call in a process loads the vocabulary (a
    /// few hundred milliseconds), so a server calls it at start-up, not on
    /// its first request; later calls are free.
    pub fn new() -> O200k {
        O200k {
            // Loads the vocabulary embedded in tiktoken-rs: no file and no
            // network, so it fails only if the crate itself is broken.
            bpe: tiktoken_rs::o200k_base_singleton(),
        }
    }
}

#[cfg(feature = "o200k")]
impl Default for O200k {
    fn default() -> O200k {
        O200k::new()
    }
}

#[cfg(feature = "o200k")]
impl fmt::Debug for O200k {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("O200k")
    }
}

#[cfg(feature = "o200k")]
impl TokenCounter for O200k {
    fn name(&self) -> &str {
        "o200k"
    }

    fn count(&self, text: &str) -> usize {
        self.bpe.count_ordinary(text)
    }
}

#[cfg(all(test, feature = "o200k"))]
mod tests {
    use super::*;

    /// Pinned counts: empty text, ordinary words, special-token text
    /// (counted as text, not as one special token) and a table header, so
    /// a change of vocabulary or of counting method shows here.
    #[test]
    fn counts_exactly() {
        let o200k = O200k::new();
        let cases: &[(&str, usize)] = &[
            ("", 0),
            ("hello world", 2),
            ("<|endoftext|>", 7),
            ("|id|name|\n|---|---|\n", 10),
        ];
        for (text, expected) in cases {
            assert_eq!(o200k.count(text), *expected, "{text:?}");
        }
        let counter: &dyn TokenCounter = &o200k;
        assert_eq!(format!("{counter:?}"), r#"TokenCounter { name: "o200k" }"#);
    }
}

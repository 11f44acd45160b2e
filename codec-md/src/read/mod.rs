//! The reader: markdown back to a [`Value`](codec_core::Value), one reading
//! per layout, the mirror of the writer.
//!
//! - [`lexer`]: the line pass every reading shares (markdown lines to the
//!   blocks of the outline) and the [`Reading`](lexer::Reading) hooks
//!   where a layout reads a construct its own way;
//! - [`outline`]: the one reader that nests the blocks (sections, `[i]`
//!   labels, the h6 cap);
//! - [`default`], [`lossless`], [`dense`]: each layout's reading and its
//!   entry point ([`parse`], [`parse_lossless`], [`parse_dense`]);
//! - [`table`]: GFM table rows, and [`parse_table`];
//! - [`inline`]: the one escape-aware splitter and the one reference
//!   decoder;
//! - [`normalize`](mod@normalize): the default reading applied to a value's
//!   layout.
//!
//! Modules only import downward: the layouts import the lexer, the lexer
//! imports the outline, tables and inline text, and those import only
//! [`crate::error`].

pub(crate) mod default;
pub(crate) mod dense;
pub(crate) mod inline;
pub(crate) mod lexer;
pub(crate) mod lossless;
pub(crate) mod normalize;
pub(crate) mod outline;
pub(crate) mod table;

use codec_core::Value;

use crate::Profile;
use crate::error::ParseError;

pub use default::parse;
pub use dense::parse_dense;
pub use lexer::{DEFAULT_MAX_SIZE_FACTOR, ParseOptions};
pub use lossless::parse_lossless;
pub use normalize::normalize;
pub use table::{Table, parse_table};

/// Reads back what a codec of this profile writes: the reading of its
/// layout.
pub(crate) fn read_back(markdown: &str, profile: Profile) -> Result<Value, ParseError> {
    match profile {
        Profile::Default => parse(markdown),
        Profile::Lossless => parse_lossless(markdown),
        Profile::Dense => parse_dense(markdown),
    }
}

impl ParseOptions {
    /// Reads `markdown` as `profile`'s reader does ([`parse`],
    /// [`parse_lossless`], [`parse_dense`]), with these options.
    pub fn parse(&self, markdown: &str, profile: Profile) -> Result<Value, ParseError> {
        match profile {
            Profile::Default => lexer::read(markdown, default::DefaultReading, self),
            Profile::Lossless => lexer::read(markdown, lossless::LosslessReading, self),
            Profile::Dense => lexer::read(markdown, dense::DenseReading, self),
        }
    }
}

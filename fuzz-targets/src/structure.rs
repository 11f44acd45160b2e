//! The structure targets: what real parsers read in a rendering.

use codec_core::{Codec, CodecExt, EncodeError, Value, value::DEFAULT_MAX_DEPTH};
use codec_html::HtmlCodec;
use codec_md::{MarkdownCodec, Profile};

use crate::md_oracle::{self, Block};
use crate::value::value_of;
use crate::{Verdict, html_oracle};

/// Renders the value of `data` ([`value_of`]) in every codec-md profile
/// and reads each rendering with comrak and pulldown-cmark, whose walks
/// accept no link (but a bare URL's autolink), emphasis, HTML, code span
/// (but a dense JSON cell) or stray block:
///
/// - default: exactly the blocks, tables, rows, columns, list items and
///   texts `SPEC.md` gives the value (`codec-md/tests/codec_md/support`), and where
///   that is one table, [`codec_md::parse_table`] gives back every cell's
///   exact text;
/// - lossless: the schema's blocks, the same to both parsers;
/// - dense: exactly the blocks the dense rules give
///   (`codec-md/tests/codec_md/support/dense.rs`).
///
/// Values too deep to render are `md_round_trip`'s to check.
///
/// # Panics
///
/// When a parser reads a structure the value did not ask for.
pub fn md_structure(data: &[u8]) -> Verdict {
    let Some(value) = value_of(data) else {
        return Verdict::Reject;
    };
    if value.depth() > DEFAULT_MAX_DEPTH {
        return Verdict::Keep;
    }
    md_oracle::allow_code_spans(false);
    let markdown = md_oracle::check_structure(&value);
    if let [Block::Table { .. }] = md_oracle::expected(&value).as_slice() {
        check_exact_cells(&value, &markdown);
    }

    let lossless = MarkdownCodec::builder().profile(Profile::Lossless).build();
    let lossless = String::from_utf8(lossless.to_vec(&value).expect("lossless renders"))
        .expect("markdown is UTF-8");
    let comrak = md_oracle::parse(&lossless);
    let pulldown = md_oracle::parse_pulldown(&lossless);
    assert_eq!(comrak, pulldown, "the GFM parsers disagree on\n{lossless}");

    md_oracle::dense::check_dense(&value);
    md_oracle::allow_code_spans(false);
    Verdict::Keep
}

/// A table read back by [`codec_md::parse_table`]: the columns (the rows'
/// keys, first seen first) and each cell's exact text (a string as it
/// is, NUL included; a number's text; empty for null and a missing key).
fn check_exact_cells(value: &Value, markdown: &str) {
    let rows: Vec<_> = value
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_object)
        .collect();
    let mut columns: Vec<&str> = Vec::new();
    for key in rows.iter().flat_map(|row| row.keys()) {
        if !columns.contains(&key) {
            columns.push(key);
        }
    }
    let cells: Vec<Vec<String>> = rows
        .iter()
        .map(|row| {
            columns
                .iter()
                .map(|column| match row.get(column) {
                    Some(Value::String(s)) => s.clone(),
                    Some(scalar) => md_oracle::text(scalar),
                    None => String::new(),
                })
                .collect()
        })
        .collect();
    let table = codec_md::parse_table(markdown)
        .unwrap_or_else(|e| panic!("{e} reading the table\n{markdown}"));
    assert_eq!(table.columns, columns, "columns of\n{markdown}");
    assert_eq!(table.rows, cells, "cells of\n{markdown}");
}

/// Renders the value of `data` ([`value_of`]) as codec-html's page and
/// reads it with an HTML5 parser (html5ever, as a browser parses): the
/// page holds only its own kinds of elements and attributes, no comment,
/// one stylesheet, links only to alternates and to plain `http(s)` URLs
/// whose text is their address, and every string of the value, keys
/// included, is the whole text of some element (none cut, merged or
/// turned into markup). The oracle is `codec-html/tests/codec_html/support`.
///
/// # Panics
///
/// When the page holds markup the value did not ask for, or loses a
/// string.
pub fn html_structure(data: &[u8]) -> Verdict {
    let Some(value) = value_of(data) else {
        return Verdict::Reject;
    };
    let mut out = Vec::new();
    match HtmlCodec::new().encode_value(&value, &mut out) {
        Ok(()) => {}
        Err(EncodeError::DepthLimit { .. }) if value.depth() > DEFAULT_MAX_DEPTH => {
            return Verdict::Keep;
        }
        Err(e) => panic!("the page of {value:?} fails: {e}"),
    }
    let html = String::from_utf8(out).expect("pages are UTF-8");
    let label = format!("the page of {value:?}");
    html_oracle::check_page(&value, &html, &label);
    Verdict::Keep
}

//! An example third-party codec: `text/csv` (RFC 4180) for arrays of flat
//! objects, written against `codec-core`'s public API only.
//!
//! - [`CsvCodec`]: the codec. A header row with the union of the objects'
//!   keys (first-seen order), then one row per object; missing keys and
//!   `null` are empty fields.
//!
//! It exists to prove that adding a codec is short: implement three
//! methods of [`Codec`], check it with `codec_core::testkit`
//! (`tests/codec_csv/csv.rs`), register it with the negotiator beside the standard
//! codecs (`tests/codec_csv/register.rs`, and below). Values CSV cannot hold (a nested array or object,
//! a top-level scalar) are [`EncodeError::Unrepresentable`], never a panic
//! or a lossy guess.
//!
//! # Example
//!
//! ```
//! use codec_core::CodecExt;
//! use codec_csv::CsvCodec;
//!
//! #[derive(serde::Serialize)]
//! struct Row { name: &'static str, note: &'static str }
//!
//! let rows = [Row { name: "a", note: "x, \"y\"" }];
//! let body = CsvCodec::new().to_vec(&rows).unwrap();
//! assert_eq!(body, b"name,note\r\na,\"x, \"\"y\"\"\"\r\n");
//! ```
//!
//! Registered after the standard codecs, it answers `text/csv` and
//! `?format=csv`; every other client gets what it got before:
//!
//! ```
//! use std::sync::Arc;
//!
//! let negotiator = agent_codecs::Negotiator::builder()
//!     .codecs(agent_codecs::standard().codecs().unwrap())
//!     .codec(Arc::new(codec_csv::CsvCodec::new()))
//!     .build()
//!     .unwrap();
//! let chosen = negotiator.negotiate(Some("text/csv")).into_result().unwrap();
//! assert_eq!(chosen.content_type().as_str(), "text/csv; charset=utf-8; header=present");
//! assert_eq!(negotiator.negotiate(Some("*/*")).into_result().unwrap().format(), "json");
//! ```
#![deny(missing_docs)]

use codec_core::{Codec, EncodeError, Map, MediaType, Value};

/// The `text/csv` codec. Format name `csv`.
#[derive(Debug, Clone)]
pub struct CsvCodec {
    media_type: MediaType,
}

impl Default for CsvCodec {
    fn default() -> CsvCodec {
        CsvCodec::new()
    }
}

impl CsvCodec {
    /// `text/csv; charset=utf-8; header=present` (RFC 4180, RFC 7111).
    pub fn new() -> CsvCodec {
        CsvCodec {
            media_type: MediaType::from_static("text/csv; charset=utf-8; header=present"),
        }
    }
}

impl Codec for CsvCodec {
    fn format(&self) -> &str {
        "csv"
    }

    fn media_type(&self) -> &MediaType {
        &self.media_type
    }

    fn encode_value(&self, value: &Value, out: &mut Vec<u8>) -> Result<(), EncodeError> {
        let rows = rows(value)?;
        let mut columns: Vec<&str> = Vec::new();
        for row in &rows {
            for key in row.keys() {
                // Linear search: CSV tables have few columns, and it keeps
                // first-seen order without another map.
                if !columns.contains(&key) {
                    columns.push(key);
                }
            }
        }
        if columns.is_empty() {
            return Ok(());
        }
        write_record(out, columns.iter().map(|c| Field::Text(c)))?;
        for row in &rows {
            write_record(
                out,
                columns.iter().map(|c| match row.get(c) {
                    None | Some(Value::Null) => Field::Empty,
                    Some(value) => Field::Value(value),
                }),
            )?;
        }
        Ok(())
    }
}

fn rows(value: &Value) -> Result<Vec<&Map>, EncodeError> {
    let items = match value {
        Value::Array(items) => items.as_slice(),
        Value::Object(_) => std::slice::from_ref(value),
        _ => return Err(unrepresentable("a top-level scalar")),
    };
    items
        .iter()
        .map(|item| {
            item.as_object()
                .ok_or_else(|| unrepresentable("an array element that is not an object"))
        })
        .collect()
}

enum Field<'a> {
    Empty,
    Text(&'a str),
    Value(&'a Value),
}

fn write_record<'a>(
    out: &mut Vec<u8>,
    fields: impl Iterator<Item = Field<'a>>,
) -> Result<(), EncodeError> {
    for (i, field) in fields.enumerate() {
        if i > 0 {
            out.push(b',');
        }
        match field {
            Field::Empty => {}
            Field::Text(text) => write_text(out, text),
            Field::Value(Value::String(text)) => write_text(out, text),
            Field::Value(Value::Number(n)) => n.write_to(out),
            Field::Value(Value::Bool(b)) => {
                out.extend_from_slice(if *b { b"true" } else { b"false" })
            }
            Field::Value(_) => return Err(unrepresentable("a nested array or object")),
        }
    }
    out.extend_from_slice(b"\r\n");
    Ok(())
}

/// RFC 4180: quote a field holding a comma, quote, CR or LF (or that could
/// be misread for its leading or trailing space), doubling its quotes.
fn write_text(out: &mut Vec<u8>, text: &str) {
    let needs_quotes = text
        .bytes()
        .any(|b| matches!(b, b',' | b'"' | b'\r' | b'\n'))
        || text.starts_with(' ')
        || text.ends_with(' ');
    if !needs_quotes {
        out.extend_from_slice(text.as_bytes());
        return;
    }
    out.push(b'"');
    for part in text.split('"').enumerate() {
        if part.0 > 0 {
            out.extend_from_slice(b"\"\"");
        }
        out.extend_from_slice(part.1.as_bytes());
    }
    out.push(b'"');
}

fn unrepresentable(what: &str) -> EncodeError {
    EncodeError::Unrepresentable {
        format: "csv".into(),
        reason: format!("CSV holds an array of flat objects, not {what}"),
    }
}

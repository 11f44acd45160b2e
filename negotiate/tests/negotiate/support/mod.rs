//! Stand-in codecs for the tests: the real media types of the JSON,
//! markdown and MCP codecs, with simple encoders, so these tests depend on
//! the `Codec` trait only.

#![allow(dead_code, unreachable_pub)]

use std::sync::Arc;

use codec_core::{Codec, EncodeError, MediaType, Value};
use negotiate::{Negotiator, NegotiatorBuilder, Outcome};

/// A codec with a given format name and media type; it writes
/// `format:` followed by the value's JSON.
#[derive(Debug)]
pub struct Stub {
    format: &'static str,
    media_type: MediaType,
}

impl Stub {
    pub fn codec(format: &'static str, media_type: &str) -> Arc<dyn Codec> {
        Arc::new(Stub {
            format,
            media_type: media_type.parse().expect("valid media type"),
        })
    }
}

impl Codec for Stub {
    fn format(&self) -> &str {
        self.format
    }

    fn media_type(&self) -> &MediaType {
        &self.media_type
    }

    fn encode_value(&self, value: &Value, out: &mut Vec<u8>) -> Result<(), EncodeError> {
        out.extend_from_slice(self.format.as_bytes());
        out.push(b':');
        serde_json::to_writer(out, value).expect("a Value always serializes");
        Ok(())
    }
}

pub fn json() -> Arc<dyn Codec> {
    Stub::codec("json", "application/json")
}

pub fn md() -> Arc<dyn Codec> {
    Stub::codec("md", "text/markdown; charset=utf-8; variant=GFM")
}

pub fn mcp() -> Arc<dyn Codec> {
    Stub::codec("mcp", "application/vnd.mcp+json")
}

/// JSON, markdown (alias `text/x-markdown`), MCP, in that order.
pub fn builder() -> NegotiatorBuilder {
    Negotiator::builder()
        .codec(json())
        .codec(md())
        .codec(mcp())
        .alias("md", MediaType::from_static("text/x-markdown"))
}

pub fn standard() -> Negotiator {
    builder().build().expect("valid settings")
}

/// The Accept headers agents and browsers actually send.
pub const CLAUDE_CODE: &str = "text/markdown, text/html, */*";
pub const CURSOR: &str = "text/markdown, text/plain;q=0.9, */*;q=0.8";
pub const OPENCODE: &str =
    "text/markdown;q=1.0, text/x-markdown;q=0.9, text/plain;q=0.8, text/html;q=0.7, */*;q=0.1";
pub const MCP_CLIENT: &str = "application/json, text/event-stream";
pub const CURL: &str = "*/*";
pub const FIREFOX: &str =
    "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8";

/// The outcome as one line: `FORMAT CONTENT-TYPE q=Q`, `default FORMAT`,
/// `fallback FORMAT` or `406`.
pub fn describe(outcome: Outcome<'_>) -> String {
    match outcome {
        Outcome::Selected(s) => format!("{} {} q={}", s.format(), s.content_type(), s.quality()),
        Outcome::NoPreference(s) => format!("default {}", s.format()),
        Outcome::Fallback(s) => format!("fallback {}", s.format()),
        Outcome::NotAcceptable(_) => "406".to_owned(),
        _ => unreachable!("a new outcome"),
    }
}

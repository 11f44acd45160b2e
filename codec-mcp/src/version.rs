//! [`ProtocolVersion`]: the MCP revisions this codec writes, and what
//! changes between them.

use std::fmt;
use std::str::FromStr;

/// An MCP protocol revision, as negotiated in `initialize` (or, from
/// 2026-07-28, sent in each request's `_meta`).
///
/// The revisions differ in two places that matter to a tool result:
///
/// | revision | `structuredContent` | `resultType` |
/// | --- | --- | --- |
/// | 2025-06-18, 2025-11-25 | an object only: other values are wrapped as `{"result": value}` | absent |
/// | 2026-07-28 | any JSON value | `"complete"`, required |
///
/// ```
/// use codec_mcp::ProtocolVersion;
///
/// let v: ProtocolVersion = "2026-07-28".parse().unwrap();
/// assert_eq!(v, ProtocolVersion::LATEST);
/// assert!(!v.requires_object_structured_content());
/// assert_eq!(ProtocolVersion::V2025_11_25.to_string(), "2025-11-25");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
#[non_exhaustive]
pub enum ProtocolVersion {
    /// `2025-06-18`: the first revision with `structuredContent` and output
    /// schemas.
    V2025_06_18,
    /// `2025-11-25`, the default: its results are also valid for
    /// 2025-06-18 peers, and 2026-07-28 clients read a result without
    /// `resultType` as `"complete"`.
    #[default]
    V2025_11_25,
    /// `2026-07-28`, the latest: `structuredContent` may be any JSON value
    /// and every result carries `resultType`.
    V2026_07_28,
}

impl ProtocolVersion {
    /// The latest revision this crate knows.
    pub const LATEST: ProtocolVersion = ProtocolVersion::V2026_07_28;

    /// Every revision this crate knows, oldest first.
    pub const ALL: [ProtocolVersion; 3] = [
        ProtocolVersion::V2025_06_18,
        ProtocolVersion::V2025_11_25,
        ProtocolVersion::V2026_07_28,
    ];

    /// The revision's date, as it appears on the wire.
    pub fn as_str(self) -> &'static str {
        match self {
            ProtocolVersion::V2025_06_18 => "2025-06-18",
            ProtocolVersion::V2025_11_25 => "2025-11-25",
            ProtocolVersion::V2026_07_28 => "2026-07-28",
        }
    }

    /// Whether `structuredContent` must be a JSON object (the 2025
    /// revisions), so that other values are wrapped as `{"result": value}`.
    pub fn requires_object_structured_content(self) -> bool {
        self < ProtocolVersion::V2026_07_28
    }

    /// Whether every result carries `resultType` (2026-07-28 on), and may
    /// carry `_meta["io.modelcontextprotocol/serverInfo"]`.
    pub fn has_result_type(self) -> bool {
        self >= ProtocolVersion::V2026_07_28
    }
}

impl fmt::Display for ProtocolVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A protocol version string this crate does not know.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown MCP protocol version {text:?}: expected one of 2025-06-18, 2025-11-25, 2026-07-28"
)]
pub struct UnknownProtocolVersion {
    text: String,
}

impl UnknownProtocolVersion {
    /// The text that did not name a known revision.
    pub fn text(&self) -> &str {
        &self.text
    }
}

impl FromStr for ProtocolVersion {
    type Err = UnknownProtocolVersion;

    fn from_str(text: &str) -> Result<ProtocolVersion, UnknownProtocolVersion> {
        ProtocolVersion::ALL
            .into_iter()
            .find(|v| v.as_str() == text)
            .ok_or_else(|| UnknownProtocolVersion {
                text: text.to_owned(),
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_prints_every_version() {
        let cases: &[(&str, Option<ProtocolVersion>)] = &[
            ("2025-06-18", Some(ProtocolVersion::V2025_06_18)),
            ("2025-11-25", Some(ProtocolVersion::V2025_11_25)),
            ("2026-07-28", Some(ProtocolVersion::V2026_07_28)),
            ("2024-11-05", None),
            ("", None),
            (" 2025-11-25", None),
        ];
        for &(text, expected) in cases {
            let parsed = text.parse::<ProtocolVersion>().ok();
            assert_eq!(parsed, expected, "{text:?}");
            if let Some(v) = parsed {
                assert_eq!(v.to_string(), text);
            }
        }
    }

    #[test]
    fn unknown_version_error_names_the_input() {
        let error = "1.0".parse::<ProtocolVersion>().unwrap_err();
        assert_eq!(error.text(), "1.0");
        assert_eq!(
            error.to_string(),
            "unknown MCP protocol version \"1.0\": expected one of 2025-06-18, 2025-11-25, 2026-07-28"
        );
    }

    #[test]
    fn rules_per_version() {
        let cases = [
            (ProtocolVersion::V2025_06_18, true, false),
            (ProtocolVersion::V2025_11_25, true, false),
            (ProtocolVersion::V2026_07_28, false, true),
        ];
        for (v, wraps, result_type) in cases {
            assert_eq!(v.requires_object_structured_content(), wraps, "{v}");
            assert_eq!(v.has_result_type(), result_type, "{v}");
        }
        assert_eq!(ProtocolVersion::default(), ProtocolVersion::V2025_11_25);
    }
}

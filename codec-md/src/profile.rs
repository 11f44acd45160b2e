//! [`Profile`]: which layout rules the markdown codec follows.

/// The layout rules of a [`MarkdownCodec`](crate::MarkdownCodec), chosen
/// with [`MarkdownCodecBuilder::profile`](crate::MarkdownCodecBuilder::profile).
/// All write `text/markdown`; all keep every string from changing the
/// document's structure. Each has its reading: [`parse`](crate::parse),
/// [`parse_lossless`](crate::parse_lossless),
/// [`parse_dense`](crate::parse_dense).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum Profile {
    /// The schema of `SPEC.md`: key lists, headed sections, flat tables.
    #[default]
    Default,
    /// The default layout plus the fewest markers (quotes around a string
    /// that reads as another type, `\,`, `\[x]`, ...; `SPEC.md`,
    /// *Lossless*) that make [`parse_lossless`](crate::parse_lossless)
    /// give back exactly the value: types, null versus missing versus
    /// `""`, numbers' text, key order. Still valid GFM, and ordinary
    /// values carry no marker.
    Lossless,
    /// Fewer tokens (`SPEC.md`, *Dense profile*): row lines without outer
    /// pipes, nested objects as dotted columns, maps of objects as keyed
    /// tables, lists and JSON inside cells, and a fenced `json` block for
    /// any section or document that would cost more as markdown, which a
    /// reader gets as exactly its JSON. On the eight benchmark datasets it
    /// costs 0.70x compact JSON and 0.77x TOON in all (o200k). Read back
    /// by [`parse_dense`](crate::parse_dense).
    Dense,
}

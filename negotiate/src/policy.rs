//! The policies a [`Negotiator`](crate::Negotiator) applies where RFC 9110
//! leaves the server a choice: an empty `Accept`, nothing acceptable, and
//! ties.

/// What to do with an `Accept` header that is present but lists nothing
/// usable: empty, only commas, or only elements that do not parse.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum EmptyAccept {
    /// Treat it as no header:
    /// [`Outcome::NoPreference`](crate::Outcome::NoPreference) with the
    /// default codec. The default, because clients that send an empty `Accept`
    /// are buggy far more often than they mean "send nothing".
    #[default]
    NoPreference,
    /// Take it literally (RFC 9110's grammar allows an empty list: nothing
    /// is acceptable):
    /// [`Outcome::NotAcceptable`](crate::Outcome::NotAcceptable).
    NotAcceptable,
}

/// What to do when the client's `Accept` matches none of the offers with a
/// non-zero quality.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum NothingAcceptable {
    /// Answer `406 Not Acceptable`
    /// ([`Outcome::NotAcceptable`](crate::Outcome::NotAcceptable)). The
    /// default.
    #[default]
    NotAcceptable,
    /// Disregard the header (RFC 9110 §12.5.1 allows it) and serve the
    /// default codec ([`Outcome::Fallback`](crate::Outcome::Fallback)),
    /// unless the client explicitly excluded the default's media type
    /// with `q=0` (then 406 still): a type the client refused is never
    /// served.
    ServeDefault,
}

/// How to order offers that have the same quality and whose deciding
/// ranges are equally specific.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum TieBreak {
    /// The offer whose range comes first in the client's list, then the
    /// server's order. The default: `Accept: text/markdown, application/json`
    /// gets markdown even if JSON is registered first.
    #[default]
    ClientOrder,
    /// The server's order (the order codecs and aliases were registered),
    /// ignoring the client's.
    ServerOrder,
}

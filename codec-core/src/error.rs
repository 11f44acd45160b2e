//! [`EncodeError`]: why a codec could not encode a value.

use std::io;

use crate::value::ToValueError;

/// Why a codec could not encode a value.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum EncodeError {
    /// The value's `Serialize` impl failed, or produced something JSON's
    /// data model cannot hold (a non-string map key).
    #[error("cannot serialize the value: {0}")]
    Serialize(#[from] ToValueError),
    /// The value nests deeper than the codec's limit.
    #[error("value nests deeper than the limit of {limit}")]
    DepthLimit {
        /// The limit in force.
        limit: usize,
    },
    /// The format cannot represent this value (for example CSV and a
    /// nested object).
    #[error("{format} cannot represent this value: {reason}")]
    Unrepresentable {
        /// The codec's format name.
        format: String,
        /// What it could not represent.
        reason: String,
    },
    /// Writing to the output failed.
    #[error("cannot write the encoded value")]
    Io(#[source] io::Error),
    /// A stream of rows for a codec that cannot write them as they come
    /// holds more than [`RowWriter::collect_limit`](crate::rows::RowWriter::collect_limit)
    /// allows.
    #[error(
        "the rows to collect for a codec that cannot stream them pass the limit of {limit} bytes"
    )]
    CollectLimit {
        /// The limit in force, in bytes as [`footprint`](crate::rows::footprint)
        /// estimates them.
        limit: usize,
    },
}

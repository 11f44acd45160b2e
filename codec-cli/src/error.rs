//! The command's errors and their exit codes.

use std::io;
use std::path::PathBuf;

/// Why a command failed.
#[derive(Debug, thiserror::Error)]
pub(crate) enum CliError {
    #[error("cannot read {path}: {source}")]
    Read {
        path: PathBuf,
        #[source]
        source: io::Error,
    },
    #[error("{input}:{line}:{column}: invalid JSON: {kind}")]
    Json {
        input: String,
        line: usize,
        column: usize,
        kind: codec_core::json::ParseErrorKind,
    },
    #[error("{input}: {source}")]
    Markdown {
        input: String,
        #[source]
        source: codec_md::ParseError,
    },
    #[error("cannot encode as {format}: {source}")]
    Encode {
        format: String,
        #[source]
        source: codec_core::EncodeError,
    },
    #[error("{0}")]
    NotAcceptable(String),
    #[error("unknown format {name:?}; valid formats: {valid}")]
    UnknownFormat { name: String, valid: String },
    #[error("{0}")]
    Input(String),
    #[error("{0}")]
    Usage(String),
    #[error("cannot write the output: {0}")]
    Write(#[source] io::Error),
    #[error("server failed: {0}")]
    Serve(#[source] io::Error),
    #[error("MCP session failed: {0}")]
    Mcp(String),
}

impl CliError {
    pub(crate) fn exit_code(&self) -> u8 {
        match self {
            CliError::Read { .. }
            | CliError::Json { .. }
            | CliError::Markdown { .. }
            | CliError::Encode { .. }
            | CliError::Input(_)
            | CliError::Write(_)
            | CliError::Serve(_)
            | CliError::Mcp(_) => 1,
            CliError::NotAcceptable(_) | CliError::UnknownFormat { .. } => 2,
            CliError::Usage(_) => 64,
        }
    }
}

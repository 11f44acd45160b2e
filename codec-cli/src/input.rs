//! Reading input: a file, or standard input for `-` or no file.

use std::io::Read;
use std::path::{Path, PathBuf};

use codec_core::Value;

use crate::error::CliError;

/// Reads `path` (standard input for `None` or `-`). Returns the bytes and
/// a name for error messages.
pub(crate) fn read(path: Option<&Path>) -> Result<(Vec<u8>, String), CliError> {
    match path {
        Some(p) if p != Path::new("-") => std::fs::read(p)
            .map(|bytes| (bytes, p.display().to_string()))
            .map_err(|source| CliError::Read {
                path: p.to_owned(),
                source,
            }),
        _ => {
            let mut bytes = Vec::new();
            std::io::stdin()
                .read_to_end(&mut bytes)
                .map_err(|source| CliError::Read {
                    path: PathBuf::from("<stdin>"),
                    source,
                })?;
            Ok((bytes, "<stdin>".to_owned()))
        }
    }
}

/// Opens `path` for reading (standard input for `None` or `-`). Returns
/// the reader and a name for error messages.
pub(crate) fn open(path: Option<&Path>) -> Result<(Box<dyn Read>, String), CliError> {
    match path {
        Some(p) if p != Path::new("-") => std::fs::File::open(p)
            .map(|file| (Box::new(file) as Box<dyn Read>, p.display().to_string()))
            .map_err(|source| CliError::Read {
                path: p.to_owned(),
                source,
            }),
        _ => Ok((Box::new(std::io::stdin()), "<stdin>".to_owned())),
    }
}

/// Reads up to `limit` bytes of `source` into `head`: all of it when
/// `head` ends up shorter than `limit`.
pub(crate) fn read_head(
    source: &mut dyn Read,
    head: &mut Vec<u8>,
    limit: usize,
    name: &str,
) -> Result<(), CliError> {
    source
        .take(limit as u64)
        .read_to_end(head)
        .map(|_| ())
        .map_err(|source| CliError::Read {
            path: PathBuf::from(name),
            source,
        })
}

/// Reads the rest of `source` after `head`.
pub(crate) fn read_rest(
    source: &mut dyn Read,
    mut head: Vec<u8>,
    name: &str,
) -> Result<Vec<u8>, CliError> {
    source
        .read_to_end(&mut head)
        .map_err(|source| CliError::Read {
            path: PathBuf::from(name),
            source,
        })?;
    Ok(head)
}

/// Parses JSON bytes, naming `input` and the line and column on error.
pub(crate) fn parse_json(bytes: &[u8], input: &str) -> Result<Value, CliError> {
    codec_core::from_slice(bytes).map_err(|e| CliError::Json {
        input: input.to_owned(),
        line: e.line(),
        column: e.column(),
        kind: e.kind().clone(),
    })
}

/// Writes `bytes` to standard output and flushes.
pub(crate) fn write_stdout(bytes: &[u8]) -> Result<(), CliError> {
    use std::io::Write;
    let mut stdout = std::io::stdout().lock();
    stdout
        .write_all(bytes)
        .and_then(|()| stdout.flush())
        .map_err(CliError::Write)
}

/// The bundled sample: the 100 most-starred GitHub repositories, from the
/// TOON project's benchmark datasets.
pub(crate) const SAMPLE: &[u8] = include_bytes!("../data/sample.json");

/// The sample's name in messages and `serve` routes.
pub(crate) const SAMPLE_NAME: &str = "github";

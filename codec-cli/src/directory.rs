//! The documents of a directory, for `serve` and `mcp`: every `*.json`
//! of DIR by file stem, read once at start.
//!
//! Symbolic links: a directory server serves what is in its directory. A
//! link whose target (every link in the chain resolved) lies inside DIR
//! is served, as an alias (`latest.json -> v2.json`); a link that leads
//! outside DIR, or nowhere, is skipped with a warning, unless
//! `--follow-symlinks` says the operator means it. The check is made
//! once, at start, on the resolved path that is then read; the servers
//! open no file after they start. Hard links cannot be told from files and
//! are served.
//!
//! A file larger than `--stream-above` whose document is rows is not
//! loaded: it is kept open and its rows read anew by each response
//! ([`Streamed`]), after one check of every row at start. A new file
//! renamed over it changes nothing served (the open file is read, as the
//! loaded documents stay as they were); an edit in place shows in the
//! responses that follow it, and one that breaks a row ends a response
//! abnormally after the rows before it, with a log line saying why.
//!
//! A file that does not parse is kept as a failure, with its line and
//! column: `serve` refuses to start with it, `mcp` lists it and answers
//! its error to a tool call, so one bad file does not take the other
//! documents from a model.

use std::collections::BTreeMap;
use std::ffi::OsStr;
use std::fmt;
use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use codec_core::Value;

use crate::error::CliError;
use crate::input;
use crate::rows::{Opened, RowReader, Rows};

/// A file of DIR that is not served, and why.
#[derive(Debug)]
pub(crate) enum Skipped {
    /// A symbolic link that resolves outside DIR.
    LinkOutside { path: PathBuf, target: PathBuf },
    /// A symbolic link that resolves to nothing.
    BrokenLink {
        path: PathBuf,
        error: std::io::Error,
    },
    /// A name that is not UTF-8 text, so not a URL path.
    NameNotUtf8 { path: PathBuf },
}

impl fmt::Display for Skipped {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Skipped::LinkOutside { path, target } => write!(
                f,
                "not serving {}: a symbolic link to {}, outside the directory (--follow-symlinks serves it)",
                path.display(),
                target.display()
            ),
            Skipped::BrokenLink { path, error } => write!(
                f,
                "not serving {}: a symbolic link that leads nowhere ({error})",
                path.display()
            ),
            Skipped::NameNotUtf8 { path } => {
                write!(f, "not serving {}: its name is not UTF-8", path.display())
            }
        }
    }
}

/// The documents of a directory: every `*.json` by file stem, the files
/// that did not read or parse, and what was skipped, in name order.
#[derive(Debug)]
pub(crate) struct Loaded {
    pub(crate) documents: BTreeMap<String, Value>,
    /// The rows documents too large to load (see [`load_dir`]).
    pub(crate) streamed: BTreeMap<String, Streamed>,
    /// By file stem: the error names the file (and line and column).
    pub(crate) failed: BTreeMap<String, CliError>,
    pub(crate) skipped: Vec<Skipped>,
}

/// A document too large to load, streamed instead: its file, opened once
/// at start and read anew (at its own positions) by every response, and
/// the shape of its rows. Its rows were all read once at start, so a file
/// that does not parse stops the server as any other does.
#[derive(Debug)]
pub(crate) struct Streamed {
    file: Arc<File>,
    name: String,
    pub(crate) shape: Rows,
    /// The file's size and rows at start.
    pub(crate) len: u64,
    pub(crate) rows: usize,
}

impl Streamed {
    /// A reader of the rows, from the first.
    pub(crate) fn reader(&self) -> Result<RowReader<FileAt>, CliError> {
        match RowReader::open(FileAt::new(Arc::clone(&self.file)), &self.name)? {
            Opened::Rows(reader) => Ok(reader),
            Opened::Other(..) => Err(CliError::Input(format!(
                "{}: no longer an array of rows (the file changed since the server started)",
                self.name
            ))),
        }
    }
}

/// Reads a file shared by every response, each from its own position
/// (`pread`), so that none of them moves another's.
#[derive(Debug)]
pub(crate) struct FileAt {
    file: Arc<File>,
    at: u64,
}

impl FileAt {
    fn new(file: Arc<File>) -> FileAt {
        FileAt { file, at: 0 }
    }
}

impl Read for FileAt {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        #[cfg(unix)]
        let read = std::os::unix::fs::FileExt::read_at(&*self.file, buf, self.at)?;
        #[cfg(windows)]
        let read = std::os::windows::fs::FileExt::seek_read(&*self.file, buf, self.at)?;
        self.at += read as u64;
        Ok(read)
    }
}

/// Reads every `*.json` of `dir` (see the module's notes on links). Fails
/// when the directory cannot be listed, or holds no `.json` file at all.
///
/// A file larger than `stream_above` whose document is rows (an array,
/// or an object whose one member is) is not loaded but kept open, its
/// rows checked once, one at a time, to be streamed ([`Streamed`]).
pub(crate) fn load_dir(
    dir: &Path,
    follow_symlinks: bool,
    stream_above: Option<u64>,
) -> Result<Loaded, CliError> {
    let unreadable = |source| CliError::Read {
        path: dir.to_owned(),
        source,
    };
    let root = dir.canonicalize().map_err(unreadable)?;
    let mut paths = std::fs::read_dir(dir)
        .map_err(unreadable)?
        .map(|entry| entry.map(|e| e.path()))
        .collect::<Result<Vec<_>, _>>()
        .map_err(unreadable)?;
    paths.sort();
    let mut loaded = Loaded {
        documents: BTreeMap::new(),
        streamed: BTreeMap::new(),
        failed: BTreeMap::new(),
        skipped: Vec::new(),
    };
    for path in paths {
        if path.extension() != Some(OsStr::new("json")) {
            continue;
        }
        let Some(name) = path.file_stem().and_then(OsStr::to_str) else {
            loaded.skipped.push(Skipped::NameNotUtf8 { path });
            continue;
        };
        let name = name.to_owned();
        let is_link = std::fs::symlink_metadata(&path)
            .map_err(|source| CliError::Read {
                path: path.clone(),
                source,
            })?
            .file_type()
            .is_symlink();
        let source = if is_link {
            match path.canonicalize() {
                Ok(target) if follow_symlinks || target.starts_with(&root) => target,
                Ok(target) => {
                    loaded.skipped.push(Skipped::LinkOutside { path, target });
                    continue;
                }
                Err(error) => {
                    loaded.skipped.push(Skipped::BrokenLink { path, error });
                    continue;
                }
            }
        } else {
            path.clone()
        };
        if !source.is_file() {
            continue;
        }
        match load(&path, &source, stream_above) {
            Ok(Document::Value(value)) => {
                loaded.documents.insert(name, value);
            }
            Ok(Document::Streamed(streamed)) => {
                loaded.streamed.insert(name, streamed);
            }
            Err(error) => {
                loaded.failed.insert(name, error);
            }
        }
    }
    if loaded.documents.is_empty() && loaded.streamed.is_empty() && loaded.failed.is_empty() {
        return Err(CliError::Input(format!(
            "{}: no .json files to serve",
            dir.display()
        )));
    }
    Ok(loaded)
}

/// A file's document: loaded, or to be streamed.
enum Document {
    Value(Value),
    Streamed(Streamed),
}

/// Reads the file `source` (named by `path` in errors): whole, unless it
/// is larger than `stream_above` and its document is rows.
fn load(path: &Path, source: &Path, stream_above: Option<u64>) -> Result<Document, CliError> {
    let unreadable = |source| CliError::Read {
        path: path.to_owned(),
        source,
    };
    let name = path.display().to_string();
    let file = File::open(source).map_err(unreadable)?;
    let len = file.metadata().map_err(unreadable)?.len();
    if stream_above.is_none_or(|limit| len <= limit) {
        let mut bytes = Vec::new();
        (&file).read_to_end(&mut bytes).map_err(unreadable)?;
        return input::parse_json(&bytes, &name).map(Document::Value);
    }
    let file = Arc::new(file);
    match RowReader::open(FileAt::new(Arc::clone(&file)), &name)? {
        Opened::Rows(mut reader) => {
            let mut rows = 0;
            while reader.next_row()?.is_some() {
                rows += 1;
            }
            Ok(Document::Streamed(Streamed {
                file,
                name,
                shape: reader.shape().clone(),
                len,
                rows,
            }))
        }
        Opened::Other(read, mut rest) => {
            let bytes = input::read_rest(&mut rest, read, &name)?;
            input::parse_json(&bytes, &name).map(Document::Value)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A name that is not UTF-8 has no URL path; it was served under a
    /// lossy name that another file could share.
    #[cfg(unix)]
    #[test]
    fn names_that_are_not_utf8_are_skipped() {
        use std::os::unix::ffi::OsStrExt;
        let scratch = tempfile::tempdir().unwrap();
        let dir = scratch.path().to_owned();
        std::fs::write(dir.join("ok.json"), "1").unwrap();
        std::fs::write(dir.join(OsStr::from_bytes(b"bad\xff.json")), "2").unwrap();
        let loaded = load_dir(&dir, false, None).unwrap();
        assert_eq!(loaded.documents.keys().collect::<Vec<_>>(), ["ok"]);
        assert!(
            matches!(&loaded.skipped[..], [Skipped::NameNotUtf8 { .. }]),
            "{:?}",
            loaded.skipped
        );
        assert!(
            loaded.skipped[0]
                .to_string()
                .ends_with("its name is not UTF-8")
        );
    }

    #[test]
    fn files_that_do_not_parse_are_kept_as_failures() {
        let scratch = tempfile::tempdir().unwrap();
        let dir = scratch.path().to_owned();
        std::fs::write(dir.join("ok.json"), "[1]").unwrap();
        std::fs::write(dir.join("bad.json"), "{\n  \"a\": tru\n}").unwrap();
        let loaded = load_dir(&dir, false, None).unwrap();
        assert_eq!(loaded.documents.keys().collect::<Vec<_>>(), ["ok"]);
        let failed: Vec<String> = loaded.failed.values().map(|e| e.to_string()).collect();
        assert_eq!(
            failed,
            [format!(
                "{}:2:11: invalid JSON: expected true, found '\\n'",
                dir.join("bad.json").display()
            )]
        );
        std::fs::remove_file(dir.join("ok.json")).unwrap();
        assert_eq!(load_dir(&dir, false, None).unwrap().failed.len(), 1);
        std::fs::remove_file(dir.join("bad.json")).unwrap();
        assert!(load_dir(&dir, false, None).is_err());
    }
}

//! The documents `serve` publishes: read once from DIR at start, each
//! representation rendered once, on first request, and shared.
//!
//! Rendering per request made memory grow with clients × document size
//! (200 clients of a 20 MB document: 5.2 GB; issue 17, finding 3). A
//! document's value never changes after start, so neither does its
//! rendering by a codec: the first request for a format renders it (on a
//! blocking thread; concurrent requests for it wait for that one), and
//! every later request gets the same bytes, shared, never copied. Lazily,
//! so a format nobody asks for costs nothing: a directory of documents
//! costs their values plus the representations clients actually fetch,
//! each at most once.
//!
//! Symbolic links: a directory server serves what is in its directory. A
//! link whose target (every link in the chain resolved) lies inside DIR
//! is served, as an alias (`latest.json -> v2.json`); a link that leads
//! outside DIR, or nowhere, is skipped with a warning, unless
//! `--follow-symlinks` says the operator means it. The check is made
//! once, at start, on the resolved path that is then read; the server
//! opens no file after it starts. Hard links cannot be told from files and
//! are served.

use std::collections::BTreeMap;
use std::ffi::OsStr;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use bytes::Bytes;
use codec_core::{Codec, Value};
use negotiate::Representation;
use tokio::sync::OnceCell;

use crate::error::CliError;
use crate::input;

use super::route;

/// One document: its value, its URL path and the representations
/// rendered so far.
#[derive(Debug)]
pub(crate) struct Document {
    path: String,
    value: Arc<Value>,
    /// One cell per codec of the negotiator, in its order. A codec's
    /// failure is kept too: rendering is deterministic.
    rendered: Vec<OnceCell<Result<Bytes, String>>>,
    /// One cell per offer (media type) of the negotiator, in its order:
    /// what the response headers say about that representation (its
    /// `ETag`, its token count). Counting a large document's tokens takes
    /// a while (o200k runs at ~12 MB/s), so it is done once, like the
    /// rendering.
    described: Vec<OnceCell<Option<Representation>>>,
}

impl Document {
    /// `name` is the route name (`""` for the index); `codecs` and
    /// `offers` the numbers of codecs that may render it and of media
    /// types it may be sent as.
    pub(crate) fn new(name: &str, value: Value, (codecs, offers): (usize, usize)) -> Document {
        Document {
            path: route::path_of(name),
            value: Arc::new(value),
            rendered: (0..codecs).map(|_| OnceCell::new()).collect(),
            described: (0..offers).map(|_| OnceCell::new()).collect(),
        }
    }

    /// What the response headers say about the representation of offer
    /// number `offer`: `describe` runs on the first call (on a blocking
    /// thread), and its result is shared after. `None` for an offer the
    /// document has no cell for, or that `describe` could not describe.
    pub(crate) async fn described<F>(
        &self,
        offer: Option<usize>,
        describe: F,
    ) -> Option<Representation>
    where
        F: FnOnce() -> Option<Representation> + Send + 'static,
    {
        let cell = self.described.get(offer?)?;
        cell.get_or_init(
            || async move { tokio::task::spawn_blocking(describe).await.ok().flatten() },
        )
        .await
        .clone()
    }

    /// The percent-encoded path it is served at.
    pub(crate) fn path(&self) -> &str {
        &self.path
    }

    /// The bytes of `codec`, the negotiator's codec number `index`:
    /// rendered on the first call, shared after.
    pub(crate) async fn rendered(
        &self,
        index: usize,
        codec: &Arc<dyn Codec>,
    ) -> Result<Bytes, String> {
        let Some(cell) = self.rendered.get(index) else {
            return Err(format!("no codec number {index}"));
        };
        cell.get_or_init(|| {
            let (codec, value) = (codec.clone(), self.value.clone());
            async move {
                // A large document takes a while: off the async workers.
                tokio::task::spawn_blocking(move || render(codec.as_ref(), &value))
                    .await
                    .unwrap_or_else(|e| Err(format!("rendering failed: {e}")))
            }
        })
        .await
        .clone()
    }
}

fn render(codec: &dyn Codec, value: &Value) -> Result<Bytes, String> {
    let mut out = Vec::new();
    codec
        .encode_value(value, &mut out)
        .map_err(|e| format!("cannot encode as {}: {e}", codec.format()))?;
    // Kept for the server's life: no growth slack.
    out.shrink_to_fit();
    Ok(Bytes::from(out))
}

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
            Skipped::NameNotUtf8 { path } => write!(
                f,
                "not serving {}: its name is not UTF-8",
                path.display()
            ),
        }
    }
}

/// The documents of a directory: every `*.json` by file stem, and what
/// was skipped, in name order.
#[derive(Debug)]
pub(crate) struct Loaded {
    pub(crate) documents: BTreeMap<String, Value>,
    pub(crate) skipped: Vec<Skipped>,
}

/// Reads every `*.json` of `dir` (see the module's notes on links); a file
/// that does not parse stops the server before it starts, naming the
/// file, line and column.
pub(crate) fn load_dir(dir: &Path, follow_symlinks: bool) -> Result<Loaded, CliError> {
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
        let bytes = std::fs::read(&source).map_err(|source| CliError::Read {
            path: path.clone(),
            source,
        })?;
        let value = input::parse_json(&bytes, &path.display().to_string())?;
        loaded.documents.insert(name, value);
    }
    if loaded.documents.is_empty() {
        return Err(CliError::Input(format!(
            "{}: no .json files to serve",
            dir.display()
        )));
    }
    Ok(loaded)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_representation_is_rendered_once_and_shared() {
        let codec: Arc<dyn Codec> = Arc::new(codec_json::JsonCodec::new());
        let value = codec_core::from_str(r#"{"a":[1,2]}"#).unwrap();
        let document = Document::new("My File", value, (1, 1));
        assert_eq!(document.path(), "/My%20File");
        let first = document.rendered(0, &codec).await.unwrap();
        let second = document.rendered(0, &codec).await.unwrap();
        assert_eq!(&first[..], br#"{"a":[1,2]}"#);
        // The same allocation, not a copy.
        assert_eq!(first.as_ptr(), second.as_ptr());
        assert!(document.rendered(1, &codec).await.is_err());
    }

    /// A name that is not UTF-8 has no URL path; it was served under a
    /// lossy name that another file could share.
    #[cfg(unix)]
    #[test]
    fn names_that_are_not_utf8_are_skipped() {
        use std::os::unix::ffi::OsStrExt;
        let dir = std::env::temp_dir().join(format!("codec-cli-unit-{}-names", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("ok.json"), "1").unwrap();
        std::fs::write(dir.join(OsStr::from_bytes(b"bad\xff.json")), "2").unwrap();
        let loaded = load_dir(&dir, false).unwrap();
        assert_eq!(loaded.documents.keys().collect::<Vec<_>>(), ["ok"]);
        assert!(
            matches!(&loaded.skipped[..], [Skipped::NameNotUtf8 { .. }]),
            "{:?}",
            loaded.skipped
        );
        assert!(loaded.skipped[0]
            .to_string()
            .ends_with("its name is not UTF-8"));
    }
}

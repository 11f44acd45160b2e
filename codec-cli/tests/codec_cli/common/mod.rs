//! What the test files share: a scratch directory and a small table.

#![allow(dead_code, unreachable_pub)]

use std::{ops::Deref, path::Path};

/// Two rows, one with a `|` in a cell.
pub const ROWS: &[u8] =
    br#"[{"id":1,"name":"Ada","score":0.98},{"id":2,"name":"Bo | Lin","score":1.10}]"#;

/// An empty scratch directory, named after the test, removed with
/// everything in it when the value is dropped (when the test ends, pass
/// or fail). Some tests write documents of tens of megabytes.
pub struct TempDir(tempfile::TempDir);

impl Deref for TempDir {
    type Target = Path;

    fn deref(&self) -> &Path {
        self.0.path()
    }
}

impl AsRef<Path> for TempDir {
    fn as_ref(&self) -> &Path {
        self.0.path()
    }
}

/// A new [`TempDir`] for the test `name`.
pub fn temp_dir(name: &str) -> TempDir {
    let dir = tempfile::Builder::new()
        .prefix(&format!("codec-cli-test-{name}-"))
        .tempdir()
        .unwrap();
    TempDir(dir)
}

//! What the test files share: a scratch directory and a small table.

#![allow(dead_code, unreachable_pub)]

use std::path::PathBuf;

/// Two rows, one with a `|` in a cell.
pub const ROWS: &[u8] =
    br#"[{"id":1,"name":"Ada","score":0.98},{"id":2,"name":"Bo | Lin","score":1.10}]"#;

/// An empty directory of this test process, named after the test.
pub fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("codec-cli-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

//! Writes a large JSON input of employee-like records to stdout.
//!
//! `cargo run -p benches --release --bin gen-large -- 100MB > /tmp/large.json`

use std::io::{self, BufWriter, Write};

fn main() -> io::Result<()> {
    let arg = std::env::args().nth(1).unwrap_or_else(|| "1MB".to_owned());
    let Some(size) = benches::large::parse_size(&arg) else {
        eprintln!("usage: gen-large SIZE (e.g. 1MB, 10MB, 100MB)");
        std::process::exit(2);
    };
    let stdout = io::stdout();
    let mut out = BufWriter::with_capacity(1 << 20, stdout.lock());
    let (bytes, records) = benches::large::write_employees(&mut out, size)?;
    out.flush()?;
    eprintln!("{bytes} bytes, {records} records");
    Ok(())
}

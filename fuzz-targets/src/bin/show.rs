//! Prints the value a value target checks for an input file
//! (`fuzz_targets::value_of`), as pretty JSON: how to read a binary
//! reproducer.
//!
//! ```text
//! cargo run -p fuzz-targets --bin show -- fuzz/artifacts/md_structure/crash-…
//! ```

use std::process::ExitCode;

use codec_core::json::JsonWriter;

fn main() -> ExitCode {
    let Some(path) = std::env::args_os().nth(1) else {
        eprintln!("usage: show FILE");
        return ExitCode::from(2);
    };
    let data = match std::fs::read(&path) {
        Ok(data) => data,
        Err(e) => {
            eprintln!("show: {}: {e}", path.to_string_lossy());
            return ExitCode::FAILURE;
        }
    };
    let Some(value) = fuzz_targets::value_of(&data) else {
        eprintln!("show: it starts like JSON and is not JSON: the value targets reject it");
        return ExitCode::FAILURE;
    };
    let mut out = Vec::new();
    match JsonWriter::pretty().write_value(&value, &mut out) {
        Ok(()) => {
            println!("{}", String::from_utf8_lossy(&out));
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("show: {e}");
            ExitCode::FAILURE
        }
    }
}

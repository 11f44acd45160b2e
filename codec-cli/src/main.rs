//! `codec`: render JSON as markdown, JSON or an MCP result, parse rendered
//! tables back, negotiate like a server, count tokens, and serve files over
//! HTTP or to an MCP client.
//!
//! Exit codes (a stable interface):
//!
//! | code | meaning |
//! |---|---|
//! | 0 | success |
//! | 1 | bad input: unreadable file, invalid JSON, markdown that is not one of our tables, a value a codec cannot encode |
//! | 2 | negotiation failed: nothing acceptable (406), or an unknown format name |
//! | 64 | bad usage: unknown flag, missing argument |

mod cli;
mod directory;
mod error;
mod input;
mod mcp;
mod negotiate_cmd;
mod parse_cmd;
mod registry;
mod render;
mod rows;
mod serve;
mod stats;
mod tokens;

use std::process::ExitCode;

use clap::Parser;

use crate::cli::{Cli, Command};

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            // --help and --version are not errors.
            let code = if e.use_stderr() { 64 } else { 0 };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    let result = match cli.command {
        Command::Render(args) => render::run(&args),
        Command::Parse(args) => parse_cmd::run(&args),
        Command::Negotiate(args) => negotiate_cmd::run(&args),
        Command::Stats(args) => stats::run(&args),
        Command::Serve(args) => serve::run(&args),
        Command::Mcp(args) => mcp::run(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        // `codec render big.json | head`: the reader has all it wanted.
        Err(error::CliError::Write(e)) if e.kind() == std::io::ErrorKind::BrokenPipe => {
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("codec: {e}");
            ExitCode::from(e.exit_code())
        }
    }
}

//! The real `codec` binary, every command and its error paths.

use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

use crate::common;

use common::{ROWS, temp_dir};

fn codec(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_codec"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the codec binary starts");
    // The argument parser refuses bad usage before the input is read: the
    // child may have closed its end of the pipe already.
    if let Err(e) = child.stdin.take().unwrap().write_all(stdin) {
        assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "{e}");
    }
    child.wait_with_output().unwrap()
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).unwrap()
}

fn stderr(output: &Output) -> String {
    String::from_utf8(output.stderr.clone()).unwrap()
}

#[test]
fn render_defaults_to_markdown() {
    let out = codec(&["render"], ROWS);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "|id|name|score|\n|---|---|---|\n|1|Ada|0.98|\n|2|Bo \\| Lin|1.10|\n"
    );
}

#[test]
fn render_to_each_format() {
    let json = codec(&["render", "-", "--to", "json"], ROWS);
    assert_eq!(json.status.code(), Some(0));
    assert_eq!(stdout(&json).trim_end().as_bytes(), ROWS);
    let pretty = codec(&["render", "--to", "json", "--pretty"], b"{\"a\":[1]}");
    assert_eq!(stdout(&pretty), "{\n  \"a\": [\n    1\n  ]\n}\n");
    let mcp = codec(&["render", "--to", "mcp"], b"{\"a\":1}");
    assert_eq!(mcp.status.code(), Some(0), "{}", stderr(&mcp));
    let result: serde_json::Value = serde_json::from_str(&stdout(&mcp)).unwrap();
    assert_eq!(result["structuredContent"], serde_json::json!({"a": 1}));
    assert_eq!(result["content"][0]["type"], "text");
}

#[test]
fn render_from_a_file() {
    let dir = temp_dir("render-file");
    let path = dir.join("rows.json");
    std::fs::write(&path, ROWS).unwrap();
    let out = codec(&["render", path.to_str().unwrap(), "--to", "md"], b"");
    assert_eq!(out.status.code(), Some(0));
    assert!(stdout(&out).starts_with("|id|name|score|\n"));
}

#[test]
fn render_negotiates_like_a_server() {
    let out = codec(&["render", "--accept", "text/markdown, */*;q=0.1"], ROWS);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        stderr(&out),
        "Content-Type: text/markdown; charset=utf-8; variant=GFM\n"
    );
    assert!(stdout(&out).starts_with("|id|"));
    let out = codec(
        &["render", "--accept", "application/json, text/event-stream"],
        ROWS,
    );
    assert_eq!(stderr(&out), "Content-Type: application/json\n");
    let refused = codec(&["render", "--accept", "image/png"], ROWS);
    assert_eq!(refused.status.code(), Some(2));
    assert!(
        stderr(&refused).contains("406 Not Acceptable"),
        "{}",
        stderr(&refused)
    );
    assert!(stderr(&refused).contains("application/json"));
    assert!(stdout(&refused).is_empty());
}

#[test]
fn render_sample_compares_tokens() {
    let out = codec(&["render", "--sample"], b"");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stdout(&out).starts_with("# repositories\n\n|id|name|repo|"),
        "{}",
        &stdout(&out)[..200]
    );
    let line = stderr(&out);
    assert!(
        line.starts_with("md: ") && line.contains("tokens vs JSON"),
        "{line}"
    );
}

#[test]
fn render_errors() {
    let invalid = codec(&["render"], b"{\"a\": [1, 2}");
    assert_eq!(invalid.status.code(), Some(1));
    assert_eq!(
        stderr(&invalid),
        "codec: <stdin>:1:12: invalid JSON: expected `,` or `]`, found '}'\n"
    );
    let unknown = codec(&["render", "--to", "yaml"], ROWS);
    assert_eq!(unknown.status.code(), Some(2));
    assert_eq!(
        stderr(&unknown),
        "codec: unknown format \"yaml\"; valid formats: json, md, mcp\n"
    );
    let missing = codec(&["render", "/nonexistent/file.json"], b"");
    assert_eq!(missing.status.code(), Some(1));
    assert!(stderr(&missing).starts_with("codec: cannot read /nonexistent/file.json: "));
    let usage = codec(&["render", "--no-such-flag"], b"");
    assert_eq!(usage.status.code(), Some(64));
    let not_utf8 = codec(&["render"], b"\"\xff\"");
    assert_eq!(not_utf8.status.code(), Some(1));
    assert_eq!(
        stderr(&not_utf8),
        "codec: <stdin>:1:2: invalid JSON: invalid UTF-8\n"
    );
}

#[test]
fn parse_table_round_trips_exact_cells() {
    let rendered = codec(&["render"], ROWS);
    let parsed = codec(&["parse", "--table"], &rendered.stdout);
    assert_eq!(parsed.status.code(), Some(0), "{}", stderr(&parsed));
    assert_eq!(
        stdout(&parsed),
        "{\"columns\":[\"id\",\"name\",\"score\"],\"rows\":[[\"1\",\"Ada\",\"0.98\"],[\"2\",\"Bo | Lin\",\"1.10\"]]}\n"
    );
    let bad = codec(&["parse", "--table"], b"- **a**: 1\n");
    assert_eq!(bad.status.code(), Some(1));
    assert!(
        stderr(&bad).starts_with("codec: <stdin>: "),
        "{}",
        stderr(&bad)
    );
    let both = codec(&["parse", "--table", "--lossless"], b"");
    assert_eq!(both.status.code(), Some(64));
}

/// `--table` reads the first table whatever precedes it (the sample is an
/// object holding an array: its table sits under a heading), `--table N`
/// the Nth; an error names how many there are, and a position is the
/// document's.
#[test]
fn parse_table_finds_the_nth_table() {
    let input = br#"{"name": "api", "users": [{"id": 1, "name": "Ada"}], "teams": [{"team": "core"}, {"team": "web"}]}"#;
    let rendered = codec(&["render"], input);
    let markdown = stdout(&rendered);
    assert!(
        markdown.starts_with("- **name**: api\n\n# users\n"),
        "{markdown}"
    );
    let cases: &[(&[&str], &str)] = &[
        (
            &["parse", "--table"],
            r#"{"columns":["id","name"],"rows":[["1","Ada"]]}"#,
        ),
        (
            &["parse", "--table", "1"],
            r#"{"columns":["id","name"],"rows":[["1","Ada"]]}"#,
        ),
        (
            &["parse", "--table", "2"],
            r#"{"columns":["team"],"rows":[["core"],["web"]]}"#,
        ),
    ];
    for (args, expected) in cases {
        let parsed = codec(args, &rendered.stdout);
        assert_eq!(
            parsed.status.code(),
            Some(0),
            "{args:?}: {}",
            stderr(&parsed)
        );
        assert_eq!(stdout(&parsed), format!("{expected}\n"), "{args:?}");
    }
    let third = codec(&["parse", "--table", "3"], &rendered.stdout);
    assert_eq!(third.status.code(), Some(1));
    assert_eq!(
        stderr(&third),
        "codec: <stdin>: --table 3: the document has 2 tables\n"
    );
    let none = codec(&["parse", "--table"], b"- **a**: 1\n");
    assert_eq!(
        stderr(&none),
        "codec: <stdin>: --table 1: the document has no table\n"
    );
    let zero = codec(&["parse", "--table", "0"], b"");
    assert_eq!(zero.status.code(), Some(64));
    // An error inside the table is at its line in the document.
    let bad = codec(
        &["parse", "--table", "2"],
        b"|a|\n|---|\n\n# t\n\n|a|b|\n|---|---|\n|1|2|3|\n",
    );
    assert_eq!(
        stderr(&bad),
        "codec: <stdin>: line 8, column 7: expected 2 cells, found 3\n"
    );
    let sample = codec(&["render", "--sample"], b"");
    let parsed = codec(&["parse", "--table"], &sample.stdout);
    assert_eq!(parsed.status.code(), Some(0), "{}", stderr(&parsed));
}

/// `codec --help` names each of its commands in its first line.
#[test]
fn help_names_every_command() {
    let help = stdout(&codec(&["--help"], b""));
    let first = help.lines().next().unwrap();
    let commands = subcommands();
    assert_eq!(commands.len(), 6, "{commands:?}");
    for command in &commands {
        assert!(
            first.contains(command.as_str()),
            "{command} not in {first:?}"
        );
    }
}

#[test]
fn parse_reads_the_whole_document() {
    let input =
        br#"{"name": "api", "port": "8080", "tags": ["x"], "db": {"host": "h"}, "note": ""}"#;
    let rendered = codec(&["render"], input);
    let parsed = codec(&["parse"], &rendered.stdout);
    assert_eq!(parsed.status.code(), Some(0), "{}", stderr(&parsed));
    // The default reading: "8080" reads as a number, "" as null, a
    // one-item list as its item (codec_md::normalize).
    assert_eq!(
        stdout(&parsed),
        "{\"name\":\"api\",\"port\":8080,\"tags\":\"x\",\"note\":null,\"db\":{\"host\":\"h\"}}\n"
    );
    let bad = codec(&["parse"], b"- **a**: 1\n\ntext\n");
    assert_eq!(bad.status.code(), Some(1));
    assert_eq!(
        stderr(&bad),
        "codec: <stdin>: line 3, column 1: expected a heading, a `- key: value` line or a table\n"
    );
    // Lossless markers come back exact.
    let lossless = codec(
        &["parse", "--lossless"],
        b"- **port**: \"8080\"\n- **tags**: \\[x]\n- **note**: \"\"\n",
    );
    assert_eq!(lossless.status.code(), Some(0), "{}", stderr(&lossless));
    assert_eq!(
        stdout(&lossless),
        "{\"port\":\"8080\",\"tags\":[\"x\"],\"note\":\"\"}\n"
    );
}

#[test]
fn negotiate_prints_the_choice() {
    let cases: &[(&[&str], i32, &str)] = &[
        (
            &["--accept", "text/markdown, text/html, */*"],
            0,
            "text/markdown; charset=utf-8; variant=GFM\n",
        ),
        (&["--accept", "*/*"], 0, "application/json\n"),
        (&[], 0, "application/json\n"),
        (&["--accept", ""], 0, "application/json\n"),
        (
            &["--accept", "text/x-markdown"],
            0,
            "text/x-markdown; charset=utf-8\n",
        ),
        (
            &["--accept", "application/json", "--format", "md"],
            0,
            "text/markdown; charset=utf-8; variant=GFM\n",
        ),
        (
            &["--accept", "text/markdown;q=0.5, */*;q=0.1", "--all"],
            0,
            "text/markdown; charset=utf-8; variant=GFM\napplication/json\napplication/vnd.mcp+json\ntext/x-markdown; charset=utf-8\ntext/plain; charset=utf-8\n",
        ),
        // Markdown is plain text: served as such where asked, below
        // text/markdown when both are.
        (
            &["--accept", "text/plain"],
            0,
            "text/plain; charset=utf-8\n",
        ),
        (
            &["--accept", "text/plain, text/markdown"],
            0,
            "text/markdown; charset=utf-8; variant=GFM\n",
        ),
        (
            &["--all"],
            0,
            "application/json\ntext/markdown; charset=utf-8; variant=GFM\napplication/vnd.mcp+json\n",
        ),
        (
            &[
                "--accept",
                "text/plain, text/csv;q=0.5",
                "--offer",
                "text/csv,text/plain",
                "--all",
            ],
            0,
            "text/plain\ntext/csv\n",
        ),
        (&["--accept", "image/png", "--all"], 2, ""),
        (
            &[
                "--accept",
                "text/*;q=0.5, application/json",
                "--offer",
                "text/plain,application/json",
            ],
            0,
            "application/json\n",
        ),
        (
            &[
                "--accept",
                "text/*",
                "--offer",
                "Text/Plain;charset=UTF-8, image/png",
            ],
            0,
            "Text/Plain;charset=UTF-8\n",
        ),
        (&["--accept", "image/png;q=0"], 2, ""),
    ];
    for (args, code, expected) in cases {
        let mut all = vec!["negotiate"];
        all.extend_from_slice(args);
        let out = codec(&all, b"");
        assert_eq!(out.status.code(), Some(*code), "{args:?}: {}", stderr(&out));
        assert_eq!(stdout(&out), *expected, "{args:?}");
    }
    let refused = codec(&["negotiate", "--accept", "image/png"], b"");
    assert_eq!(
        stderr(&refused),
        "codec: 406 Not Acceptable; offered:\n  application/json\n  text/markdown; charset=utf-8; variant=GFM\n  application/vnd.mcp+json\n  text/x-markdown; charset=utf-8\n  text/plain; charset=utf-8\n"
    );
    let unknown = codec(&["negotiate", "--format", "xml"], b"");
    assert_eq!(unknown.status.code(), Some(2));
    assert_eq!(
        stderr(&unknown),
        "codec: unknown format \"xml\"; valid formats: json, md, mcp\n"
    );
}

#[test]
fn stats_reports_a_markdown_table() {
    let dir = temp_dir("stats");
    let path = dir.join("rows.json");
    std::fs::write(&path, ROWS).unwrap();
    let out = codec(&["stats", path.to_str().unwrap()], b"");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    let mut lines = text.lines();
    assert_eq!(
        lines.next(),
        Some("|file|format|bytes|tokens|vs compact JSON|")
    );
    assert_eq!(lines.next(), Some("|---|---|---|---|---|"));
    let formats: Vec<&str> = lines.map(|l| l.split('|').nth(2).unwrap()).collect();
    assert_eq!(
        formats,
        [
            "json pretty",
            "json compact",
            "md",
            "md dense",
            "md lossless",
            "mcp"
        ]
    );
    assert!(
        text.contains(&format!("|rows.json|json compact|{}|", ROWS.len())),
        "{text}"
    );
    let missing = codec(&["stats", "/nonexistent.json"], b"");
    assert_eq!(missing.status.code(), Some(1));
}

#[test]
fn help_everywhere() {
    for command in ["render", "parse", "negotiate", "stats", "serve", "mcp"] {
        let out = codec(&[command, "--help"], b"");
        assert_eq!(out.status.code(), Some(0), "{command}");
        assert!(
            stdout(&out).contains("Example"),
            "{command} --help has an example"
        );
    }
}

/// The commands `codec --help` lists (without clap's `help`).
fn subcommands() -> Vec<String> {
    let help = stdout(&codec(&["--help"], b""));
    help.lines()
        .skip_while(|line| *line != "Commands:")
        .skip(1)
        .take_while(|line| line.starts_with("  "))
        .filter_map(|line| line.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(str::to_owned)
        .collect()
}

/// The command lines under `Example:` or `Examples:` in a help text.
fn examples(help: &str) -> Vec<String> {
    let mut lines = help.lines();
    let mut found = Vec::new();
    while let Some(line) = lines.next() {
        if line == "Example:" || line == "Examples:" {
            found.extend(
                lines
                    .by_ref()
                    .take_while(|l| l.starts_with("  "))
                    .map(|l| l.trim().to_owned()),
            );
        }
    }
    found
}

/// Every example of every `--help` runs as written, in bash with `codec`
/// on the PATH, `set -euo pipefail`, in a directory holding the files the
/// examples name (`data.json`, `notes.md`, `data/*.json`). The one
/// rewrite: the serve example's port becomes a free one, since 8080 may be
/// taken on the machine running the tests. A background server is killed
/// when its script ends.
#[test]
fn every_help_example_runs() {
    let dir = temp_dir("help-examples");
    std::fs::write(dir.join("data.json"), ROWS).unwrap();
    std::fs::write(
        dir.join("notes.md"),
        "- **port**: \"8080\"\n- **tags**: \\[x]\n- **note**: \"\"\n",
    )
    .unwrap();
    std::fs::create_dir_all(dir.join("data")).unwrap();
    std::fs::write(dir.join("data/rows.json"), ROWS).unwrap();
    std::fs::write(
        dir.join("data/config.json"),
        br#"{"name":"api","port":8080}"#,
    )
    .unwrap();
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_codec"));
    let path = format!(
        "{}:{}",
        bin.parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let commands = subcommands();
    assert!(commands.len() >= 5, "{commands:?}");
    for command in commands {
        let help = stdout(&codec(&[&command, "--help"], b""));
        let examples = examples(&help);
        assert!(!examples.is_empty(), "{command} --help has no example");
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let script = format!(
            "trap 'kill $(jobs -p) 2>/dev/null || true' EXIT\n{}\n",
            examples.join("\n")
        )
        .replace("127.0.0.1:8080", &format!("127.0.0.1:{port}"));
        let out = Command::new("bash")
            .args(["-euo", "pipefail", "-c", &script])
            .current_dir(&dir)
            .env("PATH", &path)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{command} --help examples failed ({}):\n{script}\nstderr:\n{}",
            out.status,
            stderr(&out)
        );
        assert!(
            !out.stdout.is_empty(),
            "{command}: no output from\n{script}"
        );
    }
}

#[test]
fn a_reader_that_stops_early_is_not_an_error() {
    // About 2 MB of markdown: far more than a pipe buffer holds.
    let mut rows = b"[".to_vec();
    for i in 0..40_000 {
        if i > 0 {
            rows.push(b',');
        }
        rows.extend_from_slice(format!(r#"{{"id":{i},"name":"row number {i}"}}"#).as_bytes());
    }
    rows.push(b']');
    let dir = temp_dir("pipe");
    let path = dir.join("big.json");
    std::fs::write(&path, &rows).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_codec"))
        .args(["render", path.to_str().unwrap()])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut head = [0u8; 16];
    child.stdout.take().unwrap().read_exact(&mut head).unwrap();
    // The read end is dropped here, as `| head -c 16` would.
    let out = child.wait_with_output().unwrap();
    assert_eq!(&head, b"|id|name|\n|---|-");
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
}

#[test]
fn profiles_and_lossless_round_trip_through_parse() {
    let nested = br#"[{"id":1,"user":{"name":"Ada"}},{"id":2,"user":{"name":"Bo"}},{"id":3,"user":{"name":"Cy"}}]"#;
    let dense = codec(&["render", "--profile", "dense"], nested);
    assert_eq!(dense.status.code(), Some(0), "{}", stderr(&dense));
    assert!(
        stdout(&dense).starts_with("|id|user.name|\n|-|-|\n1|Ada\n"),
        "{}",
        stdout(&dense)
    );
    let back = codec(&["parse", "--dense"], &dense.stdout);
    assert_eq!(back.status.code(), Some(0), "{}", stderr(&back));
    assert_eq!(stdout(&back).trim_end().as_bytes(), nested);

    let typed = br#"[{"zip":"02139","n":null},{"zip":"7"}]"#;
    let lossless = codec(&["render", "--lossless"], typed);
    assert_eq!(lossless.status.code(), Some(0), "{}", stderr(&lossless));
    let back = codec(&["parse", "--lossless"], &lossless.stdout);
    assert_eq!(stdout(&back).trim_end().as_bytes(), typed);
    // The default reading: "7" reads as a number, and a missing member
    // as null (`02139` is not a JSON number, so it stays a string).
    let plain = codec(&["parse"], &codec(&["render"], typed).stdout);
    assert_eq!(
        stdout(&plain),
        "[{\"zip\":\"02139\",\"n\":null},{\"zip\":7,\"n\":null}]\n"
    );

    let both = codec(&["render", "--lossless", "--profile", "dense"], typed);
    assert_eq!(both.status.code(), Some(64));
    let unknown = codec(&["render", "--profile", "sparse"], typed);
    assert_eq!(unknown.status.code(), Some(64));
    assert!(
        stderr(&unknown).contains("expected default, lossless or dense"),
        "{}",
        stderr(&unknown)
    );
    let conflicting = codec(&["parse", "--dense", "--lossless"], b"");
    assert_eq!(conflicting.status.code(), Some(64));
}

/// A table whose rows would build far more than its text is refused, and
/// the error says how to read it anyway (issue 40).
#[test]
fn parse_refuses_a_table_that_would_build_too_much() {
    let header: Vec<String> = (0..20).map(|i| format!("{i}{}", ".k".repeat(49))).collect();
    let row = vec!["1"; 20].join("|");
    let markdown = format!(
        "|{}|\n|{}\n{}",
        header.join("|"),
        "---|".repeat(20),
        format!("{row}\n").repeat(200)
    );
    let refused = codec(&["parse", "--dense"], markdown.as_bytes());
    assert_ne!(refused.status.code(), Some(0));
    assert!(
        stderr(&refused).contains("--max-size-factor"),
        "{}",
        stderr(&refused)
    );
    let read = codec(
        &["parse", "--dense", "--max-size-factor", "1000"],
        markdown.as_bytes(),
    );
    assert_eq!(read.status.code(), Some(0), "{}", stderr(&read));
}

/// `--stream`: rows written as they are read give the bytes of the whole
/// document read first, for the JSON codec whatever the rows.
#[test]
fn render_streams_rows_as_it_reads_them() {
    let member = br#"{"rows": [{"id": 1, "x": [1, {"y": null}]}, 2, "s"]}"#;
    for input in [ROWS, member.as_slice(), b"[]", b" [ 1 ] \n"] {
        for flags in [&["--to", "json"][..], &["--to", "json", "--pretty"]] {
            let whole = codec(&[&["render", "--stream", "never"], flags].concat(), input);
            let streamed = codec(&[&["render", "--stream", "always"], flags].concat(), input);
            assert_eq!(whole.status.code(), Some(0), "{}", stderr(&whole));
            assert_eq!(streamed.status.code(), Some(0), "{}", stderr(&streamed));
            assert_eq!(stdout(&streamed), stdout(&whole), "{flags:?}");
        }
    }
    // Markdown: uniform rows are the buffered table; other rows follow
    // the streaming rule, and `codec parse` reads them back.
    let whole = codec(&["render", "--stream", "never"], ROWS);
    let streamed = codec(&["render", "--stream", "always"], ROWS);
    assert_eq!(stdout(&streamed), stdout(&whole));
    let streamed = codec(&["render", "--stream", "always"], member);
    assert_eq!(
        stdout(&streamed),
        "# rows\n\n## [0]\n\n- **id**: 1\n\n### x\n\n- **[0]**: 1\n\n#### [1]\n\n- **y**:\n\n## [1]\n\n2\n\n## [2]\n\ns\n"
    );
    let read = codec(&["parse"], &streamed.stdout);
    assert_eq!(
        stdout(&read),
        "{\"rows\":[{\"id\":1,\"x\":[1,{\"y\":null}]},2,\"s\"]}\n"
    );
    // Not rows: streaming was asked for, and cannot be.
    let out = codec(&["render", "--stream", "always"], b"{\"a\": 1, \"b\": [1]}");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stderr(&out),
        "codec: <stdin>: cannot stream: the document is not rows (an array, or an object \
         whose one member is an array)\n"
    );
}

/// A row that does not parse ends the output where it is, and the error
/// names it where the parser of the whole input would.
#[test]
fn a_broken_row_ends_a_streamed_rendering() {
    let out = codec(
        &["render", "--stream", "always", "--to", "json"],
        b"[1,\n 2, tru]",
    );
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(stdout(&out), "[1,2");
    assert_eq!(
        stderr(&out),
        "codec: <stdin>:2:8: invalid JSON: expected true, found ']'\n"
    );
    let whole = codec(&["render", "--stream", "never"], b"[1,\n 2, tru]");
    assert_eq!(stderr(&whole), stderr(&out));
}

/// `--stream auto` streams a large input with a codec that writes rows
/// as they come: the same bytes as reading it whole.
#[test]
fn large_inputs_stream_by_themselves() {
    let row = r#"{"id": 1, "name": "a row of some length to fill the input quickly"}"#;
    let rows = vec![row; 5 << 20 >> 6];
    let input = format!("{{\"rows\": [{}]}}", rows.join(","));
    assert!(input.len() > 5 << 20);
    let dir = temp_dir("large");
    let path = dir.join("large.json");
    std::fs::write(&path, &input).unwrap();
    let path = path.to_str().unwrap();
    let auto = codec(&["render", path, "--to", "json"], b"");
    let whole = codec(&["render", path, "--to", "json", "--stream", "never"], b"");
    assert_eq!(auto.status.code(), Some(0), "{}", stderr(&auto));
    assert!(auto.stdout == whole.stdout);
    assert!(auto.stdout.starts_with(b"{\"rows\":[{\"id\":1,"));
}

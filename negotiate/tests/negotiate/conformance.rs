//! Runs the conformance cases of `tests/conformance/*.txt` (see the
//! format at the top of `agents.txt`) through `negotiate` and
//! `negotiate_target`.

use crate::support;

use std::path::Path;

use support::describe;

struct Case {
    file: String,
    line: usize,
    title: String,
    accept: Vec<String>,
    expect: String,
}

fn cases() -> Vec<Case> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/conformance");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("tests/conformance")
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "txt"))
        .collect();
    files.sort();
    let mut cases = Vec::new();
    for path in files {
        let file = path.file_name().unwrap().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(&path).unwrap();
        let mut title = String::new();
        let mut accept = Vec::new();
        for (i, line) in text.lines().enumerate() {
            if let Some(t) = line.strip_prefix("# ") {
                title = t.to_owned();
            } else if let Some(value) = line.strip_prefix("accept:") {
                accept.push(value.trim_start().to_owned());
            } else if let Some(expect) = line.strip_prefix("expect: ") {
                cases.push(Case {
                    file: file.clone(),
                    line: i + 1,
                    title: std::mem::take(&mut title),
                    accept: std::mem::take(&mut accept),
                    expect: expect.to_owned(),
                });
            } else {
                assert!(
                    line.trim().is_empty() || line.starts_with('#'),
                    "{file}:{}: unexpected line {line:?}",
                    i + 1
                );
            }
        }
        assert!(accept.is_empty(), "{file}: accept lines without expect");
    }
    cases
}

#[test]
fn conformance_cases() {
    let negotiator = support::standard();
    let cases = cases();
    assert!(cases.len() >= 25, "only {} cases found", cases.len());
    let mut failures = Vec::new();
    for case in &cases {
        for (entry, got) in [
            (
                "negotiate",
                describe(negotiator.negotiate(case.accept.iter())),
            ),
            (
                "negotiate_target",
                describe(
                    negotiator
                        .negotiate_target(case.accept.iter(), "/x")
                        .unwrap(),
                ),
            ),
        ] {
            if got != case.expect {
                failures.push(format!(
                    "{}:{} ({}) via {entry}: Accept {:?}\n  expected {}\n  got      {got}",
                    case.file, case.line, case.title, case.accept, case.expect
                ));
            }
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

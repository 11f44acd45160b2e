//! Writes the fuzz targets' seed corpora, `fuzz/corpus/<target>/seed-*`,
//! from what the repository holds: `SPEC.md`'s examples, the benchmark
//! datasets and octokit's recorded GitHub responses (trimmed to a few
//! items per container, so each seed is small and fast), the escape
//! vectors in their contexts, the foreign tables, the codecs' media types
//! and negotiate's conformance headers. Each value's renderings in every
//! profile seed the markdown readers.
//!
//! ```text
//! cargo run -p fuzz-targets --bin seeds
//! ```
//!
//! It replaces every `seed-*` file and leaves the other inputs of a corpus
//! (what libFuzzer found) alone.

use std::fs;
use std::path::{Path, PathBuf};

use codec_core::{Codec, Map, Value, json::JsonWriter};
use codec_md::{MarkdownCodec, Profile};

// codec-md's test oracle, for its reading of SPEC.md's examples.
#[path = "../../../codec-md/tests/codec_md/support/mod.rs"]
mod md_oracle;

/// Items kept per array and members per object of a trimmed document.
const KEEP: usize = 3;

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut seeds = Seeds::default();

    let spec = read_text(&root.join("codec-md/SPEC.md"));
    for fence in md_oracle::fences(&spec) {
        let (name, literal) = (format!("spec-{}", fence.line), fence.content);
        match fence.info.as_str() {
            "json" | "json dense" | "json lossless" => {
                let value = codec_core::from_str(&literal).expect("SPEC.md's JSON");
                seeds.value(&name, &value);
            }
            "markdown" => seeds.add("md_parse", &name, &literal),
            "markdown dense" => seeds.add("md_parse_dense", &name, &literal),
            "markdown lossless" => seeds.add("md_parse_lossless", &name, &literal),
            _ => {}
        }
    }

    for entry in sorted_dir(&root.join("benches/data")) {
        if entry.extension().is_some_and(|e| e == "json") {
            let value = trim(&read_json(&entry));
            seeds.value(&format!("dataset-{}", stem(&entry)), &value);
        }
    }
    for entry in sorted_dir(&root.join("codec-md/tests/data/octokit")) {
        if entry.extension().is_some_and(|e| e == "json") {
            let value = trim(&read_json(&entry));
            seeds.value(&format!("octokit-{}", stem(&entry)), &value);
        }
    }
    seeds.value(
        "html-hostile",
        &read_json(&root.join("codec-html/tests/data/hostile.json")),
    );

    for file in ["escape-vectors", "nested-brackets"] {
        let data = read_json(&root.join(format!("codec-md/tests/data/{file}.json")));
        let vectors = data["vectors"].as_array().expect("vectors");
        for (i, vector) in vectors.iter().enumerate() {
            let input = vector["input"].as_str().expect("an input");
            let context = vector["context"].as_str().expect("a context");
            seeds.value(&format!("{file}-{i}"), &in_context(context, input));
        }
        if let Some(blocks) = data.get("code_blocks") {
            for (i, vector) in blocks["vectors"]
                .as_array()
                .expect("vectors")
                .iter()
                .enumerate()
            {
                let code = object([("code", vector["input"].clone())]);
                seeds.value(&format!("{file}-code-{i}"), &code);
            }
        }
    }

    for entry in sorted_dir(&root.join("codec-md/tests/data/foreign")) {
        let text = read_text(&entry);
        let name = format!("foreign-{}", stem(&entry));
        seeds.add("md_parse", &name, &text);
        seeds.add("md_parse_table", &name, &text);
    }

    for (i, media_type) in MEDIA_TYPES.iter().enumerate() {
        seeds.add("media_type", &format!("type-{i}"), media_type);
    }
    for entry in sorted_dir(&root.join("negotiate/tests/conformance")) {
        for (i, lines) in accept_cases(&read_text(&entry)).into_iter().enumerate() {
            // The first byte picks the policies (`fuzz_targets::accept`).
            let input = format!("\0{}", lines.join("\n"));
            seeds.add("accept", &format!("{}-{i}", stem(&entry)), &input);
        }
    }

    seeds.write(&root.join("fuzz/corpus"));
}

/// Media types the codecs write, and the parameter forms the parser
/// reads (quoted, escaped, empty, repeated).
const MEDIA_TYPES: &[&str] = &[
    "application/json",
    "text/markdown; charset=utf-8; variant=GFM",
    "application/vnd.mcp+json",
    "text/html; charset=utf-8",
    "text/csv; charset=utf-8; header=present",
    "Text/Plain;Charset=\"UTF-8\"",
    "a/b; x=\"quoted \\\" and \\\\\"; y=\"\"",
    "a/b;;c=d;",
    " text/x-markdown ; q=0.5 ",
    "application/problem+json; charset=utf-8",
];

/// The `accept:` lines of each case of a conformance file.
fn accept_cases(text: &str) -> Vec<Vec<&str>> {
    let mut cases = Vec::new();
    let mut lines = Vec::new();
    for line in text.lines() {
        if let Some(accept) = line.strip_prefix("accept:") {
            lines.push(accept.trim_start());
        } else if line.starts_with("expect:") {
            cases.push(std::mem::take(&mut lines));
        }
    }
    cases
}

/// Seed files by target: (target, name, bytes).
#[derive(Default)]
struct Seeds {
    files: Vec<(&'static str, String, Vec<u8>)>,
}

impl Seeds {
    fn add(&mut self, target: &'static str, name: &str, text: &str) {
        self.files
            .push((target, name.to_owned(), text.as_bytes().to_vec()));
    }

    /// A value seeds the JSON parser and the value targets as its compact
    /// JSON, and each markdown reader as its rendering in that reader's
    /// profile (`md_parse_table` where the rendering is one table).
    fn value(&mut self, name: &str, value: &Value) {
        let mut json = Vec::new();
        JsonWriter::compact()
            .write_value(value, &mut json)
            .expect("a seed writes");
        let json = String::from_utf8(json).expect("JSON is UTF-8");
        for target in [
            "json",
            "md_round_trip",
            "md_structure",
            "md_stream",
            "html_structure",
        ] {
            self.add(target, name, &json);
        }
        for (target, profile) in [
            ("md_parse", Profile::Default),
            ("md_parse_lossless", Profile::Lossless),
            ("md_parse_dense", Profile::Dense),
        ] {
            let mut out = Vec::new();
            let codec = MarkdownCodec::builder().profile(profile).build();
            codec.encode_value(value, &mut out).expect("a seed renders");
            let markdown = String::from_utf8(out).expect("markdown is UTF-8");
            if profile == Profile::Default && codec_md::parse_table(&markdown).is_ok() {
                self.add("md_parse_table", name, &markdown);
            }
            self.add(target, name, &markdown);
        }
    }

    fn write(&self, corpus: &Path) {
        for target in fuzz_targets::TARGETS.iter().map(|t| t.name) {
            let dir = corpus.join(target);
            fs::create_dir_all(&dir).expect("create the corpus directory");
            for old in sorted_dir(&dir) {
                if stem(&old).starts_with("seed-") {
                    fs::remove_file(old).expect("remove an old seed");
                }
            }
        }
        for (target, name, bytes) in &self.files {
            let path = corpus.join(target).join(format!("seed-{name}"));
            fs::write(&path, bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        }
        println!("{} seeds in {}", self.files.len(), corpus.display());
    }
}

/// The value that puts `input` in `context`, as codec-md's vector tests
/// do: a table cell, the value after a key, a key, or a heading.
fn in_context(context: &str, input: &str) -> Value {
    let s = Value::String(input.to_owned());
    match context {
        "cell" => Value::Array(vec![object([("c", s)]), object([("c", "x".into())])]),
        "value" => object([("k", s)]),
        "key" => Value::Object([(input.to_owned(), "v".into())].into_iter().collect()),
        "heading" => {
            let section = object([("a", Value::from(1))]);
            Value::Object([(input.to_owned(), section)].into_iter().collect())
        }
        other => panic!("unknown context {other}"),
    }
}

fn object<const N: usize>(members: [(&str, Value); N]) -> Value {
    Value::Object(
        members
            .into_iter()
            .map(|(k, v)| (k.to_owned(), v))
            .collect(),
    )
}

/// `value` with at most [`KEEP`] items per array and `2 * KEEP` members
/// per object, at every level.
fn trim(value: &Value) -> Value {
    match value {
        Value::Array(items) => Value::Array(items.iter().take(KEEP).map(trim).collect()),
        Value::Object(map) => Value::Object(
            map.iter()
                .take(2 * KEEP)
                .map(|(k, v)| (k.to_owned(), trim(v)))
                .collect::<Map>(),
        ),
        scalar => scalar.clone(),
    }
}

fn sorted_dir(dir: &Path) -> Vec<PathBuf> {
    let mut entries: Vec<PathBuf> = fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.expect("a directory entry").path())
        .collect();
    entries.sort();
    entries
}

fn stem(path: &Path) -> String {
    let name = path.file_name().expect("a file name").to_string_lossy();
    name.strip_suffix(".json")
        .or_else(|| name.strip_suffix(".md"))
        .or_else(|| name.strip_suffix(".txt"))
        .unwrap_or(&name)
        .to_owned()
}

fn read_text(path: &Path) -> String {
    fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn read_json(path: &Path) -> Value {
    codec_core::from_str(&read_text(path)).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

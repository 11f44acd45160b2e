//! Token counts: o200k_base (tiktoken-rs, vocabulary embedded, no network)
//! over the exact bytes of each encoding of each dataset.

use std::fmt::Write as _;

use codec_core::Codec;

use crate::codecs::{mcp_choices, token_codecs};
use crate::data::{DATASETS, Dataset};

/// Tokens of `text` in o200k_base. The tokenizer is built once per process
/// (tiktoken-rs's singleton) and shared.
pub fn count(text: &str) -> usize {
    tiktoken_rs::o200k_base_singleton().count_ordinary(text)
}

/// One encoding of one dataset.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Measure {
    /// The encoding: `JSON pretty`, `JSON compact`, `TOON 4.4` or a codec
    /// name.
    pub format: String,
    /// Its size.
    pub bytes: usize,
    /// Its o200k_base tokens.
    pub tokens: usize,
}

impl Measure {
    fn of(format: impl Into<String>, text: &str) -> Measure {
        Measure {
            format: format.into(),
            bytes: text.len(),
            tokens: count(text),
        }
    }
}

/// The three reference encodings of `dataset`: the JSON file as stored
/// (pretty), the same data compact (source key order), and the TOON file.
pub fn reference(dataset: &Dataset) -> [Measure; 3] {
    let compact = String::from_utf8(dataset.compact_json()).expect("JSON is UTF-8");
    [
        Measure::of("JSON pretty", dataset.pretty_json()),
        Measure::of("JSON compact", &compact),
        Measure::of("TOON 4.4", dataset.toon),
    ]
}

/// Every encoding of `dataset`: [`reference()`] then each codec of
/// [`token_codecs`] over the parsed value (errors are reported as a
/// format name with zero bytes).
pub fn measure(dataset: &Dataset) -> Vec<Measure> {
    let mut out = reference(dataset).to_vec();
    let value = dataset.value();
    for (name, codec) in token_codecs() {
        let mut buf = Vec::new();
        match codec.encode_value(&value, &mut buf) {
            Ok(()) => {
                let text = String::from_utf8_lossy(&buf);
                out.push(Measure::of(name, &text));
            }
            Err(e) => out.push(Measure {
                format: format!("{name} (error: {e})"),
                bytes: 0,
                tokens: 0,
            }),
        }
    }
    out
}

fn ratio(a: usize, b: usize) -> String {
    if b == 0 {
        "-".to_owned()
    } else {
        format!("{:.2}", a as f64 / b as f64)
    }
}

/// The token report as markdown: one table with a row per dataset and
/// encoding (bytes, tokens, tokens relative to compact JSON and to TOON),
/// then the totals.
pub fn report() -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "| dataset | encoding | bytes | tokens | ÷ JSON compact | ÷ TOON |"
    );
    let _ = writeln!(s, "|---|---|---:|---:|---:|---:|");
    let mut totals: Vec<Measure> = Vec::new();
    for dataset in &DATASETS {
        let rows = measure(dataset);
        let compact = rows[1].tokens;
        let toon = rows[2].tokens;
        for row in &rows {
            let _ = writeln!(
                s,
                "| {} | {} | {} | {} | {} | {} |",
                dataset.name,
                row.format,
                group(row.bytes),
                group(row.tokens),
                ratio(row.tokens, compact),
                ratio(row.tokens, toon),
            );
            match totals.iter_mut().find(|t| t.format == row.format) {
                Some(t) => {
                    t.bytes += row.bytes;
                    t.tokens += row.tokens;
                }
                None => totals.push(row.clone()),
            }
        }
    }
    let compact = totals[1].tokens;
    let toon = totals[2].tokens;
    for row in &totals {
        let _ = writeln!(
            s,
            "| **total** | {} | {} | {} | {} | {} |",
            row.format,
            group(row.bytes),
            group(row.tokens),
            ratio(row.tokens, compact),
            ratio(row.tokens, toon),
        );
    }
    s
}

/// What one way of building an MCP tool result costs on one dataset.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChoiceMeasure {
    /// The choice, as [`mcp_choices`] names it.
    pub choice: &'static str,
    /// o200k tokens of the text blocks, as the model reads them (decoded,
    /// not as JSON strings).
    pub text: usize,
    /// o200k tokens of `structuredContent` as compact JSON (what a client
    /// that forwards it shows the model), 0 when there is none.
    pub structured: usize,
}

impl ChoiceMeasure {
    /// What a client that gives the model both the text and the structured
    /// content bills.
    pub fn both(&self) -> usize {
        self.text + self.structured
    }

    /// What a client that shows the model the structured content instead
    /// of the text, when there is some, bills.
    pub fn structured_first(&self) -> usize {
        if self.structured > 0 {
            self.structured
        } else {
            self.text
        }
    }
}

/// Every choice of [`mcp_choices`] on `dataset`.
pub fn measure_choices(dataset: &Dataset) -> Vec<ChoiceMeasure> {
    let value = dataset.value();
    mcp_choices()
        .into_iter()
        .map(|(choice, codec)| {
            let result = codec.result(&value).expect("every dataset encodes");
            let text = result
                .content
                .iter()
                .map(|block| match block {
                    codec_mcp::ContentBlock::Text(t) => count(&t.text),
                    _ => 0,
                })
                .sum();
            let structured = result.structured_content.as_ref().map_or(0, |value| {
                let json = codec_json::JsonCodec::new()
                    .value_to_vec(value)
                    .expect("codec-json writes any Value");
                count(&String::from_utf8(json).expect("JSON is UTF-8"))
            });
            ChoiceMeasure {
                choice,
                text,
                structured,
            }
        })
        .collect()
}

/// The second token table: per dataset and choice, the tokens of the text
/// blocks, of the structured content, and of both (what a client that
/// forwards both bills).
pub fn choices_report() -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "| dataset | result | text blocks | structuredContent | both |"
    );
    let _ = writeln!(s, "|---|---|---:|---:|---:|");
    let mut totals: Vec<ChoiceMeasure> = Vec::new();
    for dataset in &DATASETS {
        for row in measure_choices(dataset) {
            let _ = writeln!(
                s,
                "| {} | {} | {} | {} | {} |",
                dataset.name,
                row.choice,
                group(row.text),
                group(row.structured),
                group(row.both()),
            );
            match totals.iter_mut().find(|t| t.choice == row.choice) {
                Some(t) => {
                    t.text += row.text;
                    t.structured += row.structured;
                }
                None => totals.push(row),
            }
        }
    }
    for row in &totals {
        let _ = writeln!(
            s,
            "| **total** | {} | {} | {} | {} |",
            row.choice,
            group(row.text),
            group(row.structured),
            group(row.both()),
        );
    }
    s
}

/// `1234567` as `1,234,567`.
pub fn group(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

//! The eight datasets of the TOON project's public token benchmark, embedded
//! so that tests, benches and binaries run from a plain clone anywhere.

/// One dataset: its JSON as stored (pretty, two-space indent) and the same
/// data encoded by the reference TOON encoder (@toon-format/toon 4.4.0).
#[derive(Debug, Clone, Copy)]
pub struct Dataset {
    /// Short name, the file stem in `benches/data/`.
    pub name: &'static str,
    /// What the data is.
    pub shape: &'static str,
    /// `NAME.json`, pretty-printed, as stored.
    pub json: &'static [u8],
    /// `NAME.toon`, as stored.
    pub toon: &'static str,
}

macro_rules! dataset {
    ($name:literal, $shape:literal) => {
        Dataset {
            name: $name,
            shape: $shape,
            json: include_bytes!(concat!("../data/", $name, ".json")),
            toon: include_str!(concat!("../data/", $name, ".toon")),
        }
    };
}

/// All eight, in the order of the TOON benchmark.
pub const DATASETS: [Dataset; 8] = [
    dataset!("tabular", "2000 uniform flat employee records"),
    dataset!("nested", "500 orders, nested customer and items[]"),
    dataset!("analytics", "365 days of flat numeric metrics"),
    dataset!("github", "top 100 GitHub repositories"),
    dataset!(
        "event-logs",
        "2000 semi-uniform logs, optional nested error"
    ),
    dataset!("nested-config", "one deeply nested configuration object"),
    dataset!("keyed", "500 feature flags in a map keyed by name"),
    dataset!(
        "nested-group",
        "1000 contacts with nested address and plan objects"
    ),
];

/// The inputs of every parse figure (criterion's `parse` group, the
/// `ratios` runner, `parse-mem`), as `(label, compact JSON)`: the eight
/// datasets, then the [`SMALL_RESPONSES`].
pub fn parse_inputs() -> Vec<(&'static str, Vec<u8>)> {
    let labels = DATASETS.iter().map(|d| d.name);
    let labels = labels.chain(SMALL_RESPONSES.iter().map(|(label, ..)| *label));
    labels
        .filter_map(|label| Some((label, parse_input(label)?)))
        .collect()
}

/// Two small responses of 20 rows, one flat and one nested, as
/// `(label, dataset, rows)`.
pub const SMALL_RESPONSES: [(&str, &str, usize); 2] =
    [("tabular-20", "tabular", 20), ("nested-20", "nested", 20)];

/// The parse input labelled `label` (see [`parse_inputs`]).
pub fn parse_input(label: &str) -> Option<Vec<u8>> {
    if let Some(dataset) = dataset(label) {
        return Some(dataset.compact_json());
    }
    let (_, name, rows) = SMALL_RESPONSES.iter().find(|(l, ..)| *l == label)?;
    Some(dataset(name)?.first_rows_json(*rows))
}

/// The dataset called `name`.
pub fn dataset(name: &str) -> Option<&'static Dataset> {
    DATASETS.iter().find(|d| d.name == name)
}

impl Dataset {
    /// The data as a parsed [`codec_core::Value`] (source key order,
    /// verbatim numbers): what a proxy re-renders.
    pub fn value(&self) -> codec_core::Value {
        codec_core::from_slice(self.json).expect("dataset JSON parses")
    }

    /// The same data as compact JSON, keys in source order and numbers
    /// verbatim: the unit of every throughput figure and the "JSON compact"
    /// column of the token report.
    pub fn compact_json(&self) -> Vec<u8> {
        codec_json::JsonCodec::new()
            .value_to_vec(&self.value())
            .expect("codec-json writes any Value")
    }

    /// A small response cut from this dataset: the same data with its
    /// top-level array (or map) cut to the first `rows` members, as compact
    /// JSON. Per-response fixed costs dominate at this size, which the
    /// whole datasets (50 KB to 500 KB) hide.
    pub fn first_rows_json(&self, rows: usize) -> Vec<u8> {
        let mut value = self.value();
        if let codec_core::Value::Object(top) = &mut value {
            let keys: Vec<String> = top.keys().map(str::to_owned).collect();
            for key in keys {
                match top.get_mut(&key) {
                    Some(codec_core::Value::Array(items)) => items.truncate(rows),
                    Some(codec_core::Value::Object(map)) if map.len() > rows => {
                        let kept: codec_core::Map =
                            std::mem::take(map).into_iter().take(rows).collect();
                        *map = kept;
                    }
                    _ => {}
                }
            }
        }
        codec_json::JsonCodec::new()
            .value_to_vec(&value)
            .expect("codec-json writes any Value")
    }

    /// The JSON file as stored, as text.
    pub fn pretty_json(&self) -> &'static str {
        std::str::from_utf8(self.json).expect("dataset JSON is UTF-8")
    }
}

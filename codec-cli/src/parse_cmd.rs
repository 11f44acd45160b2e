//! `codec parse`: markdown back to JSON, the whole document or one table.

use codec_core::{Map, Value};

use crate::cli::ParseArgs;
use crate::error::CliError;
use crate::input;

pub(crate) fn run(args: &ParseArgs) -> Result<(), CliError> {
    let (bytes, name) = input::read(args.file.as_deref())?;
    let text = String::from_utf8(bytes).map_err(|e| {
        CliError::Input(format!(
            "{name}: input is not UTF-8 (byte {})",
            e.utf8_error().valid_up_to()
        ))
    })?;
    let value = if args.table {
        table(&text, name)?
    } else {
        let profile = if args.lossless {
            codec_md::Profile::Lossless
        } else if args.dense {
            codec_md::Profile::Dense
        } else {
            codec_md::Profile::Default
        };
        let options = codec_md::ParseOptions::default().max_size_factor(args.max_size_factor);
        options
            .parse(&text, profile)
            .map_err(|source| CliError::Markdown {
                input: name,
                source,
            })?
    };
    let mut body = codec_json::JsonCodec::new()
        .value_to_vec(&value)
        .map_err(|source| CliError::Encode {
            format: "json".into(),
            source,
        })?;
    body.push(b'\n');
    input::write_stdout(&body)
}

/// `--table`: {"columns": [...], "rows": [[...], ...]}, every cell's exact
/// string.
fn table(text: &str, name: String) -> Result<Value, CliError> {
    let table = codec_md::parse_table(text).map_err(|source| CliError::Table {
        input: name,
        source,
    })?;
    let strings =
        |cells: &[String]| Value::Array(cells.iter().map(|c| Value::String(c.clone())).collect());
    let mut out = Map::with_capacity(2);
    out.insert("columns", strings(&table.columns));
    out.insert(
        "rows",
        Value::Array(table.rows.iter().map(|row| strings(row)).collect()),
    );
    Ok(Value::Object(out))
}

//! `codec parse --table`: a rendered table back to JSON.

use codec_core::{Map, Value};

use crate::cli::ParseArgs;
use crate::error::CliError;
use crate::input;

pub(crate) fn run(args: &ParseArgs) -> Result<(), CliError> {
    if !args.table {
        return Err(CliError::Usage(
            "parse needs --table: only tables can be read back so far (the full markdown parser is planned)".into(),
        ));
    }
    let (bytes, name) = input::read(args.file.as_deref())?;
    let text = String::from_utf8(bytes).map_err(|e| {
        CliError::Input(format!(
            "{name}: input is not UTF-8 (byte {})",
            e.utf8_error().valid_up_to()
        ))
    })?;
    let table = codec_md::parse_table(&text).map_err(|source| CliError::Table {
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
    let mut body = codec_json::JsonCodec::new()
        .value_to_vec(&Value::Object(out))
        .map_err(|source| CliError::Encode {
            format: "json".into(),
            source,
        })?;
    body.push(b'\n');
    input::write_stdout(&body)
}

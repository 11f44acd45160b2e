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
    let value = if let Some(n) = args.table {
        table(&text, n, name)?
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

/// `--table N`: the Nth table of the document (from 1), as
/// {"columns": [...], "rows": [[...], ...]}, every cell's exact string.
fn table(text: &str, n: usize, name: String) -> Result<Value, CliError> {
    let tables = find_tables(text);
    let Some(&(first, last)) = tables.get(n - 1) else {
        let found = match tables.len() {
            0 => "no table".to_owned(),
            1 => "1 table".to_owned(),
            count => format!("{count} tables"),
        };
        return Err(CliError::Input(format!(
            "{name}: --table {n}: the document has {found}"
        )));
    };
    let lines: Vec<&str> = text.split('\n').collect();
    let table = codec_md::parse_table(&lines[first..last].join("\n")).map_err(|e| {
        // Positions in the document, not in the table.
        let (line, column) = (first + e.line(), e.column());
        CliError::Input(format!(
            "{name}: line {line}, column {column}: {}",
            e.kind()
        ))
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

/// The tables of a markdown document, each as the range of its lines
/// (0-based, end exclusive): a line starting with `|` followed by a
/// delimiter row, up to the first line that does not start with `|`.
/// Lines inside a fenced code block start no table.
fn find_tables(text: &str) -> Vec<(usize, usize)> {
    let lines: Vec<&str> = text
        .split('\n')
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
        .collect();
    let mut tables = Vec::new();
    let mut fence: Option<(char, usize)> = None;
    let mut i = 0;
    while i < lines.len() {
        let trimmed = lines[i].trim_start();
        let run = |mark: char| trimmed.chars().take_while(|&c| c == mark).count();
        match fence {
            Some((mark, len))
                if run(mark) >= len && trimmed.trim_start_matches(mark).trim().is_empty() =>
            {
                fence = None;
            }
            Some(_) => {}
            None if run('`') >= 3 => fence = Some(('`', run('`'))),
            None if run('~') >= 3 => fence = Some(('~', run('~'))),
            None if trimmed.starts_with('|')
                && lines.get(i + 1).is_some_and(|l| is_delimiter_row(l)) =>
            {
                let end = (i + 2..lines.len())
                    .find(|&j| !lines[j].starts_with('|'))
                    .unwrap_or(lines.len());
                tables.push((i, end));
                i = end;
                continue;
            }
            None => {}
        }
        i += 1;
    }
    tables
}

/// `|---|:--:|`: pipes around cells of dashes with optional colons.
fn is_delimiter_row(line: &str) -> bool {
    let line = line.trim();
    let Some(inner) = line.strip_prefix('|').and_then(|l| l.strip_suffix('|')) else {
        return false;
    };
    inner.split('|').all(|cell| {
        let cell = cell.trim();
        let cell = cell.strip_prefix(':').unwrap_or(cell);
        let cell = cell.strip_suffix(':').unwrap_or(cell);
        !cell.is_empty() && cell.bytes().all(|b| b == b'-')
    })
}

#[cfg(test)]
mod tests {
    use super::find_tables;

    #[test]
    fn finds_each_table_after_whatever_precedes_it() {
        let cases: &[(&str, &[(usize, usize)])] = &[
            ("|a|\n|---|\n|1|\n", &[(0, 3)]),
            (
                "# rows\n\n|a|\n|---|\n|1|\n|2|\n\n# more\n\n|b|\n|:-:|\n",
                &[(2, 6), (9, 11)],
            ),
            ("- **k**: |x|\n\n|a|b|\n|---|---|\n", &[(2, 4)]),
            ("```\n|a|\n|---|\n```\n|b|\n|---|\n", &[(4, 6)]),
            ("- **code**:\n  ````\n  ```\n|a|\n|---|\n  ````\n", &[]),
            ("|a|\n|x|\n", &[]),
            ("", &[]),
        ];
        for (text, expected) in cases {
            assert_eq!(find_tables(text), *expected, "{text:?}");
        }
    }
}

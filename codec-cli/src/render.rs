//! `codec render`: JSON in, the encoded body out.

use std::io::{Read, Write};
use std::sync::Arc;

use codec_core::{
    Codec, Value,
    rows::{RowWriter, RowsShape},
};

use crate::cli::{RenderArgs, StreamWhen};
use crate::error::CliError;
use crate::registry;
use crate::rows::{Opened, RowReader, Rows};
use crate::tokens::{Size, change, thousands};
use crate::{input, negotiate_cmd};

/// `--stream auto` streams inputs larger than this. The buffered path
/// peaks at about four times its input (a parsed value, then its
/// rendering: BENCHMARKS.md, *Parsing and memory*), so below it a rendering stays
/// within the 64 MB a streamed one of any size keeps to.
pub(crate) const STREAM_ABOVE: usize = 4 << 20;

pub(crate) fn run(args: &RenderArgs) -> Result<(), CliError> {
    let negotiator = registry::negotiator(&args.codec)?;

    let codec = match (&args.to, &args.accept) {
        (Some(format), _) => negotiator
            .codec(format)
            .ok_or_else(|| CliError::UnknownFormat {
                name: format.clone(),
                valid: registry::format_names(&negotiator),
            })?
            .clone(),
        (None, Some(accept)) => {
            let selection = negotiator
                .negotiate([accept.as_bytes()])
                .into_result()
                .map_err(|refusal| {
                    CliError::NotAcceptable(negotiate_cmd::refusal_text(refusal.media_types()))
                })?;
            eprintln!("Content-Type: {}", selection.content_type());
            selection.codec().clone()
        }
        (None, None) => negotiator
            .codec("md")
            .ok_or_else(|| CliError::UnknownFormat {
                name: "md".into(),
                valid: registry::format_names(&negotiator),
            })?
            .clone(),
    };

    let (bytes, name) = if args.sample {
        (
            input::SAMPLE.to_vec(),
            format!("sample {}", input::SAMPLE_NAME),
        )
    } else {
        let (mut source, name) = input::open(args.file.as_deref())?;
        let streams = codec.row_encoder(&RowsShape::array()).is_some();
        let limit = match args.stream {
            StreamWhen::Never => None,
            StreamWhen::Auto if !streams => None,
            StreamWhen::Auto => Some(STREAM_ABOVE + 1),
            StreamWhen::Always => Some(0),
        };
        let mut head = Vec::new();
        if let Some(limit) = limit {
            input::read_head(&mut source, &mut head, limit, &name)?;
        }
        if limit.is_some_and(|limit| head.len() >= limit) {
            let source = std::io::Cursor::new(head).chain(source);
            match RowReader::open(source, &name)? {
                Opened::Rows(rows) => return stream(rows, codec),
                Opened::Other(..) if args.stream == StreamWhen::Always => {
                    return Err(CliError::Input(format!(
                        "{name}: cannot stream: the document is not rows (an array, or an \
                         object whose one member is an array)"
                    )));
                }
                Opened::Other(read, mut rest) => (input::read_rest(&mut rest, read, &name)?, name),
            }
        } else {
            (input::read_rest(&mut source, head, &name)?, name)
        }
    };
    let value = input::parse_json(&bytes, &name)?;
    drop(bytes);

    let mut body = encode(codec.as_ref(), &value)?;
    let encoded_len = body.len();
    // A final newline for the terminal, unless the body has one.
    if !body.ends_with(b"\n") && !body.is_empty() {
        body.push(b'\n');
    }
    input::write_stdout(&body)?;
    body.truncate(encoded_len);

    if args.sample {
        eprintln!("{}", comparison(&value, codec.format(), &body)?);
    }
    Ok(())
}

/// Writes the rows `reader` reads as `codec` writes them, a chunk at a
/// time: memory is the largest row and a chunk. A row that does not parse
/// or encode ends the output with the codec's sign of failure (the
/// markdown codec's note; JSON left unterminated), then the error.
fn stream<R: Read>(mut reader: RowReader<R>, codec: Arc<dyn Codec>) -> Result<(), CliError> {
    let shape = match reader.shape() {
        Rows::Array => RowsShape::array(),
        Rows::Member(key) => RowsShape::member(key.clone()),
    };
    let format = codec.format().to_owned();
    let mut writer = RowWriter::new(codec, &shape);
    let mut stdout = std::io::stdout().lock();
    let mut out = Vec::with_capacity(2 * CHUNK);
    let mut last = None;
    loop {
        let row = reader.next_row().and_then(|row| {
            let Some(row) = row else { return Ok(false) };
            writer
                .row(&row, &mut out)
                .map(|()| true)
                .map_err(|source| CliError::Encode {
                    format: format.clone(),
                    source,
                })
        });
        match row {
            Ok(true) if out.len() >= CHUNK => send(&mut stdout, &mut out, &mut last)?,
            Ok(true) => {}
            Ok(false) => break,
            Err(error) => {
                writer.fail(&mut out, &error.to_string());
                send(&mut stdout, &mut out, &mut last)?;
                return Err(error);
            }
        }
    }
    writer
        .finish(&mut out)
        .map_err(|source| CliError::Encode { format, source })?;
    send(&mut stdout, &mut out, &mut last)?;
    // A final newline for the terminal, unless the body has one.
    if last.is_some_and(|byte| byte != b'\n') {
        out.push(b'\n');
        send(&mut stdout, &mut out, &mut last)?;
    }
    stdout.flush().map_err(CliError::Write)
}

/// What the streamed output is written to standard output in.
const CHUNK: usize = 64 * 1024;

/// Writes `out` and empties it, keeping its last byte in `last`.
fn send(stdout: &mut impl Write, out: &mut Vec<u8>, last: &mut Option<u8>) -> Result<(), CliError> {
    if let Some(&byte) = out.last() {
        *last = Some(byte);
    }
    stdout.write_all(out).map_err(CliError::Write)?;
    out.clear();
    Ok(())
}

pub(crate) fn encode(codec: &dyn Codec, value: &Value) -> Result<Vec<u8>, CliError> {
    let mut out = Vec::new();
    codec
        .encode_value(value, &mut out)
        .map_err(|source| CliError::Encode {
            format: codec.format().to_owned(),
            source,
        })?;
    Ok(out)
}

/// One line: the bytes and o200k tokens of compact JSON against `format`.
fn comparison(value: &Value, format: &str, body: &[u8]) -> Result<String, CliError> {
    let compact = encode(&codec_json::JsonCodec::new(), value)?;
    let json = Size::of(&compact);
    let ours = Size::of(body);
    Ok(format!(
        "{format}: {} bytes, {} tokens (o200k) | compact JSON: {} bytes, {} tokens | {} tokens vs JSON",
        thousands(ours.bytes),
        thousands(ours.tokens),
        thousands(json.bytes),
        thousands(json.tokens),
        change(ours.tokens, json.tokens),
    ))
}

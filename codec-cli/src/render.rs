//! `codec render`: JSON in, the encoded body out.

use codec_core::{Codec, Value};

use crate::cli::RenderArgs;
use crate::error::CliError;
use crate::registry;
use crate::tokens::{change, thousands, Size};
use crate::{input, negotiate_cmd};

pub(crate) fn run(args: &RenderArgs) -> Result<(), CliError> {
    let (bytes, name) = if args.sample {
        (
            input::SAMPLE.to_vec(),
            format!("sample {}", input::SAMPLE_NAME),
        )
    } else {
        input::read(args.file.as_deref())?
    };
    let value = input::parse_json(&bytes, &name)?;
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

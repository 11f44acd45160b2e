//! `codec negotiate`: what a server would answer to an `Accept` header.

use std::sync::Arc;

use codec_core::{Codec, EncodeError, MediaType, Value};
use negotiate::Negotiator;

use crate::cli::{CodecOptions, NegotiateArgs};
use crate::error::CliError;
use crate::{input, registry};

pub(crate) fn run(args: &NegotiateArgs) -> Result<(), CliError> {
    let (negotiator, given) = match &args.offer {
        Some(list) => {
            let (codecs, given) = offers(list)?;
            let negotiator = Negotiator::builder()
                .codecs(codecs)
                .build()
                .map_err(|e| CliError::Usage(format!("negotiator: {e}")))?;
            (negotiator, Some(given))
        }
        None => (registry::negotiator(&CodecOptions::default())?, None),
    };
    let accept: Vec<&[u8]> = args.accept.iter().map(|a| a.as_bytes()).collect();
    let target = match &args.format {
        Some(name) => format!("/?format={}", percent_encode(name)),
        None => "/".to_owned(),
    };

    let refused = || CliError::NotAcceptable(refusal_text(negotiator.media_types()));
    let selections = if args.all && args.format.is_none() {
        negotiator.ranked(&accept)
    } else {
        let outcome =
            negotiator
                .negotiate_target(&accept, &target)
                .map_err(|e| CliError::UnknownFormat {
                    name: args.format.clone().unwrap_or_default(),
                    valid: e.valid.join(", "),
                })?;
        outcome.selection().copied().into_iter().collect()
    };
    if selections.is_empty() {
        return Err(refused());
    }
    let mut text = String::new();
    for selection in selections {
        match &given {
            // An offer is printed exactly as it was given.
            Some(given) => text.push_str(&given[offer_index(selection.format())]),
            None => text.push_str(selection.content_type().as_str()),
        }
        text.push('\n');
    }
    input::write_stdout(text.as_bytes())
}

/// The `406 Not Acceptable` message: the line, then the offered types.
pub(crate) fn refusal_text<'a>(types: impl Iterator<Item = &'a MediaType>) -> String {
    let mut text = String::from("406 Not Acceptable; offered:");
    for media_type in types {
        text.push_str("\n  ");
        text.push_str(media_type.as_str());
    }
    text
}

/// A media type offered with `--offer`: it negotiates but encodes nothing.
struct Offer {
    format: String,
    media_type: MediaType,
}

impl Codec for Offer {
    fn format(&self) -> &str {
        &self.format
    }
    fn media_type(&self) -> &MediaType {
        &self.media_type
    }
    fn encode_value(&self, _: &Value, _: &mut Vec<u8>) -> Result<(), EncodeError> {
        Err(EncodeError::Unrepresentable {
            format: self.format.clone(),
            reason: "an --offer type only takes part in negotiation".into(),
        })
    }
}

fn offer_index(format: &str) -> usize {
    format
        .strip_prefix("offer-")
        .and_then(|n| n.parse().ok())
        .unwrap_or(0)
}

type Offers = (Vec<Arc<dyn Codec>>, Vec<String>);

/// Splits `--offer` at commas outside quoted strings and parses each type.
fn offers(list: &str) -> Result<Offers, CliError> {
    let mut items = Vec::new();
    let mut start = 0;
    let mut quoted = false;
    let mut escaped = false;
    for (i, c) in list.char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' if quoted => escaped = true,
            '"' => quoted = !quoted,
            ',' if !quoted => {
                items.push(&list[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    items.push(&list[start..]);
    let mut codecs: Vec<Arc<dyn Codec>> = Vec::new();
    let mut given = Vec::new();
    for item in items.into_iter().map(str::trim).filter(|s| !s.is_empty()) {
        let media_type: MediaType = item
            .parse()
            .map_err(|e| CliError::Usage(format!("--offer: {e}")))?;
        codecs.push(Arc::new(Offer {
            format: format!("offer-{}", given.len()),
            media_type,
        }));
        given.push(item.to_owned());
    }
    if codecs.is_empty() {
        return Err(CliError::Usage("--offer: no media types given".into()));
    }
    Ok((codecs, given))
}

/// Percent-encodes a query value (everything but unreserved characters).
fn percent_encode(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for b in value.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

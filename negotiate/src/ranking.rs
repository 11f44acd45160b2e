//! Matching `Accept` ranges against the offers, and ranking what matched.
//!
//! Streaming: each range is matched against every offer as it is parsed,
//! and each offer keeps only the range that decides its quality, so
//! nothing is collected and nothing is allocated (for up to
//! [`INLINE_OFFERS`] offers).

use std::cmp::Ordering;

use codec_core::MediaType;

use crate::accept::{Param, Range};
use crate::policy::TieBreak;
use crate::quality::Quality;

/// Offers whose per-request state lives on the stack; a negotiator with
/// more offers (codecs plus aliases) allocates one small buffer per
/// negotiation.
pub(crate) const INLINE_OFFERS: usize = 16;

/// One media type the server can send: a codec's own, or an alias.
#[derive(Debug)]
pub(crate) struct Offer {
    /// Index of the codec that writes it.
    pub(crate) codec: usize,
    /// The `Content-Type` sent: the media type, with `charset=utf-8` added
    /// to `text/*` types that have no charset.
    pub(crate) content_type: MediaType,
    /// `content_type` as a header value, so responses do not re-validate
    /// it.
    #[cfg(feature = "http")]
    pub(crate) header: http::HeaderValue,
    /// The parameters a range's parameters must be a subset of: those of
    /// `content_type`, plus the implied `charset=utf-8` of JSON types
    /// (RFC 8259 §8.1), so `application/json;charset=utf-8` matches JSON.
    match_params: Vec<(String, String)>,
}

impl Offer {
    pub(crate) fn new(codec: usize, media_type: &MediaType) -> Offer {
        let is_json = media_type.subtype() == "json" || media_type.suffix() == Some("json");
        let has_charset = media_type.param("charset").is_some();
        let content_type = if media_type.type_() == "text" && !has_charset {
            let params = media_type.params().chain([("charset", "utf-8")]);
            MediaType::new(media_type.type_(), media_type.subtype(), params)
                .expect("parts of a valid media type stay valid")
        } else {
            media_type.clone()
        };
        let mut match_params: Vec<(String, String)> = content_type
            .params()
            .map(|(name, value)| (name.to_owned(), value.to_owned()))
            .collect();
        if is_json && !has_charset {
            match_params.push(("charset".to_owned(), "utf-8".to_owned()));
        }
        Offer {
            codec,
            #[cfg(feature = "http")]
            header: http::HeaderValue::from_str(content_type.as_str())
                .expect("a media type's canonical text is a valid header value"),
            content_type,
            match_params,
        }
    }

    /// Whether `range` matches this offer: same type and subtype (or
    /// wildcards), and every range parameter present with an equal value.
    pub(crate) fn matches(&self, range: &Range<'_>) -> bool {
        let media_type = &self.content_type;
        if range.type_ != b"*" {
            if !range
                .type_
                .eq_ignore_ascii_case(media_type.type_().as_bytes())
            {
                return false;
            }
            if range.subtype != b"*"
                && !range
                    .subtype
                    .eq_ignore_ascii_case(media_type.subtype().as_bytes())
            {
                return false;
            }
        }
        range.params().iter().all(|param| {
            self.match_params.iter().any(|(name, value)| {
                param.name.eq_ignore_ascii_case(name.as_bytes()) && value_eq(name, param, value)
            })
        })
    }
}

/// Parameter values compare exactly, except `charset` (RFC 9110 §8.3.2)
/// and `variant` (RFC 7763's markdown variants), which compare without
/// regard to ASCII case.
fn value_eq(name: &str, param: &Param<'_>, offer_value: &str) -> bool {
    let fold = name == "charset" || name == "variant";
    let mut offered = offer_value.bytes();
    for b in param.value_bytes() {
        match offered.next() {
            Some(o) if o == b || (fold && o.eq_ignore_ascii_case(&b)) => {}
            _ => return false,
        }
    }
    offered.next().is_none()
}

/// What decides one offer's quality so far: its most specific matching
/// range.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Best {
    pub(crate) matched: bool,
    pub(crate) specificity: u8,
    pub(crate) quality: Quality,
    /// The range's position in the client's list.
    pub(crate) position: u32,
}

impl Best {
    pub(crate) const NONE: Best = Best {
        matched: false,
        specificity: 0,
        quality: Quality::ZERO,
        position: 0,
    };

    /// Takes a matching range into account. A more specific range
    /// replaces the current one; among equally specific ranges (a
    /// duplicated `text/plain;q=1, text/plain;q=0`) the lowest quality
    /// wins, so an explicit exclusion is never outvoted.
    pub(crate) fn update(&mut self, range: &Range<'_>, position: u32) {
        let specificity = range.specificity();
        if !self.matched
            || specificity > self.specificity
            || (specificity == self.specificity && range.quality < self.quality)
        {
            *self = Best {
                matched: true,
                specificity,
                quality: range.quality,
                position,
            };
        }
    }
}

/// How offer `a` compares with offer `b` in preference (`Greater`: `a`
/// first): quality, then the specificity of the deciding range, then the
/// tie rule between codecs (under [`TieBreak::ClientOrder`], the client's
/// order of the codecs: a codec comes where the first of its equally good
/// ranges comes, whichever of its types the range named), then (always
/// last) the server's order, which puts a codec's own media type before
/// its aliases: `text/plain, text/markdown` gets `text/markdown`, the same
/// bytes under their own name.
///
/// An order by one key per offer, so a total order: `winner` and a sort
/// agree whatever order they meet the offers in.
pub(crate) fn preference(
    bests: &[Best],
    offers: &[Offer],
    a: usize,
    b: usize,
    tie_break: TieBreak,
) -> Ordering {
    let (x, y) = (&bests[a], &bests[b]);
    (x.quality, x.specificity)
        .cmp(&(y.quality, y.specificity))
        .then_with(|| match tie_break {
            TieBreak::ClientOrder => {
                codec_position(bests, offers, b).cmp(&codec_position(bests, offers, a))
            }
            TieBreak::ServerOrder => Ordering::Equal,
        })
        .then_with(|| b.cmp(&a))
}

/// Where the client lists offer `a`'s codec, for the tie rule: the first
/// position among the ranges that decide the codec's offers as well as
/// they decide `a` (same quality and specificity). One position for all
/// of a codec's equally good offers, so that the server's order, not the
/// client's, picks among them, and the client's order still places the
/// codec: with `text/x-markdown, application/json, text/markdown`, the
/// markdown codec (its alias first) comes before JSON.
fn codec_position(bests: &[Best], offers: &[Offer], a: usize) -> u32 {
    let x = &bests[a];
    let codec = offers[a].codec;
    offers
        .iter()
        .zip(bests)
        .filter(|(offer, best)| {
            offer.codec == codec
                && best.matched
                && (best.quality, best.specificity) == (x.quality, x.specificity)
        })
        .map(|(_, best)| best.position)
        .min()
        .unwrap_or(x.position)
}

/// Whether the offer may be served: matched with a non-zero quality.
pub(crate) fn acceptable(best: &Best) -> bool {
    best.matched && best.quality.is_acceptable()
}

/// The offer to serve, by [`preference`]; `None` when nothing is
/// acceptable.
pub(crate) fn winner(bests: &[Best], offers: &[Offer], tie_break: TieBreak) -> Option<usize> {
    let mut winner: Option<usize> = None;
    for (i, best) in bests.iter().enumerate() {
        if !acceptable(best) {
            continue;
        }
        match winner {
            Some(w) if preference(bests, offers, i, w, tie_break) != Ordering::Greater => {}
            _ => winner = Some(i),
        }
    }
    winner
}

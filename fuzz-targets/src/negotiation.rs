//! The negotiation targets: media types and `Accept`.

use std::sync::OnceLock;

use codec_core::MediaType;
use negotiate::{
    EmptyAccept, MAX_PARAMS, Negotiator, NothingAcceptable, Outcome, Quality, TieBreak,
};

use crate::Verdict;
use crate::negotiate_stubs;

/// Parses `data` (as UTF-8, invalid bytes replaced) as a [`MediaType`];
/// one that parses has a canonical text that parses back to it, is built
/// again by [`MediaType::new`] from its parts, and is what a negotiator
/// offering it selects, with quality 1, for an `Accept` of its own text.
///
/// # Panics
///
/// When a promise breaks.
pub fn media_type(data: &[u8]) -> Verdict {
    let text = String::from_utf8_lossy(data);
    let Ok(media_type) = text.parse::<MediaType>() else {
        return Verdict::Keep;
    };
    let canonical = media_type.as_str();
    let again = canonical
        .parse::<MediaType>()
        .unwrap_or_else(|e| panic!("{text:?} parses, its text {canonical:?} does not: {e}"));
    assert_eq!(again, media_type, "{text:?} through {canonical:?}");
    assert_eq!(again.as_str(), canonical, "{text:?}");
    let built = MediaType::new(
        media_type.type_(),
        media_type.subtype(),
        media_type.params(),
    )
    .unwrap_or_else(|e| panic!("{text:?}: its parts do not build: {e}"));
    assert_eq!(built, media_type, "{text:?} from its parts");
    check_accepts_itself(&media_type, &text);
    Verdict::Keep
}

/// A negotiator that offers `media_type` selects it for an `Accept` of
/// its own text: the two parsers agree. Not for wildcards (which name a
/// range, not a type), a parameter named `q` (which in `Accept` is the
/// weight) or more parameters than an `Accept` element may have.
fn check_accepts_itself(media_type: &MediaType, text: &str) {
    let wildcard = media_type.type_() == "*" || media_type.subtype() == "*";
    let weight = media_type.params().any(|(name, _)| name == "q");
    if wildcard || weight || media_type.params().len() > MAX_PARAMS {
        return;
    }
    let offer = negotiate_stubs::Stub::codec("offer", media_type.as_str());
    let Ok(negotiator) = Negotiator::builder().codec(offer).build() else {
        return;
    };
    let accept = media_type.as_str();
    match negotiator.negotiate(Some(accept)) {
        Outcome::Selected(s) if s.quality() == Quality::ONE => {}
        other => panic!("{text:?}: offering {accept:?}, `Accept: {accept}` gives {other:?}"),
    }
}

/// Negotiates with `data` as `Accept` field lines: its first byte picks
/// the policies (of the negotiator the tests use: JSON, markdown with an
/// alias, MCP), the rest is split at line feeds into lines (none when it
/// is empty). [`Negotiator::ranked`] must agree with
/// [`Negotiator::negotiate`]: its first offer is the selection, it is
/// empty when nothing is selected, and its qualities never rise.
///
/// # Panics
///
/// When a promise breaks.
pub fn accept(data: &[u8]) -> Verdict {
    let Some((&policies, header)) = data.split_first() else {
        return Verdict::Keep;
    };
    let negotiator = &negotiators()[usize::from(policies) % 8];
    let lines: Vec<&[u8]> = match header {
        [] => Vec::new(),
        header => header.split(|&b| b == b'\n').collect(),
    };
    let shown = String::from_utf8_lossy(header);
    let ranked = negotiator.ranked(lines.iter());
    match negotiator.negotiate(lines.iter()) {
        Outcome::Selected(s) | Outcome::NoPreference(s) => {
            let first = ranked
                .first()
                .unwrap_or_else(|| panic!("{shown:?}: selected {s:?}, ranked nothing"));
            assert_eq!(
                (first.format(), first.content_type(), first.quality()),
                (s.format(), s.content_type(), s.quality()),
                "{shown:?} (policies {policies})"
            );
        }
        _ => assert!(
            ranked.is_empty(),
            "{shown:?}: nothing selected, ranked {ranked:?}"
        ),
    }
    for pair in ranked.windows(2) {
        assert!(
            pair[0].quality() >= pair[1].quality(),
            "{shown:?}: {ranked:?}"
        );
    }
    Verdict::Keep
}

/// The tests' negotiator under every combination of the three policies.
fn negotiators() -> &'static [Negotiator] {
    static NEGOTIATORS: OnceLock<Vec<Negotiator>> = OnceLock::new();
    NEGOTIATORS.get_or_init(|| {
        (0..8)
            .map(|bits| {
                negotiate_stubs::builder()
                    .empty_accept(if bits & 1 == 0 {
                        EmptyAccept::NoPreference
                    } else {
                        EmptyAccept::NotAcceptable
                    })
                    .nothing_acceptable(if bits & 2 == 0 {
                        NothingAcceptable::NotAcceptable
                    } else {
                        NothingAcceptable::ServeDefault
                    })
                    .tie_break(if bits & 4 == 0 {
                        TieBreak::ClientOrder
                    } else {
                        TieBreak::ServerOrder
                    })
                    .build()
                    .expect("valid settings")
            })
            .collect()
    })
}

//! What a negotiation decides: an [`Outcome`], the [`Selection`] it
//! carries (borrowed from the negotiator, for use at once), and its owned
//! form [`Choice`] (for carrying across an `await`).

use std::fmt;
use std::sync::Arc;

use codec_core::{Codec, MediaType};

use crate::quality::Quality;
use crate::ranking::Offer;
use crate::refusal::NotAcceptable;

/// What a negotiation decided.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub enum Outcome<'n> {
    /// The client's `Accept`, or an override, chose a codec.
    Selected(Selection<'n>),
    /// The client stated no preference (no `Accept`, or an empty one under
    /// [`EmptyAccept::NoPreference`](crate::EmptyAccept::NoPreference)):
    /// the default codec.
    NoPreference(Selection<'n>),
    /// Nothing was acceptable and
    /// [`NothingAcceptable::ServeDefault`](crate::NothingAcceptable::ServeDefault)
    /// is in force: the default codec, with quality zero.
    Fallback(Selection<'n>),
    /// Nothing offered is acceptable: answer 406.
    NotAcceptable(NotAcceptable),
}

impl<'n> Outcome<'n> {
    /// The selection, unless nothing is acceptable.
    pub fn selection(&self) -> Option<&Selection<'n>> {
        match self {
            Outcome::Selected(s) | Outcome::NoPreference(s) | Outcome::Fallback(s) => Some(s),
            Outcome::NotAcceptable(_) => None,
        }
    }

    /// The selection, or why there is none.
    ///
    /// # Errors
    ///
    /// [`NotAcceptable`] when nothing offered is acceptable.
    pub fn into_result(self) -> Result<Selection<'n>, NotAcceptable> {
        match self {
            Outcome::Selected(s) | Outcome::NoPreference(s) | Outcome::Fallback(s) => Ok(s),
            Outcome::NotAcceptable(e) => Err(e),
        }
    }
}

/// What chose a [`Selection`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Source {
    /// The `Accept` header.
    Accept,
    /// The format query parameter (`?format=md`).
    QueryParam,
    /// The path extension (`/items.md`).
    PathExtension,
    /// The default codec: no preference, or a fallback.
    Default,
    /// The agent policy: a known agent's `User-Agent` and an `Accept` with
    /// no preference beyond `*/*` (see
    /// [`NegotiatorBuilder::agent_format`](crate::NegotiatorBuilder::agent_format)).
    UserAgent,
}

/// The codec chosen for a response, with the `Content-Type` to send.
///
/// It borrows the negotiator that made it, so it is for use at once; its
/// owned form, [`Selection::choice`], crosses an `await`.
#[derive(Clone, Copy)]
pub struct Selection<'n> {
    codec: &'n Arc<dyn Codec>,
    offer: &'n Offer,
    choice: Choice,
    /// Whether the negotiator reads `User-Agent` (its agent policy is on),
    /// so responses vary on it as well as on `Accept`.
    by_user_agent: bool,
}

impl<'n> Selection<'n> {
    /// A selection of `offer`, written by `codec`, as `choice` records it;
    /// `by_user_agent` when the negotiator's agent policy is on.
    pub(crate) fn new(
        codec: &'n Arc<dyn Codec>,
        offer: &'n Offer,
        choice: Choice,
        by_user_agent: bool,
    ) -> Self {
        Selection {
            codec,
            offer,
            choice,
            by_user_agent,
        }
    }

    /// The codec to encode the response with.
    pub fn codec(&self) -> &'n Arc<dyn Codec> {
        self.codec
    }

    /// The codec's format name (`json`, `md`).
    pub fn format(&self) -> &'n str {
        self.codec.format()
    }

    /// The `Content-Type` to send: the matched media type (the codec's
    /// own or an alias), with `charset=utf-8` on `text/*` types that
    /// declare no charset.
    pub fn content_type(&self) -> &'n MediaType {
        &self.offer.content_type
    }

    /// The client's quality for the chosen type: the `q` of its most
    /// specific matching range; [`Quality::ONE`] for an override or no
    /// preference; [`Quality::ZERO`] for a fallback.
    pub fn quality(&self) -> Quality {
        self.choice.quality
    }

    /// What chose this codec.
    pub fn source(&self) -> Source {
        self.choice.source
    }

    /// This selection in owned form, to carry across an `await` and look
    /// up again with [`Negotiator::resolve`](crate::Negotiator::resolve).
    pub fn choice(&self) -> Choice {
        self.choice
    }

    /// The offer chosen, with its precomputed header value.
    #[cfg(feature = "http")]
    pub(crate) fn offer(&self) -> &'n Offer {
        self.offer
    }

    /// The request fields the choice depends on, for `Vary`: `Accept`,
    /// and `User-Agent` when the negotiator's agent policy is on (another
    /// client's `*/*` could get another format).
    pub fn varies_on(&self) -> &'static [&'static str] {
        if self.by_user_agent {
            &["Accept", "User-Agent"]
        } else {
            &["Accept"]
        }
    }
}

impl fmt::Debug for Selection<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Selection")
            .field("format", &self.format())
            .field("content_type", &self.content_type().as_str())
            .field("quality", &self.choice.quality)
            .field("source", &self.choice.source)
            .finish()
    }
}

/// A [`Selection`] in owned form: `Copy`, `'static`, `Send`, so a decision
/// made before a handler runs can be used after its `await`.
///
/// It records which of the negotiator's offers was chosen, at what
/// quality and by what; [`Negotiator::resolve`](crate::Negotiator::resolve)
/// gives back the codec and `Content-Type`. A choice knows which
/// negotiator made it, so another negotiator never resolves it to the
/// wrong codec.
///
/// ```
/// # use std::sync::Arc;
/// # use codec_core::{Codec, EncodeError, MediaType, Value};
/// # struct Stub(&'static str, MediaType);
/// # impl Codec for Stub {
/// #     fn format(&self) -> &str { self.0 }
/// #     fn media_type(&self) -> &MediaType { &self.1 }
/// #     fn encode_value(&self, _: &Value, _: &mut Vec<u8>) -> Result<(), EncodeError> { Ok(()) }
/// # }
/// use negotiate::{Negotiator, Source};
///
/// let build = || {
///     Negotiator::builder()
///         .codec(Arc::new(Stub("json", MediaType::from_static("application/json"))))
///         .codec(Arc::new(Stub("md", MediaType::from_static("text/markdown"))))
///         .build()
///         .unwrap()
/// };
/// let negotiator = build();
/// let choice = negotiator.negotiate(Some("text/*")).selection().unwrap().choice();
/// // ... the handler runs ...
/// let selection = negotiator.resolve(choice).unwrap();
/// assert_eq!(selection.format(), "md");
/// assert_eq!(selection.source(), Source::Accept);
/// assert!(build().resolve(choice).is_none(), "another negotiator's choice");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Choice {
    /// The identity of the negotiator that made it.
    negotiator: u64,
    /// Index of the offer chosen.
    offer: usize,
    quality: Quality,
    source: Source,
}

impl Choice {
    pub(crate) fn new(negotiator: u64, offer: usize, quality: Quality, source: Source) -> Choice {
        Choice {
            negotiator,
            offer,
            quality,
            source,
        }
    }

    /// The client's quality for the chosen type (see
    /// [`Selection::quality`]).
    pub fn quality(&self) -> Quality {
        self.quality
    }

    /// What made the choice.
    pub fn source(&self) -> Source {
        self.source
    }

    /// The offer chosen, if the negotiator with identity `negotiator`
    /// made this choice.
    pub(crate) fn offer_of(&self, negotiator: u64) -> Option<usize> {
        (self.negotiator == negotiator).then_some(self.offer)
    }
}

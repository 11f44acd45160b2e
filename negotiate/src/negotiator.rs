//! The [`Negotiator`] and its builder: the codecs, the offers computed
//! from them, and the passes over `Accept` that decide.

use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use codec_core::{Codec, MediaType};

use crate::accept::{Elements, MAX_ELEMENTS, Range};
use crate::agents::{AGENT_USER_AGENTS, names_agent};
use crate::outcome::{Choice, Outcome, Selection, Source};
use crate::overrides;
use crate::policy::{EmptyAccept, NothingAcceptable, TieBreak};
use crate::quality::Quality;
use crate::ranking::{Best, INLINE_OFFERS, Offer, acceptable, preference, winner};
use crate::refusal::{Available, NotAcceptable, UnknownFormat};

/// Picks a codec for a request from its `Accept` header and, optionally, a
/// `?format=` query parameter or a path extension.
///
/// Build one per service with [`Negotiator::builder`] and share it (it is
/// `Send + Sync`; wrap it in an `Arc`). Everything that does not depend
/// on the request (offers, their parameters, `Content-Type` values) is
/// computed by [`NegotiatorBuilder::build`], so [`Negotiator::negotiate`]
/// neither allocates nor fails.
pub struct Negotiator {
    codecs: Vec<Arc<dyn Codec>>,
    /// The codecs' own media types first (offer `i` is codec `i`), then
    /// the aliases, so an offer's index is its place in the server's
    /// order.
    offers: Vec<Offer>,
    default: usize,
    empty_accept: EmptyAccept,
    nothing_acceptable: NothingAcceptable,
    tie_break: TieBreak,
    format_param: Option<String>,
    path_extension: bool,
    /// The codec that known agents get when their `Accept` states no
    /// preference, and the product tokens that name them.
    agents: Option<(usize, Vec<String>)>,
    /// This negotiator's identity, recorded in every [`Choice`] it makes.
    id: u64,
    /// What a 406 lists, shared by every refusal.
    available: Arc<Available>,
    /// The decisions of the commonest `Accept` fields, made once at build
    /// time (see [`Known`]).
    known: Vec<Known>,
}

/// An `Accept` field common enough to be decided once, when the
/// negotiator is built: each offer's `type/subtype` and `Content-Type`,
/// and `*/*`. A request whose only `Accept` line is exactly these bytes
/// (and that the agent policy does not apply to) gets the decision that
/// reading them made, without reading them again: the same bytes, the
/// same decision. Refusals are not kept; they are rare and read in full.
struct Known {
    accept: Box<[u8]>,
    decided: Decided,
}

/// A kept decision: the [`Outcome`] variant and its choice.
#[derive(Clone, Copy)]
enum Decided {
    Selected(Choice),
    NoPreference(Choice),
    Fallback(Choice),
}

/// The identity of the next negotiator built. Negotiators are built once
/// per service, so a 64-bit counter never wraps.
static NEXT_ID: AtomicU64 = AtomicU64::new(0);

/// What reading the `Accept` lines found.
struct Scan {
    /// Field lines: zero when the request has no `Accept`.
    lines: usize,
    /// Elements that parsed.
    usable: u32,
    /// Elements that parsed and name a type (anything but `*/*`).
    specific: u32,
}

/// Builds a [`Negotiator`]; see [`Negotiator::builder`].
pub struct NegotiatorBuilder {
    codecs: Vec<Arc<dyn Codec>>,
    aliases: Vec<(String, MediaType)>,
    default: Option<String>,
    empty_accept: EmptyAccept,
    nothing_acceptable: NothingAcceptable,
    tie_break: TieBreak,
    format_param: Option<String>,
    path_extension: bool,
    agent_format: Option<String>,
    agent_user_agents: Vec<String>,
}

/// Why a [`Negotiator`] could not be built.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum BuildError {
    /// No codec was registered.
    #[error("a negotiator needs at least one codec")]
    NoCodecs,
    /// Two codecs have the same format name.
    #[error("two codecs have the format name {format:?}")]
    DuplicateFormat {
        /// The name.
        format: String,
    },
    /// A codec's format name is not lower-case ASCII letters, digits and
    /// `-` (the rule of `Codec::format`).
    #[error("invalid format name {format:?}: expected lower-case ASCII letters, digits or `-`")]
    InvalidFormat {
        /// The name.
        format: String,
    },
    /// An alias, the default or the agent format names a format no codec
    /// has.
    #[error("{setting} names the format {format:?}, which no registered codec has")]
    UnknownFormat {
        /// The builder setting: `alias`, `default_codec` or
        /// `agent_format`.
        setting: &'static str,
        /// The name.
        format: String,
    },
    /// The override query parameter's name is empty or not URL-safe.
    #[error(
        "invalid format query parameter name {name:?}: expected ASCII letters, digits, `-` or `_`"
    )]
    InvalidFormatParam {
        /// The name.
        name: String,
    },
}

impl Negotiator {
    /// A builder with no codecs and the default policies:
    /// [`EmptyAccept::NoPreference`], [`NothingAcceptable::NotAcceptable`],
    /// [`TieBreak::ClientOrder`], the `?format=` override on, path
    /// extensions off.
    pub fn builder() -> NegotiatorBuilder {
        NegotiatorBuilder {
            codecs: Vec::new(),
            aliases: Vec::new(),
            default: None,
            empty_accept: EmptyAccept::default(),
            nothing_acceptable: NothingAcceptable::default(),
            tie_break: TieBreak::default(),
            format_param: Some("format".to_owned()),
            path_extension: false,
            agent_format: None,
            agent_user_agents: AGENT_USER_AGENTS.iter().map(|s| s.to_string()).collect(),
        }
    }

    /// Negotiates from the request's `Accept` field lines (none when the
    /// request has no `Accept` header; several are read as one list, as
    /// RFC 9110 §5.3 says).
    ///
    /// Takes anything that iterates over byte strings:
    /// `None::<&[u8]>`, `Some("text/html")`, `[b"a/b".as_slice()]`, or
    /// `headers.get_all(ACCEPT)` from the `http` crate.
    ///
    /// A type's quality is the `q` of the most specific range that
    /// matches it (`type/subtype` beats `type/*` beats `*/*`, and more
    /// parameters beat fewer); when equally specific ranges match (a
    /// duplicated `text/plain, text/plain;q=0`), the lowest `q` counts, so
    /// an exclusion is never outvoted. A range matches when its type and
    /// subtype are equal or wildcards (ASCII case ignored) and each of its
    /// parameters is one of the offer's (`charset` and `variant` values
    /// compared without regard to case, others exactly; JSON types have
    /// an implied `charset=utf-8`).
    ///
    /// Offers with a non-zero quality are ranked by quality, then by the
    /// specificity of their deciding range, then (between a codec's own
    /// media type and its aliases) by the server's order, then by the
    /// [`TieBreak`] rule, then by the server's order. At most
    /// [`MAX_ELEMENTS`] elements are read (later ones are ignored); an
    /// element with more than [`MAX_PARAMS`](crate::MAX_PARAMS)
    /// parameters is skipped whole, like any element that does not parse.
    pub fn negotiate<'h, I, V>(&self, accept: I) -> Outcome<'_>
    where
        I: IntoIterator<Item = &'h V>,
        V: AsRef<[u8]> + ?Sized + 'h,
    {
        self.negotiate_as(accept, None)
    }

    /// [`Negotiator::negotiate`], with the agent policy applied for this
    /// `User-Agent`.
    fn negotiate_as<'h, I, V>(&self, accept: I, user_agent: Option<&[u8]>) -> Outcome<'_>
    where
        I: IntoIterator<Item = &'h V>,
        V: AsRef<[u8]> + ?Sized + 'h,
    {
        let agent = match (&self.agents, user_agent) {
            (Some((codec, names)), Some(user_agent)) if names_agent(user_agent, names) => {
                Some(*codec)
            }
            _ => None,
        };
        let mut lines = accept.into_iter().fuse();
        let first = lines.next();
        let second = first.and_then(|_| lines.next());
        if let (None, Some(line), None) = (agent, first, second)
            && let Some(outcome) = self.known(line.as_ref())
        {
            return outcome;
        }
        let accept = first.into_iter().chain(second).chain(lines);
        let n = self.offers.len();
        if n <= INLINE_OFFERS {
            let mut bests = [Best::NONE; INLINE_OFFERS];
            self.rank(accept, &mut bests[..n], agent)
        } else {
            let mut bests = vec![Best::NONE; n];
            self.rank(accept, &mut bests, agent)
        }
    }

    /// The decision kept for an `Accept` line of exactly these bytes, if
    /// it is one of the [`Known`] fields.
    fn known(&self, line: &[u8]) -> Option<Outcome<'_>> {
        let known = self.known.iter().find(|known| *known.accept == *line)?;
        let selection = |choice: Choice| {
            let offer = choice.offer_of(self.id)?;
            Some(self.select(offer, choice.quality(), choice.source()))
        };
        Some(match known.decided {
            Decided::Selected(choice) => Outcome::Selected(selection(choice)?),
            Decided::NoPreference(choice) => Outcome::NoPreference(selection(choice)?),
            Decided::Fallback(choice) => Outcome::Fallback(selection(choice)?),
        })
    }

    /// Decides the [`Known`] fields: each offer's `type/subtype` and
    /// `Content-Type`, and `*/*`, read in full as any request's `Accept`.
    fn decide_known(&self) -> Vec<Known> {
        let mut fields: Vec<&str> = vec!["*/*"];
        for offer in &self.offers {
            for field in [offer.content_type.essence(), offer.content_type.as_str()] {
                if !fields.contains(&field) {
                    fields.push(field);
                }
            }
        }
        fields
            .into_iter()
            .filter_map(|field| {
                let decided = match self.negotiate(Some(field)) {
                    Outcome::Selected(s) => Decided::Selected(s.choice()),
                    Outcome::NoPreference(s) => Decided::NoPreference(s.choice()),
                    Outcome::Fallback(s) => Decided::Fallback(s.choice()),
                    Outcome::NotAcceptable(_) => return None,
                };
                let accept = field.as_bytes().into();
                Some(Known { accept, decided })
            })
            .collect()
    }

    /// Every offer the client accepts, best first: the order
    /// [`Negotiator::negotiate`] picks the first of. Overrides are not
    /// read. Without a usable `Accept`, every codec's own media type with
    /// [`Quality::ONE`], the default first (none when an empty `Accept`
    /// is [`EmptyAccept::NotAcceptable`]). Unlike `negotiate`, this
    /// allocates: it is for tools and diagnostics.
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
    /// use negotiate::Negotiator;
    ///
    /// let negotiator = Negotiator::builder()
    ///     .codec(Arc::new(Stub("json", MediaType::from_static("application/json"))))
    ///     .codec(Arc::new(Stub("md", MediaType::from_static("text/markdown"))))
    ///     .codec(Arc::new(Stub("csv", MediaType::from_static("text/csv"))))
    ///     .build()
    ///     .unwrap();
    /// let ranked = negotiator.ranked(Some("text/*;q=0.5, text/csv;q=0, application/json;q=0.2"));
    /// let formats: Vec<String> = ranked
    ///     .iter()
    ///     .map(|s| format!("{} {}", s.format(), s.quality()))
    ///     .collect();
    /// assert_eq!(formats, ["md 0.5", "json 0.2"]);
    /// ```
    pub fn ranked<'h, I, V>(&self, accept: I) -> Vec<Selection<'_>>
    where
        I: IntoIterator<Item = &'h V>,
        V: AsRef<[u8]> + ?Sized + 'h,
    {
        let mut bests = vec![Best::NONE; self.offers.len()];
        let scan = self.scan(accept, &mut bests);
        if scan.lines == 0 || scan.usable == 0 {
            if scan.lines > 0 && self.empty_accept == EmptyAccept::NotAcceptable {
                return Vec::new();
            }
            let others = (0..self.codecs.len()).filter(|&i| i != self.default);
            return std::iter::once(self.default)
                .chain(others)
                .map(|offer| self.select(offer, Quality::ONE, Source::Default))
                .collect();
        }
        let mut offers: Vec<usize> = (0..bests.len())
            .filter(|&i| acceptable(&bests[i]))
            .collect();
        offers.sort_by(|&a, &b| preference(&bests, &self.offers, b, a, self.tie_break));
        offers
            .into_iter()
            .map(|offer| self.select(offer, bests[offer].quality, Source::Accept))
            .collect()
    }

    /// Reads the `Accept` lines, leaving in `bests` each offer's deciding
    /// range.
    fn scan<'h, I, V>(&self, accept: I, bests: &mut [Best]) -> Scan
    where
        I: IntoIterator<Item = &'h V>,
        V: AsRef<[u8]> + ?Sized + 'h,
    {
        let mut scan = Scan {
            lines: 0,
            usable: 0,
            specific: 0,
        };
        let mut elements = 0u32;
        let mut range = Range::EMPTY;
        'lines: for line in accept {
            scan.lines += 1;
            let mut parser = Elements::new(line.as_ref());
            while let Some(parsed) = parser.next_into(&mut range) {
                if elements as usize == MAX_ELEMENTS {
                    break 'lines;
                }
                let position = elements;
                elements += 1;
                if !parsed {
                    continue;
                }
                scan.usable += 1;
                if range.type_ != b"*" {
                    scan.specific += 1;
                }
                for (offer, best) in self.offers.iter().zip(bests.iter_mut()) {
                    if offer.matches(&range) {
                        best.update(&range, position);
                    }
                }
            }
        }
        scan
    }

    /// Ranks the offers; `agent` is the codec of the agent policy when the
    /// request comes from a known agent.
    fn rank<'h, I, V>(&self, accept: I, bests: &mut [Best], agent: Option<usize>) -> Outcome<'_>
    where
        I: IntoIterator<Item = &'h V>,
        V: AsRef<[u8]> + ?Sized + 'h,
    {
        let Scan {
            lines,
            usable,
            specific,
        } = self.scan(accept, bests);
        if let Some(agent) = agent {
            // No preference beyond `*/*`: no header, an empty one read as
            // none, or only `*/*` ranges that accept something.
            let no_preference = lines == 0
                || (usable == 0 && self.empty_accept == EmptyAccept::NoPreference)
                || (usable > 0 && specific == 0 && acceptable(&bests[agent]));
            if no_preference {
                return Outcome::Selected(self.select(agent, Quality::ONE, Source::UserAgent));
            }
        }
        if lines == 0 {
            return Outcome::NoPreference(self.default_selection());
        }
        if usable == 0 {
            return match self.empty_accept {
                EmptyAccept::NoPreference => Outcome::NoPreference(self.default_selection()),
                EmptyAccept::NotAcceptable => Outcome::NotAcceptable(self.not_acceptable()),
            };
        }
        match winner(bests, &self.offers, self.tie_break) {
            Some(offer) => {
                Outcome::Selected(self.select(offer, bests[offer].quality, Source::Accept))
            }
            None => match self.nothing_acceptable {
                NothingAcceptable::ServeDefault if !bests[self.default].matched => {
                    Outcome::Fallback(self.select(self.default, Quality::ZERO, Source::Default))
                }
                _ => Outcome::NotAcceptable(self.not_acceptable()),
            },
        }
    }

    /// Negotiates with the overrides of the request target (`path?query`,
    /// as in `Uri::path_and_query`) before the `Accept` lines.
    ///
    /// In order: the format query parameter (`?format=md`, see
    /// [`NegotiatorBuilder::format_param`]) when present, then the path
    /// extension (`/items.md`, when [`NegotiatorBuilder::path_extension`]
    /// is on and the extension is a registered format), then `Accept`. An
    /// override wins even over a `q=0` in `Accept`: it is an explicit
    /// request for that format. Format names compare without regard to
    /// ASCII case. The query value is taken as written, without
    /// percent-decoding (format names are plain tokens), and the first
    /// occurrence of the parameter counts.
    ///
    /// # Errors
    ///
    /// [`UnknownFormat`] when the query parameter names no registered
    /// format (an empty value included); it lists the valid ones. An
    /// unknown path extension is not an error: the path is then just a
    /// path with a dot.
    pub fn negotiate_target<'h, I, V>(
        &self,
        accept: I,
        target: &str,
    ) -> Result<Outcome<'_>, UnknownFormat>
    where
        I: IntoIterator<Item = &'h V>,
        V: AsRef<[u8]> + ?Sized + 'h,
    {
        self.negotiate_agent(accept, target, None)
    }

    /// [`Negotiator::negotiate_target`], and the agent policy
    /// ([`NegotiatorBuilder::agent_format`]) for the request's
    /// `User-Agent`: after the overrides, a known agent whose `Accept`
    /// states no preference beyond `*/*` (or is absent) gets the agent
    /// format, with [`Source::UserAgent`]. Without the policy, or without
    /// a `User-Agent`, it is `negotiate_target`.
    ///
    /// # Errors
    ///
    /// [`UnknownFormat`], as for [`Negotiator::negotiate_target`].
    pub fn negotiate_agent<'h, I, V>(
        &self,
        accept: I,
        target: &str,
        user_agent: Option<&[u8]>,
    ) -> Result<Outcome<'_>, UnknownFormat>
    where
        I: IntoIterator<Item = &'h V>,
        V: AsRef<[u8]> + ?Sized + 'h,
    {
        if let Some(param) = &self.format_param
            && let Some(value) = overrides::query_value(target, param)
        {
            let codec = self
                .codec_index(value)
                .ok_or_else(|| self.unknown_format(param, value))?;
            return Ok(Outcome::Selected(self.forced(codec, Source::QueryParam)));
        }
        if self.path_extension
            && let Some(codec) = overrides::path_extension(target).and_then(|e| self.codec_index(e))
        {
            return Ok(Outcome::Selected(self.forced(codec, Source::PathExtension)));
        }
        Ok(self.negotiate_as(accept, user_agent))
    }

    /// `path` without its extension when path extensions are on and the
    /// extension names a registered format (`/items.md` gives `/items`);
    /// otherwise `path` unchanged. For routing `/items.md` to the handler
    /// of `/items`. `path` is a path as `Uri::path` gives it: a query or
    /// fragment after a format extension is dropped with it.
    pub fn strip_format_extension<'p>(&self, path: &'p str) -> &'p str {
        if !self.path_extension {
            return path;
        }
        match overrides::path_extension(path) {
            Some(ext) if self.codec_index(ext).is_some() => {
                let path = overrides::path(path);
                &path[..path.len() - ext.len() - 1]
            }
            _ => path,
        }
    }

    /// The registered codecs, in the server's order of preference.
    pub fn codecs(&self) -> impl ExactSizeIterator<Item = &Arc<dyn Codec>> {
        self.codecs.iter()
    }

    /// The codec with format name `format` (ASCII case ignored).
    pub fn codec(&self, format: &str) -> Option<&Arc<dyn Codec>> {
        self.codec_index(format).map(|i| &self.codecs[i])
    }

    /// The codec served when the client states no preference.
    pub fn default_codec(&self) -> &Arc<dyn Codec> {
        &self.codecs[self.default]
    }

    /// Every `Content-Type` this negotiator can answer with: the codecs'
    /// media types (with `charset=utf-8` added to `text/*` types without
    /// one), then the aliases.
    pub fn media_types(&self) -> impl ExactSizeIterator<Item = &MediaType> {
        self.offers.iter().map(|offer| &offer.content_type)
    }

    /// The name of the override query parameter, if the override is on.
    pub fn format_param(&self) -> Option<&str> {
        self.format_param.as_deref()
    }

    /// Whether a path extension naming a format overrides `Accept`
    /// ([`NegotiatorBuilder::path_extension`]).
    pub fn path_extension(&self) -> bool {
        self.path_extension
    }

    /// What a request that accepts none of the codecs gets
    /// ([`NegotiatorBuilder::nothing_acceptable`]).
    pub fn nothing_acceptable(&self) -> NothingAcceptable {
        self.nothing_acceptable
    }

    /// Whether the agent policy is on, so `User-Agent` is read.
    #[cfg(feature = "http")]
    pub(crate) fn reads_user_agent(&self) -> bool {
        self.agents.is_some()
    }

    fn codec_index(&self, format: &str) -> Option<usize> {
        self.codecs
            .iter()
            .position(|codec| codec.format().eq_ignore_ascii_case(format))
    }

    /// The selection a [`Choice`] stands for: the codec and `Content-Type`
    /// of the offer it records. `None` when another negotiator made the
    /// choice (its offer index would mean another codec here).
    ///
    /// A decision made before an `await` is carried as a [`Choice`] (see
    /// [`Selection::choice`]) and looked up again here after it, as the
    /// axum layer does around a handler.
    pub fn resolve(&self, choice: Choice) -> Option<Selection<'_>> {
        let offer = choice.offer_of(self.id)?;
        let codec = &self.codecs[self.offers.get(offer)?.codec];
        Some(Selection::new(
            codec,
            &self.offers[offer],
            choice,
            self.agents.is_some(),
        ))
    }

    /// The selection of offer `offer`, at `quality`, chosen by `source`.
    fn select(&self, offer: usize, quality: Quality, source: Source) -> Selection<'_> {
        let choice = Choice::new(self.id, offer, quality, source);
        let offer = &self.offers[offer];
        Selection::new(
            &self.codecs[offer.codec],
            offer,
            choice,
            self.agents.is_some(),
        )
    }

    fn default_selection(&self) -> Selection<'_> {
        self.select(self.default, Quality::ONE, Source::Default)
    }

    fn forced(&self, codec: usize, source: Source) -> Selection<'_> {
        // Offer `i` is codec `i`'s own media type.
        self.select(codec, Quality::ONE, source)
    }

    fn not_acceptable(&self) -> NotAcceptable {
        NotAcceptable::new(&self.available)
    }

    fn unknown_format(&self, param: &str, value: &str) -> UnknownFormat {
        UnknownFormat {
            param: param.to_owned(),
            value: value.to_owned(),
            valid: self.codecs.iter().map(|c| c.format().to_owned()).collect(),
        }
    }
}

impl fmt::Debug for Negotiator {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Negotiator")
            .field("codecs", &self.codecs)
            .field(
                "media_types",
                &self
                    .media_types()
                    .map(MediaType::as_str)
                    .collect::<Vec<_>>(),
            )
            .field("default", &self.default_codec().format())
            .field("empty_accept", &self.empty_accept)
            .field("nothing_acceptable", &self.nothing_acceptable)
            .field("tie_break", &self.tie_break)
            .field("format_param", &self.format_param)
            .field("path_extension", &self.path_extension)
            .field(
                "agent_format",
                &self.agents.as_ref().map(|(c, _)| self.codecs[*c].format()),
            )
            .finish()
    }
}

impl NegotiatorBuilder {
    /// Registers a codec (none by default; [`NegotiatorBuilder::build`]
    /// needs one). Codecs are preferred in registration order when the
    /// client has no preference between them; the first is the default
    /// unless [`NegotiatorBuilder::default_codec`] says otherwise.
    pub fn codec(mut self, codec: Arc<dyn Codec>) -> NegotiatorBuilder {
        self.codecs.push(codec);
        self
    }

    /// Registers several codecs, in order (see
    /// [`NegotiatorBuilder::codec`]).
    pub fn codecs(mut self, codecs: impl IntoIterator<Item = Arc<dyn Codec>>) -> NegotiatorBuilder {
        self.codecs.extend(codecs);
        self
    }

    /// Another media type the codec named `format` answers to, such as
    /// `text/x-markdown` for `md`. When a client's `Accept` selects the
    /// alias, the response's `Content-Type` is the alias (what the client
    /// asked for) and the codec is `format`'s. Aliases rank after every
    /// codec's own media type in the server's order. None by default.
    pub fn alias(mut self, format: &str, media_type: MediaType) -> NegotiatorBuilder {
        self.aliases.push((format.to_owned(), media_type));
        self
    }

    /// The codec served when the client states no preference (no
    /// `Accept`, or `Accept: */*` on a tie), by format name. Defaults to
    /// the first codec registered.
    pub fn default_codec(mut self, format: &str) -> NegotiatorBuilder {
        self.default = Some(format.to_owned());
        self
    }

    /// What a present but empty (or wholly unparsable) `Accept` means
    /// (default [`EmptyAccept::NoPreference`]).
    pub fn empty_accept(mut self, policy: EmptyAccept) -> NegotiatorBuilder {
        self.empty_accept = policy;
        self
    }

    /// What to do when nothing offered is acceptable (default
    /// [`NothingAcceptable::NotAcceptable`]).
    pub fn nothing_acceptable(mut self, policy: NothingAcceptable) -> NegotiatorBuilder {
        self.nothing_acceptable = policy;
        self
    }

    /// How to order offers of equal quality and specificity (default
    /// [`TieBreak::ClientOrder`]).
    pub fn tie_break(mut self, rule: TieBreak) -> NegotiatorBuilder {
        self.tie_break = rule;
        self
    }

    /// The name of the query parameter that overrides `Accept`
    /// (`format` by default: `?format=md`).
    pub fn format_param(mut self, name: &str) -> NegotiatorBuilder {
        self.format_param = Some(name.to_owned());
        self
    }

    /// Whether the query parameter override is read at all (on by
    /// default).
    pub fn query_override(mut self, yes: bool) -> NegotiatorBuilder {
        match (yes, &self.format_param) {
            (false, _) => self.format_param = None,
            (true, None) => self.format_param = Some("format".to_owned()),
            (true, Some(_)) => {}
        }
        self
    }

    /// Whether a path extension naming a registered format (`/items.md`)
    /// overrides `Accept` (off by default: many paths have dots).
    pub fn path_extension(mut self, yes: bool) -> NegotiatorBuilder {
        self.path_extension = yes;
        self
    }

    /// The format that known agents get when their `Accept` states no
    /// preference beyond `*/*` (or is absent): off by default (`None`),
    /// `Some("md")` to serve them markdown. An agent is known by its
    /// `User-Agent` product token, from [`AGENT_USER_AGENTS`] unless
    /// [`NegotiatorBuilder::agent_user_agents`] says otherwise.
    ///
    /// It applies where the `User-Agent` is read:
    /// [`Negotiator::negotiate_agent`], and `negotiate_request` and the
    /// axum layer (feature `http`). An `Accept` that names any type, an
    /// override, or a `*/*;q=0` is obeyed as without the policy. With it
    /// on, every selection varies on `User-Agent` too
    /// ([`Selection::varies_on`](crate::Selection::varies_on)), and its
    /// responses say so in `Vary`.
    ///
    /// [`AGENT_USER_AGENTS`]: crate::AGENT_USER_AGENTS
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
    /// let negotiator = Negotiator::builder()
    ///     .codec(Arc::new(Stub("json", MediaType::from_static("application/json"))))
    ///     .codec(Arc::new(Stub("md", MediaType::from_static("text/markdown"))))
    ///     .agent_format(Some("md"))
    ///     .build()
    ///     .unwrap();
    /// let chatgpt = b"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ChatGPT-User/1.0; +https://openai.com/bot)";
    /// let chosen = |accept: Option<&str>, user_agent: &[u8]| {
    ///     let outcome = negotiator.negotiate_agent(accept, "/items", Some(user_agent)).unwrap();
    ///     let selection = outcome.selection().unwrap();
    ///     (selection.format().to_owned(), selection.source())
    /// };
    /// assert_eq!(chosen(Some("*/*"), chatgpt), ("md".to_owned(), Source::UserAgent));
    /// assert_eq!(chosen(None, chatgpt), ("md".to_owned(), Source::UserAgent));
    /// // An Accept that names a type is obeyed; so is everyone else's */*.
    /// assert_eq!(chosen(Some("application/json"), chatgpt), ("json".to_owned(), Source::Accept));
    /// assert_eq!(chosen(Some("*/*"), b"curl/8.5.0"), ("json".to_owned(), Source::Accept));
    /// ```
    pub fn agent_format(mut self, format: Option<&str>) -> NegotiatorBuilder {
        self.agent_format = format.map(str::to_owned);
        self
    }

    /// The `User-Agent` product tokens that name known agents, for
    /// [`NegotiatorBuilder::agent_format`] (default
    /// [`AGENT_USER_AGENTS`](crate::AGENT_USER_AGENTS)). A token matches
    /// as a product name, in any ASCII case: `ChatGPT-User` in
    /// `(compatible; ChatGPT-User/1.0; ...)`, not in `NotChatGPT-User`.
    pub fn agent_user_agents<S: Into<String>>(
        mut self,
        tokens: impl IntoIterator<Item = S>,
    ) -> NegotiatorBuilder {
        self.agent_user_agents = tokens.into_iter().map(Into::into).collect();
        self
    }

    /// Checks the settings and precomputes every offer.
    ///
    /// Fallible, unlike the codecs' builders, because the settings name
    /// each other: an alias or the default names a format that must be
    /// registered, and codecs bring names that must be valid and unique.
    ///
    /// # Errors
    ///
    /// A [`BuildError`] naming the setting at fault.
    pub fn build(self) -> Result<Negotiator, BuildError> {
        if self.codecs.is_empty() {
            return Err(BuildError::NoCodecs);
        }
        let index = |format: &str| {
            self.codecs
                .iter()
                .position(|codec| codec.format().eq_ignore_ascii_case(format))
        };
        for (i, codec) in self.codecs.iter().enumerate() {
            let format = codec.format();
            if !codec_core::is_valid_format_name(format) {
                return Err(BuildError::InvalidFormat {
                    format: format.to_owned(),
                });
            }
            if index(format) != Some(i) {
                return Err(BuildError::DuplicateFormat {
                    format: format.to_owned(),
                });
            }
        }
        if let Some(name) = &self.format_param {
            let valid = !name.is_empty()
                && name
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
            if !valid {
                return Err(BuildError::InvalidFormatParam { name: name.clone() });
            }
        }
        let default = match &self.default {
            None => 0,
            Some(format) => index(format).ok_or_else(|| BuildError::UnknownFormat {
                setting: "default_codec",
                format: format.clone(),
            })?,
        };
        let agents = match &self.agent_format {
            None => None,
            Some(format) => {
                let codec = index(format).ok_or_else(|| BuildError::UnknownFormat {
                    setting: "agent_format",
                    format: format.clone(),
                })?;
                Some((codec, self.agent_user_agents.clone()))
            }
        };
        let mut offers: Vec<Offer> = self
            .codecs
            .iter()
            .enumerate()
            .map(|(i, codec)| Offer::new(i, codec.media_type()))
            .collect();
        for (format, media_type) in &self.aliases {
            let codec = index(format).ok_or_else(|| BuildError::UnknownFormat {
                setting: "alias",
                format: format.clone(),
            })?;
            offers.push(Offer::new(codec, media_type));
        }
        let available = Available::new(
            offers
                .iter()
                .map(|offer| offer.content_type.clone())
                .collect(),
            self.codecs.iter().map(|c| c.format().to_owned()).collect(),
            self.format_param.as_deref(),
        );
        let mut negotiator = Negotiator {
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
            available: Arc::new(available),
            codecs: self.codecs,
            offers,
            default,
            empty_accept: self.empty_accept,
            nothing_acceptable: self.nothing_acceptable,
            tie_break: self.tie_break,
            format_param: self.format_param,
            path_extension: self.path_extension,
            agents,
            known: Vec::new(),
        };
        negotiator.known = negotiator.decide_known();
        Ok(negotiator)
    }
}

impl fmt::Debug for NegotiatorBuilder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("NegotiatorBuilder")
            .field("codecs", &self.codecs)
            .field("aliases", &self.aliases)
            .field("default", &self.default)
            .field("empty_accept", &self.empty_accept)
            .field("nothing_acceptable", &self.nothing_acceptable)
            .field("tie_break", &self.tie_break)
            .field("format_param", &self.format_param)
            .field("path_extension", &self.path_extension)
            .field("agent_format", &self.agent_format)
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use codec_core::{EncodeError, Value};

    use super::*;

    struct Stub(&'static str, MediaType);

    impl Codec for Stub {
        fn format(&self) -> &str {
            self.0
        }
        fn media_type(&self) -> &MediaType {
            &self.1
        }
        fn encode_value(&self, _: &Value, _: &mut Vec<u8>) -> Result<(), EncodeError> {
            Ok(())
        }
    }

    fn stub(format: &'static str, media_type: &'static str) -> Arc<dyn Codec> {
        Arc::new(Stub(format, MediaType::from_static(media_type)))
    }

    fn builder() -> NegotiatorBuilder {
        Negotiator::builder()
            .codec(stub("json", "application/json"))
            .codec(stub("md", "text/markdown"))
            .codec(stub("mcp", "application/vnd.mcp+json"))
    }

    #[test]
    fn a_known_accept_gets_the_decision_of_reading_it() {
        let negotiators = [
            builder(),
            builder().default_codec("md"),
            builder().tie_break(TieBreak::ServerOrder),
            builder().alias("md", MediaType::from_static("text/x-markdown")),
            builder().alias("md", MediaType::from_static("text/plain")),
            builder().alias("json", MediaType::from_static("text/markdown")),
            builder().nothing_acceptable(NothingAcceptable::ServeDefault),
            builder().empty_accept(EmptyAccept::NotAcceptable),
            builder().agent_format(Some("md")),
            Negotiator::builder().codec(stub("plain", "text/plain; charset=utf-8")),
        ];
        for builder in negotiators {
            let negotiator = builder.build().unwrap();
            assert!(negotiator.known.len() >= 2, "{negotiator:?}");
            for known in &negotiator.known {
                let kept = negotiator.known(&known.accept).unwrap();
                let mut bests = vec![Best::NONE; negotiator.offers.len()];
                let read = negotiator.rank(Some(&*known.accept), &mut bests, None);
                assert_eq!(format!("{kept:?}"), format!("{read:?}"));
                let choice = |o: &Outcome<'_>| o.selection().map(Selection::choice);
                assert_eq!(choice(&kept), choice(&read));
                assert_eq!(std::mem::discriminant(&kept), std::mem::discriminant(&read));
            }
            assert!(negotiator.known(b"application/JSON").is_none());
        }
    }
}

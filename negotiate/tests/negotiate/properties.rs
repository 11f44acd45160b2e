//! Property tests: no panic on any input, no explicitly excluded type
//! served, and a choice that does not depend on whitespace or letter case.
//! Case counts are kept moderate for a 2-core CI.

use crate::support;

use negotiate::{Negotiator, Outcome};
use proptest::prelude::*;

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: 256,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

const RANGES: &[&str] = &[
    "*/*",
    "*",
    "text/*",
    "application/*",
    "text/markdown",
    "text/x-markdown",
    "application/json",
    "application/vnd.mcp+json",
    "text/html",
    "text/plain",
    "image/png",
];

const PARAMS: &[(&str, &str)] = &[
    ("charset", "utf-8"),
    ("charset", "UTF-8"),
    ("charset", "\"utf-8\""),
    ("charset", "latin1"),
    ("variant", "GFM"),
    ("variant", "gfm"),
    ("variant", "CommonMark"),
    ("foo", "bar"),
];

const QS: &[&str] = &[
    "0", "0.0", "0.000", "0.00000", "0.001", "0.5", "0.8", "1", "1.0", "abc", "2", ".5", "0.0001",
    "",
];

/// One Accept element: a range, its parameters and an optional q.
#[derive(Debug, Clone)]
struct Element {
    range: &'static str,
    params: Vec<(&'static str, &'static str)>,
    q: Option<&'static str>,
}

fn element() -> impl Strategy<Value = Element> {
    (
        prop::sample::select(RANGES),
        prop::collection::vec(prop::sample::select(PARAMS), 0..3),
        prop::option::of(prop::sample::select(QS)),
    )
        .prop_map(|(range, params, q)| Element { range, params, q })
}

fn header() -> impl Strategy<Value = Vec<Element>> {
    prop::collection::vec(element(), 0..8)
}

/// How to write a header: the whitespace at each delimiter and which
/// letters are upper case.
#[derive(Debug, Clone)]
struct Style {
    spaces: Vec<&'static str>,
    upper: Vec<bool>,
}

fn style() -> impl Strategy<Value = Style> {
    (
        prop::collection::vec(prop::sample::select(&["", " ", "\t", "  ", " \t "][..]), 64),
        prop::collection::vec(any::<bool>(), 64),
    )
        .prop_map(|(spaces, upper)| Style { spaces, upper })
}

impl Style {
    fn plain() -> Style {
        Style {
            spaces: vec![""; 64],
            upper: vec![false; 64],
        }
    }
}

/// Writes the header; `style` picks whitespace around `,` and `;` and the
/// case of everything that is case-insensitive (type, subtype, parameter
/// names, `q`, and the values of `charset` and `variant`).
fn render(elements: &[Element], style: &Style) -> String {
    let mut counter = 0;
    let mut next = || {
        counter += 1;
        counter % 64
    };
    let mut out = style.spaces[0].to_owned();
    let cased = |text: &str, upper: bool| {
        if upper {
            text.to_ascii_uppercase()
        } else {
            text.to_ascii_lowercase()
        }
    };
    for (i, e) in elements.iter().enumerate() {
        if i > 0 {
            let a = next();
            let b = next();
            out.push_str(style.spaces[a]);
            out.push(',');
            out.push_str(style.spaces[b]);
        }
        let k = next();
        out.push_str(&cased(e.range, style.upper[k]));
        let params = e.params.iter().copied().chain(e.q.map(|q| ("q", q)));
        for (name, value) in params {
            let (a, b, c) = (next(), next(), next());
            out.push_str(style.spaces[a]);
            out.push(';');
            out.push_str(style.spaces[b]);
            out.push_str(&cased(name, style.upper[c]));
            out.push('=');
            let fold = name == "charset" || name == "variant";
            let d = next();
            if fold {
                out.push_str(&cased(value, style.upper[d]));
            } else {
                out.push_str(value);
            }
        }
    }
    out.push_str(style.spaces[63]);
    out
}

fn describe(outcome: Outcome<'_>) -> String {
    match outcome {
        Outcome::Selected(s) => format!(
            "selected {} {} {}",
            s.format(),
            s.content_type(),
            s.quality()
        ),
        Outcome::NoPreference(s) => format!("default {}", s.format()),
        Outcome::Fallback(s) => format!("fallback {}", s.format()),
        Outcome::NotAcceptable(_) => "406".to_owned(),
        _ => unreachable!(),
    }
}

fn is_zero(q: &str) -> bool {
    let Some(rest) = q.strip_prefix('0') else {
        return false;
    };
    rest.is_empty()
        || rest
            .strip_prefix('.')
            .is_some_and(|d| d.bytes().all(|b| b == b'0'))
}

/// An independent reading of "the most specific ranges that match":
/// their q values, for one offered media type.
fn deciding_qs(elements: &[Element], content_type: &codec_core::MediaType) -> Vec<&'static str> {
    let (type_, subtype) = (content_type.type_(), content_type.subtype());
    let mut offered: Vec<(String, String)> = content_type
        .params()
        .map(|(n, v)| (n.to_owned(), v.to_owned()))
        .collect();
    let json = subtype == "json" || subtype.ends_with("+json");
    if json && content_type.param("charset").is_none() {
        offered.push(("charset".into(), "utf-8".into()));
    }
    let mut best: Option<(usize, Vec<&'static str>)> = None;
    for e in elements {
        let range = if e.range == "*" { "*/*" } else { e.range };
        let (rt, rs) = range.split_once('/').unwrap();
        let level = if rt == "*" {
            0
        } else if rs == "*" {
            1
        } else {
            2
        };
        let type_ok = rt == "*" || (rt == type_ && (rs == "*" || rs == subtype));
        let params_ok = e.params.iter().all(|(n, v)| {
            let v = v.trim_matches('"');
            let fold = *n == "charset" || *n == "variant";
            offered.iter().any(|(on, ov)| {
                on == n
                    && if fold {
                        ov.eq_ignore_ascii_case(v)
                    } else {
                        ov == v
                    }
            })
        });
        if !(type_ok && params_ok) {
            continue;
        }
        let specificity = level * 10 + e.params.len();
        let q = e.q.unwrap_or("1");
        match &mut best {
            Some((s, qs)) if *s == specificity => qs.push(q),
            Some((s, _)) if *s > specificity => {}
            _ => best = Some((specificity, vec![q])),
        }
    }
    best.map(|(_, qs)| qs).unwrap_or_default()
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn never_panics_on_arbitrary_bytes(
        lines in prop::collection::vec(prop::collection::vec(any::<u8>(), 0..200), 0..3),
        target in ".{0,60}",
    ) {
        let negotiator = support::builder().path_extension(true).build().unwrap();
        let _ = negotiator.negotiate(lines.iter());
        let _ = negotiator.negotiate_target(lines.iter(), &target);
        let _ = negotiator.strip_format_extension(&target);
    }

    #[test]
    fn never_panics_on_header_like_bytes(
        lines in prop::collection::vec(
            prop::collection::vec(prop::sample::select(&b"tx/*;q=0.15,\" \\\tmdaj\x80"[..]), 0..120),
            0..3,
        ),
    ) {
        let negotiator = support::standard();
        let _ = negotiator.negotiate(lines.iter());
    }

    #[test]
    fn never_serves_an_excluded_type(elements in header(), style in style()) {
        let text = render(&elements, &style);
        for negotiator in [
            support::standard(),
            support::builder()
                .nothing_acceptable(negotiate::NothingAcceptable::ServeDefault)
                .build()
                .unwrap(),
        ] {
            let outcome = negotiator.negotiate(Some(&text));
            let Some(selection) = outcome.selection() else { continue };
            if matches!(outcome, Outcome::NoPreference(_)) {
                continue;
            }
            let qs = deciding_qs(&elements, selection.content_type());
            prop_assert!(
                !qs.iter().any(|q| is_zero(q)),
                "Accept: {text:?} served {} whose most specific ranges have q {qs:?}",
                selection.content_type()
            );
            if !matches!(outcome, Outcome::Fallback(_)) {
                prop_assert!(!qs.is_empty(), "{text:?}: selected without a matching range");
            }
        }
    }

    #[test]
    fn whitespace_and_case_do_not_change_the_choice(elements in header(), style in style()) {
        let negotiator: Negotiator = support::standard();
        let plain = render(&elements, &Style::plain());
        let styled = render(&elements, &style);
        prop_assert_eq!(
            describe(negotiator.negotiate(Some(&plain))),
            describe(negotiator.negotiate(Some(&styled))),
            "{:?} vs {:?}", plain, styled
        );
    }

    #[test]
    fn ranked_agrees_with_negotiate(elements in header()) {
        let negotiator = support::standard();
        let text = render(&elements, &Style::plain());
        let ranked = negotiator.ranked(Some(&text));
        match negotiator.negotiate(Some(&text)) {
            Outcome::Selected(s) | Outcome::NoPreference(s) => {
                let first = ranked.first().expect("a ranking when something is selected");
                prop_assert_eq!(
                    (first.format(), first.content_type(), first.quality()),
                    (s.format(), s.content_type(), s.quality()),
                    "{:?}", text
                );
            }
            _ => prop_assert!(ranked.is_empty(), "{:?}: {:?}", text, ranked),
        }
        for pair in ranked.windows(2) {
            prop_assert!(pair[0].quality() >= pair[1].quality(), "{:?}: {:?}", text, ranked);
        }
    }
}

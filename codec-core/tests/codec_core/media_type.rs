//! `MediaType`'s text round trip: whatever parses (or builds) formats to a
//! canonical text that parses back to an equal value.

use codec_core::MediaType;
use proptest::prelude::*;

/// Text shaped like a media type, with every class of character in the
/// places the grammar is strict about: quoted strings with quoted-pairs of
/// any character (controls and DEL included), tokens, OWS, empty
/// parameters, and stray bytes.
fn media_type_like() -> impl Strategy<Value = String> {
    let any_char = prop_oneof![
        4 => proptest::char::range(' ', '~'),
        1 => proptest::char::range('\0', '\u{1f}'),
        1 => Just('\u{7f}'),
        1 => proptest::char::range('\u{80}', '\u{10ffff}'),
    ];
    let quoted = prop::collection::vec(
        prop_oneof![
            3 => any_char.clone().prop_map(|c| c.to_string()),
            1 => any_char.clone().prop_map(|c| format!("\\{c}")),
        ],
        0..6,
    )
    .prop_map(|parts| format!("\"{}\"", parts.concat()));
    let value = prop_oneof!["[a-zA-Z0-9!#$%&'*+.^_`|~-]{0,4}", quoted];
    let ows = "[ \t]{0,2}";
    // Mostly well-formed, so most cases parse; sometimes not, so the
    // error paths run too.
    let name = prop_oneof![9 => "[a-zA-Z-]{1,3}", 1 => "[a-z=\"]{0,2}"];
    let eq = prop_oneof![9 => Just("="), 1 => Just("")];
    let param = (ows, name, eq, value, ows)
        .prop_map(|(a, name, eq, value, b)| format!(";{a}{name}{eq}{value}{b}"));
    (
        ows,
        "[a-zA-Z*]{1,4}",
        prop_oneof![9 => Just("/"), 1 => Just("")],
        "[a-zA-Z.+*-]{0,6}",
        prop::collection::vec(param, 0..4),
        ows,
    )
        .prop_map(|(a, type_, slash, subtype, params, b)| {
            format!("{a}{type_}{slash}{subtype}{}{b}", params.concat())
        })
}

fn assert_round_trips(media_type: &MediaType, input: &str) -> Result<(), TestCaseError> {
    let text = media_type.as_str();
    let again: MediaType = text
        .parse()
        .map_err(|e| TestCaseError::fail(format!("{input:?} formats as {text:?}: {e}")))?;
    prop_assert_eq!(&again, media_type, "{:?}", input);
    prop_assert_eq!(again.as_str(), text);
    prop_assert_eq!(media_type.to_string(), text);
    Ok(())
}

/// Inputs the fuzzer and reviews found, kept as plain cases.
#[test]
fn regressions() {
    // A quoted-pair may only escape HTAB, SP, VCHAR or obs-text (RFC 9110
    // §5.6.4); `\<NUL>` used to parse, then format as text that did not.
    for input in [
        "p/j;t=\"\\\0\"",
        "p/j;t=\"\\\u{7f}\"",
        "p/j;t=\"\\\n\"",
        "p/j;t=\"a\u{1}\"",
    ] {
        assert!(input.parse::<MediaType>().is_err(), "{input:?} parsed");
    }
    // What the grammar allows still parses, and round trips.
    for input in ["p/j;t=\"\\\t\\ \\a\\\\\\\"\"", "p/j;t=\"\u{e9}\\\u{e9}\""] {
        let media_type: MediaType = input.parse().unwrap_or_else(|e| panic!("{input:?}: {e}"));
        let again: MediaType = media_type.as_str().parse().unwrap();
        assert_eq!(again, media_type, "{input:?}");
    }
    // A value that no quoted-string can hold is refused by `new` too.
    for value in ["\0", "a\nb", "\u{7f}"] {
        assert!(
            MediaType::new("p", "j", [("t", value)]).is_err(),
            "{value:?} accepted"
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4096))]

    #[test]
    fn whatever_parses_formats_to_text_that_parses_back(input in media_type_like()) {
        if let Ok(media_type) = input.parse::<MediaType>() {
            assert_round_trips(&media_type, &input)?;
        }
    }

    #[test]
    fn arbitrary_text_that_parses_round_trips(input in "(?s).{0,24}") {
        if let Ok(media_type) = input.parse::<MediaType>() {
            assert_round_trips(&media_type, &input)?;
        }
    }

    #[test]
    fn whatever_builds_formats_to_text_that_parses_back(
        name in "[a-zA-Z-]{1,3}",
        value in "(?s).{0,6}",
    ) {
        if let Ok(media_type) = MediaType::new("text", "plain", [(name.as_str(), value.as_str())]) {
            assert_round_trips(&media_type, &value)?;
            prop_assert_eq!(media_type.param(&name), Some(value.as_str()));
        }
    }
}

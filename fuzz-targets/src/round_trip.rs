//! The `md_round_trip` target: the round trips of codec-md's `SPEC.md`.

use codec_core::{Codec, EncodeError, Number, Value, value::DEFAULT_MAX_DEPTH};
use codec_md::{MarkdownCodec, ParseErrorKind, Profile, normalize};

use crate::value::{is_ordinary, value_of};
use crate::{Verdict, md_oracle};

/// The round trips `SPEC.md` promises, on the value of `data`
/// ([`value_of`]):
///
/// - default: `parse(render(v))` is `normalize(v)`, key order included,
///   except for the documented value at the depth limit whose strings
///   read as lists one level too deep (*Depth*); and a top-level
///   object's one-line strings read back as strings, or as lists exactly
///   where a comma is followed by a blank or ends the string, stated here
///   again from *Reading* (a bare comma is text: issue 17);
/// - lossless: `parse_lossless(render_lossless(v))` is exactly `v`;
/// - dense: `parse_dense(render_dense(v))` is `v` where the document is
///   written as JSON (exactly, key order included) or `v` is ordinary as
///   the datasets are (*Reading the dense profile*).
///
/// A value deeper than [`DEFAULT_MAX_DEPTH`] must be refused by every
/// profile with [`EncodeError::DepthLimit`].
///
/// # Panics
///
/// When a promise breaks.
pub fn md_round_trip(data: &[u8]) -> Verdict {
    let Some(value) = value_of(data) else {
        return Verdict::Reject;
    };
    let default = render(&value, Profile::Default);
    let (Some(default), Some(lossless), Some(dense)) = (
        default,
        render(&value, Profile::Lossless),
        render(&value, Profile::Dense),
    ) else {
        return Verdict::Keep;
    };

    match codec_md::parse(&default) {
        Ok(back) => {
            let normal = normalize(&value);
            assert!(
                back.identical(&normal),
                "parse(render(v)) != normalize(v) for {value:?}\n--- markdown\n{default}--- parsed\n{back:?}\n--- normalized\n{normal:?}"
            );
            check_top_level_strings(&value, &back, &default);
        }
        Err(e)
            if matches!(e.kind(), ParseErrorKind::DepthLimit { .. })
                && value.depth() == DEFAULT_MAX_DEPTH => {}
        Err(e) => panic!("{e} reading the rendering of {value:?}\n{default}"),
    }

    let back = codec_md::parse_lossless(&lossless)
        .unwrap_or_else(|e| panic!("{e} reading the lossless rendering of {value:?}\n{lossless}"));
    assert!(
        back.identical(&value),
        "parse_lossless(render_lossless(v)) != v for {value:?}\n--- markdown\n{lossless}--- parsed\n{back:?}"
    );

    let back = codec_md::parse_dense(&dense)
        .unwrap_or_else(|e| panic!("{e} reading the dense rendering of {value:?}\n{dense}"));
    let json = dense.starts_with("```") && dense.trim_start_matches('`').starts_with("json\n");
    if json {
        assert!(
            back.identical(&value),
            "a dense JSON document does not read back exactly: {value:?}\n--- markdown\n{dense}--- parsed\n{back:?}"
        );
    } else if is_ordinary(&value) {
        assert!(
            back == value,
            "an ordinary value does not read back densely: {value:?}\n--- markdown\n{dense}--- parsed\n{back:?}"
        );
    }
    Verdict::Keep
}

/// `value` in `profile`, or `None` when it is too deep, which every
/// profile must refuse as such.
fn render(value: &Value, profile: Profile) -> Option<String> {
    let codec = MarkdownCodec::builder().profile(profile).build();
    let mut out = Vec::new();
    match codec.encode_value(value, &mut out) {
        Ok(()) => Some(String::from_utf8(out).expect("markdown is UTF-8")),
        Err(EncodeError::DepthLimit { .. }) if value.depth() > DEFAULT_MAX_DEPTH => None,
        Err(e) => panic!("{profile:?} does not render {value:?}: {e}"),
    }
}

/// `SPEC.md`'s reading of a string after a key, from its text
/// (*Reading*): a comma followed by a space or a tab, or ending the line,
/// separates items; any other comma is text. Checked on the top-level
/// object's strings, which are always key lines, where the oracle can
/// tell without the layout: one line, no code key, no edge whitespace
/// (written as refs), and not a string that reads as another scalar.
fn check_top_level_strings(value: &Value, back: &Value, markdown: &str) {
    let Value::Object(map) = value else { return };
    for (key, member) in map {
        let Value::String(s) = member else { continue };
        let fenced = s.contains('\n') || md_oracle::is_code(key);
        let edges = s.starts_with(char::is_whitespace) || s.ends_with(char::is_whitespace);
        let scalar = matches!(s.as_str(), "" | "true" | "false" | "[]" | "{}")
            || s.parse::<Number>().is_ok();
        if fenced || edges || scalar {
            continue;
        }
        let list = s.ends_with(',') || s.contains(", ") || s.contains(",\t");
        let read = &back[key];
        if list {
            assert!(
                read.as_array().is_some(),
                "{s:?} after a key reads as {read:?}, not a list\n{markdown}"
            );
        } else {
            assert_eq!(read, member, "{s:?} after a key\n{markdown}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commas_after_a_key_read_as_spec_says() {
        let json = br#"{"u": "https://api.github.com/notifications{?since,all,participating}",
            "n": "1,000", "l": "a, b", "t": "a,", "code": "a, b", "e": "x, "}"#;
        assert_eq!(md_round_trip(json), Verdict::Keep);
        // A reading that splits a bare comma fails the oracle.
        let value = codec_core::from_str(r#"{"n": "1,000"}"#).unwrap();
        let split = codec_core::from_str(r#"{"n": ["1", "000"]}"#).unwrap();
        let check = || check_top_level_strings(&value, &split, "");
        assert!(std::panic::catch_unwind(check).is_err());
    }
}

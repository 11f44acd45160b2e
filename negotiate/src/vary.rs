//! `Vary: Accept` (feature `http`): every answer that depends on the
//! request's `Accept`, negotiated or refused, says so to caches.

use http::header::{HeaderMap, HeaderValue, VARY};

/// Adds `Accept` to a response's `Vary`: inserted when there is none,
/// merged into the existing value(s) otherwise (several `Vary` lines
/// become one), left alone when `Accept` (any case) or `*` is already
/// listed. Never duplicates.
///
/// ```
/// use http::header::{HeaderMap, HeaderValue, VARY};
///
/// let mut headers = HeaderMap::new();
/// headers.insert(VARY, HeaderValue::from_static("Accept-Encoding"));
/// negotiate::vary_accept(&mut headers);
/// negotiate::vary_accept(&mut headers);
/// assert_eq!(headers[VARY], "Accept-Encoding, Accept");
/// ```
#[cfg_attr(docsrs, doc(cfg(feature = "http")))]
pub fn vary_accept(headers: &mut HeaderMap) {
    let mut lines = 0;
    for value in headers.get_all(VARY) {
        lines += 1;
        let listed = value.as_bytes().split(|&b| b == b',').any(|item| {
            let item = item.trim_ascii();
            item == b"*" || item.eq_ignore_ascii_case(b"accept")
        });
        if listed {
            return;
        }
    }
    if lines == 0 {
        headers.insert(VARY, HeaderValue::from_static("Accept"));
        return;
    }
    let mut merged = Vec::new();
    for value in headers.get_all(VARY) {
        let value = value.as_bytes().trim_ascii();
        if !value.is_empty() {
            merged.extend_from_slice(value);
            merged.extend_from_slice(b", ");
        }
    }
    merged.extend_from_slice(b"Accept");
    // Made of valid header values joined by ", ": still valid.
    if let Ok(value) = HeaderValue::from_bytes(&merged) {
        headers.insert(VARY, value);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn merges_vary() {
        let cases: &[(&[&str], &str)] = &[
            (&[], "Accept"),
            (&["Accept"], "Accept"),
            (&["accept"], "accept"),
            (&["*"], "*"),
            (&["Origin"], "Origin, Accept"),
            (&["Origin, ACCEPT"], "Origin, ACCEPT"),
            (
                &["Origin", "Accept-Encoding"],
                "Origin, Accept-Encoding, Accept",
            ),
            (&["Origin", "accept"], "Origin|accept"),
            (&["Accept-Language"], "Accept-Language, Accept"),
            (&[""], "Accept"),
        ];
        for (existing, expected) in cases {
            let mut headers = HeaderMap::new();
            for value in *existing {
                headers.append(VARY, HeaderValue::from_str(value).unwrap());
            }
            vary_accept(&mut headers);
            let got: Vec<&str> = headers
                .get_all(VARY)
                .iter()
                .map(|v| v.to_str().unwrap())
                .collect();
            assert_eq!(got.join("|"), *expected, "{existing:?}");
        }
    }
}

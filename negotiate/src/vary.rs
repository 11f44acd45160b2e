//! `Vary: Accept` (feature `http`): every answer that depends on the
//! request's `Accept`, negotiated or refused, says so to caches.

use http::header::{Entry, HeaderMap, HeaderValue, VARY};

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
    vary_on(headers, "Accept");
}

/// Adds `field` to a response's `Vary`, as [`vary_accept`] adds `Accept`.
pub(crate) fn vary_on(headers: &mut HeaderMap, field: &'static str) {
    // A response without `Vary` (the common case) gets `field` as it is.
    // (A lookup and an insert cost less than the entry API's vacant
    // insert.)
    if !headers.contains_key(VARY) {
        headers.insert(VARY, HeaderValue::from_static(field));
        return;
    }
    let Entry::Occupied(mut entry) = headers.entry(VARY) else {
        return;
    };
    for value in entry.iter() {
        let listed = value.as_bytes().split(|&b| b == b',').any(|item| {
            let item = item.trim_ascii();
            item == b"*" || item.eq_ignore_ascii_case(field.as_bytes())
        });
        if listed {
            return;
        }
    }
    let mut merged = Vec::new();
    for value in entry.iter() {
        let value = value.as_bytes().trim_ascii();
        if !value.is_empty() {
            merged.extend_from_slice(value);
            merged.extend_from_slice(b", ");
        }
    }
    merged.extend_from_slice(field.as_bytes());
    // Made of valid header values joined by ", ": still valid.
    if let Ok(value) = HeaderValue::from_bytes(&merged) {
        entry.insert(value);
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

    #[test]
    fn adds_user_agent_beside_accept() {
        let cases: &[(&[&str], &str)] = &[
            (&[], "Accept, User-Agent"),
            (&["Accept"], "Accept, User-Agent"),
            (&["accept, user-agent"], "accept, user-agent"),
            (&["*"], "*"),
            (&["Origin"], "Origin, Accept, User-Agent"),
        ];
        for (existing, expected) in cases {
            let mut headers = HeaderMap::new();
            for value in *existing {
                headers.append(VARY, HeaderValue::from_str(value).unwrap());
            }
            vary_on(&mut headers, "Accept");
            vary_on(&mut headers, "User-Agent");
            assert_eq!(headers[VARY], *expected, "{existing:?}");
        }
    }
}

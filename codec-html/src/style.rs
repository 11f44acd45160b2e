//! The page's built-in stylesheet and the `Content-Security-Policy` it is
//! designed for.
//!
//! The policy allows nothing but this one stylesheet, named by its SHA-256
//! hash: no script, no other style (no `style` attribute either), no
//! image, font, frame, form target or `<base>`. A hash is stricter than
//! `style-src 'unsafe-inline'`, which would let any `<style>` apply if one
//! ever slipped into a page; with the hash, even markup injected past the
//! escaping could neither run nor restyle anything. Links still work:
//! CSP does not govern navigation.

/// The SHA-256 of `style.css`, base64: one literal, so both policies are
/// built at compile time. `tests::hash_is_the_stylesheets` recomputes it
/// and prints the new value when the stylesheet changes.
macro_rules! style_hash {
    () => {
        "xJst5A2jISxPd02P1SM/0bjj904CN/c/bMPUE6Mr970="
    };
}

/// The stylesheet, written whole in the page's `<style>` element (2.8 KB,
/// minified by hand: it is in every page).
pub(crate) const STYLESHEET: &str = include_str!("style.css");

/// The `Content-Security-Policy` header value the page is designed for:
/// send it with every HTML response.
///
/// ```text
/// default-src 'none'; style-src 'sha256-…'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'
/// ```
///
/// The page also carries the same policy, less `frame-ancestors` (which a
/// `<meta>` element cannot set), in a `<meta http-equiv>` element, so a
/// page served without the header, or saved to a file, is just as locked
/// down; the header adds that no other site may frame it.
///
/// ```
/// let policy = codec_html::CONTENT_SECURITY_POLICY;
/// assert!(policy.starts_with("default-src 'none'; style-src 'sha256-"));
/// assert!(policy.ends_with("; frame-ancestors 'none'"));
/// ```
pub const CONTENT_SECURITY_POLICY: &str = concat!(
    "default-src 'none'; style-src 'sha256-",
    style_hash!(),
    "'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
);

/// The policy of the page's `<meta http-equiv>` element.
pub(crate) const META_POLICY: &str = concat!(
    "default-src 'none'; style-src 'sha256-",
    style_hash!(),
    "'; base-uri 'none'; form-action 'none'"
);

#[cfg(test)]
mod tests {
    use base64::Engine as _;
    use sha2::{Digest, Sha256};

    use super::*;

    #[test]
    fn hash_is_the_stylesheets() {
        let hash = base64::engine::general_purpose::STANDARD.encode(Sha256::digest(STYLESHEET));
        assert_eq!(
            hash,
            style_hash!(),
            "style.css changed: put its new hash in style_hash!"
        );
    }

    /// Nothing in the stylesheet can end its element or load anything.
    #[test]
    fn stylesheet_is_self_contained() {
        let lower = STYLESHEET.to_ascii_lowercase();
        for needle in ["</", "url(", "@import", "expression("] {
            assert!(!lower.contains(needle), "style.css holds {needle:?}");
        }
        assert!(CONTENT_SECURITY_POLICY.starts_with(META_POLICY));
    }
}

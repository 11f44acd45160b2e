//! Byte and token counts (o200k_base, the encoding of current OpenAI
//! models) of a rendering.

use codec_core::{TokenCounter, tokens::O200k};

/// The o200k_base token count of `bytes` (read as UTF-8, lossily). The
/// vocabulary loads on the first call in the process.
pub(crate) fn count(bytes: &[u8]) -> usize {
    O200k::new().count(&String::from_utf8_lossy(bytes))
}

/// A size: bytes and tokens.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Size {
    pub(crate) bytes: usize,
    pub(crate) tokens: usize,
}

impl Size {
    pub(crate) fn of(bytes: &[u8]) -> Size {
        Size {
            bytes: bytes.len(),
            tokens: count(bytes),
        }
    }
}

/// `-34.2%`: the change from `base` to `x`.
pub(crate) fn change(x: usize, base: usize) -> String {
    if base == 0 {
        return "n/a".into();
    }
    let pct = (x as f64 - base as f64) * 100.0 / base as f64;
    format!("{pct:+.1}%")
}

/// `12,345`.
pub(crate) fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_tokens() {
        assert_eq!(count(b""), 0);
        // "hello" and " world": two o200k tokens.
        assert_eq!(count(b"hello world"), 2);
    }

    #[test]
    fn formats() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(1234567), "1,234,567");
        assert_eq!(change(50, 100), "-50.0%");
        assert_eq!(change(150, 100), "+50.0%");
    }
}

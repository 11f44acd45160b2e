//! [`Quality`]: a client's `q` weight, exact in thousandths, with a place for
//! malformed weights below every valid one.

use std::fmt;

/// How much a client wants a media type: the `q` weight of the most
/// specific `Accept` range that matched it (RFC 9110 §12.4.2).
///
/// Valid weights are stored exactly, in thousandths (`q=0.333` is 333, not
/// a float). A malformed weight is kept as its own value,
/// [`Quality::MALFORMED`], which orders below every valid non-zero weight
/// and above zero: the client did list the type, so it stays acceptable,
/// but it can never outrank a type given a valid weight, and it is never
/// read as `1`. What each form of `q=` is read as:
///
/// | `q=` | read as | why |
/// |---|---|---|
/// | `0`, `0.`, `0.5`, `0.333`, `1`, `1.`, `1.000` | exactly that | RFC 9110's `qvalue` |
/// | `0.0000` (more zeros than three) | 0 | still plainly "not acceptable" |
/// | `0.0001`, `0.9999`, `1.0000` (more than three decimals) | malformed | truncating could turn `0.0001` into an exclusion, rounding `0.9999` into 1 |
/// | `1.5`, `2`, `10` (above 1) | malformed | never outranks a valid weight |
/// | `.5`, `-1`, `+1`, `1e0`, `abc`, `00`, `inf` | malformed | |
/// | `"0.5"` (quoted), `q=` (empty), `0.5@` | malformed | the element still counts |
///
/// A malformed weight keeps its range: dropping the range instead would
/// let a wildcard's weight apply (`text/markdown;q=2, */*` would give
/// markdown 1 through `*/*`). Only a second `q` on one range is ignored
/// (with every parameter after the first `q`).
///
/// Ordering follows preference:
///
/// ```
/// use negotiate::Quality;
///
/// let half = Quality::from_thousandths(500).unwrap();
/// assert!(Quality::ZERO < Quality::MALFORMED);
/// assert!(Quality::MALFORMED < Quality::from_thousandths(1).unwrap());
/// assert!(half < Quality::ONE);
/// assert_eq!(half.to_string(), "0.5");
/// assert!(!Quality::ZERO.is_acceptable());
/// assert!(Quality::MALFORMED.is_acceptable());
/// ```
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Quality(
    // 0: q=0 (not acceptable); 1: malformed; 2..=1001: 0.001..=1.000.
    u16,
);

impl Quality {
    /// `q=0`: not acceptable.
    pub const ZERO: Quality = Quality(0);
    /// A malformed weight: acceptable, below every valid non-zero weight.
    pub const MALFORMED: Quality = Quality(1);
    /// `q=1`, the weight of a range without `q`.
    pub const ONE: Quality = Quality(1001);

    /// The quality of `thousandths / 1000`; `None` above 1000.
    pub const fn from_thousandths(thousandths: u16) -> Option<Quality> {
        if thousandths == 0 {
            Some(Quality::ZERO)
        } else if thousandths <= 1000 {
            Some(Quality(thousandths + 1))
        } else {
            None
        }
    }

    /// The weight in thousandths (`0..=1000`); `None` for
    /// [`Quality::MALFORMED`].
    pub const fn thousandths(self) -> Option<u16> {
        match self.0 {
            0 => Some(0),
            1 => None,
            n => Some(n - 1),
        }
    }

    /// Whether a type of this quality may be served (anything but `q=0`).
    pub const fn is_acceptable(self) -> bool {
        self.0 != 0
    }

    /// Whether the weight was malformed.
    pub const fn is_malformed(self) -> bool {
        self.0 == 1
    }

    /// Reads the value of a `q` parameter (the bytes after `q=`).
    ///
    /// Accepts RFC 9110's `qvalue` exactly: `0`, `0.`, up to three
    /// decimals, `1`, `1.000`. Also reads `0.0000…` (any number of zeros)
    /// as zero, because the client plainly meant "not acceptable". Every
    /// other form is [`Quality::MALFORMED`]: more than three decimals,
    /// above 1, signs, exponents, a leading dot, quotes, an empty value.
    pub(crate) fn parse(value: &[u8]) -> Quality {
        match value {
            [b'0'] | [b'0', b'.'] => Quality::ZERO,
            [b'0', b'.', digits @ ..] if digits.iter().all(u8::is_ascii_digit) => {
                if digits.len() <= 3 {
                    let mut thousandths = 0u16;
                    for i in 0..3 {
                        let digit = digits.get(i).map_or(0, |d| u16::from(d - b'0'));
                        thousandths = thousandths * 10 + digit;
                    }
                    Quality::from_thousandths(thousandths).unwrap_or(Quality::MALFORMED)
                } else if digits.iter().all(|&d| d == b'0') {
                    Quality::ZERO
                } else {
                    // More than three decimals: not a qvalue. Truncating
                    // could turn `0.0001` into an exclusion, rounding could
                    // turn `0.9999` into 1; both are ruled out.
                    Quality::MALFORMED
                }
            }
            [b'1'] | [b'1', b'.'] => Quality::ONE,
            [b'1', b'.', zeros @ ..] if zeros.len() <= 3 && zeros.iter().all(|&d| d == b'0') => {
                Quality::ONE
            }
            _ => Quality::MALFORMED,
        }
    }
}

impl Default for Quality {
    /// [`Quality::ONE`], the weight of a range without `q`.
    fn default() -> Quality {
        Quality::ONE
    }
}

impl fmt::Display for Quality {
    /// `q` syntax: `1`, `0.5`, `0.001`, `0`; `malformed` for
    /// [`Quality::MALFORMED`].
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.thousandths() {
            None => f.write_str("malformed"),
            Some(0) => f.write_str("0"),
            Some(1000) => f.write_str("1"),
            Some(t) => {
                let mut digits = [b'0', b'0', b'0'];
                digits[0] += (t / 100) as u8;
                digits[1] += (t / 10 % 10) as u8;
                digits[2] += (t % 10) as u8;
                let mut len = 3;
                while digits[len - 1] == b'0' {
                    len -= 1;
                }
                f.write_str("0.")?;
                // Only ASCII digits were written.
                f.write_str(std::str::from_utf8(&digits[..len]).map_err(|_| fmt::Error)?)
            }
        }
    }
}

impl fmt::Debug for Quality {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Quality({self})")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(t: u16) -> Quality {
        Quality::from_thousandths(t).unwrap()
    }

    #[test]
    fn parses_every_form() {
        let cases: &[(&str, Quality)] = &[
            // Valid qvalues, exact.
            ("0", Quality::ZERO),
            ("0.", Quality::ZERO),
            ("0.0", Quality::ZERO),
            ("0.000", Quality::ZERO),
            ("0.5", q(500)),
            ("0.05", q(50)),
            ("0.001", q(1)),
            ("0.333", q(333)),
            ("0.999", q(999)),
            ("1", Quality::ONE),
            ("1.", Quality::ONE),
            ("1.0", Quality::ONE),
            ("1.000", Quality::ONE),
            // Zero however written stays an exclusion.
            ("0.0000", Quality::ZERO),
            ("0.00000000", Quality::ZERO),
            // Everything else is malformed: never 1, never 0.
            ("0.0001", Quality::MALFORMED),
            ("0.9999", Quality::MALFORMED),
            ("0.1234", Quality::MALFORMED),
            ("1.0000", Quality::MALFORMED),
            ("1.001", Quality::MALFORMED),
            ("1.5", Quality::MALFORMED),
            ("2", Quality::MALFORMED),
            ("10", Quality::MALFORMED),
            ("00", Quality::MALFORMED),
            (".5", Quality::MALFORMED),
            ("-0", Quality::MALFORMED),
            ("-1", Quality::MALFORMED),
            ("+1", Quality::MALFORMED),
            ("1e0", Quality::MALFORMED),
            ("0.5a", Quality::MALFORMED),
            ("abc", Quality::MALFORMED),
            ("", Quality::MALFORMED),
            ("0,5", Quality::MALFORMED),
            ("\"0.5\"", Quality::MALFORMED),
            ("inf", Quality::MALFORMED),
            ("NaN", Quality::MALFORMED),
        ];
        for (input, expected) in cases {
            assert_eq!(Quality::parse(input.as_bytes()), *expected, "q={input}");
        }
    }

    #[test]
    fn orders_by_preference() {
        let ordered = [
            Quality::ZERO,
            Quality::MALFORMED,
            q(1),
            q(2),
            q(500),
            q(999),
            Quality::ONE,
        ];
        for pair in ordered.windows(2) {
            assert!(pair[0] < pair[1], "{:?} < {:?}", pair[0], pair[1]);
        }
        assert_eq!(q(1000), Quality::ONE);
        assert_eq!(Quality::from_thousandths(1001), None);
    }

    #[test]
    fn displays_in_q_syntax_and_round_trips() {
        let cases: &[(Quality, &str)] = &[
            (Quality::ZERO, "0"),
            (Quality::ONE, "1"),
            (q(500), "0.5"),
            (q(50), "0.05"),
            (q(1), "0.001"),
            (q(120), "0.12"),
            (q(999), "0.999"),
            (Quality::MALFORMED, "malformed"),
        ];
        for (quality, text) in cases {
            assert_eq!(quality.to_string(), *text);
        }
        for t in 0..=1000 {
            let quality = q(t);
            assert_eq!(Quality::parse(quality.to_string().as_bytes()), quality);
            assert_eq!(quality.thousandths(), Some(t));
        }
    }
}

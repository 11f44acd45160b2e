//! [`estimate_hundredths`]: the dense profile's cheap, deterministic
//! estimate of what a text costs in o200k tokens.
//!
//! It splits the text roughly as the tokenizer's pre-split does and
//! weighs each kind of piece, in hundredths of a token: a word 1.2 (plus
//! 1.0 per 8 letters), a group of up to 3 digits 1.9, a run of line feeds
//! 2.0, one punctuation character before a word 0.6 (a space before a
//! word is part of it: nothing), a longer punctuation run 0.25 per
//! character, anything else nothing. The weights are a least squares fit
//! to the real counts of the markdown and JSON of the benchmark datasets;
//! the test `estimate_agrees_with_o200k` in `dense.rs` checks them. The
//! dense profile's choice between markdown and JSON counts with the same
//! weights (`dense.rs`, `Cost`).

const PUNCT: u8 = 0;
const LETTER: u8 = 1;
const DIGIT: u8 = 2;
const NEWLINE: u8 = 3;

/// The estimate's byte classes: ASCII letters and every non-ASCII byte are
/// letters, line feeds their own class, everything else (spaces included)
/// punctuation.
static CLASS: [u8; 256] = {
    let mut table = [PUNCT; 256];
    let mut b = 0;
    while b < 256 {
        let byte = b as u8;
        table[b] = if byte.is_ascii_alphabetic() || byte >= 0x80 {
            LETTER
        } else if byte.is_ascii_digit() {
            DIGIT
        } else if byte == b'\n' {
            NEWLINE
        } else {
            PUNCT
        };
        b += 1;
    }
    table
};

/// The estimate of `text`, in hundredths of a token: the sum of its runs
/// of one class, each weighed by its class and length (and a one-byte
/// punctuation run by what follows it).
pub(super) fn estimate_hundredths(text: &[u8]) -> usize {
    let class = |b: u8| CLASS[usize::from(b)];
    let mut hundredths = 0;
    let mut i = 0;
    while i < text.len() {
        let (start, run) = (i, class(text[i]));
        while i < text.len() && class(text[i]) == run {
            i += 1;
        }
        let len = i - start;
        let letter_follows = text.get(i).is_some_and(|&b| class(b) == LETTER);
        hundredths += match run {
            LETTER => 120 + 100 * (len / 8),
            DIGIT => 190 * len.div_ceil(3),
            NEWLINE => 200,
            _ if len > 1 => 25 * len,
            // A space before a word is part of the word's token.
            _ if letter_follows && text[start] != b' ' => 60,
            _ => 0,
        };
    }
    hundredths
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weighs_each_kind_of_piece() {
        let cases: &[(&str, usize)] = &[
            ("", 0),
            ("word", 120),
            ("abcdefghijklmnop", 320),
            ("1", 190),
            ("1234", 380),
            ("\n\n\n", 200),
            ("a b", 240),
            ("a, b", 290),
            ("-a", 180),
            (" 1", 190),
            ("|a|", 180),
            ("é", 120),
            ("1.5e-3", 690),
        ];
        for (text, expected) in cases {
            assert_eq!(estimate_hundredths(text.as_bytes()), *expected, "{text:?}");
        }
    }
}

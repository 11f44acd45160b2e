//! [`Estimate`]: the dense profile's cheap, deterministic estimate of what
//! a text costs in o200k tokens, fed a piece at a time.
//!
//! It splits the text roughly as the tokenizer's pre-split does and
//! weighs each kind of piece, in hundredths of a token: a word 1.2 (plus
//! 1.0 per 8 letters), a group of up to 3 digits 1.9, a run of line feeds
//! 2.0, one punctuation character before a word 0.6 (a space before a
//! word is part of it: nothing), a longer punctuation run 0.25 per
//! character, anything else nothing. The weights are a least squares fit
//! to the real counts of the markdown and JSON of the 22 choices the eight
//! benchmark datasets make (each within about 10%, and the markdown's and
//! the JSON's errors go the same way: all 22 choices agree with the real
//! counts); the test `estimate_agrees_with_o200k` in `dense.rs` checks it.
//!
//! It counts in hundredths of a token, so that the estimates of pieces add
//! up. It is a state machine over the bytes, so a text fed in pieces
//! costs exactly what it costs whole: the dense profile estimates a
//! subtree's JSON without writing it, feeding its strings where they are.

/// The estimate of a text fed to it piece by piece ([`Estimate::feed`]);
/// [`Estimate::finish`] gives the hundredths of a token of the whole.
#[derive(Debug, Clone, Copy)]
pub(super) struct Estimate {
    hundredths: usize,
    /// The class of the open run of bytes, when `len > 0`.
    class: u8,
    /// The open run's length; 0 before the first byte.
    len: usize,
    /// The open run is a single space: free when a letter follows.
    space: bool,
}

impl Estimate {
    pub(super) fn new() -> Estimate {
        Estimate {
            hundredths: 0,
            class: PUNCT,
            len: 0,
            space: false,
        }
    }

    /// The text continues with `text`.
    #[inline]
    pub(super) fn feed(&mut self, text: &[u8]) {
        let Some((&first, rest)) = text.split_first() else {
            return;
        };
        // The open run as locals, written back once.
        let (mut class, mut len, mut space) = (self.class, self.len, self.space);
        let mut hundredths = self.hundredths;
        let mut next = CLASS[usize::from(first)];
        if len == 0 || next != class {
            if len > 0 {
                hundredths += run_cost(class, len, space, next == LETTER);
            }
            class = next;
            len = 0;
            space = first == b' ';
        }
        len += 1;
        for &byte in rest {
            next = CLASS[usize::from(byte)];
            if next == class {
                len += 1;
                continue;
            }
            hundredths += run_cost(class, len, space, next == LETTER);
            class = next;
            len = 1;
            space = byte == b' ';
        }
        (self.class, self.len, self.space, self.hundredths) = (class, len, space, hundredths);
    }

    /// The text continues with one byte.
    #[inline]
    pub(super) fn feed_byte(&mut self, byte: u8) {
        let class = CLASS[usize::from(byte)];
        if self.len > 0 && class == self.class {
            self.len += 1;
            return;
        }
        if self.len > 0 {
            self.close(class == LETTER);
        }
        self.class = class;
        self.len = 1;
        self.space = byte == b' ';
    }

    /// The text continues with `word`, which [`Word::new`] measured: its
    /// runs cost what they did there, and the run open before it closes
    /// as it would before the word's first byte.
    #[inline]
    pub(super) fn feed_word(&mut self, word: &Word, text: &[u8]) {
        if self.len > 0 && self.class == word.first {
            // The word's first run would extend the open one.
            self.feed(text);
            return;
        }
        if self.len > 0 {
            self.close(word.first == LETTER);
        }
        self.hundredths += word.hundredths;
        // Its last run stays open: what follows may extend it.
        self.class = word.last;
        self.len = word.last_len;
        self.space = false;
    }

    /// The text continues with a word that is left out: text whose first
    /// and last bytes are ASCII letters or digits (`first` its first
    /// byte), after a run of punctuation or a line feed and before one.
    /// The run open before it closes as it would before the word, and the
    /// word itself counts nothing: what it costs there is what it costs
    /// alone ([`Word::alone`]), whatever is around it, so a caller that
    /// leaves the same word out of another estimate (the same text
    /// between punctuation) compares the two as if both counted it.
    #[inline]
    pub(super) fn skip_word(&mut self, first: u8) {
        let class = CLASS[usize::from(first)];
        debug_assert!(matches!(class, LETTER | DIGIT), "{first}");
        debug_assert!(
            self.len == 0 || matches!(self.class, PUNCT | NEWLINE),
            "a word after a run it would extend"
        );
        if self.len > 0 {
            self.close(class == LETTER);
        }
    }

    /// The text continues with one byte, then a word that is left out
    /// ([`Estimate::skip_word`]): mostly the pipe between two cells after
    /// a word left out, which no run is open before, so that the pipe is
    /// a run of its own, closed by the word.
    #[inline]
    pub(super) fn skip_word_after(&mut self, byte: u8, first: u8) {
        if self.len == 0 && CLASS[usize::from(byte)] == PUNCT && byte != b' ' {
            let letter = CLASS[usize::from(first)] == LETTER;
            self.hundredths += run_cost(PUNCT, 1, false, letter);
            return;
        }
        self.feed_byte(byte);
        self.skip_word(first);
    }

    /// The text continues with the text `measure` measured: it costs
    /// what feeding its bytes would.
    #[inline]
    pub(super) fn feed_measure(&mut self, measure: &Measure) {
        if self.len > 0 && self.class == measure.first {
            // Its first run extends the open one.
            self.len += measure.first_len;
        } else {
            if self.len > 0 {
                self.close(measure.first == LETTER);
            }
            self.class = measure.first;
            self.len = measure.first_len;
            self.space = measure.first_space;
        }
        if let Some(rest) = &measure.rest {
            self.close(rest.letter);
            self.hundredths += rest.middle;
            self.class = rest.last;
            self.len = rest.last_len;
            self.space = rest.last_space;
        }
    }

    /// The hundredths of a token of everything fed.
    pub(super) fn finish(mut self) -> usize {
        if self.len > 0 {
            self.close(false);
        }
        self.hundredths
    }

    /// Closes the open run; `letter` when a letter follows it.
    #[inline]
    fn close(&mut self, letter: bool) {
        self.hundredths += run_cost(self.class, self.len, self.space, letter);
        self.len = 0;
    }
}

/// What a run of `len` bytes of `class` costs; `space` when it is one
/// space, `letter` when a letter follows it.
#[inline]
fn run_cost(class: u8, len: usize, space: bool, letter: bool) -> usize {
    match class {
        LETTER => 120 + 100 * (len / 8),
        DIGIT => 190 * len.div_ceil(3),
        NEWLINE => 200,
        _ if len > 1 => 25 * len,
        // A space before a word is part of the word's token.
        _ if letter && !space => 60,
        _ => 0,
    }
}

/// Any text measured once to be fed after other text
/// ([`Estimate::feed_measure`]) and to be estimated alone
/// ([`Measure::alone`]): a JSON cell of the dense profile, whose JSON is
/// both the cell's markdown and its part of the row's JSON. Its first run
/// may merge with the run open before it, and what that run costs
/// depends on the run after it, so both are kept apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Measure {
    /// Its first run: class, length, and whether it is one space.
    first: u8,
    first_len: usize,
    first_space: bool,
    /// The runs after the first, when there are any.
    rest: Option<Rest>,
    /// What the whole text costs alone.
    alone: usize,
}

/// The runs of a [`Measure`]d text after its first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Rest {
    /// Whether the second run is of letters (the first costs by it).
    letter: bool,
    /// What its runs from the second to the one before the last cost.
    middle: usize,
    /// Its last run, left open.
    last: u8,
    last_len: usize,
    last_space: bool,
}

impl Measure {
    /// `text`'s measure, in one pass; `None` when it is empty.
    pub(super) fn new(text: &[u8]) -> Option<Measure> {
        let first = CLASS[usize::from(*text.first()?)];
        let first_len = text
            .iter()
            .take_while(|&&b| CLASS[usize::from(b)] == first)
            .count();
        let first_space = text[0] == b' ';
        let Some(&second) = text.get(first_len) else {
            return Some(Measure {
                first,
                first_len,
                first_space,
                rest: None,
                alone: run_cost(first, first_len, first_space, false),
            });
        };
        let letter = CLASS[usize::from(second)] == LETTER;
        let mut after = Estimate::new();
        after.feed(&text[first_len..]);
        let rest = Rest {
            letter,
            middle: after.hundredths,
            last: after.class,
            last_len: after.len,
            last_space: after.space,
        };
        Some(Measure {
            first,
            first_len,
            first_space,
            rest: Some(rest),
            alone: run_cost(first, first_len, first_space, letter) + after.finish(),
        })
    }

    /// What the text costs alone: [`estimate_hundredths`] of it.
    pub(super) fn alone(&self) -> usize {
        self.alone
    }
}

/// A text that starts and ends with a word or digit byte, measured once
/// to be fed many times ([`Estimate::feed_word`]): the JSON keys of a
/// table's rows, the same on every row. Feeding it costs what feeding its
/// bytes would.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Word {
    /// The class of its first byte.
    first: u8,
    /// What its runs but the last cost.
    hundredths: usize,
    /// Its last run.
    last: u8,
    last_len: usize,
}

impl Word {
    /// `text`'s measure, or `None` when it is empty or starts or ends with
    /// punctuation or a line feed (its edge runs would merge with what is
    /// around it, or cost by what follows).
    pub(super) fn new(text: &[u8]) -> Option<Word> {
        let first = CLASS[usize::from(*text.first()?)];
        let last = CLASS[usize::from(*text.last()?)];
        if matches!(first, PUNCT | NEWLINE) || matches!(last, PUNCT | NEWLINE) {
            return None;
        }
        let mut estimate = Estimate::new();
        estimate.feed(text);
        Some(Word {
            first,
            hundredths: estimate.hundredths,
            last: estimate.class,
            last_len: estimate.len,
        })
    }
}

impl Word {
    /// [`Word::new`] of `text`, in the same pass as a look at each of its
    /// bytes: `Err` with the place of the first byte that `table` (made
    /// by [`classes_stopping_at`]) maps to [`STOP`]. A caller that must
    /// check every byte of a text before measuring it (the dense
    /// profile's table cells) reads it once instead of twice; a byte of
    /// the same class as the one before costs no more than in
    /// [`Estimate::feed`].
    #[inline]
    pub(super) fn measure(text: &[u8], table: &[u8; 256]) -> Result<Option<Word>, usize> {
        let Some((&first_byte, rest)) = text.split_first() else {
            return Ok(None);
        };
        let first = table[usize::from(first_byte)];
        if first == STOP {
            return Err(0);
        }
        // Estimate::feed's loop, from a new estimate.
        let (mut class, mut len, mut space) = (first, 1, first_byte == b' ');
        let mut hundredths = 0;
        for (i, &byte) in rest.iter().enumerate() {
            let next = table[usize::from(byte)];
            if next == class {
                len += 1;
                continue;
            }
            if next == STOP {
                return Err(i + 1);
            }
            hundredths += run_cost(class, len, space, next == LETTER);
            class = next;
            len = 1;
            space = byte == b' ';
        }
        if matches!(first, PUNCT | NEWLINE) || matches!(class, PUNCT | NEWLINE) {
            return Ok(None);
        }
        Ok(Some(Word {
            first,
            hundredths,
            last: class,
            last_len: len,
        }))
    }

    /// What the word costs between two punctuation bytes (between quotes,
    /// or between pipes): its runs, the last one closed, whatever is
    /// around it.
    pub(super) fn alone(&self) -> usize {
        self.hundredths + run_cost(self.last, self.last_len, false, false)
    }
}

/// A text of three runs or more seen by its two edge runs alone: its
/// middle runs (from the second to the one before the last) cost the
/// same wherever the text is, since each ends inside it and costs by the
/// run after it, also inside. A text written as it is in two places (a
/// raw table cell and its JSON string) can then be estimated in both
/// without its middle ([`Estimate::feed_edges`], [`Edges::alone`]), and
/// compared as if both counted it: only its edges are read, not every
/// byte.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Edges {
    /// The length of its first run.
    first_len: usize,
    /// Where its last run starts.
    last_start: usize,
}

impl Edges {
    /// `text`'s edges, or `None` when it has fewer than three runs.
    pub(super) fn of(text: &[u8]) -> Option<Edges> {
        let class = |byte: &u8| CLASS[usize::from(*byte)];
        let first = class(text.first()?);
        let last = class(text.last()?);
        let first_len = text.iter().position(|byte| class(byte) != first)?;
        let last_start = text.iter().rposition(|byte| class(byte) != last)? + 1;
        (first_len < last_start).then_some(Edges {
            first_len,
            last_start,
        })
    }

    /// What the edge runs of `text` (the text they were found in) cost
    /// alone, as [`estimate_hundredths`] of the text counts them: the
    /// whole text's estimate less its middle's.
    pub(super) fn alone(&self, text: &[u8]) -> usize {
        let (first, last) = (text[0], text[self.last_start]);
        let second = CLASS[usize::from(text[self.first_len])];
        run_cost(
            CLASS[usize::from(first)],
            self.first_len,
            first == b' ',
            second == LETTER,
        ) + run_cost(
            CLASS[usize::from(last)],
            text.len() - self.last_start,
            last == b' ',
            false,
        )
    }
}

impl Estimate {
    /// The text continues with `text`, whose [`Edges`] are `edges`, less
    /// its middle runs: its first run is fed (it may extend the open
    /// run), closed by the second's class, and its last run left open.
    #[inline]
    pub(super) fn feed_edges(&mut self, text: &[u8], edges: &Edges) {
        self.feed(&text[..edges.first_len]);
        self.close(CLASS[usize::from(text[edges.first_len])] == LETTER);
        let last = text[edges.last_start];
        self.class = CLASS[usize::from(last)];
        self.len = text.len() - edges.last_start;
        self.space = last == b' ';
    }
}

/// The estimate of a number's text alone. Most numbers are digits, with
/// perhaps a `-` before them and a `.` inside: their digit runs, since a
/// lone punctuation byte before a digit costs nothing ([`run_cost`]);
/// any other text (an exponent) as any text.
pub(super) fn number_hundredths(text: &[u8]) -> usize {
    if text.iter().all(u8::is_ascii_digit) {
        return run_cost(DIGIT, text.len(), false, false);
    }
    number_text_hundredths(text)
}

/// [`number_hundredths`] of a number that is not digits alone.
fn number_text_hundredths(text: &[u8]) -> usize {
    let unsigned = text.strip_prefix(b"-").unwrap_or(text);
    let (whole, fraction) = match unsigned.iter().position(|&b| b == b'.') {
        Some(point) => (&unsigned[..point], Some(&unsigned[point + 1..])),
        None => (unsigned, None),
    };
    let digits = |run: &[u8]| !run.is_empty() && run.iter().all(u8::is_ascii_digit);
    if digits(whole) && fraction.is_none_or(digits) {
        let fraction = fraction.map_or(0, |run| run_cost(DIGIT, run.len(), false, false));
        return run_cost(DIGIT, whole.len(), false, false) + fraction;
    }
    estimate_hundredths(text)
}

/// The estimate of `text` whole, in hundredths of a token.
pub(super) fn estimate_hundredths(text: &[u8]) -> usize {
    let mut estimate = Estimate::new();
    estimate.feed(text);
    estimate.finish()
}

const PUNCT: u8 = 0;
const LETTER: u8 = 1;
const DIGIT: u8 = 2;
const NEWLINE: u8 = 3;

/// The estimate's byte classes: ASCII letters and every non-ASCII byte are
/// letters, line feeds their own class, everything else (spaces included)
/// punctuation.
const fn classes() -> [u8; 256] {
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
}

static CLASS: [u8; 256] = classes();

/// What a table of [`classes_stopping_at`] gives the bytes that stop
/// [`Word::measure`]: no class.
pub(super) const STOP: u8 = 4;

/// The estimate's byte classes, but [`STOP`] for each byte `stop` marks.
pub(super) const fn classes_stopping_at(stop: [bool; 256]) -> [u8; 256] {
    let mut table = classes();
    let mut b = 0;
    while b < 256 {
        if stop[b] {
            table[b] = STOP;
        }
        b += 1;
    }
    table
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::write::escape::marked;

    /// The estimate as it was first written, over a whole text: the
    /// reference the state machine must match.
    fn reference(text: &[u8]) -> usize {
        let class = |b: u8| CLASS[usize::from(b)];
        let mut hundredths = 0;
        let mut i = 0;
        while i < text.len() {
            let start = i;
            i += 1;
            match class(text[start]) {
                LETTER => {
                    while i < text.len() && class(text[i]) == LETTER {
                        i += 1;
                    }
                    hundredths += 120 + 100 * ((i - start) / 8);
                }
                DIGIT => {
                    while i < text.len() && class(text[i]) == DIGIT {
                        i += 1;
                    }
                    hundredths += 190 * (i - start).div_ceil(3);
                }
                NEWLINE => {
                    while i < text.len() && text[i] == b'\n' {
                        i += 1;
                    }
                    hundredths += 200;
                }
                _ if text[start] == b' ' && text.get(i).is_some_and(|&b| class(b) == LETTER) => {}
                _ => {
                    while i < text.len() && class(text[i]) == PUNCT {
                        i += 1;
                    }
                    let n = i - start;
                    if n > 1 {
                        hundredths += 25 * n;
                    } else if text.get(i).is_some_and(|&b| class(b) == LETTER) {
                        hundredths += 60;
                    }
                }
            }
        }
        hundredths
    }

    #[test]
    fn numbers_cost_their_text() {
        for text in [
            "",
            "7",
            "123",
            "1234567",
            "-1",
            "1.5e-3",
            "0.25",
            "-0.5",
            "3959.77",
            "-12",
            "1.",
            ".5",
            "-",
            "-.",
            "1e5",
            "1E+07",
            "-0.0",
            "12.345678",
            "1..2",
            "--1",
            "1-2",
        ] {
            assert_eq!(
                number_hundredths(text.as_bytes()),
                reference(text.as_bytes()),
                "{text}"
            );
        }
    }

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
        ];
        for (text, expected) in cases {
            assert_eq!(estimate_hundredths(text.as_bytes()), *expected, "{text:?}");
            assert_eq!(reference(text.as_bytes()), *expected, "{text:?}");
        }
    }

    proptest::proptest! {
        /// Any text, cut into any pieces: the estimate of the whole, as
        /// the reference computes it.
        #[test]
        fn pieces_add_up_to_the_whole(
            text in "([a-z]{0,9}|[0-9]{0,5}|[ ,.:|*-]{0,3}|\n{0,2}|é){0,20}",
            cuts in proptest::collection::vec(0usize..200, 0..6),
        ) {
            let bytes = text.as_bytes();
            let mut cuts: Vec<usize> = cuts.into_iter().map(|c| c.min(bytes.len())).collect();
            cuts.sort_unstable();
            let mut estimate = Estimate::new();
            let mut at = 0;
            for cut in cuts {
                estimate.feed(&bytes[at..cut]);
                at = cut;
            }
            estimate.feed(&bytes[at..]);
            proptest::prop_assert_eq!(estimate.finish(), reference(bytes));
        }

        /// A measured text fed after any text and before any costs what
        /// its bytes cost there, and alone what it costs alone.
        #[test]
        fn a_measure_costs_its_bytes(
            before in "([a-z]{0,3}|[0-9]{0,3}|[ ,.|`\\[{-]{0,2}|\n?|é){0,3}",
            text in "([a-z]{0,4}|[0-9]{0,4}|[ ,.:\\[\\]{}\"-]{0,3}|\n?|é){1,6}",
            after in "([a-z]{0,3}|[0-9]{0,3}|[ ,.|`\\]}-]{0,2}|\n?){0,2}",
        ) {
            let Some(measure) = Measure::new(text.as_bytes()) else {
                proptest::prop_assert!(text.is_empty());
                return Ok(());
            };
            proptest::prop_assert_eq!(measure.alone(), reference(text.as_bytes()));
            let mut estimate = Estimate::new();
            estimate.feed(before.as_bytes());
            estimate.feed_measure(&measure);
            estimate.feed(after.as_bytes());
            let whole = format!("{before}{text}{after}");
            proptest::prop_assert_eq!(estimate.finish(), reference(whole.as_bytes()));
        }

        /// A number's text costs what the reference says, whatever its
        /// shape (sign, point, exponent, or none).
        #[test]
        fn numbers_of_any_shape_cost_their_text(
            text in "-?[0-9]{0,6}(\\.[0-9]{0,6})?([eE][+-]?[0-9]{1,3})?",
        ) {
            proptest::prop_assert_eq!(number_hundredths(text.as_bytes()), reference(text.as_bytes()));
        }

        /// A word between punctuation costs what it costs alone.
        #[test]
        fn a_word_alone_costs_its_runs(word in "[a-z0-9]([a-z0-9 .:é-]{0,8}[a-z0-9])?") {
            let measured = Word::new(word.as_bytes()).unwrap();
            let quoted = format!("\"{word}\"");
            proptest::prop_assert_eq!(measured.alone(), estimate_hundredths(word.as_bytes()));
            // The opening quote costs 0.6 before a letter, as it would
            // before any letter; the closing one nothing.
            let quote = if word.as_bytes()[0].is_ascii_digit() { 0 } else { 60 };
            proptest::prop_assert_eq!(
                estimate_hundredths(quoted.as_bytes()),
                quote + measured.alone()
            );
        }

        /// A measure in one pass is the word's measure, or stops at a
        /// byte the table marks.
        #[test]
        fn measuring_in_one_pass_is_measuring(
            text in "([a-z]{0,9}|[0-9]{0,5}|[ ,.:|*-]{0,3}|\n{0,2}|é){0,8}",
        ) {
            let stops = classes_stopping_at(marked([false; 256], b"*|"));
            let bytes = text.as_bytes();
            let expected = match bytes.iter().position(|b| b"*|".contains(b)) {
                Some(at) => Err(at),
                None => Ok(Word::new(bytes)),
            };
            proptest::prop_assert_eq!(Word::measure(bytes, &stops), expected);
            proptest::prop_assert_eq!(Word::measure(bytes, &CLASS), Ok(Word::new(bytes)));
        }

        /// Words fed whole cost what their bytes cost.
        #[test]
        fn words_cost_their_bytes(
            pieces in proptest::collection::vec("[a-z]{1,9}|[0-9]{1,5}|é|[a-z0-9 .:-]{0,6}[a-z0-9]|[ ,.:|\n-]{1,3}", 0..12),
        ) {
            let mut estimate = Estimate::new();
            for piece in &pieces {
                match Word::new(piece.as_bytes()) {
                    Some(word) => estimate.feed_word(&word, piece.as_bytes()),
                    None => estimate.feed(piece.as_bytes()),
                }
            }
            proptest::prop_assert_eq!(estimate.finish(), reference(pieces.concat().as_bytes()));
        }

        /// A byte (punctuation or a line feed, as before any word left
        /// out) and a word left out cost what the byte fed and the word
        /// left out do, whatever came before (a run open or closed).
        #[test]
        fn a_byte_before_a_word_left_out_is_fed_as_one(
            before in "([a-z0-9 .|\n]{0,4}[ .|\n])?",
            closed: bool,
            byte in proptest::sample::select(b"| .,\n-".to_vec()),
            first in proptest::sample::select(b"a0".to_vec()),
        ) {
            let mut estimate = Estimate::new();
            estimate.feed(before.as_bytes());
            if closed {
                estimate.skip_word(b'a');
            }
            let mut expected = estimate;
            expected.feed_byte(byte);
            expected.skip_word(first);
            estimate.skip_word_after(byte, first);
            proptest::prop_assert_eq!(estimate.finish(), expected.finish());
        }

        /// A text of three runs or more fed by its edges costs what it
        /// costs fed whole less its middle runs, whatever is around it
        /// (a run before it that its first extends, one after it that its
        /// last does); its edges alone cost what it costs alone less the
        /// same middle. Fails if the first run is closed without looking
        /// at the second (`a|.b.c`: the `.` before a letter).
        #[test]
        fn edges_leave_out_a_middle_that_costs_the_same_anywhere(
            before in "[a-z0-9 .|\n]{0,4}",
            text in "[a-z0-9 .,|\n-]{0,12}",
            after in "[a-z0-9 .|\n]{0,4}",
        ) {
            let bytes = text.as_bytes();
            let runs = bytes.windows(2).filter(|w| CLASS[usize::from(w[0])] != CLASS[usize::from(w[1])]).count()
                + usize::from(!bytes.is_empty());
            let Some(edges) = Edges::of(bytes) else {
                proptest::prop_assert!(runs < 3, "{:?}: {} runs", text, runs);
                return Ok(());
            };
            proptest::prop_assert!(runs >= 3);
            let middle = reference(bytes) - edges.alone(bytes);
            let mut estimate = Estimate::new();
            estimate.feed(before.as_bytes());
            estimate.feed_edges(bytes, &edges);
            estimate.feed(after.as_bytes());
            let whole = format!("{before}{text}{after}");
            proptest::prop_assert_eq!(estimate.finish() + middle, reference(whole.as_bytes()));
        }
    }
}

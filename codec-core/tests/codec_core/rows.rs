//! The row contract and its checks in the test kit: a codec's own row
//! encoder, the collecting fallback, and encoders that break the contract.

use std::panic::{AssertUnwindSafe, catch_unwind};

use codec_core::testkit::{CodecTester, uniform_rows};
use codec_core::{
    Codec, EncodeError, MediaType, Value, from_str,
    rows::{RowEncoder, RowsShape},
};

fn rows(json: &str) -> Vec<Value> {
    from_str(json).unwrap().as_array().unwrap().to_vec()
}

/// One line per row: its `id`. `Broken` says how its encoder misbehaves.
struct Ids {
    media_type: MediaType,
    encoder: Option<Broken>,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Broken {
    /// A correct encoder.
    Not,
    /// Writes a separator only when `out` is not empty: reads back what
    /// it wrote, which a server has sent and emptied.
    ReadsItsOutput,
    /// Writes every row at the end: not incremental.
    HoldsRows,
    /// Writes one id too many at the end.
    WrongEnd,
}

impl Ids {
    fn new(encoder: Option<Broken>) -> Ids {
        Ids {
            media_type: MediaType::from_static("text/plain"),
            encoder,
        }
    }
}

fn id(row: &Value) -> String {
    row.get("id")
        .and_then(Value::as_number)
        .map_or("?".to_owned(), |id| id.to_string())
}

impl Codec for Ids {
    fn format(&self) -> &str {
        "ids"
    }
    fn media_type(&self) -> &MediaType {
        &self.media_type
    }
    fn encode_value(&self, value: &Value, out: &mut Vec<u8>) -> Result<(), EncodeError> {
        let rows = match value {
            Value::Object(map) => map.values().next().unwrap_or(&Value::Null),
            other => other,
        };
        for row in rows.as_array().unwrap_or_default() {
            out.extend_from_slice(id(row).as_bytes());
            out.push(b'\n');
        }
        Ok(())
    }
    fn row_encoder(&self, _: &RowsShape) -> Option<Box<dyn RowEncoder>> {
        let broken = self.encoder?;
        Some(Box::new(IdRows {
            broken,
            held: String::new(),
        }))
    }
}

struct IdRows {
    broken: Broken,
    held: String,
}

impl RowEncoder for IdRows {
    fn row(&mut self, row: &Value, out: &mut Vec<u8>) -> Result<(), EncodeError> {
        let line = format!("{}\n", id(row));
        match self.broken {
            Broken::HoldsRows => self.held.push_str(&line),
            Broken::ReadsItsOutput if !out.is_empty() => {
                out.extend_from_slice(line.as_bytes());
            }
            Broken::ReadsItsOutput => out.extend_from_slice(line.trim_end().as_bytes()),
            Broken::Not | Broken::WrongEnd => out.extend_from_slice(line.as_bytes()),
        }
        Ok(())
    }
    fn finish(&mut self, out: &mut Vec<u8>) -> Result<(), EncodeError> {
        if self.broken == Broken::ReadsItsOutput && !out.is_empty() {
            out.push(b'\n');
        }
        out.extend_from_slice(self.held.as_bytes());
        if self.broken == Broken::WrongEnd {
            out.extend_from_slice(b"0\n");
        }
        Ok(())
    }
    fn fail(&mut self, out: &mut Vec<u8>, reason: &str) {
        out.extend_from_slice(format!("failed: {reason}\n").as_bytes());
    }
}

const UNIFORM: &str = r#"[{"id": 1}, {"id": 2}, {"id": 3}]"#;

#[test]
fn a_correct_encoder_and_the_fallback_pass() {
    for encoder in [Some(Broken::Not), None] {
        let codec = Ids::new(encoder);
        let tester = CodecTester::new(&codec);
        for shape in [RowsShape::array(), RowsShape::member("rows")] {
            let bytes = tester.check_rows("uniform", &shape, &rows(UNIFORM));
            assert_eq!(bytes, b"1\n2\n3\n");
            tester.check_rows("none", &shape, &[]);
            tester.check_rows("mixed", &shape, &rows(r#"[{"id": 1}, 2, {"x": [1]}]"#));
        }
    }
}

#[test]
fn encoders_that_break_the_contract_are_caught() {
    let cases: &[(Broken, &str, &str)] = &[
        (Broken::ReadsItsOutput, UNIFORM, "a buffer per row"),
        (Broken::HoldsRows, UNIFORM, "wrote nothing"),
        (Broken::WrongEnd, UNIFORM, "against the buffered encoding"),
        // Not uniform: the stream may differ from the buffered encoding.
        (
            Broken::HoldsRows,
            r#"[{"id": 1}, {"id": [2]}]"#,
            "wrote nothing",
        ),
    ];
    for (broken, json, message) in cases {
        let codec = Ids::new(Some(*broken));
        let tester = CodecTester::new(&codec);
        let rows = rows(json);
        let panic = catch_unwind(AssertUnwindSafe(|| {
            tester.check_rows("broken", &RowsShape::array(), &rows)
        }))
        .expect_err(&format!("{broken:?} passed"));
        let text = panic.downcast_ref::<String>().cloned().unwrap_or_default();
        assert!(text.contains(message), "{broken:?}: {text}");
    }
    // A wrong end of rows that are not uniform is the codec's business.
    let codec = Ids::new(Some(Broken::WrongEnd));
    let rows = rows(r#"[{"id": 1}, {"id": [2]}]"#);
    assert!(!uniform_rows(&rows));
    CodecTester::new(&codec).check_rows("not uniform", &RowsShape::array(), &rows);
}

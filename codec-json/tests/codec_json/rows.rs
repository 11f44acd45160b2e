//! A stream of rows through codec-json: the array written a row at a time,
//! the bytes of the buffered encoding for any rows.

use std::sync::Arc;

use codec_core::testkit::CodecTester;
use codec_core::{
    Codec, EncodeError, Value, from_str,
    rows::{RowWriter, RowsShape},
};
use codec_json::JsonCodec;
use proptest::prelude::*;

fn rows(json: &str) -> Vec<Value> {
    from_str(json).unwrap().as_array().unwrap().to_vec()
}

#[test]
fn streams_the_buffered_bytes() {
    let cases: &[(&str, &str)] = &[
        ("[]", "uniform, none"),
        (r#"[{"id": 1, "n": "a"}, {"id": 2, "n": "b"}]"#, "uniform"),
        (
            r#"[{"id": 1}, {"x": [1, {"y": null}]}, 3, "s\n", []]"#,
            "mixed",
        ),
        (
            r#"[{"z": 1.10, "a": 1e400}]"#,
            "exact numbers, source order",
        ),
    ];
    for codec in [JsonCodec::new(), JsonCodec::pretty()] {
        let tester = CodecTester::new(&codec);
        for (json, label) in cases {
            let rows = rows(json);
            for shape in [RowsShape::array(), RowsShape::member("rows")] {
                let streamed = tester.check_rows(label, &shape, &rows);
                let buffered = tester.check_value(label, &shape.document(rows.clone()));
                assert_eq!(
                    String::from_utf8(streamed).unwrap(),
                    String::from_utf8(buffered).unwrap(),
                    "{label} {shape:?}"
                );
            }
        }
    }
}

#[test]
fn writes_each_row_as_it_comes() {
    let codec: Arc<dyn Codec> = Arc::new(JsonCodec::pretty());
    let mut writer = RowWriter::new(codec, &RowsShape::member("orders"));
    assert!(writer.is_streaming());
    let mut out = Vec::new();
    writer
        .row(&from_str(r#"{"id": 1}"#).unwrap(), &mut out)
        .unwrap();
    assert_eq!(
        String::from_utf8(out.clone()).unwrap(),
        "{\n  \"orders\": [\n    {\n      \"id\": 1\n    }"
    );
    out.clear();
    writer.row_serialize(&[2, 3], &mut out).unwrap();
    assert_eq!(
        String::from_utf8(out.clone()).unwrap(),
        ",\n    [\n      2,\n      3\n    ]"
    );
    out.clear();
    writer.finish(&mut out).unwrap();
    assert_eq!(String::from_utf8(out).unwrap(), "\n  ]\n}");
}

/// A failed stream is left unterminated: the client's parser rejects it.
#[test]
fn a_failed_stream_is_not_json() {
    let codec: Arc<dyn Codec> = Arc::new(JsonCodec::new());
    let mut writer = RowWriter::new(codec, &RowsShape::array());
    let mut out = Vec::new();
    writer.row(&Value::from(1), &mut out).unwrap();
    writer.fail(&mut out, "the database went away");
    assert_eq!(out, b"[1");
    assert!(serde_json::from_slice::<serde_json::Value>(&out).is_err());
}

/// The depth limit counts the array (and the member's object) around a
/// row, as for the whole document.
#[test]
fn rows_nest_within_the_limit_of_the_whole() {
    let deep = codec_core::testkit::nested(codec_core::value::DEFAULT_MAX_DEPTH - 1, false);
    let deeper = codec_core::testkit::nested(codec_core::value::DEFAULT_MAX_DEPTH, false);
    for (shape, row, ok) in [
        (RowsShape::array(), &deep, true),
        (RowsShape::array(), &deeper, false),
        (RowsShape::member("m"), &deep, false),
    ] {
        let codec: Arc<dyn Codec> = Arc::new(JsonCodec::new());
        let mut writer = RowWriter::new(Arc::clone(&codec), &shape);
        let result = writer.row(row, &mut Vec::new());
        let whole = codec.encode_value(&shape.document(vec![row.clone()]), &mut Vec::new());
        assert_eq!(result.is_ok(), ok, "{shape:?}");
        assert_eq!(whole.is_ok(), ok, "{shape:?}");
        if !ok {
            assert!(matches!(
                result,
                Err(EncodeError::DepthLimit { limit: 128 })
            ));
        }
    }
}

fn scalar() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        "[a-z\"\\\\\n\u{1}é😀 ]{0,6}".prop_map(Value::from),
    ]
}

fn row() -> impl Strategy<Value = Value> {
    scalar().prop_recursive(3, 16, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::vec(("[a-c]{1,2}", inner), 0..4)
                .prop_map(|members| Value::Object(members.into_iter().collect())),
        ]
    })
}

proptest! {
    #[test]
    fn any_rows_stream_to_the_buffered_bytes(
        rows in prop::collection::vec(row(), 0..6),
        pretty in any::<bool>(),
        member in any::<bool>(),
    ) {
        let codec = JsonCodec::builder().pretty(pretty).build();
        let shape = if member { RowsShape::member("k\"") } else { RowsShape::array() };
        let streamed = CodecTester::new(&codec).check_rows("random rows", &shape, &rows);
        let mut buffered = Vec::new();
        codec.encode_value(&shape.document(rows), &mut buffered).unwrap();
        prop_assert_eq!(streamed, buffered);
    }
}

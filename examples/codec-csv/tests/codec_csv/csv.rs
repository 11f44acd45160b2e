//! The example third-party codec, checked with codec-core's test kit.

use codec_core::testkit::CodecTester;
use codec_core::{EncodeError, from_str};
use codec_csv::CsvCodec;
use serde::Serialize;

#[derive(Serialize)]
struct Employee {
    id: u32,
    name: &'static str,
    salary: f64,
    active: bool,
    manager: Option<u32>,
}

#[test]
fn typed_rows_through_every_entry_point() {
    let codec = CsvCodec::new();
    let tester = CodecTester::new(&codec);
    let rows = [
        Employee {
            id: 1,
            name: "Ada",
            salary: 1e5,
            active: true,
            manager: None,
        },
        Employee {
            id: 2,
            name: "Lin, \"Bo\"",
            salary: 0.5,
            active: false,
            manager: Some(1),
        },
    ];
    let bytes = tester.check_serialize("employees", &rows);
    assert_eq!(
        String::from_utf8(bytes).unwrap(),
        "id,name,salary,active,manager\r\n1,Ada,100000.0,true,\r\n2,\"Lin, \"\"Bo\"\"\",0.5,false,1\r\n"
    );
}

#[test]
fn parsed_rows_keep_number_text_and_union_columns() {
    let codec = CsvCodec::new();
    let value = from_str(r#"[{"a":1.10,"b":"x\ny"},{"c":" pad ","a":null}]"#).unwrap();
    let bytes = CodecTester::new(&codec).check_value("union", &value);
    assert_eq!(
        String::from_utf8(bytes).unwrap(),
        "a,b,c\r\n1.10,\"x\ny\",\r\n,,\" pad \"\r\n"
    );
}

#[test]
fn what_csv_cannot_hold_is_an_error() {
    let codec = CsvCodec::new();
    let tester = CodecTester::new(&codec);
    for (label, json) in [
        ("scalar", "42"),
        ("nested", r#"[{"a":[1]}]"#),
        ("mixed", r#"[{"a":1},2]"#),
    ] {
        let err = tester.check_value_rejected(label, &from_str(json).unwrap());
        assert!(
            matches!(err, EncodeError::Unrepresentable { .. }),
            "{label}: {err}"
        );
    }
    tester.check_depth_limit();
}

//! Any Serialize to Value: the normalization every codec shares.

use std::collections::{BTreeMap, HashMap};

use codec_core::{Map, Number, ToValueError, Value, from_str, to_value};
use serde::Serialize;

fn keys(value: &Value) -> Vec<&str> {
    value.as_object().unwrap().keys().collect()
}

#[test]
fn struct_fields_keep_declaration_order_and_attributes() {
    #[derive(Serialize)]
    #[serde(rename_all = "camelCase")]
    struct Repo {
        zeta_name: &'static str,
        #[serde(rename = "ALPHA")]
        alpha: u8,
        #[serde(skip)]
        _hidden: u8,
        #[serde(skip_serializing_if = "Option::is_none")]
        missing: Option<u8>,
        present: Option<u8>,
    }
    let value = to_value(&Repo {
        zeta_name: "x",
        alpha: 1,
        _hidden: 2,
        missing: None,
        present: None,
    })
    .unwrap();
    assert_eq!(keys(&value), ["zetaName", "ALPHA", "present"]);
    assert_eq!(value["present"], Value::Null);
}

#[test]
fn maps_are_sorted_by_key_text() {
    let map: HashMap<String, u8> = ["delta", "alpha", "charlie", "bravo", "Zulu", "é"]
        .iter()
        .enumerate()
        .map(|(i, k)| (k.to_string(), i as u8))
        .collect();
    for _ in 0..5 {
        assert_eq!(
            keys(&to_value(&map).unwrap()),
            ["Zulu", "alpha", "bravo", "charlie", "delta", "é"]
        );
    }
}

#[test]
fn non_string_keys_are_stringified_like_serde_json() {
    #[derive(Serialize, PartialEq, Eq, PartialOrd, Ord)]
    enum Color {
        Red,
    }
    #[derive(Serialize, PartialEq, Eq, PartialOrd, Ord)]
    struct Id(u32);
    let cases: Vec<(Value, Vec<&str>)> = vec![
        (
            to_value(&BTreeMap::from([(2i64, ()), (-1, ())])).unwrap(),
            vec!["-1", "2"],
        ),
        (
            to_value(&BTreeMap::from([(true, ()), (false, ())])).unwrap(),
            vec!["false", "true"],
        ),
        (
            to_value(&BTreeMap::from([('b', ()), ('a', ())])).unwrap(),
            vec!["a", "b"],
        ),
        (
            to_value(&BTreeMap::from([(Color::Red, ())])).unwrap(),
            vec!["Red"],
        ),
        (to_value(&BTreeMap::from([(Id(7), ())])).unwrap(), vec!["7"]),
        (
            to_value(&BTreeMap::from([(u128::MAX, ())])).unwrap(),
            vec!["340282366920938463463374607431768211455"],
        ),
    ];
    for (value, expected) in cases {
        assert_eq!(keys(&value), expected);
    }
    struct FloatKeys(Vec<(f64, u8)>);
    impl Serialize for FloatKeys {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            s.collect_map(self.0.iter().map(|(k, v)| (k, v)))
        }
    }
    let float_keys = FloatKeys(vec![(0.5, 1), (1e21, 2)]);
    let serde_text = serde_json::to_string(&float_keys).unwrap();
    assert_eq!(serde_text, r#"{"0.5":1,"1e+21":2}"#);
    assert_eq!(keys(&to_value(&float_keys).unwrap()), ["0.5", "1e+21"]);
    assert_eq!(
        to_value(&FloatKeys(vec![(f64::NAN, 1)])),
        Err(ToValueError::FloatKeyMustBeFinite)
    );
}

#[test]
fn unrepresentable_keys_are_errors() {
    let by_tuple = BTreeMap::from([((1, 2), 3)]);
    assert_eq!(
        to_value(&by_tuple),
        Err(ToValueError::KeyMustBeAString { found: "a tuple" })
    );
    let by_option = BTreeMap::from([(None::<u8>, 3)]);
    assert_eq!(
        to_value(&by_option).unwrap_err().to_string(),
        "key must be a string, found none"
    );
}

#[test]
fn enums_options_newtypes_tuples_as_serde_json_represents_them() {
    #[derive(Serialize)]
    enum E {
        Unit,
        New(u8),
        Tup(u8, bool),
        Rec { a: u8 },
    }
    #[derive(Serialize)]
    #[serde(tag = "t", content = "c")]
    enum Adjacent {
        A(u8),
    }
    #[derive(Serialize)]
    #[serde(untagged)]
    enum Untagged {
        S(&'static str),
    }
    #[derive(Serialize)]
    struct Newtype(Vec<u8>);
    #[derive(Serialize)]
    struct UnitStruct;
    let data = (
        [E::Unit, E::New(1), E::Tup(2, true), E::Rec { a: 3 }],
        Adjacent::A(4),
        Untagged::S("s"),
        Newtype(vec![5]),
        UnitStruct,
        (Some(6u8), None::<u8>),
        'c',
        f64::NAN,
        f32::INFINITY,
        -0.0f64,
        i64::MIN,
    );
    let ours = to_value(&data).unwrap();
    // serde_json's text, read in order: the members of its enums in its
    // order (`{"t":..,"c":..}`), its numbers' text.
    let theirs = from_str(&serde_json::to_string(&data).unwrap()).unwrap();
    assert!(ours.identical(&theirs), "{ours:?} vs {theirs:?}");
    assert_eq!(ours[7], Value::Null, "NaN becomes null");
    assert_eq!(ours[9].as_number().unwrap().to_string(), "-0.0");
}

#[test]
fn a_value_passes_through_unchanged() {
    let value =
        from_str(r#"{"z":1.10,"a":{"y":1e400,"b":[-0.0]},"m":12345678901234567890123}"#).unwrap();
    let again = to_value(&value).unwrap();
    assert!(again.identical(&value), "{again:?} vs {value:?}");
    assert_eq!(keys(&again), ["z", "a", "m"]);
    assert_eq!(keys(&again["a"]), ["y", "b"]);
    // Inside a struct too.
    #[derive(Serialize)]
    struct Wrapper<'a> {
        inner: &'a Value,
        map: &'a Map,
        number: &'a Number,
    }
    let inner_map = value["a"].as_object().unwrap();
    let number = value["z"].as_number().unwrap();
    let wrapped = to_value(&Wrapper {
        inner: &value,
        map: inner_map,
        number,
    })
    .unwrap();
    assert!(
        wrapped["inner"].identical(&value),
        "{:?} vs {value:?}",
        wrapped["inner"]
    );
    assert_eq!(keys(&wrapped["map"]), ["y", "b"]);
    assert_eq!(wrapped["number"].as_number().unwrap().to_string(), "1.10");
}

#[test]
fn other_serializers_see_verbatim_numbers_as_strings_and_maps_in_order() {
    // Documented fallback: serde_json (without arbitrary_precision) cannot
    // write number text verbatim, so it gets the text as a string.
    let value = from_str(r#"{"b":1.10,"a":2,"c":0.5}"#).unwrap();
    assert_eq!(
        serde_json::to_string(&value).unwrap(),
        r#"{"b":"1.10","a":2,"c":"0.5"}"#
    );
    let native = to_value(&0.5f64).unwrap();
    assert_eq!(serde_json::to_string(&native).unwrap(), "0.5");
}

#[test]
fn depth_is_limited_before_the_stack_is() {
    fn nested(depth: usize) -> serde_json::Value {
        let mut v = serde_json::Value::Null;
        for _ in 0..depth {
            v = serde_json::Value::Array(vec![v]);
        }
        v
    }
    assert!(to_value(&nested(128)).is_ok());
    assert_eq!(
        to_value(&nested(129)),
        Err(ToValueError::DepthLimit { limit: 128 })
    );
}

#[test]
fn custom_errors_keep_their_message() {
    struct Fails;
    impl Serialize for Fails {
        fn serialize<S: serde::Serializer>(&self, _: S) -> Result<S::Ok, S::Error> {
            Err(serde::ser::Error::custom("database row vanished"))
        }
    }
    assert_eq!(
        to_value(&[Fails]).unwrap_err().to_string(),
        "database row vanished"
    );
}

#[test]
fn value_helpers() {
    let value = Value::from(vec![
        Value::from(1u8),
        Value::from("x"),
        Value::from(f64::NAN),
    ]);
    assert_eq!(value[2], Value::Null);
    assert_eq!(value[9], Value::Null);
    assert_eq!(value["key"], Value::Null);
    assert_eq!(value.depth(), 1);
    assert!(value[1].is_scalar());
    assert_eq!(
        Value::from(Some(2.5f32)).as_number().unwrap().to_string(),
        "2.5"
    );
}

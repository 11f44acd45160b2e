//! A tape records what `to_value` builds: the same normalization, the same
//! errors, read back through `ValueView` as a `Value` is.

use std::collections::{BTreeMap, HashMap};

use codec_core::{
    Map, ToValueError, Value, ValueView, from_str, json::JsonWriter, tape::Tape, to_value,
    view::ViewKind,
};
use serde::Serialize;
use serde::ser::{SerializeMap, SerializeStruct, Serializer};

/// Compact JSON of a value: order and number text included.
fn json(value: &Value) -> String {
    let mut out = Vec::new();
    JsonWriter::compact().write_value(value, &mut out).unwrap();
    String::from_utf8(out).unwrap()
}

/// The tape of `data` against `to_value`: the same value, or the same
/// error; the view's JSON equals the value's. Returns the tape's JSON.
#[track_caller]
fn agrees<T: Serialize + ?Sized>(label: &str, data: &T) -> Result<String, ToValueError> {
    let tree = to_value(data);
    let tape = Tape::from_serialize(data);
    match (tree, tape) {
        (Ok(tree), Ok(tape)) => {
            let value = tape.to_value();
            assert!(
                value.identical(&tree),
                "{label}: {} vs {}",
                json(&value),
                json(&tree)
            );
            let mut viewed = Vec::new();
            JsonWriter::compact()
                .write_view(tape.root(), &mut viewed)
                .unwrap();
            assert_eq!(String::from_utf8(viewed).unwrap(), json(&tree), "{label}");
            // A node serializes as its value does, to any serializer.
            let mut serialized = Vec::new();
            JsonWriter::compact()
                .write(&tape.root(), &mut serialized)
                .unwrap();
            assert_eq!(
                String::from_utf8(serialized).unwrap(),
                json(&tree),
                "{label}"
            );
            assert_eq!(
                serde_json::to_string(&tape.root()).unwrap(),
                serde_json::to_string(&tree).unwrap(),
                "{label}: through serde_json"
            );
            assert_eq!(tape.depth(), tree.depth(), "{label}: depth");
            nodes_agree(label, tape.root(), &tree);
            Ok(json(&tree))
        }
        (Err(a), Err(b)) => {
            assert_eq!(a, b, "{label}: the same error");
            Err(a)
        }
        (tree, tape) => panic!("{label}: to_value {tree:?}, tape {:?}", tape.map(|_| ())),
    }
}

/// Every node of the tape is as deep as the value's node in its place,
/// and a scalar where it is one.
#[track_caller]
fn nodes_agree<'v, V: ValueView<'v>>(label: &str, view: V, value: &Value) {
    assert_eq!(
        view.is_scalar(),
        !matches!(value, Value::Array(_) | Value::Object(_)),
        "{label}: is {} a scalar",
        json(value)
    );
    assert_eq!(
        view.depth(),
        value.depth(),
        "{label}: depth of {}",
        json(value)
    );
    match (view.kind(), value) {
        (ViewKind::Array(items), Value::Array(values)) => {
            for (item, value) in items.zip(values) {
                nodes_agree(label, item, value);
            }
        }
        (ViewKind::Object(members), Value::Object(map)) => {
            for ((_, member), (_, value)) in members.zip(map.iter()) {
                nodes_agree(label, member, value);
            }
        }
        _ => {}
    }
}

#[test]
fn records_what_to_value_builds() {
    #[derive(Serialize)]
    #[serde(rename_all = "camelCase")]
    struct Row {
        zeta_name: &'static str,
        #[serde(skip_serializing_if = "Option::is_none")]
        missing: Option<u8>,
        tags: HashMap<&'static str, u8>,
        sorted: BTreeMap<i32, bool>,
        nested: Vec<Option<f32>>,
    }
    #[derive(Serialize)]
    enum E {
        Unit,
        New(u8),
        Tup(u8, bool),
        Rec { a: u8, b: [u8; 0] },
    }
    #[derive(Serialize)]
    #[serde(tag = "t", content = "c")]
    enum Adjacent {
        A(u8),
    }
    #[derive(Serialize)]
    struct Flat {
        a: u8,
        #[serde(flatten)]
        rest: BTreeMap<&'static str, u8>,
    }
    struct Bytes(&'static [u8]);
    impl Serialize for Bytes {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            s.serialize_bytes(self.0)
        }
    }
    let row = Row {
        zeta_name: "x|y",
        missing: None,
        tags: HashMap::from([("z", 1), ("a", 2), ("m", 3), ("é", 4), ("Z", 5)]),
        sorted: BTreeMap::from([(-1, true), (2, false)]),
        nested: vec![Some(0.1), None, Some(f32::NAN)],
    };
    let cases: Vec<(&str, Box<dyn erased_serde::Serialize>)> = vec![
        ("row", Box::new(row)),
        (
            "enums",
            Box::new([E::Unit, E::New(1), E::Tup(2, true), E::Rec { a: 3, b: [] }]),
        ),
        ("adjacent", Box::new(Adjacent::A(4))),
        (
            "flatten",
            Box::new(Flat {
                a: 1,
                rest: BTreeMap::from([("c", 3), ("b", 2)]),
            }),
        ),
        ("bytes", Box::new(Bytes(b"\x00\xff"))),
        (
            "scalars",
            Box::new(("s", 'c', true, (), f64::INFINITY, -0.0f64, 1e21, i64::MIN)),
        ),
        (
            "wide",
            Box::new((u64::MAX, i128::MIN, u128::MAX, -5i128, 7u128, 0.1f32)),
        ),
        ("unit", Box::new(())),
        ("empty", Box::new(Vec::<u8>::new())),
        ("empty map", Box::new(HashMap::<u8, u8>::new())),
        (
            "value",
            Box::new(
                from_str(r#"{"z":1.10,"a":{"y":1e400,"b":[-0.0]},"m":12345678901234567890123}"#)
                    .unwrap(),
            ),
        ),
        (
            "non-string keys",
            Box::new(BTreeMap::from([(2u8, 'a'), (10, 'b')])),
        ),
    ];
    for (label, data) in &cases {
        agrees(label, data).unwrap();
    }
    // The sorted map keeps to_value's byte order ("10" before "2").
    assert_eq!(
        agrees("keys", &HashMap::from([(2u8, 0u8), (10, 1)])).unwrap(),
        r#"{"10":1,"2":0}"#
    );
}

/// A map or struct written member by member, in the given order, with
/// the given keys: repeats and disorder the derive never produces.
struct Members {
    keys: Vec<&'static str>,
    as_struct: bool,
}

impl Serialize for Members {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if self.as_struct {
            let mut st = s.serialize_struct("Members", self.keys.len())?;
            for (i, key) in self.keys.iter().enumerate() {
                st.serialize_field(key, &i)?;
            }
            st.end()
        } else {
            let mut map = s.serialize_map(None)?;
            for (i, key) in self.keys.iter().enumerate() {
                map.serialize_entry(key, &i)?;
            }
            map.end()
        }
    }
}

#[test]
fn keys_are_unique_and_maps_sorted_whatever_arrives() {
    let many: Vec<&'static str> = (0..40)
        .map(|i| &*Box::leak(format!("k{:02}", (i * 7) % 40).into_boxed_str()))
        .collect();
    let mut many_repeated = many.clone();
    many_repeated.extend(["k05", "k39", "k00"]);
    let cases: &[(&str, Vec<&'static str>)] = &[
        ("in order", vec!["a", "b", "c"]),
        ("out of order", vec!["c", "a", "b"]),
        ("repeated", vec!["b", "a", "b", "c", "a"]),
        ("same length", vec!["ab", "cd", "ab"]),
        ("lengths 64 apart", vec![&*"x".repeat(65).leak(), "x", "x"]),
        ("empty keys", vec!["", "a", ""]),
        ("many", many),
        ("many repeated", many_repeated),
    ];
    for (label, keys) in cases {
        for as_struct in [true, false] {
            let members = Members {
                keys: keys.clone(),
                as_struct,
            };
            agrees(&format!("{label} struct {as_struct}"), &members).unwrap();
            // Through a `Value` too: an ordered map.
            let value = to_value(&members).unwrap();
            agrees(&format!("{label} value {as_struct}"), &value).unwrap();
            // Nested: the rewritten object is inside others.
            agrees(
                &format!("{label} nested {as_struct}"),
                &(
                    1,
                    vec![&members, &members],
                    BTreeMap::from([("x", &members)]),
                ),
            )
            .unwrap();
        }
    }
    let repeated = Members {
        keys: vec!["b", "a", "b"],
        as_struct: true,
    };
    assert_eq!(agrees("struct", &repeated).unwrap(), r#"{"b":2,"a":1}"#);
    let repeated = Members {
        keys: vec!["b", "a", "b"],
        as_struct: false,
    };
    assert_eq!(agrees("map", &repeated).unwrap(), r#"{"a":1,"b":2}"#);
}

#[test]
fn odd_map_calls_go_as_in_to_value() {
    /// A key, another key, a value; then a dangling key.
    struct Odd;
    impl Serialize for Odd {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            let mut map = s.serialize_map(None)?;
            map.serialize_key("dropped")?;
            map.serialize_key("b")?;
            map.serialize_value(&1)?;
            map.serialize_entry("a", &2)?;
            map.serialize_key("dangling")?;
            map.end()
        }
    }
    assert_eq!(agrees("odd", &Odd).unwrap(), r#"{"a":2,"b":1}"#);
    /// A value before any key.
    struct ValueFirst;
    impl Serialize for ValueFirst {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            let mut map = s.serialize_map(None)?;
            map.serialize_value(&1)?;
            map.end()
        }
    }
    let error = agrees("value first", &ValueFirst).unwrap_err();
    assert_eq!(
        error.to_string(),
        "serialize_value called before serialize_key"
    );
}

#[test]
fn errors_are_to_values() {
    struct Fails;
    impl Serialize for Fails {
        fn serialize<S: Serializer>(&self, _: S) -> Result<S::Ok, S::Error> {
            Err(serde::ser::Error::custom("database row vanished"))
        }
    }
    struct FloatKey(f64);
    impl Serialize for FloatKey {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            s.collect_map([(self.0, 1)])
        }
    }
    /// A number token around text that is not a number.
    struct BadNumber;
    impl Serialize for BadNumber {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            s.serialize_newtype_struct(codec_core::value::NUMBER_TOKEN, "1.x")
        }
    }
    let deep = (0..129).fold(serde_json::Value::Null, |v, _| serde_json::json!([v]));
    let deep_enough = (0..128).fold(serde_json::Value::Null, |v, _| serde_json::json!([v]));
    let cases: Vec<(&str, Box<dyn erased_serde::Serialize>, &str)> = vec![
        ("custom", Box::new([Fails]), "database row vanished"),
        (
            "tuple key",
            Box::new(BTreeMap::from([((1, 2), 3)])),
            "key must be a string, found a tuple",
        ),
        (
            "float key",
            Box::new(FloatKey(f64::NAN)),
            "float key must be finite",
        ),
        (
            "bad number",
            Box::new(BadNumber),
            "invalid number text \"1.x\"",
        ),
        (
            "deep",
            Box::new(deep),
            "nesting deeper than the limit of 128",
        ),
    ];
    for (label, data, message) in cases {
        assert_eq!(
            agrees(label, &data).unwrap_err().to_string(),
            message,
            "{label}"
        );
    }
    agrees("deep enough", &deep_enough).unwrap();
    // Enum wrappers count as levels, as in to_value.
    #[derive(Serialize)]
    enum E {
        New(Vec<u8>),
        Tup(u8, u8),
        Rec { a: u8 },
    }
    for depth in [125, 126, 127, 128] {
        let wrap = |e: E| {
            (0..depth).fold(serde_json::to_value(e).unwrap(), |v, _| {
                serde_json::json!([v])
            })
        };
        let _ = agrees("new", &wrap(E::New(vec![1])));
        let _ = agrees("tup", &wrap(E::Tup(1, 2)));
        let _ = agrees("rec", &wrap(E::Rec { a: 1 }));
    }
}

#[test]
fn views_read_a_tape_as_a_value() {
    let value = from_str(r#"{"a": [1, "x", null, true, 2.50], "b": {}, "c": {"d": []}}"#).unwrap();
    let tape = Tape::from_serialize(&value).unwrap();
    fn shape<'v, V: ValueView<'v>>(view: V) -> String {
        match view.kind() {
            ViewKind::Null => "null".into(),
            ViewKind::Bool(b) => b.to_string(),
            ViewKind::Number(n) => n.with_text(|t| format!("#{t}")),
            ViewKind::String(s) => format!("'{s}'"),
            ViewKind::Array(items) => {
                let len = items.len();
                format!("[{len}:{}]", items.map(shape).collect::<Vec<_>>().join(" "))
            }
            ViewKind::Object(members) => {
                let len = members.len();
                let members: Vec<String> =
                    members.map(|(k, v)| format!("{k}={}", shape(v))).collect();
                format!("{{{len}:{}}}", members.join(" "))
            }
        }
    }
    let expected = "{3:a=[5:#1 'x' null true #2.50] b={0:} c={1:d=[0:]}}";
    assert_eq!(shape(&value), expected);
    assert_eq!(shape(tape.root()), expected);
    // Ids tell nodes apart.
    let ViewKind::Object(members) = tape.root().kind() else {
        unreachable!()
    };
    let ids: Vec<usize> = members.map(|(_, v)| v.id()).collect();
    assert!(ids.windows(2).all(|w| w[0] < w[1]), "{ids:?}");
    let map = Map::new();
    assert_eq!(shape(&Value::Object(map)), "{0:}");
}

proptest::proptest! {
    /// Any JSON document, as serde_json serializes it (maps sorted) and as
    /// a `Value` serializes it (maps in order): the tape agrees.
    #[test]
    fn any_document_agrees(json in r#"\{("[a-c]{0,2}":(-?[0-9]{1,3}(\.[0-9]{1,2})?|"[a-z|`\\]{0,3}"|\[(null|true|\{"k":[0-9]\}),?\]|\{\}),){0,8}"z":0\}"#) {
        if let Ok(theirs) = serde_json::from_str::<serde_json::Value>(&json) {
            agrees("serde_json", &theirs).unwrap();
        }
        if let Ok(ours) = codec_core::json::from_slice_with(
            json.as_bytes(),
            &codec_core::json::ParseOptions::new().duplicate_keys(codec_core::json::DuplicateKeys::LastWins),
        ) {
            agrees("value", &ours).unwrap();
        }
    }
}

//! codec-json against serde_json: the same bytes for the same data.

use std::collections::{BTreeMap, HashMap};

use codec_core::testkit::CodecTester;
use codec_core::{Codec, CodecExt, to_value};
use codec_json::JsonCodec;
use proptest::prelude::*;
use serde::Serialize;

#[derive(Serialize, Clone, Debug)]
struct Unit;

#[derive(Serialize, Clone, Debug)]
struct Newtype(u8);

#[derive(Serialize, Clone, Debug)]
struct Tuple(i32, String);

#[derive(Serialize, Clone, Debug)]
#[serde(rename_all = "camelCase")]
struct Record {
    user_id: u64,
    display_name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    nickname: Option<String>,
    score: f64,
    ratio: f32,
    tags: Vec<&'static str>,
    #[serde(rename = "type")]
    kind: Kind,
    nothing: (),
    unit: Unit,
    newtype: Newtype,
    tuple: Tuple,
    pair: (bool, char),
    big: i128,
    bigger: u128,
    #[serde(with = "serde_bytes_as_seq")]
    bytes: Vec<u8>,
}

mod serde_bytes_as_seq {
    pub(crate) fn serialize<S: serde::Serializer>(v: &[u8], s: S) -> Result<S::Ok, S::Error> {
        s.serialize_bytes(v)
    }
}

#[derive(Serialize, Clone, Debug)]
enum Kind {
    Plain,
    Wrapped(u8),
    Pair(u8, u8),
    Shape { w: u32, h: u32 },
}

#[derive(Serialize, Clone, Debug)]
#[serde(tag = "kind")]
enum Tagged {
    Circle { r: f64 },
    Square { side: f64 },
}

fn record(kind: Kind) -> Record {
    Record {
        user_id: 7,
        display_name: "Ada \"the\" Lovelace\n\u{1}é😀".into(),
        nickname: None,
        score: 0.1 + 0.2,
        ratio: 0.1,
        tags: vec!["a", "b"],
        kind,
        nothing: (),
        unit: Unit,
        newtype: Newtype(3),
        tuple: Tuple(-4, "x".into()),
        pair: (true, '\u{7f}'),
        big: i128::MIN,
        bigger: u128::MAX,
        bytes: vec![0, 255],
    }
}

/// Every entry point of the codec against `serde_json`, compact and pretty.
fn assert_parity<T: Serialize + ?Sized>(label: &str, value: &T) {
    let compact = JsonCodec::new();
    let pretty = JsonCodec::pretty();
    let expected = serde_json::to_vec(value).unwrap();
    assert_eq!(
        String::from_utf8(CodecTester::new(&compact).check_serialize(label, value)).unwrap(),
        String::from_utf8(expected.clone()).unwrap(),
        "{label}: compact"
    );
    assert_eq!(compact.to_vec(value).unwrap(), expected, "{label}: generic");
    let expected_pretty = serde_json::to_vec_pretty(value).unwrap();
    assert_eq!(
        String::from_utf8(CodecTester::new(&pretty).check_serialize(label, value)).unwrap(),
        String::from_utf8(expected_pretty).unwrap(),
        "{label}: pretty"
    );
}

#[test]
fn native_values_match_serde_json() {
    assert_parity("null", &());
    assert_parity("bool", &true);
    assert_parity("u64 max", &u64::MAX);
    assert_parity("i64 min", &i64::MIN);
    assert_parity("f64", &1.5e300);
    assert_parity("f64 negative zero", &-0.0f64);
    assert_parity("f64 NaN is null", &f64::NAN);
    assert_parity("f32 infinity is null", &f32::INFINITY);
    assert_parity("f32 shortest", &0.3f32);
    assert_parity("string", "tab\there");
    assert_parity("empty vec", &Vec::<u8>::new());
    assert_parity("empty map", &BTreeMap::<String, u8>::new());
    assert_parity("unit variant", &record(Kind::Plain));
    assert_parity("newtype variant", &record(Kind::Wrapped(1)));
    assert_parity("tuple variant", &record(Kind::Pair(1, 2)));
    assert_parity("struct variant", &record(Kind::Shape { w: 1, h: 2 }));
    assert_parity(
        "internally tagged",
        &vec![Tagged::Circle { r: 1.0 }, Tagged::Square { side: 2.5 }],
    );
    assert_parity("option some", &Some(vec![Some(1), None]));
    assert_parity(
        "ordered map with non-string keys",
        &BTreeMap::from([(1u8, "one"), (2, "two"), (10, "ten")])
            .into_iter()
            .collect::<Vec<_>>(),
    );
    assert_parity(
        "btree map",
        &BTreeMap::from([("b".to_string(), vec![1]), ("a".to_string(), vec![])]),
    );
}

#[test]
fn hash_maps_are_sorted_deterministically() {
    let map: HashMap<String, u32> = (0..100).map(|i| (format!("k{i}"), i)).collect();
    let sorted: BTreeMap<_, _> = map.iter().collect();
    let codec = JsonCodec::new();
    let bytes = CodecTester::new(&codec).check_serialize("hash map", &map);
    assert_eq!(bytes, serde_json::to_vec(&sorted).unwrap());
}

#[test]
fn non_string_keys_become_strings_as_in_serde_json() {
    let ints = BTreeMap::from([(-1i32, 'a'), (2, 'b')]);
    let bools = BTreeMap::from([(false, 0), (true, 1)]);
    let codec = JsonCodec::new();
    assert_eq!(
        codec.to_vec(&ints).unwrap(),
        serde_json::to_vec(&ints).unwrap()
    );
    assert_eq!(
        codec.to_vec(&bools).unwrap(),
        serde_json::to_vec(&bools).unwrap()
    );
    // Sorting is by the key's text, as to_value sorts: "10" before "9".
    let numbers = HashMap::from([(9u8, ()), (10, ())]);
    assert_eq!(codec.to_vec(&numbers).unwrap(), br#"{"10":null,"9":null}"#);
}

#[test]
fn unrepresentable_keys_are_errors_not_panics() {
    let codec = JsonCodec::new();
    let by_vec = BTreeMap::from([(vec![1u8], 1)]);
    let err = codec.to_vec(&by_vec).unwrap_err();
    assert_eq!(
        err.to_string(),
        "cannot serialize the value: key must be a string, found a sequence"
    );
    let by_nan = vec![(f64::NAN, 1)].into_iter().collect::<Vec<_>>();
    // A Vec of pairs is not a map: fine.
    assert!(codec.to_vec(&by_nan).is_ok());
    let err = to_value(&HashMap::from([(Some(()), 1)])).unwrap_err();
    assert_eq!(err.to_string(), "key must be a string, found unit");
}

#[test]
fn deep_native_values_are_rejected_at_the_same_depth_as_to_value() {
    #[derive(Serialize)]
    struct Node {
        next: Option<Box<Node>>,
    }
    fn chain(n: usize) -> Node {
        let mut node = Node { next: None };
        for _ in 1..n {
            node = Node {
                next: Some(Box::new(node)),
            };
        }
        node
    }
    let codec = JsonCodec::new();
    assert!(codec.to_vec(&chain(128)).is_ok());
    assert!(to_value(&chain(128)).is_ok());
    assert!(codec.to_vec(&chain(129)).is_err());
    assert!(to_value(&chain(129)).is_err());
    // Far beyond the limit: still a clean error, no stack overflow.
    assert!(codec.to_vec(&chain(20_000)).is_err());
    CodecTester::new(&codec).check_depth_limit();
    CodecTester::new(&JsonCodec::pretty()).check_depth_limit();
}

#[test]
fn parsed_values_keep_key_order_and_number_text() {
    let input = r#"{"z":76,"y":0.98,"x":1.10,"w":1e400,"v":-0.0,"u":12345678901234567890,"t":[1E+2,-0],"s":{"b":null,"a":"\u00e9\n"}}"#;
    let value = codec_core::from_str(input).unwrap();
    let codec = JsonCodec::new();
    let bytes = CodecTester::new(&codec).check_value("verbatim", &value);
    assert_eq!(
        String::from_utf8(bytes).unwrap(),
        input.replace("\\u00e9", "é")
    );
    // Through the Serialize entry point too: a Value is Serialize.
    assert_eq!(
        codec.to_vec(&value).unwrap(),
        codec.value_to_vec(&value).unwrap()
    );
    assert_eq!(
        String::from_utf8(JsonCodec::pretty().value_to_vec(&value).unwrap()).unwrap(),
        "{\n  \"z\": 76,\n  \"y\": 0.98,\n  \"x\": 1.10,\n  \"w\": 1e400,\n  \"v\": -0.0,\n  \"u\": 12345678901234567890,\n  \"t\": [\n    1E+2,\n    -0\n  ],\n  \"s\": {\n    \"b\": null,\n    \"a\": \"é\\n\"\n  }\n}"
    );
}

#[test]
fn metadata() {
    let codec = JsonCodec::new();
    assert_eq!(codec.format(), "json");
    assert_eq!(codec.media_type().as_str(), "application/json");
    let boxed: Box<dyn Codec> = Box::new(codec);
    assert_eq!(boxed.to_vec(&[1]).unwrap(), b"[1]");
}

/// Shapes serde produces, for the property test.
#[derive(Serialize, Debug, Clone)]
enum Data {
    Null,
    Bool(bool),
    U(u64),
    I(i64),
    F(f64),
    F32(f32),
    S(String),
    C(char),
    Seq(Vec<Data>),
    Map(BTreeMap<String, Data>),
    // Single-digit keys: their numeric order is their text order, which is
    // the order codec-json sorts by.
    IntMap(BTreeMap<u8, Data>),
    Opt(Option<Box<Data>>),
    Tup(Box<(Data, u8)>),
    Struct { a: Box<Data>, b: String },
}

/// Serializes the payload without the enum wrapper, so the generated data
/// is plain JSON shapes as well as enum representations.
#[derive(Serialize, Debug, Clone)]
#[serde(untagged)]
enum Plain {
    Data(Data),
    Inner(Vec<Plain>),
}

fn data() -> impl Strategy<Value = Data> {
    let leaf = prop_oneof![
        Just(Data::Null),
        any::<bool>().prop_map(Data::Bool),
        any::<u64>().prop_map(Data::U),
        any::<i64>().prop_map(Data::I),
        any::<f64>().prop_map(Data::F),
        any::<f32>().prop_map(Data::F32),
        any::<String>().prop_map(Data::S),
        any::<char>().prop_map(Data::C),
    ];
    leaf.prop_recursive(4, 48, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Data::Seq),
            prop::collection::btree_map(any::<String>(), inner.clone(), 0..6).prop_map(Data::Map),
            prop::collection::btree_map(0u8..10, inner.clone(), 0..4).prop_map(Data::IntMap),
            prop::option::of(inner.clone()).prop_map(|o| Data::Opt(o.map(Box::new))),
            (inner.clone(), any::<u8>()).prop_map(|t| Data::Tup(Box::new(t))),
            (inner, any::<String>()).prop_map(|(a, b)| Data::Struct { a: Box::new(a), b }),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn any_ordered_value_matches_serde_json(data in data()) {
        let compact = JsonCodec::new();
        let expected = serde_json::to_vec(&data).unwrap();
        prop_assert_eq!(&compact.to_vec(&data).unwrap(), &expected);
        let via_value = compact.value_to_vec(&to_value(&data).unwrap()).unwrap();
        prop_assert_eq!(&via_value, &expected);
        let dyn_codec: &dyn Codec = &compact;
        prop_assert_eq!(&dyn_codec.to_vec(&data).unwrap(), &expected);
        let pretty = JsonCodec::pretty();
        prop_assert_eq!(pretty.to_vec(&data).unwrap(), serde_json::to_vec_pretty(&data).unwrap());
        let plain = Plain::Inner(vec![Plain::Data(data)]);
        prop_assert_eq!(compact.to_vec(&plain).unwrap(), serde_json::to_vec(&plain).unwrap());
    }

    #[test]
    fn strings_are_escaped_exactly_as_serde_json(s in any::<String>(), ascii in "[\\x00-\\x7f]{0,40}") {
        let codec = JsonCodec::new();
        prop_assert_eq!(codec.to_vec(&s).unwrap(), serde_json::to_vec(&s).unwrap());
        prop_assert_eq!(codec.to_vec(&ascii).unwrap(), serde_json::to_vec(&ascii).unwrap());
    }

    #[test]
    fn parsing_our_output_gives_the_same_value(data in data()) {
        let codec = JsonCodec::new();
        let value = to_value(&data).unwrap();
        let bytes = codec.value_to_vec(&value).unwrap();
        let parsed = codec_core::from_slice(&bytes).unwrap();
        prop_assert_eq!(codec.value_to_vec(&parsed).unwrap(), bytes);
    }
}

#[test]
fn a_forged_number_token_cannot_write_invalid_json() {
    struct Forged(&'static str);
    impl Serialize for Forged {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            s.serialize_newtype_struct(codec_core::value::NUMBER_TOKEN, self.0)
        }
    }
    let codec = JsonCodec::new();
    assert_eq!(codec.to_vec(&[Forged("1.50")]).unwrap(), b"[1.50]");
    for bad in ["1.2.3", "", "\"", "NaN", "1 "] {
        assert!(codec.to_vec(&[Forged(bad)]).is_err(), "{bad:?}");
        assert!(to_value(&[Forged(bad)]).is_err(), "{bad:?}");
    }
}

/// Members in any order, duplicates allowed: serialized as a map.
#[derive(Debug, Clone)]
struct Unordered(Vec<(String, Data)>);

impl Serialize for Unordered {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.0.iter().map(|(k, v)| (k, v)))
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Maps stream while sorted and fall back to buffering at the first key
    /// out of order: the bytes equal the sorted `to_value` rendering, in
    /// both layouts, nested maps included.
    #[test]
    fn unordered_maps_come_out_sorted(
        members in prop::collection::vec(("[a-e]{0,2}", data()), 0..8),
        outer in prop::collection::vec("[a-e]{1,2}", 0..4),
    ) {
        let inner = Unordered(members);
        let nested: Vec<(String, Unordered)> = outer.into_iter().map(|k| (k, inner.clone())).collect();
        for codec in [JsonCodec::new(), JsonCodec::pretty()] {
            let expected = codec.value_to_vec(&to_value(&inner).unwrap()).unwrap();
            prop_assert_eq!(codec.to_vec(&inner).unwrap(), expected);
            let nested_map = NestedMap(&nested);
            let expected = codec.value_to_vec(&to_value(&nested_map).unwrap()).unwrap();
            prop_assert_eq!(codec.to_vec(&nested_map).unwrap(), expected);
        }
    }
}

struct NestedMap<'a>(&'a [(String, Unordered)]);

impl Serialize for NestedMap<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.0.iter().map(|(k, v)| (k, v)))
    }
}

#[test]
fn a_late_out_of_order_key_rewrites_what_was_streamed() {
    let codec = JsonCodec::pretty();
    let members = Unordered(vec![
        ("a".into(), Data::F(1e300)),
        (
            "b".into(),
            Data::Map(BTreeMap::from([("x".into(), Data::S("é\n\"".into()))])),
        ),
        ("c".into(), Data::F(f64::NAN)),
        ("b".into(), Data::U(7)),
        ("0".into(), Data::Seq(vec![Data::Null, Data::F32(0.1)])),
    ]);
    let bytes = codec.to_vec(&members).unwrap();
    assert_eq!(
        String::from_utf8(bytes).unwrap(),
        "{\n  \"0\": {\n    \"Seq\": [\n      \"Null\",\n      {\n        \"F32\": 0.1\n      }\n    ]\n  },\n  \"a\": {\n    \"F\": 1e+300\n  },\n  \"b\": {\n    \"U\": 7\n  },\n  \"c\": {\n    \"F\": null\n  }\n}"
    );
}

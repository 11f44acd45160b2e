//! The typed structs hold every field of the files, in the files' order:
//! serializing them back gives the file's data (numbers compared as
//! numbers, since a Rust `f64` writes `4000` as `4000.0`; the keyed map
//! compared as a map).

use benches::DATASETS;
use benches::types::{Typed, Visit};
use serde_json::Value;

struct ToValue;
struct ToVec;

impl Visit for ToVec {
    type Output = Vec<u8>;
    fn visit<T: serde::Serialize>(&mut self, value: &T) -> Vec<u8> {
        serde_json::to_vec(value).unwrap()
    }
}

impl Visit for ToValue {
    type Output = Value;
    fn visit<T: serde::Serialize>(&mut self, value: &T) -> Value {
        serde_json::to_value(value).unwrap()
    }
}

fn same(a: &Value, b: &Value, path: &str) -> Result<(), String> {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            if x.as_f64() == y.as_f64() {
                Ok(())
            } else {
                Err(format!("{path}: {x} != {y}"))
            }
        }
        (Value::Object(x), Value::Object(y)) => {
            let kx: Vec<_> = x.keys().collect();
            let ky: Vec<_> = y.keys().collect();
            if kx != ky {
                return Err(format!("{path}: keys {kx:?} != {ky:?}"));
            }
            for (k, v) in x {
                same(v, &y[k], &format!("{path}.{k}"))?;
            }
            Ok(())
        }
        (Value::Array(x), Value::Array(y)) => {
            if x.len() != y.len() {
                return Err(format!("{path}: {} items != {}", x.len(), y.len()));
            }
            for (i, (v, w)) in x.iter().zip(y).enumerate() {
                same(v, w, &format!("{path}[{i}]"))?;
            }
            Ok(())
        }
        _ if a == b => Ok(()),
        _ => Err(format!("{path}: {a} != {b}")),
    }
}

#[test]
fn typed_structs_hold_all_the_data() {
    for dataset in &DATASETS {
        let typed = Typed::load(dataset);
        let back = typed.visit(&mut ToValue);
        let file: Value = serde_json::from_slice(dataset.json).unwrap();
        same(&back, &file, dataset.name).unwrap_or_else(|e| panic!("{e}"));
    }
}

/// Field order: the typed struct's JSON has the keys in the file's order
/// (checked on the first record, through codec-core's order-keeping
/// parser).
#[test]
fn typed_field_order_is_the_files() {
    for dataset in &DATASETS {
        if dataset.name == "keyed" {
            continue; // a BTreeMap: sorted keys, by design
        }
        let typed = Typed::load(dataset);
        let json = typed.visit(&mut ToVec);
        let ours = codec_core::from_slice(&json).unwrap();
        let file = dataset.value();
        assert_eq!(keys(&ours), keys(&file), "{}", dataset.name);
    }
}

/// Every key path in document order, array items collapsed.
fn keys(v: &codec_core::Value) -> Vec<String> {
    fn walk(v: &codec_core::Value, path: &str, out: &mut Vec<String>) {
        if let Some(m) = v.as_object() {
            for (k, x) in m.iter() {
                let p = format!("{path}.{k}");
                if !out.contains(&p) {
                    out.push(p.clone());
                }
                walk(x, &p, out);
            }
        } else if let Some(a) = v.as_array() {
            for x in a {
                walk(x, &format!("{path}[]"), out);
            }
        }
    }
    let mut out = Vec::new();
    walk(v, "", &mut out);
    out
}

/// Every codec under test encodes every dataset, typed and parsed, so a
/// bench run never stops on an error halfway.
#[test]
fn every_codec_encodes_every_dataset() {
    use codec_core::CodecExt;
    struct Encode<'a>(&'a dyn codec_core::Codec);
    impl Visit for Encode<'_> {
        type Output = Result<Vec<u8>, codec_core::EncodeError>;
        fn visit<T: serde::Serialize>(&mut self, value: &T) -> Self::Output {
            self.0.to_vec(value)
        }
    }
    let mut codecs = benches::codecs::codecs();
    codecs.extend(benches::codecs::token_codecs());
    for dataset in &DATASETS {
        let typed = Typed::load(dataset);
        let value = dataset.value();
        for (name, codec) in &codecs {
            let out = typed.visit(&mut Encode(&**codec));
            assert!(out.is_ok(), "{name} typed {}: {out:?}", dataset.name);
            let mut buf = Vec::new();
            let out = codec.encode_value(&value, &mut buf);
            assert!(out.is_ok(), "{name} value {}: {out:?}", dataset.name);
        }
    }
}

//! One encoding of one dataset in a loop, for a profiler: callgrind counts
//! its instructions repeatably on a busy machine, where timings wander.
//!
//! WHAT is a codec's name in `benches::codecs::codecs()` (`codec-md`,
//! `"codec-md dense"`, ...) for the typed structs through `dyn Codec`
//! (the negotiated path), `value:NAME` for the same codec's
//! `encode_value` of the parsed value, `serde_json` for
//! `serde_json::to_vec` of the structs, `serde_toon` for
//! `serde_toon::to_string` of them (with the `toon` feature, the TOON
//! bench's speed peer), or `serve:ROUTE` for one request
//! through the `serve` routers (`serve:axum::Json`, `serve:negotiated md`,
//! `serve:actix web::Json`, `serve:actix negotiated md`).
//! INPUT is a dataset or its first rows, `DATASET-ROWS` (the small
//! responses `tabular-20`, `nested-20`; `tabular-1`, a response's fixed cost).
//!
//! `cargo build -p benches --release --bin encode-profile`
//! `valgrind --tool=callgrind target/release/encode-profile codec-md tabular 20`
//! (`benches/serve-cpu.sh` times it in CPU time.)

use std::hint::black_box;

use benches::codecs::codecs;
use benches::serve::{self, Route, Server};
use benches::types::{Typed, Visit};
use codec_core::{Codec, CodecExt};
use serde::Serialize;
use serde::de::DeserializeOwned;

struct Loop<'a> {
    encoder: Encoder<'a>,
    times: usize,
}

/// What a [`Loop`] encodes with.
enum Encoder<'a> {
    Codec(&'a dyn Codec),
    SerdeJson,
    #[cfg(feature = "toon")]
    SerdeToon,
}

impl Visit for Loop<'_> {
    type Output = usize;
    fn visit<T: Serialize + DeserializeOwned + 'static>(&mut self, value: &T) -> usize {
        let mut total = 0;
        for _ in 0..self.times {
            total += match self.encoder {
                Encoder::Codec(codec) => codec.to_vec(black_box(value)).unwrap().len(),
                Encoder::SerdeJson => serde_json::to_vec(black_box(value)).unwrap().len(),
                #[cfg(feature = "toon")]
                Encoder::SerdeToon => serde_toon::to_string(black_box(value)).unwrap().len(),
            };
        }
        total
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let usage = "usage: encode-profile WHAT INPUT [TIMES]";
    let what = args.next().expect(usage);
    let input = args.next().expect(usage);
    let times: usize = args.next().map_or(10, |t| t.parse().expect(usage));
    let typed = serve::input(&input).unwrap_or_else(|| panic!("no input {input}"));
    let codecs = codecs();
    let codec = |name: &str| -> &dyn Codec {
        let (_, codec) = codecs
            .iter()
            .find(|(n, _)| *n == name)
            .unwrap_or_else(|| panic!("no codec {name}"));
        &**codec
    };
    let total = if let Some(route) = what.strip_prefix("serve:") {
        let route = Route::all()
            .find(|r| r.name() == route)
            .unwrap_or_else(|| panic!("no route {route}"));
        let server = Server::typed(&typed);
        (0..times).map(|_| server.body_len(black_box(route))).sum()
    } else if let Some(name) = what.strip_prefix("value:") {
        let value = codec_core::to_value(&Valued(&typed)).unwrap();
        let codec = codec(name);
        (0..times)
            .map(|_| {
                let mut out = Vec::new();
                codec.encode_value(black_box(&value), &mut out).unwrap();
                out.len()
            })
            .sum()
    } else {
        let encoder = match what.as_str() {
            "serde_json" => Encoder::SerdeJson,
            #[cfg(feature = "toon")]
            "serde_toon" => Encoder::SerdeToon,
            name => Encoder::Codec(codec(name)),
        };
        typed.visit(&mut Loop { encoder, times })
    };
    println!("{total} bytes");
}

/// A typed dataset as a `Serialize`, whatever its type.
struct Valued<'a>(&'a Typed);

impl Serialize for Valued<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        struct Ser<S>(Option<S>);
        impl<S: serde::Serializer> Visit for Ser<S> {
            type Output = Result<S::Ok, S::Error>;
            fn visit<T: Serialize + DeserializeOwned + 'static>(
                &mut self,
                value: &T,
            ) -> Self::Output {
                value.serialize(self.0.take().expect("visited once"))
            }
        }
        self.0.visit(&mut Ser(Some(serializer)))
    }
}

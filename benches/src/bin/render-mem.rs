//! Time and peak memory of rendering one JSON file, as `codec render` does:
//! read the file, parse it into a `codec_core::Value`, drop the input, encode
//! the value with one codec into a buffer. Prints one markdown table row:
//!
//! `| format | input MB | output MB | read ms | parse ms | render ms | total ms | peak RSS MB | peak ÷ input |`
//!
//! FORMAT is a codec's format name (`json`, `md`, `mcp`), a name from
//! `benches::codecs::codecs()` (`"codec-md dense"`) or `serde_json`
//! (`serde_json::from_slice` into `serde_json::Value`, then
//! `serde_json::to_vec`), the baseline. Peak RSS is this process's `VmHWM`.
//! Run one format per process, so that each peak is its own.
//!
//! `cargo run -p benches --release --bin render-mem -- md /tmp/large.json`

use std::time::Instant;

use benches::codecs::codecs;
use benches::large::peak_rss;

fn main() {
    let mut args = std::env::args().skip(1);
    let (Some(format), Some(path)) = (args.next(), args.next()) else {
        eprintln!(
            "usage: render-mem FORMAT FILE   (FORMAT: json, md, mcp, \"codec-md dense\" or serde_json)"
        );
        std::process::exit(2);
    };
    let start = Instant::now();
    let input = std::fs::read(&path).unwrap_or_else(|e| {
        eprintln!("{path}: {e}");
        std::process::exit(1)
    });
    let input_len = input.len();
    let read = start.elapsed();

    let (parse, render, output_len) = if format == "serde_json" {
        let t = Instant::now();
        let value: serde_json::Value = serde_json::from_slice(&input).expect("valid JSON");
        drop(input);
        let parse = t.elapsed();
        let t = Instant::now();
        let out = serde_json::to_vec(&value).expect("serializable");
        (parse, t.elapsed(), out.len())
    } else {
        let codecs = codecs();
        // A bench name (`codec-md dense`) or the first codec of a format.
        let found = codecs
            .iter()
            .find(|(name, _)| *name == format)
            .or_else(|| codecs.iter().find(|(_, c)| c.format() == format));
        let Some((_, codec)) = found else {
            eprintln!("no codec with format {format}");
            std::process::exit(2);
        };
        let t = Instant::now();
        let value = codec_core::from_slice(&input).expect("valid JSON");
        drop(input);
        let parse = t.elapsed();
        let t = Instant::now();
        let mut out = Vec::new();
        codec.encode_value(&value, &mut out).expect("encodable");
        (parse, t.elapsed(), out.len())
    };
    let total = start.elapsed();
    let peak = peak_rss().unwrap_or(0);
    let mb = |b: usize| b as f64 / 1e6;
    let ms = |d: std::time::Duration| d.as_secs_f64() * 1e3;
    println!(
        "| {format} | {:.1} | {:.1} | {:.0} | {:.0} | {:.0} | {:.0} | {:.0} | {:.1} |",
        mb(input_len),
        mb(output_len),
        ms(read),
        ms(parse),
        ms(render),
        ms(total),
        mb(peak as usize),
        peak as f64 / input_len as f64,
    );
}

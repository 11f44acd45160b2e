//! `codec stats`: bytes and tokens of JSON and every codec, per file.

use std::path::Path;

use codec_core::{Map, Value};
use codec_md::{MarkdownCodec, Profile};

use crate::cli::{CodecOptions, StatsArgs};
use crate::error::CliError;
use crate::render::encode;
use crate::tokens::{Size, change};
use crate::{input, registry};

pub(crate) fn run(args: &StatsArgs) -> Result<(), CliError> {
    let inputs: Vec<(Vec<u8>, String)> = if args.files.is_empty() {
        vec![(
            input::SAMPLE.to_vec(),
            format!("{} (sample)", input::SAMPLE_NAME),
        )]
    } else {
        args.files
            .iter()
            .map(|f| input::read(Some(f.as_path())))
            .collect::<Result<_, _>>()?
    };
    let options = CodecOptions::default();
    let codecs = registry::codecs(&options)?;
    // The markdown codec's other renderings, beside it.
    let md_variants = [
        (
            "md dense",
            MarkdownCodec::builder().profile(Profile::Dense).build(),
        ),
        (
            "md lossless",
            MarkdownCodec::builder().profile(Profile::Lossless).build(),
        ),
    ];
    let pretty = codec_json::JsonCodec::pretty();
    let compact = codec_json::JsonCodec::new();
    let mut rows = Vec::new();
    for (bytes, name) in &inputs {
        let value = input::parse_json(bytes, name)?;
        let file = Path::new(name)
            .file_name()
            .map_or(name.clone(), |f| f.to_string_lossy().into_owned());
        let base = Size::of(&encode(&compact, &value)?);
        let mut sizes = vec![(
            "json pretty".to_owned(),
            Size::of(&encode(&pretty, &value)?),
        )];
        sizes.push(("json compact".to_owned(), base));
        for codec in codecs.iter().filter(|c| c.format() != "json") {
            sizes.push((
                codec.format().to_owned(),
                Size::of(&encode(codec.as_ref(), &value)?),
            ));
            if codec.format() == "md" {
                for (label, variant) in &md_variants {
                    sizes.push((label.to_string(), Size::of(&encode(variant, &value)?)));
                }
            }
        }
        for (format, size) in sizes {
            let mut row = Map::with_capacity(5);
            row.insert("file", Value::from(file.as_str()));
            row.insert("format", Value::from(format));
            row.insert("bytes", Value::from(size.bytes));
            row.insert("tokens", Value::from(size.tokens));
            row.insert(
                "vs compact JSON",
                Value::from(change(size.tokens, base.tokens)),
            );
            rows.push(Value::Object(row));
        }
    }
    // The report is itself a table of uniform objects: our own markdown.
    let body = encode(&MarkdownCodec::new(), &Value::Array(rows))?;
    input::write_stdout(&body)
}

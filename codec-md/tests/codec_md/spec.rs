//! Every example of SPEC.md is checked: each `json` input renders to exactly
//! the `markdown` output that follows it, and a GFM parser reads that output
//! as the structure the schema promises.

use crate::support;

use codec_core::from_str;

#[test]
fn every_example_renders_as_written() {
    let spec = include_str!("../../SPEC.md");
    let fences = support::fences(spec);
    let mut checked = 0;
    for pair in fences.windows(2) {
        let [input, output] = pair else { continue };
        if input.info != "json" {
            continue;
        }
        assert_eq!(
            output.info, "markdown",
            "SPEC.md line {}: json without markdown",
            input.line
        );
        let value =
            from_str(&input.content).unwrap_or_else(|e| panic!("SPEC.md line {}: {e}", input.line));
        let rendered = support::check_structure(&value);
        assert!(
            rendered == output.content,
            "SPEC.md line {}: the example differs\n--- written\n{}\n--- rendered\n{}",
            output.line,
            output.content,
            rendered
        );
        checked += 1;
    }
    let inputs = fences.iter().filter(|f| f.info == "json").count();
    assert_eq!(checked, inputs);
    assert!(checked >= 10, "only {checked} examples found");
}

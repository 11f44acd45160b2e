#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| -> libfuzzer_sys::Corpus {
    agent_codecs_fuzz::corpus(fuzz_targets::md_stream(data))
});

//! `cargo run -p codec-mcp --example tool-result-for-each-protocol-version`
//!
//! One handler's data, written as the `tools/call` response each protocol
//! version expects: wrapped for the 2025 revisions, as is with a result
//! type for 2026-07-28. Then a tool error, which is a result too.

use codec_core::{EncodeError, from_slice};
use codec_mcp::{Implementation, McpCodec, ProtocolVersion, RequestId, StructuredContent};

fn main() -> Result<(), EncodeError> {
    // What the handler returns to HTTP clients as JSON.
    let users = from_slice(
        br#"[{"id": "u1", "name": "Alice", "score": 0.90},
             {"id": "u2", "name": "Bob", "score": 1.25}]"#,
    )
    .expect("valid JSON");

    let codec = McpCodec::builder()
        .server_info(Some(Implementation::new("example-server", "0.1.0")))
        .build()
        .expect("options agree");
    for version in ProtocolVersion::ALL {
        let codec = codec.with_protocol_version(version);
        let result = codec.result(&users)?;
        let body = codec.response_to_vec(RequestId::from(7), result)?;
        println!("{version}:\n{}\n", String::from_utf8_lossy(&body));
    }

    // For agents that show the model structuredContent instead of the text:
    // the markdown alone.
    let markdown_only = McpCodec::builder()
        .structured_content(StructuredContent::Never)
        .build()
        .expect("no output schema declared");
    let result = markdown_only.result(&users)?;
    println!("markdown only:\n{}\n", result.text().unwrap_or_default());

    // A tool that ran and failed: a result with isError, never a JSON-RPC
    // error, so the model can read what went wrong and try again.
    let error =
        from_slice(br#"{"error": "no user u3", "hint": "list users first"}"#).expect("valid JSON");
    let result = codec.error_result(&error)?;
    let body = codec.response_to_vec(RequestId::from(8), result)?;
    println!("error:\n{}", String::from_utf8_lossy(&body));
    Ok(())
}

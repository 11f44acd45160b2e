//! Shared by the integration tests: the official schemas, loaded from
//! `tests/data/schema`, and a check that a document validates against one
//! of their definitions.

#![allow(dead_code, unreachable_pub)]

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use codec_mcp::ProtocolVersion;

/// The path of a test data file.
pub fn data_path(name: &str) -> String {
    format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// A test data file, as JSON.
pub fn read_json(name: &str) -> serde_json::Value {
    let path = data_path(name);
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    serde_json::from_slice(&bytes).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Compiled validators by version and definition: each is compiled once
/// per test binary.
type Validators = HashMap<(ProtocolVersion, String), Arc<jsonschema::Validator>>;

/// A validator for the definition `definition` (`CallToolResult`,
/// `JSONRPCResultResponse`...) of the schema of `version`.
///
/// The schemas have no `$id` and only internal `$ref`s, so the whole
/// document is the root resource: a `$ref` to the definition added at its
/// root selects it, offline (draft-07 ignores the siblings of a `$ref`
/// but still resolves the pointer into `definitions`).
pub fn validator(version: ProtocolVersion, definition: &str) -> Arc<jsonschema::Validator> {
    static CACHE: OnceLock<Mutex<Validators>> = OnceLock::new();
    let cache = CACHE.get_or_init(Default::default);
    let key = (version, definition.to_owned());
    if let Some(v) = cache.lock().unwrap().get(&key) {
        return Arc::clone(v);
    }
    let mut schema = read_json(&format!("schema/{version}.schema.json"));
    let defs = if schema.get("$defs").is_some() {
        "$defs"
    } else {
        "definitions"
    };
    // 2025-11-25 renamed two JSON-RPC definitions; the conformance file
    // uses the new names for 2025-06-18 too.
    let definition = match (definition, schema[defs].get(definition)) {
        ("JSONRPCResultResponse", None) => "JSONRPCResponse",
        ("JSONRPCErrorResponse", None) => "JSONRPCError",
        (name, _) => name,
    };
    assert!(
        schema[defs].get(definition).is_some(),
        "{version} has no definition {definition}"
    );
    schema["$ref"] = serde_json::Value::String(format!("#/{defs}/{definition}"));
    let validator = Arc::new(
        jsonschema::validator_for(&schema)
            .unwrap_or_else(|e| panic!("schema {version}#{definition}: {e}")),
    );
    cache.lock().unwrap().insert(key, Arc::clone(&validator));
    validator
}

/// Panics, naming `label`, unless `instance` validates against
/// `definition` of `version`.
#[track_caller]
pub fn assert_valid(
    label: &str,
    version: ProtocolVersion,
    definition: &str,
    instance: &serde_json::Value,
) {
    let validator = validator(version, definition);
    let errors: Vec<String> = validator
        .iter_errors(instance)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(
        errors.is_empty(),
        "{label}: not a valid {version}#{definition}:\n{}\n{instance:#}",
        errors.join("\n")
    );
}

/// Panics, naming `label`, unless `instance` is *invalid* against
/// `definition` of `version`: proves the validator can fail.
#[track_caller]
pub fn assert_invalid(
    label: &str,
    version: ProtocolVersion,
    definition: &str,
    instance: &serde_json::Value,
) {
    assert!(
        !validator(version, definition).is_valid(instance),
        "{label}: unexpectedly a valid {version}#{definition}:\n{instance:#}"
    );
}

/// Our bytes as a `serde_json::Value`, for the validator.
#[track_caller]
pub fn json(bytes: &[u8]) -> serde_json::Value {
    serde_json::from_slice(bytes)
        .unwrap_or_else(|e| panic!("not JSON ({e}):\n{}", String::from_utf8_lossy(bytes)))
}

//! [`advertised_output_schema`]: the `outputSchema` a tool advertises in
//! `tools/list`, wrapped the same way the codec wraps `structuredContent`.

use codec_core::{Map, Value};

use crate::version::ProtocolVersion;

/// The name of the member that holds a wrapped value: `{"result": value}`,
/// as the official TypeScript and Python SDKs wrap.
pub(crate) const WRAP_KEY: &str = "result";

/// The output schema to advertise for a tool whose results match `schema`,
/// under protocol `version`.
///
/// The 2025 revisions accept only object schemas (`"type": "object"`) and
/// object `structuredContent`; for any other schema the codec wraps each
/// result as `{"result": value}`, so the advertised schema is wrapped the
/// same way:
///
/// ```json
/// {"type": "object", "properties": {"result": <schema>}, "required": ["result"]}
/// ```
///
/// An object schema, and any schema under 2026-07-28, is returned as is.
/// A schema counts as an object schema only when its `type` is exactly
/// `"object"`: `{"type": ["object", "null"]}` or a schema with no `type`
/// also admits non-objects, so it is wrapped. The boolean schemas `true` and
/// `false`, which the MCP schemas do not accept for `outputSchema`, become
/// `{}` and `{"not": {}}`.
///
/// ```
/// use codec_core::from_str;
/// use codec_mcp::{advertised_output_schema, ProtocolVersion};
///
/// let array = from_str(r#"{"type":"array","items":{"type":"string"}}"#).unwrap();
/// let wrapped = advertised_output_schema(&array, ProtocolVersion::V2025_11_25);
/// assert!(wrapped["properties"]["result"].identical(&array));
/// assert_eq!(wrapped["required"][0].as_str(), Some("result"));
///
/// assert!(advertised_output_schema(&array, ProtocolVersion::V2026_07_28).identical(&array));
/// ```
pub fn advertised_output_schema(schema: &Value, version: ProtocolVersion) -> Value {
    let schema = match schema {
        Value::Bool(true) => Value::Object(Map::new()),
        Value::Bool(false) => {
            Value::Object([("not", Value::Object(Map::new()))].into_iter().collect())
        }
        other => other.clone(),
    };
    if !needs_wrapping(&schema, version) {
        return schema;
    }
    let properties: Map = [(WRAP_KEY, schema)].into_iter().collect();
    [
        ("type", Value::from("object")),
        ("properties", Value::Object(properties)),
        ("required", Value::Array(vec![Value::from(WRAP_KEY)])),
    ]
    .into_iter()
    .collect::<Map>()
    .into()
}

/// Whether results of a tool with output schema `schema` are wrapped under
/// `version`.
pub(crate) fn needs_wrapping(schema: &Value, version: ProtocolVersion) -> bool {
    version.requires_object_structured_content() && !is_object_schema(schema)
}

/// Whether `schema` admits only objects, as the 2025 revisions require of
/// an `outputSchema`: its `type` is `"object"`.
fn is_object_schema(schema: &Value) -> bool {
    schema.get("type").and_then(Value::as_str) == Some("object")
}

#[cfg(test)]
mod tests {
    use super::*;
    use codec_core::from_str;

    #[test]
    fn wraps_exactly_the_non_object_schemas_before_2026() {
        // (schema, wrapped under 2025)
        let cases: &[(&str, bool)] = &[
            (
                r#"{"type":"object","properties":{"a":{"type":"integer"}}}"#,
                false,
            ),
            (r#"{"type":"object"}"#, false),
            (r#"{"type":"array","items":{"type":"integer"}}"#, true),
            (r#"{"type":"string"}"#, true),
            (r#"{"type":"null"}"#, true),
            (r#"{"type":["object","null"]}"#, true),
            (r#"{"properties":{"a":{}}}"#, true),
            (r#"{}"#, true),
        ];
        for &(text, wraps) in cases {
            let schema = from_str(text).unwrap();
            for version in ProtocolVersion::ALL {
                let advertised = advertised_output_schema(&schema, version);
                let expected = if wraps && version.requires_object_structured_content() {
                    from_str(&format!(
                        r#"{{"type":"object","properties":{{"result":{text}}},"required":["result"]}}"#
                    ))
                    .unwrap()
                } else {
                    schema.clone()
                };
                assert!(
                    advertised.identical(&expected),
                    "{text} under {version}: {advertised:?}"
                );
                assert_eq!(needs_wrapping(&schema, version), advertised != schema);
            }
        }
    }

    #[test]
    fn boolean_schemas_become_objects() {
        let cases = [(true, "{}"), (false, r#"{"not":{}}"#)];
        for (schema, object) in cases {
            let object = from_str(object).unwrap();
            let v2026 =
                advertised_output_schema(&Value::Bool(schema), ProtocolVersion::V2026_07_28);
            assert_eq!(v2026, object);
            let v2025 =
                advertised_output_schema(&Value::Bool(schema), ProtocolVersion::V2025_11_25);
            assert_eq!(v2025["properties"]["result"], object);
        }
    }
}

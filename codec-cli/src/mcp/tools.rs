//! The two tools of `codec mcp`, as a model sees them in `tools/list`
//! (name, description, input and output schemas), and how `get` reads its
//! arguments.
//!
//! Wrong arguments are tool errors, not JSON-RPC errors: the specification
//! puts input validation among the errors a model can correct, so the
//! text says what was wrong and what is expected.

use std::sync::Arc;

use codec_core::{Value, from_str, truncate::Omission};
use rmcp::model::{JsonObject, Tool, ToolAnnotations};

use super::library::Refusal;

/// The tool that lists the documents.
pub(crate) const LIST: &str = "list";
/// The tool that gets one document, or a slice of its rows.
pub(crate) const GET: &str = "get";

/// Past this many documents `get`'s `name` lists no `enum` (the list of
/// tools would grow with the directory).
const MAX_NAMES_IN_SCHEMA: usize = 100;

/// What `get` was asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct GetRequest {
    pub(crate) name: String,
    pub(crate) offset: Option<usize>,
    pub(crate) limit: Option<usize>,
}

impl GetRequest {
    /// Whether a slice of rows was asked for.
    pub(crate) fn is_slice(&self) -> bool {
        self.offset.is_some() || self.limit.is_some()
    }
}

/// `list`, with its output schema (as listed for the peer).
pub(crate) fn list_tool(output_schema: Option<Arc<JsonObject>>) -> Tool {
    let input =
        json_object(r#"{"type": "object", "properties": {}, "additionalProperties": false}"#);
    let mut tool = Tool::new(
        LIST,
        "List the documents: each one's name and, for a table, its number of rows \
         (page through them with get's offset and limit).",
        input,
    )
    .with_annotations(ToolAnnotations::new().read_only(true));
    tool.output_schema = output_schema;
    tool
}

/// `get`, with its output schema; `names` fill the `enum` of `name`.
pub(crate) fn get_tool(names: &[&str], output_schema: Option<Arc<JsonObject>>) -> Tool {
    let mut name = serde_json::json!({
        "type": "string",
        "description": "The document's name, as `list` gives it."
    });
    if names.len() <= MAX_NAMES_IN_SCHEMA {
        name["enum"] = names.iter().map(|n| serde_json::Value::from(*n)).collect();
    }
    let input = serde_json::json!({
        "type": "object",
        "properties": {
            "name": name,
            "offset": {
                "type": "integer",
                "minimum": 0,
                "description": "The first row to return, from 0 (documents with rows only)."
            },
            "limit": {
                "type": "integer",
                "minimum": 1,
                "description": "How many rows to return at most (documents with rows only)."
            }
        },
        "required": ["name"],
        "additionalProperties": false
    });
    let serde_json::Value::Object(input) = input else {
        unreachable!("a JSON object literal")
    };
    let mut tool = Tool::new(
        GET,
        "Get a document as markdown. For a table, offset and limit return a slice of its \
         rows; a text cut to fit the client's budget keeps whole rows, says which offset \
         to ask for next, and the structured content then holds the rows the text kept.",
        input,
    )
    .with_annotations(ToolAnnotations::new().read_only(true));
    tool.output_schema = output_schema;
    tool
}

/// The schema of `list`'s results.
pub(crate) fn list_output_schema() -> Value {
    from_str(
        r#"{"type": "object", "properties": {"documents": {"type": "array", "items": {
            "type": "object",
            "properties": {
                "name": {"type": "string"},
                "rows": {"type": "integer", "minimum": 0},
                "error": {"type": "string"}
            },
            "required": ["name"]}}},
        "required": ["documents"]}"#,
    )
    .expect("a valid schema")
}

/// The schema of `get`'s results: any object when every document is one
/// (so no protocol revision wraps them), any value otherwise.
pub(crate) fn get_output_schema(all_objects: bool) -> Value {
    let schema = if all_objects {
        r#"{"type": "object", "description": "The document, or the slice of its rows asked for."}"#
    } else {
        r#"{"description": "The document, or the slice of its rows asked for."}"#
    };
    from_str(schema).expect("a valid schema")
}

/// The last sentence of the note of a `get` text cut to the limit: the
/// call that gets the rows after the ones kept, for a page of `rows` rows
/// from row `start` of document `name`.
///
/// The markdown cut counts table rows; they are the page's rows when the
/// page is one table of them (its row count is theirs), and the next
/// offset is then exact. Otherwise (rows written as sections, a document
/// without rows) the note says how to read it in pages, or that there
/// are none; the server then pages rows written as sections itself, by
/// whole rows (`Fitting::text`), and this note stays only where not
/// even one row fits.
pub(crate) fn next_page_hint(
    name: &str,
    start: usize,
    rows: Option<usize>,
    structured: bool,
) -> impl Fn(&Omission) -> String + Send + Sync + 'static + use<> {
    let name = serde_json::Value::from(name).to_string();
    move |omission: &Omission| match (rows, rows_kept(rows, omission)) {
        (_, Some(kept)) => format!(
            "Call get with {{\"name\": {name}, \"offset\": {}}} for the next rows.",
            start + kept
        ),
        (Some(rows), _) if rows > 1 => format!(
            "Call get with {{\"name\": {name}, \"offset\": {start}, \"limit\": {}}} to read \
             these {rows} rows in smaller pages.",
            (rows / 4).max(1)
        ),
        _ if structured => "The structuredContent of this result holds all of it.".to_owned(),
        _ => "It has no rows to page through; raise --mcp-text-limit to see all of it.".to_owned(),
    }
}

/// The note ending a page the server cut to the limit by whole rows:
/// `kept` of the page's `rows` rows from row `start` of document `name`,
/// and the call that gets the next ones.
pub(crate) fn rows_note(name: &str, start: usize, kept: usize, rows: usize) -> String {
    let name = serde_json::Value::from(name);
    format!(
        "[Truncated to the text limit: {kept} of these {rows} rows. Call get with \
         {{\"name\": {name}, \"offset\": {}}} for the next rows.]",
        start + kept
    )
}

/// How many of a page's `rows` a cut text kept, when the page is one
/// table of them (its row count is theirs) and the cut kept some: the
/// next page then starts right after them.
pub(crate) fn rows_kept(rows: Option<usize>, omission: &Omission) -> Option<usize> {
    match (rows, omission.rows) {
        (Some(rows), Some(table)) if table.total == rows && table.kept > 0 => Some(table.kept),
        _ => None,
    }
}

/// `get`'s arguments, or what is wrong with them.
pub(crate) fn read_get(
    arguments: Option<&JsonObject>,
    names: &[&str],
) -> Result<GetRequest, Refusal> {
    let empty = JsonObject::new();
    let arguments = arguments.unwrap_or(&empty);
    if let Some(unknown) = arguments
        .keys()
        .find(|k| !matches!(k.as_str(), "name" | "offset" | "limit"))
    {
        return Err(format!(
            "unknown argument {unknown:?}: get takes name, and offset and limit for a slice of rows"
        ));
    }
    let name = match arguments.get("name") {
        Some(serde_json::Value::String(name)) => name.clone(),
        Some(other) => return Err(format!("name must be a string, found {other}")),
        None => {
            return Err(format!(
                "get needs the name of a document: one of {}",
                names.join(", ")
            ));
        }
    };
    Ok(GetRequest {
        name,
        offset: count(arguments, "offset", 0)?,
        limit: count(arguments, "limit", 1)?,
    })
}

/// The whole number `key`, at least `min`, if present. A float with no
/// fraction (`10.0`, as some JSON writers send integers) counts.
fn count(arguments: &JsonObject, key: &str, min: usize) -> Result<Option<usize>, Refusal> {
    let Some(value) = arguments.get(key) else {
        return Ok(None);
    };
    let whole = value.as_u64().or_else(|| {
        value
            .as_f64()
            .filter(|f| f.fract() == 0.0 && *f >= 0.0 && *f <= u64::MAX as f64)
            .map(|f| f as u64)
    });
    match whole.map(usize::try_from) {
        Some(Ok(n)) if n >= min => Ok(Some(n)),
        _ if value.is_null() => Ok(None),
        _ => Err(format!(
            "{key} must be a whole number from {min}, found {value}"
        )),
    }
}

fn json_object(text: &str) -> JsonObject {
    match serde_json::from_str(text) {
        Ok(serde_json::Value::Object(object)) => object,
        _ => unreachable!("a JSON object literal"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn get_reads_its_arguments() {
        let names = ["a", "b"];
        let request = |name: &str, offset, limit| GetRequest {
            name: name.to_owned(),
            offset,
            limit,
        };
        // (arguments, expected request or refusal)
        let cases: &[(&str, Result<GetRequest, &str>)] = &[
            (r#"{"name": "a"}"#, Ok(request("a", None, None))),
            (r#"{"name": "zz"}"#, Ok(request("zz", None, None))),
            (
                r#"{"name": "a", "offset": 10, "limit": 5}"#,
                Ok(request("a", Some(10), Some(5))),
            ),
            (
                r#"{"name": "a", "offset": 10.0, "limit": null}"#,
                Ok(request("a", Some(10), None)),
            ),
            (
                r#"{}"#,
                Err("get needs the name of a document: one of a, b"),
            ),
            (r#"{"name": 3}"#, Err("name must be a string, found 3")),
            (
                r#"{"name": "a", "offset": -1}"#,
                Err("offset must be a whole number from 0, found -1"),
            ),
            (
                r#"{"name": "a", "offset": 1.5}"#,
                Err("offset must be a whole number from 0, found 1.5"),
            ),
            (
                r#"{"name": "a", "limit": 0}"#,
                Err("limit must be a whole number from 1, found 0"),
            ),
            (
                r#"{"name": "a", "limit": "10"}"#,
                Err(r#"limit must be a whole number from 1, found "10""#),
            ),
            (
                r#"{"name": "a", "page": 2}"#,
                Err(
                    r#"unknown argument "page": get takes name, and offset and limit for a slice of rows"#,
                ),
            ),
        ];
        for (arguments, expected) in cases {
            let arguments = json_object(arguments);
            let got = read_get(Some(&arguments), &names);
            assert_eq!(
                got,
                expected.clone().map_err(str::to_owned),
                "{arguments:?}"
            );
        }
        assert_eq!(
            read_get(None, &names),
            Err("get needs the name of a document: one of a, b".to_owned())
        );
        assert!(request("a", Some(0), None).is_slice());
        assert!(!request("a", None, None).is_slice());
    }

    #[test]
    fn the_note_names_the_next_page() {
        use codec_core::truncate::Tally;
        let omission = |rows: Option<(usize, usize)>| {
            let mut omission = Omission::new(10, 20);
            omission.rows = rows.map(|(kept, total)| Tally::new(kept, total));
            omission
        };
        // (page rows, rows counted by the cut (kept, total), structured,
        // hint)
        type Case<'a> = (Option<usize>, Option<(usize, usize)>, bool, &'a str);
        let cases: &[Case<'_>] = &[
            (
                Some(100),
                Some((40, 100)),
                true,
                r#"Call get with {"name": "a \"b\"", "offset": 50} for the next rows."#,
            ),
            (
                Some(100),
                Some((3, 7)),
                true,
                r#"Call get with {"name": "a \"b\"", "offset": 10, "limit": 25} to read these 100 rows in smaller pages."#,
            ),
            (
                Some(100),
                Some((0, 100)),
                true,
                r#"Call get with {"name": "a \"b\"", "offset": 10, "limit": 25} to read these 100 rows in smaller pages."#,
            ),
            (
                Some(1),
                Some((0, 1)),
                true,
                "The structuredContent of this result holds all of it.",
            ),
            (
                None,
                None,
                true,
                "The structuredContent of this result holds all of it.",
            ),
            (
                None,
                Some((1, 5)),
                false,
                "It has no rows to page through; raise --mcp-text-limit to see all of it.",
            ),
        ];
        for (rows, counted, structured, expected) in cases {
            let hint = next_page_hint("a \"b\"", 10, *rows, *structured);
            assert_eq!(hint(&omission(*counted)), *expected, "{rows:?} {counted:?}");
        }
    }

    #[test]
    fn get_lists_the_names_while_they_are_few() {
        let few = get_tool(&["a", "b"], None);
        assert_eq!(
            few.input_schema["properties"]["name"]["enum"],
            serde_json::json!(["a", "b"])
        );
        let many: Vec<String> = (0..=MAX_NAMES_IN_SCHEMA).map(|i| i.to_string()).collect();
        let many: Vec<&str> = many.iter().map(String::as_str).collect();
        let tool = get_tool(&many, None);
        assert!(
            tool.input_schema["properties"]["name"]
                .get("enum")
                .is_none()
        );
        assert_eq!(list_tool(None).name, LIST);
    }
}

//! A [`Value`] as JSON, in its own key order.

use super::{JsonEscapes, JsonWriter};
use crate::{EncodeError, Value};

/// Writes `value`, `level` containers already open. Recursion is bounded
/// by the writer's depth limit: a deeper value is an error before the
/// stack is at risk.
pub(crate) fn write_value<E: JsonEscapes>(
    writer: &JsonWriter<E>,
    value: &Value,
    out: &mut Vec<u8>,
    level: usize,
) -> Result<(), EncodeError> {
    let style = writer.style;
    match value {
        Value::Null => out.extend_from_slice(b"null"),
        Value::Bool(true) => out.extend_from_slice(b"true"),
        Value::Bool(false) => out.extend_from_slice(b"false"),
        Value::Number(n) => n.write_to(out),
        Value::String(s) => writer.write_str(s, out),
        Value::Array(items) => {
            writer.check_depth(level)?;
            out.push(b'[');
            for (i, item) in items.iter().enumerate() {
                style.before_item(out, i == 0, level + 1);
                write_value(writer, item, out, level + 1)?;
            }
            style.close(out, !items.is_empty(), level, b']');
        }
        Value::Object(map) => {
            writer.check_depth(level)?;
            out.push(b'{');
            for (i, (key, item)) in map.iter().enumerate() {
                style.before_item(out, i == 0, level + 1);
                writer.write_str(key, out);
                style.colon(out);
                write_value(writer, item, out, level + 1)?;
            }
            style.close(out, !map.is_empty(), level, b'}');
        }
    }
    Ok(())
}

//! A [`Value`](crate::Value), or any [`ValueView`], as JSON, in its own
//! key order.

use super::{JsonEscapes, JsonWriter};
use crate::error::EncodeError;
use crate::view::{ValueView, ViewKind};

/// Writes `view`, `level` containers already open. Recursion is bounded
/// by the writer's depth limit: a deeper value is an error before the
/// stack is at risk.
pub(crate) fn write_view<'v, E: JsonEscapes, V: ValueView<'v>>(
    writer: &JsonWriter<E>,
    view: V,
    out: &mut Vec<u8>,
    level: usize,
) -> Result<(), EncodeError> {
    let style = writer.style;
    match view.kind() {
        ViewKind::Null => out.extend_from_slice(b"null"),
        ViewKind::Bool(true) => out.extend_from_slice(b"true"),
        ViewKind::Bool(false) => out.extend_from_slice(b"false"),
        ViewKind::Number(n) => n.write_to(out),
        ViewKind::String(s) => writer.write_str(s, out),
        ViewKind::Array(items) => {
            writer.check_depth(level)?;
            out.push(b'[');
            let any = items.len() > 0;
            for (i, item) in items.enumerate() {
                style.before_item(out, i == 0, level + 1);
                write_view(writer, item, out, level + 1)?;
            }
            style.close(out, any, level, b']');
        }
        ViewKind::Object(members) => {
            writer.check_depth(level)?;
            out.push(b'{');
            let any = members.len() > 0;
            for (i, (key, item)) in members.enumerate() {
                style.before_item(out, i == 0, level + 1);
                writer.write_str(key, out);
                style.colon(out);
                write_view(writer, item, out, level + 1)?;
            }
            style.close(out, any, level, b'}');
        }
    }
    Ok(())
}

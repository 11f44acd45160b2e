//! The page around the data: the document head, the header with the
//! alternates (the same response in the agent formats, with what each
//! costs), and `<main>` with the rendering of [`crate::render`].

use std::sync::Arc;

use codec_core::{Codec, EncodeError, TokenCounter, Value};

use crate::escape;
use crate::render::{self, Options};
use crate::style::{META_POLICY, STYLESHEET};

/// Everything a page needs besides the value.
#[derive(Debug, Clone)]
pub(crate) struct Page {
    pub(crate) title: String,
    pub(crate) options: Options,
    pub(crate) alternates: Vec<Arc<dyn Codec>>,
    pub(crate) counter: Option<Arc<dyn TokenCounter>>,
    pub(crate) format_param: String,
}

/// What one alternate made of the value.
enum Cost {
    Encoded { bytes: usize, tokens: Option<usize> },
    Failed(EncodeError),
}

impl Page {
    /// Appends the whole page for `value` to `out`.
    pub(crate) fn write(&self, value: &Value, out: &mut Vec<u8>) -> Result<(), EncodeError> {
        out.extend_from_slice(
            b"<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n",
        );
        out.extend_from_slice(b"<meta http-equiv=\"Content-Security-Policy\" content=\"");
        escape::write_attr(out, META_POLICY);
        out.extend_from_slice(
            b"\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n",
        );
        out.extend_from_slice(b"<meta name=\"color-scheme\" content=\"light dark\">\n<title>");
        escape::write_text(out, &self.title);
        out.extend_from_slice(b"</title>\n");
        for codec in &self.alternates {
            // Machine-readable alternates: a client that reads HTML finds
            // the agent formats here.
            out.extend_from_slice(b"<link rel=\"alternate\" type=\"");
            escape::write_attr(out, codec.media_type().as_str());
            out.extend_from_slice(b"\" href=\"");
            self.write_href(out, codec.format());
            out.extend_from_slice(b"\">\n");
        }
        out.extend_from_slice(b"<style>");
        out.extend_from_slice(STYLESHEET.as_bytes());
        out.extend_from_slice(b"</style>\n</head>\n<body>\n<header>\n<h1>");
        escape::write_text(out, &self.title);
        out.extend_from_slice(b"</h1>\n");
        if !self.alternates.is_empty() {
            self.write_alternates(value, out);
        }
        out.extend_from_slice(b"</header>\n<main>\n");
        render::render(value, out, &self.options)?;
        out.extend_from_slice(b"</main>\n</body>\n</html>\n");
        Ok(())
    }

    /// `?format=NAME`: relative, so it names the same resource whatever
    /// the path, and replaces the query that selected this page.
    fn write_href(&self, out: &mut Vec<u8>, format: &str) {
        out.push(b'?');
        escape::write_attr(out, &self.format_param);
        out.push(b'=');
        escape::write_attr(out, format);
    }

    /// The table of alternates: a link to each, its media type, and the
    /// bytes and tokens of this very value in it.
    fn write_alternates(&self, value: &Value, out: &mut Vec<u8>) {
        let costs: Vec<Cost> = self
            .alternates
            .iter()
            .map(|c| self.cost(c, value))
            .collect();
        let fewest = costs
            .iter()
            .filter_map(|cost| match cost {
                Cost::Encoded { tokens, .. } => *tokens,
                Cost::Failed(_) => None,
            })
            .min();
        out.extend_from_slice(b"<nav aria-label=\"Other formats\">\n<p>");
        out.extend_from_slice(match &self.counter {
            Some(_) => b"The same data for agents, and what each format costs:".as_slice(),
            None => b"The same data for agents:",
        });
        out.extend_from_slice(b"</p>\n<div class=\"scroll\"><table class=\"formats\">\n<thead><tr><th>format</th><th>media type</th><th>bytes</th>");
        if let Some(counter) = &self.counter {
            out.extend_from_slice(b"<th>");
            escape::write_text(out, counter.name());
            out.extend_from_slice(b" tokens</th>");
        }
        out.extend_from_slice(b"</tr></thead>\n<tbody>\n");
        for (codec, cost) in self.alternates.iter().zip(&costs) {
            out.extend_from_slice(b"<tr><td><a href=\"");
            self.write_href(out, codec.format());
            out.extend_from_slice(b"\">");
            escape::write_text(out, codec.format());
            out.extend_from_slice(b"</a></td><td>");
            escape::write_text(out, codec.media_type().as_str());
            out.extend_from_slice(b"</td>");
            match cost {
                Cost::Encoded { bytes, tokens } => {
                    write_count(out, *bytes, false);
                    if let Some(tokens) = tokens {
                        write_count(out, *tokens, Some(*tokens) == fewest);
                    }
                }
                Cost::Failed(error) => {
                    let span: &[u8] = if self.counter.is_some() { b"2" } else { b"1" };
                    out.extend_from_slice(b"<td class=\"failed\" colspan=\"");
                    out.extend_from_slice(span);
                    out.extend_from_slice(b"\">cannot encode: ");
                    escape::write_text(out, &error.to_string());
                    out.extend_from_slice(b"</td>");
                }
            }
            out.extend_from_slice(b"</tr>\n");
        }
        out.extend_from_slice(b"</tbody>\n</table></div>\n</nav>\n");
    }

    fn cost(&self, codec: &Arc<dyn Codec>, value: &Value) -> Cost {
        let mut body = Vec::new();
        if let Err(error) = codec.encode_value(value, &mut body) {
            return Cost::Failed(error);
        }
        let tokens = self
            .counter
            .as_ref()
            .map(|counter| counter.count(&String::from_utf8_lossy(&body)));
        Cost::Encoded {
            bytes: body.len(),
            tokens,
        }
    }
}

/// A count cell: `<data value="12345">12,345</data>`, machine-readable and
/// grouped for a person.
fn write_count(out: &mut Vec<u8>, n: usize, best: bool) {
    out.extend_from_slice(if best {
        b"<td class=\"best\"><data value=\"".as_slice()
    } else {
        b"<td><data value=\""
    });
    let mut buffer = itoa::Buffer::new();
    let digits = buffer.format(n).as_bytes();
    out.extend_from_slice(digits);
    out.extend_from_slice(b"\">");
    for (i, &digit) in digits.iter().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(b',');
        }
        out.push(digit);
    }
    out.extend_from_slice(b"</data></td>");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_are_grouped_and_machine_readable() {
        let cases: &[(usize, bool, &str)] = &[
            (0, false, "<td><data value=\"0\">0</data></td>"),
            (999, false, "<td><data value=\"999\">999</data></td>"),
            (1000, false, "<td><data value=\"1000\">1,000</data></td>"),
            (
                1234567,
                true,
                "<td class=\"best\"><data value=\"1234567\">1,234,567</data></td>",
            ),
        ];
        for (n, best, expected) in cases {
            let mut out = Vec::new();
            write_count(&mut out, *n, *best);
            assert_eq!(String::from_utf8(out).unwrap(), *expected);
        }
    }
}

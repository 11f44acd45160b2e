//! The outline: a document as a flat sequence of blocks (headings, key
//! lists, tables, a top-level scalar), and the one reader that nests them
//! into a [`Value`].
//!
//! The line pass ([`crate::read::lexer`]) produces the blocks from markdown
//! text; [`normalize`] produces them from a value's layout. Both then go
//! through [`read`], so the rules that nest sections (heading depth, the h6
//! cap, `[i]` labels, duplicate keys) live in one place.
//!
//! [`normalize`]: crate::normalize

use codec_core::{Map, Value};

use crate::error::{ParseError, ParseErrorKind};

/// What names a member: a key, `[i]` for an array element, or `[i..]` for
/// the rows of a stream from element `i` on (a table of them).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Label {
    Key(String),
    Index(usize),
    From(usize),
}

/// One block of a document, with the line it starts on (1 for values that
/// have no source).
#[derive(Debug)]
pub(crate) struct Block {
    pub(crate) kind: Kind,
    pub(crate) line: usize,
}

/// One `- **key**: value` line.
#[derive(Debug)]
pub(crate) struct Item {
    pub(crate) label: Label,
    /// `None` is the lossless placeholder for a section that comes later.
    pub(crate) value: Option<Value>,
    pub(crate) line: usize,
}

#[derive(Debug)]
pub(crate) enum Kind {
    /// A top-level paragraph or fence: the whole document.
    Scalar(Value),
    /// A table: an array of row objects.
    Table(Value),
    /// A list of `- **key**: value` lines.
    List(Vec<Item>),
    /// A heading at `depth` (its level, or beyond 6 by its lossless
    /// marker). `capped` is an unmarked h6 of the default reading, which
    /// may stand for any depth from 6 on.
    Heading {
        depth: usize,
        label: Label,
        capped: bool,
    },
}

/// Nests `blocks` into the document's value.
///
/// A heading's section is everything up to the next heading of the same or
/// a lower depth; a section's value is its table, or its list and
/// sections. Below h6 the default rendering repeats `######`, so an
/// unmarked h6 section with no list or table of its own holds every h6
/// section that follows it (its members); one with a list holds none
/// (they are its siblings).
///
/// The value nests at most `max_depth` deep, counting the document's own
/// container as JSON does: a member, a table or a section that would go
/// deeper is an error at its line, and so is a run of more than
/// `max_depth` sections. The blocks' own values are bounded by the line
/// pass, so nothing deeper is ever built.
pub(crate) fn read(blocks: Vec<Block>, max_depth: usize) -> Result<Value, ParseError> {
    let mut reader = Reader {
        blocks: blocks.into_iter().peekable(),
        max_depth,
    };
    let value = match reader.blocks.peek() {
        None => Value::Null,
        Some(Block {
            kind: Kind::Scalar(_),
            ..
        }) => match reader.blocks.next() {
            Some(Block {
                kind: Kind::Scalar(v),
                line,
            }) => reader.check(0, v, line)?,
            _ => unreachable!("peeked"),
        },
        Some(_) => reader.body(0, false, 1)?,
    };
    match reader.blocks.next() {
        None => Ok(value),
        Some(block) => Err(ParseError::expected(
            "the end of the document (a list, table or paragraph ends it here)",
            block.line,
            1,
        )),
    }
}

struct Reader {
    blocks: std::iter::Peekable<std::vec::IntoIter<Block>>,
    max_depth: usize,
}

impl Reader {
    /// Whether the next block is a heading inside the section at heading
    /// `depth` (0 for the document): a deeper one, or below h6 an h6 that
    /// an unmarked h6 with no `content` of its own holds.
    fn member_follows(&mut self, depth: usize, capped: bool, content: bool) -> bool {
        match self.blocks.peek() {
            Some(Block {
                kind: Kind::Heading { depth: d, .. },
                ..
            }) => *d > depth || (capped && !content && *d == depth),
            _ => false,
        }
    }

    /// Whether the next block is a stream's `[i]` or `[i..]` heading
    /// inside the section at heading `depth`: a table before it is the
    /// stream's first rows.
    fn rows_follow(&mut self, depth: usize) -> bool {
        matches!(
            self.blocks.peek(),
            Some(Block {
                kind: Kind::Heading {
                    depth: d,
                    label: Label::Index(_) | Label::From(_),
                    ..
                },
                ..
            }) if *d > depth
        )
    }

    /// `value`, when it fits inside containers `nesting` deep.
    fn check(&self, nesting: usize, value: Value, line: usize) -> Result<Value, ParseError> {
        if nesting + value.depth() > self.max_depth {
            return Err(ParseError::depth("values", line, 1));
        }
        Ok(value)
    }

    /// The body of a section at heading `depth` (0 for the document), its
    /// container `nesting` deep (1 for the document's).
    fn body(&mut self, depth: usize, capped: bool, nesting: usize) -> Result<Value, ParseError> {
        let mut entries: Vec<(Label, Option<Value>)> = Vec::new();
        let mut content = false;
        match self.blocks.peek().map(|b| &b.kind) {
            Some(Kind::List(_)) => {
                if let Some(Block {
                    kind: Kind::List(items),
                    ..
                }) = self.blocks.next()
                {
                    for item in &items {
                        let deep = nesting + item.value.as_ref().map_or(0, Value::depth);
                        if deep > self.max_depth {
                            return Err(ParseError::depth("values", item.line, 1));
                        }
                    }
                    entries = items.into_iter().map(|i| (i.label, i.value)).collect();
                    content = true;
                }
            }
            Some(Kind::Table(_)) => {
                if let Some(Block {
                    kind: Kind::Table(table),
                    line,
                }) = self.blocks.next()
                {
                    // The table is the section's container itself.
                    if nesting - 1 + table.depth() > self.max_depth {
                        return Err(ParseError::depth("values", line, 1));
                    }
                    if !self.rows_follow(depth) {
                        return Ok(table);
                    }
                    // A stream's first rows, before its `[i]` and `[i..]`
                    // sections (`SPEC.md`, *Streaming*).
                    entries.push((Label::From(0), Some(table)));
                    content = true;
                }
            }
            Some(Kind::Scalar(_)) if depth > 0 => {
                if let Some(Block {
                    kind: Kind::Scalar(value),
                    line,
                }) = self.blocks.next()
                {
                    // A stream's row under its `[i]`, written as a
                    // document.
                    return self.check(nesting - 1, value, line);
                }
            }
            _ => {}
        }
        while let Some(Block {
            kind: Kind::Heading { depth: d, .. },
            line,
        }) = self.blocks.peek()
        {
            let (d, line) = (*d, *line);
            if !self.member_follows(depth, capped, content) {
                break;
            }
            if nesting > self.max_depth {
                let kind = ParseErrorKind::DepthLimit {
                    nested: "sections",
                    limit: self.max_depth,
                };
                return Err(ParseError::new(kind, line, 1));
            }
            let Some(Block {
                kind: Kind::Heading { label, capped, .. },
                ..
            }) = self.blocks.next()
            else {
                unreachable!("peeked")
            };
            // A stream's row that is null or `""` is an `[i]` with
            // nothing under it, as an empty document is null.
            let empty = matches!(label, Label::Index(_))
                && !self.member_follows(d, capped, false)
                && !matches!(
                    self.blocks.peek(),
                    Some(Block {
                        kind: Kind::List(_) | Kind::Table(_) | Kind::Scalar(_),
                        ..
                    })
                );
            let value = if empty {
                Value::Null
            } else {
                self.body(d, capped, nesting + 1)?
            };
            // Checked once the body is read: a run of headings past the
            // limit is reported at the first section too many (above),
            // a section whose container alone is too deep here.
            if nesting + 1 > self.max_depth {
                return Err(ParseError::depth("values", line, 1));
            }
            entries.push((label, Some(value)));
        }
        Ok(assemble(entries))
    }
}

/// A container from its labelled members: an array when every label is an
/// index or a stream's rows (`[i..]`, a table), and together they fill
/// the indices 0 to n-1 once each, in any order; else an object (an index
/// label is then the key `[i]`, a stream's the key `[i..]`; a repeated key
/// keeps its first place and its last value; a lossless placeholder is
/// null until its section comes).
pub(crate) fn assemble(entries: Vec<(Label, Option<Value>)>) -> Value {
    let n: usize = entries
        .iter()
        .map(|(label, value)| match (label, value) {
            (Label::From(_), Some(Value::Array(rows))) => rows.len(),
            _ => 1,
        })
        .sum();
    let mut slots: Vec<Option<Value>> = Vec::new();
    let is_array = n > 0 && {
        slots.resize(n, None);
        entries.iter().all(|(label, value)| match (label, value) {
            (Label::Index(i), _) => slots
                .get_mut(*i)
                .is_some_and(|slot| slot.replace(Value::Null).is_none()),
            (Label::From(from), Some(Value::Array(rows))) => (*from..from + rows.len()).all(|i| {
                slots
                    .get_mut(i)
                    .is_some_and(|slot| slot.replace(Value::Null).is_none())
            }),
            _ => false,
        })
    };
    if is_array {
        for (label, value) in entries {
            match (label, value) {
                (Label::Index(i), value) => slots[i] = Some(value.unwrap_or_default()),
                (Label::From(from), Some(Value::Array(rows))) => {
                    for (i, row) in rows.into_iter().enumerate() {
                        slots[from + i] = Some(row);
                    }
                }
                _ => {}
            }
        }
        return Value::Array(slots.into_iter().map(Option::unwrap_or_default).collect());
    }
    let mut map = Map::with_capacity(entries.len());
    for (label, value) in entries {
        let key = match label {
            Label::Key(key) => key,
            Label::Index(i) => format!("[{i}]"),
            Label::From(i) => format!("[{i}..]"),
        };
        match value {
            Some(value) => {
                map.insert(key, value);
            }
            None => {
                if !map.contains_key(&key) {
                    map.insert(key, Value::Null);
                }
            }
        }
    }
    Value::Object(map)
}

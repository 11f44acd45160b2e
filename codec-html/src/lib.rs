//! The HTML response codec: the same data an agent reads, as a page a
//! person reads in a browser, with what each agent format of that very
//! response costs.
//!
//! - [`HtmlCodec`] (built by [`HtmlCodecBuilder`]): the
//!   [`Codec`](codec_core::Codec) for `text/html; charset=utf-8`, format
//!   name `html`.
//! - [`CONTENT_SECURITY_POLICY`]: the `Content-Security-Policy` header
//!   value the page is designed for; send it with every HTML response.
//! - [`BuildError`]: why a builder's settings were rejected.
//!
//! A developer who opens an agent-facing endpoint in a browser (which asks
//! for `text/html` first) sees the response laid out as the markdown
//! codec's default profile lays it out for an agent (`codec-md/SPEC.md`):
//! arrays of flat objects as tables, objects as key lists, nested
//! containers as headed sections, code and multi-line strings as code
//! blocks with their language. The page's header links to the same
//! resource in the agent formats given to the builder (`?format=md`,
//! `?format=json`, ...) and, with a [`TokenCounter`](codec_core::TokenCounter),
//! shows the bytes and tokens each of them costs for this response.
//!
//! # Design
//!
//! The page is built for a strict policy: one built-in stylesheet named by
//! its hash, no script, no external resource, no inline style attribute.
//! Every string of the value is escaped so that an HTML5 parser's DOM
//! holds exactly its text (NUL, which no HTML document can carry, becomes
//! U+FFFD): no value can add an element, an attribute, a script, a style
//! or a link. The one exception is deliberate and can be turned off
//! ([`HtmlCodecBuilder::link_urls`]): a string that is exactly a plain
//! `http(s)` URL is a link to itself, with `rel="nofollow noopener
//! noreferrer"`, because following the URLs of a response is what a person
//! browsing an API does most. The escaping and the policy are independent
//! guards: the tests check each alone, the escaping through html5ever and
//! both in a real Chromium.
//!
//! The crate is built on `codec-core` alone, as any third-party codec can
//! be: it does not depend on the markdown codec, and mirrors its layout
//! rules. It is not a templating engine: the layout is the schema's, the
//! stylesheet is built in.
//!
//! # Example
//!
//! ```
//! use codec_core::{from_slice, CodecExt};
//! use codec_html::HtmlCodec;
//!
//! let value = from_slice(br#"{
//!     "repo": "codecs",
//!     "topics": ["rust", "llm"],
//!     "contributors": [
//!         {"login": "ada", "commits": 76},
//!         {"login": "<script>alert(1)</script>", "commits": 3}
//!     ]
//! }"#).unwrap();
//! let page = String::from_utf8(HtmlCodec::new().to_vec(&value).unwrap()).unwrap();
//! let main = &page[page.find("<main>").unwrap()..];
//! assert_eq!(
//!     main,
//!     concat!(
//!         "<main>\n",
//!         "<dl>\n",
//!         "<dt>repo</dt>\n<dd>codecs</dd>\n",
//!         "<dt>topics</dt>\n<dd class=\"list\"><span>rust</span>, <span>llm</span></dd>\n",
//!         "</dl>\n",
//!         "<section>\n<h2>contributors</h2>\n",
//!         "<div class=\"scroll\" tabindex=\"0\"><table>\n",
//!         "<thead><tr><th>login</th><th>commits</th></tr></thead>\n",
//!         "<tbody>\n",
//!         "<tr><td>ada</td><td class=\"num\">76</td></tr>\n",
//!         "<tr><td>&lt;script&gt;alert(1)&lt;/script&gt;</td><td class=\"num\">3</td></tr>\n",
//!         "</tbody>\n</table></div>\n",
//!         "</section>\n",
//!         "</main>\n</body>\n</html>\n",
//!     )
//! );
//! ```
#![deny(missing_docs)]

// The README's Rust blocks (the crate's registry page), compiled and run
// as doctests of this crate.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

mod codec;
mod escape;
mod page;
mod render;
mod style;

pub use codec::{BuildError, HtmlCodec, HtmlCodecBuilder};
pub use style::CONTENT_SECURITY_POLICY;

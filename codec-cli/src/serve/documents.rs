//! The documents `serve` publishes: read once from DIR at start, each
//! representation rendered once, on first request, and shared.
//!
//! Rendering per request made memory grow with clients × document size
//! (200 clients of a 20 MB document: 5.2 GB; issue 17, finding 3). A
//! document's value never changes after start, so neither does its
//! rendering by a codec: the first request for a format renders it (on a
//! blocking thread; concurrent requests for it wait for that one), and
//! every later request gets the same bytes, shared, never copied. Lazily,
//! so a format nobody asks for costs nothing: a directory of documents
//! costs their values plus the representations clients actually fetch,
//! each at most once. Which files are documents, and which are too large
//! to load and are streamed instead (each response reads its rows from the
//! file and encodes them as it sends them: no rendering is kept), is
//! [`crate::directory`]'s business.

use std::sync::Arc;

use bytes::Bytes;
use codec_core::{Codec, Value};
use negotiate::Representation;
use tokio::sync::OnceCell;

use super::route;
use crate::directory::Streamed;

/// One document: its value, its URL path and the representations
/// rendered so far; or, for a document too large to load, its file.
#[derive(Debug)]
pub(crate) struct Document {
    path: String,
    /// Streamed, never loaded: `value` is null and nothing is rendered.
    streamed: Option<Streamed>,
    value: Arc<Value>,
    /// One cell per codec of the negotiator, in its order. A codec's
    /// failure is kept too: rendering is deterministic.
    rendered: Vec<OnceCell<Result<Bytes, String>>>,
    /// One cell per offer (media type) of the negotiator, in its order:
    /// what the response headers say about that representation (its
    /// `ETag`, its token count). Counting a large document's tokens takes
    /// a while (o200k runs at ~12 MB/s), so it is done once, like the
    /// rendering.
    described: Vec<OnceCell<Option<Representation>>>,
    /// The HTML page titled with the document's name, used in place of
    /// the negotiator's page (titled for the index).
    page: Option<Arc<dyn Codec>>,
}

impl Document {
    /// `name` is the route name (`""` for the index); `codecs` and
    /// `offers` the numbers of codecs that may render it and of media
    /// types it may be sent as.
    pub(crate) fn new(name: &str, value: Value, (codecs, offers): (usize, usize)) -> Document {
        Document {
            path: route::path_of(name),
            streamed: None,
            value: Arc::new(value),
            rendered: (0..codecs).map(|_| OnceCell::new()).collect(),
            described: (0..offers).map(|_| OnceCell::new()).collect(),
            page: None,
        }
    }

    /// A document streamed from its file for every response: nothing is
    /// kept but the open file.
    pub(crate) fn streamed(name: &str, streamed: Streamed) -> Document {
        Document {
            path: route::path_of(name),
            streamed: Some(streamed),
            value: Arc::new(Value::Null),
            rendered: Vec::new(),
            described: Vec::new(),
            page: None,
        }
    }

    /// Renders the `html` format with `page`, when given: a page titled
    /// with the document's name.
    pub(crate) fn set_page(&mut self, page: Option<Arc<dyn Codec>>) {
        self.page = page;
    }

    /// The file of a streamed document.
    pub(crate) fn file(&self) -> Option<&Streamed> {
        self.streamed.as_ref()
    }

    /// What the response headers say about the representation of offer
    /// number `offer`: `describe` runs on the first call (on a blocking
    /// thread), and its result is shared after. `None` for an offer the
    /// document has no cell for, or that `describe` could not describe.
    pub(crate) async fn described<F>(
        &self,
        offer: Option<usize>,
        describe: F,
    ) -> Option<Representation>
    where
        F: FnOnce() -> Option<Representation> + Send + 'static,
    {
        let cell = self.described.get(offer?)?;
        cell.get_or_init(
            || async move { tokio::task::spawn_blocking(describe).await.ok().flatten() },
        )
        .await
        .clone()
    }

    /// The bytes of the negotiator's codec number `index` and what the
    /// response headers say of them as offer number `offer`, when both
    /// are already made: answered without waiting, and without work.
    pub(crate) fn kept(
        &self,
        index: usize,
        offer: Option<usize>,
    ) -> Option<(Bytes, Representation)> {
        let bytes = self.rendered.get(index)?.get()?.as_ref().ok()?.clone();
        let described = self.described.get(offer?)?.get()?.clone();
        Some((bytes, described.unwrap_or_else(Representation::streamed)))
    }

    /// The value it renders.
    #[cfg(test)]
    pub(crate) fn value(&self) -> &Value {
        &self.value
    }

    /// The percent-encoded path it is served at.
    pub(crate) fn path(&self) -> &str {
        &self.path
    }

    /// The bytes of `codec`, the negotiator's codec number `index`:
    /// rendered on the first call, shared after.
    pub(crate) async fn rendered(
        &self,
        index: usize,
        codec: &Arc<dyn Codec>,
    ) -> Result<Bytes, String> {
        let Some(cell) = self.rendered.get(index) else {
            return Err(format!("no codec number {index}"));
        };
        let codec = match &self.page {
            Some(page) if codec.format() == page.format() => page,
            _ => codec,
        };
        cell.get_or_init(|| {
            let (codec, value) = (codec.clone(), self.value.clone());
            async move {
                // A large document takes a while: off the async workers.
                tokio::task::spawn_blocking(move || render(codec.as_ref(), &value))
                    .await
                    .unwrap_or_else(|e| Err(format!("rendering failed: {e}")))
            }
        })
        .await
        .clone()
    }
}

fn render(codec: &dyn Codec, value: &Value) -> Result<Bytes, String> {
    let mut out = Vec::new();
    codec
        .encode_value(value, &mut out)
        .map_err(|e| format!("cannot encode as {}: {e}", codec.format()))?;
    // Kept for the server's life: no growth slack.
    out.shrink_to_fit();
    Ok(Bytes::from(out))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_representation_is_rendered_once_and_shared() {
        let codec: Arc<dyn Codec> = Arc::new(codec_json::JsonCodec::new());
        let value = codec_core::from_str(r#"{"a":[1,2]}"#).unwrap();
        let document = Document::new("My File", value, (1, 1));
        assert_eq!(document.path(), "/My%20File");
        let first = document.rendered(0, &codec).await.unwrap();
        let second = document.rendered(0, &codec).await.unwrap();
        assert_eq!(&first[..], br#"{"a":[1,2]}"#);
        // The same allocation, not a copy.
        assert_eq!(first.as_ptr(), second.as_ptr());
        assert!(document.rendered(1, &codec).await.is_err());
        // Kept once described too, as the same bytes.
        assert!(document.kept(0, Some(0)).is_none());
        let described = document
            .described(Some(0), || Some(Representation::streamed()))
            .await;
        assert_eq!(described, Some(Representation::streamed()));
        let (kept, _) = document.kept(0, Some(0)).unwrap();
        assert_eq!(kept.as_ptr(), first.as_ptr());
    }
}

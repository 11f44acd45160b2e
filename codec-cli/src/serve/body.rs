//! The response body: shared bytes, handed out in chunks, or another
//! body (what the negotiation layer answers; the rows of a streamed
//! document, encoded as they are sent) whose large frames are split the
//! same way; a streamed document's body holds a slot of the server's bound
//! on concurrent work until its last chunk is taken.

use std::pin::Pin;
use std::task::{Context, Poll, ready};

use axum::body::Body;
use bytes::Bytes;
use http_body::{Frame, SizeHint};
use negotiate::RowBody;
use tokio::sync::OwnedSemaphorePermit;

/// The size of the chunks a body is handed to hyper in. hyper asks for
/// the next chunk only when its write buffer has room (about 400 KiB), so
/// what a slow client has not taken stays in the shared bytes. Chunks are
/// slices of them, never copies: a rendering handed over whole (one frame
/// of 20 MB) is not copied into each connection's buffer.
const CHUNK: usize = 64 * 1024;

/// Shared bytes, then the frames of an inner body, each split into
/// chunks; and, for a streamed document's rows, a slot of the work bound:
/// sending bytes already rendered is not work the bound protects,
/// encoding rows is.
#[derive(Debug)]
pub(crate) struct SharedBody {
    /// What is left of the bytes, or of the inner body's last frame.
    rest: Bytes,
    inner: Option<Body>,
    slot: Option<OwnedSemaphorePermit>,
}

impl SharedBody {
    /// The rows of a streamed document, holding `slot` until they end.
    pub(crate) fn streaming(rows: RowBody, slot: OwnedSemaphorePermit) -> SharedBody {
        SharedBody {
            rest: Bytes::new(),
            inner: Some(Body::new(rows)),
            slot: Some(slot),
        }
    }

    pub(crate) fn empty() -> SharedBody {
        SharedBody::from(Bytes::new())
    }
}

/// The empty body, holding no slot: what a `304` sends.
impl Default for SharedBody {
    fn default() -> SharedBody {
        SharedBody::empty()
    }
}

impl From<Bytes> for SharedBody {
    fn from(bytes: Bytes) -> SharedBody {
        SharedBody {
            rest: bytes,
            inner: None,
            slot: None,
        }
    }
}

impl From<String> for SharedBody {
    fn from(text: String) -> SharedBody {
        SharedBody::from(Bytes::from(text))
    }
}

/// The frames of `body` (a response of the negotiation layer), in
/// chunks.
impl From<Body> for SharedBody {
    fn from(body: Body) -> SharedBody {
        SharedBody {
            rest: Bytes::new(),
            inner: Some(body),
            slot: None,
        }
    }
}

impl http_body::Body for SharedBody {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, axum::Error>>> {
        let this = self.get_mut();
        loop {
            if !this.rest.is_empty() {
                let chunk = this.rest.split_to(CHUNK.min(this.rest.len()));
                if this.rest.is_empty()
                    && this
                        .inner
                        .as_ref()
                        .is_none_or(|inner| inner.is_end_stream())
                {
                    // hyper may never poll again once the length is reached.
                    this.inner = None;
                    this.slot = None;
                }
                return Poll::Ready(Some(Ok(Frame::data(chunk))));
            }
            let Some(inner) = &mut this.inner else {
                this.slot = None;
                return Poll::Ready(None);
            };
            match ready!(Pin::new(inner).poll_frame(cx)) {
                Some(Ok(frame)) => match frame.into_data() {
                    Ok(data) => this.rest = data,
                    Err(trailers) => return Poll::Ready(Some(Ok(trailers))),
                },
                end => {
                    this.inner = None;
                    this.slot = None;
                    return Poll::Ready(end);
                }
            }
        }
    }

    fn is_end_stream(&self) -> bool {
        self.rest.is_empty()
            && self
                .inner
                .as_ref()
                .is_none_or(|inner| inner.is_end_stream())
    }

    fn size_hint(&self) -> SizeHint {
        let rest = self.rest.len() as u64;
        let Some(inner) = &self.inner else {
            return SizeHint::with_exact(rest);
        };
        let inner = inner.size_hint();
        let mut hint = SizeHint::new();
        hint.set_lower(inner.lower() + rest);
        if let Some(upper) = inner.upper() {
            hint.set_upper(upper + rest);
        }
        hint
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use http_body::Body;
    use tokio::sync::Semaphore;

    use super::*;

    fn next(body: &mut SharedBody) -> Option<Bytes> {
        let waker = std::task::Waker::noop();
        match Pin::new(body).poll_frame(&mut Context::from_waker(waker)) {
            Poll::Ready(Some(Ok(frame))) => Some(frame.into_data().unwrap()),
            Poll::Ready(None) => None,
            Poll::Ready(Some(Err(e))) => panic!("these bodies never fail: {e}"),
            Poll::Pending => panic!("these bodies are always ready"),
        }
    }

    #[test]
    fn chunks_share_the_bytes() {
        let bytes = Bytes::from(vec![7u8; CHUNK * 2 + 10]);
        let mut body = SharedBody::from(bytes.clone());
        assert_eq!(body.size_hint().exact(), Some(bytes.len() as u64));
        let mut sizes = Vec::new();
        while let Some(chunk) = next(&mut body) {
            // A slice of the same allocation, not a copy.
            assert!(bytes.as_ptr_range().contains(&chunk.as_ptr()));
            sizes.push(chunk.len());
        }
        assert_eq!(sizes, [CHUNK, CHUNK, 10]);
        assert!(body.is_end_stream());
        assert!(next(&mut SharedBody::empty()).is_none());
    }

    /// A rendering the negotiation layer hands over as one frame is sent
    /// in chunks of it, with its exact length.
    #[test]
    fn an_inner_bodys_frames_are_chunked_too() {
        let bytes = Bytes::from(vec![7u8; CHUNK + 10]);
        let mut body = SharedBody::from(axum::body::Body::from(bytes.clone()));
        assert_eq!(body.size_hint().exact(), Some(bytes.len() as u64));
        let mut sizes = Vec::new();
        while let Some(chunk) = next(&mut body) {
            assert!(bytes.as_ptr_range().contains(&chunk.as_ptr()));
            sizes.push(chunk.len());
        }
        assert_eq!(sizes, [CHUNK, 10]);
        assert!(body.is_end_stream());
    }

    #[test]
    fn dropping_a_streamed_body_gives_its_slot_back() {
        let bound = Arc::new(Semaphore::new(1));
        let slot = bound.clone().try_acquire_owned().unwrap();
        let rows = negotiate::NegotiatedStream::from_iter([1, 2, 3]);
        let codec = Arc::new(codec_json::JsonCodec::new());
        let body = SharedBody::streaming(rows.into_body(codec), slot);
        assert_eq!(bound.available_permits(), 0);
        drop(body);
        assert_eq!(bound.available_permits(), 1);
    }

    #[test]
    fn a_streamed_body_holds_its_slot_to_its_end() {
        let bound = Arc::new(Semaphore::new(1));
        let slot = bound.clone().try_acquire_owned().unwrap();
        let rows = negotiate::NegotiatedStream::from_iter([1, 2, 3]);
        let codec = Arc::new(codec_json::JsonCodec::new());
        let mut body = SharedBody::streaming(rows.into_body(codec), slot);
        assert!(!body.is_end_stream());
        let mut out = Vec::new();
        while let Some(chunk) = next(&mut body) {
            out.extend_from_slice(&chunk);
        }
        assert_eq!(out, b"[1,2,3]");
        assert_eq!(bound.available_permits(), 1);
        assert!(body.is_end_stream());
    }
}

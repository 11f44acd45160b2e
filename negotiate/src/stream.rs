//! Responses of any size (feature `http`): a handler's rows, from a
//! `Stream` or an iterator ([`NegotiatedStream`]), encoded by the
//! negotiated codec as the client reads them ([`RowBody`]).
//!
//! The body is an `http_body::Body`, so hyper, axum (through the
//! `NegotiateLayer`) and any server on `http-body` send it as it is. It
//! pulls rows only when polled, and a server polls a body only when the
//! connection can take more: a client that reads slowly holds the rows
//! back, and the server never buffers more than a chunk ([`CHUNK`]) and
//! one row's encoding. Rows are batched into chunks of a few KB, not
//! sent one frame each, and a chunk is sent early whenever the source
//! has no row ready, so the first rows leave as soon as they exist.
//!
//! A codec writes the rows as they come through its
//! [`RowEncoder`](codec_core::rows::RowEncoder) (JSON, markdown); any other
//! codec gets them collected and encoded whole at the end, within
//! [`RowWriter::collect_limit`] (the MCP codec: a `CallToolResult` has no
//! streaming form, and its text block is cut to its text limit as
//! always; the HTML page, whose figures weigh the whole response).
//!
//! A stream that fails (the source yields an error, or a row the codec
//! cannot write) ends the body with an error after the codec's sign of
//! failure ([`RowEncoder::fail`](codec_core::rows::RowEncoder::fail): the
//! markdown codec's note; JSON is left unterminated, which no parser
//! accepts): hyper then aborts the response, so a chunked HTTP/1.1 body
//! never gets its last chunk and the client's HTTP library reports it
//! incomplete. The note does not repeat the error, which may hold what
//! the server does not mean to tell clients; it is logged (`tracing`).

use std::fmt;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use bytes::Bytes;
use codec_core::{
    Codec, EncodeError,
    rows::{RowWriter, RowsShape},
};
use futures_core::Stream;
use http_body::{Frame, SizeHint};
use serde::Serialize;

/// A boxed error of a row source: what `E: Into<BoxError>` becomes.
pub type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// The bytes a [`RowBody`] gathers before it sends a chunk: a few KB, so
/// that a stream of small rows is not one frame (and one write) per row,
/// and a row is not held long.
pub const CHUNK: usize = 8 * 1024;

/// What the note of a failed stream says: the error itself is logged,
/// not sent.
const FAILED: &str = "the server could not produce the rest";

/// The polls a failed body waits, each waking itself at once, between its
/// last bytes and its error. hyper aborts a response on a body's error
/// and drops what it has not written to the socket yet (the head too, when
/// nothing was sent before): each wait lets it flush, so the client gets
/// every byte, the note included, before the connection closes. Bounded,
/// and no timer: a client too slow to take them in that many rounds still
/// sees the body end incomplete, without its last bytes.
const GRACE: u8 = 8;

/// A handler's rows, to be encoded by the negotiated codec as the client
/// reads them: from a `Stream` ([`NegotiatedStream::new`]) or an iterator
/// ([`NegotiatedStream::from_iter`], [`NegotiatedStream::try_from_iter`]),
/// with the document they make ([`NegotiatedStream::member`],
/// [`NegotiatedStream::columns`]).
///
/// With the `axum` feature, a handler returns it and the
/// `NegotiateLayer` negotiates and streams it (see `Negotiated`). Any
/// other server makes the body itself with [`NegotiatedStream::into_body`].
///
/// A streamed response carries `Content-Type`, `Vary` and the `Link`
/// alternates, but no `ETag` and no token count: both need the whole body
/// before the first byte is sent. It has no `Content-Length` either.
///
/// ```
/// use std::sync::Arc;
///
/// use codec_core::Codec;
/// use negotiate::NegotiatedStream;
///
/// #[derive(serde::Serialize)]
/// struct Hit { id: u32, title: &'static str }
///
/// let hits = (1..=3).map(|id| Hit { id, title: "rust" });
/// let rows = NegotiatedStream::from_iter(hits).member("hits");
/// assert_eq!(rows.shape().member_key(), Some("hits"));
/// # let _ = rows;
/// ```
pub struct NegotiatedStream {
    source: Box<dyn RowSource>,
    shape: RowsShape,
}

impl NegotiatedStream {
    /// The rows of a `Stream` of results: an `Err` ends the response as a
    /// failed stream (see the module's notes).
    pub fn new<S, T, E>(rows: S) -> NegotiatedStream
    where
        S: Stream<Item = Result<T, E>> + Send + 'static,
        T: Serialize,
        E: Into<BoxError>,
    {
        NegotiatedStream::with_source(FromStream(Box::pin(rows)))
    }

    /// The rows of an iterator. Each row is pulled when the client can
    /// take more: an iterator that blocks (a synchronous database cursor)
    /// blocks the server's thread for that long; give such rows as a
    /// `Stream` instead.
    // Not `FromIterator`: the rows are taken lazily, not collected.
    #[allow(clippy::should_implement_trait)]
    pub fn from_iter<I, T>(rows: I) -> NegotiatedStream
    where
        I: IntoIterator<Item = T>,
        I::IntoIter: Send + 'static,
        T: Serialize + 'static,
    {
        NegotiatedStream::with_source(FromIter(
            rows.into_iter().map(Ok::<T, std::convert::Infallible>),
        ))
    }

    /// The rows of an iterator of results: an `Err` ends the response as
    /// a failed stream.
    pub fn try_from_iter<I, T, E>(rows: I) -> NegotiatedStream
    where
        I: IntoIterator<Item = Result<T, E>>,
        I::IntoIter: Send + 'static,
        T: Serialize,
        E: Into<BoxError>,
    {
        NegotiatedStream::with_source(FromIter(rows.into_iter()))
    }

    fn with_source(source: impl RowSource + 'static) -> NegotiatedStream {
        NegotiatedStream {
            source: Box::new(source),
            shape: RowsShape::array(),
        }
    }

    /// The rows are the array of the document's one member, `key`:
    /// `{"key": [...]}` in JSON, a `# key` section in markdown. By
    /// default they are the document.
    pub fn member(mut self, key: impl Into<String>) -> NegotiatedStream {
        let columns = self.shape.declared_columns().map(<[String]>::to_vec);
        self.shape = RowsShape::member(key);
        if let Some(columns) = columns {
            self.shape = self.shape.columns(columns);
        }
        self
    }

    /// The columns of the rows, for codecs that write a header first (a
    /// markdown table): without them the first row's keys.
    pub fn columns<I, S>(mut self, columns: I) -> NegotiatedStream
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.shape = self.shape.columns(columns);
        self
    }

    /// The document the rows make.
    pub fn shape(&self) -> &RowsShape {
        &self.shape
    }

    /// The body of these rows encoded by `codec` (the negotiated one), for
    /// a server without the axum layer: give it the negotiated
    /// `Content-Type` and `Vary` ([`Selection::apply_headers`]).
    ///
    /// [`Selection::apply_headers`]: crate::Selection::apply_headers
    pub fn into_body(self, codec: Arc<dyn Codec>) -> RowBody {
        RowBody {
            writer: Some(RowWriter::new(codec, &self.shape)),
            source: self.source,
            chunk: Vec::new(),
            failed: None,
            grace: 0,
            done: false,
        }
    }
}

impl fmt::Debug for NegotiatedStream {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("NegotiatedStream")
            .field("shape", &self.shape)
            .finish_non_exhaustive()
    }
}

/// Where rows come from, type-erased: each poll writes the next row, if
/// one is ready, with the row's own type known.
trait RowSource: Send {
    fn poll_row(
        &mut self,
        cx: &mut Context<'_>,
        writer: &mut RowWriter<'static>,
        out: &mut Vec<u8>,
    ) -> Poll<Option<Result<(), StreamError>>>;
}

/// Writes one row, or turns the source's error into the stream's.
fn write<T: Serialize, E: Into<BoxError>>(
    row: Result<T, E>,
    writer: &mut RowWriter<'static>,
    out: &mut Vec<u8>,
) -> Result<(), StreamError> {
    let row = row.map_err(|e| StreamError::Source(e.into()))?;
    writer.row_serialize(&row, out).map_err(StreamError::Encode)
}

struct FromStream<S>(Pin<Box<S>>);

impl<S, T, E> RowSource for FromStream<S>
where
    S: Stream<Item = Result<T, E>> + Send,
    T: Serialize,
    E: Into<BoxError>,
{
    fn poll_row(
        &mut self,
        cx: &mut Context<'_>,
        writer: &mut RowWriter<'static>,
        out: &mut Vec<u8>,
    ) -> Poll<Option<Result<(), StreamError>>> {
        self.0
            .as_mut()
            .poll_next(cx)
            .map(|row| row.map(|row| write(row, writer, out)))
    }
}

struct FromIter<I>(I);

impl<I, T, E> RowSource for FromIter<I>
where
    I: Iterator<Item = Result<T, E>> + Send,
    T: Serialize,
    E: Into<BoxError>,
{
    fn poll_row(
        &mut self,
        _: &mut Context<'_>,
        writer: &mut RowWriter<'static>,
        out: &mut Vec<u8>,
    ) -> Poll<Option<Result<(), StreamError>>> {
        Poll::Ready(self.0.next().map(|row| write(row, writer, out)))
    }
}

/// Why a streamed response ended before its end: the body's error, which
/// makes a server abort the response.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum StreamError {
    /// The handler's source of rows yielded an error.
    #[error("the source of rows failed")]
    Source(#[source] BoxError),
    /// The codec could not write a row (or, for a codec that collects
    /// rows, they passed its collect limit).
    #[error("cannot encode a row")]
    Encode(#[source] EncodeError),
}

/// A response body that encodes rows as the client reads them: made by
/// [`NegotiatedStream::into_body`] (or by the axum layer). An
/// `http_body::Body` of [`Bytes`] chunks; see the module's notes on
/// backpressure, chunks and failure.
pub struct RowBody {
    source: Box<dyn RowSource>,
    /// `None` once finished or failed.
    writer: Option<RowWriter<'static>>,
    /// What is written and not yet sent.
    chunk: Vec<u8>,
    /// The error to end the body with, once `chunk` is sent.
    failed: Option<StreamError>,
    /// The polls waited since the last bytes of a failed body.
    grace: u8,
    done: bool,
}

impl RowBody {
    /// Sends what was written, if anything.
    fn send(&mut self) -> Option<Frame<Bytes>> {
        if self.chunk.is_empty() {
            return None;
        }
        let chunk = std::mem::replace(&mut self.chunk, Vec::with_capacity(CHUNK));
        Some(Frame::data(Bytes::from(chunk)))
    }

    /// The stream ended with `error`: the codec's sign of failure, then
    /// the error once that is sent.
    fn fail(&mut self, error: StreamError) {
        if let Some(writer) = self.writer.take() {
            let rows = writer.rows();
            tracing::error!(rows, error = %ErrorChain(&error), "a streamed response failed; aborting it");
            writer.fail(&mut self.chunk, FAILED);
        }
        self.failed = Some(error);
    }
}

/// An error and its sources, `: `-separated, for the log.
struct ErrorChain<'e>(&'e (dyn std::error::Error + 'static));

impl fmt::Display for ErrorChain<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)?;
        let mut source = self.0.source();
        while let Some(error) = source {
            write!(f, ": {error}")?;
            source = error.source();
        }
        Ok(())
    }
}

impl http_body::Body for RowBody {
    type Data = Bytes;
    type Error = StreamError;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, StreamError>>> {
        let this = self.get_mut();
        loop {
            if this.chunk.len() >= CHUNK || this.done || this.failed.is_some() {
                if let Some(frame) = this.send() {
                    return Poll::Ready(Some(Ok(frame)));
                }
                if this.failed.is_some() && this.grace < GRACE {
                    this.grace += 1;
                    cx.waker().wake_by_ref();
                    return Poll::Pending;
                }
                if let Some(error) = this.failed.take() {
                    this.done = true;
                    return Poll::Ready(Some(Err(error)));
                }
                if this.done {
                    return Poll::Ready(None);
                }
            }
            let Some(writer) = this.writer.as_mut() else {
                this.done = true;
                continue;
            };
            match this.source.poll_row(cx, writer, &mut this.chunk) {
                Poll::Pending => {
                    // No row ready: send what there is, so that rows do
                    // not wait for the next ones.
                    return match this.send() {
                        Some(frame) => Poll::Ready(Some(Ok(frame))),
                        None => Poll::Pending,
                    };
                }
                Poll::Ready(Some(Ok(()))) => {}
                Poll::Ready(Some(Err(error))) => this.fail(error),
                Poll::Ready(None) => {
                    if let Some(writer) = this.writer.take()
                        && let Err(error) = writer.finish(&mut this.chunk)
                    {
                        this.failed = Some(StreamError::Encode(error));
                    }
                    this.done = true;
                }
            }
        }
    }

    fn is_end_stream(&self) -> bool {
        self.done && self.chunk.is_empty() && self.failed.is_none()
    }

    fn size_hint(&self) -> SizeHint {
        SizeHint::default()
    }
}

impl fmt::Debug for RowBody {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RowBody")
            .field("writer", &self.writer)
            .field("pending", &self.chunk.len())
            .field("failed", &self.failed)
            .field("done", &self.done)
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use codec_core::{EncodeError, MediaType, Value, rows::RowEncoder};
    use http_body::Body;

    use super::*;

    /// One line per row, its JSON; a row encoder.
    struct Lines;

    impl Codec for Lines {
        fn format(&self) -> &str {
            "lines"
        }
        fn media_type(&self) -> &MediaType {
            static TYPE: std::sync::OnceLock<MediaType> = std::sync::OnceLock::new();
            TYPE.get_or_init(|| MediaType::from_static("text/plain"))
        }
        fn encode_value(&self, value: &Value, out: &mut Vec<u8>) -> Result<(), EncodeError> {
            for row in value.as_array().unwrap_or_default() {
                out.extend_from_slice(line(row).as_bytes());
            }
            Ok(())
        }
        fn row_encoder(&self, _: &RowsShape) -> Option<Box<dyn RowEncoder>> {
            Some(Box::new(LineRows))
        }
    }

    struct LineRows;

    fn line(row: &Value) -> String {
        format!(
            "{}\n",
            row.as_number().map_or("?".into(), ToString::to_string)
        )
    }

    impl RowEncoder for LineRows {
        fn row(&mut self, row: &Value, out: &mut Vec<u8>) -> Result<(), EncodeError> {
            out.extend_from_slice(line(row).as_bytes());
            Ok(())
        }
        fn finish(&mut self, _: &mut Vec<u8>) -> Result<(), EncodeError> {
            Ok(())
        }
        fn fail(&mut self, out: &mut Vec<u8>, reason: &str) {
            out.extend_from_slice(format!("failed: {reason}\n").as_bytes());
        }
    }

    /// Polls `body` to its end: each frame's size, or the error.
    fn frames(body: &mut RowBody) -> Vec<Result<usize, String>> {
        let waker = std::task::Waker::noop();
        let mut cx = Context::from_waker(waker);
        let mut frames = Vec::new();
        loop {
            match Pin::new(&mut *body).poll_frame(&mut cx) {
                Poll::Ready(Some(Ok(frame))) => frames.push(Ok(frame.into_data().unwrap().len())),
                Poll::Ready(Some(Err(e))) => frames.push(Err(e.to_string())),
                Poll::Ready(None) => return frames,
                Poll::Pending => panic!("an iterator's rows are always ready"),
            }
        }
    }

    #[test]
    fn rows_go_out_in_chunks_and_only_when_asked_for() {
        static PULLED: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let rows = (0..10_000).inspect(|_| {
            PULLED.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        });
        let mut body = NegotiatedStream::from_iter(rows).into_body(Arc::new(Lines));
        let waker = std::task::Waker::noop();
        let mut cx = Context::from_waker(waker);
        let Poll::Ready(Some(Ok(first))) = Pin::new(&mut body).poll_frame(&mut cx) else {
            panic!("a first chunk");
        };
        let first = first.into_data().unwrap().len();
        assert!((CHUNK..CHUNK + 64).contains(&first), "{first}");
        let pulled_first = PULLED.load(std::sync::atomic::Ordering::Relaxed);
        assert!(
            pulled_first < 2_000,
            "{pulled_first} rows for the first chunk"
        );
        let rest = frames(&mut body);
        assert!(
            rest.iter()
                .all(|f| f.as_ref().is_ok_and(|&n| n <= CHUNK + 64))
        );
        assert_eq!(PULLED.load(std::sync::atomic::Ordering::Relaxed), 10_000);
        assert!(body.is_end_stream());
    }

    #[test]
    fn a_failed_source_sends_the_note_then_the_error() {
        let rows = vec![Ok(1), Ok(2), Err("the database went away"), Ok(4)];
        let mut body = NegotiatedStream::try_from_iter(rows).into_body(Arc::new(Lines));
        let waker = std::task::Waker::noop();
        let mut cx = Context::from_waker(waker);
        let mut sent = Vec::new();
        let mut waits = 0;
        let error = loop {
            match Pin::new(&mut body).poll_frame(&mut cx) {
                Poll::Ready(Some(Ok(frame))) => sent.extend_from_slice(&frame.into_data().unwrap()),
                Poll::Ready(Some(Err(e))) => break e,
                Poll::Pending => waits += 1,
                Poll::Ready(None) => panic!("ended without its error"),
            }
        };
        // The error waited for the last bytes to be written.
        assert_eq!(waits, GRACE);
        assert_eq!(
            String::from_utf8(sent).unwrap(),
            format!("1\n2\nfailed: {FAILED}\n")
        );
        assert!(
            matches!(&error, StreamError::Source(e) if e.to_string() == "the database went away")
        );
        assert!(matches!(
            Pin::new(&mut body).poll_frame(&mut cx),
            Poll::Ready(None)
        ));
    }

    /// A codec without a row encoder: the rows are collected, within the
    /// limit, and sent whole at the end.
    #[test]
    fn codecs_without_an_encoder_get_the_rows_whole() {
        struct Whole;
        impl Codec for Whole {
            fn format(&self) -> &str {
                "whole"
            }
            fn media_type(&self) -> &MediaType {
                static TYPE: std::sync::OnceLock<MediaType> = std::sync::OnceLock::new();
                TYPE.get_or_init(|| MediaType::from_static("text/plain"))
            }
            fn encode_value(&self, value: &Value, out: &mut Vec<u8>) -> Result<(), EncodeError> {
                let rows = value.as_array().map_or(0, <[Value]>::len);
                out.extend_from_slice(format!("{rows} rows").as_bytes());
                Ok(())
            }
        }
        let mut body = NegotiatedStream::from_iter(0..100_000).into_body(Arc::new(Whole));
        assert_eq!(frames(&mut body), [Ok("100000 rows".len())]);
    }
}

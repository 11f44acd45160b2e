//! HTTP/1 connections that a hostile client cannot hold open: a timer on
//! reading each request's headers, one on connections where nothing moves,
//! and a bounded graceful stop.
//!
//! `axum::serve` sets no header-read timer, so 500 slowloris connections
//! (half a request line, or a header byte every 5 s) were never closed
//! (issue 17, finding 4). Here each connection is hyper's HTTP/1 one, with
//! its header-read timeout on a tokio timer; it runs from the moment the
//! connection opens or the previous response ends, so a kept-alive
//! connection with no next request is closed by the same timer. The idle
//! timer covers the rest: a client that stops reading a response.

use std::convert::Infallible;
use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::task::{Context, Poll};
use std::time::Duration;

use http::{Request, Response};
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
// tokio's clock, so the unit tests can pause it.
use tokio::time::Instant;

use super::body::SharedBody;

/// How long a stop waits for the responses in flight.
const GRACE: Duration = Duration::from_secs(10);

/// The timers of every connection.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Timeouts {
    /// From a connection's start, or the end of its previous response, to
    /// the end of the next request's headers.
    pub(crate) header: Duration,
    /// The longest a connection may go with no byte read or written while
    /// no request of it is being worked on.
    pub(crate) idle: Duration,
}

/// Accepts connections and answers each request with `handler` until
/// `stop` completes; then stops accepting and gives the responses in
/// flight up to 10 s to finish.
pub(crate) async fn serve<H, F>(
    listener: TcpListener,
    timeouts: Timeouts,
    handler: H,
    stop: impl Future<Output = ()>,
) where
    H: Fn(Request<Incoming>) -> F + Clone + Send + 'static,
    F: Future<Output = Response<SharedBody>> + Send + 'static,
{
    let mut builder = http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(timeouts.header);
    let graceful = GracefulShutdown::new();
    let mut stop = std::pin::pin!(stop);
    loop {
        let stream = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => stream,
                Err(e) => {
                    accept_failed(e).await;
                    continue;
                }
            },
            () = &mut stop => break,
        };
        let activity = Arc::new(Activity::new());
        let io = TokioIo::new(Watched {
            stream,
            activity: activity.clone(),
        });
        let handler = handler.clone();
        let working = activity.clone();
        let service = service_fn(move |request| {
            let busy = working.busy();
            let response = handler(request);
            async move {
                let response = response.await;
                drop(busy);
                Ok::<_, Infallible>(response)
            }
        });
        let connection = graceful.watch(builder.serve_connection(io, service));
        tokio::spawn(async move {
            // Either way the connection is dropped, which closes it. Its
            // errors (a reset, a header timeout) end only it, silently: a
            // log line per hostile connection would be its own flood.
            tokio::select! {
                _ = connection => {}
                () = activity.idle(timeouts.idle) => {}
            }
        });
    }
    drop(listener);
    if tokio::time::timeout(GRACE, graceful.shutdown())
        .await
        .is_err()
    {
        eprintln!(
            "codec: closing the connections still open after {}s",
            GRACE.as_secs()
        );
    }
}

/// A failed accept: per-connection failures are the client's business;
/// others (out of file descriptors) are logged, and accepting pauses for a
/// second rather than spinning, as `axum::serve` does.
async fn accept_failed(error: io::Error) {
    let per_connection = matches!(
        error.kind(),
        io::ErrorKind::ConnectionRefused
            | io::ErrorKind::ConnectionAborted
            | io::ErrorKind::ConnectionReset
    );
    if !per_connection {
        eprintln!("codec: accepting a connection failed: {error}");
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
}

/// When a connection last moved a byte, and whether a request of it is
/// being worked on (a first rendering can take a while, with no byte
/// moving: that is not the client being idle).
#[derive(Debug)]
struct Activity {
    origin: Instant,
    /// Milliseconds from `origin` to the last byte read or written.
    last: AtomicU64,
    busy: AtomicUsize,
}

impl Activity {
    fn new() -> Activity {
        Activity {
            origin: Instant::now(),
            last: AtomicU64::new(0),
            busy: AtomicUsize::new(0),
        }
    }

    fn touch(&self) {
        let now = u64::try_from(self.origin.elapsed().as_millis()).unwrap_or(u64::MAX);
        self.last.store(now, Ordering::Relaxed);
    }

    fn busy(self: &Arc<Self>) -> Busy {
        self.busy.fetch_add(1, Ordering::Relaxed);
        Busy(self.clone())
    }

    /// Completes once `timeout` has passed with no byte moving and no
    /// request being worked on.
    async fn idle(&self, timeout: Duration) {
        loop {
            let last = Duration::from_millis(self.last.load(Ordering::Relaxed));
            let quiet = self.origin.elapsed().saturating_sub(last);
            let wait = if self.busy.load(Ordering::Relaxed) > 0 {
                timeout
            } else if quiet >= timeout {
                return;
            } else {
                timeout - quiet
            };
            tokio::time::sleep(wait).await;
        }
    }
}

/// A request being worked on; its end counts as activity.
#[derive(Debug)]
struct Busy(Arc<Activity>);

impl Drop for Busy {
    fn drop(&mut self) {
        self.0.touch();
        self.0.busy.fetch_sub(1, Ordering::Relaxed);
    }
}

/// A socket that records when a byte last moved.
#[derive(Debug)]
struct Watched {
    stream: TcpStream,
    activity: Arc<Activity>,
}

impl Watched {
    fn moved<T>(
        &self,
        poll: Poll<io::Result<T>>,
        bytes: impl Fn(&T) -> usize,
    ) -> Poll<io::Result<T>> {
        if let Poll::Ready(Ok(done)) = &poll
            && bytes(done) > 0
        {
            self.activity.touch();
        }
        poll
    }
}

impl AsyncRead for Watched {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let before = buf.filled().len();
        let poll = Pin::new(&mut this.stream).poll_read(cx, buf);
        let read = buf.filled().len() - before;
        this.moved(poll, |()| read)
    }
}

impl AsyncWrite for Watched {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let poll = Pin::new(&mut this.stream).poll_write(cx, buf);
        this.moved(poll, |n| *n)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let poll = Pin::new(&mut this.stream).poll_write_vectored(cx, bufs);
        this.moved(poll, |n| *n)
    }

    /// Vectored, as the socket is: hyper then queues the body's chunks
    /// rather than copying them into one buffer.
    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The idle timer waits out a request being worked on, and counts
    /// from the last byte otherwise.
    #[tokio::test(start_paused = true)]
    async fn idle_counts_quiet_time_outside_requests() {
        let activity = Arc::new(Activity::new());
        let timeout = Duration::from_secs(5);
        let busy = activity.busy();
        let started = Instant::now();
        let idle = activity.idle(timeout);
        let mut idle = std::pin::pin!(idle);
        // Busy for 12 s: not idle, however long.
        assert!(
            tokio::time::timeout(Duration::from_secs(12), &mut idle)
                .await
                .is_err()
        );
        drop(busy);
        idle.await;
        // Quiet from 12 s, idle 5 s later.
        let elapsed = started.elapsed();
        assert!(
            elapsed >= Duration::from_secs(17) && elapsed < Duration::from_secs(18),
            "{elapsed:?}"
        );
    }
}

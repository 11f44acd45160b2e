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
//! timer covers the rest: a client that stops reading a response. A
//! send timer closes sooner a connection whose response waits on a client
//! that does not take it, and a bound on each address's connections keeps
//! one client from taking them all.

use std::collections::HashMap;
use std::convert::Infallible;
use std::future::Future;
use std::io;
use std::net::IpAddr;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
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
    /// The longest a response's bytes may wait for a client that takes
    /// none of them.
    pub(crate) send: Duration,
}

/// The answer to a connection beyond its address's bound, written without
/// reading its request.
const TOO_MANY: &[u8] = b"HTTP/1.1 503 Service Unavailable\r\n\
content-type: text/plain; charset=utf-8\r\nx-content-type-options: nosniff\r\n\
retry-after: 1\r\ncontent-length: 44\r\nconnection: close\r\n\r\n\
503 Service Unavailable: too many connections";

/// Accepts connections, at most `per_client` at once from one address,
/// and answers each request with `handler` until `stop` completes; then
/// stops accepting and gives the responses in flight up to 10 s to finish.
pub(crate) async fn serve<H, F>(
    listener: TcpListener,
    timeouts: Timeouts,
    per_client: usize,
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
    let clients = Arc::new(Clients::new(per_client));
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(e) => {
                    accept_failed(e).await;
                    continue;
                }
            },
            () = &mut stop => break,
        };
        let Some(client) = clients.admit(peer.ip()) else {
            // Best effort, never waiting: the socket's buffer is empty.
            let _ = stream.try_write(TOO_MANY);
            continue;
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
                () = activity.stalled(timeouts) => {}
            }
            drop(client);
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

/// The connections open from each address.
#[derive(Debug)]
struct Clients {
    limit: usize,
    open: Mutex<HashMap<IpAddr, usize>>,
}

impl Clients {
    fn new(limit: usize) -> Clients {
        Clients {
            limit,
            open: Mutex::new(HashMap::new()),
        }
    }

    /// A place for one more connection from `ip`, or `None` when it has
    /// `limit` open. An IPv4 address mapped into IPv6 counts as itself.
    fn admit(self: &Arc<Self>, ip: IpAddr) -> Option<Client> {
        let ip = ip.to_canonical();
        let mut open = self.open.lock().unwrap_or_else(PoisonError::into_inner);
        let count = open.entry(ip).or_insert(0);
        if *count >= self.limit {
            return None;
        }
        *count += 1;
        Some(Client {
            clients: self.clone(),
            ip,
        })
    }
}

/// An open connection, counted against its address until dropped.
#[derive(Debug)]
struct Client {
    clients: Arc<Clients>,
    ip: IpAddr,
}

impl Drop for Client {
    fn drop(&mut self) {
        let mut open = self
            .clients
            .open
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if let Some(count) = open.get_mut(&self.ip) {
            *count -= 1;
            if *count == 0 {
                open.remove(&self.ip);
            }
        }
    }
}

/// When a connection last moved a byte, whether a request of it is being
/// worked on (a first rendering can take a while, with no byte moving:
/// that is not the client being idle), and since when a write has waited
/// on the client.
#[derive(Debug)]
struct Activity {
    origin: Instant,
    /// Milliseconds from `origin` to the last byte read or written.
    last: AtomicU64,
    busy: AtomicUsize,
    /// One more than the milliseconds from `origin` to the first write
    /// that found the socket full since the last byte written; 0 while
    /// no write waits.
    blocked: AtomicU64,
}

impl Activity {
    fn new() -> Activity {
        Activity {
            origin: Instant::now(),
            last: AtomicU64::new(0),
            busy: AtomicUsize::new(0),
            blocked: AtomicU64::new(0),
        }
    }

    fn now(&self) -> u64 {
        u64::try_from(self.origin.elapsed().as_millis()).unwrap_or(u64::MAX - 1)
    }

    fn touch(&self) {
        self.last.store(self.now(), Ordering::Relaxed);
    }

    /// A write found the socket full: the wait starts now unless it had
    /// already started.
    fn write_waits(&self) {
        let _ =
            self.blocked
                .compare_exchange(0, self.now() + 1, Ordering::Relaxed, Ordering::Relaxed);
    }

    fn written(&self) {
        self.touch();
        self.blocked.store(0, Ordering::Relaxed);
    }

    fn busy(self: &Arc<Self>) -> Busy {
        self.busy.fetch_add(1, Ordering::Relaxed);
        Busy(self.clone())
    }

    /// Completes once `timeouts.idle` has passed with no byte moving and
    /// no request being worked on, or `timeouts.send` with a write
    /// waiting on the client.
    async fn stalled(&self, timeouts: Timeouts) {
        loop {
            let now = self.origin.elapsed();
            let last = Duration::from_millis(self.last.load(Ordering::Relaxed));
            let quiet = now.saturating_sub(last);
            let idle = if self.busy.load(Ordering::Relaxed) > 0 {
                timeouts.idle
            } else if quiet >= timeouts.idle {
                return;
            } else {
                timeouts.idle - quiet
            };
            // A write that starts waiting during the sleep is seen at most
            // `send` later, so it is closed within twice `send`.
            let send = match self.blocked.load(Ordering::Relaxed) {
                0 => timeouts.send,
                since => {
                    let waited = now.saturating_sub(Duration::from_millis(since - 1));
                    if waited >= timeouts.send {
                        return;
                    }
                    timeouts.send - waited
                }
            };
            tokio::time::sleep(idle.min(send)).await;
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
    fn wrote(&self, poll: Poll<io::Result<usize>>) -> Poll<io::Result<usize>> {
        match &poll {
            Poll::Ready(Ok(n)) if *n > 0 => self.activity.written(),
            Poll::Pending => self.activity.write_waits(),
            _ => {}
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
        if let Poll::Ready(Ok(())) = poll
            && buf.filled().len() > before
        {
            this.activity.touch();
        }
        poll
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
        this.wrote(poll)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let poll = Pin::new(&mut this.stream).poll_write_vectored(cx, bufs);
        this.wrote(poll)
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
        let idle = activity.stalled(Timeouts {
            header: timeout,
            idle: timeout,
            send: timeout,
        });
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

    /// A write waiting on the client closes the connection after the send
    /// timeout, long before the idle one; a byte written restarts it.
    #[tokio::test(start_paused = true)]
    async fn a_waiting_write_stalls_after_the_send_timeout() {
        let activity = Arc::new(Activity::new());
        let timeouts = Timeouts {
            header: Duration::from_secs(10),
            idle: Duration::from_secs(60),
            send: Duration::from_secs(5),
        };
        let started = Instant::now();
        tokio::time::sleep(Duration::from_secs(3)).await;
        activity.write_waits();
        tokio::time::sleep(Duration::from_secs(3)).await;
        activity.written();
        activity.write_waits();
        // Waiting since 6 s: stalled at 11 s, seen by 16 s at the latest.
        activity.stalled(timeouts).await;
        let elapsed = started.elapsed();
        assert!(
            elapsed >= Duration::from_secs(11) && elapsed <= Duration::from_secs(16),
            "{elapsed:?}"
        );
    }

    /// Each address has its own count; a closed connection frees its place.
    #[test]
    fn clients_are_bounded_per_address() {
        let clients = Arc::new(Clients::new(2));
        let a: IpAddr = "127.0.0.1".parse().unwrap();
        let mapped: IpAddr = "::ffff:127.0.0.1".parse().unwrap();
        let b: IpAddr = "127.0.0.2".parse().unwrap();
        let first = clients.admit(a).unwrap();
        let _second = clients.admit(mapped).unwrap();
        assert!(clients.admit(a).is_none());
        let _other = clients.admit(b).unwrap();
        drop(first);
        assert!(clients.admit(a).is_some());
    }
}

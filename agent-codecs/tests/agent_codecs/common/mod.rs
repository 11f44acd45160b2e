//! What the streaming tests share: a service on a thread of its own, and
//! an HTTP/1.1 client that reads a chunked body as it arrives and says
//! whether it ended properly.

#![allow(dead_code, unreachable_pub)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::Duration;

/// Serves `app` on 127.0.0.1 (port 0) on a thread of its own, with a
/// runtime of one thread, and returns its address.
pub fn serve(app: axum::Router) -> SocketAddr {
    serve_with(|listener| async move {
        axum::serve(listener, app).await.expect("server error");
    })
}

/// Runs `server` on a listener on 127.0.0.1 (port 0), on a thread of its
/// own with a runtime of one thread, and returns its address.
pub fn serve_with<F, S>(server: S) -> SocketAddr
where
    S: FnOnce(tokio::net::TcpListener) -> F + Send + 'static,
    F: std::future::Future<Output = ()>,
{
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_io()
            .build()
            .expect("a tokio runtime");
        runtime.block_on(async move {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
                .await
                .expect("bind 127.0.0.1:0");
            tx.send(listener.local_addr().expect("an address"))
                .expect("the test is waiting");
            server(listener).await;
        });
    });
    rx.recv_timeout(Duration::from_secs(60))
        .expect("the server starts")
}

/// A response being read: its status and headers, and its body a chunk
/// at a time.
pub struct Response {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    reader: BufReader<TcpStream>,
    /// The chunked body's last chunk was read.
    pub complete: bool,
}

/// Sends `GET target` with these headers (`Connection: close`) and reads
/// the response's head.
pub fn get(addr: SocketAddr, target: &str, headers: &[(&str, &str)]) -> Response {
    let mut stream = TcpStream::connect_timeout(&addr, Duration::from_secs(10)).expect("connect");
    stream
        .set_read_timeout(Some(Duration::from_secs(60)))
        .unwrap();
    let mut head = format!("GET {target} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n");
    for (name, value) in headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str("\r\n");
    stream.write_all(head.as_bytes()).expect("send");
    let mut reader = BufReader::with_capacity(64 * 1024, stream);
    let mut line = String::new();
    reader.read_line(&mut line).expect("a status line");
    let status = line
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .expect("a status");
    let mut headers = Vec::new();
    loop {
        line.clear();
        reader.read_line(&mut line).expect("a header line");
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        let (name, value) = line.split_once(':').expect("a header");
        headers.push((name.to_owned(), value.trim().to_owned()));
    }
    Response {
        status,
        headers,
        reader,
        complete: false,
    }
}

impl Response {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The next chunk of a chunked body; `None` after the last chunk, or
    /// when the connection ends without it (then `complete` is false: the
    /// server aborted the body).
    pub fn chunk(&mut self) -> Option<Vec<u8>> {
        assert_eq!(self.header("transfer-encoding"), Some("chunked"));
        let mut line = String::new();
        match self.reader.read_line(&mut line) {
            Ok(0) | Err(_) => return None,
            Ok(_) => {}
        }
        let size = usize::from_str_radix(line.trim_end(), 16).expect("a chunk size");
        if size == 0 {
            let mut end = String::new();
            self.reader.read_line(&mut end).ok()?;
            self.complete = end == "\r\n";
            return None;
        }
        let mut chunk = vec![0; size + 2];
        self.reader.read_exact(&mut chunk).ok()?;
        assert_eq!(&chunk[size..], b"\r\n", "a chunk ends with CRLF");
        chunk.truncate(size);
        Some(chunk)
    }

    /// The rest of the body, and whether it ended properly.
    pub fn body(&mut self) -> (Vec<u8>, bool) {
        let mut body = Vec::new();
        while let Some(chunk) = self.chunk() {
            body.extend_from_slice(&chunk);
        }
        (body, self.complete)
    }
}

/// A field of this process's /proc/self/status in kB (`VmRSS`, `VmHWM`).
pub fn status_kb(field: &str) -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    status
        .lines()
        .find_map(|l| l.strip_prefix(field)?.strip_prefix(':'))
        .and_then(|v| v.trim().strip_suffix(" kB")?.parse().ok())
        .unwrap_or_else(|| panic!("no {field} in {status}"))
}

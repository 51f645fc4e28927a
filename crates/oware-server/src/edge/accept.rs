//! The accept loop: each connection served by hyper's HTTP/1.1 server with a deadline for a
//! request's headers. A connection that sends nothing (or half a request, or stays idle between
//! requests) is closed when the deadline passes; without it, such sockets stay open for minutes
//! and a few hundred of them use up the process's file descriptors. WebSocket upgrades are served
//! as before; a graceful shutdown stops accepting, lets each connection finish the request it is
//! on and waits for them.
//!
//! A request hyper cannot read (a malformed request line, a bad version, a path or headers too
//! long) never reaches the app: hyper answers it itself, 400, 414 or 431, and closes the
//! connection. Those answers get the security headers every other response has, added on the way
//! out by `WithHeaders`.

use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{ready, Context, Poll};
use std::time::Duration;

use axum::extract::ConnectInfo;
use axum::Router;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;
use tower_service::Service;

/// Serves `app` on `listener` until `shutdown` resolves, then waits for the open connections to
/// finish. Every request carries its peer's address as `ConnectInfo<SocketAddr>`; `headers` are
/// the header lines (each ending in CRLF) that the answers hyper writes itself are given.
pub async fn serve(
    listener: TcpListener,
    app: Router,
    header_read_timeout: Duration,
    headers: String,
    shutdown: impl Future<Output = ()> + Send + 'static,
) {
    let headers: Arc<[u8]> = headers.into_bytes().into();
    // Dropped or sent to: the connections finish what they are doing and close.
    let (stop_tx, stop_rx) = watch::channel(());
    // Each connection holds a receiver; the sender's `closed` says they are all gone.
    let (open_tx, open_rx) = watch::channel(());
    tokio::pin!(shutdown);
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(e) => {
                    wait_after_accept_error(e).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let connection = Connection {
            app: app.clone(),
            header_read_timeout,
            headers: headers.clone(),
            stop: stop_rx.clone(),
            _open: open_rx.clone(),
        };
        tokio::spawn(connection.serve(stream, peer));
    }
    drop(listener);
    drop(open_rx);
    let _ = stop_tx.send(());
    open_tx.closed().await;
}

/// After a failed accept: at once for an error of the one connection (it was reset before it was
/// accepted), a moment's pause for an error of the process (out of file descriptors: the pause
/// lets the timeouts free some instead of spinning).
async fn wait_after_accept_error(e: std::io::Error) {
    use std::io::ErrorKind::{ConnectionAborted, ConnectionRefused, ConnectionReset};
    if matches!(
        e.kind(),
        ConnectionAborted | ConnectionRefused | ConnectionReset
    ) {
        return;
    }
    eprintln!("oware serve: cannot accept a connection: {e}");
    tokio::time::sleep(Duration::from_millis(250)).await;
}

struct Connection {
    app: Router,
    header_read_timeout: Duration,
    headers: Arc<[u8]>,
    stop: watch::Receiver<()>,
    _open: watch::Receiver<()>,
}

impl Connection {
    async fn serve(mut self, stream: TcpStream, peer: SocketAddr) {
        let app = self.app.clone();
        let service = hyper::service::service_fn(move |mut request: hyper::Request<Incoming>| {
            request.extensions_mut().insert(ConnectInfo(peer));
            let mut app = app.clone();
            async move { app.call(request).await }
        });
        let mut builder = http1::Builder::new();
        builder
            .timer(TokioTimer::new())
            .header_read_timeout(self.header_read_timeout);
        let connection = builder
            .serve_connection(
                TokioIo::new(WithHeaders::new(stream, self.headers.clone())),
                service,
            )
            .with_upgrades();
        tokio::pin!(connection);
        tokio::select! {
            // A failed connection (a client gone, a malformed request, the header deadline) is
            // the client's business: hyper has answered it if it could.
            _ = connection.as_mut() => return,
            _ = self.stop.changed() => {}
        }
        connection.as_mut().graceful_shutdown();
        let _ = connection.await;
    }
}

/// A connection's stream that adds `headers` to the answers hyper writes itself. hyper writes such
/// an answer only when no response is under way, as the whole of one write (its head, with no
/// body), and then closes the connection; every response of the app carries a
/// Content-Security-Policy, which hyper's own never do. A write that is one whole response head
/// without that header is therefore hyper's own, and the headers go in after its status line.
struct WithHeaders<T> {
    inner: T,
    headers: Arc<[u8]>,
    /// A rewritten answer not yet all written, and how much of it is.
    pending: Vec<u8>,
    written: usize,
}

impl<T> WithHeaders<T> {
    fn new(inner: T, headers: Arc<[u8]>) -> WithHeaders<T> {
        WithHeaders {
            inner,
            headers,
            pending: Vec::new(),
            written: 0,
        }
    }
}

/// `head` with `headers` after its status line, if it is one of hyper's own answers.
fn with_headers(head: &[u8], headers: &[u8]) -> Option<Vec<u8>> {
    if !head.starts_with(b"HTTP/1.1 ") || !head.ends_with(b"\r\n\r\n") {
        return None;
    }
    let text = std::str::from_utf8(head).ok()?;
    if text.matches("\r\n\r\n").count() != 1
        || text
            .to_ascii_lowercase()
            .contains("\r\ncontent-security-policy:")
    {
        return None;
    }
    let status_line = text.find("\r\n")? + 2;
    let mut out = Vec::with_capacity(head.len() + headers.len());
    out.extend_from_slice(&head[..status_line]);
    out.extend_from_slice(headers);
    out.extend_from_slice(&head[status_line..]);
    Some(out)
}

impl<T: AsyncWrite + Unpin> WithHeaders<T> {
    /// Writes what is pending; ready once it is all written.
    fn poll_pending(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        while self.written < self.pending.len() {
            let n =
                ready!(Pin::new(&mut self.inner).poll_write(cx, &self.pending[self.written..]))?;
            if n == 0 {
                return Poll::Ready(Err(io::ErrorKind::WriteZero.into()));
            }
            self.written += n;
        }
        self.pending.clear();
        self.written = 0;
        Poll::Ready(Ok(()))
    }
}

impl<T: AsyncRead + Unpin> AsyncRead for WithHeaders<T> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_read(cx, buf)
    }
}

impl<T: AsyncWrite + Unpin> AsyncWrite for WithHeaders<T> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = &mut *self;
        ready!(this.poll_pending(cx))?;
        if let Some(rewritten) = with_headers(buf, &this.headers) {
            // Taken whole; written by this and the next calls, flush and shutdown included.
            this.pending = rewritten;
            if let Poll::Ready(Err(e)) = this.poll_pending(cx) {
                return Poll::Ready(Err(e));
            }
            return Poll::Ready(Ok(buf.len()));
        }
        Pin::new(&mut this.inner).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        ready!(self.poll_pending(cx))?;
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        ready!(self.poll_pending(cx))?;
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::with_headers;

    #[test]
    fn hypers_own_answers_get_the_headers_and_the_apps_are_left_alone() {
        let headers = b"x-a: 1\r\n";
        let own = b"HTTP/1.1 400 Bad Request\r\nconnection: close\r\ncontent-length: 0\r\n\r\n";
        assert_eq!(
            with_headers(own, headers).unwrap(),
            b"HTTP/1.1 400 Bad Request\r\nx-a: 1\r\nconnection: close\r\ncontent-length: 0\r\n\r\n"
        );
        for app in [
            &b"HTTP/1.1 400 Bad Request\r\ncontent-security-policy: x\r\ncontent-length: 0\r\n\r\n"
                [..],
            b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n{}",
            b"HTTP/1.1 200 OK\r\n\r\nHTTP/1.1 200 OK\r\n\r\n",
            b"some body bytes\r\n\r\n",
        ] {
            assert_eq!(with_headers(app, headers), None);
        }
    }
}

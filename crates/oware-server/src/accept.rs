//! The accept loop: each connection served by hyper's HTTP/1.1 server with a deadline for a
//! request's headers. A connection that sends nothing (or half a request, or stays idle between
//! requests) is closed when the deadline passes; without it, such sockets stay open for minutes
//! and a few hundred of them use up the process's file descriptors. WebSocket upgrades are served
//! as before; a graceful shutdown stops accepting, lets each connection finish the request it is
//! on and waits for them.

use std::future::Future;
use std::net::SocketAddr;
use std::time::Duration;

use axum::extract::ConnectInfo;
use axum::Router;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;
use tower_service::Service;

/// Serves `app` on `listener` until `shutdown` resolves, then waits for the open connections to
/// finish. Every request carries its peer's address as `ConnectInfo<SocketAddr>`.
pub async fn serve(
    listener: TcpListener,
    app: Router,
    header_read_timeout: Duration,
    shutdown: impl Future<Output = ()> + Send + 'static,
) {
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
            .serve_connection(TokioIo::new(stream), service)
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

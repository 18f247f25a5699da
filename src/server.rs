//! Serving the api on a listener until a shutdown signal, then draining.
//!
//! Connections are bounded the way searches are. A connection has
//! `HEADER_READ_TIMEOUT_MS` to deliver a request's headers and may then stay
//! open for `IDLE_TIMEOUT_MS` with no request in flight; at most
//! `MAX_CONNECTIONS` are open at once, and past that the server stops
//! accepting (new clients wait in the listen backlog) until one closes.
//!
//! The timeouts are kept here rather than left to hyper: hyper's own
//! `header_read_timeout` (HTTP/1 only) starts again as soon as a keep-alive
//! connection goes idle, so it would close idle connections long before an
//! idle timeout larger than the header timeout, and it does not cover the
//! first bytes, which the HTTP/1-or-2 detection reads before hyper's parser
//! runs. Each connection's task instead watches when it was accepted, when a
//! request's first byte came, and whether a request is in flight.

use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::pin::{pin, Pin};
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll};
use std::time::Duration;

use axum::http::{Request, Version};
use axum::Router;
use hyper::body::Incoming;
use hyper_util::rt::{TokioExecutor, TokioIo};
use hyper_util::server::conn::auto;
use hyper_util::service::TowerToHyperService;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpSocket, TcpStream};
use tokio::sync::{watch, Notify, OwnedSemaphorePermit, Semaphore};
use tokio::task::JoinSet;
use tokio::time::Instant;

use crate::api::{self, AppState, Metrics};
use crate::config::Config;

/// At most one warning per this interval about the connection limit, and
/// one about accept errors.
const WARN_EVERY: Duration = Duration::from_secs(10);
/// Waits after an accept error that is not about one connection (out of
/// file descriptors, say): from the first to the longest. A closing
/// connection ends the wait early.
const ACCEPT_BACKOFF: (Duration, Duration) = (Duration::from_millis(10), Duration::from_secs(1));
/// Time an HTTP/2 connection closed as idle gets to send its GOAWAY.
const IDLE_CLOSE_GRACE: Duration = Duration::from_secs(1);
/// Connections the kernel may queue for the accept loop (Linux caps it at
/// `net.core.somaxconn`). Past `MAX_CONNECTIONS` new clients wait here, so it
/// is larger than the 128 that `TcpListener::bind` asks for: beyond it a
/// client's connection attempts are dropped and retried with growing delays.
pub const LISTEN_BACKLOG: u32 = 1024;

/// A listener on `address` with a [`LISTEN_BACKLOG`]-long queue.
pub fn bind(address: SocketAddr) -> io::Result<TcpListener> {
    let socket = if address.is_ipv4() { TcpSocket::new_v4()? } else { TcpSocket::new_v6()? };
    // Restarting must not wait for the old socket's TIME_WAIT.
    #[cfg(unix)]
    socket.set_reuseaddr(true)?;
    socket.bind(address)?;
    socket.listen(LISTEN_BACKLOG)
}

/// Serves until `shutdown` completes, then stops accepting connections,
/// closes idle ones and lets in-flight requests finish, for at most
/// `config.shutdown_timeout_ms`.
///
/// Taking the listener and the signal as arguments lets tests bind port 0
/// and stop the server when they like.
///
/// # Panics
///
/// When the games cannot be set up from `config` (an opening book named
/// by `OPENING_BOOK` that cannot be read): a binary checks with
/// [`AppState::try_new`] and serves with [`run_with_metrics`] instead.
pub async fn run(
    listener: TcpListener,
    config: Config,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    run_with_metrics(listener, None, Arc::new(AppState::new(config)), shutdown).await
}

/// [`run`] over `state` (made ahead, so that a configuration it cannot
/// take stops the service before it listens), with `GET /metrics` served
/// on `metrics` instead of `listener` when it is given (`METRICS_PORT`),
/// until the same shutdown.
pub async fn run_with_metrics(
    listener: TcpListener,
    metrics: Option<TcpListener>,
    state: Arc<AppState>,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let config = state.config();
    let grace = Duration::from_millis(config.shutdown_timeout_ms);
    let max_connections = config.connection_limit().min(Semaphore::MAX_PERMITS);
    let limits = Arc::new(ConnectionLimits {
        header_read: Duration::from_millis(config.header_read_timeout_ms),
        idle: Duration::from_millis(config.idle_timeout_ms),
    });
    // The first answers should not pay for their tables' memory.
    let warm = state.clone();
    let _ = std::thread::Builder::new().name("warm-tables".into()).spawn(move || {
        let started = std::time::Instant::now();
        warm.warm_tables();
        tracing::debug!(elapsed_ms = started.elapsed().as_millis() as u64, "transposition tables ready");
    });
    state.metrics.connections_max.set(i64::try_from(max_connections).unwrap_or(i64::MAX));
    let (stopping_tx, stopping_rx) = watch::channel(false);
    let metrics_task = metrics.map(|metrics| {
        let mut stopping = stopping_rx.clone();
        let app = api::metrics_router(state.clone());
        tokio::spawn(async move {
            let stopped = async move {
                let _ = stopping.wait_for(|stopping| *stopping).await;
            };
            if let Err(error) = axum::serve(metrics, app).with_graceful_shutdown(stopped).await {
                tracing::error!(%error, "metrics listener failed");
            }
        })
    });
    let mut acceptor = Acceptor {
        app: api::router(state.clone()),
        http: Arc::new(http_builder()),
        limits,
        state: state.clone(),
        slots: Arc::new(Semaphore::new(max_connections)),
        max_connections,
        closed: Arc::new(Notify::new()),
        stopping: stopping_rx,
        connections: JoinSet::new(),
    };

    acceptor.accept_until(&listener, shutdown).await;
    drop(listener);
    state.begin_shutdown();
    tracing::info!("shutting down: finishing in-flight requests");
    let _ = stopping_tx.send(true);

    let mut connections = acceptor.connections;
    let metrics_abort = metrics_task.as_ref().map(tokio::task::JoinHandle::abort_handle);
    let drained = async {
        while connections.join_next().await.is_some() {}
        if let Some(task) = metrics_task {
            let _ = task.await;
        }
    };
    if tokio::time::timeout(grace, drained).await.is_err() {
        tracing::warn!(
            grace_ms = grace.as_millis() as u64,
            "requests still in flight after the grace period; stopping anyway"
        );
    }
    // Dropping the set closes whatever connections are left.
    if let Some(metrics) = metrics_abort {
        metrics.abort();
    }
    Ok(())
}

/// HTTP/1.1 and HTTP/2 (prior knowledge) on the same port, with hyper's own
/// header timeout off: [`Watchdog`] applies the configured ones.
fn http_builder() -> auto::Builder<TokioExecutor> {
    let mut builder = auto::Builder::new(TokioExecutor::new());
    builder.http1().header_read_timeout(None);
    builder
}

/// How long a connection may take over its headers, and stay idle.
struct ConnectionLimits {
    header_read: Duration,
    idle: Duration,
}

/// The accept loop and everything it hands to each connection.
struct Acceptor {
    app: Router,
    http: Arc<auto::Builder<TokioExecutor>>,
    limits: Arc<ConnectionLimits>,
    state: Arc<AppState>,
    /// One permit per connection allowed open.
    slots: Arc<Semaphore>,
    max_connections: usize,
    /// Told whenever a connection closes, so an accept loop short of file
    /// descriptors tries again at once.
    closed: Arc<Notify>,
    stopping: watch::Receiver<bool>,
    connections: JoinSet<()>,
}

impl Acceptor {
    /// Accepts connections until `shutdown` completes. Never gives up on an
    /// error: past the connection limit it waits for a connection to close,
    /// and after any other accept error it waits a little and tries again.
    async fn accept_until(&mut self, listener: &TcpListener, shutdown: impl Future<Output = ()>) {
        let mut shutdown = pin!(shutdown);
        let mut at_limit = Throttle::default();
        let mut accept_errors = Throttle::default();
        let mut backoff = ACCEPT_BACKOFF.0;
        loop {
            // Finished connections leave the set here, so it holds only open ones.
            while self.connections.try_join_next().is_some() {}
            let permit = match self.slots.clone().try_acquire_owned() {
                Ok(permit) => permit,
                Err(_) => {
                    self.state.metrics.connection_limit_reached.inc();
                    if let Some(times) = at_limit.ready() {
                        tracing::warn!(
                            max_connections = self.max_connections,
                            times,
                            "connection limit reached: new connections wait until one closes"
                        );
                    }
                    tokio::select! {
                        permit = self.slots.clone().acquire_owned() => match permit {
                            Ok(permit) => permit,
                            Err(_) => return,
                        },
                        () = &mut shutdown => return,
                    }
                }
            };
            let accepted = tokio::select! {
                accepted = listener.accept() => accepted,
                () = &mut shutdown => return,
            };
            match accepted {
                Ok((stream, _peer)) => {
                    backoff = ACCEPT_BACKOFF.0;
                    self.serve(stream, permit);
                }
                // The client gave up before we took its connection: nothing
                // is wrong with the listener.
                Err(error) if is_connection_error(&error) => {}
                Err(error) => {
                    if let Some(times) = accept_errors.ready() {
                        tracing::warn!(%error, times, retry_ms = backoff.as_millis() as u64, "accept error; retrying");
                    }
                    tokio::select! {
                        () = tokio::time::sleep(backoff) => {}
                        () = self.closed.notified() => {}
                        () = &mut shutdown => return,
                    }
                    backoff = (backoff * 2).min(ACCEPT_BACKOFF.1);
                }
            }
        }
    }

    /// Serves one accepted connection on a task of its own.
    fn serve(&mut self, stream: TcpStream, permit: OwnedSemaphorePermit) {
        // Answers are single small writes: send them at once, not after
        // Nagle's delay.
        if let Err(error) = stream.set_nodelay(true) {
            tracing::debug!(%error, "cannot set TCP_NODELAY");
        }
        let open = OpenConnection::new(permit, self.closed.clone(), self.state.clone());
        let connection = Connection {
            app: self.app.clone(),
            http: self.http.clone(),
            limits: self.limits.clone(),
            stopping: self.stopping.clone(),
            open,
        };
        self.connections.spawn(connection.serve(stream));
    }
}

/// Errors that concern one incoming connection, not the listener.
fn is_connection_error(error: &io::Error) -> bool {
    matches!(
        error.kind(),
        io::ErrorKind::ConnectionRefused | io::ErrorKind::ConnectionAborted | io::ErrorKind::ConnectionReset
    )
}

/// Lets a warning through at most once per [`WARN_EVERY`].
#[derive(Default)]
struct Throttle {
    last: Option<Instant>,
    times: u64,
}

impl Throttle {
    /// Counts an occurrence; returns how many there were since the last
    /// warning (this one included) when it is time for another.
    fn ready(&mut self) -> Option<u64> {
        self.times += 1;
        let now = Instant::now();
        if self.last.is_some_and(|last| now.duration_since(last) < WARN_EVERY) {
            return None;
        }
        self.last = Some(now);
        Some(std::mem::take(&mut self.times))
    }
}

/// Held while a connection is open: its slot under the limit and its place
/// in the metrics.
struct OpenConnection {
    _permit: OwnedSemaphorePermit,
    closed: Arc<Notify>,
    state: Arc<AppState>,
}

impl OpenConnection {
    fn new(permit: OwnedSemaphorePermit, closed: Arc<Notify>, state: Arc<AppState>) -> Self {
        state.metrics.connections_open.inc();
        OpenConnection { _permit: permit, closed, state }
    }

    fn metrics(&self) -> &Metrics {
        &self.state.metrics
    }
}

impl Drop for OpenConnection {
    fn drop(&mut self) {
        self.state.metrics.connections_open.dec();
        self.closed.notify_one();
    }
}

/// One connection and what it needs to be served.
struct Connection {
    app: Router,
    http: Arc<auto::Builder<TokioExecutor>>,
    limits: Arc<ConnectionLimits>,
    stopping: watch::Receiver<bool>,
    open: OpenConnection,
}

/// Why the server closed a connection.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Expiry {
    /// A request's headers did not arrive in time.
    HeaderRead,
    /// No request came on a keep-alive connection in time.
    Idle,
}

impl Connection {
    /// Serves requests until the client leaves, a timeout closes the
    /// connection, or shutdown finds it idle.
    async fn serve(mut self, stream: TcpStream) {
        // The client's address, for the per-client limits.
        let peer = stream.peer_addr().ok().map(axum::extract::ConnectInfo);
        let watchdog = Arc::new(Watchdog::new());
        let io = TokioIo::new(Watched { stream, watchdog: watchdog.clone() });
        let service = {
            let watchdog = watchdog.clone();
            let app = TowerToHyperService::new(self.app.clone());
            hyper::service::service_fn(move |mut request: Request<Incoming>| {
                if let Some(peer) = peer {
                    request.extensions_mut().insert(peer);
                }
                let in_flight = watchdog.begin_request(request.version());
                let response = hyper::service::Service::call(&app, request);
                async move {
                    let response = response.await;
                    drop(in_flight);
                    response
                }
            })
        };
        let mut connection = pin!(self.http.serve_connection(io, service));
        let mut timer = pin!(tokio::time::sleep(Duration::ZERO));
        let mut armed = None;
        let mut draining = false;
        loop {
            let deadline = watchdog.deadline(&self.limits);
            if let Some((at, _)) = deadline {
                if armed != Some(at) {
                    timer.as_mut().reset(at);
                    armed = Some(at);
                }
            }
            tokio::select! {
                result = connection.as_mut() => {
                    if let Err(error) = result {
                        tracing::debug!(%error, "connection ended with an error");
                    }
                    return;
                }
                () = &mut timer, if deadline.is_some() => {
                    armed = None;
                    // The deadline may have moved since it was read (a
                    // request began): close only if it is still due.
                    let Some((at, expiry)) = watchdog.deadline(&self.limits) else { continue };
                    if at > Instant::now() {
                        continue;
                    }
                    let metrics = self.open.metrics();
                    match expiry {
                        Expiry::HeaderRead => {
                            metrics.header_read_timeouts.inc();
                            tracing::debug!("closing a connection whose request headers did not arrive in time");
                        }
                        Expiry::Idle => {
                            metrics.idle_timeouts.inc();
                            tracing::debug!("closing an idle connection");
                            // HTTP/2 says goodbye with GOAWAY; HTTP/1 closes at once.
                            connection.as_mut().graceful_shutdown();
                            let _ = tokio::time::timeout(IDLE_CLOSE_GRACE, connection).await;
                        }
                    }
                    return;
                }
                () = watchdog.changed.notified() => {}
                true = async { self.stopping.wait_for(|stopping| *stopping).await.is_ok() }, if !draining => {
                    // Idle connections close at once; a request in flight
                    // (or whose headers have begun) gets its answer first.
                    draining = true;
                    connection.as_mut().graceful_shutdown();
                }
            }
        }
    }
}

/// What a connection's task needs to know to apply the timeouts, updated by
/// the socket (bytes read) and by the service (requests begun and ended).
struct Watchdog {
    state: Mutex<Activity>,
    /// Told when a deadline may have come closer.
    changed: Notify,
}

struct Activity {
    /// When the connection was accepted or its last request ended.
    idle_since: Instant,
    /// Requests whose service call has not finished.
    in_flight: usize,
    /// Whether any request has come; until then the header timeout runs
    /// from `idle_since`.
    served: bool,
    /// When the first byte of the next request came, on a keep-alive
    /// HTTP/1 connection.
    head_started: Option<Instant>,
    /// HTTP/2 connections also carry frames between requests (pings,
    /// settings), so only the idle timeout applies to them once serving.
    http2: bool,
}

impl Watchdog {
    fn new() -> Self {
        Watchdog {
            state: Mutex::new(Activity {
                idle_since: Instant::now(),
                in_flight: 0,
                served: false,
                head_started: None,
                http2: false,
            }),
            changed: Notify::new(),
        }
    }

    fn activity(&self) -> std::sync::MutexGuard<'_, Activity> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// When the connection must close and why, or `None` while a request
    /// is in flight (the request timeout bounds those).
    fn deadline(&self, limits: &ConnectionLimits) -> Option<(Instant, Expiry)> {
        let activity = self.activity();
        if activity.in_flight > 0 {
            return None;
        }
        if !activity.served {
            return Some((activity.idle_since + limits.header_read, Expiry::HeaderRead));
        }
        // Once the next request has begun, it has the header timeout to
        // finish its headers, whatever is left of the idle timeout.
        match activity.head_started {
            Some(started) => Some((started + limits.header_read, Expiry::HeaderRead)),
            None => Some((activity.idle_since + limits.idle, Expiry::Idle)),
        }
    }

    /// Bytes came from the client.
    fn on_read(&self) {
        let mut activity = self.activity();
        if activity.served && activity.in_flight == 0 && activity.head_started.is_none() && !activity.http2 {
            activity.head_started = Some(Instant::now());
            drop(activity);
            self.changed.notify_one();
        }
    }

    /// A request's headers are in; the connection is busy until the
    /// returned guard drops.
    fn begin_request(self: &Arc<Self>, version: Version) -> InFlight {
        let mut activity = self.activity();
        activity.in_flight += 1;
        activity.served = true;
        activity.head_started = None;
        activity.http2 |= version == Version::HTTP_2;
        InFlight(self.clone())
    }
}

/// A request in flight on a connection.
struct InFlight(Arc<Watchdog>);

impl Drop for InFlight {
    fn drop(&mut self) {
        let mut activity = self.0.activity();
        activity.in_flight -= 1;
        if activity.in_flight == 0 {
            activity.idle_since = Instant::now();
            activity.head_started = None;
            drop(activity);
            self.0.changed.notify_one();
        }
    }
}

/// A client's socket that tells its [`Watchdog`] when bytes arrive.
struct Watched {
    stream: TcpStream,
    watchdog: Arc<Watchdog>,
}

impl AsyncRead for Watched {
    fn poll_read(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        let result = Pin::new(&mut self.stream).poll_read(cx, buf);
        if matches!(result, Poll::Ready(Ok(()))) && buf.filled().len() > before {
            self.watchdog.on_read();
        }
        result
    }
}

impl AsyncWrite for Watched {
    fn poll_write(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.stream).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.stream).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }
}

/// Completes on Ctrl-C or SIGTERM. The handlers are installed when this is
/// called, not when the future is first polled: a signal that comes after
/// the call, even before the server runs, is not lost (and does not end
/// the process with the signal's default action).
pub fn shutdown_signal() -> impl Future<Output = ()> {
    #[cfg(unix)]
    let (interrupt, terminate) = {
        use tokio::signal::unix::{signal, SignalKind};
        (signal(SignalKind::interrupt()).ok(), signal(SignalKind::terminate()).ok())
    };
    async move {
        #[cfg(unix)]
        {
            let wait = |signal: Option<tokio::signal::unix::Signal>| async move {
                match signal {
                    Some(mut signal) => {
                        signal.recv().await;
                    }
                    None => std::future::pending::<()>().await,
                }
            };
            tokio::select! {
                () = wait(interrupt) => {},
                () = wait(terminate) => {},
            }
        }
        #[cfg(not(unix))]
        if tokio::signal::ctrl_c().await.is_err() {
            std::future::pending::<()>().await;
        }
    }
}

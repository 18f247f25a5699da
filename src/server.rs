//! Serving the api on a listener until a shutdown signal, then draining.

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use axum::serve::ListenerExt;
use tokio::net::TcpListener;

use crate::api::{self, AppState};
use crate::config::Config;

/// Serves until `shutdown` completes, then stops accepting connections and
/// lets in-flight requests finish, for at most `config.shutdown_timeout_ms`.
///
/// Taking the listener and the signal as arguments lets tests bind port 0
/// and stop the server when they like.
pub async fn run(
    listener: TcpListener,
    config: Config,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let grace = Duration::from_millis(config.shutdown_timeout_ms);
    let state = Arc::new(AppState::new(config));
    let app = api::router(state.clone());
    let (stopping_tx, mut stopping_rx) = tokio::sync::watch::channel(false);
    let signal = async move {
        shutdown.await;
        state.begin_shutdown();
        tracing::info!("shutting down: finishing in-flight requests");
        let _ = stopping_tx.send(true);
    };
    // Answers are single small writes: send them at once, not after Nagle's
    // delay.
    let listener = listener.tap_io(|stream| {
        if let Err(error) = stream.set_nodelay(true) {
            tracing::debug!(%error, "cannot set TCP_NODELAY");
        }
    });
    let server = axum::serve(listener, app).with_graceful_shutdown(signal);
    let deadline = async move {
        let _ = stopping_rx.wait_for(|stopping| *stopping).await;
        tokio::time::sleep(grace).await;
    };
    tokio::select! {
        result = server => result,
        () = deadline => {
            tracing::warn!(grace_ms = grace.as_millis() as u64, "requests still in flight after the grace period; stopping anyway");
            Ok(())
        }
    }
}

/// Completes on Ctrl-C or SIGTERM.
pub async fn shutdown_signal() {
    let ctrl_c = async {
        if tokio::signal::ctrl_c().await.is_err() {
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {},
        () = terminate => {},
    }
}

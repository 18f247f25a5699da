//! `POST /best-move` with `Accept: text/event-stream`: the same search,
//! answered as Server-Sent Events while it runs.
//!
//! One `progress` event per finished iteration of the engine's iterative
//! deepening that is not already the final one (and that finishes after
//! its first 2 ms: quicker searches send just the answer), then one `answer` event
//! whose data is the plain answer's JSON, and the stream ends. The engine
//! deepens first here (`Context::watched`), even on a Connect Four search
//! to the end, which a plain answer scores first: the iterations are what
//! the stream shows. A request
//! that is refused before its search starts gets the usual JSON error, not
//! a stream; a search stopped by the request timeout ends the stream with
//! an `error` event carrying the usual error JSON. A client that goes away
//! cancels its search at once, which frees its slot.

use std::pin::Pin;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::task::{Context, Poll};

use axum::body::{Body, Bytes};
use axum::http::{header, HeaderValue};
use axum::response::{IntoResponse, Response};
use tokio::sync::{mpsc, oneshot, OwnedSemaphorePermit};

use super::error::ApiError;
use super::{answer, count_nodes, AppState, CancelOnDrop, Ready};

/// Iterations that finish sooner than this after the engine starts are not
/// reported: a search that ends in a few milliseconds sends just its answer.
const QUIET_US: u64 = 2_000;

/// True when the client asks for an event stream.
pub(super) fn wanted(headers: &axum::http::HeaderMap) -> bool {
    headers.get_all(header::ACCEPT).iter().filter_map(|v| v.to_str().ok()).any(|v| {
        v.split(',').any(|t| t.split(';').next().unwrap_or("").trim().eq_ignore_ascii_case("text/event-stream"))
    })
}

/// One event, framed.
fn event(name: &str, data: &impl serde::Serialize) -> Bytes {
    let json = serde_json::to_string(data).unwrap_or_else(|_| "{}".into());
    Bytes::from(format!("event: {name}\ndata: {json}\n\n"))
}

/// Starts the search of a request that holds a search slot, and answers with
/// its event stream once the request is known to be valid.
pub(super) async fn run(
    state: Arc<AppState>,
    ready: Ready,
    permit: OwnedSemaphorePermit,
    admission: impl Send + 'static,
    deadline: tokio::time::Instant,
) -> Result<Response, ApiError> {
    let (started_tx, started_rx) = oneshot::channel::<Result<(), ApiError>>();
    let (events_tx, events_rx) = mpsc::unbounded_channel::<Bytes>();
    // Held by this future until the stream starts, then by the body: a
    // client that goes away at any point stops the search.
    let cancel = CancelOnDrop::new();
    let flag = cancel.flag();
    let worker = state.clone();
    tokio::task::spawn_blocking(move || {
        let _permit = permit;
        let _admission = admission;
        let request = match ready.into_request(&worker) {
            Ok(request) => request,
            Err(error) => {
                let _ = started_tx.send(Err(error));
                return;
            }
        };
        if started_tx.send(Ok(())).is_err() {
            return;
        }
        worker.metrics.searches_in_flight.inc();
        let context = answer::Context { watched: true, ..worker.context() };
        let result = answer::answer(&request, &context, &flag, &mut |progress| {
            // The final iteration's news comes with the answer itself, and a
            // search done within a few milliseconds is not worth watching.
            if !progress.exact && progress.elapsed_us >= QUIET_US {
                let _ = events_tx.send(event("progress", progress));
            }
        });
        worker.metrics.searches_in_flight.dec();
        let last = match result {
            Ok(answer) => {
                count_nodes(&worker, &answer);
                event("answer", &answer)
            }
            Err(_) => {
                let error = ApiError::Timeout { limit_ms: worker.config.request_timeout_ms };
                event("error", &error.body())
            }
        };
        let _ = events_tx.send(last);
    });
    match tokio::time::timeout_at(deadline, started_rx).await {
        Ok(Ok(Ok(()))) => {}
        Ok(Ok(Err(error))) => return Err(error),
        Ok(Err(_)) => return Err(ApiError::Internal("the search ended before it started".into())),
        Err(_) => return Err(ApiError::Timeout { limit_ms: state.config.request_timeout_ms }),
    }
    // The request timeout bounds the search as for a plain request.
    let timer = cancel.flag();
    tokio::spawn(async move {
        tokio::time::sleep_until(deadline).await;
        timer.store(true, Ordering::Relaxed);
    });
    let body = Body::from_stream(Events { events: events_rx, _cancel: cancel });
    let mut response = body.into_response();
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("text/event-stream"));
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    // Proxies that buffer (nginx) would hold the events back.
    headers.insert("x-accel-buffering", HeaderValue::from_static("no"));
    Ok(response)
}

/// The events of one search, as a body stream.
struct Events {
    events: mpsc::UnboundedReceiver<Bytes>,
    /// Held for its drop: the body goes away with the client.
    _cancel: CancelOnDrop,
}

impl futures_core::Stream for Events {
    type Item = Result<Bytes, std::convert::Infallible>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        self.events.poll_recv(cx).map(|event| event.map(Ok))
    }
}

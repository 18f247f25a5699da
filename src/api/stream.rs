//! `POST /best-move` with `Accept: text/event-stream`: the same search,
//! answered as Server-Sent Events while it runs.
//!
//! One `progress` event per finished iteration of the engine's iterative
//! deepening that is not already the final one, and, while the engine
//! scores every root move (every Connect Four column), one `move` event per
//! move whose score is settled (both only after the search's first 2 ms:
//! quicker searches send just the answer), then one `answer` event
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
use tokio::sync::{mpsc, oneshot};

use super::admission::{Admitted, CancelOnDrop};
use super::best_move::count_nodes;
use super::body::Ready;
use super::error::ApiError;
use super::AppState;
use crate::suggest::ProgressReport;

/// Iterations that finish sooner than this after the engine starts are not
/// reported: a search that ends in a few milliseconds sends just its answer.
const QUIET_US: u64 = 2_000;

/// True when the client prefers an event stream to JSON, by the quality
/// values of its `Accept` header (RFC 9110, section 12.5.1).
///
/// Each type gets the `q` of the most specific range that matches it, 1 by
/// default. The stream is named only by `text/event-stream` itself (a
/// wildcard does not ask for it); JSON also matches `application/*` and
/// `*/*`, and a client that names neither gets JSON. The stream needs a `q`
/// above 0 and at least that of JSON: `text/event-stream;q=0` never
/// streams, `application/json, text/event-stream;q=0.5` answers JSON, and
/// `text/event-stream, application/json` streams.
pub(super) fn wanted(headers: &axum::http::HeaderMap) -> bool {
    // (specificity, q) of the most specific range matching each type so far.
    let mut stream: Option<(u8, f32)> = None;
    let mut json: Option<(u8, f32)> = None;
    let ranges = headers.get_all(header::ACCEPT).iter().filter_map(|v| v.to_str().ok()).flat_map(|v| v.split(','));
    for range in ranges {
        let mut parts = range.split(';');
        let media = parts.next().unwrap_or("").trim().to_ascii_lowercase();
        let mut q = Some(1.0);
        for parameter in parts {
            if let Some((name, value)) = parameter.split_once('=') {
                if name.trim().eq_ignore_ascii_case("q") {
                    q = quality(value.trim());
                }
            }
        }
        // A range with an unreadable q says nothing.
        let Some(q) = q else { continue };
        let keep = |best: &mut Option<(u8, f32)>, specificity: u8| {
            if best.is_none_or(|(s, _)| specificity > s) {
                *best = Some((specificity, q));
            }
        };
        match media.as_str() {
            "text/event-stream" => keep(&mut stream, 2),
            "application/json" => keep(&mut json, 2),
            "application/*" => keep(&mut json, 1),
            "*/*" => keep(&mut json, 0),
            _ => {}
        }
    }
    match stream {
        Some((_, q)) if q > 0.0 => q >= json.map_or(0.0, |(_, q)| q),
        _ => false,
    }
}

/// A quality value: a number from 0 to 1 with at most three decimals.
fn quality(text: &str) -> Option<f32> {
    let valid = match text.split_once('.') {
        Some((whole, decimals)) => {
            matches!(whole, "0" | "1")
                && decimals.len() <= 3
                && decimals.bytes().all(|b| b.is_ascii_digit())
                && (whole == "0" || decimals.bytes().all(|b| b == b'0'))
        }
        None => matches!(text, "0" | "1"),
    };
    valid.then(|| text.parse().ok()).flatten()
}

/// One event, framed.
pub(super) fn event(name: &str, data: &impl serde::Serialize) -> Bytes {
    let json = serde_json::to_string(data).unwrap_or_else(|_| "{}".into());
    Bytes::from(format!("event: {name}\ndata: {json}\n\n"))
}

/// Starts the search of a request that holds a search slot, and answers with
/// its event stream once the request is known to be valid.
pub(super) async fn run(
    state: Arc<AppState>,
    ready: Ready,
    admitted: Admitted,
    deadline: tokio::time::Instant,
) -> Result<Response, ApiError> {
    let (started_tx, started_rx) = oneshot::channel::<Result<(), ApiError>>();
    let (events_tx, events_rx) = mpsc::unbounded_channel::<Bytes>();
    // Held by this future until the stream starts, then by the body: a
    // client that goes away at any point stops the search.
    let cancel = CancelOnDrop::new();
    let flag = cancel.flag();
    admitted.spawn(&state, move |worker| {
        let request = match ready.into_request(worker) {
            Ok(request) => request,
            Err(error) => {
                let _ = started_tx.send(Err(error));
                return;
            }
        };
        if started_tx.send(Ok(())).is_err() {
            return;
        }
        let context = crate::suggest::Context { watched: true, ..worker.context(Some(deadline)) };
        let result = request.position.answer(&request.options, &context, &flag, &mut |progress| {
            // The final iteration's news comes with the answer itself, and a
            // search done within a few milliseconds is not worth watching.
            let sent = match progress {
                ProgressReport::Iteration(it) if !it.exact && it.elapsed_us >= QUIET_US => Some("progress"),
                ProgressReport::Move(m) if m.elapsed_us >= QUIET_US => Some("move"),
                _ => None,
            };
            if let Some(name) = sent {
                let _ = events_tx.send(event(name, progress));
            }
        });
        let last = match result {
            Ok(answer) => {
                count_nodes(worker, &answer);
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
pub(super) struct Events {
    events: mpsc::UnboundedReceiver<Bytes>,
    /// Held for its drop: the body goes away with the client.
    _cancel: CancelOnDrop,
}

impl Events {
    /// The events `events` receives, until its senders are gone; `cancel`
    /// is set when the client goes away.
    pub(super) fn new(events: mpsc::UnboundedReceiver<Bytes>, cancel: CancelOnDrop) -> Events {
        Events { events, _cancel: cancel }
    }
}

impl futures_core::Stream for Events {
    type Item = Result<Bytes, std::convert::Infallible>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        self.events.poll_recv(cx).map(|event| event.map(Ok))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderMap;

    fn accept(values: &[&str]) -> HeaderMap {
        let mut headers = HeaderMap::new();
        for value in values {
            headers.append(header::ACCEPT, HeaderValue::from_str(value).unwrap());
        }
        headers
    }

    #[test]
    fn the_stream_is_chosen_by_the_highest_quality() {
        for (values, streams) in [
            (&[][..], false),
            (&["text/event-stream"][..], true),
            (&["TEXT/Event-Stream ; charset=utf-8"][..], true),
            (&["application/json"][..], false),
            (&["*/*"][..], false),
            (&["text/*"][..], false),
            (&["text/event-stream;q=0"][..], false),
            (&["text/event-stream; q=0.000"][..], false),
            (&["text/event-stream;q=0, application/json"][..], false),
            (&["application/json, text/event-stream;q=0.5"][..], false),
            (&["application/json;q=0.5, text/event-stream"][..], true),
            (&["text/event-stream;q=0.9, application/json;q=0.8"][..], true),
            (&["text/event-stream, application/json"][..], true),
            (&["text/event-stream;q=0.5, */*"][..], false),
            (&["text/event-stream;q=0.5, application/*;q=0.4"][..], true),
            // The most specific range decides JSON's quality.
            (&["text/event-stream;q=0.5, application/json;q=0.1, */*"][..], true),
            // Over several Accept headers.
            (&["application/json;q=0.2", "text/event-stream"][..], true),
            // An unreadable q: the range is ignored.
            (&["text/event-stream;q=high"][..], false),
            (&["text/event-stream;q=1.5"][..], false),
            (&["text/event-stream, application/json;q=2"][..], true),
        ] {
            assert_eq!(wanted(&accept(values)), streams, "Accept: {values:?}");
        }
    }
}

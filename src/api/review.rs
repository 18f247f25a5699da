//! `POST /review`: a whole game, every move judged (see
//! `suggest::review`), as one JSON answer or, with `Accept:
//! text/event-stream`, one `ply` event per move as it is judged and then a
//! `review` event with the whole review.
//!
//! A review waits for a search slot like any search and holds it to the
//! end; each ply may also run in another slot that is idle at the time,
//! given back as soon as that ply is judged, so a replica's other clients
//! wait at most one ply for it. A client that goes away cancels the review.

use std::sync::Arc;
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::http::{header, HeaderValue};
use axum::response::{IntoResponse, Response};
use tokio::sync::mpsc;

use super::admission::{admitted, CancelOnDrop};
use super::body::{declared_length, read_body, require_json, INLINE_PARSE_BYTES};
use super::stream::{event, wanted, Events};
use super::{ApiError, AppState};
use crate::suggest::review::{review as run_review, Lent};
use crate::suggest::{ReviewRequest, ANSWER_RESERVE};

/// `POST /review`.
pub(super) async fn review(State(state): State<Arc<AppState>>, request: Request) -> Result<Response, ApiError> {
    require_json(request.headers())?;
    let declared = declared_length(&state, request.headers())?;
    let small = declared.is_some_and(|length| length <= INLINE_PARSE_BYTES);
    let streaming = wanted(request.headers());
    let (body, deadline) = read_body(&state, request.into_body(), declared, !small).await?;
    let parsed = ReviewRequest::parse(&body.bytes, &state.games, state.config.max_review_ms)?;
    drop(body);
    let admitted = admitted(&state, deadline).await?;
    // The review's own time starts once it holds its slot.
    let ends = tokio::time::Instant::now() + Duration::from_millis(parsed.time_ms) + 2 * ANSWER_RESERVE;

    let cancel = CancelOnDrop::new();
    let flag = cancel.flag();
    let (events_tx, mut events_rx) = mpsc::unbounded_channel::<Bytes>();
    let ply_events = events_tx.clone();
    let task = admitted.spawn(&state, move |worker| {
        let slots = worker.slots.clone();
        let lend = move || slots.clone().try_acquire_owned().ok().map(|permit| Box::new(permit) as Lent);
        let helpers = worker.config.search_slots().saturating_sub(1);
        let context = worker.context(Some(ends));
        let sent = |ply: &crate::suggest::review::PlyReview| {
            if streaming {
                let _ = ply_events.send(event("ply", ply));
            }
        };
        let result = run_review(&parsed, &context, helpers, &lend, &flag, &sent);
        if let Ok(review) = &result {
            worker
                .metrics
                .nodes
                .get_or_create(&super::metrics::AlgorithmLabels { algorithm: "engine" })
                .inc_by(review.nodes);
        }
        let last = match &result {
            Ok(review) => event("review", review),
            Err(_) => event("error", &ApiError::Timeout { limit_ms: worker.config.max_review_ms }.body()),
        };
        let _ = events_tx.send(last);
        result
    });
    if streaming {
        let body = Body::from_stream(Events::new(events_rx, cancel));
        let mut response = body.into_response();
        let headers = response.headers_mut();
        headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("text/event-stream"));
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
        headers.insert("x-accel-buffering", HeaderValue::from_static("no"));
        return Ok(response);
    }
    // The cancel guard lives with this future: a client that hangs up drops
    // it, and the review stops.
    let _cancel = cancel;
    let result = match tokio::time::timeout_at(ends + Duration::from_secs(1), task).await {
        Ok(Ok(result)) => result,
        Ok(Err(join_error)) => return Err(ApiError::Internal(join_error.to_string())),
        Err(_) => return Err(ApiError::Timeout { limit_ms: state.config.max_review_ms }),
    };
    events_rx.close();
    let review = result.map_err(|_| ApiError::Timeout { limit_ms: state.config.max_review_ms })?;
    let body = serde_json::to_vec(&review).map_err(|e| ApiError::Internal(e.to_string()))?;
    Ok(([(header::CONTENT_TYPE, "application/json")], Body::from(body)).into_response())
}

//! `POST /best-move`: the plain JSON answer (the stream is `stream.rs`).

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};

use super::admission::{admitted, CancelOnDrop};
use super::body::{declared_length, read_body, require_json, Ready, INLINE_PARSE_BYTES};
use super::metrics::AlgorithmLabels;
use super::{stream, ApiError, AppState};
use crate::suggest::{Answer, Request as SearchRequest};

/// `POST /best-move`.
///
/// The body is read first, within `BODY_READ_TIMEOUT_MS`, and only then
/// does the search wait for a slot: a slow upload holds a connection, never
/// a slot. A small body is parsed (and, if cheap, searched) right here. A
/// large one is parsed on the blocking pool once it holds a slot, so at
/// most one large tree per slot is built at once; until then its bytes
/// count against `MAX_BUFFERED_BODY_BYTES`.
pub(super) async fn best_move(State(state): State<Arc<AppState>>, request: Request) -> Result<Response, ApiError> {
    require_json(request.headers())?;
    let declared = declared_length(&state, request.headers())?;
    let small = declared.is_some_and(|length| length <= INLINE_PARSE_BYTES);
    let streaming = stream::wanted(request.headers());
    let (body, deadline) = read_body(&state, request.into_body(), declared, !small).await?;
    if streaming {
        // Small bodies are checked here, so a bad request gets its JSON
        // error without waiting for a slot.
        let ready = if small {
            Ready::Parsed(SearchRequest::parse(&body.bytes, &state.games, state.config.max_moves_limit)?)
        } else {
            Ready::Body(body)
        };
        let admitted = admitted(&state, deadline).await?;
        return stream::run(state.clone(), ready, admitted, deadline).await;
    }
    if small {
        let search_request = SearchRequest::parse(&body.bytes, &state.games, state.config.max_moves_limit)?;
        if search_request.work_estimate() <= state.config.inline_max_nodes {
            // Cheaper to search right here than to hand it to another thread.
            return search(&state, &search_request, &AtomicBool::new(false), deadline);
        }
        return run_blocking(&state, Ready::Parsed(search_request), deadline).await;
    }
    run_blocking(&state, Ready::Body(body), deadline).await
}

/// Runs a search on the blocking pool once a search slot is free, parsing
/// its body first if it is not parsed yet.
///
/// At most `search_slots` run at once and `search_queue` more may wait;
/// beyond that the answer is 503 at once, so memory and latency stay
/// bounded under any load. Past `deadline` (the request timeout, counted
/// from the start of the request without the time its body took to arrive)
/// the search is told to stop and the answer is 503.
async fn run_blocking(
    state: &Arc<AppState>,
    ready: Ready,
    deadline: tokio::time::Instant,
) -> Result<Response, ApiError> {
    let timeout = || ApiError::Timeout { limit_ms: state.config.request_timeout_ms };
    let admitted = admitted(state, deadline).await?;

    // Dropped with this future: when the client hangs up, axum drops the
    // handler's future, and the search stops instead of running out its budget.
    let cancel = CancelOnDrop::new();
    let flag = cancel.flag();
    let task = admitted.spawn(state, move |worker| {
        ready.into_request(worker).and_then(|request| search(worker, &request, &flag, deadline))
    });
    match tokio::time::timeout_at(deadline, task).await {
        Ok(Ok(result)) => result,
        Ok(Err(join_error)) => Err(ApiError::Internal(join_error.to_string())),
        Err(_) => Err(timeout()),
    }
}

/// The three searches, counted in the metrics, serialized to a JSON response;
/// every search stops in time for the answer to be sent by `deadline`.
pub(super) fn search(
    state: &AppState,
    request: &SearchRequest,
    cancel: &AtomicBool,
    deadline: tokio::time::Instant,
) -> Result<Response, ApiError> {
    let answer = request
        .position
        .answer(&request.options, &state.context(Some(deadline)), cancel, &mut |_| {})
        .map_err(|_| ApiError::Timeout { limit_ms: state.config.request_timeout_ms })?;
    count_nodes(state, &answer);
    // A board answer is about 1 KB: start there rather than grow by copies.
    let mut body = Vec::with_capacity(1024);
    serde_json::to_writer(&mut body, &answer).map_err(|e| ApiError::Internal(e.to_string()))?;
    Ok(([(header::CONTENT_TYPE, "application/json")], Body::from(body)).into_response())
}

/// Positions each algorithm that ran visited, in the metrics.
pub(super) fn count_nodes(state: &AppState, answer: &Answer) {
    let nodes = &state.metrics.nodes;
    let counts = [
        ("minimax", answer.minimax.as_ref().map(|r| r.nodes)),
        ("alphabeta", answer.alphabeta.as_ref().map(|r| r.nodes)),
        ("engine", answer.engine.as_ref().map(|r| r.result.nodes)),
    ];
    for (algorithm, count) in counts {
        if let Some(count) = count {
            nodes.get_or_create(&AlgorithmLabels { algorithm }).inc_by(count);
        }
    }
}

//! A request's body: declared as JSON, read within its size limit, its
//! read deadline and the service's budget of buffered bytes.

use axum::body::{Body, Bytes};
use axum::http::{header, HeaderMap};
use http_body_util::BodyExt;
use tokio::sync::OwnedSemaphorePermit;

use super::{ApiError, AppState};
use crate::suggest::Request;

/// Bodies declared at up to this size are parsed on the async worker, and
/// are not counted in the buffered body budget; larger ones, and bodies of
/// unknown length, are parsed on the blocking pool along with their search.
pub(super) const INLINE_PARSE_BYTES: usize = 16 * 1024;

/// A request body, holding its share of the buffered body budget until it
/// is dropped.
pub(super) struct BufferedBody {
    pub(super) bytes: Bytes,
    _room: Option<OwnedSemaphorePermit>,
}

/// Reads the whole body, within the size limit and two budgets of time.
///
/// The client has `BODY_READ_TIMEOUT_MS` to send it: past that, 408. A
/// `counted` body also needs room in the buffered body budget: the whole
/// declared length once the body starts to arrive (so that bodies never
/// wait for each other's room half-read), or piece by piece when no length
/// is declared. Time spent waiting for room is the service's, not the
/// client's: it counts against `REQUEST_TIMEOUT_MS` instead, and running out
/// of it is a 503. Returns the body and the deadline left for its search.
pub(super) async fn read_body(
    state: &AppState,
    mut body: Body,
    declared: Option<usize>,
    counted: bool,
) -> Result<(BufferedBody, tokio::time::Instant), ApiError> {
    let limit = state.config.max_body_bytes;
    let started = tokio::time::Instant::now();
    let mut client_deadline = started + state.body_read_timeout();
    let mut service_deadline = started + state.timeout();
    // Reserved, not touched: memory is only used as the bytes arrive.
    let mut bytes = Vec::with_capacity(declared.unwrap_or(0).min(limit));
    let mut room: Option<OwnedSemaphorePermit> = None;
    let mut reserved = 0;
    loop {
        let waiting = tokio::time::Instant::now();
        let frame = match tokio::time::timeout_at(client_deadline, body.frame()).await {
            Ok(Some(frame)) => frame,
            Ok(None) => break,
            Err(_) => return Err(ApiError::BodyTimeout { limit_ms: state.config.body_read_timeout_ms }),
        };
        service_deadline += waiting.elapsed();
        let frame = frame.map_err(|e| ApiError::MalformedJson(format!("the body could not be read ({e})")))?;
        let Ok(data) = frame.into_data() else { continue };
        let needed = bytes.len() + data.len();
        if needed > limit {
            return Err(ApiError::PayloadTooLarge { limit });
        }
        if counted && needed > reserved {
            let more = needed.max(declared.unwrap_or(0).min(limit)) - reserved;
            let waiting = tokio::time::Instant::now();
            let permits = u32::try_from(more).map_err(|e| ApiError::Internal(e.to_string()))?;
            let granted =
                match tokio::time::timeout_at(service_deadline, state.body_room.clone().acquire_many_owned(permits))
                    .await
                {
                    Ok(granted) => granted.map_err(|closed| ApiError::Internal(closed.to_string()))?,
                    Err(_) => {
                        state.metrics.shed.inc();
                        return Err(ApiError::Overloaded);
                    }
                };
            client_deadline += waiting.elapsed();
            reserved += more;
            match room.as_mut() {
                Some(room) => room.merge(granted),
                None => room = Some(granted),
            }
        }
        bytes.extend_from_slice(&data);
    }
    Ok((BufferedBody { bytes: Bytes::from(bytes), _room: room }, service_deadline))
}

/// A search ready to wait for a slot: already parsed, or a body to parse.
pub(super) enum Ready {
    Parsed(Request),
    Body(BufferedBody),
}

impl Ready {
    /// The request, parsed if it is not yet. A body's text, and its room in
    /// the buffered body budget, are given back as soon as it is parsed.
    pub(super) fn into_request(self, state: &AppState) -> Result<Request, ApiError> {
        match self {
            Ready::Parsed(request) => Ok(request),
            Ready::Body(body) => Ok(Request::parse(&body.bytes, &state.games, state.config.max_moves_limit)?),
        }
    }
}

/// The body's declared length, if any, refusing one over the size limit
/// before a byte of it is read.
pub(super) fn declared_length(state: &AppState, headers: &HeaderMap) -> Result<Option<usize>, ApiError> {
    let declared =
        headers.get(header::CONTENT_LENGTH).and_then(|v| v.to_str().ok()).and_then(|v| v.parse::<usize>().ok());
    if declared.is_some_and(|length| length > state.config.max_body_bytes) {
        return Err(ApiError::PayloadTooLarge { limit: state.config.max_body_bytes });
    }
    Ok(declared)
}

/// The body must be declared as JSON: `application/json` or `application/*+json`.
pub(super) fn require_json(headers: &HeaderMap) -> Result<(), ApiError> {
    let Some(value) = headers.get(header::CONTENT_TYPE) else {
        return Err(ApiError::UnsupportedMediaType(None));
    };
    let text = value.to_str().unwrap_or("");
    let essence = text.split(';').next().unwrap_or("").trim().to_ascii_lowercase();
    let is_json = essence == "application/json" || (essence.starts_with("application/") && essence.ends_with("+json"));
    if is_json {
        Ok(())
    } else {
        Err(ApiError::UnsupportedMediaType(Some(text.chars().take(100).collect())))
    }
}

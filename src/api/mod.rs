//! The HTTP layer: routes, the handlers, and the middleware every request
//! passes through (request ids, logs, metrics, CORS, timeouts).
//!
//! [`app`] builds the whole service as an axum [`Router`], so tests drive it
//! with `tower::ServiceExt::oneshot` and no socket.

mod answer;
mod error;
mod metrics;
mod request;

pub use answer::{Answer, ProgressReport};
pub use error::ApiError;
pub use metrics::Metrics;
pub use request::SearchRequest;

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::body::{Body, Bytes};
use axum::extract::{DefaultBodyLimit, FromRequest, MatchedPath, Request, State};
use axum::http::{header, HeaderMap, HeaderName, HeaderValue, Method, StatusCode};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use http_body_util::BodyExt;
use tokio::sync::Semaphore;
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::cors::{AllowOrigin, CorsLayer};

use crate::config::Config;
use crate::games::tree::TreeLimits;
use metrics::{AlgorithmLabels, RequestLabels, RouteLabels};

/// The OpenAPI description of this service, served as is.
pub const OPENAPI_YAML: &str = include_str!("../../openapi.yaml");
/// The playable page.
const INDEX_HTML: &str = include_str!("../web/index.html");
/// The request id header, accepted from clients and echoed back.
pub static X_REQUEST_ID: HeaderName = HeaderName::from_static("x-request-id");

/// Bodies up to this size are parsed on the async worker; larger ones are
/// parsed on the blocking pool along with their search.
const INLINE_PARSE_BYTES: usize = 16 * 1024;

/// Shared by every request.
pub struct AppState {
    config: Config,
    tree_limits: TreeLimits,
    /// One permit per search allowed to run at once.
    slots: Arc<Semaphore>,
    /// Searches running or waiting for a slot.
    admitted: AtomicUsize,
    /// Transposition tables for Connect Four searches.
    tables: answer::TablePool,
    ready: AtomicBool,
    /// The service's metrics.
    pub metrics: Metrics,
}

impl AppState {
    /// State for a service with this configuration.
    pub fn new(config: Config) -> Self {
        AppState {
            tree_limits: TreeLimits { max_nodes: config.max_tree_nodes, max_depth: config.max_tree_depth },
            slots: Arc::new(Semaphore::new(config.search_slots())),
            admitted: AtomicUsize::new(0),
            tables: answer::TablePool::new(config.tt_mib << 20),
            ready: AtomicBool::new(true),
            metrics: Metrics::new(),
            config,
        }
    }

    /// Marks the service as draining: `/readyz` answers 503 from now on.
    pub fn begin_shutdown(&self) {
        self.ready.store(false, Ordering::SeqCst);
    }

    fn timeout(&self) -> Duration {
        Duration::from_millis(self.config.request_timeout_ms)
    }
}

/// The service with this configuration.
pub fn app(config: Config) -> Router {
    router(Arc::new(AppState::new(config)))
}

/// The service over shared state (which the caller keeps, to drain it on
/// shutdown).
pub fn router(state: Arc<AppState>) -> Router {
    Router::new()
        .route("/", get(index))
        .route("/best-move", post(best_move))
        .route("/healthz", get(healthz))
        .route("/readyz", get(readyz))
        .route("/openapi.yaml", get(openapi))
        .route("/metrics", get(metrics_text))
        .fallback(not_found)
        .layer(DefaultBodyLimit::max(state.config.max_body_bytes))
        .layer(middleware::from_fn(json_method_not_allowed))
        .layer(catch_panics())
        .layer(cors(&state.config))
        .layer(middleware::from_fn_with_state(state.clone(), observe))
        .with_state(state)
}

/// A bug must cost one request a JSON 500, never the connection or the
/// process; the panic's message goes to the log only.
fn catch_panics() -> CatchPanicLayer<fn(Box<dyn std::any::Any + Send>) -> Response> {
    fn answer(panic: Box<dyn std::any::Any + Send>) -> Response {
        let detail =
            panic.downcast_ref::<&str>().map(|s| s.to_string()).or_else(|| panic.downcast_ref::<String>().cloned());
        ApiError::Internal(format!("panic: {}", detail.unwrap_or_default())).into_response()
    }
    CatchPanicLayer::custom(answer as fn(Box<dyn std::any::Any + Send>) -> Response)
}

fn cors(config: &Config) -> CorsLayer {
    let origins = config.cors_origins.trim();
    let allow = if origins == "*" {
        AllowOrigin::any()
    } else {
        AllowOrigin::list(origins.split(',').filter_map(|o| HeaderValue::from_str(o.trim()).ok()))
    };
    CorsLayer::new()
        .allow_origin(allow)
        .allow_methods([Method::GET, Method::POST, Method::OPTIONS])
        .allow_headers([header::CONTENT_TYPE, X_REQUEST_ID.clone()])
        .expose_headers([X_REQUEST_ID.clone(), header::RETRY_AFTER])
        .max_age(Duration::from_secs(3600))
}

/// Every request: a request id (the client's, or a new one), a time limit,
/// one log line, and the request metrics.
async fn observe(State(state): State<Arc<AppState>>, mut request: Request, next: Next) -> Response {
    let started = Instant::now();
    let method = request.method().clone();
    let path = request.uri().path().to_owned();
    let route = metrics::route_label(request.extensions().get::<MatchedPath>().map(MatchedPath::as_str));
    let request_id = request
        .headers()
        .get(&X_REQUEST_ID)
        .filter(|v| (1..=128).contains(&v.len()) && v.as_bytes().iter().all(|b| b.is_ascii_graphic()))
        .cloned()
        .unwrap_or_else(|| {
            HeaderValue::from_str(&format!("{:016x}", fastrand::u64(..))).expect("hex is a valid header")
        });
    request.headers_mut().insert(X_REQUEST_ID.clone(), request_id.clone());

    // The handler bounds its own search; this bounds everything else, such
    // as a client that sends its body too slowly.
    let limit = state.timeout() + Duration::from_millis(500);
    let mut response = match tokio::time::timeout(limit, next.run(request)).await {
        Ok(response) => response,
        Err(_) => ApiError::Timeout { limit_ms: state.config.request_timeout_ms }.into_response(),
    };
    response.headers_mut().insert(X_REQUEST_ID.clone(), request_id.clone());

    let status = response.status();
    let elapsed = started.elapsed();
    let metrics = &state.metrics;
    metrics
        .requests
        .get_or_create(&RequestLabels { route, method: metrics::method_label(&method), status: status.as_u16() })
        .inc();
    metrics.latency.get_or_create(&RouteLabels { route }).observe(elapsed.as_secs_f64());
    tracing::info!(
        method = %method,
        path = %path,
        status = status.as_u16(),
        latency_us = elapsed.as_micros() as u64,
        request_id = request_id.to_str().unwrap_or(""),
        "request"
    );
    response
}

/// axum answers a wrong method with an empty 405; give it the JSON error
/// body every other error has. axum adds the `Allow` header afterwards.
async fn json_method_not_allowed(request: Request, next: Next) -> Response {
    let method = request.method().clone();
    let response = next.run(request).await;
    if response.status() != StatusCode::METHOD_NOT_ALLOWED {
        return response;
    }
    ApiError::MethodNotAllowed(method.to_string()).into_response()
}

async fn not_found(request: Request) -> ApiError {
    ApiError::NotFound(request.uri().path().chars().take(200).collect())
}

async fn index() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "text/html; charset=utf-8")], INDEX_HTML)
}

async fn healthz() -> Json<serde_json::Value> {
    Json(serde_json::json!({ "status": "ok", "version": env!("CARGO_PKG_VERSION") }))
}

async fn readyz(State(state): State<Arc<AppState>>) -> Response {
    if state.ready.load(Ordering::SeqCst) {
        Json(serde_json::json!({ "status": "ready" })).into_response()
    } else {
        (StatusCode::SERVICE_UNAVAILABLE, Json(serde_json::json!({ "status": "shutting_down" }))).into_response()
    }
}

async fn openapi() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "application/yaml")], OPENAPI_YAML)
}

async fn metrics_text(State(state): State<Arc<AppState>>) -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "application/openmetrics-text; version=1.0.0; charset=utf-8")], state.metrics.render())
}

/// `POST /best-move`.
///
/// A small body is read, parsed and (if cheap) searched right here. A large
/// one waits for a search slot before its body is even read, so at most one
/// large body per slot is in memory at once, however many clients send them.
async fn best_move(State(state): State<Arc<AppState>>, request: Request) -> Result<Response, ApiError> {
    require_json(request.headers())?;
    let declared = request
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<usize>().ok());
    if declared.is_some_and(|length| length > state.config.max_body_bytes) {
        return Err(ApiError::PayloadTooLarge { limit: state.config.max_body_bytes });
    }
    if declared.is_some_and(|length| length <= INLINE_PARSE_BYTES) {
        let body = read_body(&state, request).await?;
        let search_request = SearchRequest::parse(&body, state.tree_limits)?;
        if search_request.work_estimate() <= state.config.inline_max_nodes {
            // Cheaper to search right here than to hand it to another thread.
            return search(&state, &search_request, &AtomicBool::new(false));
        }
        return run_blocking(&state, Pending::Parsed(search_request)).await;
    }
    run_blocking(&state, Pending::Unread(request)).await
}

/// Reads the whole body, within the configured size limit.
async fn read_body(state: &AppState, request: Request) -> Result<Bytes, ApiError> {
    Bytes::from_request(request, &()).await.map_err(|rejection| match rejection.status() {
        StatusCode::PAYLOAD_TOO_LARGE => ApiError::PayloadTooLarge { limit: state.config.max_body_bytes },
        _ => ApiError::MalformedJson(rejection.body_text()),
    })
}

/// A search waiting for a slot: already parsed, or with its body unread.
enum Pending {
    Parsed(SearchRequest),
    Unread(Request),
}

/// The same, once it holds a slot: parsed, or a body to parse.
enum Ready {
    Parsed(SearchRequest),
    Body(Bytes),
}

/// Turns a waiting search away with `error`. An unread body is read and
/// dropped first (within the size limit), so the client gets the answer
/// instead of a connection reset from closing a socket it is writing to.
async fn refuse(state: &AppState, pending: Pending, error: ApiError) -> ApiError {
    if let Pending::Unread(request) = pending {
        let mut body = request.into_body();
        let mut seen = 0;
        while let Some(Ok(frame)) = body.frame().await {
            seen += frame.data_ref().map_or(0, Bytes::len);
            if seen > state.config.max_body_bytes {
                break;
            }
        }
    }
    error
}

/// Runs a search on the blocking pool once a search slot is free, reading
/// the body first if it is still unread.
///
/// At most `search_slots` run at once and `search_queue` more may wait;
/// beyond that the answer is 503 at once, so memory and latency stay
/// bounded under any load. Past the request timeout the search is told to
/// stop and the answer is 503.
async fn run_blocking(state: &Arc<AppState>, pending: Pending) -> Result<Response, ApiError> {
    let deadline = tokio::time::Instant::now() + state.timeout();
    let timeout = || ApiError::Timeout { limit_ms: state.config.request_timeout_ms };
    let capacity = state.config.search_slots() + state.config.search_queue;
    let Some(_admission) = Admission::try_new(&state.admitted, capacity) else {
        state.metrics.shed.inc();
        return Err(refuse(state, pending, ApiError::Overloaded).await);
    };
    let permit = match tokio::time::timeout_at(deadline, state.slots.clone().acquire_owned()).await {
        Ok(Ok(permit)) => permit,
        Ok(Err(closed)) => return Err(ApiError::Internal(closed.to_string())),
        Err(_) => return Err(refuse(state, pending, timeout()).await),
    };
    let ready = match pending {
        Pending::Parsed(request) => Ready::Parsed(request),
        Pending::Unread(request) => {
            Ready::Body(tokio::time::timeout_at(deadline, read_body(state, request)).await.map_err(|_| timeout())??)
        }
    };

    let cancel = Arc::new(AtomicBool::new(false));
    let flag = cancel.clone();
    let worker = state.clone();
    let task = tokio::task::spawn_blocking(move || {
        // The slot is held until the work really ends, even if the request
        // has already been answered with a timeout.
        let _permit = permit;
        worker.metrics.searches_in_flight.inc();
        let result = match ready {
            Ready::Parsed(request) => search(&worker, &request, &flag),
            Ready::Body(body) => {
                SearchRequest::parse(&body, worker.tree_limits).and_then(|request| search(&worker, &request, &flag))
            }
        };
        worker.metrics.searches_in_flight.dec();
        result
    });
    match tokio::time::timeout_at(deadline, task).await {
        Ok(Ok(result)) => result,
        Ok(Err(join_error)) => Err(ApiError::Internal(join_error.to_string())),
        Err(_) => {
            cancel.store(true, Ordering::Relaxed);
            Err(timeout())
        }
    }
}

/// The body must be declared as JSON: `application/json` or `application/*+json`.
fn require_json(headers: &HeaderMap) -> Result<(), ApiError> {
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

/// The three searches, counted in the metrics, serialized to a JSON response.
fn search(state: &AppState, request: &SearchRequest, cancel: &AtomicBool) -> Result<Response, ApiError> {
    let context = answer::Context {
        book: state.config.book,
        tables: &state.tables,
        max_search_ms: state.config.max_search_ms,
        compare_max_nodes: state.config.compare_max_nodes,
    };
    let answer = answer::answer(request, &context, cancel, &mut |_| {})
        .map_err(|_| ApiError::Timeout { limit_ms: state.config.request_timeout_ms })?;
    let nodes = &state.metrics.nodes;
    nodes.get_or_create(&AlgorithmLabels { algorithm: "minimax" }).inc_by(answer.minimax.nodes);
    nodes.get_or_create(&AlgorithmLabels { algorithm: "alphabeta" }).inc_by(answer.alphabeta.nodes);
    nodes.get_or_create(&AlgorithmLabels { algorithm: "engine" }).inc_by(answer.engine.result.nodes);
    // A board answer is about 1 KB: start there rather than grow by copies.
    let mut body = Vec::with_capacity(1024);
    serde_json::to_writer(&mut body, &answer).map_err(|e| ApiError::Internal(e.to_string()))?;
    Ok(([(header::CONTENT_TYPE, "application/json")], Body::from(body)).into_response())
}

/// A place among the searches running or waiting; given back on drop.
struct Admission<'a>(&'a AtomicUsize);

impl<'a> Admission<'a> {
    fn try_new(counter: &'a AtomicUsize, capacity: usize) -> Option<Self> {
        let previous = counter.fetch_add(1, Ordering::AcqRel);
        if previous >= capacity {
            counter.fetch_sub(1, Ordering::AcqRel);
            return None;
        }
        Some(Admission(counter))
    }
}

impl Drop for Admission<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tower::ServiceExt;

    #[tokio::test]
    async fn a_panic_in_a_handler_becomes_a_json_500_without_internals() {
        let app: Router = Router::new()
            .route("/panic", get(|| async { panic!("secret detail") as &'static str }))
            .layer(catch_panics());
        let response = app.oneshot(Request::get("/panic").body(Body::empty()).unwrap()).await.unwrap();
        assert_eq!(response.status(), StatusCode::INTERNAL_SERVER_ERROR);
        let body = response.into_body().collect().await.unwrap().to_bytes();
        let text = String::from_utf8_lossy(&body);
        assert!(text.contains("\"code\":\"internal\""), "{text}");
        assert!(!text.contains("secret"), "{text}");
    }
}

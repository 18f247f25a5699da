//! The HTTP layer: routes, the handlers, and the middleware every request
//! passes through (request ids, logs, metrics, CORS, timeouts).
//!
//! [`app`] builds the whole service as an axum [`Router`], so tests drive it
//! with `tower::ServiceExt::oneshot` and no socket.

mod answer;
mod bounded;
mod error;
mod fairness;
mod metrics;
mod request;
mod stream;

pub use answer::{Answer, IterationReport, MoveReport, ProgressReport};
pub use error::ApiError;
pub use fairness::ClientLimit;
pub use metrics::Metrics;
pub use request::SearchRequest;

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::body::{Body, Bytes};
use axum::extract::{DefaultBodyLimit, MatchedPath, Request, State};
use axum::http::{header, HeaderMap, HeaderName, HeaderValue, Method, StatusCode};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use http_body_util::BodyExt;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::cors::{AllowOrigin, CorsLayer};

use crate::config::Config;
use crate::games::connect4::Book;
use crate::games::tree::TreeLimits;
use metrics::{AlgorithmLabels, RequestLabels, RouteLabels};

/// The OpenAPI description of this service, served as is.
pub const OPENAPI_YAML: &str = include_str!("../../openapi.yaml");
/// The playable page's markup, served at `/`.
const INDEX_HTML: PageFile = PageFile::new("index.html", "text/html; charset=utf-8", include_str!("../web/index.html"));
/// The page's stylesheet and ES modules, served at `/assets/{name}`: the
/// service client and its event-stream parser, the game controller, one
/// adapter (and one board model) per game, the tree explorer. A new file
/// of the page is one more line here (`tests/api/page.rs` fails on a file
/// the page loads that is not listed).
const PAGE_ASSETS: &[PageFile] = &[
    PageFile::new("style.css", CSS, include_str!("../web/style.css")),
    PageFile::new("app.js", JS, include_str!("../web/app.js")),
    PageFile::new("dom.js", JS, include_str!("../web/dom.js")),
    PageFile::new("format.js", JS, include_str!("../web/format.js")),
    PageFile::new("events.js", JS, include_str!("../web/events.js")),
    PageFile::new("client.js", JS, include_str!("../web/client.js")),
    PageFile::new("analysis.js", JS, include_str!("../web/analysis.js")),
    PageFile::new("progress.js", JS, include_str!("../web/progress.js")),
    PageFile::new("controller.js", JS, include_str!("../web/controller.js")),
    PageFile::new("tictactoe-model.js", JS, include_str!("../web/tictactoe-model.js")),
    PageFile::new("tictactoe.js", JS, include_str!("../web/tictactoe.js")),
    PageFile::new("connect4-model.js", JS, include_str!("../web/connect4-model.js")),
    PageFile::new("connect4.js", JS, include_str!("../web/connect4.js")),
    PageFile::new("othello-model.js", JS, include_str!("../web/othello-model.js")),
    PageFile::new("othello.js", JS, include_str!("../web/othello.js")),
    PageFile::new("tree.js", JS, include_str!("../web/tree.js")),
];
const CSS: &str = "text/css; charset=utf-8";
const JS: &str = "text/javascript; charset=utf-8";
/// What the page may load: its own scripts and stylesheet, and requests to
/// its own origin; no inline script or style, no plugins, no framing. The
/// empty favicon is a `data:` image.
const PAGE_CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; \
    connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
/// The request id header, accepted from clients and echoed back.
pub static X_REQUEST_ID: HeaderName = HeaderName::from_static("x-request-id");

/// Bodies declared at up to this size are parsed on the async worker, and
/// are not counted in the buffered body budget; larger ones, and bodies of
/// unknown length, are parsed on the blocking pool along with their search.
const INLINE_PARSE_BYTES: usize = 16 * 1024;

/// Shared by every request.
pub struct AppState {
    config: Config,
    tree_limits: TreeLimits,
    /// One permit per search allowed to run at once.
    slots: Arc<Semaphore>,
    /// One permit per byte of the bodies that may be held at once.
    body_room: Arc<Semaphore>,
    /// Searches running or waiting for a slot.
    admitted: AtomicUsize,
    /// Transposition tables for Connect Four searches.
    tables: answer::TablePool,
    /// The Connect Four opening book, read once at startup.
    book: Option<Book>,
    ready: AtomicBool,
    /// The per-client limits and every client's use of them.
    fairness: Arc<fairness::Fairness>,
    /// The service's metrics.
    pub metrics: Metrics,
}

impl AppState {
    /// State for a service with this configuration, without an opening book.
    pub fn new(config: Config) -> Self {
        Self::with_book(config, None)
    }

    /// State for a service with this configuration and opening book (read
    /// from `config.opening_book` by the caller).
    pub fn with_book(config: Config, book: Option<Book>) -> Self {
        AppState {
            book,
            tree_limits: TreeLimits { max_nodes: config.max_tree_nodes, max_depth: config.max_tree_depth },
            slots: Arc::new(Semaphore::new(config.search_slots())),
            // Room for at least one body of the largest size.
            body_room: Arc::new(Semaphore::new(
                config.max_buffered_body_bytes.max(config.max_body_bytes).min(Semaphore::MAX_PERMITS),
            )),
            admitted: AtomicUsize::new(0),
            tables: answer::TablePool::new(config.tt_mib << 20, config.search_slots()),
            ready: AtomicBool::new(true),
            fairness: Arc::new(fairness::Fairness::new(&config)),
            metrics: Metrics::new(),
            config,
        }
    }

    /// Makes the Connect Four tables the search slots keep, with all their
    /// memory, ahead of the first searches, so that they pay no page faults.
    pub fn warm_tables(&self) {
        self.tables.warm();
    }

    /// Marks the service as draining: `/readyz` answers 503 from now on.
    pub fn begin_shutdown(&self) {
        self.ready.store(false, Ordering::SeqCst);
    }

    /// What the searches need from the service beyond the request, for a
    /// request that must be answered by `deadline`.
    fn context(&self, deadline: Option<tokio::time::Instant>) -> answer::Context<'_> {
        answer::Context {
            deadline: deadline.map(tokio::time::Instant::into_std),
            book: self.book.as_ref(),
            tables: &self.tables,
            max_search_ms: self.config.max_search_ms,
            compare_max_nodes: self.config.compare_max_nodes,
            watched: false,
            compare: self.config.compare,
        }
    }

    fn timeout(&self) -> Duration {
        Duration::from_millis(self.config.request_timeout_ms)
    }

    fn body_read_timeout(&self) -> Duration {
        Duration::from_millis(self.config.body_read_timeout_ms)
    }

    /// The most any request may take: its body, its search, and a margin.
    fn overall_timeout(&self) -> Duration {
        self.body_read_timeout() + self.timeout() + Duration::from_millis(500)
    }
}

/// The service with this configuration.
pub fn app(config: Config) -> Router {
    router(Arc::new(AppState::new(config)))
}

/// The service over shared state (which the caller keeps, to drain it on
/// shutdown).
pub fn router(state: Arc<AppState>) -> Router {
    let mut routes = Router::new()
        .route("/", get(index))
        .route("/assets/{name}", get(page_asset))
        .route(
            "/best-move",
            post(best_move).route_layer(middleware::from_fn_with_state(state.clone(), fairness::limit)),
        )
        .route("/healthz", get(healthz))
        .route("/readyz", get(readyz))
        .route("/openapi.yaml", get(openapi));
    // With a metrics port of their own, metrics are not on this one.
    if state.config.metrics_port.is_none() {
        routes = routes.route("/metrics", get(metrics_text));
    }
    with_layers(routes.fallback(not_found), state)
}

/// `GET /metrics` alone, for the port `METRICS_PORT` names; any other path
/// is a JSON 404.
pub fn metrics_router(state: Arc<AppState>) -> Router {
    Router::new().route("/metrics", get(metrics_text)).fallback(not_found).with_state(state)
}

/// The middleware around every route. From the outside in: `observe` (so
/// every response, a CORS preflight included, has a request id and is
/// logged and counted), CORS (so every response a browser sees carries its
/// headers, the time limit's included), the time limit, then panics.
fn with_layers(routes: Router<Arc<AppState>>, state: Arc<AppState>) -> Router {
    routes
        .layer(DefaultBodyLimit::max(state.config.max_body_bytes))
        .layer(middleware::from_fn(json_method_not_allowed))
        .layer(catch_panics())
        .layer(middleware::from_fn_with_state(state.clone(), time_limit))
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

/// Every request: a request id (the client's, or a new one), one log line,
/// and the request metrics.
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

    let mut response = next.run(request).await;
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

/// The handler bounds its body read and its search on its own; this bounds
/// the request as a whole, in case anything else ever hangs.
async fn time_limit(State(state): State<Arc<AppState>>, request: Request, next: Next) -> Response {
    let limit = state.overall_timeout();
    match tokio::time::timeout(limit, next.run(request)).await {
        Ok(response) => response,
        Err(_) => ApiError::Timeout { limit_ms: limit.as_millis() as u64 }.into_response(),
    }
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

/// One file of the page, embedded in the binary at build time.
struct PageFile {
    /// Its name under `/assets/` (the markup is served at `/`).
    name: &'static str,
    content_type: &'static str,
    body: &'static str,
}

impl PageFile {
    const fn new(name: &'static str, content_type: &'static str, body: &'static str) -> Self {
        PageFile { name, content_type, body }
    }

    /// A strong validator: a hash of the file's bytes (64-bit FNV-1a), the
    /// same in every replica of a build and changed by any edit.
    fn etag(&self) -> HeaderValue {
        let hash = self
            .body
            .bytes()
            .fold(0xcbf2_9ce4_8422_2325_u64, |hash, byte| (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3));
        HeaderValue::from_str(&format!("\"{hash:016x}\"")).expect("hex in quotes is a valid header")
    }

    /// The file, or 304 when the client's copy (`If-None-Match`) is this one.
    ///
    /// `Cache-Control: no-cache` lets the browser keep a copy but makes it
    /// ask before each use: the modules import each other by fixed names,
    /// so a copy kept by age alone could pair an old module with a new one
    /// after a deploy, while a revalidation costs one small 304.
    fn response(&self, request_headers: &HeaderMap) -> Response {
        let etag = self.etag();
        let fresh = request_headers.get(header::IF_NONE_MATCH).and_then(|v| v.to_str().ok()).is_some_and(|tags| {
            tags.split(',').any(|tag| tag.trim() == "*" || tag.trim().trim_start_matches("W/") == etag)
        });
        let mut response = if fresh { StatusCode::NOT_MODIFIED.into_response() } else { self.body.into_response() };
        let headers = response.headers_mut();
        headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(self.content_type));
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
        headers.insert(header::ETAG, etag);
        headers.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
        headers.insert(header::REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
        response
    }
}

/// `GET /`: the page, under a content policy that allows only its own files.
async fn index(headers: HeaderMap) -> Response {
    let mut response = INDEX_HTML.response(&headers);
    response.headers_mut().insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static(PAGE_CSP));
    response
}

/// `GET /assets/{name}`: the page's stylesheet and modules.
async fn page_asset(axum::extract::Path(name): axum::extract::Path<String>, request: Request) -> Response {
    match PAGE_ASSETS.iter().find(|file| file.name == name) {
        Some(file) => file.response(request.headers()),
        None => not_found(request).await.into_response(),
    }
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
/// The body is read first, within `BODY_READ_TIMEOUT_MS`, and only then
/// does the search wait for a slot: a slow upload holds a connection, never
/// a slot. A small body is parsed (and, if cheap, searched) right here. A
/// large one is parsed on the blocking pool once it holds a slot, so at
/// most one large tree per slot is built at once; until then its bytes
/// count against `MAX_BUFFERED_BODY_BYTES`.
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
    let small = declared.is_some_and(|length| length <= INLINE_PARSE_BYTES);
    let streaming = stream::wanted(request.headers());
    let (body, deadline) = read_body(&state, request.into_body(), declared, !small).await?;
    if streaming {
        // Small bodies are checked here, so a bad request gets its JSON
        // error without waiting for a slot.
        let ready = if small {
            Ready::Parsed(SearchRequest::parse(&body.bytes, state.tree_limits, state.config.max_moves_limit)?)
        } else {
            Ready::Body(body)
        };
        let (admission, permit) = admit(&state, deadline).await?;
        return stream::run(state.clone(), ready, permit, admission, deadline).await;
    }
    if small {
        let search_request = SearchRequest::parse(&body.bytes, state.tree_limits, state.config.max_moves_limit)?;
        if search_request.work_estimate() <= state.config.inline_max_nodes {
            // Cheaper to search right here than to hand it to another thread.
            return search(&state, &search_request, &AtomicBool::new(false), deadline);
        }
        return run_blocking(&state, Ready::Parsed(search_request), deadline).await;
    }
    run_blocking(&state, Ready::Body(body), deadline).await
}

/// A request body, holding its share of the buffered body budget until it
/// is dropped.
struct BufferedBody {
    bytes: Bytes,
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
async fn read_body(
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
enum Ready {
    Parsed(SearchRequest),
    Body(BufferedBody),
}

impl Ready {
    /// The request, parsed if it is not yet. A body's text, and its room in
    /// the buffered body budget, are given back as soon as it is parsed.
    fn into_request(self, state: &AppState) -> Result<SearchRequest, ApiError> {
        match self {
            Ready::Parsed(request) => Ok(request),
            Ready::Body(body) => SearchRequest::parse(&body.bytes, state.tree_limits, state.config.max_moves_limit),
        }
    }
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
    let (admission, permit) = admit(state, deadline).await?;

    // Dropped with this future: when the client hangs up, axum drops the
    // handler's future, and the search stops instead of running out its budget.
    let cancel = CancelOnDrop::new();
    let flag = cancel.flag();
    let worker = state.clone();
    let task = tokio::task::spawn_blocking(move || {
        // The slot is held until the work really ends, even if the request
        // has already been answered with a timeout.
        let _permit = permit;
        let _admission = admission;
        worker.metrics.searches_in_flight.inc();
        let result = ready.into_request(&worker).and_then(|request| search(&worker, &request, &flag, deadline));
        worker.metrics.searches_in_flight.dec();
        result
    });
    match tokio::time::timeout_at(deadline, task).await {
        Ok(Ok(result)) => result,
        Ok(Err(join_error)) => Err(ApiError::Internal(join_error.to_string())),
        Err(_) => Err(timeout()),
    }
}

/// A search's cancel flag, set when this guard is dropped: by the handler's
/// future when the client hangs up (or the deadline passes), by a stream's
/// body when the client stops reading it.
struct CancelOnDrop(Arc<AtomicBool>);

impl CancelOnDrop {
    fn new() -> Self {
        CancelOnDrop(Arc::new(AtomicBool::new(false)))
    }

    /// The flag the search polls.
    fn flag(&self) -> Arc<AtomicBool> {
        self.0.clone()
    }
}

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// A place among the searches running or waiting, then a search slot: at
/// most `search_slots` run at once and `search_queue` more may wait; beyond
/// that the answer is 503 at once.
async fn admit(
    state: &Arc<AppState>,
    deadline: tokio::time::Instant,
) -> Result<(Admission, OwnedSemaphorePermit), ApiError> {
    let capacity = state.config.search_slots() + state.config.search_queue;
    let Some(admission) = Admission::try_new(state.clone(), capacity) else {
        state.metrics.shed.inc();
        return Err(ApiError::Overloaded);
    };
    match tokio::time::timeout_at(deadline, state.slots.clone().acquire_owned()).await {
        Ok(Ok(permit)) => Ok((admission, permit)),
        Ok(Err(closed)) => Err(ApiError::Internal(closed.to_string())),
        Err(_) => Err(ApiError::Timeout { limit_ms: state.config.request_timeout_ms }),
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

/// The three searches, counted in the metrics, serialized to a JSON response;
/// every search stops in time for the answer to be sent by `deadline`.
fn search(
    state: &AppState,
    request: &SearchRequest,
    cancel: &AtomicBool,
    deadline: tokio::time::Instant,
) -> Result<Response, ApiError> {
    let answer = answer::answer(request, &state.context(Some(deadline)), cancel, &mut |_| {})
        .map_err(|_| ApiError::Timeout { limit_ms: state.config.request_timeout_ms })?;
    count_nodes(state, &answer);
    // A board answer is about 1 KB: start there rather than grow by copies.
    let mut body = Vec::with_capacity(1024);
    serde_json::to_writer(&mut body, &answer).map_err(|e| ApiError::Internal(e.to_string()))?;
    Ok(([(header::CONTENT_TYPE, "application/json")], Body::from(body)).into_response())
}

/// Positions each algorithm that ran visited, in the metrics.
fn count_nodes(state: &AppState, answer: &Answer) {
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

/// A place among the searches running or waiting; given back on drop.
struct Admission(Arc<AppState>);

impl Admission {
    fn try_new(state: Arc<AppState>, capacity: usize) -> Option<Self> {
        let previous = state.admitted.fetch_add(1, Ordering::AcqRel);
        if previous >= capacity {
            state.admitted.fetch_sub(1, Ordering::AcqRel);
            return None;
        }
        Some(Admission(state))
    }
}

impl Drop for Admission {
    fn drop(&mut self) {
        self.0.admitted.fetch_sub(1, Ordering::AcqRel);
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

    #[tokio::test]
    async fn the_overall_time_limit_answers_a_json_503_with_cors_headers_and_a_request_id() {
        let config = Config {
            request_timeout_ms: 10,
            body_read_timeout_ms: 20,
            cors_origins: "http://app.example".into(),
            ..Config::default()
        };
        let slow = Router::new().route(
            "/slow",
            get(|| async {
                tokio::time::sleep(Duration::from_secs(60)).await;
                "late"
            }),
        );
        let app = with_layers(slow, Arc::new(AppState::new(config)));
        let request = Request::get("/slow").header(header::ORIGIN, "http://app.example").body(Body::empty()).unwrap();
        let response = app.oneshot(request).await.unwrap();
        assert_eq!(response.status(), StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(response.headers()[header::ACCESS_CONTROL_ALLOW_ORIGIN], "http://app.example");
        assert!(response.headers().contains_key(&X_REQUEST_ID));
        let body = response.into_body().collect().await.unwrap().to_bytes();
        let text = String::from_utf8_lossy(&body);
        // The limit named is the one that ran out: body, search and margin.
        assert!(text.contains("\"code\":\"timeout\"") && text.contains("longer than 530 ms"), "{text}");
    }
}

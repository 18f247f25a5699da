//! The middleware every request passes through: request ids, logs and
//! metrics (`observe`), CORS, the overall time limit, panics as JSON 500s,
//! and JSON bodies for a wrong method or path.

use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::extract::{DefaultBodyLimit, MatchedPath, Request, State};
use axum::http::{header, HeaderValue, Method, StatusCode};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::Router;
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::cors::{AllowOrigin, CorsLayer};

use super::metrics::{self, RequestLabels, RouteLabels};
use super::{ApiError, AppState, X_REQUEST_ID};
use crate::config::Config;

/// The middleware around every route. From the outside in: `observe` (so
/// every response, a CORS preflight included, has a request id and is
/// logged and counted), CORS (so every response a browser sees carries its
/// headers, the time limit's included), the time limit, then panics.
pub(super) fn with_layers(routes: Router<Arc<AppState>>, state: Arc<AppState>) -> Router {
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
pub(super) fn catch_panics() -> CatchPanicLayer<fn(Box<dyn std::any::Any + Send>) -> Response> {
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
    let limit = if request.uri().path() == "/review" { state.review_timeout() } else { state.overall_timeout() };
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

pub(super) async fn not_found(request: Request) -> ApiError {
    ApiError::NotFound(request.uri().path().chars().take(200).collect())
}

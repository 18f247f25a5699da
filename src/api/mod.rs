//! The HTTP layer, by concern: the routes and the state they share (this
//! file), the middleware every request passes through (`middleware`), the
//! body (`body`), admission to a search slot (`admission`), `POST
//! /best-move` (`best_move`) and its event stream (`stream`), the page
//! (`page`), health and metrics (`health`, `metrics`), the per-client
//! limits (`fairness`) and the one error type (`error`). It names no game:
//! a request's position is read by the game it names, through the
//! registry.
//!
//! [`app`] builds the whole service as an axum [`Router`], so tests drive it
//! with `tower::ServiceExt::oneshot` and no socket.

mod admission;
mod best_move;
mod body;
mod error;
mod fairness;
mod health;
mod metrics;
mod middleware;
mod page;
mod review;
mod stream;

pub use error::{ApiError, ClientLimit};
pub use metrics::Metrics;

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use axum::http::HeaderName;
use axum::routing::{get, post};
use axum::Router;
use tokio::sync::Semaphore;

use crate::config::Config;
use crate::games::{Registry, Settings, SetupError};
use crate::suggest::{Context, TablePool};

/// The OpenAPI description of this service, served as is.
pub const OPENAPI_YAML: &str = include_str!("../../openapi.yaml");
/// The request id header, accepted from clients and echoed back.
pub static X_REQUEST_ID: HeaderName = HeaderName::from_static("x-request-id");

/// Shared by every request.
pub struct AppState {
    config: Config,
    /// The games, with what they load once (the opening book).
    games: Registry,
    /// One permit per search allowed to run at once.
    slots: Arc<Semaphore>,
    /// One permit per byte of the bodies that may be held at once.
    body_room: Arc<Semaphore>,
    /// Searches running or waiting for a slot.
    admitted: AtomicUsize,
    /// Transposition tables for the engine's searches.
    tables: TablePool,
    ready: AtomicBool,
    /// The per-client limits and every client's use of them.
    fairness: Arc<fairness::Fairness>,
    /// The service's metrics.
    pub metrics: Metrics,
}

impl AppState {
    /// State for a service with this configuration.
    ///
    /// # Panics
    ///
    /// When the games cannot be set up (an opening book named by
    /// `OPENING_BOOK` that cannot be read): [`AppState::try_new`] says so
    /// instead.
    pub fn new(config: Config) -> Self {
        AppState::try_new(config).unwrap_or_else(|error| panic!("{error}"))
    }

    /// State for a service with this configuration, or why its games
    /// cannot be set up.
    pub fn try_new(config: Config) -> Result<Self, SetupError> {
        let games = Registry::new(&settings(&config))?;
        Ok(AppState {
            games,
            slots: Arc::new(Semaphore::new(config.search_slots())),
            // Room for at least one body of the largest size.
            body_room: Arc::new(Semaphore::new(
                config.max_buffered_body_bytes.max(config.max_body_bytes).min(Semaphore::MAX_PERMITS),
            )),
            admitted: AtomicUsize::new(0),
            tables: TablePool::new(config.tt_mib << 20, config.search_slots()),
            ready: AtomicBool::new(true),
            fairness: Arc::new(fairness::Fairness::new(&config)),
            metrics: Metrics::new(),
            config,
        })
    }

    /// The configuration it was made with.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// Makes the tables the search slots keep, with all their memory, ahead
    /// of the first searches, so that they pay no page faults.
    pub fn warm_tables(&self) {
        self.tables.warm();
    }

    /// Marks the service as draining: `/readyz` answers 503 from now on.
    pub fn begin_shutdown(&self) {
        self.ready.store(false, Ordering::SeqCst);
    }

    /// What the searches need from the service beyond the request, for a
    /// request that must be answered by `deadline`.
    fn context(&self, deadline: Option<tokio::time::Instant>) -> Context<'_> {
        Context {
            deadline: deadline.map(tokio::time::Instant::into_std),
            tables: &self.tables,
            max_search_ms: self.config.max_search_ms,
            compare_max_nodes: self.config.compare_max_nodes,
            watched: false,
            compare: self.config.compare,
            shared_table: None,
            equal_depths: false,
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

    /// The most a review may take: its body, its wait for a slot, the
    /// review, and a margin.
    fn review_timeout(&self) -> Duration {
        self.overall_timeout() + Duration::from_millis(self.config.max_review_ms) + Duration::from_secs(1)
    }
}

/// What the games take from the configuration.
fn settings(config: &Config) -> Settings {
    Settings {
        tree_limits: crate::games::tree::TreeLimits {
            max_nodes: config.max_tree_nodes,
            max_depth: config.max_tree_depth,
        },
        opening_book: config.opening_book.clone(),
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
        .route("/", get(page::index))
        .route("/assets/{name}", get(page::page_asset))
        .route(
            "/best-move",
            post(best_move::best_move)
                .route_layer(axum::middleware::from_fn_with_state(state.clone(), fairness::limit)),
        )
        .route(
            "/review",
            post(review::review).route_layer(axum::middleware::from_fn_with_state(state.clone(), fairness::limit)),
        )
        .route("/healthz", get(health::healthz))
        .route("/readyz", get(health::readyz))
        .route("/openapi.yaml", get(health::openapi));
    // With a metrics port of their own, metrics are not on this one.
    if state.config.metrics_port.is_none() {
        routes = routes.route("/metrics", get(health::metrics_text));
    }
    middleware::with_layers(routes.fallback(middleware::not_found), state)
}

/// `GET /metrics` alone, for the port `METRICS_PORT` names; any other path
/// is a JSON 404.
pub fn metrics_router(state: Arc<AppState>) -> Router {
    Router::new().route("/metrics", get(health::metrics_text)).fallback(middleware::not_found).with_state(state)
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::body::Body;
    use axum::extract::Request;
    use axum::http::{header, StatusCode};
    use http_body_util::BodyExt;
    use middleware::{catch_panics, with_layers};
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

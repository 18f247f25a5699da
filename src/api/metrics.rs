//! Prometheus metrics, served at `GET /metrics` in the OpenMetrics text format.

use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::{exponential_buckets, Histogram};
use prometheus_client::registry::Registry;

/// Labels of a finished request.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct RequestLabels {
    /// The matched route (`/best-move`), or `unmatched`: never the raw path,
    /// which would let clients create any number of series.
    pub route: &'static str,
    /// The HTTP method, or `other` for one the service does not know.
    pub method: &'static str,
    /// The response status.
    pub status: u16,
}

/// Labels of a latency observation.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct RouteLabels {
    /// The matched route, as in [`RequestLabels::route`].
    pub route: &'static str,
}

/// Labels of searched nodes.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct AlgorithmLabels {
    /// `minimax` or `alphabeta`.
    pub algorithm: &'static str,
}

/// Labels of a connection the server closed for want of activity.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct TimeoutLabels {
    /// `header_read` (a request's headers took too long) or `idle` (no
    /// request on a keep-alive connection for too long).
    pub timeout: &'static str,
}

/// Labels of a request refused for its client's limits.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct RefusalLabels {
    /// `searches` (`CLIENT_MAX_SEARCHES`) or `search_time` (`CLIENT_SEARCH_MS`).
    pub limit: &'static str,
}

/// The routes the service serves, as metric labels.
const ROUTES: [&str; 7] = ["/", "/assets/{name}", "/best-move", "/healthz", "/readyz", "/openapi.yaml", "/metrics"];

/// A matched route as a label: one of [`ROUTES`], or `unmatched`.
pub fn route_label(matched: Option<&str>) -> &'static str {
    matched.and_then(|path| ROUTES.iter().find(|route| **route == path)).copied().unwrap_or("unmatched")
}

/// A method as a label: the standard ones by name, anything else `other`.
pub fn method_label(method: &axum::http::Method) -> &'static str {
    const KNOWN: [&str; 9] = ["GET", "POST", "HEAD", "OPTIONS", "PUT", "DELETE", "PATCH", "CONNECT", "TRACE"];
    KNOWN.iter().find(|known| **known == method.as_str()).copied().unwrap_or("other")
}

fn latency_histogram() -> Histogram {
    // 50 µs to about 13 s.
    Histogram::new(exponential_buckets(0.000_05, 2.0, 19))
}

/// Every metric the service exports.
pub struct Metrics {
    registry: Registry,
    /// Requests by route, method and status.
    pub requests: Family<RequestLabels, Counter>,
    /// Request latency by route, in seconds.
    pub latency: Family<RouteLabels, Histogram, fn() -> Histogram>,
    /// Positions searched, by algorithm.
    pub nodes: Family<AlgorithmLabels, Counter>,
    /// Searches running now.
    pub searches_in_flight: Gauge,
    /// Requests turned away with 503 because every slot and the queue were full.
    pub shed: Counter,
    /// Requests turned away with 429 because their client was over a
    /// per-client limit, by limit.
    pub client_refusals: Family<RefusalLabels, Counter>,
    /// Client connections open now.
    pub connections_open: Gauge,
    /// The most client connections allowed open at once.
    pub connections_max: Gauge,
    /// Connections closed because their request headers took too long.
    pub header_read_timeouts: Counter,
    /// Keep-alive connections closed after too long with no request.
    pub idle_timeouts: Counter,
    /// Times the server stopped accepting because it had the most
    /// connections allowed.
    pub connection_limit_reached: Counter,
}

impl Metrics {
    /// Creates and registers the metrics.
    pub fn new() -> Self {
        let mut registry = Registry::with_prefix("bestmove");
        let requests = Family::<RequestLabels, Counter>::default();
        let latency = Family::<RouteLabels, Histogram, fn() -> Histogram>::new_with_constructor(
            latency_histogram as fn() -> Histogram,
        );
        let nodes = Family::<AlgorithmLabels, Counter>::default();
        let searches_in_flight = Gauge::default();
        let shed = Counter::default();
        registry.register("http_requests", "HTTP requests by route, method and status", requests.clone());
        registry.register("http_request_duration_seconds", "HTTP request latency by route", latency.clone());
        registry.register("search_nodes", "Positions searched, by algorithm", nodes.clone());
        registry.register("searches_in_flight", "Searches running now", searches_in_flight.clone());
        registry.register(
            "requests_shed",
            "Requests answered 503 because the service was at its search limit",
            shed.clone(),
        );
        let client_refusals = Family::<RefusalLabels, Counter>::default();
        registry.register(
            "client_refusals",
            "Requests answered 429 because their client was over CLIENT_MAX_SEARCHES (searches) or \
             CLIENT_SEARCH_MS (search_time)",
            client_refusals.clone(),
        );
        let connections_open = Gauge::default();
        let connections_max = Gauge::default();
        let timeouts = Family::<TimeoutLabels, Counter>::default();
        let header_read_timeouts = timeouts.get_or_create(&TimeoutLabels { timeout: "header_read" }).clone();
        let idle_timeouts = timeouts.get_or_create(&TimeoutLabels { timeout: "idle" }).clone();
        let connection_limit_reached = Counter::default();
        registry.register("connections_open", "Client connections open now", connections_open.clone());
        registry.register(
            "connections_max",
            "The most client connections allowed open at once",
            connections_max.clone(),
        );
        registry.register(
            "connections_timed_out",
            "Connections closed by the server: headers too slow (header_read) or no request for too long (idle)",
            timeouts,
        );
        registry.register(
            "connection_limit_reached",
            "Times the server stopped accepting connections because it had MAX_CONNECTIONS open",
            connection_limit_reached.clone(),
        );
        Metrics {
            registry,
            requests,
            latency,
            nodes,
            searches_in_flight,
            shed,
            client_refusals,
            connections_open,
            connections_max,
            header_read_timeouts,
            idle_timeouts,
            connection_limit_reached,
        }
    }

    /// The metrics in the OpenMetrics text format.
    pub fn render(&self) -> String {
        let mut out = String::new();
        // Writing into a String cannot fail.
        let _ = prometheus_client::encoding::text::encode(&mut out, &self.registry);
        out
    }
}

impl Default for Metrics {
    fn default() -> Self {
        Self::new()
    }
}

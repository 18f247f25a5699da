//! Shared plumbing for the HTTP tests: drive the router in-process with
//! `tower::ServiceExt::oneshot`, so no socket or port is needed.

#![allow(dead_code)]

use axum::body::Body;
use axum::http::{header, HeaderMap, Method, Request, StatusCode};
use http_body_util::BodyExt;
use serde_json::Value;
use tower::ServiceExt;

/// What a test sees of a response: status, headers and the raw body.
pub struct TestResponse {
    pub status: StatusCode,
    pub headers: HeaderMap,
    pub body: Vec<u8>,
}

impl TestResponse {
    /// The body parsed as JSON; panics with the body text when it is not JSON.
    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|e| panic!("response body is not JSON ({e}): {}", String::from_utf8_lossy(&self.body)))
    }

    /// The body as text.
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }

    /// A header value as text, if present.
    pub fn header(&self, name: &str) -> Option<String> {
        self.headers.get(name).map(|v| v.to_str().unwrap_or_default().to_owned())
    }
}

/// The service's router with the default configuration.
pub fn app() -> axum::Router {
    bestmove::api::app(bestmove::config::Config::default())
}

/// Sends one request through a fresh router and collects the whole response.
pub async fn send(method: Method, path: &str, content_type: Option<&str>, body: impl Into<Body>) -> TestResponse {
    let mut builder = Request::builder().method(method).uri(path);
    if let Some(ct) = content_type {
        builder = builder.header(header::CONTENT_TYPE, ct);
    }
    let request = builder.body(body.into()).expect("a valid test request");
    let response = app().oneshot(request).await.expect("the router is infallible");
    let status = response.status();
    let headers = response.headers().clone();
    let body = response.into_body().collect().await.expect("a readable response body").to_bytes().to_vec();
    TestResponse { status, headers, body }
}

/// `GET path`.
pub async fn get(path: &str) -> TestResponse {
    send(Method::GET, path, None, Body::empty()).await
}

/// `POST /best-move` with a JSON value as the body.
pub async fn post_best_move(body: &Value) -> TestResponse {
    post_best_move_raw(body.to_string()).await
}

/// `POST /best-move` with raw bytes declared as `application/json`.
pub async fn post_best_move_raw(body: impl Into<Body>) -> TestResponse {
    send(Method::POST, "/best-move", Some("application/json"), body).await
}

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

/// `POST /best-move` with `body`, asking for an event stream.
pub fn streaming(body: &Value) -> Request<Body> {
    Request::post("/best-move")
        .header(header::CONTENT_TYPE, "application/json")
        .header(header::ACCEPT, "text/event-stream")
        .body(Body::from(body.to_string()))
        .unwrap()
}

/// The events of a whole stream, as (name, data) pairs.
pub fn events(text: &str) -> Vec<(String, Value)> {
    text.split("\n\n")
        .filter(|block| !block.trim().is_empty())
        .map(|block| {
            let mut name = String::new();
            let mut data = String::new();
            for line in block.lines() {
                if let Some(rest) = line.strip_prefix("event: ") {
                    name = rest.to_string();
                } else if let Some(rest) = line.strip_prefix("data: ") {
                    data.push_str(rest);
                }
            }
            (name, serde_json::from_str(&data).unwrap_or_else(|e| panic!("event data is JSON ({e}): {data}")))
        })
        .collect()
}

/// An answer with its timings blanked, to compare two runs. The engine's
/// deepening has a share of the time budget, so how much work it did
/// before the final solve can differ from run to run; its answer cannot.
pub fn untimed(mut answer: Value) -> Value {
    for report in ["minimax", "alphabeta", "engine"] {
        answer[report]["elapsed_us"] = Value::Null;
    }
    for work in ["nodes", "table_hits", "iterations"] {
        answer["engine"][work] = Value::Null;
    }
    answer
}

/// Polls `done` every 10 ms for at most `tries` looks; true once it holds.
pub async fn eventually(tries: u32, done: impl Fn() -> bool) -> bool {
    for _ in 0..tries {
        if done() {
            return true;
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    done()
}

//! The routes around the search, and the service's behaviour as a whole:
//! health, CORS, request ids, metrics, overload and timeouts.

use std::sync::Arc;

use axum::body::Body;
use axum::http::{header, Method, Request, StatusCode};
use bestmove::api::{router, AppState};
use bestmove::config::Config;
use http_body_util::BodyExt;
use tower::ServiceExt;

use crate::helpers::{get, send};

#[tokio::test]
async fn healthz_reports_ok_and_the_version() {
    let response = get("/healthz").await;
    assert_eq!(response.status, StatusCode::OK);
    assert_eq!(response.json(), serde_json::json!({"status": "ok", "version": env!("CARGO_PKG_VERSION")}));
}

#[tokio::test]
async fn readyz_turns_503_once_the_service_starts_draining() {
    let state = Arc::new(AppState::new(Config::default()));
    let app = router(state.clone());
    let ready = app.clone().oneshot(Request::get("/readyz").body(Body::empty()).unwrap()).await.unwrap();
    assert_eq!(ready.status(), StatusCode::OK);
    state.begin_shutdown();
    let draining = app.oneshot(Request::get("/readyz").body(Body::empty()).unwrap()).await.unwrap();
    assert_eq!(draining.status(), StatusCode::SERVICE_UNAVAILABLE);
}

#[tokio::test]
async fn the_spec_and_the_page_are_served() {
    let spec = get("/openapi.yaml").await;
    assert_eq!(spec.status, StatusCode::OK);
    assert!(spec.text().starts_with("openapi: 3.1") || spec.text().contains("\nopenapi: 3.1"));
    let page = get("/").await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(page.header("content-type").unwrap().starts_with("text/html"));
    assert!(page.text().contains("/best-move"));
}

#[tokio::test]
async fn unknown_routes_and_methods_get_json_errors() {
    let missing = get("/best_move").await;
    assert_eq!(missing.status, StatusCode::NOT_FOUND);
    assert_eq!(missing.json()["error"]["code"], "not_found");
    let wrong = send(Method::GET, "/best-move", None, Body::empty()).await;
    assert_eq!(wrong.status, StatusCode::METHOD_NOT_ALLOWED);
    assert_eq!(wrong.header("allow").as_deref(), Some("POST"));
    assert_eq!(wrong.json()["error"]["code"], "method_not_allowed");
    let delete = send(Method::DELETE, "/healthz", None, Body::empty()).await;
    assert_eq!(delete.status, StatusCode::METHOD_NOT_ALLOWED);
    assert!(delete.header("allow").unwrap().contains("GET"));
}

#[tokio::test]
async fn a_browser_preflight_from_another_origin_is_allowed() {
    let request = Request::builder()
        .method(Method::OPTIONS)
        .uri("/best-move")
        .header(header::ORIGIN, "https://games.example")
        .header(header::ACCESS_CONTROL_REQUEST_METHOD, "POST")
        .header(header::ACCESS_CONTROL_REQUEST_HEADERS, "content-type")
        .body(Body::empty())
        .unwrap();
    let response = bestmove::api::app(Config::default()).oneshot(request).await.unwrap();
    assert!(response.status().is_success());
    let headers = response.headers();
    assert_eq!(headers[header::ACCESS_CONTROL_ALLOW_ORIGIN], "*");
    assert!(headers[header::ACCESS_CONTROL_ALLOW_METHODS].to_str().unwrap().contains("POST"));
    assert!(headers[header::ACCESS_CONTROL_ALLOW_HEADERS].to_str().unwrap().contains("content-type"));
}

#[tokio::test]
async fn only_the_configured_origins_are_allowed_when_a_list_is_given() {
    let config = Config { cors_origins: "https://a.example, https://b.example".into(), ..Config::default() };
    let app = bestmove::api::app(config);
    for (origin, allowed) in [("https://b.example", true), ("https://evil.example", false)] {
        let request = Request::get("/healthz").header(header::ORIGIN, origin).body(Body::empty()).unwrap();
        let response = app.clone().oneshot(request).await.unwrap();
        let echoed =
            response.headers().get(header::ACCESS_CONTROL_ALLOW_ORIGIN).map(|v| v.to_str().unwrap().to_owned());
        assert_eq!(echoed.as_deref() == Some(origin), allowed, "{origin}");
    }
}

#[tokio::test]
async fn a_request_id_is_echoed_or_made_up() {
    let request = Request::get("/healthz").header("x-request-id", "abc-123").body(Body::empty()).unwrap();
    let response = bestmove::api::app(Config::default()).oneshot(request).await.unwrap();
    assert_eq!(response.headers()["x-request-id"], "abc-123");
    let made_up = get("/healthz").await.header("x-request-id").unwrap();
    assert_eq!(made_up.len(), 16);
}

#[tokio::test]
async fn metrics_count_requests_nodes_and_shed_load() {
    let app = bestmove::api::app(Config::default());
    let body = r#"{"board": "XO..X...."}"#;
    let search =
        Request::post("/best-move").header(header::CONTENT_TYPE, "application/json").body(Body::from(body)).unwrap();
    assert_eq!(app.clone().oneshot(search).await.unwrap().status(), StatusCode::OK);
    let response = app.oneshot(Request::get("/metrics").body(Body::empty()).unwrap()).await.unwrap();
    let text = String::from_utf8(response.into_body().collect().await.unwrap().to_bytes().to_vec()).unwrap();
    assert!(
        text.contains(r#"bestmove_http_requests_total{route="/best-move",method="POST",status="200"} 1"#),
        "{text}"
    );
    assert!(text.contains(r#"bestmove_search_nodes_total{algorithm="minimax"} 1061"#), "{text}");
    assert!(text.contains("bestmove_http_request_duration_seconds_bucket"));
    assert!(text.contains("bestmove_searches_in_flight"));
    assert!(text.contains("bestmove_requests_shed_total"));
}

fn empty_board_request() -> Request<Body> {
    Request::post("/best-move")
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(r#"{"board": "........."}"#))
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn beyond_the_search_limit_and_queue_requests_get_503_with_retry_after_at_once() {
    let config = Config { max_concurrent_searches: Some(1), search_queue: 0, ..Config::default() };
    let app = bestmove::api::app(config);
    let requests: Vec<_> = (0..8).map(|_| tokio::spawn(app.clone().oneshot(empty_board_request()))).collect();
    let (mut served, mut shed) = (0, 0);
    for request in requests {
        let response = request.await.unwrap().unwrap();
        match response.status() {
            StatusCode::OK => served += 1,
            StatusCode::SERVICE_UNAVAILABLE => shed += 1,
            other => panic!("unexpected status {other}"),
        }
        if response.status() == StatusCode::SERVICE_UNAVAILABLE {
            assert_eq!(response.headers()[header::RETRY_AFTER], "1");
            let body = response.into_body().collect().await.unwrap().to_bytes();
            let error: serde_json::Value = serde_json::from_slice(&body).unwrap();
            assert_eq!(error["error"]["code"], "overloaded");
        }
    }
    assert!(served >= 1 && shed >= 1, "served {served}, shed {shed}");
    // Recovery: once the burst is over, the next search is served.
    let after = app.oneshot(empty_board_request()).await.unwrap();
    assert_eq!(after.status(), StatusCode::OK);
}

#[tokio::test]
async fn a_budget_past_the_request_timeout_is_cut_to_answer_within_it() {
    // An early Connect Four position without the book: the engine would use
    // its whole 5 s budget, but the request timeout is 400 ms: it answers
    // with what it found by then, as for a budget that ran out. The tables
    // are made first, as the server makes them at start: a search on a
    // table whose memory is still to be taken from the system may spend
    // most of the 400 ms in page faults.
    let config = Config { request_timeout_ms: 400, opening_book: Some("none".into()), ..Config::default() };
    let state = Arc::new(AppState::new(config));
    state.warm_tables();
    let request = Request::post("/best-move")
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(r#"{"game": "connect4", "moves": "4", "time_ms": 5000, "compare": false}"#))
        .unwrap();
    let response = router(state).oneshot(request).await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let body = response.into_body().collect().await.unwrap().to_bytes();
    let answer: serde_json::Value = serde_json::from_slice(&body).unwrap();
    assert_eq!(answer["exact"], false, "{answer}");
    assert!(answer["engine"]["elapsed_us"].as_u64().unwrap() < 400_000, "{answer}");
}

#[tokio::test]
async fn a_search_that_outlives_the_timeout_is_abandoned_with_a_json_503() {
    // A tree's answer is its whole plain minimax search, which no budget
    // cuts: one of a million leaves, given 5 ms, runs out of time.
    let leaves = vec!["1"; 1_000_000].join(",");
    let config = Config { request_timeout_ms: 5, ..Config::default() };
    let request = Request::post("/best-move")
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(format!(r#"{{"tree": [{leaves}]}}"#)))
        .unwrap();
    let response = bestmove::api::app(config).oneshot(request).await.unwrap();
    assert_eq!(response.status(), StatusCode::SERVICE_UNAVAILABLE);
    let body = response.into_body().collect().await.unwrap().to_bytes();
    let error: serde_json::Value = serde_json::from_slice(&body).unwrap();
    assert_eq!(error["error"]["code"], "timeout");
}

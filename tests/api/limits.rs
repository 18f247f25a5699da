//! What bounds a request: the size of its answer, the time its body may
//! take, and the edge cases of reading it.

use std::collections::BTreeSet;

use axum::body::{Body, Bytes};
use axum::http::{header, Request, StatusCode};
use bestmove::config::Config;
use http_body_util::BodyExt;
use serde_json::{json, Value};
use tower::ServiceExt;

use crate::helpers::{post_best_move, post_best_move_raw, TestResponse};

#[tokio::test]
async fn a_key_given_twice_is_refused_even_when_one_copy_is_null() {
    for body in [
        r#"{"board": null, "board": "XO..X...."}"#,
        r#"{"board": "XO..X....", "board": null}"#,
        r#"{"board": "XO..X....", "seed": null, "seed": 3}"#,
    ] {
        let response = post_best_move_raw(body).await;
        assert_eq!(response.status, StatusCode::UNPROCESSABLE_ENTITY, "{body}: {}", response.text());
        let error = response.json()["error"].clone();
        assert_eq!(error["code"], "invalid_request", "{body}");
        assert!(error["message"].as_str().unwrap().contains("more than once"), "{body}: {error}");
    }
}

/// The moves `tie_break: random` answers for `tree` over seeds 0..100.
async fn random_choices(tree: Value) -> BTreeSet<u64> {
    let mut seen = BTreeSet::new();
    for seed in 0..100 {
        let answer = post_best_move(&json!({"tree": tree, "tie_break": "random", "seed": seed})).await.json();
        seen.insert(answer["best_move"].as_u64().unwrap());
    }
    seen
}

#[tokio::test]
async fn a_random_tie_break_picks_among_all_draws_and_only_the_quickest_wins_and_slowest_losses() {
    // Every move worth 0 is as good as any other, whatever its line's length.
    assert_eq!(random_choices(json!([[0, 0], 0, 0])).await, BTreeSet::from([0, 1, 2]));
    assert_eq!(random_choices(json!([0, [0, 0], 0])).await, BTreeSet::from([0, 1, 2]));
    // A win is better sooner, a loss later.
    assert_eq!(random_choices(json!([5, [5, 5], 5])).await, BTreeSet::from([0, 2]));
    assert_eq!(random_choices(json!([-5, [-5, -5], -5])).await, BTreeSet::from([1]));
}

#[tokio::test]
async fn an_unknown_key_and_a_deep_tree_path_are_quoted_short() {
    let key = "k".repeat(1_000_000);
    let response = post_best_move_raw(format!(r#"{{"{key}": 1, "board": "........."}}"#)).await;
    assert!(response.body.len() < 1000, "a {}-byte error", response.body.len());
    let error = response.json()["error"].clone();
    assert_eq!(error["code"], "unknown_field");
    assert_eq!(error["field"].as_str().unwrap(), format!("{}…", "k".repeat(40)));

    let deep = format!(r#"{{"tree": {}1{}}}"#, "[".repeat(1001), "]".repeat(1001));
    let response = post_best_move_raw(deep).await;
    assert!(response.body.len() < 1000, "a {}-byte error", response.body.len());
    let error = response.json()["error"].clone();
    assert_eq!(error["code"], "tree_too_deep");
    assert_eq!(error["field"], "tree[0][0][0][0][0]…[0][0][0][0][0]");
    assert!(error["message"].as_str().unwrap().starts_with("tree[0][0][0][0][0]…[0][0][0][0][0]: "), "{error}");

    // A short path is given whole.
    let shallow = post_best_move(&json!({"tree": [[1, [2, [3, "x"]]]]})).await.json();
    assert_eq!(shallow["error"]["field"], "tree[0][1][1][1]");
}

#[tokio::test]
async fn a_board_that_cannot_be_read_says_why() {
    for (board, field, words) in [
        ("1e400", "board", "not a number (1e400)"),
        ("-1e400", "board", "not a number"),
        (r#"["X", 1e400, "", "", "", "", "", "", ""]"#, "board[1]", "a number that cannot be read"),
        (r#"["X", "\ud800", "", "", "", "", "", "", ""]"#, "board[1]", "invalid Unicode"),
        (r#"[["X", "", ""], ["", "\udc00", ""], ["", "", ""]]"#, "board[1][1]", "invalid Unicode"),
    ] {
        let response = post_best_move_raw(format!(r#"{{"board": {board}}}"#)).await;
        assert_eq!(response.status, StatusCode::UNPROCESSABLE_ENTITY, "{board}");
        let error = response.json()["error"].clone();
        assert_eq!((error["code"].as_str(), error["field"].as_str()), (Some("invalid_board"), Some(field)));
        let message = error["message"].as_str().unwrap();
        assert!(message.contains(words) && !message.contains("nested"), "{board}: {message}");
    }
    let nested = format!(r#"{{"board": {}"X"{}}}"#, "[".repeat(200), "]".repeat(200));
    let error = post_best_move_raw(nested).await.json()["error"].clone();
    assert!(error["message"].as_str().unwrap().contains("nested far too deeply"), "{error}");
}

#[tokio::test]
async fn a_huge_board_array_or_a_million_members_is_refused_while_it_is_read() {
    let zeros = format!(r#"{{"board": [{}0]}}"#, "0,".repeat(1_000_000));
    let error = post_best_move_raw(zeros).await.json()["error"].clone();
    assert_eq!((error["code"].as_str(), error["field"].as_str()), (Some("invalid_board"), Some("board")), "{error}");
    let message = error["message"].as_str().unwrap();
    assert!(message.contains("too large to be part of a position (an array of more than 128 items)"), "{message}");

    // Members past the known fields are skipped, and the first wrong one named.
    let members = format!(r#"{{"board": ".........", {}"seed": 1}}"#, r#""seed": 1, "#.repeat(500_000));
    let error = post_best_move_raw(members).await.json()["error"].clone();
    assert_eq!((error["code"].as_str(), error["field"].as_str()), (Some("invalid_request"), Some("seed")), "{error}");
}

/// The answers may stay this far under 2 MiB and no further.
const ANSWER_BOUND: usize = 2 * 1024 * 1024;

/// Sends one request through `app` and collects the whole response.
pub(crate) async fn send_to(app: &axum::Router, request: Request<Body>) -> TestResponse {
    let response = app.clone().oneshot(request).await.expect("the router is infallible");
    let status = response.status();
    let headers = response.headers().clone();
    let body = response.into_body().collect().await.expect("a readable body").to_bytes().to_vec();
    TestResponse { status, headers, body }
}

/// `POST /best-move` declared as JSON, to be given a body.
fn best_move_request() -> axum::http::request::Builder {
    Request::post("/best-move").header(header::CONTENT_TYPE, "application/json")
}

#[tokio::test]
async fn the_widest_tree_the_limits_allow_gets_a_short_answer_that_counts_every_move() {
    let tree = format!(r#"{{"tree": [{}1]}}"#, "1,".repeat(1_999_998));
    let response = post_best_move_raw(tree).await;
    assert_eq!(response.status, StatusCode::OK, "{}", response.text());
    assert!(response.body.len() < ANSWER_BOUND, "an answer of {} bytes", response.body.len());
    let answer = response.json();
    assert_eq!(answer["moves"].as_array().unwrap().len(), 1000);
    assert_eq!(answer["moves"][999]["move"], 999);
    assert_eq!((answer["moves_total"].clone(), answer["moves_truncated"].clone()), (json!(1_999_999), json!(true)));
    assert_eq!(answer["minimax"]["nodes"], 2_000_000);
}

#[tokio::test]
async fn the_largest_names_and_values_keep_the_answer_under_two_mebibytes() {
    // Names at the longest allowed, each byte a control character that the
    // answer must escape in six bytes, and the longest values.
    let name = r"\u0001".repeat(128);
    let children: Vec<String> =
        (0..1500).map(|_| format!(r#"{{"name": "{name}", "value": -9223372036854775807}}"#)).collect();
    let body = format!(r#"{{"tree": {{"children": [{}]}}, "maximizing": false}}"#, children.join(","));
    let response = post_best_move_raw(body).await;
    assert_eq!(response.status, StatusCode::OK, "{}", response.text());
    assert!(response.body.len() < ANSWER_BOUND, "an answer of {} bytes", response.body.len());
    let answer = response.json();
    assert_eq!(answer["moves"].as_array().unwrap().len(), 1000);
    assert_eq!(answer["moves"][0]["name"].as_str().unwrap().len(), 128);

    let longer = format!(r#"{{"tree": {{"children": [{{"name": "{}", "value": 1}}]}}}}"#, "n".repeat(129));
    let refused = post_best_move_raw(longer).await.json();
    assert_eq!(refused["error"]["code"], "invalid_tree");
    assert_eq!(refused["error"]["field"], "tree.children[0].name");
}

#[tokio::test]
async fn max_moves_sets_how_many_moves_are_listed_up_to_the_servers_most() {
    let answer = post_best_move(&json!({"tree": [1, 2, 3], "max_moves": 2})).await.json();
    let listed: Vec<u64> = answer["moves"].as_array().unwrap().iter().map(|m| m["move"].as_u64().unwrap()).collect();
    assert_eq!(listed, vec![0, 1]);
    assert_eq!((answer["moves_total"].clone(), answer["moves_truncated"].clone()), (json!(3), json!(true)));
    assert_eq!(answer["best_move"], 2, "the best move is found among all moves, listed or not");

    let none = post_best_move(&json!({"board": "XO..X....", "max_moves": 0})).await.json();
    assert_eq!((none["moves"].clone(), none["moves_total"].clone()), (json!([]), json!(6)));
    let all = post_best_move(&json!({"board": "XO..X...."})).await.json();
    assert_eq!((all["moves"].as_array().unwrap().len(), all["moves_truncated"].clone()), (6, json!(false)));

    for too_many in [json!(10_001), json!(-1), json!(1.5)] {
        let error = post_best_move(&json!({"tree": [1], "max_moves": too_many})).await.json();
        assert_eq!(
            (error["error"]["code"].clone(), error["error"]["field"].clone()),
            (json!("invalid_option"), json!("max_moves"))
        );
    }
    let app = bestmove::api::app(Config { max_moves_limit: 20_000, ..Config::default() });
    let raised =
        send_to(&app, best_move_request().body(Body::from(r#"{"tree": [1], "max_moves": 20000}"#)).unwrap()).await;
    assert_eq!(raised.status, StatusCode::OK, "{}", raised.text());
}

/// A body that sends `first` and then nothing more, ever.
pub(crate) fn stalled_body(first: impl Into<Bytes>) -> Body {
    struct Stall(Option<Bytes>);
    impl futures_core::Stream for Stall {
        type Item = Result<Bytes, std::io::Error>;
        fn poll_next(
            mut self: std::pin::Pin<&mut Self>,
            _: &mut std::task::Context<'_>,
        ) -> std::task::Poll<Option<Self::Item>> {
            match self.0.take() {
                Some(bytes) => std::task::Poll::Ready(Some(Ok(bytes))),
                None => std::task::Poll::Pending,
            }
        }
    }
    Body::from_stream(Stall(Some(first.into())))
}

#[tokio::test]
async fn a_body_that_stalls_is_a_408_that_carries_cors_headers_and_a_request_id() {
    let config = Config { body_read_timeout_ms: 50, cors_origins: "http://app.example".into(), ..Config::default() };
    let app = bestmove::api::app(config);
    for declared in [Some("30"), None] {
        let mut request = best_move_request().header(header::ORIGIN, "http://app.example");
        if let Some(length) = declared {
            request = request.header(header::CONTENT_LENGTH, length);
        }
        let response = send_to(&app, request.body(stalled_body(r#"{"board":"#)).unwrap()).await;
        assert_eq!(response.status, StatusCode::REQUEST_TIMEOUT, "{declared:?}: {}", response.text());
        let error = response.json()["error"].clone();
        assert_eq!(error["code"], "body_timeout");
        assert!(error["message"].as_str().unwrap().contains("50 ms"), "{error}");
        assert_eq!(response.header("access-control-allow-origin").as_deref(), Some("http://app.example"));
        assert!(response.header("x-request-id").is_some());
        assert_eq!(response.header("connection").as_deref(), Some("close"));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn uploads_that_stall_hold_no_search_slot() {
    // One slot and no queue: a stalled upload that took the slot, or a place
    // in the queue, would turn the next search away.
    let config =
        Config { max_concurrent_searches: Some(1), search_queue: 0, body_read_timeout_ms: 60_000, ..Config::default() };
    let app = bestmove::api::app(config);
    let mut stalled = Vec::new();
    for declared in [None, None, Some("30000"), Some("30000")] {
        let mut request = best_move_request();
        if let Some(length) = declared {
            request = request.header(header::CONTENT_LENGTH, length);
        }
        let request = request.body(stalled_body(r#"{"tree": [1,"#)).unwrap();
        stalled.push(tokio::spawn(app.clone().oneshot(request)));
    }
    tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    let empty_board = best_move_request().body(Body::from(r#"{"board": "........."}"#)).unwrap();
    let response = send_to(&app, empty_board).await;
    assert_eq!(response.status, StatusCode::OK, "{}", response.text());
    assert!(stalled.iter().all(|upload| !upload.is_finished()), "the stalled uploads are still being read");
    for upload in stalled {
        upload.abort();
    }
}

#[tokio::test]
async fn a_body_that_finds_no_room_in_time_is_a_503_not_a_408() {
    // Room for 1,000 bytes of bodies of unknown length, taken by one upload
    // that stalls: the next body waits for room, which is the service's
    // time, not the client's.
    let config = Config {
        max_body_bytes: 1_000,
        max_buffered_body_bytes: 1_000,
        request_timeout_ms: 100,
        body_read_timeout_ms: 60_000,
        ..Config::default()
    };
    let app = bestmove::api::app(config);
    let hog = best_move_request().body(stalled_body(format!("[{}", "1,".repeat(499)))).unwrap();
    let hog = tokio::spawn(app.clone().oneshot(hog));
    tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    let body = Body::from(r#"{"board": "........."}"#);
    let response = send_to(&app, best_move_request().body(body).unwrap()).await;
    assert_eq!(response.status, StatusCode::SERVICE_UNAVAILABLE, "{}", response.text());
    assert_eq!(response.json()["error"]["code"], "overloaded");
    assert_eq!(response.header("retry-after").as_deref(), Some("1"));
    assert!(!hog.is_finished());
    hog.abort();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_hangs_up_on_a_plain_request_stops_its_search_and_frees_the_slot() {
    use bestmove::api::AppState;
    use std::sync::Arc;
    let config = Config { max_concurrent_searches: Some(1), ..Config::default() };
    let state = Arc::new(AppState::new(config));
    let app = bestmove::api::router(state.clone());
    // Without the book, the engine would use all of its 5 s budget.
    let body = json!({"game": "connect4", "moves": "4", "time_ms": 5000}).to_string();
    let request = best_move_request().body(Body::from(body)).unwrap();
    let client = tokio::spawn(app.oneshot(request));
    let in_flight = |expected: i64| {
        let state = state.clone();
        async move {
            // Polled for at most two seconds, far below the 5 s budget.
            for _ in 0..200 {
                if state.metrics.searches_in_flight.get() == expected {
                    return true;
                }
                tokio::time::sleep(std::time::Duration::from_millis(10)).await;
            }
            false
        }
    };
    assert!(in_flight(1).await, "the search never started");
    // The client hangs up: hyper drops the handler's future, as this does.
    client.abort();
    assert!(client.await.unwrap_err().is_cancelled());
    assert!(in_flight(0).await, "the search still runs after its client left");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_search_that_waited_for_its_slot_still_answers_within_the_request_timeout() {
    // One search slot, two requests whose budget is longer than the
    // request timeout: the first searches until its own deadline allows,
    // the second waits for the slot and then searches only what is left of
    // its timeout. Both answer; neither runs out into a 503.
    let config =
        Config { max_concurrent_searches: Some(1), request_timeout_ms: 2000, max_search_ms: 3000, ..Config::default() };
    let app = bestmove::api::app(config);
    let body = json!({"game": "othello", "moves": "f5d6c3d3c4f4f6f3e6e7", "time_ms": 3000, "compare": false});
    let ask = || {
        let app = app.clone();
        let request = Request::post("/best-move")
            .header(header::CONTENT_TYPE, "application/json")
            .body(Body::from(body.to_string()))
            .unwrap();
        async move {
            let response = app.oneshot(request).await.unwrap();
            let status = response.status();
            let body = response.into_body().collect().await.unwrap().to_bytes();
            (status, String::from_utf8_lossy(&body).into_owned())
        }
    };
    let (first, second) = tokio::join!(ask(), ask());
    for (status, text) in [first, second] {
        assert_eq!(status, StatusCode::OK, "{text}");
        let answer: Value = serde_json::from_str(&text).unwrap();
        assert!(answer["engine"]["depth"].as_u64().unwrap() >= 1, "{answer}");
    }
}

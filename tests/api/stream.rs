//! `POST /best-move` with `Accept: text/event-stream`: progress while the
//! engine deepens, then the plain answer, as Server-Sent Events.

use std::sync::Arc;

use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use http_body_util::BodyExt;
use serde_json::{json, Value};
use tower::ServiceExt;

use bestmove::api::AppState;
use bestmove::config::Config;

use crate::helpers::{events, eventually, streaming, untimed};

#[tokio::test]
async fn a_stream_reports_iterations_and_columns_then_ends_with_exactly_the_plain_answer() {
    // A Connect Four position the engine solves exactly, after deepening.
    let body = json!({"game": "connect4", "moves": "4453", "seed": 3, "max_depth": 12});
    let app = bestmove::api::app(Config::default());
    let response = app.clone().oneshot(streaming(&body)).await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(response.headers()[header::CONTENT_TYPE], "text/event-stream");
    let text = String::from_utf8(response.into_body().collect().await.unwrap().to_bytes().to_vec()).unwrap();
    let events = events(&text);
    let (last, reports) = events.split_last().expect("at least the answer");
    // Iterations first, then each column as its score is settled. How many
    // iterations finish within deepening's share of the budget depends on
    // the machine's speed: the test below counts them where the budget is
    // the search's own.
    let iterations = reports.iter().take_while(|(name, _)| name == "progress").count();
    let (progress, moves) = reports.split_at(iterations);
    assert!(!moves.is_empty(), "scoring the columns reports each one: {text}");
    for (name, data) in moves {
        assert_eq!(name, "move", "{text}");
        let column = data["move"].as_u64().unwrap() as usize;
        let answered = &last.1["moves"][column];
        assert_eq!(answered["move"], column, "{text}");
        for field in ["score", "exact", "evaluation", "depth"] {
            assert_eq!(data[field], answered[field], "{field}: {text}");
        }
        for field in ["plies_to_end", "nodes", "elapsed_us"] {
            assert!(data.get(field).is_some(), "{field} in {data}");
        }
    }
    let mut depth = 0;
    for (name, data) in progress {
        assert_eq!(name, "progress");
        let d = data["depth"].as_u64().unwrap();
        assert!(d > depth, "iterations deepen: {text}");
        depth = d;
        for field in ["best_move", "score", "exact", "principal_variation", "nodes", "elapsed_us"] {
            assert!(data.get(field).is_some(), "{field} in {data}");
        }
    }
    assert_eq!(last.0, "answer");
    let plain = app
        .oneshot(
            Request::post("/best-move")
                .header(header::CONTENT_TYPE, "application/json")
                .body(Body::from(body.to_string()))
                .unwrap(),
        )
        .await
        .unwrap();
    let plain: Value = serde_json::from_slice(&plain.into_body().collect().await.unwrap().to_bytes()).unwrap();
    assert_eq!(untimed(last.1.clone()), untimed(plain));
}

#[tokio::test]
async fn a_search_for_the_best_move_alone_reports_each_iteration_as_it_deepens() {
    // With `max_moves: 1` the whole budget deepens, so the last iterations
    // to 12 plies take well over the few milliseconds a report waits for.
    let body = json!({"game": "connect4", "moves": "4453", "max_depth": 12, "max_moves": 1});
    let app = bestmove::api::app(Config::default());
    let response = app.oneshot(streaming(&body)).await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let text = String::from_utf8(response.into_body().collect().await.unwrap().to_bytes().to_vec()).unwrap();
    let events = events(&text);
    let (last, reports) = events.split_last().expect("at least the answer");
    assert_eq!(last.0, "answer", "{text}");
    assert!(reports.len() >= 2, "deepening to 12 plies reports its iterations: {text}");
    let mut depth = 0;
    for (name, data) in reports {
        assert_eq!(name, "progress", "{text}");
        let d = data["depth"].as_u64().unwrap();
        assert!(d > depth && d <= 12, "iterations deepen: {text}");
        depth = d;
    }
    assert_eq!(depth, last.1["engine"]["depth"].as_u64().unwrap(), "the last report is the answer's depth: {text}");
    assert_eq!(reports.last().unwrap().1["best_move"], last.1["best_move"], "{text}");
}

#[tokio::test]
async fn a_quick_search_sends_just_the_answer() {
    let app = bestmove::api::app(Config::default());
    // Finished in its first iteration: X wins at once.
    let response = app.oneshot(streaming(&json!({"board": "XX.OO....", "seed": 1}))).await.unwrap();
    let text = String::from_utf8(response.into_body().collect().await.unwrap().to_bytes().to_vec()).unwrap();
    let events = events(&text);
    assert_eq!(events.len(), 1, "{text}");
    assert_eq!(events[0].0, "answer");
    assert_eq!(events[0].1["best_move"], 2);
    // Nine iterations, all within a few milliseconds.
    let app = bestmove::api::app(Config::default());
    let response = app.oneshot(streaming(&json!({"board": "X...O...."}))).await.unwrap();
    let text = String::from_utf8(response.into_body().collect().await.unwrap().to_bytes().to_vec()).unwrap();
    let names: Vec<String> = self::events(&text).into_iter().map(|(name, _)| name).collect();
    assert_eq!(names, ["answer"], "{text}");
}

#[tokio::test]
async fn a_bad_request_gets_the_usual_json_error_not_a_stream() {
    let app = bestmove::api::app(Config::default());
    let response = app.oneshot(streaming(&json!({"game": "connect4", "moves": "8"}))).await.unwrap();
    assert_eq!(response.status(), StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(response.headers()[header::CONTENT_TYPE], "application/json");
    let body: Value = serde_json::from_slice(&response.into_body().collect().await.unwrap().to_bytes()).unwrap();
    assert_eq!(body["error"]["code"], "invalid_moves");
}

#[tokio::test]
async fn a_stream_whose_budget_outlasts_the_request_timeout_still_ends_with_its_answer() {
    let config = Config { request_timeout_ms: 400, opening_book: Some("none".into()), ..Config::default() };
    let app = bestmove::api::app(config);
    let response = app.oneshot(streaming(&json!({"game": "connect4", "moves": "4", "time_ms": 5000}))).await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let text = String::from_utf8(response.into_body().collect().await.unwrap().to_bytes().to_vec()).unwrap();
    let (name, data) = events(&text).pop().expect("a last event");
    assert_eq!(name, "answer", "{text}");
    assert_eq!(data["exact"], false, "{text}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_goes_away_cancels_its_search_and_frees_the_slot() {
    let config = Config { max_concurrent_searches: Some(1), ..Config::default() };
    let state = Arc::new(AppState::new(config));
    let app = bestmove::api::router(state.clone());
    // Without the book, the engine would use all of its 5 s budget.
    let response = app.oneshot(streaming(&json!({"game": "connect4", "moves": "4", "time_ms": 5000}))).await.unwrap();
    let mut body = response.into_body();
    let first = body.frame().await.expect("a first event").expect("readable");
    assert!(first.data_ref().is_some_and(|d| d.starts_with(b"event: progress")));
    assert_eq!(state.metrics.searches_in_flight.get(), 1);
    drop(body);
    // The search stops within a few thousand positions: poll for it, for at
    // most a second, far below the 5 s it would otherwise run.
    let freed = eventually(100, || state.metrics.searches_in_flight.get() == 0).await;
    assert!(freed, "the search still runs after its client left");
}

/// The same for Gomoku, where the provers run before the engine's search:
/// they look at the cancel flag too. In this position (the suite's, X
/// threatens a win in three) a 20 s budget gives them millions of
/// positions, seconds of work.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_goes_away_stops_the_gomoku_provers() {
    let config = Config { max_concurrent_searches: Some(1), ..Config::default() };
    let state = Arc::new(AppState::new(config));
    let app = bestmove::api::router(state.clone());
    let moves = "e8 j8 i9 j10 j7 i10 k10 k9 i7 l8 m7 j11 j9 i8";
    let response = app.oneshot(streaming(&json!({"game": "gomoku", "moves": moves, "time_ms": 20000}))).await.unwrap();
    let body = response.into_body();
    let started = eventually(100, || state.metrics.searches_in_flight.get() == 1).await;
    assert!(started, "the search did not start");
    tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    drop(body);
    let freed = eventually(100, || state.metrics.searches_in_flight.get() == 0).await;
    assert!(freed, "the provers still run after their client left");
}

/// The `Content-Type` of the answer to a Connect Four request sent with
/// these `Accept` headers.
async fn answered_as(accept: &[&str]) -> String {
    let mut request = Request::post("/best-move").header(header::CONTENT_TYPE, "application/json");
    for value in accept {
        request = request.header(header::ACCEPT, *value);
    }
    let body = json!({"game": "connect4", "moves": "612313147626667357672244337327"});
    let response = bestmove::api::app(Config::default())
        .oneshot(request.body(Body::from(body.to_string())).unwrap())
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let content_type = response.headers()[header::CONTENT_TYPE].to_str().unwrap().to_string();
    let text = String::from_utf8(response.into_body().collect().await.unwrap().to_bytes().to_vec()).unwrap();
    if content_type == "text/event-stream" {
        assert!(text.starts_with("event: "), "{text}");
    } else {
        serde_json::from_str::<Value>(&text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"));
    }
    content_type
}

#[tokio::test]
async fn the_accept_header_s_quality_values_choose_between_stream_and_json() {
    for (accept, expected) in [
        (&["text/event-stream"][..], "text/event-stream"),
        (&["text/event-stream;q=0"][..], "application/json"),
        (&["text/event-stream;q=0, application/json"][..], "application/json"),
        (&["application/json, text/event-stream;q=0.5"][..], "application/json"),
        (&["application/json;q=0.5, text/event-stream;q=0.9"][..], "text/event-stream"),
        (&["text/event-stream;q=0.5", "*/*;q=0.1"][..], "text/event-stream"),
        (&["*/*"][..], "application/json"),
        (&[][..], "application/json"),
    ] {
        assert_eq!(answered_as(accept).await, expected, "Accept: {accept:?}");
    }
}

#[tokio::test]
async fn connect_four_move_events_give_drawn_columns_their_length_as_the_answer_does() {
    // 20 stones in: columns 1, 2 and 3 draw (a draw fills the board: 22
    // plies on), and each proven column is sent as a `move` event.
    let app = bestmove::api::app(Config::default());
    let body = json!({"game": "connect4", "moves": "76575653422674726771", "time_ms": 20000, "compare": false});
    let response = app.oneshot(streaming(&body)).await.unwrap();
    let text = String::from_utf8(response.into_body().collect().await.unwrap().to_bytes().to_vec()).unwrap();
    let events = events(&text);
    let (last, reports) = events.split_last().unwrap();
    assert_eq!(last.0, "answer", "{text}");
    let mut draws = 0;
    for (_, data) in reports.iter().filter(|(name, _)| name == "move") {
        let column = last.1["moves"].as_array().unwrap().iter().find(|m| m["move"] == data["move"]).unwrap();
        assert_eq!(data["plies_to_end"], column["plies_to_end"], "{text}");
        if data["score"] == 0 && data["exact"] == true {
            assert_eq!(data["plies_to_end"], 22, "{text}");
            draws += 1;
        }
    }
    assert!(draws > 0, "no drawn column was sent: {text}");
}

#[tokio::test]
async fn an_othello_stream_sends_each_move_once_proven_or_at_the_depth_reached() {
    // 18 empty squares and a budget that stops short of the end: every
    // move has one `move` event, with the score the answer lists.
    let board = "----OX-XXXXXXXXX-XXXOOXO-XXOXXXOXOXOOXXOXXXX-OX-XXX-O-O-X--O-X--";
    let app = bestmove::api::app(Config::default());
    let body = json!({"game": "othello", "board": board, "to_move": "O", "time_ms": 60, "compare": false, "seed": 1});
    let response = app.oneshot(streaming(&body)).await.unwrap();
    let text = String::from_utf8(response.into_body().collect().await.unwrap().to_bytes().to_vec()).unwrap();
    let events = events(&text);
    let (last, reports) = events.split_last().unwrap();
    assert_eq!(last.0, "answer", "{text}");
    let moves: Vec<&Value> = reports.iter().filter(|(name, _)| name == "move").map(|(_, data)| data).collect();
    let answered = last.1["moves"].as_array().unwrap();
    assert_eq!(moves.len(), answered.len(), "one event a move: {text}");
    for data in moves {
        let entry = answered.iter().find(|m| m["move"] == data["move"]).unwrap();
        for field in ["score", "exact", "evaluation", "depth", "plies_to_end"] {
            assert_eq!(data[field], entry[field], "{field}: {text}");
        }
    }
    for (_, data) in reports.iter().filter(|(name, _)| name == "progress") {
        assert!(data["exact"] == true || data["evaluation"].is_i64(), "a cut iteration gives its estimate: {data}");
    }
}

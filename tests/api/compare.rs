//! `compare` and the `COMPARE` setting: a request pays for the searches it
//! wants. The search an answer is read from always runs (the engine on
//! Connect Four, plain minimax on tic-tac-toe and trees); the others, there
//! only for their node counts, run when `compare` (or, when the request
//! does not say, the server's setting) is true, and are `null` otherwise.

use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use http_body_util::BodyExt;
use serde_json::{json, Value};
use tower::ServiceExt;

use bestmove::config::Config;

use crate::helpers::{post_best_move, TestResponse};

/// A Connect Four game 30 moves in, which the engine solves in
/// microseconds without the opening book.
const LATE_GAME: &str = "612313147626667357672244337327";

/// Sends `body` to a service with `config` and returns the 200 answer.
async fn answer_with(config: Config, body: &Value) -> Value {
    let request = Request::post("/best-move")
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(body.to_string()))
        .unwrap();
    let response = bestmove::api::app(config).oneshot(request).await.unwrap();
    let response = TestResponse {
        status: response.status(),
        headers: response.headers().clone(),
        body: response.into_body().collect().await.unwrap().to_bytes().to_vec(),
    };
    assert_eq!(response.status, StatusCode::OK, "{body}: {}", response.text());
    response.json()
}

async fn answer(body: &Value) -> Value {
    answer_with(Config::default(), body).await
}

/// The answer without its search reports and timings: what must not depend
/// on which searches ran.
fn decision(mut answer: Value) -> Value {
    for report in ["minimax", "alphabeta", "engine"] {
        answer.as_object_mut().unwrap().remove(report);
    }
    answer
}

/// Which of the three reports an answer carries (not `null`).
fn reports(answer: &Value) -> Vec<&'static str> {
    ["minimax", "alphabeta", "engine"].into_iter().filter(|r| !answer[*r].is_null()).collect()
}

#[tokio::test]
async fn every_search_runs_by_default_and_with_compare_true() {
    for body in [
        json!({"game": "connect4", "moves": LATE_GAME, "seed": 1}),
        json!({"board": "XO..X....", "seed": 1, "compare": true}),
        json!({"tree": [[1, -1], [0, 1]], "seed": 1, "compare": null}),
    ] {
        let a = answer(&body).await;
        assert_eq!(reports(&a), ["minimax", "alphabeta", "engine"], "{body}: {a}");
    }
}

#[tokio::test]
async fn connect4_without_compare_runs_the_engine_alone_and_answers_the_same() {
    let body = json!({"game": "connect4", "moves": LATE_GAME, "seed": 5});
    let full = answer(&body).await;
    let mut lean_body = body.clone();
    lean_body["compare"] = json!(false);
    let lean = answer(&lean_body).await;
    assert_eq!(reports(&lean), ["engine"], "{lean}");
    assert_eq!(lean["exact"], true, "{lean}");
    assert_eq!(decision(lean), decision(full));
}

#[tokio::test]
async fn a_board_or_a_tree_without_compare_runs_plain_minimax_alone_and_answers_the_same() {
    for body in [
        json!({"board": "XO..X....", "seed": 2}),
        json!({"board": ".........", "tie_break": "random", "seed": 9}),
        json!({"tree": [[5, -2, -1], [1, -5, 6], [5, 8, 4]], "seed": 2}),
        json!({"tree": {"children": [{"name": "A", "value": 3}, {"name": "B", "value": 7}]}, "maximizing": false}),
    ] {
        let full = answer(&body).await;
        let mut lean_body = body.clone();
        lean_body["compare"] = json!(false);
        let lean = answer(&lean_body).await;
        assert_eq!(reports(&lean), ["minimax"], "{lean_body}: {lean}");
        assert_eq!(lean["minimax"]["nodes"], full["minimax"]["nodes"], "{lean_body}");
        let mut full = decision(full);
        // A seed drawn by the service differs between the two requests.
        if body.get("seed").is_none() {
            full["seed"] = lean["seed"].clone();
        }
        assert_eq!(decision(lean), full, "{lean_body}");
    }
}

#[tokio::test]
async fn the_compare_setting_is_the_default_a_request_can_override() {
    let lean_server = Config { compare: false, ..Config::default() };
    let connect4 = json!({"game": "connect4", "moves": LATE_GAME});
    assert_eq!(reports(&answer_with(lean_server.clone(), &connect4).await), ["engine"]);
    let board = json!({"board": "XO..X...."});
    assert_eq!(reports(&answer_with(lean_server.clone(), &board).await), ["minimax"]);

    let mut asked = connect4.clone();
    asked["compare"] = json!(true);
    assert_eq!(reports(&answer_with(lean_server, &asked).await), ["minimax", "alphabeta", "engine"]);
    let mut declined = connect4;
    declined["compare"] = json!(false);
    assert_eq!(reports(&answer_with(Config::default(), &declined).await), ["engine"]);
}

#[tokio::test]
async fn a_streamed_answer_honours_compare_too() {
    let body = json!({"game": "connect4", "moves": LATE_GAME, "compare": false});
    let request = Request::post("/best-move")
        .header(header::CONTENT_TYPE, "application/json")
        .header(header::ACCEPT, "text/event-stream")
        .body(Body::from(body.to_string()))
        .unwrap();
    let response = bestmove::api::app(Config::default()).oneshot(request).await.unwrap();
    assert_eq!(response.headers()[header::CONTENT_TYPE], "text/event-stream");
    let text = String::from_utf8(response.into_body().collect().await.unwrap().to_bytes().to_vec()).unwrap();
    let data = text
        .split("\n\n")
        .find_map(|event| event.strip_prefix("event: answer\ndata: "))
        .unwrap_or_else(|| panic!("no answer event: {text}"));
    let answer: Value = serde_json::from_str(data).unwrap();
    assert_eq!(reports(&answer), ["engine"], "{answer}");
}

#[tokio::test]
async fn compare_must_be_true_or_false() {
    for value in [json!("false"), json!(0), json!(1), json!("no"), json!(["engine"]), json!({})] {
        let body = json!({"game": "connect4", "moves": "4453", "compare": value});
        let response = post_best_move(&body).await;
        assert_eq!(response.status, StatusCode::UNPROCESSABLE_ENTITY, "{body}: {}", response.text());
        let error = &response.json()["error"];
        assert_eq!((&error["code"], &error["field"]), (&json!("invalid_option"), &json!("compare")), "{body}: {error}");
        let message = error["message"].as_str().unwrap();
        assert!(message.contains("compare must be true or false"), "{body}: {message}");
    }
}

#[tokio::test]
async fn a_misspelt_compare_is_an_unknown_field_with_a_suggestion() {
    let response = post_best_move(&json!({"board": "XO..X....", "compair": false})).await;
    assert_eq!(response.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", response.text());
    let error = &response.json()["error"];
    assert_eq!((&error["code"], &error["field"]), (&json!("unknown_field"), &json!("compair")), "{error}");
    assert!(error["message"].as_str().unwrap().contains("did you mean \"compare\"?"), "{error}");
}

#[tokio::test]
async fn the_metrics_count_only_the_searches_that_ran() {
    let app = bestmove::api::app(Config::default());
    let body = json!({"game": "connect4", "moves": LATE_GAME, "compare": false});
    let request = Request::post("/best-move")
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(body.to_string()))
        .unwrap();
    let response = app.clone().oneshot(request).await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let response = app.oneshot(Request::get("/metrics").body(Body::empty()).unwrap()).await.unwrap();
    let text = String::from_utf8(response.into_body().collect().await.unwrap().to_bytes().to_vec()).unwrap();
    let nodes: Vec<&str> = text.lines().filter(|l| l.contains("nodes") && l.contains("algorithm=")).collect();
    assert!(nodes.iter().any(|l| l.contains("algorithm=\"engine\"")), "{text}");
    assert!(!nodes.iter().any(|l| l.contains("algorithm=\"minimax\"")), "{text}");
    assert!(!nodes.iter().any(|l| l.contains("algorithm=\"alphabeta\"")), "{text}");
}

#[tokio::test]
async fn the_comparison_shares_the_time_budget_so_the_whole_answer_fits_it() {
    // An Othello midgame, where plain minimax could search for a second
    // before the engine began: at `time_ms` 1 the comparison stops at once
    // (its first depth always runs), and every search's time, the
    // comparison's every iteration included, adds up to the budget and a
    // margin of milliseconds.
    let body = json!({"game": "othello", "moves": "f5d6c3d3c4f4f6f3e6e7", "time_ms": 1, "seed": 1});
    for _ in 0..3 {
        let a = answer(&body).await;
        let spent: u64 = ["minimax", "alphabeta", "engine"].iter().map(|s| a[s]["elapsed_us"].as_u64().unwrap()).sum();
        assert!(spent <= 100_000, "{spent} µs for a 1 ms budget: {a}");
        assert_eq!(a["minimax"]["depth"], a["alphabeta"]["depth"], "{a}");
        assert!(a["minimax"]["depth"].as_u64().unwrap() >= 1, "{a}");
    }
    // A level's depth no longer buys a full comparison beyond the budget.
    let level = answer(&json!({"game": "othello", "moves": "f5d6c3d3c4f4f6f3e6e7", "level": 8, "time_ms": 40})).await;
    let spent: u64 = ["minimax", "alphabeta", "engine"].iter().map(|s| level[s]["elapsed_us"].as_u64().unwrap()).sum();
    assert!(spent <= 140_000, "{spent} µs for a 40 ms budget: {level}");
}

//! `POST /review`: a whole game, every move judged.

use std::sync::Arc;

use axum::body::Body;
use axum::http::{header, Method, Request, StatusCode};
use http_body_util::BodyExt;
use serde_json::{json, Value};
use tower::ServiceExt;

use bestmove::api::AppState;
use bestmove::config::Config;

use crate::helpers::{events, eventually, send};

/// `POST /review` with `body`, asking for an event stream.
fn streaming(body: &Value) -> Request<Body> {
    Request::post("/review")
        .header(header::CONTENT_TYPE, "application/json")
        .header(header::ACCEPT, "text/event-stream")
        .body(Body::from(body.to_string()))
        .unwrap()
}

async fn post_review(body: &Value) -> crate::helpers::TestResponse {
    send(Method::POST, "/review", Some("application/json"), body.to_string()).await
}

async fn review(body: Value) -> Value {
    let response = post_review(&body).await;
    assert_eq!(response.status, StatusCode::OK, "{body}: {}", response.text());
    response.json()
}

/// The `error` of the 4xx that refuses `body`.
async fn refusal(body: Value) -> Value {
    let response = post_review(&body).await;
    assert!(response.status.is_client_error(), "{body}: {} {}", response.status, response.text());
    response.json()["error"].clone()
}

fn judgements(review: &Value) -> Vec<&str> {
    review["plies"].as_array().unwrap().iter().map(|p| p["judgement"].as_str().unwrap()).collect()
}

#[tokio::test]
async fn a_tic_tac_toe_game_is_judged_move_by_move_with_proof() {
    // O answers the centre on an edge (a lost game), X lets the win go to
    // a draw, then X fails to block and loses.
    let review = review(json!({"game": "tictactoe", "moves": [4, 1, 0, 8, 2, 6, 5]})).await;
    assert_eq!(review["kind"], "review");
    assert_eq!(review["game"], "tictactoe");
    assert_eq!(judgements(&review), ["best", "mistake", "best", "best", "mistake", "best", "mistake"]);
    let plies = review["plies"].as_array().unwrap();
    for (i, ply) in plies.iter().enumerate() {
        assert_eq!(ply["ply"], i + 1);
        assert_eq!(ply["to_move"], if i % 2 == 0 { "X" } else { "O" });
        assert_eq!(ply["exact"], true, "{ply}");
        assert_eq!(ply["proven"], true, "{ply}");
    }
    // O's edge: a draw (0) thrown to a loss (-1) in 6 plies.
    assert_eq!(plies[1]["move"], 1);
    assert_eq!(plies[1]["played_score"], -1);
    assert_eq!(plies[1]["best_score"], 0);
    assert_eq!(plies[1]["best_moves"], json!([0, 2, 6, 8]));
    assert_eq!(plies[1]["loss"], 1);
    assert_eq!(plies[1]["played_plies_to_end"], 6);
    // X's only block was 7.
    assert_eq!(plies[6]["best_moves"], json!([7]));
    assert_eq!(review["turning_points"], json!([2, 5, 7]));
    assert_eq!(review["exact_plies"], 7);
    let x = &review["sides"]["X"];
    assert_eq!((x["moves"].as_u64(), x["best"].as_u64(), x["mistake"].as_u64()), (Some(4), Some(2), Some(2)));
    let o = &review["sides"]["O"];
    assert_eq!((o["moves"].as_u64(), o["best"].as_u64(), o["mistake"].as_u64()), (Some(3), Some(2), Some(1)));
    assert!(x["accuracy"].as_f64().unwrap() < 100.0 && o["accuracy"].as_f64().unwrap() < 100.0);
    // The same game as a digit string reads the same, its moves as written.
    let same = self::review(json!({"game": "tictactoe", "moves": "4108265"})).await;
    assert_eq!(judgements(&same), judgements(&review));
    assert_eq!(same["plies"][0]["move"], "4");
}

#[tokio::test]
async fn connect_four_first_moves_off_the_centre_are_a_mistake_and_a_blunder() {
    // The first player wins only in the centre column; the one beside it
    // draws, the edge loses.
    let review = review(json!({"game": "connect4", "moves": "3"})).await;
    let ply = &review["plies"][0];
    assert_eq!(ply["judgement"], "mistake", "{ply}");
    assert_eq!((ply["played_score"].as_i64(), ply["best_score"].as_i64()), (Some(0), Some(1)));
    assert_eq!(ply["best_moves"], json!([3]));
    assert_eq!(ply["best_plies_to_end"], 41);
    assert_eq!(ply["proven"], true);

    let review = self::review(json!({"game": "connect4", "moves": [0, 3, 3]})).await;
    assert_eq!(judgements(&review), ["blunder", "best", "best"]);
    assert_eq!(review["plies"][0]["move"], 0, "moves as written: columns stay numbers");
    assert_eq!(review["plies"][0]["played_score"], -1);
    assert_eq!(review["turning_points"], json!([1]));
    for ply in review["plies"].as_array().unwrap() {
        assert_eq!(ply["exact"], true, "{ply}");
    }
}

#[tokio::test]
async fn a_finished_connect_four_game_is_exact_at_every_ply() {
    // X wins in the first column after both sides stack it and the next.
    let moves = "1212121";
    let review = review(json!({"game": "connect4", "moves": moves})).await;
    let plies = review["plies"].as_array().unwrap();
    assert_eq!(plies.len(), moves.len());
    assert_eq!(review["exact_plies"], moves.len());
    // The last move wins at once: best, and a win in 1.
    let last = plies.last().unwrap();
    assert_eq!(last["judgement"], "best");
    assert_eq!(last["played_plies_to_end"], 1);
    // O let X's four through at ply 6, when it could still block.
    assert_eq!(plies[5]["judgement"], "blunder", "{}", plies[5]);
}

#[tokio::test]
async fn othello_midgame_moves_are_judged_by_evaluation_not_proven() {
    let review = review(json!({"game": "othello", "moves": "f5d6c3d3", "time_ms": 400})).await;
    let plies = review["plies"].as_array().unwrap();
    assert_eq!(plies.len(), 4);
    assert_eq!(plies[0]["move"], "f5");
    // The four first moves are equal by symmetry.
    let mut best: Vec<&str> = plies[0]["best_moves"].as_array().unwrap().iter().map(|m| m.as_str().unwrap()).collect();
    best.sort();
    assert_eq!(best, ["c4", "d3", "e6", "f5"]);
    for ply in plies {
        assert_eq!(ply["exact"], false, "{ply}");
        assert_eq!(ply["proven"], false, "{ply}");
        assert!(ply["judgement"].is_string(), "{ply}");
        assert!(ply["played_score"].is_number() && ply["best_win_chance"].is_number(), "{ply}");
    }
    assert_eq!(review["turning_points"], json!([]));
}

#[tokio::test]
async fn othello_plies_near_the_end_are_exact_in_discs() {
    // 52 moves: the last plies have 11 empty squares or fewer.
    let moves =
        "f5f4f3f6d3f2g6c3b3b2g4g3b1d2c4c5f1g2g1g5c6a1h6a2b5c7f7d6c2h5b8e7d1a4a3g7h4e3e6h1d8e1e8b4f8h2c1h8a6b6h3g8";
    let review = review(json!({"game": "othello", "moves": moves, "time_ms": 3000})).await;
    let plies = review["plies"].as_array().unwrap();
    assert_eq!(plies.len(), 52);
    assert_eq!(plies[51]["ply"], 52);
    assert_eq!(plies[51]["move"], "g8");
    for ply in &plies[48..] {
        assert_eq!(ply["exact"], true, "{ply}");
        assert_eq!(ply["proven"], true, "{ply}");
        let (played, best) = (ply["played_score"].as_i64().unwrap(), ply["best_score"].as_i64().unwrap());
        assert_eq!(ply["loss"].as_i64().unwrap(), best - played, "{ply}");
        assert!(ply["played_plies_to_end"].as_u64().unwrap() >= 8, "{ply}");
    }
}

#[tokio::test]
async fn an_othello_pass_is_left_out_and_the_plies_keep_their_places() {
    // Black has no move after these eight: white moves again.
    let mut names: Vec<Value> = ["d3", "c3", "e6", "d2", "d1", "e1", "b2", "c1"].iter().map(|&n| json!(n)).collect();
    let white =
        crate::helpers::post_best_move(&json!({"game": "othello", "moves": names, "max_depth": 1})).await.json();
    assert_eq!(white["best_move"], "pass", "{white}");
    names.push(json!("pass"));
    let white =
        crate::helpers::post_best_move(&json!({"game": "othello", "moves": names, "max_depth": 1})).await.json();
    names.push(white["best_move"].clone());
    let review = review(json!({"game": "othello", "moves": names, "time_ms": 500})).await;
    let plies = review["plies"].as_array().unwrap();
    assert_eq!(plies.len(), 9, "{review}");
    let last = plies.last().unwrap();
    assert_eq!(last["ply"], 10, "the pass keeps its place in the list: {last}");
    assert_eq!(last["to_move"], "O");
    assert_eq!(plies[7]["to_move"], "O");
    // Sent as a string, the pass is left out and the list is shorter.
    let text: String = names.iter().filter_map(Value::as_str).filter(|n| *n != "pass").collect();
    let same = self::review(json!({"game": "othello", "moves": text, "time_ms": 500})).await;
    assert_eq!(same["plies"].as_array().unwrap().len(), 9);
    assert_eq!(same["plies"][8]["ply"], 9);
}

#[tokio::test]
async fn bad_games_are_refused_naming_the_move() {
    let full = refusal(json!({"game": "connect4", "moves": "4444444"})).await;
    assert_eq!(full["code"], "invalid_moves");
    assert_eq!(full["field"], "moves[6]", "{full}");
    assert!(full["message"].as_str().unwrap().contains("full"), "{full}");

    let taken = refusal(json!({"game": "tictactoe", "moves": [4, 4]})).await;
    assert_eq!(taken["field"], "moves[1]", "{taken}");
    assert!(taken["message"].as_str().unwrap().contains("taken"), "{taken}");

    let after = refusal(json!({"game": "tictactoe", "moves": [0, 3, 1, 4, 2, 5]})).await;
    assert_eq!(after["field"], "moves[5]", "{after}");
    assert!(after["message"].as_str().unwrap().contains("over"), "{after}");

    let illegal = refusal(json!({"game": "othello", "moves": "f5a1"})).await;
    assert_eq!(illegal["field"], "moves[1]", "{illegal}");

    let notation = refusal(json!({"game": "connect4", "moves": "4x"})).await;
    assert_eq!(notation["field"], "moves[1]", "{notation}");
    let cell = refusal(json!({"game": "tictactoe", "moves": [9]})).await;
    assert_eq!(cell["field"], "moves[0]", "{cell}");

    let long = refusal(json!({"game": "tictactoe", "moves": "0123456780"})).await;
    assert_eq!(long["field"], "moves", "{long}");
    let huge = refusal(json!({"game": "connect4", "moves": "4".repeat(5000)})).await;
    assert_eq!(huge["code"], "invalid_moves", "{huge}");

    let empty = refusal(json!({"game": "connect4", "moves": ""})).await;
    assert!(empty["message"].as_str().unwrap().contains("no move"), "{empty}");
    let missing = refusal(json!({"game": "othello"})).await;
    assert!(missing["message"].as_str().unwrap().contains("moves"), "{missing}");

    let unknown = refusal(json!({"game": "chess", "moves": "e4"})).await;
    assert_eq!(unknown["field"], "game", "{unknown}");
    let field = refusal(json!({"game": "connect4", "moves": "4", "level": 3})).await;
    assert_eq!(field["code"], "unknown_field", "{field}");
    assert!(field["message"].as_str().unwrap().contains("game, moves, board, to_move, time_ms, size, rule"), "{field}");
    let zero = refusal(json!({"game": "connect4", "moves": "4", "time_ms": 0})).await;
    assert_eq!(zero["field"], "time_ms", "{zero}");

    let not_json = send(Method::POST, "/review", Some("application/json"), "{").await;
    assert_eq!(not_json.status, StatusCode::BAD_REQUEST);
    let wrong_type = send(Method::POST, "/review", Some("text/plain"), "{}").await;
    assert_eq!(wrong_type.status, StatusCode::UNSUPPORTED_MEDIA_TYPE);
}

#[tokio::test]
async fn the_stream_sends_each_ply_then_the_review() {
    let body = json!({"game": "connect4", "moves": "44443"});
    let app = bestmove::api::app(Config::default());
    let response = app.oneshot(streaming(&body)).await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(response.headers()[header::CONTENT_TYPE], "text/event-stream");
    let text = String::from_utf8(response.into_body().collect().await.unwrap().to_bytes().to_vec()).unwrap();
    let events = events(&text);
    let (last, plies) = events.split_last().unwrap();
    assert_eq!(last.0, "review", "{text}");
    assert_eq!(plies.len(), 5, "{text}");
    let mut seen: Vec<u64> = plies
        .iter()
        .map(|(name, data)| {
            assert_eq!(name, "ply");
            let number = data["ply"].as_u64().unwrap();
            assert_eq!(data, &last.1["plies"][number as usize - 1], "{text}");
            number
        })
        .collect();
    seen.sort();
    assert_eq!(seen, [1, 2, 3, 4, 5]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_goes_away_cancels_its_review_and_frees_the_slot() {
    let config = Config { max_concurrent_searches: Some(1), ..Config::default() };
    let state = Arc::new(AppState::new(config));
    let app = bestmove::api::router(state.clone());
    // An Othello midgame takes the whole budget: 20 s here.
    let body = json!({"game": "othello", "moves": "f5d6c3d3c4f4f6f3e6e7", "time_ms": 20000});
    let response = app.oneshot(streaming(&body)).await.unwrap();
    let mut body = response.into_body();
    let first = body.frame().await.expect("a first event").expect("readable");
    assert!(first.data_ref().is_some_and(|d| d.starts_with(b"event: ply")));
    assert_eq!(state.metrics.searches_in_flight.get(), 1);
    drop(body);
    let freed = eventually(200, || state.metrics.searches_in_flight.get() == 0).await;
    assert!(freed, "the review still runs after its client left");
}

/// Checks every exact ply of `review` against `/best-move`'s answer for
/// the position it was played in (each search there starts its own table,
/// where a review's plies share one): the same scores and distances for
/// the move played and the best move.
async fn agrees_with_best_move(review: &Value, game: &str, prefix: impl Fn(usize) -> Value) -> usize {
    let mut checked = 0;
    for ply in review["plies"].as_array().unwrap().iter().filter(|p| p["exact"] == true) {
        let index = ply["ply"].as_u64().unwrap() as usize - 1;
        let body = json!({"game": game, "moves": prefix(index), "compare": false, "time_ms": 60_000});
        let answer = crate::helpers::post_best_move(&body).await.json();
        assert_eq!(answer["exact"], true, "{answer}");
        let moves = answer["moves"].as_array().unwrap();
        let score = |name: &Value| moves.iter().find(|m| &m["move"] == name).cloned().unwrap();
        let best = score(&ply["best_moves"][0]);
        assert_eq!(ply["best_score"], best["score"], "ply {index}: {ply} against {answer}");
        assert_eq!(ply["best_plies_to_end"], best["plies_to_end"], "ply {index}: {ply} against {answer}");
        assert_eq!(answer["score"], best["score"], "{answer}");
        let played = moves
            .iter()
            .find(|m| ply["played_score"] == m["score"] && ply["played_plies_to_end"] == m["plies_to_end"])
            .unwrap_or_else(|| panic!("ply {index}: no move scores as the one played: {ply} against {answer}"));
        assert_eq!(played["exact"], true);
        checked += 1;
    }
    checked
}

#[tokio::test]
async fn plies_that_share_a_table_score_as_fresh_searches_do() {
    let moves = "1377327762222645";
    let review = review(json!({"game": "connect4", "moves": moves})).await;
    let checked = agrees_with_best_move(&review, "connect4", |i| json!(&moves[..i])).await;
    assert_eq!(checked, moves.len());

    let moves =
        "f5f4f3f6d3f2g6c3b3b2g4g3b1d2c4c5f1g2g1g5c6a1h6a2b5c7f7d6c2h5b8e7d1a4a3g7h4e3e6h1d8e1e8b4f8h2c1h8a6b6h3g8";
    let review = self::review(json!({"game": "othello", "moves": moves, "time_ms": 3000})).await;
    let checked = agrees_with_best_move(&review, "othello", |i| json!(&moves[..2 * i])).await;
    assert!(checked >= 4, "{review}");
}

#[tokio::test]
async fn a_gomoku_game_is_reviewed_to_its_five() {
    // X lines up h8 to l8 while O plays in a corner.
    let review = review(json!({"game": "gomoku", "moves": "h8 a1 i8 a2 j8 a3 k8 a4 l8", "time_ms": 3000})).await;
    let plies = review["plies"].as_array().unwrap();
    assert_eq!(plies.len(), 9);
    assert_eq!(plies[8]["move"], "l8");
    // The five: best, proven, a win in 1.
    assert_eq!(plies[8]["judgement"], "best", "{}", plies[8]);
    assert_eq!(plies[8]["proven"], true);
    assert_eq!(plies[8]["played_plies_to_end"], 1);
    // An open four cannot be stopped: whatever O does loses.
    assert_eq!(plies[7]["best_score"], -1, "{}", plies[7]);
    let small = self::review(json!({"game": "gomoku", "moves": ["c3", "a1", "c4"], "size": 7})).await;
    assert_eq!(small["plies"].as_array().unwrap().len(), 3);
    let refused = refusal(json!({"game": "connect4", "moves": "4", "size": 7})).await;
    assert_eq!(refused["field"], "size", "{refused}");
    let off = refusal(json!({"game": "gomoku", "moves": "h8 p16"})).await;
    assert!(off["message"].as_str().unwrap().contains("move 2"), "{off}");
}

#[tokio::test]
async fn a_game_may_start_from_a_board() {
    // Connect Four from three stones in the centre column: X plays on.
    let board = json!([".......", ".......", ".......", "...X...", "...O...", "...X..."]);
    let review = review(json!({"game": "connect4", "board": board, "moves": "44"})).await;
    let plies = review["plies"].as_array().unwrap();
    assert_eq!(plies.len(), 2);
    assert_eq!((plies[0]["ply"].as_u64(), plies[0]["to_move"].as_str()), (Some(1), Some("O")));
    assert!(plies.iter().all(|p| p["exact"] == true), "{review}");
    let full = refusal(json!({"game": "connect4", "board": board, "moves": "4444"})).await;
    assert_eq!(full["field"], "moves[3]", "{full}");

    // Tic-tac-toe from X in the centre: O's edge is the mistake.
    let review = self::review(json!({"game": "tictactoe", "board": "....X....", "moves": [1]})).await;
    assert_eq!(review["plies"][0]["judgement"], "mistake", "{review}");
    assert_eq!(review["plies"][0]["to_move"], "O");

    // Othello from a board of a few empty squares, with its side to move.
    let moves =
        "f5f4f3f6d3f2g6c3b3b2g4g3b1d2c4c5f1g2g1g5c6a1h6a2b5c7f7d6c2h5b8e7d1a4a3g7h4e3e6h1d8e1e8b4f8h2c1h8a6b6h3g8";
    let body = json!({"game": "othello", "moves": moves, "max_depth": 1, "compare": false});
    let start = crate::helpers::post_best_move(&body).await.json();
    let (board, side) = (start["board_after"].clone(), start["to_move_after"].clone());
    let next = start["legal_moves_after"][0].clone();
    let review = self::review(json!({"game": "othello", "board": board, "to_move": side, "moves": [next]})).await;
    assert_eq!(review["plies"].as_array().unwrap().len(), 1, "{review}");
    assert_eq!(review["plies"][0]["to_move"], side);
    assert_eq!(review["plies"][0]["exact"], true, "{review}");
    let alone = refusal(json!({"game": "othello", "to_move": "O", "moves": "f5"})).await;
    assert_eq!(alone["field"], "to_move", "{alone}");
    let gomoku =
        refusal(json!({"game": "gomoku", "board": [".....", ".....", ".....", ".....", "....."], "moves": "c3"})).await;
    assert_eq!(gomoku["field"], "board", "{gomoku}");
}

//! Gomoku requests: a game as moves or a board on boards of 5x5 to 20x20
//! under either rule, answered by the engine with square names; a forced
//! five found and exact, a four blocked, a finished game's winning line,
//! an overline that does not win under the standard rule; and every way a
//! position can be wrong is a 4xx naming its place.

use axum::http::StatusCode;
use http_body_util::BodyExt;
use serde_json::{json, Value};
use tower::ServiceExt;

use bestmove::games::gomoku::{Position, Rule};

use crate::helpers::{events, post_best_move, streaming};

async fn answer(body: Value) -> Value {
    let response = post_best_move(&body).await;
    assert_eq!(response.status, StatusCode::OK, "{body}: {}", response.text());
    response.json()
}

/// The `error` of the 4xx that refuses `body`.
async fn refusal(body: &Value) -> Value {
    let response = post_best_move(body).await;
    assert!(response.status.is_client_error(), "{body}: {} {}", response.status, response.text());
    response.json()["error"].clone()
}

fn names(moves: &Value) -> Vec<&str> {
    moves.as_array().unwrap().iter().map(|m| m["move"].as_str().unwrap()).collect()
}

/// The position after `moves` (space-separated), X first.
fn position(moves: &str, size: usize, rule: Rule) -> Position {
    let names: Vec<String> = moves.split_whitespace().map(String::from).collect();
    Position::from_names(&names, size, rule, |_| "moves".into()).unwrap()
}

#[tokio::test]
async fn an_opening_answers_a_square_near_the_stones_with_the_board_facts() {
    let a = answer(json!({"game": "gomoku", "moves": "h8 i9 j10", "time_ms": 300, "seed": 1})).await;
    assert_eq!(a["kind"], "gomoku");
    let best = a["best_move"].as_str().expect("a square name");
    assert!(names(&a["moves"]).contains(&best), "{a}");
    assert!(a["moves"].as_array().unwrap().len() <= 20, "the strongest candidates only: {a}");
    assert_eq!(
        (&a["to_move"], &a["status"], &a["winner"], &a["winning_line"]),
        (&json!("O"), &json!("in_progress"), &Value::Null, &Value::Null)
    );
    assert_eq!((&a["size"], &a["rule"]), (&json!(15), &json!("freestyle")));
    assert_eq!(a["moves_after"], format!("h8 i9 j10 {best}"));
    let after = position(&format!("h8 i9 j10 {best}"), 15, Rule::Freestyle);
    assert_eq!(a["board_after"], json!(after.rows()));
    assert_eq!((&a["status_after"], &a["to_move_after"]), (&json!("in_progress"), &json!("X")));
    assert_eq!(a["exact"], false, "{a}");
    assert!(a["evaluation"].is_i64(), "{a}");
    let line = a["principal_variation"].as_array().unwrap();
    assert!(!line.is_empty() && line.iter().all(Value::is_string), "{a}");
}

#[tokio::test]
async fn moves_may_be_written_together_separated_or_as_an_array() {
    let together = answer(json!({"game": "gomoku", "moves": "h8i9j10", "max_depth": 1, "compare": false})).await;
    let separated = answer(json!({"game": "gomoku", "moves": "h8, i9; j10", "max_depth": 1, "compare": false})).await;
    let array = answer(json!({"game": "gomoku", "moves": ["h8", "I9", "j10"], "max_depth": 1, "compare": false})).await;
    for a in [&together, &separated, &array] {
        assert_eq!(a["board_after"], together["board_after"], "{a}");
        assert_eq!(a["best_move"], together["best_move"], "{a}");
    }
}

#[tokio::test]
async fn a_five_at_once_is_found_and_exact() {
    // X: h8 i8 j8 k8, a four open at both ends; X to move.
    let a = answer(json!({"game": "gomoku", "moves": "h8 a1 i8 a3 j8 a5 k8 a7", "time_ms": 200})).await;
    let best = a["best_move"].as_str().unwrap();
    assert!(best == "g8" || best == "l8", "{a}");
    assert_eq!((&a["score"], &a["exact"], &a["plies_to_end"]), (&json!(1), &json!(true), &json!(1)), "{a}");
    assert_eq!((&a["status_after"], &a["winner_after"]), (&json!("x_won"), &json!("X")));
    let line = a["winning_line_after"].as_array().unwrap();
    assert_eq!(line.len(), 5, "{a}");
    assert!(line.contains(&json!(best)), "{a}");
    assert_eq!(a["to_move_after"], Value::Null);
}

#[tokio::test]
async fn a_forced_win_by_continuous_fours_is_exact_with_its_line() {
    // X: h8 i8 j8 (an open three) and h9 h10 h11 (an open three) with O
    // far off; X to move wins by a four, then a double four or open four.
    let a = answer(json!({"game": "gomoku", "moves": "h8 a1 i8 a3 j8 a5 h9 a7 h10 a9", "time_ms": 300})).await;
    assert_eq!((&a["score"], &a["exact"]), (&json!(1), &json!(true)), "{a}");
    let plies = a["plies_to_end"].as_u64().unwrap();
    assert!(plies % 2 == 1 && plies <= 5, "{a}");
    let line: Vec<String> =
        a["principal_variation"].as_array().unwrap().iter().map(|m| m.as_str().unwrap().to_string()).collect();
    assert_eq!(line.len() as u64, plies, "{a}");
    assert_eq!(a["best_move"], json!(line[0]));
    // The line, played out, ends in X's five.
    let all = format!("h8 a1 i8 a3 j8 a5 h9 a7 h10 a9 {}", line.join(" "));
    let end = position(&all, 15, Rule::Freestyle);
    assert_eq!(end.status().as_str(), "x_won", "{a}");
}

#[tokio::test]
async fn a_forced_win_by_threats_is_exact_with_its_bound() {
    // X: g8 h8 and j9 j10, O in the corners; j8 makes two threes at once
    // and O cannot meet both: no win by fours, a win by threats.
    let moves = "g8 a1 h8 o1 j10 a15 j9 o15";
    let a = answer(json!({"game": "gomoku", "moves": moves, "time_ms": 300})).await;
    assert_eq!((&a["score"], &a["exact"]), (&json!(1), &json!(true)), "{a}");
    let plies = a["plies_to_end"].as_u64().unwrap();
    let line: Vec<String> =
        a["principal_variation"].as_array().unwrap().iter().map(|m| m.as_str().unwrap().to_string()).collect();
    // The plies are a bound on every defence; the line is one of them.
    assert!(plies % 2 == 1 && plies <= 9 && line.len() as u64 <= plies, "{a}");
    assert_eq!(a["best_move"], json!(line[0]));
    let end = position(&format!("{moves} {}", line.join(" ")), 15, Rule::Freestyle);
    assert_eq!(end.status().as_str(), "x_won", "{a}");
}

#[tokio::test]
async fn a_level_below_the_top_plays_by_its_depth_without_the_provers() {
    // The win by threats above, seen by the provers at level 10 and not
    // within the few plies of level 5's search.
    let moves = "g8 a1 h8 o1 j10 a15 j9 o15";
    let top = answer(json!({"game": "gomoku", "moves": moves, "level": 10, "time_ms": 300})).await;
    assert_eq!((&top["score"], &top["exact"]), (&json!(1), &json!(true)), "{top}");
    let level = answer(json!({"game": "gomoku", "moves": moves, "level": 5, "time_ms": 300})).await;
    assert_eq!(level["exact"], json!(false), "{level}");
    assert_eq!(level["engine"]["depth"], json!(3), "{level}");
}

#[tokio::test]
async fn a_four_is_blocked() {
    // O: a1 b1 c1 d1 is a four that only e1 stops; X to move has nothing
    // that wins first.
    let a = answer(json!({"game": "gomoku", "moves": "h8 a1 h10 b1 j8 c1 j10 d1", "time_ms": 300})).await;
    assert_eq!(a["best_move"], "e1", "{a}");
}

#[tokio::test]
async fn a_finished_game_has_no_move_and_names_its_winning_line() {
    let a = answer(json!({"game": "gomoku", "moves": "h8 a1 i8 a3 j8 a5 k8 a7 l8"})).await;
    assert_eq!(a["best_move"], Value::Null);
    assert_eq!((&a["status"], &a["winner"]), (&json!("x_won"), &json!("X")));
    assert_eq!(a["winning_line"], json!(["h8", "i8", "j8", "k8", "l8"]));
    assert_eq!((&a["exact"], &a["score"]), (&json!(true), &json!(-1)));
    assert_eq!(a["moves_after"], Value::Null);
}

#[tokio::test]
async fn an_overline_wins_freestyle_but_not_standard() {
    // X: a8 b8 c8 _ e8 f8, then d8 makes six in a row.
    let moves = "a8 a1 b8 a3 c8 a5 e8 a10 f8 a12 d8";
    let free = answer(json!({"game": "gomoku", "moves": moves, "max_depth": 1})).await;
    assert_eq!(free["status"], "x_won", "{free}");
    assert_eq!(free["winning_line"], json!(["a8", "b8", "c8", "d8", "e8", "f8"]));
    let standard = answer(json!({"game": "gomoku", "moves": moves, "rule": "standard", "max_depth": 1})).await;
    assert_eq!((&standard["status"], &standard["rule"]), (&json!("in_progress"), &json!("standard")), "{standard}");
    assert!(standard["best_move"].is_string());
}

#[tokio::test]
async fn a_board_with_its_side_to_move_is_answered() {
    let mut rows = vec![".".repeat(15); 15];
    // Row 8 (the 8th from the bottom) holds X's four, d8 to g8.
    rows[7] = "...XXXX........".to_string();
    rows[0] = "OOO............".to_string();
    let a = answer(json!({"game": "gomoku", "board": rows, "to_move": "O", "time_ms": 200})).await;
    let best = a["best_move"].as_str().unwrap();
    assert!(best == "c8" || best == "h8", "O blocks one end: {a}");
    assert_eq!((&a["score"], &a["exact"], &a["plies_to_end"]), (&json!(-1), &json!(true), &json!(2)), "{a}");
    assert_eq!(a["moves_after"], Value::Null);
    // Without to_move, the counts say whose turn it is.
    let a = answer(json!({"game": "gomoku", "board": rows, "max_depth": 1})).await;
    assert_eq!(a["to_move"], "O");
}

#[tokio::test]
async fn the_smallest_and_the_largest_boards() {
    let small = answer(json!({"game": "gomoku", "moves": "c3", "size": 5, "time_ms": 200})).await;
    assert_eq!(small["size"], 5);
    assert_eq!(small["board_after"].as_array().unwrap().len(), 5);
    let large = answer(json!({"game": "gomoku", "moves": "j10 k11 t20", "size": 20, "time_ms": 200})).await;
    assert_eq!(large["size"], 20);
    let rows = large["board_after"].as_array().unwrap();
    assert_eq!(rows.len(), 20);
    assert_eq!(rows[0].as_str().unwrap().chars().last(), Some('X'), "t20 is the top right: {large}");
    let empty = answer(json!({"game": "gomoku", "moves": "", "size": 20, "max_depth": 1})).await;
    assert_eq!(empty["best_move"], "k11", "the centre of an empty board");
}

#[tokio::test]
async fn bad_input_is_refused_naming_its_place() {
    let cases = [
        (json!({"game": "gomoku", "moves": "h8 p8"}), "moves", "off the 15x15 board"),
        (json!({"game": "gomoku", "moves": ["h8", "h8"]}), "moves[1]", "occupied"),
        (json!({"game": "gomoku", "moves": "h8 a1 i8 a3 j8 a5 k8 a7 l8 b9"}), "moves", "after the end"),
        (json!({"game": "gomoku", "moves": "h8", "rule": "renju"}), "rule", "freestyle"),
        (json!({"game": "gomoku", "moves": "h8", "size": 21}), "size", "from 5 to 20"),
        (json!({"game": "gomoku", "moves": "h8", "size": 4}), "size", "from 5 to 20"),
        (json!({"game": "gomoku", "moves": "h8 zz"}), "moves", "not a list of squares"),
        (json!({"game": "gomoku", "moves": "h8", "to_move": "X"}), "to_move", "moves say"),
        (json!({"game": "gomoku", "board": [".....", "....."]}), "board", "rows"),
        (
            json!({"game": "gomoku", "board": [".....", ".....", "..X..", ".....", "....."], "size": 7}),
            "board",
            "size is 7",
        ),
        (json!({"game": "gomoku", "board": [".....", ".....", "..Q..", ".....", "....."]}), "board[2]", "c3"),
        (
            json!({"game": "gomoku", "board": [".....", ".....", "..XX.", ".....", "....."]}),
            "board",
            "X has 2 stones and O 0",
        ),
        (json!({"game": "gomoku", "board": ["XXXXX", "OOOOO", ".....", ".....", "....."]}), "board", "both sides"),
        (json!({"game": "gomoku", "board": ["XXXXX", "OOOO.", "O....", ".....", "....."]}), "board", "X has five"),
        (
            json!({"game": "gomoku", "board": [".....", "..X..", ".....", ".....", "....."], "to_move": "X"}),
            "to_move",
            "O's turn",
        ),
    ];
    for (body, field, words) in cases {
        let error = refusal(&body).await;
        assert_eq!(error["field"], field, "{body}: {error}");
        assert!(error["message"].as_str().unwrap().contains(words), "{body}: {error}");
    }
}

#[tokio::test]
async fn a_stream_reports_progress_and_ends_with_the_answer() {
    let app = crate::helpers::app();
    let body = json!({"game": "gomoku", "moves": "h8 i9 j10", "time_ms": 300, "seed": 3});
    let response = app.oneshot(streaming(&body)).await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    let events = events(std::str::from_utf8(&bytes).unwrap());
    let (last, answer) = events.last().unwrap();
    assert_eq!(last, "answer", "{events:?}");
    assert_eq!(answer["kind"], "gomoku");
    assert!(answer["best_move"].is_string());
    assert!(events.iter().any(|(name, _)| name == "progress"), "{events:?}");
}

#[tokio::test]
async fn size_and_rule_are_refused_for_the_other_games() {
    for body in [
        serde_json::json!({"board": "XO..X....", "rule": "standard"}),
        serde_json::json!({"game": "connect4", "moves": "4", "size": 9}),
        serde_json::json!({"game": "othello", "moves": "f5", "rule": "AAA"}),
    ] {
        let response = crate::helpers::post_best_move(&body).await;
        assert_eq!(response.status, axum::http::StatusCode::UNPROCESSABLE_ENTITY, "{body}: {}", response.text());
        let field = response.json()["error"]["field"].clone();
        assert!(field == "rule" || field == "size", "{body}: {field}");
    }
}

//! The golden corpus: a few hundred requests of every kind (each game, the
//! board and move forms, levels, depth limits, mistakes with a seed,
//! `compare` off, errors of every kind, event streams) and the answers
//! the service gave them, in `tests/data/golden.jsonl`. Every answer must
//! stay the same but for the fields that measure time; a change that
//! means to change answers records the corpus again:
//!
//! ```sh
//! GOLDEN=record cargo test --test api golden
//! ```
//!
//! Each request is chosen so that its answer does not depend on the
//! machine's speed: searches that finish within their budget, depth
//! limits, exact solves; for a stream, its last event.

use std::fmt::Write as _;

use axum::body::Body;
use axum::http::{header, Request};
use http_body_util::BodyExt;
use serde_json::{json, Value};
use tower::ServiceExt;

use bestmove::games::othello;

use crate::helpers::events;

const CORPUS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/golden.jsonl");

/// One request of the corpus: its body (JSON, or raw text for bodies that
/// are not), and whether it asks for an event stream.
struct Case {
    name: String,
    body: String,
    stream: bool,
}

fn case(name: impl Into<String>, body: Value) -> Case {
    Case { name: name.into(), body: body.to_string(), stream: false }
}

/// A position `plies` moves into a seeded random tic-tac-toe game, as a
/// board string, or `None` if the game ended before.
fn tictactoe_board(seed: u64, plies: usize) -> Option<String> {
    use bestmove::games::tictactoe::{Position, Status};
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut position = Position::parse(".........", None).ok()?;
    for _ in 0..plies {
        if position.status() != Status::InProgress {
            return None;
        }
        let moves = position.legal_moves();
        position = position.play(moves[rng.usize(..moves.len())])?;
    }
    Some(position.to_string())
}

/// A seeded random game tree of the given depth and width, with values
/// on every node (so any depth limit may cut it) and names on some.
fn tree(rng: &mut fastrand::Rng, depth: u32, width: usize) -> Value {
    if depth == 0 {
        return json!(rng.i64(-9..=9));
    }
    let children: Vec<Value> = (0..rng.usize(1..=width)).map(|_| tree(rng, depth - 1, width)).collect();
    match rng.u8(..3) {
        0 => Value::Array(children),
        1 => json!({"value": rng.i64(-9..=9), "children": children}),
        _ => json!({"name": format!("n{}", rng.u32(..1000)), "value": rng.i64(-9..=9), "children": children}),
    }
}

/// An Othello position `empties` squares from the end of a seeded random
/// game, as its moves (passes written out) and its board, or `None`.
fn othello_game(seed: u64, empties: u32) -> Option<(Vec<String>, String, &'static str)> {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut position = othello::Position::START;
    let mut names = Vec::new();
    while position.empties() > empties {
        let moves = position.legal_moves();
        if moves.is_empty() {
            return None;
        }
        let mv = moves[rng.usize(..moves.len())];
        names.push(othello::move_name(mv));
        position = position.play(mv)?;
    }
    if position.legal_moves().is_empty() {
        return None;
    }
    let side = if position.to_move() == bestmove::games::tictactoe::Player::X { "X" } else { "O" };
    Some((names, position.rows().concat(), side))
}

/// Connect Four games from the reference positions (24 stones or more:
/// solved within the budget without the opening book).
fn connect4_games() -> Vec<String> {
    let text = include_str!("../data/connect4-positions.txt");
    text.lines().filter_map(|l| l.split_whitespace().next()).filter(|m| m.len() >= 24).map(str::to_string).collect()
}

fn cases() -> Vec<Case> {
    let mut cases = Vec::new();
    // Tic-tac-toe: boards from random games, with every option.
    let boards: Vec<String> = (0..200).filter_map(|seed| tictactoe_board(seed, (seed % 8) as usize)).take(60).collect();
    for (i, board) in boards.iter().enumerate() {
        cases.push(case(format!("tictactoe {i}"), json!({"board": board, "seed": i})));
    }
    for (i, board) in boards.iter().take(10).enumerate() {
        cases
            .push(case(format!("tictactoe random tie {i}"), json!({"board": board, "tie_break": "random", "seed": i})));
        cases.push(case(format!("tictactoe mistake {i}"), json!({"board": board, "mistake": 0.5, "seed": i})));
        cases.push(case(format!("tictactoe depth {i}"), json!({"board": board, "max_depth": 1 + i % 3, "seed": 7})));
        cases.push(case(format!("tictactoe lean {i}"), json!({"board": board, "compare": false, "seed": 1})));
        cases.push(case(format!("tictactoe max_moves {i}"), json!({"board": board, "max_moves": i % 3, "seed": 2})));
    }
    for level in 1..=10 {
        cases.push(case(format!("tictactoe level {level}"), json!({"board": "X........", "level": level, "seed": 3})));
    }
    let cells: Vec<Value> =
        "XO..X....".chars().map(|c| if c == '.' { Value::Null } else { json!(c.to_string()) }).collect();
    cases.push(case("tictactoe cells", json!({"board": cells, "seed": 5})));
    cases
        .push(case("tictactoe rows", json!({"board": [["x", "o", ""], [" ", "X", "."], ["-", "_", null]], "seed": 5})));
    cases.push(case("tictactoe to_move", json!({"board": ".........", "to_move": "O", "seed": 5})));
    cases.push(case("tictactoe over", json!({"board": "XXXOO....", "seed": 5})));
    // Trees.
    let mut rng = fastrand::Rng::with_seed(2026);
    for i in 0..30 {
        let t = tree(&mut rng, 1 + (i % 4), 4);
        let mut body = json!({"tree": t, "seed": i, "maximizing": i % 2 == 0});
        if i % 3 == 0 {
            body["max_depth"] = json!(1 + i % 2);
        }
        if i % 5 == 0 {
            body["tie_break"] = json!("random");
        }
        if i % 7 == 0 {
            body["compare"] = json!(false);
        }
        cases.push(case(format!("tree {i}"), body));
    }
    for level in [1, 5, 10] {
        cases.push(case(
            format!("tree level {level}"),
            json!({"tree": [[5, -2, -1], [1, -5, 6]], "level": level, "seed": 9}),
        ));
    }
    // Connect Four: move strings, column arrays, boards, levels, depths.
    let games = connect4_games();
    for (i, moves) in games.iter().step_by(6).take(50).enumerate() {
        let mut body = json!({"game": "connect4", "moves": moves, "seed": i});
        match i % 5 {
            0 => body["compare"] = json!(false),
            1 => body["max_depth"] = json!(4 + i % 4),
            2 => {
                let columns: Vec<u8> = moves.bytes().map(|b| b - b'1').collect();
                body["moves"] = json!(columns);
            }
            3 => body["level"] = json!(1 + i % 10),
            _ => body["max_moves"] = json!(3),
        }
        cases.push(case(format!("connect4 {i}"), body));
    }
    cases.push(case(
        "connect4 board",
        json!({"game": "connect4", "board": [".......", ".......", ".......", ".......", "...O...", "..XXO.."], "max_depth": 6, "seed": 1}),
    ));
    cases.push(case("connect4 mistake", json!({"game": "connect4", "moves": games[3], "mistake": 0.7, "seed": 11})));
    cases.push(case("connect4 over", json!({"game": "connect4", "moves": "4455667", "seed": 1})));
    // Othello: depth limits from the opening, levels, endgames solved
    // exactly, passes, boards, finished games.
    for (i, moves) in
        ["", "f5", "f5d6", "f5d6c3", "f5d6c3d3c4", "f5f6e6f4", "d3c3c4c5b4", "c4e3f6e6f5"].iter().enumerate()
    {
        cases.push(case(
            format!("othello depth {i}"),
            json!({"game": "othello", "moves": moves, "max_depth": 1 + i % 4, "seed": i}),
        ));
    }
    for level in 1..=6 {
        cases.push(case(
            format!("othello level {level}"),
            json!({"game": "othello", "moves": "f5d6c3", "level": level, "seed": level, "compare": false}),
        ));
    }
    let mut endgames = 0;
    for seed in 0..200u64 {
        if endgames == 36 {
            break;
        }
        let Some((names, board, side)) = othello_game(seed, 4 + (seed % 7) as u32) else { continue };
        let body = match endgames % 3 {
            0 => json!({"game": "othello", "moves": names, "compare": false, "seed": seed}),
            1 => json!({"game": "othello", "board": board, "to_move": side, "compare": false, "seed": seed}),
            _ => {
                json!({"game": "othello", "moves": names.iter().filter(|n| *n != "pass").cloned().collect::<String>(), "compare": false, "max_moves": 2, "seed": seed})
            }
        };
        cases.push(case(format!("othello endgame {endgames}"), body));
        endgames += 1;
    }
    cases
        .push(case("othello pass", json!({"game": "othello", "moves": "d3c3e6d2d1e1b2c1", "max_depth": 3, "seed": 1})));
    cases.push(case("othello over", json!({"game": "othello", "moves": "d3c3f5f4f3d2d1e3b3", "seed": 1})));
    cases.push(case(
        "othello mistake",
        json!({"game": "othello", "moves": "f5d6c3d3", "max_depth": 2, "mistake": 1.0, "seed": 4}),
    ));
    // Errors of every kind.
    let errors = [
        json!({"board": "XXXXX.OO."}),
        json!({"bord": "........."}),
        json!({"tree": [[1, -1], [0, 1.5]]}),
        json!({"board": "XO", "seed": 1}),
        json!({"board": ".........", "tree": [1]}),
        json!({}),
        json!({"board": ".........", "max_depth": 0}),
        json!({"board": ".........", "tie_break": "last"}),
        json!({"board": ".........", "mistake": 2}),
        json!({"board": ".........", "seed": -1}),
        json!({"board": ".........", "max_moves": -1}),
        json!({"board": ".........", "time_ms": 0}),
        json!({"board": ".........", "level": 11}),
        json!({"board": ".........", "level": 3, "max_depth": 2}),
        json!({"board": ".........", "compare": "yes"}),
        json!({"board": ".........", "maximizing": true}),
        json!({"tree": [1, 2], "to_move": "X"}),
        json!({"board": ".........", "to_move": "Z"}),
        json!({"board": "XX.......", "to_move": "X"}),
        json!({"game": "chess", "moves": "e4"}),
        json!({"board": ".........", "moves": "44"}),
        json!({"game": "connect4", "moves": "8"}),
        json!({"game": "connect4", "moves": "4444444"}),
        json!({"game": "connect4", "moves": "4", "board": ["......."]}),
        json!({"game": "connect4", "board": [".......", ".......", ".......", ".......", ".......", "XX....."]}),
        json!({"game": "connect4", "moves": "4", "to_move": "X"}),
        json!({"game": "connect4"}),
        json!({"game": "othello", "moves": "f5z9"}),
        json!({"game": "othello", "moves": "f5d"}),
        json!({"game": "othello", "moves": ["f5", 3]}),
        json!({"game": "othello", "moves": "f5d6c3d3c4c4"}),
        json!({"game": "othello", "moves": "d3c3f5f4f3d2d1e3b3a1"}),
        json!({"game": "othello", "board": "XO", "to_move": "X"}),
        json!({"game": "othello", "board": vec!["........"; 8]}),
        json!({"game": "othello", "moves": "f5", "to_move": "X"}),
        json!({"game": "othello", "moves": "f5", "maximizing": true}),
        json!({"tree": {"children": [{"value": 1}, {"name": "x"}]}, "max_depth": 1}),
        json!({"tree": "leaf"}),
        json!({"board": [1, 2, 3]}),
        json!({"board": ".........", "max_moves": 100000000}),
    ];
    for (i, body) in errors.into_iter().enumerate() {
        cases.push(case(format!("error {i}"), body));
    }
    for (i, raw) in
        ["{", "[1, 2]", "\"board\"", "{\"board\": \".........\", \"board\": null}", "{\"board\": \"\\ud800\"}"]
            .iter()
            .enumerate()
    {
        cases.push(Case { name: format!("error raw {i}"), body: raw.to_string(), stream: false });
    }
    // Streams: their last event.
    let streams = [
        json!({"board": ".........", "seed": 1}),
        json!({"tree": [[1, -1], [0, 1]], "seed": 1}),
        json!({"game": "connect4", "moves": games[0], "seed": 1}),
        json!({"game": "connect4", "moves": games[5], "compare": false, "seed": 1}),
        json!({"game": "othello", "moves": "f5d6c3", "max_depth": 4, "seed": 1}),
        json!({"game": "othello", "moves": "f5d6c3", "level": 2, "seed": 1}),
        json!({"game": "connect4", "moves": "8"}),
        json!({"board": "XO"}),
    ];
    for (i, body) in streams.into_iter().enumerate() {
        cases.push(Case { name: format!("stream {i}"), body: body.to_string(), stream: true });
    }
    if let Some((names, _, _)) = othello_game(77, 6) {
        cases.push(Case {
            name: "stream othello endgame".into(),
            body: json!({"game": "othello", "moves": names, "seed": 1}).to_string(),
            stream: true,
        });
    }
    // Gomoku, last so that the cases before keep their places: depth
    // limits (the answer does not depend on the machine's speed), both
    // rules, the smallest and largest boards, proven wins, errors and a
    // stream.
    let gomoku = [
        json!({"game": "gomoku", "moves": "h8", "max_depth": 1, "seed": 1}),
        json!({"game": "gomoku", "moves": "h8 i9 j10", "max_depth": 2, "compare": false, "seed": 2}),
        json!({"game": "gomoku", "moves": "h8i9h9i8h10", "max_depth": 3, "compare": false, "seed": 3}),
        json!({"game": "gomoku", "moves": ["h8", "i9", "g7"], "max_depth": 2, "compare": false, "rule": "standard", "seed": 4}),
        json!({"game": "gomoku", "moves": "h8 a1 i8 a3 j8 a5 k8 a7", "max_depth": 2, "compare": false, "seed": 5}),
        json!({"game": "gomoku", "moves": "h8 a1 i8 a3 j8 a5 h9 a7 h10 a9", "max_depth": 2, "compare": false, "seed": 6}),
        json!({"game": "gomoku", "moves": "h8 a1 h10 b1 j8 c1 j10 d1", "max_depth": 2, "compare": false, "seed": 7}),
        json!({"game": "gomoku", "moves": "h8 a1 i8 a3 j8 a5 k8 a7 l8", "seed": 8}),
        json!({"game": "gomoku", "moves": "a8 a1 b8 a3 c8 a5 e8 a10 f8 a12 d8", "rule": "standard", "max_depth": 1, "seed": 9}),
        json!({"game": "gomoku", "board": [".....", ".XO..", "..X..", "..O..", "....."], "max_depth": 2, "compare": false, "seed": 10}),
        json!({"game": "gomoku", "moves": "j10 k11 t20", "size": 20, "max_depth": 2, "compare": false, "seed": 11}),
        json!({"game": "gomoku", "moves": "h8 i9 j10", "level": 3, "compare": false, "seed": 12}),
        json!({"game": "gomoku", "moves": "h8 i9 j10", "max_depth": 2, "max_moves": 1, "compare": false, "seed": 13}),
        json!({"game": "gomoku", "moves": "h8 p8"}),
        json!({"game": "gomoku", "moves": ["h8", "i9", "h8"]}),
        json!({"game": "gomoku", "moves": "h8 a1 i8 a3 j8 a5 k8 a7 l8 b9"}),
        json!({"game": "gomoku", "moves": "h8", "rule": "renju"}),
        json!({"game": "gomoku", "moves": "h8", "size": 25}),
        json!({"game": "gomoku", "board": [".....", ".....", "..XX.", ".....", "....."]}),
        json!({"game": "gomoku", "board": ["XXXXX", "OOOO.", "O....", ".....", "....."]}),
        json!({"game": "gomoku", "moves": "h8", "to_move": "O"}),
    ];
    for (i, body) in gomoku.into_iter().enumerate() {
        cases.push(case(format!("gomoku {i}"), body));
    }
    cases.push(Case {
        name: "stream gomoku".into(),
        body: json!({"game": "gomoku", "moves": "h8 i9", "max_depth": 2, "compare": false, "seed": 1}).to_string(),
        stream: true,
    });
    cases
}

/// An answer (or a stream's last event) with the fields that measure time
/// taken out.
fn untimed(mut value: Value) -> Value {
    match &mut value {
        Value::Object(map) => {
            map.remove("elapsed_us");
            for (_, v) in map.iter_mut() {
                *v = untimed(v.take());
            }
        }
        Value::Array(items) => {
            for v in items.iter_mut() {
                *v = untimed(v.take());
            }
        }
        _ => {}
    }
    value
}

/// The service's answer to a case: its status and JSON, untimed.
async fn ask(app: &axum::Router, case: &Case) -> (u16, Value) {
    let mut request = Request::post("/best-move").header(header::CONTENT_TYPE, "application/json");
    if case.stream {
        request = request.header(header::ACCEPT, "text/event-stream");
    }
    let response = app.clone().oneshot(request.body(Body::from(case.body.clone())).unwrap()).await.unwrap();
    let status = response.status().as_u16();
    let streamed = response.headers().get(header::CONTENT_TYPE).is_some_and(|t| t == "text/event-stream");
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    let text = String::from_utf8_lossy(&bytes);
    let value = if streamed {
        let (name, data) = events(&text).pop().expect("a last event");
        json!({"event": name, "data": data})
    } else {
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: not JSON ({e}): {text}", case.name))
    };
    (status, untimed(value))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_answer_of_the_golden_corpus_is_the_same_but_for_its_timings() {
    let cases = cases();
    assert!(cases.len() >= 300, "{} cases", cases.len());
    let app = bestmove::api::app(bestmove::config::Config::default());
    if std::env::var("GOLDEN").as_deref() == Ok("record") {
        let mut out = String::new();
        for case in &cases {
            let (status, answer) = ask(&app, case).await;
            let line = json!({"name": case.name, "request": case.body, "stream": case.stream, "status": status, "answer": answer});
            writeln!(out, "{line}").unwrap();
        }
        std::fs::write(CORPUS, out).unwrap();
        return;
    }
    let recorded: Vec<Value> = std::fs::read_to_string(CORPUS)
        .expect("the golden corpus (record it with GOLDEN=record)")
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    assert_eq!(recorded.len(), cases.len(), "the corpus's requests changed: record it again");
    let mut differ = Vec::new();
    for (case, golden) in cases.iter().zip(&recorded) {
        assert_eq!(golden["name"], case.name.as_str());
        assert_eq!(golden["request"], case.body.as_str(), "{}: the request changed", case.name);
        let (status, answer) = ask(&app, case).await;
        if json!(status) != golden["status"] || answer != golden["answer"] {
            differ.push(format!(
                "{}: {}\n  was {} {}\n  now {status} {answer}",
                case.name, case.body, golden["status"], golden["answer"]
            ));
        }
    }
    assert!(differ.is_empty(), "{} of {} answers changed:\n{}", differ.len(), cases.len(), differ.join("\n"));
}

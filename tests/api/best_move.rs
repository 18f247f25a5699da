//! `POST /best-move`: the answers front ends rely on, and every way a
//! request can be refused.

use serde_json::{json, Value};

use crate::helpers::{post_best_move, post_best_move_raw, send};
use axum::http::{Method, StatusCode};

async fn ok(body: Value) -> Value {
    let response = post_best_move(&body).await;
    assert_eq!(response.status, StatusCode::OK, "{body}: {}", response.text());
    assert_eq!(response.header("content-type").as_deref(), Some("application/json"));
    response.json()
}

async fn refused(body: Value) -> (StatusCode, Value) {
    let response = post_best_move(&body).await;
    (response.status, response.json()["error"].clone())
}

#[tokio::test]
async fn o_to_move_blocks_the_diagonal_to_lose_in_four_rather_than_two() {
    let answer = ok(json!({"board": "XO..X...."})).await;
    assert_eq!(answer["best_move"], 8);
    assert_eq!(answer["score"], -1);
    assert_eq!(answer["exact"], true);
    assert_eq!(answer["plies_to_end"], 4);
    assert_eq!(answer["to_move"], "O");
    assert_eq!(answer["status"], "in_progress");
    assert_eq!(answer["status_after"], "in_progress");
    assert_eq!(answer["board_after"], "XO..X...O");
    assert_eq!(answer["principal_variation"].as_array().unwrap().len(), 4);
    assert_eq!(answer["principal_variation"][0], 8);
    assert_eq!(answer["moves"][0], json!({"move": 2, "score": -1, "plies_to_end": 2}));
    assert_eq!(answer["moves"].as_array().unwrap().len(), 6);
    assert_eq!(answer["minimax"]["nodes"], 1061);
    assert_eq!(answer["minimax"]["best_move"], 8);
    assert_eq!(answer["alphabeta"]["best_move"], 8);
    assert_eq!(answer["alphabeta"]["score"], -1);
    assert!(answer["alphabeta"]["nodes"].as_u64().unwrap() < 1061);
    assert!(answer["minimax"]["elapsed_us"].is_u64());
    assert_eq!(answer["random_move"], false);
}

#[tokio::test]
async fn the_same_board_in_all_three_forms_and_either_case_gets_the_same_answer() {
    let string = ok(json!({"board": "oxoxx...."})).await;
    let cells = ok(json!({"board": ["o", "x", "o", "x", "x", null, null, null, null]})).await;
    let rows = ok(json!({"board": [["O", "X", "O"], ["X", "X", ""], ["_", "-", " "]]})).await;
    for answer in [&string, &cells, &rows] {
        assert_eq!(answer["best_move"], 5, "every move loses in 2: the first is given");
        assert_eq!(answer["score"], -1);
        assert_eq!(answer["plies_to_end"], 2);
        assert_eq!(answer["minimax"]["nodes"], string["minimax"]["nodes"]);
    }
}

#[tokio::test]
async fn the_empty_board_is_a_draw_found_by_searching_the_whole_game_tree() {
    let answer = ok(json!({"board": "........."})).await;
    assert_eq!(answer["score"], 0);
    assert_eq!(answer["best_move"], 0);
    assert_eq!(answer["plies_to_end"], 9);
    assert_eq!(answer["minimax"]["nodes"], 549_946);
    assert!(answer["alphabeta"]["nodes"].as_u64().unwrap() < 549_946);
    assert_eq!(answer["moves"].as_array().unwrap().len(), 9);
}

#[tokio::test]
async fn answers_in_a_row_on_one_thread_share_its_table_and_stay_exact() {
    // Every board of up to 3 plies, answered in turn (on the test's thread,
    // the largest searches on the blocking pool's), each answer reusing its
    // thread's tic-tac-toe table: the engine must
    // agree with plain minimax (which uses no table) on every one, and the
    // first board answered again last must get the same answer.
    let mut boards = vec![String::from(".........")];
    let mut frontier = boards.clone();
    for ply in 0..3 {
        let mark = if ply % 2 == 0 { 'X' } else { 'O' };
        let mut next = Vec::new();
        for board in &frontier {
            for (i, _) in board.match_indices('.') {
                let mut b = board.clone();
                b.replace_range(i..=i, &mark.to_string());
                next.push(b);
            }
        }
        boards.extend(next.iter().cloned());
        frontier = next;
    }
    assert_eq!(boards.len(), 1 + 9 + 72 + 504);
    let first = ok(json!({"board": boards[1]})).await;
    for board in &boards {
        let answer = ok(json!({"board": board})).await;
        for field in ["best_move", "score", "plies_to_end", "principal_variation"] {
            assert_eq!(answer["engine"][field], answer["minimax"][field], "{board}: {field}");
        }
    }
    let again = ok(json!({"board": boards[1]})).await;
    for field in ["best_move", "score", "plies_to_end", "principal_variation", "moves"] {
        assert_eq!(first[field], again[field], "{field}");
    }
}

#[tokio::test]
async fn a_random_tie_break_is_reproducible_from_its_seed_and_stays_optimal() {
    let body = json!({"board": [["X", "", ""], ["", "O", ""], ["", "", ""]], "tie_break": "random", "seed": 7});
    let first = ok(body.clone()).await;
    let again = ok(body).await;
    assert_eq!(first["best_move"], again["best_move"]);
    assert_eq!(first["seed"], 7);
    assert_eq!(first["tie_break"], "random");
    let chosen = first["moves"].as_array().unwrap().iter().find(|m| m["move"] == first["best_move"]).unwrap();
    assert_eq!(chosen["score"], first["score"]);
}

#[tokio::test]
async fn mistakes_and_a_depth_limit_are_reported() {
    let answer = ok(json!({"board": ".........", "mistake": 1.0, "max_depth": 2, "seed": 11})).await;
    assert_eq!(answer["random_move"], true);
    assert_eq!(answer["exact"], false);
    assert_eq!(answer["plies_to_end"], Value::Null);
    assert_eq!(answer["max_depth"], 2);
    assert_eq!(answer["minimax"]["nodes"], 1 + 9 + 72);
    let quarter = ok(json!({"board": ".........", "mistake": 0.25, "max_depth": 2})).await;
    assert!(quarter["seed"].is_u64());
}

#[tokio::test]
async fn a_mistake_leaves_score_and_line_on_best_play_and_gives_the_played_moves_own_score() {
    // X wins at once at 2; blocking at 5 draws; anything else lets O win at 5.
    let mut worse = 0;
    for seed in 0..16 {
        let a = ok(json!({"board": "XX.OO....", "mistake": 1.0, "seed": seed})).await;
        assert_eq!(a["random_move"], true, "{a}");
        assert_eq!((&a["score"], &a["plies_to_end"]), (&json!(1), &json!(1)), "best play, whatever was played: {a}");
        assert_eq!(a["principal_variation"], json!([2]), "{a}");
        let played = a["moves"].as_array().unwrap().iter().find(|m| m["move"] == a["best_move"]).unwrap();
        assert_eq!(a["best_move_score"], played["score"], "{a}");
        if a["best_move"] != 2 {
            assert!(a["best_move_score"].as_i64().unwrap() < 1, "{a}");
            worse += 1;
        }
    }
    assert!(worse > 0, "sixteen seeds never played a worse move");
    let best = ok(json!({"board": "XX.OO...."})).await;
    assert_eq!((&best["best_move"], &best["best_move_score"]), (&json!(2), &json!(1)));
    let over = ok(json!({"board": "XXXOO...."})).await;
    assert_eq!(over["best_move_score"], Value::Null);
    // Trees: in the tree's own units, a minimizing root included.
    let tree = ok(json!({"tree": [[1, -1], [0, 1]], "maximizing": false})).await;
    assert_eq!((&tree["best_move"], &tree["best_move_score"], &tree["score"]), (&json!(0), &json!(1), &json!(1)));
}

#[tokio::test]
async fn a_finished_board_is_a_normal_answer_with_no_move() {
    let won = ok(json!({"board": "XXXOO...."})).await;
    assert_eq!(won["best_move"], Value::Null);
    assert_eq!(won["status"], "x_won");
    assert_eq!(won["winner"], "X");
    assert_eq!(won["winning_line"], json!([0, 1, 2]));
    assert_eq!(won["score"], -1);
    assert_eq!(won["to_move"], "O");
    assert_eq!(won["board_after"], Value::Null);
    assert_eq!(won["moves"], json!([]));
    let draw = ok(json!({"board": "XOXXOOOXX"})).await;
    assert_eq!((draw["status"].clone(), draw["score"].clone()), (json!("draw"), json!(0)));
    // O started, so X's row came last: a finished game, not an impossible one.
    let o_started = ok(json!({"board": "XXXOO.O..", "to_move": "O"})).await;
    assert_eq!(o_started["status"], "x_won");
}

#[tokio::test]
async fn status_after_tells_the_front_end_that_the_service_just_won() {
    let answer = ok(json!({"board": "XX.OO...."})).await;
    assert_eq!(answer["best_move"], 2);
    assert_eq!(answer["score"], 1);
    assert_eq!(answer["plies_to_end"], 1);
    assert_eq!(answer["status_after"], "x_won");
    assert_eq!(answer["winner_after"], "X");
    assert_eq!(answer["winning_line_after"], json!([0, 1, 2]));
}

#[tokio::test]
async fn the_classic_trees_get_their_classic_answers() {
    let small = ok(json!({"tree": [[1, -1], [0, 1]]})).await;
    assert_eq!((small["best_move"].clone(), small["score"].clone()), (json!(1), json!(0)));
    assert_eq!(small["kind"], "tree");
    assert_eq!(small["plies_to_end"], 2);
    assert_eq!(small["minimax"]["nodes"], 7);
    let classic = ok(json!({"tree": [[5, -2, -1], [1, -5, 6], [5, 8, 4]]})).await;
    assert_eq!((classic["best_move"].clone(), classic["score"].clone()), (json!(2), json!(4)));
    assert_eq!(classic["moves"][0], json!({"move": 0, "name": null, "score": -2, "plies_to_end": 2}));
    let named =
        json!({"children": [{"name": "A", "value": 300}, {"name": "B", "value": 120}, {"name": "C", "value": -500}]});
    let max = ok(json!({"tree": named, "maximizing": true})).await;
    assert_eq!(
        (max["best_move"].clone(), max["best_move_name"].clone(), max["score"].clone()),
        (json!(0), json!("A"), json!(300))
    );
    let min = ok(json!({"tree": named, "maximizing": false})).await;
    assert_eq!((min["best_move_name"].clone(), min["score"].clone()), (json!("C"), json!(-500)));
}

#[tokio::test]
async fn a_lone_leaf_tree_has_no_move() {
    let answer = ok(json!({"tree": 5})).await;
    assert_eq!(
        (answer["best_move"].clone(), answer["best_move_name"].clone(), answer["score"].clone()),
        (Value::Null, Value::Null, json!(5))
    );
}

fn nested_arrays(depth: usize) -> String {
    format!("{}1{}", "[".repeat(depth), "]".repeat(depth))
}

#[tokio::test]
async fn a_tree_a_thousand_levels_deep_is_answered_in_both_forms() {
    let arrays = post_best_move_raw(format!(r#"{{"tree": {}}}"#, nested_arrays(1000))).await;
    assert_eq!(arrays.status, StatusCode::OK, "{}", arrays.text());
    assert_eq!(arrays.json()["plies_to_end"], 1000);
    let mut objects = String::from("1");
    for _ in 0..1000 {
        objects = format!(r#"{{"children": [{objects}]}}"#);
    }
    let objects = post_best_move_raw(format!(r#"{{"tree": {objects}}}"#)).await;
    assert_eq!(objects.status, StatusCode::OK, "{}", objects.text());
    assert_eq!(objects.json()["minimax"]["nodes"], 1001);
}

#[tokio::test]
async fn a_body_nested_a_million_levels_deep_is_refused_and_the_service_keeps_serving() {
    let response = post_best_move_raw(format!(r#"{{"tree": {}}}"#, nested_arrays(1_000_000))).await;
    assert_eq!(response.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(response.json()["error"]["code"], "tree_too_deep");
    let board = post_best_move_raw(format!(r#"{{"board": {}}}"#, nested_arrays(1_000_000))).await;
    assert_eq!(board.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(board.json()["error"]["code"], "invalid_board");
    let garbage = post_best_move_raw("[".repeat(1_000_000)).await;
    assert_eq!(garbage.status, StatusCode::BAD_REQUEST);
    assert_eq!(ok(json!({"tree": [1, 2]})).await["best_move"], 1);
}

#[tokio::test]
async fn a_body_over_the_limit_is_a_413_and_the_service_keeps_serving() {
    let huge = format!(r#"{{"tree": [{}1]}}"#, "1,".repeat(9 * 1024 * 1024));
    let response = post_best_move_raw(huge).await;
    assert_eq!(response.status, StatusCode::PAYLOAD_TOO_LARGE);
    assert_eq!(response.json()["error"]["code"], "payload_too_large");
    assert_eq!(ok(json!({"tree": [1, 2]})).await["best_move"], 1);
}

#[tokio::test]
async fn misspelled_and_misplaced_fields_are_named() {
    let (status, error) = refused(json!({"bord": "........."})).await;
    assert_eq!(
        (status, error["code"].clone(), error["field"].clone()),
        (StatusCode::UNPROCESSABLE_ENTITY, json!("unknown_field"), json!("bord"))
    );
    assert!(error["message"].as_str().unwrap().contains("did you mean \"board\""));
    let (_, error) = refused(json!({"board": ".........", "maximizing": true})).await;
    assert_eq!((error["code"].clone(), error["field"].clone()), (json!("invalid_request"), json!("maximizing")));
    let (_, error) = refused(json!({"tree": [1, 2], "to_move": "X"})).await;
    assert_eq!((error["code"].clone(), error["field"].clone()), (json!("invalid_request"), json!("to_move")));
    let (_, error) = refused(json!({"board": ".........", "tree": [1]})).await;
    assert_eq!(error["code"], "invalid_request");
    let (_, error) = refused(json!({"seed": 1})).await;
    assert_eq!(error["code"], "invalid_request");
    let (_, error) = refused(json!([1, 2])).await;
    assert_eq!(error["code"], "invalid_request");
    let duplicate = post_best_move_raw(r#"{"board": ".........", "board": "X........"}"#).await;
    assert_eq!(duplicate.json()["error"]["field"], "board");
}

#[tokio::test]
async fn options_out_of_range_name_the_option() {
    for (option, value) in [
        ("max_depth", json!(0)),
        ("max_depth", json!(-1)),
        ("max_depth", json!(1.5)),
        ("max_depth", json!("2")),
        ("mistake", json!(1.5)),
        ("mistake", json!(-0.1)),
        ("mistake", json!("often")),
        ("tie_break", json!("last")),
        ("seed", json!(-1)),
        ("seed", json!(1e30)),
        ("to_move", json!("Z")),
    ] {
        let mut body = json!({"board": "........."});
        body[option] = value.clone();
        let (status, error) = refused(body).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{option}: {value}");
        assert_eq!(
            (error["code"].clone(), error["field"].clone()),
            (json!("invalid_option"), json!(option)),
            "{value}"
        );
    }
    let (_, error) = refused(json!({"tree": [1], "maximizing": "yes"})).await;
    assert_eq!(error["field"], "maximizing");
}

#[tokio::test]
async fn bad_boards_get_messages_a_front_end_developer_understands() {
    let cases = [
        (json!("XO..X..."), "invalid_board", "board", "9 characters"),
        (json!("XO..X...Z"), "invalid_board", "board", "not a cell"),
        (json!(["X", "O", "?", "", "", "", "", "", ""]), "invalid_board", "board[2]", "not a cell"),
        (json!([["X", "O"], ["", "", ""], ["", "", ""]]), "invalid_board", "board[0]", "3 cells"),
        (json!(42), "invalid_board", "board", "not a number"),
        (
            json!("XXXXX.OO."),
            "impossible_position",
            "board",
            "X has 5 stones and O has 2: the counts may differ by at most one",
        ),
        (json!("XXXOOO..."), "impossible_position", "board", "both"),
        (json!("XXXOO.O.."), "impossible_position", "board", "three in a row"),
    ];
    for (board, code, field, words) in cases {
        let (status, error) = refused(json!({"board": board})).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{board}");
        assert_eq!((error["code"].as_str(), error["field"].as_str()), (Some(code), Some(field)), "{board}");
        assert!(error["message"].as_str().unwrap().contains(words), "{board}: {error}");
    }
    let (_, error) = refused(json!({"board": "X........", "to_move": "X"})).await;
    assert_eq!((error["code"].clone(), error["field"].clone()), (json!("impossible_position"), json!("to_move")));
}

#[tokio::test]
async fn bad_trees_name_the_path_of_the_bad_node() {
    let cases = [
        (json!([[1, -1], [0, 1.5]]), "invalid_tree", "tree[1][1]"),
        (json!([[1, -1], []]), "invalid_tree", "tree[1]"),
        (json!([[1, -1], ["a"]]), "invalid_tree", "tree[1][0]"),
        (json!({"children": [{"name": "A"}]}), "invalid_tree", "tree.children[0]"),
        (json!({"children": [{"value": 1, "color": "red"}]}), "invalid_tree", "tree.children[0]"),
        (json!({"children": [{"value": "1"}]}), "invalid_tree", "tree.children[0].value"),
    ];
    for (tree, code, field) in cases {
        let (status, error) = refused(json!({"tree": tree})).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{tree}");
        assert_eq!((error["code"].as_str(), error["field"].as_str()), (Some(code), Some(field)), "{tree}: {error}");
    }
    let (_, error) = refused(json!({"tree": [[1, 2], {"value": 3, "children": [4]}], "max_depth": 1})).await;
    assert_eq!((error["code"].clone(), error["field"].clone()), (json!("missing_value"), json!("tree[0]")));
    let deep = post_best_move_raw(format!(r#"{{"tree": {}}}"#, nested_arrays(1001))).await;
    assert_eq!(deep.json()["error"]["code"], "tree_too_deep");
}

#[tokio::test]
async fn malformed_and_undeclared_bodies_get_400_and_415() {
    let malformed = post_best_move_raw(r#"{"tree": [[1, 2], [3,"#).await;
    assert_eq!(malformed.status, StatusCode::BAD_REQUEST);
    assert_eq!(malformed.json()["error"]["code"], "malformed_json");
    let not_utf8 = post_best_move_raw(vec![b'"', 0xff, b'"']).await;
    assert_eq!(not_utf8.status, StatusCode::BAD_REQUEST);
    for content_type in [None, Some("text/plain"), Some("application/x-www-form-urlencoded")] {
        let response = send(Method::POST, "/best-move", content_type, r#"{"board": "........."}"#).await;
        assert_eq!(response.status, StatusCode::UNSUPPORTED_MEDIA_TYPE, "{content_type:?}");
        assert_eq!(response.json()["error"]["code"], "unsupported_media_type");
    }
    let charset =
        send(Method::POST, "/best-move", Some("application/json; charset=utf-8"), r#"{"board": "........."}"#).await;
    assert_eq!(charset.status, StatusCode::OK);
}

#[tokio::test]
async fn a_streamed_body_without_a_length_is_held_to_the_same_limit() {
    use axum::body::Body;
    let chunk = axum::body::Bytes::from("1,".repeat(1024 * 1024));
    let mut chunks: Vec<Result<axum::body::Bytes, std::io::Error>> = vec![Ok(axum::body::Bytes::from(r#"{"tree": ["#))];
    chunks.extend((0..9).map(|_| Ok(chunk.clone())));
    chunks.push(Ok(axum::body::Bytes::from("1]}")));
    let over =
        send(Method::POST, "/best-move", Some("application/json"), Body::from_stream(futures_stream(chunks))).await;
    assert_eq!(over.status, StatusCode::PAYLOAD_TOO_LARGE, "{}", over.text());
    let small: Vec<Result<axum::body::Bytes, std::io::Error>> =
        vec![Ok(axum::body::Bytes::from(r#"{"tree": [3, "#)), Ok(axum::body::Bytes::from("4]}"))];
    let under =
        send(Method::POST, "/best-move", Some("application/json"), Body::from_stream(futures_stream(small))).await;
    assert_eq!(under.status, StatusCode::OK, "{}", under.text());
    assert_eq!(under.json()["best_move"], 1);
}

/// A stream over a list of chunks, without a known length.
fn futures_stream<T: Send + Unpin + 'static>(items: Vec<T>) -> impl futures_core::Stream<Item = T> + Send + 'static {
    struct Chunks<T>(std::collections::VecDeque<T>);
    impl<T: Unpin> futures_core::Stream for Chunks<T> {
        type Item = T;
        fn poll_next(mut self: std::pin::Pin<&mut Self>, _: &mut std::task::Context<'_>) -> std::task::Poll<Option<T>> {
            std::task::Poll::Ready(self.0.pop_front())
        }
    }
    Chunks(items.into())
}

#[tokio::test]
async fn the_answer_names_the_next_side_and_its_moves_so_a_page_needs_no_rules() {
    let a = ok(json!({"board": "XO..X....", "seed": 1})).await;
    assert_eq!((&a["best_move"], &a["to_move_after"]), (&json!(8), &json!("X")), "{a}");
    assert_eq!(a["legal_moves_after"], json!([2, 3, 5, 6, 7]));
    // A move that ends the game leaves no next turn.
    let won = ok(json!({"board": "XX.OO....", "to_move": "X"})).await;
    assert_eq!((&won["best_move"], &won["status_after"]), (&json!(2), &json!("x_won")));
    assert_eq!((&won["to_move_after"], &won["legal_moves_after"]), (&Value::Null, &json!([])));
    let connect4 = ok(json!({"game": "connect4", "moves": "4444445", "time_ms": 200})).await;
    assert_eq!(connect4["to_move_after"], "X", "{connect4}");
    // Column 3 is full.
    let columns = connect4["legal_moves_after"].as_array().unwrap();
    assert!(!columns.contains(&json!(3)) && columns.len() == 6, "{connect4}");
}

//! Connect Four requests: every way a position or its options can be wrong
//! is a 422 with the code, the field at fault and a message that names the
//! problem; no input, however random, gets a 5xx.

use axum::http::StatusCode;
use proptest::prelude::*;
use serde_json::{json, Value};

use crate::helpers::{post_best_move, post_best_move_raw};

/// A 42-move game in which nobody makes four: it ends in a draw.
const DRAWN_GAME: &str = "656173566152215676422337377473141445425321";

/// Sends `body` and checks that it is refused with a 422 of `code`, naming
/// `field` (or no field) and saying `says` in its message.
async fn assert_refused(body: Value, code: &str, field: Option<&str>, says: &str) {
    let response = post_best_move(&body).await;
    assert_eq!(response.status, StatusCode::UNPROCESSABLE_ENTITY, "{body}: {}", response.text());
    let error = &response.json()["error"];
    assert_eq!(error["code"], code, "{body}: {error}");
    match field {
        Some(field) => assert_eq!(error["field"], field, "{body}: {error}"),
        None => assert!(error.get("field").is_none_or(Value::is_null), "{body}: {error}"),
    }
    let message = error["message"].as_str().expect("a message");
    assert!(message.contains(says), "{body}: the message {message:?} does not say {says:?}");
}

fn connect4_board(rows: [&str; 6]) -> Value {
    json!({"game": "connect4", "board": rows})
}

fn connect4_moves(moves: Value) -> Value {
    json!({"game": "connect4", "moves": moves})
}

// ------------------------------------------------------------ the options

#[tokio::test]
async fn a_game_other_than_tictactoe_connect4_othello_or_gomoku_is_an_invalid_option() {
    let says = "game must be \"tictactoe\", \"connect4\", \"othello\" or \"gomoku\"";
    assert_refused(json!({"game": "chess", "board": "........."}), "invalid_option", Some("game"), says).await;
    assert_refused(json!({"game": "Connect4", "moves": "4"}), "invalid_option", Some("game"), says).await;
    assert_refused(json!({"game": 4, "moves": "4"}), "invalid_option", Some("game"), says).await;
}

#[tokio::test]
async fn tictactoe_is_the_default_game_and_can_be_named() {
    let default = post_best_move(&json!({"board": "XO..X....", "seed": 1})).await;
    let named = post_best_move(&json!({"game": "tictactoe", "board": "XO..X....", "seed": 1})).await;
    assert_eq!(default.status, StatusCode::OK, "{}", default.text());
    assert_eq!(named.status, StatusCode::OK, "{}", named.text());
    let strip = |mut answer: Value| {
        for report in ["minimax", "alphabeta", "engine"] {
            answer[report]["elapsed_us"] = Value::Null;
        }
        answer
    };
    assert_eq!(strip(default.json()), strip(named.json()));
}

#[tokio::test]
async fn moves_apply_to_connect4_othello_and_gomoku_only() {
    let says = "moves applies to connect4, othello and gomoku only";
    assert_refused(json!({"moves": "4453"}), "invalid_request", Some("moves"), says).await;
    assert_refused(
        json!({"game": "tictactoe", "moves": [3], "board": "........."}),
        "invalid_request",
        Some("moves"),
        says,
    )
    .await;
}

#[tokio::test]
async fn a_connect4_request_needs_exactly_one_of_moves_or_board() {
    assert_refused(
        json!({"game": "connect4", "moves": "4", "board": [".......", ".......", ".......", ".......", ".......", "...X..."]}),
        "invalid_request",
        None,
        "either \"moves\" or \"board\"",
    )
    .await;
    assert_refused(json!({"game": "connect4"}), "invalid_request", None, "needs \"moves\"").await;
    // null counts as absent.
    assert_refused(json!({"game": "connect4", "moves": null}), "invalid_request", None, "needs \"moves\"").await;
}

#[tokio::test]
async fn options_of_the_other_games_are_refused_with_connect4() {
    for (field, value) in [("tree", json!([1, 2])), ("to_move", json!("O")), ("maximizing", json!(false))] {
        let mut body = connect4_moves(json!("4453"));
        body[field] = value;
        assert_refused(body, "invalid_request", Some(field), &format!("{field} does not apply to connect4")).await;
    }
}

#[tokio::test]
async fn time_ms_is_an_integer_from_1_to_3600000() {
    for time_ms in [json!(0), json!(3_600_001), json!(-5), json!(1.5), json!("fast"), json!(true)] {
        assert_refused(
            json!({"board": "XO..X....", "time_ms": time_ms}),
            "invalid_option",
            Some("time_ms"),
            "time_ms must be an integer number of milliseconds from 1 to 3600000",
        )
        .await;
    }
    let mut body = connect4_moves(json!("4453"));
    body["time_ms"] = json!(0);
    assert_refused(body, "invalid_option", Some("time_ms"), "time_ms must be").await;
    // Every game takes it.
    for body in [json!({"board": "XO..X....", "time_ms": 3_600_000}), json!({"tree": [1, 2], "time_ms": 1})] {
        let response = post_best_move(&body).await;
        assert_eq!(response.status, StatusCode::OK, "{body}: {}", response.text());
    }
}

#[tokio::test]
async fn a_misspelt_moves_key_is_an_unknown_field_with_a_suggestion() {
    assert_refused(
        json!({"game": "connect4", "move": "4453"}),
        "unknown_field",
        Some("move"),
        "did you mean \"moves\"?",
    )
    .await;
}

// ------------------------------------------------------------------ moves

#[tokio::test]
async fn a_column_out_of_range_is_named_by_its_move() {
    let says = "column 7 is out of range: columns are numbered 0 to 6";
    assert_refused(connect4_moves(json!([3, 3, 7])), "invalid_moves", Some("moves[2]"), says).await;
    assert_refused(connect4_moves(json!([-1])), "invalid_moves", Some("moves[0]"), "column -1 is out of range").await;
    assert_refused(connect4_moves(json!([3, 1e3])), "invalid_moves", Some("moves[1]"), "1000.0 is not a column").await;
    assert_refused(connect4_moves(json!([3, "4"])), "invalid_moves", Some("moves[1]"), "\"4\" is not a column").await;
    for (digits, field, character) in
        [("4458", "moves[3]", "'8'"), ("0", "moves[0]", "'0'"), ("44 5", "moves[2]", "' '")]
    {
        let says = format!("character {character} is not a column");
        assert_refused(connect4_moves(json!(digits)), "invalid_moves", Some(field), &says).await;
    }
}

#[tokio::test]
async fn a_move_into_a_full_column_is_named_by_its_move() {
    assert_refused(connect4_moves(json!([2, 2, 2, 2, 2, 2, 2])), "invalid_moves", Some("moves[6]"), "column 2 is full")
        .await;
    assert_refused(
        connect4_moves(json!("4444444")),
        "invalid_moves",
        Some("moves[6]"),
        "column 4 (counting from 1), which is full",
    )
    .await;
}

#[tokio::test]
async fn a_move_after_the_game_ended_is_named_by_its_move() {
    // X's four goes up column 1 with move 6; move 7 comes too late.
    assert_refused(
        connect4_moves(json!("12121212")),
        "invalid_moves",
        Some("moves[7]"),
        "the game is over: X made four in a row (board[2][0], board[3][0], board[4][0], board[5][0]) with moves[6]",
    )
    .await;
    assert_refused(
        connect4_moves(json!([0, 1, 0, 1, 0, 1, 0, 1])),
        "invalid_moves",
        Some("moves[7]"),
        "the game is over",
    )
    .await;
    assert_refused(
        connect4_moves(json!(format!("{DRAWN_GAME}1"))),
        "invalid_moves",
        Some("moves[42]"),
        "the game is over: moves[41] filled the board, a draw",
    )
    .await;
}

#[tokio::test]
async fn moves_of_the_wrong_type_are_refused_as_a_whole() {
    for moves in [json!(4453), json!({"0": 3}), json!(true)] {
        assert_refused(connect4_moves(moves), "invalid_moves", Some("moves"), "moves is a string of digits 1 to 7")
            .await;
    }
    let deep = format!(r#"{{"game": "connect4", "moves": {}3{}}}"#, "[".repeat(200), "]".repeat(200));
    let response = post_best_move_raw(deep).await;
    assert_eq!(response.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", response.text());
    assert_eq!(response.json()["error"]["code"], "invalid_moves");
    assert_eq!(response.json()["error"]["field"], "moves");
}

// ------------------------------------------------------------------ boards

#[tokio::test]
async fn a_board_of_the_wrong_shape_names_the_part_at_fault() {
    let cases = [
        (json!("XO..X...."), "board", "6 rows of 7 cells, top row first"),
        (json!([".......", ".......", ".......", ".......", "......."]), "board", "this one has 5 rows"),
        (json!([".......", ".......", "........", ".......", ".......", "......."]), "board[2]", "this one has 8"),
        (json!([".......", ".......", ".......", ".......", ".......", ["X", "O"]]), "board[5]", "this one has 2"),
        (json!([".......", null, ".......", ".......", ".......", "......."]), "board[1]", "not null"),
        (json!([".......", ".......", ".......", ".......", ".......", "..#...."]), "board[5][2]", "'#' is not a cell"),
        (
            json!([".......", ".......", ".......", ".......", ".......", [".", ".", ".", "XX", ".", ".", "."]]),
            "board[5][3]",
            "\"XX\" is not a cell",
        ),
    ];
    for (board, field, says) in cases {
        assert_refused(json!({"game": "connect4", "board": board}), "invalid_board", Some(field), says).await;
    }
}

#[tokio::test]
async fn a_floating_stone_is_named_by_its_cell() {
    assert_refused(
        connect4_board([".......", ".......", "...X...", ".......", "...O...", "..OXX.."]),
        "invalid_board",
        Some("board[2][3]"),
        "a stone cannot float above an empty cell: board[3][3] below it is empty",
    )
    .await;
}

#[tokio::test]
async fn stone_counts_no_game_produces_are_impossible() {
    assert_refused(
        connect4_board([".......", ".......", ".......", ".......", ".......", "XX....."]),
        "impossible_position",
        Some("board"),
        "X has 2 stones and O has 0",
    )
    .await;
    assert_refused(
        connect4_board([".......", ".......", ".......", ".......", "O......", "OX....."]),
        "impossible_position",
        Some("board"),
        "X has 1 stone and O has 2",
    )
    .await;
}

#[tokio::test]
async fn both_sides_with_four_is_impossible() {
    assert_refused(
        connect4_board([".......", ".......", "X.....O", "X.....O", "X.....O", "X.....O"]),
        "impossible_position",
        Some("board"),
        "X and O both have four in a row",
    )
    .await;
}

#[tokio::test]
async fn a_four_of_the_side_that_did_not_move_last_is_impossible() {
    assert_refused(
        connect4_board([".......", ".......", ".......", ".......", "OOO....", "XXXXO.."]),
        "impossible_position",
        Some("board"),
        "X has four in a row (board[5][0], board[5][1], board[5][2], board[5][3]), but O moved after it",
    )
    .await;
}

#[tokio::test]
async fn fours_no_last_move_could_have_completed_are_impossible() {
    // Two fours of X that share no stone.
    assert_refused(
        connect4_board([".......", ".......", "X.....X", "XOO...X", "XOOO..X", "XOOXO.X"]),
        "impossible_position",
        Some("board"),
        "X has fours in a row that share no stone",
    )
    .await;
    // A four under other stones.
    assert_refused(
        connect4_board([".......", ".......", ".......", ".......", "OOXO...", "XXXXOOX"]),
        "impossible_position",
        Some("board"),
        "was complete before the last move: each of its stones has a stone above it",
    )
    .await;
}

#[tokio::test]
async fn a_board_no_order_of_moves_stacks_is_impossible() {
    assert_refused(
        connect4_board([".......", ".......", ".......", ".X.....", ".O.....", "XO....."]),
        "impossible_position",
        Some("board"),
        "no game produces this board",
    )
    .await;
}

// ------------------------------------------------------------ valid input

/// A valid position gets past validation: not a 4xx. (The answer itself
/// is checked where the search is.)
async fn assert_accepted(mut body: Value) {
    // A short budget: early positions are not solved without the book.
    if body.get("time_ms").is_none() {
        body["time_ms"] = json!(100);
    }
    let response = post_best_move(&body).await;
    assert_eq!(response.status, StatusCode::OK, "{body}: {}", response.text());
    let answer = response.json();
    assert_eq!(answer["kind"], "connect4");
    // Every legal column is listed, and the move played is one of them.
    let columns: Vec<&Value> = answer["moves"].as_array().unwrap().iter().map(|m| &m["move"]).collect();
    if answer["status"] == "in_progress" {
        assert!(columns.contains(&&answer["best_move"]), "{answer}");
    } else {
        assert!(columns.is_empty() && answer["best_move"].is_null(), "{answer}");
    }
}

#[tokio::test]
async fn valid_moves_and_boards_get_past_validation() {
    for body in [
        connect4_moves(json!("4453")),
        connect4_moves(json!([3, 3, 4, 2])),
        connect4_moves(json!("")),
        connect4_moves(json!([])),
        connect4_moves(json!("1212121")),
        connect4_moves(json!(DRAWN_GAME)),
        connect4_board([".......", ".......", ".......", ".......", "...O...", "..OXX.."]),
        connect4_board([".......", ".......", ".......", ".......", "OOO....", "XXXX..."]),
        json!({"game": "connect4", "board": [".......", ".......", ".......", ".......", [null, "", " ", "o", "-", "_", "."], "..oXx.."], "time_ms": 50, "max_depth": 4}),
    ] {
        assert_accepted(body).await;
    }
}

// --------------------------------------------------------------- robustness

fn check(mut body: Value, codes: &[&str]) -> Result<(), TestCaseError> {
    // A short budget: early positions are not solved without the book.
    body["time_ms"] = json!(20);
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let response = runtime.block_on(post_best_move(&body));
    let status = response.status;
    let json: Value = serde_json::from_slice(&response.body).map_err(|e| TestCaseError::fail(e.to_string()))?;
    prop_assert!(status.is_success() || status.is_client_error(), "{} for {}", status, body);
    if status.is_client_error() {
        let code = json["error"]["code"].as_str().unwrap_or_default();
        prop_assert!(codes.contains(&code), "{} for {}: {}", code, body, json);
        prop_assert!(json["error"]["message"].is_string() && json["error"]["field"].is_string(), "{}", json);
    }
    Ok(())
}

/// A board's row: usually 7 cells of X, O and ., sometimes something else.
fn arb_row() -> impl Strategy<Value = Value> {
    prop_oneof![
        8 => "[XO.]{7}".prop_map(Value::from),
        1 => "[XOxo. _#-]{5,8}".prop_map(Value::from),
        1 => prop::collection::vec(prop_oneof![Just(json!("X")), Just(json!("O")), Just(Value::Null), Just(json!(1))], 6..=8)
            .prop_map(Value::from),
    ]
}

/// A board: gravity is respected most of the time, so that the rules past
/// the shape are reached.
fn arb_board() -> impl Strategy<Value = Value> {
    prop_oneof![
        (prop::collection::vec((0u8..=6, 0u8..=2), 0..42)).prop_map(|drops| {
            let mut rows = vec![vec!['.'; 7]; 6];
            let mut heights = [0usize; 7];
            for (column, colour) in drops {
                let column = usize::from(column);
                if heights[column] < 6 {
                    rows[5 - heights[column]][column] = if colour == 0 { 'O' } else { 'X' };
                    heights[column] += 1;
                }
            }
            Value::from(rows.into_iter().map(String::from_iter).collect::<Vec<_>>())
        }),
        prop::collection::vec(arb_row(), 5..=7).prop_map(Value::from),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn random_column_sequences_get_a_2xx_or_a_4xx_naming_a_move(columns in prop::collection::vec(-2i64..9, 0..50)) {
        check(connect4_moves(json!(columns)), &["invalid_moves"])?;
    }

    #[test]
    fn random_move_strings_get_a_2xx_or_a_4xx_naming_a_move(digits in "[1-7]{0,45}|[0-9a ]{0,12}") {
        check(connect4_moves(json!(digits)), &["invalid_moves"])?;
    }

    #[test]
    fn random_boards_get_a_2xx_or_a_4xx_naming_the_board(board in arb_board()) {
        check(json!({"game": "connect4", "board": board}), &["invalid_board", "impossible_position"])?;
    }
}

#[tokio::test]
async fn max_depth_limits_all_three_searches_alike() {
    let response = post_best_move(&json!({"game": "connect4", "moves": "4453", "max_depth": 3, "seed": 1})).await;
    assert_eq!(response.status, StatusCode::OK, "{}", response.text());
    let answer = response.json();
    for search in ["minimax", "alphabeta", "engine"] {
        assert_eq!(answer[search]["depth"], 3, "{search}: {answer}");
        assert_eq!(answer[search]["score"], answer["minimax"]["score"], "{search}: {answer}");
    }
    assert_eq!(answer["exact"], false);
    assert_eq!(answer["max_depth"], 3);
}

/// `{"game": "connect4", field: raw}` as raw text, so that it can hold JSON
/// that `serde_json::Value` cannot (a number past a double, a lone
/// surrogate).
async fn assert_raw_refused(field: &str, raw: &str, code: &str, at: &str, says: &str) {
    let response = post_best_move_raw(format!(r#"{{"game": "connect4", "{field}": {raw}}}"#)).await;
    assert_eq!(response.status, StatusCode::UNPROCESSABLE_ENTITY, "{raw}: {}", response.text());
    let error = &response.json()["error"];
    assert_eq!((error["code"].as_str(), error["field"].as_str()), (Some(code), Some(at)), "{raw}: {error}");
    let message = error["message"].as_str().expect("a message");
    assert!(message.contains(says) && !message.contains("nested"), "{raw}: {message:?} does not say {says:?}");
}

#[tokio::test]
async fn unreadable_numbers_and_lone_surrogates_are_named_as_such() {
    let number = "a number that cannot be read";
    assert_raw_refused("moves", "[1e400]", "invalid_moves", "moves[0]", number).await;
    assert_raw_refused("moves", "[3, 3, -1e999]", "invalid_moves", "moves[2]", number).await;
    assert_raw_refused("moves", "1e400", "invalid_moves", "moves", "not a number (1e400)").await;
    let unicode = "invalid Unicode";
    assert_raw_refused("moves", r#""44\ud800""#, "invalid_moves", "moves", unicode).await;
    assert_raw_refused("moves", r#"["\udfff"]"#, "invalid_moves", "moves[0]", unicode).await;
    assert_raw_refused("board", r#"[".......", "\ud800"]"#, "invalid_board", "board[1]", unicode).await;
    assert_raw_refused("board", r#"[[".", "\ud800"]]"#, "invalid_board", "board[0][1]", unicode).await;
}

#[tokio::test]
async fn arrays_and_strings_far_past_a_position_are_refused_while_they_are_read() {
    let too_large = "too large to be part of a position";
    let zeros = format!("[{}0]", "0,".repeat(1_000_000));
    assert_raw_refused("moves", &zeros, "invalid_moves", "moves", too_large).await;
    let dots = format!("[[{}\".\"]]", "\".\",".repeat(1_000_000));
    assert_raw_refused("board", &dots, "invalid_board", "board[0]", too_large).await;
    let digits = format!("\"{}\"", "4".repeat(1_000_000));
    assert_raw_refused("moves", &digits, "invalid_moves", "moves", too_large).await;
    // Nested arrays of a few items each, many in all.
    let nested = format!("[{}[]]", "[[0,0,0,0],[0,0,0,0]],".repeat(60));
    assert_raw_refused("moves", &nested, "invalid_moves", "moves[46][0][3]", "more than 512 values").await;
    // Just past a game's length, the move at fault is still named.
    assert_raw_refused(
        "moves",
        &format!("{:?}", format!("{DRAWN_GAME}1")),
        "invalid_moves",
        "moves[42]",
        "the game is over",
    )
    .await;
}

// ------------------------------------------- the game after the move, as sent

/// The 200 answer to `body`.
async fn answered(body: &Value) -> Value {
    let response = post_best_move(body).await;
    assert_eq!(response.status, StatusCode::OK, "{body}: {}", response.text());
    response.json()
}

#[tokio::test]
async fn a_digit_string_gets_the_game_after_the_move_as_a_digit_string() {
    for moves in ["", "4453", "612313147626667357672244337327"] {
        let a = answered(&json!({"game": "connect4", "moves": moves, "seed": 4})).await;
        let best = a["best_move"].as_u64().expect("a move");
        let expected = format!("{moves}{}", best + 1);
        assert_eq!(a["moves_after"], expected, "{moves:?}: {a}");
        // The string is a game the service reads back: the other side to move.
        let next = answered(&json!({"game": "connect4", "moves": expected, "max_depth": 1})).await;
        assert_ne!(next["to_move"], a["to_move"], "{next}");
    }
}

#[tokio::test]
async fn an_array_of_columns_gets_the_game_after_the_move_as_an_array() {
    for moves in [json!([]), json!([3, 3, 4, 2])] {
        let a = answered(&json!({"game": "connect4", "moves": moves, "max_depth": 2, "seed": 4})).await;
        let mut expected = moves.as_array().unwrap().clone();
        expected.push(a["best_move"].clone());
        assert_eq!(a["moves_after"], Value::Array(expected), "{moves}: {a}");
    }
}

#[tokio::test]
async fn the_game_after_a_random_move_ends_with_that_move() {
    let a = answered(&json!({"game": "connect4", "moves": "4453", "max_depth": 2, "mistake": 1, "seed": 11})).await;
    assert_eq!(a["random_move"], true, "{a}");
    assert_eq!(a["moves_after"], format!("4453{}", a["best_move"].as_u64().unwrap() + 1), "{a}");
}

#[tokio::test]
async fn a_board_or_a_finished_game_has_no_game_after_the_move() {
    let board = [".......", ".......", ".......", ".......", "...O...", "..XXO.."];
    let a = answered(&connect4_board(board)).await;
    assert!(a["best_move"].is_u64(), "{a}");
    assert_eq!(a.get("moves_after"), Some(&Value::Null), "{a}");

    let a = answered(&connect4_moves(json!(DRAWN_GAME))).await;
    assert_eq!((&a["best_move"], &a["status"]), (&Value::Null, &json!("draw")), "{a}");
    assert_eq!(a.get("moves_after"), Some(&Value::Null), "{a}");
}

#[tokio::test]
async fn tictactoe_and_tree_answers_have_no_moves_after() {
    for body in [json!({"board": "XO..X...."}), json!({"tree": [1, 2]})] {
        let a = answered(&body).await;
        assert!(a.get("moves_after").is_none(), "{body}: {a}");
    }
}

// ------------------------------------------------------ the built-in book

/// The README's Connect Four example, answered by a service with the
/// default settings and no environment: the book built into the binary
/// solves it, every column with its exact score.
#[tokio::test]
async fn the_readme_example_is_exact_with_the_default_settings() {
    use axum::body::Body;
    use axum::http::{header, Request};
    use http_body_util::BodyExt;
    use tower::ServiceExt;

    let config = bestmove::config::Config::default();
    assert_eq!(config.opening_book, None);
    let book = bestmove::games::connect4::load_book(config.opening_book.as_deref()).expect("the built-in book");
    assert!(book.is_some(), "no setting means the built-in book");
    let app = bestmove::api::app(config);
    let request = Request::post("/best-move")
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(json!({"game": "connect4", "moves": "4455"}).to_string()))
        .expect("a request");
    let response = app.oneshot(request).await.expect("an answer");
    assert_eq!(response.status(), StatusCode::OK);
    let body = response.into_body().collect().await.expect("a body").to_bytes();
    let answer: Value = serde_json::from_slice(&body).expect("JSON");
    assert_eq!(answer["exact"], true, "{answer}");
    let moves = answer["moves"].as_array().expect("every column");
    assert_eq!(moves.len(), 7, "{answer}");
    assert!(moves.iter().all(|m| m["score"].is_i64()), "{answer}");
    // After 4455 the first player wins in 3 plies, first by column 2
    // (an open three on the bottom row).
    assert_eq!(
        (&answer["best_move"], &answer["score"], &answer["engine"]["plies_to_end"]),
        (&json!(2), &json!(1), &json!(3)),
        "{answer}"
    );
}

#[test]
fn the_book_setting_turns_the_book_off_or_names_a_file() {
    use std::path::Path;
    assert!(bestmove::games::connect4::load_book(Some(Path::new("none"))).expect("no book").is_none());
    let error =
        bestmove::games::connect4::load_book(Some(Path::new("/nonexistent/book.dat"))).expect_err("no such file");
    assert!(error.to_string().contains("cannot read the opening book"), "{error}");
}

/// At 12 stones the book gives the position's own score but no column's:
/// the engine has to prove a column reaches it, which can take longer than
/// a small budget. docs/api.md states what an answer cut by its budget
/// then promises: when `moves[best_move]` is exact with the book's score,
/// `best_move` is a best column; a column proven to fall short of it is
/// never played. Checked at the budgets front ends send (5 to 300 ms) on
/// positions where a cut answer used to play a worse column.
#[tokio::test]
async fn at_12_stones_a_budget_cut_answer_marks_its_move_proven_only_when_it_is_a_best_move() {
    use axum::body::Body;
    use axum::http::{header, Request};
    use bestmove::games::connect4::{Book, Connect4};
    use bestmove::search::Game;
    use http_body_util::BodyExt;
    use tower::ServiceExt;

    let book = Book::embedded().expect("the built-in book");
    // The best columns (0 to 6) by a full solve (tests/connect4.rs holds the
    // engine to the same): only 5 wins the first; 3 is the only column that
    // loses the second.
    let positions: [(&str, &[u64]); 2] = [("444447322226", &[5]), ("763232333661", &[0, 1, 2, 4, 5, 6])];
    let scores: Vec<(i64, u32)> = positions
        .iter()
        .map(|(moves, _)| {
            let root = moves.bytes().fold(Connect4::from_bitboards(0, 0), |p, c| p.play(c - b'1'));
            book.probe(&root).expect("a 12-stone position the book lists")
        })
        .collect();
    let app = bestmove::api::app(bestmove::config::Config::default());
    for ((moves, best), (value, plies)) in positions.into_iter().zip(scores) {
        for time_ms in [5, 10, 50, 300] {
            let body = json!({"game": "connect4", "moves": moves, "compare": false, "time_ms": time_ms});
            let request = Request::post("/best-move")
                .header(header::CONTENT_TYPE, "application/json")
                .body(Body::from(body.to_string()))
                .expect("a request");
            let response = app.clone().oneshot(request).await.expect("an answer");
            assert_eq!(response.status(), StatusCode::OK, "{body}");
            let bytes = response.into_body().collect().await.expect("a body").to_bytes();
            let answer: Value = serde_json::from_slice(&bytes).expect("JSON");
            let played = answer["best_move"].as_u64().expect("a move");
            let entry = answer["moves"]
                .as_array()
                .expect("the columns")
                .iter()
                .find(|m| m["move"] == played)
                .unwrap_or_else(|| panic!("{moves} at {time_ms} ms: the move is not listed: {answer}"));
            let exact = entry["exact"] == true;
            let reaches_book = entry["score"] == value && entry["plies_to_end"] == plies;
            if (exact && entry["score"] == answer["score"]) || answer["exact"] == true {
                assert!(
                    best.contains(&played),
                    "{moves} at {time_ms} ms: column index {played} marked proven: {answer}"
                );
                assert!(reaches_book, "{moves} at {time_ms} ms: proven, but not with the book's score: {answer}");
            }
            // A column proven to fall short of the book's score is never played.
            assert!(!exact || reaches_book, "{moves} at {time_ms} ms: column index {played} is proven worse: {answer}");
        }
    }
}

#[tokio::test]
async fn one_column_asked_is_the_best_one_proven_alone() {
    // Positions from the reference file, each column's exact score known:
    // "max_moves": 1 lists the best column alone, proven with its score.
    let positions = ["612313147626667357672244337327", "4371215374471457214511554736325"];
    for moves in positions {
        let body = json!({"game": "connect4", "moves": moves, "compare": false, "time_ms": 20000, "seed": 1});
        let every = crate::helpers::post_best_move(&body).await.json();
        let mut one = body.clone();
        one["max_moves"] = json!(1);
        let best = crate::helpers::post_best_move(&one).await.json();
        assert_eq!((&best["exact"], &best["score"]), (&json!(true), &every["score"]), "{best}");
        let listed = best["moves"].as_array().unwrap();
        assert_eq!(listed.len(), 1, "{best}");
        assert_eq!((&listed[0]["move"], &listed[0]["exact"]), (&best["best_move"], &json!(true)), "{best}");
        let column = every["moves"].as_array().unwrap().iter().find(|m| m["move"] == best["best_move"]).unwrap();
        assert_eq!(column["score"], every["score"], "a best column: {best}\n{every}");
        assert_eq!(best["moves_total"], every["moves_total"]);
    }
}

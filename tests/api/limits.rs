//! What bounds a request: the size of its answer, the time its body may
//! take, and the edge cases of reading it.

use std::collections::BTreeSet;

use axum::http::StatusCode;
use serde_json::{json, Value};

use crate::helpers::{post_best_move, post_best_move_raw};

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
    for (board, words) in [
        ("1e400", "not a number (1e400)"),
        ("-1e400", "not a number"),
        (r#"["X", 1e400, "", "", "", "", "", "", ""]"#, "a number that cannot be read"),
    ] {
        let response = post_best_move_raw(format!(r#"{{"board": {board}}}"#)).await;
        assert_eq!(response.status, StatusCode::UNPROCESSABLE_ENTITY, "{board}");
        let error = response.json()["error"].clone();
        assert_eq!((error["code"].as_str(), error["field"].as_str()), (Some("invalid_board"), Some("board")));
        let message = error["message"].as_str().unwrap();
        assert!(message.contains(words) && !message.contains("nested"), "{board}: {message}");
    }
    let nested = format!(r#"{{"board": {}"X"{}}}"#, "[".repeat(200), "]".repeat(200));
    let error = post_best_move_raw(nested).await.json()["error"].clone();
    assert!(error["message"].as_str().unwrap().contains("nested far too deeply"), "{error}");
}

//! `level`: difficulty 1 to 10 for every game, its validation, and the
//! seeded, human-like choice it makes.

use axum::http::StatusCode;
use serde_json::{json, Value};

use crate::helpers::post_best_move;

async fn answer(body: Value) -> Value {
    let response = post_best_move(&body).await;
    assert_eq!(response.status, StatusCode::OK, "{body}: {}", response.text());
    response.json()
}

async fn refused(body: Value, says: &str) {
    let response = post_best_move(&body).await;
    assert_eq!(response.status, StatusCode::UNPROCESSABLE_ENTITY, "{body}: {}", response.text());
    let error = &response.json()["error"];
    assert_eq!((&error["code"], &error["field"]), (&json!("invalid_option"), &json!("level")), "{body}: {error}");
    let message = error["message"].as_str().unwrap();
    assert!(message.contains(says), "{body}: {message:?} does not say {says:?}");
}

#[tokio::test]
async fn a_level_outside_1_to_10_or_with_max_depth_or_mistake_is_refused_with_the_rule() {
    for level in [json!(0), json!(11), json!(-1), json!(2.5), json!("5"), json!(true)] {
        let body = json!({"board": ".........", "level": level});
        let response = post_best_move(&body).await;
        assert_eq!(response.status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
        assert_eq!(response.json()["error"]["field"], "level", "{body}");
    }
    refused(json!({"board": ".........", "level": 11}), "from 1 (weakest) to 10 (full strength)").await;
    refused(json!({"game": "connect4", "moves": "44", "level": 3, "max_depth": 4}), "without max_depth").await;
    refused(json!({"board": ".........", "level": 3, "mistake": 0.1}), "without mistake").await;
    // null counts as absent.
    let ok = answer(json!({"board": ".........", "level": 3, "mistake": null, "max_depth": null, "seed": 1})).await;
    assert_eq!(ok["level"], 3);
}

#[tokio::test]
async fn level_10_is_full_strength_and_the_answer_echoes_the_level() {
    for body in [
        json!({"board": "XO..X....", "seed": 5}),
        json!({"game": "connect4", "moves": "4455", "seed": 5}),
        json!({"tree": [[5, -2, -1], [1, -5, 6], [5, 8, 4]], "seed": 5}),
    ] {
        let plain = answer(body.clone()).await;
        let mut leveled = body.clone();
        leveled["level"] = json!(10);
        let leveled = answer(leveled).await;
        assert_eq!(leveled["level"], 10);
        assert_eq!(plain["level"], Value::Null);
        for field in ["best_move", "score", "best_move_score", "random_move", "max_depth"] {
            assert_eq!(leveled[field], plain[field], "{field}: {body}");
        }
    }
}

#[tokio::test]
async fn a_level_sets_the_depth_of_its_game() {
    for level in 1..=10u8 {
        let c4 = answer(json!({"game": "connect4", "moves": "4", "level": level, "seed": 1, "compare": false})).await;
        let expected = bestmove::games::connect4::style(level).max_depth;
        assert_eq!(c4["max_depth"], json!(expected), "level {level}");
        let ttt = answer(json!({"board": ".........", "level": level, "seed": 1})).await;
        assert_eq!(ttt["max_depth"], json!(bestmove::games::tictactoe::style(level).max_depth), "level {level}");
    }
}

#[tokio::test]
async fn a_seed_repeats_a_weak_levels_choice_and_its_mistakes_are_reported() {
    // O to move loses whatever it does; level 1 chooses among the moves.
    let body = |seed: u64| json!({"board": "XO..X....", "level": 1, "seed": seed});
    let mut played = std::collections::BTreeSet::new();
    for seed in 0..40 {
        let first = answer(body(seed)).await;
        let again = answer(body(seed)).await;
        assert_eq!(first["best_move"], again["best_move"], "seed {seed}");
        played.insert(first["best_move"].as_u64().unwrap());
        // The played move's own score, and the best one's.
        let mv = first["best_move"].as_u64().unwrap();
        let listed = first["moves"].as_array().unwrap().iter().find(|m| m["move"] == mv).unwrap();
        assert_eq!(first["best_move_score"], listed["score"]);
        // Marked when it is worse than the best: a lower score, or the same
        // win or loss at another distance.
        let worse = listed["score"] != first["score"] || listed["plies_to_end"] != first["plies_to_end"];
        assert_eq!(first["random_move"], json!(worse), "{first}");
    }
    assert!(played.len() >= 3, "level 1 varies its moves: {played:?}");
    // Level 9 in Connect Four, depth 10: a win in one is always taken.
    for seed in 0..10 {
        let won =
            answer(json!({"game": "connect4", "moves": "445566", "level": 9, "seed": seed, "compare": false})).await;
        assert!(won["best_move"] == 2 || won["best_move"] == 6, "{won}");
    }
}

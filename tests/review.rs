//! Game review checked exhaustively on tic-tac-toe: every move of every
//! reachable position judged by the review, against the game solved here
//! by a plain negamax of its own.

use std::collections::HashMap;
use std::sync::atomic::AtomicBool;

use bestmove::games::tictactoe::{Position, Status};
use bestmove::suggest::review::{review, Played, PlayedGame, ReviewRequest, Scale};
use bestmove::suggest::{Context, MoveId, TablePool};

/// The value of a position for the side to move: the outcome (+1, 0, -1)
/// and the plies to the end of best play (the quickest win, the slowest
/// loss).
fn solve(position: &Position, memo: &mut HashMap<String, (i64, u64)>) -> (i64, u64) {
    let key = format!("{position}{:?}", position.to_move());
    if let Some(&value) = memo.get(&key) {
        return value;
    }
    let value = match position.status() {
        // The side that just moved made three in a row.
        Status::Won(..) => (-1, 0),
        Status::Draw => (0, 0),
        Status::InProgress => position
            .legal_moves()
            .into_iter()
            .map(|cell| after(position, cell, memo))
            .max_by_key(|&value| rank(value))
            .unwrap(),
    };
    memo.insert(key, value);
    value
}

/// The value of `cell` for the side that plays it.
fn after(position: &Position, cell: u8, memo: &mut HashMap<String, (i64, u64)>) -> (i64, u64) {
    let (outcome, plies) = solve(&position.play(cell).unwrap(), memo);
    (-outcome, plies + 1)
}

/// Better values rank higher: a quicker win, a slower loss.
fn rank((outcome, plies): (i64, u64)) -> i64 {
    match outcome {
        1 => 100 - plies as i64,
        -1 => plies as i64 - 100,
        _ => 0,
    }
}

fn reachable(position: Position, seen: &mut HashMap<String, Position>) {
    let key = format!("{position}{:?}", position.to_move());
    if seen.insert(key, position).is_some() || position.status() != Status::InProgress {
        return;
    }
    for cell in position.legal_moves() {
        reachable(position.play(cell).unwrap(), seen);
    }
}

#[test]
fn every_move_of_every_tic_tac_toe_position_is_judged_as_the_solved_game_says() {
    let mut positions = HashMap::new();
    reachable(Position::EMPTY, &mut positions);
    let mut memo = HashMap::new();
    let tables = TablePool::new(1 << 16, 1);
    let context = Context {
        tables: &tables,
        max_search_ms: 10_000,
        compare_max_nodes: 0,
        deadline: None,
        watched: false,
        compare: false,
        shared_table: None,
        equal_depths: true,
    };
    let scale = Scale { points_per_unit: None, chance_slope: 0.01, distance_counts: true, good_margin: 0 };
    let (mut judged, mut counts) = (0, HashMap::new());
    for position in positions.values().filter(|p| p.status() == Status::InProgress) {
        let values: Vec<(u8, (i64, u64))> =
            position.legal_moves().into_iter().map(|cell| (cell, after(position, cell, &mut memo))).collect();
        let best = values.iter().map(|&(_, v)| rank(v)).max().unwrap();
        let best_value = values.iter().find(|&&(_, v)| rank(v) == best).unwrap().1;
        let best_moves: Vec<u8> = values.iter().filter(|&&(_, v)| rank(v) == best).map(|&(c, _)| c).collect();
        for &(cell, played) in &values {
            let game = PlayedGame {
                game: "tictactoe",
                plies: vec![Played {
                    notation: cell.into(),
                    name: MoveId::Index(u64::from(cell)),
                    index: 0,
                    mover: position.to_move().as_str(),
                    before: Box::new(*position),
                    after: None,
                }],
                scale,
            };
            let request = ReviewRequest { game, time_ms: 10_000 };
            let reviewed = review(&request, &context, 0, &|| None, &AtomicBool::new(false), &|_| {}).unwrap();
            let ply = &reviewed.plies[0];
            let expected = match best_value.0 - played.0 {
                0 if rank(played) == best => "best",
                0 => "good",
                1 => "mistake",
                _ => "blunder",
            };
            let context = format!("{position} {:?}, cell {cell}: {ply:?}", position.to_move());
            assert_eq!(ply.judgement, Some(expected), "{context}");
            assert!(ply.exact && ply.proven, "{context}");
            assert_eq!(ply.played_score, Some(played.0.into()), "{context}");
            assert_eq!(ply.best_score, Some(best_value.0.into()), "{context}");
            assert_eq!(ply.played_plies_to_end, Some(played.1), "{context}");
            assert_eq!(ply.best_plies_to_end, Some(best_value.1), "{context}");
            let listed: Vec<u8> = ply.best_moves.iter().map(|m| m.as_u64().unwrap() as u8).collect();
            assert_eq!(listed, best_moves, "{context}");
            assert_eq!(reviewed.turning_points.len(), usize::from(matches!(expected, "mistake" | "blunder")));
            judged += 1;
            *counts.entry(expected).or_insert(0) += 1;
        }
    }
    // 4,520 positions with a move to make, 16,167 moves.
    assert_eq!(judged, 16_167, "{counts:?}");
    assert!(counts.len() == 4, "every judgement occurs: {counts:?}");
}

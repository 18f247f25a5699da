//! Solves a tic-tac-toe position with both searches and prints what each
//! found, then picks a move the way the service does: best play, ties broken
//! at random from a seed, or now and then a deliberate mistake.
//!
//! `cargo run --example solve_board -- XO..X....` (default features not needed).

use bestmove::games::tictactoe::Position;
use bestmove::search::fastrand::Rng;
use bestmove::search::{alpha_beta, choose, minimax, Limits, TieBreak};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let board = std::env::args().nth(1).unwrap_or_else(|| "XO..X....".to_string());
    let position = Position::parse(&board, None)?;
    let game = position.game();

    let plain = minimax(&game, Limits::default())?;
    let pruned = alpha_beta(&game, Limits::default())?;
    println!("{board}: {} to move, {:?}", position.to_move(), position.status());
    println!(
        "minimax:    move {:?}, score {:+}, line {:?}, {} positions",
        plain.best_move,
        plain.score.value(),
        plain.principal_variation,
        plain.nodes
    );
    println!(
        "alpha-beta: move {:?}, score {:+}, line {:?}, {} positions",
        pruned.best_move,
        pruned.score.value(),
        pruned.principal_variation,
        pruned.nodes
    );
    for root in &plain.root_moves {
        println!("  cell {}: score {:+}, game over after {} plies", root.mv, root.score.value(), root.plies);
    }

    // The same seed always gives the same choice.
    let mut rng = Rng::with_seed(42);
    if let Some(choice) = choose(&plain.root_moves, TieBreak::Random, 0.25, &mut rng) {
        let kind = if choice.random_move { "a random move (mistake)" } else { "a best move" };
        println!("seed 42, random tie-break, 25% mistakes: cell {}, {kind}", choice.mv);
    }

    // A depth limit: lines are cut after 2 plies and scored by the game's
    // static evaluation (0 for an undecided board), so the result is inexact.
    let shallow = minimax(&game, Limits { max_depth: Some(2), ..Limits::default() })?;
    println!("max_depth 2: move {:?}, score {:+}, exact {}", shallow.best_move, shallow.score.value(), shallow.exact);
    Ok(())
}

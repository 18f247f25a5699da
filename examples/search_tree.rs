//! Searches a game tree written in JSON: names, a minimizing root, and a
//! depth limit scored by the inner nodes' own values.
//!
//! `cargo run --example search_tree` (default features not needed).

use bestmove::games::tree::{Tree, TreeLimits};
use bestmove::search::{alpha_beta, minimax, Limits};

const TREE: &str = r#"{
  "children": [
    {"name": "attack",  "value": 2, "children": [5, {"value": -1, "children": [-3, 8]}]},
    {"name": "defend",  "value": 1, "children": [1, 2]},
    {"name": "wait", "children": [{"value": 1, "children": [0, 4]}, 3]}
  ]
}"#;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let tree = Tree::parse(TREE, TreeLimits::default())?;
    println!("{} nodes, {} levels deep", tree.len(), tree.depth());
    let names = tree.root_child_names();

    for maximizing in [true, false] {
        // Scores are from the side to move at the root: negate them back into
        // the tree's own units when the root minimizes.
        let sign = if maximizing { 1 } else { -1 };
        let game = tree.game(maximizing, None)?;
        let plain = minimax(&game, Limits::default())?;
        let pruned = alpha_beta(&game, Limits::default())?;
        assert_eq!((plain.best_move, plain.score), (pruned.best_move, pruned.score));
        let best = plain.best_move.and_then(|mv| names[mv as usize]);
        println!(
            "root {}: play {best:?}, worth {} (minimax {} positions, alpha-beta {})",
            if maximizing { "maximizes" } else { "minimizes" },
            sign * plain.score.value(),
            plain.nodes,
            pruned.nodes
        );
    }

    // Cut after one ply, the search scores each child by its own "value";
    // "wait" has none, so the tree is refused for that depth.
    match tree.game(true, Some(1)) {
        Ok(_) => println!("max_depth 1: every cut node has a value"),
        Err(error) => println!("max_depth 1 refused: {error}"),
    }
    // Cut after two plies, every inner node at that depth has a value.
    let game = tree.game(true, Some(2))?;
    let cut = minimax(&game, Limits { max_depth: game.max_depth(), ..Limits::default() })?;
    println!(
        "max_depth 2: play {:?}, worth {}, exact {}",
        cut.best_move.and_then(|mv| names[mv as usize]),
        cut.score.value(),
        cut.exact
    );
    Ok(())
}

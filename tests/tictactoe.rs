//! Every reachable tic-tac-toe position, either side starting, checked
//! against an independent brute-force solver written here (array board,
//! plain recursion), not against the engine itself.

use std::collections::{HashMap, HashSet};

use bestmove::games::tictactoe::{Player, Position, Status};
use bestmove::search::{alpha_beta, choose, engine, minimax, EngineOptions, Limits, Table, TieBreak};

type Cells = [Option<Player>; 9];

const LINES: [[usize; 3]; 8] = [[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6]];

fn winner(cells: &Cells) -> Option<Player> {
    LINES.iter().find_map(|l| match (cells[l[0]], cells[l[1]], cells[l[2]]) {
        (Some(a), Some(b), Some(c)) if a == b && b == c => Some(a),
        _ => None,
    })
}

fn over(cells: &Cells) -> bool {
    winner(cells).is_some() || cells.iter().all(Option::is_some)
}

/// What the reference solver knows about a position.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Solved {
    /// +1 / 0 / -1 for the side to move.
    score: i64,
    /// Plies to the end under best play (quickest win, slowest loss).
    plies: u32,
    /// Positions in the game tree below, this one included.
    tree_size: u64,
}

/// Is (score, plies) better than (score2, plies2) for the mover?
fn better(a: (i64, u32), b: (i64, u32)) -> bool {
    if a.0 != b.0 {
        return a.0 > b.0;
    }
    match a.0 {
        1 => a.1 < b.1,
        -1 => a.1 > b.1,
        _ => false,
    }
}

struct Solver {
    memo: HashMap<(Cells, Player), Solved>,
}

impl Solver {
    fn solve(&mut self, cells: Cells, mover: Player) -> Solved {
        if let Some(s) = self.memo.get(&(cells, mover)) {
            return *s;
        }
        let solved = if let Some(w) = winner(&cells) {
            Solved { score: if w == mover { 1 } else { -1 }, plies: 0, tree_size: 1 }
        } else if cells.iter().all(Option::is_some) {
            Solved { score: 0, plies: 0, tree_size: 1 }
        } else {
            let mut best: Option<(i64, u32)> = None;
            let mut size = 1;
            for (score, plies, child_size) in self.children(cells, mover).into_iter().map(|(_, s, p, n)| (s, p, n)) {
                size += child_size;
                if best.is_none_or(|b| better((score, plies), b)) {
                    best = Some((score, plies));
                }
            }
            let (score, plies) = best.unwrap();
            Solved { score, plies, tree_size: size }
        };
        self.memo.insert((cells, mover), solved);
        solved
    }

    /// (move, score for the mover, plies from this position, subtree size).
    fn children(&mut self, cells: Cells, mover: Player) -> Vec<(u8, i64, u32, u64)> {
        (0..9)
            .filter(|&i| cells[i].is_none())
            .map(|i| {
                let mut next = cells;
                next[i] = Some(mover);
                let s = self.solve(next, other(mover));
                (i as u8, -s.score, s.plies + 1, s.tree_size)
            })
            .collect()
    }
}

fn other(p: Player) -> Player {
    match p {
        Player::X => Player::O,
        Player::O => Player::X,
    }
}

/// All positions reachable from the empty board when `first` starts, with
/// the side to move.
fn reachable(first: Player) -> HashMap<Cells, Player> {
    let mut seen = HashMap::new();
    let mut stack = vec![([None; 9], first)];
    while let Some((cells, mover)) = stack.pop() {
        if seen.insert(cells, mover).is_some() || over(&cells) {
            continue;
        }
        for i in 0..9 {
            if cells[i].is_none() {
                let mut next = cells;
                next[i] = Some(mover);
                stack.push((next, other(mover)));
            }
        }
    }
    seen
}

fn count(cells: &Cells, p: Player) -> usize {
    cells.iter().filter(|c| **c == Some(p)).count()
}

#[test]
fn there_are_5478_reachable_positions_and_4520_not_yet_over() {
    let all = reachable(Player::X);
    assert_eq!(all.len(), 5478);
    assert_eq!(all.keys().filter(|c| !over(c)).count(), 4520);
}

#[test]
fn every_reachable_position_either_side_starting_matches_the_reference_solver() {
    let mut solver = Solver { memo: HashMap::new() };
    let mut table = Table::with_bytes(1 << 16);
    let mut checked = 0;
    for first in [Player::X, Player::O] {
        for (cells, mover) in reachable(first) {
            // With equal counts only `to_move` tells who started.
            let to_move = (count(&cells, Player::X) == count(&cells, Player::O)).then_some(mover);
            let position = Position::new(cells, to_move).unwrap_or_else(|e| panic!("{cells:?}: {e}"));
            assert_eq!(position.to_move(), mover);
            let reference = solver.solve(cells, mover);
            let game = position.game();
            let mm = minimax(&game, Limits::default()).unwrap();
            let ab = alpha_beta(&game, Limits::default()).unwrap();

            assert_eq!(mm.score.value(), reference.score, "{cells:?}");
            assert_eq!(mm.nodes, reference.tree_size, "{cells:?}");
            assert!(mm.exact && ab.exact);
            assert_eq!(mm.principal_variation.len() as u32, reference.plies, "{cells:?}");
            assert_eq!(ab.score, mm.score, "{cells:?}");
            assert!(ab.nodes <= mm.nodes, "{cells:?}");
            assert_eq!(ab.best_move, mm.best_move, "{cells:?}");
            // The engine, with its table, ordering and pruning: the same
            // score, distance included, and a move that earns it.
            let en = engine(&game, Limits::default(), &mut table, EngineOptions::default(), &mut |_| {}).unwrap();
            assert_eq!(en.score, mm.score, "{cells:?}");
            assert!(en.exact, "{cells:?}");
            assert_eq!(en.principal_variation, mm.principal_variation, "{cells:?}: the first best line, as minimax");
            // And at every depth limit, the depth-limited minimax score.
            for depth in 1..=3 {
                let limits = Limits { max_depth: Some(depth), ..Limits::default() };
                let (mm, en) = (
                    minimax(&game, limits).unwrap(),
                    engine(&game, limits, &mut table, EngineOptions::default(), &mut |_| {}).unwrap(),
                );
                assert_eq!(en.score, mm.score, "{cells:?} at depth {depth}");
                // The engine may know more: a win at once needs no look at
                // the other moves, so nothing is cut.
                assert!(en.exact || !mm.exact, "{cells:?} at depth {depth}");
            }

            if over(&cells) {
                assert_eq!(mm.best_move, None);
                assert!(position.legal_moves().is_empty());
                continue;
            }
            // The chosen move is the first of the optimal ones (quickest
            // win, slowest loss), and every root move's score is exact.
            let children = solver.children(cells, mover);
            let optimal: Vec<u8> = children
                .iter()
                .filter(|c| c.1 == reference.score && (reference.score == 0 || c.2 == reference.plies))
                .map(|c| c.0)
                .collect();
            assert_eq!(mm.best_move, Some(optimal[0]), "{cells:?}");
            assert_eq!(mm.root_moves.len(), children.len());
            for (root, child) in mm.root_moves.iter().zip(&children) {
                assert_eq!((root.mv, root.score.value(), root.plies), (child.0, child.1, child.2), "{cells:?}");
            }
            // The principal variation is legal and ends the game.
            let mut line = position;
            for &mv in &mm.principal_variation {
                line = line.play(mv).expect("a legal move");
            }
            assert_ne!(line.status(), Status::InProgress);
            checked += 1;
        }
    }
    assert_eq!(checked, 2 * 4520);
}

#[test]
fn exactly_the_reachable_boards_are_accepted() {
    let from_x: HashSet<Cells> = reachable(Player::X).into_keys().collect();
    let from_o: HashSet<Cells> = reachable(Player::O).into_keys().collect();
    let mut accepted = 0;
    for code in 0..3usize.pow(9) {
        let mut cells = [None; 9];
        let mut c = code;
        for cell in &mut cells {
            *cell = [None, Some(Player::X), Some(Player::O)][c % 3];
            c /= 3;
        }
        let (nx, no) = (count(&cells, Player::X), count(&cells, Player::O));
        let x_ok = from_x.contains(&cells);
        let o_ok = from_o.contains(&cells);
        let inferred = x_ok && nx >= no || o_ok && no == nx + 1;
        let x_given = x_ok && nx == no || o_ok && no == nx + 1;
        let o_given = o_ok && nx == no || x_ok && nx == no + 1;
        assert_eq!(Position::new(cells, None).is_ok(), inferred, "{cells:?}");
        assert_eq!(Position::new(cells, Some(Player::X)).is_ok(), x_given, "{cells:?} X to move");
        assert_eq!(Position::new(cells, Some(Player::O)).is_ok(), o_given, "{cells:?} O to move");
        accepted += inferred as usize;
    }
    assert_eq!(accepted, 5478 + from_o.iter().filter(|c| count(c, Player::O) == count(c, Player::X) + 1).count());
}

#[test]
fn plain_minimax_visits_the_whole_game_tree_from_the_empty_board() {
    let mm = minimax(&Position::EMPTY.game(), Limits::default()).unwrap();
    assert_eq!(mm.nodes, 549_946);
    assert_eq!(mm.score.value(), 0);
    assert_eq!(mm.best_move, Some(0));
    assert_eq!(mm.principal_variation.len(), 9);
    let ab = alpha_beta(&Position::EMPTY.game(), Limits::default()).unwrap();
    assert_eq!(ab.score, mm.score);
    assert!(ab.nodes < mm.nodes / 10, "alpha-beta visited {}", ab.nodes);
}

#[test]
fn the_engine_solves_the_empty_board_in_fewer_positions_than_alpha_beta() {
    let game = Position::EMPTY.game();
    let ab = alpha_beta(&game, Limits::default()).unwrap();
    let mut table = Table::with_bytes(1 << 16);
    let en = engine(&game, Limits::default(), &mut table, EngineOptions::default(), &mut |_| {}).unwrap();
    assert_eq!(ab.nodes, 20_866);
    assert_eq!(en.score, ab.score);
    assert!(en.nodes < ab.nodes, "engine {} positions, alpha-beta {}", en.nodes, ab.nodes);
    // Every root move scored by the engine matches plain minimax too.
    let mm = minimax(&game, Limits::default()).unwrap();
    let all = engine(
        &game,
        Limits::default(),
        &mut table,
        EngineOptions { score_root_moves: true, ..EngineOptions::default() },
        &mut |_| {},
    )
    .unwrap();
    let scores: Vec<_> = all.root_moves.iter().map(|m| (m.mv, m.score)).collect();
    let expected: Vec<_> = mm.root_moves.iter().map(|m| (m.mv, Some(m.score))).collect();
    assert_eq!(scores, expected);
}

fn board(text: &str, to_move: Option<Player>) -> Position {
    let cells = bestmove::games::tictactoe::cells_from_json(&serde_json::Value::String(text.into())).unwrap();
    Position::new(cells, to_move).unwrap()
}

#[test]
fn o_facing_two_threats_loses_in_two_whatever_it_does_and_plays_the_first_cell() {
    let position = board("oxoxx....", None);
    assert_eq!(position.to_move(), Player::O);
    let mm = minimax(&position.game(), Limits::default()).unwrap();
    assert_eq!(mm.best_move, Some(5));
    assert_eq!(mm.score.value(), -1);
    assert_eq!(mm.principal_variation.len(), 2);
    assert!(mm.root_moves.iter().all(|m| m.score.value() == -1 && m.plies == 2));
}

#[test]
fn o_blocks_the_diagonal_to_lose_in_four_rather_than_two() {
    let position = board("XO..X....", None);
    let mm = minimax(&position.game(), Limits::default()).unwrap();
    assert_eq!(mm.best_move, Some(8));
    assert_eq!(mm.score.value(), -1);
    assert_eq!(mm.principal_variation.len(), 4);
    assert_eq!(mm.nodes, 1061);
    let two = mm.root_moves.iter().find(|m| m.mv == 2).unwrap();
    assert_eq!((two.score.value(), two.plies), (-1, 2));
}

#[test]
fn a_depth_limit_scores_undecided_positions_as_draws_and_says_it_is_not_exact() {
    let limits = Limits { max_depth: Some(2), ..Limits::default() };
    let mm = minimax(&Position::EMPTY.game(), limits).unwrap();
    assert!(!mm.exact);
    assert_eq!(mm.nodes, 1 + 9 + 72);
    assert_eq!(mm.score.value(), 0);
    // Six empty cells: a depth of six reaches the end of every line, five
    // does not.
    let position = board("XO..X....", None);
    let mm = minimax(&position.game(), Limits { max_depth: Some(6), ..Limits::default() }).unwrap();
    assert!(mm.exact);
    assert_eq!((mm.best_move, mm.nodes), (Some(8), 1061));
    let mm = minimax(&position.game(), Limits { max_depth: Some(5), ..Limits::default() }).unwrap();
    assert!(!mm.exact);
}

/// Plays every sequence of opponent moves against the engine's choice with
/// no mistakes, and returns the worst result the engine got.
fn worst_result(position: Position, engine: Player) -> i64 {
    match position.status() {
        Status::Won(p, _) => return if p == engine { 1 } else { -1 },
        Status::Draw => return 0,
        Status::InProgress => {}
    }
    if position.to_move() == engine {
        let mm = minimax(&position.game(), Limits::default()).unwrap();
        let choice = choose(&mm.root_moves, TieBreak::First, 0.0, &mut fastrand::Rng::with_seed(1)).unwrap();
        assert!(!choice.random_move);
        worst_result(position.play(choice.mv).unwrap(), engine)
    } else {
        position.legal_moves().into_iter().map(|mv| worst_result(position.play(mv).unwrap(), engine)).min().unwrap()
    }
}

#[test]
fn the_engine_without_mistakes_never_loses_as_first_or_second_player() {
    assert!(worst_result(Position::EMPTY, Player::X) >= 0);
    assert!(worst_result(Position::EMPTY, Player::O) >= 0);
    let o_first = board(".........", Some(Player::O));
    assert!(worst_result(o_first, Player::O) >= 0);
    assert!(worst_result(o_first, Player::X) >= 0);
}

#[test]
fn perfect_play_against_itself_draws() {
    let mut position = Position::EMPTY;
    while position.status() == Status::InProgress {
        let mm = minimax(&position.game(), Limits::default()).unwrap();
        position = position.play(mm.best_move.unwrap()).unwrap();
    }
    assert_eq!(position.status(), Status::Draw);
}

#[test]
fn random_tie_breaks_and_mistakes_are_reproducible_from_a_seed() {
    let mm = minimax(&Position::EMPTY.game(), Limits::default()).unwrap();
    let pick = |seed| choose(&mm.root_moves, TieBreak::Random, 0.0, &mut fastrand::Rng::with_seed(seed)).unwrap().mv;
    assert_eq!(pick(7), pick(7));
    // Every first move draws, so a random tie-break reaches all of them.
    let seen: HashSet<u8> = (0..200).map(pick).collect();
    assert_eq!(seen.len(), 9);
    // With mistake 1 every answer is flagged random.
    let blunder = choose(&mm.root_moves, TieBreak::First, 1.0, &mut fastrand::Rng::with_seed(3)).unwrap();
    assert!(blunder.random_move);
}

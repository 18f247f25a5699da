//! Othello: the move generator against the published perft counts and
//! against an independent reference implementation of the rules, the
//! searches against each other on endgames, and the parsing of caller
//! input.

use bestmove::games::othello::{
    move_name, parse_square, Endgame, ErrorKind, Othello, OthelloError, Position, Status, PASS,
};
use bestmove::games::tictactoe::Player;
use bestmove::search::{
    alpha_beta, engine, engine_with_oracle, minimax, EngineOptions, Game, Limits, Oracle, Progress, Score, Table,
};

/// Leaves `depth` plies below `position`, a pass counting as a ply and a
/// finished game as one leaf where it ends.
fn perft(position: &Othello, depth: u32) -> u64 {
    if depth == 0 || position.outcome().is_some() {
        return 1;
    }
    position.moves().map(|mv| perft(&position.play(mv), depth - 1)).sum()
}

#[test]
fn perft_from_the_start_matches_the_published_counts() {
    let published = [4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288];
    for (depth, &count) in (1..).zip(&published) {
        assert_eq!(perft(&Othello::START, depth), count, "depth {depth}");
    }
}

/// A square list as the fixtures write it ("c4d3e6"), as a bitboard.
fn squares(names: &str) -> u64 {
    names.as_bytes().chunks(2).fold(0, |bits, pair| {
        let square = parse_square(std::str::from_utf8(pair).expect("ascii")).expect("a square name");
        bits | 1 << square
    })
}

#[test]
fn random_games_replay_as_the_reference_rules_play_them() {
    let data = include_str!("data/othello-random-games.txt");
    let (mut games, mut passes) = (0, 0);
    for (line_number, line) in data.lines().enumerate().filter(|(_, l)| !l.starts_with('#') && !l.is_empty()) {
        let at = format!("line {}", line_number + 1);
        let (plies, end) = line.split_once(" = ").expect("a final board");
        let mut game = Othello::START;
        let mut position = Position::START;
        let mut names = Vec::new();
        for (ply, step) in plies.split(' ').enumerate() {
            let mut parts = step.split(':');
            let (mv, legal, flipped) = (parts.next().unwrap(), parts.next().unwrap(), parts.next().unwrap());
            assert_eq!(game.outcome(), None, "{at}, ply {ply}: the game goes on");
            assert_eq!(game.legal_squares(), squares(legal), "{at}, ply {ply}: legal moves");
            let mv = if mv == "--" {
                passes += 1;
                assert_eq!(game.moves().collect::<Vec<_>>(), vec![PASS], "{at}, ply {ply}: a pass");
                assert_eq!(position.legal_moves(), vec![PASS], "{at}, ply {ply}");
                PASS
            } else {
                names.push(mv.to_string());
                parse_square(mv).expect("a square")
            };
            assert_eq!(game.flips(mv), squares(flipped), "{at}, ply {ply}: flips of {mv}");
            let (me, op) = game.bitboards();
            game = game.play(mv);
            position = position.play(mv).expect("legal");
            if mv != PASS {
                assert_eq!(
                    game.bitboards(),
                    (op ^ squares(flipped), me | squares(flipped) | 1 << mv),
                    "{at}, ply {ply}"
                );
            }
            assert_eq!(position.game(), game, "{at}, ply {ply}");
        }
        let (board, score) = end.split_once(' ').expect("a score");
        let black_score: i64 = score.parse().expect("a number");
        assert!(game.outcome().is_some(), "{at}: the game is over");
        assert_eq!(position.to_obf()[..64], *board, "{at}: the final board");
        assert_eq!(position.final_score(), Some(black_score), "{at}");
        let mover_score = if position.to_move() == Player::X { black_score } else { -black_score };
        assert_eq!(game.outcome(), Some(mover_score), "{at}");
        let status = match black_score {
            0 => Status::Draw,
            s if s > 0 => Status::Won(Player::X),
            _ => Status::Won(Player::O),
        };
        assert_eq!(position.status(), status, "{at}");
        // The same game read from its notation, passes left out, and from
        // an array of names, ends on the same board.
        let notation = Position::from_notation(&names.concat()).expect("a legal game");
        assert_eq!(notation.bitboards(), position.bitboards(), "{at}");
        assert_eq!(notation.status(), position.status(), "{at}");
        let array = Position::from_square_names(&names).expect("a legal game");
        assert_eq!(array.bitboards(), position.bitboards(), "{at}");
        games += 1;
    }
    assert!(games >= 200 && passes >= 100, "{games} games, {passes} passes");
}

/// A position `empties` empty squares from the end of a random game, not
/// over, with the moves that led to it.
fn random_endgame(rng: &mut fastrand::Rng, empties: u32) -> Option<(String, Othello)> {
    let mut position = Othello::START;
    let mut moves = String::new();
    while position.empties() > empties {
        if position.outcome().is_some() {
            return None;
        }
        let choices: Vec<u8> = position.moves().collect();
        let mv = choices[rng.usize(..choices.len())];
        moves.push_str(&move_name(mv));
        position = position.play(mv);
    }
    position.outcome().is_none().then_some((moves, position))
}

#[test]
fn the_engine_solves_small_endgames_as_minimax_and_alpha_beta_do() {
    let mut rng = fastrand::Rng::with_seed(17);
    let mut table = Table::with_bytes(16 << 20);
    let mut solved = 0;
    while solved < 40 {
        let empties = 4 + solved % 7;
        let Some((moves, root)) = random_endgame(&mut rng, empties) else { continue };
        let reference = if empties <= 8 {
            let plain = minimax(&root, Limits::default()).expect("not cancelled");
            let pruned = alpha_beta(&root, Limits::default()).expect("not cancelled");
            assert_eq!(plain.score, pruned.score, "{moves}");
            plain.score
        } else {
            alpha_beta(&root, Limits::default()).expect("not cancelled").score
        };
        let found = engine(&root, Limits::default(), &mut table, EngineOptions::default(), &mut |_| {}).unwrap();
        assert!(found.exact, "{moves}");
        assert_eq!(found.score, reference, "{moves}");
        assert!(reference.value().abs() <= 64);
        // The line of best play reaches the end with that score.
        let end = found.principal_variation.iter().fold(root, |p, &mv| p.play(mv));
        let sign = if found.principal_variation.len() % 2 == 0 { 1 } else { -1 };
        assert_eq!(end.outcome().map(|v| v * sign), Some(reference.value()), "{moves}");
        solved += 1;
    }
}

#[test]
fn the_endgame_oracle_changes_no_score_of_any_root_move() {
    let mut rng = fastrand::Rng::with_seed(23);
    let mut table = Table::with_bytes(16 << 20);
    let oracle = Endgame::default();
    let options = EngineOptions { score_root_moves: true, ..EngineOptions::default() };
    let mut solved = 0;
    while solved < 24 {
        let empties = 7 + solved % 6;
        let Some((moves, root)) = random_endgame(&mut rng, empties) else { continue };
        let with = engine_with_oracle(&root, &oracle, Limits::default(), &mut table, options, &mut |_| {}).unwrap();
        let without = engine(&root, Limits::default(), &mut table, options, &mut |_| {}).unwrap();
        assert!(with.exact && without.exact, "{moves}");
        assert_eq!(with.score, without.score, "{moves}");
        assert_eq!(with.root_moves, without.root_moves, "{moves}");
        // Deepening to the end, the oracle answers in every iteration; its
        // positions are counted among the engine's, and none as a book hit.
        let before = oracle.nodes();
        let hits =
            engine_with_oracle(&root, &oracle, Limits::default(), &mut table, EngineOptions::default(), &mut |_| {})
                .unwrap();
        assert!(hits.exact, "{moves}");
        assert_eq!(hits.score, without.score, "{moves}");
        assert!(oracle.nodes() > before, "{moves}");
        assert!(hits.nodes >= oracle.nodes() - before, "{moves}");
        assert_eq!(hits.book_hits, 0, "{moves}");
        if empties <= 8 {
            let reference = minimax(&root, Limits::default()).unwrap();
            let expected: Vec<(u8, Option<Score>)> =
                reference.root_moves.iter().map(|m| (m.mv, Some(m.score))).collect();
            let found: Vec<(u8, Option<Score>)> = with.root_moves.iter().map(|m| (m.mv, m.score)).collect();
            assert_eq!(found, expected, "{moves}");
        }
        solved += 1;
    }
    assert!(oracle.nodes() > 0);
}

#[test]
fn with_the_endgame_oracle_at_any_reach_the_engine_solves_as_alpha_beta_does() {
    let mut rng = fastrand::Rng::with_seed(31);
    let mut table = Table::with_bytes(16 << 20);
    let mut solved = 0;
    while solved < 48 {
        let empties = 8 + solved % 5;
        let Some((moves, root)) = random_endgame(&mut rng, empties) else { continue };
        let reference = alpha_beta(&root, Limits::default()).expect("not cancelled").score;
        let oracle = Endgame::new([2, 4, 6, 8][solved as usize % 4]);
        let found =
            engine_with_oracle(&root, &oracle, Limits::default(), &mut table, EngineOptions::default(), &mut |_| {})
                .unwrap();
        assert!(found.exact, "{moves}");
        assert_eq!(found.score, reference, "{moves} with {oracle:?}");
        solved += 1;
    }
}

#[test]
fn at_a_fixed_depth_the_engine_scores_as_minimax_does_in_the_midgame() {
    let mut rng = fastrand::Rng::with_seed(29);
    let mut table = Table::with_bytes(16 << 20);
    for round in 0..16 {
        let empties = 30 + rng.u32(..24);
        let Some((moves, root)) = random_endgame(&mut rng, empties) else { continue };
        let depth = 1 + round % 4;
        let limits = Limits { max_depth: Some(depth), ..Limits::default() };
        let reference = minimax(&root, limits).unwrap();
        assert!(reference.score.heuristic().is_some(), "{moves}: an evaluation, not an outcome");
        let found = engine(&root, limits, &mut table, EngineOptions::default(), &mut |_| {}).unwrap();
        assert_eq!(found.score, reference.score, "{moves} at depth {depth}");
        let all = engine(
            &root,
            limits,
            &mut table,
            EngineOptions { score_root_moves: true, ..Default::default() },
            &mut |_| {},
        )
        .unwrap();
        let scores: Vec<_> = all.root_moves.iter().map(|m| (m.mv, m.score)).collect();
        let expected: Vec<_> = reference.root_moves.iter().map(|m| (m.mv, Some(m.score))).collect();
        assert_eq!(scores, expected, "{moves} at depth {depth}");
    }
}

#[test]
fn cut_by_its_budget_the_heuristic_driver_answers_its_deepest_finished_iteration_for_every_move() {
    let mut rng = fastrand::Rng::with_seed(37);
    let mut table = Table::with_bytes(16 << 20);
    // Full-width, so that each iteration is the search to its fixed depth.
    let options = EngineOptions { score_root_moves: true, full_width: true, ..EngineOptions::default() };
    let mut checked = 0;
    while checked < 6 {
        let empties = 40 + rng.u32(..12);
        let Some((moves, root)) = random_endgame(&mut rng, empties) else { continue };
        let budget = 20_000 + 10_000 * checked;
        let limits = Limits { node_budget: Some(budget), ..Limits::default() };
        let mut seen = Vec::new();
        let cut = engine(&root, limits, &mut table, options, &mut |p| {
            if let Progress::Iteration(it) = p {
                seen.push((it.depth, it.nodes));
            }
        })
        .unwrap();
        assert!(!cut.exact, "{moves}");
        // The soft limit: no iteration starts once half the budget is spent
        // after a stable one, three quarters after one that changed its
        // mind.
        for pair in seen.windows(2) {
            assert!(pair[0].1 < budget / 4 * 3, "{moves}: {seen:?} with a budget of {budget}");
        }
        assert_eq!(cut.depth, seen.last().unwrap().0, "{moves}");
        assert_eq!(cut.iterations as usize, seen.len(), "{moves}");
        // Every root move has its score at that depth, as a search to that
        // fixed depth gives it.
        let limits = Limits { max_depth: Some(cut.depth), ..Limits::default() };
        let fixed = engine(&root, limits, &mut table, options, &mut |_| {}).unwrap();
        assert_eq!(cut.score, fixed.score, "{moves}");
        assert_eq!(cut.root_moves, fixed.root_moves, "{moves}");
        assert!(cut.root_moves.iter().all(|m| m.score.is_some() && m.depth == Some(cut.depth)), "{moves}");
        let best = cut.root_moves.iter().filter_map(|m| m.score).max();
        assert_eq!(cut.root_moves.iter().find(|m| m.score == best).map(|m| m.mv), cut.best_move, "{moves}");
        checked += 1;
    }
}

/// Near the end, asked for every move's score under a budget, the engine
/// proves the best move first, as a solver does: what it answers is exact
/// where it says so, a move left with a bound scores no more than it, and
/// some budgets prove the best move before the others. Asked for every
/// move at one depth (`equal_depths`, as a review asks), none is bounded.
#[test]
fn under_a_budget_near_the_end_the_best_move_is_proven_first_and_the_others_bounded() {
    let mut rng = fastrand::Rng::with_seed(53);
    let mut table = Table::with_bytes(16 << 20);
    let oracle = Endgame::default();
    let options = EngineOptions { score_root_moves: true, ..EngineOptions::default() };
    let (mut checked, mut bounded, mut positions) = (0, 0, 0);
    while positions < 8 {
        let empties = 15 + rng.u32(..3);
        let Some((moves, root)) = random_endgame(&mut rng, empties) else { continue };
        let solved = engine_with_oracle(&root, &oracle, Limits::default(), &mut table, options, &mut |_| {}).unwrap();
        assert!(solved.exact && solved.root_moves.iter().all(|m| m.exact && !m.upper_bound), "{moves}");
        positions += 1;
        for budget in [1 << 17, 1 << 18, 1 << 19, 1 << 20, 1 << 21, 1 << 22] {
            let limits = Limits { node_budget: Some(budget), ..Limits::default() };
            let cut = engine_with_oracle(&root, &oracle, limits, &mut table, options, &mut |_| {}).unwrap();
            if cut.exact {
                assert_eq!(cut.score, solved.score, "{moves} in {budget}");
            }
            let truth = |mv| solved.root_moves.iter().find(|m| m.mv == mv).and_then(|m| m.score).unwrap();
            for m in &cut.root_moves {
                let score = m.score.expect("every move is scored");
                if m.exact {
                    assert_eq!(score, truth(m.mv), "{moves} in {budget}: {m:?}");
                } else if m.upper_bound {
                    assert!(cut.exact && m.depth.is_none(), "{moves} in {budget}: {m:?}");
                    assert!(truth(m.mv) <= score && score <= cut.score, "{moves} in {budget}: {m:?}");
                } else {
                    assert!(m.depth.is_some(), "{moves} in {budget}: {m:?}");
                }
            }
            // The best move is the one answered, exact when the answer is.
            let best = cut.root_moves.iter().find(|m| Some(m.mv) == cut.best_move).unwrap();
            assert_eq!((best.exact, best.score), (cut.exact, Some(cut.score)), "{moves} in {budget}");
            if cut.exact {
                assert_eq!(truth(best.mv), solved.score, "{moves} in {budget}");
            }
            bounded += usize::from(cut.root_moves.iter().any(|m| m.upper_bound));
            checked += 1;
            // Asked for every move at one depth (as a review asks), no move
            // is left with a bound: each has a score of its own.
            let equal = EngineOptions { equal_depths: true, ..options };
            let even = engine_with_oracle(&root, &oracle, limits, &mut table, equal, &mut |_| {}).unwrap();
            for m in &even.root_moves {
                assert!(m.score.is_some() && !m.upper_bound, "{moves} in {budget}, equal depths: {m:?}");
                if m.exact {
                    assert_eq!(m.score, Some(truth(m.mv)), "{moves} in {budget}, equal depths: {m:?}");
                }
            }
        }
    }
    assert_eq!(checked, 48);
    assert!(bounded > 0, "no budget proved the best move before the others");
}

/// Under a budget, the midgame search is selective: a probe four plies
/// shallower settles a position where its score clears the window by a
/// margin, so the same budget reaches deeper than a full-width search
/// (never shallower, deeper on half the positions at least), and the
/// full-width search's last depth takes the selective one fewer positions
/// on every position. A search to a fixed depth stays full-width (as
/// minimax scores it, above).
#[test]
fn under_a_budget_midgame_probes_reach_deeper_than_a_full_width_search() {
    let mut rng = fastrand::Rng::with_seed(43);
    let (mut deeper, mut shallower, mut cheaper, mut checked) = (0, 0, 0, 0);
    while checked < 6 {
        let empties = 36 + rng.u32(..16);
        let Some((moves, root)) = random_endgame(&mut rng, empties) else { continue };
        let limits = Limits { node_budget: Some(300_000), ..Limits::default() };
        // The depth reached, and the positions visited when each depth's
        // iteration was done.
        let search = |full_width: bool| {
            let mut table = Table::with_bytes(16 << 20);
            let options = EngineOptions { full_width, ..EngineOptions::default() };
            let mut done = std::collections::BTreeMap::new();
            let found = engine(&root, limits, &mut table, options, &mut |p| {
                if let Progress::Iteration(it) = p {
                    done.insert(it.depth, it.nodes);
                }
            })
            .unwrap();
            assert!(!found.exact, "{moves}");
            (found.depth, done)
        };
        let ((selective, selective_done), (full, full_done)) = (search(false), search(true));
        assert!(full >= 6, "{moves}: {full} plies full-width, too few for a probe");
        deeper += usize::from(selective > full);
        shallower += usize::from(selective < full);
        // The full-width search's last depth, done by the selective search
        // in fewer positions.
        cheaper += usize::from(selective_done.get(&full).is_some_and(|n| n < &full_done[&full]));
        checked += 1;
    }
    assert!(
        deeper >= 3 && shallower == 0 && cheaper == checked,
        "deeper on {deeper}, shallower on {shallower}, the same depth in fewer positions on {cheaper} of {checked} positions"
    );
}

/// From 12 empty squares on, a search to the end first runs selective
/// passes (outcome probes that cut where a shallow search predicts a bound
/// by a margin), reported as iterations with their selectivity, changing
/// no score the exact search gives, for the answer or for any root move. The reference is the endgame solver alone, which
/// shares no code with the engine's driver.
#[test]
fn selective_passes_before_the_exact_search_change_no_score() {
    let mut rng = fastrand::Rng::with_seed(41);
    let mut table = Table::with_bytes(16 << 20);
    let oracle = Endgame::default();
    let solver = Endgame::new(Endgame::MAX_EMPTIES);
    let (mut checked, mut selective) = (0, 0);
    while checked < 12 {
        let Some((moves, root)) = random_endgame(&mut rng, Endgame::MAX_EMPTIES + 1) else { continue };
        let options = EngineOptions { score_root_moves: checked % 2 == 0, ..EngineOptions::default() };
        let mut passes = 0;
        let found = engine_with_oracle(&root, &oracle, Limits::default(), &mut table, options, &mut |p| {
            if let Progress::Iteration(it) = p {
                passes += usize::from(it.selectivity.is_some());
            }
        })
        .unwrap();
        assert!(found.exact, "{moves}");
        selective += usize::from(passes > 0);
        let children: Vec<(u8, i64)> = root
            .moves()
            .map(|mv| {
                let child = root.play(mv);
                let value = child.outcome().or_else(|| solver.solved(&child).map(|(v, _)| v)).expect("solved");
                (mv, -value)
            })
            .collect();
        let best = children.iter().map(|&(_, v)| v).max();
        assert_eq!(Some(found.score.value()), best, "{moves}");
        if options.score_root_moves {
            let scores: Vec<(u8, Option<i64>)> =
                found.root_moves.iter().map(|m| (m.mv, m.score.map(|s| s.value()))).collect();
            let expected: Vec<(u8, Option<i64>)> = children.iter().map(|&(mv, v)| (mv, Some(v))).collect();
            assert_eq!(scores, expected, "{moves}");
        }
        checked += 1;
    }
    assert!(selective >= 6, "selective passes ran before {selective} of {checked} exact searches");
}

/// FFO #1 to #19 (14 to 16 empty squares), the first part of the FFO
/// endgame suite: each solved exactly, and the move played is one the
/// suite gives the best score.
#[test]
fn the_ffo_endgames_1_to_19_are_solved_exactly() {
    let data = include_str!("data/fforum-1-19.obf");
    let mut table = Table::with_bytes(64 << 20);
    let oracle = Endgame::default();
    let mut solved = 0;
    for (i, line) in data.lines().filter(|l| !l.trim().is_empty()).enumerate() {
        let number = i + 1;
        let position = Position::from_obf(line).unwrap_or_else(|e| panic!("#{number}: {e}"));
        let scores: Vec<(u8, i64)> = line
            .split(';')
            .skip(1)
            .map(str::trim)
            .filter(|a| !a.is_empty())
            .map(|a| {
                let (name, score) = a.split_once(':').expect("move:score");
                (parse_square(name).expect("a square"), score.trim_start_matches('+').parse().expect("a score"))
            })
            .collect();
        let best = scores[0].1;
        let root = position.game();
        let found =
            engine_with_oracle(&root, &oracle, Limits::default(), &mut table, EngineOptions::default(), &mut |_| {})
                .unwrap();
        assert!(found.exact, "#{number}");
        assert_eq!(found.score.value(), best, "#{number}");
        let played = found.best_move.expect("a move");
        assert!(
            scores.iter().any(|&(mv, score)| mv == played && score == best),
            "#{number}: {} is not a best move",
            move_name(played)
        );
        solved += 1;
    }
    assert_eq!(solved, 19);
}

#[test]
fn a_side_with_no_move_passes_and_the_engine_plays_the_pass() {
    // The first pass of the fixtures: the moves before it, passes left out.
    let data = include_str!("data/othello-random-games.txt");
    let line = data.lines().find(|l| l.contains("--::")).expect("a game with a pass");
    let before = &line[..line.find("--::").expect("a pass")];
    let names: Vec<&str> = before.split_whitespace().map(|step| &step[..2]).filter(|&n| n != "--").collect();
    let position = Position::from_square_names(&names).unwrap();
    assert_eq!(position.status(), Status::InProgress);
    assert_eq!(position.legal_moves(), vec![PASS]);
    assert_eq!(position.play(parse_square(names[0]).unwrap()), None);
    let game = position.game();
    let mut table = Table::with_bytes(1 << 20);
    let limits = Limits { max_depth: Some(3), ..Limits::default() };
    let found = engine(&game, limits, &mut table, EngineOptions::default(), &mut |_| {}).unwrap();
    assert_eq!(found.best_move, Some(PASS));
    let after = position.play(PASS).unwrap();
    assert_eq!(after.to_move(), position.to_move().other());
    assert!(!after.legal_moves().is_empty() && !after.legal_moves().contains(&PASS));
}

fn refusal(result: Result<Position, OthelloError>) -> (ErrorKind, String, String) {
    let error = result.expect_err("refused");
    (error.kind, error.field, error.message)
}

#[test]
fn an_illegal_move_is_named_with_its_ply_and_the_legal_squares() {
    let (kind, field, message) = refusal(Position::from_notation("f5d6c3d3c4e6"));
    assert_eq!(kind, ErrorKind::IllegalMove);
    assert_eq!(field, "moves[5]");
    assert!(message.starts_with("e6 is not a legal move for white (O) at ply 6"), "{message}");
    assert!(message.contains("the legal moves are"), "{message}");
    let occupied = Position::from_notation("f5f5").unwrap_err();
    assert_eq!(occupied.field, "moves[1]");
    assert!(occupied.message.contains("f5 is occupied"), "{}", occupied.message);
    let first = Position::from_notation("a1").unwrap_err();
    assert_eq!(
        first.message,
        "a1 is not a legal move for black (X) at ply 1 (a1 flips no disc); the legal moves are d3, c4, f5, e6"
    );
}

#[test]
fn moves_are_read_in_either_case_with_spaces_and_as_arrays() {
    let plain = Position::from_notation("f5d6c3d3c4").unwrap();
    assert_eq!(Position::from_notation("F5 d6, C3 d3 c4").unwrap(), plain);
    assert_eq!(Position::from_square_names(&["f5", "D6", "c3", "d3", "c4"]).unwrap(), plain);
    let json = serde_json::json!(["f5", "d6", "c3", "d3", "c4"]);
    assert_eq!(Position::from_json_moves(&json).unwrap(), plain);
    assert_eq!(Position::from_json_moves(&serde_json::json!("f5d6c3d3c4")).unwrap(), plain);
    assert_eq!(plain.to_move(), Player::O);
    assert_eq!(plain.disc_counts(), (6, 3));
    assert_eq!(Position::from_notation("").unwrap(), Position::START);
}

#[test]
fn a_malformed_move_is_named_by_its_index() {
    let (kind, field, message) = refusal(Position::from_notation("f5d6z9"));
    assert_eq!((kind, field.as_str()), (ErrorKind::MalformedMove, "moves[2]"));
    assert!(message.contains("\"z9\" at character 4 is not a square"), "{message}");
    let (kind, field, message) = refusal(Position::from_notation("f5d"));
    assert_eq!((kind, field.as_str()), (ErrorKind::MalformedMove, "moves[1]"));
    assert!(message.contains("ends in the middle of a move"), "{message}");
    // Places count characters, not bytes; a square is written in one piece.
    let (_, field, message) = refusal(Position::from_notation("f5\u{3000}z9"));
    assert_eq!(field, "moves[1]");
    assert!(message.contains("\"z9\" at character 3 is not a square"), "{message}");
    let (kind, field, message) = refusal(Position::from_notation("f 5d6"));
    assert_eq!((kind, field.as_str()), (ErrorKind::MalformedMove, "moves[0]"));
    assert!(message.contains("'f' at character 0 is a column without a row"), "{message}");
    assert!(Position::from_notation("f5 d6, c3").is_ok());
    let (kind, field, _) = refusal(Position::from_json_moves(&serde_json::json!(["f5", 12])));
    assert_eq!((kind, field.as_str()), (ErrorKind::MalformedMove, "moves[1]"));
    let (kind, field, _) = refusal(Position::from_json_moves(&serde_json::json!({"f5": 1})));
    assert_eq!((kind, field.as_str()), (ErrorKind::MalformedMove, "moves"));
    let (kind, field, message) = refusal(Position::from_square_names(&["f5", "pass"]));
    assert_eq!((kind, field.as_str()), (ErrorKind::IllegalMove, "moves[1]"));
    assert!(message.contains("only when it has no legal move"), "{message}");
}

#[test]
fn boards_are_read_in_obf_order_or_as_rows_with_a_side_to_move() {
    let obf = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X";
    let position = Position::from_obf(&format!("{obf}; G8:+18; H1:+12")).unwrap();
    assert_eq!(position.to_obf(), obf);
    assert_eq!(position.to_move(), Player::X);
    assert_eq!(position.empties(), 14);
    let rows = position.rows();
    assert_eq!(rows[0], "..XXXXX.");
    let slashed = rows.join("/").replace('.', "_");
    assert_eq!(Position::from_board(&slashed, Some(Player::X)).unwrap(), position);
    let json_rows = serde_json::json!(rows);
    assert_eq!(Position::from_json_board(&json_rows, Some(Player::X)).unwrap(), position);
    let cells: Vec<serde_json::Value> =
        (0..64).map(|s| position.cell(s).map_or(serde_json::Value::Null, |p| p.as_str().into())).collect();
    assert_eq!(Position::from_json_board(&serde_json::Value::Array(cells), Some(Player::X)).unwrap(), position);
    assert_eq!(position.to_string(), format!("{} X", rows.join("/")));
}

#[test]
fn a_board_of_the_wrong_size_or_with_bad_squares_is_refused_where_it_goes_wrong() {
    let (kind, field, message) = refusal(Position::from_board(&"-".repeat(63), Some(Player::X)));
    assert_eq!((kind, field.as_str()), (ErrorKind::BoardShape, "board"));
    assert!(message.contains("this one has 63 characters"), "{message}");
    let rows = ["........"; 7].join("/") + "/.......";
    let (kind, field, _) = refusal(Position::from_board(&rows, Some(Player::X)));
    assert_eq!((kind, field.as_str()), (ErrorKind::BoardShape, "board[7]"));
    let mut board = Position::START.to_obf()[..64].to_string();
    board.replace_range(10..11, "Q");
    let (kind, field, message) = refusal(Position::from_board(&board, Some(Player::X)));
    assert_eq!((kind, field.as_str()), (ErrorKind::MalformedSquare, "board[10]"));
    assert!(message.contains("(square c2)"), "{message}");
    let (kind, field, _) =
        refusal(Position::from_json_board(&serde_json::json!(vec![vec!["X"; 8]; 7]), Some(Player::X)));
    assert_eq!((kind, field.as_str()), (ErrorKind::BoardShape, "board"));
}

#[test]
fn a_board_with_an_empty_centre_or_no_side_to_move_is_refused() {
    let mut board = Position::START.to_obf()[..64].to_string();
    board.replace_range(27..28, "-");
    let (kind, field, message) = refusal(Position::from_board(&board, Some(Player::X)));
    assert_eq!((kind, field.as_str()), (ErrorKind::EmptyCentre, "board"));
    assert!(message.starts_with("centre square d4 is empty"), "{message}");
    let start = &Position::START.to_obf()[..64];
    let (kind, field, _) = refusal(Position::from_board(start, None));
    assert_eq!((kind, field.as_str()), (ErrorKind::MissingSideToMove, "to_move"));
    let (kind, _, _) = refusal(Position::from_obf(start));
    assert_eq!(kind, ErrorKind::MissingSideToMove);
    let (kind, field, _) = refusal(Position::from_obf(&format!("{start} Z")));
    assert_eq!((kind, field.as_str()), (ErrorKind::MalformedSideToMove, "to_move"));
}

#[test]
fn a_move_after_the_end_of_the_game_is_refused() {
    // The shortest game: black wipes white out in nine moves.
    let wipeout = "e6f4e3f6g5d6e7f5c5";
    let ended = Position::from_notation(wipeout).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(ended.status(), Status::Won(Player::X));
    assert_eq!(ended.final_score(), Some(64));
    assert!(ended.legal_moves().is_empty());
    let (kind, field, _) = refusal(Position::from_notation(&format!("{wipeout}a1")));
    assert_eq!((kind, field.as_str()), (ErrorKind::GameOver, "moves[9]"));
}

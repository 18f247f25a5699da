//! Gomoku's rules against a slow reference written apart from them: a
//! board of rows, five-in-a-row found by scanning every line of the board
//! for its runs. Random games on every board side from 5 to 20 under both
//! rules agree with the fast rules on the legal moves, the winner and the
//! winning line, the squares that make five, the board read back from its
//! rows, and the counts and squares the evaluation reads; the prover's
//! lines are replayed and end in the attacker's five.

use bestmove::games::board::Player;
use bestmove::games::gomoku::{
    defences, forced_loss, refutations, square_name, vcf, vct, Board, Halt, Position, Rule, Status, STRIDE,
    WINDOW_POINTS,
};
use bestmove::search::Game;

/// The reference board: `cells[row][column]`, row 0 at the bottom.
#[derive(Clone)]
struct Reference {
    size: usize,
    rule: Rule,
    cells: Vec<Vec<Option<Player>>>,
}

impl Reference {
    fn new(size: usize, rule: Rule) -> Reference {
        Reference { size, rule, cells: vec![vec![None; size]; size] }
    }

    /// Every line of the board (rows, columns, both diagonals), as the
    /// squares along it.
    fn lines(&self) -> Vec<Vec<(usize, usize)>> {
        let n = self.size as i32;
        let mut lines = Vec::new();
        for (dr, dc) in [(0, 1), (1, 0), (1, 1), (1, -1)] {
            for r in 0..n {
                for c in 0..n {
                    // A line starts where the square before it is off the board.
                    let (pr, pc) = (r - dr, c - dc);
                    if pr >= 0 && pr < n && pc >= 0 && pc < n {
                        continue;
                    }
                    let mut line = Vec::new();
                    let (mut rr, mut cc) = (r, c);
                    while rr >= 0 && rr < n && cc >= 0 && cc < n {
                        line.push((rr as usize, cc as usize));
                        rr += dr;
                        cc += dc;
                    }
                    lines.push(line);
                }
            }
        }
        lines
    }

    /// Every maximal run of one player's stones that wins under the rule.
    fn winning_runs(&self) -> Vec<(Player, Vec<(usize, usize)>)> {
        let mut runs = Vec::new();
        for line in self.lines() {
            let mut i = 0;
            while i < line.len() {
                let (r, c) = line[i];
                let Some(player) = self.cells[r][c] else {
                    i += 1;
                    continue;
                };
                let mut j = i;
                while j < line.len() && self.cells[line[j].0][line[j].1] == Some(player) {
                    j += 1;
                }
                let length = j - i;
                let wins = match self.rule {
                    Rule::Freestyle => length >= 5,
                    Rule::Standard => length == 5,
                };
                if wins {
                    runs.push((player, line[i..j].to_vec()));
                }
                i = j;
            }
        }
        runs
    }

    fn winner(&self) -> Option<Player> {
        self.winning_runs().first().map(|(player, _)| *player)
    }

    fn empty(&self) -> Vec<usize> {
        let mut cells = Vec::new();
        for r in 0..self.size {
            for c in 0..self.size {
                if self.cells[r][c].is_none() {
                    cells.push(r * STRIDE + c);
                }
            }
        }
        cells
    }

    /// The empty squares where `player` makes a winning run.
    fn winning_squares(&self, player: Player) -> Vec<usize> {
        self.empty()
            .into_iter()
            .filter(|&cell| {
                let mut board = self.clone();
                board.cells[cell / STRIDE][cell % STRIDE] = Some(player);
                board.winning_runs().iter().any(|(p, _)| *p == player)
            })
            .collect()
    }

    /// True when some window of five squares through `cell` holds
    /// `stones` stones of `player` and none of the other's.
    fn window_of(&self, cell: usize, player: Player, stones: usize) -> bool {
        self.windows_of(cell, player, stones) > 0
    }

    /// How many windows of five squares through `cell` hold `stones` of
    /// `player`'s stones and none of the other's.
    fn windows_of(&self, cell: usize, player: Player, stones: usize) -> usize {
        let (row, column) = ((cell / STRIDE) as i32, (cell % STRIDE) as i32);
        let n = self.size as i32;
        [(0, 1), (1, 0), (1, 1), (1, -1)]
            .iter()
            .map(|&(dr, dc)| {
                (-4..=0)
                    .filter(|&start| {
                        let squares: Vec<(i32, i32)> =
                            (start..start + 5).map(|k| (row + k * dr, column + k * dc)).collect();
                        if squares.iter().any(|&(r, c)| r < 0 || r >= n || c < 0 || c >= n) {
                            return false;
                        }
                        let held: Vec<Option<Player>> =
                            squares.iter().map(|&(r, c)| self.cells[r as usize][c as usize]).collect();
                        held.iter().filter(|s| **s == Some(player)).count() == stones
                            && held.iter().all(|s| s.is_none() || *s == Some(player))
                    })
                    .count()
            })
            .sum()
    }

    fn rows(&self) -> Vec<String> {
        (0..self.size)
            .rev()
            .map(|r| {
                self.cells[r]
                    .iter()
                    .map(|cell| match cell {
                        Some(Player::X) => 'X',
                        Some(Player::O) => 'O',
                        None => '.',
                    })
                    .collect()
            })
            .collect()
    }
}

/// Random games: on each side from 5 to 20 and each rule, moves at random
/// (near the stones more often than not, so that lines form), each
/// position checked against the reference.
#[test]
fn random_games_agree_with_the_reference() {
    let mut rng = fastrand::Rng::with_seed(39);
    let mut positions = 0;
    let mut wins = 0;
    for size in 5..=20 {
        for rule in [Rule::Freestyle, Rule::Standard] {
            for _ in 0..4 {
                let mut position = Position::new(size, rule);
                let mut reference = Reference::new(size, rule);
                loop {
                    positions += 1;
                    let legal = reference.empty();
                    let status = position.status();
                    match reference.winner() {
                        Some(player) => {
                            wins += 1;
                            assert_eq!(status, Status::Won(player));
                            let line = position.winning_line().expect("a winning line");
                            let runs = reference.winning_runs();
                            assert!(
                                runs.iter().any(|(_, r)| {
                                    let mut cells: Vec<usize> = r.iter().map(|&(r, c)| r * STRIDE + c).collect();
                                    cells.sort_unstable();
                                    cells == line
                                }),
                                "{line:?} is a winning run"
                            );
                            assert!(position.legal_moves().is_empty());
                            break;
                        }
                        None if legal.is_empty() => {
                            assert_eq!(status, Status::Draw);
                            break;
                        }
                        None => {
                            assert_eq!(status, Status::InProgress, "{:?}", reference.rows());
                            assert_eq!(position.legal_moves(), legal);
                        }
                    }
                    let board = position.board();
                    assert_eq!(board.rows(), reference.rows());
                    assert_eq!(board.counts(), board.recount());
                    // The squares near the stones: the empty ones within two
                    // steps of a stone or of the centre.
                    let near: Vec<usize> = legal
                        .iter()
                        .copied()
                        .filter(|&cell| {
                            let (row, column) = (cell / STRIDE, cell % STRIDE);
                            let close = |r: usize, c: usize| r.abs_diff(row) <= 2 && c.abs_diff(column) <= 2;
                            let stones = (0..size).flat_map(|r| (0..size).map(move |c| (r, c)));
                            let mut stones = stones.filter(|&(r, c)| reference.cells[r][c].is_some());
                            close(board.centre() / STRIDE, board.centre() % STRIDE) || stones.any(|(r, c)| close(r, c))
                        })
                        .collect();
                    assert_eq!(board.near_empty().collect::<Vec<_>>(), near, "{:?}", reference.rows());
                    if positions % 7 == 0 {
                        for player in [Player::X, Player::O] {
                            for &cell in &legal {
                                let windows = [
                                    board.may_make_three(cell, player),
                                    board.may_make_four(cell, player),
                                    board.may_make_five(cell, player),
                                ];
                                let expected = [2, 3, 4].map(|stones| reference.window_of(cell, player, stones));
                                assert_eq!(windows, expected, "{cell} {player} {:?}", reference.rows());
                                // The move order's gain: the window points a
                                // stone adds for its side and stops for the other.
                                let points = |k: usize| WINDOW_POINTS[k];
                                let gain: i32 = (0..=4)
                                    .map(|k| {
                                        let (mine, theirs) = (
                                            reference.windows_of(cell, player, k),
                                            reference.windows_of(cell, player.other(), k),
                                        );
                                        mine as i32 * (points(k + 1) - points(k)) + theirs as i32 * points(k)
                                    })
                                    .sum();
                                assert_eq!(board.gain(cell, player), gain, "{cell} {player} {:?}", reference.rows());
                            }
                            assert_eq!(
                                board.winning_squares(player),
                                reference.winning_squares(player),
                                "{:?}",
                                reference.rows()
                            );
                        }
                        // The evaluation's squares: where each side may make
                        // a four, and where two.
                        let features = board.features();
                        for (i, player) in [board.to_move(), board.to_move().other()].into_iter().enumerate() {
                            let threes: Vec<usize> =
                                near.iter().map(|&cell| reference.windows_of(cell, player, 3)).collect();
                            let fours = threes.iter().filter(|&&n| n >= 1).count() as i32;
                            let doubles = threes.iter().filter(|&&n| n >= 2).count() as i32;
                            assert_eq!([features[8 + i], features[10 + i]], [fours, doubles], "{:?}", reference.rows());
                        }
                    }
                    // Read back from its rows, the board is the same position.
                    if positions % 13 == 0 {
                        let rows = serde_json::json!(reference.rows());
                        let read = Position::from_json_board(&rows, Some(size), rule, None).unwrap();
                        assert_eq!(read.board(), board);
                        assert_eq!(read.status(), status);
                    }
                    // The search's moves are empty squares, and the forced
                    // ones when a five threatens.
                    let moves: Vec<u16> = board.moves().collect();
                    assert!(!moves.is_empty());
                    assert!(moves.iter().all(|&m| legal.contains(&usize::from(m))));
                    let cell = if rng.u8(..4) == 0 || board.stones() == 0 {
                        legal[rng.usize(..legal.len())]
                    } else {
                        let last = usize::from(board.last().unwrap());
                        let close: Vec<usize> = legal
                            .iter()
                            .copied()
                            .filter(|&c| {
                                let (r1, c1) = ((c / STRIDE) as i32, (c % STRIDE) as i32);
                                let (r2, c2) = ((last / STRIDE) as i32, (last % STRIDE) as i32);
                                (r1 - r2).abs() <= 2 && (c1 - c2).abs() <= 2
                            })
                            .collect();
                        if close.is_empty() {
                            legal[rng.usize(..legal.len())]
                        } else {
                            close[rng.usize(..close.len())]
                        }
                    };
                    let player = position.to_move();
                    position = position.play(cell).unwrap();
                    reference.cells[cell / STRIDE][cell % STRIDE] = Some(player);
                }
            }
        }
    }
    assert!(positions > 5_000 && wins > 50, "{positions} positions, {wins} won");
}

/// Plays `line` from `board` and returns the end.
fn replay(board: &Board, line: &[usize]) -> Board {
    line.iter().fold(board.clone(), |board, &cell| {
        assert!(board.winner().is_none() && board.cell(cell).is_none());
        board.play(cell)
    })
}

/// True when `line` is a forced win for the side to move on `board`:
/// replayed, it ends in the attacker's five, and at each defender move
/// the defender could not make five and had only the move played to stop
/// one (or none at all).
fn forced_win(board: &Board, line: &[usize]) -> bool {
    let attacker = board.to_move();
    let mut at = board.clone();
    for (i, &cell) in line.iter().enumerate() {
        if at.over() || at.cell(cell).is_some() {
            return false;
        }
        if i % 2 == 1 {
            let threats = at.winning_squares(attacker);
            if at.can_win(at.to_move()) || !(threats == [cell] || threats.len() >= 2) {
                return false;
            }
        }
        at = at.play(cell);
    }
    at.winner() == Some(attacker)
}

/// The empty squares of a board.
fn empty_squares(board: &Board) -> Vec<usize> {
    (0..board.size() * STRIDE).filter(|&cell| cell % STRIDE < board.size() && board.cell(cell).is_none()).collect()
}

/// Every line the prover finds is a forced win: replayed, it ends in the
/// attacker's five, every attacker stone but the last makes a four, and
/// at each defender move the defender could not make five and had only
/// the move played to stop one (or none at all).
#[test]
fn the_provers_lines_are_forced_wins() {
    let mut rng = fastrand::Rng::with_seed(5);
    let mut found = 0;
    for game in 0..400 {
        let size = 7 + game % 14;
        let rule = if game % 2 == 0 { Rule::Freestyle } else { Rule::Standard };
        let mut board = Board::empty(size, rule);
        while !board.over() {
            let moves: Vec<u16> = board.moves().collect();
            if let Some(line) = vcf(&board, 2_000) {
                found += 1;
                assert!(forced_win(&board, &line), "{line:?}");
                assert_eq!(replay(&board, &line).winner(), Some(board.to_move()));
            }
            if let Some(line) = forced_loss(&board, 2_000) {
                let loser = board.to_move();
                let end = replay(&board, &line);
                assert_eq!(end.winner(), Some(loser.other()), "{line:?}");
                assert!(!board.can_win(loser));
            }
            // Mostly the engine's own candidates, sometimes any square.
            let cell = if rng.u8(..5) == 0 {
                let empty: Vec<usize> = board.near_empty().collect();
                empty[rng.usize(..empty.len())]
            } else {
                usize::from(moves[rng.usize(..moves.len().min(4))])
            };
            board = board.play(cell);
        }
    }
    assert!(found > 100, "{found} wins proven");
}

/// Under the standard rule an overline neither wins nor counts as a five
/// to be made; under freestyle it does.
#[test]
fn overlines_win_only_freestyle() {
    for (rule, wins) in [(Rule::Freestyle, true), (Rule::Standard, false)] {
        let names: Vec<String> = "a8 a1 b8 a3 c8 a5 e8 a10 f8 a12".split(' ').map(String::from).collect();
        let position = Position::from_names(&names, 15, rule, |_| "moves".into()).unwrap();
        let d8 = 7 * STRIDE + 3;
        assert_eq!(position.board().wins_at(d8, Player::X), wins);
        assert_eq!(position.board().winning_squares(Player::X).contains(&d8), wins);
        assert_eq!(position.play(d8).unwrap().status() == Status::Won(Player::X), wins);
    }
}

/// A random position of a game played near the stones, `stones` stones
/// in, with no winner; `None` if the game ended first.
fn random_position(rng: &mut fastrand::Rng, size: usize, rule: Rule, stones: usize) -> Option<Board> {
    let mut board = Board::empty(size, rule);
    while board.stones() < stones {
        let near: Vec<usize> = board.near_empty().collect();
        let moves: Vec<u16> = board.moves().collect();
        let cell =
            if rng.bool() { near[rng.usize(..near.len())] } else { usize::from(moves[rng.usize(..moves.len())]) };
        board = board.play(cell);
        if board.over() {
            return None;
        }
    }
    Some(board)
}

/// The lemma the proofs by threats rest on: where the attacker would win
/// by fours were the defender to pass, a defender stone on any square
/// [`refutations`] leaves out leaves the same fours a forced win.
#[test]
fn the_defences_left_out_of_a_threat_lose_to_its_fours() {
    let mut rng = fastrand::Rng::with_seed(39);
    let mut checked = 0;
    for game in 0..600 {
        let size = 9 + game % 12;
        let rule = if game % 3 == 0 { Rule::Standard } else { Rule::Freestyle };
        let Some(board) = random_position(&mut rng, size, rule, 8 + game % 30) else { continue };
        if board.can_win(board.to_move()) || board.can_win(board.to_move().other()) {
            continue;
        }
        let mut passed = board.clone();
        passed.set_to_move(board.to_move().other());
        let Some(threat) = vcf(&passed, 2_000) else { continue };
        let counted = refutations(&board, &threat);
        for cell in empty_squares(&board).into_iter().filter(|cell| !counted.contains(cell)) {
            let after = board.play(cell);
            assert!(after.winner().is_none(), "a five left out: {cell} {:?}", board.rows());
            assert!(forced_win(&after, &threat), "{} left out: {:?} {threat:?}", square_name(cell), board.rows());
            checked += 1;
        }
    }
    assert!(checked > 10_000, "{checked} defences checked");
}

/// True when the side to move wins within `plies` plies whatever the
/// opponent plays, every empty square tried: a slow search apart from the
/// provers, for small boards.
fn wins_within(board: &Board, plies: usize) -> bool {
    let me = board.to_move();
    if plies == 0 || board.over() {
        return false;
    }
    if board.can_win(me) {
        return true;
    }
    let moves = match board.winning_squares(me.other())[..] {
        _ if plies < 3 => return false,
        [] => {
            // Only a four or a three can win in time but at the end of a
            // long enough line: the others are tried last.
            let mut squares = empty_squares(board);
            squares.sort_by_key(|&cell| !(board.may_make_four(cell, me) || board.may_make_three(cell, me)));
            squares
        }
        [only] => vec![only],
        _ => return false,
    };
    moves.into_iter().any(|cell| {
        let next = board.play(cell);
        if next.over() {
            return next.winner() == Some(me);
        }
        if next.can_win(me.other()) {
            return false;
        }
        let replies = match next.winning_squares(me)[..] {
            [] => empty_squares(&next),
            [only] => vec![only],
            _ => return true,
        };
        replies.into_iter().all(|reply| {
            let after = next.play(reply);
            !after.over() && wins_within(&after, plies - 2)
        })
    })
}

/// Every win by threats proven on a small board is a win within the
/// plies it states, by a search of every move: on boards of 7x7 to 9x9
/// with 13 empty squares (wins of up to 9 plies), and on 9x9 and 10x10
/// boards with more room (wins of up to 5 plies, as two threes at once).
#[test]
fn wins_by_threats_hold_against_every_defence() {
    let mut rng = fastrand::Rng::with_seed(7);
    let (mut proven, mut by_threes) = (0, 0);
    for game in 0..4_000 {
        let crowded = game % 2 == 0;
        let size = if crowded { 7 + game % 3 } else { 9 + game % 2 };
        let rule = if game % 4 < 2 { Rule::Standard } else { Rule::Freestyle };
        let stones = if crowded { size * size - 13 } else { 6 + game % 14 };
        let Some(board) = random_position(&mut rng, size, rule, stones) else { continue };
        let Some(proof) = vct(&board, 20_000) else { continue };
        if proof.plies > if crowded { 9 } else { 5 } {
            continue;
        }
        assert!(proof.line.len() <= proof.plies && replay(&board, &proof.line).winner() == Some(board.to_move()));
        assert!(wins_within(&board, proof.plies), "{proof:?} {:?}", board.rows());
        proven += 1;
        by_threes += usize::from(vcf(&board, 20_000).is_none());
    }
    assert!(proven > 100 && by_threes > 10, "{proven} proven, {by_threes} by threes");
}

/// Two twos crossing on an empty square: no win by fours, but the square
/// makes two threes, and the defender cannot stop both.
#[test]
fn a_double_three_is_proven_won_by_threats() {
    let names: Vec<String> = "g8 a1 h8 o1 j10 a15 j9 o15".split(' ').map(String::from).collect();
    let position = Position::from_names(&names, 15, Rule::Freestyle, |_| "moves".into()).unwrap();
    let board = position.board();
    assert!(vcf(board, 100_000).is_none());
    let proof = vct(board, 100_000).expect("a win by threats");
    assert!(proof.plies >= proof.line.len() && proof.plies <= 9, "{proof:?}");
    assert_eq!(replay(board, &proof.line).winner(), Some(Player::X));
    // Whatever O answers the first threat with, X wins again.
    let next = board.play(proof.line[0]);
    for reply in empty_squares(&next) {
        let after = next.play(reply);
        let rest = vct(&after, 100_000).unwrap_or_else(|| panic!("{} holds", square_name(reply)));
        assert!(2 + rest.plies <= proof.plies, "{} {rest:?} {proof:?}", square_name(reply));
    }
}

/// A four that also blocks the opponent's threat is a defence, not a
/// delay: O's l8 makes a four (k8 to n8) and stands on X's diagonal j6-k7,
/// which X's threat needs. It is the only move that holds (Rapfi, a
/// million positions deep, in `tests/data/gomoku/defence.txt`), and the
/// moves kept against the threat keep it.
#[test]
fn a_four_on_the_threat_is_kept_among_the_defences() {
    let names: Vec<String> =
        "k7 i7 k5 h6 g7 m8 j8 i9 j6 j5 k6 k8 l6 m6 m7 n8 o7".split(' ').map(String::from).collect();
    let position = Position::from_names(&names, 15, Rule::Freestyle, |_| "moves".into()).unwrap();
    let board = position.board();
    let square = |name: &str| bestmove::games::gomoku::parse_square(name, 15).unwrap();
    // X threatens a win were O to pass; l8 meets it.
    let left = defences(board, &[], 75_000, 225_000, Halt::default()).expect("X threatens a win");
    assert!(left.contains(&square("l8")), "{:?}", left.iter().map(|&c| square_name(c)).collect::<Vec<_>>());
    assert!(vct(&board.play(square("l8")), 300_000).is_none());
}

/// The positions of a suite of `tests/data/gomoku` (made with the
/// reference, see scripts/gomoku_suites.py), each with its good moves.
fn suite(file: &str) -> Vec<(Board, Vec<usize>)> {
    let path = format!("{}/tests/data/gomoku/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(path).unwrap();
    let square = |name: &str| bestmove::games::gomoku::parse_square(name, 15).unwrap();
    text.lines()
        .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
        .map(|line| {
            let fields: Vec<&str> = line.split('|').map(str::trim).collect();
            let names: Vec<String> = fields[0].split_whitespace().map(String::from).collect();
            let position = Position::from_names(&names, 15, Rule::Freestyle, |_| "moves".into()).unwrap();
            (position.board().clone(), fields[1].split_whitespace().map(square).collect())
        })
        .collect()
}

/// The provers spend their positions where proofs are: with the
/// positions a one-second request gives them, the proof by threats finds
/// a win in more than half of the suite's won positions (each a line of
/// the side to move's, ending in its five), and the defences against a
/// threat come down to the moves that hold alone in two thirds of the
/// suite's defences (the holding moves never left out). A three is told
/// by the few positions its fours take: searching up to a thousand
/// positions for each candidate three's fours, the same budgets found 29
/// wins and 35 such defences.
#[test]
fn the_provers_find_most_suite_proofs_within_a_requests_positions() {
    let wins = suite("win.txt");
    let mut proven = 0;
    for (board, _) in &wins {
        if let Some(proof) = vct(board, 300_000) {
            assert_eq!(replay(board, &proof.line).winner(), Some(board.to_move()));
            proven += 1;
        }
    }
    let defended = suite("defence.txt");
    let mut narrowed = 0;
    for (board, holding) in &defended {
        let mut candidates = Vec::new();
        board.candidates(&mut candidates);
        let others: Vec<usize> = candidates.iter().map(|&(cell, _)| usize::from(cell)).collect();
        let left = defences(board, &others, 75_000, 750_000, Halt::default()).expect("a threat to meet");
        assert!(left.iter().any(|cell| holding.contains(cell)), "a holding move left out: {:?}", board.rows());
        narrowed += usize::from(left.iter().all(|cell| holding.contains(cell)));
    }
    assert!(proven * 2 > wins.len() && narrowed * 3 >= defended.len() * 2, "{proven} wins, {narrowed} defences");
}

/// Under a budget, the engine first searches the late candidates that
/// neither make nor stop a four a ply or two shallower (late move
/// reductions), so that the same budget reaches deeper than a search that
/// reduces nothing (full-width): never shallower on the suites' positions,
/// deeper on most. A win or loss it finds forced within its search, a
/// full-width search to the same depth finds too; a search to a fixed
/// depth reduces nothing, so it visits what the full-width one does.
#[test]
fn under_a_budget_late_quiet_moves_are_searched_shallower_first() {
    use bestmove::search::{engine, EngineOptions, Limits, Table};
    let mut positions = suite("win.txt");
    positions.extend(suite("defence.txt"));
    let search = |board: &Board, limits: Limits, full_width: bool| {
        let mut table = Table::with_bytes(16 << 20);
        let options = EngineOptions { full_width, score_root_moves: false, ..EngineOptions::default() };
        engine(board, limits, &mut table, options, &mut |_| {}).unwrap()
    };
    let budget = Limits { node_budget: Some(60_000), ..Limits::default() };
    let (mut deeper, mut shallower, mut forced, mut checked) = (0, 0, 0, 0);
    for (board, _) in positions.iter().step_by(5) {
        let (reduced, full) = (search(board, budget, false), search(board, budget, true));
        deeper += usize::from(reduced.depth > full.depth);
        shallower += usize::from(reduced.depth < full.depth);
        if reduced.score.heuristic().is_none() && reduced.score.value() != 0 {
            let to_depth = Limits { max_depth: Some(reduced.depth), ..Limits::default() };
            let full = search(board, to_depth, true);
            assert_eq!(full.score.value().signum(), reduced.score.value().signum(), "{:?}", board.rows());
            forced += 1;
        }
        if checked % 4 == 0 {
            let to_depth = Limits { max_depth: Some(4), ..Limits::default() };
            let (a, b) = (search(board, to_depth, false), search(board, to_depth, true));
            assert_eq!((a.nodes, a.score, a.best_move), (b.nodes, b.score, b.best_move), "{:?}", board.rows());
        }
        checked += 1;
    }
    assert!(
        shallower == 0 && deeper * 2 > checked && forced > 0,
        "deeper on {deeper}, shallower on {shallower} of {checked} positions; {forced} forced"
    );
}

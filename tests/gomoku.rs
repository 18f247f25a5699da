//! Gomoku's rules against a slow reference written apart from them: a
//! board of rows, five-in-a-row found by scanning every line of the board
//! for its runs. Random games on every board side from 5 to 20 under both
//! rules agree with the fast rules on the legal moves, the winner and the
//! winning line, the squares that make five, the board read back from its
//! rows, and the counts the evaluation keeps up to date; the prover's
//! lines are replayed and end in the attacker's five.

use bestmove::games::board::Player;
use bestmove::games::gomoku::{forced_loss, vcf, Board, Position, Rule, Status, STRIDE};
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

    /// True when some window of five squares through `cell` holds three
    /// stones of `player` and none of the other's.
    fn window_of_three(&self, cell: usize, player: Player) -> bool {
        let (row, column) = ((cell / STRIDE) as i32, (cell % STRIDE) as i32);
        let n = self.size as i32;
        [(0, 1), (1, 0), (1, 1), (1, -1)].iter().any(|&(dr, dc)| {
            (-4..=0).any(|start| {
                let squares: Vec<(i32, i32)> = (start..start + 5).map(|k| (row + k * dr, column + k * dc)).collect();
                if squares.iter().any(|&(r, c)| r < 0 || r >= n || c < 0 || c >= n) {
                    return false;
                }
                let stones: Vec<Option<Player>> =
                    squares.iter().map(|&(r, c)| self.cells[r as usize][c as usize]).collect();
                stones.iter().filter(|s| **s == Some(player)).count() == 3
                    && stones.iter().all(|s| s.is_none() || *s == Some(player))
            })
        })
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
                    if positions % 7 == 0 {
                        for player in [Player::X, Player::O] {
                            for &cell in &legal {
                                assert_eq!(
                                    board.may_make_four(cell, player),
                                    reference.window_of_three(cell, player),
                                    "{cell} {player} {:?}",
                                    reference.rows()
                                );
                            }
                            assert_eq!(
                                board.winning_squares(player),
                                reference.winning_squares(player),
                                "{:?}",
                                reference.rows()
                            );
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
                let attacker = board.to_move();
                let mut at = board.clone();
                for (i, &cell) in line.iter().enumerate() {
                    assert!(at.winner().is_none());
                    if i % 2 == 1 {
                        // The defender: no five of its own, and the attacker
                        // threatens five on this square (or on two).
                        assert!(!at.can_win(at.to_move()), "{line:?}");
                        let threats = at.winning_squares(attacker);
                        assert!(threats.contains(&cell) || threats.len() >= 2, "{line:?}");
                    }
                    at = at.play(cell);
                }
                assert_eq!(at.winner(), Some(attacker));
                assert_eq!(replay(&board, &line).winner(), Some(attacker));
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

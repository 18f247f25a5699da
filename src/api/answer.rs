//! Running a validated request through both searches, and the JSON answer.

use std::sync::atomic::AtomicBool;

use serde::Serialize;

use super::request::{GameInput, SearchRequest};
use crate::games::tictactoe::{Position, Status};
use crate::search::{alpha_beta, choose, minimax, Cancelled, Game, Limits, SearchResult, TieBreak};

/// One algorithm's own result.
#[derive(Debug, Serialize)]
pub struct AlgorithmReport {
    /// Its best move (first among equals); `null` when the game is over.
    pub best_move: Option<u64>,
    /// Its score, in the same units as the answer's `score`.
    pub score: i64,
    /// False when the depth limit cut a line.
    pub exact: bool,
    /// Plies to the end of the line of best play, when exact.
    pub plies_to_end: Option<u64>,
    /// Its line of best play.
    pub principal_variation: Vec<u64>,
    /// Positions visited, the root included.
    pub nodes: u64,
    /// Time spent searching, in microseconds.
    pub elapsed_us: u64,
}

/// A legal move and its score under best play.
#[derive(Debug, Serialize)]
pub struct MoveScore {
    /// The move: a cell index for a board, a child index for a tree.
    #[serde(rename = "move")]
    pub mv: u64,
    /// The child's name (trees only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<Option<String>>,
    /// The move's score.
    pub score: i64,
    /// Plies to the end of its line, when exact.
    pub plies_to_end: Option<u64>,
}

/// The `200` answer to `POST /best-move`.
#[derive(Debug, Serialize)]
pub struct Answer {
    /// "board" or "tree".
    pub kind: &'static str,
    /// The move to play; `null` when the game is over.
    pub best_move: Option<u64>,
    /// Trees only: the chosen child's name, or `null`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub best_move_name: Option<Option<String>>,
    /// True when `mistake` made the answer a random legal move.
    pub random_move: bool,
    /// The score of `best_move` itself, as in `moves`: below `score` when a
    /// mistake chose a worse move; `null` when the game is over.
    pub best_move_score: Option<i64>,
    /// The position's score under best play (not that of a random move).
    pub score: i64,
    /// False when the depth limit cut a line.
    pub exact: bool,
    /// Plies to the end under best play, when exact.
    pub plies_to_end: Option<u64>,
    /// Board-only facts (flattened into the answer).
    #[serde(flatten)]
    pub board: Option<BoardFacts>,
    /// Trees only: whether the root maximizes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub maximizing: Option<bool>,
    /// The line of best play.
    pub principal_variation: Vec<u64>,
    /// Every legal move with its score, in move order.
    pub moves: Vec<MoveScore>,
    /// The depth limit, as requested.
    pub max_depth: Option<u32>,
    /// "first" or "random".
    pub tie_break: &'static str,
    /// The mistake probability, as requested.
    pub mistake: f64,
    /// The seed behind every random choice.
    pub seed: u64,
    /// Plain minimax's own result.
    pub minimax: AlgorithmReport,
    /// Alpha-beta's own result.
    pub alphabeta: AlgorithmReport,
}

/// What a board answer says about the position before and after the move.
#[derive(Debug, Serialize)]
pub struct BoardFacts {
    /// "X" or "O".
    pub to_move: &'static str,
    /// The position's status.
    pub status: &'static str,
    /// Who has won, if anyone.
    pub winner: Option<&'static str>,
    /// The winning line, if any.
    pub winning_line: Option<[u8; 3]>,
    /// The board once `best_move` is played.
    pub board_after: Option<String>,
    /// Its status.
    pub status_after: &'static str,
    /// Its winner.
    pub winner_after: Option<&'static str>,
    /// Its winning line.
    pub winning_line_after: Option<[u8; 3]>,
}

fn winner_of(status: Status) -> (Option<&'static str>, Option<[u8; 3]>) {
    match status {
        Status::Won(player, line) => (Some(player.as_str()), Some(line)),
        _ => (None, None),
    }
}

/// Both searches over one game, and the move chosen for the caller.
struct Searched<M> {
    minimax: SearchResult<M>,
    alphabeta: SearchResult<M>,
    choice: Option<crate::search::Choice<M>>,
}

fn search_both<G: Game>(
    game: &G,
    request: &SearchRequest,
    cancel: &AtomicBool,
) -> Result<Searched<G::Move>, Cancelled> {
    let limits = Limits { max_depth: request.max_depth, cancel: Some(cancel) };
    let minimax = minimax(game, limits)?;
    let alphabeta = alpha_beta(game, limits)?;
    let mut rng = fastrand::Rng::with_seed(request.seed);
    let choice = choose(&minimax.root_moves, request.tie_break, request.mistake, &mut rng);
    Ok(Searched { minimax, alphabeta, choice })
}

/// Runs both searches and builds the answer. `cancel` abandons the work.
pub fn answer(request: &SearchRequest, cancel: &AtomicBool) -> Result<Answer, Cancelled> {
    match &request.game {
        GameInput::Board(position) => board_answer(position, request, cancel),
        GameInput::Tree { tree, maximizing } => {
            // Reading the request checked the tree against this depth limit,
            // and refused it if it failed, so this cannot fail.
            let game = tree.game(*maximizing, request.max_depth).map_err(|_| Cancelled)?;
            let searched = search_both(&game, request, cancel)?;
            // Scores are reported in the tree's own units: the root's view
            // negated when the root minimizes.
            let sign = if *maximizing { 1 } else { -1 };
            let names = tree.root_child_names();
            let name_of = |mv: u32| names.get(mv as usize).copied().flatten().map(str::to_string);
            let mut answer = common("tree", &searched, request, sign, |mv| mv as u64);
            answer.best_move_name = Some(searched.choice.and_then(|c| name_of(c.mv)));
            for entry in &mut answer.moves {
                entry.name = Some(name_of(entry.mv as u32));
            }
            answer.maximizing = Some(*maximizing);
            Ok(answer)
        }
    }
}

fn board_answer(position: &Position, request: &SearchRequest, cancel: &AtomicBool) -> Result<Answer, Cancelled> {
    let searched = search_both(&position.game(), request, cancel)?;
    let mut answer = common("board", &searched, request, 1, u64::from);
    let status = position.status();
    let after = searched.choice.and_then(|c| position.play(c.mv));
    let status_after = after.map_or(status, |p| p.status());
    let (winner, winning_line) = winner_of(status);
    let (winner_after, winning_line_after) = winner_of(status_after);
    answer.board = Some(BoardFacts {
        to_move: position.to_move().as_str(),
        status: status.as_str(),
        winner,
        winning_line,
        board_after: after.map(|p| p.to_string()),
        status_after: status_after.as_str(),
        winner_after,
        winning_line_after,
    });
    Ok(answer)
}

fn report<M: Copy>(result: &SearchResult<M>, sign: i64, id: impl Fn(M) -> u64) -> AlgorithmReport {
    AlgorithmReport {
        best_move: result.best_move.map(&id),
        score: sign * result.score.value(),
        exact: result.exact,
        plies_to_end: result.exact.then_some(result.principal_variation.len() as u64),
        principal_variation: result.principal_variation.iter().map(|&m| id(m)).collect(),
        nodes: result.nodes,
        elapsed_us: result.elapsed.as_micros() as u64,
    }
}

/// The score of the move answered, as `moves` lists it; `None` when there
/// is no move.
fn played_score(moves: &[MoveScore], played: Option<u64>) -> Option<i64> {
    played.and_then(|mv| moves.iter().find(|m| m.mv == mv)).map(|m| m.score)
}

fn common<M: Copy>(
    kind: &'static str,
    s: &Searched<M>,
    request: &SearchRequest,
    sign: i64,
    id: impl Fn(M) -> u64,
) -> Answer {
    let minimax = report(&s.minimax, sign, &id);
    let alphabeta = report(&s.alphabeta, sign, &id);
    let moves = s
        .minimax
        .root_moves
        .iter()
        .map(|m| MoveScore {
            mv: id(m.mv),
            name: None,
            score: sign * m.score.value(),
            plies_to_end: s.minimax.exact.then_some(u64::from(m.plies)),
        })
        .collect::<Vec<MoveScore>>();
    let chosen = s.choice.map(|c| id(c.mv));
    let best_move_score = played_score(&moves, chosen);
    Answer {
        kind,
        best_move: chosen,
        best_move_name: None,
        random_move: s.choice.is_some_and(|c| c.random_move),
        best_move_score,
        score: minimax.score,
        exact: minimax.exact,
        plies_to_end: minimax.plies_to_end,
        board: None,
        maximizing: None,
        principal_variation: minimax.principal_variation.clone(),
        moves,
        max_depth: request.max_depth,
        tie_break: match request.tie_break {
            TieBreak::First => "first",
            TieBreak::Random => "random",
        },
        mistake: request.mistake,
        seed: request.seed,
        minimax,
        alphabeta,
    }
}

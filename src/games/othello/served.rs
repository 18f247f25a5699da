//! Othello as the service serves it: `moves` (a string in the usual
//! notation, or an array of square names) or a `board` with `to_move`,
//! answered by the engine with the exact endgame solver as its oracle.

use std::sync::atomic::AtomicBool;

use serde_json::Value;

use super::{move_name, Endgame, ErrorKind, OthelloError, Position, Status, BOARD_SHAPE, MOVES_SHAPE, PASS};
use crate::games::board::{moves_or_board, side_to_move, BoardFacts, PositionField, Standing};
use crate::search::{Cancelled, Score};
use crate::suggest::answer::Place;
use crate::suggest::pipeline::{engine, EngineGame};
use crate::suggest::request::read_position;
use crate::suggest::{
    Answer, Context, Fields, InputError, MoveId, Options, Played, PlayedGame, ProgressReport, Scale, ServedPosition,
    Style,
};

/// A level's style: deeper and sharper with each level, the time budget
/// at level 10; the choice weighs evaluations, an exact score counting
/// 100 points a disc ([`points`]).
pub fn style(level: u8) -> Style {
    const DEPTH: [Option<u32>; 10] =
        [Some(1), Some(1), Some(2), Some(2), Some(3), Some(4), Some(5), Some(6), Some(8), None];
    const TEMPERATURE: [f64; 10] = [600.0, 200.0, 200.0, 60.0, 60.0, 40.0, 20.0, 10.0, 5.0, 0.0];
    Style::at(level, &DEPTH, &TEMPERATURE)
}

/// A score in the evaluation's points, which a level's choice weighs: a
/// final disc difference counts 100 points a disc, as the evaluation's
/// points are about a hundredth of a disc.
pub fn points(score: Score) -> Score {
    match score.heuristic() {
        Some(_) => score,
        None => Score::evaluation((score.value().clamp(-64, 64) * 100) as i32),
    }
}

/// Moves as square names, or `"pass"`.
fn square(mv: u64) -> MoveId {
    MoveId::Name(move_name(mv.min(u64::from(PASS)) as u8))
}

/// A game as the request wrote it, so that the answer gives the game after
/// its move in the same notation (and the same JSON: a string or an array).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(untagged)]
pub enum MoveList {
    /// Square names in one string, passes left out (`"f5d6c3"`).
    Squares(String),
    /// Square names in an array (`["f5", "d6"]`), with `"pass"` where the
    /// request wrote one.
    Names(Vec<String>),
}

impl MoveList {
    /// The list with `mv` (a square, 0 to 63, or [`PASS`]) played after
    /// it. A move is written in the case of the last one, in a string after
    /// the separator between its last two moves (its first two
    /// characters).
    pub fn then(&self, mv: u8) -> MoveList {
        match self {
            // A string leaves passes out, so the same string would ask for
            // the same pass again: the game goes on as an array of its
            // names, as written, ending in the pass.
            MoveList::Squares(text) if mv == PASS => {
                let squares: Vec<char> = text.chars().filter(|c| !c.is_whitespace() && *c != ',').collect();
                let mut names: Vec<String> = squares.chunks(2).map(|pair| pair.iter().collect()).collect();
                names.push(move_name(PASS));
                MoveList::Names(names)
            }
            MoveList::Squares(text) => {
                let separator = |c: char| c.is_whitespace() || c == ',';
                let body = text.trim_end_matches(separator);
                // A string that was read as moves ends in an ASCII square.
                let before_last = &body[..body.len().saturating_sub(2)];
                let gap: String =
                    before_last[before_last.trim_end_matches(separator).len()..].chars().take(2).collect();
                let upper = body.bytes().rev().nth(1).is_some_and(|b| b.is_ascii_uppercase());
                MoveList::Squares(format!("{body}{gap}{}", name(mv, upper)))
            }
            MoveList::Names(names) => {
                let upper =
                    names.last().is_some_and(|name| name.bytes().next().is_some_and(|b| b.is_ascii_uppercase()));
                let mut names = names.clone();
                names.push(name(mv, upper));
                MoveList::Names(names)
            }
        }
    }
}

/// A move's name, in upper case if asked.
fn name(mv: u8, upper: bool) -> String {
    let name = move_name(mv);
    if upper {
        name.to_ascii_uppercase()
    } else {
        name
    }
}

/// The discs of each colour on a board.
#[derive(Debug, serde::Serialize)]
struct Discs {
    /// Black's discs.
    #[serde(rename = "X")]
    x: u32,
    /// White's discs.
    #[serde(rename = "O")]
    o: u32,
}

impl Discs {
    fn of(position: &Position) -> Discs {
        let (x, o) = position.disc_counts();
        Discs { x, o }
    }
}

/// An Othello position to answer, and the game as the request wrote it
/// (for a game sent as moves).
#[derive(Debug)]
pub struct Question {
    position: Position,
    moves: Option<MoveList>,
}

/// Reads the position from exactly one of `moves` (black first, no
/// `to_move`) or `board` with `to_move`, refusing the other games' fields.
pub fn read(fields: &Fields<'_>) -> Result<Box<dyn ServedPosition>, InputError> {
    let field = moves_or_board(
        "othello",
        fields,
        &[("maximizing", "black moves first; with a board, to_move says whose turn it is")],
        "an othello request needs \"moves\" (such as \"f5d6c3\" or [\"f5\", \"d6\", \"c3\"]) or \"board\" (64 squares, or 8 rows of 8, row 1 first) with \"to_move\"",
    )?;
    let (position, moves) = match field {
        PositionField::Moves(moves) => {
            if fields.get("to_move").is_some() {
                return Err(InputError::invalid(
                    "invalid_request",
                    "to_move".to_string(),
                    "to_move does not apply to othello moves: black moves first, and a side with no move passes, so the moves say whose turn it is",
                ));
            }
            let value = read_position(moves, "moves", "invalid_moves", MOVES_SHAPE)?;
            let position = Position::from_json_moves(&value).map_err(error)?;
            // The position was read from this value, so it is a string or
            // an array of strings.
            let list = match value {
                Value::String(text) => MoveList::Squares(text),
                Value::Array(items) => {
                    MoveList::Names(items.iter().filter_map(Value::as_str).map(str::to_string).collect())
                }
                _ => return Err(InputError::invalid("invalid_moves", "moves".to_string(), MOVES_SHAPE)),
            };
            (position, Some(list))
        }
        PositionField::Board(board) => {
            let to_move = side_to_move(fields.get("to_move"))?;
            let value = read_position(board, "board", "invalid_board", BOARD_SHAPE)?;
            (Position::from_json_board(&value, to_move).map_err(error)?, None)
        }
    };
    Ok(Box::new(Question { position, moves }))
}

/// An Othello error: a move that is malformed, illegal or after the end is
/// `invalid_moves`; a board of the wrong shape or with an unknown symbol
/// `invalid_board`; an empty centre square, which no game produces,
/// `impossible_position`; a board without `to_move` `invalid_request`, and
/// a `to_move` that is no side `invalid_option`.
fn error(error: OthelloError) -> InputError {
    let code = match error.kind {
        ErrorKind::MalformedMove | ErrorKind::IllegalMove | ErrorKind::GameOver => "invalid_moves",
        ErrorKind::BoardShape | ErrorKind::MalformedSquare => "invalid_board",
        ErrorKind::EmptyCentre => "impossible_position",
        ErrorKind::MissingSideToMove => "invalid_request",
        ErrorKind::MalformedSideToMove => "invalid_option",
    };
    InputError::invalid(code, error.field, error.message)
}

fn standing(status: Status) -> Standing {
    let winner = match status {
        Status::Won(player) => Some(player.as_str()),
        _ => None,
    };
    Standing { status: status.as_str(), winner, line: None }
}

impl ServedPosition for Question {
    fn style(&self, level: u8) -> Style {
        style(level)
    }

    /// Scores are final disc differences for the side to move when exact;
    /// otherwise 0 with the evaluation, in about hundredths of a disc.
    fn answer(
        &self,
        options: &Options,
        context: &Context<'_>,
        cancel: &AtomicBool,
        progress: &mut dyn FnMut(&ProgressReport),
    ) -> Result<Answer, Cancelled> {
        let position = &self.position;
        let rules = EngineGame { kind: "othello", name: square, draw_plies: None, level_score: points };
        let oracle = Endgame::default();
        let (mut answer, choice) = engine(&position.game(), &oracle, rules, options, context, cancel, progress)?;
        let status = position.status();
        let after = choice.and_then(|c| position.play(c.mv));
        let status_after = after.map_or(status, |p| p.status());
        let mover = Some(position.to_move());
        BoardFacts {
            to_move: position.to_move().as_str(),
            before: standing(status),
            discs: Some(Discs::of(position)),
            board_after: after.map(|p| p.rows()),
            after: standing(status_after),
            discs_after: Some(after.as_ref().map(Discs::of)),
            next: after.map(|p| (p.to_move().as_str(), p.legal_moves())),
            name: square,
            flipped: Some(after.as_ref().map(|after| {
                (0..64u8)
                    .filter(|&at| position.cell(at).is_some_and(|c| Some(c) != mover) && after.cell(at) == mover)
                    .map(|at| square(u64::from(at)))
                    .collect()
            })),
            lined: false,
        }
        .write(&mut answer.extra);
        let moves_after = self.moves.as_ref().zip(choice).map(|(moves, c)| moves.then(c.mv));
        answer.extra.push(Place::AfterSeed, "moves_after", &moves_after);
        Ok(answer)
    }
}

/// Othello's scores are disc differences, and its evaluation counts 100
/// points a disc: a review reads both in discs. A margin of `d` discs has
/// a winning chance of 1 / (1 + e^(-0.07 d)) (10 discs, 67%; 30 discs,
/// 89%): near an even game a move that loses about 3 discs is an
/// inaccuracy, 6 a mistake, 9 a blunder. A move that keeps a proven
/// outcome is good within 4 discs of the best.
const REVIEW_SCALE: Scale =
    Scale { points_per_unit: Some(100.0), chance_slope: 0.0007, distance_counts: false, good_margin: 4 };

/// Reads a game to review from `moves`: each move with the position it
/// was played in (the passes left out).
pub fn read_game(fields: &Fields<'_>) -> Result<PlayedGame, InputError> {
    let raw = fields.get("moves").ok_or_else(|| InputError::invalid("invalid_request", None, MOVES_SHAPE))?;
    let value = read_position(raw, "moves", "invalid_moves", MOVES_SHAPE)?;
    // A game may start from a board (with the side to move).
    let start = match fields.get("board") {
        Some(board) => {
            let to_move = side_to_move(fields.get("to_move"))?;
            let board = read_position(board, "board", "invalid_board", BOARD_SHAPE)?;
            Position::from_json_board(&board, to_move).map_err(error)?
        }
        None => Position::START,
    };
    let plies = Position::game_from_json_moves(start, &value)
        .map_err(error)?
        .into_iter()
        .map(|(index, mv, position)| Played {
            notation: Value::String(move_name(mv)),
            name: square(u64::from(mv)),
            index,
            mover: position.to_move().as_str(),
            before: Box::new(Question { position, moves: None }),
            after: None,
        })
        .collect();
    Ok(PlayedGame { game: "othello", plies, scale: REVIEW_SCALE })
}

//! Tic-tac-toe as the service serves it: a `board` (with `to_move`),
//! answered from plain minimax, every cell's exact score.

use std::sync::atomic::AtomicBool;

use super::{cells_from_json, BoardError, Position, Status, BOARD_SHAPE};
use crate::games::board::{side_to_move, BoardFacts, Standing};
use crate::search::{Cancelled, Table};
use crate::suggest::pipeline::{plain, plain_answer};
use crate::suggest::request::read_position;
use serde_json::Value;

use crate::suggest::{
    Answer, Context, Fields, InputError, MoveId, Options, Played, PlayedGame, ProgressReport, Scale, ServedPosition,
    Style,
};

/// A level's style: the whole game is always searched (it is small); the
/// choice softens, in [`crate::search::utility`]'s units.
pub fn style(level: u8) -> Style {
    const TEMPERATURE: [f64; 10] = [700.0, 600.0, 520.0, 460.0, 410.0, 370.0, 330.0, 300.0, 270.0, 0.0];
    Style::at(level, &[None; 10], &TEMPERATURE)
}

/// Reads the position from the request's `board` and `to_move`,
/// refusing `maximizing` (a tree's).
pub fn read(fields: &Fields<'_>) -> Result<Box<dyn ServedPosition>, InputError> {
    if fields.get("maximizing").is_some() {
        return Err(InputError::invalid(
            "invalid_request",
            "maximizing".to_string(),
            "maximizing applies to trees only: for a board, to_move says whose turn it is",
        ));
    }
    let to_move = side_to_move(fields.get("to_move"))?;
    let board = fields.get("board").ok_or_else(|| InputError::invalid("invalid_request", None, BOARD_SHAPE))?;
    let value = read_position(board, "board", "invalid_board", BOARD_SHAPE)?;
    let cells = cells_from_json(&value).map_err(board_error)?;
    Ok(Box::new(Position::new(cells, to_move).map_err(board_error)?))
}

fn board_error(error: BoardError) -> InputError {
    match error {
        BoardError::Invalid { field, message } => InputError::invalid("invalid_board", field, message),
        BoardError::Impossible { message } => InputError::invalid("impossible_position", "board".to_string(), message),
        BoardError::ToMoveContradiction { message } => {
            InputError::invalid("impossible_position", "to_move".to_string(), message)
        }
    }
}

thread_local! {
    /// Tic-tac-toe's table, one per thread that searches, reused by every
    /// answer (a new search makes the old entries read as empty). The game
    /// has a few thousand positions in all, which 8,192 entries hold; a
    /// fresh table per answer would be allocated and zeroed for nothing.
    static TABLE: std::cell::RefCell<Table> = std::cell::RefCell::new(Table::with_bytes(1 << 17));
}

fn standing(status: Status) -> Standing {
    let won = match &status {
        Status::Won(player, line) => Some((*player, &line[..])),
        _ => None,
    };
    Standing::of(status.as_str(), won)
}

impl ServedPosition for Position {
    fn style(&self, level: u8) -> Style {
        style(level)
    }

    fn work_estimate(&self) -> u64 {
        // Sum over the depth of the falling factorials of the empty cells:
        // the size of the full game tree, ignoring early wins.
        let empty = self.legal_moves().len() as u64;
        let (mut total, mut layer) = (1u64, 1u64);
        for k in 0..empty {
            layer *= empty - k;
            total += layer;
        }
        total
    }

    fn answer(
        &self,
        options: &Options,
        context: &Context<'_>,
        cancel: &AtomicBool,
        progress: &mut dyn FnMut(&ProgressReport),
    ) -> Result<Answer, Cancelled> {
        let game = self.game();
        let searched =
            TABLE.with_borrow_mut(|table| plain(&game, options, context, table, 1, false, cancel, progress))?;
        let mut answer = plain_answer("board", &searched, options, context, 1);
        let status = self.status();
        let after = searched.choice.and_then(|c| self.play(c.mv));
        let status_after = after.map_or(status, |p| p.status());
        BoardFacts::lined(
            self.to_move().as_str(),
            (standing(status), standing(status_after)),
            after.map(|p| p.to_string()),
            after.map(|p| (p.to_move().as_str(), p.legal_moves())),
        )
        .write(&mut answer.extra);
        Ok(answer)
    }
}

/// What a tic-tac-toe game to review is.
const MOVES_SHAPE: &str =
    "moves is the game's cells in order, X first: an array of cell numbers 0 to 8 ([4, 0, 8]) or a string of digits 0 to 8 (\"408\"); cells count from 0 at the top left, row by row";

/// Tic-tac-toe's scores are +1, 0 and -1, always exact: a review weighs
/// them by their outcome.
const REVIEW_SCALE: Scale = Scale { points_per_unit: None, chance_slope: 0.01, distance_counts: true, good_margin: 0 };

/// Reads a game to review from `moves`: each move with the position it
/// was played in.
pub fn read_game(fields: &Fields<'_>) -> Result<PlayedGame, InputError> {
    let raw = fields.get("moves").ok_or_else(|| InputError::invalid("invalid_request", None, MOVES_SHAPE))?;
    let value = read_position(raw, "moves", "invalid_moves", MOVES_SHAPE)?;
    let invalid = |i: usize, message: String| InputError::invalid("invalid_moves", format!("moves[{i}]"), message);
    let written: Vec<(Value, Option<u8>)> = match &value {
        Value::String(digits) => {
            digits.chars().map(|d| (Value::String(d.to_string()), d.to_digit(10).map(|d| d as u8))).collect()
        }
        Value::Array(items) => {
            items.iter().map(|c| (c.clone(), c.as_u64().and_then(|c| u8::try_from(c).ok()))).collect()
        }
        _ => return Err(InputError::invalid("invalid_moves", "moves".to_string(), MOVES_SHAPE)),
    };
    if written.len() > 9 {
        return Err(InputError::invalid(
            "invalid_moves",
            "moves".to_string(),
            format!("a game has at most 9 moves; this one has {}", written.len()),
        ));
    }
    // A game may start from a board (with the side to move, if the
    // stones do not say).
    let mut position = match fields.get("board") {
        Some(board) => {
            let to_move = side_to_move(fields.get("to_move"))?;
            let board = read_position(board, "board", "invalid_board", BOARD_SHAPE)?;
            Position::new(cells_from_json(&board).map_err(board_error)?, to_move).map_err(board_error)?
        }
        None => Position::EMPTY,
    };
    let mut plies = Vec::with_capacity(written.len());
    for (index, (notation, cell)) in written.into_iter().enumerate() {
        let Some(cell) = cell.filter(|&c| c < 9) else {
            return Err(invalid(index, format!("{} is not a cell: a move is a cell number from 0 to 8", notation)));
        };
        if position.status() != Status::InProgress {
            return Err(invalid(index, "the game is over before this move".to_string()));
        }
        let Some(after) = position.play(cell) else {
            return Err(invalid(
                index,
                format!("cell {cell} is taken: the free cells are {:?}", position.legal_moves()),
            ));
        };
        plies.push(Played {
            notation,
            name: MoveId::Index(u64::from(cell)),
            index,
            mover: position.to_move().as_str(),
            before: Box::new(position),
            after: None,
        });
        position = after;
    }
    Ok(PlayedGame { game: "tictactoe", plies, scale: REVIEW_SCALE })
}

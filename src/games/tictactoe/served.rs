//! Tic-tac-toe as the service serves it: a `board` (with `to_move`),
//! answered from plain minimax, every cell's exact score.

use std::sync::atomic::AtomicBool;

use super::{cells_from_json, BoardError, Position, Status, BOARD_SHAPE};
use crate::games::board::{side_to_move, BoardFacts, Standing};
use crate::search::{Cancelled, Table};
use crate::suggest::pipeline::{plain, plain_answer};
use crate::suggest::request::read_position;
use crate::suggest::{Answer, Context, Fields, InputError, Options, ProgressReport, ServedPosition, Style};

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

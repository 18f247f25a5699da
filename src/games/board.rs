//! What the board games share: the two players, reading a board's cells
//! from JSON, and the facts an answer gives about a board before and after
//! its move (whose turn, who won, the board, the next turn's moves).

use std::fmt;

use crate::suggest::{shorten, Extra, MoveId, Naming, Place};

/// One of the two players.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Player {
    /// X, who starts unless the caller says otherwise.
    X,
    /// O.
    O,
}

impl Player {
    /// The other player.
    pub fn other(self) -> Player {
        match self {
            Player::X => Player::O,
            Player::O => Player::X,
        }
    }

    /// The mark as an upper-case letter.
    pub fn as_str(self) -> &'static str {
        match self {
            Player::X => "X",
            Player::O => "O",
        }
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One character of a board string as a cell: a mark, or `None` for an
/// empty-cell symbol.
#[allow(clippy::result_unit_err)]
pub fn cell_from_char(c: char) -> Result<Option<Player>, ()> {
    match c {
        'X' | 'x' => Ok(Some(Player::X)),
        'O' | 'o' => Ok(Some(Player::O)),
        ' ' | '.' | '-' | '_' => Ok(None),
        _ => Err(()),
    }
}

/// One JSON cell of a board array, or a message saying why it is not one.
pub fn cell_from_json(value: &serde_json::Value) -> Result<Option<Player>, String> {
    let bad = || {
        format!(
            "{} is not a cell: use \"X\", \"O\", or an empty cell (\" \", \".\", \"-\", \"_\", \"\" or null)",
            shorten(&value.to_string())
        )
    };
    match value {
        serde_json::Value::Null => Ok(None),
        serde_json::Value::String(s) if s.is_empty() => Ok(None),
        serde_json::Value::String(s) => {
            let mut chars = s.chars();
            match (chars.next(), chars.next()) {
                (Some(c), None) => cell_from_char(c).map_err(|()| bad()),
                _ => Err(bad()),
            }
        }
        _ => Err(bad()),
    }
}

/// Names a JSON value's type for an error message.
pub fn json_kind(value: &serde_json::Value) -> &'static str {
    match value {
        serde_json::Value::Null => "null",
        serde_json::Value::Bool(_) => "a boolean",
        serde_json::Value::Number(_) => "a number",
        serde_json::Value::String(_) => "a string",
        serde_json::Value::Array(_) => "an array",
        serde_json::Value::Object(_) => "an object",
    }
}

/// The standing of a game: its status's name, its winner, and the cells of
/// its winning line (for a game won by a line).
pub struct Standing {
    /// The status as the answer names it (`in_progress`, `x_won`, ...).
    pub status: &'static str,
    /// Who won, if anyone.
    pub winner: Option<&'static str>,
    /// The winning line's cells, for a game won by a line.
    pub line: Option<Vec<u8>>,
}

impl Standing {
    /// The standing of a status named `status`, won by `won`'s player
    /// along its line, if it is won.
    pub fn of(status: &'static str, won: Option<(Player, &[u8])>) -> Standing {
        Standing { status, winner: won.map(|(player, _)| player.as_str()), line: won.map(|(_, line)| line.to_vec()) }
    }
}

/// What an answer says of its board, before and after its move: written at
/// their place in the answer ([`Place::AfterPliesToEnd`]) by [`BoardFacts::write`].
pub struct BoardFacts<B, D> {
    /// "X" or "O".
    pub to_move: &'static str,
    /// The standing before the move.
    pub before: Standing,
    /// The discs of each colour, for a game that counts them.
    pub discs: Option<D>,
    /// The board once the move is played; `None` when the game is over.
    pub board_after: Option<B>,
    /// The standing after the move.
    pub after: Standing,
    /// The discs after the move (`Some(None)` when the game is over), for a
    /// game that counts them.
    pub discs_after: Option<Option<D>>,
    /// The side to move once the move is played and its moves, when the
    /// game then goes on.
    pub next: Option<(&'static str, Vec<u8>)>,
    /// The moves' names.
    pub name: Naming,
    /// For a game that turns discs over: the squares the move turned
    /// (`Some(None)` when the game is over).
    pub flipped: Option<Option<Vec<MoveId>>>,
    /// True for a game won by a line (its `winning_line` fields).
    pub lined: bool,
}

impl<B: serde::Serialize> BoardFacts<B, ()> {
    /// The facts of a game won by a line, whose moves are numbers (cells,
    /// columns), with no discs to count.
    pub fn lined(
        to_move: &'static str,
        (before, after): (Standing, Standing),
        board_after: Option<B>,
        next: Option<(&'static str, Vec<u8>)>,
    ) -> Self {
        BoardFacts {
            to_move,
            before,
            discs: None,
            board_after,
            after,
            discs_after: None,
            next,
            name: crate::suggest::answer::index,
            flipped: None,
            lined: true,
        }
    }
}

impl<B: serde::Serialize, D: serde::Serialize> BoardFacts<B, D> {
    /// Adds the facts to an answer's fields, in the answer's order.
    pub fn write(self, extra: &mut Extra) {
        let at = Place::AfterPliesToEnd;
        extra.push(at, "to_move", &self.to_move);
        extra.push(at, "status", &self.before.status);
        extra.push(at, "winner", &self.before.winner);
        if self.lined {
            extra.push(at, "winning_line", &self.before.line);
        }
        if let Some(discs) = &self.discs {
            extra.push(at, "discs", discs);
        }
        extra.push(at, "board_after", &self.board_after);
        extra.push(at, "status_after", &self.after.status);
        extra.push(at, "winner_after", &self.after.winner);
        if self.lined {
            extra.push(at, "winning_line_after", &self.after.line);
        }
        if let Some(discs) = &self.discs_after {
            extra.push(at, "discs_after", discs);
        }
        let (to_move_after, legal) = match self.next.filter(|(_, moves)| !moves.is_empty()) {
            Some((side, moves)) => (Some(side), moves.into_iter().map(|mv| (self.name)(u64::from(mv))).collect()),
            None => (None, Vec::new()),
        };
        extra.push(at, "to_move_after", &to_move_after);
        extra.push(at, "legal_moves_after", &legal);
        if let Some(flipped) = &self.flipped {
            extra.push(at, "flipped", flipped);
        }
    }
}

/// The side to move, `X` or `O` in either case, from a request's
/// `to_move`, if given.
pub fn side_to_move(
    to_move: Option<&serde_json::value::RawValue>,
) -> Result<Option<Player>, crate::suggest::InputError> {
    crate::suggest::request::option::<String>(to_move, "to_move", "\"X\" or \"O\"")?
        .map(|side| match side.as_str() {
            "X" | "x" => Ok(Player::X),
            "O" | "o" => Ok(Player::O),
            _ => Err(crate::suggest::InputError::invalid(
                "invalid_option",
                "to_move".to_string(),
                format!("to_move must be \"X\" or \"O\", not {side:?}"),
            )),
        })
        .transpose()
}

/// Where a game read from `moves` or a `board` has its position.
pub enum PositionField<'a> {
    /// The moves so far.
    Moves(&'a serde_json::value::RawValue),
    /// The board.
    Board(&'a serde_json::value::RawValue),
}

/// The one field of `moves` and `board` a request of `game` sends,
/// refusing `tree` and the fields in `refused` (each with its hint);
/// `needs` is the message for a request with neither.
pub fn moves_or_board<'a>(
    game: &str,
    fields: &crate::suggest::Fields<'a>,
    refused: &[(&str, &str)],
    needs: &str,
) -> Result<PositionField<'a>, crate::suggest::InputError> {
    use crate::suggest::InputError;
    let refuse = |field: &str, hint: &str| {
        InputError::invalid("invalid_request", field.to_string(), format!("{field} does not apply to {game}: {hint}"))
    };
    if fields.get("tree").is_some() {
        return Err(refuse("tree", "send the position as \"moves\" or \"board\""));
    }
    if let Some((field, hint)) = refused.iter().find(|(field, _)| fields.get(field).is_some()) {
        return Err(refuse(field, hint));
    }
    match (fields.get("moves"), fields.get("board")) {
        (Some(_), Some(_)) => Err(InputError::invalid(
            "invalid_request",
            None,
            format!("send either \"moves\" or \"board\" for {game}, not both"),
        )),
        (None, None) => Err(InputError::invalid("invalid_request", None, needs)),
        (Some(moves), None) => Ok(PositionField::Moves(moves)),
        (None, Some(board)) => Ok(PositionField::Board(board)),
    }
}

//! `POST /best-move` bodies: read once, at the boundary, into a
//! [`SearchRequest`] that can only hold a valid position and valid options.

use std::fmt;

use serde::de::{self, Deserialize, DeserializeOwned, Deserializer, MapAccess, Visitor};
use serde_json::value::RawValue;
use serde_json::Value;

use super::bounded::{self, BoundedKey, Bounds, ReadError};
use super::error::ApiError;
use crate::games::connect4::{self, Connect4Error};
use crate::games::levels;
use crate::games::othello::{self, ErrorKind, OthelloError, PASS};
use crate::games::shorten;
use crate::games::tictactoe::{self, BoardError, Player, Position};
use crate::games::tree::{Tree, TreeError, TreeLimits};
use crate::search::TieBreak;

/// The keys a request may have.
const FIELDS: [&str; 14] = [
    "board",
    "tree",
    "to_move",
    "maximizing",
    "max_depth",
    "tie_break",
    "seed",
    "mistake",
    "max_moves",
    "game",
    "moves",
    "time_ms",
    "compare",
    "level",
];

/// What to search.
#[derive(Debug)]
pub enum GameInput {
    /// A tic-tac-toe position.
    Board(Position),
    /// A game tree, and whether its root maximizes the leaf values.
    Tree { tree: Tree, maximizing: bool },
    /// A Connect Four position.
    Connect4(connect4::Position),
    /// An Othello position.
    Othello(othello::Position),
}

/// A Connect Four or Othello game as the request wrote it, so that the
/// answer can give the game after its move in the same notation (and in
/// the same JSON: a string or an array).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(untagged)]
pub enum MoveList {
    /// Connect Four: digits 1 to 7 (`"4453"`).
    Digits(String),
    /// Connect Four: columns 0 to 6 (`[3, 3, 4, 2]`).
    Columns(Vec<u8>),
    /// Othello: square names in one string, passes left out (`"f5d6c3"`).
    Squares(String),
    /// Othello: square names in an array (`["f5", "d6"]`), with `"pass"`
    /// where the request wrote one.
    Names(Vec<String>),
}

impl MoveList {
    /// The list with `mv` played after it: a column (0 to 6) for Connect
    /// Four, a square (0 to 63) or [`PASS`] for Othello. An Othello move is
    /// written in the case of the last one, in a string after the
    /// separator between its last two moves (its first two characters); a
    /// pass is left out of a string.
    pub fn then(&self, mv: u8) -> MoveList {
        match self {
            MoveList::Digits(digits) => {
                let mut digits = digits.clone();
                digits.push(char::from(b'1' + mv));
                MoveList::Digits(digits)
            }
            MoveList::Columns(columns) => {
                let mut columns = columns.clone();
                columns.push(mv);
                MoveList::Columns(columns)
            }
            // A string leaves passes out, so the same string would ask for
            // the same pass again: the game goes on as an array of its
            // names, as written, ending in the pass.
            MoveList::Squares(text) if mv == PASS => {
                let squares: Vec<char> = text.chars().filter(|c| !c.is_whitespace() && *c != ',').collect();
                let mut names: Vec<String> = squares.chunks(2).map(|pair| pair.iter().collect()).collect();
                names.push(othello::move_name(PASS));
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
                MoveList::Squares(format!("{body}{gap}{}", othello_name(mv, upper)))
            }
            MoveList::Names(names) => {
                let upper =
                    names.last().is_some_and(|name| name.bytes().next().is_some_and(|b| b.is_ascii_uppercase()));
                let mut names = names.clone();
                names.push(othello_name(mv, upper));
                MoveList::Names(names)
            }
        }
    }
}

/// An Othello move's name, in upper case if asked.
fn othello_name(mv: u8, upper: bool) -> String {
    let name = othello::move_name(mv);
    if upper {
        name.to_ascii_uppercase()
    } else {
        name
    }
}

/// A validated request.
#[derive(Debug)]
pub struct SearchRequest {
    /// The position.
    pub game: GameInput,
    /// Plies to look ahead; `None` for the whole game.
    pub max_depth: Option<u32>,
    /// How to choose among equally good moves.
    pub tie_break: TieBreak,
    /// Seed for every random choice (given, or drawn for this request).
    pub seed: u64,
    /// Probability of answering a random legal move.
    pub mistake: f64,
    /// The difficulty level asked for (1 to 10), if any: it set `max_depth`
    /// and `temperature` (see [`crate::games::levels`]).
    pub level: Option<u8>,
    /// With a level, the softmax temperature of the move's choice
    /// ([`crate::search::choose_softly`]); `None` without one.
    pub temperature: Option<f64>,
    /// The time the caller allows the search, in milliseconds, if given.
    pub time_ms: Option<u64>,
    /// Most moves the answer lists.
    pub max_moves: usize,
    /// Whether to run the searches that are only there to compare (see
    /// `Context::compare`); `None` leaves it to the server's setting.
    pub compare: Option<bool>,
    /// A Connect Four or Othello game sent as `moves`, as written; `None`
    /// for a board.
    pub moves: Option<MoveList>,
}

/// Moves an answer lists unless the request says otherwise.
pub const DEFAULT_MAX_MOVES: usize = 1_000;

impl SearchRequest {
    /// An upper bound on the nodes plain minimax will visit, to decide
    /// whether the search is cheap enough to run inline.
    pub fn work_estimate(&self) -> u64 {
        match &self.game {
            GameInput::Tree { tree, .. } => tree.len() as u64,
            GameInput::Board(position) => {
                // Sum over the depth of the falling factorials of the empty
                // cells: the size of the full game tree, ignoring early wins.
                let empty = position.legal_moves().len() as u64;
                let (mut total, mut layer) = (1u64, 1u64);
                for k in 0..empty {
                    layer *= empty - k;
                    total += layer;
                }
                total
            }
            // Never small enough to search inline.
            GameInput::Connect4(_) | GameInput::Othello(_) => u64::MAX,
        }
    }

    /// Reads a request body (already known to be declared as JSON).
    /// `max_moves_limit` is the most `max_moves` may ask for.
    pub fn parse(body: &[u8], limits: TreeLimits, max_moves_limit: usize) -> Result<SearchRequest, ApiError> {
        let text = std::str::from_utf8(body)
            .map_err(|e| ApiError::MalformedJson(format!("the body is not UTF-8 text ({e})")))?;
        // Values are kept as raw text: a deeply nested tree is skipped here
        // without recursion and read by the tree's own iterative parser.
        let fields: Fields<'_> = serde_json::from_str(text).map_err(|e| match e.classify() {
            // Not an object, but is it JSON at all? (Skipping a value is
            // iterative in serde_json, so any depth is safe here.)
            serde_json::error::Category::Data => match serde_json::from_str::<de::IgnoredAny>(text) {
                Ok(_) => ApiError::invalid(
                    "invalid_request",
                    None,
                    "the body must be a JSON object, such as {\"board\": \".........\"}",
                ),
                Err(syntax) => ApiError::MalformedJson(syntax.to_string()),
            },
            _ => ApiError::MalformedJson(e.to_string()),
        })?;

        let mut raw: [Option<&RawValue>; FIELDS.len()] = [None; FIELDS.len()];
        let mut seen = [false; FIELDS.len()];
        for (key, value) in &fields.0 {
            let Some(slot) = FIELDS.iter().position(|f| f == key) else {
                return Err(unknown_field(key));
            };
            if std::mem::replace(&mut seen[slot], true) {
                return Err(ApiError::invalid(
                    "invalid_request",
                    key.to_string(),
                    format!("{key:?} appears more than once"),
                ));
            }
            // An explicit null means the same as leaving the key out.
            if value.get() != "null" {
                raw[slot] = Some(value);
            }
        }
        let [board, tree, to_move, maximizing, max_depth, tie_break, seed, mistake, max_moves, game, moves, time_ms, compare, level] =
            raw;
        let level = option::<u64>(level, "level", "an integer from 1 to 10")?
            .map(|level| match level {
                1..=10 => Ok(level as u8),
                _ => Err(ApiError::invalid(
                    "invalid_option",
                    "level".to_string(),
                    format!("level must be an integer from 1 (weakest) to 10 (full strength), not {level}"),
                )),
            })
            .transpose()?;
        if level.is_some() {
            if let Some(other) = [("max_depth", max_depth), ("mistake", mistake)].iter().find(|(_, v)| v.is_some()) {
                return Err(ApiError::invalid(
                    "invalid_option",
                    "level".to_string(),
                    format!(
                        "level sets how far the search looks and how it chooses its move: send it without {}",
                        other.0
                    ),
                ));
            }
        }

        let max_depth = option::<u64>(max_depth, "max_depth", "an integer of at least 1")?
            .map(|d| match u32::try_from(d) {
                Ok(d) if d >= 1 => Ok(d),
                _ => Err(ApiError::invalid(
                    "invalid_option",
                    "max_depth".to_string(),
                    format!("max_depth must be an integer from 1 to {}, not {d}", u32::MAX),
                )),
            })
            .transpose()?;
        let tie_break = match option::<String>(tie_break, "tie_break", "\"first\" or \"random\"")?.as_deref() {
            None | Some("first") => TieBreak::First,
            Some("random") => TieBreak::Random,
            Some(other) => {
                return Err(ApiError::invalid(
                    "invalid_option",
                    "tie_break".to_string(),
                    format!("tie_break must be \"first\" or \"random\", not {other:?}"),
                ))
            }
        };
        let seed = option::<u64>(seed, "seed", "an integer from 0 to 18446744073709551615")?
            // Drawn below 2^53, so a JavaScript client can send it back exactly.
            .unwrap_or_else(|| fastrand::u64(..1 << 53));
        let mistake = option::<f64>(mistake, "mistake", "a number from 0 to 1")?.unwrap_or(0.0);
        if !(0.0..=1.0).contains(&mistake) {
            return Err(ApiError::invalid(
                "invalid_option",
                "mistake".to_string(),
                format!("mistake is a probability: a number from 0 to 1, not {mistake}"),
            ));
        }
        let max_moves = option::<u64>(max_moves, "max_moves", &format!("an integer from 0 to {max_moves_limit}"))?
            .map(|n| match usize::try_from(n) {
                Ok(n) if n <= max_moves_limit => Ok(n),
                _ => Err(ApiError::invalid(
                    "invalid_option",
                    "max_moves".to_string(),
                    format!("max_moves must be an integer from 0 to {max_moves_limit}, this service's most, not {n}"),
                )),
            })
            .transpose()?
            .unwrap_or(DEFAULT_MAX_MOVES.min(max_moves_limit));

        let time_ms = option::<u64>(time_ms, "time_ms", "an integer number of milliseconds from 1 to 3600000")?
            .map(|ms| match ms {
                1..=MAX_TIME_MS => Ok(ms),
                _ => Err(ApiError::invalid(
                    "invalid_option",
                    "time_ms".to_string(),
                    format!("time_ms must be an integer number of milliseconds from 1 to {MAX_TIME_MS}, not {ms}"),
                )),
            })
            .transpose()?;
        let compare = option::<bool>(compare, "compare", "true or false")?;

        // The request once its position is read: a level sets the depth and
        // the choice's temperature of its game.
        let request = |game: GameInput, moves: Option<MoveList>| {
            let style = level.map(|level| match game {
                GameInput::Board(_) => levels::tictactoe(level),
                GameInput::Connect4(_) => levels::connect4(level),
                GameInput::Othello(_) => levels::othello(level),
                GameInput::Tree { .. } => levels::tree(level),
            });
            SearchRequest {
                game,
                max_depth: style.map_or(max_depth, |s| s.max_depth),
                tie_break,
                seed,
                mistake,
                level,
                temperature: style.map(|s| s.temperature),
                time_ms,
                max_moves,
                compare,
                moves,
            }
        };
        const GAMES: &str = "\"tictactoe\", \"connect4\" or \"othello\"";
        match option::<String>(game, "game", GAMES)?.as_deref() {
            None | Some("tictactoe") => {}
            Some("connect4") => {
                let (position, moves) = parse_connect4(board, moves, tree, to_move, maximizing)?;
                return Ok(request(GameInput::Connect4(position), moves));
            }
            Some("othello") => {
                let (position, moves) = parse_othello(board, moves, tree, to_move, maximizing)?;
                return Ok(request(GameInput::Othello(position), moves));
            }
            Some(other) => {
                return Err(ApiError::invalid(
                    "invalid_option",
                    "game".to_string(),
                    format!("game must be {GAMES}, not {:?}", shorten(other)),
                ))
            }
        }
        if moves.is_some() {
            return Err(ApiError::invalid(
                "invalid_request",
                "moves".to_string(),
                "moves applies to connect4 and othello only: send \"game\": \"connect4\" or \"game\": \"othello\" with it (a tic-tac-toe position is a \"board\")",
            ));
        }

        let game = match (board, tree) {
            (Some(_), Some(_)) => {
                return Err(ApiError::invalid(
                    "invalid_request",
                    None,
                    "send either \"board\" (tic-tac-toe) or \"tree\" (a game tree), not both",
                ))
            }
            (None, None) => {
                return Err(ApiError::invalid(
                    "invalid_request",
                    None,
                    "the body needs \"board\" (tic-tac-toe), \"tree\" (a game tree), or \"game\": \"connect4\" or \"othello\" with \"moves\" or \"board\" (Connect Four, Othello)",
                ))
            }
            (Some(board), None) => {
                if maximizing.is_some() {
                    return Err(not_for("maximizing", "trees", "for a board, to_move says whose turn it is"));
                }
                GameInput::Board(parse_board(board, side_to_move(to_move)?)?)
            }
            (None, Some(tree)) => {
                if to_move.is_some() {
                    return Err(not_for("to_move", "boards", "for a tree, maximizing says what the root wants"));
                }
                let maximizing = option::<bool>(maximizing, "maximizing", "true or false")?.unwrap_or(true);
                let tree = Tree::parse(tree.get(), limits).map_err(tree_error)?;
                // Refuses a depth limit that stops at an inner node without a value.
                tree.game(maximizing, max_depth).map_err(tree_error)?;
                GameInput::Tree { tree, maximizing }
            }
        };
        Ok(request(game, None))
    }
}

/// The most `time_ms` a request may ask for: an hour.
const MAX_TIME_MS: u64 = 3_600_000;

/// Where a Connect Four or Othello request has its position.
enum PositionField<'a> {
    Moves(&'a RawValue),
    Board(&'a RawValue),
}

/// The one field of `moves` and `board` a `game` request sends, refusing
/// `tree` and the fields in `refused` (each with its hint); `needs` is the
/// message for a request with neither.
fn moves_or_board<'a>(
    game: &str,
    moves: Option<&'a RawValue>,
    board: Option<&'a RawValue>,
    tree: Option<&RawValue>,
    refused: &[(&str, Option<&RawValue>, &str)],
    needs: &str,
) -> Result<PositionField<'a>, ApiError> {
    let refuse = |field: &str, hint: &str| {
        ApiError::invalid("invalid_request", field.to_string(), format!("{field} does not apply to {game}: {hint}"))
    };
    if tree.is_some() {
        return Err(refuse("tree", "send the position as \"moves\" or \"board\""));
    }
    if let Some((field, _, hint)) = refused.iter().find(|(_, given, _)| given.is_some()) {
        return Err(refuse(field, hint));
    }
    match (moves, board) {
        (Some(_), Some(_)) => Err(ApiError::invalid(
            "invalid_request",
            None,
            format!("send either \"moves\" or \"board\" for {game}, not both"),
        )),
        (None, None) => Err(ApiError::invalid("invalid_request", None, needs)),
        (Some(moves), None) => Ok(PositionField::Moves(moves)),
        (None, Some(board)) => Ok(PositionField::Board(board)),
    }
}

/// Reads a Connect Four position from exactly one of `moves` or `board`,
/// refusing the options of the other games; with `moves`, also the game as
/// the request wrote it.
fn parse_connect4(
    board: Option<&RawValue>,
    moves: Option<&RawValue>,
    tree: Option<&RawValue>,
    to_move: Option<&RawValue>,
    maximizing: Option<&RawValue>,
) -> Result<(connect4::Position, Option<MoveList>), ApiError> {
    let hint = "X moves first, so the stones on the board say whose turn it is";
    let field = moves_or_board(
        "connect4",
        moves,
        board,
        tree,
        &[("to_move", to_move, hint), ("maximizing", maximizing, hint)],
        "a connect4 request needs \"moves\" (such as \"4453\" or [3, 3, 4, 2]) or \"board\" (6 rows of 7 cells, top row first)",
    )?;
    match field {
        PositionField::Moves(moves) => {
            let value = read_position(moves, "moves", "invalid_moves", connect4::MOVES_SHAPE)?;
            let position =
                connect4::Position::from_json_moves(&value).map_err(|e| connect4_error(e, "invalid_moves"))?;
            // The position was read from this value, so it is a digit string
            // or an array of columns 0 to 6.
            let list = match value {
                Value::String(digits) => MoveList::Digits(digits),
                Value::Array(items) => {
                    MoveList::Columns(items.iter().filter_map(Value::as_u64).map(|c| c as u8).collect())
                }
                _ => return Err(ApiError::invalid("invalid_moves", "moves".to_string(), connect4::MOVES_SHAPE)),
            };
            Ok((position, Some(list)))
        }
        PositionField::Board(board) => {
            let value = read_position(board, "board", "invalid_board", connect4::BOARD_SHAPE)?;
            let position =
                connect4::Position::from_json_board(&value).map_err(|e| connect4_error(e, "invalid_board"))?;
            Ok((position, None))
        }
    }
}

/// Reads an Othello position from exactly one of `moves` (black first, no
/// `to_move`) or `board` with `to_move`, refusing the options of the other
/// games; with `moves`, also the game as the request wrote it.
fn parse_othello(
    board: Option<&RawValue>,
    moves: Option<&RawValue>,
    tree: Option<&RawValue>,
    to_move: Option<&RawValue>,
    maximizing: Option<&RawValue>,
) -> Result<(othello::Position, Option<MoveList>), ApiError> {
    let field = moves_or_board(
        "othello",
        moves,
        board,
        tree,
        &[("maximizing", maximizing, "black moves first; with a board, to_move says whose turn it is")],
        "an othello request needs \"moves\" (such as \"f5d6c3\" or [\"f5\", \"d6\", \"c3\"]) or \"board\" (64 squares, or 8 rows of 8, row 1 first) with \"to_move\"",
    )?;
    match field {
        PositionField::Moves(moves) => {
            if to_move.is_some() {
                return Err(ApiError::invalid(
                    "invalid_request",
                    "to_move".to_string(),
                    "to_move does not apply to othello moves: black moves first, and a side with no move passes, so the moves say whose turn it is",
                ));
            }
            let value = read_position(moves, "moves", "invalid_moves", othello::MOVES_SHAPE)?;
            let position = othello::Position::from_json_moves(&value).map_err(othello_error)?;
            // The position was read from this value, so it is a string or
            // an array of strings.
            let list = match value {
                Value::String(text) => MoveList::Squares(text),
                Value::Array(items) => {
                    MoveList::Names(items.iter().filter_map(Value::as_str).map(str::to_string).collect())
                }
                _ => return Err(ApiError::invalid("invalid_moves", "moves".to_string(), othello::MOVES_SHAPE)),
            };
            Ok((position, Some(list)))
        }
        PositionField::Board(board) => {
            let to_move = side_to_move(to_move)?;
            let value = read_position(board, "board", "invalid_board", othello::BOARD_SHAPE)?;
            let position = othello::Position::from_json_board(&value, to_move).map_err(othello_error)?;
            Ok((position, None))
        }
    }
}

/// The side to move, `X` or `O` in either case, if given.
fn side_to_move(to_move: Option<&RawValue>) -> Result<Option<Player>, ApiError> {
    option::<String>(to_move, "to_move", "\"X\" or \"O\"")?
        .map(|side| match side.as_str() {
            "X" | "x" => Ok(Player::X),
            "O" | "o" => Ok(Player::O),
            _ => Err(ApiError::invalid(
                "invalid_option",
                "to_move".to_string(),
                format!("to_move must be \"X\" or \"O\", not {side:?}"),
            )),
        })
        .transpose()
}

/// An Othello error as a 422: a move that is malformed, illegal or after
/// the end is `invalid_moves`; a board of the wrong shape or with an
/// unknown symbol `invalid_board`; an empty centre square, which no game
/// produces, `impossible_position`; a board without `to_move`
/// `invalid_request`, and a `to_move` that is no side `invalid_option`.
fn othello_error(error: OthelloError) -> ApiError {
    let code = match error.kind {
        ErrorKind::MalformedMove | ErrorKind::IllegalMove | ErrorKind::GameOver => "invalid_moves",
        ErrorKind::BoardShape | ErrorKind::MalformedSquare => "invalid_board",
        ErrorKind::EmptyCentre => "impossible_position",
        ErrorKind::MissingSideToMove => "invalid_request",
        ErrorKind::MalformedSideToMove => "invalid_option",
    };
    ApiError::invalid(code, error.field, error.message)
}

/// A Connect Four error as a 422: input that is not a position gets the code
/// `invalid` (`invalid_moves` or `invalid_board`, after the field it came
/// in); a board no game produces gets `impossible_position`.
fn connect4_error(error: Connect4Error, invalid: &'static str) -> ApiError {
    match error {
        Connect4Error::Invalid { field, message } => ApiError::invalid(invalid, field, message),
        Connect4Error::Impossible { field, message } => ApiError::invalid("impossible_position", field, message),
    }
}

fn parse_board(raw: &RawValue, to_move: Option<Player>) -> Result<Position, ApiError> {
    let value = read_position(raw, "board", "invalid_board", tictactoe::BOARD_SHAPE)?;
    let cells = tictactoe::cells_from_json(&value).map_err(board_error)?;
    Position::new(cells, to_move).map_err(board_error)
}

/// The most a position's JSON may hold: more than any game's board or move
/// list (an Othello game has at most 60 moves and, written out, a pass
/// between any two of them: 119 items; its string, 60 names with
/// separators of a few characters), and little enough that reading it
/// costs a few hundred KiB at most (see [`bounded`]).
const POSITION_BOUNDS: Bounds = Bounds { items: 128, text_bytes: 1024, values: 512 };

/// Reads the JSON of a position's field within [`POSITION_BOUNDS`]; an
/// error is a 422 with the code `invalid`, naming the place at fault and
/// what the field should be (`shape`).
fn read_position(raw: &RawValue, field: &str, invalid: &'static str, shape: &str) -> Result<Value, ApiError> {
    bounded::read(raw, field, POSITION_BOUNDS).map_err(|error| {
        let (path, message) = match error {
            ReadError::TooLarge { path, what } => {
                let message = format!("{path} is too large to be part of a position ({what}): {shape}");
                (path, message)
            }
            // A bare number where the position should be.
            ReadError::NumberOutOfRange { path } if path == field => {
                (path, format!("{shape}, not a number ({})", shorten(raw.get().trim())))
            }
            ReadError::NumberOutOfRange { path } => (
                path.clone(),
                format!("{path} is a number that cannot be read: it is beyond the range of a double; {shape}"),
            ),
            ReadError::InvalidUnicode { path } => (
                path.clone(),
                format!("{path} holds invalid Unicode: an escape such as \\ud800 is half of a surrogate pair, not a character; {shape}"),
            ),
            // The path would be over a hundred levels long: name the field.
            ReadError::TooDeep { .. } => (field.to_string(), format!("{shape}; this one is nested far too deeply")),
            ReadError::Other(detail) => (field.to_string(), format!("{field} cannot be read ({detail}): {shape}")),
        };
        ApiError::invalid(invalid, path, message)
    })
}

fn board_error(error: BoardError) -> ApiError {
    match error {
        BoardError::Invalid { field, message } => ApiError::invalid("invalid_board", field, message),
        BoardError::Impossible { message } => ApiError::invalid("impossible_position", "board".to_string(), message),
        BoardError::ToMoveContradiction { message } => {
            ApiError::invalid("impossible_position", "to_move".to_string(), message)
        }
    }
}

fn tree_error(error: TreeError) -> ApiError {
    let code = match error {
        TreeError::Invalid { .. } => "invalid_tree",
        TreeError::TooLarge { .. } => "tree_too_large",
        TreeError::TooDeep { .. } => "tree_too_deep",
        TreeError::MissingValue { .. } => "missing_value",
    };
    let message = match &error {
        TreeError::TooLarge { path, limit } => {
            format!("{path}: the tree has more than {limit} nodes, the most this service accepts")
        }
        TreeError::TooDeep { path, limit } => {
            format!("{path}: the tree is deeper than {limit} levels, the most this service accepts")
        }
        _ => error.to_string(),
    };
    ApiError::invalid(code, error.path().to_string(), message)
}

fn not_for(field: &str, kind: &str, hint: &str) -> ApiError {
    ApiError::invalid("invalid_request", field.to_string(), format!("{field} applies to {kind} only: {hint}"))
}

/// Reads an option, naming it and what it should be when it is wrong.
///
/// No option's value is longer than a few dozen bytes: a longer one is
/// refused unread, so a huge string costs no copy.
fn option<T: DeserializeOwned>(raw: Option<&RawValue>, field: &str, expected: &str) -> Result<Option<T>, ApiError> {
    const LONGEST: usize = 1024;
    raw.map(|raw| {
        let text = raw.get();
        let parsed = if text.len() > LONGEST { None } else { serde_json::from_str(text).ok() };
        parsed.ok_or_else(|| {
            ApiError::invalid(
                "invalid_option",
                field.to_string(),
                format!("{field} must be {expected}, not {}", shorten(raw.get())),
            )
        })
    })
    .transpose()
}

fn unknown_field(key: &str) -> ApiError {
    let suggestion = FIELDS
        .iter()
        .map(|f| (edit_distance(key, f), f))
        .filter(|(d, _)| *d <= 2)
        .min()
        .map(|(_, f)| format!(" (did you mean {f:?}?)"))
        .unwrap_or_default();
    ApiError::invalid(
        "unknown_field",
        shorten(key),
        format!("unknown field {:?}{suggestion}; the fields are {}", shorten(key), FIELDS.join(", ")),
    )
}

/// Levenshtein distance, for "did you mean" hints on short keys.
fn edit_distance(a: &str, b: &str) -> usize {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().take(64).collect(), b.chars().collect());
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut previous = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let substitution = previous + usize::from(ca != cb);
            previous = row[j + 1];
            row[j + 1] = substitution.min(row[j] + 1).min(previous + 1);
        }
    }
    row[b.len()]
}

/// A JSON object's members in order, duplicates kept, values unparsed.
///
/// Only the first `FIELDS.len() + 1` members are kept: among them is either
/// every member, or a key that is unknown or given twice, which is refused.
/// The rest are skipped, so a body of a million members costs nothing.
struct Fields<'a>(Vec<(String, &'a RawValue)>);

impl<'de> Deserialize<'de> for Fields<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct FieldsVisitor;
        impl<'de> Visitor<'de> for FieldsVisitor {
            type Value = Fields<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Fields<'de>, A::Error> {
                let mut fields = Vec::new();
                while let Some(BoundedKey(key)) = map.next_key()? {
                    if fields.len() > FIELDS.len() {
                        map.next_value::<de::IgnoredAny>()?;
                        continue;
                    }
                    fields.push((key, map.next_value::<&'de RawValue>()?));
                }
                Ok(Fields(fields))
            }
        }
        deserializer.deserialize_map(FieldsVisitor)
    }
}

//! The games bestmove serves, and the registry that lists them: the one
//! place that names every game. Each game's folder turns caller input into
//! a validated position, implements the search's traits for it
//! ([`crate::search::Game`], [`crate::search::Heuristics`],
//! [`crate::search::Solver`]) and serves it ([`crate::suggest::ServedPosition`],
//! in its `served.rs`); [`board`] holds what the board games share.
//!
//! Adding a game: its folder, a line in `GAMES` (below), its page adapter, its
//! tests and its part of `openapi.yaml` (see `docs/architecture.md`).

use std::path::PathBuf;
use std::sync::Arc;

use crate::suggest::{Catalog, Fields, InputError, Options, PlayedGame, ServedPosition};

pub mod board;
pub mod connect4;
pub mod gomoku;
pub mod othello;
pub mod tictactoe;
pub mod tree;

/// The JSON library whose values [`tictactoe::cells_from_json`] reads,
/// re-exported so callers use the same version.
pub use serde_json;

/// What the games need from the service's settings.
#[derive(Clone, Debug, Default)]
pub struct Settings {
    /// The largest game tree accepted.
    pub tree_limits: tree::TreeLimits,
    /// The opening book's setting (`OPENING_BOOK`): unset, the built-in
    /// book; `none`, none; else a book file.
    pub opening_book: Option<PathBuf>,
}

/// How a game reads its position from a request's fields.
type Reader = fn(&Registry, &Fields<'_>, &Options) -> Result<Box<dyn ServedPosition>, InputError>;

/// How a game reads a whole game, for a review.
type GameReader = fn(&Registry, &Fields<'_>) -> Result<PlayedGame, InputError>;

/// One game of the registry: the name a request gives in `game`, the name
/// a person reads, how it reads its position, how it reads a whole game
/// for a review, and what it loads before the first request (tables built
/// from data the crate embeds), so that no request pays for it.
struct Entry {
    name: &'static str,
    title: &'static str,
    read: Reader,
    review: GameReader,
    load: fn(),
}

/// The games, by the name a request gives in `game`; the first is the one a
/// request without `game` asks for (tic-tac-toe, or a game tree).
const GAMES: &[Entry] = &[
    Entry {
        name: "tictactoe",
        title: "tic-tac-toe",
        read: |games, fields, options| games.board_or_tree(fields, options),
        review: |_, fields| tictactoe::read_game(fields),
        load: || {},
    },
    Entry {
        name: "connect4",
        title: "Connect Four",
        read: |games, fields, _| connect4::read(fields, games.book.clone()),
        review: |games, fields| connect4::read_game(fields, games.book.clone()),
        load: || {},
    },
    Entry {
        name: "othello",
        title: "Othello",
        read: |_, fields, _| othello::read(fields),
        review: |_, fields| othello::read_game(fields),
        load: othello::load,
    },
    Entry {
        name: "gomoku",
        title: "Gomoku",
        read: |_, fields, _| gomoku::read(fields),
        review: |_, fields| gomoku::read_game(fields),
        load: gomoku::load,
    },
];

/// Why the games could not be set up (an opening book that cannot be read).
#[derive(Debug)]
pub struct SetupError(pub String);

impl std::fmt::Display for SetupError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SetupError {}

/// The games a service offers, with the resources they load once (the
/// opening book).
#[derive(Debug)]
pub struct Registry {
    tree_limits: tree::TreeLimits,
    book: Option<Arc<connect4::Book>>,
}

impl Registry {
    /// The games with `settings`: loads what they need now, so that a bad
    /// setting stops the service before it starts.
    pub fn new(settings: &Settings) -> Result<Registry, SetupError> {
        let book = connect4::load_book(settings.opening_book.as_deref()).map_err(|error| {
            let source = settings.opening_book.as_ref().map_or("built in".into(), |path| path.display().to_string());
            SetupError(format!("the opening book ({source}) cannot be read: {error}"))
        })?;
        for entry in GAMES {
            (entry.load)();
        }
        Ok(Registry { tree_limits: settings.tree_limits, book })
    }

    /// The games' names, in the registry's order.
    pub fn names(&self) -> impl Iterator<Item = &'static str> {
        GAMES.iter().map(|entry| entry.name)
    }

    /// A request of the first game reads a `board` (tic-tac-toe) or a
    /// `tree` (a game tree).
    fn board_or_tree(&self, fields: &Fields<'_>, options: &Options) -> Result<Box<dyn ServedPosition>, InputError> {
        let others = &GAMES[1..];
        let game = |entry: &Entry| format!("\"game\": \"{}\"", entry.name);
        if fields.get("moves").is_some() {
            return Err(InputError::invalid(
                "invalid_request",
                "moves".to_string(),
                format!(
                    "moves applies to {} only: send {} with it (a tic-tac-toe position is a \"board\")",
                    list(others.iter().map(|e| e.name.to_string()), "and"),
                    list(others.iter().map(game), "or")
                ),
            ));
        }
        match (fields.get("board"), fields.get("tree")) {
            (Some(_), Some(_)) => Err(InputError::invalid(
                "invalid_request",
                None,
                "send either \"board\" (tic-tac-toe) or \"tree\" (a game tree), not both",
            )),
            (None, None) => Err(InputError::invalid(
                "invalid_request",
                None,
                format!(
                    "the body needs \"board\" (tic-tac-toe), \"tree\" (a game tree), or \"game\": {} with \"moves\" or \"board\" ({})",
                    list(others.iter().map(|e| format!("\"{}\"", e.name)), "or"),
                    others.iter().map(|e| e.title).collect::<Vec<_>>().join(", ")
                ),
            )),
            (Some(_), None) => tictactoe::read(fields),
            (None, Some(_)) => tree::read(fields, options, self.tree_limits),
        }
    }
}

impl Registry {
    /// The game named `game` (the first, when `None`).
    fn entry(&self, game: Option<&str>) -> Result<&'static Entry, InputError> {
        match game {
            None => Ok(&GAMES[0]),
            Some(name) => GAMES.iter().find(|entry| entry.name == name).ok_or_else(|| {
                InputError::invalid(
                    "invalid_option",
                    "game".to_string(),
                    format!("game must be {}, not {:?}", self.expected(), crate::suggest::shorten(name)),
                )
            }),
        }
    }
}

/// Refuses a board's `size` and `rule` for a game that has one board and
/// one rule: they are Gomoku's alone.
fn board_settings(entry: &Entry, fields: &Fields<'_>) -> Result<(), InputError> {
    if entry.name == "gomoku" {
        return Ok(());
    }
    match ["size", "rule"].into_iter().find(|f| fields.get(f).is_some()) {
        Some(field) => Err(InputError::invalid(
            "invalid_request",
            field.to_string(),
            format!("{field} applies to gomoku only: {} has one board and one rule", entry.title),
        )),
        None => Ok(()),
    }
}

/// Items in a sentence: `a`, `a or b`, `a, b or c` (with `and` likewise).
fn list(items: impl Iterator<Item = String>, and: &str) -> String {
    let items: Vec<String> = items.collect();
    match items.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} {and} {last}", rest.join(", ")),
        None => String::new(),
    }
}

impl Catalog for Registry {
    fn read(
        &self,
        game: Option<&str>,
        fields: &Fields<'_>,
        options: &Options,
    ) -> Result<Box<dyn ServedPosition>, InputError> {
        let entry = self.entry(game)?;
        board_settings(entry, fields)?;
        (entry.read)(self, fields, options)
    }

    fn read_game(&self, game: Option<&str>, fields: &Fields<'_>) -> Result<PlayedGame, InputError> {
        let entry = self.entry(game)?;
        if fields.get("moves").is_none() {
            return Err(InputError::invalid(
                "invalid_request",
                None,
                format!("a review needs the {} game's \"moves\", from its first", entry.title),
            ));
        }
        if fields.get("to_move").is_some() && fields.get("board").is_none() {
            return Err(InputError::invalid(
                "invalid_request",
                "to_move".to_string(),
                "to_move goes with a board the game starts from: a game from the start begins with X",
            ));
        }
        board_settings(entry, fields)?;
        (entry.review)(self, fields)
    }

    fn expected(&self) -> String {
        list(self.names().map(|name| format!("\"{name}\"")), "or")
    }
}

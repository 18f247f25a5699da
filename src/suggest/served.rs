//! What a game implements to be served: [`Catalog`], the games a service
//! offers (the registry, in `games`), reads a request's position for the
//! game it names; [`ServedPosition`] is that position, validated, which
//! knows its game's levels and how much work it is, and answers.

use std::fmt::Debug;
use std::sync::atomic::AtomicBool;

use super::answer::{Answer, ProgressReport};
use super::pipeline::Context;
use super::request::{Fields, InputError, Options};
use super::review::PlayedGame;
use super::strength::Style;
use crate::search::Cancelled;

/// The games a service offers: the one place that knows them all.
pub trait Catalog: Send + Sync {
    /// Reads the position of the game named `game` (the request's `game`
    /// field; `None` when it has none) from the request's `fields`, with
    /// the shared `options` already read (a game may check its position
    /// against them). An unknown game's error lists the names.
    fn read(
        &self,
        game: Option<&str>,
        fields: &Fields<'_>,
        options: &Options,
    ) -> Result<Box<dyn ServedPosition>, InputError>;

    /// Reads the game of a review request: the game named `game` (the
    /// first one, when `None`) played out from the request's `moves`, each
    /// move with the position it was played in. An illegal move's error
    /// names its place in the list.
    fn read_game(&self, game: Option<&str>, fields: &Fields<'_>) -> Result<PlayedGame, InputError>;

    /// What the `game` field must be, for its error message: the names,
    /// quoted, as in `"a", "b" or "c"`.
    fn expected(&self) -> String;
}

/// A validated position of a served game: everything the service needs
/// to answer it, whatever the game.
pub trait ServedPosition: Send + Sync + Debug {
    /// The depth and choice of the game's difficulty `level` (1 to 10).
    fn style(&self, level: u8) -> Style;

    /// An upper bound on the positions plain minimax would visit, to
    /// decide whether the search is cheap enough to run inline;
    /// `u64::MAX` for a search that never is (the default).
    fn work_estimate(&self) -> u64 {
        u64::MAX
    }

    /// Runs the searches and builds the answer. `cancel` abandons the
    /// work; `progress` hears of every finished iteration of the engine and
    /// every root move it settles.
    fn answer(
        &self,
        options: &Options,
        context: &Context<'_>,
        cancel: &AtomicBool,
        progress: &mut dyn FnMut(&ProgressReport),
    ) -> Result<Answer, Cancelled>;
}

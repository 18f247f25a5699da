//! The service's application layer, between the HTTP api and the games,
//! naming neither: the options every request shares ([`Options`], read
//! with the request by [`Request::parse`]), what a game implements to be
//! served ([`Catalog`], [`ServedPosition`]), the pipelines that run plain
//! minimax, alpha-beta and the engine within the request's budget and
//! report them ([`pipeline`]), the answer's shape ([`Answer`]), the
//! engine's tables ([`TablePool`]) and how strong an answer plays
//! ([`strength`]: levels, mistakes, tie-breaks).

pub mod answer;
mod bounded;
pub mod pipeline;
pub mod request;
pub mod review;
pub mod served;
pub mod strength;
pub mod tables;

pub use answer::{Answer, Extra, MoveId, Naming, Place, ProgressReport};
pub use pipeline::{Context, ANSWER_RESERVE, DEFAULT_TIME_MS};
pub use request::{Fields, InputError, Options, Request};
pub use review::{Played, PlayedGame, Review, ReviewRequest, Scale};
pub use served::{Catalog, ServedPosition};
pub use strength::{Style, MAX_LEVEL};
pub use tables::TablePool;

/// Caller input quoted in an error message, cut to 40 characters (with an
/// ellipsis) so a huge value cannot make a huge message.
pub fn shorten(text: &str) -> String {
    match text.char_indices().nth(40) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_string(),
    }
}

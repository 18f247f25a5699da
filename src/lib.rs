//! bestmove: finds the best move in tic-tac-toe or in any game tree written
//! in JSON, with plain minimax and alpha-beta side by side.
//!
//! The crate is layered so that data flows one way:
//!
//! - [`config`]: every setting, from flags and environment variables;
//! - [`server`]: serving the api on a listener with bounded connections
//!   (header and idle timeouts, a connection limit), draining on shutdown;
//! - [`api`]: the HTTP layer (axum): parses and validates requests, runs the
//!   search off the async workers, maps every failure to a JSON error;
//! - [`games`]: tic-tac-toe (bitboards) and generic JSON trees, each turning
//!   input into a position that cannot be invalid;
//! - [`search`]: the shared core, generic over the [`search::Game`] trait:
//!   [`search::minimax`] and [`search::alpha_beta`].
//!
//! The search core knows nothing of HTTP or JSON; the games know nothing of
//! HTTP.

pub mod api;
pub mod config;
pub mod games;
pub mod search;
pub mod server;

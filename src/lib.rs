//! bestmove: finds the best move in tic-tac-toe, Connect Four, Othello or
//! any game tree written in JSON, with plain minimax, alpha-beta and an
//! engine side by side.
//!
//! The crate is layered so that data flows one way, each layer knowing
//! only the ones below it (`docs/architecture.md` draws them):
//!
//! - [`search`]: the shared core, generic over a game's rules
//!   ([`search::Game`]), its heuristics ([`search::Heuristics`]) and the
//!   solver's exact knowledge of it ([`search::Solver`]):
//!   [`search::minimax`], [`search::alpha_beta`] and [`search::engine`]
//!   (move ordering, a transposition table, iterative deepening,
//!   null-window solving, a heuristic driver with selective search, time
//!   budgets);
//! - [`suggest`]: the application layer, which names no game and knows no
//!   HTTP: the options every request shares, what a game implements to be
//!   served ([`suggest::ServedPosition`]), the pipelines that run and
//!   report the searches within a budget, the answer's shape, the tables,
//!   and strength (levels, mistakes, tie-breaks);
//! - [`games`]: the registry of the games ([`games::Registry`], the one
//!   place that names them all) and a folder per game: tic-tac-toe,
//!   Connect Four (bitboards, its opening book, an endgame solver),
//!   Othello (a fitted pattern evaluation, an exact endgame solver) and
//!   generic JSON trees, each turning input into a position that cannot be
//!   invalid and serving it;
//! - [`play`]: matches between players and the bench signature, outside
//!   the service;
//! - `api`: the HTTP layer (axum), by concern: middleware, the body,
//!   admission to a search slot, the handler and its event stream, the
//!   page, health and metrics, errors;
//! - `config`: every setting, from flags and environment variables;
//! - `server`: serving the api on a listener with bounded connections
//!   (header and idle timeouts, a connection limit), draining on shutdown.
//!
//! The search core knows nothing of HTTP, JSON or any game; the games know
//! nothing of HTTP; the layer between them names no game.
//!
//! # Features
//!
//! - `server` (default): the HTTP service, that is the `api`, `config` and
//!   `server` modules and the `bestmove` binary, with axum, tokio, clap and
//!   Prometheus; it turns on `book`.
//! - `book` (in `server`): the Connect Four opening book built into the
//!   crate (`games::connect4::Book::embedded`), with ruzstd to
//!   decompress it.
//!
//! With no features the crate is [`search`] and [`games`] alone, whose
//! dependencies are serde, serde_json and fastrand, and libc on unix (the
//! transposition table asks the kernel for huge pages). The crate is not on
//! crates.io: depend on its git repository, or on a local clone by path
//! (see `docs/engine.md`):
//!
//! ```toml
//! [dependencies]
//! bestmove = { git = "https://git.example.com/you/bestmove.git", default-features = false }
//! # a local clone, with the built-in opening book:
//! # bestmove = { path = "../bestmove", default-features = false, features = ["book"] }
//! ```
//!
//! # Example
//!
//! Solve a tic-tac-toe position with both searches:
//!
//! ```
//! use bestmove::games::tictactoe::Position;
//! use bestmove::search::{alpha_beta, minimax, Limits};
//!
//! // O to move; X threatens the diagonal 0-4-8, so O must block at 8.
//! let position = Position::parse("XO..X....", None)?;
//! let plain = minimax(&position.game(), Limits::default())?;
//! let pruned = alpha_beta(&position.game(), Limits::default())?;
//! assert_eq!(plain.best_move, Some(8));
//! assert_eq!(plain.score.value(), -1); // O loses with best play by X
//! assert_eq!((pruned.best_move, pruned.score), (plain.best_move, plain.score));
//! assert!(pruned.nodes < plain.nodes);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! The `examples/` folder has more: a tree with names and a depth limit, and
//! a seeded choice among equally good moves.

#![warn(missing_docs)]

#[cfg(feature = "server")]
pub mod api;
#[cfg(feature = "server")]
pub mod config;
pub mod games;
pub mod play;
pub mod search;
#[cfg(feature = "server")]
pub mod server;
pub mod suggest;
#[cfg(feature = "server")]
mod web;

/// The server's public signatures use these crates' types
/// ([`api::router`] returns an axum `Router`, [`server::run`] takes a tokio
/// `TcpListener`, [`api::Metrics`] holds prometheus-client metrics,
/// [`config::Config`] is a clap `Args`): they are re-exported so callers use
/// the same versions.
#[cfg(feature = "server")]
pub use {axum, clap, prometheus_client, tokio};

//! HTTP tests through the router, no socket: one binary, with shared helpers.
//! They need the `server` feature (the default); without it this binary is empty.

#![cfg(feature = "server")]

mod best_move;
mod compare;
mod connect4;
mod contract;
mod fairness;
mod golden;
mod gomoku;
mod helpers;
mod levels;
mod limits;
mod othello;
mod page;
mod review;
mod robustness;
mod service;
mod stream;

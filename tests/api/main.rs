//! HTTP tests through the router, no socket: one binary, with shared helpers.

mod best_move;
mod connect4;
mod contract;
mod helpers;
mod robustness;
mod service;

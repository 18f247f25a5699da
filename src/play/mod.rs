//! Playing the games outside the service: matches between players (the
//! levels' calibration, the comparisons) and the bench signature.

pub mod arena;
pub mod bench;

//! How strong Connect Four play is at a fixed `max_depth`: the engine, cut
//! at a depth and guided by the game's evaluation, against a player that
//! picks uniformly random columns, and in a round robin of depths.
//!
//! `cargo run --release --example connect4_depths [PAIRS] [SEED]` prints
//! both tables in Markdown. Each pairing plays PAIRS openings (default 50)
//! of 3 seeded random moves, each opening twice, once with each player
//! moving first after it: the same arguments give the same games.

use bestmove::games::connect4::Connect4;
use bestmove::play::arena::{matchup, AtDepth, Random, Record};
use bestmove::search::{Game, Table};

/// The i-th opening of a run: 3 random columns.
fn opening(seed: u64, i: usize) -> Connect4 {
    let mut rng = fastrand::Rng::with_seed(seed.wrapping_mul(1_000_003).wrapping_add(i as u64));
    (0..3).fold(Connect4::from_bitboards(0, 0), |p, _| p.play(rng.u8(..7)))
}

fn main() {
    let pairs: usize = std::env::args().nth(1).and_then(|g| g.parse().ok()).unwrap_or(50);
    let seed: u64 = std::env::args().nth(2).and_then(|s| s.parse().ok()).unwrap_or(1);
    let (mut one, mut other) = (Table::with_bytes(16 << 20), Table::with_bytes(16 << 20));
    let games = 2 * pairs;
    println!("Against a player of uniformly random columns, {games} games each, seed {seed}:\n");
    println!("| max_depth | Wins | Draws | Losses |");
    println!("| ---: | ---: | ---: | ---: |");
    for depth in [1, 2, 4, 6, 8] {
        let mut engine = AtDepth { depth, table: &mut one };
        let mut random = Random(fastrand::Rng::with_seed(seed));
        let r = matchup(pairs, &mut |i| opening(seed, i), &mut engine, &mut random);
        println!("| {depth} | {} | {} | {} |", r.wins, r.draws, r.losses);
    }
    let depths = [2, 4, 6, 8];
    println!(
        "\nRound robin, {games} games a pairing, seed {seed}: the row's points (win 1, draw 1/2) against the column\n"
    );
    println!("| max_depth |{} Total |", depths.map(|d| format!(" {d} |")).concat());
    println!("| ---: |{}", " ---: |".repeat(depths.len() + 1));
    let mut records = vec![vec![Record::default(); depths.len()]; depths.len()];
    for i in 0..depths.len() {
        for j in i + 1..depths.len() {
            let mut a = AtDepth { depth: depths[i], table: &mut one };
            let mut b = AtDepth { depth: depths[j], table: &mut other };
            let r = matchup(pairs, &mut |k| opening(seed, k), &mut a, &mut b);
            records[i][j] = r;
            records[j][i] = Record { wins: r.losses, draws: r.draws, losses: r.wins };
        }
    }
    for (i, row) in records.iter().enumerate() {
        let cells: String = row
            .iter()
            .enumerate()
            .map(|(j, r)| if i == j { " - |".into() } else { format!(" {} |", r.points()) })
            .collect();
        let total: f64 = row.iter().map(Record::points).sum();
        println!("| {} |{cells} {total} |", depths[i]);
    }
}

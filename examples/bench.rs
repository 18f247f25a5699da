//! Prints the bench signature: the positions each search of a fixed set
//! visits, and their total (`bestmove::play::bench`). A change of search
//! behaviour changes the total; `tests/bench.rs` holds it.
//!
//! `cargo run --release --example bench` (default features not needed).

fn main() {
    let started = std::time::Instant::now();
    let searches = bestmove::play::bench::run();
    for search in &searches {
        println!("{:>12}  {}", search.nodes, search.name);
    }
    let total: u64 = searches.iter().map(|s| s.nodes).sum();
    println!("{total:>12}  positions in all ({:.2} s)", started.elapsed().as_secs_f64());
}

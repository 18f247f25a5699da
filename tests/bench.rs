//! The bench signature (`bestmove::play::bench`): the positions a fixed
//! set of searches visits. A change of search behaviour changes it; when
//! that is meant, the new number goes here, in the commit message that
//! changes it, and in the README.

/// The signature of the searches as they are.
const SIGNATURE: u64 = 2_207_096;

#[test]
fn the_bench_signature_is_the_recorded_one() {
    let searches = bestmove::play::bench::run();
    let listing: Vec<String> = searches.iter().map(|s| format!("{:>10}  {}", s.nodes, s.name)).collect();
    let total: u64 = searches.iter().map(|s| s.nodes).sum();
    assert_eq!(total, SIGNATURE, "the searches visit other positions now:\n{}", listing.join("\n"));
}

#[test]
fn the_bench_signature_is_the_same_on_every_run() {
    assert_eq!(bestmove::play::bench::signature(), bestmove::play::bench::signature());
}

//! What reading a request costs in memory: never much more than its body,
//! whatever the body holds. Counted by a global allocator that records the
//! peak of the bytes allocated at once, in a test binary of its own.

#![cfg(feature = "server")]

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use bestmove::games::tree::TreeLimits;
use bestmove::games::{Registry, Settings};
use bestmove::suggest::Request;

struct Counting;

static NOW: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let now = NOW.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
        PEAK.fetch_max(now, Ordering::Relaxed);
        System.alloc(layout)
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        NOW.fetch_sub(layout.size(), Ordering::Relaxed);
        System.dealloc(ptr, layout)
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// The tests of this binary measure one at a time.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

/// The most bytes allocated at once, beyond what was allocated before,
/// while `body` is parsed (the body itself is made before the count). The
/// caller holds `ONE_AT_A_TIME`.
fn parse_peak(body: &str) -> usize {
    let limits = TreeLimits { max_nodes: 2_000_000, max_depth: 1_000 };
    let games = Registry::new(&Settings { tree_limits: limits, opening_book: Some("none".into()) }).unwrap();
    let before = NOW.load(Ordering::Relaxed);
    PEAK.store(before, Ordering::Relaxed);
    let result = Request::parse(body.as_bytes(), &games, 1_000);
    assert!(result.is_err(), "{} bytes were read as a position", body.len());
    drop(result);
    PEAK.load(Ordering::Relaxed) - before
}

/// What any position body may cost beyond itself.
const SMALL_CONSTANT: usize = 1 << 20;

#[test]
fn big_arrays_of_moves_or_cells_cost_a_small_constant() {
    // Alone from the start: the bodies made here would count in another
    // test's measure.
    let _alone = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let n = 4_000_000;
    let bodies = [
        format!(r#"{{"game": "connect4", "moves": [{}0]}}"#, "0,".repeat(n)),
        format!(r#"{{"game": "connect4", "board": [[{}"."]]}}"#, r#"".","#.repeat(n / 2)),
        format!(r#"{{"game": "connect4", "board": [{}"......."]}}"#, r#"".......","#.repeat(n / 4)),
        format!(r#"{{"game": "connect4", "moves": "{}"}}"#, "4".repeat(n)),
        format!(r#"{{"board": [{}0]}}"#, "0,".repeat(n)),
        format!(r#"{{"board": [[{}0]]}}"#, "0,".repeat(n)),
        format!(r#"{{"board": "{}"}}"#, ".".repeat(n)),
        format!(r#"{{"game": "{}", "board": "........."}}"#, "x".repeat(n)),
        format!(r#"{{"board": ".........", {}"seed": 1}}"#, r#""seed": 1, "#.repeat(n / 10)),
        format!(r#"{{"{}": 1}}"#, "k".repeat(n)),
        format!(r#"{{"game": "gomoku", "moves": [{}"h8"]}}"#, r#""h8","#.repeat(n / 5)),
        format!(r#"{{"game": "gomoku", "moves": "{}"}}"#, "h8".repeat(n / 2)),
        format!(r#"{{"game": "gomoku", "board": [{}"....."]}}"#, r#"".....","#.repeat(n / 8)),
    ];
    for body in &bodies {
        let peak = parse_peak(body);
        assert!(peak < SMALL_CONSTANT, "reading {} bytes ({}…) took {peak} bytes at once", body.len(), &body[..40]);
    }
}

/// A 20x20 Gomoku search holds a few copies of its position a ply (about
/// 500 bytes each), its move lists and the prover's memory of failed
/// positions: far below a megabyte beyond the table, which the service's
/// pool sizes once for every game.
#[test]
fn a_20x20_gomoku_search_costs_a_small_constant_beyond_its_table() {
    use bestmove::games::gomoku::{vcf, Board, Rule, Threats};
    use bestmove::search::{engine_with_oracle, EngineOptions, Game, Limits, Table};

    let _alone = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let mut board = Board::empty(20, Rule::Freestyle);
    // 60 stones, none making a four: a quiet position the search must
    // search.
    let mut rng = fastrand::Rng::with_seed(20);
    let mut tries = 0;
    while board.stones() < 60 && tries < 10_000 {
        tries += 1;
        let moves: Vec<u16> = board.moves().collect();
        let next = board.play(usize::from(moves[rng.usize(..moves.len())]));
        if !next.over() && !next.can_win(next.to_move()) && !next.can_win(next.to_move().other()) {
            board = next;
        }
    }
    assert!(board.stones() >= 40, "{board:?}");
    let mut table = Table::with_bytes(1 << 20);
    let before = NOW.load(Ordering::Relaxed);
    PEAK.store(before, Ordering::Relaxed);
    let limits = Limits { max_depth: Some(3), ..Limits::default() };
    let options = EngineOptions { score_root_moves: true, ..EngineOptions::default() };
    let result = engine_with_oracle(&board, &Threats::default(), limits, &mut table, options, &mut |_| {});
    assert!(result.is_ok());
    drop(result);
    let _ = vcf(&board, 5_000);
    let peak = PEAK.load(Ordering::Relaxed) - before;
    eprintln!("a 20x20 search: {peak} bytes at most beyond its table");
    assert!(peak < SMALL_CONSTANT, "a 20x20 search took {peak} bytes at once");
}

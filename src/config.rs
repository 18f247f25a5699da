//! Every setting of the service: a command-line flag and an environment
//! variable for each, with the defaults documented in one place.

use std::net::IpAddr;
use std::path::PathBuf;

use clap::{Args, ValueEnum};

use crate::games::connect4::{Book, BookError};

/// Default listening address: loopback, so a development run is not exposed.
pub const DEFAULT_HOST: &str = "127.0.0.1";
/// Default port.
pub const DEFAULT_PORT: u16 = 8080;
/// Default largest request body: 16 MiB.
pub const DEFAULT_MAX_BODY_BYTES: usize = 16 * 1024 * 1024;
/// Default most nodes in a tree.
pub const DEFAULT_MAX_TREE_NODES: usize = 2_000_000;
/// Default deepest tree.
pub const DEFAULT_MAX_TREE_DEPTH: usize = 1_000;
/// The deepest tree the setting may allow.
pub const MAX_TREE_DEPTH_LIMIT: u64 = 4_000;
/// Default time a request may take, queueing included.
pub const DEFAULT_REQUEST_TIMEOUT_MS: u64 = 10_000;
/// Default searches allowed to wait for a slot beyond those running.
pub const DEFAULT_SEARCH_QUEUE: usize = 32;
/// Default most nodes (estimated) for a search run on the async worker itself.
pub const DEFAULT_INLINE_MAX_NODES: u64 = 16_384;
/// Default time given to in-flight requests after a stop signal.
pub const DEFAULT_SHUTDOWN_TIMEOUT_MS: u64 = 5_000;
/// Default most time the engine may take for one answer, whatever `time_ms` asks.
pub const DEFAULT_MAX_SEARCH_MS: u64 = 5_000;
/// Default node budget that sets the depth of plain minimax and alpha-beta on Connect Four.
pub const DEFAULT_COMPARE_MAX_NODES: u64 = 1_000_000;
/// Default size of a Connect Four search's transposition table, in MiB.
pub const DEFAULT_TT_MIB: usize = 64;

/// How log lines are written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum LogFormat {
    /// Readable lines for a terminal.
    #[default]
    Human,
    /// One JSON object per line, for log collectors.
    Json,
}

/// The service's settings. Each field is a flag (`--max-tree-nodes`) and an
/// environment variable (`MAX_TREE_NODES`); the flag wins.
#[derive(Clone, Debug, Args)]
pub struct Config {
    /// Address to listen on (use 0.0.0.0 in a container).
    #[arg(long, env = "HOST", default_value = DEFAULT_HOST)]
    pub host: IpAddr,

    /// Port to listen on.
    #[arg(long, env = "PORT", default_value_t = DEFAULT_PORT)]
    pub port: u16,

    /// Largest request body in bytes; larger bodies get 413.
    #[arg(long, env = "MAX_BODY_BYTES", default_value_t = DEFAULT_MAX_BODY_BYTES)]
    pub max_body_bytes: usize,

    /// Most nodes (leaves and inner nodes) in a tree; more gets 422.
    #[arg(long, env = "MAX_TREE_NODES", default_value_t = DEFAULT_MAX_TREE_NODES)]
    pub max_tree_nodes: usize,

    /// Deepest tree (edges from the root to the deepest leaf); deeper gets 422.
    /// At most 4000: a search keeps a line per level, so its memory grows
    /// with the square of the depth (4 MB at 1,000 levels, 64 MB at 4,000).
    #[arg(long, env = "MAX_TREE_DEPTH", default_value_t = DEFAULT_MAX_TREE_DEPTH,
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=MAX_TREE_DEPTH_LIMIT))]
    pub max_tree_depth: usize,

    /// Most time for one request, waiting for a search slot included; then 503.
    #[arg(long, env = "REQUEST_TIMEOUT_MS", default_value_t = DEFAULT_REQUEST_TIMEOUT_MS)]
    pub request_timeout_ms: u64,

    /// Searches running at once on the blocking pool [default: the number of CPUs].
    #[arg(long, env = "MAX_CONCURRENT_SEARCHES")]
    pub max_concurrent_searches: Option<usize>,

    /// Searches allowed to wait for a slot; beyond that, 503 at once.
    #[arg(long, env = "SEARCH_QUEUE", default_value_t = DEFAULT_SEARCH_QUEUE)]
    pub search_queue: usize,

    /// Searches estimated at no more than this many nodes run on the async
    /// worker directly, skipping the hand-off to the blocking pool.
    #[arg(long, env = "INLINE_MAX_NODES", default_value_t = DEFAULT_INLINE_MAX_NODES)]
    pub inline_max_nodes: u64,

    /// Browser origins allowed by CORS: "*" for any, or a comma-separated list.
    #[arg(long, env = "CORS_ORIGINS", default_value = "*")]
    pub cors_origins: String,

    /// Log format.
    #[arg(long, env = "LOG_FORMAT", value_enum, default_value_t = LogFormat::Human)]
    pub log_format: LogFormat,

    /// Time in-flight requests get to finish after SIGTERM or Ctrl-C.
    #[arg(long, env = "SHUTDOWN_TIMEOUT_MS", default_value_t = DEFAULT_SHUTDOWN_TIMEOUT_MS)]
    pub shutdown_timeout_ms: u64,

    /// Most time the engine may take for one answer; a request's `time_ms`
    /// (default 1000) is capped at this.
    #[arg(long, env = "MAX_SEARCH_MS", default_value_t = DEFAULT_MAX_SEARCH_MS)]
    pub max_search_ms: u64,

    /// On Connect Four, plain minimax and alpha-beta search to the deepest
    /// depth whose plain minimax search visits at most this many positions.
    #[arg(long, env = "COMPARE_MAX_NODES", default_value_t = DEFAULT_COMPARE_MAX_NODES)]
    pub compare_max_nodes: u64,

    /// Size of the transposition table of each Connect Four search, in MiB
    /// (one table per search slot, reused; tic-tac-toe and trees use a
    /// small table of their own).
    #[arg(long = "tt-mib", env = "TT_MIB", default_value_t = DEFAULT_TT_MIB,
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=16384))]
    pub tt_mib: usize,

    /// Connect Four opening book (the 12-ply book with distances of
    /// bitbully-databases; scripts/fetch-opening-book.sh fetches it).
    /// Unset: no book, everything works, early positions are slower.
    #[arg(long, env = "OPENING_BOOK")]
    pub opening_book: Option<PathBuf>,

    /// The opening book, once [`Config::load_book`] has read it.
    #[arg(skip)]
    pub book: Option<&'static Book>,
}

impl Config {
    /// Reads the opening book named by `opening_book`, if any, for the life
    /// of the process.
    pub fn load_book(&mut self) -> Result<(), BookError> {
        if let Some(path) = &self.opening_book {
            self.book = Some(Box::leak(Box::new(Book::load(path)?)));
        }
        Ok(())
    }

    /// Searches that may run at once: the setting, or one per CPU.
    pub fn search_slots(&self) -> usize {
        self.max_concurrent_searches
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(2, |n| n.get()))
            .max(1)
    }
}

impl Default for Config {
    /// The documented defaults, ignoring flags and the environment.
    fn default() -> Self {
        Config {
            host: DEFAULT_HOST.parse().expect("a valid default address"),
            port: DEFAULT_PORT,
            max_body_bytes: DEFAULT_MAX_BODY_BYTES,
            max_tree_nodes: DEFAULT_MAX_TREE_NODES,
            max_tree_depth: DEFAULT_MAX_TREE_DEPTH,
            request_timeout_ms: DEFAULT_REQUEST_TIMEOUT_MS,
            max_concurrent_searches: None,
            search_queue: DEFAULT_SEARCH_QUEUE,
            inline_max_nodes: DEFAULT_INLINE_MAX_NODES,
            cors_origins: "*".into(),
            log_format: LogFormat::Human,
            shutdown_timeout_ms: DEFAULT_SHUTDOWN_TIMEOUT_MS,
            max_search_ms: DEFAULT_MAX_SEARCH_MS,
            compare_max_nodes: DEFAULT_COMPARE_MAX_NODES,
            tt_mib: DEFAULT_TT_MIB,
            opening_book: None,
            book: None,
        }
    }
}

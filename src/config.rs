//! Every setting of the service: a command-line flag and an environment
//! variable for each, with the defaults documented in one place.

use std::path::PathBuf;

use clap::{Args, ValueEnum};

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
/// Default time a request may take apart from its body's arrival, queueing included.
pub const DEFAULT_REQUEST_TIMEOUT_MS: u64 = 10_000;
/// Default searches allowed to wait for a slot beyond those running.
pub const DEFAULT_SEARCH_QUEUE: usize = 32;
/// Default most nodes (estimated) for a search run on the async worker itself.
pub const DEFAULT_INLINE_MAX_NODES: u64 = 16_384;
/// Default time a request body may take to arrive.
pub const DEFAULT_BODY_READ_TIMEOUT_MS: u64 = 5_000;
/// Default most bytes of request bodies held at once, read or waiting for a
/// search slot (bodies of at most 16 KiB declared are not counted).
pub const DEFAULT_MAX_BUFFERED_BODY_BYTES: usize = 16 * 1024 * 1024;
/// Default most `moves` a request may ask the answer to list.
pub const DEFAULT_MAX_MOVES_LIMIT: usize = 10_000;
/// Default time given to in-flight requests after a stop signal.
pub const DEFAULT_SHUTDOWN_TIMEOUT_MS: u64 = 5_000;
/// Default most time the engine may take for one answer, whatever `time_ms` asks.
pub const DEFAULT_MAX_SEARCH_MS: u64 = 5_000;
/// Default for `MAX_REVIEW_MS`.
pub const DEFAULT_MAX_REVIEW_MS: u64 = 60_000;
/// Default node budget that sets the depth of plain minimax and alpha-beta where the engine answers.
pub const DEFAULT_COMPARE_MAX_NODES: u64 = 1_000_000;
/// Default for a request that does not send `compare`: run every search.
pub const DEFAULT_COMPARE: bool = true;
/// Default size of an engine search's transposition table, in MiB.
pub const DEFAULT_TT_MIB: usize = 64;
/// Default time a connection has to deliver a request's headers.
pub const DEFAULT_HEADER_READ_TIMEOUT_MS: u64 = 10_000;
/// Default time a keep-alive connection may stay open with no request in flight.
pub const DEFAULT_IDLE_TIMEOUT_MS: u64 = 60_000;
/// File descriptors kept free for everything but client connections: at
/// least this many, and at least 1/16 of the limit.
pub const RESERVED_FILE_DESCRIPTORS: usize = 64;
/// The most connections the default connection limit allows, whatever the
/// file-descriptor limit: each open connection holds some memory.
pub const DEFAULT_MAX_CONNECTIONS_CEILING: usize = 16_384;

/// Default time window of the per-client search time limit.
pub const DEFAULT_CLIENT_WINDOW_MS: u64 = 60_000;

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
    /// Address to listen on: an IP address or a host name such as
    /// localhost (use 0.0.0.0 in a container).
    #[arg(long, env = "HOST", default_value = DEFAULT_HOST, value_parser = parse_host)]
    pub host: String,

    /// Port to listen on.
    #[arg(long, env = "PORT", default_value_t = DEFAULT_PORT)]
    pub port: u16,

    /// A port of its own for GET /metrics, on the same host; the main port
    /// then answers /metrics with 404, so a firewall or NetworkPolicy (which
    /// sees ports, not paths) can keep metrics from API clients
    /// [default: unset, /metrics on the main port].
    #[arg(long, env = "METRICS_PORT", value_parser = clap::value_parser!(u16).range(1..))]
    pub metrics_port: Option<u16>,

    /// Largest request body in bytes; larger bodies get 413.
    #[arg(long, env = "MAX_BODY_BYTES", default_value_t = DEFAULT_MAX_BODY_BYTES)]
    pub max_body_bytes: usize,

    /// Most nodes (leaves and inner nodes) in a tree; more gets 422.
    #[arg(long, env = "MAX_TREE_NODES", default_value_t = DEFAULT_MAX_TREE_NODES)]
    pub max_tree_nodes: usize,

    /// Deepest tree (edges from the root to the deepest leaf); deeper gets 422.
    /// At most 4000: a search keeps a line per level, so its memory grows
    /// with the square of the depth (3.8 MiB at 1,000 levels, 61 MiB at 4,000).
    #[arg(long, env = "MAX_TREE_DEPTH", default_value_t = DEFAULT_MAX_TREE_DEPTH,
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=MAX_TREE_DEPTH_LIMIT))]
    pub max_tree_depth: usize,

    /// Most time for one request apart from its body's arrival (waiting for
    /// room for the body and for a search slot included); then 503.
    #[arg(long, env = "REQUEST_TIMEOUT_MS", default_value_t = DEFAULT_REQUEST_TIMEOUT_MS)]
    pub request_timeout_ms: u64,

    /// Most time for a request's body to arrive; then 408. Counted apart
    /// from REQUEST_TIMEOUT_MS: a body is read before its search waits for a slot.
    #[arg(long, env = "BODY_READ_TIMEOUT_MS", default_value_t = DEFAULT_BODY_READ_TIMEOUT_MS)]
    pub body_read_timeout_ms: u64,

    /// Most bytes of request bodies held at once, being read or waiting for
    /// a search slot; a body that finds no room within BODY_READ_TIMEOUT_MS
    /// gets 503. Bodies declared at 16 KiB or less are not counted.
    #[arg(long, env = "MAX_BUFFERED_BODY_BYTES", default_value_t = DEFAULT_MAX_BUFFERED_BODY_BYTES)]
    pub max_buffered_body_bytes: usize,

    /// Most `moves` a request may ask the answer to list (`max_moves`); the
    /// default list is 1,000.
    #[arg(long, env = "MAX_MOVES_LIMIT", default_value_t = DEFAULT_MAX_MOVES_LIMIT)]
    pub max_moves_limit: usize,

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

    /// Most time one game review (`POST /review`) may take; a review's
    /// `time_ms` (default 25000) is capped at this.
    #[arg(long, env = "MAX_REVIEW_MS", default_value_t = DEFAULT_MAX_REVIEW_MS)]
    pub max_review_ms: u64,

    /// Where the engine answers (Connect Four, Othello), plain minimax and
    /// alpha-beta compare at the deepest depth whose plain minimax search
    /// visits at most this many positions, within a quarter of the request's
    /// time budget.
    #[arg(long, env = "COMPARE_MAX_NODES", default_value_t = DEFAULT_COMPARE_MAX_NODES)]
    pub compare_max_nodes: u64,

    /// Whether a request that does not send `compare` also runs the
    /// searches its answer is not read from, for their node counts: plain
    /// minimax and alpha-beta where the engine answers (Connect Four,
    /// Othello), or alpha-beta and the engine where plain minimax answers
    /// (tic-tac-toe, trees). false: an answer costs its own search alone.
    #[arg(long, env = "COMPARE", default_value_t = DEFAULT_COMPARE, action = clap::ArgAction::Set,
          value_name = "true|false")]
    pub compare: bool,

    /// Size of the transposition table of each engine search that answers
    /// (Connect Four, Othello), in MiB (one table per search slot, reused;
    /// tic-tac-toe and trees use a small table of their own).
    #[arg(long = "tt-mib", env = "TT_MIB", default_value_t = DEFAULT_TT_MIB,
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=16384))]
    pub tt_mib: usize,

    /// Connect Four opening book: unset, the one built into the binary (the
    /// 12-ply book with distances of bitbully-databases, MIT, by Markus
    /// Thill); a path, a book file in that format (as
    /// scripts/fetch-opening-book.sh fetches); `none`, no book (everything
    /// works, early positions are slower and often not solved in time).
    #[arg(long, env = "OPENING_BOOK")]
    pub opening_book: Option<PathBuf>,

    /// Time a connection has to send a request's headers, counted from when
    /// it is accepted or, on a keep-alive connection, from the request's
    /// first byte; then it is closed.
    #[arg(long, env = "HEADER_READ_TIMEOUT_MS", default_value_t = DEFAULT_HEADER_READ_TIMEOUT_MS,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub header_read_timeout_ms: u64,

    /// Time a keep-alive connection (HTTP/1.1 or HTTP/2) may stay open with
    /// no request in flight; then it is closed.
    #[arg(long, env = "IDLE_TIMEOUT_MS", default_value_t = DEFAULT_IDLE_TIMEOUT_MS,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub idle_timeout_ms: u64,

    /// Most searches one client may have in flight at once; more get 429
    /// with Retry-After. 0: no limit. A client is its address (see
    /// CLIENT_IP_HEADER); the limit holds in each replica.
    #[arg(long, env = "CLIENT_MAX_SEARCHES", default_value_t = 0)]
    pub client_max_searches: usize,

    /// Most search time, in ms, one client may use per CLIENT_WINDOW_MS
    /// (a request's time from its arrival to its answer, at least 1 ms);
    /// past it, 429 with Retry-After until the window ends. 0: no limit.
    #[arg(long, env = "CLIENT_SEARCH_MS", default_value_t = 0)]
    pub client_search_ms: u64,

    /// The window of CLIENT_SEARCH_MS, in ms: 1000 (1 s) to 86400000 (a day).
    #[arg(long, env = "CLIENT_WINDOW_MS", default_value_t = DEFAULT_CLIENT_WINDOW_MS,
          value_parser = clap::value_parser!(u64).range(1_000..=86_400_000))]
    pub client_window_ms: u64,

    /// A request header that a trusted proxy sets to the client's address,
    /// such as x-forwarded-for (its last entry is used: the address the
    /// proxy saw). Set it only when every request comes through that proxy:
    /// clients could otherwise choose their own address. Unset: the
    /// connection's peer address.
    #[arg(long, env = "CLIENT_IP_HEADER", value_parser = parse_header_name)]
    pub client_ip_header: Option<String>,

    /// Most client connections open at once; more wait in the listen backlog
    /// until one closes [default: the file-descriptor limit less 1/16 of it
    /// (at least 64), at most 16384].
    #[arg(long, env = "MAX_CONNECTIONS", value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..))]
    pub max_connections: Option<usize>,
}

/// A host is an IP address or a name, resolved when the server binds: only
/// an empty value or one with spaces is refused here.
fn parse_host(host: &str) -> Result<String, String> {
    if host.is_empty() || host.chars().any(char::is_whitespace) {
        return Err("a host is an IP address or a host name, such as 0.0.0.0 or localhost".into());
    }
    Ok(host.to_string())
}

/// A header name as HTTP allows it, in lower case.
fn parse_header_name(name: &str) -> Result<String, String> {
    axum::http::HeaderName::try_from(name.trim())
        .map(|name| name.as_str().to_owned())
        .map_err(|_| format!("{name:?} is not an HTTP header name (such as x-forwarded-for)"))
}

impl Config {
    /// Checks what no single setting can: the settings against each other.
    /// The message names the settings at fault.
    pub fn check(&self) -> Result<(), String> {
        if self.metrics_port == Some(self.port) {
            return Err(format!(
                "METRICS_PORT ({}) must differ from PORT: metrics are served apart from the API",
                self.port
            ));
        }
        Ok(())
    }

    /// Searches that may run at once: the setting, or one per CPU.
    pub fn search_slots(&self) -> usize {
        self.max_concurrent_searches
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(2, |n| n.get()))
            .max(1)
    }

    /// Connections that may be open at once: the setting, or what the
    /// process's file-descriptor limit leaves room for.
    pub fn connection_limit(&self) -> usize {
        self.max_connections.unwrap_or_else(|| default_max_connections(open_files_limit())).max(1)
    }
}

/// The connection limit for a file-descriptor limit (`None`: unknown or
/// unlimited): the limit less what the rest of the process may open (the
/// listener, the runtime's own descriptors, logs, files read at start).
pub fn default_max_connections(open_files_limit: Option<u64>) -> usize {
    let Some(limit) = open_files_limit else {
        return DEFAULT_MAX_CONNECTIONS_CEILING;
    };
    let limit = usize::try_from(limit).unwrap_or(usize::MAX);
    let reserved = (limit / 16).max(RESERVED_FILE_DESCRIPTORS);
    limit.saturating_sub(reserved).clamp(1, DEFAULT_MAX_CONNECTIONS_CEILING)
}

/// The process's soft limit on open file descriptors, if it has a finite one.
#[cfg(unix)]
pub fn open_files_limit() -> Option<u64> {
    let mut limit = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
    // SAFETY: getrlimit only writes the struct it is given.
    let status = unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) };
    // rlim_t is u64 on Linux but not on every Unix.
    #[allow(clippy::unnecessary_cast)]
    (status == 0 && limit.rlim_cur != libc::RLIM_INFINITY).then_some(limit.rlim_cur as u64)
}

/// The process's soft limit on open file descriptors, if it has a finite one.
#[cfg(not(unix))]
pub fn open_files_limit() -> Option<u64> {
    None
}

impl Default for Config {
    /// The documented defaults, ignoring flags and the environment.
    fn default() -> Self {
        Config {
            host: DEFAULT_HOST.into(),
            port: DEFAULT_PORT,
            metrics_port: None,
            max_body_bytes: DEFAULT_MAX_BODY_BYTES,
            max_tree_nodes: DEFAULT_MAX_TREE_NODES,
            max_tree_depth: DEFAULT_MAX_TREE_DEPTH,
            request_timeout_ms: DEFAULT_REQUEST_TIMEOUT_MS,
            body_read_timeout_ms: DEFAULT_BODY_READ_TIMEOUT_MS,
            max_buffered_body_bytes: DEFAULT_MAX_BUFFERED_BODY_BYTES,
            max_moves_limit: DEFAULT_MAX_MOVES_LIMIT,
            max_concurrent_searches: None,
            search_queue: DEFAULT_SEARCH_QUEUE,
            inline_max_nodes: DEFAULT_INLINE_MAX_NODES,
            cors_origins: "*".into(),
            log_format: LogFormat::Human,
            shutdown_timeout_ms: DEFAULT_SHUTDOWN_TIMEOUT_MS,
            max_search_ms: DEFAULT_MAX_SEARCH_MS,
            max_review_ms: DEFAULT_MAX_REVIEW_MS,
            compare_max_nodes: DEFAULT_COMPARE_MAX_NODES,
            compare: DEFAULT_COMPARE,
            tt_mib: DEFAULT_TT_MIB,
            opening_book: None,
            header_read_timeout_ms: DEFAULT_HEADER_READ_TIMEOUT_MS,
            idle_timeout_ms: DEFAULT_IDLE_TIMEOUT_MS,
            max_connections: None,
            client_max_searches: 0,
            client_search_ms: 0,
            client_window_ms: DEFAULT_CLIENT_WINDOW_MS,
            client_ip_header: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        config: Config,
    }

    #[test]
    fn compare_is_on_by_default_and_set_by_true_or_false() {
        let cli = Cli::try_parse_from(["bestmove"]).unwrap();
        assert_eq!(cli.config.compare, DEFAULT_COMPARE);
        for (value, expected) in [("false", false), ("true", true)] {
            let cli = Cli::try_parse_from(["bestmove", "--compare", value]).unwrap();
            assert_eq!(cli.config.compare, expected, "--compare {value}");
        }
        assert!(Cli::try_parse_from(["bestmove", "--compare", "sometimes"]).is_err());
    }

    #[test]
    fn the_metrics_port_is_a_port_other_than_the_api_port() {
        let cli = Cli::try_parse_from(["bestmove", "--metrics-port", "9090"]).unwrap();
        assert_eq!(cli.config.metrics_port, Some(9090));
        assert_eq!(cli.config.check(), Ok(()));
        for bad in ["0", "70000", "metrics"] {
            assert!(Cli::try_parse_from(["bestmove", "--metrics-port", bad]).is_err(), "{bad} was accepted");
        }
        let same = Cli::try_parse_from(["bestmove", "--port", "8080", "--metrics-port", "8080"]).unwrap();
        let error = same.config.check().unwrap_err();
        assert!(error.contains("METRICS_PORT") && error.contains("PORT"), "{error}");
    }

    #[test]
    fn the_per_client_limits_are_off_by_default_and_refuse_bad_values() {
        let cli = Cli::try_parse_from(["bestmove"]).unwrap();
        assert_eq!((cli.config.client_max_searches, cli.config.client_search_ms), (0, 0));
        assert_eq!(cli.config.client_ip_header, None);
        let cli = Cli::try_parse_from([
            "bestmove",
            "--client-max-searches",
            "2",
            "--client-search-ms",
            "15000",
            "--client-window-ms",
            "60000",
            "--client-ip-header",
            "X-Forwarded-For",
        ])
        .unwrap();
        assert_eq!((cli.config.client_max_searches, cli.config.client_search_ms), (2, 15_000));
        assert_eq!(cli.config.client_ip_header.as_deref(), Some("x-forwarded-for"));
        for (flag, bad) in [
            ("--client-max-searches", "-1"),
            ("--client-search-ms", "ten"),
            ("--client-window-ms", "999"),
            ("--client-window-ms", "86400001"),
            ("--client-ip-header", "x forwarded for"),
            ("--client-ip-header", ""),
        ] {
            assert!(Cli::try_parse_from(["bestmove", flag, bad]).is_err(), "{flag} {bad:?} was accepted");
        }
        let error = Cli::try_parse_from(["bestmove", "--client-ip-header", "x forwarded"]).err().unwrap().to_string();
        assert!(error.contains("not an HTTP header name"), "{error}");
    }

    #[test]
    fn a_host_is_an_address_or_a_name() {
        for host in ["127.0.0.1", "0.0.0.0", "::1", "localhost", "bestmove.internal"] {
            let cli = Cli::try_parse_from(["bestmove", "--host", host]).unwrap_or_else(|e| panic!("{host}: {e}"));
            assert_eq!(cli.config.host, host);
        }
        for host in ["", "local host"] {
            assert!(Cli::try_parse_from(["bestmove", "--host", host]).is_err(), "{host:?} was accepted");
        }
    }
}

//! The `bestmove` binary: reads the configuration, sets up logging, and
//! serves until Ctrl-C or SIGTERM. `bestmove healthcheck` probes a running
//! server, for container health checks that have no curl.

use std::process::ExitCode;
use std::time::Duration;

use bestmove::config::{Config, LogFormat};
use std::sync::Arc;

use bestmove::api::AppState;
use clap::{Parser, Subcommand};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tracing_subscriber::EnvFilter;

/// bestmove: the best move in tic-tac-toe, Connect Four, Othello or any JSON
/// game tree, by minimax, alpha-beta and a game engine, over HTTP.
#[derive(Parser)]
#[command(version, about)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    config: Config,
}

#[derive(Subcommand)]
enum Command {
    /// Serve the API (the default).
    Serve,
    /// Exit 0 if the server on PORT at 127.0.0.1 answers /healthz with 200.
    Healthcheck,
}

fn main() -> ExitCode {
    large_allocations_from_the_kernel();
    let cli = Cli::parse();
    let config = cli.config;
    if let Err(error) = config.check() {
        eprintln!("bestmove: {error}");
        return ExitCode::FAILURE;
    }
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        // Searches recurse once per ply: give blocking threads room for the
        // deepest tree the configuration allows.
        .thread_stack_size(stack_size(config.max_tree_depth))
        .build()
    {
        Ok(runtime) => runtime,
        Err(error) => {
            eprintln!("bestmove: cannot start the runtime: {error}");
            return ExitCode::FAILURE;
        }
    };
    match cli.command {
        Some(Command::Healthcheck) => runtime.block_on(healthcheck(config.port)),
        Some(Command::Serve) | None => {
            // The games load what they need (the opening book) before the
            // service starts: a book named but unreadable is a
            // configuration error.
            let state = match AppState::try_new(config) {
                Ok(state) => Arc::new(state),
                Err(error) => {
                    eprintln!("bestmove: {error}");
                    return ExitCode::FAILURE;
                }
            };
            runtime.block_on(serve(state))
        }
    }
}

/// Makes every allocation of 1 MiB or more (request bodies, trees, scores
/// per root move) a mapping of its own, given back to the kernel when freed.
///
/// By default glibc raises that threshold after each large free, up to
/// 32 MiB; later bodies and trees are then carved from per-thread arenas
/// that keep their pages, and peak memory grows with how requests happen to
/// land on threads: eight of the widest trees in a row peaked at 203 MiB
/// instead of 130 MiB (`scripts/memory-check.sh`). A fixed threshold keeps
/// memory at what the requests in flight hold.
fn large_allocations_from_the_kernel() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        const M_MMAP_THRESHOLD: std::ffi::c_int = -3;
        unsafe extern "C" {
            fn mallopt(param: std::ffi::c_int, value: std::ffi::c_int) -> std::ffi::c_int;
        }
        // SAFETY: mallopt only sets a parameter of glibc's allocator, and is
        // called before any other thread exists. It returns 0 only for an
        // unknown parameter, which leaves the default in place.
        unsafe {
            mallopt(M_MMAP_THRESHOLD, 1 << 20);
        }
    }
}

/// 2 MiB, plus 1 KiB for every level of tree allowed.
fn stack_size(max_tree_depth: usize) -> usize {
    (2 << 20) + max_tree_depth.saturating_mul(1024)
}

async fn serve(state: Arc<AppState>) -> ExitCode {
    let config = state.config();
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    match config.log_format {
        LogFormat::Json => tracing_subscriber::fmt().json().with_env_filter(filter).init(),
        LogFormat::Human => tracing_subscriber::fmt().with_env_filter(filter).init(),
    }
    // A host name (such as localhost) is resolved here; the first of its
    // addresses that can be bound is used.
    let listener = match bind(&config.host, config.port).await {
        Ok(listener) => listener,
        Err(error) => {
            tracing::error!(%error, host = %config.host, port = config.port, "cannot listen");
            return ExitCode::FAILURE;
        }
    };
    // Signals are handled from here on: one sent as soon as the address is
    // logged shuts the server down gracefully.
    let shutdown = bestmove::server::shutdown_signal();
    let local = listener.local_addr().map(|a| a.to_string()).unwrap_or_default();
    tracing::info!(address = %local, version = env!("CARGO_PKG_VERSION"), "bestmove listening on http://{local}");
    let metrics = match config.metrics_port {
        Some(port) => match bind(&config.host, port).await {
            Ok(listener) => {
                let local = listener.local_addr().map(|a| a.to_string()).unwrap_or_default();
                tracing::info!(address = %local, "metrics on http://{local}/metrics");
                Some(listener)
            }
            Err(error) => {
                tracing::error!(%error, host = %config.host, port, "cannot listen for metrics");
                return ExitCode::FAILURE;
            }
        },
        None => None,
    };
    match bestmove::server::run_with_metrics(listener, metrics, state.clone(), shutdown).await {
        Ok(()) => {
            tracing::info!("stopped");
            ExitCode::SUCCESS
        }
        Err(error) => {
            tracing::error!(%error, "server error");
            ExitCode::FAILURE
        }
    }
}

async fn healthcheck(port: u16) -> ExitCode {
    let probe = async {
        let mut stream = tokio::net::TcpStream::connect(("127.0.0.1", port)).await?;
        stream.write_all(b"GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n").await?;
        let mut head = [0u8; 12];
        stream.read_exact(&mut head).await?;
        Ok::<bool, std::io::Error>(head.starts_with(b"HTTP/1.1 200"))
    };
    match tokio::time::timeout(Duration::from_secs(3), probe).await {
        Ok(Ok(true)) => ExitCode::SUCCESS,
        _ => ExitCode::FAILURE,
    }
}

/// Listens on the first address of `host` (a name or an address) that can be
/// bound, with the server's listen backlog.
async fn bind(host: &str, port: u16) -> std::io::Result<tokio::net::TcpListener> {
    let mut last = None;
    for address in tokio::net::lookup_host((host, port)).await? {
        match bestmove::server::bind(address) {
            Ok(listener) => return Ok(listener),
            Err(error) => last = Some(error),
        }
    }
    Err(last.unwrap_or_else(|| std::io::Error::new(std::io::ErrorKind::NotFound, format!("{host} has no address"))))
}

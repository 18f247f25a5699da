//! Connections are bounded: a client that is slow to send its headers, or
//! that keeps a connection open without using it, is closed; past the
//! connection limit new clients wait until one closes; requests in flight
//! are never cut by these limits.
//!
//! Each test runs a real server on a loopback port with small timeouts. The
//! waits below only bound how long a broken server can hang a test; what is
//! asserted is what happened (an answer, a close, a counter).

#![cfg(feature = "server")]

mod common;

use std::io::{BufRead, BufReader, Write};
use std::net::SocketAddr;
use std::process::{Command, Stdio};
use std::time::Duration;

use bestmove::config::{default_max_connections, Config};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

use common::{read_response, PATIENCE};

const HEALTHZ: &str = "GET /healthz HTTP/1.1\r\nHost: test\r\n\r\n";
const EMPTY_BOARD_BODY: &str = "{\"board\": \".........\"}";

struct Server {
    address: SocketAddr,
    stop: Option<oneshot::Sender<()>>,
    task: JoinHandle<std::io::Result<()>>,
}

impl Server {
    async fn start(config: Config) -> Server {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let address = listener.local_addr().unwrap();
        let (stop, stopped) = oneshot::channel::<()>();
        let task = tokio::spawn(bestmove::server::run(listener, config, async {
            let _ = stopped.await;
        }));
        Server { address, stop: Some(stop), task }
    }

    async fn connect(&self) -> TcpStream {
        TcpStream::connect(self.address).await.unwrap()
    }

    /// A counter or gauge from `/metrics`, read on a connection of its own.
    async fn metric(&self, line_prefix: &str) -> f64 {
        let mut client = self.connect().await;
        client.write_all(b"GET /metrics HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n").await.unwrap();
        let text = closed_after(&mut client).await.expect("a readable answer");
        metric_value(&text, line_prefix)
    }

    async fn stop(mut self) {
        let _ = self.stop.take().unwrap().send(());
        tokio::time::timeout(PATIENCE, self.task).await.expect("the server stops").unwrap().unwrap();
    }
}

fn metric_value(text: &str, line_prefix: &str) -> f64 {
    text.lines()
        .find_map(|line| line.strip_prefix(line_prefix).and_then(|rest| rest.strip_prefix(' ')))
        .unwrap_or_else(|| panic!("no {line_prefix} in {text}"))
        .trim()
        .parse()
        .unwrap()
}

fn config(header_read_timeout_ms: u64, idle_timeout_ms: u64) -> Config {
    Config { header_read_timeout_ms, idle_timeout_ms, ..Config::default() }
}

const HEADER_TIMEOUTS: &str = "bestmove_connections_timed_out_total{timeout=\"header_read\"}";
const IDLE_TIMEOUTS: &str = "bestmove_connections_timed_out_total{timeout=\"idle\"}";

/// Everything the server sends until it closes the connection; an error if
/// it resets it. Panics if the connection is still open after [`PATIENCE`].
async fn closed_after(client: &mut TcpStream) -> std::io::Result<String> {
    let mut received = Vec::new();
    tokio::time::timeout(PATIENCE, client.read_to_end(&mut received))
        .await
        .expect("the server closes the connection")?;
    Ok(String::from_utf8_lossy(&received).into_owned())
}

/// Sends `text` in `pieces` writes, `pause` apart.
async fn send_slowly(client: &mut TcpStream, text: &str, pieces: usize, pause: Duration) {
    let bytes = text.as_bytes();
    let size = bytes.len().div_ceil(pieces);
    for chunk in bytes.chunks(size) {
        client.write_all(chunk).await.unwrap();
        tokio::time::sleep(pause).await;
    }
}

fn best_move_head(body_length: usize) -> String {
    format!(
        "POST /best-move HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\nContent-Length: {body_length}\r\n\r\n"
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_connection_that_sends_half_a_header_and_stops_is_closed_after_the_header_timeout() {
    let server = Server::start(config(300, 60_000)).await;
    let mut client = server.connect().await;
    client.write_all(b"POST /best-move HTTP/1.1\r\nHost: x\r\n").await.unwrap();

    let answer = closed_after(&mut client).await.unwrap_or_default();
    assert_eq!(answer, "", "no answer, only a close");
    assert_eq!(server.metric(HEADER_TIMEOUTS).await, 1.0);
    assert_eq!(server.metric(IDLE_TIMEOUTS).await, 0.0);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_connection_that_sends_nothing_is_closed_after_the_header_timeout() {
    let server = Server::start(config(300, 60_000)).await;
    let mut client = server.connect().await;

    let answer = closed_after(&mut client).await.unwrap_or_default();
    assert_eq!(answer, "");
    assert_eq!(server.metric(HEADER_TIMEOUTS).await, 1.0);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_idle_keep_alive_connection_is_closed_by_the_idle_timeout_not_the_shorter_header_timeout() {
    let server = Server::start(config(100, 800)).await;
    let mut client = server.connect().await;
    client.write_all(HEALTHZ.as_bytes()).await.unwrap();
    let (status, _) = read_response(&mut client).await;
    assert!(status.starts_with("HTTP/1.1 200"), "{status}");

    let rest = closed_after(&mut client).await.unwrap();
    assert_eq!(rest, "");
    assert_eq!(server.metric(IDLE_TIMEOUTS).await, 1.0);
    assert_eq!(server.metric(HEADER_TIMEOUTS).await, 0.0, "waiting for the next request is not a header read");
    assert_eq!(server.metric("bestmove_connections_open").await, 1.0, "only the metrics connection");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn headers_sent_slowly_but_within_the_limit_are_served_on_new_and_keep_alive_connections() {
    // 1.5 s of headers per request, with a 5 s header timeout and an idle
    // timeout shorter than the headers take.
    let server = Server::start(config(5_000, 1_000)).await;
    let mut client = server.connect().await;
    for _ in 0..2 {
        send_slowly(&mut client, HEALTHZ, 6, Duration::from_millis(250)).await;
        let (status, body) = read_response(&mut client).await;
        assert!(status.starts_with("HTTP/1.1 200"), "{status}");
        assert!(body.contains("\"ok\""), "{body}");
    }
    assert_eq!(server.metric(HEADER_TIMEOUTS).await, 0.0);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_keep_alive_connection_whose_next_headers_stall_is_closed_after_the_header_timeout() {
    // The idle timeout is far away: only the header timeout can close it.
    let server = Server::start(config(300, 60_000)).await;
    let mut client = server.connect().await;
    client.write_all(HEALTHZ.as_bytes()).await.unwrap();
    let (status, _) = read_response(&mut client).await;
    assert!(status.starts_with("HTTP/1.1 200"), "{status}");
    client.write_all(b"GET /healthz HTTP/1.1\r\nHo").await.unwrap();

    assert_eq!(closed_after(&mut client).await.unwrap_or_default(), "");
    assert_eq!(server.metric(HEADER_TIMEOUTS).await, 1.0);
    assert_eq!(server.metric(IDLE_TIMEOUTS).await, 0.0);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_search_in_flight_is_not_cut_by_the_idle_timeout() {
    // A 1 ms idle timeout is far shorter than searching the whole game
    // (549,946 positions for minimax alone).
    let server = Server::start(config(5_000, 1)).await;
    let mut client = server.connect().await;
    let request = best_move_head(EMPTY_BOARD_BODY.len()) + EMPTY_BOARD_BODY;
    client.write_all(request.as_bytes()).await.unwrap();

    let (status, body) = read_response(&mut client).await;
    assert!(status.starts_with("HTTP/1.1 200"), "{status}");
    assert!(body.contains("\"nodes\":549946"), "{body}");
    // Then the connection is idle, and the idle timeout does close it.
    assert_eq!(closed_after(&mut client).await.unwrap(), "");
    assert_eq!(server.metric(IDLE_TIMEOUTS).await, 1.0);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_request_whose_body_comes_slowly_is_not_cut_by_the_idle_timeout() {
    let server = Server::start(config(5_000, 100)).await;
    let mut client = server.connect().await;
    client.write_all(best_move_head(EMPTY_BOARD_BODY.len()).as_bytes()).await.unwrap();
    // 800 ms of body, eight times the idle timeout.
    send_slowly(&mut client, EMPTY_BOARD_BODY, 4, Duration::from_millis(200)).await;

    let (status, body) = read_response(&mut client).await;
    assert!(status.starts_with("HTTP/1.1 200"), "{status}");
    assert!(body.contains("\"best_move\""), "{body}");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn at_the_connection_limit_new_clients_wait_until_a_connection_closes() {
    let server = Server::start(Config { max_connections: Some(2), ..config(60_000, 60_000) }).await;
    // Two keep-alive connections, surely accepted: each has had an answer.
    let mut first = server.connect().await;
    let mut second = server.connect().await;
    for client in [&mut first, &mut second] {
        client.write_all(HEALTHZ.as_bytes()).await.unwrap();
        assert!(read_response(client).await.0.starts_with("HTTP/1.1 200"));
    }

    let mut third = server.connect().await;
    third.write_all(HEALTHZ.as_bytes()).await.unwrap();
    let mut byte = [0u8; 1];
    let early = tokio::time::timeout(Duration::from_millis(500), third.read(&mut byte)).await;
    assert!(early.is_err(), "no answer while two connections are open");
    // The open connections are still served meanwhile.
    second.write_all(HEALTHZ.as_bytes()).await.unwrap();
    assert!(read_response(&mut second).await.0.starts_with("HTTP/1.1 200"));

    drop(first);
    let (status, _) = read_response(&mut third).await;
    assert!(status.starts_with("HTTP/1.1 200"), "{status}");

    drop(second);
    assert_eq!(server.metric("bestmove_connections_max").await, 2.0);
    assert!(server.metric("bestmove_connection_limit_reached_total").await >= 1.0);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_shutdown_idle_connections_close_at_once_and_requests_in_flight_finish() {
    // Timeouts and grace far beyond the test's patience: only the shutdown
    // itself can close the idle connections in time.
    let server = Server::start(Config { shutdown_timeout_ms: 120_000, ..config(120_000, 120_000) }).await;
    let mut idle = server.connect().await;
    idle.write_all(HEALTHZ.as_bytes()).await.unwrap();
    assert!(read_response(&mut idle).await.0.starts_with("HTTP/1.1 200"));
    let mut silent = server.connect().await;
    let mut busy = server.connect().await;
    busy.write_all(best_move_head(EMPTY_BOARD_BODY.len()).as_bytes()).await.unwrap();
    let (start, end) = EMPTY_BOARD_BODY.split_at(10);
    busy.write_all(start.as_bytes()).await.unwrap();
    tokio::time::sleep(Duration::from_millis(100)).await;

    let Server { stop, task, .. } = server;
    let _ = stop.unwrap().send(());
    assert_eq!(closed_after(&mut idle).await.unwrap_or_default(), "");
    assert_eq!(closed_after(&mut silent).await.unwrap_or_default(), "");

    busy.write_all(end.as_bytes()).await.unwrap();
    let (status, body) = read_response(&mut busy).await;
    assert!(status.starts_with("HTTP/1.1 200"), "{status}");
    assert!(body.contains("\"nodes\":549946"), "{body}");
    tokio::time::timeout(PATIENCE, task).await.expect("the server stops").unwrap().unwrap();
}

#[test]
fn the_default_connection_limit_leaves_room_for_the_rest_of_the_process() {
    assert_eq!(default_max_connections(Some(1024)), 960);
    assert_eq!(default_max_connections(Some(4096)), 3840);
    assert_eq!(default_max_connections(Some(100)), 36);
    assert_eq!(default_max_connections(Some(10)), 1);
    assert_eq!(default_max_connections(Some(1 << 20)), bestmove::config::DEFAULT_MAX_CONNECTIONS_CEILING);
    assert_eq!(default_max_connections(None), bestmove::config::DEFAULT_MAX_CONNECTIONS_CEILING);
}

/// With a file-descriptor limit below `MAX_CONNECTIONS`, accepting fails for
/// want of descriptors: the server keeps serving, says so in the log at a
/// bounded rate, and accepts again once connections close.
#[cfg(unix)]
#[test]
fn running_out_of_file_descriptors_does_not_stop_the_accept_loop() {
    let mut child = Command::new("sh")
        .args(["-c", "ulimit -n 48 && exec \"$0\"", env!("CARGO_BIN_EXE_bestmove")])
        .env("PORT", "0")
        .env("HOST", "127.0.0.1")
        .env("LOG_FORMAT", "json")
        .env("RUST_LOG", "info")
        .env("MAX_CONNECTIONS", "1000")
        .env("HEADER_READ_TIMEOUT_MS", "500")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let first: serde_json::Value = serde_json::from_str(&lines.next().unwrap().unwrap()).unwrap();
    let address = first["fields"]["address"].as_str().expect("the first log line names the address").to_owned();
    let log = std::thread::spawn(move || lines.map_while(Result::ok).collect::<Vec<String>>());

    // More silent clients than the server has descriptors for.
    let silent: Vec<std::net::TcpStream> = (0..80).map(|_| std::net::TcpStream::connect(&address).unwrap()).collect();
    std::thread::sleep(Duration::from_millis(200));
    let mut probe = std::net::TcpStream::connect(&address).unwrap();
    probe.set_read_timeout(Some(PATIENCE)).unwrap();
    probe.write_all(b"GET /healthz HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n").unwrap();
    let mut answer = String::new();
    let _ = std::io::Read::read_to_string(&mut probe, &mut answer);
    drop(silent);

    let killed = Command::new("kill").args(["-TERM", &child.id().to_string()]).status().unwrap();
    assert!(killed.success());
    assert_eq!(child.wait().unwrap().code(), Some(0));
    let log = log.join().unwrap();
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer:?}\n{log:#?}");
    let accept_errors = log.iter().filter(|line| line.contains("accept error")).count();
    assert!(accept_errors >= 1, "the server did run out of descriptors: {log:#?}");
    assert!(accept_errors <= 3, "one warning per interval, not per attempt: {log:#?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_idle_http2_connection_is_closed_after_the_idle_timeout() {
    use http_body_util::{BodyExt, Empty};
    use hyper::body::Bytes;

    let server = Server::start(config(100, 800)).await;
    let io = hyper_util::rt::TokioIo::new(server.connect().await);
    let (mut sender, connection) =
        hyper::client::conn::http2::handshake::<_, _, Empty<Bytes>>(hyper_util::rt::TokioExecutor::new(), io)
            .await
            .unwrap();
    let connection = tokio::spawn(connection);
    let request = hyper::Request::get(format!("http://{}/healthz", server.address)).body(Empty::new()).unwrap();
    let response = sender.send_request(request).await.unwrap();
    assert_eq!(response.status(), 200);
    assert_eq!(response.version(), hyper::Version::HTTP_2);
    let body = response.into_body().collect().await.unwrap().to_bytes();
    assert!(String::from_utf8_lossy(&body).contains("\"ok\""));

    // The server ends the connection (GOAWAY, then close).
    tokio::time::timeout(PATIENCE, connection).await.expect("the server closes the connection").unwrap().unwrap();
    assert_eq!(server.metric(IDLE_TIMEOUTS).await, 1.0);
    assert_eq!(server.metric(HEADER_TIMEOUTS).await, 0.0);
    server.stop().await;
}

//! Fairness between clients, over real connections: a client over its
//! per-client limits gets 429 with `Retry-After` and the JSON error, while
//! another client is served. Clients are told apart by their addresses
//! (127.0.0.1 and 127.0.0.2, both loopback) or by the header a trusted
//! proxy sets.

use std::net::{IpAddr, SocketAddr};
use std::time::Duration;

use bestmove::config::Config;
use serde_json::{json, Value};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::{TcpSocket, TcpStream};
use tokio::sync::oneshot;

/// Longest a test waits for something that should happen much sooner.
const PATIENCE: Duration = Duration::from_secs(30);
const CLIENT_A: &str = "127.0.0.1";
const CLIENT_B: &str = "127.0.0.2";

struct Server {
    address: SocketAddr,
    stop: oneshot::Sender<()>,
    task: tokio::task::JoinHandle<std::io::Result<()>>,
}

impl Server {
    async fn start(config: Config) -> Server {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let address = listener.local_addr().unwrap();
        let (stop, stopped) = oneshot::channel::<()>();
        let task = tokio::spawn(bestmove::server::run(listener, config, async {
            let _ = stopped.await;
        }));
        Server { address, stop, task }
    }

    /// A connection from `client`, one of the loopback addresses.
    async fn connect(&self, client: &str) -> TcpStream {
        let socket = TcpSocket::new_v4().unwrap();
        socket.bind(SocketAddr::new(client.parse::<IpAddr>().unwrap(), 0)).unwrap();
        socket.connect(self.address).await.unwrap()
    }

    async fn stop(self) {
        let _ = self.stop.send(());
        tokio::time::timeout(PATIENCE, self.task).await.expect("the server stops").unwrap().unwrap();
    }
}

/// An answer read to the end: status, headers (lower-case names) and body.
struct Answer {
    status: u16,
    headers: Vec<(String, String)>,
    body: String,
}

impl Answer {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }

    fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.body))
    }
}

fn post(body: &Value, extra_headers: &str) -> String {
    let body = body.to_string();
    format!(
        "POST /best-move HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\nOrigin: https://app.example\r\n\
         {extra_headers}Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
}

/// Sends one request from `client` and reads the answer until the server
/// closes the connection (so the request has ended on the server's side).
async fn send(server: &Server, client: &str, request: &str) -> Answer {
    let mut stream = server.connect(client).await;
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut text = String::new();
    tokio::time::timeout(PATIENCE, stream.read_to_string(&mut text)).await.expect("an answer").unwrap();
    let (head, body) = text.split_once("\r\n\r\n").expect("a complete answer");
    let mut lines = head.lines();
    let status = lines.next().unwrap().split(' ').nth(1).unwrap().parse().unwrap();
    let headers = lines
        .filter_map(|line| line.split_once(':'))
        .map(|(name, value)| (name.trim().to_ascii_lowercase(), value.trim().to_owned()))
        .collect();
    Answer { status, headers, body: body.to_owned() }
}

fn assert_refused(answer: &Answer, code: &str) {
    assert_eq!(answer.status, 429, "{}", answer.body);
    let retry_after: u64 = answer.header("retry-after").expect("a Retry-After header").parse().unwrap();
    assert!((1..=60).contains(&retry_after), "Retry-After: {retry_after}");
    assert_eq!(answer.json()["error"]["code"], code, "{}", answer.body);
    // The service's own refusal: CORS headers and a request id, like every answer.
    assert_eq!(answer.header("access-control-allow-origin"), Some("*"));
    assert!(answer.header("x-request-id").is_some());
}

const SHORT_SEARCH: &str = "XO..X....";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_at_its_search_limit_gets_429_while_another_client_is_served() {
    let config = Config { client_max_searches: 1, max_concurrent_searches: Some(2), ..Config::default() };
    let server = Server::start(config).await;

    // Client A's long search, streamed: once its answer's head has come,
    // the search is in flight, and stays so while the stream runs.
    let long = json!({"game": "connect4", "moves": "4", "time_ms": 5000});
    let mut streaming = server.connect(CLIENT_A).await;
    streaming.write_all(post(&long, "Accept: text/event-stream\r\n").as_bytes()).await.unwrap();
    let mut reader = BufReader::new(&mut streaming);
    let mut status = String::new();
    tokio::time::timeout(PATIENCE, reader.read_line(&mut status)).await.expect("the stream starts").unwrap();
    assert!(status.starts_with("HTTP/1.1 200"), "{status}");

    let refused = send(&server, CLIENT_A, &post(&json!({"board": SHORT_SEARCH}), "")).await;
    assert_refused(&refused, "too_many_searches");
    assert!(refused.json()["error"]["message"].as_str().unwrap().contains("as many searches in flight as allowed (1)"));

    let served = send(&server, CLIENT_B, &post(&json!({"board": SHORT_SEARCH}), "")).await;
    assert_eq!(served.status, 200, "{}", served.body);
    assert_eq!(served.json()["best_move"], 8);

    // Once A's search has ended (here: A hung up), A is served again.
    drop(streaming);
    let mut again = None;
    let give_up = tokio::time::Instant::now() + PATIENCE;
    while tokio::time::Instant::now() < give_up {
        let answer = send(&server, CLIENT_A, &post(&json!({"board": SHORT_SEARCH}), "")).await;
        if answer.status == 200 {
            again = Some(answer);
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert!(again.is_some(), "client A was still refused after its search ended");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_past_its_search_time_gets_429_until_its_window_ends_while_another_is_served() {
    // Every request is charged at least 1 ms: one search uses the whole budget.
    let config = Config { client_search_ms: 1, client_window_ms: 60_000, ..Config::default() };
    let server = Server::start(config).await;
    let request = post(&json!({"board": SHORT_SEARCH}), "");

    assert_eq!(send(&server, CLIENT_A, &request).await.status, 200);
    assert_refused(&send(&server, CLIENT_A, &request).await, "search_time_exceeded");
    assert_eq!(send(&server, CLIENT_B, &request).await.status, 200);

    let metrics = send(&server, CLIENT_A, "GET /metrics HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n").await;
    assert!(metrics.body.contains("bestmove_client_refusals_total{limit=\"search_time\"} 1"), "{}", metrics.body);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn behind_a_proxy_clients_are_told_apart_by_the_header_it_sets() {
    let config = Config { client_search_ms: 1, client_ip_header: Some("x-forwarded-for".into()), ..Config::default() };
    let server = Server::start(config).await;
    // Both come from the proxy's address; the proxy appends what it saw.
    let from =
        |address: &str| post(&json!({"board": SHORT_SEARCH}), &format!("X-Forwarded-For: 10.9.9.9, {address}\r\n"));

    assert_eq!(send(&server, CLIENT_A, &from("198.51.100.1")).await.status, 200);
    assert_refused(&send(&server, CLIENT_A, &from("198.51.100.1")).await, "search_time_exceeded");
    assert_eq!(send(&server, CLIENT_A, &from("198.51.100.2")).await.status, 200);
    server.stop().await;
}

/// A value of the metrics text (`name` with its labels, if any), read over
/// a connection of client B.
async fn metric(server: &Server, name: &str) -> Option<f64> {
    let metrics = send(server, CLIENT_B, "GET /metrics HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n").await;
    metrics.body.lines().find_map(|line| line.strip_prefix(name)?.strip_prefix(' ')?.trim().parse().ok())
}

/// Polls the number of searches running until it is `expected`, for at
/// most PATIENCE; whether it got there.
async fn searches_in_flight_reach(server: &Server, expected: f64) -> bool {
    let give_up = tokio::time::Instant::now() + PATIENCE;
    while tokio::time::Instant::now() < give_up {
        if metric(server, "bestmove_searches_in_flight").await == Some(expected) {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    false
}

/// A long Connect Four search with no opening book (`Server::start` loads
/// none): it would run for all of `time_ms` unless cancelled.
fn long_search(time_ms: u64) -> String {
    post(&json!({"game": "connect4", "moves": "4", "time_ms": time_ms, "compare": false}), "")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_hangs_up_on_a_plain_search_frees_the_search_slot() {
    // The search's budget, and the request's timeout, are far longer than
    // the test's patience: only a search stopped by the hang-up frees the
    // slot while the test still waits.
    let config = Config {
        max_concurrent_searches: Some(1),
        max_search_ms: 600_000,
        request_timeout_ms: 700_000,
        ..Config::default()
    };
    let server = Server::start(config).await;
    let mut client = server.connect(CLIENT_A).await;
    client.write_all(long_search(600_000).as_bytes()).await.unwrap();
    assert!(searches_in_flight_reach(&server, 1.0).await, "the search never started");

    drop(client);
    assert!(searches_in_flight_reach(&server, 0.0).await, "the search still holds the slot after its client hung up");
    // The slot serves the next search that needs one.
    let short = json!({"game": "connect4", "moves": "612313147626667357672244337327", "compare": false});
    let served = send(&server, CLIENT_B, &post(&short, "")).await;
    assert_eq!(served.status, 200, "{}", served.body);
    server.stop().await;
}

/// The search and per-client settings of deploy/kubernetes/deployment.yaml.
fn deployed_config() -> Config {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/deploy/kubernetes/deployment.yaml"))
        .expect("the Deployment");
    let deployment: serde_yaml_ng::Value = serde_yaml_ng::from_str(&text).expect("YAML");
    let env = deployment["spec"]["template"]["spec"]["containers"][0]["env"].as_sequence().expect("env").clone();
    let setting = |name: &str| -> u64 {
        let entry = env.iter().find(|e| e["name"] == name).unwrap_or_else(|| panic!("{name} is not set"));
        entry["value"].as_str().expect("a value").parse().expect("a number")
    };
    Config {
        max_concurrent_searches: Some(setting("MAX_CONCURRENT_SEARCHES") as usize),
        client_max_searches: setting("CLIENT_MAX_SEARCHES") as usize,
        client_search_ms: setting("CLIENT_SEARCH_MS"),
        client_window_ms: setting("CLIENT_WINDOW_MS"),
        // Clients are told apart by their peer addresses here, not by the
        // gateway's header; and A's searches outlast the test.
        max_search_ms: 600_000,
        request_timeout_ms: 700_000,
        ..Config::default()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_the_deployed_settings_a_client_holding_its_searches_leaves_a_slot_for_another() {
    let config = deployed_config();
    let (slots, per_client) = (config.max_concurrent_searches.unwrap(), config.client_max_searches);
    assert!(per_client >= 1 && per_client < slots, "one client could hold all {slots} search slots");
    let server = Server::start(config).await;

    // Client A holds as many long searches as it may, each in a slot.
    let mut held = Vec::new();
    for _ in 0..per_client {
        let mut client = server.connect(CLIENT_A).await;
        client.write_all(long_search(600_000).as_bytes()).await.unwrap();
        held.push(client);
    }
    assert!(searches_in_flight_reach(&server, per_client as f64).await, "A's searches never started");
    assert_refused(&send(&server, CLIENT_A, &long_search(600_000)).await, "too_many_searches");

    // B's Connect Four search needs a slot too, and gets one while A's
    // searches still run.
    let short = json!({"game": "connect4", "moves": "612313147626667357672244337327", "compare": false});
    let served = send(&server, CLIENT_B, &post(&short, "")).await;
    assert_eq!(served.status, 200, "{}", served.body);
    assert_eq!(served.json()["exact"], true, "{}", served.body);
    assert_eq!(metric(&server, "bestmove_searches_in_flight").await, Some(per_client as f64), "A's searches ended");

    drop(held);
    assert!(searches_in_flight_reach(&server, 0.0).await, "A's searches outlived their connections");
    server.stop().await;
}

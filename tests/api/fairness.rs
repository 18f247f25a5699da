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
        let task = tokio::spawn(bestmove::server::run(listener, config, None, async {
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

//! Stopping: in-flight requests finish, new connections are refused, and
//! the process exits 0 on SIGTERM. They need the `server` feature (the
//! default); without it this binary is empty.

#![cfg(feature = "server")]

mod common;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Command, Stdio};
use std::time::Duration;

use bestmove::config::Config;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use common::read_response;

const EMPTY_BOARD: &str = "POST /best-move HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\nContent-Length: 22\r\nConnection: close\r\n\r\n{\"board\": \".........\"}";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_request_in_flight_when_the_signal_comes_still_gets_its_answer() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    // Without the opening book, which the server would load before it
    // accepts: the signal must find the request in flight.
    let config = Config { opening_book: Some("none".into()), ..Config::default() };
    let server = tokio::spawn(bestmove::server::run(listener, config, async {
        let _ = stopped.await;
    }));

    // A first request on the connection, answered: the server has surely
    // accepted it (a connection still waiting in the listener's backlog
    // would be dropped with the listener, however long the wait).
    let mut client = tokio::net::TcpStream::connect(address).await.unwrap();
    client.write_all(b"GET /healthz HTTP/1.1\r\nHost: test\r\n\r\n").await.unwrap();
    let (status, _) = read_response(&mut client).await;
    assert!(status.starts_with("HTTP/1.1 200"), "{status}");

    // Then half a request, the stop signal, then the rest: the request is
    // surely in flight when the signal comes.
    let (head, tail) = EMPTY_BOARD.split_at(EMPTY_BOARD.len() - 10);
    client.write_all(head.as_bytes()).await.unwrap();
    tokio::time::sleep(Duration::from_millis(50)).await;
    stop.send(()).unwrap();
    tokio::time::sleep(Duration::from_millis(50)).await;
    client.write_all(tail.as_bytes()).await.unwrap();

    let mut response = String::new();
    client.read_to_string(&mut response).await.unwrap();
    assert!(response.starts_with("HTTP/1.1 200"), "{response}");
    assert!(response.contains("\"nodes\":549946"));
    server.await.unwrap().unwrap();
    assert!(tokio::net::TcpStream::connect(address).await.is_err(), "the listener is closed");
}

#[test]
fn sigterm_stops_the_binary_with_exit_code_zero() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_bestmove"))
        .env("PORT", "0")
        .env("HOST", "127.0.0.1")
        .env("LOG_FORMAT", "json")
        .env("RUST_LOG", "info")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let first: serde_json::Value = serde_json::from_str(&lines.next().unwrap().unwrap()).unwrap();
    let address = first["fields"]["address"].as_str().expect("the first log line names the address").to_owned();

    let mut client = TcpStream::connect(&address).unwrap();
    client.write_all(b"GET /healthz HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n").unwrap();
    let mut response = String::new();
    client.read_to_string(&mut response).unwrap();
    assert!(response.starts_with("HTTP/1.1 200"));

    let killed = Command::new("kill").args(["-TERM", &child.id().to_string()]).status().unwrap();
    assert!(killed.success());
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(0));
    let rest: Vec<String> = lines.map_while(Result::ok).collect();
    assert!(rest.iter().any(|l| l.contains("shutting down")), "{rest:?}");
}

#[test]
fn a_host_name_such_as_localhost_is_accepted_and_served_on() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_bestmove"))
        .env("PORT", "0")
        .env("HOST", "localhost")
        .env("LOG_FORMAT", "json")
        .env("RUST_LOG", "info")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let first = lines.next().map(|l| l.unwrap_or_default()).unwrap_or_default();
    let logged: serde_json::Value = serde_json::from_str(&first).unwrap_or_default();
    let address = logged["fields"]["address"].as_str().map(str::to_owned);
    let response = address.as_deref().map(|address| {
        let mut client = TcpStream::connect(address).unwrap();
        client.write_all(b"GET /healthz HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n").unwrap();
        let mut response = String::new();
        client.read_to_string(&mut response).unwrap();
        response
    });
    let _ = Command::new("kill").args(["-TERM", &child.id().to_string()]).status();
    let status = child.wait().unwrap();
    assert!(address.is_some(), "HOST=localhost: no listening address logged; first line: {first:?}");
    assert!(response.unwrap_or_default().starts_with("HTTP/1.1 200"));
    assert_eq!(status.code(), Some(0));
}

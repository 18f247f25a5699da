//! `METRICS_PORT`: metrics on a port of their own, and only there, so that a
//! NetworkPolicy or firewall can open the API to clients and metrics to
//! the monitoring system alone. A real server on two loopback ports.

#![cfg(feature = "server")]

use std::time::Duration;

use bestmove::config::Config;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// Longest a test waits for something that should happen much sooner.
const PATIENCE: Duration = Duration::from_secs(30);

/// `GET path` on a connection of its own: the status line and the body.
async fn get(address: std::net::SocketAddr, path: &str) -> (String, String) {
    let mut client = TcpStream::connect(address).await.unwrap();
    let request = format!("GET {path} HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n");
    client.write_all(request.as_bytes()).await.unwrap();
    let mut text = String::new();
    tokio::time::timeout(PATIENCE, client.read_to_string(&mut text)).await.expect("an answer").unwrap();
    let status = text.lines().next().unwrap_or_default().to_owned();
    let body = text.split_once("\r\n\r\n").map(|(_, body)| body.to_owned()).unwrap_or_default();
    (status, body)
}

#[tokio::test]
async fn with_a_metrics_port_metrics_are_served_there_and_not_on_the_api_port() {
    let api = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let metrics = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let (api_address, metrics_address) = (api.local_addr().unwrap(), metrics.local_addr().unwrap());
    let config = Config { metrics_port: Some(metrics_address.port()), ..Config::default() };
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(bestmove::server::run_with_metrics(
        api,
        Some(metrics),
        std::sync::Arc::new(bestmove::api::AppState::new(config)),
        async {
            let _ = stopped.await;
        },
    ));

    let (status, body) = get(api_address, "/healthz").await;
    assert!(status.contains(" 200 "), "{status}");
    assert!(body.contains("\"ok\""), "{body}");
    let (status, body) = get(api_address, "/metrics").await;
    assert!(status.contains(" 404 "), "the API port served metrics: {status}");
    assert!(body.contains("\"not_found\""), "{body}");

    let (status, body) = get(metrics_address, "/metrics").await;
    assert!(status.contains(" 200 "), "{status}");
    // The API port's requests are counted in the metrics the other port serves.
    assert!(
        body.contains("bestmove_http_requests_total{route=\"/healthz\",method=\"GET\",status=\"200\"} 1"),
        "{body}"
    );
    let (status, _) = get(metrics_address, "/best-move").await;
    assert!(status.contains(" 404 "), "the metrics port served the API: {status}");

    let _ = stop.send(());
    tokio::time::timeout(PATIENCE, server).await.expect("the server stops").unwrap().unwrap();
    assert!(TcpStream::connect(metrics_address).await.is_err(), "the metrics port is still open after shutdown");
}

#[tokio::test]
async fn without_a_metrics_port_metrics_are_on_the_api_port() {
    let api = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = api.local_addr().unwrap();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(bestmove::server::run(api, Config::default(), async {
        let _ = stopped.await;
    }));
    let (status, body) = get(address, "/metrics").await;
    assert!(status.contains(" 200 "), "{status}");
    assert!(body.contains("bestmove_searches_in_flight"), "{body}");
    let _ = stop.send(());
    tokio::time::timeout(PATIENCE, server).await.expect("the server stops").unwrap().unwrap();
}

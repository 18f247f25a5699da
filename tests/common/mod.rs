//! Helpers shared by the test binaries that talk HTTP/1.1 to a real server
//! over a socket.

use std::time::Duration;

use tokio::io::AsyncReadExt;
use tokio::net::TcpStream;

/// Longest a test waits for something that should happen much sooner.
pub const PATIENCE: Duration = Duration::from_secs(30);

/// One response read off a connection that may stay open: the status line
/// and the body (as many bytes as its `content-length` says). Panics if the
/// connection closes mid-answer or no answer comes within [`PATIENCE`].
pub async fn read_response(client: &mut TcpStream) -> (String, String) {
    let read = async {
        let mut received = Vec::new();
        let mut byte = [0u8; 1];
        while !received.ends_with(b"\r\n\r\n") {
            assert_eq!(client.read(&mut byte).await.unwrap(), 1, "the connection closed mid-answer: {received:?}");
            received.push(byte[0]);
        }
        let head = String::from_utf8(received).unwrap();
        let length: usize = head
            .lines()
            .find_map(|line| {
                line.to_ascii_lowercase().strip_prefix("content-length:").map(|v| v.trim().parse().unwrap())
            })
            .expect("a content-length");
        let mut body = vec![0u8; length];
        client.read_exact(&mut body).await.unwrap();
        (head.lines().next().unwrap().to_owned(), String::from_utf8(body).unwrap())
    };
    tokio::time::timeout(PATIENCE, read).await.expect("an answer")
}

//! Fairness between clients: no one client may hold more than
//! `CLIENT_MAX_SEARCHES` searches at once, nor use more than
//! `CLIENT_SEARCH_MS` of search time per `CLIENT_WINDOW_MS`. Over either
//! limit, `POST /best-move` answers 429 with `Retry-After`, at once and
//! before the body is read, so a client over its share costs the service
//! almost nothing and every other client keeps its slots.
//!
//! A client is its address: the connection's peer, or, behind a proxy that
//! sets it, the last address of the header `CLIENT_IP_HEADER` (the one the
//! proxy itself saw: earlier entries come from the client and could be
//! anything). IPv6 addresses count by their /64, which one subscriber
//! usually holds whole. Without either (a router driven in-process), every
//! request is one client.
//!
//! Search time is the request's time in the service, from when it arrives
//! until its answer (or its event stream) has been sent, at least 1 ms:
//! charged when the request ends, to the window current then. Windows are
//! fixed, one per client, starting with its first request after the last
//! one ended. The limits hold per replica: the service keeps no state
//! between replicas, so behind a load balancer a client may get up to the
//! same share of every replica.

use std::collections::HashMap;
use std::net::{IpAddr, Ipv6Addr, SocketAddr};
use std::pin::Pin;
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use axum::body::{Body, Bytes, HttpBody};
use axum::extract::{ConnectInfo, Request, State};
use axum::http::HeaderName;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use super::error::{ApiError, ClientLimit};
use super::metrics::RefusalLabels;
use super::AppState;
use crate::config::Config;

/// Clients tracked at once. Past this (after dropping every client with
/// nothing in flight and its window over), new clients are served without
/// being counted rather than refused: the table's memory stays bounded
/// (about 100 bytes a client) whatever the number of addresses.
const MAX_CLIENTS: usize = 100_000;
/// The table is swept of idle clients when it reaches this size, and then
/// when it has doubled since the last sweep.
const FIRST_SWEEP: usize = 1024;
/// The least time a request is charged.
const MIN_CHARGE: Duration = Duration::from_millis(1);
/// The longest client key kept from a header that holds no address.
const MAX_KEY_LEN: usize = 64;

/// Who a request comes from, for the limits.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Client {
    Address(IpAddr),
    /// A header value that is not an address (a proxy's own client id).
    Named(String),
    /// No peer address and no header: a router driven in-process.
    Unknown,
}

/// One client's use of the service.
struct Usage {
    in_flight: usize,
    window_start: Instant,
    used: Duration,
}

impl Usage {
    /// Starts a new window when the current one is over.
    fn roll(&mut self, now: Instant, window: Duration) {
        if now.duration_since(self.window_start) >= window {
            self.window_start = now;
            self.used = Duration::ZERO;
        }
    }
}

struct Table {
    clients: HashMap<Client, Usage>,
    sweep_at: usize,
}

/// The per-client limits and every client's use; one per service.
pub struct Fairness {
    max_searches: usize,
    search_time: Duration,
    window: Duration,
    header: Option<HeaderName>,
    table: Mutex<Table>,
}

impl Fairness {
    /// The limits the configuration sets (0: that limit is off).
    pub fn new(config: &Config) -> Self {
        Fairness {
            max_searches: config.client_max_searches,
            search_time: Duration::from_millis(config.client_search_ms),
            window: Duration::from_millis(config.client_window_ms),
            header: config.client_ip_header.as_deref().and_then(|name| HeaderName::try_from(name).ok()),
            table: Mutex::new(Table { clients: HashMap::new(), sweep_at: FIRST_SWEEP }),
        }
    }

    fn enabled(&self) -> bool {
        self.max_searches > 0 || !self.search_time.is_zero()
    }

    fn table(&self) -> std::sync::MutexGuard<'_, Table> {
        self.table.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The client a request comes from.
    fn client_of(&self, request: &Request) -> Client {
        let from_header = self.header.as_ref().and_then(|name| {
            let last = request.headers().get_all(name).iter().next_back()?;
            let entry = last.to_str().ok()?.rsplit(',').next()?.trim();
            (!entry.is_empty()).then(|| match parse_address(entry) {
                Some(address) => Client::Address(group(address)),
                None => Client::Named(entry.chars().take(MAX_KEY_LEN).collect()),
            })
        });
        from_header
            .or_else(|| {
                let ConnectInfo(peer) = request.extensions().get::<ConnectInfo<SocketAddr>>()?;
                Some(Client::Address(group(peer.ip())))
            })
            .unwrap_or(Client::Unknown)
    }

    /// A place for one more search of `client`, or the limit it is over
    /// and the seconds until it may try again.
    fn admit(self: &Arc<Self>, client: Client, now: Instant) -> Result<InFlight, (ClientLimit, u64)> {
        let mut table = self.table();
        if table.clients.len() >= table.sweep_at {
            let window = self.window;
            table.clients.retain(|_, usage| usage.in_flight > 0 || now.duration_since(usage.window_start) < window);
            table.sweep_at = (table.clients.len() * 2).max(FIRST_SWEEP);
        }
        if table.clients.len() >= MAX_CLIENTS && !table.clients.contains_key(&client) {
            return Ok(InFlight { fairness: self.clone(), client: None, started: now });
        }
        let usage = table.clients.entry(client.clone()).or_insert(Usage {
            in_flight: 0,
            window_start: now,
            used: Duration::ZERO,
        });
        usage.roll(now, self.window);
        if self.max_searches > 0 && usage.in_flight >= self.max_searches {
            return Err((ClientLimit::Searches, 1));
        }
        if !self.search_time.is_zero() && usage.used >= self.search_time {
            let left = self.window.saturating_sub(now.duration_since(usage.window_start));
            return Err((ClientLimit::SearchTime, left.as_secs_f64().ceil().max(1.0) as u64));
        }
        usage.in_flight += 1;
        Ok(InFlight { fairness: self.clone(), client: Some(client), started: now })
    }
}

/// An address as written in a forwarding header: `203.0.113.7`,
/// `2001:db8::1`, `[2001:db8::1]:443` or `203.0.113.7:51234`.
fn parse_address(text: &str) -> Option<IpAddr> {
    text.parse::<IpAddr>().ok().or_else(|| text.parse::<SocketAddr>().ok().map(|s| s.ip()))
}

/// The address a client is counted by: IPv4 as is (IPv4-mapped IPv6 too),
/// IPv6 by its /64.
fn group(address: IpAddr) -> IpAddr {
    match address {
        IpAddr::V4(_) => address,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => IpAddr::V6(Ipv6Addr::from(u128::from(v6) & (!0u128 << 64))),
        },
    }
}

/// A search of one client in flight: charged and given back on drop.
struct InFlight {
    fairness: Arc<Fairness>,
    /// `None` for a client served without being counted (a full table).
    client: Option<Client>,
    started: Instant,
}

impl Drop for InFlight {
    fn drop(&mut self) {
        let Some(client) = self.client.take() else { return };
        let now = Instant::now();
        let mut table = self.fairness.table();
        if let Some(usage) = table.clients.get_mut(&client) {
            usage.roll(now, self.fairness.window);
            usage.used += now.duration_since(self.started).max(MIN_CHARGE);
            usage.in_flight = usage.in_flight.saturating_sub(1);
        }
    }
}

/// A response body that holds its request's place until it has been sent
/// (or the client has gone): an event stream counts while it streams.
struct Charged {
    body: Body,
    _in_flight: InFlight,
}

impl HttpBody for Charged {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<hyper::body::Frame<Self::Data>, Self::Error>>> {
        Pin::new(&mut self.get_mut().body).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> hyper::body::SizeHint {
        self.body.size_hint()
    }
}

/// The middleware on `POST /best-move`: refuses a client over its limits
/// with 429 and `Retry-After`, and counts the searches of the others.
pub async fn limit(State(state): State<Arc<AppState>>, request: Request, next: Next) -> Response {
    let fairness = &state.fairness;
    if !fairness.enabled() {
        return next.run(request).await;
    }
    let client = fairness.client_of(&request);
    match fairness.admit(client, Instant::now()) {
        Ok(in_flight) => next.run(request).await.map(|body| Body::new(Charged { body, _in_flight: in_flight })),
        Err((limit, retry_after_s)) => {
            state.metrics.client_refusals.get_or_create(&RefusalLabels { limit: limit.as_str() }).inc();
            let limit_value = match limit {
                ClientLimit::Searches => fairness.max_searches as u64,
                ClientLimit::SearchTime => fairness.search_time.as_millis() as u64,
            };
            ApiError::TooManyRequests {
                limit,
                limit_value,
                window_ms: fairness.window.as_millis() as u64,
                retry_after_s,
            }
            .into_response()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fairness(max_searches: usize, search_ms: u64, window_ms: u64) -> Arc<Fairness> {
        Arc::new(Fairness::new(&Config {
            client_max_searches: max_searches,
            client_search_ms: search_ms,
            client_window_ms: window_ms,
            ..Config::default()
        }))
    }

    fn address(text: &str) -> Client {
        Client::Address(text.parse().unwrap())
    }

    #[test]
    fn a_client_at_its_search_limit_is_refused_until_one_ends() {
        let fairness = fairness(2, 0, 60_000);
        let now = Instant::now();
        let first = fairness.admit(address("192.0.2.1"), now).unwrap();
        let _second = fairness.admit(address("192.0.2.1"), now).unwrap();
        assert_eq!(fairness.admit(address("192.0.2.1"), now).err(), Some((ClientLimit::Searches, 1)));
        // Another client is not affected.
        assert!(fairness.admit(address("192.0.2.2"), now).is_ok());
        drop(first);
        assert!(fairness.admit(address("192.0.2.1"), now).is_ok());
    }

    #[test]
    fn a_client_past_its_search_time_waits_for_its_next_window() {
        let fairness = fairness(0, 1_000, 60_000);
        let start = Instant::now();
        let search = fairness.admit(address("192.0.2.1"), start).unwrap();
        // Charged from its start until it ends: at least the budget here.
        let mut search = search;
        search.started = start - Duration::from_millis(1_500);
        drop(search);
        let later = start + Duration::from_secs(20);
        assert_eq!(fairness.admit(address("192.0.2.1"), later).err(), Some((ClientLimit::SearchTime, 40)));
        assert!(fairness.admit(address("192.0.2.2"), later).is_ok());
        assert!(fairness.admit(address("192.0.2.1"), start + Duration::from_secs(61)).is_ok());
    }

    #[test]
    fn ipv6_clients_count_by_their_64_and_mapped_ipv4_as_ipv4() {
        assert_eq!(group("2001:db8:1:2:aaaa::1".parse().unwrap()), "2001:db8:1:2::".parse::<IpAddr>().unwrap());
        assert_eq!(group("::ffff:192.0.2.9".parse().unwrap()), "192.0.2.9".parse::<IpAddr>().unwrap());
        assert_eq!(group("192.0.2.9".parse().unwrap()), "192.0.2.9".parse::<IpAddr>().unwrap());
    }

    #[test]
    fn the_header_gives_the_last_address_the_proxy_saw() {
        let fairness = Fairness::new(&Config {
            client_max_searches: 1,
            client_ip_header: Some("x-forwarded-for".into()),
            ..Config::default()
        });
        let request = |values: &[&str]| {
            let mut builder = Request::builder();
            for value in values {
                builder = builder.header("x-forwarded-for", *value);
            }
            let mut request = builder.body(Body::empty()).unwrap();
            request.extensions_mut().insert(ConnectInfo("10.0.0.1:1234".parse::<SocketAddr>().unwrap()));
            request
        };
        assert_eq!(fairness.client_of(&request(&["198.51.100.1, 203.0.113.7"])), address("203.0.113.7"));
        assert_eq!(fairness.client_of(&request(&["1.1.1.1", "203.0.113.8:4711"])), address("203.0.113.8"));
        assert_eq!(fairness.client_of(&request(&["[2001:db8::5]:443"])), address("2001:db8::"));
        assert_eq!(fairness.client_of(&request(&["client-42"])), Client::Named("client-42".into()));
        // No header, or an empty one: the peer.
        assert_eq!(fairness.client_of(&request(&[])), address("10.0.0.1"));
        assert_eq!(fairness.client_of(&request(&[" "])), address("10.0.0.1"));
    }

    #[test]
    fn idle_clients_are_forgotten_and_the_table_stays_bounded() {
        let fairness = fairness(1, 0, 1_000);
        let start = Instant::now();
        for i in 0..(FIRST_SWEEP as u32) {
            drop(fairness.admit(Client::Address(IpAddr::from(i.to_be_bytes())), start).unwrap());
        }
        let later = start + Duration::from_secs(2);
        let _kept = fairness.admit(address("192.0.2.1"), later).unwrap();
        assert_eq!(fairness.table().clients.len(), 1);
    }
}

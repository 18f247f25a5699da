//! `GET /` and `GET /assets/{name}`: the page's files (see [`crate::web`]),
//! revalidated by their hash, under a content policy that allows only
//! them.

use axum::extract::Request;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};

use super::middleware::not_found;
use crate::web::{PageFile, ASSETS, INDEX};

/// What the page may load: its own scripts and stylesheet, and requests to
/// its own origin; no inline script or style, no plugins, no framing. The
/// empty favicon is a `data:` image.
const PAGE_CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; \
    connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/// A page file as the service sends it.
struct Served(&'static PageFile);

impl Served {
    /// A strong validator: a hash of the file's bytes (64-bit FNV-1a), the
    /// same in every replica of a build and changed by any edit.
    fn etag(&self) -> HeaderValue {
        let hash =
            self.0.body.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |hash, byte| {
                (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3)
            });
        HeaderValue::from_str(&format!("\"{hash:016x}\"")).expect("hex in quotes is a valid header")
    }

    /// The file, or 304 when the client's copy (`If-None-Match`) is this one.
    ///
    /// `Cache-Control: no-cache` lets the browser keep a copy but makes it
    /// ask before each use: the modules import each other by fixed names,
    /// so a copy kept by age alone could pair an old module with a new one
    /// after a deploy, while a revalidation costs one small 304.
    fn response(&self, request_headers: &HeaderMap) -> Response {
        let etag = self.etag();
        let fresh = request_headers.get(header::IF_NONE_MATCH).and_then(|v| v.to_str().ok()).is_some_and(|tags| {
            tags.split(',').any(|tag| tag.trim() == "*" || tag.trim().trim_start_matches("W/") == etag)
        });
        let mut response = if fresh { StatusCode::NOT_MODIFIED.into_response() } else { self.0.body.into_response() };
        let headers = response.headers_mut();
        headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(self.0.content_type));
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
        headers.insert(header::ETAG, etag);
        headers.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
        headers.insert(header::REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
        response
    }
}

/// `GET /`: the page, under a content policy that allows only its own files.
pub(super) async fn index(headers: HeaderMap) -> Response {
    let mut response = Served(&INDEX).response(&headers);
    response.headers_mut().insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static(PAGE_CSP));
    response
}
/// `GET /assets/{name}`: the page's stylesheet and modules.
pub(super) async fn page_asset(axum::extract::Path(name): axum::extract::Path<String>, request: Request) -> Response {
    match ASSETS.iter().find(|file| file.name == name) {
        Some(file) => Served(file).response(request.headers()),
        None => not_found(request).await.into_response(),
    }
}

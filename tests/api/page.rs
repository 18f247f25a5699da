//! The page at `GET /` and its files under `/assets/`: content types,
//! revalidation, the content policy, and that every file the page loads is
//! one the binary serves.

use std::collections::BTreeSet;

use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use http_body_util::BodyExt;
use tower::ServiceExt;

use crate::helpers::{app, get};

/// The `/assets/...` files a text refers to: the page's `href`/`src`
/// attributes, a module's `import ... from './x.js'`.
fn referenced(text: &str) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    for (marker, end) in [("\"/assets/", '"'), ("from './", '\'')] {
        for (at, _) in text.match_indices(marker) {
            let rest = &text[at + marker.len()..];
            let name = &rest[..rest.find(end).expect("a quoted path ends")];
            found.insert(format!("/assets/{name}"));
        }
    }
    found
}

/// Every file reachable from the page, following the modules' imports.
async fn page_files() -> BTreeSet<String> {
    let mut seen = BTreeSet::new();
    let mut todo: Vec<String> = referenced(&get("/").await.text()).into_iter().collect();
    while let Some(path) = todo.pop() {
        if !seen.insert(path.clone()) {
            continue;
        }
        let response = get(&path).await;
        assert_eq!(response.status, StatusCode::OK, "the page loads {path}, which is not served");
        todo.extend(referenced(&response.text()));
    }
    seen
}

#[tokio::test]
async fn every_file_the_page_loads_is_served_with_its_content_type() {
    let files = page_files().await;
    assert!(files.contains("/assets/style.css"), "{files:?}");
    let modules: Vec<_> = files.iter().filter(|f| f.ends_with(".js")).collect();
    assert!(modules.len() >= 4, "the page is at least four modules: {modules:?}");
    for path in &files {
        let response = get(path).await;
        let expected =
            if path.ends_with(".css") { "text/css; charset=utf-8" } else { "text/javascript; charset=utf-8" };
        assert_eq!(response.header("content-type").as_deref(), Some(expected), "{path}");
        assert_eq!(response.header("x-content-type-options").as_deref(), Some("nosniff"), "{path}");
        assert!(!response.body.is_empty(), "{path}");
    }
}

async fn get_if_none_match(path: &str, tag: &str) -> axum::response::Response {
    let request = Request::get(path).header(header::IF_NONE_MATCH, tag).body(Body::empty()).unwrap();
    app().oneshot(request).await.unwrap()
}

#[tokio::test]
async fn the_page_and_its_files_are_revalidated_by_etag() {
    for path in ["/", "/assets/app.js", "/assets/style.css"] {
        let first = get(path).await;
        assert_eq!(first.header("cache-control").as_deref(), Some("no-cache"), "{path}");
        let etag = first.header("etag").unwrap_or_else(|| panic!("{path} has no ETag"));
        assert!(etag.starts_with('"') && etag.ends_with('"') && etag.len() > 2, "{path}: {etag}");

        let same = get_if_none_match(path, &etag).await;
        assert_eq!(same.status(), StatusCode::NOT_MODIFIED, "{path}");
        assert_eq!(same.headers()[header::ETAG], etag.as_str());
        assert!(same.into_body().collect().await.unwrap().to_bytes().is_empty(), "a 304 has no body");

        let other = get_if_none_match(path, "\"0000000000000000\"").await;
        assert_eq!(other.status(), StatusCode::OK, "{path}: another version is sent in full");
    }
    assert_ne!(get("/assets/app.js").await.header("etag"), get("/assets/style.css").await.header("etag"));
}

#[tokio::test]
async fn an_unknown_file_is_a_json_404() {
    for path in ["/assets/nope.js", "/assets/index.html", "/assets/test/events.test.js", "/assets/package.json"] {
        let response = get(path).await;
        assert_eq!(response.status, StatusCode::NOT_FOUND, "{path}");
        assert_eq!(response.json()["error"]["code"], "not_found", "{path}");
    }
}

#[tokio::test]
async fn the_page_is_served_under_a_strict_content_policy() {
    let page = get("/").await;
    let policy = page.header("content-security-policy").expect("the page has a content policy");
    let directive = |name: &str| {
        policy
            .split(';')
            .map(str::trim)
            .find_map(|d| d.strip_prefix(name).filter(|rest| rest.starts_with(' ')).map(str::trim))
            .unwrap_or_else(|| panic!("no {name} in {policy}"))
    };
    assert_eq!(directive("default-src"), "'none'");
    assert_eq!(directive("script-src"), "'self'");
    assert_eq!(directive("style-src"), "'self'");
    assert_eq!(directive("connect-src"), "'self'");
    assert_eq!(directive("frame-ancestors"), "'none'");
    assert!(!policy.contains("unsafe-"), "{policy}");
    assert_eq!(page.header("x-content-type-options").as_deref(), Some("nosniff"));
    assert_eq!(page.header("referrer-policy").as_deref(), Some("no-referrer"));
}

#[tokio::test]
async fn the_markup_has_nothing_the_policy_would_block() {
    let html = get("/").await.text().to_ascii_lowercase();
    assert!(!html.contains("<style"), "a <style> block");
    assert!(!html.contains(" style="), "a style attribute");
    assert!(!html.contains("javascript:"), "a javascript: URL");
    for (at, _) in html.match_indices("<script") {
        let tag = &html[at..at + html[at..].find('>').expect("a tag ends")];
        assert!(tag.contains(" src=\"/assets/"), "an inline script: {tag}");
    }
    // Inline event handlers (onclick=...) are inline script too.
    let mut rest = html.as_str();
    while let Some(at) = rest.find(" on") {
        let name: String = rest[at + 3..].chars().take_while(|c| c.is_ascii_alphabetic()).collect();
        let handler = !name.is_empty() && rest[at + 3 + name.len()..].starts_with('=');
        assert!(!handler, "an inline handler: on{name}");
        rest = &rest[at + 3..];
    }
}

/// The paths each shipped way in routes to the service: the Gateway API
/// routes (`value: /path`) and the Ingress (`- path: /path`).
fn routed_paths() -> Vec<(&'static str, Vec<String>)> {
    let edge = |file: &str, prefix: &str| {
        let path = format!("{}/deploy/kubernetes/edge/{file}", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let prefix = prefix.to_owned();
        text.lines().filter_map(|l| l.trim().strip_prefix(prefix.as_str()).map(|p| p.trim().to_owned())).collect()
    };
    vec![
        ("the HTTPRoute", edge("gateway-api/httproute.yaml", "value: ")),
        ("the Ingress", edge("ingress-nginx/ingress.yaml", "- path: ")),
    ]
}

#[tokio::test]
async fn the_page_links_only_what_a_visitor_can_open() {
    let html = get("/").await.text();
    let edges = routed_paths();
    for (edge, routed) in &edges {
        assert!(routed.iter().any(|p| p == "/healthz"), "{edge}: {routed:?}");
    }
    for (at, _) in html.match_indices("<a href=\"") {
        let rest = &html[at + 9..];
        let link = &rest[..rest.find('"').unwrap()];
        if link.starts_with('/') {
            for (edge, routed) in &edges {
                assert!(routed.iter().any(|p| p == link), "the page links {link}, which {edge} does not route");
            }
            assert_eq!(get(link).await.status, StatusCode::OK, "{link}");
        }
    }
}

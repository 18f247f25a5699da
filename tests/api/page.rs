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

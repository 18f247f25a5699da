//! The page served at `/`: its markup, stylesheet and ES modules, embedded
//! in the binary at build time. The page has the shape of the service: a
//! client, a game-free controller, one adapter (and one board model) per
//! game and a registry of them in `app.js`. A new file of the page is one
//! more line in [`ASSETS`] (`tests/api/page.rs` fails on a file the page
//! loads that is not listed).

/// One file of the page.
pub struct PageFile {
    /// Its name under `/assets/` (the markup is served at `/`).
    pub name: &'static str,
    /// Its media type.
    pub content_type: &'static str,
    /// Its text.
    pub body: &'static str,
}

impl PageFile {
    const fn new(name: &'static str, content_type: &'static str, body: &'static str) -> Self {
        PageFile { name, content_type, body }
    }
}

/// The playable page's markup, served at `/`.
pub const INDEX: PageFile = PageFile::new("index.html", "text/html; charset=utf-8", include_str!("index.html"));

/// The page's stylesheet and ES modules, served at `/assets/{name}`: the
/// service client and its event-stream parser, the game controller, one
/// adapter (and one board model) per game, the tree explorer, the game
/// review.
pub const ASSETS: &[PageFile] = &[
    PageFile::new("style.css", CSS, include_str!("style.css")),
    PageFile::new("app.js", JS, include_str!("app.js")),
    PageFile::new("dom.js", JS, include_str!("dom.js")),
    PageFile::new("format.js", JS, include_str!("format.js")),
    PageFile::new("events.js", JS, include_str!("events.js")),
    PageFile::new("client.js", JS, include_str!("client.js")),
    PageFile::new("analysis.js", JS, include_str!("analysis.js")),
    PageFile::new("progress.js", JS, include_str!("progress.js")),
    PageFile::new("controller.js", JS, include_str!("controller.js")),
    PageFile::new("tictactoe-model.js", JS, include_str!("tictactoe-model.js")),
    PageFile::new("tictactoe.js", JS, include_str!("tictactoe.js")),
    PageFile::new("connect4-model.js", JS, include_str!("connect4-model.js")),
    PageFile::new("connect4.js", JS, include_str!("connect4.js")),
    PageFile::new("othello-model.js", JS, include_str!("othello-model.js")),
    PageFile::new("othello.js", JS, include_str!("othello.js")),
    PageFile::new("gomoku-model.js", JS, include_str!("gomoku-model.js")),
    PageFile::new("gomoku.js", JS, include_str!("gomoku.js")),
    PageFile::new("tree.js", JS, include_str!("tree.js")),
    PageFile::new("review-model.js", JS, include_str!("review-model.js")),
    PageFile::new("review.js", JS, include_str!("review.js")),
];
const CSS: &str = "text/css; charset=utf-8";
const JS: &str = "text/javascript; charset=utf-8";

//! The shape of the code, held: the layers import in one direction only
//! (search < suggest < games < api < server, read from the `use` lines and
//! paths of every source file), and the layers above the games name none
//! of them (`docs/architecture.md`).

use std::path::{Path, PathBuf};

/// The layers, lowest first, by the folder or file each lives in.
const LAYERS: [(&str, &str); 5] = [
    ("search", "src/search"),
    ("suggest", "src/suggest"),
    ("games", "src/games"),
    ("api", "src/api"),
    ("server", "src/server.rs"),
];

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// A file's code lines: comments and `#[cfg(test)]` modules left out.
fn code(text: &str) -> Vec<String> {
    let body = match text.find("#[cfg(test)]\nmod tests") {
        Some(at) => &text[..at],
        None => text,
    };
    body.lines().map(str::trim).filter(|line| !line.starts_with("//")).map(str::to_string).collect()
}

fn files_of(root: &Path, place: &str) -> Vec<PathBuf> {
    let path = root.join(place);
    let mut files = Vec::new();
    if path.is_dir() {
        sources(&path, &mut files);
    } else {
        files.push(path);
    }
    files
}

#[test]
fn no_layer_imports_one_above_it() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut upward = Vec::new();
    for (level, (name, place)) in LAYERS.iter().enumerate() {
        for file in files_of(root, place) {
            let text = std::fs::read_to_string(&file).unwrap();
            for line in code(&text) {
                for (above, _) in &LAYERS[level + 1..] {
                    if line.contains(&format!("crate::{above}::")) || line.contains(&format!("crate::{above}}}")) {
                        upward.push(format!("{name}: {} imports {above}: {line}", file.display()));
                    }
                }
            }
        }
    }
    assert!(upward.is_empty(), "imports against the layers:\n{}", upward.join("\n"));
}

#[test]
fn the_layers_above_the_games_name_none_of_them() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let names = ["othello", "connect4", "connect 4", "connect four", "tictactoe", "tic-tac-toe"];
    let mut named = Vec::new();
    for place in ["src/api", "src/suggest", "src/server.rs", "src/main.rs", "src/config.rs"] {
        for file in files_of(root, place) {
            let text = std::fs::read_to_string(&file).unwrap();
            for line in code(&text) {
                let lower = line.to_lowercase();
                if let Some(name) = names.iter().find(|name| lower.contains(*name)) {
                    named.push(format!("{}: {name}: {line}", file.display()));
                }
            }
        }
    }
    assert!(named.is_empty(), "game names outside the games and their registry:\n{}", named.join("\n"));
}

//! Generic game trees written in JSON, and the [`TreeGame`] the search plays
//! through them.
//!
//! A node is an integer (a leaf), a non-empty array of nodes, or an object
//! `{"name": ..., "value": ..., "children": [...]}` in which `name` is
//! optional and `value` is optional on inner nodes (it is their static value
//! when a depth limit stops there). Forms mix freely.
//!
//! The parser is iterative, with its own stack on the heap, and checks the
//! node and depth limits as it goes: no input, however large or deep, can
//! exhaust the thread's stack or make it build more than the limits allow.

use std::fmt;

use crate::suggest::shorten;

mod json;
mod served;

use crate::search::{Game, Heuristics, Solver};
pub use served::{read, style, Question};

/// How big a tree may be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TreeLimits {
    /// Most nodes, leaves and inner nodes together.
    pub max_nodes: usize,
    /// Most edges from the root to the deepest leaf (a lone leaf is depth 0).
    pub max_depth: usize,
}

impl Default for TreeLimits {
    /// The service's defaults: 2,000,000 nodes, 1,000 levels.
    fn default() -> Self {
        TreeLimits { max_nodes: 2_000_000, max_depth: 1_000 }
    }
}

/// What is wrong with a tree a caller sent. Every variant names the place,
/// as a path such as `tree[1][0]` or `tree.children[2].value`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TreeError {
    /// Not a valid node: wrong type, empty array, float value, unknown key...
    Invalid {
        /// Where in the tree.
        path: String,
        /// What is wrong, for a person.
        message: String,
    },
    /// More nodes than [`TreeLimits::max_nodes`].
    TooLarge {
        /// The node that went over the limit.
        path: String,
        /// The limit.
        limit: usize,
    },
    /// Deeper than [`TreeLimits::max_depth`].
    TooDeep {
        /// The node that went over the limit.
        path: String,
        /// The limit.
        limit: usize,
    },
    /// A depth limit stops at an inner node that has no `value`.
    MissingValue {
        /// The first such node, depth first.
        path: String,
        /// The depth limit.
        depth: u32,
    },
}

impl TreeError {
    /// Where in the tree the problem is.
    pub fn path(&self) -> &str {
        match self {
            TreeError::Invalid { path, .. }
            | TreeError::TooLarge { path, .. }
            | TreeError::TooDeep { path, .. }
            | TreeError::MissingValue { path, .. } => path,
        }
    }
}

impl fmt::Display for TreeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TreeError::Invalid { path, message } => write!(f, "{path}: {message}"),
            TreeError::TooLarge { path, limit } => {
                write!(f, "{path}: the tree has more than {limit} nodes, the limit")
            }
            TreeError::TooDeep { path, limit } => {
                write!(f, "{path}: the tree is deeper than {limit} levels, the limit")
            }
            TreeError::MissingValue { path, depth } => write!(
                f,
                "{path}: max_depth {depth} stops the search at this inner node, which has no \"value\" to score it by"
            ),
        }
    }
}

impl std::error::Error for TreeError {}

/// Steps kept at each end of a long path.
const PATH_ENDS: usize = 5;

/// A path from its steps (`[1]`, `.children[0]`, `.value`), such as
/// `tree[1].children[0]`. A path of more than twice [`PATH_ENDS`] steps
/// keeps that many at each end with `…` between, so an error deep in a
/// tree stays short.
fn join_path(steps: impl Iterator<Item = String>) -> String {
    let steps: Vec<String> = steps.collect();
    let mut path = String::from("tree");
    if steps.len() <= 2 * PATH_ENDS {
        path.extend(steps);
    } else {
        path.extend(steps[..PATH_ENDS].iter().cloned());
        path.push('…');
        path.extend(steps[steps.len() - PATH_ENDS..].iter().cloned());
    }
    path
}

/// The longest name, in bytes of UTF-8: the answer repeats the names of
/// the root's children, and must stay small.
pub const MAX_NAME_BYTES: usize = 128;

const NO_NAME: u32 = u32::MAX;

#[derive(Clone, Copy, Debug)]
struct Node {
    /// The leaf's value, or an inner node's static value if it has one.
    value: i64,
    /// Where this node's children start in `Tree::kids`.
    first: u32,
    /// How many children; 0 for a leaf.
    len: u32,
    /// Index into `Tree::names`, or `NO_NAME`.
    name: u32,
    has_value: bool,
    /// Written as an object, so its children sit under `.children`.
    object: bool,
}

/// A parsed game tree: nodes in one flat vector, children as index ranges.
#[derive(Clone, Debug)]
pub struct Tree {
    nodes: Vec<Node>,
    kids: Vec<u32>,
    names: Vec<String>,
    root: u32,
    depth: usize,
    /// Every value fits in 32 bits, so the search may use its faster scores.
    small_values: bool,
}

impl Tree {
    /// Parses a tree from its JSON text (the `tree` value of a request).
    pub fn parse(json: &str, limits: TreeLimits) -> Result<Tree, TreeError> {
        json::Parser::new(json.as_bytes(), limits).parse()
    }

    /// Nodes in the tree, leaves and inner nodes.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Never true: a tree has at least its root.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// Edges from the root to the deepest leaf.
    pub fn depth(&self) -> usize {
        self.depth
    }

    /// The root's children's names, in order (`None` where unnamed).
    pub fn root_child_names(&self) -> Vec<Option<&str>> {
        self.children(self.root).map(|child| self.name(child)).collect()
    }

    /// The name of the root's child `index`, if it has one.
    pub fn root_child_name(&self, index: usize) -> Option<&str> {
        self.children(self.root).nth(index).and_then(|child| self.name(child))
    }

    fn name(&self, node: u32) -> Option<&str> {
        let name = self.nodes[node as usize].name;
        (name != NO_NAME).then(|| self.names[name as usize].as_str())
    }

    fn children(&self, node: u32) -> impl Iterator<Item = u32> + '_ {
        let n = self.nodes[node as usize];
        self.kids[n.first as usize..(n.first + n.len) as usize].iter().copied()
    }

    /// The game from the root, to be searched to `max_depth` plies (`None`:
    /// to the leaves). The root maximizes the leaf values unless
    /// `maximizing` is false.
    ///
    /// A search cut at `max_depth` scores the inner nodes where it stops by
    /// their `value`, so each inner node exactly `max_depth` edges below the
    /// root needs one: the first that has none is a
    /// [`TreeError::MissingValue`]. Search the game with the same depth
    /// limit, [`TreeGame::max_depth`]: under another, a node without a value
    /// counts as 0.
    ///
    /// ```
    /// use bestmove::games::tree::{Tree, TreeError, TreeLimits};
    /// use bestmove::search::{minimax, Limits};
    ///
    /// let tree = Tree::parse(r#"[{"value": 3, "children": [1, 5]}, [0, 9]]"#, TreeLimits::default())?;
    /// // Cut after one ply, the second child has no value to be scored by.
    /// assert!(matches!(tree.game(true, Some(1)), Err(TreeError::MissingValue { .. })));
    /// // To the leaves: the first child is worth min(1, 5) = 1, the second min(0, 9) = 0.
    /// let game = tree.game(true, None)?;
    /// let result = minimax(&game, Limits { max_depth: game.max_depth(), ..Limits::default() })?;
    /// assert_eq!((result.best_move, result.score.value()), (Some(0), 1));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn game(&self, maximizing: bool, max_depth: Option<u32>) -> Result<TreeGame<'_>, TreeError> {
        if let Some(depth) = max_depth {
            self.check_horizon(depth)?;
        }
        Ok(TreeGame { tree: self, node: self.root, sign: if maximizing { 1 } else { -1 }, max_depth })
    }

    /// Checks that a search limited to `max_depth` plies can score every
    /// position where it stops: each inner node exactly `max_depth` edges
    /// below the root needs a `value`.
    fn check_horizon(&self, max_depth: u32) -> Result<(), TreeError> {
        // Depth-first with an explicit stack of (node, depth, parent, index
        // in the parent); `path` holds the (parent, index) steps to the node.
        let mut stack = vec![(self.root, 0u32, self.root, 0u32)];
        let mut path: Vec<(u32, u32)> = Vec::new();
        while let Some((node, depth, parent, index)) = stack.pop() {
            if depth > 0 {
                path.truncate(depth as usize - 1);
                path.push((parent, index));
            }
            let n = self.nodes[node as usize];
            if n.len == 0 {
                continue;
            }
            if depth == max_depth {
                if !n.has_value {
                    return Err(TreeError::MissingValue { path: self.render_path(&path), depth: max_depth });
                }
                continue;
            }
            for i in (0..n.len).rev() {
                stack.push((self.kids[(n.first + i) as usize], depth + 1, node, i));
            }
        }
        Ok(())
    }

    fn render_path(&self, steps: &[(u32, u32)]) -> String {
        join_path(steps.iter().map(|&(parent, index)| {
            if self.nodes[parent as usize].object {
                format!(".children[{index}]")
            } else {
                format!("[{index}]")
            }
        }))
    }
}

/// A position in a [`Tree`]: a node, and whose turn it is there. Made by
/// [`Tree::game`], which checks that a search to its depth limit can score
/// every node where it stops.
#[derive(Clone, Copy, Debug)]
pub struct TreeGame<'a> {
    tree: &'a Tree,
    node: u32,
    /// +1 where the side to move maximizes the leaf values, -1 where it minimizes.
    sign: i64,
    /// The depth limit the tree was checked for, counted from the root.
    max_depth: Option<u32>,
}

impl TreeGame<'_> {
    /// The depth limit this game was made for: give it to the search as
    /// [`Limits::max_depth`](crate::search::Limits::max_depth).
    pub fn max_depth(&self) -> Option<u32> {
        self.max_depth
    }
}

impl Game for TreeGame<'_> {
    type Move = u32;
    type Moves = std::ops::Range<u32>;

    #[inline(always)]
    fn outcome(&self) -> Option<i64> {
        let node = &self.tree.nodes[self.node as usize];
        (node.len == 0).then_some(self.sign * node.value)
    }

    #[inline(always)]
    fn moves(&self) -> std::ops::Range<u32> {
        0..self.tree.nodes[self.node as usize].len
    }

    #[inline(always)]
    fn play(&self, mv: u32) -> Self {
        let node = &self.tree.nodes[self.node as usize];
        TreeGame { node: self.tree.kids[(node.first + mv) as usize], sign: -self.sign, ..*self }
    }

    /// Every node is reached by one path only: its number (below 2^32) is
    /// its key.
    fn key(&self) -> Option<u64> {
        Some(self.node as u64)
    }

    fn max_plies_hint(&self) -> usize {
        self.tree.depth
    }
}

impl Heuristics for TreeGame<'_> {
    /// The node's own `value`. [`Tree::game`] makes sure that every node a
    /// search to [`TreeGame::max_depth`] stops at has one. A search cut
    /// shallower or deeper (such as a shallow iteration used only to order
    /// moves) may stop at a node without one, which then counts as 0.
    fn cut_value(&self) -> i64 {
        self.sign * self.tree.nodes[self.node as usize].value
    }

    fn small_values(&self) -> bool {
        self.tree.small_values
    }
}

/// A tree knows no more than its values: the engine's defaults.
impl Solver for TreeGame<'_> {}

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
        Parser::new(json.as_bytes(), limits).parse()
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
    fn evaluate(&self) -> i64 {
        self.sign * self.tree.nodes[self.node as usize].value
    }

    fn small_values(&self) -> bool {
        self.tree.small_values
    }
}

/// A tree knows no more than its values: the engine's defaults.
impl Solver for TreeGame<'_> {}

/// One open container on the parser's stack.
enum Frame {
    /// A node written as an array; `base` is where its children start on
    /// the pending-children stack, `index` the child being read.
    Array { base: usize, index: u32 },
    /// A node written as an object.
    Object(ObjectFrame),
}

struct ObjectFrame {
    name: Option<String>,
    value: Option<i64>,
    /// Children already read (the `children` array is closed).
    children: Option<(usize, u32)>,
    /// Inside the `children` array: where its children start, and the index.
    reading_children: Option<(usize, u32)>,
    /// The key whose value is being read, for error paths.
    key: Option<&'static str>,
}

struct Parser<'a> {
    input: &'a [u8],
    pos: usize,
    limits: TreeLimits,
    stack: Vec<Frame>,
    /// Ids of finished nodes whose parent is still open.
    pending: Vec<u32>,
    nodes: Vec<Node>,
    kids: Vec<u32>,
    names: Vec<String>,
    /// Nodes started so far.
    count: usize,
    depth: usize,
    /// Open node levels: the depth of the next node to start.
    level: usize,
}

impl<'a> Parser<'a> {
    fn new(input: &'a [u8], limits: TreeLimits) -> Self {
        Parser {
            input,
            pos: 0,
            limits,
            stack: Vec::new(),
            pending: Vec::new(),
            nodes: Vec::new(),
            kids: Vec::new(),
            names: Vec::new(),
            count: 0,
            depth: 0,
            level: 0,
        }
    }

    fn parse(mut self) -> Result<Tree, TreeError> {
        self.node()?;
        loop {
            // A value just ended: see what its container says next.
            self.skip_ws();
            let Some(frame) = self.stack.last_mut() else { break };
            match frame {
                Frame::Array { base, index } => match self.input.get(self.pos) {
                    Some(b',') => {
                        self.pos += 1;
                        *index += 1;
                        self.node()?;
                    }
                    Some(b']') => {
                        self.pos += 1;
                        let base = *base;
                        self.stack.pop();
                        self.close_node(base, None, None, false);
                    }
                    _ => return Err(self.invalid("expected \",\" or \"]\" after an array item")),
                },
                Frame::Object(object) => {
                    if let Some((base, index)) = object.reading_children.as_mut() {
                        match self.input.get(self.pos) {
                            Some(b',') => {
                                self.pos += 1;
                                *index += 1;
                                self.node()?;
                            }
                            Some(b']') => {
                                self.pos += 1;
                                object.children = Some((*base, *index + 1));
                                object.reading_children = None;
                                object.key = None;
                                self.level -= 1;
                            }
                            _ => return Err(self.invalid("expected \",\" or \"]\" in children")),
                        }
                        continue;
                    }
                    object.key = None;
                    match self.input.get(self.pos) {
                        Some(b',') => {
                            self.pos += 1;
                            if self.key()? {
                                self.node()?;
                            }
                        }
                        Some(b'}') => {
                            self.pos += 1;
                            self.close_object()?;
                        }
                        _ => return Err(self.invalid("expected \",\" or \"}\" in a node object")),
                    }
                }
            }
        }
        self.skip_ws();
        if self.pos != self.input.len() {
            return Err(TreeError::Invalid { path: "tree".into(), message: "unexpected text after the tree".into() });
        }
        let root = self.pending.pop().unwrap_or_default();
        let small = |v: i64| v.unsigned_abs() < 1 << 31;
        let small_values = self.nodes.iter().all(|n| small(n.value));
        Ok(Tree { nodes: self.nodes, kids: self.kids, names: self.names, root, depth: self.depth, small_values })
    }

    /// Reads one node at the current position. Containers are pushed on the
    /// stack and finished by the main loop; a run of nested openings is
    /// followed in this loop, never by recursion.
    fn node(&mut self) -> Result<(), TreeError> {
        loop {
            self.skip_ws();
            self.count += 1;
            if self.count > self.limits.max_nodes {
                return Err(TreeError::TooLarge { path: self.path(), limit: self.limits.max_nodes });
            }
            self.depth = self.depth.max(self.level);
            match self.input.get(self.pos) {
                Some(b'[') => {
                    self.open_level()?;
                    self.pos += 1;
                    self.skip_ws();
                    if self.input.get(self.pos) == Some(&b']') {
                        return Err(self.invalid("an inner node needs at least one child; this array is empty"));
                    }
                    self.stack.push(Frame::Array { base: self.pending.len(), index: 0 });
                }
                Some(b'{') => {
                    self.pos += 1;
                    self.stack.push(Frame::Object(ObjectFrame {
                        name: None,
                        value: None,
                        children: None,
                        reading_children: None,
                        key: None,
                    }));
                    self.skip_ws();
                    if self.input.get(self.pos) == Some(&b'}') {
                        self.pos += 1;
                        return self.close_object();
                    }
                    if !self.key()? {
                        return Ok(());
                    }
                }
                Some(b'-' | b'0'..=b'9') => {
                    let value = self.integer("a leaf value")?;
                    self.leaf(value);
                    return Ok(());
                }
                _ => {
                    let found = self.describe_value();
                    return Err(
                        self.invalid(&format!("a node is an integer, an array of nodes or an object, not {found}"))
                    );
                }
            }
        }
    }

    /// Enters a level of children, refusing to go deeper than the limit.
    fn open_level(&mut self) -> Result<(), TreeError> {
        if self.level >= self.limits.max_depth {
            return Err(TreeError::TooDeep { path: self.path(), limit: self.limits.max_depth });
        }
        self.level += 1;
        Ok(())
    }

    fn leaf(&mut self, value: i64) {
        let id = self.nodes.len() as u32;
        self.nodes.push(Node { value, first: 0, len: 0, name: NO_NAME, has_value: true, object: false });
        self.pending.push(id);
    }

    /// Finishes an inner node (or an object leaf) whose children are
    /// `pending[base..]`.
    fn close_node(&mut self, base: usize, name: Option<String>, value: Option<i64>, object: bool) {
        let first = self.kids.len() as u32;
        let len = (self.pending.len() - base) as u32;
        self.kids.extend(self.pending.drain(base..));
        if !object {
            self.level -= 1;
        }
        let name = name.map_or(NO_NAME, |name| {
            self.names.push(name);
            self.names.len() as u32 - 1
        });
        let id = self.nodes.len() as u32;
        self.nodes.push(Node { value: value.unwrap_or(0), first, len, name, has_value: value.is_some(), object });
        self.pending.push(id);
    }

    fn close_object(&mut self) -> Result<(), TreeError> {
        let complete = matches!(self.stack.last(), Some(Frame::Object(o)) if o.children.is_some() || o.value.is_some());
        if !complete {
            return Err(self.invalid("a node object needs \"value\" (a leaf) or \"children\" (an inner node)"));
        }
        let Some(Frame::Object(object)) = self.stack.pop() else { return Err(self.invalid("unbalanced object")) };
        let base = object.children.map_or(self.pending.len(), |(base, _)| base);
        self.close_node(base, object.name, object.value, true);
        Ok(())
    }

    /// Reads a key of a node object and its value, except for `children`,
    /// whose first node is left to the caller: returns true in that case.
    fn key(&mut self) -> Result<bool, TreeError> {
        self.skip_ws();
        if self.input.get(self.pos) != Some(&b'"') {
            return Err(self.invalid("expected a key (\"name\", \"value\" or \"children\") in a node object"));
        }
        let key = self.string()?;
        self.skip_ws();
        if self.input.get(self.pos) != Some(&b':') {
            return Err(self.invalid("expected \":\" after a key"));
        }
        self.pos += 1;
        self.skip_ws();
        let key: &'static str = match key.as_str() {
            "name" => "name",
            "value" => "value",
            "children" => "children",
            other => {
                return Err(self.invalid(&format!(
                    "unknown key {:?} in a node object: a node has \"name\", \"value\" and \"children\"",
                    shorten(other)
                )))
            }
        };
        let Some(Frame::Object(object)) = self.stack.last_mut() else { return Err(self.invalid("unbalanced object")) };
        let seen = match key {
            "name" => object.name.is_some(),
            "value" => object.value.is_some(),
            _ => object.children.is_some(),
        };
        object.key = Some(key);
        if seen {
            return Err(self.invalid(&format!("\"{key}\" appears twice in this node")));
        }
        match key {
            "name" => {
                if self.input.get(self.pos) != Some(&b'"') {
                    let found = self.describe_value();
                    return Err(self.invalid(&format!("a name is a string, not {found}")));
                }
                let name = self.string()?;
                if name.len() > MAX_NAME_BYTES {
                    return Err(self.invalid(&format!(
                        "a name is at most {MAX_NAME_BYTES} bytes of UTF-8; this one has {}",
                        name.len()
                    )));
                }
                if let Some(Frame::Object(object)) = self.stack.last_mut() {
                    object.name = Some(name);
                }
            }
            "value" => {
                if !matches!(self.input.get(self.pos), Some(b'-' | b'0'..=b'9')) {
                    let found = self.describe_value();
                    return Err(self.invalid(&format!("a value is an integer, not {found}")));
                }
                let value = self.integer("a value")?;
                if let Some(Frame::Object(object)) = self.stack.last_mut() {
                    object.value = Some(value);
                }
            }
            _ => {
                if self.input.get(self.pos) != Some(&b'[') {
                    let found = self.describe_value();
                    return Err(self.invalid(&format!("children is an array of nodes, not {found}")));
                }
                self.pos += 1;
                self.skip_ws();
                if self.input.get(self.pos) == Some(&b']') {
                    return Err(self.invalid("children must hold at least one node; leave it out for a leaf"));
                }
                self.open_level()?;
                let base = self.pending.len();
                if let Some(Frame::Object(object)) = self.stack.last_mut() {
                    object.reading_children = Some((base, 0));
                }
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Reads an integer in i64 range, excluding `i64::MIN` so that every
    /// value can be negated. Fractions and exponents are refused.
    fn integer(&mut self, what: &str) -> Result<i64, TreeError> {
        let start = self.pos;
        if self.input.get(self.pos) == Some(&b'-') {
            self.pos += 1;
        }
        while matches!(self.input.get(self.pos), Some(b'0'..=b'9')) {
            self.pos += 1;
        }
        let is_float = matches!(self.input.get(self.pos), Some(b'.' | b'e' | b'E'));
        if is_float {
            while matches!(self.input.get(self.pos), Some(b'0'..=b'9' | b'.' | b'e' | b'E' | b'+' | b'-')) {
                self.pos += 1;
            }
        }
        let text = std::str::from_utf8(&self.input[start..self.pos]).unwrap_or("?");
        if is_float {
            return Err(self.invalid(&format!("{what} must be an integer, not {}", shorten(text))));
        }
        match text.parse::<i64>() {
            Ok(value) if value != i64::MIN => Ok(value),
            _ => Err(self.invalid(&format!(
                "{what} must be an integer from -9223372036854775807 to 9223372036854775807, not {}",
                shorten(text)
            ))),
        }
    }

    /// Reads a JSON string (with escapes) starting at the opening quote.
    fn string(&mut self) -> Result<String, TreeError> {
        let start = self.pos;
        self.pos += 1;
        loop {
            match self.input.get(self.pos) {
                Some(b'"') => break,
                Some(b'\\') => self.pos += 2,
                Some(_) => self.pos += 1,
                None => return Err(self.invalid("unterminated string")),
            }
        }
        self.pos += 1;
        let raw = self.input.get(start..self.pos).unwrap_or_default();
        serde_json::from_slice(raw).map_err(|_| self.invalid("invalid string"))
    }

    fn skip_ws(&mut self) {
        while matches!(self.input.get(self.pos), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.pos += 1;
        }
    }

    fn describe_value(&self) -> &'static str {
        match self.input.get(self.pos) {
            Some(b'"') => "a string",
            Some(b't' | b'f') => "a boolean",
            Some(b'n') => "null",
            Some(b'[') => "an array",
            Some(b'{') => "an object",
            Some(b'-' | b'0'..=b'9') => "a number",
            Some(_) => "invalid JSON",
            None => "the end of the input",
        }
    }

    fn invalid(&self, message: &str) -> TreeError {
        TreeError::Invalid { path: self.path(), message: message.to_string() }
    }

    /// The path of the value being read, such as `tree[1].children[0]`.
    fn path(&self) -> String {
        join_path(self.stack.iter().filter_map(|frame| match frame {
            Frame::Array { index, .. } => Some(format!("[{index}]")),
            Frame::Object(object) => match (object.reading_children, object.key) {
                (Some((_, index)), _) => Some(format!(".children[{index}]")),
                (None, Some(key)) => Some(format!(".{key}")),
                (None, None) => None,
            },
        }))
    }
}

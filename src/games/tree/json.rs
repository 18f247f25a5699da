//! The tree's JSON reader: iterative (any depth is safe), in one pass
//! over the bytes, within the node and depth limits, with an error that
//! names the path at fault.

use super::*;

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

pub(super) struct Parser<'a> {
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
    pub(super) fn new(input: &'a [u8], limits: TreeLimits) -> Self {
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

    pub(super) fn parse(mut self) -> Result<Tree, TreeError> {
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

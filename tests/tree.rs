//! JSON game trees: parsing, limits, error paths, and both searches checked
//! against a naive reference on random trees.

use bestmove::games::tree::{Tree, TreeError, TreeLimits};
use std::cmp::Ordering;
use std::collections::BTreeSet;

use bestmove::search::{alpha_beta, choose, engine, minimax, EngineOptions, Limits, Table, TieBreak};
use proptest::prelude::*;

fn parse(json: &str) -> Result<Tree, TreeError> {
    Tree::parse(json, TreeLimits::default())
}

/// (best move, score in leaf units, minimax nodes, alpha-beta nodes)
fn solve(json: &str, maximizing: bool) -> (Option<u32>, i64, u64, u64) {
    let tree = parse(json).unwrap();
    let game = tree.game(maximizing, None).unwrap();
    let mm = minimax(&game, Limits::default()).unwrap();
    let ab = alpha_beta(&game, Limits::default()).unwrap();
    assert_eq!(mm.score, ab.score);
    assert_eq!(mm.best_move, ab.best_move);
    let sign = if maximizing { 1 } else { -1 };
    (mm.best_move, sign * mm.score.value(), mm.nodes, ab.nodes)
}

#[test]
fn the_classic_two_by_two_tree_is_worth_zero_via_move_one() {
    let (mv, score, nodes, _) = solve("[[1, -1], [0, 1]]", true);
    assert_eq!((mv, score, nodes), (Some(1), 0, 7));
}

#[test]
fn the_classic_three_by_three_tree_is_worth_four_via_move_two() {
    let (mv, score, nodes, ab_nodes) = solve("[[5, -2, -1], [1, -5, 6], [5, 8, 4]]", true);
    assert_eq!((mv, score, nodes), (Some(2), 4, 13));
    assert!(ab_nodes < nodes);
}

#[test]
fn named_children_pick_the_largest_value_and_keep_their_names() {
    let json =
        r#"{"children": [{"name": "A", "value": 300}, {"name": "B", "value": 120}, {"name": "C", "value": -500}]}"#;
    assert_eq!(solve(json, true).0, Some(0));
    assert_eq!(solve(json, false), (Some(2), -500, 4, 4));
    assert_eq!(parse(json).unwrap().root_child_names(), vec![Some("A"), Some("B"), Some("C")]);
}

#[test]
fn a_minimizing_root_takes_the_smallest_maximum() {
    // Root minimizes: children are maxima 1 and 1, ... pick the smallest.
    assert_eq!(solve("[[1, -1], [0, 1], [-3, -2]]", false), (Some(2), -2, 10, 10));
}

#[test]
fn forms_mix_freely() {
    let json = r#"[{"children": [3, {"value": 4}]}, [{"name": "x", "value": 9}, 2]]"#;
    assert_eq!(solve(json, true).1, 3);
}

#[test]
fn values_beyond_32_bits_are_searched_exactly() {
    let json = "[[9223372036854775807, -9223372036854775807], [3000000000, 2147483648]]";
    assert_eq!(solve(json, true), (Some(1), 2_147_483_648, 7, 7));
    assert_eq!(solve(json, false), (Some(1), 3_000_000_000, 7, 7));
}

#[test]
fn a_lone_leaf_is_a_finished_game() {
    assert_eq!(solve("42", true), (None, 42, 1, 1));
    assert_eq!(solve(r#"{"value": -7, "name": "end"}"#, true), (None, -7, 1, 1));
}

#[test]
fn the_quickest_win_is_preferred_among_equal_values() {
    // Move 0 reaches 5 after three plies, move 1 right away.
    let (mv, score, ..) = solve("[[[5]], 5]", true);
    assert_eq!((mv, score), (Some(1), 5));
}

fn error(json: &str) -> TreeError {
    parse(json).unwrap_err()
}

fn invalid_at(json: &str) -> String {
    match error(json) {
        TreeError::Invalid { path, .. } => path,
        other => panic!("expected an invalid tree, got {other:?}"),
    }
}

#[test]
fn bad_nodes_are_reported_with_their_path() {
    assert_eq!(invalid_at("[[1, 2], [3, 1.5]]"), "tree[1][1]");
    assert_eq!(invalid_at(r#"[[1, 2], ["x"]]"#), "tree[1][0]");
    assert_eq!(invalid_at("[[1, 2], []]"), "tree[1]");
    assert_eq!(invalid_at("[1, true]"), "tree[1]");
    assert_eq!(invalid_at("[1, null]"), "tree[1]");
    assert_eq!(invalid_at(r#"{"children": [1, {"name": "a"}]}"#), "tree.children[1]");
    assert_eq!(invalid_at(r#"{"children": [1, {"value": 2, "colour": "red"}]}"#), "tree.children[1]");
    assert_eq!(invalid_at(r#"{"children": [1, {"value": "2"}]}"#), "tree.children[1].value");
    assert_eq!(invalid_at(r#"{"children": []}"#), "tree.children");
    assert_eq!(invalid_at(r#"{"name": 3, "value": 1}"#), "tree.name");
    assert_eq!(invalid_at(r#"{"value": 1, "value": 2}"#), "tree.value");
    assert_eq!(invalid_at("[1, 99999999999999999999]"), "tree[1]");
    assert_eq!(invalid_at("[1, -9223372036854775808]"), "tree[1]");
    assert_eq!(invalid_at("\"leaf\""), "tree");
    let message = error("[[1, 2], [3, 1.5]]").to_string();
    assert!(message.contains("integer") && message.contains("1.5"), "{message}");
}

#[test]
fn the_node_limit_is_enforced_while_parsing() {
    let limits = TreeLimits { max_nodes: 5, max_depth: 10 };
    assert!(Tree::parse("[[1, 2], 3]", limits).is_ok());
    assert!(matches!(Tree::parse("[[1, 2], 3, 4]", limits), Err(TreeError::TooLarge { limit: 5, .. })));
}

fn nested_arrays(depth: usize) -> String {
    format!("{}1{}", "[".repeat(depth), "]".repeat(depth))
}

fn nested_objects(depth: usize) -> String {
    let mut json = String::from("1");
    for i in 0..depth {
        json = format!(r#"{{"name": "n{i}", "value": {i}, "children": [{json}, 0]}}"#);
    }
    json
}

#[test]
fn a_tree_exactly_at_the_depth_limit_is_searched_in_both_forms() {
    for json in [nested_arrays(1000), nested_objects(1000)] {
        let tree = parse(&json).unwrap();
        assert_eq!(tree.depth(), 1000);
        let mm = minimax(&tree.game(true, None).unwrap(), Limits::default()).unwrap();
        assert_eq!(mm.principal_variation.len(), 1000);
    }
}

#[test]
fn one_level_more_than_the_limit_is_refused_in_both_forms() {
    assert!(matches!(error(&nested_arrays(1001)), TreeError::TooDeep { limit: 1000, .. }));
    assert!(matches!(error(&nested_objects(1001)), TreeError::TooDeep { limit: 1000, .. }));
}

#[test]
fn a_million_levels_of_nesting_is_an_error_not_a_crash() {
    assert!(matches!(error(&nested_arrays(1_000_000)), TreeError::TooDeep { .. }));
    let unlimited = TreeLimits { max_nodes: usize::MAX, max_depth: usize::MAX };
    assert!(matches!(Tree::parse(&"[".repeat(1_000_000), unlimited), Err(TreeError::Invalid { .. })));
}

#[test]
fn a_depth_limit_uses_inner_values_and_names_the_node_without_one() {
    let json = r#"[{"value": 7, "children": [1, 2]}, {"value": 3, "children": [9]}]"#;
    let tree = parse(json).unwrap();
    let game = tree.game(true, Some(1)).unwrap();
    assert_eq!(game.max_depth(), Some(1));
    let limits = Limits { max_depth: game.max_depth(), ..Limits::default() };
    let mm = minimax(&game, limits).unwrap();
    assert_eq!((mm.best_move, mm.score.value(), mm.exact), (Some(0), 7, false));
    let game = tree.game(true, Some(2)).unwrap();
    let mm = minimax(&game, Limits { max_depth: game.max_depth(), ..Limits::default() }).unwrap();
    assert_eq!((mm.best_move, mm.score.value(), mm.exact), (Some(1), 9, true));

    let missing = parse(r#"[{"value": 7, "children": [1, 2]}, [[4], 5]]"#).unwrap();
    let path = |depth| missing.game(true, Some(depth)).map(|_| ()).map_err(|e| e.path().to_string());
    assert_eq!(path(1), Err("tree[1]".to_string()));
    assert_eq!(path(2), Err("tree[1][0]".to_string()));
    assert_eq!(path(3), Ok(()));
    // Without a depth limit nothing is cut, so no value is needed.
    assert!(missing.game(false, None).is_ok());
}

/// A tree for the reference: leaves and inner nodes with an optional value.
#[derive(Clone, Debug)]
enum Node {
    Leaf(i64),
    Inner(i64, Vec<Node>),
}

impl Node {
    fn json(&self) -> String {
        match self {
            Node::Leaf(v) => v.to_string(),
            Node::Inner(v, kids) => {
                let kids: Vec<String> = kids.iter().map(Node::json).collect();
                format!(r#"{{"value": {v}, "children": [{}]}}"#, kids.join(","))
            }
        }
    }

    /// Naive negamax on values only, with a depth limit.
    fn reference(&self, sign: i64, depth: u32) -> i64 {
        match self {
            Node::Leaf(v) => sign * v,
            Node::Inner(v, _) if depth == 0 => sign * v,
            Node::Inner(_, kids) => kids.iter().map(|k| -k.reference(-sign, depth - 1)).max().unwrap(),
        }
    }

    /// Naive negamax on (value, ply at which the line ends), preferring
    /// the quickest win and the slowest loss; `ply` is this node's.
    fn line(&self, sign: i64, depth: u32, ply: u32) -> (i64, u32) {
        match self {
            Node::Leaf(v) => (sign * v, ply),
            Node::Inner(v, _) if depth == 0 => (sign * v, ply),
            Node::Inner(_, kids) => {
                kids.iter().map(|k| negate(k.line(-sign, depth - 1, ply + 1))).max_by(|a, b| compare(*a, *b)).unwrap()
            }
        }
    }

    /// The root moves that are equally good and best, by the reference.
    fn best_moves(&self, sign: i64, depth: u32) -> BTreeSet<u32> {
        let Node::Inner(_, kids) = self else { return BTreeSet::new() };
        let lines: Vec<_> = kids.iter().map(|k| negate(k.line(-sign, depth - 1, 1))).collect();
        let best = *lines.iter().max_by(|a, b| compare(**a, **b)).unwrap();
        (0..kids.len() as u32).filter(|&i| compare(lines[i as usize], best) == Ordering::Equal).collect()
    }
}

fn negate((value, ply): (i64, u32)) -> (i64, u32) {
    (-value, ply)
}

/// Which line is better for the side to move: the higher value; for equal
/// wins the sooner, for equal losses the later; draws are all alike.
fn compare(a: (i64, u32), b: (i64, u32)) -> Ordering {
    a.0.cmp(&b.0).then(match a.0.signum() {
        1 => b.1.cmp(&a.1),
        -1 => a.1.cmp(&b.1),
        _ => Ordering::Equal,
    })
}

/// Mostly small values, which tie often (half of them within -1..=1, so
/// that draws and equal wins and losses of different lengths are common);
/// now and then any value at all, so both of the search's score widths are
/// exercised.
fn arb_value() -> impl Strategy<Value = i64> {
    prop_oneof![4 => -1i64..=1, 4 => -20i64..20, 1 => (i64::MIN + 1)..=i64::MAX]
}

fn arb_tree() -> impl Strategy<Value = Node> {
    let leaf = arb_value().prop_map(Node::Leaf);
    leaf.prop_recursive(6, 200, 4, |inner| {
        (arb_value(), prop::collection::vec(inner, 1..4)).prop_map(|(v, kids)| Node::Inner(v, kids))
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    #[test]
    fn alpha_beta_agrees_with_minimax_in_fewer_nodes_and_both_match_the_reference(
        node in arb_tree(), maximizing in any::<bool>(), depth in prop::option::of(1u32..5),
    ) {
        let tree = parse(&node.json()).unwrap();
        let game = tree.game(maximizing, depth).unwrap();
        let limits = Limits { max_depth: game.max_depth(), ..Limits::default() };
        let mm = minimax(&game, limits).unwrap();
        let ab = alpha_beta(&game, limits).unwrap();
        let sign = if maximizing { 1 } else { -1 };
        prop_assert_eq!(mm.score.value(), node.reference(sign, depth.unwrap_or(u32::MAX)));
        prop_assert_eq!(ab.score, mm.score);
        prop_assert_eq!(ab.best_move, mm.best_move);
        prop_assert!(ab.nodes <= mm.nodes);
        // The best move's root score is the position's score, and no root
        // move scores better.
        if let Some(best) = mm.best_move {
            let root = mm.root_moves.iter().find(|m| m.mv == best).unwrap();
            prop_assert_eq!(root.score, mm.score);
            prop_assert!(mm.root_moves.iter().all(|m| m.score <= mm.score));
        }
        // `first` answers the first of the equally good moves; `random`
        // answers every one of them (over enough seeds), and no other.
        let equal = node.best_moves(sign, depth.unwrap_or(u32::MAX));
        let pick = |tie_break, seed| choose(&mm.root_moves, tie_break, 0.0, &mut fastrand::Rng::with_seed(seed));
        prop_assert_eq!(pick(TieBreak::First, 0).map(|c| c.mv), equal.first().copied());
        let random: BTreeSet<u32> = (0..64).filter_map(|seed| pick(TieBreak::Random, seed)).map(|c| c.mv).collect();
        prop_assert_eq!(random, equal);
        // The engine deepens one ply at a time with a table shared by every
        // iteration: still exactly minimax's score at the depth asked, with
        // its line a best one.
        let mut table = Table::with_bytes(1 << 16);
        let en = engine(&game, limits, &mut table, EngineOptions::default(), &mut |_| {}).unwrap();
        prop_assert_eq!(en.score, mm.score);
        prop_assert!(en.exact || !mm.exact);
        // Its move earns the score (the first such move when nothing was cut).
        if let Some(best) = en.best_move {
            prop_assert_eq!(mm.root_moves.iter().find(|m| m.mv == best).map(|m| m.score), Some(mm.score));
            if en.exact {
                prop_assert_eq!(en.best_move, mm.best_move);
            }
        }
        // Every root move's score, whether the engine scores the moves
        // first or deepens first.
        let expected: Vec<_> = mm.root_moves.iter().map(|m| (m.mv, Some(m.score))).collect();
        for deepen_first in [false, true] {
            let options = EngineOptions { score_root_moves: true, deepen_first, ..EngineOptions::default() };
            let all = engine(&game, limits, &mut table, options, &mut |_| {}).unwrap();
            let scores: Vec<_> = all.root_moves.iter().map(|m| (m.mv, m.score)).collect();
            prop_assert_eq!(&scores, &expected);
            prop_assert_eq!(all.score, mm.score);
        }
    }
}

//! The provers: victory by continuous fours (VCF), the threat-space search
//! whose every step leaves the defender one reply, and victory by
//! continuous threats (VCT), which adds the threes.
//!
//! A four threatens five on one square. If the defender cannot make five
//! first, every move but that square loses at once, so the defender's
//! reply is forced; a four that threatens five on two squares (an open
//! four, a double four) cannot be met at all. A line of such fours that
//! ends in five is therefore a forced win, whatever the defender's other
//! moves: nothing in it rests on the moves the engine leaves unsearched.
//! Where the defender's forced block makes a four of its own, the
//! attacker must block it in turn, and the line goes on only if that
//! block is a four too.
//!
//! A three is a quieter threat: a move after which the attacker would win
//! by continuous fours were the defender to pass (Allis's threat-space
//! search, seen as Thomsen's λ-search of order two). The defender then has
//! many replies, and a proof must answer every one that could matter.
//! Which do is worked out from the fours the three threatens (see
//! [`refutations`]): a defender stone elsewhere leaves every step of those
//! fours as forced as before, so that the attacker wins by playing them.
//! Each defender move that may refute them is played, and the attacker
//! must win again after it, by fours or by threats, within one three
//! fewer. A defender who wins by fours first refutes the three at once.
//!
//! Both searches deepen iteratively (VCF on its fours, VCT on its
//! threes), within a budget of positions, remembering the positions
//! proven to fail. A line of fours is the shortest by continuous fours; a
//! proof by threats states the most plies any defence lasts in it, an
//! upper bound on the plies to the end (a win by other means may come
//! sooner). A search that runs out of its positions proves nothing.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use super::rules::{Board, MAX_CELLS, STRIDE};

/// A forced line, from the side to move's first stone to the five.
pub type Line = Vec<usize>;

/// A proven win: a line the defender may choose to follow (its longest),
/// and the most plies to the five whatever the defender plays.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Proof {
    /// From the side to move's first stone to the five.
    pub line: Line,
    /// The most plies to the five, at least the line's length.
    pub plies: usize,
}

impl Proof {
    /// The proof of a line every defender move of which is forced.
    fn forced(line: Line) -> Proof {
        Proof { plies: line.len(), line }
    }

    /// This proof after `moves` played before it.
    fn after(self, moves: &[usize]) -> Proof {
        let mut line = moves.to_vec();
        line.extend(self.line);
        Proof { line, plies: self.plies + moves.len() }
    }
}

/// The hash of the provers' memories: their keys are Zobrist keys, random
/// already, and need no more than a multiply to spread over the buckets
/// (the standard library's SipHash took some 5% of a prover's time).
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.write_u64(u64::from(byte));
        }
    }

    fn write_u32(&mut self, n: u32) {
        self.write_u64(u64::from(n));
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x517c_c1b7_2722_0a95);
    }
}

/// A set of positions (with a count left) in a prover's memory.
type Memory = HashSet<(u64, u32), BuildHasherDefault<KeyHasher>>;

/// The positions a prover may visit, at most.
pub const ROOT_BUDGET: u64 = 5_000;
/// The most fours in a line looked for.
pub const MAX_FOURS: u32 = 12;
/// The most threes in a proof by threats looked for.
pub const MAX_THREES: u32 = 8;
/// The threes tried in a position, the best by the threats they make and
/// stop: the attacker's choices need not all be tried for a proof to
/// hold.
const THREE_WIDTH: usize = 10;
/// The positions a search for a win by fours within a proof by threats
/// may visit.
const THREAT_BUDGET: u64 = 1_000;
/// The positions the searches that tell a three may visit: for the fours
/// it threatens (an open four or a four-three comes within a few
/// positions), and for a win by fours of the defender's that would refute
/// it at once. A three whose fours lie deeper is not tried, and a
/// defender's win by fours not found here is met all the same among the
/// replies (see [`refutations`]): the budget trades only how many proofs
/// are found within a budget, never whether one holds.
const THREE_BUDGET: u64 = 10;

/// When a prover stops before its budget: the request's cancel flag is
/// set, or its deadline has passed. A halted search proves nothing more
/// (it returns what it proved before), like one out of positions.
#[derive(Clone, Copy, Debug, Default)]
pub struct Halt<'a> {
    /// Set when the request is cancelled.
    pub cancel: Option<&'a AtomicBool>,
    /// When the provers' share of the time budget ends.
    pub deadline: Option<Instant>,
}

impl Halt<'_> {
    /// True when the search must stop now.
    fn now(&self) -> bool {
        self.cancel.is_some_and(|cancel| cancel.load(Ordering::Relaxed))
            || self.deadline.is_some_and(|deadline| Instant::now() >= deadline)
    }

    /// Sets `halted` once the search must stop, looking every
    /// [`HALT_INTERVAL`] positions (`nodes` the positions visited).
    fn look(&self, nodes: u64, halted: &mut bool) {
        if nodes.is_multiple_of(HALT_INTERVAL) && !*halted && self.now() {
            *halted = true;
        }
    }
}

/// The positions between two looks at a [`Halt`]: a few hundred
/// microseconds of a prover's search.
const HALT_INTERVAL: u64 = 1 << 10;

/// A VCF search within a budget of positions.
struct Prover<'a> {
    nodes: u64,
    budget: u64,
    halt: Halt<'a>,
    /// Set once the halt was seen.
    halted: bool,
    /// Positions (with the fours left) proven to have no VCF for the side
    /// to move, which is the same player throughout one prover's life.
    failed: Memory,
}

impl<'a> Prover<'a> {
    fn new(halt: Halt<'a>) -> Prover<'a> {
        Prover { nodes: 0, budget: 0, halt, halted: false, failed: Memory::default() }
    }

    /// Counts a position; true when the search must stop (out of
    /// positions, or halted).
    fn visit(&mut self) -> bool {
        self.nodes += 1;
        self.halt.look(self.nodes, &mut self.halted);
        self.stopped()
    }

    fn stopped(&self) -> bool {
        self.halted || self.nodes > self.budget
    }

    /// The shortest win by continuous fours, within `budget` more
    /// positions.
    fn prove(&mut self, board: &Board, budget: u64) -> Option<Line> {
        // A line of fours starts with a four, or a five: in a window of
        // five that holds three or four of the attacker's stones and none
        // of the defender's.
        if self.halted || board.over() || !board.may_threaten(board.to_move()) {
            return None;
        }
        self.budget = self.nodes + budget;
        for fours in 0..=MAX_FOURS {
            if let Some(line) = self.search(board, fours) {
                return Some(line);
            }
            if self.stopped() {
                return None;
            }
        }
        None
    }

    fn search(&mut self, board: &Board, fours: u32) -> Option<Line> {
        if self.visit() {
            return None;
        }
        let me = board.to_move();
        if let Some(&win) = board.winning_squares(me).first() {
            return Some(vec![win]);
        }
        if fours == 0 || self.failed.contains(&(board.key(), fours)) {
            return None;
        }
        let theirs = board.winning_squares(me.other());
        let tries: Vec<usize> = match theirs[..] {
            [] => board.four_squares(me).collect(),
            // The opponent's four must be blocked first.
            [only] => vec![only],
            _ => return None,
        };
        for cell in tries {
            let next = board.play(cell);
            if next.winner().is_some() {
                return Some(vec![cell]);
            }
            let threats = next.winning_squares(me);
            if threats.is_empty() || next.full() || next.can_win(me.other()) {
                continue;
            }
            // The defender blocks one square; with two, the other makes five.
            if let [block, five, ..] = threats[..] {
                return Some(vec![cell, block, five]);
            }
            let block = threats[0];
            // The position after the four is not needed once blocked.
            let mut after = next;
            after.put(block);
            if after.over() {
                continue;
            }
            if let Some(rest) = self.search(&after, fours - 1) {
                let mut line = vec![cell, block];
                line.extend(rest);
                return Some(line);
            }
            if self.stopped() {
                return None;
            }
        }
        if !self.stopped() {
            self.failed.insert((board.key(), fours));
        }
        None
    }
}

/// The shortest win by continuous fours for the side to move (a five at
/// once included), found within `budget` positions: the line from its
/// first stone to the five, every defender reply in it forced.
pub fn vcf(board: &Board, budget: u64) -> Option<Line> {
    Prover::new(Halt::default()).prove(board, budget)
}

/// The squares of the defender (to move on `board`) that may refute
/// `threat`, a win by continuous fours the attacker would have were the
/// defender to pass. A defender stone on any other square leaves every
/// step of `threat` as it was, so that the attacker, playing it, wins:
///
/// - the attacker's stones land where they did (the stone is on none of
///   the line's squares), and each four threatens five where it did (a
///   defender stone takes an attacker's five away only by standing on
///   it; the squares where each four threatens five are counted);
/// - the defender makes no five, nor a four the line leaves unanswered,
///   that it did not make before: such a five would lie in a window of
///   five holding the stone, three more of the defender's stones (on the
///   board or the line's blocks) and no attacker stone; the squares in a
///   window with no attacker stone and three or four of the defender's,
///   once the line's blocks are on the board, are counted.
///
/// The squares are returned the best for the defender first.
pub fn refutations(board: &Board, threat: &[usize]) -> Vec<usize> {
    let defender = board.to_move();
    let attacker = defender.other();
    let mut counted = [false; MAX_CELLS];
    let mut line = board.clone();
    line.set_to_move(attacker);
    let mut blocks = board.clone();
    for (i, &cell) in threat.iter().enumerate() {
        counted[cell] = true;
        if line.winner().is_some() || line.cell(cell).is_some() {
            break;
        }
        line = line.play(cell);
        if i % 2 == 0 {
            if line.winner().is_none() {
                for five in line.winning_squares(attacker) {
                    counted[five] = true;
                }
            }
        } else {
            blocks.place(cell, defender);
        }
    }
    for cell in blocks.near_empty() {
        if blocks.may_make_four(cell, defender) || blocks.may_make_five(cell, defender) {
            counted[cell] = true;
        }
    }
    let mut squares: Vec<(usize, i32)> = (0..board.size())
        .flat_map(|row| (0..board.size()).map(move |column| row * STRIDE + column))
        .filter(|&cell| counted[cell] && board.cell(cell).is_none())
        .map(|cell| (cell, board.gain(cell, defender)))
        .collect();
    squares.sort_unstable_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    squares.into_iter().map(|(cell, _)| cell).collect()
}

/// A VCT search within a budget of positions (its fours' searches
/// included).
struct Threats<'a> {
    /// The attacker's wins by fours.
    fours: Prover<'a>,
    /// The defender's wins by fours, which refute a three.
    counters: Prover<'a>,
    halt: Halt<'a>,
    halted: bool,
    nodes: u64,
    budget: u64,
    /// Positions (with the threes left) proven to have no VCT.
    failed: Memory,
    /// Positions proven won, with their proofs.
    won: HashMap<u64, Proof, BuildHasherDefault<KeyHasher>>,
    /// The attacker's moves to try first where they threaten: those of a
    /// proof found in a position much like this one.
    killers: Vec<usize>,
}

impl<'a> Threats<'a> {
    fn new(budget: u64, halt: Halt<'a>) -> Threats<'a> {
        Threats {
            fours: Prover::new(halt),
            counters: Prover::new(halt),
            halt,
            halted: false,
            nodes: 0,
            budget,
            failed: Memory::default(),
            won: HashMap::default(),
            killers: Vec::new(),
        }
    }

    /// The positions visited so far.
    fn spent(&self) -> u64 {
        self.nodes + self.fours.nodes + self.counters.nodes
    }

    fn out(&self) -> bool {
        self.halted || self.fours.halted || self.counters.halted || self.spent() > self.budget
    }

    /// A share of what is left, at most `most`, for one search by fours.
    fn share(&self, most: u64) -> u64 {
        most.min(self.budget.saturating_sub(self.spent()))
    }

    /// Gives the search `more` positions beyond those it has visited: a
    /// search resumed so keeps what it proved and what it found to fail,
    /// and goes on where it stopped.
    fn extend(&mut self, more: u64) {
        self.budget = self.spent().saturating_add(more);
    }

    /// A win by fours, else by threats with the fewest threes.
    fn prove(&mut self, board: &Board) -> Option<Proof> {
        if board.over() {
            return None;
        }
        if let Some(line) = self.fours.prove(board, self.share(u64::MAX) / 4) {
            return Some(Proof::forced(line));
        }
        for threes in 1..=MAX_THREES {
            if let Some(proof) = self.attack(board, threes) {
                return Some(proof);
            }
            if self.out() {
                return None;
            }
        }
        None
    }

    /// The attacker's moves that threaten: its fours, then the threes
    /// that make and stop the most threats ([`THREE_WIDTH`]).
    fn threat_moves(board: &Board) -> Vec<usize> {
        let me = board.to_move();
        let mut fours = Vec::new();
        let mut threes = Vec::new();
        for cell in board.near_empty() {
            if board.may_make_four(cell, me) {
                fours.push(cell);
            } else if board.may_make_three(cell, me) {
                threes.push((cell, board.gain(cell, me)));
            }
        }
        threes.sort_unstable_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        fours.extend(threes.into_iter().take(THREE_WIDTH).map(|(cell, _)| cell));
        fours
    }

    /// `moves` with the killers among them first, in the killers' order.
    fn ordered(&self, mut moves: Vec<usize>) -> Vec<usize> {
        let mut at = 0;
        for &killer in &self.killers {
            if let Some(i) = moves[at..].iter().position(|&cell| cell == killer) {
                moves[at..=at + i].rotate_right(1);
                at += 1;
            }
        }
        moves
    }

    /// A win for the side to move by continuous fours, or by threats with
    /// at most `threes` threes.
    fn attack(&mut self, board: &Board, threes: u32) -> Option<Proof> {
        self.nodes += 1;
        self.halt.look(self.nodes, &mut self.halted);
        if self.out() {
            return None;
        }
        let me = board.to_move();
        if let Some(&win) = board.winning_squares(me).first() {
            return Some(Proof::forced(vec![win]));
        }
        if let Some(line) = self.fours.prove(board, self.share(THREAT_BUDGET)) {
            return Some(Proof::forced(line));
        }
        if threes == 0 || self.failed.contains(&(board.key(), threes)) {
            return None;
        }
        if let Some(proof) = self.won.get(&board.key()) {
            return Some(proof.clone());
        }
        // The opponent's four must be blocked first.
        let tries = match board.winning_squares(me.other())[..] {
            [] => self.ordered(Threats::threat_moves(board)),
            [only] => vec![only],
            _ => return None,
        };
        for cell in tries {
            if let Some(proof) = self.threaten(board, cell, threes) {
                self.won.insert(board.key(), proof.clone());
                return Some(proof);
            }
            if self.out() {
                return None;
            }
        }
        if !self.out() {
            self.failed.insert((board.key(), threes));
        }
        None
    }

    /// A win that starts with the side to move's stone on `cell`, with at
    /// most `threes` threes (the stone itself counted).
    fn threaten(&mut self, board: &Board, cell: usize, threes: u32) -> Option<Proof> {
        let me = board.to_move();
        let next = board.play(cell);
        if next.winner().is_some() {
            return Some(Proof::forced(vec![cell]));
        }
        if next.full() || next.can_win(me.other()) {
            return None;
        }
        match next.winning_squares(me)[..] {
            // The defender blocks one square; with two, the other makes five.
            [block, five, ..] => return Some(Proof::forced(vec![cell, block, five])),
            [block] => {
                let mut after = next;
                after.put(block);
                if after.over() {
                    return None;
                }
                return Some(self.attack(&after, threes)?.after(&[cell, block]));
            }
            [] => {}
        }
        // A three: the attacker wins by fours if the defender passes.
        let mut passed = next.clone();
        passed.set_to_move(me);
        let threat = self.fours.prove(&passed, self.share(THREE_BUDGET))?;
        // A defender who wins by fours first refutes it.
        if self.counters.prove(&next, self.share(THREE_BUDGET)).is_some() {
            return None;
        }
        // A defence elsewhere meets the fours threatened.
        let mut plies = 2 + threat.len();
        let mut longest: Option<Proof> = None;
        let replies = refutations(&next, &threat);
        for reply in replies {
            let after = next.play(reply);
            if after.over() {
                return None;
            }
            let rest = self.attack(&after, threes - 1)?.after(&[cell, reply]);
            plies = plies.max(rest.plies);
            if longest.as_ref().is_none_or(|l| rest.plies > l.plies) {
                longest = Some(rest);
            }
        }
        let line = longest.map_or_else(|| vec![cell], |l| l.line);
        Some(Proof { line, plies })
    }
}

/// A win for the side to move by continuous fours or, failing that, by
/// threats (fours and threes), found within `budget` positions. A win by
/// fours is the shortest such; a win by threats has the fewest threes.
pub fn vct(board: &Board, budget: u64) -> Option<Proof> {
    vct_until(board, budget, Halt::default())
}

/// [`vct`], stopping early at `halt`.
pub fn vct_until(board: &Board, budget: u64, halt: Halt<'_>) -> Option<Proof> {
    Threats::new(budget, halt).prove(board)
}

/// A proven loss for the side to move, within `budget` positions: the
/// opponent makes five on two squares (the line: a block, the five), or
/// on one square that the side to move must take, after which the
/// opponent wins by continuous fours (the line: that block, then the
/// opponent's win). Every other move of the side to move loses at once.
pub fn forced_loss(board: &Board, budget: u64) -> Option<Line> {
    if board.over() || board.can_win(board.to_move()) {
        return None;
    }
    match board.winning_squares(board.to_move().other())[..] {
        [block, five, ..] => Some(vec![block, five]),
        [block] => {
            let after = board.play(block);
            let mut line = vec![block];
            line.extend(vcf(&after, budget)?);
            Some(line)
        }
        [] => None,
    }
}

/// The opponent's threat: a win by fours or threats it would have were
/// the side to move to pass (found within `budget` positions), and the
/// squares that may meet it, the likeliest first: those of its line, the
/// squares its fours threaten five on, and the side to move's own fours
/// and near-fours (see [`refutations`]; for a threat with threes the
/// squares are where to look first, not all that may meet it).
pub fn threat_against(board: &Board, budget: u64) -> Option<(Proof, Vec<usize>)> {
    threat_until(board, budget, Halt::default())
}

/// [`threat_against`], stopping early at `halt`.
fn threat_until(board: &Board, budget: u64, halt: Halt<'_>) -> Option<(Proof, Vec<usize>)> {
    if board.over() || board.can_win(board.to_move()) || board.can_win(board.to_move().other()) {
        return None;
    }
    let mut passed = board.clone();
    passed.set_to_move(board.to_move().other());
    let proof = vct_until(&passed, budget, halt)?;
    let squares = refutations(board, &proof.line);
    Some((proof, squares))
}

/// True when the side to move on `board` (the opponent of the one who
/// just moved) has a single square to block a four on, after which the
/// four's maker still faces a threat (see [`threat_against`], searched
/// within `budget` positions) or a four: the four only put the threat off.
fn delays(board: &Board, budget: u64, halt: Halt<'_>) -> bool {
    let [block] = board.winning_squares(board.to_move().other())[..] else { return false };
    let after = board.play(block);
    !after.over() && (after.can_win(after.to_move().other()) || threat_until(&after, budget, halt).is_some())
}

/// The side to move's moves that may hold against the opponent's threat
/// (see [`threat_against`]): the squares that may meet it, the side to
/// move's fours and `others`, less those after which the opponent is
/// proven to win all the same, the likeliest first. The threat is looked
/// for within `look` positions; the moves are then checked, within
/// `budget` positions more, in rounds, each giving every move's search
/// (resumed where the round before left it, its memory kept) four times
/// the positions of the one before, while more than one is left and the
/// budget allows (the last round shares out what is left of the budget,
/// where that is more than the round before had): where a round proves
/// every move left lost, the moves of the round before are kept (the ones
/// that resist longest). Each search tries first, where they threaten,
/// the attacker's moves of the last refutation found (a killer heuristic:
/// most answers are refuted alike). A four that only puts the threat off
/// (played off the squares that may meet the threat, and after its forced
/// block the threat, or a four, is still there) is dropped where other
/// moves hold; where after some moves the opponent's search ran out of
/// moves to try rather than of positions, those alone are kept, as the
/// likelier to hold. What is left is not proven to hold: the engine's
/// search chooses among it. `None` where the opponent threatens no proven
/// win, or every move tried loses at the first round. At `halt` the
/// checks stop, and the moves not yet proven lost are kept.
pub fn defences(board: &Board, others: &[usize], look: u64, budget: u64, halt: Halt<'_>) -> Option<Vec<usize>> {
    let (_, squares) = threat_until(board, look, halt)?;
    let me = board.to_move();
    // The squares that may meet the threat: a four on one of them may
    // change the threat, not only put it off.
    let mut meets = [false; MAX_CELLS];
    for &cell in &squares {
        meets[cell] = true;
    }
    let mut tried = [false; MAX_CELLS];
    let fours: Vec<usize> = board.four_squares(me).collect();
    let mut left: Vec<usize> = squares
        .into_iter()
        .chain(fours)
        .chain(others.iter().copied())
        .filter(|&cell| board.cell(cell).is_none() && !std::mem::replace(&mut tried[cell], true))
        .collect();
    let mut spent = 0;
    let mut each = (budget / 48).max(100);
    let mut first = true;
    let mut last = false;
    let mut killers = Vec::new();
    // Each move's search, resumed from round to round with more positions.
    let mut searches: HashMap<usize, Threats<'_>, BuildHasherDefault<KeyHasher>> = HashMap::default();
    while left.len() > 1 || first {
        if halt.now() {
            break;
        }
        if !first && spent + each * left.len() as u64 > budget {
            // A last round with what is left of the budget, shared out,
            // where it is worth one.
            let rest = budget.saturating_sub(spent) / left.len() as u64;
            if rest <= each / 4 {
                break;
            }
            each = rest;
            last = true;
        }
        let mut holding = Vec::new();
        let mut safe = Vec::new();
        let mut delaying = Vec::new();
        for &cell in &left {
            let after = board.play(cell);
            // Once halted, the moves left unchecked are kept as they are:
            // each new search would visit positions before it saw the halt.
            if after.winner().is_some() || halt.now() {
                holding.push(cell);
                continue;
            }
            let search = searches.entry(cell).or_insert_with(|| Threats::new(0, halt));
            let before = search.spent();
            search.extend(each);
            search.killers.clone_from(&killers);
            let proof = search.prove(&after);
            let finished = !search.out();
            spent += (search.spent() - before).min(each);
            if let Some(proof) = proof {
                // The attacker's moves of this refutation, to try first
                // against the next answers: most are refuted alike.
                killers = proof.line.iter().step_by(2).copied().collect();
                searches.remove(&cell);
                continue;
            }
            if first && !meets[cell] && delays(&after, each, halt) {
                delaying.push(cell);
            } else {
                holding.push(cell);
                if finished {
                    safe.push(cell);
                }
            }
        }
        if holding.is_empty() {
            holding = std::mem::take(&mut delaying);
        }
        match (holding.is_empty(), first) {
            (true, true) => return None,
            (true, false) => break,
            (false, _) => left = holding,
        }
        // A move after which the opponent's search ran out of moves to try,
        // not of positions, is likelier to hold than one it could not finish.
        if !safe.is_empty() {
            left = safe;
        }
        first = false;
        each *= 4;
        if last {
            break;
        }
    }
    Some(left)
}

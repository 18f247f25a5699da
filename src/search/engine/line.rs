//! The principal line: walked after a search, one null window per move
//! tried, as minimax would choose it (the solver driver), or along the
//! moves the search found (the heuristic driver).

use super::picker::table_move;
use super::*;

impl<'a, G: Solver, S: Packed, O: Oracle<G>> Engine<'a, G, S, O> {
    /// The line of an iteration just finished at `limit` with `score`, and
    /// `complete` when no line of it was cut.
    pub(super) fn iteration_line(&mut self, root: &G, score: S, limit: u32, complete: bool) -> Vec<G::Move> {
        // An exact result of the solver driver gives the first best line,
        // as minimax does; a cut one, or the heuristic driver's, leads with
        // the move the search found good enough. (For the heuristic
        // driver, whose outcomes tie often, proving that a move earlier in
        // the game's order ties the best one costs a search of its own as
        // large as the whole iteration.)
        let first = if complete && !self.scout { None } else { self.proven_best };
        // A complete iteration's score holds at every greater depth, but a
        // move its search pruned may keep that score only at the
        // iteration's own depth: the line is walked at the depth asked (to
        // the end when none was), as minimax would choose there.
        let walk = if complete { self.target } else { limit };
        match &self.lines {
            // The search's own line: the first best line in its order of
            // moves (the game's, unless its hints reorder them).
            Some(lines) => lines.root(),
            None => self.line(root, score, walk, first),
        }
    }

    /// The principal variation of a position whose score at `limit` is
    /// `score`: at each step, the first move in the game's order that keeps
    /// the score, proved by one null-window test per move tried; at the
    /// root, `first` is tried before the others, and below it, for the
    /// heuristic driver, the table's move for the position.
    pub(super) fn line(&mut self, root: &G, score: S, limit: u32, first: Option<G::Move>) -> Vec<G::Move> {
        let saved = self.limit;
        self.limit = limit;
        let mut line = Vec::new();
        let mut position = root.clone();
        let mut target = score;
        let mut ply = 0;
        while position.outcome().is_none() && ply < limit && line.len() < MAX_LINE && self.stop == Stop::Running {
            let mut next = None;
            let preferred = match ply {
                0 => first,
                _ if self.scout => self.table_choice(&position),
                _ => None,
            };
            for mv in preferred.into_iter().chain(position.moves().filter(|&mv| Some(mv) != preferred)) {
                let child = position.play(mv);
                let keeps = match child.outcome() {
                    Some(value) => -S::new(value, ply + 1) >= target,
                    None if ply + 1 >= limit => -cut_score::<G, S>(&child, ply + 1) >= target,
                    None => -self.node(&child, ply + 1, -target, -target.below()) >= target,
                };
                if self.stop != Stop::Running {
                    break;
                }
                if keeps {
                    next = Some((mv, child));
                    break;
                }
            }
            let Some((mv, child)) = next else { break };
            line.push(mv);
            position = child;
            target = -target;
            ply += 1;
        }
        self.limit = saved;
        line
    }

    /// The move the table holds for `position`, if it is one of its moves.
    fn table_choice(&self, position: &G) -> Option<G::Move> {
        let hit = self.table.as_deref()?.probe(position.key()?)?;
        if hit.mv == NO_MOVE {
            return None;
        }
        position.moves().find(|&mv| table_move::<G>(mv) == hit.mv)
    }
}

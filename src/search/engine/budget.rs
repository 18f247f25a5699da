//! The budget: the only code that stops a search, when its time, its
//! positions, an allowance of positions or the caller says so.

use super::*;

/// Nodes between two looks at the clock and the cancel flag.
pub(super) const CHECK_INTERVAL: u64 = 1 << 12;

#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Stop {
    Running,
    /// The allowance of one test (`Engine::allowance`) is spent; the
    /// search goes on with another.
    Allowance,
    Deadline,
    Cancelled,
}

impl<'a, G: Solver, S: Packed, O: Oracle<G>> Engine<'a, G, S, O> {
    /// Runs `work` with at most `positions` more positions (`u64::MAX`:
    /// no allowance). A spent allowance stops `work` only: the search goes
    /// on after it.
    pub(super) fn with_allowance<T>(&mut self, positions: u64, work: impl FnOnce(&mut Self) -> T) -> T {
        self.allowance = self.nodes.saturating_add(positions);
        let done = work(self);
        self.allowance = u64::MAX;
        if self.stop == Stop::Allowance {
            self.stop = Stop::Running;
        }
        done
    }

    #[inline(always)]
    pub(super) fn stopped(&mut self) -> bool {
        self.nodes >= self.next_check && self.poll()
    }

    #[cold]
    pub(super) fn poll(&mut self) -> bool {
        if self.stop == Stop::Running {
            if self.cancel.is_some_and(|flag| flag.load(Ordering::Relaxed)) || self.nodes > self.max_nodes {
                self.stop = Stop::Cancelled;
            } else if self.deadline_active
                && (self.nodes > self.node_budget || self.deadline.is_some_and(|d| Instant::now() >= d))
            {
                self.stop = Stop::Deadline;
            } else if self.nodes > self.allowance {
                self.stop = Stop::Allowance;
            }
        }
        self.next_check = if self.stop == Stop::Running { self.nodes + CHECK_INTERVAL } else { 0 };
        self.stop != Stop::Running
    }
}

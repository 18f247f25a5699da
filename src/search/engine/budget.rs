//! The budget: the only code that stops a search, when its time, its
//! positions, an allowance of positions or the caller says so.

use super::*;

/// Nodes between two checks of the position budget, the allowance and the
/// node cap: a fixed count, so that where a search stops by positions
/// does not depend on the machine's speed.
pub(super) const CHECK_INTERVAL: u64 = 1 << 12;
/// The clock and the cancel flag are looked at more often, every so many
/// nodes (see `Engine::clock_interval`): from `CLOCK_INTERVAL_MIN` up to
/// `CHECK_INTERVAL`, halved while two looks are more than
/// `CLOCK_GAP_MAX` apart and doubled while they are less than
/// `CLOCK_GAP_MIN` apart. A deadline is then kept to a millisecond or two
/// where a node costs most (a 15x15 Gomoku node, with its threat checks,
/// costs some 15 to 20 microseconds: 4,096 of them are 60 to 80 ms),
/// while where nodes are cheap the clock is read no more often than before.
pub(super) const CLOCK_INTERVAL_START: u64 = 1 << 8;
const CLOCK_INTERVAL_MIN: u64 = 1 << 4;
const CLOCK_GAP_MIN: Duration = Duration::from_micros(250);
const CLOCK_GAP_MAX: Duration = Duration::from_millis(2);

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
            // The counts on their fixed schedule, the clock on its own.
            let counts = self.nodes >= self.next_count;
            if self.cancel.is_some_and(|flag| flag.load(Ordering::Relaxed)) || (counts && self.nodes > self.max_nodes) {
                self.stop = Stop::Cancelled;
            } else if self.deadline_active && ((counts && self.nodes > self.node_budget) || self.past_deadline()) {
                self.stop = Stop::Deadline;
            } else if counts && self.nodes > self.allowance {
                self.stop = Stop::Allowance;
            }
            if counts {
                self.next_count = self.nodes + CHECK_INTERVAL;
            }
        }
        self.next_check =
            if self.stop == Stop::Running { self.next_count.min(self.nodes + self.clock_interval) } else { 0 };
        self.stop != Stop::Running
    }

    /// True once the deadline has passed; the clock's schedule follows
    /// the time between two looks (see `CLOCK_INTERVAL_START`).
    fn past_deadline(&mut self) -> bool {
        let Some(deadline) = self.deadline else { return false };
        let now = Instant::now();
        if let Some(gap) = self.last_clock.map(|last| now.saturating_duration_since(last)) {
            if gap > CLOCK_GAP_MAX {
                self.clock_interval = (self.clock_interval / 2).max(CLOCK_INTERVAL_MIN);
            } else if gap < CLOCK_GAP_MIN {
                self.clock_interval = (self.clock_interval * 2).min(CHECK_INTERVAL);
            }
        }
        self.last_clock = Some(now);
        now >= deadline
    }

    /// Checks everything at the next node (see [`Self::poll`]).
    pub(super) fn check_now(&mut self) {
        self.next_check = self.nodes;
        self.next_count = self.nodes;
    }
}

//! The principal-variation table: the lines of best play a search keeps
//! while it runs (the engine's walk of the line after a search is
//! `engine/line.rs`).

/// The principal variation of every open node, kept in O(1) per node however
/// deep the tree, without copying lines.
///
/// PvTable live in rows of moves indexed by ply from the root. The node open at
/// ply `p` owns the row that starts at `rows[p]`: the move it plays at index
/// `p`, then the line of its best child so far, up to index `ends[p]`. When a
/// child that is itself a node (at ply `p + 1`) becomes the best, its whole
/// line is already in its row, so the two plies just exchange rows: the
/// child's line moves up, and the row it leaves is free for the next child to
/// write into. Each ply owns a different row, so no node writes into another
/// open node's line.
///
/// The rows are one flat buffer, `width` rows of `width` moves, with `width`
/// more than the deepest ply seen so far; it widens when a line goes deeper.
pub(super) struct PvTable<M> {
    /// `width * width` moves, or none when the root has no move to write.
    moves: Vec<M>,
    width: usize,
    /// Per ply, `width` of them: where the row it owns starts in `moves`,
    /// and where its line ends (a ply).
    rows: Vec<usize>,
    ends: Vec<usize>,
}

/// The widest buffer allocated up front (16 Mi moves): enough for the
/// deepest tree the service accepts, sized exactly from the game's hint.
/// Deeper searches widen it as they go.
const MAX_INITIAL_WIDTH: usize = 4096;

impl<M: Copy> PvTable<M> {
    /// Room for lines of up to `plies` moves without widening. `filler` is
    /// any move, to fill the buffer with (never read: lines only cover what
    /// was written); `None` when the root has no move, so no line is written.
    pub(super) fn new(plies: usize, filler: Option<M>) -> Self {
        let width = (plies + 1).clamp(2, MAX_INITIAL_WIDTH);
        PvTable {
            moves: filler.map_or_else(Vec::new, |mv| vec![mv; width * width]),
            width,
            rows: (0..width).map(|row| row * width).collect(),
            ends: vec![0; width],
        }
    }

    /// Called when a node opens at `ply`, before its children write at `ply + 1`.
    #[inline(always)]
    pub(super) fn open(&mut self, ply: usize) {
        if ply + 1 >= self.width {
            self.widen(ply + 2);
        }
    }

    /// The node open at `ply` has a new best move, `mv`, to a position where
    /// the search stops.
    #[inline(always)]
    pub(super) fn best_leaf(&mut self, ply: usize, mv: M) {
        self.ends[ply] = ply + 1;
        self.write(self.rows[ply], ply, mv);
    }

    /// The node open at `ply` has a new best move, `mv`, to the node that
    /// just finished at `ply + 1`: the two exchange rows.
    #[inline(always)]
    pub(super) fn best_node(&mut self, ply: usize, mv: M) {
        self.rows.swap(ply, ply + 1);
        self.ends[ply] = self.ends[ply + 1];
        self.write(self.rows[ply], ply, mv);
    }

    /// The node at `ply` had no move, so no line.
    pub(super) fn none(&mut self, ply: usize) {
        self.ends[ply] = ply;
    }

    #[inline(always)]
    fn write(&mut self, row: usize, ply: usize, mv: M) {
        self.moves[row + ply] = mv;
    }

    /// Moves in the line of the node that finished at `ply`.
    #[inline(always)]
    pub(super) fn len(&self, ply: usize) -> usize {
        self.ends[ply] - ply
    }

    /// The line of the root, once it has finished.
    pub(super) fn root(&self) -> Vec<M> {
        let (start, end) = (self.rows[0], self.ends[0]);
        self.moves.get(start..start + end).map_or_else(Vec::new, <[M]>::to_vec)
    }

    /// Makes the rows at least `width` long, and as many.
    #[cold]
    fn widen(&mut self, width: usize) {
        let width = width.max(2 * self.width);
        if let Some(&filler) = self.moves.first() {
            let mut moves = vec![filler; width * width];
            for (row, old) in self.moves.chunks_exact(self.width).enumerate() {
                moves[row * width..][..self.width].copy_from_slice(old);
            }
            self.moves = moves;
        }
        for start in &mut self.rows {
            *start = *start / self.width * width;
        }
        self.rows.extend((self.width..width).map(|row| row * width));
        self.ends.resize(width, 0);
        self.width = width;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_survives_widening_and_the_siblings_searched_after_it() {
        let mut lines = PvTable::new(1, Some(0));
        for ply in 0..10 {
            lines.open(ply);
        }
        // The node at ply 9 ends the line; each node above takes its child's
        // line, then searches a worse sibling that writes its own line.
        lines.best_leaf(9, 90);
        for ply in (0..9).rev() {
            lines.best_node(ply, ply * 10);
            lines.open(ply + 1);
            lines.best_leaf(ply + 1, 999);
        }
        assert_eq!(lines.len(0), 10);
        assert_eq!(lines.root(), (0..10).map(|ply| ply * 10).collect::<Vec<_>>());
    }
}

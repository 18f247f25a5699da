//! The board patterns of the fitted evaluation (as in Buro's Logistello):
//! each pattern is a line or block of squares read as a ternary number
//! (0 empty, 1 the side to move's disc, 2 the opponent's), its instances
//! the distinct images of it under the eight symmetries of the board, all
//! sharing one weight table. A pattern that one of the symmetries maps onto
//! itself (a row reversed, a corner block transposed) has equal weights for
//! the two readings, so the evaluation is the same on all eight images of
//! a board.
//!
//! Indices are computed by bit extraction where the processor does that
//! fast (`pext`: each side's discs on an instance's squares gathered in
//! one instruction, and a table per instance turns them into their share
//! of the ternary index), else a few squares at a time: an instance is
//! split into groups of squares in distinct columns (on the board or on
//! its transpose), whose discs one multiplication gathers into a byte, and
//! a table per group turns that byte into its share of the index.

use std::sync::LazyLock;

/// One pattern: a name and its squares as (row, column), row 0 the top
/// (row 1 of the board), in the order of their ternary digits (first the
/// lowest).
struct Shape {
    name: &'static str,
    squares: &'static [(u8, u8)],
}

/// The patterns, by name: the rows 2 to 4 (`hv2` to `hv4`), the diagonals
/// of 8 to 4 squares, an edge with its two X squares, the 3x3 corner block
/// and the 2x5 corner block.
const SHAPES: [Shape; 11] = [
    Shape { name: "hv2", squares: &[(1, 0), (1, 1), (1, 2), (1, 3), (1, 4), (1, 5), (1, 6), (1, 7)] },
    Shape { name: "hv3", squares: &[(2, 0), (2, 1), (2, 2), (2, 3), (2, 4), (2, 5), (2, 6), (2, 7)] },
    Shape { name: "hv4", squares: &[(3, 0), (3, 1), (3, 2), (3, 3), (3, 4), (3, 5), (3, 6), (3, 7)] },
    Shape { name: "d8", squares: &[(0, 0), (1, 1), (2, 2), (3, 3), (4, 4), (5, 5), (6, 6), (7, 7)] },
    Shape { name: "d7", squares: &[(0, 1), (1, 2), (2, 3), (3, 4), (4, 5), (5, 6), (6, 7)] },
    Shape { name: "d6", squares: &[(0, 2), (1, 3), (2, 4), (3, 5), (4, 6), (5, 7)] },
    Shape { name: "d5", squares: &[(0, 3), (1, 4), (2, 5), (3, 6), (4, 7)] },
    Shape { name: "d4", squares: &[(0, 4), (1, 5), (2, 6), (3, 7)] },
    Shape {
        name: "edge+2x",
        squares: &[(0, 0), (0, 1), (0, 2), (0, 3), (0, 4), (0, 5), (0, 6), (0, 7), (1, 1), (1, 6)],
    },
    Shape { name: "corner3x3", squares: &[(0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2), (2, 0), (2, 1), (2, 2)] },
    Shape {
        name: "corner2x5",
        squares: &[(0, 0), (0, 1), (0, 2), (0, 3), (0, 4), (1, 0), (1, 1), (1, 2), (1, 3), (1, 4)],
    },
];

/// The number of patterns.
pub const PATTERNS: usize = SHAPES.len();

/// The number of pattern instances on the board (each pattern's distinct
/// images under the symmetries).
pub const INSTANCES: usize = 46;

/// The scalar features after the patterns, in this order: mobility (the
/// side to move's legal moves less the opponent's), potential mobility
/// (empty squares next to the opponent's discs less those next to the
/// side to move's), parity (1 with an odd number of empty squares, else
/// 0) and a constant 1.
pub const SCALARS: usize = 4;

/// The number of game stages, each with its own weights: stage
/// `(empties - 1) / 5`, so 1 to 5 empty squares are stage 0 and 56 to 60
/// stage 11.
pub const STAGES: usize = 12;

/// The stage of a position with `empties` empty squares.
#[inline(always)]
pub const fn stage(empties: u32) -> usize {
    let stage = empties.saturating_sub(1) as usize / 5;
    if stage < STAGES {
        stage
    } else {
        STAGES - 1
    }
}

/// A group of an instance's squares in distinct columns: gathered into a
/// byte by a multiplication, turned by `table` into its share of the
/// instance's index.
struct Group {
    mask: u64,
    transposed: bool,
    table: [u16; 256],
}

/// An instance read by bit extraction (`pext`): its squares' discs,
/// gathered in board order and read as base-3 digits ([`TERNARY`]), index
/// a table of its own (at `offset` in the instances' tables), whose
/// entries are in that order rather than the pattern's.
#[derive(Clone, Copy, Default)]
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
struct Extract {
    mask: u64,
    offset: u32,
}

/// `TERNARY[bits]` has base-3 digit `j` equal to bit `j` of `bits`: the
/// discs of an instance's squares, one side's, as their share of the
/// index of its own table ([`Extract`]; the opponent's count twice). One
/// table of 2 KiB for every instance, which stays in the first-level
/// cache; the instances' own tables of weights (some 21 MB over the
/// stages) take the reordering instead.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
static TERNARY: [u16; 1 << MAX_SQUARES] = {
    let mut table = [0u16; 1 << MAX_SQUARES];
    let mut bits = 0;
    while bits < table.len() {
        let (mut j, mut power, mut value) = (0, 1u16, 0u16);
        while j < MAX_SQUARES {
            if bits >> j & 1 != 0 {
                value += power;
            }
            power *= 3;
            j += 1;
        }
        table[bits] = value;
        bits += 1;
    }
    table
};

/// The most squares of a pattern.
const MAX_SQUARES: usize = 10;

/// A pattern's reduction of its indices to the shared (canonical) ones.
struct PatternTables {
    /// 3 to the power of the number of squares.
    size: usize,
    /// For each index, the rank of its canonical index among them.
    compact: Vec<u32>,
    /// How many canonical indices there are.
    canonical: usize,
}

/// Everything computed once from [`SHAPES`].
pub(super) struct Layout {
    groups: Vec<Group>,
    /// For each instance, its pattern's offset in a stage's full table and
    /// its number of groups (which follow those of the instances before).
    instance_groups: [(u32, u8); INSTANCES],
    /// For each instance, its pattern.
    instance_pattern: [u8; INSTANCES],
    /// For each instance read by bit extraction: its squares and where
    /// its own table starts among the instances' tables.
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    extracts: [Extract; INSTANCES],
    /// For each entry of the instances' tables (a stage's), the entry of
    /// the stage's full table it holds. Instances whose squares come in
    /// the same order on the board share a table.
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    instance_entries: Vec<u32>,
    patterns: Vec<PatternTables>,
    /// For each pattern, its first index in a stage's full table.
    full_offsets: [usize; PATTERNS],
    /// For each pattern, its first feature number among the canonical ones.
    feature_offsets: [usize; PATTERNS],
    /// The length of a stage's full table (every index of every pattern).
    pub(super) full_len: usize,
    /// The number of canonical pattern features in a stage.
    pub(super) pattern_features: usize,
}

/// The layout, built on first use.
pub(super) static LAYOUT: LazyLock<Layout> = LazyLock::new(Layout::new);

/// The eight symmetries of the board, on (row, column).
fn symmetry(s: usize, (r, c): (u8, u8)) -> (u8, u8) {
    let (r, c) = if s & 1 != 0 { (c, r) } else { (r, c) };
    let r = if s & 2 != 0 { 7 - r } else { r };
    let c = if s & 4 != 0 { 7 - c } else { c };
    (r, c)
}

fn mask_of(squares: &[(u8, u8)]) -> u64 {
    squares.iter().fold(0, |m, &(r, c)| m | 1 << (r * 8 + c))
}

impl Layout {
    fn new() -> Layout {
        let mut groups = Vec::new();
        let mut instance_pattern = [0u8; INSTANCES];
        let mut instance_groups = [(0u32, 0u8); INSTANCES];
        let mut extracts = [Extract::default(); INSTANCES];
        let mut instance_entries = Vec::new();
        // The instances' tables so far: pattern, powers of its digits in
        // board order, offset.
        let mut instance_tables: Vec<(usize, Vec<u16>, u32)> = Vec::new();
        let mut patterns = Vec::new();
        let mut full_offsets = [0; PATTERNS];
        let mut feature_offsets = [0; PATTERNS];
        let (mut full_len, mut pattern_features, mut instances) = (0, 0, 0);
        for (p, shape) in SHAPES.iter().enumerate() {
            let n = shape.squares.len();
            let images: Vec<Vec<(u8, u8)>> =
                (0..8).map(|s| shape.squares.iter().map(|&sq| symmetry(s, sq)).collect()).collect();
            // The instances: the first image of each distinct set of squares.
            let mut chosen: Vec<&Vec<(u8, u8)>> = Vec::new();
            for image in &images {
                if chosen.iter().all(|c| mask_of(c) != mask_of(image)) {
                    chosen.push(image);
                }
            }
            // The readings of the pattern itself that a symmetry maps onto
            // its own squares: digit k of such a reading is digit perm[k].
            let perms: Vec<Vec<usize>> = images
                .iter()
                .filter(|image| mask_of(image) == mask_of(shape.squares))
                .map(|image| image.iter().map(|sq| shape.squares.iter().position(|s| s == sq).unwrap_or(0)).collect())
                .collect();
            let size = 3usize.pow(n as u32);
            let mut canonical_of = vec![0u32; size];
            let mut digits = vec![0usize; n];
            for (index, canonical) in canonical_of.iter_mut().enumerate() {
                let mut rest = index;
                for d in digits.iter_mut() {
                    *d = rest % 3;
                    rest /= 3;
                }
                *canonical = perms
                    .iter()
                    .map(|perm| perm.iter().rev().fold(0usize, |i, &k| i * 3 + digits[k]) as u32)
                    .min()
                    .unwrap_or(index as u32);
            }
            let mut compact = vec![0u32; size];
            let mut rank = vec![u32::MAX; size];
            let mut canonical = 0;
            for index in 0..size {
                let c = canonical_of[index] as usize;
                if rank[c] == u32::MAX {
                    rank[c] = canonical as u32;
                    canonical += 1;
                }
                compact[index] = rank[c];
            }
            for image in chosen {
                // Read on the transposed board when that takes fewer groups.
                let per_column = |transposed: bool| {
                    (0..8u8)
                        .map(|col| image.iter().filter(|&&(r, c)| (if transposed { r } else { c }) == col).count())
                        .max()
                        .unwrap_or(0)
                };
                let transposed = per_column(true) < per_column(false);
                let mut own: Vec<Group> = Vec::new();
                for (k, &(r, c)) in image.iter().enumerate() {
                    let (r, c) = if transposed { (c, r) } else { (r, c) };
                    let bit = 1u64 << (r * 8 + c);
                    let column_taken = |g: &Group| g.mask & (0x0101_0101_0101_0101 << c) != 0;
                    let group = match own.iter().position(|g| !column_taken(g)) {
                        Some(g) => g,
                        None => {
                            own.push(Group { mask: 0, transposed, table: [0; 256] });
                            own.len() - 1
                        }
                    };
                    own[group].mask |= bit;
                    let power = 3u16.pow(k as u32);
                    for (byte, share) in own[group].table.iter_mut().enumerate() {
                        if byte >> c & 1 != 0 {
                            *share += power;
                        }
                    }
                }
                // The same instance read by bit extraction: its squares in
                // board order, each with its digit's power in the pattern.
                let mut by_square: Vec<(u8, u16)> =
                    image.iter().enumerate().map(|(k, &(r, c))| (r * 8 + c, 3u16.pow(k as u32))).collect();
                by_square.sort_unstable();
                let powers: Vec<u16> = by_square.iter().map(|&(_, power)| power).collect();
                let offset = match instance_tables.iter().find(|(q, order, _)| *q == p && *order == powers) {
                    Some(&(_, _, offset)) => offset,
                    None => {
                        // Entry `t` (digit `j` of `t` the `j`-th square in
                        // board order) holds the pattern's entry with the
                        // same digits in the pattern's order.
                        let offset = instance_entries.len() as u32;
                        instance_entries.extend((0..size).map(|t| {
                            let mut rest = t;
                            let mut index = full_len as u32;
                            for &power in &powers {
                                index += (rest % 3) as u32 * u32::from(power);
                                rest /= 3;
                            }
                            index
                        }));
                        instance_tables.push((p, powers, offset));
                        offset
                    }
                };
                extracts[instances] = Extract { mask: mask_of(image), offset };
                instance_groups[instances] = (full_len as u32, own.len() as u8);
                groups.extend(own);
                instance_pattern[instances] = p as u8;
                instances += 1;
            }
            full_offsets[p] = full_len;
            feature_offsets[p] = pattern_features;
            full_len += size;
            pattern_features += canonical;
            patterns.push(PatternTables { size, compact, canonical });
        }
        debug_assert_eq!(instances, INSTANCES);
        Layout {
            groups,
            instance_groups,
            instance_pattern,
            extracts,
            instance_entries,
            patterns,
            full_offsets,
            feature_offsets,
            full_len,
            pattern_features,
        }
    }

    /// Calls `visit` with each instance's index into a stage's full table
    /// (its pattern's offset included), instance by instance.
    #[inline(always)]
    pub(super) fn visit_indices(&self, me: u64, op: u64, mut visit: impl FnMut(usize)) {
        let (tme, top) = (transpose(me), transpose(op));
        let mut groups = self.groups.iter();
        for &(offset, count) in &self.instance_groups {
            let mut index = offset;
            for group in groups.by_ref().take(count as usize) {
                let (me, op) = if group.transposed { (tme, top) } else { (me, op) };
                index +=
                    u32::from(group.table[gather(me, group.mask)]) + 2 * u32::from(group.table[gather(op, group.mask)]);
            }
            visit(index as usize);
        }
    }

    /// Calls `visit` with each instance's index into a stage's instance
    /// tables ([`Layout::instance_tables`]), instance by instance, read by
    /// bit extraction, one `pext` per instance and side: for processors
    /// where that instruction is fast.
    ///
    /// # Safety
    ///
    /// The processor must have BMI2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "bmi2")]
    #[inline]
    pub(super) unsafe fn visit_instance_indices(&self, me: u64, op: u64, mut visit: impl FnMut(usize)) {
        use std::arch::x86_64::_pext_u64;
        for extract in &self.extracts {
            let mine = usize::from(TERNARY[_pext_u64(me, extract.mask) as usize]);
            let theirs = usize::from(TERNARY[_pext_u64(op, extract.mask) as usize]);
            visit(extract.offset as usize + mine + 2 * theirs);
        }
    }

    /// A stage's instance tables from its full table: each instance read
    /// by bit extraction indexes one of them, in the order its squares
    /// come on the board ([`Layout::visit_instance_indices`]): the
    /// Entries from `full`, a stage's full table, one after another in
    /// [`Layout::instance_len`] entries.
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    pub(super) fn instance_tables(&self, full: &[i16]) -> Vec<i16> {
        self.instance_entries.iter().map(|&entry| full[entry as usize]).collect()
    }

    /// The length of a stage's instance tables.
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    pub(super) fn instance_len(&self) -> usize {
        self.instance_entries.len()
    }

    /// Each instance's index into a stage's full table (its pattern's
    /// offset included).
    pub(super) fn full_indices(&self, me: u64, op: u64) -> [u32; INSTANCES] {
        let mut indices = [0u32; INSTANCES];
        let mut next = indices.iter_mut();
        self.visit_indices(me, op, |index| {
            if let Some(slot) = next.next() {
                *slot = index as u32;
            }
        });
        indices
    }

    /// The full tables of a stage from its canonical weights (pattern
    /// features in order): every index takes its canonical index's weight.
    pub(super) fn expand(&self, canonical: &[i16], full: &mut [i16]) {
        for (p, tables) in self.patterns.iter().enumerate() {
            let (from, to) = (self.feature_offsets[p], self.full_offsets[p]);
            for index in 0..tables.size {
                full[to + index] = canonical[from + tables.compact[index] as usize];
            }
        }
    }

    /// The pattern features of a position: for each instance, the number
    /// of its canonical index among all of a stage's pattern features.
    pub(super) fn features(&self, me: u64, op: u64) -> [u32; INSTANCES] {
        let mut features = self.full_indices(me, op);
        for (feature, &pattern) in features.iter_mut().zip(&self.instance_pattern) {
            let p = pattern as usize;
            let index = *feature as usize - self.full_offsets[p];
            *feature = (self.feature_offsets[p] + self.patterns[p].compact[index] as usize) as u32;
        }
        features
    }

    /// Each pattern's name, squares and canonical feature count, for
    /// documentation and the fitting script's report.
    pub(super) fn describe(&self) -> Vec<(&'static str, usize, usize)> {
        SHAPES.iter().zip(&self.patterns).map(|(s, t)| (s.name, s.squares.len(), t.canonical)).collect()
    }
}

/// True when the processor has BMI2 and runs its bit extraction (`pext`)
/// in a cycle or so: every Intel processor with BMI2, and AMD's from Zen 3
/// (family 0x19) on. AMD's earlier ones (and Hygon's) run it in microcode,
/// slower the more bits the mask has: there the indices are read a few
/// squares at a time instead. Worked out once.
#[cfg(target_arch = "x86_64")]
pub(super) fn extraction_is_fast() -> bool {
    static FAST: LazyLock<bool> = LazyLock::new(|| {
        if !std::arch::is_x86_feature_detected!("bmi2") {
            return false;
        }
        let vendor = std::arch::x86_64::__cpuid(0);
        let amd_like = matches!(
            (vendor.ebx, vendor.edx, vendor.ecx),
            (0x6874_7541, 0x6974_6e65, 0x444d_4163) | (0x6f67_7948, 0x6e65_476e, 0x656e_6975)
        );
        let signature = std::arch::x86_64::__cpuid(1).eax;
        let base = (signature >> 8) & 0xf;
        let family = if base == 0xf { base + ((signature >> 20) & 0xff) } else { base };
        !amd_like || family >= 0x19
    });
    *FAST
}

/// The discs of `board` on `mask` (at most one square per column) as a
/// byte, bit `c` for column `c`.
#[inline(always)]
fn gather(board: u64, mask: u64) -> usize {
    ((board & mask).wrapping_mul(0x0101_0101_0101_0101) >> 56) as usize
}

/// The board flipped about the a1-h8 diagonal: (row, column) to
/// (column, row).
#[inline(always)]
pub(super) fn transpose(mut x: u64) -> u64 {
    let t = 0x0f0f_0f0f_0000_0000 & (x ^ (x << 28));
    x ^= t ^ (t >> 28);
    let t = 0x3333_0000_3333_0000 & (x ^ (x << 14));
    x ^= t ^ (t >> 14);
    let t = 0x5500_5500_5500_5500 & (x ^ (x << 7));
    x ^= t ^ (t >> 7);
    x
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transposing_swaps_rows_and_columns() {
        let mut rng = fastrand::Rng::with_seed(3);
        for _ in 0..100 {
            let x = rng.u64(..);
            let mut naive = 0u64;
            for r in 0..8 {
                for c in 0..8 {
                    naive |= (x >> (r * 8 + c) & 1) << (c * 8 + r);
                }
            }
            assert_eq!(transpose(x), naive);
        }
    }

    #[test]
    fn bit_extraction_reads_the_same_indices() {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("bmi2") {
            let layout = &*LAYOUT;
            let mut rng = fastrand::Rng::with_seed(29);
            for _ in 0..20_000 {
                let (me, op) = super::super::rules::random_board(&mut rng);
                let mut extracted = Vec::with_capacity(INSTANCES);
                // SAFETY: the processor has BMI2 (checked above).
                unsafe {
                    layout.visit_instance_indices(me, op, |index| extracted.push(layout.instance_entries[index]))
                };
                assert_eq!(extracted, layout.full_indices(me, op), "{me:x} {op:x}");
            }
        }
    }

    #[test]
    fn indices_read_every_square_of_every_instance_once() {
        let layout = &*LAYOUT;
        assert_eq!(layout.instance_pattern.iter().filter(|&&p| p == 10).count(), 8, "2x5 blocks");
        assert_eq!(layout.instance_pattern.iter().filter(|&&p| p == 3).count(), 2, "long diagonals");
        // The side to move everywhere: every digit 1; the opponent: every 2.
        let all = layout.full_indices(!0, 0);
        let theirs = layout.full_indices(0, !0);
        for ((&a, &b), &p) in all.iter().zip(&theirs).zip(&layout.instance_pattern) {
            let p = p as usize;
            let size = layout.patterns[p].size as u32;
            let offset = layout.full_offsets[p] as u32;
            assert_eq!(a - offset, (size - 1) / 2);
            assert_eq!(b - offset, size - 1);
        }
        assert_eq!(
            layout
                .full_indices(0, 0)
                .iter()
                .zip(&layout.instance_pattern)
                .filter(|(&i, &p)| i != layout.full_offsets[p as usize] as u32)
                .count(),
            0
        );
    }
}

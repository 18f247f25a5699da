//! The engine's transposition table: a fixed-size store of what earlier
//! searches proved about positions, keyed by the game's own key.
//!
//! An entry keeps the low 56 bits of the key ([`Game::key`](super::Game::key)
//! says keys must differ there) and a 16-bit move index
//! ([`Game::move_index`](super::Game::move_index)): the move's low byte has
//! a field of its own, its high byte the key word's top 8 bits, so an entry
//! stays 16 bytes, four to a cache line.

/// What a stored score says about the true score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Bound {
    /// The true score is at least this.
    Lower = 1,
    /// The true score is at most this.
    Upper = 2,
    /// The true score is this.
    Exact = 3,
}

/// One stored position: 16 bytes, four to a 64-byte cache line.
#[derive(Clone, Copy, Default)]
#[repr(C)]
struct Entry {
    /// The low `KEY_BITS` bits of the position's key, and above them the
    /// high byte of the best move's index.
    key: u64,
    /// The score, relative to the position (see `Packed::to_table`).
    score: i32,
    /// The low byte of the best move's index (see `Entry::mv`).
    mv: u8,
    /// Plies searched below the position; `UNLIMITED` for a search to the end.
    depth: u8,
    /// Bound (2 bits), complete (1 bit), generation (5 bits).
    flags: u8,
    /// log2 of the positions searched to produce it: what replacement keeps.
    work: u8,
}

impl Entry {
    /// True when the entry holds `key`: their low `KEY_BITS` bits agree.
    #[inline(always)]
    fn holds(&self, key: u64) -> bool {
        (self.key ^ key) & KEY_MASK == 0
    }

    /// The best move found, as the game indexes it
    /// ([`Game::move_index`](super::Game::move_index)), or `NO_MOVE`.
    #[inline(always)]
    fn mv(&self) -> u16 {
        ((self.key >> KEY_BITS) as u16) << 8 | u16::from(self.mv)
    }
}

// Four entries to a cache line.
const _: () = assert!(std::mem::size_of::<Entry>() == 16);

/// The bits of a key an entry keeps and compares; the bits above hold the
/// high byte of the move.
const KEY_BITS: u32 = 56;
const KEY_MASK: u64 = (1 << KEY_BITS) - 1;

/// A bucket of entries that share one cache line.
#[derive(Clone, Copy, Default)]
#[repr(C, align(64))]
struct Bucket([Entry; 4]);

/// No move stored.
pub(super) const NO_MOVE: u16 = u16::MAX;
/// The depth of a search that was not limited.
pub(super) const UNLIMITED: u8 = u8::MAX;
const GENERATIONS: u8 = 32;

/// A hit in the table.
#[derive(Clone, Copy, Debug)]
pub(super) struct Hit {
    pub score: i32,
    pub bound: Bound,
    /// The best move's index, or `NO_MOVE`.
    pub mv: u16,
    /// The depth it was searched to.
    pub depth: u8,
    /// True when no line below was cut by a depth limit, so the score holds
    /// for any depth at least `depth`.
    pub complete: bool,
}

/// A transposition table of fixed size, chosen when it is made and never
/// grown by a search.
///
/// Entries of earlier searches are told apart by a generation number, so
/// starting a new search costs nothing: [`Table::new_search`] bumps the
/// generation, and entries of other generations read as empty. Every 32
/// searches the generation wraps and the table is wiped once.
pub struct Table {
    buckets: Buckets,
    generation: u8,
}

impl Table {
    /// A table of at most `bytes` bytes (at least one bucket, rounded down
    /// to a power of two buckets). Memory is taken from the system lazily, as
    /// entries are written.
    pub fn with_bytes(bytes: usize) -> Table {
        let buckets = (bytes / std::mem::size_of::<Bucket>()).max(1);
        let buckets = 1usize << (usize::BITS - 1 - buckets.leading_zeros());
        Table { buckets: Buckets::new(buckets), generation: 0 }
    }

    /// The table's size in bytes.
    pub fn bytes(&self) -> usize {
        self.buckets.len() * std::mem::size_of::<Bucket>()
    }

    /// Writes every entry once, so that all of the table's memory is taken
    /// from the system now rather than during a search.
    pub fn prefault(&mut self) {
        self.buckets.fill(Bucket::default());
    }

    /// Forgets everything stored so far.
    pub fn new_search(&mut self) {
        self.generation = (self.generation + 1) % GENERATIONS;
        if self.generation == 0 {
            self.buckets.fill(Bucket::default());
            self.generation = 1;
        }
    }

    #[inline(always)]
    fn bucket(&self, key: u64) -> usize {
        // Keys may be small and regular (bitboards, node numbers): mix them.
        (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 20) as usize & (self.buckets.len() - 1)
    }

    /// Starts loading the bucket of `key` into the cache.
    #[inline(always)]
    pub(super) fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: prefetching is a hint that never faults, and the pointer
        // is in bounds.
        unsafe {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let bucket = self.buckets.as_ptr().add(self.bucket(key));
            _mm_prefetch(bucket as *const i8, _MM_HINT_T0);
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// What is stored for `key` in this search, if anything.
    #[inline(always)]
    pub(super) fn probe(&self, key: u64) -> Option<Hit> {
        let bucket = &self.buckets[self.bucket(key)];
        bucket.0.iter().find(|e| e.holds(key) && e.flags >> 3 == self.generation && e.flags & 3 != 0).map(|e| Hit {
            score: e.score,
            bound: match e.flags & 3 {
                1 => Bound::Lower,
                2 => Bound::Upper,
                _ => Bound::Exact,
            },
            mv: e.mv(),
            depth: e.depth,
            complete: e.flags & 4 != 0,
        })
    }

    /// [`Table::store`], unless the table holds an entry of this search
    /// for the same position searched deeper.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn store_unless_deeper(
        &mut self,
        key: u64,
        score: i32,
        bound: Bound,
        mv: u16,
        depth: u8,
        complete: bool,
        work: u64,
    ) {
        if self.probe(key).is_none_or(|hit| hit.depth <= depth) {
            self.store(key, score, bound, mv, depth, complete, work);
        }
    }

    /// Stores a result, in place of the entry for the same key, an entry of
    /// an earlier search, or the entry that took the least work. The bucket
    /// is chosen by the whole key, entries are told apart by its low
    /// `KEY_BITS` bits.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    pub(super) fn store(&mut self, key: u64, score: i32, bound: Bound, mv: u16, depth: u8, complete: bool, work: u64) {
        let generation = self.generation;
        let index = self.bucket(key);
        let bucket = &mut self.buckets[index].0;
        let mut victim = 0;
        let mut victim_rank = u32::MAX;
        for (i, e) in bucket.iter().enumerate() {
            if e.holds(key) || e.flags >> 3 != generation {
                victim = i;
                break;
            }
            let rank = e.work as u32;
            if rank < victim_rank {
                victim = i;
                victim_rank = rank;
            }
        }
        let old = bucket[victim];
        // A result for the same key keeps the old best move when it has none.
        let mv = if mv == NO_MOVE && old.holds(key) && old.flags >> 3 == generation { old.mv() } else { mv };
        bucket[victim] = Entry {
            key: key & KEY_MASK | u64::from(mv >> 8) << KEY_BITS,
            score,
            mv: mv as u8,
            depth,
            flags: generation << 3 | (complete as u8) << 2 | bound as u8,
            work: (u64::BITS - work.leading_zeros()) as u8,
        };
    }
}

/// The table's memory: zeroed buckets (an empty entry is all zeros).
///
/// A large table is read at random, one cache line per position, so with
/// ordinary 4 KiB pages nearly every probe also misses the TLB. On Linux a
/// table of 2 MiB or more is mapped on its own, aligned to 2 MiB, and the
/// kernel is asked for transparent huge pages there (`MADV_HUGEPAGE`; the
/// kernel may decline, and nothing changes but speed). Pages are still
/// taken from the system only as entries are written.
enum Buckets {
    Heap(Vec<Bucket>),
    #[cfg(target_os = "linux")]
    Mapped(Mapping),
}

impl Buckets {
    fn new(count: usize) -> Buckets {
        #[cfg(target_os = "linux")]
        if let Some(mapping) = Mapping::new(count) {
            return Buckets::Mapped(mapping);
        }
        Buckets::Heap(vec![Bucket::default(); count])
    }
}

impl std::ops::Deref for Buckets {
    type Target = [Bucket];
    #[inline(always)]
    fn deref(&self) -> &[Bucket] {
        match self {
            Buckets::Heap(buckets) => buckets,
            #[cfg(target_os = "linux")]
            // SAFETY: the mapping holds `count` zero-initialised buckets
            // (all-zero bytes are a valid `Bucket`), lives as long as
            // `self`, and is reached only through `self`.
            Buckets::Mapped(m) => unsafe { std::slice::from_raw_parts(m.buckets, m.count) },
        }
    }
}

impl std::ops::DerefMut for Buckets {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut [Bucket] {
        match self {
            Buckets::Heap(buckets) => buckets,
            #[cfg(target_os = "linux")]
            // SAFETY: as for `deref`, and `&mut self` makes the borrow unique.
            Buckets::Mapped(m) => unsafe { std::slice::from_raw_parts_mut(m.buckets, m.count) },
        }
    }
}

/// An anonymous private mapping: the 2 MiB-aligned buckets inside it, and
/// the whole mapping to give back.
#[cfg(target_os = "linux")]
struct Mapping {
    buckets: *mut Bucket,
    count: usize,
    base: *mut libc::c_void,
    length: usize,
}

// SAFETY: the mapping is owned by one `Table` and accessed only through it.
#[cfg(target_os = "linux")]
unsafe impl Send for Mapping {}
// SAFETY: shared access only reads, through `&Table`.
#[cfg(target_os = "linux")]
unsafe impl Sync for Mapping {}

#[cfg(target_os = "linux")]
impl Mapping {
    const HUGE_PAGE: usize = 2 << 20;

    fn new(count: usize) -> Option<Mapping> {
        let bytes = count.checked_mul(std::mem::size_of::<Bucket>())?;
        if bytes < Self::HUGE_PAGE {
            return None;
        }
        let length = bytes.checked_add(Self::HUGE_PAGE)?;
        // SAFETY: a fresh anonymous mapping touches no existing memory.
        let base = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                length,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        if base == libc::MAP_FAILED {
            return None;
        }
        let offset = (base as usize).next_multiple_of(Self::HUGE_PAGE) - base as usize;
        // SAFETY: `offset + bytes <= length`, inside the mapping just made.
        let buckets = unsafe { base.cast::<u8>().add(offset) }.cast::<Bucket>();
        // SAFETY: advice on a range of our own mapping; a refusal is harmless.
        unsafe { libc::madvise(buckets.cast(), bytes, libc::MADV_HUGEPAGE) };
        Some(Mapping { buckets, count, base, length })
    }
}

#[cfg(target_os = "linux")]
impl Drop for Mapping {
    fn drop(&mut self) {
        // SAFETY: `base` and `length` are exactly the mapping made in `new`,
        // and no slice of it outlives `self`.
        unsafe { libc::munmap(self.base, self.length) };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_table_keeps_what_it_stores_until_the_next_search() {
        let mut table = Table::with_bytes(1 << 12);
        table.new_search();
        table.store(42, -7, Bound::Lower, 3, 5, true, 1000);
        let hit = table.probe(42).expect("stored");
        assert_eq!((hit.score, hit.bound, hit.mv, hit.depth, hit.complete), (-7, Bound::Lower, 3, 5, true));
        assert!(table.probe(43).is_none());
        table.new_search();
        assert!(table.probe(42).is_none(), "a new search starts empty");
    }

    #[test]
    fn a_shallow_store_leaves_a_deeper_entry_of_the_same_position() {
        let mut table = Table::with_bytes(1 << 12);
        table.new_search();
        table.store(42, 5, Bound::Exact, 3, 10, false, 1000);
        table.store_unless_deeper(42, -1, Bound::Lower, 4, 2, false, 10);
        let hit = table.probe(42).expect("stored");
        assert_eq!((hit.score, hit.mv, hit.depth), (5, 3, 10));
        // As deep or deeper, or a new position: stored.
        table.store_unless_deeper(42, 6, Bound::Upper, NO_MOVE, 10, true, 10);
        assert_eq!(table.probe(42).map(|hit| (hit.score, hit.bound, hit.depth)), Some((6, Bound::Upper, 10)));
        table.store_unless_deeper(43, 1, Bound::Exact, 5, 2, false, 10);
        assert_eq!(table.probe(43).map(|hit| hit.depth), Some(2));
        // Entries of an earlier search do not count.
        table.new_search();
        table.store(44, 5, Bound::Exact, 3, 10, false, 1000);
        table.new_search();
        table.store_unless_deeper(44, 1, Bound::Exact, 5, 2, false, 10);
        assert_eq!(table.probe(44).map(|hit| hit.depth), Some(2));
    }

    #[test]
    fn move_indices_above_255_round_trip_and_keep_over_a_store_without_a_move() {
        let mut table = Table::with_bytes(1 << 12);
        table.new_search();
        let moves = [300, 65534, 255, 256, 0, 0x0100, 0xff00];
        for (key, &mv) in (1000..).zip(&moves) {
            table.store(key, 1, Bound::Exact, mv, 3, true, 10);
        }
        for (key, &mv) in (1000..).zip(&moves) {
            assert_eq!(table.probe(key).map(|hit| hit.mv), Some(mv), "move {mv}");
        }
        // A result without a move keeps the entry's move, high byte included.
        table.store(1000, 2, Bound::Upper, NO_MOVE, 4, true, 10);
        let hit = table.probe(1000).expect("stored");
        assert_eq!((hit.score, hit.bound, hit.mv, hit.depth), (2, Bound::Upper, 300, 4));
        table.store(1001, 2, Bound::Lower, 7, 4, true, 10);
        assert_eq!(table.probe(1001).map(|hit| hit.mv), Some(7), "a new move replaces the old one");
    }

    #[test]
    fn the_low_56_bits_of_the_key_tell_entries_apart() {
        // One bucket: every key shares it, so only the entries' keys tell
        // them apart.
        let mut table = Table::with_bytes(64);
        table.new_search();
        let keys = [5, 5 | 1 << 55, 5 | 1 << 54, KEY_MASK];
        for (i, &key) in keys.iter().enumerate() {
            table.store(key, i as i32, Bound::Exact, 0xfe00 + i as u16, 1, true, 10);
        }
        for (i, &key) in keys.iter().enumerate() {
            let hit = table.probe(key).expect("stored");
            assert_eq!((hit.score, hit.mv), (i as i32, 0xfe00 + i as u16));
        }
        assert!(table.probe(6).is_none());
        // The bits above 56 are not compared: the key's top byte does not
        // tell positions apart, and the move stored there does not get in
        // the way of a match.
        assert_eq!(table.probe(5 | 0xfe << 56).map(|hit| hit.score), Some(0));
        assert_eq!(table.probe(KEY_MASK | 0xff << 56).map(|hit| hit.mv), Some(0xfe03));
    }

    #[test]
    fn the_size_is_a_power_of_two_buckets_within_the_budget() {
        let table = Table::with_bytes(1000);
        assert_eq!(table.bytes(), 512);
        assert_eq!(Table::with_bytes(1).bytes(), 64);
        assert_eq!(Table::with_bytes(64 << 20).bytes(), 64 << 20);
    }

    #[test]
    fn a_full_bucket_gives_up_the_entry_that_took_the_least_work() {
        let mut table = Table::with_bytes(64);
        table.new_search();
        for key in 0..4 {
            table.store(key, 0, Bound::Exact, 0, 1, true, 1 << (10 + key));
        }
        table.store(99, 1, Bound::Exact, 0, 1, true, 1 << 20);
        assert!(table.probe(0).is_none());
        assert!((1..4).all(|key| table.probe(key).is_some()));
        assert!(table.probe(99).is_some());
    }

    #[test]
    fn a_large_table_in_its_own_mapping_starts_empty_and_keeps_entries() {
        let mut table = Table::with_bytes(8 << 20);
        assert_eq!(table.bytes(), 8 << 20);
        table.new_search();
        let keys: Vec<u64> = (0..10_000).map(|i| i * 0x9E37_79B9 + 7).collect();
        assert!(keys.iter().all(|&key| table.probe(key).is_none()));
        for &key in &keys {
            table.store(key, key as i32 & 0xff, Bound::Upper, 2, 9, false, key);
        }
        let kept =
            keys.iter().filter(|&&key| table.probe(key).is_some_and(|hit| hit.score == key as i32 & 0xff)).count();
        assert_eq!(kept, keys.len(), "131,072 buckets hold 10,000 keys");
        for _ in 0..GENERATIONS {
            table.new_search();
        }
        assert!(keys.iter().all(|&key| table.probe(key).is_none()));
    }

    #[test]
    fn generations_wrap_without_reviving_old_entries() {
        let mut table = Table::with_bytes(64);
        table.new_search();
        table.store(5, 0, Bound::Exact, 0, 1, true, 1);
        for _ in 0..GENERATIONS {
            table.new_search();
        }
        assert!(table.probe(5).is_none());
    }
}

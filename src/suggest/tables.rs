//! The engine's transposition tables, kept between searches.

use std::sync::Mutex;

use crate::search::Table;

/// Transposition tables for the engine's searches: made on first use (or
/// ahead of it by [`TablePool::warm`]), kept for the next search, and never
/// more kept than the searches that may run at once.
pub struct TablePool {
    bytes: usize,
    keep: usize,
    free: Mutex<Vec<Table>>,
}

impl TablePool {
    /// A pool of tables of `bytes` bytes each, keeping at most `keep`.
    pub fn new(bytes: usize, keep: usize) -> Self {
        TablePool { bytes, keep, free: Mutex::new(Vec::new()) }
    }

    /// Makes the tables the pool keeps and takes all of their memory from
    /// the system now: the first searches then pay no page faults (about
    /// 0.2 s for a 64 MiB table on huge pages). Searches that start
    /// meanwhile make their own tables, as ever.
    pub fn warm(&self) {
        loop {
            if self.free.lock().map_or(true, |free| free.len() >= self.keep) {
                return;
            }
            let mut table = Table::with_bytes(self.bytes);
            table.prefault();
            match self.free.lock() {
                Ok(mut free) if free.len() < self.keep => free.push(table),
                _ => return,
            }
        }
    }

    /// Tables kept for the next searches.
    #[cfg(test)]
    fn kept(&self) -> usize {
        self.free.lock().map_or(0, |free| free.len())
    }

    /// A table kept out of the pool until [`TablePool::give_back`]: for
    /// searches one after another that share it.
    pub fn take_owned(&self) -> Table {
        let table = self.free.lock().ok().and_then(|mut free| free.pop());
        table.unwrap_or_else(|| Table::with_bytes(self.bytes))
    }

    /// Gives back a table from [`TablePool::take_owned`].
    pub fn give_back(&self, table: Table) {
        if let Ok(mut free) = self.free.lock() {
            if free.len() < self.keep {
                free.push(table);
            }
        }
    }

    /// A table for one search, given back to the pool when dropped.
    pub fn take(&self) -> PooledTable<'_> {
        let table = self.free.lock().ok().and_then(|mut free| free.pop());
        PooledTable { pool: self, table: Some(table.unwrap_or_else(|| Table::with_bytes(self.bytes))) }
    }
}

/// A table out of the pool; it goes back when dropped.
pub struct PooledTable<'a> {
    pool: &'a TablePool,
    table: Option<Table>,
}

impl PooledTable<'_> {
    /// The table.
    pub fn table(&mut self) -> &mut Table {
        self.table.as_mut().expect("a pooled table is present until dropped")
    }
}

impl Drop for PooledTable<'_> {
    fn drop(&mut self) {
        if let (Some(table), Ok(mut free)) = (self.table.take(), self.pool.free.lock()) {
            if free.len() < self.pool.keep {
                free.push(table);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pool_warms_and_keeps_at_most_one_table_per_slot() {
        let pool = TablePool::new(4 << 20, 2);
        assert_eq!(pool.kept(), 0);
        pool.warm();
        assert_eq!(pool.kept(), 2);
        pool.warm();
        assert_eq!(pool.kept(), 2, "warming again makes nothing more");
        {
            // Three searches at once: two warm tables and a fresh one.
            let _a = pool.take();
            let _b = pool.take();
            assert_eq!(pool.kept(), 0);
            let _c = pool.take();
        }
        assert_eq!(pool.kept(), 2, "the third table is given back to the system");
    }
}

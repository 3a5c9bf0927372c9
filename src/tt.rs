//! The transposition table shared by all search threads.
//!
//! Each entry is two `AtomicU64`s: the packed data and the key XORed with
//! that data. A reader loads both and accepts the entry only if
//! `key_xor ^ data == key`, so an entry torn by a concurrent writer reads as
//! a miss rather than as another position's data (the "lockless hashing"
//! scheme of Hyatt and Mann). Relaxed atomics suffice: nothing else is
//! ordered by the table.
//!
//! Entries come in clusters of four (64 bytes, one cache line); a position
//! probes one cluster. Replacement prefers, in order: the same position, an
//! empty slot, then the entry with the lowest `depth - 8 * age_distance`.

use crate::types::*;
use std::alloc::{Layout, alloc_zeroed, dealloc};
use std::ptr::NonNull;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

const CLUSTER_SIZE: usize = 4;
const ENTRY_BYTES: usize = 16;
const CLUSTER_BYTES: usize = CLUSTER_SIZE * ENTRY_BYTES;

#[repr(C, align(64))]
struct Cluster {
    entries: [Entry; CLUSTER_SIZE],
}

#[repr(C)]
struct Entry {
    key_xor: AtomicU64,
    data: AtomicU64,
}

/// What a probe found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TtHit {
    pub mv: Move,
    /// Score relative to the probing node (mate distances adjusted).
    pub score: Score,
    pub eval: Score,
    pub depth: Depth,
    pub bound: Bound,
    pub pv: bool,
}

/// Packed entry data, 64 bits: move (bits 0-15), score (16-31), static eval
/// (32-47), depth + 2 (48-55; 0 marks an empty slot), bound (56-57), PV flag
/// (58), search generation (59-63).
#[derive(Clone, Copy)]
struct Packed(u64);

/// Generations wrap in 5 bits.
const AGE_MASK: u8 = 0x1f;

impl Packed {
    fn new(
        mv: Move,
        score: Score,
        eval: Score,
        depth: Depth,
        bound: Bound,
        pv: bool,
        age: u8,
    ) -> Packed {
        let depth_byte = (depth.clamp(-1, 250) + 2) as u64;
        Packed(
            mv.raw() as u64
                | ((score as i16 as u16 as u64) << 16)
                | ((eval as i16 as u16 as u64) << 32)
                | (depth_byte << 48)
                | ((bound as u64) << 56)
                | ((pv as u64) << 58)
                | (((age & AGE_MASK) as u64) << 59),
        )
    }
    fn mv(self) -> Move {
        Move::from_raw(self.0 as u16)
    }
    fn score(self) -> Score {
        (self.0 >> 16) as u16 as i16 as Score
    }
    fn eval(self) -> Score {
        (self.0 >> 32) as u16 as i16 as Score
    }
    fn depth_byte(self) -> u8 {
        (self.0 >> 48) as u8
    }
    fn depth(self) -> Depth {
        self.depth_byte() as Depth - 2
    }
    fn bound(self) -> Bound {
        Bound::from_bits((self.0 >> 56) as u8)
    }
    fn pv(self) -> bool {
        (self.0 >> 58) & 1 != 0
    }
    fn age(self) -> u8 {
        (self.0 >> 59) as u8 & AGE_MASK
    }
    fn is_empty(self) -> bool {
        self.depth_byte() == 0
    }
}

/// The clusters, in zeroed memory straight from the allocator: an all-zero
/// cluster is a valid empty one (atomics are plain integers in memory), so
/// nothing is written at allocation. For a large table the system then
/// supplies pages only as the search first touches them: asking for a big
/// table is instant, and a size the system cannot give fails at once
/// instead of after minutes of paging.
///
/// The memory is asked for with the allocator's basic alignment and
/// aligned to a cache line by hand: Rust's `alloc_zeroed` for a 64-byte
/// alignment allocates and then writes every byte, which would touch (and
/// commit) the whole table, where `calloc` gets fresh zero pages.
struct Clusters {
    ptr: NonNull<Cluster>,
    len: usize,
    /// What was allocated (for `dealloc`).
    raw: NonNull<u8>,
    layout: Layout,
}

// SAFETY: `Clusters` owns its memory, like a `Box<[Cluster]>`, and
// `Cluster` is made of atomics, which are `Send` and `Sync`.
unsafe impl Send for Clusters {}
// SAFETY: as above.
unsafe impl Sync for Clusters {}

impl Clusters {
    /// `len` zeroed clusters (at least one), or `None` if the allocator
    /// refuses.
    fn zeroed(len: usize) -> Option<Clusters> {
        let len = len.max(1);
        let bytes = len.checked_mul(CLUSTER_BYTES)?.checked_add(CLUSTER_BYTES)?;
        let layout = Layout::from_size_align(bytes, 16).ok()?;
        // SAFETY: the layout has a non-zero size; null is handled below.
        let raw = NonNull::new(unsafe { alloc_zeroed(layout) })?;
        let offset = raw.as_ptr().align_offset(CLUSTER_BYTES);
        debug_assert!(offset < CLUSTER_BYTES);
        // SAFETY: `offset` < 64, so the `len` clusters from there lie inside
        // the `len * 64 + 64` bytes allocated.
        let first = unsafe { raw.as_ptr().add(offset) }.cast::<Cluster>();
        Some(Clusters {
            ptr: NonNull::new(first)?,
            len,
            raw,
            layout,
        })
    }
}

impl std::ops::Deref for Clusters {
    type Target = [Cluster];

    #[inline(always)]
    fn deref(&self) -> &[Cluster] {
        // SAFETY: `ptr` is 64-byte aligned and points to `len` clusters of
        // zeroed-then-atomically-written memory (zero is a valid cluster),
        // owned by `self` for its lifetime.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl Drop for Clusters {
    fn drop(&mut self) {
        // SAFETY: allocated in `zeroed` with this very layout.
        unsafe { dealloc(self.raw.as_ptr(), self.layout) };
    }
}

/// The allocator refused a table of this many bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AllocError {
    pub bytes: usize,
}

impl std::fmt::Display for AllocError {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(f, "could not allocate {} bytes", self.bytes)
    }
}

impl std::error::Error for AllocError {}

pub struct TranspositionTable {
    clusters: Clusters,
    age: std::sync::atomic::AtomicU8,
    /// Whether anything was stored since the table was made or cleared:
    /// clearing an unused table writes nothing (a large fresh table then
    /// stays untouched, its memory not yet taken from the system).
    written: AtomicBool,
}

impl TranspositionTable {
    /// A table of `mb` mebibytes (at least one cluster; the cluster count is
    /// the largest that fits the byte budget exactly).
    ///
    /// # Panics
    /// If the allocator refuses; hosts choose sizes through `try_new`.
    pub fn new(mb: usize) -> TranspositionTable {
        TranspositionTable::try_new(mb).unwrap_or_else(|e| panic!("hash table of {mb} MB: {e}"))
    }

    /// Like `new`, but an allocation the system refuses comes back as an
    /// error instead of aborting the process (hosts may ask for any size).
    pub fn try_new(mb: usize) -> Result<TranspositionTable, AllocError> {
        let bytes = mb.max(1).saturating_mul(1024 * 1024);
        let n = (bytes / CLUSTER_BYTES).max(1);
        let clusters = Clusters::zeroed(n).ok_or(AllocError { bytes })?;
        Ok(TranspositionTable {
            clusters,
            age: std::sync::atomic::AtomicU8::new(0),
            written: AtomicBool::new(false),
        })
    }

    pub fn size_bytes(&self) -> usize {
        self.clusters.len() * CLUSTER_BYTES
    }

    /// Empties the table (nothing to write if nothing was stored since it
    /// was made or last cleared).
    pub fn clear(&self) {
        self.age.store(0, Ordering::Relaxed);
        if !self.written.swap(false, Ordering::Relaxed) {
            return;
        }
        for c in self.clusters.iter() {
            for e in &c.entries {
                e.key_xor.store(0, Ordering::Relaxed);
                e.data.store(0, Ordering::Relaxed);
            }
        }
    }

    /// Starts a new search generation (entries from older ones are
    /// preferred for replacement).
    pub fn new_search(&self) {
        let a = self.age.load(Ordering::Relaxed);
        self.age.store((a + 1) & AGE_MASK, Ordering::Relaxed);
    }

    fn current_age(&self) -> u8 {
        self.age.load(Ordering::Relaxed) & AGE_MASK
    }

    #[inline(always)]
    fn cluster(&self, key: u64) -> &Cluster {
        // Multiply-shift maps the key's high bits onto the cluster range
        // without a division.
        let idx = ((key as u128 * self.clusters.len() as u128) >> 64) as usize;
        &self.clusters[idx]
    }

    /// Hints the CPU to fetch the cluster for `key`.
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let c = self.cluster(key) as *const Cluster as *const i8;
            // SAFETY: prefetch is a hint; the pointer is to a live cluster.
            unsafe { std::arch::x86_64::_mm_prefetch(c, std::arch::x86_64::_MM_HINT_T0) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// Looks up `key`; `ply` converts stored mate scores back to the node.
    #[inline]
    pub fn probe(&self, key: u64, ply: usize) -> Option<TtHit> {
        let c = self.cluster(key);
        for e in &c.entries {
            let data = e.data.load(Ordering::Relaxed);
            let kx = e.key_xor.load(Ordering::Relaxed);
            let p = Packed(data);
            if kx ^ data == key && !p.is_empty() {
                return Some(TtHit {
                    mv: p.mv(),
                    score: score_from_tt(p.score(), ply),
                    eval: p.eval(),
                    depth: p.depth(),
                    bound: p.bound(),
                    pv: p.pv(),
                });
            }
        }
        None
    }

    /// Stores a search result. `score` is relative to the node at `ply`.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub fn store(
        &self,
        key: u64,
        ply: usize,
        mv: Move,
        score: Score,
        eval: Score,
        depth: Depth,
        bound: Bound,
        pv: bool,
    ) {
        if !self.written.load(Ordering::Relaxed) {
            self.written.store(true, Ordering::Relaxed);
        }
        let c = self.cluster(key);
        let age = self.current_age();
        let mut target = 0;
        let mut worst = i32::MAX;
        for (i, e) in c.entries.iter().enumerate() {
            let data = e.data.load(Ordering::Relaxed);
            let old = Packed(data);
            let same = e.key_xor.load(Ordering::Relaxed) ^ data == key;
            if same && !old.is_empty() {
                // Keep a deeper result for the same position unless the new
                // one is exact or the old one is from an earlier search; but
                // always remember a move.
                let mv = if mv.is_some() { mv } else { old.mv() };
                let keep = bound != Bound::Exact
                    && depth + 2 * pv as Depth + 4 <= old.depth()
                    && old.age() == age;
                let new = if keep {
                    Packed::new(
                        mv,
                        old.score(),
                        old.eval(),
                        old.depth(),
                        old.bound(),
                        old.pv(),
                        age,
                    )
                } else {
                    Packed::new(mv, score_to_tt(score, ply), eval, depth, bound, pv, age)
                };
                write(e, key, new);
                return;
            }
            if old.is_empty() {
                target = i;
                break;
            }
            // Prefer replacing shallow entries and those of older searches.
            let age_distance = (age.wrapping_sub(old.age()) & AGE_MASK) as i32;
            let value = old.depth() - 8 * age_distance;
            if value < worst {
                worst = value;
                target = i;
            }
        }
        let new = Packed::new(mv, score_to_tt(score, ply), eval, depth, bound, pv, age);
        write(&c.entries[target], key, new);
    }

    /// Permille of entries in a sample that belong to the current search.
    pub fn hashfull(&self) -> u32 {
        let age = self.current_age();
        let sample = self.clusters.len().min(1000);
        let mut used = 0;
        for c in &self.clusters[..sample] {
            for e in &c.entries {
                let p = Packed(e.data.load(Ordering::Relaxed));
                if !p.is_empty() && p.age() == age {
                    used += 1;
                }
            }
        }
        if sample == 0 {
            0
        } else {
            (used * 1000 / (sample * CLUSTER_SIZE)) as u32
        }
    }
}

#[inline(always)]
fn write(e: &Entry, key: u64, p: Packed) {
    e.key_xor.store(key ^ p.0, Ordering::Relaxed);
    e.data.store(p.0, Ordering::Relaxed);
}

/// Decided scores (mates and rule results) are stored as distance from the
/// node, not from the root.
#[inline(always)]
pub fn score_to_tt(s: Score, ply: usize) -> Score {
    if s >= DECISIVE_BOUND {
        s + ply as Score
    } else if s <= -DECISIVE_BOUND {
        s - ply as Score
    } else {
        s
    }
}

#[inline(always)]
pub fn score_from_tt(s: Score, ply: usize) -> Score {
    if s >= DECISIVE_BOUND {
        s - ply as Score
    } else if s <= -DECISIVE_BOUND {
        s + ply as Score
    } else {
        s
    }
}

/// Memory the system could still give without swapping, in mebibytes
/// (`MemAvailable` of `/proc/meminfo`); `None` where that is not known.
pub fn available_memory_mb() -> Option<usize> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    parse_mem_available_mb(&info)
}

fn parse_mem_available_mb(meminfo: &str) -> Option<usize> {
    let line = meminfo.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(s: &str) -> Move {
        Move::parse(s).unwrap()
    }

    #[test]
    fn size_is_exact_to_the_budget() {
        let tt = TranspositionTable::new(16);
        assert_eq!(tt.size_bytes(), 16 * 1024 * 1024);
        assert_eq!(std::mem::size_of::<Cluster>(), CLUSTER_BYTES);
        let tt = TranspositionTable::new(3);
        assert_eq!(tt.size_bytes(), 3 * 1024 * 1024);
    }

    #[test]
    fn store_then_probe() {
        let tt = TranspositionTable::new(1);
        let key = 0xdead_beef_1234_5678;
        assert!(tt.probe(key, 0).is_none());
        tt.store(key, 3, mv("h2e2"), 57, 12, 9, Bound::Lower, true);
        let hit = tt.probe(key, 3).unwrap();
        assert_eq!(hit.mv, mv("h2e2"));
        assert_eq!(hit.score, 57);
        assert_eq!(hit.eval, 12);
        assert_eq!(hit.depth, 9);
        assert_eq!(hit.bound, Bound::Lower);
        assert!(hit.pv);
        assert!(tt.probe(key ^ 1, 3).is_none());
    }

    #[test]
    fn mate_scores_are_node_relative() {
        let tt = TranspositionTable::new(1);
        let key = 42;
        // Mate in 5 plies from a node at ply 7 = mate in 12 from the root.
        tt.store(key, 7, Move::NONE, MATE - 12, 0, 4, Bound::Exact, false);
        assert_eq!(tt.probe(key, 7).unwrap().score, MATE - 12);
        assert_eq!(tt.probe(key, 3).unwrap().score, MATE - 8);
        tt.store(key, 7, Move::NONE, -(MATE - 12), 0, 5, Bound::Exact, false);
        assert_eq!(tt.probe(key, 2).unwrap().score, -(MATE - 7));
    }

    #[test]
    fn negative_depths_and_scores_round_trip() {
        let tt = TranspositionTable::new(1);
        tt.store(7, 0, mv("a0a1"), -321, -5, -1, Bound::Upper, false);
        let h = tt.probe(7, 0).unwrap();
        assert_eq!(
            (h.score, h.eval, h.depth, h.bound),
            (-321, -5, -1, Bound::Upper)
        );
    }

    #[test]
    fn meminfo_is_read_in_mebibytes() {
        let info = "MemTotal:       24576000 kB\nMemFree:   100 kB\nMemAvailable:   20480000 kB\n";
        assert_eq!(parse_mem_available_mb(info), Some(20000));
        assert_eq!(parse_mem_available_mb("MemTotal: 5 kB\n"), None);
    }

    #[test]
    fn a_refused_size_is_an_error_not_an_abort() {
        // More than any address space: the allocator must say no.
        let e = TranspositionTable::try_new(usize::MAX / (1024 * 1024)).err();
        assert!(e.is_some());
        // A fresh table is empty without having been written, and its
        // clusters are cache-line aligned.
        let tt = TranspositionTable::try_new(2).unwrap();
        assert_eq!(tt.clusters.as_ptr() as usize % CLUSTER_BYTES, 0);
        assert_eq!(tt.hashfull(), 0);
        assert!(tt.probe(12345, 0).is_none());
    }

    #[test]
    fn clear_and_hashfull() {
        let tt = TranspositionTable::new(1);
        assert_eq!(tt.hashfull(), 0);
        for k in 0..100_000u64 {
            tt.store(
                k.wrapping_mul(0x9e37_79b9_7f4a_7c15),
                0,
                Move::NONE,
                0,
                0,
                1,
                Bound::Exact,
                false,
            );
        }
        assert!(tt.hashfull() > 500);
        tt.new_search();
        assert_eq!(tt.hashfull(), 0);
        tt.clear();
        assert!(tt.probe(0x9e37_79b9_7f4a_7c15, 0).is_none());
    }
}

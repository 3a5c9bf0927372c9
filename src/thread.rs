//! Lazy SMP: a pool of persistent search threads that all search the same
//! root over one shared transposition table, each with its own histories.
//! Thread 0 is the main thread: it keeps time, reports progress, and when
//! it finishes it stops the helpers, holds the best-thread vote (`vote`) and sends
//! the final `BestMove` report.

use crate::movegen;
use crate::search::{Report, SearchJob, ThreadResult, Worker};
use crate::types::{DECISIVE_BOUND, Move};
use crossbeam_channel::{Receiver, Sender, unbounded};
use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

pub const MAX_THREADS: usize = 256;

/// Search threads get a large stack: the search recurses up to MAX_PLY.
const STACK_SIZE: usize = 16 * 1024 * 1024;

enum Msg {
    Search(Arc<SearchJob>, Arc<Completion>),
    ClearHistory(Arc<Completion>),
    Quit,
}

/// Counts down running threads and wakes waiters when the job is over.
struct Completion {
    running: AtomicUsize,
    finished: Mutex<bool>,
    cvar: Condvar,
}

impl Completion {
    fn new(n: usize) -> Arc<Completion> {
        Arc::new(Completion {
            running: AtomicUsize::new(n),
            finished: Mutex::new(false),
            cvar: Condvar::new(),
        })
    }

    fn finish(&self) {
        if let Ok(mut f) = self.finished.lock() {
            *f = true;
        }
        self.cvar.notify_all();
    }

    fn wait(&self) {
        let Ok(mut f) = self.finished.lock() else {
            return;
        };
        while !*f {
            f = match self.cvar.wait(f) {
                Ok(g) => g,
                Err(_) => return,
            };
        }
    }

    fn is_finished(&self) -> bool {
        self.finished.lock().map(|f| *f).unwrap_or(true)
    }
}

pub struct ThreadPool {
    senders: Vec<Sender<Msg>>,
    handles: Vec<JoinHandle<()>>,
    current: Option<(Arc<SearchJob>, Arc<Completion>)>,
}

impl ThreadPool {
    /// A pool of `threads` search threads (clamped to 1..=MAX_THREADS).
    ///
    /// # Panics
    /// If not even one thread can start; hosts use `start_threads`.
    pub fn new(threads: usize) -> ThreadPool {
        ThreadPool::start_threads(threads).expect("starting a search thread")
    }

    /// Starts up to `threads` search threads (clamped to 1..=MAX_THREADS):
    /// if the system refuses one, the pool keeps those already running
    /// (`size` tells how many). An error only when none could start.
    pub fn start_threads(threads: usize) -> std::io::Result<ThreadPool> {
        ThreadPool::start_with(threads, |id, rx| {
            std::thread::Builder::new()
                .name(format!("search-{id}"))
                .stack_size(STACK_SIZE)
                .spawn(move || thread_main(id, rx))
        })
    }

    fn start_with(
        threads: usize,
        mut spawn: impl FnMut(usize, Receiver<Msg>) -> std::io::Result<JoinHandle<()>>,
    ) -> std::io::Result<ThreadPool> {
        let n = threads.clamp(1, MAX_THREADS);
        let mut senders = Vec::with_capacity(n);
        let mut handles = Vec::with_capacity(n);
        for id in 0..n {
            let (tx, rx) = unbounded();
            match spawn(id, rx) {
                Ok(h) => {
                    senders.push(tx);
                    handles.push(h);
                }
                Err(e) if id == 0 => return Err(e),
                Err(_) => break,
            }
        }
        Ok(ThreadPool {
            senders,
            handles,
            current: None,
        })
    }

    pub fn size(&self) -> usize {
        self.senders.len()
    }

    /// Starts `job` on every thread and returns at once. A search still
    /// running is stopped first.
    pub fn start(&mut self, mut job: SearchJob) -> Arc<SearchJob> {
        self.stop_and_wait();
        // One shared slot and one result slot per thread, whatever the caller sized.
        let n = self.size();
        job.shares.resize_with(n, Default::default);
        if let Ok(r) = job.results.get_mut() {
            r.resize(n, None);
        }
        let job = Arc::new(job);
        let done = Completion::new(self.size());
        for tx in &self.senders {
            let _ = tx.send(Msg::Search(job.clone(), done.clone()));
        }
        self.current = Some((job.clone(), done));
        job
    }

    pub fn current_job(&self) -> Option<&Arc<SearchJob>> {
        self.current.as_ref().map(|(j, _)| j)
    }

    /// Whether a search is running (its `BestMove` not yet sent).
    pub fn is_searching(&self) -> bool {
        self.current.as_ref().is_some_and(|(_, d)| !d.is_finished())
    }

    /// Asks the current search to stop; its `BestMove` follows shortly.
    pub fn stop(&self) {
        if let Some((job, _)) = &self.current {
            job.stop();
        }
    }

    /// The predicted move was played: the clock starts now.
    pub fn ponderhit(&self) {
        if let Some((job, _)) = &self.current {
            if let Ok(mut t) = job.ponderhit_at.lock() {
                *t = Some(std::time::Instant::now());
            }
            job.pondering.store(false, Ordering::Release);
        }
    }

    /// Blocks until the current search has sent its `BestMove`.
    pub fn wait(&self) {
        if let Some((_, done)) = &self.current {
            done.wait();
        }
    }

    pub fn stop_and_wait(&mut self) {
        self.stop();
        self.wait();
    }

    /// Clears every thread's history tables (on a new game).
    pub fn clear_history(&mut self) {
        self.stop_and_wait();
        let done = Completion::new(self.size());
        for tx in &self.senders {
            let _ = tx.send(Msg::ClearHistory(done.clone()));
        }
        done.wait();
    }
}

impl Drop for ThreadPool {
    fn drop(&mut self) {
        self.stop_and_wait();
        for tx in &self.senders {
            let _ = tx.send(Msg::Quit);
        }
        for h in self.handles.drain(..) {
            let _ = h.join();
        }
    }
}

fn thread_main(id: usize, rx: Receiver<Msg>) {
    let mut worker = Worker::new(id);
    while let Ok(msg) = rx.recv() {
        match msg {
            Msg::Quit => break,
            Msg::ClearHistory(done) => {
                worker.clear_history();
                if done.running.fetch_sub(1, Ordering::AcqRel) == 1 {
                    done.finish();
                }
            }
            Msg::Search(job, done) => {
                // A panic in the search is a bug, but it must not leave the
                // pool (and the host) waiting for ever for this thread: the
                // thread reports no result and the search ends as usual.
                let ran = std::panic::catch_unwind(AssertUnwindSafe(|| worker.run(&job)));
                if ran.is_err() {
                    if id == 0 {
                        job.stop();
                    }
                    worker = Worker::new(id);
                }
                if id == 0 {
                    finish_main(&job, &done);
                } else {
                    done.running.fetch_sub(1, Ordering::AcqRel);
                }
            }
        }
    }
}

/// The main thread's epilogue: honour ponder/infinite, stop the helpers,
/// vote, report the move, and release waiters.
fn finish_main(job: &SearchJob, done: &Completion) {
    // In infinite or ponder mode the move may only be sent after `stop`
    // (or, when pondering on a finite search, after `ponderhit`).
    while !job.stopped() {
        let pondering = job.pondering.load(Ordering::Acquire);
        if !job.limits.infinite && !pondering {
            break;
        }
        std::thread::sleep(Duration::from_micros(500));
    }
    job.stop();
    // Wait for the helpers (they stop within microseconds of the flag).
    while done.running.load(Ordering::Acquire) > 1 {
        std::thread::yield_now();
    }
    done.running.store(0, Ordering::Release);
    let results: Vec<ThreadResult> = job
        .results
        .lock()
        .map(|r| r.iter().flatten().cloned().collect())
        .unwrap_or_default();
    let report = match vote(&results) {
        Some(best) => Report::BestMove {
            best: Some(best.best),
            ponder: best.pv.get(1).copied(),
            score: best.score,
            depth: best.depth,
        },
        // No thread has an answer (only after a failure: `go` is not
        // started without a legal move): any allowed move beats none.
        None => Report::BestMove {
            best: movegen::legal_moves(&job.root)
                .iter()
                .copied()
                .find(|m| job.root_filter.is_empty() || job.root_filter.contains(m)),
            ponder: None,
            score: 0,
            depth: 0,
        },
    };
    (job.reporter)(report);
    done.finish();
}

/// Picks the answer among threads: each thread votes for its best move with
/// a weight growing with its depth and its score's margin over the worst
/// thread's; a found mate wins outright.
pub fn vote(results: &[ThreadResult]) -> Option<&ThreadResult> {
    let min_score = results.iter().map(|r| r.score).min()?;
    let mut votes: Vec<(Move, i64)> = Vec::new();
    for r in results {
        let w = (r.score - min_score + 14) as i64 * r.depth.max(1) as i64;
        match votes.iter_mut().find(|(m, _)| *m == r.best) {
            Some(v) => v.1 += w,
            None => votes.push((r.best, w)),
        }
    }
    let weight = |r: &ThreadResult| votes.iter().find(|(m, _)| *m == r.best).map_or(0, |v| v.1);
    let mut best = &results[0];
    for r in &results[1..] {
        let better = if best.score >= DECISIVE_BOUND || r.score >= DECISIVE_BOUND {
            r.score > best.score
        } else {
            weight(r) > weight(best) || (weight(r) == weight(best) && r.depth > best.depth)
        };
        if better {
            best = r;
        }
    }
    Some(best)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::MATE;

    /// Spawns real threads until `limit`, then fails as the system would.
    fn spawner(
        limit: usize,
    ) -> impl FnMut(usize, Receiver<Msg>) -> std::io::Result<JoinHandle<()>> {
        move |id, rx| {
            if id >= limit {
                return Err(std::io::Error::other("no more threads"));
            }
            std::thread::Builder::new().spawn(move || thread_main(id, rx))
        }
    }

    #[test]
    fn a_panicking_search_still_ends_with_a_legal_move() {
        use crate::position::Position;
        use crate::time::Limits;
        use crate::tt::TranspositionTable;
        for threads in [1, 2] {
            let mut pool = ThreadPool::new(threads);
            let best = Arc::new(Mutex::new(None));
            let sink = best.clone();
            let reporter = Arc::new(move |r: Report| {
                if let Report::BestMove { best, .. } = r {
                    *sink.lock().unwrap() = Some(best);
                }
            });
            let tt = Arc::new(TranspositionTable::new(1));
            let pos = Position::startpos();
            let mut job =
                SearchJob::new(pos.clone(), Limits::depth(4), tt.clone(), threads, reporter);
            job.seed = crate::search::PANIC_SEED_FOR_TESTS;
            pool.start(job);
            pool.wait();
            let m = best
                .lock()
                .unwrap()
                .take()
                .flatten()
                .expect("a move despite the panic");
            assert!(movegen::legal_moves(&pos).contains(m));
            // The pool still works.
            let reporter = Arc::new(|_: Report| {});
            pool.start(SearchJob::new(pos, Limits::depth(3), tt, threads, reporter));
            pool.wait();
        }
    }

    #[test]
    fn a_refused_thread_leaves_a_smaller_pool() {
        let pool = ThreadPool::start_with(8, spawner(3)).unwrap();
        assert_eq!(pool.size(), 3);
        drop(pool); // joins the three
        assert!(ThreadPool::start_with(4, spawner(0)).is_err());
        assert_eq!(ThreadPool::start_with(1, spawner(1)).unwrap().size(), 1);
    }

    #[test]
    fn vote_prefers_agreement_and_mates() {
        let m1 = Move::parse("h2e2").unwrap();
        let m2 = Move::parse("b2e2").unwrap();
        let r = |m, score, depth| ThreadResult {
            best: m,
            score,
            depth,
            pv: vec![m],
        };
        let rs = vec![r(m1, 30, 10), r(m2, 35, 10), r(m2, 34, 10)];
        assert_eq!(vote(&rs).unwrap().best, m2);
        let rs = vec![r(m1, 30, 10), r(m2, MATE - 5, 6)];
        assert_eq!(vote(&rs).unwrap().best, m2);
    }
}

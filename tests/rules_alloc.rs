//! The search entry points of the rules allocate nothing: this test binary
//! counts every allocation made on the calling thread.

use chuhe::position::Position;
use chuhe::rules::{self, RepetitionVerdict, RuleSettings};
use chuhe::types::Move;
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

// SAFETY: forwards to the system allocator; the counter is a const-
// initialised thread-local Cell, which needs no allocation itself.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.with(|n| n.set(n.get() + 1));
        // SAFETY: the caller's contract for `alloc` is the system's.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from `System.alloc` above with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.with(|n| n.set(n.get() + 1));
        // SAFETY: `ptr` came from `System` with `layout`; the caller's
        // contract for `new_size` is the system's.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn allocations_during<T>(f: impl FnOnce() -> T) -> (T, usize) {
    let before = ALLOCATIONS.with(Cell::get);
    let r = f();
    (r, ALLOCATIONS.with(Cell::get) - before)
}

fn play(fen: &str, moves: &str) -> Position {
    let mut pos = Position::from_fen(fen).unwrap();
    for m in moves.split_ascii_whitespace() {
        let m = Move::parse(m).unwrap();
        assert!(pos.is_pseudo_legal(m) && pos.is_legal(m));
        pos.make_move(m);
    }
    pos
}

#[test]
fn repetition_verdict_and_move_limit_do_not_allocate() {
    // The counter sees allocations (so a zero below means something).
    let (_, n) = allocations_during(|| std::hint::black_box(vec![1u8; 16]));
    assert!(n >= 1);

    // Chariot a5/a7 chasing the unprotected horse d7/c5, one full cycle.
    let fen = "9/4k4/3n5/9/R8/9/9/9/9/3K5 w - - 0 1";
    let mut pos = play(fen, "a5a7 d7c5 a7a5 c5d7");
    let (v, n) = allocations_during(|| rules::repetition_verdict(&mut pos));
    assert_eq!(v, Some(RepetitionVerdict::SideToMoveLoses));
    assert_eq!(n, 0, "allocations on a found repetition");

    let mut pos = play(fen, "a5a7 d7c5 a7a5");
    let (v, n) = allocations_during(|| rules::repetition_verdict(&mut pos));
    assert_eq!((v, n), (None, 0));

    let pos = play("9/4k4/3n5/9/R8/9/9/9/9/3K5 w - - 125 1", "a5a7");
    let (v, n) = allocations_during(|| rules::move_limit_reached(&pos, &RuleSettings::default()));
    assert_eq!((v, n), (true, 0));
}

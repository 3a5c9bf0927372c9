//! The rules' verdicts on hand-built games: each case is a position, the
//! moves played from it, the result expected after the last move (the game
//! must still be going before it), and the class expected for each move
//! (`K` check, `C` chase, `.` idle; empty to skip).
//!
//! Every case also runs mirrored left-right and with the colours swapped
//! (board turned round, the other side moving), which must give the same
//! verdict with the winner swapped. Moves are ICCS; FEN boards list rank 9
//! first, upper case is Red.

use chuhe::movegen;
use chuhe::position::Position;
use chuhe::rng::XorShift;
use chuhe::rules::{self, MoveClass, Outcome, Reason, RepetitionVerdict, RuleSettings};
use chuhe::tools::judge::judge_game;
use chuhe::types::*;
use std::time::Instant;

const DEFAULT: RuleSettings = RuleSettings {
    move_limit: 60,
    check_cap: 10,
};
const WXF: RuleSettings = RuleSettings::wxf();

struct Case {
    name: &'static str,
    fen: &'static str,
    moves: &'static str,
    expect: &'static str,
    classes: &'static str,
    settings: RuleSettings,
}

const fn case(
    name: &'static str,
    fen: &'static str,
    moves: &'static str,
    expect: &'static str,
    classes: &'static str,
    settings: RuleSettings,
) -> Case {
    Case {
        name,
        fen,
        moves,
        expect,
        classes,
        settings,
    }
}

#[rustfmt::skip]
const CASES: &[Case] = &[
    // Two opening moves: nothing has ended.
    case(
        "start_position",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
        "h2e2 h9g7",
        "ongoing",
        "..",
        DEFAULT,
    ),
    // Chariot a8 holds rank 8, the other mates along rank 9.
    case(
        "mate_chariots",
        "4k4/R8/9/9/9/9/9/9/9/1R1K5 w - - 0 1",
        "b0b9",
        "red-wins checkmate",
        "K",
        DEFAULT,
    ),
    // Horse g8 checks e9; own advisors block d9/f9 and chariot a8 holds e8.
    case(
        "mate_horse",
        "3aka3/R8/9/7N1/9/9/9/9/9/3K5 w - - 0 1",
        "h6g8",
        "red-wins checkmate",
        "K",
        DEFAULT,
    ),
    // Doubled cannons on the e-file: an interposed advisor only becomes the front cannon's screen.
    //   9 . . . a k a . . .
    //   8 . . . . . . . . .
    //   7 . . . . . . . . .
    //   6 . . . . . . . . .
    //   5 . . . . . . . . .
    //     ~~~~~~~~~~~~~~~~~
    //   4 . . . . . . . . .
    //   3 . . . . C . . . .
    //   2 C . . . . . . . .
    //   1 . . . . . . . . .
    //   0 . . . . . K . . .
    //     a b c d e f g h i
    case(
        "mate_double_cannon",
        "3aka3/9/9/9/9/9/4C4/C8/9/5K3 w - - 0 1",
        "a2e2",
        "red-wins checkmate",
        "K",
        DEFAULT,
    ),
    // Pawn e8 checks, protected by horse g7 which also holds f9; d9 would face the red king.
    case(
        "mate_pawn_with_facing_kings",
        "4k4/3P5/6N2/p8/9/9/9/9/9/3K5 w - - 0 1",
        "d8e8",
        "red-wins checkmate",
        "K",
        DEFAULT,
    ),
    // Ply 120 without capture is a mate: mate wins over the move limit.
    case(
        "mate_on_the_move_reaching_the_limit",
        "4k4/R8/9/9/9/9/9/9/9/1R1K5 w - - 119 1",
        "b0b9",
        "red-wins checkmate",
        "K",
        DEFAULT,
    ),
    // Chariot d1 holds d9, pawn e7 holds e8, f9 faces the red king: black cannot move and loses.
    //   9 . . . . k . . . .
    //   8 . . . . . . . . .
    //   7 . . . . P . . . .
    //   6 . . . . . . . . .
    //   5 . . . . . . . . .
    //     ~~~~~~~~~~~~~~~~~
    //   4 . . . . . . . . .
    //   3 . . . . . . . . .
    //   2 . . . . . . . . .
    //   1 R . . . . . . . .
    //   0 . . . . . K . . .
    //     a b c d e f g h i
    case(
        "stalemate_black_loses",
        "4k4/9/4P4/9/9/9/9/9/R8/5K3 w - - 0 1",
        "a1d1",
        "red-wins stalemate",
        ".",
        DEFAULT,
    ),
    // Black chariot d5 holds d0, pawn e2 holds e1, f0 faces the black king: red is stalemated.
    case(
        "stalemate_red_loses",
        "5k3/9/9/9/r8/9/9/4p4/9/4K4 b - - 0 1",
        "a5d5",
        "black-wins stalemate",
        ".",
        DEFAULT,
    ),
    // Chariot checks on rank 8 and rank 9 in turn while the king steps e8/e9.
    case(
        "perpetual_check_chariot",
        "8R/4k4/9/9/9/9/9/9/9/3K5 w - - 0 1",
        "i9i8 e8e9 i8i9 e9e8 i9i8 e8e9 i8i9 e9e8",
        "black-wins perpetual-check",
        "K.K.K.K.",
        DEFAULT,
    ),
    // Horse g8/f6 checks e9/e8 in turn.
    case(
        "perpetual_check_horse",
        "9/4k1N2/9/p8/9/9/9/9/9/5K3 w - - 0 1",
        "g8f6 e8e9 f6g8 e9e8 g8f6 e8e9 f6g8 e9e8",
        "black-wins perpetual-check",
        "K.K.K.K.",
        DEFAULT,
    ),
    // Cannon on i8/i9 checks over the red pawns g8/g9 as screens.
    case(
        "perpetual_check_cannon",
        "6P1C/4k1P2/9/9/9/9/9/9/9/3K5 w - - 0 1",
        "i9i8 e8e9 i8i9 e9e8 i9i8 e8e9 i8i9 e9e8",
        "black-wins perpetual-check",
        "K.K.K.K.",
        DEFAULT,
    ),
    // Crossed pawn steps d8/e8 checking the king on d9/e9.
    case(
        "perpetual_check_pawn",
        "3k5/4P4/9/p8/9/9/9/9/9/5K3 w - - 0 1",
        "e8d8 d9e9 d8e8 e9d9 e8d8 d9e9 d8e8 e9d9",
        "black-wins perpetual-check",
        "K.K.K.K.",
        DEFAULT,
    ),
    // Every move blocks a cannon check by adding or removing a screen and opens one: all checks, both sides.
    //   9 . . . k . . . . .
    //   8 . . . . . . . . .
    //   7 . . . . . . . . .
    //   6 . . . . . . . . .
    //   5 . . . . . . . . .
    //     ~~~~~~~~~~~~~~~~~
    //   4 . . . . . . . . .
    //   3 . . . . . . . . .
    //   2 . . . A . . . . .
    //   1 c . . n . K . . .
    //   0 . . . C . . . . .
    //     a b c d e f g h i
    case(
        "mutual_perpetual_check",
        "3k5/9/9/9/9/9/9/3A5/c2n1K3/3C5 w - - 0 1",
        "d2e1 d1c3 e1d2 c3d1 d2e1 d1c3 e1d2 c3d1",
        "draw repetition",
        "KKKKKKKK",
        DEFAULT,
    ),
    // Red checks every move; each king step uncovers a black chariot on an unprotected red piece. One-sided perpetual check loses.
    //   9 r . . . . . . . P
    //   8 r . . . k . N N .
    //   7 . . . . . . . . .
    //   6 . . . . . . . . .
    //   5 . . . . . . . . .
    //     ~~~~~~~~~~~~~~~~~
    //   4 . . . . . . . . .
    //   3 . . . . . . . . .
    //   2 . . . . . . . . .
    //   1 . . . . . . . . .
    //   0 . . . K . . . . .
    //     a b c d e f g h i
    case(
        "perpetual_check_against_perpetual_chase",
        "r7P/r3k1NN1/9/9/9/9/9/9/9/3K5 w - - 0 1",
        "g8f6 e8e9 f6g8 e9e8 g8f6 e8e9 f6g8 e9e8",
        "black-wins perpetual-check",
        "KCKCKCKC",
        DEFAULT,
    ),
    // The start position recurs once: the referee waits for the third occurrence.
    case(
        "second_occurrence_is_not_the_end",
        "8R/4k4/9/9/9/9/9/9/9/3K5 w - - 0 1",
        "i9i8 e8e9 i8i9 e9e8",
        "ongoing",
        "K.K.",
        DEFAULT,
    ),
    // Chariot checks, then retreats quietly: one idle move makes red's cycle allowed.
    case(
        "check_and_idle_alternating",
        "9/4k4/8R/9/9/9/9/9/9/3K5 w - - 0 1",
        "i7i8 e8e9 i8i7 e9e8 i7i8 e8e9 i8i7 e9e8",
        "draw repetition",
        "K...K...",
        DEFAULT,
    ),
    // Chariot checks on i8, then returns to i7 hitting the unprotected horse c7: check + chase is forbidden.
    case(
        "check_and_chase_alternating",
        "9/4k4/2n5R/9/9/9/9/9/9/3K5 w - - 0 1",
        "i7i8 e8e9 i8i7 e9e8 i7i8 e8e9 i8i7 e9e8",
        "black-wins perpetual-chase",
        "K.C.K.C.",
        DEFAULT,
    ),
    // Chariot a7/a5 follows the unprotected horse d7/c5.
    case(
        "chariot_chases_unprotected_horse",
        "9/4k4/3n5/9/R8/9/9/9/9/3K5 w - - 0 1",
        "a5a7 d7c5 a7a5 c5d7 a5a7 d7c5 a7a5 c5d7",
        "black-wins perpetual-chase",
        "C.C.C.C.",
        DEFAULT,
    ),
    // Same chase, but chariot d5 protects both horse squares: a chariot attacking a protected horse is idle.
    case(
        "chariot_attacks_protected_horse",
        "9/4k4/3n5/9/R2r5/9/9/9/9/5K3 w - - 0 1",
        "a5a7 d7c5 a7a5 c5d7 a5a7 d7c5 a7a5 c5d7",
        "draw repetition",
        "........",
        DEFAULT,
    ),
    // Horse c5/d7 hits chariot b7/b8, protected by chariot b9: a horse attacking a chariot chases it.
    //   9 . r . k . . . . .
    //   8 . r . . . . . . .
    //   7 . . . . P . . . .
    //   6 . . . . . . . . .
    //   5 . . N . . . . . .
    //     ~~~~~~~~~~~~~~~~~
    //   4 . . . . . . . . .
    //   3 . . . . . . . . .
    //   2 . . . . . . . . .
    //   1 . . . . . . . . .
    //   0 . . . . K . . . .
    //     a b c d e f g h i
    case(
        "horse_chases_protected_chariot",
        "1r1k5/1r7/4P4/9/2N6/9/9/9/9/4K4 w - - 0 1",
        "c5d7 b8b7 d7c5 b7b8 c5d7 b8b7 d7c5 b7b8",
        "black-wins perpetual-chase",
        "C.C.C.C.",
        DEFAULT,
    ),
    // Cannon g7/g8 hits chariot b7/b8 over screens e7/e8; chariot b9 protects it: still a chase.
    //   9 . r . k . . . . .
    //   8 . r . . a . . . .
    //   7 . . . . b . C . .
    //   6 . . . . . . . . .
    //   5 . . . . . . . . .
    //     ~~~~~~~~~~~~~~~~~
    //   4 . . . . . . . . .
    //   3 . . . . . . . . .
    //   2 . . . . . . . . .
    //   1 . . . . . . . . .
    //   0 . . . . K . . . .
    //     a b c d e f g h i
    case(
        "cannon_chases_protected_chariot",
        "1r1k5/1r2a4/4b1C2/9/9/9/9/9/9/4K4 w - - 0 1",
        "g7g8 b8b7 g8g7 b7b8 g7g8 b8b7 g8g7 b7b8",
        "black-wins perpetual-chase",
        "C.C.C.C.",
        DEFAULT,
    ),
    // Chariot a5/a7 hits cannon h5/h7, protected by chariot h9: idle.
    case(
        "chariot_attacks_protected_cannon",
        "7r1/4k4/R8/9/7c1/9/9/9/9/3K5 w - - 0 1",
        "a7a5 h5h7 a5a7 h7h5 a7a5 h5h7 a5a7 h7h5",
        "draw repetition",
        "........",
        DEFAULT,
    ),
    // The same without the protector: a chase.
    case(
        "chariot_chases_unprotected_cannon",
        "9/4k4/R8/9/7c1/9/9/9/9/3K5 w - - 0 1",
        "a7a5 h5h7 a5a7 h7h5 a7a5 h5h7 a5a7 h7h5",
        "black-wins perpetual-chase",
        "C.C.C.C.",
        DEFAULT,
    ),
    // Chariot a5/a7 faces chariot h5/h7, which can take back: an exchange offer, idle.
    case(
        "chariots_offering_exchange",
        "9/4k4/R8/9/7r1/9/9/9/9/3K5 w - - 0 1",
        "a7a5 h5h7 a5a7 h7h5 a7a5 h5h7 a5a7 h7h5",
        "draw repetition",
        "........",
        DEFAULT,
    ),
    // The red king attacks the unprotected cannon d2/e2 every move: king attacks are idle.
    case(
        "king_chasing_is_idle",
        "5k3/9/9/9/9/9/9/3c5/4K4/9 w - - 0 1",
        "e1d1 d2e2 d1e1 e2d2 e1d1 d2e2 d1e1 e2d2",
        "draw repetition",
        "........",
        DEFAULT,
    ),
    // Crossed pawn d6/e6 attacks the unprotected cannon d7/e7 every move: pawn attacks are idle.
    case(
        "pawn_chasing_is_idle",
        "3k5/9/3c5/4P4/9/9/9/9/9/5K3 w - - 0 1",
        "e6d6 d7e7 d6e6 e7d7 e6d6 d7e7 d6e6 e7d7",
        "draw repetition",
        "........",
        DEFAULT,
    ),
    // Chariot a0/i0 attacks pawns a6/i6 in turn: pawns on their own side are not material.
    case(
        "uncrossed_pawns_are_not_chased",
        "4k4/9/9/p7p/9/9/9/9/3K5/R8 w - - 0 1",
        "a0i0 e9f9 i0a0 f9e9 a0i0 e9f9 i0a0 f9e9",
        "draw repetition",
        "........",
        DEFAULT,
    ),
    // Same with pawns a4/i4 across the river: unprotected crossed pawns are chased.
    case(
        "crossed_pawns_are_chased",
        "4k4/9/9/9/9/p7p/9/9/3K5/R8 w - - 0 1",
        "a0i0 e9f9 i0a0 f9e9 a0i0 e9f9 i0a0 f9e9",
        "black-wins perpetual-chase",
        "C.C.C.C.",
        DEFAULT,
    ),
    // Red chariot hits horses b5/b7 in turn, black chariot hits horses h2/h4 in turn: both forbidden, draw.
    //   9 . . . . . k . . .
    //   8 . . . . . . . . .
    //   7 . n . . . . . . .
    //   6 . . . . . . . . .
    //   5 . n . . . . . . R
    //     ~~~~~~~~~~~~~~~~~
    //   4 r . . . . . . N .
    //   3 . . . . . . . . .
    //   2 . . . . . . . N .
    //   1 . . . . . . . . .
    //   0 . . . K . . . . .
    //     a b c d e f g h i
    case(
        "both_sides_chase",
        "5k3/9/1n7/9/1n6R/r6N1/9/7N1/9/3K5 w - - 0 1",
        "i5i7 a4a2 i7i5 a2a4 i5i7 a4a2 i7i5 a2a4",
        "draw repetition",
        "CCCCCCCC",
        DEFAULT,
    ),
    // Elephant e7 'protects' c5 but is pinned on the e-file by chariot e2: attacking c5 is a chase.
    //   9 . . . . . . . . .
    //   8 . . . . k . . . .
    //   7 . . . n b . . . .
    //   6 . . . . . . . . .
    //   5 R . . . . . . . .
    //     ~~~~~~~~~~~~~~~~~
    //   4 . . . . . . . . .
    //   3 . . . . . . . . .
    //   2 . . . . R . . . .
    //   1 . . . . . . . . .
    //   0 . . . K . . . . .
    //     a b c d e f g h i
    case(
        "pinned_protector_does_not_protect",
        "9/4k4/3nb4/9/R8/9/9/4R4/9/3K5 w - - 0 1",
        "a5a7 d7c5 a7a5 c5d7 a5a7 d7c5 a7a5 c5d7",
        "black-wins perpetual-chase",
        "C.C.C.C.",
        DEFAULT,
    ),
    // The same without chariot e2: attacking c5 is idle, so red has an idle move.
    case(
        "unpinned_protector_protects",
        "9/4k4/3nb4/9/R8/9/9/9/9/3K5 w - - 0 1",
        "a5a7 d7c5 a7a5 c5d7 a5a7 d7c5 a7a5 c5d7",
        "draw repetition",
        "C...C...",
        DEFAULT,
    ),
    // Chariot i5/i7 attacks the unprotected horses b5 and b7 in turn.
    case(
        "chasing_two_pieces_in_turn",
        "5k3/9/1n7/9/1n6R/9/9/9/9/3K5 w - - 0 1",
        "i5i7 f9f8 i7i5 f8f9 i5i7 f9f8 i7i5 f8f9",
        "black-wins perpetual-chase",
        "C.C.C.C.",
        DEFAULT,
    ),
    // Cannon e4/e3 unmasks chariot a3 or a4 on the unprotected horses i3/i4 in turn.
    //   9 . . . . . k . . .
    //   8 . . . . . . . . .
    //   7 . . . . . . . . .
    //   6 . . . . . . . . .
    //   5 . . . . . . . . .
    //     ~~~~~~~~~~~~~~~~~
    //   4 R . . . C . . . n
    //   3 R . . . . . . . n
    //   2 . . . . . . . . .
    //   1 . . . . . . . . .
    //   0 . . . K . . . . .
    //     a b c d e f g h i
    case(
        "discovered_chases",
        "5k3/9/9/9/9/R3C3n/R7n/9/9/3K5 w - - 0 1",
        "e4e3 f9f8 e3e4 f8f9 e4e3 f9f8 e3e4 f8f9",
        "black-wins perpetual-chase",
        "C.C.C.C.",
        DEFAULT,
    ),
    // Chariot a3/b3 keeps attacking horse i3: the attack is never new.
    case(
        "standing_attack_is_not_new",
        "5k3/9/9/9/9/9/R7n/9/9/3K5 w - - 0 1",
        "a3b3 f9f8 b3a3 f8f9 a3b3 f9f8 b3a3 f8f9",
        "draw repetition",
        "........",
        DEFAULT,
    ),
    // Chariot g4/g6 guards g1; taking a4 or a6 allows horse h3-g1 mate (pawn e2 holds e1).
    //   9 . . . . . k . . .
    //   8 . . . . . . . . .
    //   7 . . . . . . . . .
    //   6 n . . . . . . . .
    //   5 . . . . . . . . .
    //     ~~~~~~~~~~~~~~~~~
    //   4 c . . . . . R . .
    //   3 . . . . . . . n .
    //   2 . . . . p . . . .
    //   1 . . . . . . . . .
    //   0 . . . A K A . . .
    //     a b c d e f g h i
    case(
        "capture_losing_to_mate_is_not_a_chase",
        "5k3/9/9/n8/9/c5R2/7n1/4p4/9/3AKA3 w - - 0 1",
        "g4g6 f9f8 g6g4 f8f9 g4g6 f9f8 g6g4 f8f9",
        "draw repetition",
        "........",
        DEFAULT,
    ),
    // The same without pawn e2: the king escapes to e1, so the attacks are chases.
    case(
        "capture_not_losing_to_mate_is_a_chase",
        "5k3/9/9/n8/9/c5R2/7n1/9/9/3AKA3 w - - 0 1",
        "g4g6 f9f8 g6g4 f8f9 g4g6 f9f8 g6g4 f8f9",
        "black-wins perpetual-chase",
        "C.C.C.C.",
        DEFAULT,
    ),
    // The FEN counter is 119 plies: one more quiet ply reaches 60 moves.
    case(
        "move_limit_reached",
        "4k4/R8/9/9/9/9/9/9/9/1R1K5 w - - 119 1",
        "b0b1",
        "draw move-limit",
        ".",
        DEFAULT,
    ),
    // Counter 118: one quiet ply leaves the game one ply short.
    case(
        "move_limit_one_ply_short",
        "4k4/R8/9/9/9/1p7/9/9/9/1R1K5 w - - 118 1",
        "b0b1",
        "ongoing",
        ".",
        DEFAULT,
    ),
    // Counter 119, but the move captures.
    case(
        "capture_resets_the_move_limit",
        "4k4/R8/9/9/9/1p7/9/9/9/1R1K5 w - - 119 1",
        "b0b4",
        "ongoing",
        ".",
        DEFAULT,
    ),
    // Counter 99 under the 50-move (WXF) setting: one quiet ply ends it.
    case(
        "wxf_fifty_moves_reached",
        "4k4/R8/9/9/9/1p7/9/9/9/1R1K5 w - - 99 1",
        "b0b1",
        "draw move-limit",
        ".",
        WXF,
    ),
    // The same under the default 60 moves: ongoing.
    case(
        "wxf_fifty_moves_not_default",
        "4k4/R8/9/9/9/1p7/9/9/9/1R1K5 w - - 99 1",
        "b0b1",
        "ongoing",
        ".",
        DEFAULT,
    ),
    // Counter 98, then 11 red checks and replies (no position repeats), then two quiet plies: the 11th check and its reply do not count, so the limit falls at ply 24, not 22.
    case(
        "checks_beyond_the_cap_do_not_count",
        "9/4k4/8R/R8/9/9/p8/9/9/3K5 w - - 98 1",
        "a6e6 e8f8 e6f6 f8e8 i7i8 e8e9 f6e6 e9f9 i8i9 f9f8 e6f6 f8e8 f6f8 e8e7 f8f7 e7e8 f7e7 e8f8 i9i8 f8f9 e7f7 f9e9 i8i7 a3a2",
        "draw move-limit",
        "K.K.K.K.K.K.K.K.K.K.K...",
        DEFAULT,
    ),
    // The same checks with a cap of 11: all count, the limit falls at ply 22.
    case(
        "checks_within_a_larger_cap_count",
        "9/4k4/8R/R8/9/9/p8/9/9/3K5 w - - 98 1",
        "a6e6 e8f8 e6f6 f8e8 i7i8 e8e9 f6e6 e9f9 i8i9 f9f8 e6f6 f8e8 f6f8 e8e7 f8f7 e7e8 f7e7 e8f8 i9i8 f8f9 e7f7 f9e9",
        "draw move-limit",
        "K.K.K.K.K.K.K.K.K.K.K.",
        RuleSettings { move_limit: 60, check_cap: 11 },
    ),
    // Limit 3 moves, cap 1: the second check and its reply do not count, so 6 counted plies need 8.
    case(
        "small_cap_small_limit",
        "9/4k4/8R/9/9/9/p8/9/9/3K5 w - - 0 1",
        "i7i8 e8e9 i8i9 e9e8 i9i7 e8e9 i7i6 e9e8",
        "draw move-limit",
        "K.K.....",
        RuleSettings { move_limit: 3, check_cap: 1 },
    ),
    // Kings and an advisor only.
    case(
        "dead_material_from_the_start",
        "4k4/9/9/9/9/9/9/3A5/9/3K5 w - - 0 1",
        "",
        "draw dead-material",
        "",
        DEFAULT,
    ),
    // The advisor takes the last pawn.
    case(
        "dead_material_after_the_last_pawn_falls",
        "4k4/4a4/9/9/9/9/9/3A5/4p4/3K5 w - - 0 1",
        "d2e1",
        "draw dead-material",
        ".",
        DEFAULT,
    ),
];

fn parse_expect(s: &str) -> Outcome {
    let words: Vec<&str> = s.split(' ').collect();
    let reason = |w: &str| {
        [
            Reason::Checkmate,
            Reason::Stalemate,
            Reason::PerpetualCheck,
            Reason::PerpetualChase,
            Reason::Repetition,
            Reason::MoveLimit,
            Reason::DeadMaterial,
        ]
        .into_iter()
        .find(|r| r.word() == w)
        .unwrap_or_else(|| panic!("unknown reason '{w}'"))
    };
    match words[..] {
        ["ongoing"] => Outcome::Ongoing,
        ["red-wins", r] => Outcome::Win {
            winner: Color::Red,
            reason: reason(r),
        },
        ["black-wins", r] => Outcome::Win {
            winner: Color::Black,
            reason: reason(r),
        },
        ["draw", r] => Outcome::Draw { reason: reason(r) },
        _ => panic!("bad expectation '{s}'"),
    }
}

/// How a case is replayed: as written, mirrored left-right, with the
/// colours swapped (board turned 180°), or both.
#[derive(Clone, Copy, Debug)]
struct Variant {
    mirror: bool,
    swap: bool,
}

const VARIANTS: [Variant; 4] = [
    Variant {
        mirror: false,
        swap: false,
    },
    Variant {
        mirror: true,
        swap: false,
    },
    Variant {
        mirror: false,
        swap: true,
    },
    Variant {
        mirror: true,
        swap: true,
    },
];

impl Variant {
    fn fen(self, fen: &str) -> String {
        let mut pos = Position::from_fen(fen).expect("test FENs are legal");
        if self.mirror {
            pos = pos.mirrored();
        }
        if self.swap {
            pos = pos.colour_swapped();
        }
        pos.to_fen()
    }

    fn square(self, mut sq: Square) -> Square {
        if self.mirror {
            sq = sq.mirror();
        }
        if self.swap {
            sq = sq.rotate();
        }
        sq
    }

    fn mv(self, m: Move) -> Move {
        Move::new(self.square(m.from()), self.square(m.to()))
    }

    fn outcome(self, o: Outcome) -> Outcome {
        match o {
            Outcome::Win { winner, reason } if self.swap => Outcome::Win {
                winner: !winner,
                reason,
            },
            o => o,
        }
    }
}

fn class_char(c: MoveClass) -> char {
    match c {
        MoveClass::Check => 'K',
        MoveClass::Chase => 'C',
        MoveClass::Idle => '.',
    }
}

/// Plays a case and checks it; returns a description of the first problem.
fn check_case(case: &Case, v: Variant) -> Result<(), String> {
    let fen = v.fen(case.fen);
    let mut pos = Position::from_fen(&fen).map_err(|e| format!("bad FEN {fen}: {e}"))?;
    let moves: Vec<&str> = case.moves.split_ascii_whitespace().collect();
    let mut classes = String::new();
    for (i, text) in moves.iter().enumerate() {
        let before = (pos.key(), pos.ply_from_root());
        let o = rules::judge(&mut pos, &case.settings);
        if (pos.key(), pos.ply_from_root()) != before {
            return Err("judge did not restore the position".into());
        }
        if o != Outcome::Ongoing {
            return Err(format!("game ended early at ply {i}: {o:?}"));
        }
        let m = Move::parse(text)
            .filter(|m| m.is_some())
            .ok_or_else(|| format!("move {} '{text}' does not parse", i + 1))?;
        let m = v.mv(m);
        if !pos.is_pseudo_legal(m) || !pos.is_legal(m) {
            return Err(format!("move {} '{text}' ({m}) is illegal", i + 1));
        }
        pos.make_move(m);
        let key = pos.key();
        classes.push(class_char(rules::classify_last_move(&mut pos)));
        if pos.key() != key || pos.last_move() != m {
            return Err("classification did not restore the position".into());
        }
    }
    let want = v.outcome(parse_expect(case.expect));
    let got = rules::judge(&mut pos, &case.settings);
    if got != want {
        return Err(format!(
            "expected {want:?}, got {got:?} (classes {classes})"
        ));
    }
    if !case.classes.is_empty() && classes != case.classes {
        return Err(format!("expected classes {}, got {classes}", case.classes));
    }
    // A repetition verdict must come from a real third occurrence.
    if matches!(
        want.reason(),
        Some(Reason::PerpetualCheck | Reason::PerpetualChase | Reason::Repetition)
    ) {
        let states = pos.states();
        let key = pos.key();
        let n = states
            .iter()
            .rev()
            .step_by(2)
            .filter(|s| s.key == key)
            .count();
        if n != 3 {
            return Err(format!("final position occurred {n} times, not 3"));
        }
    }
    Ok(())
}

#[test]
fn there_are_at_least_forty_cases_with_distinct_names() {
    assert!(CASES.len() >= 40, "only {} cases", CASES.len());
    let mut names: Vec<&str> = CASES.iter().map(|c| c.name).collect();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), CASES.len(), "duplicate case names");
}

#[test]
fn verdicts_on_every_case_and_its_reflections() {
    let mut failures = vec![];
    for case in CASES {
        for v in VARIANTS {
            if let Err(e) = check_case(case, v) {
                failures.push(format!("{} {v:?}: {e}", case.name));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_judge_command_agrees_with_the_library() {
    for case in CASES {
        let v = judge_game(Some(case.fen), case.moves, &case.settings)
            .unwrap_or_else(|e| panic!("{}: {e}", case.name));
        assert_eq!(v.outcome, parse_expect(case.expect), "{}", case.name);
        assert_eq!(
            v.ply,
            case.moves.split_ascii_whitespace().count(),
            "{}",
            case.name
        );
        assert_eq!(v.moves_after_end, 0, "{}", case.name);
    }
}

/// Plays `moves` from `fen`, panicking on anything illegal.
fn play(fen: &str, moves: &str) -> Position {
    let mut pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    for text in moves.split_ascii_whitespace() {
        let m = Move::parse(text).unwrap_or_else(|| panic!("bad move {text}"));
        assert!(
            pos.is_pseudo_legal(m) && pos.is_legal(m),
            "{text} illegal in {}",
            pos.to_fen()
        );
        pos.make_move(m);
    }
    pos
}

fn case_named(name: &str) -> &'static Case {
    CASES
        .iter()
        .find(|c| c.name == name)
        .unwrap_or_else(|| panic!("no case {name}"))
}

/// Whether, after `capture`, the other side can legally take back. The
/// capturing side passes first if it is not on move (as the chase test
/// itself does).
fn can_take_back(pos: &mut Position, capture: &str) -> bool {
    let m = Move::parse(capture).unwrap();
    if pos.piece_on(m.from()).color() != pos.side_to_move() {
        assert!(!pos.in_check());
        pos.make_null_move();
    }
    assert!(pos.is_pseudo_legal(m) && pos.is_legal(m), "{capture}");
    assert!(pos.piece_on(m.to()).is_some(), "{capture} is not a capture");
    pos.make_move(m);
    let back = movegen::legal_moves(pos).iter().any(|r| r.to() == m.to());
    pos.unmake_move();
    back
}

/// The protection the case comments rely on is really there (or really
/// false), so the cases test what they say.
#[test]
fn protection_claims_in_the_cases_hold() {
    let claims: &[(&str, &str, &str, bool)] = &[
        ("chariot_attacks_protected_horse", "a5a7", "a7d7", true),
        (
            "chariot_attacks_protected_horse",
            "a5a7 d7c5 a7a5",
            "a5c5",
            true,
        ),
        ("chariot_chases_unprotected_horse", "a5a7", "a7d7", false),
        (
            "chariot_chases_unprotected_horse",
            "a5a7 d7c5 a7a5",
            "a5c5",
            false,
        ),
        ("horse_chases_protected_chariot", "c5d7", "d7b8", true),
        (
            "horse_chases_protected_chariot",
            "c5d7 b8b7 d7c5",
            "c5b7",
            true,
        ),
        ("cannon_chases_protected_chariot", "g7g8", "g8b8", true),
        (
            "cannon_chases_protected_chariot",
            "g7g8 b8b7 g8g7",
            "g7b7",
            true,
        ),
        ("chariot_attacks_protected_cannon", "a7a5", "a5h5", true),
        (
            "chariot_attacks_protected_cannon",
            "a7a5 h5h7 a5a7",
            "a7h7",
            true,
        ),
        ("chariot_chases_unprotected_cannon", "a7a5", "a5h5", false),
        (
            "pinned_protector_does_not_protect",
            "a5a7 d7c5 a7a5",
            "a5c5",
            false,
        ),
        (
            "unpinned_protector_protects",
            "a5a7 d7c5 a7a5",
            "a5c5",
            true,
        ),
        ("unpinned_protector_protects", "a5a7", "a7d7", false),
        ("crossed_pawns_are_chased", "a0i0", "i0i4", false),
    ];
    for &(name, moves, capture, protected) in claims {
        let case = case_named(name);
        let mut pos = play(case.fen, moves);
        assert_eq!(
            can_take_back(&mut pos, capture),
            protected,
            "{name}: after {moves}, {capture}"
        );
    }
    // The elephant in the pinned case would take back if it could move.
    let case = case_named("pinned_protector_does_not_protect");
    let mut pos = play(case.fen, "a5a7 d7c5 a7a5");
    pos.make_null_move();
    pos.make_move(Move::parse("a5c5").unwrap());
    let e7c5 = Move::parse("e7c5").unwrap();
    assert!(pos.is_pseudo_legal(e7c5) && !pos.is_legal(e7c5));
    // Taking a4 in the mate case really allows mate in one.
    let case = case_named("capture_losing_to_mate_is_not_a_chase");
    let mut pos = play(case.fen, "g4a4 h3g1");
    assert!(pos.in_check() && !movegen::has_legal_move(&pos));
    assert_eq!(
        rules::judge(&mut pos, &DEFAULT),
        Outcome::Win {
            winner: Color::Black,
            reason: Reason::Checkmate
        }
    );
}

#[test]
fn search_sees_a_single_repetition_from_the_mover_side() {
    // Perpetual check by red: after one cycle red (to move) is the checker.
    let case = case_named("perpetual_check_chariot");
    let mut pos = play(case.fen, "i9i8 e8e9 i8i9 e9e8");
    let before = (pos.key(), pos.ply_from_root(), pos.to_fen());
    assert_eq!(
        rules::repetition_verdict(&mut pos),
        Some(RepetitionVerdict::SideToMoveLoses)
    );
    assert_eq!((pos.key(), pos.ply_from_root(), pos.to_fen()), before);
    // One ply later black is to move and red completed the cycle.
    pos.make_move(Move::parse("i9i8").unwrap());
    assert_eq!(
        rules::repetition_verdict(&mut pos),
        Some(RepetitionVerdict::SideToMoveWins)
    );
    // The referee still plays on at the second occurrence.
    assert_eq!(rules::judge(&mut pos, &DEFAULT), Outcome::Ongoing);

    // Chaser to move after one cycle of a perpetual chase.
    let case = case_named("chariot_chases_unprotected_horse");
    let mut pos = play(case.fen, "a5a7 d7c5 a7a5 c5d7");
    assert_eq!(
        rules::repetition_verdict(&mut pos),
        Some(RepetitionVerdict::SideToMoveLoses)
    );
    // Allowed on both sides, or forbidden on both: a draw.
    for name in [
        "check_and_idle_alternating",
        "mutual_perpetual_check",
        "both_sides_chase",
        "chariot_attacks_protected_horse",
    ] {
        let case = case_named(name);
        let cycle: Vec<&str> = case.moves.split_ascii_whitespace().take(4).collect();
        let mut pos = play(case.fen, &cycle.join(" "));
        assert_eq!(
            rules::repetition_verdict(&mut pos),
            Some(RepetitionVerdict::Draw),
            "{name}"
        );
    }
}

#[test]
fn search_and_referee_share_the_verdict() {
    // For every repetition case, the in-search verdict on the last cycle
    // and the referee's verdict over two cycles name the same loser.
    for case in CASES {
        let want = parse_expect(case.expect);
        if !matches!(
            want.reason(),
            Some(Reason::PerpetualCheck | Reason::PerpetualChase | Reason::Repetition)
        ) {
            continue;
        }
        let mut pos = play(case.fen, case.moves);
        let stm = pos.side_to_move();
        let expected = match want {
            Outcome::Win { winner, .. } if winner == stm => RepetitionVerdict::SideToMoveWins,
            Outcome::Win { .. } => RepetitionVerdict::SideToMoveLoses,
            _ => RepetitionVerdict::Draw,
        };
        assert_eq!(
            rules::repetition_verdict(&mut pos),
            Some(expected),
            "{}",
            case.name
        );
    }
}

#[test]
fn repetition_scans_stop_at_null_moves_and_captures() {
    let fen = case_named("check_and_idle_alternating").fen;
    // Black passes twice: the placement recurs but only across null moves.
    let mut pos = play(fen, "");
    for text in ["i7i6", "", "i6i7", ""] {
        if text.is_empty() {
            pos.make_null_move();
        } else {
            pos.make_move(Move::parse(text).unwrap());
        }
    }
    assert_eq!(pos.key(), play(fen, "").key());
    assert_eq!(rules::repetition_verdict(&mut pos), None);
    // The same walk with real king moves is a repetition.
    let mut pos = play(fen, "i7i6 e8e9 i6i7 e9e8");
    assert_eq!(
        rules::repetition_verdict(&mut pos),
        Some(RepetitionVerdict::Draw)
    );
    // A FEN counter of 0 at the root: the history alone bounds the scan,
    // and a capture right before would end it.
    let case = case_named("capture_resets_the_move_limit");
    let mut pos = play(case.fen, case.moves);
    assert_eq!(pos.rule60(), 0);
    assert_eq!(rules::repetition_verdict(&mut pos), None);
}

/// A reversible stretch of `plies` quiet moves from the start position in
/// which no position repeats (deterministic pseudo-random choice).
fn quiet_game(plies: usize) -> Position {
    let mut pos = Position::startpos();
    let mut seen = vec![pos.key()];
    let mut rng = XorShift(0x9e37_79b9_7f4a_7c15);
    while pos.ply_from_root() < plies {
        let list = movegen::legal_moves(&pos);
        let quiet: Vec<Move> = list
            .iter()
            .copied()
            .filter(|m| pos.piece_on(m.to()).is_none())
            .collect();
        assert!(!quiet.is_empty());
        let start = rng.below(quiet.len());
        let mut made = false;
        for k in 0..quiet.len() {
            let m = quiet[(start + k) % quiet.len()];
            pos.make_move(m);
            if !seen.contains(&pos.key()) && !pos.in_check() {
                seen.push(pos.key());
                made = true;
                break;
            }
            pos.unmake_move();
        }
        assert!(made, "stuck at ply {}", pos.ply_from_root());
    }
    pos
}

#[test]
fn no_repetition_is_none_and_cheap() {
    let mut pos = quiet_game(100);
    assert_eq!(pos.rule60(), 100);
    assert_eq!(rules::repetition_verdict(&mut pos), None);
    assert_eq!(rules::judge(&mut pos, &DEFAULT), Outcome::Ongoing);
    // Timing is printed, not asserted (shared machines vary).
    let n = 1_000_000;
    let start = Instant::now();
    let mut hits = 0;
    for _ in 0..n {
        hits += std::hint::black_box(rules::repetition_verdict(std::hint::black_box(&mut pos)))
            .is_some() as u32;
    }
    let ns = start.elapsed().as_nanos() as f64 / n as f64;
    assert_eq!(hits, 0);
    println!("repetition_verdict, 100 reversible plies, no repetition: {ns:.1} ns/call");
}

#[test]
fn mate_on_the_move_that_reaches_the_limit_still_counts() {
    // The search and the referee read the same verdict from `rules`.
    let case = case_named("mate_on_the_move_reaching_the_limit");
    let mut pos = Position::from_fen(case.fen).unwrap();
    assert!(rules::rule_result_possible(&pos));
    assert_eq!(rules::move_limit_verdict(&pos, &DEFAULT), None);
    pos.make_move(Move::parse("b0b9").unwrap());
    assert_eq!(
        rules::move_limit_verdict(&pos, &DEFAULT),
        Some(rules::MoveLimitVerdict::SideToMoveLoses)
    );
    // A quiet move to the limit instead: a draw.
    let mut pos = Position::from_fen(case.fen).unwrap();
    pos.make_move(Move::parse("d0d1").unwrap());
    assert_eq!(
        rules::move_limit_verdict(&pos, &DEFAULT),
        Some(rules::MoveLimitVerdict::Draw)
    );
    assert!(!rules::rule_result_possible(&Position::startpos()));
}

#[test]
fn move_limit_counting_is_cheap_below_the_limit_and_exact_at_it() {
    let mut pos = quiet_game(119);
    assert!(!rules::move_limit_reached(&pos, &DEFAULT));
    let m = movegen::legal_moves(&pos)
        .iter()
        .copied()
        .find(|m| pos.piece_on(m.to()).is_none() && !pos.gives_check(*m))
        .unwrap();
    pos.make_move(m);
    assert!(rules::move_limit_reached(&pos, &DEFAULT));
    assert!(rules::move_limit_reached(&pos, &WXF));
    assert!(!rules::move_limit_reached(
        &pos,
        &RuleSettings {
            move_limit: 0,
            check_cap: 10
        }
    ));
}

#[test]
fn default_settings_are_sixty_moves_and_ten_checks() {
    assert_eq!(RuleSettings::default(), DEFAULT);
    assert_eq!(WXF.move_limit, 50);
}

/// Runs the `chuhe judge` binary; returns (exit code, stdout, stderr).
fn run_judge(args: &[&str]) -> (i32, String, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_chuhe"))
        .arg("judge")
        .args(args)
        .output()
        .expect("the chuhe binary runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn judge_command_line() {
    let case = case_named("chariot_chases_unprotected_horse");
    let (code, out, _) = run_judge(&["--fen", case.fen, "--moves", case.moves]);
    assert_eq!(code, 0);
    assert_eq!(out, "result black-wins reason perpetual-chase ply 8\n");

    let (code, out, _) = run_judge(&["--moves", "h2e2 h9g7"]);
    assert_eq!(
        (code, out.as_str()),
        (0, "result ongoing reason none ply 2\n")
    );

    let case = case_named("wxf_fifty_moves_reached");
    let (_, out, _) = run_judge(&[
        "--fen",
        case.fen,
        "--moves",
        case.moves,
        "--draw-moves",
        "50",
    ]);
    assert_eq!(out, "result draw reason move-limit ply 1\n");
    let (_, out, _) = run_judge(&["--fen", case.fen, "--moves", case.moves]);
    assert_eq!(out, "result ongoing reason none ply 1\n");

    // The moves' classes on request, on stderr.
    let case = case_named("check_and_chase_alternating");
    let (_, _, err) = run_judge(&["--fen", case.fen, "--moves", "i7i8 e8e9 i8i7", "--trace"]);
    assert_eq!(err, "ply 1 i7i8 check\nply 2 e8e9 idle\nply 3 i8i7 chase\n");

    // Errors name the move and its 1-based index; exit code 2.
    for (moves, needle) in [
        ("h2e2 h9g7 e2e9", "move 3 'e2e9'"),
        ("h2e2 0000", "move 2 '0000'"),
        ("h2e2 h9", "move 2 'h9'"),
    ] {
        let (code, out, err) = run_judge(&["--moves", moves]);
        assert_eq!(code, 2, "{moves}");
        assert!(out.is_empty(), "{moves}");
        assert!(err.contains(needle), "{moves}: {err}");
    }
    let (code, _, err) = run_judge(&["--fen", "rnbakabnr/9 w"]);
    assert_eq!(code, 2);
    assert!(err.contains("invalid FEN"), "{err}");
}

//! Perft against the reference counts: every depth whose count is under
//! about five million runs in the normal test run; deeper ones are ignored
//! by default (`cargo test --release -- --ignored` runs them).

use chuhe::movegen::perft;
use chuhe::position::Position;

/// (FEN, counts for depth 1, 2, ...).
const TABLE: &[(&str, &[u64])] = &[
    (
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
        &[44, 1920, 79666, 3290240, 133312995, 5392831844],
    ),
    (
        "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
        &[38, 1128, 43929, 1339047, 53112976],
    ),
    (
        "r2akab1r/3n5/4b3n/p1p1pRp1p/9/2P3P2/P3P3c/N2C3C1/4A4/1RBAK1B2 w - - 0 1",
        &[58, 1651, 90744, 2605437, 140822416],
    ),
    (
        "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1",
        &[49, 2265, 100326, 4485547],
    ),
    (
        "4kcP1N/8n/3rb4/9/9/9/9/3p1A3/4K4/5CB2 w - - 0 1",
        &[13, 272, 3707, 92741],
    ),
    (
        "1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w - - 0 1",
        &[7, 281, 8620, 326201, 10369923],
    ),
    (
        "5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w - - 0 1",
        &[25, 424, 9850, 202884, 4739553],
    ),
    (
        "CRN1k1b2/3ca4/4ba3/9/2nr5/9/9/4B4/4A4/4KA3 w - - 0 1",
        &[28, 516, 14808, 395483, 11842230],
    ),
    (
        "R1N1k1b2/9/3aba3/9/2nr5/2B6/9/4B4/4A4/4KA3 w - - 0 1",
        &[21, 364, 7626, 162837, 3500505],
    ),
    (
        "C1nNk4/9/9/9/9/9/n1pp5/B3C4/9/3A1K3 w - - 0 1",
        &[28, 222, 6241, 64971, 1914306],
    ),
    (
        "4ka3/4a4/9/9/4N4/p8/9/4C3c/7n1/2BK5 w - - 0 1",
        &[23, 345, 8124, 149272, 3513104],
    ),
    (
        "2b1ka3/9/b3N4/4n4/9/9/9/4C4/2p6/2BK5 w - - 0 1",
        &[21, 195, 3883, 48060, 933096],
    ),
    (
        "1C2ka3/9/C1Nab1n2/p3p3p/6p2/9/P3P3P/3AB4/3p2c2/c1BAK4 w - - 0 1",
        &[30, 830, 22787, 649866, 17920736],
    ),
    (
        "CnN1k1b2/c3a4/4ba3/9/2nr5/9/9/4C4/4A4/4KA3 w - - 0 1",
        &[19, 583, 11714, 376467, 8148177],
    ),
    (
        "r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1CN3NC1/9/R1BAKAB1R w - - 0 1",
        &[36, 1292, 47994, 1777662, 67407683],
    ),
    (
        "r1bakab1r/9/1c2c4/p3p3p/2p3p2/2P3P2/P3P3P/1C2C4/9/R1BAKAB1R w - - 0 1",
        &[33, 1066, 36542, 1259434],
    ),
    // Composed problems (排局): pieces where no game brings them. Counts
    // from Fairy-Stockfish's pyffish 0.0.90 (variant xiangqi), run once.
    // a black pawn on its own back rank (f9), as users sent it
    (
        "2bakp3/R3a4/3P1P1R1/2N3N2/6P2/7c1/2p6/4B1p2/1r2A4/3K5 w - - 0 1",
        &[50, 1838, 83128, 2866947],
    ),
    // red pawns behind their start and on odd files (g0, c1, i2, b3, h4)
    (
        "r1ba1kbn1/4a4/1cn4c1/p2rp3R/5N3/6BP1/1P7/1N5CP/2P1A4/R1BAK1P2 w - - 0 1",
        &[47, 1901, 84183, 3345564],
    ),
    // black pawns behind their start (d9, b8, h7, f6, d5) and an elephant on e5
    (
        "2bpka2r/1pc1a4/6np1/2R2p3/3pb1N2/1n2N3P/P1P4r1/3AB2C1/R3A4/1C1K2B2 b - - 0 1",
        &[38, 1723, 63503, 2870117],
    ),
    // advisors off the palace diagonals (e0, d1; e9, f8)
    (
        "r1bka1b2/5a3/2n3ncr/2p1p1pR1/1c7/9/P3P3P/1CN3N2/3A5/1RB1AKB2 w - - 0 1",
        &[33, 1509, 52425, 2327208],
    ),
    // elephants off their seven points (b1, e3; d8, i5)
    (
        "rn1a1k2r/3ba4/1c3c1n1/p1p3p2/8b/2N4C1/P3B1P1P/1C4N2/1B2A4/R2AK2R1 w - - 0 1",
        &[47, 1921, 87752, 3500505],
    ),
    // all of these, Black to move and in check
    (
        "2b1ap1R1/3k1a3/c8/1N2b1P2/1n2N2c1/BP6r/2pR5/5ApC1/1rP6/4AKB2 b - - 0 1",
        &[6, 255, 12542, 512365],
    ),
];

/// Counts at or above this run only on demand.
const DEEP: u64 = 5_000_000;

fn check(filter: impl Fn(u64) -> bool) -> usize {
    let mut checked = 0;
    for (fen, counts) in TABLE {
        let mut pos = Position::from_fen(fen).unwrap();
        for (i, &expected) in counts.iter().enumerate() {
            if filter(expected) {
                let depth = i as u32 + 1;
                assert_eq!(perft(&mut pos, depth), expected, "perft {depth} of {fen}");
                assert_eq!(pos.to_fen(), *fen, "perft left the position changed");
                checked += 1;
            }
        }
    }
    checked
}

#[test]
fn perft_table_shallow() {
    let n = check(|c| c < DEEP);
    assert!(n >= 60, "only {n} rows checked");
}

#[test]
#[ignore = "deep perft: minutes in release; run with --ignored"]
fn perft_table_deep() {
    check(|c| c >= DEEP);
}

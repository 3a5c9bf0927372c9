//! Any text as a FEN: rejected with an error or accepted; an accepted
//! position must write a FEN that reads back as the same position.
#![no_main]

use chuhe::position::Position;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Ok(pos) = Position::from_fen(&text) {
        let fen = pos.to_fen();
        let again = Position::from_fen(&fen).expect("a written FEN reads back");
        assert_eq!(again.key(), pos.key(), "{fen}");
        assert_eq!(again.to_fen(), fen);
    }
});

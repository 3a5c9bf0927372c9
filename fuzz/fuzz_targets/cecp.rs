//! A whole CECP (XBoard) session on arbitrary input, searches kept short:
//! the session opens with `xboard` and a 20 ms move time, lines that would
//! set longer clocks or deeper searches are dropped, and the blocking tools
//! are left out, so that the fuzzer spends its time on the dialect's state
//! (force, pondering, analysis, take-backs, setboard), not on searching.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut input = b"xboard\nprotover 2\nst 0.02\nsd 3\n".to_vec();
    for line in data.split(|&b| b == b'\n') {
        let text = String::from_utf8_lossy(line).to_ascii_lowercase();
        let word = text.split_whitespace().next().unwrap_or("");
        match word {
            "level" | "st" | "sd" | "time" | "nps" => {}
            "perft" | "divide" | "bench" => {}
            // A 32 GB table or 256 threads per input would measure the
            // machine, not the parser.
            "memory" | "cores" => {}
            "option" if text.contains("hash") || text.contains("thread") => {}
            // `new` clears sd; keep searches shallow after it too.
            "new" => input.extend_from_slice(b"new\nsd 3"),
            _ => input.extend_from_slice(line),
        }
        input.push(b'\n');
    }
    let mut out = Vec::new();
    chuhe::protocol::run(std::io::Cursor::new(input), &mut out);
});

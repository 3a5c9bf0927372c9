//! A whole protocol session on arbitrary input, searches kept short: every
//! `go` becomes `go depth 1` and the blocking tools are dropped, so that the
//! fuzzer spends its time on command handling, not on searching or
//! allocating.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut input = Vec::with_capacity(data.len());
    for line in data.split(|&b| b == b'\n') {
        let text = String::from_utf8_lossy(line).to_ascii_lowercase();
        let word = text.split_whitespace().next().unwrap_or("");
        match word {
            "go" => input.extend_from_slice(b"go depth 1"),
            "perft" | "divide" | "bench" => {}
            // A 32 GB table or 256 threads per input would measure the
            // machine, not the parser.
            "setoption" if text.contains("hash") || text.contains("thread") => {}
            _ => input.extend_from_slice(line),
        }
        input.push(b'\n');
    }
    let mut out = Vec::new();
    chuhe::protocol::run(std::io::Cursor::new(input), &mut out);
});

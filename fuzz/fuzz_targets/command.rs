//! One input line through the command parser, and a `position` line on to
//! the position it describes: nothing may panic.
#![no_main]

use chuhe::protocol::build_position;
use chuhe::protocol::parse::{Command, clean_line, parse_command};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let line = clean_line(data);
    match parse_command(&line) {
        Ok(Some(Command::Position(spec))) | Ok(Some(Command::Probe(Some(spec)))) => {
            let _ = build_position(&spec);
        }
        _ => {}
    }
});

//! Small text helpers shared by the protocol, the notation and the arena,
//! each written once: the on/off words, the clipped copy of input quoted in
//! a diagnostic, and a thread that cuts a byte stream into lines.

use std::io::{BufRead, BufReader, Read};

/// `true/on/yes/1` or `false/off/no/0`, any case; else `None`.
pub fn parse_bool(v: &str) -> Option<bool> {
    match v.to_ascii_lowercase().as_str() {
        "true" | "on" | "yes" | "1" => Some(true),
        "false" | "off" | "no" | "0" => Some(false),
        _ => None,
    }
}

/// Diagnostics quote at most this many characters of the input.
pub const CLIP_LIMIT: usize = 40;

/// The first [`CLIP_LIMIT`] characters of `text`, then `more` if it was
/// longer: what a diagnostic quotes of input it could not use.
pub fn clip(text: &str, more: &str) -> String {
    let mut s: String = text.chars().take(CLIP_LIMIT).collect();
    if text.chars().count() > CLIP_LIMIT {
        s.push_str(more);
    }
    s
}

/// Reads `input` on a thread named `name`, cut into lines at `\n` (which
/// is dropped). Each line goes to `line` as its first `max` bytes and its
/// whole length, until `line` returns `false`. When the input ends, `end`
/// gets the read error if that is why (a line cut short by the end is
/// passed on first); `end` does not run when `line` stopped the reading.
/// Fails only when the thread cannot be started.
pub fn spawn_line_reader<R, L, E>(
    name: &str,
    input: R,
    max: usize,
    mut line: L,
    end: E,
) -> std::io::Result<()>
where
    R: Read + Send + 'static,
    L: FnMut(&[u8], usize) -> bool + Send + 'static,
    E: FnOnce(Option<std::io::Error>) + Send + 'static,
{
    std::thread::Builder::new()
        .name(name.to_string())
        .spawn(move || {
            let mut reader = BufReader::with_capacity(1 << 16, input);
            let mut buf: Vec<u8> = Vec::new();
            let mut len = 0usize;
            let keep = |buf: &mut Vec<u8>, bytes: &[u8], len: &mut usize| {
                let room = max.saturating_sub(buf.len());
                buf.extend_from_slice(&bytes[..bytes.len().min(room)]);
                *len = len.saturating_add(bytes.len());
            };
            let error = loop {
                let (consumed, complete) = match reader.fill_buf() {
                    Ok([]) => break None,
                    Ok(bytes) => match bytes.iter().position(|&b| b == b'\n') {
                        Some(i) => {
                            keep(&mut buf, &bytes[..i], &mut len);
                            (i + 1, true)
                        }
                        None => {
                            keep(&mut buf, bytes, &mut len);
                            (bytes.len(), false)
                        }
                    },
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                    Err(e) => break Some(e),
                };
                reader.consume(consumed);
                if complete {
                    let go_on = line(&buf, len);
                    buf.clear();
                    len = 0;
                    if !go_on {
                        return;
                    }
                }
            };
            if len > 0 && !line(&buf, len) {
                return;
            }
            end(error);
        })
        .map(|_| ())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc;

    #[test]
    fn words_and_clips() {
        assert_eq!(parse_bool("On"), Some(true));
        assert_eq!(parse_bool("0"), Some(false));
        assert_eq!(parse_bool("maybe"), None);
        assert_eq!(clip("short", "..."), "short");
        let long = "x".repeat(CLIP_LIMIT + 1);
        assert_eq!(clip(&long, "…"), format!("{}…", &long[..CLIP_LIMIT]));
    }

    #[test]
    fn lines_are_cut_capped_and_ended() {
        let (tx, rx) = mpsc::channel();
        let end_tx = tx.clone();
        let input: &'static [u8] = b"one\n\ntoolong\nlast";
        spawn_line_reader(
            "test",
            input,
            4,
            move |bytes, len| {
                tx.send(format!("{}/{len}", String::from_utf8_lossy(bytes)))
                    .is_ok()
            },
            move |err| {
                let _ = end_tx.send(format!("end {}", err.is_some()));
            },
        )
        .unwrap();
        let got: Vec<String> = rx.iter().take(5).collect();
        assert_eq!(got, ["one/3", "/0", "tool/7", "last/4", "end false"]);
    }
}

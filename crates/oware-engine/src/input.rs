//! Lines read from standard input, whatever bytes arrive: a GUI, a script or a person at a
//! terminal set to another encoding may send anything. A line is decoded leniently (bytes that are
//! not UTF-8 become U+FFFD, so the command they spoil is refused by name instead of ending the
//! program), and no more than [`MAX_LINE`] bytes of one line are ever held.

use std::io::{self, BufRead, Read};

/// The longest line taken, in bytes. Commands are short; the bound keeps what a stream without
/// newlines costs to a fixed amount.
pub const MAX_LINE: usize = 1 << 16;

/// What one read gave.
#[derive(Debug, PartialEq, Eq)]
pub enum Line {
    /// A line, trimmed of surrounding white space (the newline with it).
    Text(String),
    /// A line longer than [`MAX_LINE`]: read to its end and dropped.
    TooLong,
    /// The input has ended.
    End,
}

/// Reads the next line of `input`.
pub fn read_line(input: &mut impl BufRead) -> io::Result<Line> {
    let mut buf = Vec::new();
    // One byte more than a line may have, for the newline of the longest one allowed.
    let read = input
        .by_ref()
        .take(MAX_LINE as u64 + 1)
        .read_until(b'\n', &mut buf)?;
    if read == 0 {
        return Ok(Line::End);
    }
    if buf.len() > MAX_LINE && buf.last() != Some(&b'\n') {
        input.skip_until(b'\n')?;
        return Ok(Line::TooLong);
    }
    Ok(Line::Text(String::from_utf8_lossy(&buf).trim().to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all_lines(bytes: &[u8]) -> Vec<Line> {
        let mut input = io::Cursor::new(bytes);
        let mut lines = Vec::new();
        loop {
            let line = read_line(&mut input).unwrap();
            let end = line == Line::End;
            lines.push(line);
            if end {
                return lines;
            }
        }
    }

    fn text(s: &str) -> Line {
        Line::Text(s.to_string())
    }

    #[test]
    fn lines_are_trimmed_and_the_last_needs_no_newline() {
        assert_eq!(
            all_lines(b" go depth 3 \r\n\nquit"),
            [text("go depth 3"), text(""), text("quit"), Line::End]
        );
        assert_eq!(all_lines(b""), [Line::End]);
    }

    #[test]
    fn bytes_that_are_not_utf8_spoil_only_their_line() {
        assert_eq!(
            all_lines(b"save \xe9t\xe9.ogn\nmoves\n"),
            [text("save \u{fffd}t\u{fffd}.ogn"), text("moves"), Line::End]
        );
    }

    #[test]
    fn a_line_too_long_is_dropped_whole_and_the_next_is_read() {
        let longest = "x".repeat(MAX_LINE);
        let mut bytes = format!("{longest}\n").into_bytes();
        bytes.extend(vec![b'y'; 3 * MAX_LINE + 5]);
        bytes.extend(b"\nisready\n");
        // And one with no newline before the end of the input.
        bytes.extend(vec![b'z'; MAX_LINE + 1]);
        assert_eq!(
            all_lines(&bytes),
            [
                Line::Text(longest),
                Line::TooLong,
                text("isready"),
                Line::TooLong,
                Line::End
            ]
        );
    }
}

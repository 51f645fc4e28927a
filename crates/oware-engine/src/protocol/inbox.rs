//! The protocol's input, read by a thread of its own into a queue: while a command waits for a
//! search to end, the lines behind it are already read, so a `stop` or `quit` among them is seen at
//! once instead of after the search.

use std::collections::VecDeque;
use std::io::{self, BufRead};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::Duration;

use crate::input::{read_line, Line};

/// The most lines read ahead. A GUI sends a handful of lines at a time; the bound keeps what a
/// stream of lines sent during a long search costs to a fixed amount (the reader waits for room).
const MAX_QUEUED: usize = 256;

/// Lines read and not yet handled.
#[derive(Default)]
pub(super) struct Inbox {
    state: Mutex<Queue>,
    changed: Condvar,
}

#[derive(Default)]
struct Queue {
    lines: VecDeque<io::Result<Line>>,
    /// The session is over: nothing more is read.
    closed: bool,
}

impl Inbox {
    fn lock(&self) -> MutexGuard<'_, Queue> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Reads `input` into the inbox on a thread of its own, up to the end of the input, a read
    /// error, or the first line after [`Inbox::close`]. The thread is not waited for: a GUI keeps
    /// its end of the pipe open after `quit`, and the reader may be blocked on it.
    pub fn read_from(self: &Arc<Self>, mut input: impl BufRead + Send + 'static) {
        let inbox = Arc::clone(self);
        std::thread::spawn(move || loop {
            let line = read_line(&mut input);
            let last = !matches!(line, Ok(Line::Text(_) | Line::TooLong));
            if !inbox.push(line) || last {
                break;
            }
        });
    }

    /// Queues a line, waiting for room; false once the inbox is closed.
    fn push(&self, line: io::Result<Line>) -> bool {
        let mut queue = self.lock();
        while queue.lines.len() >= MAX_QUEUED && !queue.closed {
            queue = self.changed.wait(queue).unwrap_or_else(|e| e.into_inner());
        }
        if queue.closed {
            return false;
        }
        queue.lines.push_back(line);
        self.changed.notify_all();
        true
    }

    /// The next line, waiting for one.
    pub fn next(&self) -> io::Result<Line> {
        let mut queue = self.lock();
        loop {
            if let Some(line) = queue.lines.pop_front() {
                self.changed.notify_all();
                return line;
            }
            queue = self.changed.wait(queue).unwrap_or_else(|e| e.into_inner());
        }
    }

    /// Whether a `stop` or `quit` waits in the queue; when none does yet, waits up to `timeout` for
    /// more lines before answering.
    pub fn stop_queued(&self, timeout: Duration) -> bool {
        let holds_stop = |queue: &Queue| {
            queue.lines.iter().any(|line| match line {
                Ok(Line::Text(text)) => {
                    matches!(text.split_whitespace().next(), Some("stop" | "quit"))
                }
                _ => false,
            })
        };
        let queue = self.lock();
        if holds_stop(&queue) {
            return true;
        }
        let (queue, _) = self
            .changed
            .wait_timeout(queue, timeout)
            .unwrap_or_else(|e| e.into_inner());
        holds_stop(&queue)
    }

    /// Ends the session's reading: the lines left are dropped and the reader stops at its next line.
    pub fn close(&self) {
        let mut queue = self.lock();
        queue.closed = true;
        queue.lines.clear();
        self.changed.notify_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(s: &str) -> Line {
        Line::Text(s.to_string())
    }

    #[test]
    fn lines_come_in_order_and_a_queued_stop_is_seen_ahead() {
        let inbox = Arc::new(Inbox::default());
        inbox.read_from(io::Cursor::new(
            b"go movetime 20000\nposition startpos\nstop\n".to_vec(),
        ));
        assert_eq!(inbox.next().unwrap(), text("go movetime 20000"));
        // The reader runs on: wait for it to queue the `stop`.
        while !inbox.stop_queued(Duration::from_millis(10)) {}
        assert_eq!(inbox.next().unwrap(), text("position startpos"));
        assert_eq!(inbox.next().unwrap(), text("stop"));
        assert_eq!(inbox.next().unwrap(), Line::End);
        assert!(!inbox.stop_queued(Duration::ZERO));
    }

    #[test]
    fn only_stop_and_quit_count_and_a_closed_inbox_takes_nothing() {
        let inbox = Inbox::default();
        assert!(inbox.push(Ok(text("stopper"))));
        assert!(inbox.push(Ok(text("isready"))));
        assert!(!inbox.stop_queued(Duration::ZERO));
        assert!(inbox.push(Ok(text("quit"))));
        assert!(inbox.stop_queued(Duration::ZERO));
        inbox.close();
        assert!(!inbox.stop_queued(Duration::ZERO));
        assert!(!inbox.push(Ok(text("isready"))));
    }

    #[test]
    fn the_reader_waits_for_room() {
        let inbox = Arc::new(Inbox::default());
        let many = "isready\n".repeat(MAX_QUEUED + 10);
        inbox.read_from(io::Cursor::new(many.into_bytes()));
        for _ in 0..MAX_QUEUED + 10 {
            assert_eq!(inbox.next().unwrap(), text("isready"));
            assert!(inbox.lock().lines.len() <= MAX_QUEUED);
        }
        assert_eq!(inbox.next().unwrap(), Line::End);
    }
}

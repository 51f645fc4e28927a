//! Game clocks: each side has an amount of time for the whole game, and may gain a few seconds
//! with each move (an increment: `5+3` is five minutes and three seconds a move); or, in
//! correspondence games, an amount of time for each move (days), given afresh after every move.
//!
//! The server keeps the time, by the wall clock (milliseconds since the Unix epoch), so that it
//! survives a restart. Time while the server was down is not a player's thinking time: the server
//! notes that it is alive every few seconds, and as it starts again gives back to the side to move
//! of every game the time between the last note and the restart, and the few seconds the pages
//! take to reconnect (see [`resumed_since`]). The clocks start with the first move: the side to move's clock runs from
//! the moment the previous move was played, so South's first move is not timed.

use oware_rules::Side;
use serde::Serialize;

/// A game's clocks, as stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GameClock {
    /// Time per side at the start, in milliseconds.
    pub initial_ms: u64,
    /// Added to a side's time after each of its timed moves.
    pub increment_ms: u64,
    /// Time left to each side (South first) when its clock last stopped.
    pub remaining_ms: [u64; 2],
    /// When the side to move's clock started (the previous move), or `None` before the first move.
    pub running_since: Option<u64>,
    /// The side whose time ran out: the game is over and the other side wins.
    pub flagged: Option<Side>,
    /// `initial_ms` is the time for each move, not for the game (correspondence).
    pub per_move: bool,
}

/// What clients see: the time left now, and which clock is running (the page counts it down).
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct ClockView {
    /// Time per side at the start, in milliseconds.
    pub initial_ms: u64,
    /// Added to a side's time after each of its timed moves, in milliseconds.
    pub increment_ms: u64,
    /// South first, at the moment the view was made.
    pub remaining_ms: [u64; 2],
    /// `S` or `N` while that side's clock runs.
    pub running: Option<char>,
    /// The time is for each move (correspondence), not for the game.
    pub per_move: bool,
}

/// When a clock period that began at `since` begins once the time the server was down is given
/// back: the server was last known alive at `alive` and started again at `started`. A period
/// that began before the start loses none of that gap; one that began after is left alone.
pub fn resumed_since(since: u64, alive: u64, started: u64) -> u64 {
    if since >= started {
        return since;
    }
    since.saturating_add(started.saturating_sub(alive.max(since)))
}

/// Milliseconds since the Unix epoch, now.
pub fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

impl GameClock {
    /// Fresh clocks: both sides have `initial_ms`, nothing is running.
    pub fn new(initial_ms: u64, increment_ms: u64) -> GameClock {
        GameClock {
            initial_ms,
            increment_ms,
            remaining_ms: [initial_ms; 2],
            running_since: None,
            flagged: None,
            per_move: false,
        }
    }

    /// Fresh correspondence clocks: `per_move_ms` for each move.
    pub fn per_move(per_move_ms: u64) -> GameClock {
        GameClock {
            per_move: true,
            ..GameClock::new(per_move_ms, 0)
        }
    }

    /// Time left to `side` at `now`, if `side` is to move.
    pub fn left(&self, side: Side, to_move: Side, now: u64) -> u64 {
        let stored = self.remaining_ms[side.index()];
        match self.running_since {
            Some(since) if side == to_move && self.flagged.is_none() => {
                stored.saturating_sub(now.saturating_sub(since))
            }
            _ => stored,
        }
    }

    /// When the flag of the side to move falls, if its clock runs.
    pub fn deadline(&self, to_move: Side) -> Option<u64> {
        if self.flagged.is_some() {
            return None;
        }
        self.running_since
            .map(|since| since.saturating_add(self.remaining_ms[to_move.index()]))
    }

    /// Marks the side to move's flag fallen if its time is out at `now`; says whether it did.
    pub fn check_flag(&mut self, to_move: Side, now: u64) -> bool {
        if self.flagged.is_none() && self.deadline(to_move).is_some_and(|d| now >= d) {
            self.remaining_ms[to_move.index()] = 0;
            self.flagged = Some(to_move);
            return true;
        }
        false
    }

    /// `mover` has just moved at `now` (in time: call [`GameClock::check_flag`] first): its clock
    /// stops, gains the increment if the move was timed, and the opponent's starts.
    pub fn moved(&mut self, mover: Side, now: u64) {
        let increment = if self.running_since.is_some() {
            self.increment_ms
        } else {
            0
        };
        self.remaining_ms[mover.index()] = if self.per_move {
            self.initial_ms
        } else {
            self.left(mover, mover, now).saturating_add(increment)
        };
        self.running_since = Some(now);
    }

    /// The clock of the side to move restarts at `now` without charging it the time since its
    /// period began (a takeback: the position is a new one to think about).
    pub fn restart(&mut self, to_move: Side, now: u64) {
        if self.running_since.is_some() && self.flagged.is_none() {
            self.remaining_ms[to_move.index()] = if self.per_move {
                self.initial_ms
            } else {
                self.left(to_move, to_move, now)
            };
            self.running_since = Some(now);
        }
    }

    /// The view at `now`, with no clock running once the game is over.
    pub fn view(&self, to_move: Side, over: bool, now: u64) -> ClockView {
        let running = !over && self.flagged.is_none() && self.running_since.is_some();
        ClockView {
            initial_ms: self.initial_ms,
            increment_ms: self.increment_ms,
            remaining_ms: Side::BOTH.map(|s| {
                if running {
                    self.left(s, to_move, now)
                } else {
                    self.remaining_ms[s.index()]
                }
            }),
            running: running.then(|| to_move.letter()),
            per_move: self.per_move,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_move_starts_the_clocks_and_each_move_switches_them() {
        let mut c = GameClock::new(1000, 0);
        assert_eq!(c.deadline(Side::South), None, "not before the first move");
        assert!(!c.check_flag(Side::South, 1_000_000));
        c.moved(Side::South, 5000);
        assert_eq!(c.remaining_ms, [1000, 1000]);
        assert_eq!(c.deadline(Side::North), Some(6000));
        assert_eq!(c.left(Side::North, Side::North, 5300), 700);
        assert_eq!(c.left(Side::South, Side::North, 5300), 1000);
        c.moved(Side::North, 5300);
        assert_eq!(c.remaining_ms, [1000, 700]);
        let v = c.view(Side::South, false, 5400);
        assert_eq!(v.remaining_ms, [900, 700]);
        assert_eq!(v.running, Some('S'));
    }

    #[test]
    fn the_flag_falls_at_the_deadline_and_stops_the_clocks() {
        let mut c = GameClock::new(1000, 0);
        c.moved(Side::South, 0);
        assert!(!c.check_flag(Side::North, 999));
        assert!(c.check_flag(Side::North, 1000));
        assert_eq!(c.flagged, Some(Side::North));
        assert_eq!(c.remaining_ms, [1000, 0]);
        assert_eq!(c.deadline(Side::North), None);
        assert!(!c.check_flag(Side::North, 5000), "only once");
        assert_eq!(c.view(Side::North, true, 9999).running, None);
    }

    #[test]
    fn increments_follow_each_timed_move() {
        let mut c = GameClock::new(1000, 200);
        c.moved(Side::South, 0);
        assert_eq!(
            c.remaining_ms,
            [1000, 1000],
            "the untimed first move gains nothing"
        );
        c.moved(Side::North, 300);
        assert_eq!(c.remaining_ms, [1000, 900]);
        c.moved(Side::South, 1000);
        assert_eq!(c.remaining_ms, [500, 900]);
    }

    #[test]
    fn a_correspondence_clock_gives_each_move_its_full_time() {
        let day = 86_400_000;
        let mut c = GameClock::per_move(2 * day);
        c.moved(Side::South, 0);
        // North takes a day and a half: its time for the next move is whole again.
        assert_eq!(c.left(Side::North, Side::North, day + day / 2), day / 2);
        c.moved(Side::North, day + day / 2);
        assert_eq!(c.remaining_ms, [2 * day, 2 * day]);
        assert_eq!(c.deadline(Side::South), Some(3 * day + day / 2));
        assert!(!c.check_flag(Side::South, 3 * day));
        assert!(c.check_flag(Side::South, 4 * day));
        assert_eq!(c.flagged, Some(Side::South));
    }

    #[test]
    fn downtime_is_given_back() {
        let mut c = GameClock::new(10_000, 0);
        c.moved(Side::South, 1000);
        // Alive at 3000, down until 8000: North thought from 1000 to 3000 only.
        c.running_since = c.running_since.map(|s| resumed_since(s, 3000, 8000));
        assert_eq!(c.left(Side::North, Side::North, 8000), 8000);
        // A move after the last note of life: the whole gap since that move is given back.
        assert_eq!(resumed_since(4000, 3000, 8000), 8000);
        // A period that began after the restart is left alone.
        assert_eq!(resumed_since(9000, 3000, 8000), 9000);
    }
}

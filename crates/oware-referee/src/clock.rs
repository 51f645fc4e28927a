//! Game clocks as the referee keeps them: a time control, and the clock after each move.

use std::time::Duration;

/// Game clocks: what each side starts with and what it gains after each of its moves, and, in a
/// repeating control, after how many of its moves it gains the start time again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TimeControl {
    /// What each side starts with, and gains again at the end of each period.
    pub start: Duration,
    /// What a side gains after each of its moves.
    pub increment: Duration,
    /// Moves a side plays on one period's time; `None` for sudden death.
    pub period: Option<u32>,
}

impl TimeControl {
    /// The moves a side has left in its period, this one included (the protocol's `movestogo`),
    /// after it has played `played` moves; `None` in sudden death.
    pub fn moves_to_go(&self, played: u32) -> Option<u32> {
        self.period.map(|period| period - played % period)
    }

    /// A side's clock after a move in time: what was `left` less what it `thought`, plus the
    /// increment, plus the start time again when the move ends a period (`played`: the side's
    /// moves, this one included).
    pub fn after_move(&self, left: Duration, thought: Duration, played: u32) -> Duration {
        let refill = match self.period {
            Some(period) if played.is_multiple_of(period) => self.start,
            _ => Duration::ZERO,
        };
        left.saturating_sub(thought) + self.increment + refill
    }
}

impl std::str::FromStr for TimeControl {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        let seconds = |part: &str, what: &str| -> Result<Duration, String> {
            let value: f64 = part
                .trim()
                .parse()
                .map_err(|_| format!("{what} {part:?} is not a number of seconds"))?;
            // A day is far beyond any match; the bound keeps the milliseconds sent in range.
            if !(0.0..=86_400.0).contains(&value) {
                return Err(format!("{what} {part:?} must be 0 to 86400 seconds"));
            }
            Ok(Duration::from_secs_f64(value))
        };
        let (period, clock) = match text.split_once('/') {
            Some((moves, clock)) => {
                let moves = moves.trim();
                let period = moves.parse::<u32>().ok().filter(|m| (1..=1000).contains(m));
                let period = period.ok_or_else(|| {
                    format!("the moves {moves:?} before '/' must be a number from 1 to 1000 (as in 40/60 seconds)")
                })?;
                (Some(period), clock)
            }
            None => (None, text),
        };
        let (start, increment) = clock.split_once('+').unwrap_or((clock, "0"));
        let tc = TimeControl {
            start: seconds(start, "the time")?,
            increment: seconds(increment, "the increment")?,
            period,
        };
        if tc.start < Duration::from_millis(1) {
            return Err(format!(
                "the time in {text:?} must be at least 0.001 seconds"
            ));
        }
        Ok(tc)
    }
}

impl std::fmt::Display for TimeControl {
    /// As PGN's `TimeControl` tag writes it: the moves of a period and `/` in a repeating
    /// control, the seconds, and `+` the increment when there is one.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if let Some(moves) = self.period {
            write!(f, "{moves}/")?;
        }
        write!(f, "{}", self.start.as_secs_f64())?;
        if !self.increment.is_zero() {
            write!(f, "+{}", self.increment.as_secs_f64())?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls_are_seconds_and_an_increment() {
        let tc: TimeControl = "10+0.1".parse().unwrap();
        assert_eq!(tc.start, Duration::from_secs(10));
        assert_eq!(tc.increment, Duration::from_millis(100));
        assert_eq!(tc.to_string(), "10+0.1");
        let tc: TimeControl = "0.5".parse().unwrap();
        assert_eq!(
            (tc.start, tc.increment),
            (Duration::from_millis(500), Duration::ZERO)
        );
        assert_eq!(tc.to_string(), "0.5");
        assert_eq!(tc.moves_to_go(7), None);
        for bad in [
            "", "+1", "x+1", "10+", "10+y", "-1", "0", "10+-1", "1e9", "NaN", "10+1+1", "40/",
            "40/x", "40/0", "40/60/2",
        ] {
            let err = bad.parse::<TimeControl>().unwrap_err();
            assert!(err.contains("second"), "{bad:?}: {err}");
        }
        for bad in ["/60", "0/60", "-3/60", "x/60", "1001/60", "2.5/60"] {
            let err = bad.parse::<TimeControl>().unwrap_err();
            assert!(err.contains("moves"), "{bad:?}: {err}");
        }
    }

    #[test]
    fn repeating_time_controls_count_the_moves_of_each_period() {
        let tc: TimeControl = "40/60+0.5".parse().unwrap();
        assert_eq!(tc.start, Duration::from_secs(60));
        assert_eq!(tc.increment, Duration::from_millis(500));
        assert_eq!(tc.to_string(), "40/60+0.5");
        assert_eq!(
            " 3 /1.5".parse::<TimeControl>().unwrap().to_string(),
            "3/1.5"
        );
        // Before a side's first move it has the whole period to go; after 39, one; after 40 the
        // next period starts.
        assert_eq!(tc.moves_to_go(0), Some(40));
        assert_eq!(tc.moves_to_go(39), Some(1));
        assert_eq!(tc.moves_to_go(40), Some(40));
        assert_eq!(tc.moves_to_go(81), Some(39));
        // The clock after a move: the time thought off, the increment on, and the period's time
        // again after each 40th move.
        let ms = Duration::from_millis;
        assert_eq!(tc.after_move(ms(5_000), ms(700), 39), ms(4_800));
        assert_eq!(tc.after_move(ms(5_000), ms(700), 40), ms(64_800));
        assert_eq!(tc.after_move(ms(500), ms(700), 41), ms(500));
        // Sudden death never refills the clock.
        let tc: TimeControl = "0.5+0.01".parse().unwrap();
        for played in 1..100 {
            assert_eq!(tc.after_move(ms(400), ms(100), played), ms(310));
        }
    }
}

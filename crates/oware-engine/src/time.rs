//! When a search stops: the [`Limits`] a caller sets (depth, time, clocks, nodes) and the time plan
//! that turns a clock into how long this move may think.

use std::time::Duration;

use oware_rules::Side;

/// A player's clock: time left and increment per move.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Clock {
    /// Time left.
    pub time: Duration,
    /// Time added after each move.
    pub increment: Duration,
}

/// How long the time plan keeps off each move's clock by default for the time a move takes to
/// reach the clock's keeper (the pipe, the GUI, a loaded machine's scheduling): the protocol's
/// `MoveOverhead` option.
pub const DEFAULT_MOVE_OVERHEAD: Duration = Duration::from_millis(30);

/// Moves the time plan spreads a clock over when the clock is not refilled after a fixed number of
/// moves (sudden death, with or without an increment).
const PLANNED_MOVES: u32 = 25;

/// When to stop searching. With nothing set the search runs until [`crate::SearchControl::stop`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Limits {
    /// The most plies to search.
    pub depth: Option<u32>,
    /// A fixed time for this move.
    pub movetime: Option<Duration>,
    /// Clocks of South and North (the protocol's `wtime`/`winc` and `btime`/`binc`).
    pub clocks: Option<[Clock; 2]>,
    /// Moves to play, this one included, before the clocks are refilled (the protocol's
    /// `movestogo`); `None` for sudden death.
    pub moves_to_go: Option<u32>,
    /// Time kept off the clock at every move for what happens outside the search: the search plans
    /// with the clock less this, and never runs past it.
    pub move_overhead: Duration,
    /// The most nodes to search.
    pub nodes: Option<u64>,
    /// Search until stopped, whatever else is set.
    pub infinite: bool,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            depth: None,
            movetime: None,
            clocks: None,
            moves_to_go: None,
            move_overhead: DEFAULT_MOVE_OVERHEAD,
            nodes: None,
            infinite: false,
        }
    }
}

impl Limits {
    /// Whether a search under these limits ends by itself: some limit (depth, time, clocks, nodes)
    /// is set and the search is not `infinite`. (One with no limit ends only when it proves the
    /// result or reaches [`crate::MAX_PLY`], which may take longer than anyone waits.)
    pub fn is_bounded(&self) -> bool {
        !self.infinite
            && (self.depth.is_some()
                || self.movetime.is_some()
                || self.clocks.is_some()
                || self.nodes.is_some())
    }

    /// A search to `depth` plies and no other limit.
    pub fn depth(depth: u32) -> Limits {
        Limits {
            depth: Some(depth),
            ..Limits::default()
        }
    }

    /// A search of `time` and no other limit.
    pub fn movetime(time: Duration) -> Limits {
        Limits {
            movetime: Some(time),
            ..Limits::default()
        }
    }

    /// (soft, hard): do not start an iteration after `soft`; abort the search at `hard`.
    pub(crate) fn time_budget(&self, side: Side) -> Option<(Duration, Duration)> {
        if self.infinite {
            return None;
        }
        if let Some(t) = self.movetime {
            // `movetime` means search that long: start iterations until the time is up. An
            // iteration cut short loses nothing against not starting it, and one that ends in time
            // is a ply deeper; iteration times vary too much (1.0x to 2.5x the one before) to
            // tell in advance.
            return Some((t, t));
        }
        let clock = self.clocks?[side.index()];
        // What the search may spend in all: the clock less the overhead. When the overhead is
        // the whole clock, nothing: the search answers after its first iteration (or sooner).
        let usable = clock.time.saturating_sub(self.move_overhead);
        // Spread it over the moves until the clock is refilled (about 25 more in sudden death),
        // spend most of the increment, and never plan past what is usable.
        let moves = self
            .moves_to_go
            .map_or(PLANNED_MOVES, |m| m.clamp(1, PLANNED_MOVES));
        let target = (usable / moves + clock.increment.mul_f64(0.8)).min(usable);
        // A search may run to three times its plan when that leaves two thirds of the clock, and
        // always to the plan itself (on the last move before a refill, the whole usable clock).
        let hard = (target * 3).min(usable / 3).max(target);
        Some((target.mul_f64(0.6), hard))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn movetime_iterations_go_on_until_the_time_is_up() {
        // `movetime` means search that long: no iteration is refused before the time is up (one
        // that is cut short loses nothing against not starting it).
        let t = Duration::from_millis(200);
        assert_eq!(Limits::movetime(t).time_budget(Side::South), Some((t, t)));
    }

    fn on_clock(millis: u64, increment: u64) -> Limits {
        let clock = Clock {
            time: Duration::from_millis(millis),
            increment: Duration::from_millis(increment),
        };
        // North's clock is far larger: a plan that read the wrong clock would show it.
        let other = Clock {
            time: Duration::from_secs(3600),
            increment: Duration::ZERO,
        };
        Limits {
            clocks: Some([clock, other]),
            ..Limits::default()
        }
    }

    #[test]
    fn the_clock_plan_keeps_the_overhead_off_the_clock() {
        let ms = Duration::from_millis;
        // Sudden death, 10 s: 25 moves' share of what is left after the default 30 ms.
        let (soft, hard) = on_clock(10_000, 0).time_budget(Side::South).unwrap();
        assert_eq!(soft, (ms(9_970) / 25).mul_f64(0.6));
        assert_eq!(hard, ms(9_970) * 3 / 25);
        // Whatever the overhead, the search never plans to run into it.
        for overhead in [0, 30, 100, 1_000, 5_000] {
            for (millis, increment) in [(50, 0), (300, 100), (1_000, 0), (60_000, 500)] {
                let mut limits = on_clock(millis, increment);
                limits.move_overhead = ms(overhead);
                let (soft, hard) = limits.time_budget(Side::South).unwrap();
                let usable = ms(millis.saturating_sub(overhead));
                assert!(
                    soft <= hard && hard <= usable,
                    "{limits:?}: {soft:?} {hard:?}"
                );
            }
        }
        // An overhead as large as the clock leaves nothing to plan with.
        let mut limits = on_clock(800, 0);
        limits.move_overhead = ms(1_000);
        assert_eq!(
            limits.time_budget(Side::South),
            Some((Duration::ZERO, Duration::ZERO))
        );
    }

    #[test]
    fn the_clock_plan_spreads_the_time_over_the_moves_to_go() {
        let plan = |moves_to_go| {
            let mut limits = on_clock(10_030, 0);
            limits.moves_to_go = moves_to_go;
            limits.time_budget(Side::South).unwrap()
        };
        let ms = Duration::from_millis;
        // The last move before the clock is refilled may use all of it; with two to go, a move
        // plans with half of it and stops there.
        assert_eq!(plan(Some(1)), (ms(6_000), ms(10_000)));
        assert_eq!(plan(Some(2)), (ms(3_000), ms(5_000)));
        // Beyond 25 moves to go the plan is that of sudden death.
        assert_eq!(plan(Some(40)), plan(None));
        assert_eq!(plan(None), (ms(400).mul_f64(0.6), ms(1_200)));
    }
}

//! The order in which a node's moves are searched, after the table move: captures (biggest
//! first), then the killers of the ply, then the history of quiet moves that cut.

use oware_rules::Move;

/// The ordering value of a move that is not the table move: captures (biggest first), then the
/// killers, then the history.
// The value is picked from candidates all computed first, and the killers are compared as bytes
// (see `Killers`): an `if` chain of `Option<Move>` comparisons would branch on whether a move is
// a killer, which the processor cannot predict.
#[inline]
pub(crate) fn move_order(mv: Move, captured: u8, killers: Killers, history: &[i32; 12]) -> i32 {
    let quiet = history[mv.house()];
    let quiet = if killers.is_second(mv) {
        (1 << 22) - 1
    } else {
        quiet
    };
    let quiet = if killers.is_first(mv) { 1 << 22 } else { quiet };
    if captured > 0 {
        (1 << 24) + i32::from(captured)
    } else {
        quiet
    }
}

/// The two killer moves of a ply (quiet moves that cut there lately, the latest first), as houses,
/// `NO_KILLER` where there is none: compared with a move by one byte each, where `Option<Move>`
/// compared its tag and then its value with branches.
#[derive(Clone, Copy)]
pub(crate) struct Killers([u8; 2]);

const NO_KILLER: u8 = u8::MAX;

impl Killers {
    pub(crate) const NONE: Killers = Killers([NO_KILLER; 2]);

    #[inline]
    pub(crate) fn is_first(self, mv: Move) -> bool {
        self.0[0] == mv.house() as u8
    }

    #[inline]
    pub(crate) fn is_second(self, mv: Move) -> bool {
        self.0[1] == mv.house() as u8
    }

    #[inline]
    pub(crate) fn contains(self, mv: Move) -> bool {
        self.is_first(mv) | self.is_second(mv)
    }

    /// These killers after `mv` cut: it comes first, the old first second (unless it was `mv`).
    pub(crate) fn with_first(self, mv: Move) -> Killers {
        if self.is_first(mv) {
            self
        } else {
            Killers([mv.house() as u8, self.0[0]])
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn killers_keep_the_latest_cut_first_and_order_above_the_history() {
        let [a, b, c] = [0, 3, 5].map(|h| Move::new(h).unwrap());
        let k = Killers::NONE;
        assert!(!k.contains(a) && !k.contains(b));
        let k = k.with_first(a).with_first(b);
        assert!(k.is_first(b) && k.is_second(a) && !k.contains(c));
        let k = k.with_first(b);
        assert!(
            k.is_first(b) && k.is_second(a),
            "the same killer again changes nothing"
        );
        let k = k.with_first(a);
        assert!(k.is_first(a) && k.is_second(b));
        let history = [1000; 12];
        assert_eq!(move_order(a, 0, k, &history), 1 << 22);
        assert_eq!(move_order(b, 0, k, &history), (1 << 22) - 1);
        assert_eq!(move_order(c, 0, k, &history), 1000);
        assert_eq!(
            move_order(c, 4, k, &history),
            (1 << 24) + 4,
            "captures first"
        );
        assert_eq!(move_order(a, 2, k, &history), (1 << 24) + 2);
    }
}

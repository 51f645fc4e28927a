//! Perft from the start position against the figures in `docs/rules.md` (three independent programs
//! agree on them).

use oware_rules::{perft, Position, RuleSet};

const START_PERFT: [u64; 11] = [
    6, 36, 190, 1014, 5219, 27332, 139157, 711414, 3592872, 18137964, 91558687,
];

#[test]
fn start_position_through_depth_11() {
    for (i, &expected) in START_PERFT.iter().enumerate() {
        let depth = i as u32 + 1;
        assert_eq!(
            perft::perft(&Position::start(), RuleSet::Abapa, depth),
            expected,
            "depth {depth}"
        );
    }
}

/// Awari differs from abapa only where a row is emptied, which cannot happen in the first plies, so
/// the counts agree with abapa as far as both are cheap to compute.
#[test]
fn awari_agrees_with_abapa_in_the_opening() {
    for depth in 1..=8 {
        assert_eq!(
            perft::perft(&Position::start(), RuleSet::Awari, depth),
            START_PERFT[depth as usize - 1],
            "depth {depth}"
        );
    }
}

//! A small random generator for the crates above this one (the levels' noise, random moves,
//! self-play, tests): SplitMix64, whose whole state is one `u64`, so that a game, a level or a row
//! of a batch can keep its own and replay it.

/// SplitMix64 (Steele, Lea and Flood): each step adds [`SplitMix64::GAMMA`] to the state and mixes
/// it. Not for secrets.
///
/// ```
/// use oware_rules::random::SplitMix64;
/// let mut random = SplitMix64::new(1);
/// let first = random.next_u64();
/// assert_eq!(SplitMix64::nth(1, 0), first);
/// assert_ne!(random.next_u64(), first);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// What each step adds to the state (2^64 over the golden ratio, odd).
    pub const GAMMA: u64 = 0x9e37_79b9_7f4a_7c15;

    /// A generator whose state is `seed`.
    pub const fn new(seed: u64) -> SplitMix64 {
        SplitMix64 { state: seed }
    }

    /// The state, to keep and start again from with [`SplitMix64::new`].
    pub const fn state(&self) -> u64 {
        self.state
    }

    /// The next number.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(Self::GAMMA);
        Self::mix(self.state)
    }

    /// One step of `state` in place: for callers that keep the state as a plain `u64`.
    #[inline]
    pub fn step(state: &mut u64) -> u64 {
        let mut random = SplitMix64::new(*state);
        let next = random.next_u64();
        *state = random.state;
        next
    }

    /// The `index`-th number (from 0) of the generator started at `seed`, without the ones before
    /// it: the state after `index + 1` steps is `seed + (index + 1) * GAMMA`.
    #[inline]
    pub fn nth(seed: u64, index: u64) -> u64 {
        Self::mix(seed.wrapping_add(Self::GAMMA.wrapping_mul(index.wrapping_add(1))))
    }

    /// The output function: a state mixed into a number (also a good finalizer for hash keys).
    #[inline]
    pub fn mix(z: u64) -> u64 {
        let z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        let z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first outputs from seed 0, as the reference implementation gives them.
    #[test]
    fn the_reference_sequence() {
        let mut random = SplitMix64::new(0);
        assert_eq!(random.next_u64(), 0xe220_a839_7b1d_cdaf);
        assert_eq!(random.next_u64(), 0x6e78_9e6a_a1b9_65f4);
        let mut state = 0;
        assert_eq!(SplitMix64::step(&mut state), 0xe220_a839_7b1d_cdaf);
        assert_eq!(state, SplitMix64::GAMMA);
        assert_eq!(SplitMix64::nth(0, 1), 0x6e78_9e6a_a1b9_65f4);
    }
}

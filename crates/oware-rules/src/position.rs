//! A board position: the twelve houses, the two stores and the side to move, with move generation and
//! move execution for both rule sets.

use std::fmt;
use std::str::FromStr;

use crate::types::{quoted, Move, MoveSet, RuleSet, Side, HALF_SEEDS, HOUSES, TOTAL_SEEDS};

/// A position: seeds in each house (0..12, counter-clockwise, South's `A`–`F` first), seeds in each
/// store, and the side to move. Small and `Copy`; equality compares everything.
///
/// ```
/// use oware_rules::{Position, RuleSet};
/// let start = Position::start();
/// assert_eq!(start.to_string(), "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S");
/// let after = start.play("F".parse().unwrap(), RuleSet::Abapa).unwrap().position;
/// assert_eq!(after.to_string(), "4-4-4-4-4-0-5-5-5-5-4-4-0-0-N");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    /// Houses 0..12, then four bytes that are always 0, so that sowing is one 16-byte addition
    /// (see [`SOWING_CHANGE`]).
    cells: [u8; CELLS],
    stores: [u8; 2],
    side: Side,
}

/// The board padded to 16 bytes.
const CELLS: usize = 16;

/// `SOWING[house][seeds]`: the seeds each house gains when `house` is sown with `seeds` seeds (the
/// origin gains nothing: it is skipped on every lap), as 16 little-endian bytes. No house can pass 48,
/// so adding two such arrays as `u128`s never carries from one byte into the next.
static SOWING: [[u128; TOTAL_SEEDS as usize + 1]; HOUSES] = sowing_tables().0;

/// `SOWING_CHANGE[house][seeds]`: `SOWING[house][seeds]` less the `seeds` that leave the origin,
/// modulo 2^128: added (wrapping) to a board whose origin holds `seeds`, it empties the origin and
/// sows in one addition.
static SOWING_CHANGE: [[u128; TOTAL_SEEDS as usize + 1]; HOUSES] = sowing_tables().2;

/// `LAST_SOWN[house][seeds]`: the house the last seed falls into.
static LAST_SOWN: [[u8; TOTAL_SEEDS as usize + 1]; HOUSES] = sowing_tables().1;

/// The sowing tables, built by sowing seed by seed, as the rules say, at compile time.
#[allow(clippy::type_complexity)]
const fn sowing_tables() -> (
    [[u128; TOTAL_SEEDS as usize + 1]; HOUSES],
    [[u8; TOTAL_SEEDS as usize + 1]; HOUSES],
    [[u128; TOTAL_SEEDS as usize + 1]; HOUSES],
) {
    let mut gains_table = [[0u128; TOTAL_SEEDS as usize + 1]; HOUSES];
    let mut last_table = [[0u8; TOTAL_SEEDS as usize + 1]; HOUSES];
    let mut change_table = [[0u128; TOTAL_SEEDS as usize + 1]; HOUSES];
    let mut house = 0;
    while house < HOUSES {
        let mut seeds = 1;
        while seeds <= TOTAL_SEEDS as usize {
            let mut gains = [0u8; CELLS];
            let mut at = house;
            let mut left = seeds;
            while left > 0 {
                at = (at + 1) % HOUSES;
                if at != house {
                    gains[at] += 1;
                    left -= 1;
                }
            }
            gains_table[house][seeds] = u128::from_le_bytes(gains);
            change_table[house][seeds] =
                u128::from_le_bytes(gains).wrapping_sub((seeds as u128) << (8 * house));
            last_table[house][seeds] = at as u8;
            seeds += 1;
        }
        house += 1;
    }
    (gains_table, last_table, change_table)
}

/// Sowing as arithmetic, for programs that keep their own copy of the board (an engine's search):
/// what sowing `seeds` seeds (1..=48) from `house` adds to each house, as the little-endian bytes of a
/// word (house `h` in byte `h`, bytes 12..16 zero; the origin gains nothing, it is skipped on every
/// lap), and the house the last seed falls into. The caller empties the origin; adding the word to a
/// board of byte-sized houses never carries, since no house passes 48.
#[inline]
pub fn sowing(house: usize, seeds: usize) -> (u128, usize) {
    (SOWING[house][seeds], LAST_SOWN[house][seeds] as usize)
}

/// Where the last of `seeds` seeds (1..=48) sown from `house` falls, and how many seeds that house
/// gains in all (one a lap: the origin is skipped on every lap). An evaluation reads threats from it.
///
/// ```
/// // Twelve seeds from A: one lap of the eleven other houses, and the twelfth into B again.
/// assert_eq!(oware_rules::last_sown(0, 12), (1, 2));
/// assert_eq!(oware_rules::last_sown(5, 1), (6, 1));
/// ```
#[inline]
pub fn last_sown(house: usize, seeds: usize) -> (usize, u8) {
    let last = LAST_SOWN[house][seeds] as usize;
    (last, (SOWING[house][seeds] >> (8 * last)) as u8)
}

/// As [`sowing`], but the word also takes the `seeds` out of the origin: added with wrapping
/// arithmetic to a board word whose byte `house` holds `seeds`, it gives the board after sowing (no
/// byte borrows or carries: the result's bytes are the houses after the move, all within 0..=48).
///
/// ```
/// // South's house C (index 2) sows 4 seeds of the start into D, E, F and North's a.
/// let start = u128::from_le_bytes([4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 0, 0, 0, 0]);
/// let (change, last) = oware_rules::sowing_change(2, 4);
/// let after = start.wrapping_add(change).to_le_bytes();
/// assert_eq!(after[..12], [4, 4, 0, 5, 5, 5, 5, 4, 4, 4, 4, 4]);
/// assert_eq!(last, 6);
/// ```
#[inline]
pub fn sowing_change(house: usize, seeds: usize) -> (u128, usize) {
    (
        SOWING_CHANGE[house][seeds],
        LAST_SOWN[house][seeds] as usize,
    )
}

/// Pads twelve houses to the sixteen cells of a [`Position`].
const fn padded(houses: [u8; HOUSES]) -> [u8; CELLS] {
    let mut cells = [0u8; CELLS];
    let mut i = 0;
    while i < HOUSES {
        cells[i] = houses[i];
        i += 1;
    }
    cells
}

/// What is wrong with a position string or with the parts of a position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PositionError {
    /// The string does not have the 15 fields `h0-…-h11-south-north-T`.
    FieldCount {
        /// Fields found.
        found: usize,
    },
    /// A house or store field is not a non-negative whole number.
    NotANumber {
        /// The field's index: 0..=11 the houses, 12 and 13 South's and North's stores.
        field: usize,
        /// The field as written.
        text: String,
    },
    /// The seeds on the board and in the stores do not add up to 48.
    WrongTotal {
        /// The seeds counted.
        total: u32,
    },
    /// The last field is not `S` or `N`.
    BadSide {
        /// The field as written.
        text: String,
    },
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::FieldCount { found } => write!(
                f,
                "a position has 15 fields separated by '-' (12 houses, 2 stores, side to move), found {found}"
            ),
            PositionError::NotANumber { field, text } => {
                let what = match *field {
                    0..=11 => format!("house {} ({})", field, Move::new(*field).unwrap().letter()),
                    12 => "South's store".to_string(),
                    _ => "North's store".to_string(),
                };
                write!(
                    f,
                    "{what} must hold a whole number of seeds from 0 to 48, found {}",
                    quoted(text)
                )
            }
            PositionError::WrongTotal { total } => {
                write!(f, "the houses and stores must hold 48 seeds in all, found {total}")
            }
            PositionError::BadSide { text } => {
                write!(
                    f,
                    "the side to move must be S (South) or N (North), found {}",
                    quoted(text)
                )
            }
        }
    }
}

impl std::error::Error for PositionError {}

/// Why a move cannot be played in a position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IllegalMoveReason {
    /// The house belongs to the player who is not to move.
    NotYourHouse,
    /// The house is empty.
    EmptyHouse,
    /// Abapa: the opponent's row is empty and this move does not give them seeds.
    MustFeed,
    /// Awari: this move leaves the opponent without seeds while another move does not.
    StarvesOpponent,
    /// The game is already over in this position (a store holds more than 24, or both hold 24).
    GameOver,
}

impl fmt::Display for IllegalMoveReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            IllegalMoveReason::NotYourHouse => "that house belongs to the other player",
            IllegalMoveReason::EmptyHouse => "that house is empty",
            IllegalMoveReason::MustFeed => {
                "the opponent has no seeds and this move does not give them any"
            }
            IllegalMoveReason::StarvesOpponent => {
                "this move leaves the opponent without seeds while another move does not"
            }
            IllegalMoveReason::GameOver => "the game is over",
        })
    }
}

impl IllegalMoveReason {
    /// A short machine word for the reason, for protocols and JSON.
    pub const fn code(self) -> &'static str {
        match self {
            IllegalMoveReason::NotYourHouse => "not-your-house",
            IllegalMoveReason::EmptyHouse => "empty-house",
            IllegalMoveReason::MustFeed => "must-feed",
            IllegalMoveReason::StarvesOpponent => "starves-opponent",
            IllegalMoveReason::GameOver => "game-over",
        }
    }
}

/// A move that cannot be played, and why.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IllegalMove {
    /// The move.
    pub mv: Move,
    /// Why it cannot be played.
    pub reason: IllegalMoveReason,
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "illegal move {}: {}", self.mv, self.reason)
    }
}

impl std::error::Error for IllegalMove {}

/// The result of playing one move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Played {
    /// The position after the move.
    pub position: Position,
    /// Seeds captured by the move (0 for a grand slam under abapa).
    pub captured: u8,
}

impl Position {
    /// The starting position: four seeds in every house, South to move.
    pub const fn start() -> Position {
        Position {
            cells: padded([4; HOUSES]),
            stores: [0, 0],
            side: Side::South,
        }
    }

    /// Builds a position from its parts, checking that the seeds add up to 48.
    pub fn new(
        houses: [u8; HOUSES],
        stores: [u8; 2],
        side: Side,
    ) -> Result<Position, PositionError> {
        let total: u32 =
            houses.iter().map(|&h| h as u32).sum::<u32>() + stores[0] as u32 + stores[1] as u32;
        if total != TOTAL_SEEDS as u32 {
            return Err(PositionError::WrongTotal { total });
        }
        Ok(Position {
            cells: padded(houses),
            stores,
            side,
        })
    }

    /// A position from parts that come from a position already checked (the bytes of a
    /// [`crate::PackedPosition`]): no seed count is checked again.
    pub(crate) fn from_parts_unchecked(
        houses: [u8; HOUSES],
        stores: [u8; 2],
        side: Side,
    ) -> Position {
        Position {
            cells: padded(houses),
            stores,
            side,
        }
    }

    /// Builds a board with the given houses and side to move, putting the seeds that are not on the
    /// board into the stores as evenly as possible (South gets the odd one). Useful for endgame work
    /// where only the board matters. Panics-free: returns `None` if the houses hold more than 48.
    pub fn from_board(houses: [u8; HOUSES], side: Side) -> Option<Position> {
        let on_board: u32 = houses.iter().map(|&h| h as u32).sum();
        if on_board > TOTAL_SEEDS as u32 {
            return None;
        }
        let off = TOTAL_SEEDS - on_board as u8;
        Some(Position {
            cells: padded(houses),
            stores: [off - off / 2, off / 2],
            side,
        })
    }

    /// Seeds in each house, 0..12.
    #[inline]
    pub fn houses(&self) -> &[u8; HOUSES] {
        self.cells[..HOUSES]
            .try_into()
            .expect("the first twelve cells are the houses")
    }

    /// Seeds in one house.
    #[inline]
    pub const fn house(&self, house: usize) -> u8 {
        self.cells[house]
    }

    /// Seeds in a player's store.
    #[inline]
    pub const fn store(&self, side: Side) -> u8 {
        self.stores[side.index()]
    }

    /// The side to move.
    #[inline]
    pub const fn side_to_move(&self) -> Side {
        self.side
    }

    /// Seeds on one player's row.
    #[inline]
    pub fn row_seeds(&self, side: Side) -> u8 {
        let f = side.first_house();
        self.cells[f..f + 6].iter().sum()
    }

    /// Seeds on the whole board (not in stores).
    #[inline]
    pub fn board_seeds(&self) -> u8 {
        self.cells.iter().sum()
    }

    /// The same position with the other side to move.
    pub fn with_side_to_move(mut self, side: Side) -> Position {
        self.side = side;
        self
    }

    /// Whether the game is decided by the stores alone: one store holds more than 24, or both hold 24.
    #[inline]
    pub fn is_decided_by_stores(&self) -> bool {
        self.stores[0] > HALF_SEEDS
            || self.stores[1] > HALF_SEEDS
            || (self.stores[0] == HALF_SEEDS && self.stores[1] == HALF_SEEDS)
    }

    /// Sows `house` without capturing: returns the cells after sowing and the last house sown.
    /// With 12 or more seeds the origin house is skipped on every lap (the tables know it).
    #[inline]
    fn sow(&self, house: usize) -> ([u8; CELLS], usize) {
        let seeds = self.cells[house] as usize;
        let (change, last) = sowing_change(house, seeds);
        let sown = u128::from_le_bytes(self.cells).wrapping_add(change);
        (sown.to_le_bytes(), last)
    }

    /// Plays `mv` without checking that it is legal, returning the new position and the seeds captured.
    /// Under abapa a capture of every seed on the opponent's row (grand slam) captures nothing.
    /// The move's house must belong to the side to move and hold seeds.
    #[inline]
    pub fn play_unchecked(&self, mv: Move, rules: RuleSet) -> Played {
        let house = mv.house();
        debug_assert!(self.side.owns(house) && self.cells[house] > 0);
        let (mut h, last) = self.sow(house);
        let opp = self.side.opponent();
        let mut captured = 0u8;
        if opp.owns(last) && (h[last] == 2 || h[last] == 3) {
            let low = opp.first_house();
            let mut i = last;
            let mut end = last; // lowest captured house
            loop {
                let v = h[i];
                if v != 2 && v != 3 {
                    break;
                }
                captured += v;
                end = i;
                if i == low {
                    break;
                }
                i -= 1;
            }
            let grand_slam = rules == RuleSet::Abapa && {
                let row: u8 = h[low..low + 6].iter().sum();
                row == captured
            };
            if grand_slam {
                captured = 0;
            } else {
                for v in &mut h[end..=last] {
                    *v = 0;
                }
            }
        }
        let mut stores = self.stores;
        stores[self.side.index()] += captured;
        Played {
            position: Position {
                cells: h,
                stores,
                side: opp,
            },
            captured,
        }
    }

    /// The legal moves of the side to move. Empty when the game is decided by the stores or the side to
    /// move has no legal move (its row is empty, or under abapa no move can feed an empty opponent).
    #[inline]
    pub fn legal_moves(&self, rules: RuleSet) -> MoveSet {
        if self.is_decided_by_stores() {
            return MoveSet::EMPTY;
        }
        self.moves_ignoring_stores(rules)
    }

    /// Legal moves by the rules of sowing and feeding alone, ignoring whether the stores already decide
    /// the game. Endgame databases use this: they play on until the board is empty.
    #[inline]
    pub fn moves_ignoring_stores(&self, rules: RuleSet) -> MoveSet {
        let first = self.side.first_house();
        let mut nonempty = 0u16;
        for c in 0..6 {
            if self.cells[first + c] != 0 {
                nonempty |= 1 << (first + c);
            }
        }
        match rules {
            RuleSet::Abapa => {
                if self.row_seeds(self.side.opponent()) != 0 {
                    return MoveSet::from_bits(nonempty);
                }
                // The opponent is empty: only moves that reach their row are legal.
                let mut bits = 0u16;
                for c in 0..6 {
                    if self.cells[first + c] as usize >= 6 - c {
                        bits |= 1 << (first + c);
                    }
                }
                MoveSet::from_bits(bits)
            }
            RuleSet::Awari => {
                let mut feeding = 0u16;
                let opp = self.side.opponent();
                for mv in MoveSet::from_bits(nonempty) {
                    let after = self.play_unchecked(mv, rules).position;
                    if after.row_seeds(opp) != 0 {
                        feeding |= 1 << mv.house();
                    }
                }
                // A move that starves the opponent is legal only when every move does so.
                MoveSet::from_bits(if feeding != 0 { feeding } else { nonempty })
            }
        }
    }

    /// Why `mv` is illegal here, or `None` if it is legal.
    pub fn check_move(&self, mv: Move, rules: RuleSet) -> Option<IllegalMoveReason> {
        if self.is_decided_by_stores() {
            return Some(IllegalMoveReason::GameOver);
        }
        if !self.side.owns(mv.house()) {
            return Some(IllegalMoveReason::NotYourHouse);
        }
        if self.cells[mv.house()] == 0 {
            return Some(IllegalMoveReason::EmptyHouse);
        }
        if self.legal_moves(rules).contains(mv) {
            return None;
        }
        Some(match rules {
            RuleSet::Abapa => IllegalMoveReason::MustFeed,
            RuleSet::Awari => IllegalMoveReason::StarvesOpponent,
        })
    }

    /// Plays `mv` if it is legal.
    pub fn play(&self, mv: Move, rules: RuleSet) -> Result<Played, IllegalMove> {
        match self.check_move(mv, rules) {
            None => Ok(self.play_unchecked(mv, rules)),
            Some(reason) => Err(IllegalMove { mv, reason }),
        }
    }

    /// The position after each player has gathered the seeds on their own row into their store.
    pub fn gathered(&self) -> Position {
        let mut p = *self;
        p.stores[0] += p.row_seeds(Side::South);
        p.stores[1] += p.row_seeds(Side::North);
        p.cells = [0; CELLS];
        p
    }
}

impl Default for Position {
    fn default() -> Self {
        Position::start()
    }
}

impl fmt::Display for Position {
    /// The position string `h0-h1-…-h11-southStore-northStore-T`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for h in self.houses() {
            write!(f, "{h}-")?;
        }
        write!(
            f,
            "{}-{}-{}",
            self.stores[0],
            self.stores[1],
            self.side.letter()
        )
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({self})")
    }
}

impl FromStr for Position {
    type Err = PositionError;

    /// Parses a position string. Surrounding whitespace is ignored; nothing else is forgiven.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let fields: Vec<&str> = s.trim().split('-').collect();
        if fields.len() != 15 {
            return Err(PositionError::FieldCount {
                found: fields.len(),
            });
        }
        let mut numbers = [0u8; 14];
        for (i, text) in fields[..14].iter().enumerate() {
            let ok =
                !text.is_empty() && text.len() <= 2 && text.bytes().all(|b| b.is_ascii_digit());
            let value = if ok {
                text.parse::<u8>().ok().filter(|&v| v <= TOTAL_SEEDS)
            } else {
                None
            };
            numbers[i] = value.ok_or_else(|| PositionError::NotANumber {
                field: i,
                text: text.to_string(),
            })?;
        }
        let side = match fields[14] {
            "S" | "s" => Side::South,
            "N" | "n" => Side::North,
            other => {
                return Err(PositionError::BadSide {
                    text: other.to_string(),
                })
            }
        };
        let mut houses = [0u8; HOUSES];
        houses.copy_from_slice(&numbers[..12]);
        Position::new(houses, [numbers[12], numbers[13]], side)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(s: &str) -> Position {
        s.parse().unwrap()
    }

    fn mv(s: &str) -> Move {
        s.parse().unwrap()
    }

    #[test]
    fn parse_errors_say_what_is_wrong() {
        let e = "4-4-4".parse::<Position>().unwrap_err();
        assert_eq!(e, PositionError::FieldCount { found: 3 });
        let e = "4-4-4-4-4-4-4-4-4-4-4-x-0-0-S"
            .parse::<Position>()
            .unwrap_err();
        assert!(e.to_string().contains("house 11 (f)"), "{e}");
        let e = "4-4-4-4-4-4-4-4-4-4-4-4-0-1-S"
            .parse::<Position>()
            .unwrap_err();
        assert_eq!(e, PositionError::WrongTotal { total: 49 });
        let e = "4-4-4-4-4-4-4-4-4-4-4-4-0-0-W"
            .parse::<Position>()
            .unwrap_err();
        assert!(matches!(e, PositionError::BadSide { .. }));
        assert!("4-4-4-4-4-4-4-4-4-4-4-4-0--0-S"
            .parse::<Position>()
            .is_err());
        assert!("4-4-4-4-4-4-4-4-4-4-4-+4-0-0-S"
            .parse::<Position>()
            .is_err());
        assert!("4-4-4-4-4-4-4-4-4-4-4-999-0-0-S"
            .parse::<Position>()
            .is_err());
        assert_eq!(pos(" 4-4-4-4-4-4-4-4-4-4-4-4-0-0-S\n"), Position::start());
    }

    #[test]
    fn sowing_change_empties_the_origin_and_sows() {
        // From every house with every count, on a board that holds just those seeds there.
        for house in 0..HOUSES {
            for seeds in 1..=TOTAL_SEEDS as usize {
                let board = (seeds as u128) << (8 * house);
                let (gains, last) = sowing(house, seeds);
                let (change, last_too) = sowing_change(house, seeds);
                assert_eq!(board.wrapping_add(change), gains, "{house} {seeds}");
                assert_eq!(last, last_too);
            }
        }
    }

    #[test]
    fn sowing_skips_origin_on_laps() {
        // 12 seeds in A: one lap over the 11 other houses, the twelfth into B.
        let p = pos("12-0-0-0-0-0-1-0-0-0-0-0-18-17-S");
        let after = p.play(mv("A"), RuleSet::Abapa).unwrap().position;
        assert_eq!(after.houses(), &[0, 2, 1, 1, 1, 1, 2, 1, 1, 1, 1, 1]);
        // 11 seeds: exactly one lap, the last seed just before the origin.
        let p = pos("0-0-11-0-0-0-1-0-0-0-0-0-18-18-S");
        let (_, last) = p.sow(2);
        assert_eq!(last, 1);
        // 22 seeds: two full laps, last seed again just before the origin.
        let p = pos("0-0-22-0-0-0-1-0-0-0-0-0-13-12-S");
        let (h, last) = p.sow(2);
        assert_eq!(last, 1);
        assert_eq!(h[2], 0);
        assert_eq!(h[1], 2);
    }

    #[test]
    fn table_sowing_matches_sowing_seed_by_seed() {
        for house in 0..HOUSES {
            for seeds in 1..=TOTAL_SEEDS as usize {
                // Every other house holds a seed where the total allows, so that additions on top
                // of existing seeds are checked too.
                let other = u8::from(seeds + HOUSES - 1 <= TOTAL_SEEDS as usize);
                let mut houses = [other; HOUSES];
                houses[house] = seeds as u8;
                let Some(p) = Position::from_board(houses, Side::South) else {
                    continue;
                };
                let mut expected = houses;
                expected[house] = 0;
                let mut at = house;
                for _ in 0..seeds {
                    at = (at + 1) % HOUSES;
                    if at == house {
                        at = (at + 1) % HOUSES;
                    }
                    expected[at] += 1;
                }
                let (cells, last) = p.sow(house);
                assert_eq!(last_sown(house, seeds), (at, expected[at] - other));
                assert_eq!(&cells[..HOUSES], &expected, "house {house}, {seeds} seeds");
                assert_eq!(&cells[HOUSES..], &[0; CELLS - HOUSES]);
                assert_eq!(last, at, "house {house}, {seeds} seeds");
            }
        }
    }

    #[test]
    fn capture_chain_stops_at_row_end_and_at_a_break() {
        // South's F (4 seeds) ends in d (house 9): a..d become 2,2,3,3 and all four are taken.
        let p = pos("0-0-0-0-0-4-1-1-2-2-5-0-17-16-S");
        let played = p.play(mv("F"), RuleSet::Abapa).unwrap();
        assert_eq!(played.captured, 2 + 2 + 3 + 3);
        assert_eq!(
            played.position.houses(),
            &[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 5, 0]
        );
        // A break in the chain: c holds 4 after sowing.
        let p = pos("0-0-0-0-0-4-1-1-3-2-5-0-16-16-S");
        let played = p.play(mv("F"), RuleSet::Abapa).unwrap();
        assert_eq!(played.captured, 3);
    }

    #[test]
    fn no_capture_on_own_side_or_other_counts() {
        let p = pos("0-0-0-1-1-0-3-3-3-3-3-3-14-14-S");
        // D ends in E (own side): nothing.
        assert_eq!(p.play(mv("D"), RuleSet::Abapa).unwrap().captured, 0);
        // E ends in F (own side, now 1)... nothing either.
        assert_eq!(p.play(mv("E"), RuleSet::Abapa).unwrap().captured, 0);
    }

    #[test]
    fn grand_slam_captures_nothing_under_abapa_but_everything_under_awari() {
        // North's row: 1,1,0,0,0,0. South F with 2 seeds -> a,b become 2,2: all of North's seeds.
        let p = pos("0-0-0-0-4-2-1-1-0-0-0-0-20-20-S");
        let abapa = p.play(mv("F"), RuleSet::Abapa).unwrap();
        assert_eq!(abapa.captured, 0);
        assert_eq!(abapa.position.houses()[6..8], [2, 2]);
        // Under awari it is illegal: E (4 seeds) feeds without capturing all.
        assert_eq!(
            p.check_move(mv("F"), RuleSet::Awari),
            Some(IllegalMoveReason::StarvesOpponent)
        );
        // With F the only move, awari plays it and captures the whole row.
        let p = pos("0-0-0-0-0-2-1-1-0-0-0-0-22-22-S");
        assert_eq!(p.legal_moves(RuleSet::Awari).to_string(), "F");
        assert_eq!(p.play(mv("F"), RuleSet::Awari).unwrap().captured, 4);
    }

    #[test]
    fn feeding_rule_under_abapa() {
        // North is empty. A (1 seed) does not reach; F (1 seed) does.
        let p = pos("1-0-0-0-0-1-0-0-0-0-0-0-20-26-S");
        assert_eq!(
            p.legal_moves(RuleSet::Abapa),
            MoveSet::EMPTY,
            "decided by stores"
        );
        let p = pos("1-0-0-0-0-1-0-0-0-0-0-0-23-23-S");
        assert_eq!(p.legal_moves(RuleSet::Abapa).to_string(), "F");
        assert_eq!(
            p.check_move(mv("A"), RuleSet::Abapa),
            Some(IllegalMoveReason::MustFeed)
        );
        assert_eq!(
            p.check_move(mv("B"), RuleSet::Abapa),
            Some(IllegalMoveReason::EmptyHouse)
        );
        assert_eq!(
            p.check_move(mv("a"), RuleSet::Abapa),
            Some(IllegalMoveReason::NotYourHouse)
        );
        // No move feeds: no legal moves.
        let p = pos("1-1-0-0-0-0-0-0-0-0-0-0-23-23-S");
        assert!(p.legal_moves(RuleSet::Abapa).is_empty());
    }

    #[test]
    fn store_decided_positions_have_no_moves() {
        let p = pos("4-4-4-4-4-3-0-0-0-0-0-0-25-0-N");
        assert!(p.is_decided_by_stores());
        assert_eq!(
            p.check_move(mv("A"), RuleSet::Abapa),
            Some(IllegalMoveReason::GameOver)
        );
    }
}

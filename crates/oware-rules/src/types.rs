//! Small value types: sides, rule sets, moves and sets of moves.

use std::fmt;
use std::str::FromStr;

/// Number of houses on the board (two rows of six).
pub const HOUSES: usize = 12;
/// Total number of seeds in a game.
pub const TOTAL_SEEDS: u8 = 48;
/// A store holding more than this wins the game at once.
pub const HALF_SEEDS: u8 = 24;

/// One of the two players. South owns houses 0..=5 (`A`–`F`), North owns 6..=11 (`a`–`f`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Side {
    /// Moves first from the usual start; owns houses 0..=5 (`A`–`F`).
    South = 0,
    /// Owns houses 6..=11 (`a`–`f`).
    North = 1,
}

impl Side {
    /// The other player.
    #[inline]
    pub const fn opponent(self) -> Side {
        match self {
            Side::South => Side::North,
            Side::North => Side::South,
        }
    }

    /// Index of this side (0 for South, 1 for North), for arrays of two.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The first house of this side's row (0 or 6).
    #[inline]
    pub const fn first_house(self) -> usize {
        self as usize * 6
    }

    /// Whether `house` (0..12) lies on this side's row.
    #[inline]
    pub const fn owns(self, house: usize) -> bool {
        house / 6 == self as usize
    }

    /// The letter used in position strings: `S` or `N`.
    pub const fn letter(self) -> char {
        match self {
            Side::South => 'S',
            Side::North => 'N',
        }
    }

    /// The side a letter names, `S` or `N` exactly (the strict reading of what [`Side::letter`]
    /// wrote; [`FromStr`] is the lenient one for people).
    ///
    /// ```
    /// use oware_rules::Side;
    /// assert_eq!(Side::from_letter('N'), Some(Side::North));
    /// assert_eq!(Side::from_letter('n'), None);
    /// ```
    pub const fn from_letter(letter: char) -> Option<Side> {
        match letter {
            'S' => Some(Side::South),
            'N' => Some(Side::North),
            _ => None,
        }
    }

    /// Both sides, South first.
    pub const BOTH: [Side; 2] = [Side::South, Side::North];
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Side::South => "South",
            Side::North => "North",
        })
    }
}

/// Text that names neither side.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownSide(pub String);

impl fmt::Display for UnknownSide {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown side {}: expected S (South) or N (North)",
            quoted(&self.0)
        )
    }
}

impl std::error::Error for UnknownSide {}

impl FromStr for Side {
    type Err = UnknownSide;

    /// Accepts the letters and the names, case-insensitively: `S`, `south`, `N`, `North`, …
    ///
    /// ```
    /// use oware_rules::Side;
    /// assert_eq!("north".parse::<Side>().unwrap(), Side::North);
    /// assert_eq!("S".parse::<Side>().unwrap(), Side::South);
    /// assert!("west".parse::<Side>().is_err());
    /// ```
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "s" | "south" => Ok(Side::South),
            "n" | "north" => Ok(Side::North),
            _ => Err(UnknownSide(s.to_string())),
        }
    }
}

/// Which rules decide feeding, captures of a whole row and repetitions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum RuleSet {
    /// International tournament rules (the default): grand slams capture nothing, a player must feed an
    /// empty opponent, and at a repetition each player gathers the seeds on their own side.
    #[default]
    Abapa,
    /// The research rules under which Romein & Bal solved the game: a move that leaves the opponent
    /// without seeds is illegal unless every move does so (then the game ends), and at a repetition the
    /// seeds left are split evenly.
    Awari,
}

impl RuleSet {
    /// The lower-case name used on the command line and in game records.
    pub const fn name(self) -> &'static str {
        match self {
            RuleSet::Abapa => "abapa",
            RuleSet::Awari => "awari",
        }
    }
}

impl fmt::Display for RuleSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A rule-set name that is neither `abapa` nor `awari`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownRuleSet(pub String);

impl fmt::Display for UnknownRuleSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown rule set {}: expected \"abapa\" or \"awari\"",
            quoted(&self.0)
        )
    }
}

impl std::error::Error for UnknownRuleSet {}

impl FromStr for RuleSet {
    type Err = UnknownRuleSet;

    /// Accepts the names case-insensitively, with the common spellings of each game.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "abapa" | "oware" | "aualé" | "auale" | "awale" | "oware abapa" => Ok(RuleSet::Abapa),
            "awari" => Ok(RuleSet::Awari),
            _ => Err(UnknownRuleSet(s.to_string())),
        }
    }
}

/// A move: the house (0..12) whose seeds are sown. Written as one letter, `A`–`F` for South's houses
/// and `a`–`f` for North's.
///
/// ```
/// use oware_rules::{Move, Side};
/// let m: Move = "d".parse().unwrap();
/// assert_eq!(m.house(), 9);
/// assert_eq!(m.side(), Side::North);
/// assert_eq!(m.to_string(), "d");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move(u8);

impl Move {
    /// The move that sows `house`, or `None` when `house` is not in 0..12.
    pub const fn new(house: usize) -> Option<Move> {
        if house < HOUSES {
            Some(Move(house as u8))
        } else {
            None
        }
    }

    /// The move for `side` that sows the house `column` (0..6, read from that player's left).
    pub const fn for_side(side: Side, column: usize) -> Option<Move> {
        if column < 6 {
            Some(Move((side.first_house() + column) as u8))
        } else {
            None
        }
    }

    /// The house sown, 0..12.
    #[inline]
    pub const fn house(self) -> usize {
        self.0 as usize
    }

    /// The player this move belongs to.
    #[inline]
    pub const fn side(self) -> Side {
        if self.0 < 6 {
            Side::South
        } else {
            Side::North
        }
    }

    /// The column 0..6 within the owner's row (0 = `A`/`a`).
    #[inline]
    pub const fn column(self) -> usize {
        self.0 as usize % 6
    }

    /// The letter of this move.
    pub const fn letter(self) -> char {
        let base = if self.0 < 6 { b'A' } else { b'a' };
        (base + self.0 % 6) as char
    }

    /// The move written as `letter`, if it is one of `A`–`F` or `a`–`f`.
    pub const fn from_letter(letter: char) -> Option<Move> {
        match letter {
            'A'..='F' => Some(Move(letter as u8 - b'A')),
            'a'..='f' => Some(Move(letter as u8 - b'a' + 6)),
            _ => None,
        }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// Text that is not a move letter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InvalidMoveLetter(pub String);

impl fmt::Display for InvalidMoveLetter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} is not a move: a move is one letter, A-F for South or a-f for North",
            quoted(&self.0)
        )
    }
}

impl std::error::Error for InvalidMoveLetter {}

impl FromStr for Move {
    type Err = InvalidMoveLetter;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let mut chars = s.chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) => Move::from_letter(c).ok_or_else(|| InvalidMoveLetter(s.to_string())),
            _ => Err(InvalidMoveLetter(s.to_string())),
        }
    }
}

/// Parses a concatenated move list such as `FfEa` (the engine-protocol form). Whitespace between letters
/// is allowed. The moves are not checked against any position.
///
/// ```
/// let moves = oware_rules::parse_move_letters("Ff Ea").unwrap();
/// assert_eq!(moves.len(), 4);
/// ```
pub fn parse_move_letters(text: &str) -> Result<Vec<Move>, InvalidMoveLetter> {
    text.chars()
        .filter(|c| !c.is_whitespace())
        .map(|c| Move::from_letter(c).ok_or_else(|| InvalidMoveLetter(c.to_string())))
        .collect()
}

/// Writes moves as concatenated letters (`FfEa`).
pub fn format_move_letters(moves: &[Move]) -> String {
    moves.iter().map(|m| m.letter()).collect()
}

/// A set of moves, as a bit mask over the 12 houses. `Copy`, and iterates in house order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct MoveSet(u16);

impl MoveSet {
    /// The empty set.
    pub const EMPTY: MoveSet = MoveSet(0);

    /// Builds a set from a bit mask (bit `h` = house `h`); bits above 11 are ignored.
    #[inline]
    pub const fn from_bits(bits: u16) -> MoveSet {
        MoveSet(bits & 0x0fff)
    }

    /// The bit mask (bit `h` = house `h`).
    #[inline]
    pub const fn bits(self) -> u16 {
        self.0
    }

    /// Number of moves in the set.
    #[inline]
    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// Whether the set holds no move.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether `mv` is in the set.
    #[inline]
    pub const fn contains(self, mv: Move) -> bool {
        self.0 & (1 << mv.0) != 0
    }

    /// Adds `mv` to the set.
    #[inline]
    pub fn insert(&mut self, mv: Move) {
        self.0 |= 1 << mv.0;
    }

    /// Takes `mv` out of the set.
    #[inline]
    pub fn remove(&mut self, mv: Move) {
        self.0 &= !(1 << mv.0);
    }
}

impl Iterator for MoveSet {
    type Item = Move;

    #[inline]
    fn next(&mut self) -> Option<Move> {
        if self.0 == 0 {
            return None;
        }
        let house = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Some(Move(house))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        // Not `self.len()`: through `&self` that resolves to `ExactSizeIterator::len`, which calls this.
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for MoveSet {}

impl FromIterator<Move> for MoveSet {
    fn from_iter<I: IntoIterator<Item = Move>>(iter: I) -> Self {
        let mut set = MoveSet::EMPTY;
        for m in iter {
            set.insert(m);
        }
        set
    }
}

impl fmt::Display for MoveSet {
    /// The letters of the moves, in house order (`ABF`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for m in *self {
            write!(f, "{m}")?;
        }
        Ok(())
    }
}

/// Text from the input as an error message shows it: in quotes, escaped as `{:?}` does, and cut
/// to its first [`QUOTED_CHARS`] characters, with the full length after them. An error never
/// echoes a whole input back: a 100 KB line would make a 100 KB message.
///
/// ```
/// use oware_rules::quoted;
/// assert_eq!(quoted("Ama").to_string(), "\"Ama\"");
/// assert_eq!(quoted(&"x".repeat(100)).to_string(), format!("{:?}… (100 bytes)", "x".repeat(40)));
/// ```
pub fn quoted(text: &str) -> Quoted<'_> {
    Quoted(text)
}

/// The characters of the input that [`quoted`] shows.
pub const QUOTED_CHARS: usize = 40;

/// See [`quoted`].
#[derive(Debug, Clone, Copy)]
pub struct Quoted<'a>(&'a str);

impl fmt::Display for Quoted<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0.char_indices().nth(QUOTED_CHARS) {
            None => write!(f, "{:?}", self.0),
            Some((cut, _)) => write!(f, "{:?}… ({} bytes)", &self.0[..cut], self.0.len()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_letters_round_trip() {
        for h in 0..12 {
            let m = Move::new(h).unwrap();
            assert_eq!(Move::from_letter(m.letter()), Some(m));
            assert_eq!(m.to_string().parse::<Move>().unwrap(), m);
        }
        assert!("G".parse::<Move>().is_err());
        assert!("".parse::<Move>().is_err());
        assert!("Ab".parse::<Move>().is_err());
        assert!(Move::new(12).is_none());
    }

    #[test]
    fn move_sides_and_columns() {
        assert_eq!(Move::from_letter('F').unwrap().house(), 5);
        assert_eq!(Move::from_letter('a').unwrap().house(), 6);
        assert_eq!(Move::for_side(Side::North, 5).unwrap().letter(), 'f');
        assert_eq!(Move::from_letter('c').unwrap().column(), 2);
    }

    #[test]
    fn move_set_iterates_in_order() {
        let set: MoveSet = [Move::new(7).unwrap(), Move::new(2).unwrap()]
            .into_iter()
            .collect();
        assert_eq!(set.len(), 2);
        assert_eq!(set.to_string(), "Cb");
        assert_eq!(
            set.collect::<Vec<_>>(),
            vec![Move::new(2).unwrap(), Move::new(7).unwrap()]
        );
    }

    #[test]
    fn side_names() {
        for (text, side) in [
            ("S", Side::South),
            ("s", Side::South),
            ("South", Side::South),
            (" north ", Side::North),
            ("N", Side::North),
        ] {
            assert_eq!(text.parse::<Side>().unwrap(), side, "{text:?}");
        }
        for bad in ["", "x", "southward", "SN"] {
            let e = bad.parse::<Side>().unwrap_err();
            assert!(e.to_string().contains("S (South) or N (North)"), "{e}");
        }
    }

    #[test]
    fn rule_set_names() {
        assert_eq!("AWARI".parse::<RuleSet>().unwrap(), RuleSet::Awari);
        assert_eq!("abapa".parse::<RuleSet>().unwrap(), RuleSet::Abapa);
        assert!("kalah".parse::<RuleSet>().is_err());
    }

    #[test]
    fn move_list_parsing() {
        assert_eq!(
            format_move_letters(&parse_move_letters("FfEa").unwrap()),
            "FfEa"
        );
        let err = parse_move_letters("Fx").unwrap_err();
        assert!(err.to_string().contains("\"x\""));
    }
}

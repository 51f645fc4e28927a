//! What a game is, independent of where it lives: how it was set up, the seats a token gives, and
//! the view every client is sent. The storage, the rooms and the protocol all speak these types,
//! so none of them depends on another for them.

use serde::Serialize;

use oware_rules::{Position, RuleSet, Side};

use crate::game::clock::ClockView;

/// Who plays the game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GameMode {
    /// One person against the engine, which plays `side` at `level`.
    Computer {
        /// The engine's side.
        side: Side,
        /// The engine's strength, 1 (weakest) to 10.
        level: u8,
    },
    /// Two people, each with their own token.
    Friend,
}

/// How a game was set up; fixed for its whole life.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GameSetup {
    /// Who plays.
    pub mode: GameMode,
    /// The rule set the game is played under.
    pub rules: RuleSet,
    /// The position the game starts from.
    pub start: Position,
    /// Time per side in milliseconds, in games played with clocks.
    pub clock_ms: Option<u64>,
    /// Milliseconds added to a player's clock after each of their moves (`5+3`: 3000).
    pub increment_ms: u64,
    /// `clock_ms` is the time for each move (correspondence: days), given afresh after each.
    pub per_move: bool,
}

/// What one friend may offer the other during a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OfferKind {
    /// Agreeing a draw.
    Draw,
    /// Taking back the offerer's last move (and the reply to it, if there is one).
    Takeback,
}

impl OfferKind {
    /// As stored and sent: `draw` or `takeback`.
    pub fn word(self) -> &'static str {
        match self {
            OfferKind::Draw => "draw",
            OfferKind::Takeback => "takeback",
        }
    }

    /// Reads what [`OfferKind::word`] wrote; `None` for anything else.
    pub fn parse(text: &str) -> Option<OfferKind> {
        match text {
            "draw" => Some(OfferKind::Draw),
            "takeback" => Some(OfferKind::Takeback),
            _ => None,
        }
    }
}

/// A message one player sends the other: a few fixed words, sent as a code and shown in each
/// reader's own language (no free text: nothing to moderate).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QuickMessage {
    /// "Good luck!"
    GoodLuck,
    /// "Your move!"
    YourMove,
    /// "Well played"
    WellPlayed,
    /// "Thank you"
    ThankYou,
    /// "Good game"
    GoodGame,
}

impl QuickMessage {
    /// Every message, in the order the page offers them.
    pub const ALL: [QuickMessage; 5] = [
        QuickMessage::GoodLuck,
        QuickMessage::YourMove,
        QuickMessage::WellPlayed,
        QuickMessage::ThankYou,
        QuickMessage::GoodGame,
    ];

    /// As sent: `good-luck`, `your-move`, `well-played`, `thank-you`, `good-game`.
    pub fn code(self) -> &'static str {
        match self {
            QuickMessage::GoodLuck => "good-luck",
            QuickMessage::YourMove => "your-move",
            QuickMessage::WellPlayed => "well-played",
            QuickMessage::ThankYou => "thank-you",
            QuickMessage::GoodGame => "good-game",
        }
    }

    /// Reads what [`QuickMessage::code`] wrote; `None` for anything else.
    pub fn parse(text: &str) -> Option<QuickMessage> {
        QuickMessage::ALL.into_iter().find(|m| m.code() == text)
    }
}

/// The seat a token gives in a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Seat {
    /// A player of that side, who may move when it is their turn.
    Player(Side),
    /// Someone who follows the game and may not move.
    Watcher,
}

/// The longest name a player may give, in characters.
pub const MAX_NAME_CHARS: usize = 40;

/// A name a player gave that cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("a name is at most {MAX_NAME_CHARS} characters, this one has {0}")]
pub struct NameTooLong(pub usize);

/// A player's name as it is kept: control characters and invisible ones removed (a name is one
/// line of plain text, shown as text everywhere, and must look like what it is: see
/// [`is_invisible`]), spaces at either end trimmed, at most [`MAX_NAME_CHARS`] characters. An
/// empty name is no name.
pub fn clean_name(raw: &str) -> Result<Option<String>, NameTooLong> {
    let name: String = raw
        .chars()
        .filter(|&c| !c.is_control() && !is_invisible(c))
        .collect();
    let name = name.trim();
    match name.chars().count() {
        0 => Ok(None),
        n if n > MAX_NAME_CHARS => Err(NameTooLong(n)),
        _ => Ok(Some(name.to_string())),
    }
}

/// Characters that show nothing of their own but change how the text around them shows, or pass
/// for blanks that are not spaces: with them a name can hide (zero-width spaces), reorder the
/// words shown after it (a right-to-left override, U+202E; direction isolates, U+2066-2069), carry
/// hidden text (tag characters), or look empty. Unicode's format characters (general category
/// Cf, as of Unicode 15.1), the line and paragraph separators, and the fillers that fonts draw
/// blank. Joiners go too, so an emoji sequence falls apart into its emoji: a small price.
pub fn is_invisible(c: char) -> bool {
    matches!(
        c,
        '\u{00AD}'
            | '\u{034F}'
            | '\u{0600}'..='\u{0605}'
            | '\u{061C}'
            | '\u{06DD}'
            | '\u{070F}'
            | '\u{0890}'..='\u{0891}'
            | '\u{08E2}'
            | '\u{115F}'..='\u{1160}'
            | '\u{180E}'
            | '\u{200B}'..='\u{200F}'
            | '\u{2028}'..='\u{202E}'
            | '\u{2060}'..='\u{2064}'
            | '\u{2066}'..='\u{206F}'
            | '\u{2800}'
            | '\u{3164}'
            | '\u{FEFF}'
            | '\u{FFA0}'
            | '\u{FFF9}'..='\u{FFFB}'
            | '\u{110BD}'
            | '\u{110CD}'
            | '\u{13430}'..='\u{1343F}'
            | '\u{1BCA0}'..='\u{1BCA3}'
            | '\u{1D173}'..='\u{1D17A}'
            | '\u{E0001}'
            | '\u{E0020}'..='\u{E007F}'
    )
}

/// What every client is told after each change: the whole game, so a client that missed
/// something is never out of step.
#[derive(Debug, Clone, Serialize)]
pub struct GameView {
    /// The game's id, as in its URL.
    pub id: String,
    /// `computer` or `friend`.
    pub mode: &'static str,
    /// The rule set's name: `abapa` or `awari`.
    pub rules: &'static str,
    /// The start position, in the position notation.
    pub start: String,
    /// The moves played, as concatenated letters (`FfEa`).
    pub moves: String,
    /// Seeds captured by each move, in order.
    pub captures: Vec<u8>,
    /// The current position, in the position notation.
    pub position: String,
    /// `S` or `N`: the side to move.
    pub to_move: char,
    /// The legal moves' letters, empty once the game is over.
    pub legal: String,
    /// `S` or `N` for the computer's side, in games against it.
    pub computer: Option<char>,
    /// The computer's level, in games against it.
    pub level: Option<u8>,
    /// Which sides have a player (the computer counts).
    pub seated: [bool; 2],
    /// The names the players gave, South first (none for the computer, or a player who gave
    /// none).
    pub names: [Option<String>; 2],
    /// `S` or `N`: who sent the friend's invitation (and alone may send a new one), in games
    /// with an invitation code.
    pub host: Option<char>,
    /// How the game ended, once it has.
    pub end: Option<EndView>,
    /// Set while the computer is thinking about its move.
    pub thinking: bool,
    /// The clocks, in games played with them.
    pub clock: Option<ClockView>,
    /// An offer waiting for the other player's answer.
    pub offer: Option<OfferView>,
    /// The id of the rematch, once one of the players has started it.
    pub rematch: Option<String>,
}

/// An offer as clients see it.
#[derive(Debug, Clone, Serialize)]
pub struct OfferView {
    /// `draw` or `takeback`.
    pub what: &'static str,
    /// `S` or `N`: who made it.
    pub by: char,
}

/// How a finished game ended.
#[derive(Debug, Clone, Serialize)]
pub struct EndView {
    /// The rules' reason (`capture`, `repetition`, …), `time` when a flag fell, `resign`,
    /// `agreement`, or `aborted` (no result).
    pub reason: &'static str,
    /// `25-23`, South first.
    pub score: String,
    /// `S`, `N`, or `null` for a draw.
    pub winner: Option<char>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_one_line_of_plain_text_of_limited_length() {
        assert_eq!(
            clean_name("  Grandma Rosa "),
            Ok(Some("Grandma Rosa".into()))
        );
        assert_eq!(
            clean_name("Ana\n\u{7}\u{1b}[31m"),
            Ok(Some("Ana[31m".into()))
        );
        assert_eq!(clean_name(" \t\r\n"), Ok(None));
        // Names that would hide, reorder what follows them, or look empty.
        for (raw, kept) in [
            ("\u{200B}\u{200B}\u{200B}", None),
            ("\u{202E}Bob", Some("Bob")),
            ("Ana\u{2066}\u{2067}\u{2068}\u{2069}", Some("Ana")),
            ("Kofi\u{E0041}\u{E0042}", Some("Kofi")),
            ("\u{FEFF}Léo\u{2028}", Some("Léo")),
            ("\u{3164}\u{115F}\u{2800}", None),
            ("Ama\u{200D}Kofi", Some("AmaKofi")),
            // Letters of every script stay: right-to-left ones included.
            ("سلمى", Some("سلمى")),
            ("Zoë 🙂", Some("Zoë 🙂")),
        ] {
            assert_eq!(clean_name(raw), Ok(kept.map(String::from)), "{raw:?}");
        }
        assert_eq!(clean_name("<b>Léa</b>"), Ok(Some("<b>Léa</b>".into())));
        assert_eq!(
            clean_name(&"é".repeat(40))
                .unwrap()
                .unwrap()
                .chars()
                .count(),
            40
        );
        assert_eq!(clean_name(&"é".repeat(41)), Err(NameTooLong(41)));
    }
}

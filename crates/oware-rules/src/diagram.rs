//! Text diagrams of the board, for a terminal or any text: `oware show`, the interactive game and the
//! Python package's `Position.diagram()` all draw this one.

use crate::{Position, Side};

/// The board with North on top (its houses `f`..`a` from left to right, as the ring runs
/// counter-clockwise), South below (`A`..`F`), the stores beside their rows and the side to move.
///
/// ```text
///          f    e    d    c    b    a
///       +----+----+----+----+----+----+
/// North |  4 |  4 |  4 |  4 |  4 |  4 |  store  0
///       +----+----+----+----+----+----+
/// South |  4 |  4 |  4 |  4 |  4 |  4 |  store  0  <- to move
///       +----+----+----+----+----+----+
///          A    B    C    D    E    F
/// ```
pub fn diagram(pos: &Position) -> String {
    diagram_in(pos, &Words::ENGLISH)
}

/// The words a diagram is drawn with, so that it speaks the reader's language.
pub struct Words<'a> {
    /// The names of the sides, South's first.
    pub sides: [&'a str; 2],
    /// The word before each store's count.
    pub store: &'a str,
    /// The words after the row of the side to move.
    pub to_move: &'a str,
}

impl Words<'static> {
    /// The words of [`diagram`].
    pub const ENGLISH: Words<'static> = Words {
        sides: ["South", "North"],
        store: "store",
        to_move: "to move",
    };
}

/// [`diagram`] in other words.
pub fn diagram_in(pos: &Position, words: &Words) -> String {
    let line = "      +----+----+----+----+----+----+\n";
    let name = |side: Side| words.sides[usize::from(side == Side::North)];
    // The row names are padded to one width, so that the rows line up whatever the language.
    let width = words
        .sides
        .iter()
        .map(|s| s.chars().count())
        .max()
        .unwrap_or(0)
        .max(5);
    let row = |side: Side, houses: &mut dyn Iterator<Item = usize>| {
        let mut s = format!("{:<width$} |", name(side));
        for h in houses {
            s += &format!(" {:>2} |", pos.house(h));
        }
        s += &format!("  {} {:>2}", words.store, pos.store(side));
        if pos.side_to_move() == side {
            s += &format!("  <- {}", words.to_move);
        }
        s + "\n"
    };
    let indent = " ".repeat(width - 5);
    let mut out = String::new();
    out += &format!("{indent}         f    e    d    c    b    a\n");
    out += &indent;
    out += line;
    out += &row(Side::North, &mut (6..12).rev());
    out += &indent;
    out += line;
    out += &row(Side::South, &mut (0..6));
    out += &indent;
    out += line;
    out += &format!("{indent}         A    B    C    D    E    F\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_in_another_language_keep_the_rows_in_line() {
        let pos: Position = "1-2-3-4-5-6-7-8-9-1-1-1-0-0-N".parse().unwrap();
        let words = Words {
            sides: ["Sud", "Nord"],
            store: "grenier",
            to_move: "au trait",
        };
        let text = diagram_in(&pos, &words);
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines[2].starts_with("Nord  |  1 |"), "{text}");
        assert!(lines[2].ends_with("grenier  0  <- au trait"), "{text}");
        assert!(lines[4].starts_with("Sud   |  1 |  2 |"), "{text}");
        // Longer names push the whole board right.
        let words = Words {
            sides: ["Sul", "Nordeste"],
            ..words
        };
        let text = diagram_in(&pos, &words);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[2].find('|'), lines[1].find('+'), "{text}");
        assert_eq!(lines[0].find('f'), Some(12), "{text}");
        assert_eq!(diagram(&pos), diagram_in(&pos, &Words::ENGLISH));
    }

    #[test]
    fn north_is_drawn_right_to_left() {
        let pos: Position = "1-2-3-4-5-6-7-8-9-1-1-1-0-0-N".parse().unwrap();
        let text = diagram(&pos);
        let north = text.lines().nth(2).unwrap();
        assert!(
            north.starts_with("North |  1 |  1 |  1 |  9 |  8 |  7 |"),
            "{north}"
        );
        assert!(north.ends_with("<- to move"));
        let south = text.lines().nth(4).unwrap();
        assert!(
            south.starts_with("South |  1 |  2 |  3 |  4 |  5 |  6 |"),
            "{south}"
        );
    }
}

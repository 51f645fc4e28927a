//! Text diagrams of the board for the terminal.

use oware_rules::{Position, Side};

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
    let line = "      +----+----+----+----+----+----+\n";
    let row = |side: Side, houses: &mut dyn Iterator<Item = usize>| {
        let mut s = format!("{:<5} |", side.to_string());
        for h in houses {
            s += &format!(" {:>2} |", pos.house(h));
        }
        s += &format!("  store {:>2}", pos.store(side));
        if pos.side_to_move() == side {
            s += "  <- to move";
        }
        s + "\n"
    };
    let mut out = String::new();
    out += "         f    e    d    c    b    a\n";
    out += line;
    out += &row(Side::North, &mut (6..12).rev());
    out += line;
    out += &row(Side::South, &mut (0..6));
    out += line;
    out += "         A    B    C    D    E    F\n";
    out
}

#[cfg(test)]
mod tests {
    use super::*;

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

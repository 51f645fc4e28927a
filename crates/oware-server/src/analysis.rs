//! The analysis board's evaluation: every legal move of a position searched to the same depth with
//! alpha-beta on the store difference, with its best line. Repetitions are not seen (the position
//! carries no history), which the analysis page says.
//!
//! This small search lives here so the analysis board works on its own; the engine crate's
//! stronger search can take its place behind [`evaluate`].

use std::time::{Duration, Instant};

use serde::Serialize;

use oware_rules::{end_without_history, Move, Position, RuleSet};

/// One legal move's value for the side to move, in seeds (positive: good for the mover), and the
/// line the search expects.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct MoveValue {
    #[serde(rename = "move")]
    pub mv: char,
    pub score: f64,
    pub line: String,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Evaluation {
    pub depth: u32,
    pub moves: Vec<MoveValue>,
}

struct Search {
    rules: RuleSet,
    deadline: Instant,
    nodes: u64,
    aborted: bool,
}

const MATE: i32 = 10_000;

impl Search {
    /// Value in half seeds for the side to move in `pos`, with the best line.
    fn negamax(
        &mut self,
        pos: &Position,
        depth: u32,
        mut alpha: i32,
        beta: i32,
        line: &mut Vec<Move>,
    ) -> i32 {
        self.nodes += 1;
        if self.nodes % 4096 == 0 && Instant::now() > self.deadline {
            self.aborted = true;
        }
        let me = pos.side_to_move();
        if let Some(end) = end_without_history(pos, self.rules) {
            line.clear();
            let diff = end.score.halves(me) as i32 - end.score.halves(me.opponent()) as i32;
            // Prefer quick wins and slow losses by a hair.
            return diff * 100 + diff.signum() * depth as i32;
        }
        if depth == 0 || self.aborted {
            line.clear();
            return (pos.store(me) as i32 - pos.store(me.opponent()) as i32) * 200;
        }
        let mut best = -MATE * 100;
        let mut child_line = Vec::new();
        for mv in pos.legal_moves(self.rules) {
            let child = pos.play_unchecked(mv, self.rules).position;
            let value = -self.negamax(&child, depth - 1, -beta, -alpha, &mut child_line);
            if value > best {
                best = value;
                line.clear();
                line.push(mv);
                line.extend_from_slice(&child_line);
            }
            alpha = alpha.max(value);
            if alpha >= beta {
                break;
            }
        }
        best
    }
}

/// Evaluates every legal move of `pos`, deepening until `budget` is spent (or `max_depth`).
pub fn evaluate(pos: &Position, rules: RuleSet, budget: Duration, max_depth: u32) -> Evaluation {
    let mut search = Search {
        rules,
        deadline: Instant::now() + budget,
        nodes: 0,
        aborted: false,
    };
    let mut done = Evaluation {
        depth: 0,
        moves: Vec::new(),
    };
    if end_without_history(pos, rules).is_some() {
        return done;
    }
    for depth in 1..=max_depth.max(1) {
        let mut moves = Vec::new();
        for mv in pos.legal_moves(rules) {
            let child = pos.play_unchecked(mv, rules).position;
            let mut line = Vec::new();
            let value = -search.negamax(&child, depth - 1, -MATE * 100, MATE * 100, &mut line);
            let mut text = String::from(mv.letter());
            text.extend(line.iter().map(|m| m.letter()));
            moves.push(MoveValue {
                mv: mv.letter(),
                score: (value as f64 / 200.0 * 2.0).round() / 2.0,
                line: text,
            });
        }
        if search.aborted {
            break;
        }
        moves.sort_by(|a, b| b.score.total_cmp(&a.score));
        done = Evaluation { depth, moves };
        if Instant::now() > search.deadline {
            break;
        }
    }
    done
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sees_a_winning_capture() {
        // South's F captures two from `a` and reaches 25 seeds: a win.
        let pos: Position = "0-0-0-0-1-1-1-1-0-0-0-0-23-21-S".parse().unwrap();
        let eval = evaluate(&pos, RuleSet::Abapa, Duration::from_secs(2), 6);
        assert!(eval.depth >= 1);
        assert_eq!(eval.moves[0].mv, 'F');
        assert!(eval.moves[0].score > eval.moves.last().unwrap().score);
        assert_eq!(eval.moves.len(), 2);
    }

    #[test]
    fn start_position_has_six_values() {
        let eval = evaluate(
            &Position::start(),
            RuleSet::Abapa,
            Duration::from_millis(200),
            4,
        );
        assert_eq!(eval.moves.len(), 6);
        assert!(eval.moves.iter().all(|m| !m.line.is_empty()));
    }
}

//! The coach's findings as JSON, for the web app: the explanation of every legal move (the analysis
//! board), the threats on the board now (the coach's marks during a game) and a game's review.

use oware_rules::{Game, Position, RuleSet, Side};
use serde_json::{json, Value};

use crate::detect::{self, Capture};
use crate::explain::{render_line, Explanation, Fact};
use crate::messages::Lang;
use crate::review::Mistake;

fn side_letter(side: Side) -> String {
    side.letter().to_string()
}

fn capture_json(by: Side, c: &Capture) -> Value {
    json!({
        "by": side_letter(by),
        "move": c.mv.to_string(),
        "houses": c.houses,
        "seeds": c.seeds,
        "grandSlam": c.grand_slam,
    })
}

/// The houses a move takes (`gain`) and the mover's houses it leaves to the opponent (`risk`), for
/// marks on the board.
fn marks(e: &Explanation) -> (Vec<usize>, Vec<usize>) {
    let mut gain = Vec::new();
    let mut risk = Vec::new();
    for fact in &e.facts {
        match fact {
            Fact::Captures { capture } => gain.extend(&capture.houses),
            Fact::LeavesThreat { capture } => risk.extend(&capture.houses),
            Fact::LeavesDoubleAttack { targets, .. } => risk.extend(targets),
            _ => {}
        }
    }
    gain.sort_unstable();
    gain.dedup();
    risk.sort_unstable();
    risk.dedup();
    (gain, risk)
}

/// One explanation: the move, its words in `lang`, the engine's score (centiseeds for the mover),
/// loss and line, and the houses to mark.
pub fn explanation(e: &Explanation, lang: Lang) -> Value {
    let (gain, risk) = marks(e);
    let verdict = e.verdict.as_ref();
    json!({
        "move": e.mv.to_string(),
        "text": e.render(lang),
        "score": verdict.map(|v| v.score),
        "best": verdict.map(|v| v.best.to_string()),
        "loss": verdict.map(|v| v.loss),
        "line": verdict.map(|v| render_line(&v.line, lang)),
        "gain": gain,
        "risk": risk,
    })
}

/// Every legal move explained (see [`crate::explain_all`]), best first.
pub fn explanations(all: &[Explanation], lang: Lang) -> Value {
    Value::Array(all.iter().map(|e| explanation(e, lang)).collect())
}

/// What each side could take if it were their move now, for the coach's marks on the board.
pub fn threats(pos: &Position, rules: RuleSet) -> Value {
    let list: Vec<Value> = Side::BOTH
        .into_iter()
        .flat_map(|side| {
            detect::threats(pos, rules, side)
                .into_iter()
                .filter(|c| c.seeds > 0)
                .map(move |c| capture_json(side, &c))
        })
        .collect();
    Value::Array(list)
}

/// A game's review: each mistake with its words in `lang` and the better move, to replay on the board.
pub fn review(game: &Game, mistakes: &[Mistake], lang: Lang) -> Value {
    let list: Vec<Value> = mistakes
        .iter()
        .map(|m| {
            json!({
                "ply": m.ply,
                "label": m.label,
                "side": side_letter(m.played.mover),
                "move": m.played.mv.to_string(),
                "better": m.better.mv.to_string(),
                "loss": m.loss,
                "text": m.render(lang),
            })
        })
        .collect();
    json!({ "plies": game.ply_count(), "mistakes": list })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{explain_all, Analyst};

    #[test]
    fn explanations_carry_words_scores_and_marks() {
        let pos: Position = "4-4-4-4-4-3-4-1-2-4-4-4-3-3-S".parse().unwrap();
        let game = Game::from_position(pos, RuleSet::Abapa);
        let all = explain_all(&game, &mut Analyst::new(3));
        let value = explanations(&all, Lang::Fr);
        let list = value.as_array().unwrap();
        assert_eq!(list.len(), 6);
        let f = list.iter().find(|v| v["move"] == "F").unwrap();
        assert!(f["text"]
            .as_str()
            .unwrap()
            .starts_with("F sème 3 graines et prend b et c : 5 graines."));
        assert_eq!(f["gain"], json!([7, 8]));
        assert!(f["score"].is_i64());
        assert_eq!(list[0]["loss"], json!(0));
    }

    #[test]
    fn threats_name_the_side_the_move_and_the_houses() {
        let pos: Position = "1-4-4-4-4-4-4-4-4-4-4-1-3-3-S".parse().unwrap();
        let value = threats(&pos, RuleSet::Abapa);
        assert_eq!(
            value,
            json!([
                {"by": "N", "move": "c", "houses": [0], "seeds": 2, "grandSlam": false},
                {"by": "N", "move": "f", "houses": [0], "seeds": 2, "grandSlam": false},
            ])
        );
    }
}

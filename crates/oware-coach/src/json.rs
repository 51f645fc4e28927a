//! The coach's findings as JSON, for the web app: the explanation of every legal move (the analysis
//! board), the threats on the board now (the coach's marks during a game) and a game's review.

use oware_rules::{Game, Position, RuleSet, Side};
use serde_json::{json, Value};

use crate::detect::{self, Capture};
use crate::explain::{render_line, Explanation, Fact};
use crate::messages::{self as msg, Lang};
use crate::review::Mistake;

fn side_letter(side: Side) -> String {
    side.letter().to_string()
}

fn capture_json(by: Side, c: &Capture, lang: Lang) -> Value {
    let text = msg::format(
        lang,
        "coach.threat",
        &[
            ("side", msg::side(lang, by)),
            ("move", &c.mv.to_string()),
            ("houses", &msg::houses(lang, &c.houses)),
            ("seeds", &msg::count(lang, "seeds", u32::from(c.seeds))),
        ],
    );
    json!({
        "by": side_letter(by),
        "move": c.mv.to_string(),
        "houses": c.houses,
        "seeds": c.seeds,
        "grandSlam": c.grand_slam,
        "text": text,
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

/// What each side could take if it were their move now, for the coach's marks on the board, with
/// a sentence for each in `lang`.
pub fn threats(pos: &Position, rules: RuleSet, lang: Lang) -> Value {
    let list: Vec<Value> = Side::BOTH
        .into_iter()
        .flat_map(|side| {
            detect::threats(pos, rules, side)
                .into_iter()
                .filter(|c| c.seeds > 0)
                .map(move |c| capture_json(side, &c, lang))
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

/// The most moves a request may carry (longer than any real game).
pub const MAX_REQUEST_MOVES: usize = 1000;

/// A request from the web app: a start position (the usual start when absent), the moves played
/// from it as letters, the rule set and the language. Everything arrives as text from outside and
/// is checked.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Request {
    /// The start position in the position notation; the usual start when absent or empty.
    pub position: Option<String>,
    /// The moves played from it, as concatenated letters (`FfEa`).
    pub moves: String,
    /// `abapa` or `awari`; abapa, the default rule set, when absent or empty.
    pub rules: Option<String>,
    /// `ca`, `es`, `en` or `fr`; English when absent or empty.
    pub lang: Option<String>,
}

impl Request {
    /// The game the request describes and the language to answer in, or what is wrong with it.
    pub fn game(&self) -> Result<(Game, Lang), String> {
        let start = match self.position.as_deref().map(str::trim) {
            None | Some("") => Position::start(),
            Some(text) => text.parse().map_err(|e| format!("bad position: {e}"))?,
        };
        let rules = match self.rules.as_deref() {
            None | Some("") => RuleSet::default(),
            Some(name) => name.parse().map_err(|e| format!("{e}"))?,
        };
        let lang = match self.lang.as_deref() {
            None | Some("") => Lang::default(),
            Some(code) => code.parse().map_err(|e| format!("{e}"))?,
        };
        if self.moves.len() > MAX_REQUEST_MOVES * 2 {
            return Err(format!("more than {MAX_REQUEST_MOVES} moves"));
        }
        let moves = oware_rules::parse_move_letters(&self.moves).map_err(|e| e.to_string())?;
        if moves.len() > MAX_REQUEST_MOVES {
            return Err(format!("more than {MAX_REQUEST_MOVES} moves"));
        }
        let mut game = Game::from_position(start, rules);
        for (ply, &mv) in moves.iter().enumerate() {
            game.play(mv)
                .map_err(|e| format!("ply {} ({mv}): {e}", ply + 1))?;
        }
        Ok((game, lang))
    }
}

/// The analysis board's answer: the position, its threats, and every legal move explained at
/// `depth`.
pub fn answer_explain(request: &Request, depth: u32) -> Result<Value, String> {
    let (game, lang) = request.game()?;
    let all = crate::explain_all(&game, &mut crate::Analyst::new(depth));
    Ok(json!({
        "position": game.position().to_string(),
        "lang": lang.code(),
        "threats": threats(game.position(), game.rules(), lang),
        "rule": crate::explain::rule_note(&game, lang),
        "moves": explanations(&all, lang),
    }))
}

/// The review page's answer: the mistakes of `player` (`S`, `N`, or both when absent) that give
/// away `threshold` centiseeds or more, searched at `depth`.
pub fn answer_review(
    request: &Request,
    player: Option<&str>,
    depth: u32,
    threshold: i32,
) -> Result<Value, String> {
    let (game, lang) = request.game()?;
    let player = match player.map(str::trim) {
        None | Some("") => None,
        Some("S" | "s") => Some(Side::South),
        Some("N" | "n") => Some(Side::North),
        Some(other) => return Err(format!("player {other:?}: expected S or N")),
    };
    let mistakes = crate::review(&game, player, &mut crate::Analyst::new(depth), threshold);
    Ok(review(&game, &mistakes, lang))
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
    fn requests_are_checked() {
        let ok = Request {
            moves: "FfEa".into(),
            lang: Some("ca".into()),
            ..Request::default()
        };
        let (game, lang) = ok.game().unwrap();
        assert_eq!((game.ply_count(), lang), (4, Lang::Ca));
        let bad = |r: Request| r.game().unwrap_err();
        assert!(bad(Request {
            position: Some("4-4-4".into()),
            ..Request::default()
        })
        .contains("bad position"));
        assert!(bad(Request {
            moves: "FF".into(),
            ..Request::default()
        })
        .contains("ply 2"));
        assert!(bad(Request {
            moves: "F\u{0}".into(),
            ..Request::default()
        })
        .contains("not a move"));
        assert!(bad(Request {
            lang: Some("xx".into()),
            ..Request::default()
        })
        .contains("unknown language"));
        assert!(bad(Request {
            rules: Some("kalah".into()),
            ..Request::default()
        })
        .contains("unknown rule set"));
        assert!(bad(Request {
            moves: "Ff".repeat(MAX_REQUEST_MOVES),
            ..Request::default()
        })
        .contains("more than"));
    }

    #[test]
    fn answers_for_the_analysis_board_and_the_review_page() {
        let request = Request {
            position: Some("1-4-4-4-4-4-4-4-4-4-4-1-3-3-S".into()),
            moves: "Bc".into(),
            lang: Some("es".into()),
            ..Request::default()
        };
        let answer = answer_review(&request, Some("S"), 3, 100).unwrap();
        assert_eq!(answer["plies"], 2);
        let mistakes = answer["mistakes"].as_array().unwrap();
        assert_eq!(mistakes.len(), 1);
        assert_eq!(mistakes[0]["move"], "B");
        assert!(mistakes[0]["text"]
            .as_str()
            .unwrap()
            .starts_with("1. B pierde"));
        assert!(answer_review(&request, Some("W"), 3, 100).is_err());
        let answer = answer_explain(&request, 3).unwrap();
        assert_eq!(answer["lang"], "es");
        assert_eq!(answer["position"], "0-0-5-5-5-5-4-4-0-5-5-2-3-5-S");
        assert!(!answer["moves"].as_array().unwrap().is_empty());
    }

    #[test]
    fn threats_name_the_side_the_move_and_the_houses() {
        let pos: Position = "1-4-4-4-4-4-4-4-4-4-4-1-3-3-S".parse().unwrap();
        let value = threats(&pos, RuleSet::Abapa, Lang::En);
        assert_eq!(
            value,
            json!([
                {"by": "N", "move": "c", "houses": [0], "seeds": 2, "grandSlam": false,
                 "text": "North's c takes A: 2 seeds."},
                {"by": "N", "move": "f", "houses": [0], "seeds": 2, "grandSlam": false,
                 "text": "North's f takes A: 2 seeds."},
            ])
        );
        let value = threats(&pos, RuleSet::Abapa, Lang::Ca);
        assert_eq!(value[1]["text"], "f de Nord captura A: 2 llavors.");
    }
}

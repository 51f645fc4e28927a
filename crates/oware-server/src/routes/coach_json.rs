//! The coach's findings as JSON, for the web app: the explanation of every legal move (the analysis
//! board), the threats on the board now (the coach's marks during a game) and a game's review. The
//! coach's crate speaks in Rust types; its words become JSON only here.

use oware_rules::{Game, Position, RuleSet, Side};
use serde_json::{json, Value};

use oware_coach::detect::{self, Capture};
use oware_coach::explain::{render_line, rule_note};
use oware_coach::messages::{self as msg, Lang};
use oware_coach::{explain_all, Explanation, Fact, Mark, PositionAnalysis, Review};

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
        "by": by.letter(),
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
            Fact::LineCaptures { by, capture, .. } if *by != e.mover && risk.is_empty() => {
                risk.extend(&capture.houses)
            }
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

/// Every legal move explained (see [`explain_all`]), best first.
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

/// How many turning points a review names at most.
pub const TURNING_POINTS: usize = 5;

/// A game's review: every move's loss and mark, South's value of every position (for the graph),
/// each player's accuracy, and each mistake with its words in `lang`, its refutation line and the
/// better move, to replay on the board; the turning points are the mistakes that gave away most.
pub fn review(game: &Game, review: &Review, lang: Lang) -> Value {
    let turning: Vec<usize> = review
        .turning_points(TURNING_POINTS)
        .iter()
        .map(|m| m.ply)
        .collect();
    let list: Vec<Value> = review
        .mistakes
        .iter()
        .map(|m| {
            json!({
                "ply": m.ply,
                "label": m.label,
                "side": m.played.mover.letter(),
                "move": m.played.mv.to_string(),
                "better": m.better.mv.to_string(),
                "loss": m.loss,
                "mark": Mark::of(m.loss).map(Mark::symbol),
                "line": m.played.verdict.as_ref().map(|v| render_line(&v.line, lang)),
                "betterLine": m.better.verdict.as_ref().map(|v| render_line(&v.line, lang)),
                "turning": turning.contains(&m.ply),
                "text": m.render(lang),
            })
        })
        .collect();
    let per_side =
        |f: &dyn Fn(Side) -> Option<i64>| json!({ "S": f(Side::South), "N": f(Side::North) });
    json!({
        "plies": game.ply_count(),
        "moves": review.plies.iter().map(|p| json!({
            "ply": p.ply,
            "label": p.label,
            "side": p.mover.letter(),
            "move": p.played.to_string(),
            "best": p.best.to_string(),
            "loss": p.loss,
            "mark": Mark::of(p.loss).map(Mark::symbol),
        })).collect::<Vec<_>>(),
        "evaluation": review.evaluation,
        "accuracy": per_side(&|s| review.accuracy(s).map(i64::from)),
        "averageLoss": per_side(&|s| review.average_loss(s).map(i64::from)),
        "turning": turning,
        "mistakes": list,
    })
}

/// The most moves a request may carry (longer than any real game).
pub const MAX_REQUEST_MOVES: usize = 1000;

/// What is wrong with a request, with a code the web app has words for in every language.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RequestError {
    /// The position does not parse.
    BadPosition(String),
    /// The rule set is neither abapa nor awari.
    BadRules(String),
    /// The language is none of ours.
    BadLanguage(String),
    /// More moves than any game has.
    TooManyMoves,
    /// A move is not a house letter.
    BadMove(String),
    /// A move cannot be played where it stands (its 1-based ply, the move, why).
    IllegalMove(usize, String, String),
    /// The player is neither `S` nor `N`.
    BadPlayer(String),
}

impl RequestError {
    /// The error's code (`bad-position`, `illegal-move`…), for the page's words.
    pub fn code(&self) -> &'static str {
        match self {
            RequestError::BadPosition(_) => "bad-position",
            RequestError::BadRules(_) => "bad-rules",
            RequestError::BadLanguage(_) => "bad-language",
            RequestError::TooManyMoves => "too-many-moves",
            RequestError::BadMove(_) => "bad-move",
            RequestError::IllegalMove(..) => "illegal-move",
            RequestError::BadPlayer(_) => "bad-player",
        }
    }
}

impl std::fmt::Display for RequestError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RequestError::BadPosition(e) => write!(f, "bad position: {e}"),
            RequestError::BadRules(e) | RequestError::BadLanguage(e) | RequestError::BadMove(e) => {
                f.write_str(e)
            }
            RequestError::TooManyMoves => write!(f, "more than {MAX_REQUEST_MOVES} moves"),
            RequestError::IllegalMove(ply, mv, why) => write!(f, "ply {ply} ({mv}): {why}"),
            RequestError::BadPlayer(p) => write!(f, "player {p:?}: expected S or N"),
        }
    }
}

impl std::error::Error for RequestError {}

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
    pub fn game(&self) -> Result<(Game, Lang), RequestError> {
        let start = match self.position.as_deref().map(str::trim) {
            None | Some("") => Position::start(),
            Some(text) => text
                .parse()
                .map_err(|e| RequestError::BadPosition(format!("{e}")))?,
        };
        let rules = match self.rules.as_deref() {
            None | Some("") => RuleSet::default(),
            Some(name) => name
                .parse()
                .map_err(|e| RequestError::BadRules(format!("{e}")))?,
        };
        let lang = match self.lang.as_deref() {
            None | Some("") => Lang::default(),
            Some(code) => code
                .parse()
                .map_err(|e| RequestError::BadLanguage(format!("{e}")))?,
        };
        if self.moves.len() > MAX_REQUEST_MOVES * 2 {
            return Err(RequestError::TooManyMoves);
        }
        let moves = oware_rules::parse_move_letters(&self.moves)
            .map_err(|e| RequestError::BadMove(e.to_string()))?;
        if moves.len() > MAX_REQUEST_MOVES {
            return Err(RequestError::TooManyMoves);
        }
        let mut game = Game::from_position(start, rules);
        for (ply, &mv) in moves.iter().enumerate() {
            game.play(mv)
                .map_err(|e| RequestError::IllegalMove(ply + 1, mv.to_string(), e.to_string()))?;
        }
        Ok((game, lang))
    }
}

/// The player a review is asked for: `S`, `N`, or both when absent or empty.
pub fn parse_player(player: Option<&str>) -> Result<Option<Side>, RequestError> {
    match player.map(str::trim) {
        None | Some("") => Ok(None),
        Some("S" | "s") => Ok(Some(Side::South)),
        Some("N" | "n") => Ok(Some(Side::North)),
        Some(other) => Err(RequestError::BadPlayer(other.to_string())),
    }
}

/// The coach's answer for a position: its threats, the feeding rule's note, and every legal move
/// explained with the position's `analysis` (the one the analysis table shows).
pub fn explain_answer(game: &Game, lang: Lang, analysis: &PositionAnalysis) -> Value {
    let all = explain_all(game, analysis);
    json!({
        "position": game.position().to_string(),
        "lang": lang.code(),
        "depth": analysis.depth,
        "threats": threats(game.position(), game.rules(), lang),
        "rule": rule_note(game, lang),
        "moves": explanations(&all, lang),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use oware_coach::Analyst;

    fn analyst(depth: u32) -> impl FnMut(&Game) -> PositionAnalysis {
        let mut analyst = Analyst::new(depth);
        move |game| analyst.analysis(game)
    }

    #[test]
    fn explanations_carry_words_scores_and_marks() {
        let pos: Position = "4-4-4-4-4-3-4-1-2-4-4-4-3-3-S".parse().unwrap();
        let game = Game::from_position(pos, RuleSet::Abapa);
        let all = explain_all(&game, &Analyst::new(3).analysis(&game));
        let value = explanations(&all, Lang::Fr);
        let list = value.as_array().unwrap();
        assert_eq!(list.len(), 6);
        let f = list.iter().find(|v| v["move"] == "F").unwrap();
        assert!(f["text"]
            .as_str()
            .unwrap()
            .starts_with("F sème 3 graines et prend b et c\u{a0}: 5 graines."));
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
        let bad = |r: Request| r.game().unwrap_err().to_string();
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
        let (game, lang) = request.game().unwrap();
        let player = parse_player(Some("S")).unwrap();
        let reviewed = oware_coach::review(&game, player, &mut analyst(3), 100);
        let answer = review(&game, &reviewed, lang);
        assert_eq!(answer["plies"], 2);
        let mistakes = answer["mistakes"].as_array().unwrap();
        assert_eq!(mistakes.len(), 1);
        assert_eq!(mistakes[0]["move"], "B");
        assert!(mistakes[0]["text"]
            .as_str()
            .unwrap()
            .starts_with("1. B pierde"));
        assert_eq!(answer["evaluation"].as_array().unwrap().len(), 3);
        assert_eq!(answer["moves"].as_array().unwrap().len(), 2);
        assert!(parse_player(Some("W")).is_err());
        let answer = explain_answer(&game, lang, &analyst(3)(&game));
        assert_eq!(answer["depth"], 3);
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

//! Replaying an OpenSpiel game with [`oware_rules::Game`] and comparing, ply by ply, the legal moves,
//! the board, the stores, the side to move, and the end of the game with its reason and score.

use std::fmt;

use oware_rules::{EndReason, Game, Move, MoveSet, Position, RuleSet, Score, Side, HALF_SEEDS};

use crate::trace::{GameTrace, OsState, ToMove};

/// A place where our rules and OpenSpiel disagree, with everything needed to reproduce it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mismatch {
    /// The game's index in the trace file.
    pub game: usize,
    /// The number of moves played when the disagreement shows (0 = the start).
    pub ply: usize,
    /// The moves played from the start, as letters (`FfEa…`), so the case can be replayed.
    pub moves: String,
    /// Our position (before the sweep OpenSpiel does at the end), as a position string.
    pub position: String,
    /// What disagrees.
    pub kind: MismatchKind,
}

/// What disagrees. "OpenSpiel" is the expected side, "ours" what `oware-rules` computed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MismatchKind {
    /// Houses, stores or side to move differ.
    State {
        /// OpenSpiel's state.
        openspiel: String,
        /// Ours.
        ours: String,
    },
    /// The sets of legal moves differ.
    LegalMoves {
        /// OpenSpiel's legal moves.
        openspiel: String,
        /// Ours.
        ours: String,
    },
    /// OpenSpiel played a move we call illegal.
    RefusedMove {
        /// The move's letter.
        mv: char,
        /// Why we refuse it.
        error: String,
    },
    /// OpenSpiel's game goes on where ours has ended.
    WeEndedEarly {
        /// Why our game ended.
        reason: EndReason,
        /// Our final score.
        score: String,
    },
    /// OpenSpiel's game has ended where ours goes on.
    WeGoOn,
    /// Both ended, but the final scores differ (after normalising OpenSpiel's sweep).
    FinalScore {
        /// OpenSpiel's final score.
        openspiel: String,
        /// Ours.
        ours: String,
    },
    /// Both ended with the same scores, but our reason does not fit what OpenSpiel shows.
    Reason {
        /// Our reason.
        ours: EndReason,
        /// What OpenSpiel's states show instead.
        why: String,
    },
    /// OpenSpiel's returns do not name the winner our score names.
    Winner {
        /// OpenSpiel's returns, player 0 first.
        openspiel: [i8; 2],
        /// Our final score.
        ours: String,
    },
    /// The trace itself is inconsistent (an action OpenSpiel did not list as legal, a terminal state
    /// before the last, a last state that is neither terminal nor marked truncated).
    BadTrace(String),
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "game {} after {} plies (moves {:?}), our position {}: ",
            self.game, self.ply, self.moves, self.position
        )?;
        match &self.kind {
            MismatchKind::State { openspiel, ours } => {
                write!(f, "state differs: OpenSpiel {openspiel}, ours {ours}")
            }
            MismatchKind::LegalMoves { openspiel, ours } => {
                write!(
                    f,
                    "legal moves differ: OpenSpiel {openspiel:?}, ours {ours:?}"
                )
            }
            MismatchKind::RefusedMove { mv, error } => {
                write!(f, "OpenSpiel played {mv}, which we refuse: {error}")
            }
            MismatchKind::WeEndedEarly { reason, score } => write!(
                f,
                "our game ended ({reason}, {score}) but OpenSpiel's goes on"
            ),
            MismatchKind::WeGoOn => f.write_str("OpenSpiel's game ended but ours goes on"),
            MismatchKind::FinalScore { openspiel, ours } => write!(
                f,
                "final scores differ: OpenSpiel {openspiel}, ours (normalised) {ours}"
            ),
            MismatchKind::Reason { ours, why } => write!(f, "our end reason {ours}: {why}"),
            MismatchKind::Winner { openspiel, ours } => write!(
                f,
                "OpenSpiel's returns {openspiel:?} disagree with our score {ours}"
            ),
            MismatchKind::BadTrace(what) => write!(f, "inconsistent trace: {what}"),
        }
    }
}

impl std::error::Error for Mismatch {}

/// What one game exercised, to show that the comparison covers the rules' corners.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Coverage {
    /// Games compared.
    pub games: usize,
    /// Moves compared (each with the state and legal moves after it).
    pub plies: usize,
    /// Games ended by a capture that gave a store more than 24.
    pub ends_capture: usize,
    /// Ends with both stores at 24. Unreachable in abapa play: the capture that empties the board
    /// would take every seed of the opponent's row, a grand slam, which captures nothing. OpenSpiel's
    /// games can only show it from a set-up position, which its Python API cannot make.
    pub ends_draw: usize,
    /// Games drawn on the final score (24-24 after gathering), whatever the reason.
    pub drawn_scores: usize,
    /// Games ended because the side to move had no legal move.
    pub ends_no_moves: usize,
    /// Games ended by a repeated position.
    pub ends_repetition: usize,
    /// Games stopped by OpenSpiel's 1000-ply cap, compared that far.
    pub truncated: usize,
    /// Moves that captured seeds.
    pub captures: usize,
    /// Captures whose chain took more than one house.
    pub chain_captures: usize,
    /// Moves that would have taken every seed of the opponent's row and so captured nothing.
    pub grand_slams: usize,
    /// Positions whose opponent row was empty, so that only feeding moves were legal.
    pub must_feed: usize,
    /// Sowings of 12 seeds or more (the origin house skipped).
    pub laps: usize,
}

impl Coverage {
    /// Adds `other`'s counts to these.
    pub fn add(&mut self, other: &Coverage) {
        self.games += other.games;
        self.plies += other.plies;
        self.ends_capture += other.ends_capture;
        self.ends_draw += other.ends_draw;
        self.drawn_scores += other.drawn_scores;
        self.ends_no_moves += other.ends_no_moves;
        self.ends_repetition += other.ends_repetition;
        self.truncated += other.truncated;
        self.captures += other.captures;
        self.chain_captures += other.chain_captures;
        self.grand_slams += other.grand_slams;
        self.must_feed += other.must_feed;
        self.laps += other.laps;
    }
}

impl fmt::Display for Coverage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} games, {} plies; ends: {} capture, {} draw, {} no-moves, {} repetition, {} truncated \
             at OpenSpiel's cap; {} drawn scores; {} captures ({} chains), {} grand slams, \
             {} must-feed positions, {} sowings of 12+",
            self.games,
            self.plies,
            self.ends_capture,
            self.ends_draw,
            self.ends_no_moves,
            self.ends_repetition,
            self.truncated,
            self.drawn_scores,
            self.captures,
            self.chain_captures,
            self.grand_slams,
            self.must_feed,
            self.laps
        )
    }
}

/// OpenSpiel's player 0 is our South, player 1 our North.
fn side_of_player(player: usize) -> Side {
    if player == 0 {
        Side::South
    } else {
        Side::North
    }
}

/// OpenSpiel's legal-action mask (bit `i` = house `i` of the mover's row) as our move set.
pub fn legal_moves_of(state: &OsState) -> MoveSet {
    match state.to_move {
        ToMove::Terminal => MoveSet::EMPTY,
        ToMove::Player(player) => {
            let side = side_of_player(player);
            (0..6)
                .filter(|column| state.legal_mask & (1 << column) != 0)
                .filter_map(|column| Move::for_side(side, column))
                .collect()
        }
    }
}

/// OpenSpiel's state written like a position string, `h0-…-h11-south-north-T`, with `T` the side to
/// move or `X` when OpenSpiel calls the state terminal.
pub fn describe_state(state: &OsState) -> String {
    let mut parts: Vec<String> = state.board.iter().map(u8::to_string).collect();
    parts.extend(state.stores.iter().map(u8::to_string));
    parts.push(match state.to_move {
        ToMove::Player(p) => side_of_player(p).letter().to_string(),
        ToMove::Terminal => "X".to_string(),
    });
    parts.join("-")
}

/// Our live position in OpenSpiel's terms, to compare with a non-terminal OpenSpiel state.
fn describe_ours(position: &Position) -> String {
    position.to_string()
}

/// What OpenSpiel shows at the end of every game: it gathers each row into its owner's store, even
/// after a capture above 24 where our abapa leaves the seeds on the board (the normalisation the
/// comparison needs). Its terminal board is therefore always empty.
pub fn openspiel_final_stores(our_final: &Position) -> [u8; 2] {
    let gathered = our_final.gathered();
    [gathered.store(Side::South), gathered.store(Side::North)]
}

/// OpenSpiel's returns as the winner they name.
fn winner_of_returns(returns: [i8; 2]) -> Option<Option<Side>> {
    match returns {
        [1, -1] => Some(Some(Side::South)),
        [-1, 1] => Some(Some(Side::North)),
        [0, 0] => Some(None),
        _ => None,
    }
}

/// Replays one OpenSpiel game with our rules; returns what it covered, or the first disagreement.
pub fn check_game(trace: &GameTrace) -> Result<Coverage, Mismatch> {
    let mut game = Game::new(RuleSet::Abapa);
    let mut coverage = Coverage {
        games: 1,
        ..Coverage::default()
    };
    let mismatch = |game: &Game, kind: MismatchKind| Mismatch {
        game: trace.index,
        ply: game.ply_count(),
        moves: oware_rules::format_move_letters(game.moves()),
        position: game.position().to_string(),
        kind,
    };
    let last = trace.states.len() - 1;
    for (ply, state) in trace.states.iter().enumerate() {
        match state.to_move {
            ToMove::Terminal => {
                if ply != last {
                    return Err(mismatch(
                        &game,
                        MismatchKind::BadTrace(format!("terminal state at ply {ply}, not last")),
                    ));
                }
                check_end(trace, state, &game, &mut coverage).map_err(|k| mismatch(&game, k))?;
                return Ok(coverage);
            }
            ToMove::Player(player) => {
                if let Some(end) = game.end() {
                    return Err(mismatch(
                        &game,
                        MismatchKind::WeEndedEarly {
                            reason: end.reason,
                            score: end.score.to_string(),
                        },
                    ));
                }
                let ours = game.position();
                let theirs_text = describe_state(state);
                let ours_text = describe_ours(ours);
                if ours.houses() != &state.board
                    || [ours.store(Side::South), ours.store(Side::North)] != state.stores
                    || ours.side_to_move() != side_of_player(player)
                {
                    return Err(mismatch(
                        &game,
                        MismatchKind::State {
                            openspiel: theirs_text,
                            ours: ours_text,
                        },
                    ));
                }
                let their_moves = legal_moves_of(state);
                let our_moves = game.legal_moves();
                if their_moves != our_moves {
                    return Err(mismatch(
                        &game,
                        MismatchKind::LegalMoves {
                            openspiel: their_moves.to_string(),
                            ours: our_moves.to_string(),
                        },
                    ));
                }
                if ours.row_seeds(ours.side_to_move().opponent()) == 0 {
                    coverage.must_feed += 1;
                }
                let Some(&action) = trace.actions.get(ply) else {
                    // The last state is live: only OpenSpiel's 1000-ply cap may stop a game there.
                    if !trace.truncated {
                        return Err(mismatch(
                            &game,
                            MismatchKind::BadTrace(
                                "the last state is not terminal and the game is not marked \
                                 truncated"
                                    .to_string(),
                            ),
                        ));
                    }
                    coverage.truncated += 1;
                    return Ok(coverage);
                };
                let mv = Move::for_side(side_of_player(player), action as usize)
                    .expect("trace actions are checked to lie in 0..6 when parsed");
                if !their_moves.contains(mv) {
                    return Err(mismatch(
                        &game,
                        MismatchKind::BadTrace(format!(
                            "OpenSpiel played {mv}, which it did not list as legal"
                        )),
                    ));
                }
                count_move(ours, mv, &mut coverage);
                if let Err(e) = game.play(mv) {
                    return Err(mismatch(
                        &game,
                        MismatchKind::RefusedMove {
                            mv: mv.letter(),
                            error: e.to_string(),
                        },
                    ));
                }
                coverage.plies += 1;
            }
        }
    }
    unreachable!("a trace always has a last state, and the loop returns there")
}

/// Notes what kind of move `mv` is, for the coverage figures.
fn count_move(before: &Position, mv: Move, coverage: &mut Coverage) {
    if before.house(mv.house()) >= 12 {
        coverage.laps += 1;
    }
    let abapa = before.play_unchecked(mv, RuleSet::Abapa);
    if abapa.captured > 0 {
        coverage.captures += 1;
        let emptied = (0..12)
            .filter(|&h| before.house(h) != 0 && abapa.position.house(h) == 0 && h != mv.house())
            .count();
        if emptied > 1 {
            coverage.chain_captures += 1;
        }
    } else if before.play_unchecked(mv, RuleSet::Awari).captured > 0 {
        // Awari captures what abapa's grand-slam rule refuses to take.
        coverage.grand_slams += 1;
    }
}

/// Compares the end of the game. OpenSpiel's terminal state shows an empty board and the stores after
/// its sweep, and says nothing of the reason; we check our score against it (normalised) and our
/// reason against what OpenSpiel's own states imply.
fn check_end(
    trace: &GameTrace,
    state: &OsState,
    game: &Game,
    coverage: &mut Coverage,
) -> Result<(), MismatchKind> {
    let Some(end) = game.end() else {
        return Err(MismatchKind::WeGoOn);
    };
    let ours = game.position();
    let theirs = describe_state(state);
    if state.board != [0; 12] {
        return Err(MismatchKind::BadTrace(format!(
            "OpenSpiel's terminal board is not empty: {theirs}"
        )));
    }
    let expected = openspiel_final_stores(ours);
    if state.stores != expected {
        return Err(MismatchKind::FinalScore {
            openspiel: theirs,
            ours: format!("{}-{}", expected[0], expected[1]),
        });
    }
    // Our own score: the stores alone when the stores decide, every row gathered otherwise.
    let stores_only = Score::seeds(ours.store(Side::South), ours.store(Side::North));
    let gathered = Score::seeds(expected[0], expected[1]);
    let reason_error = |why: &str| MismatchKind::Reason {
        ours: end.reason,
        why: format!("{why} (our score {})", end.score),
    };
    match end.reason {
        EndReason::Capture => {
            coverage.ends_capture += 1;
            if ours.store(Side::South).max(ours.store(Side::North)) <= HALF_SEEDS
                || end.score != stores_only
            {
                return Err(reason_error(
                    "no store above 24, or a score other than the stores",
                ));
            }
        }
        EndReason::Draw => {
            coverage.ends_draw += 1;
            if [ours.store(Side::South), ours.store(Side::North)] != [HALF_SEEDS; 2]
                || end.score != stores_only
            {
                return Err(reason_error("the stores are not 24-24"));
            }
        }
        EndReason::NoMoves => {
            coverage.ends_no_moves += 1;
            if !ours.legal_moves(RuleSet::Abapa).is_empty() || end.score != gathered {
                return Err(reason_error("moves remain, or the rows were not gathered"));
            }
        }
        EndReason::Repetition => {
            coverage.ends_repetition += 1;
            // The repeated position must be one OpenSpiel itself showed since the stores last
            // changed (its repetition set is cleared on every capture).
            let current_stores = [ours.store(Side::South), ours.store(Side::North)];
            let seen_by_openspiel = trace.states[..trace.states.len() - 1]
                .iter()
                .rev()
                .take_while(|s| s.stores == current_stores)
                .any(|s| {
                    s.board == *ours.houses()
                        && s.to_move == ToMove::Player(ours.side_to_move().index())
                });
            if !seen_by_openspiel || end.score != gathered {
                return Err(reason_error(
                    "OpenSpiel never showed this position since the last capture, or the rows \
                     were not gathered",
                ));
            }
        }
    }
    if end.score.winner().is_none() {
        coverage.drawn_scores += 1;
    }
    match winner_of_returns(trace.returns) {
        Some(winner) if winner == end.score.winner() => Ok(()),
        _ => Err(MismatchKind::Winner {
            openspiel: trace.returns,
            ours: end.score.to_string(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(s: &str) -> Position {
        s.parse().unwrap()
    }

    fn state_of(position: &Position, to_move: ToMove, legal_mask: u8) -> OsState {
        OsState {
            board: *position.houses(),
            stores: [position.store(Side::South), position.store(Side::North)],
            to_move,
            legal_mask,
        }
    }

    /// The trace OpenSpiel would write for a game from the start along `letters`, made from our own
    /// rules (so it agrees by construction); tests then damage it to see the checker object.
    fn trace_along(letters: &str) -> GameTrace {
        let mut game = Game::new(RuleSet::Abapa);
        let mut states = Vec::new();
        let mut actions = Vec::new();
        let snapshot = |game: &Game| {
            let p = game.position();
            let mask = game.legal_moves().fold(0u8, |m, mv| m | (1 << mv.column()));
            state_of(p, ToMove::Player(p.side_to_move().index()), mask)
        };
        states.push(snapshot(&game));
        for c in letters.chars() {
            let mv = Move::from_letter(c).unwrap();
            actions.push(mv.column() as u8);
            game.play(mv).unwrap();
            states.push(snapshot(&game));
        }
        GameTrace {
            index: 0,
            actions,
            states,
            truncated: true,
            returns: [0, 0],
        }
    }

    #[test]
    fn openspiel_sweeps_after_a_capture_above_24_and_we_normalise() {
        // South's F sows its one seed into a and captures 2, reaching 25; E and b keep a seed each.
        // Our score is the stores, 25-21; OpenSpiel then gathers the rows and shows 26-22.
        let before = pos("0-0-0-0-1-1-1-1-0-0-0-0-23-21-S");
        let mut game = Game::from_position(before, RuleSet::Abapa);
        let end = game
            .play(Move::from_letter('F').unwrap())
            .unwrap()
            .end
            .unwrap();
        assert_eq!(end.reason, EndReason::Capture);
        assert_eq!(end.score, Score::seeds(25, 21));
        assert_eq!(openspiel_final_stores(game.position()), [26, 22]);
        // The sweep never changes the winner.
        assert_eq!(Score::seeds(26, 22).winner(), end.score.winner());
    }

    #[test]
    fn agreeing_trace_passes_and_counts() {
        let trace = trace_along("FfEaDb");
        let coverage = check_game(&trace).unwrap();
        assert_eq!(coverage.plies, 6);
        assert_eq!(coverage.truncated, 1);
    }

    #[test]
    fn a_wrong_board_is_reported_with_the_ply_and_moves() {
        let mut trace = trace_along("FfEa");
        trace.states[3].board[0] += 1;
        trace.states[3].board[1] -= 1;
        let err = check_game(&trace).unwrap_err();
        assert_eq!(err.ply, 3);
        assert_eq!(err.moves, "FfE");
        assert!(matches!(err.kind, MismatchKind::State { .. }), "{err}");
    }

    #[test]
    fn a_wrong_legal_set_is_reported() {
        let mut trace = trace_along("Ff");
        trace.states[2].legal_mask &= !1;
        let err = check_game(&trace).unwrap_err();
        assert_eq!(err.ply, 2);
        assert_eq!(
            err.kind,
            MismatchKind::LegalMoves {
                // F was just played, so it is empty.
                openspiel: "BCDE".to_string(),
                ours: "ABCDE".to_string()
            }
        );
    }

    #[test]
    fn an_end_only_openspiel_sees_is_reported() {
        let mut trace = trace_along("Ff");
        trace.states[2] = OsState {
            board: [0; 12],
            stores: [24, 24],
            to_move: ToMove::Terminal,
            legal_mask: 0,
        };
        trace.truncated = false;
        let err = check_game(&trace).unwrap_err();
        assert_eq!(err.kind, MismatchKind::WeGoOn);
    }

    #[test]
    fn an_unfinished_trace_must_be_marked_truncated() {
        let mut trace = trace_along("Ff");
        trace.truncated = false;
        assert!(matches!(
            check_game(&trace).unwrap_err().kind,
            MismatchKind::BadTrace(_)
        ));
    }

    #[test]
    fn grand_slams_and_chains_are_counted() {
        // South's F sows into a and b, making 2 and 2: that is all of North's seeds, so abapa
        // captures nothing (a grand slam).
        let mut coverage = Coverage::default();
        count_move(
            &pos("0-0-0-0-0-2-1-1-0-0-0-0-22-22-S"),
            Move::from_letter('F').unwrap(),
            &mut coverage,
        );
        assert_eq!((coverage.grand_slams, coverage.captures), (1, 0));
        // Here c keeps seeds, so the chain b, a is captured.
        let mut coverage = Coverage::default();
        count_move(
            &pos("0-0-0-0-0-2-1-1-5-0-0-0-22-17-S"),
            Move::from_letter('F').unwrap(),
            &mut coverage,
        );
        assert_eq!(
            (
                coverage.grand_slams,
                coverage.captures,
                coverage.chain_captures
            ),
            (0, 1, 1)
        );
    }
}

//! Lower levels as one rank holds them ([`RankLevels`]): whole (memory-mapped or read into
//! memory), or only this rank's slice of each, the values of other boards asked of their owners in
//! batched questions, in three collective steps that other work may overlap.

use std::sync::Arc;

use oware_egtb::index::{Board, LevelIndex};
use oware_egtb::values::{index_kind, stored_bounds, Bounds};
use oware_egtb::{EgtbError, LevelData, Levels};
use oware_rules::RuleSet;

use super::transport::{read_ref, Outbox, Slices, Ticket, Transport, TransportError, REF_BYTES};
use super::LowerMode;
use crate::LowerLevels;
/// The levels below the one being built, as one rank holds them.
pub enum RankLevels {
    /// Whole levels at hand (memory-mapped or in memory).
    Whole(Levels),
    /// This rank's slice of each level; values of other boards are asked of their owners.
    Sliced {
        /// The rule set of the levels.
        rules: RuleSet,
        /// Each level's index with this rank's slice of its entries.
        levels: Vec<(LevelIndex, Vec<u8>)>,
    },
}

impl RankLevels {
    /// No levels yet; held whole or sliced according to `mode`.
    pub fn new(rules: RuleSet, mode: LowerMode) -> RankLevels {
        match mode {
            LowerMode::Messages => RankLevels::Sliced {
                rules,
                levels: Vec::new(),
            },
            _ => RankLevels::Whole(Levels::new(rules)),
        }
    }

    /// The levels, if held whole.
    pub fn whole(&self) -> Option<&Levels> {
        match self {
            RankLevels::Whole(levels) => Some(levels),
            RankLevels::Sliced { .. } => None,
        }
    }

    /// Number of levels held (levels `0..len()`).
    pub fn len(&self) -> usize {
        match self {
            RankLevels::Whole(l) => l.len(),
            RankLevels::Sliced { levels, .. } => levels.len(),
        }
    }

    /// Whether no level is held, not even level 0.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Collective for sliced levels: the bounds of each `(seeds, board)` asked, in order. Every rank
    /// must call it as often as the others (with nothing to ask, if need be).
    pub fn resolve(
        &self,
        t: &dyn Transport,
        queries: &[(usize, Board)],
    ) -> Result<Vec<Bounds>, TransportError> {
        let asked = self.ask(t, queries)?;
        let answering = self.answer(t, asked)?;
        self.values(t, answering)
    }

    /// The first step of [`RankLevels::resolve`], started: the questions go to the owners of the
    /// boards (values at hand are looked up at once). Collective, like the two steps after it,
    /// [`RankLevels::answer`] and [`RankLevels::values`]; other work may go on between them.
    pub(super) fn ask(
        &self,
        t: &dyn Transport,
        queries: &[(usize, Board)],
    ) -> Result<Asked, TransportError> {
        let levels = match self {
            RankLevels::Whole(levels) => {
                return Ok(Asked::AtHand(
                    queries
                        .iter()
                        .map(|(seeds, board)| levels.bounds(*seeds, board))
                        .collect(),
                ))
            }
            RankLevels::Sliced { levels, .. } => levels,
        };
        let ranks = t.size();
        let slices: Vec<Slices> = levels
            .iter()
            .map(|(index, _)| Slices::new(index.count(), ranks))
            .collect();
        // Questions: the board's offset in its owner's slice, then its level.
        let mut out = Outbox::new(ranks);
        let mut asked = vec![0usize; ranks];
        let mut route = Vec::with_capacity(queries.len());
        for (seeds, board) in queries {
            let (index, _) = levels
                .get(*seeds)
                .ok_or_else(|| TransportError(format!("level {seeds} is not built yet")))?;
            let i = index.rank(board).ok_or_else(|| {
                TransportError(format!("a board of level {seeds} is not in its index"))
            })?;
            let slices = &slices[*seeds];
            let owner = slices.owner(i);
            out.push(owner, i - slices.range(owner).start, false);
            out.push_bytes(owner, &[*seeds as u8]);
            // Where the answer will be: the owner's reply, at this question's place in it.
            route.push((owner, asked[owner], *seeds));
            asked[owner] += 1;
        }
        Ok(Asked::Sent {
            questions: t.start(out.into_buffers())?,
            route,
        })
    }

    /// The second step: this rank's answers to the questions it was asked go back, started.
    pub(super) fn answer(
        &self,
        t: &dyn Transport,
        asked: Asked,
    ) -> Result<Answering, TransportError> {
        let (questions, route) = match asked {
            Asked::AtHand(values) => return Ok(Answering::AtHand(values)),
            Asked::Sent { questions, route } => (questions, route),
        };
        // Questions come only with sliced levels; whole levels hold no slice to answer from.
        let levels = match self {
            RankLevels::Sliced { levels, .. } => levels.as_slice(),
            RankLevels::Whole(_) => &[],
        };
        let questions = t.finish(questions)?;
        let me = t.rank();
        let answers: Vec<Vec<u8>> = questions
            .iter()
            .map(|q| {
                q.chunks(REF_BYTES + 1)
                    .map(|item| {
                        if item.len() != REF_BYTES + 1 {
                            return Err(TransportError("a truncated question".into()));
                        }
                        let (offset, _) = read_ref(item);
                        let seeds = item[REF_BYTES] as usize;
                        levels
                            .get(seeds)
                            .and_then(|(_, entries)| entries.get(offset as usize))
                            .copied()
                            .ok_or_else(|| {
                                TransportError(format!(
                                    "rank {me} holds no entry {offset} of level {seeds}"
                                ))
                            })
                    })
                    .collect()
            })
            .collect::<Result<_, _>>()?;
        Ok(Answering::Sent {
            replies: t.start(answers)?,
            route,
        })
    }

    /// The last step: the values asked for, in the order of the questions.
    pub(super) fn values(
        &self,
        t: &dyn Transport,
        answering: Answering,
    ) -> Result<Vec<Bounds>, TransportError> {
        let (replies, route) = match answering {
            Answering::AtHand(values) => return Ok(values),
            Answering::Sent { replies, route } => (replies, route),
        };
        let rules = match self {
            RankLevels::Whole(levels) => levels.rules(),
            RankLevels::Sliced { rules, .. } => *rules,
        };
        let replies = t.finish(replies)?;
        route
            .iter()
            .map(|&(owner, k, seeds)| {
                replies[owner]
                    .get(k)
                    .map(|&code| stored_bounds(rules, seeds, code.into()))
                    .ok_or_else(|| TransportError(format!("rank {owner} answered too little")))
            })
            .collect()
    }

    /// `Err(EgtbError::Changed)` if a mapped level's file changed since it was checked.
    pub(super) fn check_unchanged(&self) -> Result<(), EgtbError> {
        match self {
            RankLevels::Whole(levels) => levels.check_unchanged(),
            RankLevels::Sliced { .. } => Ok(()),
        }
    }

    /// Adds the next level: the whole file (mapped or read as `mode` says) or this rank's slice.
    pub(super) fn push(
        &mut self,
        mode: LowerMode,
        file: Option<oware_egtb::file::LevelFile>,
        slice: Option<Vec<u8>>,
        range: std::ops::Range<u64>,
    ) {
        match self {
            RankLevels::Whole(levels) => {
                let file = file.expect("whole levels come from their files");
                levels.push(match mode {
                    LowerMode::Replicated => LevelData::Memory(Arc::from(file.entries())),
                    _ => LevelData::File(file),
                });
            }
            RankLevels::Sliced { rules, levels } => {
                let seeds = levels.len();
                let entries = slice.unwrap_or_else(|| {
                    let file = file.expect("a slice comes from the solver or the file");
                    file.entries()[range.start as usize..range.end as usize].to_vec()
                });
                levels.push((LevelIndex::new(seeds, index_kind(*rules)), entries));
            }
        }
    }
}

/// Where each answer to a rank's questions will be: the owner asked, the question's place among
/// those sent to it, and the level asked about (to decode the answer).
type Route = Vec<(usize, usize, usize)>;

/// Questions about lower-level boards after [`RankLevels::ask`].
pub(super) enum Asked {
    /// The values, looked up at once (whole levels).
    AtHand(Vec<Bounds>),
    /// Sent to the owners.
    Sent { questions: Ticket, route: Route },
}

/// Questions after [`RankLevels::answer`].
pub(super) enum Answering {
    /// The values, looked up at once (whole levels).
    AtHand(Vec<Bounds>),
    /// The owners' answers on their way.
    Sent { replies: Ticket, route: Route },
}

//! What the engines know: the pool of engines that the computer players and the analysis board
//! share, with the cache of the latest analyses ([`engines`]), and the endgame databases they
//! probe ([`databases`]).

pub(crate) mod databases;
pub(crate) mod engines;

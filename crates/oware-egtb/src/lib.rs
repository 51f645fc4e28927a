//! Endgame databases for oware by retrograde analysis.
pub mod index;

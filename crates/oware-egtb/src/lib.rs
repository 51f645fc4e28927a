//! Endgame databases for oware by retrograde analysis (being built: see issue 4).

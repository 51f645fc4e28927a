//! The `oware serve` web server (being built: see issue 5).

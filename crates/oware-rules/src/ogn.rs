//! OGN game records (placeholder, written next).

//! Game ids and players' tokens: 128 random bits written as 32 hex digits.

/// A new random 128-bit token (or game id), as 32 hex digits.
pub fn new_token() -> String {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).expect("the operating system's random source works");
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Game ids and tokens are 32 hex digits; anything else cannot name a game or hold a seat.
pub(crate) fn valid_id(id: &str) -> bool {
    id.len() == 32 && id.bytes().all(|b| b.is_ascii_hexdigit())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn new_tokens_are_valid_ids_and_differ() {
        let (a, b) = (new_token(), new_token());
        assert!(valid_id(&a) && valid_id(&b));
        assert_ne!(a, b);
        assert!(!valid_id("../etc/passwd"));
        assert!(!valid_id(&a[..31]));
    }
}

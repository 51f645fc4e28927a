//! Game ids and players' tokens: 128 random bits written as 32 hex digits.

/// A new random 128-bit token (or game id), as 32 hex digits.
pub fn new_token() -> String {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).expect("the operating system's random source works");
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Whether a token someone sent is the one held, in a time that does not depend on where they
/// first differ, so timing the answers cannot guess a token digit by digit.
pub(crate) fn same_token(sent: &str, held: &str) -> bool {
    let (a, b) = (sent.as_bytes(), held.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
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

    #[test]
    fn tokens_compare_whole() {
        let a = new_token();
        assert!(same_token(&a, &a.clone()));
        assert!(!same_token(&a[..31], &a));
        assert!(!same_token("", &a));
        let mut other = a.clone().into_bytes();
        other[31] = if other[31] == b'0' { b'1' } else { b'0' };
        assert!(!same_token(std::str::from_utf8(&other).unwrap(), &a));
    }
}

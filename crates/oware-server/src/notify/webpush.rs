//! Web Push as the push services speak it: a message encrypted for one browser (RFC 8291, the
//! `aes128gcm` content coding of RFC 8188) and a request signed by the server's VAPID key
//! (RFC 8292), so that a push service delivers it and only that browser can read it. The
//! primitives (P-256, ECDSA, HKDF, AES-GCM) are RustCrypto's; this module only puts them together
//! as the RFCs say.

use aes_gcm::aead::{Aead, KeyInit};
use aes_gcm::{Aes128Gcm, Nonce};
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use hkdf::Hkdf;
use p256::ecdsa::signature::Signer;
use p256::ecdsa::{Signature, SigningKey};
use p256::elliptic_curve::sec1::ToEncodedPoint;
use p256::{PublicKey, SecretKey};
use sha2::Sha256;

/// The record size written in the header: one record holds the whole message.
const RECORD_SIZE: u32 = 4096;

/// The most a message may hold before encryption: one record, less the delimiter and the tag.
pub const MAX_PAYLOAD: usize = RECORD_SIZE as usize - 17;

/// What is wrong with a subscription a browser sent.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum SubscriptionError {
    /// `p256dh` is not a P-256 public key in base64url.
    #[error("the subscription's p256dh key is not a P-256 public key in base64url")]
    BadKey,
    /// `auth` is not 16 bytes in base64url.
    #[error("the subscription's auth secret is not 16 bytes in base64url")]
    BadAuth,
}

/// A browser's keys for its messages, from its `PushSubscription`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BrowserKeys {
    /// Its public key, uncompressed (65 bytes).
    pub p256dh: Vec<u8>,
    /// Its authentication secret (16 bytes).
    pub auth: Vec<u8>,
}

impl BrowserKeys {
    /// Reads the keys as `PushSubscription.toJSON()` gives them (base64url).
    pub fn from_base64(p256dh: &str, auth: &str) -> Result<BrowserKeys, SubscriptionError> {
        let key = decode(p256dh).ok_or(SubscriptionError::BadKey)?;
        PublicKey::from_sec1_bytes(&key).map_err(|_| SubscriptionError::BadKey)?;
        if key.len() != 65 {
            return Err(SubscriptionError::BadKey);
        }
        let auth = decode(auth).ok_or(SubscriptionError::BadAuth)?;
        if auth.len() != 16 {
            return Err(SubscriptionError::BadAuth);
        }
        Ok(BrowserKeys { p256dh: key, auth })
    }
}

fn decode(text: &str) -> Option<Vec<u8>> {
    // Browsers send base64url without padding; some libraries add it.
    URL_SAFE_NO_PAD.decode(text.trim_end_matches('=')).ok()
}

/// base64url without padding, as Web Push writes keys and tokens.
pub fn encode(bytes: &[u8]) -> String {
    URL_SAFE_NO_PAD.encode(bytes)
}

/// A P-256 secret key from the system's random source.
pub fn random_secret() -> SecretKey {
    loop {
        let mut bytes = [0u8; 32];
        getrandom::fill(&mut bytes).expect("the system's random source");
        // Almost every 32 bytes is a valid scalar; the rest are drawn again.
        if let Ok(key) = SecretKey::from_slice(&bytes) {
            return key;
        }
    }
}

/// The server's VAPID key pair, which identifies it to push services.
#[derive(Clone)]
pub struct Vapid {
    secret: SecretKey,
}

impl Vapid {
    /// The key pair of a stored secret key (32 bytes), if it is one.
    pub fn from_bytes(bytes: &[u8]) -> Option<Vapid> {
        SecretKey::from_slice(bytes)
            .ok()
            .map(|secret| Vapid { secret })
    }

    /// A new key pair.
    pub fn generate() -> Vapid {
        Vapid {
            secret: random_secret(),
        }
    }

    /// The secret key, to store.
    pub fn to_bytes(&self) -> Vec<u8> {
        self.secret.to_bytes().to_vec()
    }

    /// The public key, uncompressed, in base64url: the `applicationServerKey` browsers subscribe
    /// with, and the `k` of every request.
    pub fn public_key(&self) -> String {
        encode(self.secret.public_key().to_encoded_point(false).as_bytes())
    }

    /// The `Authorization` header for a request to the push service at `origin`
    /// (`https://host[:port]`), valid until `expires` (seconds since the Unix epoch), naming
    /// `contact` (a `mailto:` or the server's public URL).
    pub fn authorization(&self, origin: &str, expires: u64, contact: &str) -> String {
        let header = encode(br#"{"typ":"JWT","alg":"ES256"}"#);
        let claims = serde_json::json!({ "aud": origin, "exp": expires, "sub": contact });
        let claims = encode(claims.to_string().as_bytes());
        let signing_input = format!("{header}.{claims}");
        let signature: Signature = SigningKey::from(&self.secret).sign(signing_input.as_bytes());
        let jwt = format!("{signing_input}.{}", encode(&signature.to_bytes()));
        format!("vapid t={jwt}, k={}", self.public_key())
    }
}

/// `plaintext` encrypted for the browser with `keys` (RFC 8291): the body of the push request,
/// sent with `Content-Encoding: aes128gcm`. `sender` and `salt` are fresh for every message.
pub fn encrypt(
    keys: &BrowserKeys,
    plaintext: &[u8],
    sender: &SecretKey,
    salt: [u8; 16],
) -> Result<Vec<u8>, SubscriptionError> {
    assert!(
        plaintext.len() <= MAX_PAYLOAD,
        "a push message is kept under one record"
    );
    let browser =
        PublicKey::from_sec1_bytes(&keys.p256dh).map_err(|_| SubscriptionError::BadKey)?;
    let shared = p256::ecdh::diffie_hellman(sender.to_nonzero_scalar(), browser.as_affine());
    let sender_public = sender.public_key().to_encoded_point(false);
    let sender_public = sender_public.as_bytes();
    // The input keying material: the shared secret, bound to the browser's auth secret and to
    // both public keys.
    let mut key_info = b"WebPush: info\0".to_vec();
    key_info.extend_from_slice(&keys.p256dh);
    key_info.extend_from_slice(sender_public);
    let mut ikm = [0u8; 32];
    Hkdf::<Sha256>::new(Some(&keys.auth), shared.raw_secret_bytes())
        .expand(&key_info, &mut ikm)
        .expect("32 bytes is a valid HKDF length");
    let prk = Hkdf::<Sha256>::new(Some(&salt), &ikm);
    let mut cek = [0u8; 16];
    prk.expand(b"Content-Encoding: aes128gcm\0", &mut cek)
        .expect("16 bytes is a valid HKDF length");
    let mut nonce = [0u8; 12];
    prk.expand(b"Content-Encoding: nonce\0", &mut nonce)
        .expect("12 bytes is a valid HKDF length");
    // One record, the last: the message and the delimiter 2, no padding.
    let mut record = plaintext.to_vec();
    record.push(2);
    let sealed = Aes128Gcm::new_from_slice(&cek)
        .expect("16 bytes is an AES-128 key")
        .encrypt(Nonce::from_slice(&nonce), record.as_slice())
        .expect("AES-GCM encrypts any record this size");
    let mut body = Vec::with_capacity(16 + 4 + 1 + sender_public.len() + sealed.len());
    body.extend_from_slice(&salt);
    body.extend_from_slice(&RECORD_SIZE.to_be_bytes());
    body.push(sender_public.len() as u8);
    body.extend_from_slice(sender_public);
    body.extend_from_slice(&sealed);
    Ok(body)
}

#[cfg(test)]
mod tests {
    use super::*;
    use p256::ecdsa::signature::Verifier;
    use p256::ecdsa::VerifyingKey;

    #[test]
    fn a_message_is_a_single_record_under_a_header_naming_the_senders_key() {
        // That it opens for its browser, and only for it, is tested from the browser's side
        // (`tests/push.rs`), by a decryption written apart from this code.
        let browser = random_secret();
        let keys = BrowserKeys {
            p256dh: browser
                .public_key()
                .to_encoded_point(false)
                .as_bytes()
                .to_vec(),
            auth: vec![3; 16],
        };
        let sender = random_secret();
        let body = encrypt(&keys, b"hello", &sender, [7; 16]).unwrap();
        assert_eq!(&body[..16], &[7; 16]);
        assert_eq!(
            u32::from_be_bytes(body[16..20].try_into().unwrap()),
            RECORD_SIZE
        );
        assert_eq!(body[20], 65);
        assert_eq!(
            &body[21..86],
            sender.public_key().to_encoded_point(false).as_bytes()
        );
        // The message, its delimiter and the 16-byte tag.
        assert_eq!(body.len(), 86 + 5 + 1 + 16);
        // A fresh salt or sender, another ciphertext.
        let again = encrypt(&keys, b"hello", &random_secret(), [8; 16]).unwrap();
        assert_ne!(body[86..], again[86..]);
    }

    #[test]
    fn the_authorization_is_a_jwt_signed_by_the_vapid_key() {
        let vapid = Vapid::generate();
        let header = vapid.authorization("https://push.example.net", 1_800_000_000, "mailto:a@b.c");
        let (t, k) = header
            .strip_prefix("vapid t=")
            .and_then(|rest| rest.split_once(", k="))
            .unwrap();
        assert_eq!(k, vapid.public_key());
        let (signed, signature) = t.rsplit_once('.').unwrap();
        let key = VerifyingKey::from_sec1_bytes(&decode(k).unwrap()).unwrap();
        let signature = Signature::from_slice(&decode(signature).unwrap()).unwrap();
        key.verify(signed.as_bytes(), &signature).unwrap();
        let claims: serde_json::Value =
            serde_json::from_slice(&decode(signed.split_once('.').unwrap().1).unwrap()).unwrap();
        assert_eq!(claims["aud"], "https://push.example.net");
        assert_eq!(claims["exp"], 1_800_000_000u64);
        assert_eq!(claims["sub"], "mailto:a@b.c");
        // Kept and read back, the same key.
        let again = Vapid::from_bytes(&vapid.to_bytes()).unwrap();
        assert_eq!(again.public_key(), vapid.public_key());
    }

    #[test]
    fn subscriptions_with_bad_keys_are_refused() {
        let keys = BrowserKeys {
            p256dh: random_secret()
                .public_key()
                .to_encoded_point(false)
                .as_bytes()
                .to_vec(),
            auth: vec![5; 16],
        };
        let (p256dh, auth) = (encode(&keys.p256dh), encode(&keys.auth));
        assert_eq!(BrowserKeys::from_base64(&p256dh, &auth), Ok(keys));
        assert_eq!(
            BrowserKeys::from_base64("AAAA", &auth),
            Err(SubscriptionError::BadKey)
        );
        assert_eq!(
            BrowserKeys::from_base64(&p256dh, "c2hvcnQ"),
            Err(SubscriptionError::BadAuth)
        );
        assert_eq!(
            BrowserKeys::from_base64("not base64!", &auth),
            Err(SubscriptionError::BadKey)
        );
    }
}

//! PKCE S256 (RFC 7636): a 43-character verifier from 32 bytes of OS randomness, and its
//! challenge `base64url_nopad(sha256(verifier))`.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use rand::RngCore;
use sha2::{Digest, Sha256};

use crate::secrets::Secret;

/// A verifier (secret; sent only to the token endpoint) and its challenge (public; goes in the
/// connect URL).
#[derive(Debug, Clone)]
pub struct Pkce {
    pub verifier: Secret,
    pub challenge: String,
}

impl Pkce {
    /// A fresh pair from the operating system's CSPRNG.
    pub fn generate() -> Pkce {
        let mut bytes = [0u8; 32];
        rand::rngs::OsRng.fill_bytes(&mut bytes);
        Self::from_bytes(&bytes)
    }

    /// The pair for these verifier bytes (base64url without padding: 32 bytes → 43 chars).
    pub fn from_bytes(bytes: &[u8; 32]) -> Pkce {
        let verifier = URL_SAFE_NO_PAD.encode(bytes);
        let challenge = challenge_for(&verifier);
        Pkce {
            verifier: Secret::new(verifier),
            challenge,
        }
    }
}

/// The S256 challenge of a verifier.
pub fn challenge_for(verifier: &str) -> String {
    URL_SAFE_NO_PAD.encode(Sha256::digest(verifier.as_bytes()))
}

/// A verifier the spec allows: 43–128 characters of `[A-Za-z0-9-._~]`.
pub fn valid_verifier(v: &str) -> bool {
    (43..=128).contains(&v.len())
        && v.bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc7636_appendix_b_vector() {
        let bytes = [
            116, 24, 223, 180, 151, 153, 224, 37, 79, 250, 96, 125, 216, 173, 187, 186, 22, 212,
            37, 77, 105, 214, 191, 240, 91, 88, 5, 88, 83, 132, 141, 121,
        ];
        let p = Pkce::from_bytes(&bytes);
        assert_eq!(
            p.verifier.expose(),
            "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
        );
        assert_eq!(p.challenge, "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM");
    }

    #[test]
    fn generated_verifiers_are_valid_and_distinct() {
        let a = Pkce::generate();
        let b = Pkce::generate();
        assert!(valid_verifier(a.verifier.expose()));
        assert_eq!(a.verifier.expose().len(), 43);
        assert_ne!(a.verifier.expose(), b.verifier.expose());
        assert_eq!(a.challenge, challenge_for(a.verifier.expose()));
        assert!(!valid_verifier("short"));
        assert!(!valid_verifier(&"a".repeat(129)));
        assert!(!valid_verifier(&format!("{}+", "a".repeat(43))));
    }
}

//! Fixed-width primitives: 20-byte addresses, 32-byte hashes and 65-byte signatures.
//!
//! All three encode as raw bytes (whitepaper §2.5), print as `0x`-prefixed lowercase hex and parse
//! from hex with or without the prefix. Addresses written in mixed case must carry a valid EIP-55
//! checksum, exactly as Ethereum tooling requires, so a typo in a checksummed address is caught.

use bytes::BufMut;
use commonware_codec::{Buf, Error as CodecError, FixedSize, Read, Write};
use sha3::{Digest as _, Keccak256};
use std::{fmt, str::FromStr};

/// Computes keccak256 of `data`.
pub fn keccak256(data: &[u8]) -> Hash {
    Hash(Keccak256::digest(data).into())
}

/// Why a hex string could not be parsed into a fixed-width value.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseHexError {
    #[error("expected {expected} bytes ({} hex digits), found {found} hex digits", expected * 2)]
    WrongLength { expected: usize, found: usize },
    #[error("invalid hex character {character:?} at position {position}")]
    InvalidCharacter { character: char, position: usize },
    #[error("odd number of hex digits ({0}); every byte needs two")]
    OddLength(usize),
    #[error("bad EIP-55 checksum: mixed-case address should be written {expected}")]
    BadChecksum { expected: String },
}

/// Decodes hex with an optional `0x` prefix into bytes of any length.
pub fn decode_hex(s: &str) -> Result<Vec<u8>, ParseHexError> {
    let digits = strip_0x(s);
    if let Some((position, character)) = digits.char_indices().find(|(_, c)| !c.is_ascii_hexdigit())
    {
        return Err(ParseHexError::InvalidCharacter {
            character,
            position: position + (s.len() - digits.len()),
        });
    }
    if !digits.len().is_multiple_of(2) {
        return Err(ParseHexError::OddLength(digits.len()));
    }
    // Every character was checked above, so decoding cannot fail.
    hex::decode(digits).map_err(|_| ParseHexError::OddLength(digits.len()))
}

/// `0x`-prefixed lowercase hex of `bytes`.
pub fn encode_hex(bytes: &[u8]) -> String {
    format!("0x{}", hex::encode(bytes))
}

fn strip_0x(s: &str) -> &str {
    s.strip_prefix("0x")
        .or_else(|| s.strip_prefix("0X"))
        .unwrap_or(s)
}

fn decode_fixed<const N: usize>(s: &str) -> Result<[u8; N], ParseHexError> {
    let digits = strip_0x(s);
    if digits.len() != N * 2 && digits.chars().all(|c| c.is_ascii_hexdigit()) {
        return Err(ParseHexError::WrongLength {
            expected: N,
            found: digits.len(),
        });
    }
    let bytes = decode_hex(s)?;
    bytes
        .try_into()
        .map_err(|v: Vec<u8>| ParseHexError::WrongLength {
            expected: N,
            found: v.len() * 2,
        })
}

macro_rules! fixed_bytes {
    ($(#[$doc:meta])* $name:ident, $len:expr) => {
        $(#[$doc])*
        #[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub struct $name(pub [u8; $len]);

        impl $name {
            /// Width of the value in bytes.
            pub const LEN: usize = $len;
            /// The all-zero value.
            pub const ZERO: Self = Self([0u8; $len]);

            /// The raw bytes.
            pub fn as_bytes(&self) -> &[u8; $len] {
                &self.0
            }

            /// Builds the value from a slice of exactly the right length.
            pub fn from_slice(bytes: &[u8]) -> Option<Self> {
                <[u8; $len]>::try_from(bytes).ok().map(Self)
            }
        }

        impl Default for $name {
            fn default() -> Self {
                Self::ZERO
            }
        }

        impl AsRef<[u8]> for $name {
            fn as_ref(&self) -> &[u8] {
                &self.0
            }
        }

        impl From<[u8; $len]> for $name {
            fn from(bytes: [u8; $len]) -> Self {
                Self(bytes)
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "0x{}", hex::encode(self.0))
            }
        }

        impl fmt::Debug for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                fmt::Display::fmt(self, f)
            }
        }

        impl Write for $name {
            fn write(&self, buf: &mut impl BufMut) {
                buf.put_slice(&self.0);
            }
        }

        impl FixedSize for $name {
            const SIZE: usize = $len;
        }

        impl Read for $name {
            type Cfg = ();
            fn read_cfg(buf: &mut impl Buf, _: &()) -> Result<Self, CodecError> {
                if buf.remaining() < $len {
                    return Err(CodecError::EndOfBuffer);
                }
                let mut out = [0u8; $len];
                buf.copy_to_slice(&mut out);
                Ok(Self(out))
            }
        }

        impl serde::Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(&self.to_string())
            }
        }

        impl<'de> serde::Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let s = <std::borrow::Cow<'de, str>>::deserialize(d)?;
                s.parse().map_err(serde::de::Error::custom)
            }
        }

        impl schemars::JsonSchema for $name {
            fn schema_name() -> std::borrow::Cow<'static, str> {
                stringify!($name).into()
            }

            fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
                schemars::json_schema!({
                    "type": "string",
                    "pattern": format!("^0x[0-9a-fA-F]{{{}}}$", 2 * $len),
                    "description": concat!(stringify!($len), " bytes, 0x-prefixed hex"),
                })
            }
        }
    };
}

fixed_bytes!(
    /// A 20-byte account or actor address (Ethereum-compatible for external accounts).
    Address,
    20
);
fixed_bytes!(
    /// A 32-byte digest: transaction hashes, code hashes, state roots.
    Hash,
    32
);
fixed_bytes!(
    /// A secp256k1 signature `r‖s‖v` (65 bytes), `v` the recovery id 0 or 1.
    Signature,
    65
);

impl FromStr for Hash {
    type Err = ParseHexError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        decode_fixed(s).map(Self)
    }
}

impl FromStr for Signature {
    type Err = ParseHexError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        decode_fixed(s).map(Self)
    }
}

impl FromStr for Address {
    type Err = ParseHexError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let address = Self(decode_fixed(s)?);
        let digits = strip_0x(s);
        let has_upper = digits.chars().any(|c| c.is_ascii_uppercase());
        let has_lower = digits.chars().any(|c| c.is_ascii_lowercase());
        if has_upper && has_lower {
            let expected = address.to_checksum();
            if strip_0x(&expected) != digits {
                return Err(ParseHexError::BadChecksum { expected });
            }
        }
        Ok(address)
    }
}

impl Address {
    /// The EIP-55 mixed-case checksum form, `0x`-prefixed.
    pub fn to_checksum(&self) -> String {
        let lower = hex::encode(self.0);
        let digest = keccak256(lower.as_bytes());
        let mut out = String::with_capacity(42);
        out.push_str("0x");
        for (i, c) in lower.chars().enumerate() {
            let nibble = (digest.0[i / 2] >> (if i % 2 == 0 { 4 } else { 0 })) & 0x0f;
            if c.is_ascii_alphabetic() && nibble >= 8 {
                out.push(c.to_ascii_uppercase());
            } else {
                out.push(c);
            }
        }
        out
    }

    /// The address of the system actor at low-order slot `n` (whitepaper §9).
    pub const fn system(n: u8) -> Self {
        let mut bytes = [0u8; 20];
        bytes[19] = n;
        Self(bytes)
    }
}

impl Signature {
    /// The recovery id byte `v`.
    pub fn v(&self) -> u8 {
        self.0[64]
    }

    /// Whether this is the all-zero placeholder used in the signing preimage.
    pub fn is_zero(&self) -> bool {
        self.0 == [0u8; 65]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn address_round_trips_through_hex() {
        let a: Address = "0x19e7e376e7c213b7e7e7e46cc70a5dd086daff2a"
            .parse()
            .unwrap();
        assert_eq!(a.to_string(), "0x19e7e376e7c213b7e7e7e46cc70a5dd086daff2a");
        let b: Address = "19E7E376E7C213B7E7E7E46CC70A5DD086DAFF2A".parse().unwrap();
        assert_eq!(a, b);
    }

    #[test]
    fn eip55_checksum_matches_the_eip_vectors() {
        for s in [
            "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
            "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359",
            "0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB",
            "0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb",
        ] {
            let a: Address = s.parse().unwrap();
            assert_eq!(a.to_checksum(), s);
        }
        let err = "0x5aaeb6053F3E94C9b9A09f33669435E7Ef1BeAed"
            .parse::<Address>()
            .unwrap_err();
        assert!(matches!(err, ParseHexError::BadChecksum { .. }));
    }

    #[test]
    fn hex_errors_say_what_is_wrong() {
        assert_eq!(
            "0x1234".parse::<Address>().unwrap_err(),
            ParseHexError::WrongLength {
                expected: 20,
                found: 4
            }
        );
        assert_eq!(
            "0xzz".parse::<Hash>().unwrap_err(),
            ParseHexError::InvalidCharacter {
                character: 'z',
                position: 2
            }
        );
        assert_eq!(
            decode_hex("0xabc").unwrap_err(),
            ParseHexError::OddLength(3)
        );
    }
}

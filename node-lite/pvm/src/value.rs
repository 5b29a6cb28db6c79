//! Canonical encoding of values crossing the PVM boundary: handler arguments, return values,
//! messages, events and stored values.
//!
//! The format is deterministic CBOR (RFC 8949 §4.2.1 "core deterministic encoding"), restricted
//! to the values an actor may exchange: `None`, `bool`, `int` (at most 4,096 bits), `str`,
//! `bytes`, lists (tuples encode as lists) and dicts. One value has exactly one encoding, and the
//! decoder is strict: it rejects floats, non-minimal lengths and integers, indefinite lengths,
//! unsorted or duplicate map keys, tags other than the bignum tags 2/3 (and those only for values
//! that do not fit 64 bits), non-UTF-8 text, trailing bytes, and anything deeper or longer than
//! the limits in [`crate::cost::limits`]. Floats are refused because their textual and binary
//! forms are not canonical across languages (whitepaper §3, "no floats in canonical encodings").

use crate::cost::limits;
use malachite_bigint::{BigInt, Sign};
use std::fmt;

/// A value an actor can receive, return, send or store.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    None,
    Bool(bool),
    Int(BigInt),
    Str(String),
    Bytes(Vec<u8>),
    List(Vec<Value>),
    /// Only produced by decoding a map key (arrays in key position decode as tuples so they stay
    /// hashable); encodes exactly like a list.
    Tuple(Vec<Value>),
    /// Entries in canonical order (sorted by encoded key bytes, no duplicates).
    Dict(Vec<(Value, Value)>),
}

impl From<u64> for Value {
    fn from(n: u64) -> Self {
        Value::Int(BigInt::from(n))
    }
}

/// Why bytes are not a canonical value, or a value cannot be encoded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ValueError {
    #[error("value ends early at byte {0}")]
    Truncated(usize),
    #[error("{0} unexpected bytes after the value")]
    TrailingBytes(usize),
    #[error(
        "floats are not allowed in canonical values (byte {0}); use integers (e.g. fixed-point)"
    )]
    Float(usize),
    #[error("non-minimal length or integer encoding at byte {0}")]
    NonMinimal(usize),
    #[error("indefinite-length item at byte {0} is not canonical")]
    Indefinite(usize),
    #[error("unsupported CBOR item (major type {major}, info {info}) at byte {offset}")]
    Unsupported { major: u8, info: u8, offset: usize },
    #[error("unsupported CBOR tag {tag} at byte {offset}; only bignum tags 2 and 3 are allowed")]
    Tag { tag: u64, offset: usize },
    #[error("bignum at byte {0} fits in 64 bits and must use the plain integer form")]
    BignumTooSmall(usize),
    #[error("integer of {bits} bits is larger than the 4096-bit limit")]
    IntTooLarge { bits: u64 },
    #[error("text at byte {0} is not valid UTF-8")]
    Utf8(usize),
    #[error("map keys at byte {0} are not in canonical order or are duplicated")]
    KeyOrder(usize),
    #[error("{what} is not hashable and cannot be a dict key")]
    UnhashableKey { what: &'static str },
    #[error("value nests deeper than {} levels", limits::VALUE_DEPTH)]
    TooDeep,
    #[error("encoded value is {size} bytes, above the limit of {max}")]
    TooLarge { size: usize, max: usize },
    #[error("{0}")]
    Other(String),
}

impl Value {
    /// A short type name for messages.
    pub fn type_name(&self) -> &'static str {
        match self {
            Self::None => "None",
            Self::Bool(_) => "bool",
            Self::Int(_) => "int",
            Self::Str(_) => "str",
            Self::Bytes(_) => "bytes",
            Self::List(_) => "list",
            Self::Tuple(_) => "tuple",
            Self::Dict(_) => "dict",
        }
    }

    /// The canonical encoding.
    pub fn encode(&self) -> Result<Vec<u8>, ValueError> {
        let mut out = Vec::new();
        encode_into(self, &mut out, 0)?;
        if out.len() > limits::VALUE_BYTES {
            return Err(ValueError::TooLarge {
                size: out.len(),
                max: limits::VALUE_BYTES,
            });
        }
        Ok(out)
    }

    /// Strictly decodes a canonical encoding.
    pub fn decode(bytes: &[u8]) -> Result<Self, ValueError> {
        if bytes.len() > limits::VALUE_BYTES {
            return Err(ValueError::TooLarge {
                size: bytes.len(),
                max: limits::VALUE_BYTES,
            });
        }
        let mut reader = Reader { bytes, pos: 0 };
        let value = reader.value(0, false)?;
        if reader.pos != bytes.len() {
            return Err(ValueError::TrailingBytes(bytes.len() - reader.pos));
        }
        Ok(value)
    }

    /// Builds a dict, sorting entries canonically and rejecting duplicate keys.
    pub fn dict(entries: Vec<(Value, Value)>) -> Result<Self, ValueError> {
        let mut keyed = Vec::with_capacity(entries.len());
        for (k, v) in entries {
            let mut key_bytes = Vec::new();
            encode_into(&k, &mut key_bytes, 1)?;
            keyed.push((key_bytes, k, v));
        }
        keyed.sort_by(|a, b| a.0.cmp(&b.0));
        if keyed.windows(2).any(|w| w[0].0 == w[1].0) {
            return Err(ValueError::Other(
                "dict has two keys with the same canonical encoding".into(),
            ));
        }
        Ok(Self::Dict(
            keyed.into_iter().map(|(_, k, v)| (k, v)).collect(),
        ))
    }

    /// Converts a JSON value (as used on the command line and over RPC). Integers only, no
    /// floats; objects become dicts with string keys.
    pub fn from_json(json: &serde_json::Value) -> Result<Self, ValueError> {
        Ok(match json {
            serde_json::Value::Null => Self::None,
            serde_json::Value::Bool(b) => Self::Bool(*b),
            serde_json::Value::Number(n) => {
                if let Some(i) = n.as_i64() {
                    Self::Int(BigInt::from(i))
                } else if let Some(u) = n.as_u64() {
                    Self::Int(BigInt::from(u))
                } else {
                    return Err(ValueError::Other(format!(
                        "{n} is not an integer; floats are not allowed in actor values"
                    )));
                }
            }
            serde_json::Value::String(s) => Self::Str(s.clone()),
            serde_json::Value::Array(items) => Self::List(
                items
                    .iter()
                    .map(Self::from_json)
                    .collect::<Result<_, _>>()?,
            ),
            serde_json::Value::Object(map) => {
                if let Some(hex) = map.get("$bytes").and_then(|v| v.as_str())
                    && map.len() == 1
                {
                    let digits = hex.strip_prefix("0x").unwrap_or(hex);
                    return hex::decode(digits).map(Self::Bytes).map_err(|e| {
                        ValueError::Other(format!("invalid $bytes hex {hex:?}: {e}"))
                    });
                }
                if let Some(int) = map.get("$int").and_then(|v| v.as_str())
                    && map.len() == 1
                {
                    return int
                        .parse::<BigInt>()
                        .map(Self::Int)
                        .map_err(|_| ValueError::Other(format!("invalid $int {int:?}")));
                }
                Self::dict(
                    map.iter()
                        .map(|(k, v)| Ok((Self::Str(k.clone()), Self::from_json(v)?)))
                        .collect::<Result<_, ValueError>>()?,
                )?
            }
        })
    }

    /// The JSON form: integers beyond 64 bits as `{"$int": "…"}`, bytes as
    /// `{"$bytes": "0x…"}`, dicts with non-string keys as `{"$dict": [[k, v], …]}`.
    pub fn to_json(&self) -> serde_json::Value {
        use serde_json::Value as J;
        match self {
            Self::None => J::Null,
            Self::Bool(b) => J::Bool(*b),
            Self::Int(i) => {
                if let Ok(v) = i64::try_from(i) {
                    J::from(v)
                } else if let Ok(v) = u64::try_from(i) {
                    J::from(v)
                } else {
                    serde_json::json!({ "$int": i.to_string() })
                }
            }
            Self::Str(s) => J::String(s.clone()),
            Self::Bytes(b) => serde_json::json!({ "$bytes": format!("0x{}", hex::encode(b)) }),
            Self::List(items) | Self::Tuple(items) => {
                J::Array(items.iter().map(Self::to_json).collect())
            }
            Self::Dict(entries) => {
                if entries.iter().all(|(k, _)| matches!(k, Self::Str(_))) {
                    J::Object(
                        entries
                            .iter()
                            .map(|(k, v)| match k {
                                Self::Str(s) => (s.clone(), v.to_json()),
                                _ => unreachable!("checked above"),
                            })
                            .collect(),
                    )
                } else {
                    serde_json::json!({
                        "$dict": entries
                            .iter()
                            .map(|(k, v)| J::Array(vec![k.to_json(), v.to_json()]))
                            .collect::<Vec<_>>()
                    })
                }
            }
        }
    }
}

impl fmt::Display for Value {
    /// Python-like rendering, for human output.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::None => f.write_str("None"),
            Self::Bool(true) => f.write_str("True"),
            Self::Bool(false) => f.write_str("False"),
            Self::Int(i) => write!(f, "{i}"),
            Self::Str(s) => write!(f, "{s:?}"),
            Self::Bytes(b) => write!(f, "bytes.fromhex('{}')", hex::encode(b)),
            Self::List(items) => {
                f.write_str("[")?;
                for (i, v) in items.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{v}")?;
                }
                f.write_str("]")
            }
            Self::Tuple(items) => {
                f.write_str("(")?;
                for (i, v) in items.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{v}")?;
                }
                if items.len() == 1 {
                    f.write_str(",")?;
                }
                f.write_str(")")
            }
            Self::Dict(entries) => {
                f.write_str("{")?;
                for (i, (k, v)) in entries.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{k}: {v}")?;
                }
                f.write_str("}")
            }
        }
    }
}

const MAJOR_UNSIGNED: u8 = 0;
const MAJOR_NEGATIVE: u8 = 1;
const MAJOR_BYTES: u8 = 2;
const MAJOR_TEXT: u8 = 3;
const MAJOR_ARRAY: u8 = 4;
const MAJOR_MAP: u8 = 5;
const MAJOR_TAG: u8 = 6;
const MAJOR_SIMPLE: u8 = 7;
const TAG_POSITIVE_BIGNUM: u64 = 2;
const TAG_NEGATIVE_BIGNUM: u64 = 3;
const FALSE: u8 = 0xf4;
const TRUE: u8 = 0xf5;
const NULL: u8 = 0xf6;

fn head(out: &mut Vec<u8>, major: u8, arg: u64) {
    let m = major << 5;
    if arg < 24 {
        out.push(m | arg as u8);
    } else if arg <= u8::MAX as u64 {
        out.extend_from_slice(&[m | 24, arg as u8]);
    } else if arg <= u16::MAX as u64 {
        out.push(m | 25);
        out.extend_from_slice(&(arg as u16).to_be_bytes());
    } else if arg <= u32::MAX as u64 {
        out.push(m | 26);
        out.extend_from_slice(&(arg as u32).to_be_bytes());
    } else {
        out.push(m | 27);
        out.extend_from_slice(&arg.to_be_bytes());
    }
}

fn encode_into(value: &Value, out: &mut Vec<u8>, depth: usize) -> Result<(), ValueError> {
    if depth > limits::VALUE_DEPTH {
        return Err(ValueError::TooDeep);
    }
    match value {
        Value::None => out.push(NULL),
        Value::Bool(b) => out.push(if *b { TRUE } else { FALSE }),
        Value::Int(i) => {
            let bits = i.bits();
            if bits > limits::INT_BITS {
                return Err(ValueError::IntTooLarge { bits });
            }
            let (sign, magnitude) = i.to_bytes_be();
            if sign == Sign::Minus {
                // CBOR negative n encodes -1 - n.
                let n: BigInt = -i - BigInt::from(1);
                match u64::try_from(&n) {
                    Ok(small) => head(out, MAJOR_NEGATIVE, small),
                    Err(_) => {
                        let (_, mag) = n.to_bytes_be();
                        head(out, MAJOR_TAG, TAG_NEGATIVE_BIGNUM);
                        head(out, MAJOR_BYTES, mag.len() as u64);
                        out.extend_from_slice(&mag);
                    }
                }
            } else {
                match u64::try_from(i) {
                    Ok(small) => head(out, MAJOR_UNSIGNED, small),
                    Err(_) => {
                        head(out, MAJOR_TAG, TAG_POSITIVE_BIGNUM);
                        head(out, MAJOR_BYTES, magnitude.len() as u64);
                        out.extend_from_slice(&magnitude);
                    }
                }
            }
        }
        Value::Str(s) => {
            head(out, MAJOR_TEXT, s.len() as u64);
            out.extend_from_slice(s.as_bytes());
        }
        Value::Bytes(b) => {
            head(out, MAJOR_BYTES, b.len() as u64);
            out.extend_from_slice(b);
        }
        Value::List(items) | Value::Tuple(items) => {
            head(out, MAJOR_ARRAY, items.len() as u64);
            for item in items {
                encode_into(item, out, depth + 1)?;
                if out.len() > limits::VALUE_BYTES {
                    return Err(ValueError::TooLarge {
                        size: out.len(),
                        max: limits::VALUE_BYTES,
                    });
                }
            }
        }
        Value::Dict(entries) => {
            let mut encoded = Vec::with_capacity(entries.len());
            for (k, v) in entries {
                check_key(k)?;
                let mut kb = Vec::new();
                encode_into(k, &mut kb, depth + 1)?;
                let mut vb = Vec::new();
                encode_into(v, &mut vb, depth + 1)?;
                encoded.push((kb, vb));
            }
            encoded.sort_by(|a, b| a.0.cmp(&b.0));
            if encoded.windows(2).any(|w| w[0].0 == w[1].0) {
                return Err(ValueError::Other(
                    "dict has two keys with the same canonical encoding".into(),
                ));
            }
            head(out, MAJOR_MAP, encoded.len() as u64);
            for (k, v) in encoded {
                out.extend_from_slice(&k);
                out.extend_from_slice(&v);
                if out.len() > limits::VALUE_BYTES {
                    return Err(ValueError::TooLarge {
                        size: out.len(),
                        max: limits::VALUE_BYTES,
                    });
                }
            }
        }
    }
    Ok(())
}

fn check_key(key: &Value) -> Result<(), ValueError> {
    match key {
        Value::List(_) => Err(ValueError::UnhashableKey { what: "list" }),
        Value::Dict(_) => Err(ValueError::UnhashableKey { what: "dict" }),
        Value::Tuple(items) => items.iter().try_for_each(check_key),
        _ => Ok(()),
    }
}

struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl Reader<'_> {
    fn byte(&mut self) -> Result<u8, ValueError> {
        let b = *self
            .bytes
            .get(self.pos)
            .ok_or(ValueError::Truncated(self.pos))?;
        self.pos += 1;
        Ok(b)
    }

    fn take(&mut self, n: u64) -> Result<&[u8], ValueError> {
        let n = usize::try_from(n).map_err(|_| ValueError::Truncated(self.pos))?;
        let end = self
            .pos
            .checked_add(n)
            .filter(|&e| e <= self.bytes.len())
            .ok_or(ValueError::Truncated(self.bytes.len()))?;
        let slice = &self.bytes[self.pos..end];
        self.pos = end;
        Ok(slice)
    }

    /// Reads an item head: (major, argument), enforcing minimal argument encodings.
    fn head(&mut self) -> Result<(u8, u8, u64), ValueError> {
        let start = self.pos;
        let initial = self.byte()?;
        let major = initial >> 5;
        let info = initial & 0x1f;
        if major == MAJOR_SIMPLE {
            return Ok((major, info, 0));
        }
        let arg = match info {
            0..=23 => u64::from(info),
            24 => {
                let v = u64::from(self.byte()?);
                if v < 24 {
                    return Err(ValueError::NonMinimal(start));
                }
                v
            }
            25 => {
                let b = self.take(2)?;
                let v = u64::from(u16::from_be_bytes([b[0], b[1]]));
                if v <= u8::MAX as u64 {
                    return Err(ValueError::NonMinimal(start));
                }
                v
            }
            26 => {
                let b = self.take(4)?;
                let v = u64::from(u32::from_be_bytes([b[0], b[1], b[2], b[3]]));
                if v <= u16::MAX as u64 {
                    return Err(ValueError::NonMinimal(start));
                }
                v
            }
            27 => {
                let b = self.take(8)?;
                let mut a = [0u8; 8];
                a.copy_from_slice(b);
                let v = u64::from_be_bytes(a);
                if v <= u32::MAX as u64 {
                    return Err(ValueError::NonMinimal(start));
                }
                v
            }
            31 => return Err(ValueError::Indefinite(start)),
            _ => {
                return Err(ValueError::Unsupported {
                    major,
                    info,
                    offset: start,
                });
            }
        };
        Ok((major, info, arg))
    }

    fn value(&mut self, depth: usize, as_key: bool) -> Result<Value, ValueError> {
        if depth > limits::VALUE_DEPTH {
            return Err(ValueError::TooDeep);
        }
        let start = self.pos;
        let (major, info, arg) = self.head()?;
        Ok(match major {
            MAJOR_UNSIGNED => Value::Int(BigInt::from(arg)),
            MAJOR_NEGATIVE => Value::Int(-BigInt::from(arg) - BigInt::from(1)),
            MAJOR_BYTES => Value::Bytes(self.take(arg)?.to_vec()),
            MAJOR_TEXT => {
                let raw = self.take(arg)?;
                Value::Str(
                    std::str::from_utf8(raw)
                        .map_err(|_| ValueError::Utf8(start))?
                        .to_string(),
                )
            }
            MAJOR_ARRAY => {
                let mut items = Vec::with_capacity((arg as usize).min(1024));
                for _ in 0..arg {
                    items.push(self.value(depth + 1, as_key)?);
                }
                if as_key {
                    Value::Tuple(items)
                } else {
                    Value::List(items)
                }
            }
            MAJOR_MAP => {
                if as_key {
                    return Err(ValueError::UnhashableKey { what: "dict" });
                }
                let mut entries = Vec::with_capacity((arg as usize).min(1024));
                let mut previous: Option<&[u8]> = None;
                for _ in 0..arg {
                    let key_start = self.pos;
                    let key = self.value(depth + 1, true)?;
                    let key_bytes = &self.bytes[key_start..self.pos];
                    if let Some(prev) = previous
                        && prev >= key_bytes
                    {
                        return Err(ValueError::KeyOrder(key_start));
                    }
                    previous = Some(key_bytes);
                    let value = self.value(depth + 1, false)?;
                    entries.push((key, value));
                }
                Value::Dict(entries)
            }
            MAJOR_TAG => {
                if arg != TAG_POSITIVE_BIGNUM && arg != TAG_NEGATIVE_BIGNUM {
                    return Err(ValueError::Tag {
                        tag: arg,
                        offset: start,
                    });
                }
                let inner_start = self.pos;
                let (m, _, len) = self.head()?;
                if m != MAJOR_BYTES {
                    return Err(ValueError::Other(format!(
                        "bignum tag at byte {start} must wrap a byte string"
                    )));
                }
                let magnitude = self.take(len)?;
                if magnitude.first() == Some(&0) {
                    return Err(ValueError::NonMinimal(inner_start));
                }
                if magnitude.len() <= 8 {
                    return Err(ValueError::BignumTooSmall(start));
                }
                let n = BigInt::from_bytes_be(Sign::Plus, magnitude);
                let v = if arg == TAG_POSITIVE_BIGNUM {
                    n
                } else {
                    -n - BigInt::from(1)
                };
                if v.bits() > limits::INT_BITS {
                    return Err(ValueError::IntTooLarge { bits: v.bits() });
                }
                Value::Int(v)
            }
            _ => match info {
                20 => Value::Bool(false),
                21 => Value::Bool(true),
                22 => Value::None,
                25..=27 => return Err(ValueError::Float(start)),
                31 => return Err(ValueError::Indefinite(start)),
                _ => {
                    return Err(ValueError::Unsupported {
                        major,
                        info,
                        offset: start,
                    });
                }
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn int(i: i64) -> Value {
        Value::Int(BigInt::from(i))
    }

    #[test]
    fn known_encodings() {
        // RFC 8949 Appendix A examples.
        for (v, hex) in [
            (int(0), "00"),
            (int(23), "17"),
            (int(24), "1818"),
            (int(1000), "1903e8"),
            (int(-1), "20"),
            (int(-1000), "3903e7"),
            (Value::Bool(true), "f5"),
            (Value::None, "f6"),
            (Value::Str("a".into()), "6161"),
            (Value::Bytes(vec![1, 2]), "420102"),
            (Value::List(vec![int(1), int(2)]), "820102"),
        ] {
            assert_eq!(hex::encode(v.encode().unwrap()), hex, "{v:?}");
            assert_eq!(Value::decode(&hex::decode(hex).unwrap()).unwrap(), v);
        }
        let big = Value::Int(BigInt::from(u64::MAX) + BigInt::from(1));
        assert_eq!(hex::encode(big.encode().unwrap()), "c249010000000000000000");
    }

    #[test]
    fn dict_keys_are_sorted_canonically() {
        let d = Value::dict(vec![
            (Value::Str("b".into()), int(2)),
            (Value::Str("a".into()), int(1)),
            (int(10), int(3)),
        ])
        .unwrap();
        let bytes = d.encode().unwrap();
        assert_eq!(hex::encode(&bytes), "a30a036161016162 02".replace(' ', ""));
        assert_eq!(Value::decode(&bytes).unwrap(), d);
    }

    #[test]
    fn strict_decoding() {
        for (hex, what) in [
            ("1817", "non-minimal"),
            ("fb3ff0000000000000", "float"),
            ("9f01ff", "indefinite"),
            ("a2616201616101", "unsorted keys"),
            ("a2616101616101", "duplicate keys"),
            ("c24101", "small bignum"),
            ("d82000", "tag"),
            ("62ff00", "utf8"),
            ("0000", "trailing"),
            ("82", "truncated"),
        ] {
            assert!(
                Value::decode(&hex::decode(hex).unwrap()).is_err(),
                "{what} must be rejected"
            );
        }
    }

    #[test]
    fn int_limit() {
        let ok = Value::Int(BigInt::from(1) << 4095u32);
        assert!(ok.encode().is_ok());
        let too_big = Value::Int(BigInt::from(1) << 4096u32);
        assert!(matches!(
            too_big.encode(),
            Err(ValueError::IntTooLarge { bits: 4097 })
        ));
    }

    #[test]
    fn json_round_trip() {
        let j = serde_json::json!({"a": [1, "x", null, true], "b": {"$bytes": "0x0102"}});
        let v = Value::from_json(&j).unwrap();
        assert_eq!(v.to_json(), j);
        assert!(Value::from_json(&serde_json::json!(1.5)).is_err());
    }
}

//! Helpers shared by every consensus type's `commonware-codec` implementation, and the strict
//! top-level decoder that turns a codec failure into a precise, user-facing [`DecodeError`].
//!
//! Each field read goes through [`field`], which wraps a failure with the field's name and its
//! position, so a rejected byte string is explained as "which field, at which byte, which rule"
//! rather than "invalid varint". The encoding rules themselves (minimal LEB128 varints, 1-byte
//! option tags, bounded length prefixes, no trailing bytes) are enforced by `commonware-codec`.

use bytes::BufMut;
use commonware_codec::{
    Buf, Copying, Encode, EncodeSize, Error as CodecError, RangeCfg, Read, ReadExt, Write,
    varint::UInt,
};
use std::fmt;

/// The rule a rejected byte string broke.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Rule {
    #[error("input ends early: the field needs more bytes than remain")]
    Truncated,
    #[error("varint is not minimal: the same value has a shorter encoding (trailing 0x00 byte)")]
    NonMinimalVarint,
    #[error("varint does not fit in 64 bits")]
    VarintOverflow,
    #[error("option tag must be 0x00 (absent) or 0x01 (present), found {0:#04x}")]
    InvalidOptionTag(u8),
    #[error("unknown discriminant {0}")]
    UnknownDiscriminant(u8),
    #[error("length {len} is above the maximum of {max}")]
    LengthTooLarge { len: usize, max: usize },
    #[error("length prefix does not fit in 32 bits")]
    LengthOverflow,
    #[error("{0} unexpected bytes after the end of the value")]
    TrailingBytes(usize),
    #[error("encoding is {size} bytes, above max_tx_size ({max} bytes)")]
    TooLarge { size: usize, max: usize },
    #[error("{0}")]
    Invalid(&'static str),
}

/// A byte string rejected by a strict decoder: which field, at which byte offset, which rule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DecodeError {
    /// Dotted path of the field that failed, e.g. `instruction.transfer.amount`.
    pub field: String,
    /// Byte offset where the failing field starts.
    pub offset: usize,
    /// The rule the bytes broke.
    pub rule: Rule,
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.field.is_empty() {
            write!(f, "at byte {}: {}", self.offset, self.rule)
        } else {
            write!(
                f,
                "field `{}` at byte {}: {}",
                self.field, self.offset, self.rule
            )
        }
    }
}

impl std::error::Error for DecodeError {}

/// A failure inside one named field, carried through `CodecError::Wrapped`.
#[derive(Debug)]
struct FieldError {
    /// Bytes left in the buffer when the field started: the offset is `total - remaining`.
    remaining: usize,
    /// The maximum length the field allows, for length errors.
    max_len: Option<usize>,
    source: CodecError,
}

impl fmt::Display for FieldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.source)
    }
}

impl std::error::Error for FieldError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.source)
    }
}

fn wrap(name: &'static str, remaining: usize, max_len: Option<usize>, e: CodecError) -> CodecError {
    CodecError::Wrapped(
        name,
        Box::new(FieldError {
            remaining,
            max_len,
            source: e,
        }),
    )
}

/// Tags an error detected after reading with the field `name` that started when `remaining`
/// bytes were left (e.g. an unknown discriminant found once the byte was read).
pub fn positioned(name: &'static str, remaining: usize, e: CodecError) -> CodecError {
    wrap(name, remaining, None, e)
}

/// Reads one named field, tagging any failure with the field name and position.
pub fn field<B: Buf, T>(
    buf: &mut B,
    name: &'static str,
    read: impl FnOnce(&mut B) -> Result<T, CodecError>,
) -> Result<T, CodecError> {
    let remaining = buf.remaining();
    read(buf).map_err(|e| wrap(name, remaining, None, e))
}

/// Reads a minimal LEB128 varint `u64` scalar.
pub fn read_varint(buf: &mut impl Buf, name: &'static str) -> Result<u64, CodecError> {
    field(buf, name, |b| UInt::<u64>::read(b).map(|v| v.0))
}

/// Writes a `u64` scalar as a minimal LEB128 varint.
pub fn write_varint(value: u64, buf: &mut impl BufMut) {
    UInt(value).write(buf);
}

/// Encoded width of a varint scalar.
pub fn varint_size(value: u64) -> usize {
    UInt(value).encode_size()
}

/// Reads a fixed-width 8-byte big-endian `u64` (used for amounts).
pub fn read_u64_be(buf: &mut impl Buf, name: &'static str) -> Result<u64, CodecError> {
    field(buf, name, |b| u64::read(b))
}

/// Reads a value whose codec config is `()`.
pub fn read_plain<T: Read<Cfg = ()>>(
    buf: &mut impl Buf,
    name: &'static str,
) -> Result<T, CodecError> {
    field(buf, name, |b| T::read_cfg(b, &()))
}

/// Reads a varint-length-prefixed byte string of at most `max` bytes.
pub fn read_bytes(
    buf: &mut impl Buf,
    name: &'static str,
    max: usize,
) -> Result<Vec<u8>, CodecError> {
    let remaining = buf.remaining();
    let range: RangeCfg<usize> = (0..=max).into();
    <Vec<u8>>::read_cfg(buf, &(range, ())).map_err(|e| wrap(name, remaining, Some(max), e))
}

/// Reads a varint-length-prefixed UTF-8 string of at most `max` bytes.
pub fn read_string(
    buf: &mut impl Buf,
    name: &'static str,
    max: usize,
) -> Result<String, CodecError> {
    let remaining = buf.remaining();
    let bytes = read_bytes(buf, name, max)?;
    String::from_utf8(bytes).map_err(|_| {
        wrap(
            name,
            remaining,
            None,
            CodecError::Invalid("string", "bytes are not valid UTF-8"),
        )
    })
}

/// Writes a byte string with its varint length prefix.
pub fn write_bytes(bytes: &[u8], buf: &mut impl BufMut) {
    bytes.write(buf);
}

/// Encoded width of a length-prefixed byte string.
pub fn bytes_size(bytes: &[u8]) -> usize {
    bytes.encode_size()
}

/// Reads a length-prefixed list of at most `max` items, each read by `item`.
pub fn read_list<B: Buf, T>(
    buf: &mut B,
    name: &'static str,
    max: usize,
    mut item: impl FnMut(&mut B) -> Result<T, CodecError>,
) -> Result<Vec<T>, CodecError> {
    let remaining = buf.remaining();
    let range: RangeCfg<usize> = (0..=max).into();
    let len = usize::read_cfg(buf, &range).map_err(|e| wrap(name, remaining, Some(max), e))?;
    let mut out = Vec::with_capacity(len.min(1024));
    for _ in 0..len {
        out.push(field(buf, name, &mut item)?);
    }
    Ok(out)
}

/// Writes a length-prefixed list, each element written by `item`.
pub fn write_list<T, B: BufMut>(items: &[T], buf: &mut B, mut item: impl FnMut(&T, &mut B)) {
    items.len().write(buf);
    for i in items {
        item(i, buf);
    }
}

/// Reads a 1-byte option tag: `false` for absent, `true` for present.
pub fn read_tag(buf: &mut impl Buf, name: &'static str) -> Result<bool, CodecError> {
    field(buf, name, |b| bool::read(b))
}

/// Reads a 1-byte enum discriminant.
pub fn read_discriminant(buf: &mut impl Buf, name: &'static str) -> Result<u8, CodecError> {
    field(buf, name, |b| u8::read(b))
}

/// Decodes `bytes` strictly as a `T`: every byte consumed, every rule enforced, and a failure
/// explained with the field path and byte offset.
pub fn decode_strict<T: Read<Cfg = ()>>(bytes: &[u8]) -> Result<T, DecodeError> {
    let total = bytes.len();
    let mut buf = Copying(bytes);
    let value = T::read_cfg(&mut buf, &()).map_err(|e| explain(bytes, total, e))?;
    let left = bytes::Buf::remaining(&buf);
    if left > 0 {
        return Err(DecodeError {
            field: String::new(),
            offset: total - left,
            rule: Rule::TrailingBytes(left),
        });
    }
    Ok(value)
}

/// Encodes a value to a `Vec<u8>`.
pub fn encode_to_vec<T: Encode>(value: &T) -> Vec<u8> {
    value.encode().to_vec()
}

fn explain(input: &[u8], total: usize, error: CodecError) -> DecodeError {
    let mut path: Vec<&'static str> = Vec::new();
    let mut offset = 0;
    let mut max_len = None;
    let mut current = error;
    loop {
        match current {
            CodecError::Wrapped(name, inner) => match inner.downcast::<FieldError>() {
                Ok(fe) => {
                    if path.last() != Some(&name) {
                        path.push(name);
                    }
                    offset = total - fe.remaining;
                    max_len = fe.max_len.or(max_len);
                    current = fe.source;
                }
                Err(other) => {
                    path.push(name);
                    let _ = other;
                    return DecodeError {
                        field: path.join("."),
                        offset,
                        rule: Rule::Invalid("malformed value"),
                    };
                }
            },
            leaf => {
                let rule = classify(input, offset, max_len, leaf);
                return DecodeError {
                    field: path.join("."),
                    offset,
                    rule,
                };
            }
        }
    }
}

fn classify(input: &[u8], offset: usize, max_len: Option<usize>, error: CodecError) -> Rule {
    match error {
        CodecError::EndOfBuffer => Rule::Truncated,
        CodecError::InvalidVarint(_) => {
            // A varint fails either because it is longer than it needs to be (its last byte is
            // 0x00) or because it does not fit the target width; the bytes tell which.
            let tail = input.get(offset..).unwrap_or_default();
            let end = tail.iter().position(|b| b & 0x80 == 0);
            match end {
                Some(i) if i > 0 && tail[i] == 0 && i < 10 => Rule::NonMinimalVarint,
                _ => Rule::VarintOverflow,
            }
        }
        CodecError::InvalidUsize => Rule::LengthOverflow,
        CodecError::InvalidBool => Rule::InvalidOptionTag(input.get(offset).copied().unwrap_or(0)),
        CodecError::InvalidEnum(v) => Rule::UnknownDiscriminant(v),
        CodecError::InvalidLength(len) => Rule::LengthTooLarge {
            len,
            max: max_len.unwrap_or(0),
        },
        CodecError::ExtraData(n) => Rule::TrailingBytes(n),
        CodecError::Invalid(_, msg) => Rule::Invalid(msg),
        CodecError::Wrapped(ctx, _) => Rule::Invalid(ctx),
    }
}

//! Length-bounded strings, byte strings and lists whose bound is part of their type, so a
//! value that is too long cannot be built, decoded or parsed from JSON, and the bound is
//! written once, where the field is declared.
//!
//! Encoding: a varint length prefix then the contents (UTF-8 bytes, raw bytes, or each item),
//! the bound checked before anything is allocated. JSON: a string, a `0x`-hex string, or a list.
//!
//! [`record!`](crate::record) derives the canonical encoding of a struct from its fields, in
//! declaration order, each field read through [`crate::codec::field`] so a refusal names it.

use crate::{
    codec::{bytes_size, read_bytes, read_list, read_string, write_bytes, write_list},
    primitives::{decode_hex, encode_hex},
};
use bytes::BufMut;
use commonware_codec::{Buf, EncodeSize, Error as CodecError, Read, Write};
use serde::{Deserialize, Deserializer, Serialize, Serializer, de};
use std::ops::Deref;

/// A value longer than its type allows.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{len} is above the maximum length of {max}")]
pub struct TooLong {
    pub len: usize,
    pub max: usize,
}

/// A UTF-8 string of at most `MAX` bytes.
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Text<const MAX: usize>(String);

/// A byte string of at most `MAX` bytes (JSON: `0x`-hex).
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Bytes<const MAX: usize>(Vec<u8>);

/// A list of at most `MAX` items.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct List<T, const MAX: usize>(Vec<T>);

impl<T, const MAX: usize> Default for List<T, MAX> {
    fn default() -> Self {
        Self(Vec::new())
    }
}

macro_rules! bounded {
    ($name:ident $(< $($g:ident),* >)?, $inner:ty, $len:expr) => {
        impl<$($($g,)*)? const MAX: usize> $name<$($($g,)*)? MAX> {
            pub fn new(v: $inner) -> Result<Self, TooLong> {
                let len = $len(&v);
                if len > MAX {
                    return Err(TooLong { len, max: MAX });
                }
                Ok(Self(v))
            }
            pub fn into_inner(self) -> $inner {
                self.0
            }
        }
        impl<$($($g,)*)? const MAX: usize> Deref for $name<$($($g,)*)? MAX> {
            type Target = $inner;
            fn deref(&self) -> &$inner {
                &self.0
            }
        }
        impl<$($($g,)*)? const MAX: usize> TryFrom<$inner> for $name<$($($g,)*)? MAX> {
            type Error = TooLong;
            fn try_from(v: $inner) -> Result<Self, TooLong> {
                Self::new(v)
            }
        }
    };
}
bounded!(Text, String, |s: &String| s.len());
bounded!(Bytes, Vec<u8>, |b: &Vec<u8>| b.len());
bounded!(List<T>, Vec<T>, |l: &Vec<T>| l.len());

impl<const MAX: usize> TryFrom<&str> for Text<MAX> {
    type Error = TooLong;
    fn try_from(s: &str) -> Result<Self, TooLong> {
        Self::new(s.to_owned())
    }
}

impl<const MAX: usize> std::fmt::Display for Text<MAX> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl<const MAX: usize> Write for Text<MAX> {
    fn write(&self, buf: &mut impl BufMut) {
        write_bytes(self.0.as_bytes(), buf);
    }
}
impl<const MAX: usize> EncodeSize for Text<MAX> {
    fn encode_size(&self) -> usize {
        bytes_size(self.0.as_bytes())
    }
}
impl<const MAX: usize> Read for Text<MAX> {
    type Cfg = ();
    fn read_cfg(buf: &mut impl Buf, _: &()) -> Result<Self, CodecError> {
        read_string(buf, "text", MAX).map(Self)
    }
}

impl<const MAX: usize> Write for Bytes<MAX> {
    fn write(&self, buf: &mut impl BufMut) {
        write_bytes(&self.0, buf);
    }
}
impl<const MAX: usize> EncodeSize for Bytes<MAX> {
    fn encode_size(&self) -> usize {
        bytes_size(&self.0)
    }
}
impl<const MAX: usize> Read for Bytes<MAX> {
    type Cfg = ();
    fn read_cfg(buf: &mut impl Buf, _: &()) -> Result<Self, CodecError> {
        read_bytes(buf, "bytes", MAX).map(Self)
    }
}

impl<T: Write, const MAX: usize> Write for List<T, MAX> {
    fn write(&self, buf: &mut impl BufMut) {
        write_list(&self.0, buf, |item, b| item.write(b));
    }
}
impl<T: EncodeSize, const MAX: usize> EncodeSize for List<T, MAX> {
    fn encode_size(&self) -> usize {
        self.0.len().encode_size() + self.0.iter().map(EncodeSize::encode_size).sum::<usize>()
    }
}
impl<T: Read<Cfg = ()>, const MAX: usize> Read for List<T, MAX> {
    type Cfg = ();
    fn read_cfg(buf: &mut impl Buf, _: &()) -> Result<Self, CodecError> {
        read_list(buf, "list", MAX, |b| T::read_cfg(b, &())).map(Self)
    }
}

impl<const MAX: usize> Serialize for Text<MAX> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.0)
    }
}
impl<'de, const MAX: usize> Deserialize<'de> for Text<MAX> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        let len = s.len();
        Self::new(s).map_err(|_| {
            de::Error::custom(format!("text of {len} bytes; at most {MAX} are allowed"))
        })
    }
}

impl<const MAX: usize> Serialize for Bytes<MAX> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&encode_hex(&self.0))
    }
}
impl<'de, const MAX: usize> Deserialize<'de> for Bytes<MAX> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        let bytes = decode_hex(&s).map_err(de::Error::custom)?;
        let len = bytes.len();
        Self::new(bytes)
            .map_err(|_| de::Error::custom(format!("{len} bytes; at most {MAX} are allowed")))
    }
}

impl<const MAX: usize> schemars::JsonSchema for Text<MAX> {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        format!("Text{MAX}").into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": "string",
            "description": format!("text of at most {MAX} bytes (UTF-8)"),
        })
    }
}

impl<const MAX: usize> schemars::JsonSchema for Bytes<MAX> {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        format!("Bytes{MAX}").into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": "string",
            "pattern": "^0x([0-9a-fA-F]{2})*$",
            "description": format!("at most {MAX} bytes, 0x-prefixed hex"),
        })
    }
}

impl<T: schemars::JsonSchema, const MAX: usize> schemars::JsonSchema for List<T, MAX> {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        format!("List{MAX}_{}", T::schema_name()).into()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": "array",
            "items": generator.subschema_for::<T>(),
            "maxItems": MAX,
        })
    }
}

impl<T: Serialize, const MAX: usize> Serialize for List<T, MAX> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(s)
    }
}
impl<'de, T: Deserialize<'de>, const MAX: usize> Deserialize<'de> for List<T, MAX> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = Vec::<T>::deserialize(d)?;
        let len = v.len();
        Self::new(v)
            .map_err(|_| de::Error::custom(format!("{len} items; at most {MAX} are allowed")))
    }
}

/// Declares a struct with its canonical encoding: fields in declaration order, each a type
/// with a `()`-config codec, each read tagged with its name.
#[macro_export]
macro_rules! record {
    (
        $(#[$doc:meta])*
        pub struct $name:ident {
            $( $(#[$fdoc:meta])* pub $field:ident : $ty:ty, )*
        }
    ) => {
        $(#[$doc])*
        pub struct $name {
            $( $(#[$fdoc])* pub $field: $ty, )*
        }

        impl commonware_codec::Write for $name {
            fn write(&self, buf: &mut impl bytes::BufMut) {
                $( commonware_codec::Write::write(&self.$field, buf); )*
            }
        }

        impl commonware_codec::EncodeSize for $name {
            fn encode_size(&self) -> usize {
                0 $( + commonware_codec::EncodeSize::encode_size(&self.$field) )*
            }
        }

        impl commonware_codec::Read for $name {
            type Cfg = ();
            fn read_cfg(
                buf: &mut impl commonware_codec::Buf,
                _: &(),
            ) -> Result<Self, commonware_codec::Error> {
                Ok(Self {
                    $( $field: $crate::codec::field(buf, stringify!($field), |b| {
                        <$ty as commonware_codec::Read>::read_cfg(b, &())
                    })?, )*
                })
            }
        }
    };
}

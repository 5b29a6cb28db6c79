//! Encrypted key storage: one Web3 Secret Storage v3 keystore (scrypt KDF, AES-128-CTR) per
//! named key under `$COWBOY_HOME/keystore/NAME.json`.
//!
//! Keystores are written and read with the `eth-keystore` crate, so they interoperate with geth,
//! Foundry and every other Ethereum wallet. A private key is never written in plaintext. Files
//! are created atomically (written to a temporary file, then renamed without clobbering) with
//! mode 0600, and each file also carries the key's `address` (as geth writes it) so keys can be
//! listed without a password. Untrusted keystore JSON is validated before it reaches the
//! decryption code, so a malformed or hostile file is reported, never a crash or a
//! multi-gigabyte scrypt.

pub mod private_fs;

use cowboy_crypto::{CryptoError, PrivateKey};
use cowboy_types::Address;
use eth_keystore::{EthKeystore, KdfparamsType, KeystoreError as EthError};
use std::{
    fs,
    io::Write as _,
    path::{Path, PathBuf},
};

/// Largest scrypt memory cost accepted from a keystore file: `128 · r · n` bytes (256 MiB, geth's
/// "standard" parameters n = 2^18, r = 8).
const MAX_SCRYPT_MEMORY: u64 = 256 * 1024 * 1024;
/// Most PBKDF2 iterations accepted from a keystore file.
const MAX_PBKDF2_ROUNDS: u32 = 10_000_000;
/// Longest key name.
const MAX_NAME_LEN: usize = 64;

/// Why a keystore operation failed.
#[derive(Debug, thiserror::Error)]
pub enum KeystoreError {
    #[error("invalid key name {name:?}: {reason}")]
    InvalidName { name: String, reason: &'static str },
    #[error(
        "a key named {name:?} already exists (address {address}); choose another name or delete it first with `cowboy keys delete {name}`"
    )]
    AlreadyExists { name: String, address: String },
    #[error("no key named {name:?} in {dir}{}", if available.is_empty() { "; create one with `cowboy keys new NAME`".to_string() } else { format!("; available: {}", available.join(", ")) })]
    NotFound {
        name: String,
        dir: PathBuf,
        available: Vec<String>,
    },
    #[error("wrong password for {what}")]
    WrongPassword { what: String },
    #[error("{path} is not a valid v3 keystore: {reason}")]
    Malformed { path: PathBuf, reason: String },
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("the decrypted key is not a valid secp256k1 private key: {0}")]
    Key(#[from] CryptoError),
    #[error("keystore library error: {0}")]
    Library(String),
}

type Result<T> = std::result::Result<T, KeystoreError>;

/// A named key and its address.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
pub struct KeyEntry {
    pub name: String,
    pub address: Address,
}

/// The keystore directory.
#[derive(Debug, Clone)]
pub struct Keystore {
    dir: PathBuf,
}

fn io_err(path: &Path) -> impl FnOnce(std::io::Error) -> KeystoreError + '_ {
    move |source| KeystoreError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// Checks a key name: 1–64 characters from `[A-Za-z0-9_.-]`, starting with a letter or digit.
pub fn validate_name(name: &str) -> Result<()> {
    let invalid = |reason| KeystoreError::InvalidName {
        name: name.to_string(),
        reason,
    };
    if name.is_empty() {
        return Err(invalid("names cannot be empty"));
    }
    if name.len() > MAX_NAME_LEN {
        return Err(invalid("names are at most 64 characters"));
    }
    if !name
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphanumeric())
    {
        return Err(invalid("names start with a letter or digit"));
    }
    if !name
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
    {
        return Err(invalid("use only letters, digits, '_', '-' and '.'"));
    }
    Ok(())
}

impl Keystore {
    /// Opens (creating if needed, mode 0700) the keystore under `home`.
    pub fn open(home: &Path) -> Result<Self> {
        let dir = home.join("keystore");
        private_fs::create_dir(home).map_err(io_err(home))?;
        private_fs::create_dir(&dir).map_err(io_err(&dir))?;
        Ok(Self { dir })
    }

    /// The names of the keys stored under `home`, sorted, without creating anything (empty when
    /// there is no keystore): what shell completion offers.
    pub fn names_at(home: &Path) -> Vec<String> {
        Self {
            dir: home.join("keystore"),
        }
        .names()
        .unwrap_or_default()
    }

    /// The keystore directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    fn path_of(&self, name: &str) -> PathBuf {
        self.dir.join(format!("{name}.json"))
    }

    /// Every stored key, sorted by name.
    pub fn list(&self) -> Result<Vec<KeyEntry>> {
        let mut out = Vec::new();
        for name in self.names()? {
            let address = self.address(&name)?;
            out.push(KeyEntry { name, address });
        }
        Ok(out)
    }

    fn names(&self) -> Result<Vec<String>> {
        let mut names = Vec::new();
        for entry in fs::read_dir(&self.dir).map_err(io_err(&self.dir))? {
            let entry = entry.map_err(io_err(&self.dir))?;
            let file = entry.file_name();
            let Some(file) = file.to_str() else { continue };
            if let Some(name) = file.strip_suffix(".json")
                && validate_name(name).is_ok()
            {
                names.push(name.to_string());
            }
        }
        names.sort();
        Ok(names)
    }

    fn existing_path(&self, name: &str) -> Result<PathBuf> {
        validate_name(name)?;
        let path = self.path_of(name);
        if !path.exists() {
            return Err(KeystoreError::NotFound {
                name: name.to_string(),
                dir: self.dir.clone(),
                available: self.names().unwrap_or_default(),
            });
        }
        Ok(path)
    }

    /// The address recorded for `name` (no password needed).
    pub fn address(&self, name: &str) -> Result<Address> {
        let path = self.existing_path(name)?;
        let text = fs::read_to_string(&path).map_err(io_err(&path))?;
        let value: serde_json::Value =
            serde_json::from_str(&text).map_err(|e| KeystoreError::Malformed {
                path: path.clone(),
                reason: e.to_string(),
            })?;
        let address = value
            .get("address")
            .and_then(|a| a.as_str())
            .ok_or_else(|| KeystoreError::Malformed {
                path: path.clone(),
                reason: "missing the \"address\" field".into(),
            })?;
        let with_prefix = if address.starts_with("0x") {
            address.to_string()
        } else {
            format!("0x{address}")
        };
        with_prefix.parse().map_err(|e| KeystoreError::Malformed {
            path,
            reason: format!("bad \"address\" field: {e}"),
        })
    }

    /// Encrypts and stores `key` under `name`. Fails, writing nothing, if the name is taken.
    pub fn insert(&self, name: &str, key: &PrivateKey, password: &[u8]) -> Result<KeyEntry> {
        let path = self.free_path(name)?;
        let address = key.address();
        // eth-keystore writes into a directory; use a private scratch directory on the same
        // filesystem, then publish the finished file with one atomic, non-clobbering rename.
        let scratch = tempfile::Builder::new()
            .prefix(".tmp-")
            .tempdir_in(&self.dir)
            .map_err(io_err(&self.dir))?;
        eth_keystore::encrypt_key(
            scratch.path(),
            &mut rand::thread_rng(),
            key.to_bytes().as_ref(),
            password,
            Some("key"),
        )
        .map_err(|e| KeystoreError::Library(e.to_string()))?;
        let written = scratch.path().join("key");
        let text = fs::read_to_string(&written).map_err(io_err(&written))?;
        let mut json: serde_json::Value =
            serde_json::from_str(&text).map_err(|e| KeystoreError::Library(e.to_string()))?;
        if let Some(object) = json.as_object_mut() {
            object.insert(
                "address".into(),
                serde_json::Value::String(hex_lower(&address)),
            );
        }
        let body =
            serde_json::to_vec_pretty(&json).map_err(|e| KeystoreError::Library(e.to_string()))?;
        self.publish(&path, &body)?;
        Ok(KeyEntry {
            name: name.to_string(),
            address,
        })
    }

    /// Checks that `name` is valid and unused, so callers can fail before prompting.
    pub fn ensure_available(&self, name: &str) -> Result<()> {
        self.free_path(name).map(|_| ())
    }

    /// The path for a new key `name`, or why it cannot be used.
    fn free_path(&self, name: &str) -> Result<PathBuf> {
        validate_name(name)?;
        let path = self.path_of(name);
        if path.exists() {
            return Err(KeystoreError::AlreadyExists {
                name: name.to_string(),
                address: self
                    .address(name)
                    .map(|a| a.to_string())
                    .unwrap_or_else(|_| "unreadable".into()),
            });
        }
        Ok(path)
    }

    fn publish(&self, path: &Path, body: &[u8]) -> Result<()> {
        let mut file = tempfile::Builder::new()
            .prefix(".tmp-")
            .tempfile_in(&self.dir)
            .map_err(io_err(&self.dir))?;
        set_mode(file.path(), 0o600)?;
        file.write_all(body).map_err(io_err(path))?;
        file.as_file().sync_all().map_err(io_err(path))?;
        file.persist_noclobber(path).map_err(|e| {
            if e.error.kind() == std::io::ErrorKind::AlreadyExists {
                KeystoreError::AlreadyExists {
                    name: path
                        .file_stem()
                        .map(|s| s.to_string_lossy().into_owned())
                        .unwrap_or_default(),
                    address: "unknown".into(),
                }
            } else {
                KeystoreError::Io {
                    path: path.to_path_buf(),
                    source: e.error,
                }
            }
        })?;
        Ok(())
    }

    /// Imports an existing v3 keystore document (geth, Foundry, MetaMask…) under `name`. The
    /// document is decrypted with `password` to prove it is usable, then stored re-encrypted
    /// with the same password in the standard Cowboy form.
    pub fn import_json(
        &self,
        name: &str,
        text: &str,
        origin: &Path,
        password: &[u8],
    ) -> Result<KeyEntry> {
        // Report a name clash before spending a scrypt on the import.
        self.free_path(name)?;
        let key = decrypt_json(
            text,
            origin,
            password,
            &format!("keystore {}", origin.display()),
        )?;
        self.insert(name, &key, password)
    }

    /// Decrypts the key stored under `name`.
    pub fn load(&self, name: &str, password: &[u8]) -> Result<PrivateKey> {
        let path = self.existing_path(name)?;
        let text = fs::read_to_string(&path).map_err(io_err(&path))?;
        decrypt_json(&text, &path, password, &format!("key {name:?}"))
    }

    /// The stored v3 keystore JSON of `name`, exactly as on disk.
    pub fn export(&self, name: &str) -> Result<String> {
        let path = self.existing_path(name)?;
        fs::read_to_string(&path).map_err(io_err(&path))
    }

    /// Deletes the key stored under `name`.
    pub fn delete(&self, name: &str) -> Result<KeyEntry> {
        let address = self.address(name)?;
        let path = self.existing_path(name)?;
        fs::remove_file(&path).map_err(io_err(&path))?;
        Ok(KeyEntry {
            name: name.to_string(),
            address,
        })
    }
}

/// Decrypts a v3 keystore JSON document read from `origin` (used in messages) with `password`.
/// The document is validated first; parameters outside sane bounds are refused.
pub fn decrypt_json(text: &str, origin: &Path, password: &[u8], what: &str) -> Result<PrivateKey> {
    let malformed = |reason: String| KeystoreError::Malformed {
        path: origin.to_path_buf(),
        reason,
    };
    let keystore: EthKeystore = serde_json::from_str(text).map_err(|e| malformed(e.to_string()))?;
    if keystore.version != 3 {
        return Err(malformed(format!(
            "version is {}, expected 3",
            keystore.version
        )));
    }
    let crypto = &keystore.crypto;
    if crypto.cipher != "aes-128-ctr" {
        return Err(malformed(format!(
            "cipher {:?} is not supported (expected \"aes-128-ctr\")",
            crypto.cipher
        )));
    }
    if crypto.cipherparams.iv.len() != 16 {
        return Err(malformed("cipherparams.iv must be 16 bytes".into()));
    }
    if crypto.ciphertext.len() != 32 {
        return Err(malformed(
            "ciphertext must be 32 bytes (a secp256k1 key)".into(),
        ));
    }
    if crypto.mac.len() != 32 {
        return Err(malformed("mac must be 32 bytes".into()));
    }
    match &crypto.kdfparams {
        KdfparamsType::Scrypt { dklen, n, p, r, .. } => {
            if *dklen != 32 {
                return Err(malformed("kdfparams.dklen must be 32".into()));
            }
            if !n.is_power_of_two() || *n < 2 {
                return Err(malformed(format!(
                    "scrypt n = {n} is not a power of two ≥ 2"
                )));
            }
            if *r == 0 || *p == 0 || *p > 16 {
                return Err(malformed(format!(
                    "scrypt r = {r}, p = {p} are out of range"
                )));
            }
            if 128 * u64::from(*r) * u64::from(*n) > MAX_SCRYPT_MEMORY {
                return Err(malformed(format!(
                    "scrypt n = {n}, r = {r} would need more than 256 MiB of memory"
                )));
            }
        }
        KdfparamsType::Pbkdf2 { c, dklen, prf, .. } => {
            if *dklen != 32 {
                return Err(malformed("kdfparams.dklen must be 32".into()));
            }
            if prf != "hmac-sha256" {
                return Err(malformed(format!("pbkdf2 prf {prf:?} is not supported")));
            }
            if *c == 0 || *c > MAX_PBKDF2_ROUNDS {
                return Err(malformed(format!("pbkdf2 c = {c} is out of range")));
            }
        }
    }
    // eth-keystore decrypts from a path: hand it the validated text, never the original file,
    // which could have changed since it was read.
    let mut scratch = tempfile::NamedTempFile::new().map_err(io_err(origin))?;
    scratch
        .write_all(text.as_bytes())
        .map_err(io_err(scratch.path()))?;
    let secret = zeroize::Zeroizing::new(
        eth_keystore::decrypt_key(scratch.path(), password).map_err(|e| match e {
            EthError::MacMismatch => KeystoreError::WrongPassword {
                what: what.to_string(),
            },
            other => KeystoreError::Library(other.to_string()),
        })?,
    );
    Ok(PrivateKey::from_bytes(&secret)?)
}

fn hex_lower(address: &Address) -> String {
    address.to_string().trim_start_matches("0x").to_string()
}

#[cfg(unix)]
fn set_mode(path: &Path, mode: u32) -> Result<()> {
    use std::os::unix::fs::PermissionsExt;
    fs::set_permissions(path, fs::Permissions::from_mode(mode)).map_err(io_err(path))
}

#[cfg(not(unix))]
fn set_mode(_: &Path, _: u32) -> Result<()> {
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn insert_load_list_delete() {
        let home = tempfile::tempdir().unwrap();
        let ks = Keystore::open(home.path()).unwrap();
        let key = PrivateKey::from_hex(&"11".repeat(32)).unwrap();
        let entry = ks.insert("alice", &key, b"pw").unwrap();
        assert_eq!(
            entry.address.to_string(),
            "0x19e7e376e7c213b7e7e7e46cc70a5dd086daff2a"
        );
        assert!(matches!(
            ks.insert("alice", &key, b"pw"),
            Err(KeystoreError::AlreadyExists { .. })
        ));
        assert_eq!(ks.list().unwrap(), vec![entry.clone()]);
        assert_eq!(ks.load("alice", b"pw").unwrap().address(), entry.address);
        assert!(matches!(
            ks.load("alice", b"wrong"),
            Err(KeystoreError::WrongPassword { .. })
        ));
        let text = ks.export("alice").unwrap();
        assert!(!text.contains(&"11".repeat(32)));
        ks.delete("alice").unwrap();
        assert!(matches!(
            ks.load("alice", b"pw"),
            Err(KeystoreError::NotFound { .. })
        ));
        // No scratch files are left behind.
        assert_eq!(fs::read_dir(ks.dir()).unwrap().count(), 0);
    }

    #[test]
    fn names_are_checked() {
        for bad in ["", "../x", "a/b", ".hidden", "x y", &"a".repeat(65)] {
            assert!(validate_name(bad).is_err(), "{bad:?}");
        }
        for good in ["alice", "dev-1", "a.b_c", "0"] {
            assert!(validate_name(good).is_ok(), "{good:?}");
        }
    }

    #[test]
    fn hostile_keystores_are_refused_before_decryption() {
        let key = |kdf: &str| {
            format!(
                r#"{{"crypto":{{"cipher":"aes-128-ctr","cipherparams":{{"iv":"{iv}"}},"ciphertext":"{ct}","kdf":"scrypt","kdfparams":{kdf},"mac":"{mac}"}},"id":"6c4485f3-3cc0-4081-848e-8bf489f2c262","version":3}}"#,
                iv = "00".repeat(16),
                ct = "00".repeat(32),
                mac = "00".repeat(32),
            )
        };
        let path = Path::new("test.json");
        for kdf in [
            format!(
                r#"{{"dklen":32,"n":1073741824,"p":1,"r":8,"salt":"{}"}}"#,
                "00".repeat(32)
            ),
            format!(
                r#"{{"dklen":16,"n":8192,"p":1,"r":8,"salt":"{}"}}"#,
                "00".repeat(32)
            ),
            format!(
                r#"{{"dklen":32,"n":1000,"p":1,"r":8,"salt":"{}"}}"#,
                "00".repeat(32)
            ),
        ] {
            let err = decrypt_json(&key(&kdf), path, b"pw", "test").unwrap_err();
            assert!(matches!(err, KeystoreError::Malformed { .. }), "{err}");
        }
        let short_iv = key(&format!(
            r#"{{"dklen":32,"n":8192,"p":1,"r":8,"salt":"{}"}}"#,
            "00".repeat(32)
        ))
        .replace(&"00".repeat(16), "00");
        assert!(matches!(
            decrypt_json(&short_iv, path, b"pw", "test"),
            Err(KeystoreError::Malformed { .. })
        ));
    }
}

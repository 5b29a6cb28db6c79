//! `$COWBOY_HOME/config.toml`: named profiles (RPC URL, account, chain id, faucet URL) so a
//! command needs no connection flags. Precedence, highest first: the command-line flag, its
//! environment variable (`COWBOY_RPC_URL`, `COWBOY_ACCOUNT`, `COWBOY_FAUCET_URL`), the profile
//! chosen with `--profile`/`COWBOY_PROFILE` (else the file's `default_profile`), the built-in
//! default.
//!
//! ```toml
//! default_profile = "local"
//!
//! [profiles.local]
//! rpc_url = "http://127.0.0.1:8545"
//! account = "dev:0"
//! chain_id = 31337
//! faucet_url = "http://127.0.0.1:8645"
//! ```

use anyhow::{Context as _, Result, bail};
use serde::{Deserialize, Serialize};
use std::{collections::BTreeMap, path::Path};

/// The config file's name under the Cowboy home.
pub const FILE: &str = "config.toml";

/// The whole file.
#[derive(Clone, Debug, Default, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ConfigFile {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default_profile: Option<String>,
    #[serde(default)]
    pub profiles: BTreeMap<String, Profile>,
}

/// Connection settings under one name.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Profile {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rpc_url: Option<String>,
    /// A keystore name, or `dev:N` for dev account N.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub account: Option<String>,
    /// When set, commands refuse to send to a node of another chain.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chain_id: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub faucet_url: Option<String>,
}

impl ConfigFile {
    /// Reads `home/config.toml`; a missing file is an empty config.
    pub fn load(home: &Path) -> Result<Self> {
        let path = home.join(FILE);
        let text = match std::fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Self::default()),
            Err(e) => return Err(e).with_context(|| format!("cannot read {}", path.display())),
        };
        toml::from_str(&text).with_context(|| {
            format!(
                "{} is not a valid Cowboy config (see `cowboy config --help`)",
                path.display()
            )
        })
    }

    /// Writes `home/config.toml` atomically.
    pub fn save(&self, home: &Path) -> Result<()> {
        cowboy_keystore::private_fs::create_dir(home)
            .with_context(|| format!("cannot create {}", home.display()))?;
        let path = home.join(FILE);
        let text = toml::to_string_pretty(self).context("cannot serialise the config")?;
        cowboy_keystore::private_fs::write(&path, text.as_bytes())
            .with_context(|| format!("cannot write {}", path.display()))
    }

    /// The profile `requested` names (an error if it does not exist), else the default
    /// profile, else none.
    pub fn select(&self, requested: Option<&str>) -> Result<Option<(String, Profile)>> {
        let name = match requested {
            Some(n) => n.to_string(),
            None => match &self.default_profile {
                Some(n) => n.clone(),
                None => return Ok(None),
            },
        };
        match self.profiles.get(&name) {
            Some(p) => Ok(Some((name, p.clone()))),
            None => {
                let known: Vec<&str> = self.profiles.keys().map(String::as_str).collect();
                bail!(
                    "no profile {name:?} in the config (profiles: {}); create it with `cowboy config set {name} rpc_url URL`",
                    if known.is_empty() {
                        "none".to_string()
                    } else {
                        known.join(", ")
                    }
                )
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_and_selects() {
        let dir = tempfile::tempdir().expect("tempdir");
        let mut c = ConfigFile::default();
        c.profiles.insert(
            "local".into(),
            Profile {
                rpc_url: Some("http://127.0.0.1:8545".into()),
                account: Some("dev:0".into()),
                chain_id: Some(31_337),
                faucet_url: None,
            },
        );
        c.default_profile = Some("local".into());
        c.save(dir.path()).expect("save");
        let back = ConfigFile::load(dir.path()).expect("load");
        assert_eq!(
            back.select(None).expect("select").map(|p| p.0),
            Some("local".into())
        );
        assert!(back.select(Some("prod")).is_err());
    }
}

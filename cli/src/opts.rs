//! Options shared by every command, defined once: output format, the Cowboy home directory and
//! how to get a signing key.

use anyhow::{Context as _, Result};
use clap::Args;
use cowboy_crypto::PrivateKey;
use cowboy_keystore::Keystore;
use std::path::PathBuf;

/// Options accepted by every command.
#[derive(Args, Debug, Clone)]
pub struct GlobalArgs {
    /// Print one JSON document instead of human-readable text.
    #[arg(long, global = true)]
    pub json: bool,

    /// Cowboy home directory (keystore, config, devnets).
    #[arg(
        long,
        global = true,
        env = "COWBOY_HOME",
        value_name = "DIR",
        hide_env_values = true
    )]
    pub home: Option<PathBuf>,

    /// Say more on stderr: `-v` names the node each command talks to (and where its URL came
    /// from).
    #[arg(short = 'v', long, action = clap::ArgAction::Count, global = true)]
    pub verbose: u8,

    /// Use this profile from `$COWBOY_HOME/config.toml` (default: its `default_profile`).
    #[arg(
        long,
        global = true,
        env = "COWBOY_PROFILE",
        value_name = "NAME",
        hide_env_values = true
    )]
    pub profile: Option<String>,
}

impl GlobalArgs {
    /// The home directory: `--home`, `$COWBOY_HOME`, else `~/.cowboy`.
    pub fn home(&self) -> Result<PathBuf> {
        if let Some(home) = &self.home {
            return Ok(home.clone());
        }
        std::env::home_dir()
            .map(|h| h.join(".cowboy"))
            .context("cannot find your home directory; set COWBOY_HOME or pass --home DIR")
    }

    /// The selected profile (`--profile`, else the config's default), with its name.
    pub fn profile(&self) -> Result<Option<(String, crate::config::Profile)>> {
        crate::config::ConfigFile::load(&self.home()?)?.select(self.profile.as_deref())
    }

    /// The keystore under the home directory.
    pub fn keystore(&self) -> Result<Keystore> {
        Ok(Keystore::open(&self.home()?)?)
    }
}

/// Where a keystore password comes from.
#[derive(Args, Debug, Clone, Default)]
pub struct PasswordArgs {
    /// Read the keystore password from this file (one trailing newline is ignored).
    /// Otherwise `$COWBOY_PASSWORD`, otherwise an interactive prompt.
    #[arg(long, value_name = "FILE")]
    pub password_file: Option<PathBuf>,
}

/// How a command gets the key it signs with.
#[derive(Args, Debug, Clone)]
pub struct SignerArgs {
    /// Sign with this key from the keystore (see `cowboy keys list`), or `dev:N` for dev
    /// account N of the published dev mnemonic (devnets only: those keys are public).
    #[arg(
        long,
        short = 'a',
        env = "COWBOY_ACCOUNT",
        value_name = "NAME",
        add = clap_complete::ArgValueCandidates::new(crate::completion::accounts)
    )]
    pub account: Option<String>,

    /// Sign with this raw private key (hex). Prefer --account: a key on the command line is
    /// visible to other users of the machine.
    #[arg(
        long,
        env = "COWBOY_PRIVATE_KEY",
        value_name = "HEX",
        hide_env_values = true
    )]
    pub private_key: Option<String>,

    #[command(flatten)]
    pub password: PasswordArgs,
}

impl SignerArgs {
    /// Loads the signing key, decrypting the keystore if needed.
    /// The signer's address, without asking for a password (a keystore file names its
    /// address).
    pub fn address(&self, global: &GlobalArgs) -> Result<cowboy_types::Address> {
        let from_profile = match (&self.account, &self.private_key) {
            (None, None) => global.profile()?.and_then(|(_, p)| p.account),
            _ => None,
        };
        match self.account.as_ref().or(from_profile.as_ref()) {
            Some(name) if !name.starts_with("dev:") && self.private_key.is_none() => {
                Ok(global.keystore()?.address(name)?)
            }
            _ => Ok(self.key(global)?.address()),
        }
    }

    pub fn key(&self, global: &GlobalArgs) -> Result<PrivateKey> {
        let from_profile = match (&self.account, &self.private_key) {
            (None, None) => global.profile()?.and_then(|(_, p)| p.account),
            _ => None,
        };
        match (
            self.account.as_ref().or(from_profile.as_ref()),
            &self.private_key,
        ) {
            (Some(_), Some(_)) => {
                anyhow::bail!("both --account and --private-key were given; choose one way to sign")
            }
            (Some(name), None) if name.starts_with("dev:") => {
                let index = &name["dev:".len()..];
                let index: u32 = index.parse().with_context(|| {
                    format!("--account dev:{index}: expected dev:N with N a dev account number")
                })?;
                Ok(cowboy_devnet::dev_key(index)?)
            }
            (None, Some(hex)) => {
                PrivateKey::from_hex(hex).context("--private-key is not a valid private key")
            }
            (Some(name), None) => {
                let keystore = global.keystore()?;
                // Fail on a missing key before asking for a password.
                keystore.address(name)?;
                let password = crate::password::existing(
                    &self.password,
                    &format!("Password for key {name:?}: "),
                )?;
                Ok(keystore.load(name, password.as_bytes())?)
            }
            (None, None) => anyhow::bail!(
                "no signing key: pass --account NAME (see `cowboy keys list`), --account dev:0 on a devnet, or --private-key HEX"
            ),
        }
    }
}

//! `cowboy config`: show and edit the profiles in `$COWBOY_HOME/config.toml`.

use crate::{
    config::{ConfigFile, FILE},
    opts::GlobalArgs,
    output,
};
use anyhow::{Result, bail};
use clap::Subcommand;

#[derive(Subcommand)]
#[command(
    after_help = "A profile holds rpc_url, account (a keystore name or dev:N), chain_id \
and faucet_url. Precedence: flag, then environment (COWBOY_RPC_URL, COWBOY_ACCOUNT, \
COWBOY_FAUCET_URL), then the profile (--profile / COWBOY_PROFILE, else default_profile), then \
the built-in default.\n\nExamples:\n  \
cowboy config set testnet rpc_url https://rpc.testnet.example\n  \
cowboy config set testnet account alice\n  \
cowboy config use testnet\n  \
cowboy config show"
)]
pub enum ConfigCommand {
    /// Print the config file's profiles and which one is selected.
    Show,
    /// Set one field of a profile (creating the profile if needed).
    Set {
        profile: String,
        /// rpc_url, account, chain_id or faucet_url.
        key: String,
        value: String,
    },
    /// Make a profile the default.
    Use { profile: String },
    /// Delete a profile.
    Remove { profile: String },
}

impl ConfigCommand {
    pub fn run(self, global: &GlobalArgs) -> Result<()> {
        let home = global.home()?;
        let mut config = ConfigFile::load(&home)?;
        match self {
            Self::Show => {
                let selected = config.select(global.profile.as_deref())?.map(|(n, _)| n);
                if global.json {
                    output::json(&crate::schema::ConfigShow {
                        path: home.join(FILE),
                        selected,
                        default_profile: config.default_profile.clone(),
                        profiles: config.profiles.clone(),
                    });
                } else if config.profiles.is_empty() {
                    outln!(
                        "no profiles in {} (`cowboy devnet up` writes one)",
                        home.join(FILE).display()
                    );
                } else {
                    for (name, p) in &config.profiles {
                        let mark = if selected.as_deref() == Some(name) {
                            "*"
                        } else {
                            " "
                        };
                        outln!("{mark} {name}");
                        let none = || "-".to_string();
                        outln!("    rpc_url    {}", p.rpc_url.clone().unwrap_or_else(none));
                        outln!("    account    {}", p.account.clone().unwrap_or_else(none));
                        outln!(
                            "    chain_id   {}",
                            p.chain_id.map_or_else(none, |c| c.to_string())
                        );
                        outln!(
                            "    faucet_url {}",
                            p.faucet_url.clone().unwrap_or_else(none)
                        );
                    }
                }
                return Ok(());
            }
            Self::Set {
                profile,
                key,
                value,
            } => {
                let p = config.profiles.entry(profile.clone()).or_default();
                match key.as_str() {
                    "rpc_url" => p.rpc_url = Some(value),
                    "account" => p.account = Some(value),
                    "faucet_url" => p.faucet_url = Some(value),
                    "chain_id" => {
                        p.chain_id =
                            Some(value.parse().map_err(|_| {
                                anyhow::anyhow!("chain_id {value:?} is not a number")
                            })?)
                    }
                    other => bail!(
                        "unknown profile key {other:?}; use rpc_url, account, chain_id or faucet_url"
                    ),
                }
                if config.default_profile.is_none() {
                    config.default_profile = Some(profile);
                }
            }
            Self::Use { profile } => {
                config.select(Some(&profile))?;
                config.default_profile = Some(profile);
            }
            Self::Remove { profile } => {
                if config.profiles.remove(&profile).is_none() {
                    bail!("no profile {profile:?}");
                }
                if config.default_profile.as_deref() == Some(&profile) {
                    config.default_profile = None;
                }
            }
        }
        config.save(&home)?;
        if !global.json {
            outln!("updated {}", home.join(FILE).display());
        }
        Ok(())
    }
}

//! `cowboy keys`: encrypted key management (Web3 Secret Storage v3 keystores, scrypt).

use crate::{
    cmd::read_input,
    opts::{GlobalArgs, PasswordArgs},
    output, password,
};
use anyhow::{Context as _, Result, bail};
use clap::{Args, Subcommand};
use cowboy_crypto::PrivateKey;
use std::{io::IsTerminal as _, path::PathBuf};

#[derive(Subcommand)]
pub enum KeysCommand {
    /// Generate a new key and store it encrypted.
    New(NewArgs),
    /// List stored keys and their addresses.
    List,
    /// Show one key's address.
    Show(NameArgs),
    /// Import a private key (hex, from a file or stdin) or an existing v3 keystore file.
    Import(ImportArgs),
    /// Print a key's encrypted v3 keystore JSON (or, if asked, the raw private key).
    Export(ExportArgs),
    /// Delete a stored key.
    Delete(DeleteArgs),
}

#[derive(Args)]
pub struct NewArgs {
    /// Name for the key (letters, digits, '_', '-', '.').
    name: String,
    #[command(flatten)]
    password: PasswordArgs,
}

#[derive(Args)]
pub struct NameArgs {
    /// The key's name.
    #[arg(add = clap_complete::ArgValueCandidates::new(crate::completion::key_names))]
    name: String,
}

#[derive(Args)]
#[command(after_help = "Examples:\n  \
    cowboy keys import alice --private-key-file key.hex\n  \
    echo $KEY_HEX | cowboy keys import carol --password-file pw.txt\n  \
    cowboy keys import dave --keystore ~/.foundry/keystores/dave")]
pub struct ImportArgs {
    /// Name for the imported key.
    name: String,
    /// Read the hex private key from this file (otherwise from stdin).
    #[arg(long, value_name = "FILE", conflicts_with = "keystore")]
    private_key_file: Option<PathBuf>,
    /// Import an existing v3 keystore JSON file (geth, Foundry, …); the password is that
    /// keystore's password and stays the same.
    #[arg(long, value_name = "FILE")]
    keystore: Option<PathBuf>,
    #[command(flatten)]
    password: PasswordArgs,
}

#[derive(Args)]
pub struct ExportArgs {
    /// The key's name.
    #[arg(add = clap_complete::ArgValueCandidates::new(crate::completion::key_names))]
    name: String,
    /// Print the raw private key in hex instead of the encrypted keystore. Anyone who sees it
    /// controls the account.
    #[arg(long)]
    unsafe_private_key: bool,
    #[command(flatten)]
    password: PasswordArgs,
}

#[derive(Args)]
pub struct DeleteArgs {
    /// The key's name.
    #[arg(add = clap_complete::ArgValueCandidates::new(crate::completion::key_names))]
    name: String,
    /// Do not ask for confirmation.
    #[arg(long, short = 'y')]
    yes: bool,
}

impl KeysCommand {
    pub fn run(self, global: &GlobalArgs) -> Result<()> {
        let keystore = global.keystore()?;
        match self {
            Self::New(args) => {
                keystore.ensure_available(&args.name)?;
                let password = password::new(&args.password)?;
                let entry =
                    keystore.insert(&args.name, &PrivateKey::random()?, password.as_bytes())?;
                if global.json {
                    output::json(&entry);
                } else {
                    outln!("Created key {:?}", entry.name);
                    outln!("Address: {}", entry.address);
                    outln!("Stored encrypted in {}", keystore.dir().display());
                }
            }
            Self::List => {
                let entries = keystore.list()?;
                if global.json {
                    output::json(&entries);
                } else if entries.is_empty() {
                    outln!(
                        "No keys in {}. Create one with `cowboy keys new NAME`.",
                        keystore.dir().display()
                    );
                } else {
                    let width = entries.iter().map(|e| e.name.len()).max().unwrap_or(0);
                    for e in entries {
                        outln!("{:width$}  {}", e.name, e.address);
                    }
                }
            }
            Self::Show(args) => {
                let address = keystore.address(&args.name)?;
                if global.json {
                    output::json(&cowboy_keystore::KeyEntry {
                        name: args.name,
                        address,
                    });
                } else {
                    outln!("{address}");
                }
            }
            Self::Import(args) => {
                keystore.ensure_available(&args.name)?;
                let entry = if let Some(path) = &args.keystore {
                    let text = std::fs::read_to_string(path)
                        .with_context(|| format!("cannot read keystore {}", path.display()))?;
                    let password = password::existing(
                        &args.password,
                        &format!("Password of {}: ", path.display()),
                    )?;
                    keystore.import_json(&args.name, &text, path, password.as_bytes())?
                } else {
                    let key = read_private_key(args.private_key_file.as_ref())?;
                    let password = password::new(&args.password)?;
                    keystore.insert(&args.name, &key, password.as_bytes())?
                };
                if global.json {
                    output::json(&entry);
                } else {
                    outln!("Imported key {:?}", entry.name);
                    outln!("Address: {}", entry.address);
                }
            }
            Self::Export(args) => {
                if args.unsafe_private_key {
                    let password = password::existing(
                        &args.password,
                        &format!("Password for key {:?}: ", args.name),
                    )?;
                    keystore.address(&args.name)?;
                    let key = keystore.load(&args.name, password.as_bytes())?;
                    let secret = zeroize::Zeroizing::new(format!("0x{}", hex_of(&key)));
                    if global.json {
                        output::json_secret(&crate::schema::KeysExport::RawKey(
                            crate::schema::ExportedKey {
                                name: args.name.clone(),
                                address: key.address(),
                                private_key: &secret,
                            },
                        ));
                    } else {
                        eprintln!(
                            "warning: this is the raw private key of {}; anyone who sees it controls the account",
                            key.address()
                        );
                        outln!("{}", secret.as_str());
                    }
                } else {
                    let text = keystore.export(&args.name)?;
                    match serde_json::from_str(&text) {
                        Ok(file) if global.json => {
                            output::json(&crate::schema::KeysExport::Keystore(file))
                        }
                        _ => outln!("{}", text.trim_end()),
                    }
                }
            }
            Self::Delete(args) => {
                let address = keystore.address(&args.name)?;
                if !args.yes {
                    if !std::io::stdin().is_terminal() {
                        bail!(
                            "deleting key {:?} ({address}) cannot be undone; pass --yes to confirm",
                            args.name
                        );
                    }
                    eprint!(
                        "Delete key {:?} ({address})? This cannot be undone. [y/N] ",
                        args.name
                    );
                    let mut answer = String::new();
                    std::io::stdin().read_line(&mut answer)?;
                    if !matches!(answer.trim(), "y" | "Y" | "yes") {
                        bail!("not deleted");
                    }
                }
                let entry = keystore.delete(&args.name)?;
                if global.json {
                    output::json(&entry);
                } else {
                    outln!("Deleted key {:?} ({})", entry.name, entry.address);
                }
            }
        }
        Ok(())
    }
}

fn hex_of(key: &PrivateKey) -> String {
    key.to_bytes().iter().map(|b| format!("{b:02x}")).collect()
}

fn read_private_key(file: Option<&PathBuf>) -> Result<PrivateKey> {
    let text = zeroize::Zeroizing::new(match file {
        Some(path) => std::fs::read_to_string(path)
            .with_context(|| format!("cannot read private key file {}", path.display()))?,
        None if std::io::stdin().is_terminal() => {
            rpassword::prompt_password("Private key (hex): ").context("cannot read the key")?
        }
        None => read_input("-", "the private key")?,
    });
    PrivateKey::from_hex(&text).context("cannot import the private key")
}

//! Keystore passwords: from `--password-file`, `$COWBOY_PASSWORD`, or an interactive prompt on
//! the terminal, in that order. Passwords are zeroised after use.

use crate::opts::PasswordArgs;
use anyhow::{Context as _, Result, bail};
use std::io::IsTerminal as _;
use zeroize::Zeroizing;

/// The environment variable holding a password for non-interactive use.
pub const PASSWORD_ENV: &str = "COWBOY_PASSWORD";

fn from_file_or_env(args: &PasswordArgs) -> Result<Option<Zeroizing<String>>> {
    if let Some(path) = &args.password_file {
        let mut text = Zeroizing::new(
            std::fs::read_to_string(path)
                .with_context(|| format!("cannot read --password-file {}", path.display()))?,
        );
        // Files written by editors and `echo` end in a newline that is not part of the password.
        if text.ends_with('\n') {
            text.pop();
            if text.ends_with('\r') {
                text.pop();
            }
        }
        return Ok(Some(text));
    }
    if let Ok(value) = std::env::var(PASSWORD_ENV) {
        return Ok(Some(Zeroizing::new(value)));
    }
    Ok(None)
}

fn prompt(message: &str) -> Result<Zeroizing<String>> {
    if !std::io::stderr().is_terminal() && !std::io::stdin().is_terminal() {
        bail!(
            "a password is needed but there is no terminal to ask on: pass --password-file FILE \
             or set {PASSWORD_ENV}"
        );
    }
    rpassword::prompt_password(message)
        .map(Zeroizing::new)
        .with_context(|| {
            format!("could not read a password from the terminal; pass --password-file FILE or set {PASSWORD_ENV}")
        })
}

/// The password of an existing keystore.
pub fn existing(args: &PasswordArgs, message: &str) -> Result<Zeroizing<String>> {
    match from_file_or_env(args)? {
        Some(p) => Ok(p),
        None => prompt(message),
    }
}

/// A password for a new keystore: asked twice when interactive; never empty.
pub fn new(args: &PasswordArgs) -> Result<Zeroizing<String>> {
    let password = match from_file_or_env(args)? {
        Some(p) => p,
        None => {
            let first = prompt("New password: ")?;
            let second = prompt("Repeat password: ")?;
            if *first != *second {
                bail!("the two passwords differ; nothing was written");
            }
            first
        }
    };
    if password.is_empty() {
        bail!("the password is empty; keys are always stored encrypted, so choose a password");
    }
    Ok(password)
}

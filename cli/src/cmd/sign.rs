//! `cowboy sign`: offline signing of a transaction described as JSON.

use crate::{
    cmd::{hex_argument, read_input},
    opts::{GlobalArgs, SignerArgs},
    output,
};
use anyhow::{Context as _, Result, anyhow};
use clap::Args;
use cowboy_types::{Transaction, TransactionJson};

#[derive(Args)]
#[command(after_help = "The JSON form of a transfer:\n  \
{\"chain_id\":42,\"nonce\":0,\"instruction\":{\"transfer\":{\"to\":\"0x2222222222222222222222222222222222222222\",\"amount\":\"1\"}},\n   \
\"cycles_limit\":50000,\"cells_limit\":50000,\"max_fee_per_cycle\":1,\"max_fee_per_cell\":1,\n   \
\"max_priority_fee_per_cycle\":0,\"max_priority_fee_per_cell\":0,\"metadata\":\"0x\"}\n\n\
Scalars are JSON numbers; amounts are decimal strings; `from` is derived from the key.\n\n\
Examples:\n  \
cowboy sign transfer.json --account alice\n  \
cat transfer.json | cowboy sign - --private-key 0xPRIVATE_KEY --json\n  \
cowboy sign --cosign $(cowboy sign cosigned.json -a alice) -a bob")]
pub struct SignArgs {
    /// Transaction JSON file, or `-` for stdin. With --cosign: a signed transaction in hex.
    #[arg(default_value = "-", value_name = "TX")]
    input: String,

    /// Add the key as a co-signer (`additional_signers`) of an already signed transaction given
    /// as hex, instead of signing JSON as the sender.
    #[arg(long)]
    cosign: bool,

    #[command(flatten)]
    signer: SignerArgs,
}

impl SignArgs {
    pub fn run(self, global: &GlobalArgs) -> Result<()> {
        let mut tx = if self.cosign {
            let bytes = hex_argument(&self.input, "the transaction to co-sign")?;
            Transaction::decode_strict(&bytes)
                .map_err(|e| anyhow!("cannot decode the transaction to co-sign: {e}"))?
        } else {
            let text = read_input(&self.input, "the transaction JSON")?;
            // Parse before unlocking the key so a typo never costs a password prompt.
            let parsed = TransactionJson::parse(&text).context("invalid transaction JSON")?;
            let key = self.signer.key(global)?;
            let mut tx = parsed
                .into_unsigned(key.address())
                .context("invalid transaction JSON")?;
            check_encodable(&tx)?;
            cowboy_crypto::sign_transaction(&mut tx, &key)?;
            return print(&tx, global);
        };
        let key = self.signer.key(global)?;
        cowboy_crypto::cosign_transaction(&mut tx, &key)?;
        print(&tx, global)
    }
}

/// Refuses a transaction whose encoding the chain would reject (e.g. an over-long method name),
/// naming the field, rather than signing bytes no node will accept.
fn check_encodable(tx: &Transaction) -> Result<()> {
    let bytes = tx.to_bytes();
    Transaction::decode_strict(&bytes)
        .map(|_| ())
        .map_err(|e| anyhow!("this transaction cannot be encoded canonically: {e}"))
}

fn print(tx: &Transaction, global: &GlobalArgs) -> Result<()> {
    let raw = hex::encode(tx.to_bytes());
    if global.json {
        output::json(&crate::schema::Signed {
            raw,
            hash: tx.digest(),
            from: tx.from,
        });
    } else {
        outln!("{raw}");
    }
    Ok(())
}

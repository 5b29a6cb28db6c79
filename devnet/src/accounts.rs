//! Dev accounts: keys derived from a published mnemonic, like anvil's and Hardhat's, so every
//! devnet funds the same addresses and scripts can rely on them. They are public knowledge —
//! never hold anything of value with them.

use cowboy_crypto::PrivateKey;
use cowboy_types::Address;
use serde::{Deserialize, Serialize};

/// The dev mnemonic (the one Foundry and Hardhat use), BIP-39, no passphrase.
pub const DEV_MNEMONIC: &str = "test test test test test test test test test test test junk";

/// Derivation path of dev account `i`: `m/44'/60'/0'/0/i` (Ethereum's, so the addresses equal
/// anvil's).
pub fn path(index: u32) -> String {
    format!("m/44'/60'/0'/0/{index}")
}

/// Index of the faucet's key on the dev mnemonic: far above the listed accounts so a user
/// spending `dev:0`…`dev:K` never races the faucet's nonces.
pub const FAUCET_INDEX: u32 = 1_000;

/// Index of the key that stakes and funds a devnet's runner fleet (`devnet up --runners`):
/// beside the faucet's, so neither races the other's nonces.
pub const RUNNER_FUNDER_INDEX: u32 = 1_001;

/// One funded dev account.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct DevAccount {
    pub index: u32,
    pub address: Address,
    /// Hex, `0x`-prefixed: dev keys are public by design.
    pub private_key: String,
}

/// Why a dev key could not be derived (only if the constants above were edited badly).
#[derive(Debug, thiserror::Error)]
#[error("cannot derive dev key {index}: {reason}")]
pub struct DeriveError {
    index: u32,
    reason: String,
}

/// The key of dev account `index`.
pub fn dev_key(index: u32) -> Result<PrivateKey, DeriveError> {
    let fail = |reason: String| DeriveError { index, reason };
    let mnemonic =
        bip39::Mnemonic::parse_normalized(DEV_MNEMONIC).map_err(|e| fail(e.to_string()))?;
    let seed = mnemonic.to_seed("");
    let path: bip32::DerivationPath = path(index).parse().map_err(|e| fail(format!("{e}")))?;
    let xprv = bip32::XPrv::derive_from_path(&seed, &path).map_err(|e| fail(format!("{e}")))?;
    PrivateKey::from_bytes(&xprv.to_bytes()).map_err(|e| fail(e.to_string()))
}

/// The first `count` dev accounts.
pub fn dev_accounts(count: u32) -> Result<Vec<DevAccount>, DeriveError> {
    (0..count)
        .map(|index| {
            let key = dev_key(index)?;
            Ok(DevAccount {
                index,
                address: key.address(),
                private_key: format!("0x{}", hex::encode(*key.to_bytes())),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dev_accounts_equal_anvils() {
        // anvil's published first two accounts for the same mnemonic and path.
        let accounts = dev_accounts(2).expect("derive");
        assert_eq!(
            accounts[0].address.to_string(),
            "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266"
        );
        assert_eq!(
            accounts[0].private_key,
            "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80"
        );
        assert_eq!(
            accounts[1].address.to_string(),
            "0x70997970c51812dc3a010c7d01b50e0d17dc79c8"
        );
    }
}

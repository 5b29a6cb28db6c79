//! An HTTP faucet for devnets: holds a funded key and sends rate-limited transfers (per address
//! and per IP). Arrives with the devnet issue; `cowboy faucet` asks it and `cowboy devnet up`
//! starts it.

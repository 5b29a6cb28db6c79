//! Local multi-node devnets: genesis with trusted-dealer threshold keys, node processes on
//! loopback, readiness detection and fault drills (stop/start a node). Arrives with the devnet
//! issue; `cowboy devnet` drives it.

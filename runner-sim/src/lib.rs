//! A simulator for off-chain runners: registers runners, follows job selection by the
//! consensus beacon and plays the commit-reveal protocol, so runner operators and actor authors
//! can exercise jobs locally. Arrives with the runner issue; `cowboy runner-sim` drives it.

//! Amounts as people write and read them: base units (`250000000`) or CBY (`1cby`, `0.5 CBY`),
//! exactly — no floating point anywhere, so `0.1cby` is 100,000,000 base units and never
//! 99,999,999.

/// Base units per CBY (Cowboy decision: 9 decimals, so the 10^9 CBY genesis supply of §8.1 and
/// decades of inflation fit the 8-byte amount of §2.5).
pub const BASE_UNITS_PER_CBY: u64 = 1_000_000_000;
/// Decimals of a CBY amount.
pub const CBY_DECIMALS: usize = 9;

/// Why an amount could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{text:?} is not an amount: {reason} (write base units, `250000000`, or CBY, `0.25cby`)")]
pub struct AmountError {
    text: String,
    reason: &'static str,
}

/// Reads an amount: an integer of base units, or a decimal CBY amount with a `cby` suffix
/// (any case, a space allowed before it; at most 9 decimals). `_` may separate digits.
pub fn parse_amount(text: &str) -> Result<u64, AmountError> {
    let fail = |reason| AmountError {
        text: text.to_string(),
        reason,
    };
    let trimmed = text.trim();
    let lower = trimmed.to_ascii_lowercase();
    let (number, cby) = match lower.strip_suffix("cby") {
        Some(n) => (n.trim_end(), true),
        None => (lower.as_str(), false),
    };
    let number = number.replace('_', "");
    if number.is_empty() {
        return Err(fail("no number"));
    }
    let (whole, fraction) = match number.split_once('.') {
        Some((w, f)) if cby => (w, f),
        Some(_) => return Err(fail("base units are whole; add `cby` for a decimal amount")),
        None => (number.as_str(), ""),
    };
    let digits = |s: &str| s.chars().all(|c| c.is_ascii_digit());
    if !digits(whole) || !digits(fraction) || (whole.is_empty() && fraction.is_empty()) {
        return Err(fail("expected digits"));
    }
    if fraction.len() > CBY_DECIMALS {
        return Err(fail("a CBY amount has at most 9 decimals"));
    }
    let too_large = || fail("above 2^64 - 1 base units");
    let whole: u64 = if whole.is_empty() {
        0
    } else {
        whole.parse().map_err(|_| too_large())?
    };
    if !cby {
        return Ok(whole);
    }
    let fraction: u64 = format!("{fraction:0<9}").parse().map_err(|_| too_large())?;
    whole
        .checked_mul(BASE_UNITS_PER_CBY)
        .and_then(|w| w.checked_add(fraction))
        .ok_or_else(too_large)
}

/// `base_units` as a CBY decimal, exactly and without trailing zeros (`1.5`, `0.000000001`,
/// `10000`).
pub fn cby_decimal(base_units: u64) -> String {
    let (whole, fraction) = (
        base_units / BASE_UNITS_PER_CBY,
        base_units % BASE_UNITS_PER_CBY,
    );
    if fraction == 0 {
        return whole.to_string();
    }
    let digits = format!("{fraction:09}");
    format!("{whole}.{}", digits.trim_end_matches('0'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn amounts_read_exactly() {
        for (text, want) in [
            ("250000000", 250_000_000),
            ("1cby", 1_000_000_000),
            ("0.5cby", 500_000_000),
            ("0.1 CBY", 100_000_000),
            (".25cby", 250_000_000),
            ("1_000cby", 1_000_000_000_000),
            ("0.000000001cby", 1),
            ("18446744073.709551615cby", u64::MAX),
            ("18446744073709551615", u64::MAX),
        ] {
            assert_eq!(parse_amount(text), Ok(want), "{text}");
        }
    }

    #[test]
    fn bad_amounts_say_why() {
        for (text, reason) in [
            ("1.5", "base units are whole"),
            ("0.0000000001cby", "at most 9 decimals"),
            ("18446744073.709551616cby", "above 2^64 - 1"),
            ("18446744073709551616", "above 2^64 - 1"),
            ("-1", "expected digits"),
            ("1e9", "expected digits"),
            ("cby", "no number"),
            ("", "no number"),
        ] {
            let e = parse_amount(text).expect_err(text).to_string();
            assert!(e.contains(reason), "{text}: {e}");
        }
    }

    #[test]
    fn amounts_print_exactly() {
        assert_eq!(cby_decimal(1_500_000_000), "1.5");
        assert_eq!(cby_decimal(1), "0.000000001");
        assert_eq!(cby_decimal(10_000 * BASE_UNITS_PER_CBY), "10000");
        assert_eq!(
            parse_amount(&format!("{}cby", cby_decimal(u64::MAX))),
            Ok(u64::MAX)
        );
    }
}

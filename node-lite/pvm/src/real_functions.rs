//! The real functions behind `math` and `float ** float`, identical on every platform and as
//! close to CPython on Linux as a platform-independent definition allows.
//!
//! CPython's `math` calls the C library, so its last bit depends on the platform. The PVM needs
//! one answer everywhere, and the answer developers check against is CPython on glibc. Two
//! definitions give it:
//!
//! - **Correctly rounded** (CORE-MATH, through `core_math`): `exp`, `exp2`, `log`, `log2`, `pow`,
//!   the circular functions and their inverses, `atan2`. A correctly rounded result is unique,
//!   so every correct build computes the same bits; glibc's own versions of these are within
//!   0.52 ulp, and agree with the correctly rounded result on all but about 1 argument in 1,000.
//! - **fdlibm's formulas** over those: glibc still computes `sinh`, `cosh`, `tanh`, `asinh`,
//!   `acosh`, `atanh` and `log10` with fdlibm's (Sun's) reductions to `exp`, `expm1`, `log` and
//!   `log1p`, so the same reductions over the functions above give glibc's results except where
//!   an inner function differs. `expm1`, `log1p`, `erf` and `erfc` stay on the pure-Rust `libm`
//!   (fdlibm's algorithms), which glibc shares.
//! - **glibc's own algorithm** where it is short, exact to transcribe and not correctly
//!   rounded: `cbrt`.
//! - **CPython's own algorithms** where CPython does not call the C library: `gamma` and
//!   `lgamma` (the Lanczos approximation of `mathmodule.c`), over the functions above.
//!
//! Measured against glibc 2.36 on 200,000 random arguments each (book: pvm.md, "Floating-point
//! functions"). Only pure arithmetic: nothing here reads a rounding mode, a table that changes,
//! or the host's C library.

/// `ln 2` rounded to double (fdlibm's `ln2`).
const LN2: f64 = core::f64::consts::LN_2;

/// The high 32 bits of a double, as fdlibm's thresholds are written.
fn high_word(x: f64) -> u32 {
    (x.to_bits() >> 32) as u32
}

pub fn exp(x: f64) -> f64 {
    core_math::exp(x)
}

pub fn exp2(x: f64) -> f64 {
    core_math::exp2(x)
}

pub fn expm1(x: f64) -> f64 {
    libm::expm1(x)
}

pub fn log(x: f64) -> f64 {
    core_math::log(x)
}

pub fn log2(x: f64) -> f64 {
    core_math::log2(x)
}

pub fn log1p(x: f64) -> f64 {
    libm::log1p(x)
}

pub fn pow(x: f64, y: f64) -> f64 {
    core_math::pow(x, y)
}

pub fn sin(x: f64) -> f64 {
    core_math::sin(x)
}

pub fn cos(x: f64) -> f64 {
    core_math::cos(x)
}

pub fn tan(x: f64) -> f64 {
    core_math::tan(x)
}

pub fn asin(x: f64) -> f64 {
    core_math::asin(x)
}

pub fn acos(x: f64) -> f64 {
    core_math::acos(x)
}

pub fn atan(x: f64) -> f64 {
    core_math::atan(x)
}

pub fn atan2(y: f64, x: f64) -> f64 {
    core_math::atan2(y, x)
}

/// glibc's `cbrt` (`sysdeps/ieee754/dbl-64/s_cbrt.c`), which is what CPython 3.11 on Linux
/// returns, and is not correctly rounded (`cbrt(27.0)` is `3.0000000000000004`): a degree-6
/// polynomial guess for the cube root of the mantissa in `[0.5, 1)`, one Halley step, then the
/// exponent divided by 3 with its remainder folded in as a power of `2^(1/3)`. Every step is
/// one IEEE operation in the order written, so the result is the same on every machine, and it
/// matched CPython on 150,000 random arguments of every exponent (book: pvm.md).
pub fn cbrt(x: f64) -> f64 {
    const CBRT2: f64 = 1.259_921_049_894_873_2;
    const SQR_CBRT2: f64 = 1.587_401_051_968_199_6;
    const FACTOR: [f64; 5] = [1.0 / SQR_CBRT2, 1.0 / CBRT2, 1.0, CBRT2, SQR_CBRT2];
    if x == 0.0 || !x.is_finite() {
        return x + x;
    }
    let (xm, xe) = libm::frexp(x.abs());
    let u = 0.354_895_765_043_919_84
        + ((1.508_191_937_815_849
            + ((-2.114_994_941_673_713
                + ((2.446_931_225_635_344_4
                    + ((-1.834_692_774_836_130_8
                        + (0.784_932_344_976_639_2 - 0.145_263_899_385_486_37 * xm) * xm)
                        * xm))
                    * xm))
                * xm))
            * xm);
    let t2 = u * u * u;
    // `xe % 3` is in -2..=2 (truncating, as C's `%`), so the index is in 0..=4.
    let factor = FACTOR[(2 + xe % 3) as usize];
    let ym = u * (t2 + 2.0 * xm) / (2.0 * t2 + xm) * factor;
    libm::ldexp(if x < 0.0 { -ym } else { ym }, xe / 3)
}

/// fdlibm's `log10`: `log10(m·2^k) = k·log10(2) + log(m)/ln(10)`, with `log10(2)` split in two so
/// that `k·log10_2hi` is exact and the mantissa scaled to `[1, 2)` or `[0.5, 1)` by the sign of
/// `k`.
pub fn log10(x: f64) -> f64 {
    const TWO54: f64 = 18_014_398_509_481_984.0;
    const IVLN10: f64 = f64::from_bits(0x3FDB_CB7B_1526_E50E);
    const LOG10_2HI: f64 = f64::from_bits(0x3FD3_4413_509F_6000);
    const LOG10_2LO: f64 = f64::from_bits(0x3D59_FEF3_11F1_2B36);
    let mut x = x;
    let mut hx = high_word(x) as i32;
    let mut k: i32 = 0;
    if hx < 0x0010_0000 {
        if x == 0.0 {
            return f64::NEG_INFINITY;
        }
        if hx < 0 {
            return f64::NAN;
        }
        // Subnormal: scale into the normal range first.
        k -= 54;
        x *= TWO54;
        hx = high_word(x) as i32;
    }
    if hx >= 0x7FF0_0000 {
        return x + x;
    }
    k += (hx >> 20) - 1023;
    let i = ((k as u32) & 0x8000_0000) >> 31;
    let mantissa_high = ((hx & 0x000F_FFFF) as u32) | ((0x3FF - i) << 20);
    let y = f64::from(k + i as i32);
    let m = f64::from_bits((u64::from(mantissa_high) << 32) | (x.to_bits() & 0xFFFF_FFFF));
    let z = y * LOG10_2LO + IVLN10 * log(m);
    z + y * LOG10_2HI
}

/// fdlibm's `sinh`: `expm1` below 22 (exact near 0), `exp` up to `ln(DBL_MAX)`, and
/// `exp(|x|/2)²/2` up to the overflow threshold.
pub fn sinh(x: f64) -> f64 {
    let ix = high_word(x) & 0x7FFF_FFFF;
    if ix >= 0x7FF0_0000 {
        return x + x;
    }
    let h = if x.is_sign_negative() { -0.5 } else { 0.5 };
    let a = x.abs();
    if ix < 0x4036_0000 {
        if ix < 0x3E30_0000 {
            return x;
        }
        let t = expm1(a);
        if ix < 0x3FF0_0000 {
            return h * (2.0 * t - t * t / (t + 1.0));
        }
        return h * (t + t / (t + 1.0));
    }
    if ix < 0x4086_2E42 {
        return h * exp(a);
    }
    if a.to_bits() <= 0x4086_33CE_8FB9_F87D {
        let w = exp(0.5 * a);
        let t = h * w;
        return t * w;
    }
    x * f64::INFINITY
}

/// fdlibm's `cosh`: `1 + expm1²/(2·(1+expm1))` below `ln(2)/2`, `(e^x + e^-x)/2` below 22,
/// `e^x/2` up to `ln(DBL_MAX)`, then `exp(|x|/2)²/2`.
pub fn cosh(x: f64) -> f64 {
    let ix = high_word(x) & 0x7FFF_FFFF;
    if ix >= 0x7FF0_0000 {
        return x * x;
    }
    let a = x.abs();
    if ix < 0x3FD6_2E43 {
        if ix < 0x3C80_0000 {
            return 1.0;
        }
        let t = expm1(a);
        let w = 1.0 + t;
        return 1.0 + (t * t) / (w + w);
    }
    if ix < 0x4036_0000 {
        let t = exp(a);
        return 0.5 * t + 0.5 / t;
    }
    if ix < 0x4086_2E42 {
        return 0.5 * exp(a);
    }
    if a.to_bits() <= 0x4086_33CE_8FB9_F87D {
        let w = exp(0.5 * a);
        let t = 0.5 * w;
        return t * w;
    }
    f64::INFINITY
}

/// fdlibm's `tanh`: from `expm1(±2|x|)` below 22, ±1 beyond.
pub fn tanh(x: f64) -> f64 {
    let jx = high_word(x);
    let ix = jx & 0x7FFF_FFFF;
    let negative = x.is_sign_negative();
    if ix >= 0x7FF0_0000 {
        return if x.is_nan() {
            x
        } else if negative {
            -1.0
        } else {
            1.0
        };
    }
    let z = if ix < 0x4036_0000 {
        if ix < 0x3C80_0000 {
            return x * (1.0 + x);
        }
        if ix >= 0x3FF0_0000 {
            let t = expm1(2.0 * x.abs());
            1.0 - 2.0 / (t + 2.0)
        } else {
            let t = expm1(-2.0 * x.abs());
            -t / (t + 2.0)
        }
    } else {
        1.0
    };
    if negative { -z } else { z }
}

/// fdlibm's `asinh`: `log(2|x|) ` above 2^28, `log(2|x| + 1/(√(x²+1)+|x|))` above 2, and
/// `log1p(|x| + x²/(1+√(1+x²)))` below.
pub fn asinh(x: f64) -> f64 {
    let ix = high_word(x) & 0x7FFF_FFFF;
    if ix >= 0x7FF0_0000 {
        return x + x;
    }
    if ix < 0x3E30_0000 {
        return x;
    }
    let a = x.abs();
    let w = if ix > 0x41B0_0000 {
        log(a) + LN2
    } else if ix > 0x4000_0000 {
        log(2.0 * a + 1.0 / ((x * x + 1.0).sqrt() + a))
    } else {
        let t = x * x;
        log1p(a + t / (1.0 + (1.0 + t).sqrt()))
    };
    if x.is_sign_negative() { -w } else { w }
}

/// fdlibm's `acosh`: NaN below 1, `log(2x)` above 2^28, `log(2x - 1/(x+√(x²-1)))` above 2,
/// `log1p(t + √(2t+t²))` with `t = x-1` below.
pub fn acosh(x: f64) -> f64 {
    let hx = high_word(x) as i32;
    if x.is_nan() {
        return x;
    }
    if hx < 0x3FF0_0000 {
        return f64::NAN;
    }
    if hx >= 0x41B0_0000 {
        if hx >= 0x7FF0_0000 {
            return x + x;
        }
        return log(x) + LN2;
    }
    if x == 1.0 {
        return 0.0;
    }
    if hx > 0x4000_0000 {
        let t = x * x;
        return log(2.0 * x - 1.0 / (x + (t - 1.0).sqrt()));
    }
    let t = x - 1.0;
    log1p(t + (2.0 * t + t * t).sqrt())
}

/// fdlibm's `atanh`: `log1p(2|x| + 2x²/(1-|x|))/2` below 1/2, `log1p(2|x|/(1-|x|))/2` below 1;
/// ±inf at ±1, NaN beyond.
pub fn atanh(x: f64) -> f64 {
    let a = x.abs();
    let t = if a < 0.5 {
        if a < f64::from_bits(0x3E30_0000_0000_0000) {
            return x;
        }
        let twice = a + a;
        0.5 * log1p(twice + twice * a / (1.0 - a))
    } else if a < 1.0 {
        0.5 * log1p((a + a) / (1.0 - a))
    } else if a == 1.0 {
        f64::INFINITY
    } else {
        return if x.is_nan() { x } else { f64::NAN };
    };
    t.copysign(x)
}

/// `n!` for `n` in `0..=22`, exact in a double: `gamma(n + 1)` at the integers.
const GAMMA_INTEGRAL: [f64; 23] = {
    let mut table = [1.0; 23];
    let mut n = 1;
    while n < 23 {
        table[n] = table[n - 1] * n as f64;
        n += 1;
    }
    table
};

/// The Lanczos approximation CPython's `mathmodule.c` uses for `gamma` and `lgamma` (g = 6.0247,
/// 13 terms, the numerator and denominator polynomials of Boost's rational form).
#[allow(clippy::excessive_precision)] // exactly representable: a dyadic rational
const LANCZOS_G: f64 = 6.024_680_040_776_729_583_740_234_375;
#[allow(clippy::excessive_precision)]
const LANCZOS_G_MINUS_HALF: f64 = 5.524_680_040_776_729_583_740_234_375;
#[allow(clippy::excessive_precision)]
const LANCZOS_NUM_COEFFS: [f64; 13] = [
    23_531_376_880.410_759_688_572_007_674_451_636_754_734_846_804_940,
    42_919_803_642.649_098_768_957_899_047_001_988_850_926_355_848_959,
    35_711_959_237.355_668_049_440_185_451_547_166_705_960_488_635_843,
    17_921_034_426.037_209_699_919_755_754_458_931_112_671_403_265_390,
    6_039_542_586.352_028_005_064_291_644_307_297_921_069_938_842_070_8,
    1_439_720_407.311_721_673_663_223_072_794_912_393_971_548_578_677_2,
    248_874_557.862_054_156_511_460_386_413_229_423_216_321_251_278_01,
    31_426_415.585_400_194_380_614_231_628_318_205_362_874_684_987_640,
    2_876_370.628_935_372_441_225_409_051_620_849_613_599_114_537_876_8,
    186_056.265_395_223_495_040_294_989_716_045_699_282_207_842_363_28,
    8_071.672_002_365_816_210_638_002_902_272_250_613_821_851_632_502_4,
    210.824_277_751_579_345_872_509_733_920_713_362_711_669_695_802_91,
    2.506_628_274_631_000_270_164_908_177_133_837_338_626_431_079_340_8,
];
const LANCZOS_DEN_COEFFS: [f64; 13] = [
    0.0,
    39_916_800.0,
    120_543_840.0,
    150_917_976.0,
    105_258_076.0,
    45_995_730.0,
    13_339_535.0,
    2_637_558.0,
    357_423.0,
    32_670.0,
    1_925.0,
    66.0,
    1.0,
];
#[allow(clippy::excessive_precision)]
const LOG_PI: f64 = 1.144_729_885_849_400_174_143_427_351_353_058_711_647;

/// The rational Lanczos sum for `x > 0`, evaluated in `x` below 5 and in `1/x` above (where
/// the powers of `x` would overflow), as CPython does.
fn lanczos_sum(x: f64) -> f64 {
    let (mut num, mut den) = (0.0, 0.0);
    if x < 5.0 {
        for i in (0..13).rev() {
            num = num * x + LANCZOS_NUM_COEFFS[i];
            den = den * x + LANCZOS_DEN_COEFFS[i];
        }
    } else {
        for i in 0..13 {
            num = num / x + LANCZOS_NUM_COEFFS[i];
            den = den / x + LANCZOS_DEN_COEFFS[i];
        }
    }
    num / den
}

/// `sin(πx)` for finite `x`, reduced to a quarter period first so that it is exact at the
/// integers and half-integers (CPython's `m_sinpi`).
fn sin_pi(x: f64) -> f64 {
    use core::f64::consts::PI;
    let y = libm::fmod(x.abs(), 2.0);
    let r = match libm::round(2.0 * y) as i32 {
        0 => sin(PI * y),
        1 => cos(PI * (y - 0.5)),
        // -sin(π(y-1)) would give -0.0 at y = 1.
        2 => sin(PI * (1.0 - y)),
        3 => -cos(PI * (y - 1.5)),
        _ => sin(PI * (y - 2.0)),
    };
    1.0f64.copysign(x) * r
}

/// `math.gamma` as CPython computes it (`m_tgamma`): exact factorials at the integers up to 23,
/// `1/x` near zero, the Lanczos approximation elsewhere, with the reflection formula below zero.
/// NaN at the poles, zero included (the caller's domain error); inf on overflow.
pub fn gamma(x: f64) -> f64 {
    use core::f64::consts::PI;
    if !x.is_finite() {
        return if x.is_nan() || x > 0.0 { x } else { f64::NAN };
    }
    // A pole, like the negative integers (CPython: "math domain error", not a range error).
    if x == 0.0 {
        return f64::NAN;
    }
    if x == libm::floor(x) {
        if x < 0.0 {
            return f64::NAN;
        }
        if x <= GAMMA_INTEGRAL.len() as f64 {
            return GAMMA_INTEGRAL[x as usize - 1];
        }
    }
    let absx = x.abs();
    if absx < 1e-20 {
        return 1.0 / x;
    }
    if absx > 200.0 {
        return if x < 0.0 {
            0.0 / sin_pi(x)
        } else {
            f64::INFINITY
        };
    }
    let y = absx + LANCZOS_G_MINUS_HALF;
    // z = the rounding error in y, scaled: a correction that keeps r accurate.
    let z = if absx > LANCZOS_G_MINUS_HALF {
        (y - absx) - LANCZOS_G_MINUS_HALF
    } else {
        (y - LANCZOS_G_MINUS_HALF) - absx
    };
    let z = z * LANCZOS_G / y;
    let mut r;
    if x < 0.0 {
        r = -PI / sin_pi(absx) / absx * exp(y) / lanczos_sum(absx);
        r -= z * r;
        if absx < 140.0 {
            r /= pow(y, absx - 0.5);
        } else {
            let sqrtpow = pow(y, absx / 2.0 - 0.25);
            r /= sqrtpow;
            r /= sqrtpow;
        }
    } else {
        r = lanczos_sum(absx) / exp(y);
        r += z * r;
        if absx < 140.0 {
            r *= pow(y, absx - 0.5);
        } else {
            let sqrtpow = pow(y, absx / 2.0 - 0.25);
            r *= sqrtpow;
            r *= sqrtpow;
        }
    }
    r
}

/// `math.lgamma` as CPython computes it (`m_lgamma`): 0 at 1 and 2, `-log|x|` near zero, the
/// log of the Lanczos form elsewhere, with the reflection formula below zero. NaN at the poles
/// (the caller's domain error).
pub fn lgamma(x: f64) -> f64 {
    if !x.is_finite() {
        return if x.is_nan() { x } else { f64::INFINITY };
    }
    if x == libm::floor(x) && x <= 2.0 {
        return if x <= 0.0 { f64::NAN } else { 0.0 };
    }
    let absx = x.abs();
    if absx < 1e-20 {
        return -log(absx);
    }
    let mut r = log(lanczos_sum(absx)) - LANCZOS_G;
    r += (absx - 0.5) * (log(absx + LANCZOS_G - 0.5) - 1.0);
    if x < 0.0 {
        r = LOG_PI - log(sin_pi(absx).abs()) - log(absx) - r;
    }
    r
}

pub fn erf(x: f64) -> f64 {
    libm::erf(x)
}

pub fn erfc(x: f64) -> f64 {
    libm::erfc(x)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Values CPython 3.11 on glibc 2.36 prints for these arguments (`repr(math.f(x))`); the
    /// pure-Rust libm used before gave a different last bit for all but the last two.
    #[test]
    fn last_bits_match_cpython_on_glibc() {
        type Case = (&'static str, fn(f64) -> f64, f64, f64);
        let cases: &[Case] = &[
            // CPython prints 2.718281828459045: the double nearest e.
            ("exp", exp, 1.0, core::f64::consts::E),
            ("exp", exp, -147.97812630112855, 5.418964488869826e-65),
            ("log", log, 2.7306212989512137, 1.0045291653374175),
            ("sin", sin, 5.514588947179979, -0.6951268650611359),
            ("cos", cos, 0.3288977826154649, 0.9463989346499031),
            ("asin", asin, 0.8117807100350789, 0.9471950413668949),
            ("atan", atan, 1.1158723033412943, 0.8401068886955706),
            ("log10", log10, 103.49901776838249, 2.0149362282490175),
            ("cosh", cosh, -8.02798579971176, 1532.7805616819287),
            ("asinh", asinh, -9.144318252859636, -2.9092563583288076),
            ("atanh", atanh, -0.9500316029668117, -1.8321050559089558),
        ];
        for (name, f, x, want) in cases {
            assert_eq!(
                f(*x).to_bits(),
                want.to_bits(),
                "{name}({x:?}) = {:?}",
                f(*x)
            );
        }
    }

    #[test]
    fn special_values() {
        assert!(log10(-1.0).is_nan());
        assert_eq!(log10(0.0), f64::NEG_INFINITY);
        assert_eq!(log10(f64::from_bits(1)), -323.3062153431158);
        assert_eq!(log10(1000.0), 3.0);
        assert_eq!(cosh(f64::NEG_INFINITY), f64::INFINITY);
        assert_eq!(sinh(-1000.0), f64::NEG_INFINITY);
        assert_eq!(tanh(f64::NEG_INFINITY), -1.0);
        assert_eq!(tanh(-0.0).to_bits(), (-0.0f64).to_bits());
        assert!(acosh(0.5).is_nan());
        assert_eq!(atanh(-1.0), f64::NEG_INFINITY);
        assert!(atanh(1.5).is_nan());
        assert_eq!(asinh(-0.0).to_bits(), (-0.0f64).to_bits());
    }
}

//! `str` methods whose RustPython versions give results CPython 3.11 does not.
//!
//! Each method here follows the corresponding function of CPython's `Objects/unicodeobject.c`
//! and the character properties `Tools/unicode/makeunicodedata.py` derives for it:
//!
//! - **case mappings** (`lower`, `capitalize`, `title`, `swapcase`): full mappings (`ß` → `SS`,
//!   `ﬁ` → `FI`), title case for the first letter, and the Greek final sigma (`Σ` → `ς` at the
//!   end of a word) wherever CPython lowers a character;
//! - **character classes** (`isalpha`, `isalnum`, `isdecimal`, `isdigit`, `isnumeric`,
//!   `isspace`): by general category and numeric type, not by Rust's `Alphabetic` and
//!   `Numeric` properties (`'Ⅻ'.isalpha()` is false, `'٣'.isdigit()` and `'一'.isnumeric()` are
//!   true);
//! - **whitespace** (`split()`, `rsplit()`, `strip()` and friends without an argument): CPython's
//!   whitespace, which includes the information separators `\x1c`–`\x1f`, `\x85`, `\xa0` and
//!   `\u3000`;
//! - **`zfill`** counts characters, not bytes;
//! - **`int(str)`**: any Unicode decimal digits and whitespace (`int('١٢٣') == 123`).
//!
//! The character data is the Unicode Character Database compiled into `icu_properties`, whose
//! version `Cargo.lock` pins: it is part of the chain's rules, like the rest of the PVM.
//! Strings holding lone surrogates keep RustPython's methods (they cannot be `&str`).

use icu_properties::{
    CodePointMapData, CodePointSetData,
    props::{CaseIgnorable, Cased, GeneralCategory, NumericType},
};
use rustpython_vm::{
    Py, PyObjectRef, PyResult, VirtualMachine,
    builtins::{PyStr, PyType},
    function::FuncArgs,
};
use unicode_casing::CharExt as _;

/// `Py_UNICODE_ISSPACE`: general category `Zs` or bidirectional class `WS`, `B` or `S`, which
/// is Unicode's `White_Space` plus the information separators U+001C–U+001F.
pub fn is_space(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

fn numeric_type(c: char) -> NumericType {
    CodePointMapData::<NumericType>::new().get(c)
}

/// `Py_UNICODE_ISDECIMAL`: numeric type `Decimal` (general category `Nd`).
pub fn is_decimal(c: char) -> bool {
    numeric_type(c) == NumericType::Decimal
}

/// `Py_UNICODE_ISDIGIT`: numeric type `Decimal` or `Digit` (`²`, `①`).
fn is_digit(c: char) -> bool {
    matches!(numeric_type(c), NumericType::Decimal | NumericType::Digit)
}

/// `Py_UNICODE_ISNUMERIC`: any numeric type (`½`, `Ⅻ`, `一`).
fn is_numeric(c: char) -> bool {
    numeric_type(c) != NumericType::None
}

/// `Py_UNICODE_ISALNUM`: alphabetic or numeric (`isdecimal` and `isdigit` imply numeric).
pub fn is_alnum(c: char) -> bool {
    is_alpha(c) || is_numeric(c)
}

/// `Py_UNICODE_ISALPHA`: general category `Lu`, `Ll`, `Lt`, `Lm` or `Lo`.
fn is_alpha(c: char) -> bool {
    matches!(
        CodePointMapData::<GeneralCategory>::new().get(c),
        GeneralCategory::UppercaseLetter
            | GeneralCategory::LowercaseLetter
            | GeneralCategory::TitlecaseLetter
            | GeneralCategory::ModifierLetter
            | GeneralCategory::OtherLetter
    )
}

/// The value of a decimal digit. Unicode encodes every run of decimal digits contiguously, in
/// order, starting with zero (a stability policy), so the value is the distance from the
/// run's start, modulo 10 (runs may follow each other, as the mathematical digits do).
pub fn decimal_value(c: char) -> Option<u32> {
    if !is_decimal(c) {
        return None;
    }
    let mut start = c as u32;
    while let Some(prev) = start.checked_sub(1).and_then(char::from_u32) {
        if !is_decimal(prev) {
            break;
        }
        start -= 1;
    }
    Some((c as u32 - start) % 10)
}

/// `_PyUnicode_TransformDecimalAndSpaceToASCII`, which `int()` and `float()` apply first:
/// decimal digits become ASCII digits and whitespace a space; any other non-ASCII character
/// becomes `?`, so the parse fails. `None` when the text is ASCII already.
pub fn decimal_and_space_to_ascii(s: &str) -> Option<String> {
    if s.is_ascii() {
        return None;
    }
    Some(
        s.chars()
            .map(|c| {
                if c.is_ascii() {
                    c
                } else if is_space(c) {
                    ' '
                } else if let Some(d) = decimal_value(c) {
                    char::from_digit(d, 10).unwrap_or('?')
                } else {
                    '?'
                }
            })
            .collect(),
    )
}

fn is_cased(c: char) -> bool {
    CodePointSetData::new::<Cased>().contains(c)
}

fn is_case_ignorable(c: char) -> bool {
    CodePointSetData::new::<CaseIgnorable>().contains(c)
}

/// `handle_capital_sigma`: the `Σ` at byte `i` of `s` lowers to `ς` when a cased letter
/// precedes it and none follows (case-ignorable characters in between are skipped).
fn lower_sigma(s: &str, i: usize) -> char {
    let before = s[..i].chars().rev().find(|c| !is_case_ignorable(*c));
    let mut final_sigma = before.is_some_and(is_cased);
    if final_sigma {
        let after = s[i + 'Σ'.len_utf8()..]
            .chars()
            .find(|c| !is_case_ignorable(*c));
        final_sigma = after.is_none_or(|c| !is_cased(c));
    }
    if final_sigma { 'ς' } else { 'σ' }
}

/// `lower_ucs4`: the full lowercase mapping of `c`, the character at byte `i` of `s`, with the
/// final sigma.
fn push_lower(out: &mut String, s: &str, i: usize, c: char) {
    if c == 'Σ' {
        out.push(lower_sigma(s, i));
    } else {
        out.extend(c.to_lowercase());
    }
}

fn lower(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for (i, c) in s.char_indices() {
        push_lower(&mut out, s, i, c);
    }
    out
}

fn capitalize(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for (i, c) in s.char_indices() {
        if i == 0 {
            out.extend(c.to_titlecase());
        } else {
            push_lower(&mut out, s, i, c);
        }
    }
    out
}

fn title(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut previous_is_cased = false;
    for (i, c) in s.char_indices() {
        if previous_is_cased {
            push_lower(&mut out, s, i, c);
        } else {
            out.extend(c.to_titlecase());
        }
        previous_is_cased = is_cased(c);
    }
    out
}

fn swapcase(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for (i, c) in s.char_indices() {
        if c.is_uppercase() {
            push_lower(&mut out, s, i, c);
        } else if c.is_lowercase() {
            out.extend(c.to_uppercase());
        } else {
            out.push(c);
        }
    }
    out
}

fn zfill(s: &str, width: usize) -> String {
    let len = s.chars().count();
    if len >= width {
        return s.to_owned();
    }
    let fill = width - len;
    let (sign, rest) = match s.chars().next() {
        Some(c @ ('+' | '-')) => (Some(c), &s[1..]),
        _ => (None, s),
    };
    let mut out = String::with_capacity(s.len() + fill);
    out.extend(sign);
    out.extend(std::iter::repeat_n('0', fill));
    out.push_str(rest);
    out
}

/// `expandtabs`: each tab becomes the spaces up to the next multiple of `tabsize` in its line
/// (a line ends at `\n` or `\r`); with a tab size of zero or less, tabs vanish.
fn expandtabs(s: &str, tabsize: isize) -> String {
    let mut out = String::with_capacity(s.len());
    let mut column: usize = 0;
    for c in s.chars() {
        if c == '\t' {
            if let Ok(size) = usize::try_from(tabsize)
                && size > 0
            {
                let spaces = size - column % size;
                out.extend(std::iter::repeat_n(' ', spaces));
                column += spaces;
            }
        } else {
            out.push(c);
            column += 1;
            if c == '\n' || c == '\r' {
                column = 0;
            }
        }
    }
    out
}

/// `split_whitespace`: runs of whitespace separate, none at either end; at most `max` splits,
/// the rest kept whole after its leading whitespace.
fn split_whitespace(s: &str, max: usize) -> Vec<&str> {
    let mut parts = Vec::new();
    let mut rest = s.trim_start_matches(is_space);
    while !rest.is_empty() {
        if parts.len() == max {
            parts.push(rest);
            break;
        }
        let end = rest.find(is_space).unwrap_or(rest.len());
        parts.push(&rest[..end]);
        rest = rest[end..].trim_start_matches(is_space);
    }
    parts
}

/// `rsplit_whitespace`: the mirror image, splitting from the right.
fn rsplit_whitespace(s: &str, max: usize) -> Vec<&str> {
    let mut parts = Vec::new();
    let mut rest = s.trim_end_matches(is_space);
    while !rest.is_empty() {
        if parts.len() == max {
            parts.push(rest);
            break;
        }
        let start = rest.rfind(is_space).map_or(0, |i| {
            i + rest[i..].chars().next().map_or(1, char::len_utf8)
        });
        parts.push(&rest[start..]);
        rest = rest[..start].trim_end_matches(is_space);
    }
    parts.reverse();
    parts
}

/// The receiver of a method call, when it is valid UTF-8 (no lone surrogates).
fn receiver(args: &FuncArgs) -> Option<&str> {
    args.args.first()?.downcast_ref::<PyStr>()?.to_str()
}

/// The integer argument at `position` (or keyword `name`), `default` when absent; beyond
/// `isize` it saturates, as the methods it feeds treat any such value alike.
fn index_arg(
    args: &FuncArgs,
    position: usize,
    name: &str,
    default: isize,
    vm: &VirtualMachine,
) -> PyResult<isize> {
    match args.args.get(position).or_else(|| args.kwargs.get(name)) {
        None => Ok(default),
        Some(n) => {
            let n = n.try_index(vm)?;
            Ok(n.as_bigint().try_into().unwrap_or(
                if n.as_bigint().sign() == malachite_bigint::Sign::Minus {
                    isize::MIN
                } else {
                    isize::MAX
                },
            ))
        }
    }
}

/// Replaces `str`'s methods with the ones above (before they are wrapped to be charged).
pub fn install(vm: &VirtualMachine) -> PyResult<()> {
    let str_type: &'static Py<PyType> = vm.ctx.types.str_type;
    let replace = |name: &'static str,
                   f: fn(&FuncArgs, &VirtualMachine) -> PyResult<Option<PyObjectRef>>|
     -> PyResult<()> {
        crate::patches::wrap_method(str_type, name, vm, move |args, original, vm| {
            match f(&args, vm)? {
                Some(result) => Ok(result),
                None => original.call(args, vm),
            }
        })
    };
    fn text(
        args: &FuncArgs,
        vm: &VirtualMachine,
        map: fn(&str) -> String,
    ) -> PyResult<Option<PyObjectRef>> {
        if args.args.len() != 1 || !args.kwargs.is_empty() {
            return Ok(None);
        }
        Ok(receiver(args).map(|s| vm.ctx.new_str(map(s)).into()))
    }
    fn class(
        args: &FuncArgs,
        vm: &VirtualMachine,
        test: fn(char) -> bool,
    ) -> PyResult<Option<PyObjectRef>> {
        if args.args.len() != 1 || !args.kwargs.is_empty() {
            return Ok(None);
        }
        Ok(receiver(args).map(|s| vm.ctx.new_bool(!s.is_empty() && s.chars().all(test)).into()))
    }
    replace("lower", |a, vm| text(a, vm, lower))?;
    replace("capitalize", |a, vm| text(a, vm, capitalize))?;
    replace("title", |a, vm| text(a, vm, title))?;
    replace("swapcase", |a, vm| text(a, vm, swapcase))?;
    replace("isalpha", |a, vm| class(a, vm, is_alpha))?;
    replace("isdecimal", |a, vm| class(a, vm, is_decimal))?;
    replace("isdigit", |a, vm| class(a, vm, is_digit))?;
    replace("isnumeric", |a, vm| class(a, vm, is_numeric))?;
    replace("isspace", |a, vm| class(a, vm, is_space))?;
    replace("isalnum", |a, vm| class(a, vm, is_alnum))?;
    replace("zfill", |a, vm| {
        let (Some(s), true) = (receiver(a), a.args.len() == 2 && a.kwargs.is_empty()) else {
            return Ok(None);
        };
        let width = usize::try_from(index_arg(a, 1, "width", 0, vm)?).unwrap_or(0);
        Ok(Some(vm.ctx.new_str(zfill(s, width)).into()))
    })?;
    replace("expandtabs", |a, vm| {
        let Some(s) = receiver(a) else {
            return Ok(None);
        };
        let size = index_arg(a, 1, "tabsize", 8, vm)?;
        Ok(Some(vm.ctx.new_str(expandtabs(s, size)).into()))
    })?;
    replace("split", |a, vm| whitespace(a, vm, split_whitespace))?;
    replace("rsplit", |a, vm| whitespace(a, vm, rsplit_whitespace))?;
    replace("strip", |a, vm| strip(a, vm, |s| s.trim_matches(is_space)))?;
    replace("lstrip", |a, vm| {
        strip(a, vm, |s| s.trim_start_matches(is_space))
    })?;
    replace("rstrip", |a, vm| {
        strip(a, vm, |s| s.trim_end_matches(is_space))
    })?;
    Ok(())
}

/// `split()`/`rsplit()` with `sep` absent or `None`: by CPython's whitespace, at most
/// `maxsplit` times (negative: no limit).
fn whitespace(
    args: &FuncArgs,
    vm: &VirtualMachine,
    split: for<'s> fn(&'s str, usize) -> Vec<&'s str>,
) -> PyResult<Option<PyObjectRef>> {
    let sep = args.args.get(1).or_else(|| args.kwargs.get("sep"));
    let Some(s) = receiver(args).filter(|_| sep.is_none_or(|s| vm.is_none(s))) else {
        return Ok(None);
    };
    let max = usize::try_from(index_arg(args, 2, "maxsplit", -1, vm)?).unwrap_or(usize::MAX);
    Ok(Some(strings(split(s, max), vm)))
}

/// `strip()` and friends without characters (or with `None`): CPython's whitespace.
fn strip(
    args: &FuncArgs,
    vm: &VirtualMachine,
    trim: fn(&str) -> &str,
) -> PyResult<Option<PyObjectRef>> {
    let no_chars = args.kwargs.is_empty()
        && (args.args.len() == 1 || (args.args.len() == 2 && vm.is_none(&args.args[1])));
    Ok(receiver(args)
        .filter(|_| no_chars)
        .map(|s| vm.ctx.new_str(trim(s)).into()))
}

fn strings(parts: Vec<&str>, vm: &VirtualMachine) -> PyObjectRef {
    vm.ctx
        .new_list(
            parts
                .into_iter()
                .map(|p| vm.ctx.new_str(p).into())
                .collect(),
        )
        .into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn case_mappings_follow_cpython() {
        assert_eq!(swapcase("ß"), "SS");
        assert_eq!(swapcase("İi"), "i\u{307}I");
        assert_eq!(swapcase("ΟΔΟΣ"), "οδος");
        assert_eq!(capitalize("ﬁ"), "Fi");
        assert_eq!(title("ΟΔΟΣ"), "Οδος");
        assert_eq!(lower("ΑΣ."), "ας.");
        assert_eq!(lower("ΣΑ"), "σα");
        assert_eq!(lower("Σ"), "σ");
    }

    #[test]
    fn digits_of_every_script_have_their_values() {
        assert_eq!(decimal_value('٣'), Some(3));
        assert_eq!(decimal_value('１'), Some(1));
        assert_eq!(decimal_value('𝟘'), Some(0));
        assert_eq!(decimal_value('𝟡'), Some(9));
        assert_eq!(decimal_value('𝟢'), Some(0));
        assert_eq!(decimal_value('²'), None);
        assert_eq!(
            decimal_and_space_to_ascii("\u{3000}١٢٣"),
            Some(" 123".into())
        );
    }

    #[test]
    fn whitespace_splits_like_cpython() {
        assert_eq!(split_whitespace("a\u{1c}b c", usize::MAX), ["a", "b", "c"]);
        assert_eq!(
            split_whitespace("  lead and trail  ", 1),
            ["lead", "and trail  "]
        );
        assert_eq!(
            rsplit_whitespace("  lead and trail  ", 1),
            ["  lead and", "trail"]
        );
        assert!(split_whitespace("   ", 0).is_empty());
        assert_eq!(zfill("٣", 3), "00٣");
        assert_eq!(zfill("-", 3), "-00");
        assert_eq!(expandtabs("x\ty\r\tz", 2), "x y\r  z");
        assert_eq!(expandtabs("a\tb", -3), "ab");
    }
}

//! The format-spec mini-language where RustPython's `__format__` differs from CPython 3.11's
//! (`Python/formatter_unicode.c`): specs a `str` cannot take, CPython's messages for malformed
//! specs, the `z` option, and the empty presentation type of floats with a precision
//! (`f"{1.0:.3}"` is `1.0`: like `g`, but with at least one digit after the point).
//!
//! Spec grammar: `[[fill]align][sign][z][#][0][width][grouping][.precision][type]`.

use rustpython_vm::{AsObject, PyObjectRef, PyResult, VirtualMachine, function::FuncArgs};

/// A spec split into its fields (best effort: `rest` is whatever follows the precision).
struct Spec {
    fill: Option<char>,
    align: Option<char>,
    sign: Option<char>,
    no_neg_zero: bool,
    alternate: bool,
    zero: bool,
    width: Option<usize>,
    grouping: Option<char>,
    precision: Option<String>,
    rest: String,
}

fn parse(spec: &str) -> Spec {
    let chars: Vec<char> = spec.chars().collect();
    let is_align = |c: char| matches!(c, '<' | '>' | '=' | '^');
    let (fill, align, mut i) = if chars.len() >= 2 && is_align(chars[1]) {
        (Some(chars[0]), Some(chars[1]), 2)
    } else if chars.first().is_some_and(|c| is_align(*c)) {
        (None, chars.first().copied(), 1)
    } else {
        (None, None, 0)
    };
    let sign = chars
        .get(i)
        .copied()
        .filter(|c| matches!(c, '+' | '-' | ' '));
    i += usize::from(sign.is_some());
    let mut flag = |c: char| {
        let found = chars.get(i) == Some(&c);
        i += usize::from(found);
        found
    };
    let no_neg_zero = flag('z');
    let alternate = flag('#');
    let zero = flag('0');
    let start = i;
    while chars.get(i).is_some_and(char::is_ascii_digit) {
        i += 1;
    }
    let width = (i > start)
        .then(|| chars[start..i].iter().collect::<String>().parse().ok())
        .flatten();
    let grouping = chars.get(i).copied().filter(|c| matches!(c, ',' | '_'));
    i += usize::from(grouping.is_some());
    let precision = if chars.get(i) == Some(&'.') {
        let start = i + 1;
        i = start;
        while chars.get(i).is_some_and(char::is_ascii_digit) {
            i += 1;
        }
        Some(chars[start..i].iter().collect())
    } else {
        None
    };
    Spec {
        fill,
        align,
        sign,
        no_neg_zero,
        alternate,
        zero,
        width,
        grouping,
        precision,
        rest: chars[i.min(chars.len())..].iter().collect(),
    }
}

/// `int`/`float` `__format__` where RustPython's result differs: the `z` option (negative zero
/// after rounding prints as zero) and a float's empty type with a precision. Formats the
/// number without its width through `original`, fixes it, then pads it as CPython does.
/// `None`: the original's result is CPython's.
pub fn numeric_fixup(
    args: &FuncArgs,
    spec: &str,
    original: &PyObjectRef,
    vm: &VirtualMachine,
) -> Option<PyResult> {
    let value = args.args.first()?;
    let is_float = value.class().is(vm.ctx.types.float_type);
    let p = parse(spec);
    let float_presentation = matches!(p.rest.as_str(), "e" | "E" | "f" | "F" | "g" | "G" | "%")
        || (is_float && p.rest.is_empty());
    if p.no_neg_zero && !float_presentation {
        if p.precision.is_some() {
            // CPython checks the precision first (RustPython cannot parse the `z`).
            return Some(Err(vm.new_value_error(
                "Precision not allowed in integer format specifier",
            )));
        }
        return Some(Err(vm.new_value_error(
            "Negative zero coercion (z) not allowed in integer format specifier",
        )));
    }
    let add_dot_zero =
        is_float && p.rest.is_empty() && p.precision.as_deref().is_some_and(|d| !d.is_empty());
    if !(p.no_neg_zero || add_dot_zero) || p.precision.as_deref() == Some("") {
        return None;
    }
    if p.zero && p.grouping.is_some() {
        // Zero padding with grouping separators: not reproduced; the original decides.
        return None;
    }
    let mut core_spec = String::new();
    core_spec.extend(p.sign);
    if p.alternate {
        core_spec.push('#');
    }
    if let Some(digits) = &p.precision {
        core_spec.push('.');
        // The empty type formats as `g` with at least one significant digit.
        core_spec.push_str(
            if add_dot_zero && digits.trim_start_matches('0').is_empty() {
                "1"
            } else {
                digits
            },
        );
    }
    core_spec.push_str(&p.rest);
    let core = match original.call((value.clone(), vm.ctx.new_str(core_spec.as_str())), vm) {
        Ok(s) => match s.str(vm) {
            Ok(s) => s.to_string(),
            Err(e) => return Some(Err(e)),
        },
        Err(e) => return Some(Err(e)),
    };
    let (mut sign, mut digits) = match core.chars().next() {
        Some(c @ ('+' | '-' | ' ')) => (Some(c), core[1..].to_owned()),
        _ => (None, core.clone()),
    };
    if add_dot_zero && digits.chars().all(|c| c.is_ascii_digit()) {
        digits.push_str(".0");
    }
    if let Some(separator) = p.grouping {
        // Separators go into the integer digits only (RustPython also put them into an
        // exponent: `1e,+16`).
        let int_len = digits.chars().take_while(char::is_ascii_digit).count();
        let (int_part, tail) = digits.split_at(int_len);
        let mut grouped = String::new();
        for (k, c) in int_part.chars().enumerate() {
            if k > 0 && (int_len - k) % 3 == 0 {
                grouped.push(separator);
            }
            grouped.push(c);
        }
        digits = grouped + tail;
    }
    if p.no_neg_zero
        && sign == Some('-')
        && digits.chars().all(|c| !c.is_ascii_digit() || c == '0')
        && digits.chars().any(|c| c.is_ascii_digit())
    {
        sign = match p.sign {
            Some('+') => Some('+'),
            Some(' ') => Some(' '),
            _ => None,
        };
    }
    let body: String = sign.into_iter().chain(digits.chars()).collect();
    let len = body.chars().count();
    let width = p.width.unwrap_or(0);
    if len >= width {
        return Some(Ok(vm.ctx.new_str(body).into()));
    }
    let (fill, align) = match (p.fill, p.align, p.zero) {
        (f, Some(a), _) => (f.unwrap_or(' '), a),
        (_, None, true) => ('0', '='),
        _ => (' ', '>'),
    };
    let pad = width - len;
    let fills = |n: usize| std::iter::repeat_n(fill, n).collect::<String>();
    let out = match align {
        '<' => format!("{body}{}", fills(pad)),
        '^' => format!("{}{body}{}", fills(pad / 2), fills(pad - pad / 2)),
        '=' => format!(
            "{}{}{digits}",
            sign.map(String::from).unwrap_or_default(),
            fills(pad)
        ),
        _ => format!("{}{body}", fills(pad)),
    };
    Some(Ok(vm.ctx.new_str(out).into()))
}

/// CPython's message for a spec its parser rejects, where RustPython says only "Invalid
/// format specifier": a `.` without digits, or characters left after the type.
pub fn malformed_spec_message(spec: &str, value_type: &str) -> String {
    if parse(spec)
        .precision
        .is_some_and(|digits| digits.is_empty())
    {
        return "Format specifier missing precision".to_owned();
    }
    format!("Invalid format specifier '{spec}' for object of type '{value_type}'")
}

/// CPython's error for a spec a `str` cannot take (`format('s', '+')`), which RustPython
/// formats anyway: sign, `z`, `#` and `=` alignment, checked in `format_string_internal`'s
/// order. Specs with another type, a grouping or a `.` without digits are left to the
/// original, whose errors are CPython's.
pub fn string_spec_error(spec: &str) -> Option<SpecError> {
    let p = parse(spec);
    if p.grouping.is_some() || p.precision.as_deref() == Some("") {
        return None;
    }
    match p.rest.chars().count() {
        0 => {}
        _ if p.rest == "s" => {}
        // One unknown type: the original's "Unknown format code" is CPython's.
        1 => return None,
        // More than a type left (`format('v', '!r')`, which RustPython formatted).
        _ => return Some(SpecError::Invalid),
    }
    let message = match (p.sign, p.no_neg_zero, p.alternate, p.align) {
        (Some(' '), ..) => "Space not allowed in string format specifier",
        (Some(_), ..) => "Sign not allowed in string format specifier",
        (None, true, ..) => "Negative zero coercion (z) not allowed in string format specifier",
        (None, false, true, _) => "Alternate form (#) not allowed in string format specifier",
        (None, false, false, Some('=')) => "'=' alignment not allowed in string format specifier",
        _ => return None,
    };
    Some(SpecError::Message(message))
}

/// Why [`string_spec_error`] refuses a spec.
pub enum SpecError {
    Message(&'static str),
    /// CPython's "Invalid format specifier '<spec>' for object of type 'str'".
    Invalid,
}

//! `str.format`'s markup, checked as CPython 3.11 walks it (`Objects/stringlib/unicode_format.h`):
//! the first error CPython would raise for the format string itself, and where.
//!
//! RustPython's parser reports most malformed format strings as "Unexpected error parsing
//! format string", accepts unknown conversions (`{!x}`), and words a missing positional
//! argument as "tuple index out of range". CPython raises each of these at the field it is
//! found in, after rendering the fields before it; the `str.format` wrapper (`sandbox.rs`)
//! renders that prefix first, so the earlier fields' own errors (and their `__format__` calls)
//! come first, as in CPython. What cannot be checked without running the actor's objects (an
//! attribute or item lookup, `__format__`) is left to the renderer; an error CPython finds
//! inside a field after some of that field's lookups (`{0[9]x}`) is reported before them.

/// An error of the format string: CPython's exception and message, and the byte offset of the
/// text the renderer must get through before CPython would raise it.
#[derive(Debug, PartialEq, Eq)]
pub struct FormatError {
    /// The format string up to here renders first.
    pub at: usize,
    pub kind: ErrorKind,
    pub message: String,
}

#[derive(Debug, PartialEq, Eq, Clone, Copy)]
pub enum ErrorKind {
    Value,
    Index,
}

/// How fields without a name are numbered (`AutoNumber`).
#[derive(Default)]
struct Numbering {
    /// `None` until the first numeric field; then whether fields are numbered automatically.
    automatic: Option<bool>,
    next: usize,
}

/// The first error CPython raises for `format` itself, when called with `positional`
/// positional arguments (`None`: `format_map`, which has none).
pub fn first_error(format: &str, positional: Option<usize>) -> Option<FormatError> {
    let mut numbering = Numbering::default();
    build(format, 0, format.len(), positional, 2, &mut numbering, None).err()
}

/// `build_string` over `format[start..end]`, `depth` levels of nesting left; `outer` is the
/// offset of the top-level field whose format spec this is.
fn build(
    format: &str,
    start: usize,
    end: usize,
    positional: Option<usize>,
    depth: u32,
    numbering: &mut Numbering,
    outer: Option<usize>,
) -> Result<(), FormatError> {
    let fail = |at: usize, kind: ErrorKind, message: String| FormatError {
        at: outer.unwrap_or(at),
        kind,
        message,
    };
    if depth == 0 {
        return Err(fail(
            start,
            ErrorKind::Value,
            "Max string recursion exceeded".into(),
        ));
    }
    let text = &format[..end];
    let char_at = |i: usize| text[i..].chars().next();
    let mut pos = start;
    while pos < end {
        let chunk = pos;
        let value_error = |message: &str| fail(chunk, ErrorKind::Value, message.into());
        // Literal text, up to a brace.
        let mut brace = None;
        while let Some(c) = char_at(pos) {
            pos += c.len_utf8();
            if c == '{' || c == '}' {
                brace = Some(c);
                break;
            }
        }
        let at_end = pos >= end;
        let doubled = brace.is_some() && char_at(pos) == brace;
        if brace == Some('}') && !doubled {
            return Err(value_error("Single '}' encountered in format string"));
        }
        if at_end && brace == Some('{') {
            return Err(value_error("Single '{' encountered in format string"));
        }
        if brace.is_none() || doubled {
            pos += usize::from(doubled);
            continue;
        }
        // A field: its name, up to `}`, `:` or `!` (a `[…]` may hold them).
        let name_start = pos;
        let mut last = None;
        while let Some(c) = char_at(pos) {
            pos += c.len_utf8();
            last = Some(c);
            match c {
                '{' => return Err(value_error("unexpected '{' in field name")),
                '[' => {
                    while let Some(c) = char_at(pos) {
                        if c == ']' {
                            break;
                        }
                        pos += c.len_utf8();
                    }
                }
                '}' | ':' | '!' => break,
                _ => {}
            }
        }
        let name_end = pos - last.map_or(0, char::len_utf8);
        let mut conversion = None;
        let mut spec = None;
        match last {
            Some('!' | ':') => {
                let mut has_spec = true;
                if last == Some('!') {
                    let Some(c) = char_at(pos) else {
                        return Err(value_error(
                            "end of string while looking for conversion specifier",
                        ));
                    };
                    conversion = Some(c);
                    pos += c.len_utf8();
                    if let Some(c) = char_at(pos) {
                        pos += c.len_utf8();
                        if c == '}' {
                            has_spec = false;
                        } else if c != ':' {
                            return Err(value_error("expected ':' after conversion specifier"));
                        }
                    }
                }
                if has_spec {
                    let spec_start = pos;
                    let mut nested = false;
                    let mut open = 1;
                    let mut spec_end = None;
                    while let Some(c) = char_at(pos) {
                        pos += c.len_utf8();
                        if c == '{' {
                            nested = true;
                            open += 1;
                        } else if c == '}' {
                            open -= 1;
                            if open == 0 {
                                spec_end = Some(pos - 1);
                                break;
                            }
                        }
                    }
                    let Some(spec_end) = spec_end else {
                        return Err(value_error("unmatched '{' in format spec"));
                    };
                    spec = nested.then_some((spec_start, spec_end));
                }
            }
            Some('}') => {}
            _ => return Err(value_error("expected '}' before end of string")),
        }
        // The field's object: its first name or number, then `.name` and `[key]` parts.
        field(&format[name_start..name_end], positional, numbering)
            .map_err(|(kind, message)| fail(chunk, kind, message))?;
        if let Some(c) = conversion
            && !matches!(c, 'r' | 's' | 'a')
        {
            let shown = if c > ' ' && c < '\u{7f}' {
                c.to_string()
            } else {
                format!("\\x{:x}", u32::from(c))
            };
            return Err(value_error(&format!(
                "Unknown conversion specifier {shown}"
            )));
        }
        if let Some((spec_start, spec_end)) = spec {
            build(
                format,
                spec_start,
                spec_end,
                positional,
                depth - 1,
                numbering,
                Some(outer.unwrap_or(chunk)),
            )?;
        }
    }
    Ok(())
}

/// `get_integer`: a field name part as a number, `None` when it is not one.
fn integer(part: &str) -> Result<Option<usize>, (ErrorKind, String)> {
    if part.is_empty() {
        return Ok(None);
    }
    let mut value: usize = 0;
    for c in part.chars() {
        let Some(digit) = crate::text::decimal_value(c) else {
            return Ok(None);
        };
        value = value
            .checked_mul(10)
            .and_then(|v| v.checked_add(digit as usize))
            .filter(|&v| v <= isize::MAX as usize)
            .ok_or_else(|| {
                (
                    ErrorKind::Value,
                    "Too many decimal digits in format string".to_owned(),
                )
            })?;
    }
    Ok(Some(value))
}

/// `get_field_object` without the lookups: numbering, the positional argument's presence, and
/// the syntax of the `.name` / `[key]` parts.
fn field(
    name: &str,
    positional: Option<usize>,
    numbering: &mut Numbering,
) -> Result<(), (ErrorKind, String)> {
    let split = name.find(['.', '[']).unwrap_or(name.len());
    let (first, rest) = name.split_at(split);
    let mut index = integer(first)?;
    let empty = first.is_empty();
    if empty || index.is_some() {
        let automatic = *numbering.automatic.get_or_insert(empty);
        if automatic && !empty {
            return Err((
                ErrorKind::Value,
                "cannot switch from automatic field numbering to manual field specification".into(),
            ));
        }
        if !automatic && empty {
            return Err((
                ErrorKind::Value,
                "cannot switch from manual field specification to automatic field numbering".into(),
            ));
        }
        if empty {
            index = Some(numbering.next);
            numbering.next += 1;
        }
    }
    if let Some(index) = index {
        let Some(count) = positional else {
            return Err((
                ErrorKind::Value,
                "Format string contains positional fields".into(),
            ));
        };
        if index >= count {
            return Err((
                ErrorKind::Index,
                format!("Replacement index {index} out of range for positional args tuple"),
            ));
        }
    }
    let mut chars = rest.char_indices().peekable();
    while let Some((_, c)) = chars.next() {
        let part_start = chars.peek().map_or(rest.len(), |&(i, _)| i);
        let part_end = match c {
            '.' => {
                while chars.next_if(|&(_, c)| c != '.' && c != '[').is_some() {}
                chars.peek().map_or(rest.len(), |&(i, _)| i)
            }
            '[' => {
                let Some((close, _)) = chars.find(|&(_, c)| c == ']') else {
                    return Err((ErrorKind::Value, "Missing ']' in format string".into()));
                };
                integer(&rest[part_start..close])?;
                close
            }
            _ => {
                return Err((
                    ErrorKind::Value,
                    "Only '.' or '[' may follow ']' in format field specifier".into(),
                ));
            }
        };
        if part_start >= part_end {
            return Err((ErrorKind::Value, "Empty attribute in format string".into()));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error(format: &str, positional: usize) -> Option<(usize, ErrorKind, String)> {
        first_error(format, Some(positional)).map(|e| (e.at, e.kind, e.message))
    }

    #[test]
    fn cpython_s_errors_and_where_they_are_raised() {
        use ErrorKind::*;
        let v = |at, m: &str| Some((at, Value, m.to_owned()));
        assert_eq!(
            error("a {} b {0:>{1}}", 0),
            Some((
                0,
                Index,
                "Replacement index 0 out of range for positional args tuple".into()
            ))
        );
        assert_eq!(
            error("{} {}", 1),
            Some((
                2,
                Index,
                "Replacement index 1 out of range for positional args tuple".into()
            ))
        );
        assert_eq!(
            error("{0} }", 1),
            v(3, "Single '}' encountered in format string")
        );
        assert_eq!(
            error("x{{y}", 0),
            v(3, "Single '}' encountered in format string")
        );
        assert_eq!(
            error("{", 0),
            v(0, "Single '{' encountered in format string")
        );
        assert_eq!(error("{0", 1), v(0, "expected '}' before end of string"));
        assert_eq!(error("{0[}", 1), v(0, "expected '}' before end of string"));
        assert_eq!(error("{0.}", 1), v(0, "Empty attribute in format string"));
        assert_eq!(
            error("{0[0]x}", 1),
            v(
                0,
                "Only '.' or '[' may follow ']' in format field specifier"
            )
        );
        assert_eq!(error("{0[0}", 1), v(0, "expected '}' before end of string"));
        assert_eq!(error("{!x}", 1), v(0, "Unknown conversion specifier x"));
        assert_eq!(error("{!}", 1), v(0, "unmatched '{' in format spec"));
        assert_eq!(
            error("{!rr}", 1),
            v(0, "expected ':' after conversion specifier")
        );
        assert_eq!(error("{0!r", 1), v(0, "unmatched '{' in format spec"));
        assert_eq!(
            error("{0!", 1),
            v(0, "end of string while looking for conversion specifier")
        );
        assert_eq!(error("{a{}", 1), v(0, "unexpected '{' in field name"));
        assert_eq!(
            error("{} {1}", 2),
            v(
                2,
                "cannot switch from automatic field numbering to manual field specification"
            )
        );
        assert_eq!(
            error("{0} {}", 2),
            v(
                3,
                "cannot switch from manual field specification to automatic field numbering"
            )
        );
        assert_eq!(
            error("{0:{1:{2}}}", 3),
            v(0, "Max string recursion exceeded")
        );
        assert_eq!(
            error("{:{}}", 1),
            Some((
                0,
                Index,
                "Replacement index 1 out of range for positional args tuple".into()
            ))
        );
        assert_eq!(
            error("{99999999999999999999}", 1),
            v(0, "Too many decimal digits in format string")
        );
        assert_eq!(
            first_error("{0}", None).map(|e| e.message),
            Some("Format string contains positional fields".into())
        );
        for fine in [
            "",
            "{}",
            "{0[a]}{0.b[1]}",
            "{{}}",
            "{:{}}",
            "{0!r:>{1}}",
            "é{}é",
            "{x}{y[0]}",
            "{0:}}}",
        ] {
            assert_eq!(error(fine, 2), None, "{fine:?}");
        }
    }
}

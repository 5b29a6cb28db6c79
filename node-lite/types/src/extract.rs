//! Extraction rules of an HTTP job (`input.http.extract`): what a runner takes from a response
//! and where it puts it in the result, so the chain's verification (a snapshot mode's field, a
//! vote field) and the runner agree on the result's shape.
//!
//! A rule is `[name=]expression`:
//! - `/a/b` (or `""`): an RFC 6901 JSON pointer into a JSON body; the value is put at the same
//!   pointer in the result (`{"a": {"b": …}}`), or at `/name` when named;
//! - `$.a.b`: an RFC 9535 JSONPath into a JSON body (the first match);
//! - `re:PATTERN`: a regular expression over the body text (the first capture group, or the
//!   whole match when the pattern has none), as a JSON string;
//! - `css:SELECTOR`: a CSS selector over an HTML body (the text of the first matching element),
//!   as a JSON string.
//!
//! Every rule but a pointer needs a `name` (letters, digits and `_`, at most 64): its value goes
//! at `/name`. A job with rules has a JSON object as its result; without rules, the body as it
//! came. The chain checks the rule's form (this module); the runner compiles the expression
//! and reports a job whose expression does not compile as an external fault with no progress.

/// What a rule's expression is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExtractKind {
    Pointer,
    JsonPath,
    Regex,
    Css,
}

/// A parsed extraction rule, borrowing its text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExtractRule<'a> {
    /// The name the value is stored under (`None`: a pointer stored at itself).
    pub name: Option<&'a str>,
    pub kind: ExtractKind,
    /// The expression without its `re:` / `css:` prefix.
    pub expression: &'a str,
}

/// Longest rule name.
pub const MAX_NAME: usize = 64;

/// Why a rule is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ExtractError {
    #[error(
        "extraction rule \"{0}\" is none of: a JSON pointer (\"/a/b\"), or name=EXPR with EXPR a JSON pointer, a JSONPath (\"$.a\"), \"re:PATTERN\" or \"css:SELECTOR\""
    )]
    Form(String),
    #[error(
        "extraction rule \"{0}\" needs a name to store its value under: write name=… (letters, digits, '_', at most {MAX_NAME})"
    )]
    Unnamed(String),
    #[error("extraction rule \"{0}\" has an empty expression")]
    Empty(String),
}

fn is_name(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= MAX_NAME
        && s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

impl<'a> ExtractRule<'a> {
    /// Parses `text` as a rule.
    pub fn parse(text: &'a str) -> Result<Self, ExtractError> {
        let (name, expression) = match text.split_once('=') {
            Some((n, e)) if is_name(n) => (Some(n), e),
            _ => (None, text),
        };
        let (kind, expression) = if expression.is_empty() || expression.starts_with('/') {
            (ExtractKind::Pointer, expression)
        } else if expression.starts_with('$') {
            (ExtractKind::JsonPath, expression)
        } else if let Some(e) = expression.strip_prefix("re:") {
            (ExtractKind::Regex, e)
        } else if let Some(e) = expression.strip_prefix("css:") {
            (ExtractKind::Css, e)
        } else {
            return Err(ExtractError::Form(text.into()));
        };
        if kind != ExtractKind::Pointer && name.is_none() {
            return Err(ExtractError::Unnamed(text.into()));
        }
        if kind != ExtractKind::Pointer && expression.is_empty() {
            return Err(ExtractError::Empty(text.into()));
        }
        Ok(Self {
            name,
            kind,
            expression,
        })
    }

    /// Where the value is in the result, as a JSON pointer.
    pub fn result_pointer(&self) -> std::borrow::Cow<'a, str> {
        match self.name {
            Some(n) => format!("/{n}").into(),
            None => self.expression.into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_parse_with_their_result_pointer() {
        let r = ExtractRule::parse("/bitcoin/usd").expect("pointer");
        assert_eq!(
            (r.kind, r.result_pointer().as_ref()),
            (ExtractKind::Pointer, "/bitcoin/usd")
        );
        let r = ExtractRule::parse("price=$.data[0].price").expect("jsonpath");
        assert_eq!(
            (r.kind, r.expression),
            (ExtractKind::JsonPath, "$.data[0].price")
        );
        assert_eq!(r.result_pointer(), "/price");
        let r = ExtractRule::parse("title=css:h1.title").expect("css");
        assert_eq!((r.kind, r.expression), (ExtractKind::Css, "h1.title"));
        let r = ExtractRule::parse("v=re:value=(\\d+)").expect("regex with '=' inside");
        assert_eq!((r.kind, r.expression), (ExtractKind::Regex, "value=(\\d+)"));
        let r = ExtractRule::parse("usd=/bitcoin/usd").expect("named pointer");
        assert_eq!(r.result_pointer(), "/usd");
        assert_eq!(ExtractRule::parse("").expect("whole").result_pointer(), "");
    }

    #[test]
    fn bad_rules_are_refused_with_the_reason() {
        assert!(matches!(
            ExtractRule::parse("bitcoin.usd"),
            Err(ExtractError::Form(_))
        ));
        assert!(matches!(
            ExtractRule::parse("$.a"),
            Err(ExtractError::Unnamed(_))
        ));
        assert!(matches!(
            ExtractRule::parse("re:(\\d+)"),
            Err(ExtractError::Unnamed(_))
        ));
        assert!(matches!(
            ExtractRule::parse("x=css:"),
            Err(ExtractError::Empty(_))
        ));
        assert!(matches!(
            ExtractRule::parse("a b=/x"),
            Err(ExtractError::Form(_))
        ));
    }
}

//! Applying an HTTP job's extraction rules ([`cowboy_types::extract`]) to a response body:
//! JSON pointers and JSONPath (`serde_json_path`, RFC 9535) into JSON, regular expressions
//! (`regex`) over text, CSS selectors (`scraper`) over HTML. The result is a JSON object with
//! each value where its rule says, so the chain's verification finds it.

use cowboy_types::extract::{ExtractKind, ExtractRule};
use serde_json::Value;

/// Why a body could not be extracted from.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ExtractFailure {
    #[error("extraction rule \"{rule}\": {message}")]
    Rule { rule: String, message: String },
    #[error("extraction rule \"{0}\" matched nothing in the response")]
    NoMatch(String),
    #[error("the response is not JSON (needed by rule \"{rule}\"): {message}")]
    NotJson { rule: String, message: String },
    #[error("the response is not UTF-8 text (needed by rule \"{0}\")")]
    NotText(String),
}

/// Checks that `text` is a rule whose expression compiles (what `cowboy job submit` asks
/// before spending a fee; the chain checks only the form).
pub fn compile(text: &str) -> Result<(), ExtractFailure> {
    let rule = ExtractRule::parse(text).map_err(|e| ExtractFailure::Rule {
        rule: text.into(),
        message: e.to_string(),
    })?;
    let failed = |message: String| ExtractFailure::Rule {
        rule: text.into(),
        message,
    };
    match rule.kind {
        ExtractKind::Pointer => Ok(()),
        ExtractKind::JsonPath => serde_json_path::JsonPath::parse(rule.expression)
            .map(|_| ())
            .map_err(|e| failed(e.to_string())),
        ExtractKind::Regex => regex::RegexBuilder::new(rule.expression)
            .size_limit(1 << 20)
            .build()
            .map(|_| ())
            .map_err(|e| failed(e.to_string())),
        ExtractKind::Css => scraper::Selector::parse(rule.expression)
            .map(|_| ())
            .map_err(|e| failed(e.to_string())),
    }
}

/// The result of `rules` over `body`: the body itself when there are none.
pub fn extract(rules: &[&str], body: &[u8]) -> Result<Vec<u8>, ExtractFailure> {
    if rules.is_empty() {
        return Ok(body.to_vec());
    }
    let mut json: Option<Value> = None;
    let mut out = Value::Object(Default::default());
    for text in rules {
        let rule = ExtractRule::parse(text).map_err(|e| ExtractFailure::Rule {
            rule: (*text).into(),
            message: e.to_string(),
        })?;
        let value = match rule.kind {
            ExtractKind::Pointer | ExtractKind::JsonPath => {
                if json.is_none() {
                    json = Some(serde_json::from_slice(body).map_err(|e| {
                        ExtractFailure::NotJson {
                            rule: (*text).into(),
                            message: e.to_string(),
                        }
                    })?);
                }
                let doc = json.as_ref().unwrap_or(&Value::Null);
                if rule.kind == ExtractKind::Pointer {
                    doc.pointer(rule.expression).cloned()
                } else {
                    let path = serde_json_path::JsonPath::parse(rule.expression).map_err(|e| {
                        ExtractFailure::Rule {
                            rule: (*text).into(),
                            message: e.to_string(),
                        }
                    })?;
                    path.query(doc).first().cloned()
                }
            }
            ExtractKind::Regex => {
                let body = std::str::from_utf8(body)
                    .map_err(|_| ExtractFailure::NotText((*text).into()))?;
                let re = regex::RegexBuilder::new(rule.expression)
                    .size_limit(1 << 20)
                    .build()
                    .map_err(|e| ExtractFailure::Rule {
                        rule: (*text).into(),
                        message: e.to_string(),
                    })?;
                re.captures(body).map(|c| {
                    let m = c.get(1).or_else(|| c.get(0));
                    Value::String(m.map_or("", |m| m.as_str()).into())
                })
            }
            ExtractKind::Css => {
                let body = std::str::from_utf8(body)
                    .map_err(|_| ExtractFailure::NotText((*text).into()))?;
                let selector = scraper::Selector::parse(rule.expression).map_err(|e| {
                    ExtractFailure::Rule {
                        rule: (*text).into(),
                        message: e.to_string(),
                    }
                })?;
                let html = scraper::Html::parse_document(body);
                html.select(&selector)
                    .next()
                    .map(|el| Value::String(el.text().collect::<String>().trim().into()))
            }
        };
        let value = value.ok_or_else(|| ExtractFailure::NoMatch((*text).into()))?;
        put(&mut out, &rule.result_pointer(), value);
    }
    serde_json::to_vec(&out).map_err(|e| ExtractFailure::Rule {
        rule: String::new(),
        message: e.to_string(),
    })
}

/// Sets `pointer` in `doc`, creating objects on the way (the whole document for `""`).
fn put(doc: &mut Value, pointer: &str, value: Value) {
    if pointer.is_empty() {
        *doc = value;
        return;
    }
    let mut at = doc;
    let parts: Vec<String> = pointer
        .split('/')
        .skip(1)
        .map(|p| p.replace("~1", "/").replace("~0", "~"))
        .collect();
    for (i, part) in parts.iter().enumerate() {
        if !at.is_object() {
            *at = Value::Object(Default::default());
        }
        let Value::Object(map) = at else { return };
        if i + 1 == parts.len() {
            map.insert(part.clone(), value);
            return;
        }
        at = map.entry(part.clone()).or_insert(Value::Null);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn json(bytes: Vec<u8>) -> Value {
        serde_json::from_slice(&bytes).expect("json")
    }

    #[test]
    fn every_kind_of_rule_extracts_to_where_the_chain_looks() {
        let body = br#"{"bitcoin": {"usd": 97000.5}, "data": [{"price": 3}]}"#;
        let out = json(extract(&["/bitcoin/usd", "p=$.data[0].price"], body).expect("ok"));
        assert_eq!(
            out,
            serde_json::json!({"bitcoin": {"usd": 97000.5}, "p": 3})
        );
        let html = b"<html><body><h1 class='t'> Hello </h1><p>v=42;</p></body></html>";
        let out = json(extract(&["title=css:h1.t", "v=re:v=(\\d+)"], html).expect("ok"));
        assert_eq!(out, serde_json::json!({"title": "Hello", "v": "42"}));
        assert_eq!(extract(&[], b"raw").expect("ok"), b"raw");
    }

    #[test]
    fn failures_name_the_rule() {
        assert!(matches!(
            extract(&["/missing"], b"{}"),
            Err(ExtractFailure::NoMatch(r)) if r == "/missing"
        ));
        assert!(matches!(
            extract(&["/a"], b"<html>"),
            Err(ExtractFailure::NotJson { .. })
        ));
        assert!(matches!(
            extract(&["x=re:("], b"t"),
            Err(ExtractFailure::Rule { .. })
        ));
    }
}

//! `cowboy runner-sim --diff-live N --spec FILE`: fetches an HTTP job's request N times from the
//! live endpoint and shows which response fields differ between fetches, and whether the
//! job's result (after its extraction rules) would — so an author picks a verification mode
//! before deploying: identical results suit `majority_vote`; numbers that drift suit
//! `structured_match` with a tolerance or a `median` snapshot; anything else needs narrower
//! extraction rules.

use cowboy_types::job::{HttpMethod, JobInput, JobSpec};
use serde::Serialize;
use serde_json::Value;
use std::collections::BTreeMap;

/// One response field that is not the same in every fetch.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct FieldDiff {
    /// Its JSON pointer.
    pub pointer: String,
    /// The distinct values seen (JSON text), at most 5 shown.
    pub values: Vec<String>,
    /// Fetches that did not have it.
    pub missing: usize,
    /// Whether every value seen is a number.
    pub numeric: bool,
}

/// What `--diff-live` found.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct DiffReport {
    pub fetches: usize,
    /// Whether the extracted result was byte-identical in every fetch.
    pub result_identical: bool,
    pub results: Vec<String>,
    pub differing: Vec<FieldDiff>,
    /// A verification mode that fits what was seen.
    pub suggestion: String,
}

/// Why the live comparison could not run.
#[derive(Debug, thiserror::Error)]
pub enum DiffError {
    #[error("--diff-live compares HTTP jobs; this spec is a {0} job")]
    NotHttp(String),
    #[error("fetch {n} of {url}: {message}")]
    Fetch {
        n: usize,
        url: String,
        message: String,
    },
}

fn leaves(v: &Value, at: String, out: &mut BTreeMap<String, String>) {
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                leaves(
                    x,
                    format!("{at}/{}", k.replace('~', "~0").replace('/', "~1")),
                    out,
                );
            }
        }
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                leaves(x, format!("{at}/{i}"), out);
            }
        }
        leaf => {
            out.insert(at, leaf.to_string());
        }
    }
}

/// Fetches `spec`'s request `times` times (one after the other) and compares.
pub async fn diff_live(spec: &JobSpec, times: usize) -> Result<DiffReport, DiffError> {
    let JobInput::Http(request) = &spec.input else {
        return Err(DiffError::NotHttp(spec.job_type().to_string()));
    };
    let client = reqwest::Client::new();
    let mut bodies = Vec::new();
    for n in 1..=times.max(2) {
        let method = match request.method {
            HttpMethod::Get => reqwest::Method::GET,
            HttpMethod::Post => reqwest::Method::POST,
            HttpMethod::Put => reqwest::Method::PUT,
            HttpMethod::Patch => reqwest::Method::PATCH,
            HttpMethod::Delete => reqwest::Method::DELETE,
            HttpMethod::Head => reqwest::Method::HEAD,
        };
        let mut b = client.request(method, request.url.as_str());
        for h in request.headers.iter() {
            b = b.header(h.name.as_str(), h.value.as_str());
        }
        if !request.body.is_empty() {
            b = b.body(request.body.to_vec());
        }
        let failed = |message: String| DiffError::Fetch {
            n,
            url: request.url.to_string(),
            message,
        };
        let response = b.send().await.map_err(|e| failed(e.to_string()))?;
        let body = response.bytes().await.map_err(|e| failed(e.to_string()))?;
        bodies.push(body.to_vec());
    }
    let rules: Vec<&str> = request.extract.iter().map(|r| r.as_str()).collect();
    let results: Vec<String> = bodies
        .iter()
        .map(|b| match cowboy_runner::extract::extract(&rules, b) {
            Ok(r) => String::from_utf8_lossy(&r).into_owned(),
            Err(e) => format!("(no result: {e})"),
        })
        .collect();
    let result_identical = results.windows(2).all(|w| w[0] == w[1]);
    let mut seen: BTreeMap<String, Vec<Option<String>>> = BTreeMap::new();
    for (i, body) in bodies.iter().enumerate() {
        let mut fields = BTreeMap::new();
        if let Ok(v) = serde_json::from_slice::<Value>(body) {
            leaves(&v, String::new(), &mut fields);
        }
        for (k, v) in fields {
            seen.entry(k).or_insert_with(|| vec![None; bodies.len()])[i] = Some(v);
        }
    }
    let mut differing = Vec::new();
    for (pointer, values) in seen {
        let missing = values.iter().filter(|v| v.is_none()).count();
        let mut distinct: Vec<String> = values.into_iter().flatten().collect();
        distinct.sort();
        distinct.dedup();
        if distinct.len() > 1 || missing > 0 {
            let numeric = distinct.iter().all(|v| v.parse::<f64>().is_ok());
            distinct.truncate(5);
            differing.push(FieldDiff {
                pointer,
                values: distinct,
                missing,
                numeric,
            });
        }
    }
    let suggestion = if result_identical {
        "the result was identical in every fetch: majority_vote (or deterministic) fits".into()
    } else if !differing.is_empty() && differing.iter().all(|d| d.numeric && d.missing == 0) {
        "only numbers drift: structured_match with numeric_tolerance, or a median snapshot on the first extraction rule".into()
    } else {
        "the result differs: extract only stable fields (see which differ), or use a first_valid / latest snapshot".into()
    };
    Ok(DiffReport {
        fetches: bodies.len(),
        result_identical,
        results,
        differing,
        suggestion,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};

    /// A server answering fetch `n` with `{"usd": 7, "ts": n}`.
    async fn drifting() -> String {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let addr = listener.local_addr().expect("addr");
        tokio::spawn(async move {
            let mut n = 0;
            while let Ok((mut s, _)) = listener.accept().await {
                n += 1;
                let mut buf = [0u8; 4096];
                let _ = s.read(&mut buf).await;
                let body = format!(r#"{{"usd": 7, "ts": {n}}}"#);
                let _ = s
                    .write_all(
                        format!(
                            "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                            body.len()
                        )
                        .as_bytes(),
                    )
                    .await;
            }
        });
        format!("http://{addr}/price")
    }

    fn spec(url: &str, extract: &[&str]) -> JobSpec {
        serde_json::from_value(serde_json::json!({
            "input": {"http": {"method": "GET", "url": url, "extract": extract}},
            "bounds": {"max_wall_ms": 5000},
            "schema": {"max_return_bytes": 1024, "expected_execution_ms": 100, "data_format": {"json": {}}},
            "verification": {"mode": {"none": {}}},
            "max_price": "1",
            "timeout_blocks": 20,
            "callback": {"actor": "0x0000000000000000000000000000000000000001", "handler": "h"}
        }))
        .expect("spec")
    }

    #[tokio::test]
    async fn drifting_fields_are_shown_and_a_stable_extraction_is_identical() {
        let url = drifting().await;
        let stable = diff_live(&spec(&url, &["/usd"]), 3).await.expect("diff");
        assert!(stable.result_identical, "{stable:?}");
        assert_eq!(stable.differing.len(), 1);
        assert_eq!(stable.differing[0].pointer, "/ts");
        assert!(stable.differing[0].numeric);
        let whole = diff_live(&spec(&url, &[]), 3).await.expect("diff");
        assert!(!whole.result_identical);
        assert!(
            whole.suggestion.contains("structured_match"),
            "{}",
            whole.suggestion
        );
    }
}

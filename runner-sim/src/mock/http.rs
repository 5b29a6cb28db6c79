//! The HTTP mock every simulated runner sends its job requests through (`http.via`, the job's
//! URL in `X-Cowboy-Url`), in one of three modes:
//! - `replay`: answers from a cassette file; a request no interaction matches gets a 502 that
//!   says so (the runner reports an external fault), so CI never reaches the network;
//! - `record`: forwards to the real URL and writes each new interaction to the cassette;
//! - `live`: forwards without recording.
//!
//! A cassette is JSON: `{"interactions": [{"request": {"method", "url" | "url_prefix",
//! "body"?}, "response": {"status", "headers", "body" | "body_hex"}}]}`. An interaction matches
//! a request with its method (any when absent), its URL (exactly, or by prefix) and, when it
//! names one, its body.

use axum::{
    Router,
    body::Bytes,
    extract::State,
    http::{HeaderMap, Method, StatusCode},
    response::{IntoResponse, Response},
    routing::any,
};
use serde::{Deserialize, Serialize};
use std::{
    collections::BTreeMap,
    path::{Path, PathBuf},
    sync::{Arc, Mutex},
};

/// How the mock answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    Replay,
    Record,
    Live,
}

impl std::str::FromStr for Mode {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "replay" => Ok(Self::Replay),
            "record" => Ok(Self::Record),
            "live" => Ok(Self::Live),
            other => Err(format!("--http {other:?}: use replay, record or live")),
        }
    }
}

/// What a request must look like.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Matcher {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub method: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url_prefix: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub body: Option<String>,
}

/// A recorded response.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Recorded {
    pub status: u16,
    #[serde(default)]
    pub headers: BTreeMap<String, String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub body: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub body_hex: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Interaction {
    pub request: Matcher,
    pub response: Recorded,
}

/// A cassette file's contents.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Cassette {
    pub interactions: Vec<Interaction>,
}

/// Why a cassette cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum CassetteError {
    #[error("cannot read the cassette {path}: {message}")]
    Read { path: String, message: String },
    #[error("the cassette {path} is not valid: {message}")]
    Parse { path: String, message: String },
    #[error("cannot write the cassette {path}: {message}")]
    Write { path: String, message: String },
}

impl Cassette {
    /// Reads `path`; a missing file is an empty cassette in record mode.
    pub fn load(path: &Path, mode: Mode) -> Result<Self, CassetteError> {
        match std::fs::read_to_string(path) {
            Ok(text) => serde_json::from_str(&text).map_err(|e| CassetteError::Parse {
                path: path.display().to_string(),
                message: e.to_string(),
            }),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound && mode != Mode::Replay => {
                Ok(Self::default())
            }
            Err(e) => Err(CassetteError::Read {
                path: path.display().to_string(),
                message: e.to_string(),
            }),
        }
    }

    /// Writes the cassette to `path` (a temporary file renamed over it).
    pub fn save(&self, path: &Path) -> Result<(), CassetteError> {
        let failed = |e: std::io::Error| CassetteError::Write {
            path: path.display().to_string(),
            message: e.to_string(),
        };
        let text = serde_json::to_string_pretty(self).map_err(|e| CassetteError::Write {
            path: path.display().to_string(),
            message: e.to_string(),
        })?;
        let tmp = path.with_extension("tmp");
        std::fs::write(&tmp, text).map_err(failed)?;
        std::fs::rename(&tmp, path).map_err(failed)
    }

    /// The first interaction matching a request.
    pub fn find(&self, method: &str, url: &str, body: &[u8]) -> Option<&Interaction> {
        self.interactions.iter().find(|i| {
            let m = &i.request;
            m.method
                .as_deref()
                .is_none_or(|x| x.eq_ignore_ascii_case(method))
                && m.url.as_deref().is_none_or(|x| x == url)
                && m.url_prefix.as_deref().is_none_or(|x| url.starts_with(x))
                && m.body.as_deref().is_none_or(|x| x.as_bytes() == body)
        })
    }
}

/// The mock's state.
pub struct HttpMock {
    pub mode: Mode,
    cassette: Mutex<Cassette>,
    path: Option<PathBuf>,
    client: reqwest::Client,
    /// Requests answered, and those nothing matched.
    pub served: std::sync::atomic::AtomicU64,
    pub unmatched: std::sync::atomic::AtomicU64,
}

impl HttpMock {
    pub fn new(mode: Mode, path: Option<PathBuf>) -> Result<Self, CassetteError> {
        let cassette = match &path {
            Some(p) => Cassette::load(p, mode)?,
            None => Cassette::default(),
        };
        Ok(Self {
            mode,
            cassette: Mutex::new(cassette),
            path,
            client: reqwest::Client::new(),
            served: Default::default(),
            unmatched: Default::default(),
        })
    }

    async fn forward(&self, method: Method, url: &str, body: Bytes) -> Result<Recorded, String> {
        let response = self
            .client
            .request(method, url)
            .body(body)
            .send()
            .await
            .map_err(|e| e.to_string())?;
        let status = response.status().as_u16();
        let mut headers = BTreeMap::new();
        if let Some(ct) = response.headers().get(reqwest::header::CONTENT_TYPE)
            && let Ok(ct) = ct.to_str()
        {
            headers.insert("content-type".to_string(), ct.to_string());
        }
        let bytes = response.bytes().await.map_err(|e| e.to_string())?;
        let (body, body_hex) = match String::from_utf8(bytes.to_vec()) {
            Ok(t) => (Some(t), None),
            Err(_) => (None, Some(hex::encode(&bytes))),
        };
        Ok(Recorded {
            status,
            headers,
            body,
            body_hex,
        })
    }
}

fn answer(r: &Recorded) -> Response {
    let status = StatusCode::from_u16(r.status).unwrap_or(StatusCode::OK);
    let body = match (&r.body, &r.body_hex) {
        (Some(t), _) => t.clone().into_bytes(),
        (None, Some(h)) => hex::decode(h).unwrap_or_default(),
        (None, None) => Vec::new(),
    };
    let mut response = (status, body).into_response();
    for (k, v) in &r.headers {
        if let (Ok(k), Ok(v)) = (
            axum::http::HeaderName::from_bytes(k.as_bytes()),
            axum::http::HeaderValue::from_str(v),
        ) {
            response.headers_mut().insert(k, v);
        }
    }
    response
}

async fn handle(
    State(mock): State<Arc<HttpMock>>,
    method: Method,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    use std::sync::atomic::Ordering;
    let Some(url) = headers
        .get(cowboy_runner::exec::http::VIA_HEADER)
        .and_then(|v| v.to_str().ok())
        .map(str::to_string)
    else {
        return (
            StatusCode::BAD_REQUEST,
            "the request names no X-Cowboy-Url (send it through a runner's http.via)",
        )
            .into_response();
    };
    let recorded = mock.cassette.lock().ok().and_then(|c| {
        c.find(method.as_str(), &url, &body)
            .map(|i| i.response.clone())
    });
    if let Some(r) = recorded.filter(|_| mock.mode != Mode::Live) {
        mock.served.fetch_add(1, Ordering::Relaxed);
        return answer(&r);
    }
    if mock.mode == Mode::Replay {
        mock.unmatched.fetch_add(1, Ordering::Relaxed);
        return (
            StatusCode::BAD_GATEWAY,
            format!(
                "the cassette has no response for {method} {url}; record one with --http record"
            ),
        )
            .into_response();
    }
    let recorded = match mock.forward(method.clone(), &url, body.clone()).await {
        Ok(r) => r,
        Err(e) => {
            return (StatusCode::BAD_GATEWAY, format!("{method} {url}: {e}")).into_response();
        }
    };
    mock.served.fetch_add(1, Ordering::Relaxed);
    if mock.mode == Mode::Record
        && let Ok(mut c) = mock.cassette.lock()
        && c.find(method.as_str(), &url, &body).is_none()
    {
        c.interactions.push(Interaction {
            request: Matcher {
                method: Some(method.to_string()),
                url: Some(url.clone()),
                url_prefix: None,
                body: (!body.is_empty()).then(|| String::from_utf8_lossy(&body).into_owned()),
            },
            response: recorded.clone(),
        });
        if let Some(path) = &mock.path
            && let Err(e) = c.save(path)
        {
            tracing::error!(error = %e, "cannot save the cassette");
        }
    }
    answer(&recorded)
}

pub fn router(mock: Arc<HttpMock>) -> Router {
    Router::new().route("/http", any(handle)).with_state(mock)
}

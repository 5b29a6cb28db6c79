//! Asking a faucet for funds over HTTP or HTTPS (rustls, the platform's trusted roots).

use crate::{Drip, DripRequest, ErrorBody, FaucetInfo};
use cowboy_types::Address;

/// Why a faucet request failed.
#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    #[error("cannot reach the faucet at {url}: {reason} (is it running? set --faucet-url)")]
    Unreachable { url: String, reason: String },
    #[error("the faucet refused: {message}")]
    Refused {
        status: u16,
        message: String,
        retry_after_s: Option<u64>,
    },
    #[error("the faucet at {url} sent an answer this client does not understand: {reason}")]
    Protocol { url: String, reason: String },
    #[error("cannot set up an HTTP client: {0}")]
    Setup(String),
}

/// A faucet's HTTP client.
#[derive(Clone, Debug)]
pub struct Client {
    url: String,
    http: reqwest::Client,
}

impl Client {
    /// A client for the faucet at `url` (`http://HOST:PORT` or `https://…`). Fails only when
    /// the TLS backend cannot start (e.g. the platform's certificate store is unreadable).
    pub fn new(url: &str) -> Result<Self, ClientError> {
        let http = reqwest::Client::builder()
            .build()
            .map_err(|e| ClientError::Setup(e.to_string()))?;
        Ok(Self {
            url: url.trim_end_matches('/').to_string(),
            http,
        })
    }

    pub fn url(&self) -> &str {
        &self.url
    }

    /// The faucet's account, balance and limits.
    pub async fn info(&self) -> Result<FaucetInfo, ClientError> {
        let response = self
            .http
            .get(format!("{}/info", self.url))
            .send()
            .await
            .map_err(|e| self.unreachable(e))?;
        self.parse(response).await
    }

    /// Asks for `amount` (the faucet's default when `None`) to be sent to `address`; returns
    /// once the transfer is finalized.
    pub async fn drip(&self, address: Address, amount: Option<u64>) -> Result<Drip, ClientError> {
        let response = self
            .http
            .post(format!("{}/drip", self.url))
            .json(&DripRequest { address, amount })
            .send()
            .await
            .map_err(|e| self.unreachable(e))?;
        self.parse(response).await
    }

    fn unreachable(&self, e: reqwest::Error) -> ClientError {
        let mut reason = e.to_string();
        let mut source = std::error::Error::source(&e);
        while let Some(s) = source {
            reason = format!("{reason}: {s}");
            source = s.source();
        }
        ClientError::Unreachable {
            url: self.url.clone(),
            reason,
        }
    }

    async fn parse<T: serde::de::DeserializeOwned>(
        &self,
        response: reqwest::Response,
    ) -> Result<T, ClientError> {
        let status = response.status();
        let protocol = |reason: String| ClientError::Protocol {
            url: self.url.clone(),
            reason,
        };
        let bytes = response
            .bytes()
            .await
            .map_err(|e| protocol(e.to_string()))?;
        if status.is_success() {
            return serde_json::from_slice(&bytes).map_err(|e| protocol(e.to_string()));
        }
        let body: ErrorBody = serde_json::from_slice(&bytes).map_err(|_| {
            protocol(format!(
                "HTTP {status}: {}",
                String::from_utf8_lossy(&bytes).trim()
            ))
        })?;
        Err(ClientError::Refused {
            status: status.as_u16(),
            message: body.error,
            retry_after_s: body.retry_after_s,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An `https://` faucet URL is spoken to with TLS (a plain-HTTP server on the other end
    /// fails the handshake) instead of being refused as an unknown scheme.
    #[tokio::test]
    async fn https_urls_speak_tls() {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let addr = listener.local_addr().expect("addr");
        tokio::spawn(async move {
            use tokio::io::AsyncWriteExt as _;
            if let Ok((mut stream, _)) = listener.accept().await {
                let _ = stream
                    .write_all(b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n{}")
                    .await;
            }
        });
        let client = Client::new(&format!("https://{addr}")).expect("client");
        match client.info().await {
            Err(ClientError::Unreachable { reason, .. }) => {
                assert!(!reason.contains("scheme is not http"), "{reason}");
                assert!(
                    reason.to_lowercase().contains("tls")
                        || reason.contains("corrupt")
                        || reason.contains("InvalidContentType"),
                    "{reason}"
                );
            }
            other => panic!("expected a TLS failure, got {other:?}"),
        }
    }
}

//! The block explorer: a single-page app (`node-lite/explorer/`) embedded in the binary and
//! served by the RPC port at `/`, so it needs no build step and no network. It reads the
//! node's public JSON-RPC only (HTTP for reads, a WebSocket subscription for the live head).

/// One embedded file.
pub struct Asset {
    pub path: &'static str,
    pub content_type: &'static str,
    pub body: &'static str,
}

const ASSETS: [Asset; 3] = [
    Asset {
        path: "/",
        content_type: "text/html; charset=utf-8",
        body: include_str!("../explorer/index.html"),
    },
    Asset {
        path: "/explorer/app.js",
        content_type: "text/javascript; charset=utf-8",
        body: include_str!("../explorer/app.js"),
    },
    Asset {
        path: "/explorer/style.css",
        content_type: "text/css; charset=utf-8",
        body: include_str!("../explorer/style.css"),
    },
];

/// The file served at `path`, if any (`/index.html` is `/`).
pub fn asset(path: &str) -> Option<&'static Asset> {
    let path = if path == "/index.html" { "/" } else { path };
    ASSETS.iter().find(|a| a.path == path)
}

/// The page's content security policy: its own scripts and styles only; it may call other
/// nodes' RPC (the network view compares a devnet's nodes).
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; connect-src 'self' http: https: \
     ws: wss:; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_references_only_embedded_files() {
        let page = asset("/").expect("index").body;
        for reference in ["/explorer/app.js", "/explorer/style.css"] {
            assert!(page.contains(reference), "{reference}");
            assert!(asset(reference).is_some(), "{reference} is embedded");
        }
        assert!(asset("/index.html").is_some());
        assert!(asset("/nothing").is_none());
    }
}

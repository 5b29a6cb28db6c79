//! Where a job may send the runner: jobs name URLs (HTTP requests, MCP servers), and a job
//! pointing at the runner's own machine or network (loopback, private and link-local ranges,
//! cloud metadata at 169.254.169.254) would read what only the runner can reach and publish it
//! on chain. Unless the operator allows private addresses (`http.allow_private_addresses`,
//! for local testing), every connection the executors make is checked: literal addresses in
//! the URL and at each redirect, and every address a host name resolves to (a resolver that
//! drops non-global addresses, so DNS rebinding gains nothing).

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};

/// Whether `ip` is a public unicast address.
pub fn is_global(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => global_v4(v4),
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => global_v4(v4),
            None => global_v6(v6),
        },
    }
}

fn global_v4(ip: Ipv4Addr) -> bool {
    let [a, b, _, _] = ip.octets();
    !(ip.is_unspecified()
        || ip.is_loopback()
        || ip.is_private()
        || ip.is_link_local()
        || ip.is_broadcast()
        || ip.is_multicast()
        || ip.is_documentation()
        || a == 0
        // Shared address space (carrier-grade NAT), 100.64.0.0/10.
        || (a == 100 && (64..128).contains(&b))
        // Benchmarking, 198.18.0.0/15; reserved, 240.0.0.0/4.
        || (a == 198 && (18..20).contains(&b))
        || a >= 240)
}

fn global_v6(ip: Ipv6Addr) -> bool {
    let first = ip.segments()[0];
    !(ip.is_unspecified()
        || ip.is_loopback()
        || ip.is_multicast()
        // Unique local fc00::/7, link-local fe80::/10, documentation 2001:db8::/32.
        || (first & 0xfe00) == 0xfc00
        || (first & 0xffc0) == 0xfe80
        || (first == 0x2001 && ip.segments()[1] == 0x0db8))
}

/// Why a URL is refused.
pub fn check_url(url: &reqwest::Url) -> Result<(), String> {
    match url.scheme() {
        "http" | "https" => {}
        other => return Err(format!("{url}: scheme {other} is not http or https")),
    }
    let host = url.host().ok_or_else(|| format!("{url} has no host"))?;
    let ip = match host {
        url::Host::Ipv4(v4) => Some(IpAddr::V4(v4)),
        url::Host::Ipv6(v6) => Some(IpAddr::V6(v6)),
        url::Host::Domain(d)
            if d.eq_ignore_ascii_case("localhost") || d.ends_with(".localhost") =>
        {
            Some(IpAddr::V4(Ipv4Addr::LOCALHOST))
        }
        url::Host::Domain(_) => None,
    };
    match ip {
        Some(ip) if !is_global(ip) => Err(format!(
            "{url} points at {ip}, a private or local address this runner does not fetch from"
        )),
        _ => Ok(()),
    }
}

/// A DNS resolver keeping only global addresses.
pub struct GlobalOnly;

impl reqwest::dns::Resolve for GlobalOnly {
    fn resolve(&self, name: reqwest::dns::Name) -> reqwest::dns::Resolving {
        let host = name.as_str().to_string();
        Box::pin(async move {
            let all: Vec<SocketAddr> = tokio::net::lookup_host((host.as_str(), 0)).await?.collect();
            let global: Vec<SocketAddr> = all.into_iter().filter(|a| is_global(a.ip())).collect();
            if global.is_empty() {
                return Err(format!(
                    "{host} resolves only to private or local addresses, which this runner does not fetch from"
                )
                .into());
            }
            Ok(Box::new(global.into_iter()) as reqwest::dns::Addrs)
        })
    }
}

/// The HTTP client executors use: at most 5 redirects, each checked, and (unless private
/// addresses are allowed) the global-only resolver.
pub fn client(allow_private: bool) -> Result<reqwest::Client, reqwest::Error> {
    let policy = reqwest::redirect::Policy::custom(move |attempt| {
        if attempt.previous().len() >= 5 {
            return attempt.error("more than 5 redirects");
        }
        if !allow_private && let Err(e) = check_url(attempt.url()) {
            return attempt.error(e);
        }
        attempt.follow()
    });
    let mut builder = reqwest::Client::builder()
        .redirect(policy)
        .user_agent(concat!("cowboy-runner/", env!("CARGO_PKG_VERSION")));
    if !allow_private {
        builder = builder.dns_resolver(std::sync::Arc::new(GlobalOnly));
    }
    builder.build()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn local_and_private_addresses_are_refused() {
        for bad in [
            "http://127.0.0.1/x",
            "http://169.254.169.254/latest/meta-data/",
            "http://10.0.0.1/",
            "http://[::1]/",
            "http://[::ffff:127.0.0.1]/",
            "http://[fd00::1]/",
            "http://100.64.0.1/",
            "http://localhost:8080/",
            "file:///etc/passwd",
        ] {
            let url: reqwest::Url = bad.parse().expect("url");
            assert!(check_url(&url).is_err(), "{bad}");
        }
        for good in [
            "https://api.example.com/p",
            "http://93.184.216.34/",
            "http://[2606:4700::1]/",
        ] {
            let url: reqwest::Url = good.parse().expect("url");
            assert!(check_url(&url).is_ok(), "{good}");
        }
    }
}

//! A server's address as the terminal client reads it: `ws://HOST[:PORT][/...]` for a plain server,
//! `wss://HOST[:PORT][/...]` for one behind TLS; checked as the command line is read, and the socket opened by it (the
//! page's socket is the browser's).

/// Where an address leads: over TLS or not, the host (an IPv6 address without its brackets) and the port.
#[derive(Debug, PartialEq)]
pub struct Target {
    /// `wss://`.
    pub tls: bool,
    /// The host, as named in the address (the name the server's certificate must carry).
    pub host: String,
    /// The port (80 for `ws://` and 443 for `wss://` when none is given).
    pub port: u16,
}

/// Why an address was refused; each names the address as written.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AddressError {
    /// Neither `ws://` nor `wss://`.
    #[error(
        "{0}: not a ws:// or wss:// address (ws://HOST:PORT for a plain server, wss://HOST for one behind TLS)"
    )]
    Scheme(String),
    /// `[` without `]`.
    #[error("{0}: an IPv6 address without its closing bracket")]
    Bracket(String),
    /// No host.
    #[error("{0}: no host")]
    NoHost(String),
    /// A port that is not a number from 0 to 65535: the address and the port as written.
    #[error("{0}: the port {1:?} is not a number from 0 to 65535")]
    Port(String, String),
}

/// Reads a `ws://HOST[:PORT][/...]` or `wss://HOST[:PORT][/...]` address.
pub fn target(url: &str) -> Result<Target, AddressError> {
    let (tls, rest) = if let Some(rest) = url.strip_prefix("wss://") {
        (true, rest)
    } else if let Some(rest) = url.strip_prefix("ws://") {
        (false, rest)
    } else {
        return Err(AddressError::Scheme(url.to_string()));
    };
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
    let authority = authority.rsplit('@').next().unwrap_or(authority);
    let (host, port) = if let Some(inner) = authority.strip_prefix('[') {
        let (host, after) = inner
            .split_once(']')
            .ok_or_else(|| AddressError::Bracket(url.to_string()))?;
        (host, after.strip_prefix(':'))
    } else {
        match authority.rsplit_once(':') {
            Some((host, port)) => (host, Some(port)),
            None => (authority, None),
        }
    };
    if host.is_empty() {
        return Err(AddressError::NoHost(url.to_string()));
    }
    let port = match port {
        None => {
            if tls {
                443
            } else {
                80
            }
        }
        Some(p) => p
            .parse::<u16>()
            .map_err(|_| AddressError::Port(url.to_string(), p.to_string()))?,
    };
    Ok(Target {
        tls,
        host: host.to_string(),
        port,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(tls: bool, host: &str, port: u16) -> Target {
        Target {
            tls,
            host: host.to_string(),
            port,
        }
    }

    #[test]
    fn addresses_are_read_with_their_port() {
        assert_eq!(
            target("ws://127.0.0.1:7878").unwrap(),
            at(false, "127.0.0.1", 7878)
        );
        assert_eq!(
            target("ws://example.org/").unwrap(),
            at(false, "example.org", 80)
        );
        assert_eq!(
            target("wss://example.org").unwrap(),
            at(true, "example.org", 443)
        );
        assert_eq!(
            target("wss://example.org:8443/parlor?x=1").unwrap(),
            at(true, "example.org", 8443)
        );
        assert_eq!(target("wss://[::1]:9/").unwrap(), at(true, "::1", 9));
        assert_eq!(target("ws://[::1]").unwrap(), at(false, "::1", 80));
        assert!(target("http://example.org").is_err());
        assert!(target("ws://").is_err());
        assert!(target("wss://:443").is_err());
        assert!(target("ws://example.org:port").is_err());
        assert!(target("ws://example.org:70000").is_err());
        assert!(target("wss://[::1").is_err());
    }
}

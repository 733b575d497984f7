//! [`PgUrl`]: a PostgreSQL connection URL (`postgres://` or `postgresql://`), checked where it is parsed and shown
//! with its password masked wherever it is printed (its `Display` and `Debug`), so that no log line or error holds it.

use std::fmt;
use std::str::FromStr;

/// What a masked password reads as.
const MASK: &str = "****";

/// A PostgreSQL connection URL, e.g. `postgres://parlor:PASSWORD@db.example:5432/parlor`, or with a Unix socket's
/// directory as its host, percent-encoded (`postgresql://parlor@%2Frun%2Fpostgresql/parlor`). Shown with its
/// password masked.
#[derive(Clone)]
pub struct PgUrl {
    url: String,
    config: postgres::Config,
}

impl PgUrl {
    /// The URL as given, password and all: for connecting only, never for printing.
    pub fn secret(&self) -> &str {
        &self.url
    }

    /// The connection's configuration parsed from it.
    pub fn config(&self) -> &postgres::Config {
        &self.config
    }

    /// The URL with its password (in the user part or a `password=` parameter) masked.
    pub fn masked(&self) -> String {
        mask(&self.url)
    }
}

/// `url` with the password of its user part and of any `password=` parameter replaced by [`MASK`].
fn mask(url: &str) -> String {
    let (scheme, rest) = url.split_once("://").unwrap_or(("", url));
    let (main, query) = match rest.split_once('?') {
        Some((m, q)) => (m, Some(q)),
        None => (rest, None),
    };
    let main = match main.rfind('@') {
        Some(at) => {
            let (user, host) = main.split_at(at);
            match user.split_once(':') {
                Some((name, _password)) => format!("{name}:{MASK}{host}"),
                None => main.to_string(),
            }
        }
        None => main.to_string(),
    };
    let query = query.map(|q| {
        q.split('&')
            .map(|pair| match pair.split_once('=') {
                Some((k, _)) if k.eq_ignore_ascii_case("password") => format!("{k}={MASK}"),
                _ => pair.to_string(),
            })
            .collect::<Vec<_>>()
            .join("&")
    });
    let mut out = if scheme.is_empty() {
        main
    } else {
        format!("{scheme}://{main}")
    };
    if let Some(q) = query {
        out.push('?');
        out.push_str(&q);
    }
    out
}

impl FromStr for PgUrl {
    type Err = String;

    /// Parses a `postgres://` or `postgresql://` URL; anything else is refused, saying what is taken (the error
    /// shows the URL masked).
    fn from_str(s: &str) -> Result<PgUrl, String> {
        let scheme = s.split_once("://").map(|(scheme, _)| scheme);
        if !matches!(scheme, Some("postgres" | "postgresql")) {
            return Err(format!(
                "{:?} is not a database URL: give postgres://USER:PASSWORD@HOST:PORT/DATABASE (or \
                 postgresql://...), or no --database for SQLite in the data directory",
                mask(s)
            ));
        }
        let config = s
            .parse::<postgres::Config>()
            .map_err(|e| format!("{:?} is not a PostgreSQL URL: {e}", mask(s)))?;
        Ok(PgUrl {
            url: s.to_string(),
            config,
        })
    }
}

impl fmt::Display for PgUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.masked())
    }
}

impl fmt::Debug for PgUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "PgUrl({:?})", self.masked())
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn the_password_is_masked_wherever_it_is() {
        let url: PgUrl = "postgres://parlor:s3cr3t@db.example:5432/parlor"
            .parse()
            .unwrap();
        assert_eq!(
            url.to_string(),
            "postgres://parlor:****@db.example:5432/parlor"
        );
        assert!(!format!("{url:?}").contains("s3cr3t"));
        assert_eq!(
            url.secret(),
            "postgres://parlor:s3cr3t@db.example:5432/parlor"
        );
        let url: PgUrl = "postgresql://parlor@%2Frun%2Fpg/db?password=s3cr3t&connect_timeout=5"
            .parse()
            .unwrap();
        assert_eq!(
            url.to_string(),
            "postgresql://parlor@%2Frun%2Fpg/db?password=****&connect_timeout=5"
        );
        // An '@' in the password (unencoded) is masked with it.
        assert_eq!(
            mask("postgres://u:a@b@host/db"),
            "postgres://u:****@host/db"
        );
    }

    #[test]
    fn anything_but_a_postgres_url_is_refused_with_the_password_masked() {
        for bad in ["mysql://u:s3cr3t@h/db", "server.db", "", "http://x"] {
            let e = bad.parse::<PgUrl>().unwrap_err();
            assert!(e.contains("not a database URL"), "{e}");
            assert!(!e.contains("s3cr3t"), "{e}");
        }
        let e = "postgres://u:s3cr3t@h/db?sslmode=sideways"
            .parse::<PgUrl>()
            .unwrap_err();
        assert!(e.contains("not a PostgreSQL URL"), "{e}");
        assert!(!e.contains("s3cr3t"), "{e}");
    }
}

//! The connection to the server, on a thread of its own (the terminal's socket): it opens a blocking WebSocket
//! (tungstenite) and carries what the sans-I/O [`Conn`] says to send, tell and wait; the protocol itself (hello,
//! resume after the last event, acknowledgements, moves sent again, the growing wait between tries) is the core's
//! ([`super::conn`]), shared with the page.
//!
//! A `ws://` address is spoken in the clear; a `wss://` one over TLS (rustls on ring, TLS 1.2 and 1.3), the server's
//! certificate checked against webpki-roots' compiled-in Mozilla roots and any CA the player trusts with
//! `--ca-cert FILE` ([`trust`]), for the host named in the address. A certificate refused is a connection that
//! could not be made, said in words and tried again like any other.

use super::conn::{Conn, Out};
pub use super::conn::{Down, Up};
use super::identity::Identity;
use parlor_online::address::target;
use parlor_online::protocol::ClientMessage;
use rustls::{ClientConfig, ClientConnection, RootCertStore, StreamOwned};
use rustls_pki_types::pem::PemObject;
use rustls_pki_types::{CertificateDer, ServerName};
use std::io::{Read, Write};
use std::net::{TcpStream, ToSocketAddrs};
use std::path::Path;
use std::sync::mpsc::{Receiver, Sender, TryRecvError};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};
use tungstenite::{Message, WebSocket};

/// The CA certificates trusted for `wss://` besides webpki-roots' (`--ca-cert`), set once for the process.
static EXTRA_CAS: OnceLock<Vec<CertificateDer<'static>>> = OnceLock::new();

/// Reads the CA certificates of the PEM file `path` (`--ca-cert`): at least one, each one a certificate rustls
/// can take as a root. The error names the file and says what is wrong with it.
pub fn read_ca_file(path: &Path) -> Result<Vec<CertificateDer<'static>>, String> {
    let shown = path.display();
    let text = std::fs::read(path).map_err(|e| format!("--ca-cert {shown}: {e}"))?;
    let certs = CertificateDer::pem_slice_iter(&text)
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| format!("--ca-cert {shown}: not PEM certificates ({e})"))?;
    if certs.is_empty() {
        return Err(format!(
            "--ca-cert {shown}: no certificate in it (a PEM file with \"-----BEGIN CERTIFICATE-----\" is wanted)"
        ));
    }
    let mut store = RootCertStore::empty();
    for (i, cert) in certs.iter().enumerate() {
        store
            .add(cert.clone())
            .map_err(|e| format!("--ca-cert {shown}: certificate {} is refused: {e}", i + 1))?;
    }
    Ok(certs)
}

/// Trusts `certs` (from [`read_ca_file`]) for every `wss://` connection this process makes, besides
/// webpki-roots'. Called once, before the first connection; a second call is refused.
pub fn trust(certs: Vec<CertificateDer<'static>>) -> Result<(), String> {
    EXTRA_CAS
        .set(certs)
        .map_err(|_| "the CA certificates to trust were given already".to_string())
}

/// The TLS configuration of a `wss://` connection: webpki-roots and the CAs given to [`trust`].
fn tls_config() -> Result<Arc<ClientConfig>, String> {
    let mut roots = RootCertStore::empty();
    roots.extend(webpki_roots::TLS_SERVER_ROOTS.iter().cloned());
    for cert in EXTRA_CAS.get().into_iter().flatten() {
        roots
            .add(cert.clone())
            .map_err(|e| format!("a --ca-cert certificate is refused: {e}"))?;
    }
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| format!("TLS: {e}"))?
        .with_root_certificates(roots)
        .with_no_client_auth();
    Ok(Arc::new(config))
}

/// The socket under the WebSocket: plain TCP (`ws://`) or TLS over it (`wss://`).
enum Socket {
    /// `ws://`.
    Plain(TcpStream),
    /// `wss://`.
    Tls(Box<StreamOwned<ClientConnection, TcpStream>>),
}

impl Socket {
    /// The TCP connection underneath.
    fn tcp(&self) -> &TcpStream {
        match self {
            Socket::Plain(s) => s,
            Socket::Tls(s) => &s.sock,
        }
    }
}

impl Read for Socket {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        match self {
            Socket::Plain(s) => s.read(buf),
            Socket::Tls(s) => s.read(buf),
        }
    }
}

impl Write for Socket {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        match self {
            Socket::Plain(s) => s.write(buf),
            Socket::Tls(s) => s.write(buf),
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        match self {
            Socket::Plain(s) => s.flush(),
            Socket::Tls(s) => s.flush(),
        }
    }
}

/// Where the link tells the front end what happened; `false` when nobody listens any more (the link then stops).
pub type Tell = Box<dyn Fn(Down) -> bool + Send>;

/// How long a read waits before the link looks at the front end's requests.
const POLL: Duration = Duration::from_millis(50);

/// What keeps the identity once the server issued its token (`identity::keeper`): an error says why it could not.
pub type Keep = Box<dyn Fn(&Identity) -> Result<(), String> + Send>;

/// Starts the link to `url` as `identity` (a token the server issues kept by `keep`), for a client playing the
/// daily challenges `dailies` (which name what an older server lacks); returns the channel to it.
pub fn start(
    url: &str,
    identity: Identity,
    dailies: Vec<Box<dyn crate::tui::daily::Daily>>,
    keep: Keep,
    down: Tell,
) -> Sender<Up> {
    let (up_tx, up_rx) = std::sync::mpsc::channel();
    let url = url.to_string();
    let conn = Conn::new(identity).with_dailies(dailies);
    std::thread::spawn(move || run(&url, conn, &up_rx, &keep, &down));
    up_tx
}

/// How one socket ended.
enum Ended {
    /// The front end asked to quit, or is gone; or the server refused the player.
    Quit,
    /// The socket dropped.
    Dropped(String),
}

/// Milliseconds since `epoch`.
fn ms(epoch: Instant) -> u64 {
    u64::try_from(epoch.elapsed().as_millis()).unwrap_or(u64::MAX)
}

fn run(url: &str, mut conn: Conn, up: &Receiver<Up>, keep: &Keep, down: &Tell) {
    let epoch = Instant::now();
    loop {
        let ended = match connect(url) {
            Ok(ws) => session(ws, &mut conn, epoch, up, keep, down),
            Err(e) => Ended::Dropped(e),
        };
        let why = match ended {
            Ended::Quit => return,
            Ended::Dropped(why) => why,
        };
        let (out, wait) = conn.closed(why);
        for o in out {
            if let Out::Tell(d) = o
                && !down(d)
            {
                return;
            }
        }
        // Wait, still answering a quit (moves asked meanwhile are kept and sent once back).
        let until = Instant::now() + Duration::from_millis(wait);
        while Instant::now() < until {
            match up.recv_timeout(POLL) {
                Ok(Up::Quit) | Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => return,
                Ok(Up::Send(msg)) => {
                    conn.ask(msg);
                }
                Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {}
            }
        }
    }
}

/// Says why a TLS handshake failed, in words a player can act on.
fn tls_refusal(url: &str, host: &str, e: &std::io::Error) -> String {
    let inner = e
        .get_ref()
        .and_then(|inner| inner.downcast_ref::<rustls::Error>());
    match inner {
        Some(rustls::Error::InvalidCertificate(why)) => format!(
            "TLS with {url}: the server's certificate for {host} is refused ({why:?}); if it is signed by a \
             private CA, pass that CA with --ca-cert FILE"
        ),
        Some(other) => format!("TLS with {url}: {other}"),
        None => format!("TLS with {url}: {e}"),
    }
}

/// Opens the WebSocket (a bounded wait for the TCP connection and the handshakes).
fn connect(url: &str) -> Result<WebSocket<Socket>, String> {
    let target = target(url).map_err(|e| e.to_string())?;
    let hostport = if target.host.contains(':') {
        format!("[{}]:{}", target.host, target.port)
    } else {
        format!("{}:{}", target.host, target.port)
    };
    let addr = hostport
        .to_socket_addrs()
        .map_err(|e| format!("{hostport}: {e}"))?
        .next()
        .ok_or_else(|| format!("{hostport}: no address"))?;
    let mut tcp = TcpStream::connect_timeout(&addr, Duration::from_secs(5))
        .map_err(|e| format!("connecting to {hostport}: {e}"))?;
    let _ = tcp.set_nodelay(true);
    tcp.set_read_timeout(Some(Duration::from_secs(5)))
        .map_err(|e| e.to_string())?;
    tcp.set_write_timeout(Some(Duration::from_secs(5)))
        .map_err(|e| e.to_string())?;
    let socket = if target.tls {
        let name =
            ServerName::try_from(target.host.clone()).map_err(|e| format!("{url}: {e} for TLS"))?;
        let mut tls =
            ClientConnection::new(tls_config()?, name).map_err(|e| format!("TLS: {e}"))?;
        while tls.is_handshaking() {
            tls.complete_io(&mut tcp)
                .map_err(|e| tls_refusal(url, &target.host, &e))?;
        }
        Socket::Tls(Box::new(StreamOwned::new(tls, tcp)))
    } else {
        Socket::Plain(tcp)
    };
    let (ws, _) =
        tungstenite::client(url, socket).map_err(|e| format!("handshake with {url}: {e}"))?;
    ws.get_ref()
        .tcp()
        .set_read_timeout(Some(POLL))
        .map_err(|e| e.to_string())?;
    Ok(ws)
}

fn send(ws: &mut WebSocket<Socket>, msg: &ClientMessage) -> Result<(), String> {
    ws.send(Message::text(msg.to_text()))
        .map_err(|e| format!("sending: {e}"))
}

/// Carries out what the [`Conn`] said; `Some` when the socket ends.
fn carry(ws: &mut WebSocket<Socket>, out: Vec<Out>, keep: &Keep, down: &Tell) -> Option<Ended> {
    for o in out {
        match o {
            Out::Keep(identity) => {
                if let Err(e) = keep(&identity) {
                    let _ = down(Down::Refused(format!(
                        "the server registered {} but its token could not be kept ({e}): not connecting; \
                         choose another name with --name",
                        identity.name
                    )));
                    let _ = ws.close(None);
                    let _ = ws.flush();
                    return Some(Ended::Quit);
                }
            }
            Out::Send(msg) => {
                if let Err(e) = send(ws, &msg) {
                    return Some(Ended::Dropped(e));
                }
            }
            Out::Tell(d) => {
                if !down(d) {
                    let _ = ws.close(None);
                    let _ = ws.flush();
                    return Some(Ended::Quit);
                }
            }
            Out::Drop(why) => return Some(Ended::Dropped(why)),
            Out::Stop => {
                let _ = ws.close(None);
                let _ = ws.flush();
                return Some(Ended::Quit);
            }
        }
    }
    None
}

/// One socket, from `hello` until it ends.
fn session(
    mut ws: WebSocket<Socket>,
    conn: &mut Conn,
    epoch: Instant,
    up: &Receiver<Up>,
    keep: &Keep,
    down: &Tell,
) -> Ended {
    let hello = conn.opened(ms(epoch));
    if let Some(end) = carry(&mut ws, hello, keep, down) {
        return end;
    }
    loop {
        // The front end's requests first.
        loop {
            let out = match up.try_recv() {
                Ok(Up::Send(msg)) => conn.ask(msg),
                Ok(Up::Quit) | Err(TryRecvError::Disconnected) => {
                    let _ = ws.close(None);
                    let _ = ws.flush();
                    return Ended::Quit;
                }
                Err(TryRecvError::Empty) => break,
            };
            if let Some(end) = carry(&mut ws, out, keep, down) {
                return end;
            }
        }
        let frame = match ws.read() {
            Ok(frame) => frame,
            Err(tungstenite::Error::Io(e))
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) =>
            {
                let out = conn.tick(ms(epoch));
                if let Some(end) = carry(&mut ws, out, keep, down) {
                    return end;
                }
                continue;
            }
            Err(tungstenite::Error::ConnectionClosed | tungstenite::Error::AlreadyClosed) => {
                return Ended::Dropped("the server closed the connection".into());
            }
            Err(e) => return Ended::Dropped(format!("connection lost: {e}")),
        };
        let out = match frame {
            Message::Text(t) => conn.text(t.as_str(), ms(epoch)),
            Message::Close(_) => {
                return Ended::Dropped("the server closed the connection".into());
            }
            _ => {
                conn.heard(ms(epoch));
                continue;
            }
        };
        if let Some(end) = carry(&mut ws, out, keep, down) {
            return end;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_ca_file_is_checked_when_read() {
        let dir = tempfile::tempdir().unwrap();
        let missing = read_ca_file(&dir.path().join("none.pem")).unwrap_err();
        assert!(missing.starts_with("--ca-cert "), "{missing}");
        let empty = dir.path().join("empty.pem");
        std::fs::write(&empty, "not a certificate\n").unwrap();
        let why = read_ca_file(&empty).unwrap_err();
        assert!(why.contains("no certificate in it"), "{why}");
        let junk = dir.path().join("junk.pem");
        std::fs::write(
            &junk,
            "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n",
        )
        .unwrap();
        let why = read_ca_file(&junk).unwrap_err();
        assert!(why.contains("certificate 1 is refused"), "{why}");
    }

    #[test]
    fn the_tls_configuration_has_the_web_roots() {
        assert!(tls_config().is_ok());
        assert!(webpki_roots::TLS_SERVER_ROOTS.len() > 100);
    }
}

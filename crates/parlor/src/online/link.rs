//! The connection to the server, on a thread of its own (the terminal's socket): it opens a blocking WebSocket
//! (tungstenite) and carries what the sans-I/O [`Conn`] says to send, tell and wait; the protocol itself (hello,
//! resume after the last event, acknowledgements, moves sent again, the growing wait between tries) is the core's
//! ([`super::conn`]), shared with the page.

use super::conn::{Conn, Out};
pub use super::conn::{Down, Up};
use super::identity::Identity;
use parlor_online::protocol::ClientMessage;
use std::net::{TcpStream, ToSocketAddrs};
use std::sync::mpsc::{Receiver, Sender, TryRecvError};
use std::time::{Duration, Instant};
use tungstenite::{Message, WebSocket};

/// Where the link tells the front end what happened; `false` when nobody listens any more (the link then stops).
pub type Tell = Box<dyn Fn(Down) -> bool + Send>;

/// How long a read waits before the link looks at the front end's requests.
const POLL: Duration = Duration::from_millis(50);

/// Starts the link to `url` as `identity`; returns the channel to it.
pub fn start(url: &str, identity: Identity, down: Tell) -> Sender<Up> {
    let (up_tx, up_rx) = std::sync::mpsc::channel();
    let url = url.to_string();
    std::thread::spawn(move || run(&url, identity, &up_rx, &down));
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

fn run(url: &str, identity: Identity, up: &Receiver<Up>, down: &Tell) {
    let epoch = Instant::now();
    let mut conn = Conn::new(identity);
    loop {
        let ended = match connect(url) {
            Ok(ws) => session(ws, &mut conn, epoch, up, down),
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

/// The host and port of a `ws://HOST:PORT/...` address.
fn host_port(url: &str) -> Result<String, String> {
    let rest = url.strip_prefix("ws://").ok_or_else(|| {
        format!("{url}: only ws:// addresses are spoken (TLS is a reverse proxy's job)")
    })?;
    let hostport = rest.split('/').next().unwrap_or("");
    if hostport.is_empty() {
        return Err(format!("{url}: no host"));
    }
    Ok(if hostport.contains(':') && !hostport.ends_with(']') {
        hostport.to_string()
    } else {
        format!("{hostport}:80")
    })
}

/// Opens the WebSocket (a bounded wait for the TCP connection and the handshake).
fn connect(url: &str) -> Result<WebSocket<TcpStream>, String> {
    let hostport = host_port(url)?;
    let addr = hostport
        .to_socket_addrs()
        .map_err(|e| format!("{hostport}: {e}"))?
        .next()
        .ok_or_else(|| format!("{hostport}: no address"))?;
    let stream = TcpStream::connect_timeout(&addr, Duration::from_secs(5))
        .map_err(|e| format!("connecting to {hostport}: {e}"))?;
    let _ = stream.set_nodelay(true);
    stream
        .set_read_timeout(Some(Duration::from_secs(5)))
        .map_err(|e| e.to_string())?;
    let (ws, _) =
        tungstenite::client(url, stream).map_err(|e| format!("handshake with {url}: {e}"))?;
    ws.get_ref()
        .set_read_timeout(Some(POLL))
        .map_err(|e| e.to_string())?;
    Ok(ws)
}

fn send(ws: &mut WebSocket<TcpStream>, msg: &ClientMessage) -> Result<(), String> {
    ws.send(Message::text(msg.to_text()))
        .map_err(|e| format!("sending: {e}"))
}

/// Carries out what the [`Conn`] said; `Some` when the socket ends.
fn carry(ws: &mut WebSocket<TcpStream>, out: Vec<Out>, down: &Tell) -> Option<Ended> {
    for o in out {
        match o {
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
    mut ws: WebSocket<TcpStream>,
    conn: &mut Conn,
    epoch: Instant,
    up: &Receiver<Up>,
    down: &Tell,
) -> Ended {
    let hello = conn.opened(ms(epoch));
    if let Some(end) = carry(&mut ws, hello, down) {
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
            if let Some(end) = carry(&mut ws, out, down) {
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
                if let Some(end) = carry(&mut ws, out, down) {
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
        if let Some(end) = carry(&mut ws, out, down) {
            return end;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_are_read_with_their_port() {
        assert_eq!(host_port("ws://127.0.0.1:7878").unwrap(), "127.0.0.1:7878");
        assert_eq!(host_port("ws://example.org/").unwrap(), "example.org:80");
        assert!(host_port("wss://example.org").is_err());
        assert!(host_port("ws://").is_err());
    }
}

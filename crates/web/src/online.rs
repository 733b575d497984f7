//! Parlor online in the page: the same client as the terminal's (`parlor::online`: the model, the connection
//! protocol as a sans-I/O state machine, the full screen), over the browser's `WebSocket`.
//!
//! The player's name, secret token and server are kept in the page's local storage under [`KEY`] (a JSON object
//! `{"name", "token", "server"}`): the token is the player's only key to the name, as the terminal's `online.json`
//! is. A page with no token kept registers the name at its first connection (`register`): the server issues the
//! token, which the page keeps before anything else and brings to every `hello` after. A token kept by an older
//! page (one it made itself, 32 hexadecimal digits) goes on working as it is. The server is asked on the screen, prefilled from the page's
//! `?server=ws://...` parameter, else the one kept, else the page's own host on port 7878.
//!
//! What needs no browser is here and tested natively; the socket itself is in `socket` (wasm32 only).

use parlor::online::identity::Identity;
use serde::{Deserialize, Serialize};

/// The local storage key of the player's name, token and server.
pub const KEY: &str = "parlor.online";

/// The port `parlor serve` listens on unless told otherwise.
pub const DEFAULT_PORT: u16 = 7878;

/// What the page keeps of the player.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Kept {
    /// The name other players see.
    pub name: String,
    /// The secret the server knows the name by.
    pub token: String,
    /// The server last connected to.
    pub server: String,
}

impl Kept {
    /// The kept text read, or `None` when there is none or it does not read. An empty token is none issued yet
    /// (the name is registered at the next connection).
    pub fn read(text: Option<&str>) -> Option<Kept> {
        let kept: Kept = serde_json::from_str(text?).ok()?;
        if !kept.token.is_empty() {
            parlor_online::protocol::check_token(&kept.token).ok()?;
        }
        Some(kept)
    }

    /// The text to keep.
    pub fn text(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// The identity it holds.
    pub fn identity(&self) -> Identity {
        Identity {
            name: self.name.clone(),
            token: self.token.clone(),
        }
    }
}

/// A token of 32 hexadecimal digits from 16 random bytes (as an older page made its own).
pub fn token_of(bytes: [u8; 16]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The server to offer: the page's `?server=` parameter, else the one kept, else `ws://` the page's own host name
/// on [`DEFAULT_PORT`] (`127.0.0.1` when the page has no host, opened from a file).
pub fn default_server(param: Option<&str>, kept: Option<&Kept>, hostname: &str) -> String {
    if let Some(p) = param.map(str::trim).filter(|p| !p.is_empty()) {
        return p.to_string();
    }
    if let Some(k) = kept.filter(|k| !k.server.is_empty()) {
        return k.server.clone();
    }
    let host = if hostname.is_empty() {
        "127.0.0.1"
    } else {
        hostname
    };
    if host.contains(':') {
        format!("ws://[{host}]:{DEFAULT_PORT}")
    } else {
        format!("ws://{host}:{DEFAULT_PORT}")
    }
}

/// A server address the page can open: `ws://` or `wss://` (the page's socket speaks both; a page served over
/// HTTPS may open only `wss://`).
pub fn check_server(url: &str) -> Result<(), String> {
    let rest = url
        .strip_prefix("ws://")
        .or_else(|| url.strip_prefix("wss://"))
        .ok_or_else(|| format!("{url}: a server address starts with ws:// or wss://"))?;
    if rest.split('/').next().unwrap_or("").is_empty() {
        return Err(format!("{url}: no host"));
    }
    Ok(())
}

#[cfg(target_arch = "wasm32")]
pub use socket::{browser_offline, open_online, open_wire, prefilled};

#[cfg(target_arch = "wasm32")]
mod socket {
    //! The page's socket: a `web_sys::WebSocket` carrying what the core's `Conn` says, connected again after the
    //! wait it gives when the socket closes. A timer gives the `Conn` the time each second ([`TICK_MS`]): it pings a
    //! server silent for 15 s, drops the socket of one silent for 45 s (the browser answers the server's WebSocket
    //! pings itself and never shows them, so without this a dead socket lasts until the browser gives up on it), and
    //! gives up an attempt to connect not opened in 10 s.

    use super::{KEY, Kept, check_server, default_server};
    use parlor::host::clock;
    use parlor::online::conn::{Conn, Down, Out, Up};
    use parlor::online::connect::ConnectView;
    use parlor::online::screen::{OnlineView, Wire};
    use parlor::tui::View;
    use std::cell::RefCell;
    use std::rc::Rc;
    use wasm_bindgen::JsCast;
    use wasm_bindgen::prelude::*;
    use web_sys::{CloseEvent, MessageEvent, WebSocket};

    /// How often the connection is given the time.
    const TICK_MS: i32 = 1000;

    /// One connection's state, shared by the screen's wire and the socket's handlers.
    struct Shared {
        conn: Conn,
        url: String,
        socket: Option<WebSocket>,
        /// Which socket is current: events of an older one are ignored.
        generation: u64,
        /// What the connection passed on, for the screen.
        inbox: Vec<Down>,
        /// The player left, or the server refused the player: no more connecting.
        stopped: bool,
        /// The current socket's handlers, kept alive as long as it is.
        handlers: Vec<Closure<dyn FnMut(JsValue)>>,
        /// The timer that gives the connection the time, and its handler.
        ticker: Option<(i32, Closure<dyn FnMut()>)>,
    }

    type Link = Rc<RefCell<Shared>>;

    /// The screen's end of the page's connection.
    struct WebWire(Link);

    impl Wire for WebWire {
        fn up(&mut self, up: Up) {
            match up {
                Up::Send(msg) => {
                    let out = self.0.borrow_mut().conn.ask(msg);
                    carry(&self.0, out);
                }
                Up::Quit => stop(&self.0),
            }
        }

        fn down(&mut self) -> Vec<Down> {
            std::mem::take(&mut self.0.borrow_mut().inbox)
        }
    }

    /// Closes the socket for good.
    fn stop(link: &Link) {
        let mut s = link.borrow_mut();
        s.stopped = true;
        s.generation += 1;
        if let Some(ws) = s.socket.take() {
            let _ = ws.close();
        }
        s.handlers.clear();
        if let Some((handle, _)) = s.ticker.take()
            && let Some(w) = web_sys::window()
        {
            w.clear_interval_with_handle(handle);
        }
    }

    /// Gives the connection the time every [`TICK_MS`] until it stops.
    fn start_ticking(link: &Link) {
        let ticking = link.clone();
        let tick = Closure::<dyn FnMut()>::new(move || {
            let out = ticking.borrow_mut().conn.tick(clock().monotonic_ms());
            carry(&ticking, out);
        });
        let handle = web_sys::window().and_then(|w| {
            w.set_interval_with_callback_and_timeout_and_arguments_0(
                tick.as_ref().unchecked_ref(),
                TICK_MS,
            )
            .ok()
        });
        if let Some(handle) = handle {
            link.borrow_mut().ticker = Some((handle, tick));
        }
    }

    /// Carries out what the connection said.
    fn carry(link: &Link, out: Vec<Out>) {
        for o in out {
            match o {
                Out::Send(msg) => {
                    let sent = link
                        .borrow()
                        .socket
                        .as_ref()
                        .map(|ws| ws.send_with_str(&msg.to_text()));
                    if let Some(Err(e)) = sent {
                        return closed(link, format!("sending: {e:?}"));
                    }
                }
                Out::Tell(d) => link.borrow_mut().inbox.push(d),
                Out::Drop(why) => return closed(link, why),
                Out::Stop => return stop(link),
                // The token the server issued to a page that had none: kept before anything else.
                Out::Keep(identity) => {
                    let kept = Kept {
                        name: identity.name,
                        token: identity.token,
                        server: link.borrow().url.clone(),
                    };
                    let saved = storage().map(|s| s.set_item(KEY, &kept.text()));
                    if !matches!(saved, Some(Ok(()))) {
                        link.borrow_mut().inbox.push(Down::Refused(
                            "the browser refused to keep the token the server issued: not connecting".into(),
                        ));
                        return stop(link);
                    }
                }
            }
        }
    }

    /// The socket closed (or never opened) for `why`: the screen is told, and the page connects again after the
    /// connection's wait.
    fn closed(link: &Link, why: String) {
        let wait = {
            let mut s = link.borrow_mut();
            if s.stopped {
                return;
            }
            s.generation += 1;
            if let Some(ws) = s.socket.take() {
                let _ = ws.close();
            }
            let (out, wait) = s.conn.closed(why);
            for o in out {
                if let Out::Tell(d) = o {
                    s.inbox.push(d);
                }
            }
            wait
        };
        let again = link.clone();
        let later = Closure::once_into_js(move || open(&again));
        if let Some(w) = web_sys::window() {
            let _ = w.set_timeout_with_callback_and_timeout_and_arguments_0(
                later.unchecked_ref(),
                i32::try_from(wait).unwrap_or(i32::MAX),
            );
        }
    }

    /// Opens a socket to the server.
    fn open(link: &Link) {
        let (url, generation) = {
            let mut s = link.borrow_mut();
            if s.stopped {
                return;
            }
            s.generation += 1;
            s.conn.dialing(clock().monotonic_ms());
            (s.url.clone(), s.generation)
        };
        let ws = match WebSocket::new(&url) {
            Ok(ws) => ws,
            Err(e) => return closed(link, format!("{url}: {e:?}")),
        };
        let current = {
            let link = link.clone();
            move || link.borrow().generation == generation
        };
        let on_open = {
            let (link, current) = (link.clone(), current.clone());
            Closure::<dyn FnMut(JsValue)>::new(move |_: JsValue| {
                if current() {
                    let out = link.borrow_mut().conn.opened(clock().monotonic_ms());
                    carry(&link, out);
                }
            })
        };
        let on_message = {
            let (link, current) = (link.clone(), current.clone());
            Closure::<dyn FnMut(JsValue)>::new(move |e: JsValue| {
                let Some(text) = e
                    .dyn_into::<MessageEvent>()
                    .ok()
                    .and_then(|m| m.data().as_string())
                else {
                    return;
                };
                if current() {
                    let out = link.borrow_mut().conn.text(&text, clock().monotonic_ms());
                    carry(&link, out);
                }
            })
        };
        let on_close = {
            let link = link.clone();
            Closure::<dyn FnMut(JsValue)>::new(move |e: JsValue| {
                if current() {
                    let why = match e.dyn_into::<CloseEvent>() {
                        Ok(c) if !c.reason().is_empty() => {
                            format!("the server closed the connection: {}", c.reason())
                        }
                        Ok(c) if c.code() == 1006 => "the connection failed".to_string(),
                        _ => "the server closed the connection".to_string(),
                    };
                    closed(&link, why);
                }
            })
        };
        ws.set_onopen(Some(on_open.as_ref().unchecked_ref()));
        ws.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        ws.set_onclose(Some(on_close.as_ref().unchecked_ref()));
        let mut s = link.borrow_mut();
        s.socket = Some(ws);
        s.handlers = vec![on_open, on_message, on_close];
    }

    /// The page's local storage.
    fn storage() -> Option<web_sys::Storage> {
        web_sys::window()?.local_storage().ok()?
    }

    /// Connects to `server` as `name` (with the kept token, or, with none, registering the name: the server issues
    /// the token): the wire both faces' online screens read and write (the terminal face's [`OnlineView`], the
    /// graphical face's lobby).
    pub fn open_wire(server: &str, name: &str) -> Result<Box<dyn Wire>, String> {
        check_server(server)?;
        parlor_online::protocol::check_name(name).map_err(|e| format!("name {name}: {e}"))?;
        let store = storage();
        let kept = Kept::read(
            store
                .as_ref()
                .and_then(|s| s.get_item(KEY).ok())
                .flatten()
                .as_deref(),
        );
        // No token kept: empty, and the connection registers the name (the server issues the token).
        let token = kept.map(|k| k.token).unwrap_or_default();
        let kept = Kept {
            name: name.to_string(),
            token,
            server: server.to_string(),
        };
        let saved = store.map(|s| s.set_item(KEY, &kept.text()));
        if !matches!(saved, Some(Ok(()))) {
            return Err("the browser refused to keep the name and token: not connecting".into());
        }
        let link: Link = Rc::new(RefCell::new(Shared {
            conn: Conn::new(kept.identity()),
            url: server.to_string(),
            socket: None,
            generation: 0,
            inbox: Vec::new(),
            stopped: false,
            handlers: Vec::new(),
            ticker: None,
        }));
        open(&link);
        start_ticking(&link);
        Ok(Box::new(WebWire(link)))
    }

    /// Connects to `server` as `name`: the terminal face's online screen.
    fn connect(server: &str, name: &str) -> Result<OnlineView, String> {
        let wire = open_wire(server, name)?;
        Ok(OnlineView::new(server, name, parlor::registry::online(), wire).leaving_to_menu())
    }

    /// The server and the name to offer: the server as [`default_server`] chooses it, the name last used (or
    /// none).
    pub fn prefilled() -> (String, String) {
        let kept = Kept::read(
            storage()
                .and_then(|s| s.get_item(KEY).ok())
                .flatten()
                .as_deref(),
        );
        let param = crate::page::url_param("server");
        let hostname = web_sys::window()
            .and_then(|w| w.location().hostname().ok())
            .unwrap_or_default();
        let server = default_server(param.as_deref(), kept.as_ref(), &hostname);
        (server, kept.map(|k| k.name).unwrap_or_default())
    }

    /// Whether the browser says it is offline (`navigator.onLine` false).
    pub fn browser_offline() -> bool {
        let Some(w) = web_sys::window() else {
            return false;
        };
        js_sys::Reflect::get(&w, &JsValue::from_str("navigator"))
            .and_then(|n| js_sys::Reflect::get(&n, &JsValue::from_str("onLine")))
            .is_ok_and(|v| v.as_bool() == Some(false))
    }

    /// The menu's "Online": the question of the server and name, prefilled.
    pub fn open_online() -> Box<dyn View> {
        let (server, name) = prefilled();
        Box::new(ConnectView::new(
            &server,
            &name,
            parlor::registry::online().room.title(),
            Box::new(connect),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_server_comes_from_the_page_then_the_kept_one_then_the_host() {
        let kept = Kept {
            name: "ann".into(),
            token: token_of([7; 16]),
            server: "ws://kept.example:7000".into(),
        };
        assert_eq!(
            default_server(Some("ws://127.0.0.1:9"), Some(&kept), "h"),
            "ws://127.0.0.1:9"
        );
        assert_eq!(
            default_server(Some(" "), Some(&kept), "h"),
            "ws://kept.example:7000"
        );
        assert_eq!(
            default_server(None, None, "example.org"),
            "ws://example.org:7878"
        );
        assert_eq!(default_server(None, None, ""), "ws://127.0.0.1:7878");
        assert_eq!(default_server(None, None, "::1"), "ws://[::1]:7878");
    }

    #[test]
    fn the_kept_player_reads_back_and_a_damaged_one_is_not_used() {
        let kept = Kept {
            name: "ann".into(),
            token: token_of([0xab; 16]),
            server: "ws://127.0.0.1:7878".into(),
        };
        assert_eq!(kept.token.len(), 32);
        assert_eq!(Kept::read(Some(&kept.text())), Some(kept.clone()));
        assert_eq!(kept.identity().name, "ann");
        assert_eq!(Kept::read(Some("{not json")), None);
        assert_eq!(Kept::read(None), None);
        let short = r#"{"name":"ann","token":"short","server":""}"#;
        assert_eq!(Kept::read(Some(short)), None, "a token the server refuses");
        // None issued yet: the name is kept, and registered at the next connection.
        let unissued = r#"{"name":"ann","token":"","server":"ws://127.0.0.1:7878"}"#;
        let kept = Kept::read(Some(unissued)).expect("a name with no token yet reads");
        assert_eq!((kept.name.as_str(), kept.token.as_str()), ("ann", ""));
    }

    #[test]
    fn only_websocket_addresses_are_opened() {
        assert!(check_server("ws://127.0.0.1:7878").is_ok());
        assert!(check_server("wss://parlor.example.org/").is_ok());
        assert!(check_server("http://example.org").is_err());
        assert!(check_server("ws://").is_err());
    }
}

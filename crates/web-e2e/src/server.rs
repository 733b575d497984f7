//! A static file server on 127.0.0.1, std only: GET and HEAD of the files under one folder, with the MIME types a
//! page needs (`application/wasm` above all: browsers refuse to stream-compile wasm served as anything else).
//!
//! It logs every request's path and status, so a test can check that the page fetched nothing it lacks.

use std::io::{BufRead, BufReader, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream};
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;
use std::time::Duration;

/// One request the server answered: its path (without the query) and the status sent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hit {
    /// The path asked for, as sent (query and fragment cut off).
    pub path: String,
    /// The HTTP status answered.
    pub status: u16,
}

/// A running server; dropping it stops it.
pub struct Server {
    addr: SocketAddr,
    stop: Arc<AtomicBool>,
    hits: Arc<Mutex<Vec<Hit>>>,
    thread: Option<JoinHandle<()>>,
}

impl Server {
    /// Serves `root` on a free port of 127.0.0.1.
    pub fn start(root: &Path) -> std::io::Result<Self> {
        let listener = TcpListener::bind("127.0.0.1:0")?;
        let addr = listener.local_addr()?;
        let stop = Arc::new(AtomicBool::new(false));
        let hits = Arc::new(Mutex::new(Vec::new()));
        let root = root.to_path_buf();
        let thread = {
            let stop = Arc::clone(&stop);
            let hits = Arc::clone(&hits);
            std::thread::Builder::new()
                .name("web-e2e-server".into())
                .spawn(move || accept_loop(&listener, &root, &stop, &hits))?
        };
        Ok(Self {
            addr,
            stop,
            hits,
            thread: Some(thread),
        })
    }

    /// The address served, such as `127.0.0.1:41234`.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The page's URL with this query (`""`, or such as `"backend=dom"`).
    pub fn url(&self, query: &str) -> String {
        if query.is_empty() {
            format!("http://{}/", self.addr)
        } else {
            format!("http://{}/?{}", self.addr, query.trim_start_matches('?'))
        }
    }

    /// Every request answered so far, oldest first.
    pub fn hits(&self) -> Vec<Hit> {
        self.hits
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }
}

impl Server {
    /// Stops answering: no new connection is taken, and the connections open (kept alive) answer nothing more and
    /// close. The address stays bound until the server is dropped, refusing nothing but serving nothing.
    pub fn stop(&self) {
        if !self.stop.swap(true, Ordering::SeqCst) {
            // Wake the blocking accept so that it sees the flag.
            let _ = TcpStream::connect_timeout(&self.addr, Duration::from_secs(1));
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

fn accept_loop(
    listener: &TcpListener,
    root: &Path,
    stop: &Arc<AtomicBool>,
    hits: &Arc<Mutex<Vec<Hit>>>,
) {
    for stream in listener.incoming() {
        if stop.load(Ordering::SeqCst) {
            break;
        }
        let Ok(stream) = stream else { continue };
        let root = root.to_path_buf();
        let hits = Arc::clone(hits);
        let stop = Arc::clone(stop);
        // A thread a connection: the browser opens several at once, and each is short.
        let _ = std::thread::Builder::new()
            .name("web-e2e-conn".into())
            .spawn(move || {
                let _ = serve(stream, &root, &hits, &stop);
            });
    }
}

fn serve(
    stream: TcpStream,
    root: &Path,
    hits: &Mutex<Vec<Hit>>,
    stop: &AtomicBool,
) -> std::io::Result<()> {
    stream.set_read_timeout(Some(Duration::from_secs(10)))?;
    stream.set_write_timeout(Some(Duration::from_secs(10)))?;
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut stream = stream;
    // Keep-alive: answer requests on this connection until the browser closes it or goes quiet.
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line)? == 0 {
            return Ok(());
        }
        // Stopped (the page tested offline): the request is not answered, the connection closes.
        if stop.load(Ordering::SeqCst) {
            let _ = stream.shutdown(Shutdown::Both);
            return Ok(());
        }
        let mut head_bytes = line.len();
        loop {
            let mut header = String::new();
            let n = reader.read_line(&mut header)?;
            head_bytes += n;
            if n == 0 || header == "\r\n" || header == "\n" || head_bytes > 64 * 1024 {
                break;
            }
        }
        let mut parts = line.split_whitespace();
        let method = parts.next().unwrap_or("");
        let target = parts.next().unwrap_or("/");
        let path = target.split(['?', '#']).next().unwrap_or("/").to_string();
        let (status, body, mime) = match method {
            "GET" | "HEAD" => match resolve(root, &path).and_then(|file| {
                std::fs::read(&file)
                    .ok()
                    .map(|bytes| (bytes, mime_type(&file)))
            }) {
                Some((bytes, mime)) => (200, bytes, mime),
                None => (404, b"not found\n".to_vec(), "text/plain; charset=utf-8"),
            },
            _ => (
                405,
                b"method not allowed\n".to_vec(),
                "text/plain; charset=utf-8",
            ),
        };
        hits.lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(Hit { path, status });
        let reason = match status {
            200 => "OK",
            404 => "Not Found",
            _ => "Method Not Allowed",
        };
        let head = format!(
            "HTTP/1.1 {status} {reason}\r\nContent-Type: {mime}\r\nContent-Length: {}\r\n\
             Cache-Control: no-store\r\nConnection: keep-alive\r\n\r\n",
            body.len()
        );
        stream.write_all(head.as_bytes())?;
        if method != "HEAD" {
            stream.write_all(&body)?;
        }
        stream.flush()?;
        if status == 405 {
            let _ = stream.shutdown(Shutdown::Both);
            return Ok(());
        }
    }
}

/// The file a URL path names under `root`, if it is one: `/` is `index.html`, `%XX` escapes are decoded, and no
/// path may leave the root.
pub fn resolve(root: &Path, url_path: &str) -> Option<PathBuf> {
    let decoded = percent_decode(url_path)?;
    let relative = decoded.trim_start_matches('/');
    let mut file = root.to_path_buf();
    for component in Path::new(relative).components() {
        match component {
            Component::Normal(part) => file.push(part),
            Component::CurDir => {}
            _ => return None,
        }
    }
    if file.is_dir() {
        file.push("index.html");
    }
    file.is_file().then_some(file)
}

fn percent_decode(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = text.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// The Content-Type served for a file, by its extension.
pub fn mime_type(file: &Path) -> &'static str {
    let ext = file
        .extension()
        .and_then(|e| e.to_str())
        .unwrap_or("")
        .to_ascii_lowercase();
    match ext.as_str() {
        "html" | "htm" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "wasm" => "application/wasm",
        "css" => "text/css; charset=utf-8",
        "json" | "map" => "application/json",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "ico" => "image/x-icon",
        "txt" | "toml" => "text/plain; charset=utf-8",
        "woff2" => "font/woff2",
        "woff" => "font/woff",
        "ttf" => "font/ttf",
        "webmanifest" => "application/manifest+json",
        _ => "application/octet-stream",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    fn get(addr: SocketAddr, path: &str) -> String {
        let mut stream = TcpStream::connect(addr).unwrap();
        write!(
            stream,
            "GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
        )
        .unwrap();
        stream.shutdown(Shutdown::Write).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(5)))
            .unwrap();
        let mut reply = Vec::new();
        // The server keeps the connection open; read what it sent until it goes quiet or closes.
        let mut buf = [0u8; 4096];
        loop {
            match stream.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => {
                    reply.extend_from_slice(&buf[..n]);
                    let text = String::from_utf8_lossy(&reply);
                    if let Some((head, body)) = text.split_once("\r\n\r\n") {
                        let len: usize = head
                            .lines()
                            .find_map(|l| l.strip_prefix("Content-Length: "))
                            .unwrap()
                            .parse()
                            .unwrap();
                        if body.len() >= len {
                            break;
                        }
                    }
                }
                Err(e) => panic!("reading the reply: {e}"),
            }
        }
        String::from_utf8(reply).unwrap()
    }

    #[test]
    fn serves_files_with_their_types_and_refuses_the_rest() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("index.html"), "<p>hi</p>").unwrap();
        std::fs::write(dir.path().join("a b.wasm"), [0u8, 97, 115, 109]).unwrap();
        std::fs::write(dir.path().join("x.js"), "1").unwrap();
        let outside = dir.path().parent().unwrap().join("secret.txt");
        let server = Server::start(dir.path()).unwrap();

        let index = get(server.addr(), "/?seed=3");
        assert!(index.starts_with("HTTP/1.1 200"), "{index}");
        assert!(index.contains("Content-Type: text/html"), "{index}");
        assert!(index.ends_with("<p>hi</p>"), "{index}");

        let wasm = get(server.addr(), "/a%20b.wasm");
        assert!(wasm.contains("Content-Type: application/wasm"), "{wasm}");
        assert!(wasm.contains("Content-Length: 4"), "{wasm}");
        assert!(get(server.addr(), "/x.js").contains("Content-Type: text/javascript"));

        assert!(get(server.addr(), "/missing.js").starts_with("HTTP/1.1 404"));
        assert!(get(server.addr(), "/../secret.txt").starts_with("HTTP/1.1 404"));
        assert!(resolve(dir.path(), "/../secret.txt").is_none());
        assert!(!outside.exists() || resolve(dir.path(), "/%2e%2e/secret.txt").is_none());

        let hits = server.hits();
        assert_eq!(hits.len(), 5);
        assert_eq!(
            hits[0],
            Hit {
                path: "/".into(),
                status: 200
            }
        );
        assert_eq!(hits[3].status, 404);
    }
}

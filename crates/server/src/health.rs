//! The operator's endpoints, on the same listener as the WebSocket upgrade (`/`): `GET /healthz` answers 200 `ok`
//! when the hub and the store answer (the hub's lock taken and a read of the store done, each within a bounded
//! time), else 503 with why; `GET /metrics` answers the server's measures in Prometheus's text format
//! ([`crate::metrics`]). [`check`] asks a running server for `/healthz` (`parlor-server --health-check`).

use crate::Shared;
use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How long the hub's lock may take to get before `/healthz` says the hub does not answer.
pub const HUB_TIMEOUT: Duration = Duration::from_secs(1);

/// How long the store's read may take before `/healthz` says the store does not answer.
pub const STORE_TIMEOUT: Duration = Duration::from_secs(2);

/// `GET /healthz`.
pub(crate) async fn healthz(State(shared): State<Arc<Shared>>) -> Response {
    if !hub_answers(&shared).await {
        return unhealthy(format!(
            "the hub does not answer (its lock not free within {} ms)",
            HUB_TIMEOUT.as_millis()
        ));
    }
    match tokio::time::timeout(STORE_TIMEOUT, shared.store.read(|s| s.last_game_id())).await {
        Ok(Ok(_)) => (StatusCode::OK, "ok\n").into_response(),
        Ok(Err(e)) => {
            tracing::error!("health check: the store failed: {e}");
            unhealthy(format!("the store failed: {e}"))
        }
        Err(_) => unhealthy(format!(
            "the store does not answer (no read within {} ms)",
            STORE_TIMEOUT.as_millis()
        )),
    }
}

fn unhealthy(why: String) -> Response {
    (
        StatusCode::SERVICE_UNAVAILABLE,
        format!("unhealthy: {why}\n"),
    )
        .into_response()
}

/// Whether the hub's lock can be had within [`HUB_TIMEOUT`] (tried every few milliseconds, never blocking a
/// runtime thread).
async fn hub_answers(shared: &Shared) -> bool {
    let deadline = Instant::now() + HUB_TIMEOUT;
    loop {
        match shared.hub.try_lock() {
            Ok(_) | Err(std::sync::TryLockError::Poisoned(_)) => return true,
            Err(std::sync::TryLockError::WouldBlock) => {}
        }
        if Instant::now() >= deadline {
            return false;
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
}

/// `GET /metrics`.
pub(crate) async fn metrics(State(shared): State<Arc<Shared>>) -> Response {
    let counts = shared.hub().counts();
    (
        [(
            header::CONTENT_TYPE,
            "text/plain; version=0.0.4; charset=utf-8",
        )],
        shared.metrics.render(counts),
    )
        .into_response()
}

/// Asks the server listening on `listen` for `/healthz` (an address of every interface, `0.0.0.0` or `::`, is asked
/// on loopback), each step within `timeout`: the body if it answered 200, else why not. `parlor-server
/// --health-check` runs it (the container's HEALTHCHECK: the image has no shell or curl).
pub fn check(listen: std::net::SocketAddr, timeout: Duration) -> Result<String, String> {
    use std::io::{Read, Write};
    use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr, TcpStream};
    let ip = match listen.ip() {
        IpAddr::V4(ip) if ip.is_unspecified() => IpAddr::V4(Ipv4Addr::LOCALHOST),
        IpAddr::V6(ip) if ip.is_unspecified() => IpAddr::V6(Ipv6Addr::LOCALHOST),
        ip => ip,
    };
    let addr = SocketAddr::new(ip, listen.port());
    let mut stream = TcpStream::connect_timeout(&addr, timeout)
        .map_err(|e| format!("connecting to {addr}: {e}"))?;
    stream
        .set_read_timeout(Some(timeout))
        .and_then(|()| stream.set_write_timeout(Some(timeout)))
        .map_err(|e| format!("{addr}: {e}"))?;
    write!(
        stream,
        "GET /healthz HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
    )
    .map_err(|e| format!("asking {addr}: {e}"))?;
    let mut answer = Vec::new();
    stream
        .take(64 * 1024)
        .read_to_end(&mut answer)
        .map_err(|e| format!("reading {addr}'s answer: {e}"))?;
    let answer = String::from_utf8_lossy(&answer);
    let (head, body) = answer.split_once("\r\n\r\n").unwrap_or((&answer, ""));
    let status = head.split(' ').nth(1).unwrap_or("");
    if status == "200" {
        Ok(body.trim().to_string())
    } else {
        Err(format!(
            "{addr} answered {}: {}",
            head.lines().next().unwrap_or("nothing"),
            body.trim()
        ))
    }
}

//! The operator's endpoints, on the same listener as the WebSocket upgrade (`/`): `GET /healthz` answers 200 `ok`
//! when the hub and the store answer (the hub's lock taken and a read of the store done, each within a bounded
//! time), else 503 with why; `GET /metrics` answers the server's measures in Prometheus's text format
//! ([`crate::metrics`]).

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

//! What the core needs from the machine it runs on: the time ([`Clock`]), what tells this running program apart
//! from others ([`Entropy`]), and a way to run long work in the background ([`Runner`]).
//!
//! A front end installs its implementations once, at start ([`install`]); until then (and in tests) the core
//! uses the defaults: with the `terminal` feature the system clock, the process id and threads (`system`);
//! without it a clock stopped at zero, instance 0 and work run at once ([`RunNow`]), so that a front end that
//! forgets to install anything still runs (with every game seeded alike). A browser would install a clock over
//! `Date.now()` and `performance.now()`, an instance number from `crypto.getRandomValues`, and a runner that
//! runs work at once; the computer's thinking goes to a Web Worker as data through [`crate::mid::elsewhere`].

mod clock;
#[cfg(all(windows, feature = "terminal"))]
pub mod ctrl_windows;
mod runner;
#[cfg(feature = "terminal")]
pub mod system;

pub use clock::{Clock, Entropy, Stopped};
pub use runner::{RunNow, Runner};

use std::sync::OnceLock;

/// The machine's services, as installed by a front end.
#[derive(Clone, Copy)]
pub struct Host {
    /// The time.
    pub clock: &'static dyn Clock,
    /// What tells this program apart.
    pub entropy: &'static dyn Entropy,
    /// Background work.
    pub runner: &'static dyn Runner,
}

static HOST: OnceLock<Host> = OnceLock::new();

/// The services used when a front end installed none.
fn default_host() -> Host {
    #[cfg(feature = "terminal")]
    {
        Host {
            clock: &system::SystemClock,
            entropy: &system::ProcessId,
            runner: &system::Threads,
        }
    }
    #[cfg(not(feature = "terminal"))]
    {
        Host {
            clock: &Stopped,
            entropy: &Stopped,
            runner: &RunNow,
        }
    }
}

/// Installs the front end's services, once, before the first game starts; `false` (and nothing changes) when
/// some were already installed or already used.
pub fn install(host: Host) -> bool {
    HOST.set(host).is_ok()
}

/// The installed services (the defaults if none were installed).
pub fn host() -> Host {
    *HOST.get_or_init(default_host)
}

/// The installed clock.
pub fn clock() -> &'static dyn Clock {
    host().clock
}

/// The installed runner.
pub fn runner() -> &'static dyn Runner {
    host().runner
}

/// The installed entropy.
pub fn entropy() -> &'static dyn Entropy {
    host().entropy
}

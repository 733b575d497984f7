//! A training checkpoint: the weights file, and beside it the training state that resumes a run exactly (the sums of
//! temporal coherence, the pool of late-game starts), each stamped with the game count of the weights it goes with.

use std::path::Path;

use super::coherence::Coherence;
use super::file::{WeightsFileError, save};
use super::network::Network;
use super::starts::{POOL_CAPACITY, Starts};

/// The training state beside a checkpoint, for the options of a run.
#[derive(Debug, Default)]
pub struct TrainingState {
    /// Temporal coherence's sums, when the run learns with it.
    pub tc: Option<Coherence>,
    /// The pool of late-game starts, when the run restarts games from it.
    pub starts: Option<Starts>,
    /// Whether the sums were read from the checkpoint (false: they start afresh).
    pub tc_resumed: bool,
}

impl TrainingState {
    /// The state for a run of `net`, checkpointed at `path` (none: everything starts afresh): the sums when `tc`, the
    /// pool when `restart`; what was saved for another game count starts afresh. Sums saved for other stages (the
    /// checkpoint of a network since [promoted](Network::promoted) to stages) are promoted the same way.
    pub fn resume(
        path: Option<&Path>,
        net: &Network,
        tc: bool,
        restart: bool,
    ) -> Result<TrainingState, WeightsFileError> {
        let games = net.games();
        let saved_tc = match path {
            Some(p) if tc => match Coherence::load(p, games)? {
                Some(sums) if !sums.fits(net) => sums.promoted(net.stage_from()).ok(),
                sums => sums,
            },
            _ => None,
        };
        let saved_pool = match path {
            Some(p) if restart => Starts::load(p, games, POOL_CAPACITY)?,
            _ => None,
        };
        Ok(TrainingState {
            tc_resumed: saved_tc.is_some(),
            tc: tc.then(|| saved_tc.unwrap_or_else(|| Coherence::like(net))),
            starts: restart.then(|| saved_pool.unwrap_or_else(|| Starts::new(POOL_CAPACITY))),
        })
    }

    /// Writes the checkpoint: the sums and the pool first, the weights last, each atomically. A run stopped between
    /// two files leaves sums or a pool stamped with a game count the weights do not have, which [`Self::resume`]
    /// leaves aside.
    pub fn save(&self, net: &Network, path: &Path) -> Result<(), WeightsFileError> {
        if let Some(tc) = &self.tc {
            tc.save(path, net.games())?;
        }
        if let Some(starts) = &self.starts {
            starts.save(path, net.games())?;
        }
        save(net, path, 1)
    }
}

//! Temporal coherence learning (Beal and Smith's TC, as Jaśkowski applied it to 2048): every weight gets its own
//! learning rate `|E| / A`, where `E` sums the errors that weight has been moved by and `A` their magnitudes. A weight
//! whose errors keep one sign learns at the full rate; one whose errors cancel out (it has found its value and only
//! sees noise) slows down. A weight never updated has the full rate.
//!
//! The two sums are as large as the network and are kept in two more arrays of the same shape, saved beside a
//! training checkpoint (`FILE.tc-errors` and `FILE.tc-sizes`, in the weights file's format) so that a run resumes
//! exactly where it stopped. They are training state only: play reads the weights alone.

use std::path::{Path, PathBuf};

use super::file::{WeightsFileError, load, save};
use super::network::{FEATURES, Network};
use crate::bitboard::Bitboard;

/// The per-weight sums of temporal coherence learning.
#[derive(Debug)]
pub struct Coherence {
    /// `E`: the sum of each weight's signed errors.
    errors: Network,
    /// `A`: the sum of their absolute values.
    sizes: Network,
}

impl Default for Coherence {
    fn default() -> Self {
        Coherence::new()
    }
}

impl Coherence {
    /// Fresh sums for a network of one stage (every weight at the full rate).
    pub(crate) fn new() -> Coherence {
        Coherence {
            errors: Network::new(0.0),
            sizes: Network::new(0.0),
        }
    }

    /// Fresh sums shaped like `net` (its stages).
    pub(crate) fn like(net: &Network) -> Coherence {
        let fresh = || Network::staged(0.0, net.stage_from()).unwrap_or_else(|_| Network::new(0.0));
        Coherence {
            errors: fresh(),
            sizes: fresh(),
        }
    }

    /// The same sums in the stages of `stage_from`: a stage that begins where one of these sums' stages began keeps
    /// its sums (its weights go on learning at the rates they had reached); a stage that is new starts afresh, at the
    /// full rate, although [`Network::promoted`] copied it weights: those weights had settled on the values of the
    /// boards of the stage below, and must now learn other values quickly.
    pub(crate) fn promoted(
        &self,
        stage_from: &[u8],
    ) -> Result<Coherence, crate::error::StagesError> {
        let old = self.errors.stage_from();
        let out = Coherence {
            errors: self.errors.promoted(stage_from)?,
            sizes: self.sizes.promoted(stage_from)?,
        };
        for (s, &lowest) in stage_from.iter().enumerate() {
            if !old.contains(&lowest) {
                out.errors.clear_stage(s + 1);
                out.sizes.clear_stage(s + 1);
            }
        }
        Ok(out)
    }

    /// True when the sums are shaped like `net` (as many stages, at the same thresholds).
    pub(crate) fn fits(&self, net: &Network) -> bool {
        self.errors.stage_from() == net.stage_from() && self.sizes.stage_from() == net.stage_from()
    }

    /// The learning rate of weight `i`, from 0 to 1.
    #[inline(always)]
    pub(crate) fn rate(&self, i: usize) -> f32 {
        let size = self.sizes.weight(i);
        if size > 0.0 {
            self.errors.weight(i).abs() / size
        } else {
            1.0
        }
    }

    /// Moves `V(a)` toward `target`: each of its features' weights by `alpha * rate * error / FEATURES`, then records
    /// the error in the weight's sums. Returns the new value of `a` (exact unless two of its symmetric images share a
    /// weight).
    #[inline]
    pub(crate) fn step(&self, net: &Network, a: Bitboard, target: f32, alpha: f32) -> f32 {
        let v = net.eval(a);
        let share = (target - v) / FEATURES as f32;
        let mut moved = 0f32;
        debug_assert!(self.fits(net));
        for i in net.features(a) {
            let step = alpha * self.rate(i) * share;
            net.set_weight(i, net.weight(i) + step);
            self.errors.set_weight(i, self.errors.weight(i) + share);
            self.sizes.set_weight(i, self.sizes.weight(i) + share.abs());
            moved += step;
        }
        v + moved
    }

    /// The files that hold the sums of the checkpoint `path`.
    pub(crate) fn paths(path: &Path) -> [PathBuf; 2] {
        ["tc-errors", "tc-sizes"].map(|ext| {
            let mut p = path.as_os_str().to_owned();
            p.push(".");
            p.push(ext);
            PathBuf::from(p)
        })
    }

    /// Writes the sums beside the checkpoint `path` (each file atomically), stamped with `games`, the game count of
    /// the weights they go with.
    pub(crate) fn save(&self, path: &Path, games: u64) -> Result<(), WeightsFileError> {
        let [e, a] = Coherence::paths(path);
        self.errors.set_games(games);
        self.sizes.set_games(games);
        save(&self.errors, &e, 1)?;
        save(&self.sizes, &a, 1)
    }

    /// Reads the sums saved beside the checkpoint `path` for a network trained on `games` games. `Ok(None)` when
    /// there are none, or when they belong to another game count (a run stopped between two of its files, or
    /// weights trained without coherence): training then starts the sums afresh. (Check [`Coherence::fits`] before
    /// training with them.)
    pub(crate) fn load(path: &Path, games: u64) -> Result<Option<Coherence>, WeightsFileError> {
        let [e, a] = Coherence::paths(path);
        if !e.exists() || !a.exists() {
            return Ok(None);
        }
        let (errors, sizes) = (load(&e)?, load(&a)?);
        if errors.games() != games || sizes.games() != games {
            return Ok(None);
        }
        Ok(Some(Coherence { errors, sizes }))
    }

    #[cfg(test)]
    /// True when both sums hold the same bits as `other`'s.
    pub(crate) fn same_as(&self, other: &Coherence) -> bool {
        (0..self.errors.len()).all(|i| {
            self.errors.weight(i).to_bits() == other.errors.weight(i).to_bits()
                && self.sizes.weight(i).to_bits() == other.sizes.weight(i).to_bits()
        })
    }
}

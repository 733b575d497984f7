//! Nocca's tables as things made elsewhere and kept ([`Kept`]): on the page, a board's table is solved by the
//! builder worker and kept in IndexedDB under its file name (`nocca-4x4.table`); the perfect level's moves wait
//! for it, the hints search meanwhile, and the value overlay fetches it.

use super::Nocca;
use super::tables::{kept_key, progress_text, solves_on_first_use};
use crate::mid::Contexts;
use crate::mid::elsewhere::Request;
use crate::mid::game::{Game, Purpose};
use crate::mid::kept::Kept;
use nocca::Dims;

/// Nocca's tables, for the registry's list of things kept.
pub static KEPT: KeptTables = KeptTables;

/// Nocca's tables as [`Kept`] (the context's [`super::Tables`] holds them).
pub struct KeptTables;

/// The board a key names, if it is a table's key (`nocca-4x4.table`).
fn key_dims(key: &str) -> Option<Dims> {
    key.strip_prefix("nocca-")?
        .strip_suffix(".table")?
        .parse()
        .ok()
}

impl Kept for KeptTables {
    fn owns(&self, key: &str) -> bool {
        key_dims(key).is_some()
    }

    fn make_elsewhere(&self, contexts: &Contexts) {
        contexts.of::<Nocca>().solve_elsewhere();
    }

    fn take(&self, contexts: &Contexts, key: &str, bytes: &[u8]) -> Result<String, String> {
        let dims = key_dims(key).ok_or_else(|| format!("{key}: not a table's key"))?;
        let table = nocca::Table::from_bytes(bytes, dims, &format!("kept {key}"))
            .map_err(|e| e.to_string())?;
        contexts.of::<Nocca>().add_ready(table);
        Ok(dims.to_string())
    }

    fn wanted(&self, contexts: &Contexts) -> Option<String> {
        contexts.of::<Nocca>().take_wanted().map(kept_key)
    }

    fn build(&self, key: &str, progress: &mut dyn FnMut(&str)) -> Result<Vec<u8>, String> {
        let dims = key_dims(key)
            .filter(|d| solves_on_first_use(*d))
            .ok_or_else(|| format!("{key}: not a table the page can make"))?;
        let mut said = String::new();
        let table = nocca::Table::solve(dims, &nocca::SolveOptions::default(), &mut |p| {
            let text = progress_text(p);
            if text != said {
                progress(&text);
                said = text;
            }
        })
        .map_err(|e| format!("solving {dims}: {e}"))?;
        Ok(table.to_bytes())
    }

    fn build_failed(&self, contexts: &Contexts, key: &str, why: &str) {
        if let Some(dims) = key_dims(key) {
            contexts
                .of::<Nocca>()
                .build_failed(dims, &format!("the {dims} table: its build failed: {why}"));
        }
    }

    /// A move of the perfect level (an opponent's, autoplay's or a watched one's; not a hint, which searches
    /// meanwhile) on a board whose table is being solved by the builder and has not come.
    fn waits_for(&self, contexts: &Contexts, request: &Request) -> Option<String> {
        if request.game != Nocca::ID || request.purpose == Purpose::Hint {
            return None;
        }
        let params = Nocca::params_from_json(&request.options).ok()?;
        if params.level != nocca::Opponent::Perfect {
            return None;
        }
        let tables = contexts.of::<Nocca>();
        if tables.ready(params.board).is_some() {
            return None;
        }
        tables.prepare(params.board);
        tables
            .solving_elsewhere(params.board)
            .then(|| kept_key(params.board))
    }

    /// A board's table, the one the context holds (read from the browser's store or handed over by the builder).
    fn fetch(&self, contexts: &Contexts, key: &str) -> Result<Option<Vec<u8>>, String> {
        let dims = key_dims(key).ok_or_else(|| format!("{key}: not a table's key"))?;
        let never = std::sync::atomic::AtomicBool::new(false);
        let tables = contexts.of::<Nocca>();
        match tables.get(dims, &never) {
            Ok(table) => Ok(Some(table.to_bytes())),
            Err(_) if tables.solving_elsewhere(dims) => Ok(None),
            Err(why) => Err(why),
        }
    }
}

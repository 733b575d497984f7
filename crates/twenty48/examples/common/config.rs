//! What the measuring examples share: the search configuration from `--depth D` or `--ms-per-move T`.

use twenty48::ai::SearchConfig;

/// A fixed depth (`--depth`, 1 to 12) or a budget in milliseconds (`--ms-per-move`, above 0 and at most 60,000),
/// from the flag and its value; any other flag is read as `--ms-per-move`.
pub fn search_config(flag: &str, value: &str) -> Result<SearchConfig, String> {
    if flag == "--depth" {
        let d: u32 = value.parse().map_err(|e| format!("--depth: {e}"))?;
        if !(1..=12).contains(&d) {
            return Err(format!("--depth: from 1 to 12, not {d}"));
        }
        Ok(SearchConfig::depth(d))
    } else {
        let ms: f64 = value.parse().map_err(|e| format!("--ms-per-move: {e}"))?;
        if !(ms > 0.0 && ms <= 60_000.0) {
            return Err(format!(
                "--ms-per-move: above 0 and at most 60000, not {ms}"
            ));
        }
        Ok(SearchConfig::millis(ms))
    }
}

//! What the tools that read late-game starts share: the file `starts collect` writes, `seed S board B` a line.

use twenty48::Board;

/// The starts of a file written by `collect`: (seed, board) a line.
pub fn read_starts(path: &std::path::Path) -> Result<Vec<(u64, Board)>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let path = path.display();
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, line)| {
            let f: Vec<&str> = line.split_whitespace().collect();
            match f[..] {
                ["seed", s, "board", b] => Ok((
                    s.parse().map_err(|e| format!("{path}:{}: {e}", i + 1))?,
                    b.parse().map_err(|e| format!("{path}:{}: {e}", i + 1))?,
                )),
                _ => Err(format!("{path}:{}: not `seed S board B`", i + 1)),
            }
        })
        .collect()
}

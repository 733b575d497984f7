//! A 2048 board as text: the rows of tiles between rules, as plain mode and the online daily game print it.

use twenty48::Board;

/// The board as text, with `+` after the tile that just appeared and `*` after tiles made by a merge.
pub fn board_text(board: &Board, new: Option<(usize, usize)>, merged: &[(usize, usize)]) -> String {
    let n = board.size();
    let rule = format!("+{}", "-------+".repeat(n));
    let mut s = rule.clone();
    for r in 0..n {
        s.push_str("\n|");
        for c in 0..n {
            let v = board.tile(r, c);
            let mark = if new == Some((r, c)) {
                '+'
            } else if merged.contains(&(r, c)) {
                '*'
            } else {
                ' '
            };
            let cell = if v == 0 {
                ".".to_string()
            } else {
                v.to_string()
            };
            s.push_str(&format!("{cell:>6}{mark}|"));
        }
        s.push('\n');
        s.push_str(&rule);
    }
    s
}

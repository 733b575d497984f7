//! A Nocca Nocca board as text, as plain mode and the online client print it: every stack bottom to top.

use nocca::{Move, Position, Square};

/// The board as text, White's home row at the top. Each square shows its pieces bottom to top, the top piece in
/// capitals, padded with `_` as in the seed (`bW_` is a white piece riding on a black one); the last move's target is
/// marked `*`, its origin `.`.
pub fn board_text(pos: &Position, last: Option<Move>) -> String {
    let dims = pos.dims();
    let cols = dims.cols();
    let letters: String = (0..cols)
        .map(|c| format!("  {}   ", (b'a' + c as u8) as char))
        .collect();
    let mut s = String::new();
    s.push_str(&format!(
        "    ==== goal for Black (beyond row {}) ====\n",
        dims.rows()
    ));
    s.push_str(&format!("   {}\n", letters.trim_end()));
    for r in (0..dims.rows()).rev() {
        s.push_str(&format!("{:>2} ", r + 1));
        for c in 0..cols {
            let Some(sq) = Square::new(r, c) else {
                continue;
            };
            // Bottom to top, the top piece in capitals (the one that moves), as the full screen and the help show.
            let stack = pos.stack(sq);
            let mut cell: String = stack
                .iter()
                .enumerate()
                .map(|(i, p)| {
                    if i + 1 == stack.height() {
                        p.letter().to_ascii_uppercase()
                    } else {
                        p.letter()
                    }
                })
                .collect();
            while cell.len() < 3 {
                cell.push('_');
            }
            let mark = match last {
                Some(m) if m.to() == Some(sq) => '*',
                Some(m) if m.from == sq => '.',
                _ => ' ',
            };
            s.push_str(&format!(" {cell}{mark} "));
        }
        let note = if r == dims.rows() - 1 {
            "  White's home"
        } else if r == 0 {
            "  Black's home"
        } else {
            ""
        };
        s.push_str(&format!("{}{note}", r + 1));
        s.push('\n');
    }
    s.push_str(&format!("   {}\n", letters.trim_end()));
    s.push_str("    ==== goal for White (beyond row 1) ====");
    s
}

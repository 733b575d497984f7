//! Parsing the board notation `2,2,0,0/0,4,0,0/0,0,0,0/0,0,0,2`.

use std::str::FromStr;

use crate::board::{Board, MAX_SIZE, MIN_SIZE};
use crate::error::{BoardParseError, CellError};

impl FromStr for Board {
    type Err = BoardParseError;

    /// Rows top to bottom separated by `/`; cells separated by `,` (if the row holds a comma) or else by spaces;
    /// each cell a power of two of at least 2, or `0` or `.` for empty. Every row must have as many cells as there
    /// are rows, 3 to 8.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let s = s.trim();
        if s.is_empty() {
            return Err(BoardParseError::Empty);
        }
        let rows: Vec<&str> = s.split('/').collect();
        let n = rows.len();
        if !(MIN_SIZE..=MAX_SIZE).contains(&n) {
            return Err(BoardParseError::BadSize(n));
        }
        let mut board = Board::new(n).map_err(|_| BoardParseError::BadSize(n))?;
        for (r, row) in rows.iter().enumerate() {
            let cells: Vec<&str> = if row.contains(',') {
                row.split(',').map(str::trim).collect()
            } else {
                row.split_whitespace().collect()
            };
            if cells.len() != n {
                return Err(BoardParseError::RowLength {
                    row: r + 1,
                    found: cells.len(),
                    expected: n,
                });
            }
            for (c, text) in cells.iter().enumerate() {
                let exp = parse_cell(text).map_err(|reason| BoardParseError::BadCell {
                    row: r + 1,
                    col: c + 1,
                    text: text.to_string(),
                    reason,
                })?;
                board.set_exponent(r, c, exp);
            }
        }
        Ok(board)
    }
}

/// Parses one cell: `0` or `.` is 0, a power of two 2^k (k >= 1) is k.
pub(crate) fn parse_cell(text: &str) -> Result<u8, CellError> {
    if text.is_empty() {
        return Err(CellError::Missing);
    }
    if text == "." {
        return Ok(0);
    }
    let v: u64 = text.parse().map_err(|_| CellError::NotANumber)?;
    match v {
        0 => Ok(0),
        1 => Err(CellError::NotATile),
        v if v.is_power_of_two() => Ok(v.trailing_zeros() as u8),
        _ => Err(CellError::NotATile),
    }
}

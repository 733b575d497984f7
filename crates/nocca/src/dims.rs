//! Board dimensions.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

/// Board size: `rows` from 3 to 6 and `cols` from 3 to 5. Each side has as many pieces as there are columns.
///
/// ```
/// use nocca::Dims;
/// let d: Dims = "6x5".parse().unwrap();
/// assert_eq!(d, Dims::STANDARD);
/// assert_eq!((d.rows(), d.cols()), (6, 5));
/// assert!(Dims::new(7, 5).is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Dims {
    rows: u8,
    cols: u8,
}

/// Error for dimensions out of range or badly written.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum DimsError {
    /// Rows outside 3..=6.
    #[error("{0} rows: the board has 3 to 6 rows")]
    Rows(usize),
    /// Columns outside 3..=5.
    #[error("{0} columns: the board has 3 to 5 columns")]
    Cols(usize),
    /// Not of the form `ROWSxCOLS`.
    #[error("bad board size {0:?}: expected ROWSxCOLS, e.g. 6x5")]
    Syntax(String),
}

impl Dims {
    /// Smallest number of rows.
    pub const MIN_ROWS: usize = 3;
    /// Largest number of rows.
    pub const MAX_ROWS: usize = 6;
    /// Smallest number of columns.
    pub const MIN_COLS: usize = 3;
    /// Largest number of columns.
    pub const MAX_COLS: usize = 5;
    /// The published board: 6 rows by 5 columns.
    pub const STANDARD: Dims = Dims { rows: 6, cols: 5 };

    /// Checked constructor.
    pub fn new(rows: usize, cols: usize) -> Result<Dims, DimsError> {
        if !(Self::MIN_ROWS..=Self::MAX_ROWS).contains(&rows) {
            return Err(DimsError::Rows(rows));
        }
        if !(Self::MIN_COLS..=Self::MAX_COLS).contains(&cols) {
            return Err(DimsError::Cols(cols));
        }
        Ok(Dims {
            rows: rows as u8,
            cols: cols as u8,
        })
    }

    /// Number of rows.
    #[inline]
    pub const fn rows(self) -> usize {
        self.rows as usize
    }

    /// Number of columns (= pieces per side).
    #[inline]
    pub const fn cols(self) -> usize {
        self.cols as usize
    }

    /// The home row of a colour: 0 for Black, `rows - 1` for White.
    #[inline]
    pub const fn home_row(self, c: crate::Colour) -> usize {
        match c {
            crate::Colour::Black => 0,
            crate::Colour::White => self.rows as usize - 1,
        }
    }
}

impl Default for Dims {
    fn default() -> Self {
        Dims::STANDARD
    }
}

impl fmt::Display for Dims {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.rows, self.cols)
    }
}

impl FromStr for Dims {
    type Err = DimsError;

    /// `ROWSxCOLS`, e.g. `6x5` (also `6*5` or `6X5`).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let syntax = || DimsError::Syntax(s.to_string());
        let (r, c) = s.trim().split_once(['x', 'X', '*']).ok_or_else(syntax)?;
        let r: usize = r.trim().parse().map_err(|_| syntax())?;
        let c: usize = c.trim().parse().map_err(|_| syntax())?;
        Dims::new(r, c)
    }
}

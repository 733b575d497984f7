//! The timed player's clock: how much of its budget each move may spend. A move gets a share of its budget by how
//! crowded the board is ([`time_shares`]) plus a share of a balance kept by earlier moves, so that the *average* time
//! per move keeps to the budget.

use crate::board::Board;

/// How much of its budget, and of the time balance, a move on `board` may spend: (share of the budget, share of the
/// balance). A board with many empty cells is easy, and saves time (60% of a budget, no balance) for the crowded ones
/// (3 or fewer empty cells: a full budget and 60% of the balance). Against an even spend (a full budget and half the
/// balance on every move) this raised the mean at 0.5 ms/move from 188,515 to 216,502 over seeds 1001..=1100, at the
/// same average time per move (see `BENCHMARKS.md`).
pub(crate) fn time_shares(board: &Board) -> (f64, f64) {
    match board.empty_count() {
        7.. => (0.6, 0.0),
        4..=6 => (1.0, 0.25),
        _ => (1.0, 0.6),
    }
}

/// The time a timed player has: the balance of earlier moves (saved by quick moves, owed by overruns).
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Clock {
    /// Thinking-time balance in ms, so that the *average* keeps to the budget; at most 20 budgets saved or 4 owed.
    bank_ms: f64,
    /// The budget of the move in progress, in ms.
    target_ms: f64,
}

impl Clock {
    /// A clock with nothing saved.
    pub(crate) fn new() -> Clock {
        Clock::default()
    }

    /// Starts a move on `board` under a budget of `ms` a move of which the search aims at `share`, and returns what it
    /// may spend in ms: a share of its own budget, `ms * share`, by how crowded the board is, plus a share of the
    /// balance ([`time_shares`]), and always at least half of `ms`, so that a descheduled process on a loaded machine
    /// does not starve.
    pub(crate) fn begin(&mut self, board: &Board, ms: f64, share: f64) -> f64 {
        self.target_ms = ms.max(0.0) * share;
        let (base, bank) = time_shares(board);
        (self.target_ms * base + self.bank_ms * bank)
            .max(ms * 0.5)
            .max(0.0)
    }

    /// Ends the move begun by [`Clock::begin`], which spent `spent` ms, under a budget of `ms` a move (the balance's
    /// bounds).
    pub(crate) fn end(&mut self, spent: f64, ms: f64) {
        let ms = ms.max(0.0);
        self.bank_ms = (self.bank_ms + self.target_ms - spent).clamp(-4.0 * ms, 20.0 * ms);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(s: &str) -> Board {
        s.parse().expect("a board")
    }

    #[test]
    fn crowded_boards_get_more_time_than_open_ones() {
        let open = board("2,0,0,0/0,0,0,0/0,0,4,0/0,0,0,0");
        let middling = board("2,4,8,16/0,2,4,0/8,0,4,0/2,0,0,8");
        let crowded = board("2,4,8,16/32,2,4,8/16,0,4,2/2,8,0,8");
        assert_eq!(time_shares(&open), (0.6, 0.0));
        assert_eq!(time_shares(&middling), (1.0, 0.25));
        assert_eq!(time_shares(&crowded), (1.0, 0.6));
    }

    #[test]
    fn the_balance_is_bounded_and_a_move_always_gets_half_its_budget() {
        let mut clock = Clock::new();
        let crowded = board("2,4,8,16/32,64,128,256/2,4,8,16/32,0,0,0");
        for _ in 0..100 {
            clock.begin(&crowded, 1.0, 1.0);
            clock.end(0.0, 1.0);
        }
        assert_eq!(clock.bank_ms, 20.0);
        assert!((clock.begin(&crowded, 1.0, 1.0) - 13.0).abs() < 1e-12);
        for _ in 0..100 {
            clock.begin(&crowded, 1.0, 1.0);
            clock.end(50.0, 1.0);
        }
        assert_eq!(clock.bank_ms, -4.0);
        assert_eq!(clock.begin(&crowded, 1.0, 1.0), 0.5);
    }
}

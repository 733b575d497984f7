//! The timed player's clock: how much of its budget each move may spend. A move gets a share of its budget by how
//! crowded the board is ([`time_shares`]) plus a share of a balance kept by earlier moves, so that the *average* time
//! per move keeps to the budget; a [`StageShare`] also moves time from the opening to the late game, where the game is
//! won or lost.

use std::fmt;
use std::str::FromStr;

use crate::board::Board;

/// How much of its budget, and of the time balance, a move on `board` may spend: (share of the budget, share of the
/// balance). A board with many empty cells is easy, and saves time (60% of a budget, no balance) for the crowded ones
/// (3 or fewer empty cells: a full budget and 60% of the balance). Against an even spend (a full budget and half the
/// balance on every move) this raised the mean at 0.5 ms/move from 188,515 to 216,502 over seeds 1001..=1100, at the
/// same average time per move (see `BENCHMARKS.md`).
pub fn time_shares(board: &Board) -> (f64, f64) {
    match board.empty_count() {
        7.. => (0.6, 0.0),
        4..=6 => (1.0, 0.25),
        _ => (1.0, 0.6),
    }
}

/// A share of the time by stage: until the board's largest tile reaches `2^from`, a move's budget is `early` of the
/// nominal one and the rest goes to a reserve; from then on each move's budget is the nominal one plus `drain` of
/// what is left in the reserve. Every move's budget comes out of what earlier moves of the same game left unspent, so
/// a game's time stays within its moves' budgets.
///
/// Written `E,EARLY,DRAIN` (`14,0.6,0.0005`); the examples' `--stage-share` flags also take `off` for none.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StageShare {
    from: u8,
    early: f64,
    drain: f64,
}

impl StageShare {
    /// A stage share: `from` an exponent from 2 to 17, `early` from 0.1 to 1, `drain` above 0 and at most 1; else an
    /// error naming the value out of range.
    pub fn new(from: u8, early: f64, drain: f64) -> Result<StageShare, String> {
        if !(2..=17).contains(&from) {
            return Err(format!(
                "stage share: the exponent is from 2 to 17, not {from}"
            ));
        }
        if !(0.1..=1.0).contains(&early) {
            return Err(format!(
                "stage share: the early share is from 0.1 to 1, not {early}"
            ));
        }
        if !(drain > 0.0 && drain <= 1.0) {
            return Err(format!(
                "stage share: the drain is above 0 and at most 1, not {drain}"
            ));
        }
        Ok(StageShare { from, early, drain })
    }

    /// The exponent of the largest tile from which the reserve is spent.
    pub fn from(&self) -> u8 {
        self.from
    }

    /// The share of the nominal budget a move gets before that tile.
    pub fn early(&self) -> f64 {
        self.early
    }

    /// The share of the reserve each move adds to its budget from that tile on.
    pub fn drain(&self) -> f64 {
        self.drain
    }
}

impl fmt::Display for StageShare {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{},{},{}", self.from, self.early, self.drain)
    }
}

impl FromStr for StageShare {
    type Err = String;

    /// `E,EARLY,DRAIN`, each checked as [`StageShare::new`] does.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let parts: Vec<&str> = s.split(',').map(str::trim).collect();
        let [from, early, drain] = parts[..] else {
            return Err(format!(
                "stage share: E,EARLY,DRAIN (such as 14,0.6,0.0005), not {s:?}"
            ));
        };
        let number = |what: &str, v: &str| {
            v.parse::<f64>()
                .ok()
                .filter(|x| x.is_finite())
                .ok_or_else(|| format!("stage share: the {what} is a number, not {v:?}"))
        };
        let from = from
            .parse::<u8>()
            .map_err(|_| format!("stage share: the exponent is from 2 to 17, not {from:?}"))?;
        StageShare::new(from, number("early share", early)?, number("drain", drain)?)
    }
}

/// The time a timed player has: the balance of earlier moves (saved by quick moves, owed by overruns) and, with a
/// [`StageShare`], the reserve kept for the late game.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Clock {
    /// Thinking-time balance in ms, so that the *average* keeps to the budget; at most 20 budgets saved or 4 owed.
    bank_ms: f64,
    /// Time kept back by the early moves for the late ones, in ms.
    reserve_ms: f64,
    /// The tile sum of the last board: a smaller one is another game (or an undo), whose reserve starts empty.
    last_sum: u64,
    /// The budget of the move in progress, in ms.
    target_ms: f64,
}

impl Clock {
    /// A clock with nothing saved.
    pub fn new() -> Clock {
        Clock::default()
    }

    /// The time balance in ms.
    pub fn bank_ms(&self) -> f64 {
        self.bank_ms
    }

    /// The reserve kept for the late game in ms.
    pub fn reserve_ms(&self) -> f64 {
        self.reserve_ms
    }

    /// The budget of the move in progress in ms ([`Clock::begin`]).
    pub fn target_ms(&self) -> f64 {
        self.target_ms
    }

    /// Starts a move on `board` under a budget of `ms` a move of which the search aims at `share`, and returns what it
    /// may spend in ms. The move's own budget is `ms * share`, moved by `stage`: less before its tile (the rest kept in
    /// the reserve), more after it (a share of the reserve). It may spend a share of that budget by how crowded the
    /// board is, plus a share of the balance ([`time_shares`]), and always at least half of `ms` (scaled down as its
    /// budget is), so that a descheduled process on a loaded machine does not starve.
    pub fn begin(&mut self, board: &Board, ms: f64, share: f64, stage: Option<StageShare>) -> f64 {
        let nominal = ms.max(0.0) * share;
        let sum = board.tile_sum();
        if sum < self.last_sum {
            self.reserve_ms = 0.0;
        }
        self.last_sum = sum;
        self.target_ms = match stage {
            None => nominal,
            Some(stage) if board.max_exponent() < stage.from => {
                self.reserve_ms += nominal * (1.0 - stage.early);
                nominal * stage.early
            }
            Some(stage) => {
                let extra = self.reserve_ms * stage.drain;
                self.reserve_ms -= extra;
                nominal + extra
            }
        };
        let scale = if nominal > 0.0 {
            (self.target_ms / nominal).min(1.0)
        } else {
            1.0
        };
        let (base, bank) = time_shares(board);
        (self.target_ms * base + self.bank_ms * bank)
            .max(ms * 0.5 * scale)
            .max(0.0)
    }

    /// Ends the move begun by [`Clock::begin`], which spent `spent` ms, under a budget of `ms` a move (the balance's
    /// bounds).
    pub fn end(&mut self, spent: f64, ms: f64) {
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
    fn stage_shares_parse_and_refuse_values_out_of_range() {
        let s: StageShare = "14,0.6,0.0005".parse().expect("a stage share");
        assert_eq!((s.from(), s.early(), s.drain()), (14, 0.6, 0.0005));
        assert_eq!(s.to_string().parse::<StageShare>(), Ok(s));
        for bad in [
            "",
            "14",
            "14,0.6",
            "14,0.6,0.1,1",
            "1,0.6,0.1",
            "18,0.6,0.1",
            "x,0.6,0.1",
            "14,0.05,0.1",
            "14,1.5,0.1",
            "14,NaN,0.1",
            "14,0.6,0",
            "14,0.6,-1",
            "14,0.6,2",
            "14,0.6,inf",
        ] {
            assert!(bad.parse::<StageShare>().is_err(), "{bad:?} was taken");
        }
    }

    #[test]
    fn without_a_stage_share_every_move_gets_the_nominal_budget() {
        let mut clock = Clock::new();
        let open = board("2,4,0,0/0,0,0,0/0,0,0,0/0,0,0,0");
        assert_eq!(clock.begin(&open, 1.0, 0.85, None), 0.85 * 0.6);
        assert_eq!((clock.target_ms(), clock.reserve_ms()), (0.85, 0.0));
    }

    #[test]
    fn early_moves_keep_time_that_late_moves_spend_and_a_game_never_gets_more_than_its_budgets() {
        let stage = StageShare::new(14, 0.6, 0.01).expect("a stage share");
        let mut clock = Clock::new();
        let early = board("2,4,0,0/0,0,0,0/0,0,0,0/0,0,0,8192");
        let mut given = 0.0;
        for _ in 0..100 {
            clock.begin(&early, 1.0, 1.0, Some(stage));
            assert!((clock.target_ms() - 0.6).abs() < 1e-12);
            given += clock.target_ms();
        }
        assert!((clock.reserve_ms() - 40.0).abs() < 1e-9);
        let late = board("2,4,8,0/0,0,0,0/0,0,0,0/0,0,0,16384");
        clock.begin(&late, 1.0, 1.0, Some(stage));
        let first = clock.target_ms();
        assert!((first - 1.4).abs() < 1e-9, "{first}");
        given += first;
        let mut last = first;
        for _ in 0..1000 {
            clock.begin(&late, 1.0, 1.0, Some(stage));
            let t = clock.target_ms();
            assert!(t <= last && t >= 1.0);
            last = t;
            given += t;
        }
        // What 1,101 moves were given, with the reserve left, is what their budgets were.
        assert!((given + clock.reserve_ms() - 1101.0).abs() < 1e-6);
        assert!(given < 1101.0);
    }

    #[test]
    fn early_moves_may_spend_less_than_half_the_budget_but_not_less_than_half_their_own() {
        let stage = StageShare::new(14, 0.5, 0.001).expect("a stage share");
        let mut clock = Clock::new();
        let open = board("2,4,0,0/0,0,0,0/0,0,0,0/0,0,0,8192");
        // 60% of half of 0.8 ms is below the floor, half of half of 1 ms.
        assert!((clock.begin(&open, 1.0, 0.8, Some(stage)) - 0.25).abs() < 1e-12);
        assert!((clock.begin(&open, 1.0, 0.8, None) - 0.5).abs() < 1e-12);
    }

    #[test]
    fn a_smaller_board_is_another_game_whose_reserve_starts_empty() {
        let stage = StageShare::new(14, 0.5, 0.001).expect("a stage share");
        let mut clock = Clock::new();
        clock.begin(
            &board("2,4,8,16/0,0,0,0/0,0,0,0/0,0,0,8192"),
            2.0,
            1.0,
            Some(stage),
        );
        clock.begin(
            &board("2,4,8,16/0,0,0,0/0,0,0,0/0,0,0,8192"),
            2.0,
            1.0,
            Some(stage),
        );
        assert_eq!(clock.reserve_ms(), 2.0);
        clock.begin(
            &board("2,0,0,0/0,0,0,0/0,0,0,0/0,0,0,2"),
            2.0,
            1.0,
            Some(stage),
        );
        assert_eq!(
            clock.reserve_ms(),
            1.0,
            "only the new game's own first move"
        );
    }

    #[test]
    fn the_balance_is_bounded_and_a_move_always_gets_half_its_budget() {
        let mut clock = Clock::new();
        let crowded = board("2,4,8,16/32,64,128,256/2,4,8,16/32,0,0,0");
        for _ in 0..100 {
            clock.begin(&crowded, 1.0, 1.0, None);
            clock.end(0.0, 1.0);
        }
        assert_eq!(clock.bank_ms(), 20.0);
        assert!((clock.begin(&crowded, 1.0, 1.0, None) - 13.0).abs() < 1e-12);
        for _ in 0..100 {
            clock.begin(&crowded, 1.0, 1.0, None);
            clock.end(50.0, 1.0);
        }
        assert_eq!(clock.bank_ms(), -4.0);
        assert_eq!(clock.begin(&crowded, 1.0, 1.0, None), 0.5);
    }
}

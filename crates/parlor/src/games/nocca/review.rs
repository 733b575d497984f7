//! The review of a finished Nocca Nocca game (the coach, docs/REVIEW.md): on a board whose solved table can be had
//! here, every ply's exact value before and after (win, loss or draw, in how many plies) and the best moves; on a
//! larger board, the engine's search at a fixed depth ([`ESTIMATE_DEPTH`]), said to be an estimate. The marks'
//! thresholds are RULES.md's (Nocca Nocca, "Reviews").

use super::{Nocca, State, Tables};
use crate::mid::error::Error;
use crate::mid::game::Game;
use crate::mid::review::{Review, Reviewed, Thresholds, finish};
use nocca::search::{MATE, WIN_BOUND};
use nocca::{Move, Position, SearchConfig, Searcher, Table, Value};
use std::sync::atomic::AtomicBool;

/// The parameters of a practice game from `at` (docs/REVIEW.md, "Practise from here"), a position of a game played
/// with `params`: the person plays the side to move there against the computer, at the perfect level where the
/// board's solved table can be had in this run (`tables`), else at the expert level; the board and who moved first
/// stay, so that the moves that led there replay.
pub fn practice(tables: &Tables, params: &super::Params, at: &State) -> super::Params {
    let mut p = super::Params {
        mode: super::Mode::Computer,
        human: at.game.side_to_move(),
        level: nocca::Opponent::Perfect,
        ..*params
    };
    if Nocca::playable(&p, tables).is_err() {
        p.level = nocca::Opponent::Engine(nocca::Level::Expert);
    }
    p
}

/// The depth, in plies, of the search that estimates a position on a board without a table (each move is searched
/// one ply less deep after it is played). About 10 ms a ply of the standard 6x5 board (the engine optimised)
/// (BENCHMARKS.md, "Reviews").
pub const ESTIMATE_DEPTH: u32 = 5;

/// The loss, in plies, given to a move that changes the outcome (a win thrown away, a draw walked into a loss):
/// the house rules' ply cap, longer than any distance, so that such a move always weighs most.
pub const OUTCOME_LOSS: f64 = 500.0;

/// Exact values: a win kept but slower than the best, or a loss hastened, by this many plies or more (RULES.md).
pub const EXACT: Thresholds = Thresholds {
    inaccuracy: 2.0,
    mistake: 10.0,
    blunder: OUTCOME_LOSS,
};

/// Estimates: the drop of the search's score, in the engine's evaluation units (RULES.md).
pub const ESTIMATE: Thresholds = Thresholds {
    inaccuracy: 60.0,
    mistake: 150.0,
    blunder: 300.0,
};

/// The largest drop an estimate counts (a forced win thrown away scores this).
const ESTIMATE_CAP: f64 = 1000.0;

/// The table's bits of the estimating search (2^18 entries of 16 bytes: 4 MB).
const TT_BITS: u32 = 18;

/// Reviews the game played from `start` by `moves` (see [`Game::review`]).
pub fn review(
    tables: &Tables,
    start: &State,
    moves: &[Move],
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Review, Error> {
    let mut state = start.clone();
    for mv in moves {
        Nocca::apply(&mut state, mv)?;
    }
    let positions = state.game.positions();
    let dims = start.position().dims();
    let exact = tables.values_available(dims).is_ok();
    let table = if exact {
        Some(
            tables
                .get(dims, &AtomicBool::new(false))
                .map_err(|why| Error::Record(format!("the {dims} table: {why}")))?,
        )
    } else {
        None
    };
    let mut searcher = Searcher::new(TT_BITS, SearchConfig::default());
    let mut reviewed = Vec::with_capacity(moves.len());
    let mut boards = Vec::with_capacity(moves.len());
    for (i, (&mv, pos)) in moves.iter().zip(positions).enumerate() {
        let mut r = match &table {
            Some(t) => exact_ply(t, pos, mv)?,
            None => estimated_ply(&mut searcher, pos, mv),
        };
        r.number = i + 1;
        r.side = Some(pos.side_to_move().name().to_string());
        reviewed.push(r);
        boards.push(pos.to_string());
        progress(i + 1, moves.len());
    }
    let (method, unit) = match exact {
        true => (format!("exact: the solved {dims} table"), "plies"),
        false => (
            format!("estimate: search at depth {ESTIMATE_DEPTH}"),
            "evaluation units",
        ),
    };
    Ok(finish::<Nocca>(reviewed, &boards, method, exact, unit))
}

/// One ply reviewed from the table: the position's value, the best moves, the value of the move played, its loss
/// and mark (the number and side are the caller's).
pub fn exact_ply(table: &Table, pos: &Position, mv: Move) -> Result<Reviewed, Error> {
    let probe = |e: nocca::ProbeError| Error::Record(format!("the table cannot value {pos}: {e}"));
    let before = table.value(pos).map_err(probe)?;
    let best = table.best_moves(pos).map_err(probe)?;
    // The move's value for the side that played it (a goal reached is a win in 1).
    let after = table
        .move_values(pos)
        .map_err(probe)?
        .into_iter()
        .find_map(|(m, v)| (m == mv).then_some(v))
        .ok_or_else(|| Error::Record(format!("{mv} is not a legal move of {pos}")))?;
    let (loss, note) = exact_loss(before, after);
    Ok(Reviewed {
        number: 0,
        side: None,
        played: mv.to_string(),
        best: best.iter().map(|m| m.to_string()).collect(),
        before: before.to_string(),
        after: after.to_string(),
        loss,
        mark: EXACT.mark(loss),
        note,
        board: String::new(),
        figures: Vec::new(),
    })
}

/// What a move into `after` lost against the position's `before` (both for the side to move), in plies, and what
/// to say of it: a win thrown away or a draw walked into a loss is [`OUTCOME_LOSS`]; a slower win or a quicker
/// loss, the plies between them.
pub fn exact_loss(before: Value, after: Value) -> (f64, String) {
    match (before, after) {
        (Value::Win(_), Value::Draw) => (OUTCOME_LOSS, "threw the win away: a draw".into()),
        (Value::Win(_), Value::Loss(_)) => (OUTCOME_LOSS, "threw the win away: a loss".into()),
        (Value::Draw, Value::Loss(_)) => (OUTCOME_LOSS, "walked into a loss".into()),
        (Value::Win(b), Value::Win(a)) if a > b => (
            f64::from(a - b),
            format!("a win {} plies slower than the best", a - b),
        ),
        (Value::Loss(b), Value::Loss(a)) if a < b => (
            f64::from(b - a),
            format!("a loss {} plies sooner than the best", b - a),
        ),
        _ => (0.0, String::new()),
    }
}

/// A search score in words: `win in 5` or `loss in 4` for a forced result, else `+120` (for the side to move).
fn said(score: i32) -> String {
    if score >= WIN_BOUND {
        format!("win in {} (search)", MATE - score)
    } else if score <= -WIN_BOUND {
        format!("loss in {} (search)", MATE + score)
    } else {
        format!("{score:+} (estimate)")
    }
}

/// One ply reviewed by the search at [`ESTIMATE_DEPTH`]: every move searched one ply less deep after it.
fn estimated_ply(searcher: &mut Searcher, pos: &Position, mv: Move) -> Reviewed {
    // A fresh table for every position: its values do not hang on which positions came before.
    searcher.clear();
    let values: Vec<(Move, i32)> = pos
        .legal_moves()
        .iter()
        .map(|&m| {
            let v = if pos.is_goal_move(m) {
                MATE - 1
            } else {
                let mut child = *pos;
                child.play_unchecked(m);
                // One ply deeper for the mover: a mate found at the child's ply p is the mover's at p + 1.
                let v = -searcher.value(&child, ESTIMATE_DEPTH - 1);
                if v >= WIN_BOUND {
                    v - 1
                } else if v <= -WIN_BOUND {
                    v + 1
                } else {
                    v
                }
            };
            (m, v)
        })
        .collect();
    let top = values.iter().map(|&(_, v)| v).max().unwrap_or(0);
    let played = values
        .iter()
        .find(|&&(m, _)| m == mv)
        .map_or(top, |&(_, v)| v);
    let (loss, note) = if top >= WIN_BOUND && played < WIN_BOUND {
        (ESTIMATE_CAP, "threw a forced win away".to_string())
    } else if played <= -WIN_BOUND && top > -WIN_BOUND {
        (ESTIMATE_CAP, "walked into a forced loss".to_string())
    } else if top.abs() >= WIN_BOUND {
        // Both forced the same way: the search's distances are not exact; no loss is claimed.
        (0.0, String::new())
    } else {
        (f64::from(top - played).min(ESTIMATE_CAP), String::new())
    };
    Reviewed {
        number: 0,
        side: None,
        played: mv.to_string(),
        best: values
            .iter()
            .filter(|&&(_, v)| v == top)
            .map(|(m, _)| m.to_string())
            .collect(),
        before: said(top),
        after: said(played),
        loss,
        mark: ESTIMATE.mark(loss),
        note,
        board: String::new(),
        figures: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mid::review::Mark;
    use nocca::{Dims, PerfectPlayer};
    use proptest::prelude::*;

    fn three() -> (Tables, State) {
        let params = super::super::Params {
            mode: super::super::Mode::Two,
            board: Dims::new(3, 3).unwrap(),
            ..Default::default()
        };
        (Tables::default(), Nocca::new_game(&params, 1).unwrap())
    }

    fn moves(start: &State, text: &str) -> Vec<Move> {
        Nocca::parse_moves(start, text).unwrap()
    }

    /// On 3x3 (RULES.md, Nocca Nocca, "Reviews"): Black to move at the start wins in 9 (c1y, b1k, a1u) or 11;
    /// after c1y (win in 9: best) and White's c3b (loss in 8: the slowest loss, best), Black's b1k or a1u wins in 7
    /// and b1h loses in 4: b1h, ply 3, throws the win away, a blunder. b1y at the start wins in 11, 2 plies slower
    /// than the best: an inaccuracy. The values are the 3x3 table's, read by `parlor nocca solve 3x3 --position`.
    #[test]
    fn a_win_thrown_away_on_3x3_is_a_blunder_and_a_slower_win_an_inaccuracy() {
        let (tables, start) = three();
        let r = review(
            &tables,
            &start,
            &moves(&start, "c1y c3b b1h"),
            &mut |_, _| {},
        )
        .unwrap();
        assert!(r.exact);
        let marks: Vec<Mark> = r.moves.iter().map(|m| m.mark).collect();
        assert_eq!(marks, [Mark::None, Mark::None, Mark::Blunder]);
        let b = &r.moves[2];
        assert_eq!((b.number, b.side.as_deref()), (3, Some("black")));
        assert_eq!(
            (b.before.as_str(), b.after.as_str()),
            ("win in 7", "loss in 4")
        );
        assert_eq!(b.best, ["b1k", "a1u"]);
        assert_eq!(b.note, "threw the win away: a loss");
        assert!(!b.board.is_empty(), "the worst move keeps its board");
        assert_eq!(r.moves[0].before, "win in 9");
        assert_eq!(r.moves[1].after, "loss in 8");
        assert_eq!(r.summary(), "1 blunder: move 3");
        assert_eq!(r.accuracy.len(), 2);

        let r = review(&tables, &start, &moves(&start, "b1y"), &mut |_, _| {}).unwrap();
        let m = &r.moves[0];
        assert_eq!(
            (m.mark, m.loss, m.after.as_str()),
            (Mark::Inaccuracy, 2.0, "win in 11")
        );
    }

    #[test]
    fn a_board_without_a_table_is_reviewed_by_search_as_an_estimate() {
        let params = super::super::Params {
            mode: super::super::Mode::Two,
            ..Default::default()
        };
        // No data directory: the 6x5 table cannot be had.
        let start = Nocca::new_game(&params, 1).unwrap();
        let r = review(
            &Tables::default(),
            &start,
            &moves(&start, "c1k"),
            &mut |_, _| {},
        )
        .unwrap();
        assert!(!r.exact);
        assert!(r.method.contains("estimate"), "{}", r.method);
        assert!(r.moves[0].before.contains("estimate"), "{:?}", r.moves[0]);
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]

        /// A game played by the perfect player on both sides gets no mark, and the review leaves the game, its
        /// score and its status as they were.
        #[test]
        fn perfect_play_gets_no_mark_and_the_game_is_unchanged(seed in any::<u64>(), board in 0usize..3) {
            let (r, c) = [(3, 3), (3, 4), (4, 3)][board];
            let dims = Dims::new(r, c).unwrap();
            let tables = Tables::default();
            let table = tables.get(dims, &AtomicBool::new(false)).unwrap();
            let params = super::super::Params { mode: super::super::Mode::Two, board: dims, ..Default::default() };
            let start = Nocca::new_game(&params, seed).unwrap();
            let mut state = start.clone();
            let mut player = PerfectPlayer::new(table, seed);
            let mut played = Vec::new();
            while played.len() < 60 {
                let Some(mv) = player.choose_in(&state.game).unwrap() else { break };
                Nocca::apply(&mut state, &mv).unwrap();
                played.push(mv);
            }
            let (score, status, record) = (Nocca::score(&state), Nocca::status(&state), state.game.record());
            let r = review(&tables, &start, &played, &mut |_, _| {}).unwrap();
            prop_assert_eq!(r.moves.len(), played.len());
            prop_assert!(r.moves.iter().all(|m| m.mark == Mark::None), "{:?}", r.moves);
            prop_assert_eq!(Nocca::score(&state), score);
            prop_assert_eq!(Nocca::status(&state), status);
            prop_assert_eq!(state.game.record(), record);
            prop_assert_eq!(start.game.ply(), 0);
        }
    }
}

//! Nocca Nocca in plain mode, in the seed's spirit: the board printed with every stack from bottom to top, then
//! "which piece?" with the movable pieces and "which direction?" with the legal directions in the seed's letters
//! (`y k u h l b j n`). A whole move on one line (`c1k`, `c1 k`, `c1-c2`) is accepted too.

pub use super::board_text::board_text;
use crate::games::nocca::{
    Mode, Nocca, Params, State, Tables, movable, move_text, moves_from, refusal, square_refusal,
    target_name,
};
use crate::plain::game::{Parsed, PlainGame};
use nocca::{Dir, Move, Position, Square};

/// The directions, as the seed names them.
pub const DIRECTIONS: &str = "Directions: y k u (up-left, up, up-right) / h l (left, right) / b j n (down-left, \
                              down, down-right); up is toward White's home row.";

/// The question after a piece: its legal directions and where each lands.
fn which_direction(pos: &Position, sq: Square) -> String {
    let moves = moves_from(pos, sq);
    let dirs: Vec<String> = moves.iter().map(|m| m.dir.to_string()).collect();
    let targets: Vec<String> = moves
        .iter()
        .map(|&m| format!("{}={}", m.dir, target_name(pos, m)))
        .collect();
    format!(
        "which direction? [{}] ({}; an empty line: another piece)",
        dirs.join(" "),
        targets.join(" ")
    )
}

/// A whole move, checked against the position.
fn legal(pos: &Position, mv: Move) -> Parsed<Move> {
    if pos.is_legal(mv) {
        Parsed::Move(mv)
    } else {
        Parsed::Refused(format!("Refused: {}", refusal(pos, mv)))
    }
}

impl PlainGame for Nocca {
    fn board_text(state: &State, _params: &Params, last: Option<&Move>, _over: bool) -> String {
        board_text(state.position(), last.copied())
    }

    fn intro(tables: &Tables, p: &Params, seed: u64) -> String {
        let mut s = format!("Nocca Nocca: {}. Seed {seed}.", p.describe());
        if p.mode != Mode::Two
            && p.level == nocca::Opponent::Perfect
            && let Some(note) = tables.first_use(p.board)
        {
            s.push_str(&format!(" Perfect play: {note}."));
        }
        format!("{s}\n{DIRECTIONS}")
    }

    fn prompt(state: &State, _params: &Params) -> String {
        let list: Vec<String> = movable(state.position())
            .iter()
            .map(Square::to_string)
            .collect();
        format!("which piece? [{}] (or a move like c1k)", list.join(" "))
    }

    fn read(state: &State, line: &str, partial: Option<&str>) -> Parsed<Move> {
        let pos = state.position();
        let word = line.trim().to_ascii_lowercase();
        if let Some(piece) = partial {
            let Ok(sq) = piece.trim().parse::<Square>() else {
                return Parsed::Refused(format!(
                    "'{piece}' is not a square ({})",
                    super::squares_of(pos.dims())
                ));
            };
            if word.is_empty() {
                return Parsed::Refused("No move made: choose another piece".into());
            }
            let mv = match word.parse::<Dir>() {
                Ok(dir) => Some(Move::new(sq, dir)),
                Err(_) => format!("{sq}-{word}").parse::<Move>().ok(),
            };
            return match mv {
                Some(mv) => legal(pos, mv),
                None => {
                    let dirs: Vec<String> = moves_from(pos, sq)
                        .iter()
                        .map(|m| m.dir.to_string())
                        .collect();
                    Parsed::Refused(format!(
                        "Refused: '{word}' is not a direction: one of {}",
                        dirs.join(" ")
                    ))
                }
            };
        }
        if let Ok(sq) = word.parse::<Square>() {
            return match square_refusal(pos, sq) {
                Some(why) => Parsed::Refused(format!("Refused: {why}")),
                None => Parsed::Ask(which_direction(pos, sq)),
            };
        }
        match word.parse::<Move>() {
            Ok(mv) => legal(pos, mv),
            Err(e) => Parsed::Refused(format!(
                "Refused: '{}' is not a square or a move ({})",
                line.trim(),
                super::move_error(&e, pos.dims())
            )),
        }
    }

    fn told(state: &State, mv: &Move) -> String {
        let before = state.before_last();
        format!(
            "{} plays {}.",
            crate::mid::capitalised(before.side_to_move().name()),
            move_text(before, *mv, "-").replace("-goal)", " into the goal)")
        )
    }
}

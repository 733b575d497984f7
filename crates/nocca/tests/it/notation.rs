//! Position, move, square, direction, level and size notation: round trips and precise errors.

use crate::common::{mv, pos, random_positions};
use nocca::{
    Colour, Dims, DimsError, Dir, Level, Move, MoveParseError, Position, PositionParseError as E,
    Square,
};
use proptest::prelude::*;

fn err(s: &str) -> E {
    s.parse::<Position>().expect_err(s)
}

#[test]
fn position_parse_errors_are_precise() {
    assert_eq!(err(""), E::MissingSide);
    assert_eq!(err("b,b,b/-,-,-/w,w,w"), E::MissingSide);
    assert_eq!(err("b,b,b/-,-,-/w,w,w x"), E::BadSide("x".into()));
    assert_eq!(
        err("b,b,b/-,-,-/w,w,w b extra"),
        E::Trailing("extra".into())
    );
    assert_eq!(err("b,b,b/w,w,w b"), E::RowCount(2));
    assert_eq!(
        err("b,b,b/-,-,-/-,-,-/-,-,-/-,-,-/-,-,-/w,w,w b"),
        E::RowCount(7)
    );
    assert_eq!(err("b,b/-,-/w,w b"), E::ColCount(2));
    assert_eq!(err("b,b,b,b,b,b/-,-,-,-,-,-/w,w,w,w,w,w b"), E::ColCount(6));
    assert_eq!(
        err("b,b,b/-,-/w,w,w b"),
        E::RowLength {
            row: 1,
            len: 2,
            expected: 3
        }
    );
    // Rows of different lengths say so, whichever is short (the row named from 1, as RULES.md numbers them).
    assert_eq!(
        err("b,b/-,-,-/w,w,w b"),
        E::RowLength {
            row: 1,
            len: 3,
            expected: 2
        }
    );
    assert_eq!(
        err("b,b/-,-,-/w,w,w b").to_string(),
        "rows differ in length: row 2 has 3 cells, row 1 has 2"
    );
    assert_eq!(
        err("b,b,b/-,-/w,w,w b").to_string(),
        "rows differ in length: row 2 has 2 cells, row 1 has 3"
    );
    assert_eq!(
        err("b,b/-,-/w,w b").to_string(),
        "2 columns: a board has 3 to 5 columns (cells separated by ',')"
    );
    assert_eq!(err("b,,b/-,-,-/w,w,w b"), E::BlankCell { row: 0, col: 1 });
    assert_eq!(
        err("b,,b/-,-,-/w,w,w b").to_string(),
        "square b1 is blank: write '-' for an empty square"
    );
    assert_eq!(
        err("b,b,b/-,x,-/w,w,w b"),
        E::BadChar {
            row: 1,
            col: 1,
            ch: 'x'
        }
    );
    assert_eq!(
        err("b,b,b/-,-b,-/w,w,w b"),
        E::BadChar {
            row: 1,
            col: 1,
            ch: '-'
        }
    );
    assert_eq!(
        err("b,b,b/-,-,bwbw/w,w,- b"),
        E::StackTooHigh {
            row: 1,
            col: 2,
            height: 4
        }
    );
    assert_eq!(
        err("b,b,b/b,-,-/w,w,w b"),
        E::TooManyPieces {
            colour: Colour::Black,
            count: 4,
            max: 3
        }
    );
    // Messages name the place as RULES.md names squares (column letter, row from 1).
    assert!(err("b,b,b/-,x,-/w,w,w b").to_string().contains("square b2"));
}

#[test]
fn positions_round_trip() {
    for p in random_positions(11, 120, 40) {
        let text = p.to_string();
        let q: Position = text.parse().unwrap();
        assert_eq!(p, q, "{text}");
        assert_eq!(p.hash(), q.hash());
    }
    // Fewer pieces than columns is allowed (set-up positions).
    assert_eq!(
        pos("-,-,-/-,b,-/-,-,- w").to_string(),
        "-,-,-/-,b,-/-,-,- w"
    );
}

#[test]
fn move_text_forms() {
    let k = Move::new(Square::new(0, 2).unwrap(), Dir::K);
    assert_eq!(k.to_string(), "c1k");
    for s in ["c1k", "C1K", "c1 k", " c1  k ", "c1-c2", "c1 c2", "C1-C2"] {
        assert_eq!(mv(s), k, "{s}");
    }
    assert_eq!(mv("c6-c7"), Move::new(Square::new(5, 2).unwrap(), Dir::K));
    assert_eq!(mv("a1-b0"), Move::new(Square::new(0, 0).unwrap(), Dir::N));
    assert_eq!("".parse::<Move>(), Err(MoveParseError::Empty));
    assert_eq!(
        "z1k".parse::<Move>(),
        Err(MoveParseError::BadSquare("z1".into()))
    );
    assert_eq!(
        "c9k".parse::<Move>(),
        Err(MoveParseError::BadSquare("c9".into()))
    );
    assert_eq!(
        "c1x".parse::<Move>(),
        Err(MoveParseError::BadDirection("x".into()))
    );
    assert_eq!(
        "c1".parse::<Move>(),
        Err(MoveParseError::BadDirection("".into()))
    );
    assert_eq!(
        "c1-c3".parse::<Move>(),
        Err(MoveParseError::NotAdjacent {
            from: "c1".into(),
            to: "c3".into()
        })
    );
    assert!("c1-c1".parse::<Move>().is_err());
    assert!("é1k".parse::<Move>().is_err());
    for d in Dir::ALL {
        assert_eq!(d.to_string().parse::<Dir>().unwrap(), d);
        assert_eq!(d.reverse().reverse(), d);
        let (dr, dc) = d.delta();
        assert_eq!(Dir::from_delta(dr, dc), Some(d));
    }
}

#[test]
fn every_generated_move_round_trips() {
    for p in random_positions(12, 60, 30) {
        for &m in p.legal_moves().iter() {
            assert_eq!(m.to_string().parse::<Move>().unwrap(), m);
            let (r, c) = m.target();
            let to = format!("{}{}", (b'a' as i32 + c) as u8 as char, r + 1);
            assert_eq!(format!("{}-{}", m.from, to).parse::<Move>().unwrap(), m);
        }
    }
}

#[test]
fn squares_levels_dims_colours() {
    for sq in Square::all(Dims::STANDARD) {
        assert_eq!(sq.to_string().parse::<Square>().unwrap(), sq);
    }
    assert_eq!(Square::all(Dims::STANDARD).count(), 30);
    assert!("f1".parse::<Square>().is_err());
    assert!("a7".parse::<Square>().is_err());
    assert!("a0".parse::<Square>().is_err());
    for l in Level::ALL {
        assert_eq!(l.name().parse::<Level>().unwrap(), l);
        assert_eq!(l.number().to_string().parse::<Level>().unwrap(), l);
    }
    assert_eq!("EXP".parse::<Level>().unwrap(), Level::Expert);
    assert!("0".parse::<Level>().is_err());
    assert!("5".parse::<Level>().is_err());
    assert!("".parse::<Level>().is_err());
    assert_eq!("4x3".parse::<Dims>().unwrap(), Dims::new(4, 3).unwrap());
    assert_eq!("7x5".parse::<Dims>(), Err(DimsError::Rows(7)));
    assert_eq!("6x2".parse::<Dims>(), Err(DimsError::Cols(2)));
    assert!(matches!("6by5".parse::<Dims>(), Err(DimsError::Syntax(_))));
    assert_eq!("White".parse::<Colour>().unwrap(), Colour::White);
    assert!("x".parse::<Colour>().is_err());
}

proptest! {
    #[test]
    fn arbitrary_text_never_panics(s in "\\PC{0,40}") {
        let _ = s.parse::<Position>();
        let _ = s.parse::<Move>();
        let _ = s.parse::<Level>();
        let _ = s.parse::<Dims>();
    }

    #[test]
    fn notation_like_text_never_panics(s in "[bw,/ -]{0,60}") {
        if let Ok(p) = s.parse::<Position>() {
            prop_assert_eq!(p.to_string().parse::<Position>().unwrap(), p);
        }
    }
}

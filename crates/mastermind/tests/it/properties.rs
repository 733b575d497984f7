//! Property tests: text round trips and the feedback formula on random variants.

use mastermind::{Code, CodeStyle, Feedback, PackedCode, Variant, feedback, feedback_naive};
use proptest::prelude::*;

fn variant() -> impl Strategy<Value = Variant> {
    (
        2u32..=10,
        2u32..=8,
        1u32..=12,
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
    )
        .prop_filter_map("legal variant", |(c, p, g, sr, gr, digits)| {
            let v = Variant::custom(c, p, g, sr, gr || sr).ok()?;
            Some(if digits {
                v.with_palette(mastermind::Palette::Digits)
            } else {
                v
            })
        })
}

fn variant_and_code() -> impl Strategy<Value = (Variant, Code, Code)> {
    variant().prop_flat_map(|v| {
        let n = v.code_space_size();
        (Just(v), 0..n, 0..n)
            .prop_map(|(v, a, b)| (v, v.code_at(a).unwrap(), v.code_at(b).unwrap()))
    })
}

proptest! {
    #[test]
    fn code_text_round_trips((v, a, _b) in variant_and_code()) {
        for style in [CodeStyle::Names, CodeStyle::Symbols, CodeStyle::Numbers] {
            let text = v.format_code(&a, style).to_string();
            prop_assert_eq!(v.parse_pegs(&text), Ok(a), "{}", text);
        }
        prop_assert_eq!(v.parse_pegs(&v.display(&a).to_string()), Ok(a));
        prop_assert_eq!(v.code_at(v.code_index(&a).unwrap()), Some(a));
    }

    #[test]
    fn feedback_formula((_v, a, b) in variant_and_code()) {
        let fb = feedback(a, b);
        prop_assert_eq!(fb, feedback(b, a));
        prop_assert_eq!(fb, feedback_naive(a, b));
        prop_assert_eq!(fb, PackedCode::new(&a).feedback(&PackedCode::new(&b)));
        prop_assert!(usize::from(fb.black + fb.white) <= a.len());
        prop_assert_eq!(Feedback::parse(&fb.to_string(), a.len() as u8), Ok(fb));
        prop_assert_eq!(Feedback::parse(&format!("{fb:#}"), a.len() as u8), Ok(fb));
    }

    #[test]
    fn parsing_never_panics(s in "\\PC{0,24}", v in variant()) {
        let _ = v.parse_code(&s);
        let _ = Feedback::parse(&s, v.pegs());
        let _ = s.parse::<Variant>();
        let _ = s.parse::<mastermind::Strategy>();
    }
}

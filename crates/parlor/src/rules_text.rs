//! The rules and notes shown by the help screens and by plain mode, written once for both.

/// 2048's rules, one paragraph each.
pub const TWENTY48: &[&str] = &[
    "Slide all tiles in one direction. Two equal tiles that meet merge into one of double value; a tile merges at \
     most once per move, and the pair nearest the wall you slide toward merges first (2 2 2 . left gives 4 2 . .).",
    "Every move that changes the board adds one tile on a random empty cell: a 2, or sometimes a 4. A move that \
     changes nothing is not a turn. Each merge scores the value of the new tile.",
    "Make the target tile (2048 by default) to win; you may then keep going. The game is over when no move is left.",
    "Marks: + is the tile that just appeared, * a tile made by a merge. Undo marks the game as assisted: it is kept in \
     the history but not in the best scores. Every move is saved at once; quit at any time and continue later.",
];

/// What Parlor is, for the menu's help.
pub const ABOUT: &[&str] = &[
    "Parlor is a suite of classic thinking games: 2048, Mastermind and Nocca Nocca. Every game in progress is saved \
     after each move; choose Continue to pick it up again.",
    "Keys: arrows, vim's h j k l and w a s d move everywhere; Enter chooses; q goes back; ? opens the help of the \
     screen you are on. Glyphs and letters carry every meaning, so the games play the same without colour \
     (NO_COLOR is respected).",
    "Undo and hints are allowed but mark a game as assisted: it stays in the history, not in the best scores.",
];

/// The whole help: what Parlor is, then each game's rules under its name.
pub fn all() -> Vec<String> {
    let mut out: Vec<String> = ABOUT.iter().map(|s| s.to_string()).collect();
    for (name, rules) in [
        ("2048", TWENTY48),
        ("Mastermind", crate::games::mastermind::RULES),
        ("Nocca Nocca", crate::games::nocca::RULES),
    ] {
        out.push(format!("== {name} =="));
        out.extend(rules.iter().map(|s| s.to_string()));
    }
    out
}

//! Mastermind on the full screen: the board (a row per guess with its pegs, the code on top, the colour palette),
//! the guess being typed (codebreaker), the computer's guess and the answer being typed (codemaker), and the hidden
//! code a codemaker may type before the first guess. Every peg shows its symbol, so the board reads the same without
//! colour; feedback uses ● for black and ○ for white, sorted, blacks first, · for an empty hole.

pub use super::board::{colour_style, feedback_text};
use super::board::{draw_board, geometry, palette_compact, palette_label};
use crate::games::mastermind::trees::{self, Trees};
use crate::games::mastermind::{
    Mastermind, Move, Params, Play, Role, State, codes_fit, colour_keys, contradiction,
};
use crate::input::{KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind};
use crate::mid::session::Session;
use crate::tui::game::{Act, Board, TuiGame};
use crate::tui::keys::{Binding, bar, intern, more};
use crate::tui::theme::Theme;
use mastermind::{Code, CodeStyle, Feedback, Palette, Variant};
use ratatui::Frame;
use ratatui::layout::Rect;

/// Mastermind's own commands (the play screen adds undo, hint, give up, new game, quit and help).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Cmd {
    /// Cursor left.
    Left,
    /// Cursor right.
    Right,
    /// Codebreaker: next colour at the cursor; codemaker: the answer above (to fix).
    Up,
    /// Codebreaker: previous colour at the cursor; codemaker: the answer below.
    Down,
    /// Erase a peg or a character.
    Erase,
    /// Clear the guess.
    Clear,
    /// Play the guess, send the answer or the code.
    Submit,
    /// Copy the last guess.
    Copy,
    /// Count the codes that still fit.
    Count,
    /// A label only (typed colours and answers are read by `other_key`).
    Nothing,
}

/// The colour entry's label in the table; the hint bar shows the variant's own keys instead (see `bar_label`).
const COLOUR_LABEL: &str = "1-6 RGYU…";

/// What the player types at the board, read by `other_key` (a label in the hint bar, no key of its own).
const fn typed(label: &'static str, help: &'static str) -> Binding<Cmd> {
    bar(&[], label, help, Cmd::Nothing)
}

/// Backspace or Delete erasing what `help` says (shown on the help screen only).
const fn erase(help: &'static str) -> Binding<Cmd> {
    more(
        &[KeyCode::Backspace, KeyCode::Delete],
        "Backspace",
        help,
        Cmd::Erase,
    )
}

/// ↓ moving to what `help` says (shown on the help screen only).
const fn down(help: &'static str) -> Binding<Cmd> {
    more(&[KeyCode::Down], "↓", help, Cmd::Down)
}

const BREAKER: &[Binding<Cmd>] = &[
    typed(COLOUR_LABEL, "colour"),
    more(
        &[KeyCode::Left, KeyCode::Char('h')],
        "← h",
        "cursor left",
        Cmd::Left,
    ),
    more(
        &[KeyCode::Right, KeyCode::Char('l')],
        "→ l",
        "cursor right",
        Cmd::Right,
    ),
    more(&[KeyCode::Up], "↑", "next colour at the cursor", Cmd::Up),
    down("previous colour at the cursor"),
    erase("erase the last peg typed (u takes back a guess already played)"),
    more(&[KeyCode::Home], "Home", "clear the guess", Cmd::Clear),
    bar(&[KeyCode::Enter], "Enter", "guess", Cmd::Submit),
    more(&[KeyCode::Char('v')], "v", "copy the last guess", Cmd::Copy),
    bar(&[KeyCode::Char('n')], "n", "count", Cmd::Count),
];

const MAKER: &[Binding<Cmd>] = &[
    typed("2 1 / RRW", "answer"),
    bar(&[KeyCode::Enter], "Enter", "send", Cmd::Submit),
    bar(&[KeyCode::Up], "↑↓", "pick the answer to fix", Cmd::Up),
    down("the answer below (after the last: the computer's new guess)"),
    erase("erase a character (or a peg of the hidden code)"),
];

/// A codemaker typing the hidden code: colours, Enter to hide the code (or, with none typed, to answer by hand),
/// Backspace to erase a peg.
const CODE: &[Binding<Cmd>] = &[
    typed(COLOUR_LABEL, "colour"),
    bar(
        &[KeyCode::Enter],
        "Enter",
        "hide the code or answer by hand",
        Cmd::Submit,
    ),
    erase("erase the last peg of the hidden code"),
];

/// What the player is doing on the board.
#[derive(Debug, Default)]
pub struct Ui {
    /// Codebreaker: the guess being typed; codemaker: the hidden code being typed.
    pub slots: Vec<Option<u8>>,
    /// The cursor among the slots.
    pub cursor: usize,
    /// Codemaker: the answer being typed.
    pub answer: String,
    /// Codemaker: the earlier answer being corrected (0-based), if any.
    pub selected: Option<usize>,
    /// Codemaker: answers named by the last contradiction.
    pub marked: Vec<usize>,
    /// Codemaker: Enter was pressed on an empty code (the player answers by hand).
    pub skipped_code: bool,
}

impl Ui {
    fn fit(&mut self, pegs: u8) {
        let n = usize::from(pegs);
        if self.slots.len() != n {
            self.slots = vec![None; n];
            self.cursor = 0;
        }
    }

    fn put(&mut self, c: u8) {
        self.slots[self.cursor] = Some(c);
        if self.cursor + 1 < self.slots.len() {
            self.cursor += 1;
        }
    }

    fn clear(&mut self) {
        self.slots.iter_mut().for_each(|s| *s = None);
        self.cursor = 0;
    }

    fn code(&self) -> Option<Code> {
        let pegs: Option<Vec<u8>> = self.slots.iter().copied().collect();
        Code::from_pegs(&pegs?)
    }
}

/// The hint bar's colour keys of a variant: `1-6 RGYUKO`, `1-9 0 RGYUKOWPCM` with ten colours, `0-9` with digits.
pub fn colour_bar_label(v: &Variant) -> String {
    match v.palette() {
        Palette::Digits => {
            let first = v.colour_symbol(0);
            let last = v.colour_symbol(v.colours() - 1);
            format!("{first}-{last}")
        }
        Palette::Colours => {
            let letters: String = (0..v.colours()).map(|c| v.colour_symbol(c)).collect();
            let numbers = if v.colours() == 10 {
                "1-9 0".to_string()
            } else {
                format!("1-{}", v.colours())
            };
            format!("{numbers} {letters}")
        }
    }
}

/// The status line's words for a position (the guess, the rule on repeats, the codes that fit).
fn status_words(state: &State, _params: &Params) -> String {
    let v = &state.variant;
    let used = state.history().len();
    let over = state.found() || state.out_of_guesses();
    match state.role() {
        Role::Breaker if over => format!("Guesses used: {used} of {}", v.guesses()),
        Role::Breaker => format!(
            "Guess {} of {} · {}",
            used + 1,
            v.guesses(),
            if v.guess_repeats() {
                "repeats allowed"
            } else {
                "no colour twice"
            }
        ),
        Role::Maker if over => format!("Computer guesses: {used} of {}", v.guesses()),
        Role::Maker => format!(
            "Computer guess {} of {} · {} {} · {}",
            used + 1,
            v.guesses(),
            crate::figures::count(state.remaining(), "code"),
            crate::figures::agree(state.remaining(), "fits", "fit"),
            if state.typed_secret().is_some() {
                "your code scores"
            } else {
                "you answer"
            }
        ),
    }
}

/// Whether a codemaker is still to type (or skip) the hidden code.
pub fn typing_code(ui: &Ui, session: &Session<Mastermind>) -> bool {
    let s = session.state();
    s.role() == Role::Maker
        && session.moves().is_empty()
        && s.typed_secret().is_none()
        && !ui.skipped_code
}

fn colour_of(v: &Variant, c: char) -> Option<u8> {
    (0..v.colours()).find(|&i| {
        v.colour_symbol(i).eq_ignore_ascii_case(&c)
            || (v.palette() == Palette::Colours && c.to_digit(10) == Some(v.colour_number(i) % 10))
    })
}

fn breaker_command(cmd: Cmd, ui: &mut Ui, s: &State) -> Act<Move> {
    let v = s.variant;
    ui.fit(v.pegs());
    let n = ui.slots.len();
    let colours = v.colours();
    match cmd {
        Cmd::Left => ui.cursor = ui.cursor.saturating_sub(1),
        Cmd::Right => ui.cursor = (ui.cursor + 1).min(n - 1),
        Cmd::Up | Cmd::Down => {
            let c = ui.slots[ui.cursor];
            ui.slots[ui.cursor] = Some(match (c, cmd) {
                (None, Cmd::Up) => 0,
                (None, _) => colours - 1,
                (Some(c), Cmd::Up) => (c + 1) % colours,
                (Some(c), _) => (c + colours - 1) % colours,
            });
        }
        Cmd::Erase => {
            if ui.slots.iter().all(Option::is_none) {
                return Act::Say("nothing typed to erase (u takes back the last guess)".into());
            }
            if ui.slots[ui.cursor].is_none() && ui.cursor > 0 {
                ui.cursor -= 1;
            }
            ui.slots[ui.cursor] = None;
        }
        Cmd::Clear => ui.clear(),
        Cmd::Copy => match s.history().last() {
            Some((code, _)) => {
                ui.slots = code.pegs().iter().map(|&c| Some(c)).collect();
                ui.cursor = n - 1;
            }
            None => return Act::Say("no previous guess to copy".into()),
        },
        Cmd::Count => return Act::Say(codes_fit(s.remaining(), "every answer")),
        Cmd::Submit => {
            let placed = ui.slots.iter().flatten().count();
            let Some(code) = ui.code().filter(|_| placed == n) else {
                return Act::Say(format!(
                    "wrong length: {placed} of {n} pegs placed (no guess used)"
                ));
            };
            if let Err(e) = v.validate_guess(&code) {
                return Act::Say(format!("{e} (no guess used)"));
            }
            return Act::Play(Move::new(Play::Guess(code), v));
        }
        Cmd::Nothing => {}
    }
    Act::Stay
}

fn code_command(cmd: Cmd, ui: &mut Ui, v: Variant) -> Act<Move> {
    let typed = ui.slots.iter().flatten().count();
    match cmd {
        Cmd::Submit if typed == 0 => {
            ui.skipped_code = true;
            Act::Say("keep your code in mind and answer each guess".into())
        }
        Cmd::Submit => match ui.code().filter(|_| typed == ui.slots.len()) {
            Some(code) => match v.validate_secret(&code) {
                Ok(()) => Act::Play(Move::new(Play::Secret(code), v)),
                Err(e) => Act::Say(e.to_string()),
            },
            None => Act::Say(format!("a code has {} pegs", v.pegs())),
        },
        Cmd::Erase => {
            if let Some(i) = ui.slots.iter().rposition(Option::is_some) {
                ui.slots[i] = None;
                ui.cursor = i;
            }
            Act::Stay
        }
        _ => Act::Say("type your code (hidden until the end), or Enter to answer by hand".into()),
    }
}

fn maker_command(cmd: Cmd, ui: &mut Ui, s: &State) -> Act<Move> {
    let v = s.variant;
    if s.typed_secret().is_some() {
        return Act::Say("the computer scores its guesses from your hidden code".into());
    }
    let len = s.history().len();
    // After an undo, forget marks and a selection past the answers that remain.
    if ui.selected.is_some_and(|i| i >= len) {
        ui.selected = None;
    }
    ui.marked.retain(|&i| i <= len);
    match cmd {
        Cmd::Up => {
            if len == 0 {
                return Act::Say("no answer to fix yet".into());
            }
            ui.selected = Some(match ui.selected {
                None => len - 1,
                Some(i) => i.saturating_sub(1),
            });
            ui.answer.clear();
        }
        Cmd::Down => {
            ui.selected = match ui.selected {
                Some(i) if i + 1 < len => Some(i + 1),
                _ => None,
            };
            ui.answer.clear();
        }
        Cmd::Erase if ui.answer.pop().is_none() => {
            return Act::Say("nothing typed to erase (u takes back the last answer)".into());
        }
        Cmd::Submit => {
            let fb = match Feedback::parse(&ui.answer, v.pegs()) {
                Ok(fb) => fb,
                Err(e) => return Act::Say(e.to_string()),
            };
            let play = match ui.selected {
                Some(index) => Play::Fix { index, answer: fb },
                None => match s.ready_guess() {
                    Some(guess) => Play::Answer { guess, answer: fb },
                    None => return Act::Say("the computer is still thinking".into()),
                },
            };
            let mv = Move::new(play, v);
            if let Some(suspects) = contradiction(s, &mv) {
                ui.marked = suspects.clone();
                ui.answer.clear();
                if let Some(&first) = suspects.iter().find(|&&i| i < len) {
                    ui.selected = Some(first);
                }
                let names: Vec<String> = suspects.iter().map(|i| (i + 1).to_string()).collect();
                return Act::Say(format!(
                    "not taken: no code fits; answer {} may be wrong · ↑↓ pick, type, Enter",
                    names.join(" or ")
                ));
            }
            return Act::Play(mv);
        }
        _ => {}
    }
    Act::Stay
}

impl TuiGame for Mastermind {
    type Ui = Ui;
    type Cmd = Cmd;

    /// The lower-case colour letters the codebreaker types as pegs (`g` types GREEN), except those the shared
    /// commands' default keys already take (`r` new game, `u` undo, `p` autoplay).
    fn typed_keys() -> Vec<(KeyCode, String)> {
        let defaults: Vec<KeyCode> = crate::tui::keys::actions::ALL
            .iter()
            .flat_map(|a| a.default.iter().copied())
            .collect();
        mastermind::COLOUR_SYMBOLS
            .iter()
            .zip(mastermind::COLOUR_NAMES)
            .map(|(&c, name)| (KeyCode::Char(c.to_ascii_lowercase()), name))
            .filter(|(k, _)| !defaults.contains(k))
            .map(|(k, name)| {
                (
                    k,
                    format!(
                        "it types {name} in {}",
                        <Self as crate::mid::game::Game>::TITLE
                    ),
                )
            })
            .collect()
    }

    fn bindings(params: &Params) -> &'static [Binding<Cmd>] {
        match params.role {
            Role::Breaker => BREAKER,
            Role::Maker => MAKER,
        }
    }

    fn bindings_now(params: &Params, ui: &Ui, session: &Session<Self>) -> &'static [Binding<Cmd>] {
        if typing_code(ui, session) {
            CODE
        } else {
            Self::bindings(params)
        }
    }

    fn help_rows(params: &Params) -> Vec<(String, &'static str)> {
        match params.variant() {
            Ok(v) => vec![(
                colour_keys(&v),
                "a colour (the guess, or a codemaker's hidden code)",
            )],
            Err(_) => Vec::new(),
        }
    }

    fn bar_label(params: &Params, label: &'static str) -> &'static str {
        match params.variant() {
            Ok(v) if label == COLOUR_LABEL => intern(colour_bar_label(&v)),
            _ => label,
        }
    }

    fn hint_text(trees: &Trees, state: &State, mv: &Move) -> String {
        let said = <Mastermind as crate::mid::game::Game>::describe_hint(trees, state, mv);
        match trees.building(&state.variant, state.strategy) {
            // Until the tree is ready, the figure is worked out without it: say so, and that it is being built.
            Some(progress) if said.contains(" guesses to go") => {
                let said = said.replacen(
                    " guesses to go",
                    " guesses to go (a rough estimate until the tree is built)",
                    1,
                );
                if said.contains("tree being built") {
                    said
                } else {
                    format!(
                        "{said} · strategy tree being built{}",
                        share_words(&progress)
                    )
                }
            }
            _ => said,
        }
    }

    /// The guess and its feedback, in words.
    fn announce(trees: &Trees, state: &State, params: &Params, _last: &Move) -> String {
        let status = Self::status_text(trees, state, params);
        let history = state.history();
        match history.last() {
            Some((code, fb)) => format!(
                "guess {}: {}: {} black, {} white. {status}",
                history.len(),
                state.variant.format_code(code, CodeStyle::Names),
                fb.black,
                fb.white
            ),
            None => status,
        }
    }

    fn board_size(_params: &Params) -> (u16, u16) {
        // The code, a rule, three rows of guesses, a blank row, the palette and one line to type in; taller
        // screens show more rows, wider ones the colours' names.
        (40, 8)
    }

    fn draw(frame: &mut Frame, area: Rect, board: &Board<Self>, theme: &Theme) {
        draw_board(frame, area, board, theme);
    }

    fn status_text(trees: &Trees, state: &State, params: &Params) -> String {
        let text = status_words(state, params);
        match trees.building(&state.variant, state.strategy) {
            // A tree built in the background changes the hint's figures once it lands: the screen says it is
            // being built, as long as it is.
            Some(progress) => format!(
                "{text} · building the strategy tree{}",
                share_words(&progress)
            ),
            None => text,
        }
    }

    fn command(cmd: Cmd, ui: &mut Ui, session: &Session<Self>) -> Act<Move> {
        let s = session.state();
        ui.fit(s.variant.pegs());
        if typing_code(ui, session) {
            return code_command(cmd, ui, s.variant);
        }
        match s.role() {
            Role::Breaker => breaker_command(cmd, ui, s),
            Role::Maker => maker_command(cmd, ui, s),
        }
    }

    fn other_key(key: &KeyEvent, ui: &mut Ui, session: &Session<Self>) -> Option<Act<Move>> {
        let KeyCode::Char(ch) = key.code else {
            return None;
        };
        if key
            .modifiers
            .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT)
        {
            return None;
        }
        let s = session.state();
        let v = s.variant;
        ui.fit(v.pegs());
        if typing_code(ui, session) || s.role() == Role::Breaker {
            return Some(match colour_of(&v, ch) {
                Some(c) => {
                    ui.put(c);
                    Act::Say(String::new())
                }
                None => Act::Say(format!(
                    "unknown colour '{ch}': use {}{}",
                    colour_keys(&v),
                    if s.role() == Role::Breaker {
                        " (no guess used)"
                    } else {
                        ""
                    }
                )),
            });
        }
        if s.typed_secret().is_some() {
            return Some(Act::Say(
                "the computer scores its guesses from your hidden code".into(),
            ));
        }
        if ch.is_ascii_digit() || " -,/rRwWbB".contains(ch) {
            if ui.answer.len() < 16 {
                ui.answer.push(ch);
            }
            return Some(Act::Say(String::new()));
        }
        Some(Act::Say(format!(
            "'{ch}' is not part of an answer: type black and white counts (2 1) or pegs, R for black and W for white \
             (RRW, - for none)"
        )))
    }

    fn mouse(event: MouseEvent, area: Rect, ui: &mut Ui, session: &Session<Self>) -> Act<Move> {
        if event.kind != MouseEventKind::Down(MouseButton::Left) {
            return Act::Stay;
        }
        let s = session.state();
        let v = s.variant;
        ui.fit(v.pegs());
        let board = Board {
            state: s,
            params: &session.params,
            ui: Some(&*ui),
            last: None,
            over: false,
            context: session.context(),
        };
        let g = geometry(area, &board);
        let (x, y) = (event.column, event.row);
        // A colour of the palette types it (codebreaker, or the codemaker's hidden code).
        if y >= g.palette_y && (s.role() == Role::Breaker || typing_code(ui, session)) {
            let mut cx = area.x + 2;
            let mut cy = g.palette_y;
            let compact = palette_compact(&v, area.width);
            for c in 0..v.colours() {
                let w = 3 + palette_label(&v, c, compact).chars().count() as u16;
                if cx + w > area.x + area.width && cx > area.x + 2 {
                    cx = area.x + 2;
                    cy += 1;
                }
                if y == cy && x >= cx && x < cx + w {
                    ui.put(c);
                    return Act::Say(String::new());
                }
                cx += w;
            }
            return Act::Stay;
        }
        let Some(row) = (y.checked_sub(area.y + 2)).map(|r| g.first + usize::from(r)) else {
            return Act::Stay;
        };
        if row >= g.end {
            return Act::Stay;
        }
        let len = s.history().len();
        match s.role() {
            // A slot of the guess being typed takes the cursor.
            Role::Breaker if row == len => {
                let k = usize::from(x.saturating_sub(area.x + 7) / 3);
                if k < ui.slots.len() {
                    ui.cursor = k;
                }
                Act::Stay
            }
            // An earlier answer is picked to be corrected; the current row goes back to answering.
            Role::Maker if s.typed_secret().is_none() && !typing_code(ui, session) => {
                ui.selected = (row < len).then_some(row);
                ui.answer.clear();
                Act::Stay
            }
            _ => Act::Stay,
        }
    }

    fn after_move(ui: &mut Ui, _session: &Session<Self>) {
        ui.clear();
        ui.answer.clear();
        ui.selected = None;
        ui.marked.clear();
    }
}

/// A background build's share for a short line (` 40%`), or nothing once it runs past its estimate (the share is
/// then unknown; `solve` and the hint say how long it has taken).
fn share_words(progress: &trees::BuildProgress) -> String {
    progress
        .share
        .map(|s| format!(" {:.0}%", 100.0 * s))
        .unwrap_or_default()
}

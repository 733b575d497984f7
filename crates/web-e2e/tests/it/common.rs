//! What every browser test starts with, and the reading of Parlor's screens as text (the same screens as the
//! terminal's, so the same words: crates/parlor/tests/it/snapshots).

use parlor_web_e2e::{Key, Session, site_from_env};
use std::time::{Duration, Instant};

/// A session on the built page opened with `query`, on a fresh store, showing the menu; `None` (the test skips)
/// without `PARLOR_WEB_DIR`.
pub fn page(test: &str, query: &str) -> Option<Session> {
    let site = site_from_env(test).unwrap()?;
    let session = Session::start(test, &site, query).unwrap();
    session.fresh_start().unwrap();
    session.wait_text(MENU_FIRST).unwrap();
    Some(session)
}

/// A session on the harness's own fixture page; `None` (the test skips) without `PARLOR_WEB_DIR`, since it needs
/// Chromium as the page tests do.
pub fn fixture(test: &str, query: &str) -> Option<Session> {
    site_from_env(test).unwrap()?;
    Some(Session::start(test, &parlor_web_e2e::fixture_dir(), query).unwrap())
}

/// A label every menu shows (the first game's new-game row).
pub const MENU_FIRST: &str = "New game: 2048";

/// Where `text` first stands on the screen: (column, row) of its first character, counting characters.
pub fn find(screen: &str, text: &str) -> Option<(u16, u16)> {
    screen.lines().enumerate().find_map(|(row, line)| {
        line.find(text).map(|byte| {
            let col = line[..byte].chars().count();
            (col as u16, row as u16)
        })
    })
}

/// The line holding `text`, if any.
pub fn line_with<'a>(screen: &'a str, text: &str) -> Option<&'a str> {
    screen.lines().find(|l| l.contains(text))
}

/// The number after `label` on the screen (`"Moves"` in `Score 12   Best 0   Moves 3`).
pub fn number_after(screen: &str, label: &str) -> Option<u64> {
    screen.lines().find_map(|line| {
        let mut words = line.split_whitespace();
        while let Some(w) = words.next() {
            if w == label {
                return words.next()?.parse().ok();
            }
        }
        None
    })
}

/// The screen's title line (`Parlor · ...`), trimmed.
pub fn title(screen: &str) -> String {
    line_with(screen, "Parlor · ")
        .map(|l| l.trim().to_string())
        .unwrap_or_default()
}

/// The rows of the box that starts with the first `┌` line and ends with the next `└` line (the 2048 board).
pub fn boxed(screen: &str) -> Vec<String> {
    let lines: Vec<&str> = screen.lines().collect();
    let Some(top) = lines.iter().position(|l| l.contains('┌')) else {
        return Vec::new();
    };
    let Some(len) = lines[top..].iter().position(|l| l.contains('└')) else {
        return Vec::new();
    };
    lines[top..=top + len]
        .iter()
        .map(|l| l.trim_end().to_string())
        .collect()
}

/// The numbers on the 2048 board, top row first, each row left to right (empty cells left out).
pub fn tiles(screen: &str) -> Vec<u64> {
    boxed(screen)
        .iter()
        .flat_map(|l| {
            l.split(|c: char| !c.is_ascii_digit())
                .filter_map(|w| w.parse().ok())
                .collect::<Vec<u64>>()
        })
        .collect()
}

/// The centre (column, row) of the first box on the screen, and its half width and half height.
pub fn box_centre(screen: &str) -> Option<((u16, u16), (u16, u16))> {
    let (left, top) = find(screen, "┌")?;
    let lines: Vec<&str> = screen.lines().collect();
    let top_line = lines.get(usize::from(top))?;
    let width = top_line
        .chars()
        .skip(usize::from(left))
        .take_while(|c| *c != '┐')
        .count() as u16;
    let bottom = lines
        .iter()
        .enumerate()
        .skip(usize::from(top))
        .find(|(_, l)| l.contains('└'))?
        .0 as u16;
    let (hw, hh) = (width / 2, (bottom - top) / 2);
    Some(((left + hw, top + hh), (hw, hh)))
}

/// One played Mastermind guess as the board shows it: the colours' letters, then blacks and whites.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Feedback {
    /// The guess's colour letters, in order.
    pub guess: Vec<char>,
    /// Right colour in the right place.
    pub black: u8,
    /// Right colour in the wrong place.
    pub white: u8,
}

/// Every played guess on a Mastermind board (`  1   R  G  Y  U   ●○○·  1 2`), in order.
pub fn feedbacks(screen: &str, pegs: usize) -> Vec<Feedback> {
    let mut out = Vec::new();
    for line in screen.lines() {
        let words: Vec<&str> = line
            .split(|c: char| c.is_whitespace() || c == '│')
            .filter(|w| !w.is_empty())
            .collect();
        if words.len() < pegs + 4 || words[0].parse::<u8>().is_err() {
            continue;
        }
        let letters: Vec<char> = words[1..=pegs]
            .iter()
            .filter_map(|w| {
                let mut c = w.chars();
                match (c.next(), c.next()) {
                    (Some(l), None) if l.is_ascii_uppercase() || l.is_ascii_digit() => Some(l),
                    _ => None,
                }
            })
            .collect();
        let black = words[pegs + 2].parse::<u8>();
        let white = words[pegs + 3].parse::<u8>();
        if letters.len() == pegs
            && let (Ok(black), Ok(white)) = (black, white)
        {
            out.push(Feedback {
                guess: letters,
                black,
                white,
            });
        }
    }
    out
}

/// Blacks and whites of `guess` against `secret`.
pub fn score(secret: &[char], guess: &[char]) -> (u8, u8) {
    let black = secret.iter().zip(guess).filter(|(a, b)| a == b).count();
    let common: usize = secret
        .iter()
        .collect::<std::collections::BTreeSet<_>>()
        .iter()
        .map(|c| {
            let s = secret.iter().filter(|x| x == c).count();
            let g = guess.iter().filter(|x| x == c).count();
            s.min(g)
        })
        .sum();
    (black as u8, (common - black) as u8)
}

/// Every code of `pegs` distinct colours from `colours` that agrees with every feedback so far.
pub fn consistent(colours: &[char], pegs: usize, seen: &[Feedback]) -> Vec<Vec<char>> {
    fn extend(colours: &[char], pegs: usize, code: &mut Vec<char>, out: &mut Vec<Vec<char>>) {
        if code.len() == pegs {
            out.push(code.clone());
            return;
        }
        for &c in colours {
            if !code.contains(&c) {
                code.push(c);
                extend(colours, pegs, code, out);
                code.pop();
            }
        }
    }
    let mut all = Vec::new();
    extend(colours, pegs, &mut Vec::new(), &mut all);
    all.retain(|code| {
        seen.iter()
            .all(|f| score(code, &f.guess) == (f.black, f.white))
    });
    all
}

/// The value shown on a settings row (`Theme   ◀ dark ▶`).
pub fn setting(screen: &str, name: &str) -> String {
    let line = screen
        .lines()
        .find(|l| l.contains(name) && l.contains('◀'))
        .unwrap_or_else(|| panic!("no setting {name:?}:\n{screen}"));
    line.split('◀')
        .nth(1)
        .and_then(|r| r.split('▶').next())
        .unwrap_or("")
        .trim()
        .to_string()
}

/// On a setup or settings form: moves the cursor (`▸`) to the row `name` with ↓, then turns its value with → until
/// it shows `value`. Gives the screen.
pub fn set_setting(page: &Session, name: &str, value: &str) -> String {
    let on_row = |s: &str| s.lines().any(|l| l.contains('▸') && l.contains(name));
    let mut screen = page.screen().unwrap();
    for _ in 0..12 {
        if on_row(&screen) {
            break;
        }
        page.press(&[Key::Down]).unwrap();
        screen = page.wait_change(&screen, Duration::from_secs(3)).unwrap();
    }
    assert!(
        on_row(&screen),
        "the cursor never reached {name:?}:\n{screen}"
    );
    for _ in 0..12 {
        if setting(&screen, name) == value {
            return screen;
        }
        page.press(&[Key::Right]).unwrap();
        screen = page.wait_change(&screen, Duration::from_secs(3)).unwrap();
    }
    panic!("{name:?} never showed {value:?}:\n{screen}");
}

/// Opens a menu row by clicking it (a click on a row chooses it); presses Enter if the click only selected it.
/// Gives the screen that came.
pub fn open_item(page: &Session, label: &str) -> String {
    let menu = page.wait_text(label).unwrap();
    let (col, row) = find(&menu, label).unwrap();
    page.click_cell(col + 1, row).unwrap();
    let menu_title = title(&menu);
    let left = page.wait_screen(
        &format!("the menu row {label:?} to open"),
        Duration::from_secs(2),
        |s| title(s) != menu_title,
    );
    match left {
        Ok(screen) => screen,
        Err(_) => {
            page.press(&[Key::Enter]).unwrap();
            page.wait_screen(
                &format!("the menu row {label:?} to open after Enter"),
                Duration::from_secs(10),
                |s| title(s) != menu_title,
            )
            .unwrap()
        }
    }
}

/// Back to the menu with `q` (or Esc) until it shows.
pub fn to_menu(page: &Session) -> String {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let screen = page.screen().unwrap();
        if screen.contains(MENU_FIRST) {
            return screen;
        }
        assert!(
            Instant::now() < deadline,
            "could not get back to the menu; the screen:\n{screen}"
        );
        page.type_text("q").unwrap();
        let _ = page.wait_change(&screen, Duration::from_secs(2));
    }
}

/// After a reload: the game where it was, through the menu's Continue row when the page shows the menu.
pub fn resume(page: &Session, game_title: &str) -> String {
    let screen = page
        .wait_screen(
            "the menu or the game after the reload",
            Duration::from_secs(10),
            |s| s.contains(MENU_FIRST) || title(s).contains(game_title),
        )
        .unwrap();
    if title(&screen).contains(game_title) {
        return screen;
    }
    let row = format!("Continue {game_title}");
    assert!(
        screen.contains(&row),
        "after the reload the menu offers no {row:?}:\n{screen}"
    );
    open_item(page, &row);
    page.wait_screen(
        &format!("the {game_title} game to show"),
        Duration::from_secs(10),
        |s| title(s).contains(game_title),
    )
    .unwrap()
}

/// Sets up a new 4 x 4 Nocca Nocca game against the perfect computer, which moves first (you white, black first),
/// and starts it: its first move needs the board's table.
pub fn new_4x4_perfect_computer_first(page: &Session) {
    let setup = open_item(page, "New game: Nocca Nocca");
    assert!(title(&setup).contains("new game of Nocca Nocca"), "{setup}");
    set_setting(page, "Players", "against the computer");
    set_setting(page, "Board", "4x4");
    set_setting(page, "Computer level", "perfect (solved boards)");
    set_setting(page, "Your colour", "white");
    set_setting(page, "Moves first", "black");
    page.press(&[Key::Enter]).unwrap();
}

/// Flips one bit of the byte at `at` (a JavaScript expression of `bytes`, the entry's bytes) of the entry `key` the
/// page keeps in IndexedDB (`parlor-kept`), as a damaged disk would, and returns the entry's length. The write counts
/// once its transaction has committed: a put's own success comes before, and a reload right after it could abort the
/// transaction, so that the page would find the entry whole.
pub fn damage_kept(page: &Session, key: &str, at: &str) -> f64 {
    let length = page
        .eval(&format!(
            "return new Promise((ok, no) => {{
               const r = indexedDB.open('parlor-kept', 1);
               r.onerror = () => no(String(r.error));
               r.onsuccess = () => {{
                 const tx = r.result.transaction('kept', 'readwrite');
                 const store = tx.objectStore('kept');
                 const get = store.get('{key}');
                 get.onsuccess = () => {{
                   const bytes = new Uint8Array(get.result);
                   bytes[{at}] ^= 1;
                   const put = store.put(bytes, '{key}');
                   put.onerror = () => no(String(put.error));
                   tx.oncomplete = () => {{ r.result.close(); ok(bytes.length); }};
                   tx.onabort = () => no('the transaction was aborted: ' + String(tx.error));
                 }};
               }};
             }});"
        ))
        .unwrap();
    length
        .as_f64()
        .unwrap_or_else(|| panic!("the kept entry {key} was not damaged: {length}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    const BOARD: &str = "Parlor · Mastermind · seed\n\
        Guesses 2   Guess 3 of 8 · repeats allowed\n\
          code   ?  ?  ?  ?\n\
            1   R  G  Y  U   ●○○·  1 2\n\
            2   K  K  O  O   ○···  0 1\n\
            3  [·] ·  ·  ·   ← your guess\n\
            4   ·  ·  ·  ·\n\
           R  1 RED   G  2 GREEN   Y  3 YELLOW\n";

    #[test]
    fn feedback_rows_are_read_and_the_typed_row_is_not() {
        assert_eq!(
            feedbacks(BOARD, 4),
            vec![
                Feedback {
                    guess: vec!['R', 'G', 'Y', 'U'],
                    black: 1,
                    white: 2
                },
                Feedback {
                    guess: vec!['K', 'K', 'O', 'O'],
                    black: 0,
                    white: 1
                },
            ]
        );
        assert_eq!(find(BOARD, "G  2 GREEN"), Some((11, 7)));
        assert_eq!(number_after(BOARD, "Guesses"), Some(2));
        assert_eq!(title(BOARD), "Parlor · Mastermind · seed");
    }

    #[test]
    fn the_solver_keeps_only_codes_that_agree() {
        assert_eq!(score(&['R', 'G', 'Y', 'U'], &['R', 'Y', 'K', 'O']), (1, 1));
        assert_eq!(score(&['R', 'R', 'G', 'G'], &['G', 'R', 'R', 'K']), (1, 2));
        let colours = ['R', 'G', 'Y', 'U', 'K', 'O'];
        assert_eq!(consistent(&colours, 4, &[]).len(), 360);
        let seen = [Feedback {
            guess: vec!['R', 'G', 'Y', 'U'],
            black: 4,
            white: 0,
        }];
        assert_eq!(
            consistent(&colours, 4, &seen),
            vec![vec!['R', 'G', 'Y', 'U']]
        );
        // Guessing the first code that agrees always finds a secret within 8 guesses.
        for secret in consistent(&colours, 4, &[]) {
            let mut seen = Vec::new();
            loop {
                let guess = consistent(&colours, 4, &seen).remove(0);
                let (black, white) = score(&secret, &guess);
                seen.push(Feedback {
                    guess,
                    black,
                    white,
                });
                if black == 4 {
                    break;
                }
            }
            assert!(seen.len() <= 8, "{secret:?} took {}", seen.len());
        }
    }

    #[test]
    fn the_2048_board_is_read_from_its_box() {
        let screen = "Parlor · 2048 · 3x3\nScore 208   Best 208   Moves 34\n\
            ┌───────────┐\n│  2   8  4 │\n│  ·  16 32 │\n└───────────┘\n";
        assert_eq!(tiles(screen), vec![2, 8, 4, 16, 32]);
        assert_eq!(number_after(screen, "Moves"), Some(34));
        assert_eq!(boxed(screen).len(), 4);
        assert_eq!(box_centre(screen), Some(((6, 3), (6, 1))));
    }
}

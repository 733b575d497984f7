//! The page's worker side of thinking elsewhere (issue 27, step 6): a Web Worker loads the same wasm module and
//! answers the play screen's think requests ([`parlor::mid::elsewhere`]) with [`answer`], off the page's thread.
//! Each game's context (Nocca's solved tables, Mastermind's trees) lives as long as the worker, so a table is
//! solved once per visit. Plain Rust: the native tests check it without a browser.

use parlor::games::mastermind::Mastermind;
use parlor::games::nocca::Nocca;
use parlor::games::twenty48::Twenty48;
use parlor::mid::Contexts;
use parlor::mid::elsewhere::{Answer, Request, answer_to_json, think_for};
use parlor::mid::game::Game;
use parlor::tui::game::TuiGame;

thread_local! {
    /// Every game's context, made at the first request and kept for the worker's life.
    static CONTEXTS: Contexts = Contexts::new(&parlor::registry::any(), None);
}

/// Game `G`'s answer to `request`, over the worker's context of `G`.
fn think<G: TuiGame>(request: &Request) -> Answer {
    CONTEXTS
        .with(|c| think_for::<G>(request, &c.of::<G>(), G::set_pace))
        .map_err(|e| e.to_string())
}

/// The answer to one request (both as the JSON that crosses between the page and its worker): the request's game
/// rebuilt by replaying its moves, then the computer's move in notation, none, or why it could not think.
pub fn answer(request: &str) -> String {
    let request = match Request::from_json(request) {
        Ok(r) => r,
        Err(e) => return answer_to_json(0, &Err(e.to_string())),
    };
    let answer = match request.game.as_str() {
        id if id == Twenty48::ID => think::<Twenty48>(&request),
        id if id == Mastermind::ID => think::<Mastermind>(&request),
        id if id == Nocca::ID => think::<Nocca>(&request),
        other => Err(format!("no game {other} to think for")),
    };
    answer_to_json(request.id, &answer)
}

#[cfg(test)]
mod tests {
    use super::*;
    use parlor::mid::elsewhere::answer_from_json;
    use parlor::mid::game::Purpose;
    use parlor::mid::params_or_default;
    use std::sync::atomic::AtomicBool;

    fn request<G: Game>(moves: &str, purpose: Purpose) -> Request {
        Request {
            id: 11,
            game: G::ID.into(),
            options: G::params_to_json(&params_or_default::<G>(None)),
            seed: 4,
            moves: moves.into(),
            purpose,
            pace_ms: None,
        }
    }

    /// What thinking on the same position here gives.
    fn here<G: Game>(r: &Request) -> Option<String> {
        let params = params_or_default::<G>(None);
        let context = G::Context::default();
        let state = G::new_game(&params, r.seed).unwrap();
        let mut t = G::thinker(&params, &context);
        G::think(&mut t, &state, r.purpose, &AtomicBool::new(false)).map(|m| m.to_string())
    }

    #[test]
    fn every_game_of_the_registry_is_answered() {
        // A game added to the registry without its line in `answer` fails here.
        for g in parlor::registry::any() {
            let mut r = request::<Nocca>("", Purpose::Hint);
            r.game = g.id().into();
            let (id, answer) = answer_from_json(&answer(&r.to_json())).unwrap();
            assert_eq!(id, 11);
            if let Err(why) = answer {
                assert!(!why.contains("no game"), "{}: {why}", g.id());
            }
        }
    }

    #[test]
    fn the_answer_is_the_move_thought_on_the_replayed_position() {
        let r = request::<Nocca>("", Purpose::Hint);
        let (_, got) = answer_from_json(&answer(&r.to_json())).unwrap();
        assert_eq!(got, Ok(here::<Nocca>(&r)));
        assert!(got.unwrap().is_some());
        let r = request::<Twenty48>("", Purpose::Autoplay);
        let (_, got) = answer_from_json(&answer(&r.to_json())).unwrap();
        assert_eq!(got, Ok(here::<Twenty48>(&r)));
    }

    #[test]
    fn a_damaged_request_is_answered_with_why() {
        let (id, got) = answer_from_json(&answer("{oops")).unwrap();
        assert_eq!(id, 0);
        assert!(got.is_err());
        let mut r = request::<Nocca>("zz9", Purpose::Hint);
        let (_, got) = answer_from_json(&answer(&r.to_json())).unwrap();
        assert!(got.is_err());
        r.game = "chess".into();
        r.moves = String::new();
        let (_, got) = answer_from_json(&answer(&r.to_json())).unwrap();
        assert_eq!(got, Err("no game chess to think for".to_string()));
    }
}

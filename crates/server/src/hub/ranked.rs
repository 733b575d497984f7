//! The ranked 2048 of the day's messages: `ranked_2048` starts the player's game or gives it as it stands, and each
//! `slide_2048` is played by the server ([`crate::ranked`]) and kept before it is answered, so that a server
//! restarted (or another connection of the player's) takes the game up where it was. Like the other dailies they
//! are answered by their connection, outside the hub's lock.

use super::boxed_error;
use super::daily::{Answer, internal, player_seed};
use crate::Shared;
use crate::ranked::{self, Dealt, Slid};
use crate::store::{RANKED_BOARD, Ranked2048};
use parlor_online::protocol::ErrorCode;

/// `name`'s seed of the ranked game of `day` (today), with the day.
fn ranked_seed(
    shared: &Shared,
    name: &str,
    day: &str,
) -> Result<(String, u64), Box<parlor_online::protocol::ServerMessage>> {
    player_seed(shared, day, |secret, day| {
        ranked::ranked_seed(secret, day, name)
    })
}

/// The error a refusal of the ranked game is sent as.
fn refused(r: crate::daily::Refused) -> Box<parlor_online::protocol::ServerMessage> {
    boxed_error(r.code, r.message, None)
}

/// The rank on the day's ranked board of a game that scored `score`, once it is over.
async fn rank(
    shared: &Shared,
    day: &str,
    dealt: &Dealt,
) -> Result<Option<u32>, Box<parlor_online::protocol::ServerMessage>> {
    if !dealt.over() {
        return Ok(None);
    }
    let (d, score) = (day.to_string(), dealt.game.score());
    let better = shared
        .store
        .read(move |s| s.better_2048(&d, RANKED_BOARD, score))
        .await
        .map_err(internal(format!("ranking a ranked 2048 of {day}")))?;
    Ok(Some(u32::try_from(better + 1).unwrap_or(u32::MAX)))
}

/// Starts `name`'s ranked game of today, or gives it as it stands.
pub(super) async fn start(shared: &Shared, name: &str) -> Answer {
    let (day, seed) = ranked_seed(shared, name, &crate::daily::today())?;
    let max_tile = ranked::replay(seed, "")
        .map_err(refused)?
        .game
        .board()
        .max_tile();
    let (d, n) = (day.clone(), name.to_string());
    let kept = shared
        .store
        .write(move |s| {
            s.start_ranked_2048(&d, &n, max_tile)?;
            s.ranked_2048(&d, &n)
        })
        .await
        .map_err(internal(format!("today's ranked 2048 of {name}")))?;
    let slides = kept.map(|k| k.slides).unwrap_or_default();
    let dealt = ranked::replay(seed, &slides).map_err(refused)?;
    let rank = rank(shared, &day, &dealt).await?;
    Ok(dealt.message(&day, rank))
}

/// Plays `name`'s slide number `n`, `dir`, in their ranked game of `day` (today), and keeps it.
pub(super) async fn slide(shared: &Shared, name: &str, day: &str, n: u64, dir: &str) -> Answer {
    let (day, seed) = ranked_seed(shared, name, day)?;
    let (d, who) = (day.clone(), name.to_string());
    let kept = shared
        .store
        .read(move |s| s.ranked_2048(&d, &who))
        .await
        .map_err(internal(format!("the ranked 2048 of {name}")))?;
    let Some(kept) = kept else {
        return Err(boxed_error(
            ErrorCode::NotFound,
            "today's ranked 2048 is not started: send ranked_2048 first",
            None,
        ));
    };
    let dealt = match ranked::slide(seed, &kept.slides, n, dir).map_err(refused)? {
        Slid::Again(dealt) => dealt,
        Slid::New(dealt) => {
            let game = Ranked2048 {
                day: day.clone(),
                name: name.to_string(),
                slides: dealt.letters(),
                score: dealt.game.score(),
                max_tile: dealt.game.board().max_tile(),
                over: dealt.over(),
            };
            let before = kept.slides;
            let taken = shared
                .store
                .write(move |s| s.slide_ranked_2048(&before, &game))
                .await
                .map_err(internal(format!("keeping a ranked 2048 slide of {name}")))?;
            if !taken {
                return Err(boxed_error(
                    ErrorCode::Conflict,
                    format!(
                        "slide {n} was taken by another connection first: send ranked_2048 to see the game"
                    ),
                    None,
                ));
            }
            dealt
        }
    };
    let rank = rank(shared, &day, &dealt).await?;
    Ok(dealt.message(&day, rank))
}

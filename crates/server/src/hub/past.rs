//! Past days' seeds: once a day is over (UTC), its seeds need no more keeping from the players, so a player may ask
//! for their own games of that day (`past_day`) to replay and review them: the seed their ranked 2048 was dealt
//! from with the slides they played, and their Mastermind secret with their guesses. Today's and the days to come
//! are refused: their seeds are told to nobody. Answered by the connection, outside the hub's lock.

use super::boxed_error;
use super::daily::{Answer, internal, scored};
use crate::Shared;
use crate::daily::{self, MASTERMIND_VARIANT, mastermind_seed, mastermind_variant};
use crate::ranked::ranked_seed;
use parlor_online::protocol::{ErrorCode, ServerMessage};

/// Whether `day` reads as a date, `YYYY-MM-DD` (month 1 to 12, day 1 to 31).
fn is_date(day: &str) -> bool {
    let b = day.as_bytes();
    let digits = |r: std::ops::Range<usize>| b[r].iter().all(u8::is_ascii_digit);
    if b.len() != 10
        || b[4] != b'-'
        || b[7] != b'-'
        || !digits(0..4)
        || !digits(5..7)
        || !digits(8..10)
    {
        return false;
    }
    let (month, dom) = (&day[5..7], &day[8..10]);
    ("01"..="12").contains(&month) && ("01"..="31").contains(&dom)
}

/// `day` if it is a day before `today` (both `YYYY-MM-DD`), else the refusal to send.
pub(super) fn past(day: &str, today: &str) -> Result<(), Box<ServerMessage>> {
    if !is_date(day) {
        return Err(boxed_error(
            ErrorCode::BadDay,
            format!("{day:.12} is no day (YYYY-MM-DD)"),
            None,
        ));
    }
    // Dates of this form compare as their text does.
    if day >= today {
        return Err(boxed_error(
            ErrorCode::BadDay,
            format!("{day} is not over yet (today is {today}, UTC): its seeds are told once it is"),
            None,
        ));
    }
    Ok(())
}

/// `name`'s own games of the past `day`: their ranked 2048's seed and slides, their Mastermind secret and guesses.
pub(super) async fn past_day(shared: &Shared, name: &str, day: &str) -> Answer {
    past(day, &daily::today())?;
    let Some(secret) = &shared.secret else {
        return Err(boxed_error(
            ErrorCode::Internal,
            "the daily challenges are off",
            None,
        ));
    };
    let seed_2048 = ranked_seed(secret, day, name);
    let variant = mastermind_variant();
    let code = mastermind::secret_from_seed(&variant, mastermind_seed(secret, day, name));
    let (d, n) = (day.to_string(), name.to_string());
    let (ranked, guesses) = shared
        .store
        .read(move |s| Ok((s.ranked_2048(&d, &n)?, s.mastermind_of(&d, &n)?)))
        .await
        .map_err(internal(format!("the past day {day} of {name}")))?;
    let (slides, score) = ranked.map_or((String::new(), 0), |r| (r.slides, r.score));
    Ok(ServerMessage::PastDay {
        day: day.to_string(),
        seed_2048,
        slides,
        score,
        variant: MASTERMIND_VARIANT.into(),
        secret: variant.display(&code).to_string(),
        guesses: scored(guesses),
    })
}

#[cfg(test)]
mod tests {
    use super::past;

    #[test]
    fn only_a_day_before_today_is_past() {
        assert!(past("2026-12-06", "2026-12-07").is_ok());
        assert!(past("2025-01-31", "2026-12-07").is_ok());
        for refused in [
            "2026-12-07",
            "2026-12-08",
            "2027-01-01",
            "yesterday",
            "2026-13-01",
            "2026-12-00",
            "2026-12-32",
            "2026-1-01",
            "",
            "2026-12-06x",
        ] {
            assert!(past(refused, "2026-12-07").is_err(), "{refused:?}");
        }
    }
}

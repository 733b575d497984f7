//! Parlor online, the part shared by server and clients, free of any transport and of the clock: the versioned
//! JSON [`protocol`], the [`referee`] of a Nocca Nocca game, and a server's [`address`].
//!
//! ```
//! use parlor_online::protocol::{ClientMessage, Side};
//! use parlor_online::referee::{Played, Room};
//! let msg = ClientMessage::parse(r#"{"v":2,"type":"move","game":7,"seq":1,"mv":"c1k"}"#).unwrap();
//! let ClientMessage::Move { seq, mv, .. } = msg else { unreachable!() };
//! let mut room = Room::new(nocca::Dims::STANDARD, "ann", "bob", 60_000);
//! assert!(matches!(room.play(Side::Black, seq, &mv), Ok(Played::Events(_))));
//! assert_eq!(room.play(Side::Black, seq, &mv), Ok(Played::AlreadyPlayed));
//! assert_eq!(room.last_event(), 2);
//! ```

pub mod address;
pub mod protocol;
pub mod referee;

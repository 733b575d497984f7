//! A store for tests that forwards every call to another (the SQLite store), first asking a hook with the call's
//! name: an error from the hook is the call's answer (a store made to fail), and the hook may wait before it
//! answers (a stalled write). Its readers are hooked the same way.

use parlor_online::protocol::MoveTime;
use parlor_server::rating::Exact;
use parlor_server::store::{
    Daily2048, DailyGuess, FinishedGame, GameEnd, LiveGame, Login, NewGame, QueuedPlayer,
    Ranked2048, Rated, RematchOffer,
};
use parlor_server::{Store, StoreError};
use std::sync::Arc;

/// What a [`Hooked`] store asks before each call: `Err` answers the call with it.
pub type Hook = Arc<dyn Fn(&str) -> Result<(), StoreError> + Send + Sync>;

/// A store forwarding to `inner` after `hook` (see the module's doc).
pub struct Hooked {
    pub inner: Box<dyn Store>,
    pub hook: Hook,
}

impl Store for Hooked {
    fn reader(&self) -> Result<Option<Box<dyn Store>>, StoreError> {
        Ok(self.inner.reader()?.map(|inner| {
            Box::new(Hooked {
                inner,
                hook: Arc::clone(&self.hook),
            }) as Box<dyn Store>
        }))
    }
    fn secret(&mut self) -> Result<String, StoreError> {
        (self.hook)("secret")?;
        self.inner.secret()
    }
    fn login(&mut self, name: &str, token: &str) -> Result<Login, StoreError> {
        (self.hook)("login")?;
        self.inner.login(name, token)
    }
    fn check_login(&mut self, name: &str, token: &str) -> Result<Option<Login>, StoreError> {
        (self.hook)("check_login")?;
        self.inner.check_login(name, token)
    }
    fn rating(&mut self, name: &str) -> Result<Exact, StoreError> {
        (self.hook)("rating")?;
        self.inner.rating(name)
    }
    fn ratings(&mut self, limit: usize) -> Result<Vec<(String, Exact)>, StoreError> {
        (self.hook)("ratings")?;
        self.inner.ratings(limit)
    }
    fn last_game_id(&mut self) -> Result<u64, StoreError> {
        (self.hook)("last_game_id")?;
        self.inner.last_game_id()
    }
    fn start_game(&mut self, game: &NewGame) -> Result<(), StoreError> {
        (self.hook)("start_game")?;
        self.inner.start_game(game)
    }
    fn save_progress(
        &mut self,
        id: u64,
        moves: &str,
        times: &[MoveTime],
        remaining: [u64; 2],
        seqs: [Option<u64>; 2],
    ) -> Result<(), StoreError> {
        (self.hook)("save_progress")?;
        self.inner.save_progress(id, moves, times, remaining, seqs)
    }
    fn finish_rated_game(
        &mut self,
        id: u64,
        end: &GameEnd,
        rated: Option<(&str, &str, Rated)>,
    ) -> Result<(), StoreError> {
        (self.hook)("finish_rated_game")?;
        self.inner.finish_rated_game(id, end, rated)
    }
    fn games_in_play(&mut self) -> Result<Vec<LiveGame>, StoreError> {
        (self.hook)("games_in_play")?;
        self.inner.games_in_play()
    }
    fn finished_games(&mut self) -> Result<Vec<FinishedGame>, StoreError> {
        (self.hook)("finished_games")?;
        self.inner.finished_games()
    }
    fn games_of(&mut self, player: &str, limit: usize) -> Result<Vec<FinishedGame>, StoreError> {
        (self.hook)("games_of")?;
        self.inner.games_of(player, limit)
    }
    fn finished_game(&mut self, id: u64) -> Result<Option<FinishedGame>, StoreError> {
        (self.hook)("finished_game")?;
        self.inner.finished_game(id)
    }
    fn queue_put(&mut self, q: &QueuedPlayer) -> Result<(), StoreError> {
        (self.hook)("queue_put")?;
        self.inner.queue_put(q)
    }
    fn queue_remove(&mut self, name: &str) -> Result<(), StoreError> {
        (self.hook)("queue_remove")?;
        self.inner.queue_remove(name)
    }
    fn queue(&mut self) -> Result<Vec<QueuedPlayer>, StoreError> {
        (self.hook)("queue")?;
        self.inner.queue()
    }
    fn offer_put(&mut self, o: &RematchOffer) -> Result<(), StoreError> {
        (self.hook)("offer_put")?;
        self.inner.offer_put(o)
    }
    fn offer_remove(&mut self, game: u64) -> Result<(), StoreError> {
        (self.hook)("offer_remove")?;
        self.inner.offer_remove(game)
    }
    fn offers(&mut self) -> Result<Vec<RematchOffer>, StoreError> {
        (self.hook)("offers")?;
        self.inner.offers()
    }
    fn add_2048(&mut self, game: &Daily2048) -> Result<bool, StoreError> {
        (self.hook)("add_2048")?;
        self.inner.add_2048(game)
    }
    fn ranked_2048(&mut self, day: &str, name: &str) -> Result<Option<Ranked2048>, StoreError> {
        (self.hook)("ranked_2048")?;
        self.inner.ranked_2048(day, name)
    }
    fn start_ranked_2048(
        &mut self,
        day: &str,
        name: &str,
        max_tile: u64,
    ) -> Result<(), StoreError> {
        (self.hook)("start_ranked_2048")?;
        self.inner.start_ranked_2048(day, name, max_tile)
    }
    fn slide_ranked_2048(&mut self, before: &str, game: &Ranked2048) -> Result<bool, StoreError> {
        (self.hook)("slide_ranked_2048")?;
        self.inner.slide_ranked_2048(before, game)
    }
    fn board_2048(
        &mut self,
        day: &str,
        board: &str,
        limit: usize,
    ) -> Result<Vec<(String, u64, u64, u64)>, StoreError> {
        (self.hook)("board_2048")?;
        self.inner.board_2048(day, board, limit)
    }
    fn better_2048(&mut self, day: &str, board: &str, score: u64) -> Result<u64, StoreError> {
        (self.hook)("better_2048")?;
        self.inner.better_2048(day, board, score)
    }
    fn mastermind_of(
        &mut self,
        day: &str,
        name: &str,
    ) -> Result<Vec<(String, u8, u8)>, StoreError> {
        (self.hook)("mastermind_of")?;
        self.inner.mastermind_of(day, name)
    }
    fn start_mastermind(&mut self, day: &str, name: &str) -> Result<(), StoreError> {
        (self.hook)("start_mastermind")?;
        self.inner.start_mastermind(day, name)
    }
    fn add_guess(&mut self, guess: &DailyGuess) -> Result<bool, StoreError> {
        (self.hook)("add_guess")?;
        self.inner.add_guess(guess)
    }
    fn board_mastermind(
        &mut self,
        day: &str,
        limit: usize,
    ) -> Result<Vec<(String, u64, u64)>, StoreError> {
        (self.hook)("board_mastermind")?;
        self.inner.board_mastermind(day, limit)
    }
}

//! One game being played: the room that holds it in memory, decides who may move, has every
//! change stored, and broadcasts it to the players and watchers connected to it.
//!
//! The server is the referee: a move only enters a game through [`Room::play`], which checks it
//! with `oware_rules::Game` and the player's token before it is stored and announced.
//!
//! Changes to a room take its turn (an async lock, held while the database writer commits the
//! change, so a room's changes are stored and announced in the order they were made) and then the
//! state's lock, briefly and never across an await, so reading a room's view never waits for
//! the disk.

use std::sync::{Arc, Mutex};

use tokio::sync::broadcast;

use oware_rules::{format_move_letters, Ending, Game, Move, PlayError, Side};

use crate::edge::rate_limit::TokenBucket;
use crate::game::clock::{now_ms, GameClock};
use crate::game::ids::same_token;
use crate::game::model::{
    EndView, GameMode, GameSetup, GameView, OfferKind, OfferView, QuickMessage, Seat,
};
use crate::notify::{Event, Notice, Notifier};
use crate::play::protocol::ServerMessage;
use crate::store::writer::StoreWriter;
use crate::store::{SeatRow, StoreError, StoredGame};

/// Why a request about a game was refused. Each has a short code for programs and a sentence for
/// people.
#[derive(Debug, thiserror::Error)]
pub enum GameError {
    /// No game has this id.
    #[error("there is no game {0:?}")]
    UnknownGame(String),
    /// The token is not a player's.
    #[error("you are watching this game: only its players can move")]
    NotAPlayer,
    /// The other side is to move.
    #[error("it is not your turn")]
    NotYourTurn,
    /// The move was sent for another ply than the game's.
    #[error("the game has moved on since you saw it (you sent a move for ply {sent}, the game is at ply {now})")]
    Stale {
        /// The ply the client saw.
        sent: usize,
        /// The game's ply.
        now: usize,
    },
    /// The rules refuse the move.
    #[error("{0}")]
    Illegal(PlayError),
    /// An undo in a game between friends.
    #[error("undo is only for games against the computer")]
    UndoNotAllowed,
    /// No move of the player's to take back.
    #[error("there is no move of yours to take back")]
    NothingToUndo,
    /// That side's clock ran out.
    #[error("the game is over: {}'s time ran out", .0)]
    TimeOut(Side),
    /// The second player has not taken their seat.
    #[error("your friend has not joined yet: wait for them before moving")]
    WaitingForOpponent,
    /// The game has ended.
    #[error("the game is over")]
    Finished,
    /// The game's move rate limit was exceeded.
    #[error("too many moves in this game: at most {0} a second")]
    TooFast(u32),
    /// An offer or an answer in a game against the computer.
    #[error("that is only for games between friends")]
    FriendsOnly,
    /// An answer with no offer waiting.
    #[error("there is no offer to answer")]
    NoOffer,
    /// An offer while another waits.
    #[error("an offer is already waiting for an answer")]
    OfferPending,
    /// A rematch of a game still in play.
    #[error("the game is not over yet")]
    NotOver,
    /// A new invitation asked by the invited player.
    #[error("only the player who sent the invitation can send a new one")]
    NotTheHost,
    /// A change only allowed before the first move, after it.
    #[error("the game has started: that is only possible before the first move")]
    Started,
    /// A new invitation while both players are there and have moved, or in a game against the
    /// computer.
    #[error("there is no seat to invite anyone to")]
    NoFreeSeat,
    /// The database failed.
    #[error("{0}")]
    Store(#[from] StoreError),
    /// The server is stopping and takes no more changes.
    #[error("the server is stopping: try again in a moment")]
    ShuttingDown,
}

impl GameError {
    /// The short code sent to programs with the error (`not-your-turn`, `stale`, …).
    pub fn code(&self) -> &'static str {
        match self {
            GameError::UnknownGame(_) => "unknown-game",
            GameError::NotAPlayer => "not-a-player",
            GameError::NotYourTurn => "not-your-turn",
            GameError::Stale { .. } => "stale",
            GameError::Illegal(PlayError::GameOver(_))
            | GameError::TimeOut(_)
            | GameError::Finished => "game-over",
            GameError::FriendsOnly => "friends-only",
            GameError::TooFast(_) => "rate-limited",
            GameError::NoOffer => "no-offer",
            GameError::OfferPending => "offer-pending",
            GameError::NotOver => "not-over",
            GameError::Started => "started",
            GameError::NotTheHost => "not-host",
            GameError::NoFreeSeat => "no-free-seat",
            GameError::Illegal(PlayError::Illegal(e)) => e.reason.code(),
            GameError::UndoNotAllowed => "undo-not-allowed",
            GameError::NothingToUndo => "nothing-to-undo",
            GameError::WaitingForOpponent => "waiting-for-opponent",
            GameError::Store(StoreError::Damaged { .. }) => "damaged",
            GameError::Store(_) => "storage",
            GameError::ShuttingDown => "shutting-down",
        }
    }
}

struct RoomState {
    game: Game,
    tokens: [Option<String>; 2],
    /// The names the players gave.
    names: [Option<String>; 2],
    /// The code of the friend's invitation (see [`StoredGame::invite`]).
    invite: Option<String>,
    /// Who sent the invitation (see [`StoredGame::host`]).
    host: Option<Side>,
    /// Bumped on every change, so that a computer move thought about in an older state is dropped.
    version: u64,
    thinking: bool,
    clock: Option<GameClock>,
    /// How the players ended the game (a resignation, an agreed draw, an abort), if they did.
    outcome: Option<Ending>,
    /// An offer one friend made the other, waiting for the answer (kept in memory only: a
    /// restart withdraws it).
    offer: Option<(OfferKind, Side)>,
    /// The game the players went on to.
    rematch: Option<String>,
}

impl RoomState {
    /// How the game ended, if it has: a flag fall first (it stops the game whatever came after),
    /// then the players' decision, then the rules.
    fn ending(&self) -> Option<Ending> {
        match self.clock.and_then(|c| c.flagged) {
            Some(flagged) => Some(Ending::TimeOut(flagged)),
            None => self.outcome.or_else(|| self.game.end().map(Ending::Rules)),
        }
    }

    /// Whether the game has ended, by the rules, a clock, or the players.
    fn over(&self) -> bool {
        self.ending().is_some()
    }

    fn seated(&self) -> bool {
        self.tokens.iter().all(Option::is_some)
    }
}

/// One game in memory, with the channel its updates go out on.
pub struct Room {
    /// The game's id, as in its URL.
    pub id: String,
    /// How the game was set up.
    pub setup: GameSetup,
    /// When the game was created, in seconds since the Unix epoch.
    pub created: u64,
    state: Mutex<RoomState>,
    /// Taken by every change, for as long as it takes to store it.
    turn: tokio::sync::Mutex<()>,
    /// The players' moves a second this game accepts (each is a write to the database).
    moves: Mutex<TokenBucket>,
    moves_per_second: u32,
    updates: broadcast::Sender<Arc<str>>,
    /// Tells a player whose page is closed of the game's events.
    notifier: Notifier,
    /// Each side's open connections to the game (South first): a player connected needs no
    /// notification.
    connected: Arc<Mutex<[usize; 2]>>,
    /// The move (by when its clock started) whose reminder was sent: several watchers of one
    /// move remind once.
    reminded: Mutex<Option<u64>>,
}

/// A player's connection to a room, counted while it lives.
pub struct Connected {
    connected: Arc<Mutex<[usize; 2]>>,
    side: Side,
}

impl Drop for Connected {
    fn drop(&mut self) {
        let mut connected = self.connected.lock().unwrap_or_else(|p| p.into_inner());
        connected[self.side.index()] -= 1;
    }
}

/// A computer move to think about: the game as it was, and the version it was taken at.
pub struct ComputerTurn {
    /// The game when the computer was asked to move.
    pub game: Game,
    /// The computer's level.
    pub level: u8,
    /// The room's version then; the move is dropped if the game has changed since.
    pub version: u64,
}

impl Room {
    /// The room of a stored game, accepting at most `moves_per_second` of the players' moves a
    /// second on average (bursts of twice as many).
    pub fn new(
        id: String,
        stored: StoredGame,
        moves_per_second: u32,
        notifier: Notifier,
    ) -> Result<Room, StoreError> {
        let game =
            Game::replay(stored.setup.start, stored.setup.rules, &stored.moves).map_err(|e| {
                StoreError::Damaged {
                    game: id.clone(),
                    what: e.to_string(),
                }
            })?;
        let (updates, _) = broadcast::channel(64);
        Ok(Room {
            id,
            setup: stored.setup,
            created: stored.created,
            state: Mutex::new(RoomState {
                game,
                tokens: stored.tokens,
                names: stored.names,
                invite: stored.invite,
                host: stored.host,
                version: 0,
                thinking: false,
                clock: stored.clock,
                outcome: stored.outcome,
                offer: None,
                rematch: stored.rematch,
            }),
            turn: tokio::sync::Mutex::new(()),
            moves: Mutex::new(TokenBucket::new(
                moves_per_second,
                std::time::Instant::now(),
            )),
            moves_per_second,
            updates,
            notifier,
            connected: Arc::default(),
            reminded: Mutex::new(None),
        })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, RoomState> {
        // A panic while holding the lock cannot leave the game half-changed (changes are made
        // after every check), so a poisoned lock is still safe to use.
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Counts a connection of the player of `side` for as long as the guard lives.
    pub fn connect(&self, side: Side) -> Connected {
        let mut connected = self.connected.lock().unwrap_or_else(|p| p.into_inner());
        connected[side.index()] += 1;
        Connected {
            connected: self.connected.clone(),
            side,
        }
    }

    /// Tells the player of `to` of `event` in a friend game, unless a page of theirs is open on
    /// the game (it shows the event already).
    fn tell(&self, state: &RoomState, to: Side, event: Event) {
        if self.setup.mode != GameMode::Friend {
            return;
        }
        let open = self.connected.lock().unwrap_or_else(|p| p.into_inner())[to.index()];
        if open > 0 {
            return;
        }
        self.notifier.send(Notice {
            game: self.id.clone(),
            to,
            other: state.names[to.opponent().index()].clone(),
            event,
            position: *state.game.position(),
            per_move: self.setup.per_move,
        });
    }

    /// Tells both players that the game ended, if it has.
    fn tell_ending(&self, state: &RoomState) {
        if let Some(ending) = state.ending() {
            for side in Side::BOTH {
                self.tell(state, side, Event::Ended(ending));
            }
        }
    }

    /// Every state the room announces from now on, as the JSON text of a state message.
    pub fn subscribe(&self) -> broadcast::Receiver<Arc<str>> {
        self.updates.subscribe()
    }

    /// The seat that `token` gives in this game.
    pub fn seat(&self, token: Option<&str>) -> Seat {
        let state = self.lock();
        let Some(sent) = token else {
            return Seat::Watcher;
        };
        // Both seats are compared, each in constant time.
        let matches = Side::BOTH.map(|s| {
            state.tokens[s.index()]
                .as_deref()
                .is_some_and(|held| same_token(sent, held))
        });
        match matches {
            [true, _] => Seat::Player(Side::South),
            [_, true] => Seat::Player(Side::North),
            _ => Seat::Watcher,
        }
    }

    /// How the game ended, if it has (see [`RoomState::ending`]).
    pub fn ending(&self) -> Option<Ending> {
        self.lock().ending()
    }

    /// The game as every client sees it now.
    pub fn view(&self) -> GameView {
        self.view_of(&self.lock())
    }

    fn view_of(&self, state: &RoomState) -> GameView {
        let game = &state.game;
        let (mode, computer, level) = match self.setup.mode {
            GameMode::Computer { side, level } => ("computer", Some(side), Some(level)),
            GameMode::Friend => ("friend", None, None),
        };
        let seated = [Side::South, Side::North]
            .map(|s| computer == Some(s) || state.tokens[s.index()].is_some());
        GameView {
            id: self.id.clone(),
            mode,
            rules: self.setup.rules.name(),
            start: self.setup.start.to_string(),
            moves: format_move_letters(game.moves()),
            captures: game.captures().to_vec(),
            position: game.position().to_string(),
            to_move: game.position().side_to_move().letter(),
            legal: game.legal_moves().to_string(),
            computer: computer.map(Side::letter),
            level,
            seated,
            names: state.names.clone(),
            host: state.host.map(Side::letter),
            end: state.ending().map(|ending| EndView {
                reason: ending.word(),
                score: match ending {
                    Ending::Rules(end) => end.score.to_string(),
                    // Ended by a player or a clock: the score is the stores as they stand.
                    _ => format!(
                        "{}-{}",
                        game.position().store(Side::South),
                        game.position().store(Side::North)
                    ),
                },
                winner: ending.winner().map(Side::letter),
            }),
            thinking: state.thinking,
            clock: state
                .clock
                .map(|c| c.view(game.position().side_to_move(), state.over(), now_ms())),
            offer: state.offer.map(|(kind, by)| OfferView {
                what: kind.word(),
                by: by.letter(),
            }),
            rematch: state.rematch.clone(),
        }
    }

    /// When the flag of the side to move falls, in milliseconds since the Unix epoch, if a clock
    /// is running.
    pub fn flag_deadline(&self) -> Option<u64> {
        let state = self.lock();
        if state.over() {
            return None;
        }
        state.clock?.deadline(state.game.position().side_to_move())
    }

    /// When the side to move of a correspondence game has `day_ms` of its time for the move left,
    /// and when that move's clock started: the moment to remind them, if the game gives more
    /// than a day a move (with one day, the "your move" notice says as much).
    pub fn reminder_due(&self, day_ms: u64) -> Option<(u64, u64)> {
        let state = self.lock();
        let clock = state.clock?;
        if self.setup.mode != GameMode::Friend
            || !clock.per_move
            || clock.initial_ms <= day_ms
            || state.over()
        {
            return None;
        }
        let deadline = clock.deadline(state.game.position().side_to_move())?;
        Some((deadline.saturating_sub(day_ms), clock.running_since?))
    }

    /// Reminds the side to move that a day is left, if its clock still runs for the move that
    /// started at `since` and it was not reminded of that move yet.
    pub fn remind(&self, since: u64) {
        let state = self.lock();
        if state.over() || state.clock.and_then(|c| c.running_since) != Some(since) {
            return;
        }
        {
            let mut reminded = self.reminded.lock().unwrap_or_else(|p| p.into_inner());
            if *reminded == Some(since) {
                return;
            }
            *reminded = Some(since);
        }
        self.tell(
            &state,
            state.game.position().side_to_move(),
            Event::Reminder { since },
        );
    }

    /// Ends the game if the side to move's time has run out (stored, then announced); says whether
    /// it did.
    pub async fn check_flag(&self, store: &StoreWriter) -> Result<bool, GameError> {
        let _turn = self.turn.lock().await;
        self.flag_if_out(store).await
    }

    /// [`Room::check_flag`] for a caller that holds the turn.
    async fn flag_if_out(&self, store: &StoreWriter) -> Result<bool, GameError> {
        let flagged = {
            let state = self.lock();
            let to_move = state.game.position().side_to_move();
            let Some(mut clock) = state.clock else {
                return Ok(false);
            };
            if state.over() || !clock.check_flag(to_move, now_ms()) {
                return Ok(false);
            }
            clock
        };
        let id = self.id.clone();
        store.run(move |s| s.save_clock(&id, &flagged)).await?;
        let mut state = self.lock();
        state.clock = Some(flagged);
        state.version += 1;
        self.announce(&state);
        self.tell_ending(&state);
        Ok(true)
    }

    /// What the room holds that the database must hold too: the moves, the seats' tokens, the
    /// clocks, the players' outcome and the rematch (fault tests compare the two).
    #[cfg(test)]
    pub(crate) fn stored_state(&self) -> StoredGame {
        let state = self.lock();
        StoredGame {
            setup: self.setup,
            tokens: state.tokens.clone(),
            moves: state.game.moves().to_vec(),
            clock: state.clock,
            outcome: state.outcome,
            rematch: state.rematch.clone(),
            created: self.created,
            names: state.names.clone(),
            invite: state.invite.clone(),
            host: state.host,
        }
    }

    /// Counts a player's write (a move, a new invitation) against the game's rate, or refuses it.
    fn allow_write(&self) -> Result<(), GameError> {
        let allowed = self
            .moves
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .allow(std::time::Instant::now());
        if allowed {
            Ok(())
        } else {
            Err(GameError::TooFast(self.moves_per_second))
        }
    }

    /// Sends the current state to everyone connected. Called with the state's lock held, so that
    /// updates go out in the order the changes were made.
    fn announce(&self, state: &RoomState) {
        let message = ServerMessage::State {
            game: Box::new(self.view_of(state)),
        };
        // No receivers is fine: nobody is watching right now.
        let _ = self.updates.send(message.to_json().into());
    }

    /// Gives the first free side of a friend game to a new player named `name`, if `invite` is
    /// the game's invitation code (any join, in games made before invitations had codes); `None`
    /// when no side is free or the code is not the game's (the visitor watches).
    pub async fn join(
        &self,
        store: &StoreWriter,
        invite: Option<&str>,
        name: Option<String>,
    ) -> Result<Option<(String, Side)>, GameError> {
        if self.setup.mode != GameMode::Friend {
            return Ok(None);
        }
        let _turn = self.turn.lock().await;
        let free = {
            let state = self.lock();
            let invited = match (&state.invite, invite) {
                (None, _) => true,
                (Some(code), Some(offered)) => same_token(offered, code),
                (Some(_), None) => false,
            };
            Side::BOTH
                .into_iter()
                .find(|s| state.tokens[s.index()].is_none())
                .filter(|_| invited)
        };
        let Some(side) = free else {
            return Ok(None);
        };
        let token = crate::game::ids::new_token();
        let (id, stored, stored_name) = (self.id.clone(), token.clone(), name.clone());
        store
            .run(move |s| {
                s.add_player(
                    &id,
                    SeatRow {
                        token: &stored,
                        side,
                        name: stored_name.as_deref(),
                    },
                )
            })
            .await?;
        let mut state = self.lock();
        state.tokens[side.index()] = Some(token.clone());
        state.names[side.index()] = name;
        state.version += 1;
        self.announce(&state);
        Ok(Some((token, side)))
    }

    /// The invitation code of a friend game whose other seat is free, for its player (`token`)
    /// to pass on; `None` once both are seated, for watchers, and in other games.
    pub fn invitation(&self, token: Option<&str>) -> Option<String> {
        let Seat::Player(_) = self.seat(token) else {
            return None;
        };
        let state = self.lock();
        if self.setup.mode != GameMode::Friend || state.seated() || state.over() {
            return None;
        }
        state.invite.clone()
    }

    /// A new invitation from the player holding `token`, who sent the first one: the old link
    /// seats nobody from now on, and a friend already seated before the first move (perhaps the
    /// wrong person) loses the seat. Returns the new code.
    pub async fn reinvite(
        &self,
        store: &StoreWriter,
        token: Option<&str>,
    ) -> Result<String, GameError> {
        if self.setup.mode != GameMode::Friend {
            return Err(GameError::FriendsOnly);
        }
        let side = self.player(token)?;
        // Each new invitation is a write, as a move is: they share the game's rate.
        self.allow_write()?;
        let _turn = self.turn.lock().await;
        let free = {
            let state = self.lock();
            if state.over() {
                return Err(GameError::Finished);
            }
            // The invited friend cannot turn out the one who invited them; in a game with no
            // invitation (a rematch, whose seats were both given at once, or a game from before
            // invitations) neither player can turn out the other.
            if state.host != Some(side) {
                return Err(GameError::NotTheHost);
            }
            let other = side.opponent();
            match state.tokens[other.index()] {
                None => None,
                Some(_) if state.game.ply_count() == 0 => Some(other),
                Some(_) => return Err(GameError::Started),
            }
        };
        let code = crate::game::ids::new_token();
        let (id, stored) = (self.id.clone(), code.clone());
        store
            .run(move |s| s.reissue_invite(&id, &stored, free))
            .await?;
        let mut state = self.lock();
        if let Some(freed) = free {
            state.tokens[freed.index()] = None;
            state.names[freed.index()] = None;
            state.offer = None;
        }
        state.invite = Some(code.clone());
        state.version += 1;
        self.announce(&state);
        Ok(code)
    }

    /// Plays a move for the holder of `token`. `seen_ply`, when given, is the number of moves the
    /// player saw: a move sent for an older state is refused rather than misapplied. The change is
    /// announced once it is stored.
    pub async fn play(
        &self,
        store: &StoreWriter,
        token: Option<&str>,
        mv: Move,
        seen_ply: Option<usize>,
    ) -> Result<Option<ComputerTurn>, GameError> {
        let side = match self.seat(token) {
            Seat::Player(side) => side,
            Seat::Watcher => return Err(GameError::NotAPlayer),
        };
        self.allow_write()?;
        let _turn = self.turn.lock().await;
        let ply = {
            let state = self.lock();
            let now = state.game.ply_count();
            if let Some(sent) = seen_ply {
                if sent != now {
                    return Err(GameError::Stale { sent, now });
                }
            }
            if let Some(end) = state.game.end() {
                return Err(GameError::Illegal(PlayError::GameOver(end)));
            }
            if let Some(flagged) = state.clock.and_then(|c| c.flagged) {
                return Err(GameError::TimeOut(flagged));
            }
            if state.outcome.is_some() {
                return Err(GameError::Finished);
            }
            if state.game.position().side_to_move() != side || state.thinking {
                return Err(GameError::NotYourTurn);
            }
            // A friend game starts when both friends are there: no move (and no clock) before.
            if self.setup.mode == GameMode::Friend && state.tokens.iter().any(Option::is_none) {
                return Err(GameError::WaitingForOpponent);
            }
            state.game.check_move(mv).map_err(GameError::Illegal)?;
            now
        };
        // A move that arrives after the flag fell (before the watcher noticed) is too late.
        if self.flag_if_out(store).await? {
            return Err(GameError::TimeOut(side));
        }
        let clock = self.lock().clock.map(|mut clock| {
            clock.moved(side, now_ms());
            clock
        });
        let id = self.id.clone();
        store
            .run(move |s| s.append_move(&id, ply, mv, clock.as_ref()))
            .await?;
        let mut state = self.lock();
        state.clock = clock;
        state
            .game
            .play(mv)
            .expect("the move was checked above, and only changes holding the turn alter the game");
        // A move answers any offer: it lapses.
        state.offer = None;
        state.version += 1;
        let turn = self.computer_turn(&mut state);
        self.announce(&state);
        if state.over() {
            self.tell_ending(&state);
        } else {
            self.tell(&state, side.opponent(), Event::Moved(mv));
        }
        Ok(turn)
    }

    /// If the computer is to move, marks it thinking and returns what it must think about.
    fn computer_turn(&self, state: &mut RoomState) -> Option<ComputerTurn> {
        let GameMode::Computer { side, level } = self.setup.mode else {
            return None;
        };
        if state.game.is_over() || state.game.position().side_to_move() != side {
            return None;
        }
        state.thinking = true;
        Some(ComputerTurn {
            game: state.game.clone(),
            level,
            version: state.version,
        })
    }

    /// The computer's move now, if it is its turn (after creation, or after a restart that
    /// caught it thinking).
    pub fn pending_computer_turn(&self) -> Option<ComputerTurn> {
        let mut state = self.lock();
        if state.thinking {
            return None;
        }
        self.computer_turn(&mut state)
    }

    /// Plays the computer's chosen move, unless the game changed meanwhile (an undo). If it cannot
    /// be stored, the game is left as it was, the computer still to move, and the error returned.
    pub async fn play_computer(
        &self,
        store: &StoreWriter,
        version: u64,
        mv: Option<Move>,
    ) -> Result<(), GameError> {
        let _turn = self.turn.lock().await;
        let (ply, mv) = {
            let mut state = self.lock();
            if state.version != version {
                return Ok(());
            }
            let Some(mv) = mv.filter(|&mv| state.game.check_move(mv).is_ok()) else {
                state.thinking = false;
                state.version += 1;
                self.announce(&state);
                return Ok(());
            };
            (state.game.ply_count(), mv)
        };
        // Against the computer with clocks, the computer's thinking time is its own.
        let clock = self.lock().clock.map(|mut clock| {
            clock.moved(mv.side(), now_ms());
            clock
        });
        let id = self.id.clone();
        // A move that cannot be stored leaves the computer thinking: the caller tries again.
        store
            .run(move |s| s.append_move(&id, ply, mv, clock.as_ref()))
            .await?;
        let mut state = self.lock();
        state.thinking = false;
        state.clock = clock;
        state.game.play(mv).expect("checked above");
        state.version += 1;
        self.announce(&state);
        Ok(())
    }

    /// Takes back the human's last move (and the computer's answer to it) in a game against the
    /// computer.
    pub async fn undo(&self, store: &StoreWriter, token: Option<&str>) -> Result<(), GameError> {
        let GameMode::Computer { side: computer, .. } = self.setup.mode else {
            return Err(GameError::UndoNotAllowed);
        };
        let human = computer.opponent();
        if self.seat(token) != Seat::Player(human) {
            return Err(GameError::NotAPlayer);
        }
        let _turn = self.turn.lock().await;
        if self.lock().over() {
            // A finished game stays finished: its result is not reopened.
            return Err(GameError::Finished);
        }
        self.take_back(store, human).await?;
        let mut state = self.lock();
        state.thinking = false;
        state.version += 1;
        self.announce(&state);
        Ok(())
    }

    /// Takes back `side`'s last move and every move after it, stored; the clock of the side to
    /// move then restarts. Called holding the turn; the caller announces.
    async fn take_back(&self, store: &StoreWriter, side: Side) -> Result<(), GameError> {
        let (mut game, clock) = {
            let state = self.lock();
            (state.game.clone(), state.clock)
        };
        if !game.moves().iter().any(|m| m.side() == side) {
            return Err(GameError::NothingToUndo);
        }
        let to_move = game.position().side_to_move();
        while let Some(mv) = game.undo() {
            if mv.side() == side {
                break;
            }
        }
        let clock = clock.map(|mut clock| {
            clock.restart(to_move, now_ms());
            clock
        });
        let (id, keep) = (self.id.clone(), game.ply_count());
        store
            .run(move |s| s.take_back(&id, keep, clock.as_ref()))
            .await?;
        let mut state = self.lock();
        state.game = game;
        state.clock = clock;
        state.offer = None;
        Ok(())
    }

    /// The holder of `token` resigns: the other side wins.
    pub async fn resign(&self, store: &StoreWriter, token: Option<&str>) -> Result<(), GameError> {
        let side = self.player(token)?;
        let _turn = self.turn.lock().await;
        {
            let state = self.lock();
            if state.over() {
                return Err(GameError::Finished);
            }
            if self.setup.mode == GameMode::Friend && !state.seated() {
                return Err(GameError::WaitingForOpponent);
            }
        }
        self.finish(store, Ending::Resigned(side)).await
    }

    /// The holder of `token` calls the game off before their own first move: it ends with no
    /// result (a friend who never came, a wrong setting, a change of mind).
    pub async fn abort(&self, store: &StoreWriter, token: Option<&str>) -> Result<(), GameError> {
        let side = self.player(token)?;
        let _turn = self.turn.lock().await;
        {
            let state = self.lock();
            if state.over() {
                return Err(GameError::Finished);
            }
            if state.game.moves().iter().any(|m| m.side() == side) {
                return Err(GameError::Started);
            }
        }
        self.finish(store, Ending::Aborted).await
    }

    /// Ends the game by the players' decision, stored, then announced.
    async fn finish(&self, store: &StoreWriter, outcome: Ending) -> Result<(), GameError> {
        let id = self.id.clone();
        store.run(move |s| s.save_outcome(&id, outcome)).await?;
        let mut state = self.lock();
        state.outcome = Some(outcome);
        state.offer = None;
        state.thinking = false;
        state.version += 1;
        self.announce(&state);
        self.tell_ending(&state);
        Ok(())
    }

    /// The side `token` plays, or why it plays none.
    fn player(&self, token: Option<&str>) -> Result<Side, GameError> {
        match self.seat(token) {
            Seat::Player(side) => Ok(side),
            Seat::Watcher => Err(GameError::NotAPlayer),
        }
    }

    /// The holder of `token` sends the other friend (and anyone watching) a quick message. It is
    /// not stored: it reaches those connected now.
    pub fn say(&self, token: Option<&str>, message: QuickMessage) -> Result<(), GameError> {
        if self.setup.mode != GameMode::Friend {
            return Err(GameError::FriendsOnly);
        }
        let side = self.player(token)?;
        let said = ServerMessage::Said {
            by: side.letter(),
            what: message.code(),
        };
        // No receivers is fine: nobody else is connected.
        let _ = self.updates.send(said.to_json().into());
        self.tell(&self.lock(), side.opponent(), Event::Said(message));
        Ok(())
    }

    /// One friend offers the other a draw or a takeback; the other answers with
    /// [`Room::answer`].
    pub fn offer(&self, token: Option<&str>, kind: OfferKind) -> Result<(), GameError> {
        if self.setup.mode != GameMode::Friend {
            return Err(GameError::FriendsOnly);
        }
        let side = self.player(token)?;
        let mut state = self.lock();
        if state.over() {
            return Err(GameError::Finished);
        }
        if !state.seated() {
            return Err(GameError::WaitingForOpponent);
        }
        if state.offer.is_some_and(|(_, by)| by != side) {
            return Err(GameError::OfferPending);
        }
        if kind == OfferKind::Takeback && !state.game.moves().iter().any(|m| m.side() == side) {
            return Err(GameError::NothingToUndo);
        }
        state.offer = Some((kind, side));
        self.announce(&state);
        self.tell(&state, side.opponent(), Event::Offered(kind));
        Ok(())
    }

    /// Answers the other friend's offer (or withdraws one's own): a draw accepted ends the game,
    /// a takeback accepted takes back the offerer's last move.
    pub async fn answer(
        &self,
        store: &StoreWriter,
        token: Option<&str>,
        accept: bool,
    ) -> Result<(), GameError> {
        let side = self.player(token)?;
        let _turn = self.turn.lock().await;
        let Some((kind, by)) = self.lock().offer else {
            return Err(GameError::NoOffer);
        };
        if by == side || !accept {
            let mut state = self.lock();
            state.offer = None;
            self.announce(&state);
            return Ok(());
        }
        match kind {
            OfferKind::Draw => self.finish(store, Ending::Agreed).await,
            OfferKind::Takeback => {
                self.take_back(store, by).await?;
                let mut state = self.lock();
                state.version += 1;
                self.announce(&state);
                Ok(())
            }
        }
    }

    /// The seat of `token`'s holder in this finished game's rematch, the sides swapped: made by
    /// the first player who asks (both seats at once between friends), found by the second.
    /// Returns the rematch's id, the player's token there and side.
    pub async fn rematch(
        &self,
        store: &StoreWriter,
        token: Option<&str>,
    ) -> Result<(String, String, Side), GameError> {
        let side = self.player(token)?;
        let new_side = side.opponent();
        let _turn = self.turn.lock().await;
        if !self.lock().over() {
            return Err(GameError::NotOver);
        }
        let existing = self.lock().rematch.clone();
        if let Some(id) = existing {
            let wanted = id.clone();
            let stored = store
                .run(move |s| s.load_game(&wanted))
                .await?
                .ok_or_else(|| GameError::UnknownGame(id.clone()))?;
            let token = stored.tokens[new_side.index()]
                .clone()
                .ok_or_else(|| GameError::UnknownGame(id.clone()))?;
            return Ok((id, token, new_side));
        }
        let setup = GameSetup {
            mode: match self.setup.mode {
                GameMode::Computer { side, level } => GameMode::Computer {
                    side: side.opponent(),
                    level,
                },
                GameMode::Friend => GameMode::Friend,
            },
            ..self.setup
        };
        let (id, mine, theirs) = (
            crate::game::ids::new_token(),
            crate::game::ids::new_token(),
            crate::game::ids::new_token(),
        );
        let (old, new, mine_stored) = (self.id.clone(), id.clone(), mine.clone());
        let friends = self.setup.mode == GameMode::Friend;
        // The players keep their names: each sits on the other side.
        let names = self.lock().names.clone();
        store
            .run(move |s| {
                let mut seats = vec![SeatRow {
                    token: &mine_stored,
                    side: new_side,
                    name: names[side.index()].as_deref(),
                }];
                if friends {
                    seats.push(SeatRow {
                        token: &theirs,
                        side,
                        name: names[new_side.index()].as_deref(),
                    });
                }
                s.create_rematch(&old, &new, &setup, &seats)
            })
            .await?;
        let mut state = self.lock();
        state.rematch = Some(id.clone());
        self.announce(&state);
        Ok((id, mine, new_side))
    }
}

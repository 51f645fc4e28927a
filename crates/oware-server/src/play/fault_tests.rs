//! Every change of a game under a failing disk: a scripted set of games (moves, a takeback, an
//! undo, a draw, a resignation, a flag fall, a rematch, joins) is played once for each of its
//! writes, with that write failing. After every step, whatever happened, the game in memory is the
//! game in the database; a step whose write failed answered an error, and done again, it succeeds.

use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use oware_rules::{Position, RuleSet, Side};

use crate::game::model::{GameMode, GameSetup, OfferKind};
use crate::notify::Notifier;
use crate::play::room::{GameError, Room};
use crate::store::writer::StoreWriter;
use crate::store::Store;

/// The script's games, and what checks them.
struct Script {
    writer: StoreWriter,
    path: std::path::PathBuf,
    rooms: Vec<Arc<Room>>,
    /// Steps whose write failed.
    failures: usize,
}

impl Script {
    async fn open(path: &Path, fail_at: Option<usize>, commits: Arc<AtomicUsize>) -> Script {
        let mut store = Store::open(path).unwrap();
        store.fail_commits(move || {
            let n = commits.fetch_add(1, Ordering::SeqCst) + 1;
            Some(n) == fail_at
        });
        Script {
            writer: StoreWriter::start(store).unwrap(),
            path: path.to_path_buf(),
            rooms: Vec::new(),
            failures: 0,
        }
    }

    /// Creates a game with its creator's seat, and its room.
    async fn create(&mut self, id: &str, setup: GameSetup, token: &str) -> Arc<Room> {
        let create = || {
            let (game, creator) = (id.to_string(), token.to_string());
            self.writer.run(move |s| {
                let seat = crate::store::SeatRow {
                    token: &creator,
                    side: Side::South,
                    name: Some("Ama"),
                };
                s.create_game(&game, &setup, Some(seat), Some("invitation-code"))
            })
        };
        if create().await.is_err() {
            self.failures += 1;
            self.check();
            create().await.unwrap();
        }
        let wanted = id.to_string();
        let stored = self
            .writer
            .run(move |s| s.load_game(&wanted))
            .await
            .unwrap()
            .unwrap();
        let room = Arc::new(Room::new(id.to_string(), stored, 1000, Notifier::off()).unwrap());
        self.rooms.push(room.clone());
        self.check();
        room
    }

    /// Runs a step; if its write failed (an error), checks the games and runs it again, as a
    /// player would. Either way the games are checked after it.
    async fn step<T, F, Fut>(&mut self, step: F) -> Result<T, GameError>
    where
        F: Fn(StoreWriter) -> Fut,
        Fut: std::future::Future<Output = Result<T, GameError>>,
    {
        let result = match step(self.writer.clone()).await {
            Err(GameError::Store(_)) => {
                self.failures += 1;
                self.check();
                step(self.writer.clone()).await
            }
            other => other,
        };
        self.check();
        result
    }

    /// Every room holds what the database holds, and the database has no game nobody knows of.
    fn check(&self) {
        let fresh = Store::open(&self.path).unwrap();
        for room in &self.rooms {
            let memory = room.stored_state();
            let stored = fresh
                .load_game(&room.id)
                .unwrap_or_else(|e| panic!("game {} no longer loads: {e}", room.id))
                .unwrap_or_else(|| panic!("game {} is gone", room.id));
            assert_eq!(memory.moves, stored.moves, "moves of {}", room.id);
            assert_eq!(memory.tokens, stored.tokens, "seats of {}", room.id);
            assert_eq!(memory.names, stored.names, "names of {}", room.id);
            assert_eq!(memory.invite, stored.invite, "invitation of {}", room.id);
            assert_eq!(memory.host, stored.host, "host of {}", room.id);
            assert_eq!(memory.clock, stored.clock, "clocks of {}", room.id);
            assert_eq!(memory.outcome, stored.outcome, "outcome of {}", room.id);
            assert_eq!(memory.rematch, stored.rematch, "rematch of {}", room.id);
            assert_eq!(memory.setup, stored.setup, "setup of {}", room.id);
        }
        let games: usize = rusqlite::Connection::open(&self.path)
            .unwrap()
            .query_row("SELECT count(*) FROM games", [], |r| r.get(0))
            .unwrap();
        // The games the script made, and the rematches the rooms lead to: no other.
        let mut known: Vec<String> = self.rooms.iter().map(|r| r.id.clone()).collect();
        known.extend(self.rooms.iter().filter_map(|r| r.stored_state().rematch));
        known.sort();
        known.dedup();
        assert_eq!(games, known.len(), "games in the database");
    }
}

fn setup(mode: GameMode, clock_ms: Option<u64>) -> GameSetup {
    GameSetup {
        mode,
        rules: RuleSet::Abapa,
        start: Position::start(),
        clock_ms,
        increment_ms: 0,
        per_move: false,
    }
}

/// The token that plays the side to move in a friend game.
fn mover<'a>(room: &Room, south: &'a str, north: &'a str) -> &'a str {
    match room.view().to_move {
        'S' => south,
        _ => north,
    }
}

/// The first legal move of the room's game.
fn first_legal(room: &Room) -> oware_rules::Move {
    let letter = room.view().legal.chars().next().expect("a legal move");
    oware_rules::Move::from_letter(letter).unwrap()
}

/// Plays the script, the `fail_at`-th write failing; returns how many writes it made and how many
/// steps saw a failure.
async fn play_script(fail_at: Option<usize>) -> (usize, usize) {
    let dir = tempfile::tempdir().unwrap();
    let commits = Arc::new(AtomicUsize::new(0));
    let mut script = Script::open(&dir.path().join("games.sqlite"), fail_at, commits.clone()).await;

    // Friends with clocks: join, moves, a takeback, a draw, a rematch asked for by both.
    let friends = script
        .create(
            "friends0000000001",
            setup(GameMode::Friend, Some(600_000)),
            "south-token",
        )
        .await;
    let north = {
        let room = friends.clone();
        script
            .step(move |w| {
                let room = room.clone();
                async move {
                    room.join(&w, Some("invitation-code"), Some("Kofi".into()))
                        .await
                }
            })
            .await
            .unwrap()
            .expect("a free seat")
            .0
    };
    for _ in 0..4 {
        let room = friends.clone();
        let token = mover(&friends, "south-token", &north).to_string();
        script
            .step(move |w| {
                let (room, token) = (room.clone(), token.clone());
                async move {
                    let mv = first_legal(&room);
                    room.play(&w, Some(&token), mv, None).await
                }
            })
            .await
            .unwrap();
    }
    let offerer = mover(&friends, "south-token", &north).to_string();
    let answerer = if offerer == "south-token" {
        north.clone()
    } else {
        "south-token".to_string()
    };
    for kind in [OfferKind::Takeback, OfferKind::Draw] {
        // An offer lives in memory only; a failed answer leaves it waiting, so it is made again
        // only when it has gone.
        let room = friends.clone();
        let (offerer, answerer) = (offerer.clone(), answerer.clone());
        script
            .step(move |w| {
                let (room, offerer, answerer) = (room.clone(), offerer.clone(), answerer.clone());
                async move {
                    if room.view().offer.is_none() {
                        room.offer(Some(&offerer), kind)?;
                    }
                    room.answer(&w, Some(&answerer), true).await
                }
            })
            .await
            .unwrap();
    }
    for token in ["south-token".to_string(), north.clone()] {
        let room = friends.clone();
        script
            .step(move |w| {
                let (room, token) = (room.clone(), token.clone());
                async move { room.rematch(&w, Some(&token)).await }
            })
            .await
            .unwrap();
    }
    let rematch_id = friends.view().rematch.expect("a rematch");
    let wanted = rematch_id.clone();
    let stored = script
        .writer
        .run(move |s| s.load_game(&wanted))
        .await
        .unwrap()
        .unwrap();
    script.rooms.push(Arc::new(
        Room::new(rematch_id, stored, 1000, Notifier::off()).unwrap(),
    ));

    // Against the computer with clocks: moves and answers, an undo, a resignation.
    let computer = script
        .create(
            "computer000000001",
            setup(
                GameMode::Computer {
                    side: Side::North,
                    level: 3,
                },
                Some(600_000),
            ),
            "human-token",
        )
        .await;
    for round in 0..3 {
        let room = computer.clone();
        let turn = script
            .step(move |w| {
                let room = room.clone();
                async move {
                    let mv = first_legal(&room);
                    room.play(&w, Some("human-token"), mv, None).await
                }
            })
            .await
            .unwrap()
            .expect("the computer answers");
        let room = computer.clone();
        script
            .step(move |w| {
                let room = room.clone();
                async move {
                    let mv = first_legal(&room);
                    room.play_computer(&w, turn.version, Some(mv)).await
                }
            })
            .await
            .unwrap();
        assert_eq!(computer.view().moves.len(), 2 * (round + 1));
    }
    let room = computer.clone();
    script
        .step(move |w| {
            let room = room.clone();
            async move { room.undo(&w, Some("human-token")).await }
        })
        .await
        .unwrap();
    assert_eq!(computer.view().moves.len(), 4);
    let room = computer.clone();
    script
        .step(move |w| {
            let room = room.clone();
            async move { room.resign(&w, Some("human-token")).await }
        })
        .await
        .unwrap();

    // An invitation: the wrong person takes the seat, is freed by a new invitation, the friend
    // comes with the new code, and calls the game off before moving.
    let invited = script
        .create(
            "invite00000000001",
            setup(GameMode::Friend, None),
            "host-token",
        )
        .await;
    let room = invited.clone();
    script
        .step(move |w| {
            let room = room.clone();
            async move {
                room.join(&w, Some("invitation-code"), Some("Cousin".into()))
                    .await
            }
        })
        .await
        .unwrap()
        .expect("a free seat");
    let room = invited.clone();
    let code = script
        .step(move |w| {
            let room = room.clone();
            async move { room.reinvite(&w, Some("host-token")).await }
        })
        .await
        .unwrap();
    let room = invited.clone();
    let (friend, _) = script
        .step(move |w| {
            let (room, code) = (room.clone(), code.clone());
            async move { room.join(&w, Some(&code), Some("Léo".into())).await }
        })
        .await
        .unwrap()
        .expect("the new code seats the friend");
    let room = invited.clone();
    script
        .step(move |w| {
            let (room, friend) = (room.clone(), friend.clone());
            async move { room.abort(&w, Some(&friend)).await }
        })
        .await
        .unwrap();

    // A clock of 30 ms: its flag falls.
    let blitz = script
        .create(
            "blitz000000000001",
            setup(GameMode::Friend, Some(30)),
            "blitz-south",
        )
        .await;
    let room = blitz.clone();
    script
        .step(move |w| {
            let room = room.clone();
            async move { room.join(&w, Some("invitation-code"), None).await }
        })
        .await
        .unwrap();
    let room = blitz.clone();
    script
        .step(move |w| {
            let room = room.clone();
            async move {
                let mv = first_legal(&room);
                room.play(&w, Some("blitz-south"), mv, None).await
            }
        })
        .await
        .unwrap();
    tokio::time::sleep(Duration::from_millis(60)).await;
    let room = blitz.clone();
    let fell = script
        .step(move |w| {
            let room = room.clone();
            async move { room.check_flag(&w).await }
        })
        .await
        .unwrap();
    assert!(fell, "North's flag fell");
    (commits.load(Ordering::SeqCst), script.failures)
}

#[tokio::test]
async fn every_change_is_one_transaction_and_memory_follows_the_commit() {
    let (writes, failures) = play_script(None).await;
    assert_eq!(failures, 0);
    assert!(writes >= 20, "the script makes {writes} writes");
    for fail_at in 1..=writes {
        let (_, failures) = play_script(Some(fail_at)).await;
        assert_eq!(failures, 1, "write {fail_at} failed and one step saw it");
    }
    eprintln!("the script played {writes} times, each time with another of its {writes} writes failing: every game still loads and matches");
}

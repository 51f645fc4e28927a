//! `oware serve --egtb`: the server opens the endgame databases it finds, the analysis board shows
//! their values, and a damaged database stops the server from starting.

mod common;

use common::*;
use serde_json::json;

use oware_egtb_build::build::build;
use oware_egtb_build::store::DirStore;
use oware_engine::{ProbeSet, ProbeSetError};
use oware_rules::RuleSet;
use oware_server::Config;

/// An awari database up to `seeds` seeds in a fresh temporary directory.
fn awari_database(seeds: usize) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let mut store = DirStore::new(dir.path());
    build(&mut store, RuleSet::Awari, seeds, &(), |_| {}).unwrap();
    dir
}

/// `/api/evaluate` answers `position` under `rules` with no database value for any move.
async fn assert_no_database_values(addr: std::net::SocketAddr, position: &str, rules: &str) {
    let (status, v) = post_json(
        addr,
        "/api/evaluate",
        json!({"position": position, "rules": rules}),
    )
    .await;
    assert_eq!(status, 200, "{v}");
    assert!(
        v["moves"]
            .as_array()
            .unwrap()
            .iter()
            .all(|m| m["database"].is_null()),
        "{position} ({rules}): {v}"
    );
}

#[tokio::test]
async fn the_analysis_board_shows_database_values() {
    let dir = awari_database(6);
    let databases = ProbeSet::open(dir.path(), None).unwrap();
    assert!(databases.of(RuleSet::Awari).is_some());
    assert!(
        databases.of(RuleSet::Abapa).is_none(),
        "no abapa files here"
    );
    let server = TestServer::start(Config {
        databases,
        ..quick_config()
    })
    .await;

    // Four seeds on the board, 22 in each store: South's F sows into `a` and `b` and captures
    // them, the whole board, +4 over the board; every other move is worse.
    let (status, v) = post_json(
        server.addr,
        "/api/evaluate",
        json!({"position":"0-0-0-0-0-2-1-1-0-0-0-0-22-22-S", "rules":"awari"}),
    )
    .await;
    assert_eq!(status, 200, "{v}");
    let moves = v["moves"].as_array().unwrap();
    assert!(!moves.is_empty());
    let f = moves.iter().find(|m| m["move"] == "F").expect("F is legal");
    assert_eq!(
        f["database"],
        json!({"value": 4, "exact": true, "seeds": 4}),
        "{v}"
    );
    for m in moves {
        let db = &m["database"];
        assert_eq!(db["exact"], true, "awari values are exact: {m}");
        assert!(db["value"].as_i64().unwrap() <= 4, "{m}");
    }
    // F's line ends the game: its distance is the line's.
    assert_eq!(f["end_in"], 1, "{v}");
    assert!(f["wins_by_database"].is_null(), "{v}");

    // Six seeds: every move reaches a position the databases answer, long before the game ends
    // (North wins in 32 plies without them): who wins is known, the distance is not.
    let (status, v) = post_json(
        server.addr,
        "/api/evaluate",
        json!({"position":"0-0-1-1-1-0-1-1-0-0-1-0-21-21-S", "rules":"awari"}),
    )
    .await;
    assert_eq!(status, 200, "{v}");
    for m in v["moves"].as_array().unwrap() {
        assert_eq!(m["wins_by_database"], false, "{m}");
        assert!(m["end_in"].is_null() && m["end_in_moves"].is_null(), "{m}");
        assert_eq!(m["database"]["exact"], true, "{m}");
    }

    // The same board under abapa: the server has no abapa database, so no values.
    assert_no_database_values(server.addr, "0-0-0-0-0-2-1-1-0-0-0-0-22-22-S", "abapa").await;
    // More seeds than the database covers: no values.
    assert_no_database_values(server.addr, "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S", "awari").await;
    server.stop().await;
}

/// Databases that grow while the server runs (those built on first use): the analysis board and the
/// computer use each set as soon as it is handed over, without a restart.
#[tokio::test]
async fn growing_databases_are_used_as_soon_as_they_are_handed_over() {
    use oware_engine::tablebase::{LiveProbe, TablebaseProbe};
    use std::sync::Arc;
    let awari = Arc::new(LiveProbe::new(RuleSet::Awari));
    let databases = ProbeSet::growing([awari.clone()]);
    assert!(!databases.is_empty(), "databases to come are not none");
    assert_eq!(databases.describe(), "");
    let server = TestServer::start(Config {
        databases,
        ..quick_config()
    })
    .await;
    let position = "0-0-0-0-0-2-1-1-0-0-0-0-22-22-S";
    assert_no_database_values(server.addr, position, "awari").await;

    let dir = awari_database(4);
    awari.publish(TablebaseProbe::open(dir.path(), RuleSet::Awari).unwrap());
    let (status, v) = post_json(
        server.addr,
        "/api/evaluate",
        json!({"position": position, "rules": "awari"}),
    )
    .await;
    assert_eq!(status, 200, "{v}");
    let f = v["moves"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["move"] == "F")
        .expect("F is legal");
    assert_eq!(
        f["database"],
        json!({"value": 4, "exact": true, "seeds": 4}),
        "{v}"
    );
    server.stop().await;
}

/// The computer's move comes from the same place as the protocol's and `oware play`'s
/// (`oware_engine::player`): in an awari position the database covers, at full strength, the
/// database's move. Here C and D both win, D with all three seeds on the board: a search that
/// probes the database plays C, the database D.
#[tokio::test]
async fn the_computer_plays_the_database_move_where_it_covers_the_position() {
    let dir = awari_database(4);
    let server = TestServer::start(Config {
        databases: ProbeSet::open(dir.path(), None).unwrap(),
        ..quick_config()
    })
    .await;
    let (id, token, _) = create(
        server.addr,
        json!({"mode": "computer", "level": 10, "side": "N", "rules": "awari",
               "position": "0-0-1-1-0-0-0-0-0-0-1-0-23-22-S"}),
    )
    .await;
    let mut me = Client::connect(server.addr, &id, Some(&token)).await;
    me.wait_for(|g| !g["moves"].as_str().unwrap().is_empty())
        .await;
    assert_eq!(me.moves(), "D");
    me.close().await;
    server.stop().await;
}

#[test]
fn a_directory_without_databases_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let err = ProbeSet::open(dir.path(), None).unwrap_err();
    assert!(matches!(err, ProbeSetError::NoneFound(_)), "{err}");
    assert!(err.to_string().contains("oware egtb build"), "{err}");
}

#[test]
fn a_damaged_database_is_refused_with_its_file_named() {
    let dir = awari_database(3);
    let path = dir
        .path()
        .join(oware_egtb::file::file_name(RuleSet::Awari, 2));
    let mut bytes = std::fs::read(&path).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 0x5a;
    std::fs::write(&path, bytes).unwrap();
    let err = ProbeSet::open(dir.path(), None).unwrap_err();
    assert!(
        matches!(
            err,
            ProbeSetError::Unusable {
                rules: RuleSet::Awari,
                ..
            }
        ),
        "{err}"
    );
    let words = err.to_string();
    assert!(words.contains(&path.display().to_string()), "{words}");
}

#[test]
fn level_files_left_unused_are_listed() {
    let dir = awari_database(5);
    let remove = |seeds| {
        std::fs::remove_file(
            dir.path()
                .join(oware_egtb::file::file_name(RuleSet::Awari, seeds)),
        )
        .unwrap()
    };
    remove(3);
    let databases = ProbeSet::open(dir.path(), None).unwrap();
    assert_eq!(databases.describe(), "awari up to 2 seeds");
    let unused: Vec<String> = databases.unused().iter().map(|u| u.to_string()).collect();
    assert_eq!(unused.len(), 1, "{unused:?}");
    assert!(
        unused[0].contains("awari levels 4-5 are not used because level 3 is missing"),
        "{unused:?}"
    );
    // Without level 0 nothing is usable: refused, saying why.
    remove(0);
    let err = ProbeSet::open(dir.path(), None).unwrap_err();
    assert!(matches!(err, ProbeSetError::Incomplete(_)), "{err}");
    assert!(
        err.to_string()
            .contains("levels 1-2, 4-5 are not used because level 0 is missing"),
        "{err}"
    );
}

/// A database file truncated while the server runs: the analysis board answers without database
/// values for the positions that need it, and the server lives on.
#[tokio::test]
async fn a_database_file_truncated_while_the_server_runs_does_not_stop_it() {
    let dir = awari_database(6);
    let server = TestServer::start(Config {
        databases: ProbeSet::open(dir.path(), None).unwrap(),
        ..quick_config()
    })
    .await;
    let path = dir
        .path()
        .join(oware_egtb::file::file_name(RuleSet::Awari, 4));
    std::fs::OpenOptions::new()
        .write(true)
        .open(&path)
        .unwrap()
        .set_len(0)
        .unwrap();
    // Four seeds, South's F captures two: every move leads to a board of level 4 or below.
    for _ in 0..2 {
        assert_no_database_values(server.addr, "0-0-0-0-1-2-1-0-0-0-0-0-22-22-S", "awari").await;
    }
    server.stop().await;
}

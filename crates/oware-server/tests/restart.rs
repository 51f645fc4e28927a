//! Stopping the server and starting it again on the same SQLite file loses nothing: the players
//! come back with their tokens and finish the game.

mod common;

use common::*;
use serde_json::json;

#[tokio::test]
async fn games_survive_a_restart() {
    let dir = temp_dir("restart");
    let db = dir.join("games.sqlite");
    let config = oware_server::Config {
        data: Some(db.clone()),
        ..quick_config()
    };

    let server = TestServer::start(config.clone()).await;
    let (friend_id, south_token, _) =
        create(server.addr, json!({"mode":"friend","side":"S"})).await;
    let (_, seat) = post_json(
        server.addr,
        &format!("/api/games/{friend_id}/join"),
        json!({"invite": common::invite_of(&friend_id)}),
    )
    .await;
    let north_token = seat["token"].as_str().unwrap().to_string();
    let (cpu_id, cpu_token, _) =
        create(server.addr, json!({"mode":"computer","level":1,"side":"S"})).await;
    let mut south = Client::connect(server.addr, &friend_id, Some(&south_token)).await;
    let mut north = Client::connect(server.addr, &friend_id, Some(&north_token)).await;
    for i in 0..10 {
        let (mover, other) = if i % 2 == 0 {
            (&mut south, &mut north)
        } else {
            (&mut north, &mut south)
        };
        let mv = mover.legal()[..1].to_string();
        mover.play(&mv).await;
        let n = mover.moves().len();
        other
            .wait_for(|g| g["moves"].as_str().unwrap().len() == n)
            .await;
    }
    let played = south.moves();
    let mut cpu = Client::connect(server.addr, &cpu_id, Some(&cpu_token)).await;
    cpu.play("C").await;
    cpu.wait_for(|g| g["moves"].as_str().unwrap().len() == 2)
        .await;
    let cpu_moves = cpu.moves();
    south.close().await;
    north.close().await;
    cpu.close().await;
    server.stop().await;

    // A new server on the same file: same games, same seats.
    let server = TestServer::start(config).await;
    let mut south = Client::connect(server.addr, &friend_id, Some(&south_token)).await;
    let mut north = Client::connect(server.addr, &friend_id, Some(&north_token)).await;
    assert_eq!(south.you.as_deref(), Some("S"));
    assert_eq!(north.you.as_deref(), Some("N"));
    assert_eq!(south.moves(), played);
    let mut plies = 0;
    while !south.over() {
        let to_move = south.game["to_move"].as_str().unwrap().to_string();
        let (mover, other) = if to_move == "S" {
            (&mut south, &mut north)
        } else {
            (&mut north, &mut south)
        };
        let legal = mover.legal();
        // Vary the moves so the game does not just cycle.
        let mv = legal.chars().nth(plies % legal.len()).unwrap().to_string();
        let reply = mover.play(&mv).await;
        assert_eq!(reply["type"], "state", "{reply}");
        let n = mover.moves().len();
        other
            .wait_for(|g| g["moves"].as_str().unwrap().len() == n)
            .await;
        plies += 1;
        assert!(plies < 500);
    }
    assert!(south.moves().starts_with(&played));
    let cpu = Client::connect(server.addr, &cpu_id, None).await;
    assert_eq!(cpu.moves(), cpu_moves);
    assert_eq!(cpu.you, None);
    south.close().await;
    north.close().await;
    cpu.close().await;
    server.stop().await;

    // And once more: the finished game is still finished.
    let server = TestServer::start(oware_server::Config {
        data: Some(db),
        ..quick_config()
    })
    .await;
    let (_, view) =
        common::http(server.addr, "GET", &format!("/api/games/{friend_id}"), None).await;
    let view: serde_json::Value = serde_json::from_str(&view).unwrap();
    assert!(!view["end"].is_null());
    server.stop().await;
    let _ = std::fs::remove_dir_all(dir);
}

/// A game whose row was damaged outside the server (a clock start that is not a number) is set
/// aside: the server starts, every other game loads, and the damaged one answers a clear error
/// that names it.
#[tokio::test]
async fn a_damaged_game_is_set_aside_and_the_others_load() {
    let dir = temp_dir("damaged");
    let db = dir.join("games.sqlite");
    let config = oware_server::Config {
        data: Some(db.clone()),
        ..quick_config()
    };
    let server = TestServer::start(config.clone()).await;
    let mut ids = Vec::new();
    for _ in 0..2 {
        let (id, token, _) = create(
            server.addr,
            json!({"mode":"computer","level":1,"side":"S","clock":5}),
        )
        .await;
        let mut client = Client::connect(server.addr, &id, Some(&token)).await;
        client.play("C").await;
        client
            .wait_for(|g| g["moves"].as_str().unwrap().len() == 2)
            .await;
        client.close().await;
        ids.push(id);
    }
    server.stop().await;
    rusqlite::Connection::open(&db)
        .unwrap()
        .execute(
            "UPDATE games SET clock_since = 'not a time' WHERE id = ?1",
            [&ids[0]],
        )
        .unwrap();

    let server = TestServer::start(config).await;
    let (status, body) = http(server.addr, "GET", &format!("/api/games/{}", ids[1]), None).await;
    assert_eq!(status, 200, "{body}");
    let (status, body) = http(server.addr, "GET", &format!("/api/games/{}", ids[0]), None).await;
    let error: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(status, 500, "{body}");
    assert_eq!(error["error"]["code"], "damaged", "{body}");
    assert!(
        error["error"]["message"]
            .as_str()
            .unwrap()
            .contains(&ids[0]),
        "{body}"
    );
    server.stop().await;
    let _ = std::fs::remove_dir_all(dir);
}

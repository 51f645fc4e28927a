//! Game clocks: the server keeps the time, a flag fall ends the game for everyone, and a restart
//! keeps the time left (the time the server was down is not charged to the side to move).

mod common;

use common::*;
use serde_json::json;
use std::time::Duration;

/// Clock minutes of 100 ms: a "5 minute" game gives each side half a second.
fn clock_config() -> oware_server::Config {
    oware_server::Config {
        clock_minute: Duration::from_millis(100),
        ..quick_config()
    }
}

async fn friend_game_with_clock(
    addr: std::net::SocketAddr,
    minutes: u32,
) -> (String, String, String) {
    let (id, south, _) = create(addr, json!({"mode":"friend","side":"S","clock":minutes})).await;
    let (_, seat) = post_json(
        addr,
        &format!("/api/games/{id}/join"),
        json!({"invite": common::invite_of(&id)}),
    )
    .await;
    (id, south, seat["token"].as_str().unwrap().to_string())
}

#[tokio::test]
async fn a_flag_fall_ends_the_game_for_everyone() {
    let server = TestServer::start(clock_config()).await;
    let (id, south_token, north_token) = friend_game_with_clock(server.addr, 5).await;
    let mut south = Client::connect(server.addr, &id, Some(&south_token)).await;
    let mut north = Client::connect(server.addr, &id, Some(&north_token)).await;
    let watcher = Client::connect(server.addr, &id, None).await;
    assert_eq!(
        watcher.game["clock"],
        json!({"initial_ms": 500, "increment_ms": 0, "remaining_ms": [500, 500], "running": null, "per_move": false}),
        "no clock runs before the first move"
    );
    south.play("F").await;
    north.wait_for(|g| g["moves"] == "F").await;
    assert_eq!(north.game["clock"]["running"], "N", "{}", north.game);
    // North does not move: after half a second its flag falls, and everyone is told.
    let mut watcher = watcher;
    for client in [&mut south, &mut north, &mut watcher] {
        client.wait_for(|g| !g["end"].is_null()).await;
        let end = &client.game["end"];
        assert_eq!(end["reason"], "time", "{end}");
        assert_eq!(end["winner"], "S", "{end}");
        assert_eq!(client.game["clock"]["remaining_ms"][1], 0);
        assert_eq!(client.game["clock"]["running"], serde_json::Value::Null);
    }
    let reply = north.play("a").await;
    assert_eq!(reply["code"], "game-over", "{reply}");
    server.stop().await;
}

#[tokio::test]
async fn no_clock_runs_before_the_friend_has_joined() {
    let server = TestServer::start(clock_config()).await;
    let (id, south_token, _) =
        create(server.addr, json!({"mode":"friend","side":"S","clock":5})).await;
    let mut south = Client::connect(server.addr, &id, Some(&south_token)).await;
    let reply = south.play("F").await;
    assert_eq!(reply["code"], "waiting-for-opponent", "{reply}");
    // Once the friend has joined, the game and its clocks start with the first move.
    let (_, seat) = post_json(
        server.addr,
        &format!("/api/games/{id}/join"),
        json!({"invite": common::invite_of(&id)}),
    )
    .await;
    assert_eq!(seat["side"], "N", "{seat}");
    south.play("F").await;
    south.wait_for(|g| g["moves"] == "F").await;
    assert_eq!(south.game["clock"]["running"], "N", "{}", south.game);
    server.stop().await;
}

#[tokio::test]
async fn clocks_take_any_whole_minutes_up_to_three_hours() {
    let server = TestServer::start(clock_config()).await;
    for body in [
        json!({"mode":"friend","clock":181}),
        json!({"mode":"computer","clock":-5}),
        json!({"mode":"friend","clock":"five"}),
        json!({"mode":"friend","clock":2.5}),
        json!({"mode":"friend","clock":7,"increment":31}),
        json!({"mode":"friend","increment":5}),
        json!({"mode":"friend","clock":7,"days":2}),
    ] {
        let (status, v) = post_json(server.addr, "/api/games", body.clone()).await;
        assert_eq!(status, 400, "{body}: {v}");
    }
    let (status, v) = post_json(
        server.addr,
        "/api/games",
        json!({"mode":"friend","clock":181}),
    )
    .await;
    assert_eq!(
        (status, &v["error"]["code"]),
        (400, &json!("bad-clock")),
        "{v}"
    );
    // Custom clocks beside the presets: the time each side gets is the minutes asked for.
    for (minutes, increment) in [(1, 0), (7, 4), (180, 30)] {
        let (id, _, _) = create(
            server.addr,
            json!({"mode":"friend","clock":minutes,"increment":increment}),
        )
        .await;
        let (_, view) = common::http(server.addr, "GET", &format!("/api/games/{id}"), None).await;
        let view: serde_json::Value = serde_json::from_str(&view).unwrap();
        let minute_ms = 100; // clock_config's minute
        assert_eq!(
            view["clock"]["remaining_ms"],
            json!([minutes * minute_ms, minutes * minute_ms]),
            "{view}"
        );
    }
    let (status, v) = post_json(
        server.addr,
        "/api/games",
        json!({"mode":"friend","clock":0}),
    )
    .await;
    assert_eq!(status, 200, "{v}");
    server.stop().await;
}

#[tokio::test]
async fn a_restart_keeps_the_time_left_and_charges_no_one_for_the_downtime() {
    let dir = temp_dir("clocks");
    let config = oware_server::Config {
        data: Some(dir.join("games.sqlite")),
        // 20 "minutes" of 100 ms: two seconds each.
        alive_every: Duration::from_millis(50),
        ..clock_config()
    };
    let server = TestServer::start(config.clone()).await;
    let (id, south_token, north_token) = friend_game_with_clock(server.addr, 20).await;
    let mut south = Client::connect(server.addr, &id, Some(&south_token)).await;
    let mut north = Client::connect(server.addr, &id, Some(&north_token)).await;
    south.play("F").await;
    north.wait_for(|g| g["moves"] == "F").await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    north.play("a").await;
    let north_left = north.game["clock"]["remaining_ms"][1].as_u64().unwrap();
    assert!((1000..=1750).contains(&north_left), "{north_left}");
    south.close().await;
    north.close().await;
    server.stop().await;

    // Down for longer than South had left: the downtime is not South's thinking time, so its
    // clock shows what it had when the server stopped, and runs on from there; even when the
    // game is first opened only after a later restart.
    tokio::time::sleep(Duration::from_millis(2100)).await;
    let server = TestServer::start(config.clone()).await;
    server.stop().await;
    let server = TestServer::start(config.clone()).await;
    let south = Client::connect(server.addr, &id, Some(&south_token)).await;
    let clock = &south.game["clock"];
    assert!(south.game["end"].is_null(), "{}", south.game);
    assert_eq!(
        clock["remaining_ms"][1].as_u64(),
        Some(north_left),
        "{clock}"
    );
    assert_eq!(clock["running"], "S", "{clock}");
    let south_left = clock["remaining_ms"][0].as_u64().unwrap();
    assert!(
        (1500..=2000).contains(&south_left),
        "South kept its time: {clock}"
    );
    south.close().await;
    server.stop().await;

    // A flag that falls while the server runs is still declared after a restart.
    let server = TestServer::start(config.clone()).await;
    tokio::time::sleep(Duration::from_millis(south_left + 300)).await;
    server.stop().await;
    let server = TestServer::start(config).await;
    let (status, view) = common::http(server.addr, "GET", &format!("/api/games/{id}"), None).await;
    assert_eq!(status, 200);
    let view: serde_json::Value = serde_json::from_str(&view).unwrap();
    assert_eq!(view["end"]["reason"], "time", "{view}");
    assert_eq!(view["end"]["winner"], "N", "{view}");
    server.stop().await;
    let _ = std::fs::remove_dir_all(dir);
}

//! What players do besides moving: resign, offer and answer draws and takebacks, a rematch with
//! the sides swapped; the waiting for the friend; and the limits and pages around them.

mod common;

use common::*;
use serde_json::json;
use std::time::Duration;

/// A friend game with both friends connected: (id, South, North, South's token, North's token).
async fn friends(addr: std::net::SocketAddr) -> (String, Client, Client, String, String) {
    let (id, south_token, _) = create(addr, json!({"mode":"friend","side":"S"})).await;
    let (north_token, side) = join_friend(addr, &id).await;
    assert_eq!(side, "N");
    let south = Client::connect(addr, &id, Some(&south_token)).await;
    let north = Client::connect(addr, &id, Some(&north_token)).await;
    (id, south, north, south_token, north_token)
}

/// Sends a message and waits until `client`'s game satisfies `f`, or returns the error it got.
async fn send_until(
    client: &mut Client,
    msg: serde_json::Value,
    f: impl Fn(&serde_json::Value) -> bool,
) {
    client.send_text(&msg.to_string()).await;
    while !f(&client.game) {
        let reply = client.next().await;
        assert_ne!(reply["type"], "error", "{msg}: {reply}");
    }
}

async fn error_for(client: &mut Client, msg: serde_json::Value) -> String {
    client.send_text(&msg.to_string()).await;
    loop {
        let reply = client.next().await;
        if reply["type"] == "error" {
            return reply["code"].as_str().unwrap().to_string();
        }
    }
}

#[tokio::test]
async fn no_move_before_the_friend_has_joined() {
    let server = TestServer::start(quick_config()).await;
    let (id, token, _) = create(server.addr, json!({"mode":"friend","side":"S"})).await;
    let mut south = Client::connect(server.addr, &id, Some(&token)).await;
    assert_eq!(south.play("F").await["code"], "waiting-for-opponent");
    assert_eq!(
        error_for(&mut south, json!({"type":"resign"})).await,
        "waiting-for-opponent"
    );
    assert_eq!(
        error_for(&mut south, json!({"type":"offer","what":"draw"})).await,
        "waiting-for-opponent"
    );
    join_friend(server.addr, &id).await;
    south.wait_for(|g| g["seated"] == json!([true, true])).await;
    assert_eq!(south.play("F").await["game"]["moves"], "F");
    south.close().await;
    server.stop().await;
}

#[tokio::test]
async fn a_resignation_ends_the_game_for_the_other_side() {
    let server = TestServer::start(quick_config()).await;
    let (id, mut south, mut north, _, _) = friends(server.addr).await;
    south.play("F").await;
    send_until(&mut north, json!({"type":"resign"}), |g| {
        !g["end"].is_null()
    })
    .await;
    assert_eq!(north.game["end"]["reason"], "resign");
    assert_eq!(north.game["end"]["winner"], "S");
    // The record says so, and still reads back.
    let (_, record) =
        common::http(server.addr, "GET", &format!("/api/games/{id}/record"), None).await;
    assert!(record.contains("{North resigned, 0-0}"), "{record}");
    // With the result, how it came, and when (the server's date, not "?").
    assert!(record.contains("[Result \"1-0\"]"), "{record}");
    assert!(record.contains("[Termination \"resignation\"]"), "{record}");
    assert!(record.trim_end().ends_with("1-0"), "{record}");
    let date = record
        .lines()
        .find_map(|l| l.strip_prefix("[Date \""))
        .and_then(|d| d.strip_suffix("\"]"))
        .unwrap_or_else(|| panic!("a Date tag in {record}"));
    assert!(
        date.len() == 10 && date.starts_with("20") && !date.contains('?'),
        "{record}"
    );
    assert!(record.contains("[Time \""), "{record}");
    let (status, v) = post_json(server.addr, "/api/replay", json!({ "text": record })).await;
    assert_eq!((status, v["moves"].as_str()), (200, Some("F")), "{v}");
    south.wait_for(|g| !g["end"].is_null()).await;
    assert_eq!(south.play("A").await["code"], "game-over");
    assert_eq!(
        error_for(&mut north, json!({"type":"resign"})).await,
        "game-over"
    );
    south.close().await;
    north.close().await;
    // Against the computer too; and after the end its undo no longer reopens the game.
    let (id, token, _) = create(server.addr, json!({"mode":"computer","side":"S","level":1})).await;
    let mut human = Client::connect(server.addr, &id, Some(&token)).await;
    human.play("F").await;
    human
        .wait_for(|g| g["moves"].as_str().unwrap().len() == 2)
        .await;
    send_until(&mut human, json!({"type":"resign"}), |g| {
        !g["end"].is_null()
    })
    .await;
    assert_eq!(human.game["end"]["winner"], "N");
    assert_eq!(
        error_for(&mut human, json!({"type":"undo"})).await,
        "game-over"
    );
    human.close().await;
    server.stop().await;
}

#[tokio::test]
async fn draw_offers_are_answered_and_lapse_with_a_move() {
    let server = TestServer::start(quick_config()).await;
    let (_, mut south, mut north, _, _) = friends(server.addr).await;
    // Declined.
    send_until(&mut south, json!({"type":"offer","what":"draw"}), |g| {
        !g["offer"].is_null()
    })
    .await;
    assert_eq!(south.game["offer"], json!({"what":"draw","by":"S"}));
    north.wait_for(|g| !g["offer"].is_null()).await;
    assert_eq!(
        error_for(&mut north, json!({"type":"offer","what":"draw"})).await,
        "offer-pending"
    );
    send_until(&mut north, json!({"type":"answer","accept":false}), |g| {
        g["offer"].is_null()
    })
    .await;
    // Lapses when the one it was made to moves instead.
    south.play("F").await;
    send_until(&mut south, json!({"type":"offer","what":"draw"}), |g| {
        !g["offer"].is_null()
    })
    .await;
    north.wait_for(|g| !g["offer"].is_null()).await;
    north.play("a").await;
    north.wait_for(|g| g["offer"].is_null()).await;
    // Accepted: a draw, the stores as they stand.
    send_until(&mut north, json!({"type":"offer","what":"draw"}), |g| {
        !g["offer"].is_null()
    })
    .await;
    south.wait_for(|g| g["offer"]["by"] == "N").await;
    send_until(&mut south, json!({"type":"answer","accept":true}), |g| {
        !g["end"].is_null()
    })
    .await;
    assert_eq!(south.game["end"]["reason"], "agreement");
    assert!(south.game["end"]["winner"].is_null());
    assert_eq!(
        error_for(&mut south, json!({"type":"answer","accept":true})).await,
        "no-offer"
    );
    south.close().await;
    north.close().await;
    // Offers are for friends.
    let (id, token, _) = create(server.addr, json!({"mode":"computer","side":"S","level":1})).await;
    let mut human = Client::connect(server.addr, &id, Some(&token)).await;
    assert_eq!(
        error_for(&mut human, json!({"type":"offer","what":"draw"})).await,
        "friends-only"
    );
    assert_eq!(
        error_for(&mut human, json!({"type":"offer","what":"cake"})).await,
        "bad-message"
    );
    human.close().await;
    server.stop().await;
}

#[tokio::test]
async fn an_accepted_takeback_takes_back_the_offerers_last_move() {
    let server = TestServer::start(quick_config()).await;
    let (_, mut south, mut north, _, _) = friends(server.addr).await;
    assert_eq!(
        error_for(&mut south, json!({"type":"offer","what":"takeback"})).await,
        "nothing-to-undo"
    );
    south.play("F").await;
    north.wait_for(|g| g["moves"] == "F").await;
    north.play("a").await;
    south.wait_for(|g| g["moves"] == "Fa").await;
    // South asks to take back F: North's reply goes too, and South is to move again.
    send_until(&mut south, json!({"type":"offer","what":"takeback"}), |g| {
        !g["offer"].is_null()
    })
    .await;
    north.wait_for(|g| g["offer"]["what"] == "takeback").await;
    send_until(&mut north, json!({"type":"answer","accept":true}), |g| {
        g["moves"] == ""
    })
    .await;
    assert_eq!(north.game["to_move"], "S");
    assert!(north.game["offer"].is_null());
    south.wait_for(|g| g["moves"] == "").await;
    assert_eq!(south.play("E").await["game"]["moves"], "E");
    // A watcher cannot offer.
    let (id, _, _) = create(server.addr, json!({"mode":"friend"})).await;
    join_friend(server.addr, &id).await;
    let mut watcher = Client::connect(server.addr, &id, None).await;
    assert_eq!(
        error_for(&mut watcher, json!({"type":"offer","what":"draw"})).await,
        "not-a-player"
    );
    watcher.close().await;
    south.close().await;
    north.close().await;
    server.stop().await;
}

/// Asks for the rematch of game `id` with `token`: (status, body).
async fn rematch(addr: std::net::SocketAddr, id: &str, token: &str) -> (u16, serde_json::Value) {
    post_json(
        addr,
        &format!("/api/games/{id}/rematch"),
        json!({ "token": token }),
    )
    .await
}

#[tokio::test]
async fn a_rematch_swaps_the_sides_and_seats_both_friends() {
    let server = TestServer::start(quick_config()).await;
    let (id, south, mut north, south_token, north_token) = friends(server.addr).await;
    let (status, v) = rematch(server.addr, &id, &south_token).await;
    assert_eq!(
        (status, v["error"]["code"].as_str()),
        (409, Some("not-over")),
        "{v}"
    );
    send_until(&mut north, json!({"type":"resign"}), |g| {
        !g["end"].is_null()
    })
    .await;
    let (status, first) = rematch(server.addr, &id, &south_token).await;
    assert_eq!(status, 200, "{first}");
    assert_eq!(first["side"], "N", "South plays North in the rematch");
    let new_id = first["id"].as_str().unwrap().to_string();
    // Both players are told; the other finds the same game and takes the other side.
    north.wait_for(|g| !g["rematch"].is_null()).await;
    assert_eq!(north.game["rematch"], new_id.as_str());
    let (status, second) = rematch(server.addr, &id, &north_token).await;
    assert_eq!(status, 200, "{second}");
    assert_eq!(second["id"], new_id.as_str());
    assert_eq!(second["side"], "S");
    // Asking again gives the same seat.
    let (_, again) = rematch(server.addr, &id, &south_token).await;
    assert_eq!(again["token"], first["token"]);
    // Both seats are taken: the game starts at once, and a third visitor only watches.
    let mut new_south = Client::connect(server.addr, &new_id, second["token"].as_str()).await;
    assert_eq!(new_south.game["seated"], json!([true, true]));
    assert_eq!(new_south.play("F").await["game"]["moves"], "F");
    let (status, v) = post_json(server.addr, &format!("/api/games/{new_id}/join"), json!({})).await;
    assert_eq!(status, 200);
    assert!(v["side"].is_null(), "{v}");
    // Someone without a seat in the old game gets none in the rematch.
    let (status, v) = rematch(server.addr, &id, &"0".repeat(32)).await;
    assert_eq!(
        (status, v["error"]["code"].as_str()),
        (409, Some("not-a-player")),
        "{v}"
    );
    for c in [south, north, new_south] {
        c.close().await;
    }
    // Against the computer: the human changes sides, the computer keeps its level.
    let (id, token, _) = create(server.addr, json!({"mode":"computer","side":"S","level":2})).await;
    let mut human = Client::connect(server.addr, &id, Some(&token)).await;
    send_until(&mut human, json!({"type":"resign"}), |g| {
        !g["end"].is_null()
    })
    .await;
    let (status, v) = rematch(server.addr, &id, &token).await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["side"], "N");
    let mut next =
        Client::connect(server.addr, v["id"].as_str().unwrap(), v["token"].as_str()).await;
    assert_eq!(next.game["computer"], "S");
    assert_eq!(next.game["level"], 2);
    next.wait_for(|g| g["moves"].as_str().unwrap().len() == 1)
        .await;
    human.close().await;
    next.close().await;
    server.stop().await;
}

#[tokio::test]
async fn a_rematch_survives_a_restart() {
    let dir = temp_dir("rematch");
    let config = oware_server::Config {
        data: Some(dir.join("games.sqlite")),
        ..quick_config()
    };
    let server = TestServer::start(config.clone()).await;
    let (id, mut south, north, south_token, north_token) = friends(server.addr).await;
    send_until(&mut south, json!({"type":"resign"}), |g| {
        !g["end"].is_null()
    })
    .await;
    let (_, first) = rematch(server.addr, &id, &south_token).await;
    south.close().await;
    north.close().await;
    server.stop().await;
    let server = TestServer::start(config).await;
    let (status, view) = common::http(server.addr, "GET", &format!("/api/games/{id}"), None).await;
    assert_eq!(status, 200);
    let view: serde_json::Value = serde_json::from_str(&view).unwrap();
    assert_eq!(view["end"]["reason"], "resign", "{view}");
    assert_eq!(view["rematch"], first["id"], "{view}");
    let (status, second) = rematch(server.addr, &id, &north_token).await;
    assert_eq!(status, 200, "{second}");
    assert_eq!(second["id"], first["id"]);
    server.stop().await;
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test]
async fn one_address_cannot_create_games_without_end() {
    let server = TestServer::start(oware_server::Config {
        games_per_address: 3,
        trusted_proxies: vec!["127.0.0.1".parse().unwrap()],
        ..quick_config()
    })
    .await;
    for _ in 0..3 {
        create(server.addr, json!({"mode":"friend"})).await;
    }
    let (status, v) = post_json(server.addr, "/api/games", json!({"mode":"friend"})).await;
    assert_eq!(status, 429, "{v}");
    assert_eq!(v["error"]["code"], "too-many-games");
    // Behind a trusted reverse proxy, each client the proxy names has its own count.
    let (status, _, body) = http_with_headers(
        server.addr,
        "POST",
        "/api/games",
        Some(r#"{"mode":"friend"}"#),
        "X-Forwarded-For: 203.0.113.9\r\n",
    )
    .await;
    assert_eq!(status, 200, "{body}");
    server.stop().await;
}

#[tokio::test]
async fn moves_come_at_a_human_pace_at_most() {
    let server = TestServer::start(oware_server::Config {
        moves_per_second: 10,
        ..quick_config()
    })
    .await;
    let (_, mut south, mut north, _, _) = friends(server.addr).await;
    // Two players trading moves as fast as the server answers: some are refused as too fast.
    let mut refused = 0;
    for _ in 0..60 {
        let (mover, other) = if south.game["to_move"] == "S" {
            (&mut south, &mut north)
        } else {
            (&mut north, &mut south)
        };
        if mover.over() {
            break;
        }
        let mv = mover.legal()[..1].to_string();
        let reply = mover.play(&mv).await;
        if reply["type"] == "error" {
            assert_eq!(reply["code"], "rate-limited", "{reply}");
            refused += 1;
            break;
        }
        let moves = mover.moves();
        other.wait_for(|g| g["moves"] == moves.as_str()).await;
    }
    assert!(refused > 0, "60 moves at once were all accepted");
    south.close().await;
    north.close().await;
    server.stop().await;
}

#[tokio::test]
async fn the_seat_cookie_is_secure_over_https() {
    let plain = TestServer::start(oware_server::Config {
        trusted_proxies: vec!["127.0.0.1".parse().unwrap()],
        ..quick_config()
    })
    .await;
    let body = r#"{"mode":"friend"}"#;
    let (_, head, _) = http_with_headers(plain.addr, "POST", "/api/games", Some(body), "").await;
    assert!(
        head.contains("HttpOnly") && !head.contains("Secure"),
        "{head}"
    );
    // A trusted reverse proxy that terminates HTTPS says so.
    let (_, head, _) = http_with_headers(
        plain.addr,
        "POST",
        "/api/games",
        Some(body),
        "X-Forwarded-Proto: https\r\n",
    )
    .await;
    assert!(head.contains("; Secure"), "{head}");
    plain.stop().await;
    // With a public https:// address, always; and the page is told the address for its links.
    let public = TestServer::start(oware_server::Config {
        public_url: Some("https://oware.example.org".into()),
        ..quick_config()
    })
    .await;
    let (_, head, _) = http_with_headers(public.addr, "POST", "/api/games", Some(body), "").await;
    assert!(head.contains("; Secure"), "{head}");
    let (status, info) = common::http(public.addr, "GET", "/api/server", None).await;
    assert_eq!(status, 200);
    assert!(info.contains("https://oware.example.org"), "{info}");
    public.stop().await;
}

#[tokio::test]
async fn unknown_pages_get_the_apps_not_found_page() {
    let server = TestServer::start(quick_config()).await;
    for path in ["/nonsense", "/game/nonsense", "/game/12/34", "/rules/extra"] {
        let (status, body) = common::http(server.addr, "GET", path, None).await;
        assert_eq!(status, 404, "{path}");
        assert!(body.contains("<main id=\"app\">"), "{path}: the app's page");
    }
    // The API still answers in JSON.
    let (status, body) = common::http(server.addr, "GET", "/api/nothing", None).await;
    assert_eq!(status, 404);
    assert!(body.contains("not-found"), "{body}");
    // A position that is not one is called a bad position; a refused move is numbered.
    let (status, v) = post_json(server.addr, "/api/replay", json!({"text":"1-2-3"})).await;
    assert_eq!(
        (status, v["error"]["code"].as_str()),
        (400, Some("bad-position")),
        "{v}"
    );
    let (status, v) = post_json(server.addr, "/api/replay", json!({"text":"xyz"})).await;
    assert_eq!(
        (status, v["error"]["code"].as_str()),
        (400, Some("bad-record")),
        "{v}"
    );
    let (_, v) = post_json(server.addr, "/api/replay", json!({"text":"1. F f 2. F"})).await;
    assert_eq!(v["error_ply"], 3, "{v}");
    server.stop().await;
}

#[tokio::test]
async fn clocks_against_the_computer_with_increments() {
    let server = TestServer::start(oware_server::Config {
        // Clock minutes of 600 ms: "3+2" is 1.8 s and 20 ms a move.
        clock_minute: Duration::from_millis(600),
        ..quick_config()
    })
    .await;
    let (id, token, _) = create(
        server.addr,
        json!({"mode":"computer","side":"S","level":1,"clock":3,"increment":2}),
    )
    .await;
    let mut human = Client::connect(server.addr, &id, Some(&token)).await;
    assert_eq!(human.game["clock"]["initial_ms"], 1800);
    assert_eq!(human.game["clock"]["increment_ms"], 20);
    human.play("F").await;
    human
        .wait_for(|g| g["moves"].as_str().unwrap().len() == 2)
        .await;
    // The computer's thinking was on its own clock; the human's runs now.
    assert_eq!(human.game["clock"]["running"], "S", "{}", human.game);
    tokio::time::sleep(Duration::from_millis(100)).await;
    let mv = human.legal()[..1].to_string();
    human.play(&mv).await;
    human
        .wait_for(|g| g["moves"].as_str().unwrap().len() >= 3)
        .await;
    let south = human.game["clock"]["remaining_ms"][0].as_u64().unwrap();
    // South's 100 ms (more on a busy machine) less the increment came off; the computer's time
    // did not (the increments themselves are unit-tested with the clock).
    assert!(
        (900..1800).contains(&south),
        "South's thinking time, less the increment: {south}"
    );
    for (body, what) in [
        (
            json!({"mode":"friend","clock":5,"increment":31}),
            "too large an increment",
        ),
        (
            json!({"mode":"friend","increment":3}),
            "an increment without a clock",
        ),
    ] {
        let (status, v) = post_json(server.addr, "/api/games", body).await;
        assert_eq!(
            (status, v["error"]["code"].as_str()),
            (400, Some("bad-clock")),
            "{what}: {v}"
        );
    }
    human.close().await;
    server.stop().await;
}

#[tokio::test]
async fn against_the_computer_the_players_flag_falls_too() {
    let server = TestServer::start(oware_server::Config {
        // Clock minutes of 300 ms: "3 minutes" is 900 ms, time enough for the computer's 30 ms
        // answer on a loaded machine (its own flag must not fall first).
        clock_minute: Duration::from_millis(300),
        ..quick_config()
    })
    .await;
    let (id, token, _) = create(
        server.addr,
        json!({"mode":"computer","side":"S","level":1,"clock":3}),
    )
    .await;
    let mut human = Client::connect(server.addr, &id, Some(&token)).await;
    human.play("F").await;
    human
        .wait_for(|g| g["moves"].as_str().unwrap().len() == 2)
        .await;
    // The human does not answer: their flag falls, and they are told.
    human.wait_for(|g| !g["end"].is_null()).await;
    assert_eq!(human.game["end"]["reason"], "time", "{}", human.game);
    assert_eq!(human.game["end"]["winner"], "N");
    human.close().await;
    server.stop().await;
}

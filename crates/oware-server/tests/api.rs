//! The HTTP API and the WebSocket protocol, against a real server on a loopback port.

mod common;

use common::*;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::json;
use tokio_tungstenite::tungstenite::Message;

#[tokio::test]
async fn full_game_against_the_computer_with_undo() {
    let server = TestServer::start(quick_config()).await;
    let (id, token, side) =
        create(server.addr, json!({"mode":"computer","level":1,"side":"S"})).await;
    assert_eq!(side, "S");
    let mut me = Client::connect(server.addr, &id, Some(&token)).await;
    assert_eq!(me.you.as_deref(), Some("S"));
    assert_eq!(me.game["computer"], "N");

    // Two moves, then take the last one back: the computer's answer goes too.
    for _ in 0..2 {
        let mv = me.legal()[..1].to_string();
        let reply = me.play(&mv).await;
        assert_eq!(reply["type"], "state", "{reply}");
        me.wait_for(|g| g["to_move"] == "S" || !g["end"].is_null())
            .await;
    }
    assert_eq!(me.moves().len(), 4);
    let before_undo = me.moves();
    me.send_text(r#"{"type":"undo"}"#).await;
    me.wait_for(|g| g["moves"].as_str().unwrap().len() == 2)
        .await;
    assert_eq!(me.moves(), before_undo[..2]);
    assert_eq!(me.game["to_move"], "S");

    // Play to the end; the computer answers every move.
    let mut plies = 0;
    while !me.over() {
        let mv = me.legal()[..1].to_string();
        me.play(&mv).await;
        me.wait_for(|g| (g["to_move"] == "S" && g["thinking"] == false) || !g["end"].is_null())
            .await;
        plies += 1;
        assert!(plies < 400, "the game should end");
    }
    let end = &me.game["end"];
    assert!(
        ["capture", "draw", "no-moves", "repetition"].contains(&end["reason"].as_str().unwrap())
    );
    // The record says the same.
    let (status, record) =
        common::http(server.addr, "GET", &format!("/api/games/{id}/record"), None).await;
    assert_eq!(status, 200);
    assert!(record.contains("[Variant \"abapa\"]"), "{record}");
    let score = format!("[Score \"{}\"]", end["score"].as_str().unwrap());
    assert!(record.contains(&score), "{record}");
    // The record reads back as the same game.
    let parsed: oware_rules::ogn::Record = record.parse().expect("a valid OGN record");
    assert_eq!(oware_rules::format_move_letters(&parsed.moves), me.moves());
    // A finished game refuses moves.
    let reply = me.play("A").await;
    assert_eq!(reply["code"], "game-over", "{reply}");
    me.close().await;
    server.stop().await;
}

#[tokio::test]
async fn computer_moves_first_when_it_plays_south() {
    let server = TestServer::start(quick_config()).await;
    let (id, token, side) =
        create(server.addr, json!({"mode":"computer","level":2,"side":"N"})).await;
    assert_eq!(side, "N");
    let mut me = Client::connect(server.addr, &id, Some(&token)).await;
    me.wait_for(|g| g["moves"].as_str().unwrap().len() == 1)
        .await;
    assert_eq!(me.game["to_move"], "N");
    // Nothing of the human's to take back yet.
    me.send_text(r#"{"type":"undo"}"#).await;
    let reply = me.next().await;
    assert_eq!(reply["code"], "nothing-to-undo", "{reply}");
    me.close().await;
    server.stop().await;
}

#[tokio::test]
async fn friend_game_seats_two_players_then_watchers() {
    let server = TestServer::start(quick_config()).await;
    let (id, south_token, _) = create(server.addr, json!({"mode":"friend","side":"S"})).await;
    let invite = json!({"invite": common::invite_of(&id)});
    let (status, seat) = post_json(
        server.addr,
        &format!("/api/games/{id}/join"),
        invite.clone(),
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(seat["side"], "N");
    let north_token = seat["token"].as_str().unwrap().to_string();
    assert_ne!(north_token, south_token);
    assert_eq!(north_token.len(), 32);
    let (_, watcher_seat) = post_json(server.addr, &format!("/api/games/{id}/join"), invite).await;
    assert!(watcher_seat["token"].is_null());

    let mut south = Client::connect(server.addr, &id, Some(&south_token)).await;
    let mut north = Client::connect(server.addr, &id, Some(&north_token)).await;
    let mut watcher = Client::connect(server.addr, &id, None).await;
    assert_eq!(south.you.as_deref(), Some("S"));
    assert_eq!(north.you.as_deref(), Some("N"));
    assert_eq!(watcher.you, None);
    assert_eq!(south.game["seated"], json!([true, true]));

    south.play("F").await;
    north.wait_for(|g| g["moves"] == "F").await;
    watcher.wait_for(|g| g["moves"] == "F").await;
    assert_eq!(north.game["position"], "4-4-4-4-4-0-5-5-5-5-4-4-0-0-N");

    // Out of turn, someone else's house, a watcher, a stale move: refused, nothing changes.
    let reply = south.play("A").await;
    assert_eq!(reply["code"], "not-your-turn", "{reply}");
    let reply = north.play("A").await;
    assert_eq!(reply["code"], "not-your-house", "{reply}");
    let reply = watcher.play("a").await;
    assert_eq!(reply["code"], "not-a-player", "{reply}");
    north
        .send_text(r#"{"type":"move","move":"a","ply":0}"#)
        .await;
    let reply = north.next().await;
    assert_eq!(reply["code"], "stale", "{reply}");
    // Undo is only for games against the computer.
    north.send_text(r#"{"type":"undo"}"#).await;
    assert_eq!(north.next().await["code"], "undo-not-allowed");

    north.play("f").await;
    south.wait_for(|g| g["moves"] == "Ff").await;
    // An empty house.
    let reply = south.play("F").await;
    assert_eq!(reply["code"], "empty-house", "{reply}");
    let (_, view) = common::http(server.addr, "GET", &format!("/api/games/{id}"), None).await;
    let view: serde_json::Value = serde_json::from_str(&view).unwrap();
    assert_eq!(view["moves"], "Ff");
    south.close().await;
    north.close().await;
    watcher.close().await;
    server.stop().await;
}

#[tokio::test]
async fn hostile_messages_get_errors_and_the_server_stays_up() {
    let server = TestServer::start(quick_config()).await;
    let (id, token, _) = create(server.addr, json!({"mode":"friend"})).await;
    join_friend(server.addr, &id).await;
    let mut c = Client::connect(server.addr, &id, Some(&token)).await;
    for (text, code) in [
        ("not json", "bad-message"),
        ("{}", "bad-message"),
        (r#"{"type":"move","move":"Z"}"#, "bad-move"),
        (r#"{"type":"move","move":"FF"}"#, "bad-move"),
        (r#"{"type":"move","move":"F","extra":1}"#, "bad-message"),
        (r#"{"type":"move","move":"F","ply":-1}"#, "bad-message"),
    ] {
        c.send_text(text).await;
        let reply = c.next().await;
        assert_eq!(reply["type"], "error", "{text}: {reply}");
        assert_eq!(reply["code"], code, "{text}: {reply}");
        assert!(!reply["message"].as_str().unwrap().is_empty());
    }
    let big = format!(r#"{{"type":"move","move":"{}"}}"#, "x".repeat(4000));
    c.send_text(&big).await;
    assert_eq!(c.next().await["code"], "too-large");
    c.socket
        .send(tokio_tungstenite::tungstenite::Message::Binary(
            vec![1, 2, 3].into(),
        ))
        .await
        .unwrap();
    assert_eq!(c.next().await["code"], "bad-message");
    c.send_text(r#"{"type":"ping"}"#).await;
    assert_eq!(c.next().await["type"], "pong");
    assert_eq!(c.moves(), "");
    // Far too large: the connection is cut, and the server goes on.
    let huge = "y".repeat(200_000);
    let _ = c.socket.send(huge.into()).await;
    let mut again = Client::connect(server.addr, &id, Some(&token)).await;
    assert_eq!(again.play("F").await["game"]["moves"], "F");
    again.close().await;

    // HTTP: unknown games, malformed bodies, bad fields.
    let (status, body) = common::http(
        server.addr,
        "GET",
        &format!("/api/games/{}", "0".repeat(32)),
        None,
    )
    .await;
    assert_eq!(status, 404);
    assert!(body.contains("unknown-game"), "{body}");
    let (status, _) = common::http(server.addr, "GET", "/api/games/../../etc/passwd", None).await;
    assert_eq!(status, 404);
    let (status, body) = common::http(server.addr, "POST", "/api/games", Some("{nope")).await;
    assert_eq!(status, 400);
    assert!(body.contains("bad-request"), "{body}");
    for (req, code) in [
        (json!({"mode":"computer","level":11}), "bad-level"),
        (json!({"mode":"chess"}), "bad-mode"),
        (json!({"mode":"friend","side":"E"}), "bad-side"),
        (json!({"mode":"friend","rules":"kalah"}), "bad-rules"),
        (json!({"mode":"friend","position":"4-4-4"}), "bad-position"),
    ] {
        let (status, v) = post_json(server.addr, "/api/games", req.clone()).await;
        assert_eq!(status, 400, "{req}");
        assert_eq!(v["error"]["code"], code, "{req}: {v}");
    }
    let (status, _) = common::http(
        server.addr,
        "POST",
        "/api/games",
        Some(&"x".repeat(200_000)),
    )
    .await;
    assert_eq!(status, 413);
    // Unknown game over WebSocket: refused before the upgrade.
    assert!(tokio_tungstenite::connect_async(format!(
        "ws://{}/api/games/{}/ws",
        server.addr,
        "a".repeat(32)
    ))
    .await
    .is_err());
    // A game's WebSocket has one address, under the game's API folder.
    let (status, _) =
        common::http(server.addr, "GET", &format!("/ws/{}", "a".repeat(32)), None).await;
    assert_eq!(status, 404);
    server.stop().await;
}

#[tokio::test]
async fn a_game_starts_from_a_position_that_is_not_over_under_its_rules() {
    let server = TestServer::start(quick_config()).await;
    // A set-up position: the game begins there, with its side to move and its rules.
    let position = "0-3-0-2-1-5-6-0-4-1-2-0-12-12-N";
    let (id, _, _) = create(
        server.addr,
        json!({"mode":"friend","side":"N","rules":"awari","position":position}),
    )
    .await;
    let (_, view) = common::http(server.addr, "GET", &format!("/api/games/{id}"), None).await;
    let view: serde_json::Value = serde_json::from_str(&view).unwrap();
    assert_eq!(view["position"], position, "{view}");
    assert_eq!(view["rules"], "awari", "{view}");
    assert_eq!(view["to_move"], "N", "{view}");
    // South's one seed cannot reach North's empty row: under abapa South has no move and the game
    // is over; under awari South may play it.
    let unfed = "1-0-0-0-0-0-0-0-0-0-0-0-24-23-S";
    for (req, code) in [
        (json!({"mode":"computer","position":unfed}), "position-over"),
        (
            json!({"mode":"friend","rules":"abapa","position":unfed}),
            "position-over",
        ),
        (
            json!({"mode":"friend","position":"0-0-0-0-0-0-1-1-1-0-0-0-25-20-N"}),
            "position-over",
        ),
        (
            json!({"mode":"friend","position":"4-4-4-4-4-4-4-4-4-4-4-5-0-0-S"}),
            "bad-position",
        ),
    ] {
        let (status, v) = post_json(server.addr, "/api/games", req.clone()).await;
        assert_eq!(status, 400, "{req}");
        assert_eq!(v["error"]["code"], code, "{req}: {v}");
    }
    let (status, v) = post_json(
        server.addr,
        "/api/games",
        json!({"mode":"friend","rules":"awari","position":unfed}),
    )
    .await;
    assert_eq!(status, 200, "{v}");
    server.stop().await;
}

#[tokio::test]
async fn connection_limit_refuses_extra_sockets() {
    let server = TestServer::start(oware_server::Config {
        max_connections: 2,
        ..quick_config()
    })
    .await;
    let (id, _, _) = create(server.addr, json!({"mode":"friend"})).await;
    let a = Client::connect(server.addr, &id, None).await;
    let b = Client::connect(server.addr, &id, None).await;
    let third =
        tokio_tungstenite::connect_async(format!("ws://{}/api/games/{id}/ws", server.addr)).await;
    match third {
        Err(tokio_tungstenite::tungstenite::Error::Http(resp)) => assert_eq!(resp.status(), 503),
        other => panic!("expected 503, got {other:?}"),
    }
    a.close().await;
    // A slot frees up once a socket closes.
    let mut ok = false;
    for _ in 0..50 {
        if tokio_tungstenite::connect_async(format!("ws://{}/api/games/{id}/ws", server.addr))
            .await
            .is_ok()
        {
            ok = true;
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    assert!(ok);
    b.close().await;
    server.stop().await;
}

#[tokio::test]
async fn pages_and_assets_are_served() {
    let server = TestServer::start(quick_config()).await;
    for path in [
        "/",
        "/analysis",
        "/rules",
        "/email/confirm",
        "/email/unsubscribe",
        &format!("/game/{}", "b".repeat(32)),
    ] {
        let (status, body) = common::http(server.addr, "GET", path, None).await;
        assert_eq!(status, 200, "{path}");
        assert!(body.contains("<main id=\"app\">"), "{path}");
    }
    for name in [
        "app.js",
        "lib/board.js",
        "lib/i18n.js",
        "style.css",
        "icon.svg",
    ] {
        let (status, body) =
            common::http(server.addr, "GET", &format!("/static/{name}"), None).await;
        assert_eq!(status, 200, "{name}");
        assert!(!body.is_empty());
    }
    let (status, _) = common::http(server.addr, "GET", "/static/nothing.js", None).await;
    assert_eq!(status, 404);
    // The analysis API replays records and stops at an illegal move with a reason.
    let (status, v) = post_json(server.addr, "/api/replay", json!({"text":"1. F f 2. F"})).await;
    assert_eq!(status, 200);
    assert_eq!(v["moves"], "Ff");
    assert!(v["error"].as_str().unwrap().contains("ply 3"), "{v}");
    assert_eq!(v["positions"].as_array().unwrap().len(), 3);
    // It reads a position with moves too, and refuses what is not a game with the line.
    let text = "0-0-0-0-0-1-1-1-0-0-0-0-23-22-S F";
    let (status, v) = post_json(
        server.addr,
        "/api/replay",
        json!({"text": text, "rules": "awari"}),
    )
    .await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(
        (v["rules"].as_str(), v["moves"].as_str()),
        (Some("awari"), Some("F"))
    );
    assert_eq!(v["end"]["reason"], "capture", "{v}");
    let (status, v) = post_json(server.addr, "/api/replay", json!({"text":"F f\n1. G"})).await;
    assert_eq!(status, 400);
    assert_eq!(v["error"]["code"], "bad-record", "{v}");
    assert!(
        v["error"]["message"]
            .as_str()
            .unwrap()
            .starts_with("line 2: "),
        "{v}"
    );
    let long = "F".repeat(64 * 1024 + 1);
    let (status, _) = post_json(server.addr, "/api/replay", json!({ "text": long })).await;
    assert_eq!(status, 400);
    // A hostile text is quoted in the error, not echoed whole.
    for junk in [
        format!("F f {}", "Q".repeat(60_000)),
        format!("[Event {}", "y".repeat(60_000)),
    ] {
        let (status, v) = post_json(server.addr, "/api/replay", json!({ "text": junk })).await;
        assert_eq!(status, 400);
        let message = v["error"]["message"].as_str().unwrap_or_default();
        assert!(message.len() < 200 && message.contains("(60"), "{message}");
    }
    let (status, v) = post_json(
        server.addr,
        "/api/evaluate",
        json!({"position":"4-4-4-4-4-4-4-4-4-4-4-4-0-0-S"}),
    )
    .await;
    assert_eq!(status, 200);
    let values = v["moves"].as_array().unwrap();
    assert_eq!(values.len(), 6);
    assert!(v["depth"].as_u64().unwrap() >= 2, "{v}");
    for m in values {
        let letter = m["move"].as_str().unwrap();
        assert!(m["line"].as_str().unwrap().starts_with(letter), "{m}");
        assert!(m["score"].is_number() && m.get("database").is_some(), "{m}");
    }
    // With the moves that led to the position: South to move after "F f", five or six moves.
    let (status, v) = post_json(
        server.addr,
        "/api/evaluate",
        json!({"position":"4-4-4-4-4-4-4-4-4-4-4-4-0-0-S", "moves":"Ff"}),
    )
    .await;
    assert_eq!(status, 200, "{v}");
    assert!(!v["moves"].as_array().unwrap().is_empty());
    // A winning capture is seen as a win in one ply.
    let (status, v) = post_json(
        server.addr,
        "/api/evaluate",
        json!({"position":"0-0-0-0-1-1-1-1-0-0-0-0-23-21-S"}),
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(v["moves"][0]["move"], "F", "{v}");
    assert_eq!(v["moves"][0]["end_in"], 1, "{v}");
    let (status, _) = post_json(server.addr, "/api/evaluate", json!({"position":"9-9"})).await;
    assert_eq!(status, 400);
    let (status, v) = post_json(
        server.addr,
        "/api/evaluate",
        json!({"position":"4-4-4-4-4-4-4-4-4-4-4-4-0-0-S", "moves":"FF"}),
    )
    .await;
    assert_eq!(status, 400);
    assert_eq!(v["error"]["code"], "illegal-move", "{v}");
    server.stop().await;
}

/// The `oware_seat` cookie from a response's headers, as a browser would send it back
/// (`name=value`), after checking its attributes.
fn seat_cookie(head: &str, id: &str) -> String {
    let line = head
        .lines()
        .find(|l| l.to_ascii_lowercase().starts_with("set-cookie:"))
        .unwrap_or_else(|| panic!("a seat cookie in {head}"));
    let value = line.split_once(':').unwrap().1.trim();
    for attribute in ["HttpOnly", "SameSite=Lax", &format!("Path=/api/games/{id}")] {
        assert!(value.contains(attribute), "{attribute} in {value}");
    }
    value.split(';').next().unwrap().to_string()
}

#[tokio::test]
async fn the_seat_cookie_resumes_a_player_without_a_stored_token() {
    let server = TestServer::start(quick_config()).await;
    // The creator's browser gets the cookie with the seat.
    let (status, head, body) = common::http_with_headers(
        server.addr,
        "POST",
        "/api/games",
        Some(r#"{"mode":"friend","side":"S"}"#),
        "",
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let created: serde_json::Value = serde_json::from_str(&body).unwrap();
    let id = created["id"].as_str().unwrap().to_string();
    let cookie = seat_cookie(&head, &id);
    assert_eq!(
        cookie,
        format!("oware_seat={}", created["token"].as_str().unwrap())
    );

    // A reload that lost its storage: joining with only the cookie gives the same seat back,
    // not North's free seat.
    let cookie_line = format!("Cookie: {cookie}\r\n");
    let join = format!("/api/games/{id}/join");
    let (status, _, body) =
        common::http_with_headers(server.addr, "POST", &join, None, &cookie_line).await;
    assert_eq!(status, 200);
    let again: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(again["side"], "S", "{again}");
    assert_eq!(again["token"], created["token"]);
    // The WebSocket knows the player by the cookie alone.
    let mut south = Client::connect_with_cookie(server.addr, &id, &cookie).await;
    assert_eq!(south.you.as_deref(), Some("S"));
    assert_eq!(
        south.game["seated"],
        json!([true, false]),
        "North is still free"
    );

    // The friend joins with the invitation (their own cookie), and a token offered in the body
    // also resumes.
    let invite = json!({"invite": created["invite"]}).to_string();
    let (status, head, body) =
        common::http_with_headers(server.addr, "POST", &join, Some(&invite), "").await;
    assert_eq!(status, 200);
    let friend: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(friend["side"], "N");
    let friend_cookie = seat_cookie(&head, &id);
    let offered = json!({"token": friend["token"]}).to_string();
    let (_, head, body) =
        common::http_with_headers(server.addr, "POST", &join, Some(&offered), "").await;
    assert_eq!(
        serde_json::from_str::<serde_json::Value>(&body).unwrap()["side"],
        "N"
    );
    assert_eq!(
        seat_cookie(&head, &id),
        friend_cookie,
        "a private link sets the cookie"
    );
    let mut north = Client::connect_with_cookie(server.addr, &id, &friend_cookie).await;
    assert_eq!(north.you.as_deref(), Some("N"));
    let reply = south.play("F").await;
    assert_eq!(reply["type"], "state", "{reply}");
    north.wait_for(|g| g["moves"] == "F").await;

    // A cookie for another game, or a forged one, seats nobody.
    let (other, _, _) = create(server.addr, json!({"mode":"friend"})).await;
    let stranger = Client::connect_with_cookie(server.addr, &other, &cookie).await;
    assert_eq!(stranger.you, None);
    let forged = Client::connect_with_cookie(server.addr, &id, "oware_seat=0123").await;
    assert_eq!(forged.you, None);
    let (status, _, body) =
        common::http_with_headers(server.addr, "POST", &join, Some(r#"{"token": 5}"#), "").await;
    assert_eq!(status, 400, "{body}");
    for c in [south, north, stranger, forged] {
        c.close().await;
    }
    server.stop().await;
}

/// Seat tokens never travel in addresses (proxies log them, browsers keep them in history): a
/// token in the WebSocket's query seats nobody; a program without the cookie sends it in a `seat`
/// message, and a token that is not the game's is refused there.
#[tokio::test]
async fn a_token_in_the_address_seats_nobody_and_a_seat_message_does() {
    let server = TestServer::start(quick_config()).await;
    let (id, token, _) = create(server.addr, json!({"mode":"friend","side":"S"})).await;
    let url = format!("ws://{}/api/games/{id}/ws?token={token}", server.addr);
    let mut by_address = Client::open_url(&url).await;
    assert_eq!(
        by_address.you, None,
        "a token in the address seated a player"
    );
    by_address
        .send_text(&json!({"type":"seat","token":"0123456789abcdef0123456789abcdef"}).to_string())
        .await;
    let refused = by_address.next().await;
    assert_eq!(refused["type"], "error", "{refused}");
    assert_eq!(refused["code"], "not-a-player", "{refused}");
    by_address
        .send_text(&json!({"type":"seat","token":token}).to_string())
        .await;
    let welcome = by_address.next().await;
    assert_eq!(welcome["type"], "welcome", "{welcome}");
    assert_eq!(welcome["you"], "S", "{welcome}");
    by_address.close().await;
    server.stop().await;
}

#[tokio::test]
async fn a_flooding_client_is_rate_limited_then_closed() {
    let server = TestServer::start(oware_server::Config {
        messages_per_second: 5,
        ..quick_config()
    })
    .await;
    let (id, token, _) = create(server.addr, json!({"mode":"friend","side":"S"})).await;
    join_friend(server.addr, &id).await;
    let cookie = format!("oware_seat={token}");
    let mut client = Client::connect_with_cookie(server.addr, &id, &cookie).await;
    // A burst of 20 pings: the first 10 (twice the rate) are answered, the rest dropped with an
    // error each.
    for _ in 0..20 {
        client.send_text(r#"{"type":"ping"}"#).await;
    }
    let mut pongs = 0;
    let mut limited = 0;
    for _ in 0..20 {
        let reply = client.next().await;
        match reply["type"].as_str() {
            Some("pong") => pongs += 1,
            Some("error") if reply["code"] == "rate-limited" => limited += 1,
            _ => panic!("unexpected {reply}"),
        }
    }
    assert!((10..=13).contains(&pongs), "{pongs} pongs");
    assert_eq!(pongs + limited, 20);
    // After a pause, the player plays normally.
    tokio::time::sleep(Duration::from_millis(700)).await;
    let reply = client.play("F").await;
    assert_eq!(reply["type"], "state", "{reply}");
    // A client that keeps on flooding is disconnected.
    for _ in 0..200 {
        if client
            .socket
            .send(Message::Text(r#"{"type":"ping"}"#.into()))
            .await
            .is_err()
        {
            break;
        }
    }
    let closed = tokio::time::timeout(Duration::from_secs(5), async {
        while let Some(Ok(msg)) = client.socket.next().await {
            if let Message::Close(frame) = msg {
                return frame.map(|f| u16::from(f.code));
            }
        }
        None
    })
    .await
    .expect("the server closes the flood");
    assert_eq!(closed, Some(1008));
    server.stop().await;
}

#[tokio::test]
async fn a_silent_client_is_closed_after_the_idle_timeout() {
    let server = TestServer::start(oware_server::Config {
        idle_timeout: Duration::from_millis(300),
        ..quick_config()
    })
    .await;
    let (id, token, _) = create(server.addr, json!({"mode":"friend","side":"S"})).await;
    join_friend(server.addr, &id).await;
    // A client that reads (and so answers pings) stays connected past the timeout.
    let mut awake = Client::connect(server.addr, &id, Some(&token)).await;
    let mut silent = Client::connect(server.addr, &id, None).await;
    let deadline = tokio::time::Instant::now() + Duration::from_millis(1200);
    while tokio::time::Instant::now() < deadline {
        let _ = tokio::time::timeout(Duration::from_millis(50), awake.socket.next()).await;
    }
    let reply = awake.play("F").await;
    assert_eq!(reply["type"], "state", "{reply}");
    // The other never read, so never answered a ping: the server has closed it.
    let closed = tokio::time::timeout(Duration::from_secs(5), async {
        while let Some(Ok(msg)) = silent.socket.next().await {
            if let Message::Close(frame) = msg {
                return frame.map(|f| u16::from(f.code));
            }
        }
        None
    })
    .await
    .expect("the server closed the silent client");
    // The close frame may be lost when the server's end is gone before the client reads (its
    // late answers to the pings then meet a reset connection); closed it is either way.
    assert!(matches!(closed, Some(1001) | None), "{closed:?}");
    awake.close().await;
    server.stop().await;
}

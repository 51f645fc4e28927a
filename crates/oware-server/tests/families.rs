//! Families at a distance: players' names (in the game, its rematch and its record) and safe
//! invitations (only the invitation's code takes the friend's seat; the creator can issue a new
//! one and free a seat taken by the wrong person before the first move).

mod common;

use common::*;
use serde_json::{json, Value};

async fn join(addr: std::net::SocketAddr, id: &str, body: Value) -> (u16, Value) {
    post_json(addr, &format!("/api/games/{id}/join"), body).await
}

async fn view(addr: std::net::SocketAddr, id: &str) -> Value {
    let (status, text) = http(addr, "GET", &format!("/api/games/{id}"), None).await;
    assert_eq!(status, 200, "{text}");
    serde_json::from_str(&text).unwrap()
}

async fn record(addr: std::net::SocketAddr, id: &str) -> String {
    let (status, text) = http(addr, "GET", &format!("/api/games/{id}/record"), None).await;
    assert_eq!(status, 200, "{text}");
    text
}

#[tokio::test]
async fn names_reach_the_view_the_players_the_rematch_and_the_record() {
    let server = TestServer::start(quick_config()).await;
    let addr = server.addr;
    let (id, south_token, _) = create(
        addr,
        json!({"mode":"friend","side":"S","name":"  Grandma Rosa "}),
    )
    .await;
    // Control characters go; markup is kept as the plain text it is.
    let (status, seat) = join(
        addr,
        &id,
        json!({"invite": invite_of(&id), "name": "Léo\n<b>\u{7}"}),
    )
    .await;
    assert_eq!(status, 200, "{seat}");
    let north_token = seat["token"].as_str().unwrap().to_string();
    let v = view(addr, &id).await;
    assert_eq!(v["names"], json!(["Grandma Rosa", "Léo<b>"]), "{v}");
    // The players learn the name of the friend who joins from the state they are sent.
    let mut south = Client::connect(addr, &id, Some(&south_token)).await;
    assert_eq!(south.game["names"][1], "Léo<b>");
    south.play("F").await;
    let mut north = Client::connect(addr, &id, Some(&north_token)).await;
    north.send_text(r#"{"type":"resign"}"#).await;
    south.wait_for(|g| !g["end"].is_null()).await;
    let text = record(addr, &id).await;
    assert!(text.contains("[South \"Grandma Rosa\"]"), "{text}");
    assert!(text.contains("[North \"Léo<b>\"]"), "{text}");
    assert!(text.contains("[Result \"1-0\"]"), "{text}");
    assert!(text.contains("[Termination \"resignation\"]"), "{text}");
    // The rematch swaps the sides and keeps the names.
    let (status, seat) = post_json(
        addr,
        &format!("/api/games/{id}/rematch"),
        json!({"token": south_token}),
    )
    .await;
    assert_eq!(status, 200, "{seat}");
    let rematch_id = seat["id"].as_str().unwrap().to_string();
    let again = view(addr, &rematch_id).await;
    assert_eq!(again["names"], json!(["Léo<b>", "Grandma Rosa"]), "{again}");
    // Both seats of a rematch were given at once: neither player can turn out the other.
    let (status, v) = post_json(
        addr,
        &format!("/api/games/{rematch_id}/invitation"),
        json!({"token": seat["token"]}),
    )
    .await;
    assert_eq!(
        (status, v["error"]["code"].as_str()),
        (409, Some("not-host")),
        "{v}"
    );
    south.close().await;
    north.close().await;

    // Against the computer: the player's name and the computer's level.
    let (cpu, _, _) = create(
        addr,
        json!({"mode":"computer","side":"S","level":2,"name":"Kofi"}),
    )
    .await;
    let text = record(addr, &cpu).await;
    assert!(text.contains("[South \"Kofi\"]"), "{text}");
    assert!(text.contains("[North \"oware level 2\"]"), "{text}");
    assert_eq!(view(addr, &cpu).await["names"], json!(["Kofi", null]));
    server.stop().await;
}

#[tokio::test]
async fn a_name_too_long_is_refused_with_a_clear_error() {
    let server = TestServer::start(quick_config()).await;
    let long = "x".repeat(41);
    let (status, v) = post_json(
        server.addr,
        "/api/games",
        json!({"mode":"friend","name": long}),
    )
    .await;
    assert_eq!(
        (status, v["error"]["code"].as_str()),
        (400, Some("bad-name")),
        "{v}"
    );
    let (id, _, _) = create(server.addr, json!({"mode":"friend"})).await;
    let (status, v) = join(
        server.addr,
        &id,
        json!({"invite": invite_of(&id), "name": long}),
    )
    .await;
    assert_eq!(
        (status, v["error"]["code"].as_str()),
        (400, Some("bad-name")),
        "{v}"
    );
    // The seat was not taken by the refused join.
    assert_eq!(view(server.addr, &id).await["seated"], json!([true, false]));
    server.stop().await;
}

#[tokio::test]
async fn only_the_invitation_takes_the_friends_seat() {
    let server = TestServer::start(quick_config()).await;
    let addr = server.addr;
    let (status, head, body) = http_with_headers(
        addr,
        "POST",
        "/api/games",
        Some(r#"{"mode":"friend","side":"S","name":"Rosa"}"#),
        "",
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let created: Value = serde_json::from_str(&body).unwrap();
    let id = created["id"].as_str().unwrap().to_string();
    let invite = created["invite"].as_str().unwrap().to_string();
    assert_eq!(invite.len(), 32);
    let cookie = head
        .lines()
        .find_map(|l| {
            l.strip_prefix("set-cookie: ")
                .or(l.strip_prefix("Set-Cookie: "))
        })
        .and_then(|c| c.split(';').next())
        .unwrap()
        .to_string();

    // The creator tries her own invitation (her browser has the seat cookie): she is South
    // again, and the friend's seat stays free; she is given the code to pass on.
    let (status, _, body) = http_with_headers(
        addr,
        "POST",
        &format!("/api/games/{id}/join"),
        Some(&json!({"invite": invite}).to_string()),
        &format!("Cookie: {cookie}\r\n"),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let again: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(again["side"], "S", "{again}");
    assert_eq!(again["invite"], invite.as_str(), "{again}");
    assert_eq!(view(addr, &id).await["seated"], json!([true, false]));

    // The game's plain address, or a wrong code, only lets people watch.
    for body in [json!({}), json!({"invite": "0".repeat(32)})] {
        let (status, seat) = join(addr, &id, body).await;
        assert_eq!(status, 200, "{seat}");
        assert!(seat["side"].is_null(), "{seat}");
        assert!(
            seat["invite"].is_null(),
            "a watcher is not given the code: {seat}"
        );
    }
    assert_eq!(view(addr, &id).await["seated"], json!([true, false]));

    // A new link while the seat is empty: the old one seats nobody.
    let south = json!({"token": created["token"]});
    let (status, fresh) =
        post_json(addr, &format!("/api/games/{id}/invitation"), south.clone()).await;
    assert_eq!(status, 200, "{fresh}");
    let fresh = fresh["invite"].as_str().unwrap().to_string();
    assert_ne!(fresh, invite);
    let (_, seat) = join(addr, &id, json!({"invite": invite})).await;
    assert!(seat["side"].is_null(), "the old link seats nobody: {seat}");

    // The wrong person takes the seat with the new link; South frees it before the first move.
    let (_, wrong) = join(addr, &id, json!({"invite": fresh, "name": "Cousin"})).await;
    assert_eq!(wrong["side"], "N", "{wrong}");
    let wrong_token = wrong["token"].as_str().unwrap().to_string();
    let mut wrong_client = Client::connect(addr, &id, Some(&wrong_token)).await;
    let (status, third) =
        post_json(addr, &format!("/api/games/{id}/invitation"), south.clone()).await;
    assert_eq!(status, 200, "{third}");
    let third = third["invite"].as_str().unwrap().to_string();
    wrong_client
        .wait_for(|g| g["seated"] == json!([true, false]))
        .await;
    assert_eq!(wrong_client.game["names"], json!(["Rosa", null]));
    let reply = wrong_client.play("a").await;
    assert_eq!(
        reply["code"], "not-a-player",
        "the freed token plays no more: {reply}"
    );
    wrong_client.close().await;
    // Only a player may ask for a new link, and only the one who sent it.
    let (status, v) = post_json(
        addr,
        &format!("/api/games/{id}/invitation"),
        json!({"token": wrong_token}),
    )
    .await;
    assert_eq!(
        (status, v["error"]["code"].as_str()),
        (409, Some("not-a-player")),
        "{v}"
    );

    // The grandchild comes with the newest link; once a move is played, the seat stays theirs.
    let (_, grandchild) = join(addr, &id, json!({"invite": third, "name": "Léo"})).await;
    assert_eq!(grandchild["side"], "N", "{grandchild}");
    let (status, v) = post_json(
        addr,
        &format!("/api/games/{id}/invitation"),
        json!({"token": grandchild["token"]}),
    )
    .await;
    assert_eq!(
        (status, v["error"]["code"].as_str()),
        (409, Some("not-host")),
        "the invited friend cannot turn out the one who invited them: {v}"
    );
    assert_eq!(view(addr, &id).await["host"], "S");
    let mut rosa = Client::connect(addr, &id, created["token"].as_str()).await;
    rosa.play("F").await;
    rosa.wait_for(|g| g["moves"] == "F").await;
    let (status, v) = post_json(addr, &format!("/api/games/{id}/invitation"), south).await;
    assert_eq!(
        (status, v["error"]["code"].as_str()),
        (409, Some("started")),
        "{v}"
    );
    assert_eq!(view(addr, &id).await["names"], json!(["Rosa", "Léo"]));
    rosa.close().await;

    // Games against the computer have no invitations.
    let (cpu, cpu_token, _) = create(addr, json!({"mode":"computer","level":1})).await;
    let (status, v) = post_json(
        addr,
        &format!("/api/games/{cpu}/invitation"),
        json!({ "token": cpu_token }),
    )
    .await;
    assert_eq!(
        (status, v["error"]["code"].as_str()),
        (409, Some("friends-only")),
        "{v}"
    );
    server.stop().await;
}

/// The next message of `kind` a client receives (states on the way are taken in).
async fn next_of(client: &mut Client, kind: &str) -> Value {
    loop {
        let message = client.next().await;
        if message["type"] == kind {
            return message;
        }
    }
}

#[tokio::test]
async fn quick_messages_reach_the_other_player_and_the_watchers_as_codes() {
    let server = TestServer::start(quick_config()).await;
    let addr = server.addr;
    let (id, south_token, _) = create(addr, json!({"mode":"friend","side":"S"})).await;
    let (north_token, _) = join_friend(addr, &id).await;
    let mut south = Client::connect(addr, &id, Some(&south_token)).await;
    let mut north = Client::connect(addr, &id, Some(&north_token)).await;
    let mut watcher = Client::connect(addr, &id, None).await;
    south
        .send_text(r#"{"type":"say","what":"good-luck"}"#)
        .await;
    for client in [&mut north, &mut watcher] {
        let said = next_of(client, "said").await;
        assert_eq!(said, json!({"type":"said","by":"S","what":"good-luck"}));
    }
    north
        .send_text(r#"{"type":"say","what":"thank-you"}"#)
        .await;
    // The sender hears its own message too (the page's confirmation), then the answer.
    assert_eq!(next_of(&mut south, "said").await["by"], "S");
    assert_eq!(next_of(&mut south, "said").await["by"], "N");
    // Free text, watchers and games against the computer: refused.
    south
        .send_text(r#"{"type":"say","what":"<script>hi</script>"}"#)
        .await;
    assert_eq!(next_of(&mut south, "error").await["code"], "bad-message");
    watcher
        .send_text(r#"{"type":"say","what":"good-game"}"#)
        .await;
    assert_eq!(next_of(&mut watcher, "error").await["code"], "not-a-player");
    let (cpu, cpu_token, _) = create(addr, json!({"mode":"computer","level":1})).await;
    let mut human = Client::connect(addr, &cpu, Some(&cpu_token)).await;
    human
        .send_text(r#"{"type":"say","what":"good-luck"}"#)
        .await;
    assert_eq!(next_of(&mut human, "error").await["code"], "friends-only");
    for client in [south, north, watcher, human] {
        client.close().await;
    }
    server.stop().await;
}

#[tokio::test]
async fn a_player_may_abort_before_their_first_move_and_the_game_has_no_result() {
    let server = TestServer::start(quick_config()).await;
    let addr = server.addr;
    let (id, south_token, _) =
        create(addr, json!({"mode":"friend","side":"S","name":"Rosa"})).await;
    let (north_token, _) = join_friend(addr, &id).await;
    let mut south = Client::connect(addr, &id, Some(&south_token)).await;
    let mut north = Client::connect(addr, &id, Some(&north_token)).await;
    south.play("F").await;
    north.wait_for(|g| g["moves"] == "F").await;
    // South has moved: too late for South; North has not: North may.
    south.send_text(r#"{"type":"abort"}"#).await;
    assert_eq!(next_of(&mut south, "error").await["code"], "started");
    north.send_text(r#"{"type":"abort"}"#).await;
    south.wait_for(|g| !g["end"].is_null()).await;
    assert_eq!(south.game["end"]["reason"], "aborted", "{}", south.game);
    assert!(south.game["end"]["winner"].is_null());
    let text = record(addr, &id).await;
    assert!(text.contains("[Result \"*\"]"), "{text}");
    assert!(text.contains("[Termination \"aborted\"]"), "{text}");
    assert!(text.contains("[South \"Rosa\"]"), "{text}");
    // Nothing more can be played, and the game stays ended after a reload.
    assert_eq!(south.play("A").await["code"], "game-over");
    assert_eq!(view(addr, &id).await["end"]["reason"], "aborted");
    south.close().await;
    north.close().await;
    server.stop().await;
}

#[tokio::test]
async fn correspondence_games_give_each_move_its_days() {
    // A clock minute of 1 ms: a day is 1.44 s.
    let server = TestServer::start(oware_server::Config {
        clock_minute: std::time::Duration::from_millis(1),
        ..quick_config()
    })
    .await;
    let addr = server.addr;
    for bad in [
        json!({"mode":"friend","days":5}),
        json!({"mode":"friend","days":2,"clock":5}),
    ] {
        let (status, v) = post_json(addr, "/api/games", bad).await;
        assert_eq!(
            (status, v["error"]["code"].as_str()),
            (400, Some("bad-clock")),
            "{v}"
        );
    }
    let (id, south_token, _) = create(addr, json!({"mode":"friend","side":"S","days":2})).await;
    let (north_token, _) = join_friend(addr, &id).await;
    let mut south = Client::connect(addr, &id, Some(&south_token)).await;
    let mut north = Client::connect(addr, &id, Some(&north_token)).await;
    assert_eq!(south.game["clock"]["per_move"], true, "{}", south.game);
    let two_days = 2 * 1440;
    assert_eq!(south.game["clock"]["initial_ms"], two_days);
    south.play("F").await;
    north.wait_for(|g| g["moves"] == "F").await;
    // North takes a while; after the move its time is whole again for its next move.
    tokio::time::sleep(std::time::Duration::from_millis(600)).await;
    north.play("a").await;
    south.wait_for(|g| g["moves"] == "Fa").await;
    assert_eq!(
        south.game["clock"]["remaining_ms"][1], two_days,
        "{}",
        south.game
    );
    assert_eq!(south.game["clock"]["running"], "S");
    south.close().await;
    north.close().await;

    // A move not made in its days: the flag falls, as in any game with a clock.
    let (id, south_token, _) = create(addr, json!({"mode":"friend","side":"S","days":1})).await;
    join_friend(addr, &id).await;
    let mut south = Client::connect(addr, &id, Some(&south_token)).await;
    south.play("F").await;
    south.wait_for(|g| !g["end"].is_null()).await;
    assert_eq!(south.game["end"]["reason"], "time", "{}", south.game);
    assert_eq!(south.game["end"]["winner"], "S");
    south.close().await;
    server.stop().await;
}

#[tokio::test]
async fn new_invitations_share_the_games_write_rate() {
    let server = TestServer::start(oware_server::Config {
        moves_per_second: 1,
        ..quick_config()
    })
    .await;
    let (id, token, _) = create(server.addr, json!({"mode":"friend"})).await;
    let path = format!("/api/games/{id}/invitation");
    let mut codes = Vec::new();
    for _ in 0..5 {
        let (status, v) = post_json(server.addr, &path, json!({ "token": token })).await;
        codes.push((status, v["error"]["code"].as_str().map(str::to_string)));
    }
    // A burst of twice the rate passes; the rest is refused until the rate allows more.
    assert_eq!(codes[0], (200, None), "{codes:?}");
    assert!(
        codes.contains(&(429, Some("rate-limited".into()))),
        "{codes:?}"
    );
    server.stop().await;
}

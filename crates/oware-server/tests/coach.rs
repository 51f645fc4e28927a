//! The coach's API: every legal move explained in the language asked for, a game's review, the
//! catalogue served to the page, and bad requests refused with a reason.

mod common;

use common::{post_json, quick_config, TestServer};
use serde_json::json;

#[tokio::test]
async fn the_coach_explains_every_move_and_reviews_a_game() {
    let server = TestServer::start(quick_config()).await;
    // The seeds' example: South's F sows three and takes b and c.
    let (status, v) = post_json(
        server.addr,
        "/api/coach/explain",
        json!({"position": "4-4-4-4-4-3-4-1-2-4-4-4-3-3-S", "lang": "ca"}),
    )
    .await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["lang"], "ca");
    let moves = v["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 6);
    let f = moves.iter().find(|m| m["move"] == "F").unwrap();
    assert!(
        f["text"]
            .as_str()
            .unwrap()
            .starts_with("F sembra 3 llavors i captura b i c: 5 llavors."),
        "{f}"
    );
    assert_eq!(f["gain"], json!([7, 8]));
    // After the moves of a game, in French, with the threats on the board.
    let (status, v) = post_json(
        server.addr,
        "/api/coach/explain",
        json!({"position": "1-4-4-4-4-4-4-4-4-4-4-1-3-3-S", "moves": "", "lang": "fr"}),
    )
    .await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["threats"][0]["text"], "c de Nord prend A : 2 graines.");
    // A review: South's B leaves A to North.
    let (status, v) = post_json(
        server.addr,
        "/api/coach/review",
        json!({"position": "1-4-4-4-4-4-4-4-4-4-4-1-3-3-S", "moves": "Bc", "player": "S", "lang": "en"}),
    )
    .await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["mistakes"][0]["move"], "B", "{v}");
    assert!(v["mistakes"][0]["text"]
        .as_str()
        .unwrap()
        .starts_with("1. B gives away"));
    server.stop().await;
}

#[tokio::test]
async fn bad_coach_requests_get_a_reason() {
    let server = TestServer::start(quick_config()).await;
    for (body, says) in [
        (json!({"position": "9-9"}), "bad position"),
        (json!({"moves": "FF"}), "ply 2"),
        (json!({"moves": "Fz"}), "not a move"),
        (json!({"lang": "de"}), "unknown language"),
        (json!({"rules": "kalah"}), "unknown rule set"),
        (json!({"moves": "Ff".repeat(600)}), "more than"),
        (json!({"hostile": true}), "malformed request"),
    ] {
        let (status, v) = post_json(server.addr, "/api/coach/explain", body.clone()).await;
        assert_eq!(status, 400, "{body}: {v}");
        let message = v["error"]["message"].as_str().unwrap();
        assert!(message.contains(says), "{body}: {message}");
    }
    let (status, v) = post_json(server.addr, "/api/coach/review", json!({"player": "W"})).await;
    assert_eq!(status, 400, "{v}");
    // The catalogue and the script are served to the page.
    for name in ["coach.js", "coach-messages.json"] {
        let (status, body) =
            common::http(server.addr, "GET", &format!("/static/{name}"), None).await;
        assert_eq!(status, 200, "{name}");
        assert!(body.contains("coach"), "{name}");
    }
    server.stop().await;
}

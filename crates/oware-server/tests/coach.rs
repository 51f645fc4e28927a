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
    assert_eq!(
        v["threats"][0]["text"],
        "c de Nord prend A\u{a0}: 2 graines."
    );
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

/// Positions of a master game (the first of `/work/shared/data/master_games.suite`, Wikimanqala,
/// CC BY-SA 2.5) and of the seeds' example, as a start and the moves from it.
const POSITIONS: [(&str, &str); 5] = [
    ("4-4-4-4-4-3-4-1-2-4-4-4-3-3-S", ""),
    ("4-4-4-4-4-4-4-4-4-4-4-4-0-0-S", "F"),
    ("4-4-4-4-4-4-4-4-4-4-4-4-0-0-S", "FfBeBcDaAbCc"),
    ("4-4-4-4-4-4-4-4-4-4-4-4-0-0-S", "FfBeBcDaAbCcDbAcCaDcBeAb"),
    (
        "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S",
        "FfBeBcDaAbCcDbAcCaDcBeAbBcCdDfAeAfDb",
    ),
];

#[tokio::test]
async fn the_table_and_the_coach_tell_one_truth() {
    let server = TestServer::start(quick_config()).await;
    for (position, moves) in POSITIONS {
        let body = json!({"position": position, "moves": moves});
        let (status, table) = post_json(server.addr, "/api/evaluate", body.clone()).await;
        assert_eq!(status, 200, "{table}");
        let (status, coach) = post_json(server.addr, "/api/coach/explain", body.clone()).await;
        assert_eq!(status, 200, "{coach}");
        let rows = table["moves"].as_array().unwrap();
        let words = coach["moves"].as_array().unwrap();
        assert_eq!(rows.len(), words.len(), "{position} {moves}");
        assert_eq!(table["depth"], coach["depth"], "{position} {moves}");
        // The coach's best move is the table's best.
        assert_eq!(
            rows[0]["move"].as_str(),
            words[0]["move"].as_str(),
            "{position} {moves}"
        );
        let best = rows[0]["score"].as_f64().unwrap();
        for row in rows {
            let mv = row["move"].as_str().unwrap();
            let said = words.iter().find(|w| w["move"] == mv).unwrap();
            // Every "gives away" is the table's difference.
            let coach_loss = said["loss"].as_f64().unwrap() / 100.0;
            let table_loss = row["loss"].as_f64().unwrap();
            assert!(
                (coach_loss - table_loss).abs() <= 0.15,
                "{position} {moves} {mv}: coach {coach_loss}, table {table_loss}"
            );
            if row["end_in"].is_null() && rows[0]["end_in"].is_null() {
                let difference = best - row["score"].as_f64().unwrap();
                assert!(
                    (coach_loss - difference).abs() <= 0.15,
                    "{position} {moves} {mv}: coach {coach_loss}, table difference {difference}"
                );
            }
            assert_eq!(said["best"].as_str(), rows[0]["move"].as_str());
        }
        // Asked again, the position shows the same numbers.
        let (_, again) = post_json(server.addr, "/api/evaluate", body).await;
        assert_eq!(again, table, "{position} {moves}");
    }
    // The review judges each move by the same analyses.
    let (start, moves) = POSITIONS[4];
    let (status, review) = post_json(
        server.addr,
        "/api/coach/review",
        json!({"position": start, "moves": moves}),
    )
    .await;
    assert_eq!(status, 200, "{review}");
    let judged = review["moves"].as_array().unwrap();
    assert_eq!(judged.len(), moves.len());
    assert_eq!(
        review["evaluation"].as_array().unwrap().len(),
        moves.len() + 1
    );
    for (ply, prefix) in [
        (1, "F"),
        (12, "FfBeBcDaAbCc"),
        (24, "FfBeBcDaAbCcDbAcCaDcBeAb"),
    ] {
        let (_, table) = post_json(
            server.addr,
            "/api/evaluate",
            json!({"position": start, "moves": prefix}),
        )
        .await;
        let played = &moves[ply..=ply];
        let row = table["moves"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["move"] == played)
            .unwrap()
            .clone();
        let loss = judged[ply]["loss"].as_f64().unwrap() / 100.0;
        assert!(
            (loss - row["loss"].as_f64().unwrap()).abs() <= 0.15,
            "ply {ply}: review {loss}, table {row}"
        );
        assert_eq!(judged[ply]["best"], table["moves"][0]["move"], "ply {ply}");
    }
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
    // Each refusal has a code the page has words for in every language.
    assert_eq!(v["error"]["code"], "bad-player", "{v}");
    for (body, code) in [
        (json!({"position": "9-9"}), "bad-position"),
        (json!({"moves": "FF"}), "illegal-move"),
        (json!({"lang": "de"}), "bad-language"),
        (json!({"moves": "Ff".repeat(600)}), "too-many-moves"),
    ] {
        let (_, v) = post_json(server.addr, "/api/coach/explain", body.clone()).await;
        assert_eq!(v["error"]["code"], code, "{body}: {v}");
    }
    // The catalogue and the script are served to the page.
    for name in ["lib/coach.js", "coach-messages.json"] {
        let (status, body) =
            common::http(server.addr, "GET", &format!("/static/{name}"), None).await;
        assert_eq!(status, 200, "{name}");
        assert!(body.contains("coach"), "{name}");
    }
    server.stop().await;
}

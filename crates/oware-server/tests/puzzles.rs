//! The puzzle page's API: the puzzles of a theme with the coach's words on every legal move, in the
//! language asked for, the page and its script served, and bad requests refused with a reason.

mod common;

use common::{http, quick_config, TestServer};
use serde_json::Value;

async fn get_json(addr: std::net::SocketAddr, path: &str) -> (u16, Value) {
    let (status, text) = http(addr, "GET", path, None).await;
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

#[tokio::test]
async fn puzzles_of_a_theme_come_with_the_coachs_answers() {
    let server = TestServer::start(quick_config()).await;
    let (status, all) = get_json(server.addr, "/api/puzzles").await;
    assert_eq!(status, 200, "{all}");
    let total = all["puzzles"].as_array().unwrap().len();
    assert!(total >= 200, "{total} puzzles");
    let counted: u64 = all["themes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["count"].as_u64().unwrap())
        .sum();
    assert_eq!(counted, total as u64);
    // Every puzzle says what it asks, as the set does.
    let goals: Vec<&str> = all["puzzles"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["goal"].as_str().unwrap_or_else(|| panic!("no goal: {p}")))
        .collect();
    let expected: Vec<&str> = oware_coach::puzzle::all()
        .iter()
        .map(|p| p.goal.code())
        .collect();
    assert_eq!(goals, expected);
    assert!(
        goals.contains(&"win") && goals.contains(&"gain"),
        "{goals:?}"
    );

    let (status, v) = get_json(server.addr, "/api/puzzles?theme=capture&lang=fr").await;
    assert_eq!(status, 200, "{v}");
    let puzzles = v["puzzles"].as_array().unwrap();
    assert!(!puzzles.is_empty() && puzzles.len() < total);
    for p in puzzles {
        assert_eq!(p["theme"], "capture");
        assert_eq!(p["themeName"], "Prise");
        let answers = p["answers"].as_object().unwrap();
        let right: Vec<&String> = answers
            .iter()
            .filter(|(_, a)| a["right"] == true)
            .map(|(m, _)| m)
            .collect();
        assert_eq!(right, vec![p["solution"].as_str().unwrap()], "{p}");
        let solution = &answers[p["solution"].as_str().unwrap()];
        assert!(
            solution["text"]
                .as_str()
                .unwrap()
                .starts_with("Bravo\u{a0}!"),
            "{p}"
        );
        assert!(p["hint"].as_str().unwrap().starts_with("Comptez"), "{p}");
        assert_ne!(p["after"], p["position"]);
    }
    server.stop().await;
}

#[tokio::test]
async fn the_puzzle_page_is_served_and_bad_requests_say_why() {
    let server = TestServer::start(quick_config()).await;
    for (path, code, says) in [
        ("/api/puzzles?theme=fork", "bad-theme", "unknown theme"),
        ("/api/puzzles?lang=de", "bad-lang", "unknown language"),
        ("/api/puzzles?colour=red", "bad-request", "colour"),
    ] {
        let (status, v) = get_json(server.addr, path).await;
        assert_eq!(status, 400, "{path}: {v}");
        assert_eq!(v["error"]["code"], code, "{path}: {v}");
        let message = v["error"]["message"].as_str().unwrap();
        assert!(message.contains(says), "{path}: {message}");
    }
    let (status, page) = http(server.addr, "GET", "/puzzles", None).await;
    assert_eq!(status, 200);
    assert!(page.contains("/static/app.js"), "{page}");
    let (status, app) = http(server.addr, "GET", "/static/app.js", None).await;
    assert_eq!(status, 200);
    assert!(app.contains("'./pages/puzzles.js'"), "{app}");
    let (status, script) = http(server.addr, "GET", "/static/pages/puzzles.js", None).await;
    assert_eq!(status, 200);
    assert!(script.contains("function puzzlePage"));
    server.stop().await;
}

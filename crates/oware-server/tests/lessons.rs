//! The Learn page's API: every lesson with its steps, the words in the language asked for, and the
//! coach's answer to every legal move of each step; bad requests refused with a reason.

mod common;

use common::{http, quick_config, TestServer};
use serde_json::Value;

async fn get_json(addr: std::net::SocketAddr, path: &str) -> (u16, Value) {
    let (status, text) = http(addr, "GET", path, None).await;
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

#[tokio::test]
async fn lessons_come_with_their_steps_and_the_coachs_answers() {
    let server = TestServer::start(quick_config()).await;
    let (status, v) = get_json(server.addr, "/api/lessons?lang=ca").await;
    assert_eq!(status, 200, "{v}");
    let lessons = v["lessons"].as_array().unwrap();
    let themes: Vec<&str> = lessons
        .iter()
        .map(|l| l["theme"].as_str().unwrap())
        .collect();
    for theme in [
        "capture",
        "kroo",
        "double-attack",
        "tempo",
        "feeding",
        "grand-slam",
    ] {
        assert!(themes.contains(&theme), "{themes:?}");
    }
    let first = &lessons[0];
    assert_eq!(first["id"], "capture-chains");
    assert_eq!(first["title"], "Captures i cadenes");
    assert_eq!(first["rules"], "abapa");
    for lesson in lessons {
        let steps = lesson["steps"].as_array().unwrap();
        assert!(steps.len() >= 2, "{lesson}");
        for step in steps {
            let moves: Vec<&str> = step["moves"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| m.as_str().unwrap())
                .collect();
            let answers = step["answers"].as_object().unwrap();
            // Exactly the step's moves are right, and every answer has words.
            let right: Vec<&str> = answers
                .iter()
                .filter(|(_, a)| a["right"] == true)
                .map(|(m, _)| m.as_str())
                .collect();
            assert_eq!(right, moves, "{step}");
            assert!(answers.len() > 1, "{step}");
            for answer in answers.values() {
                assert!(!answer["text"].as_str().unwrap().is_empty(), "{step}");
                // A right answer comes with the position after it, for the board to sow.
                assert_eq!(
                    answer["after"].is_string(),
                    answer["right"] == true,
                    "{step}"
                );
            }
            assert!(step["text"].as_str().unwrap().len() > 20, "{step}");
            assert!(step["position"]
                .as_str()
                .unwrap()
                .parse::<oware_rules::Position>()
                .is_ok());
        }
    }
    let wrong = &lessons[0]["steps"][0]["answers"]["A"];
    assert!(
        wrong["text"]
            .as_str()
            .unwrap()
            .starts_with("A no és la bona."),
        "{wrong}"
    );
    let (_, english) = get_json(server.addr, "/api/lessons").await;
    assert_eq!(english["lessons"][0]["title"], "Captures and chains");
    server.stop().await;
}

#[tokio::test]
async fn the_learn_page_is_served_and_bad_requests_say_why() {
    let server = TestServer::start(quick_config()).await;
    for (path, code, says) in [
        ("/api/lessons?lang=de", "bad-lang", "unknown language"),
        ("/api/lessons?level=3", "bad-request", "level"),
    ] {
        let (status, v) = get_json(server.addr, path).await;
        assert_eq!(status, 400, "{path}: {v}");
        assert_eq!(v["error"]["code"], code, "{path}: {v}");
        let message = v["error"]["message"].as_str().unwrap();
        assert!(message.contains(says), "{path}: {message}");
    }
    let (status, page) = http(server.addr, "GET", "/learn", None).await;
    assert_eq!(status, 200);
    assert!(page.contains("id=\"app\""), "{page}");
    server.stop().await;
}

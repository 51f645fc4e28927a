//! Web Push from the browser's side: a player subscribes, the server tells them of their friend's
//! move, offers and the end while their page is closed, through a push service on the loopback
//! (`push_allow_http`), and the browser decrypts what arrives. The push service here is the test's
//! own: it records every request and answers what each endpoint is set to answer.

mod common;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use aes_gcm::aead::{Aead, KeyInit};
use aes_gcm::{Aes128Gcm, Nonce};
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use common::*;
use hkdf::Hkdf;
use p256::ecdsa::signature::Verifier;
use p256::ecdsa::{Signature, VerifyingKey};
use p256::elliptic_curve::sec1::ToEncodedPoint;
use p256::{PublicKey, SecretKey};
use serde_json::{json, Value};
use sha2::Sha256;

/// A browser that subscribed: its own key pair and auth secret. Its decryption follows RFC 8291
/// from the receiving end, written apart from the server's encryption so that each checks the
/// other.
struct Browser {
    secret: SecretKey,
    auth: [u8; 16],
}

impl Browser {
    fn new(seed: u8) -> Browser {
        let mut bytes = [seed; 32];
        bytes[0] = 1;
        Browser {
            secret: SecretKey::from_slice(&bytes).unwrap(),
            auth: [seed; 16],
        }
    }

    fn subscription(&self, endpoint: &str) -> Value {
        let public = self.secret.public_key().to_encoded_point(false);
        json!({
            "endpoint": endpoint,
            "expirationTime": null,
            "keys": {
                "p256dh": URL_SAFE_NO_PAD.encode(public.as_bytes()),
                "auth": URL_SAFE_NO_PAD.encode(self.auth),
            }
        })
    }

    fn decrypt(&self, body: &[u8]) -> Option<Value> {
        let salt = body.get(..16)?;
        let record_size = u32::from_be_bytes(body.get(16..20)?.try_into().ok()?);
        let id_len = usize::from(*body.get(20)?);
        let sender = body.get(21..21 + id_len)?;
        let sealed = body.get(21 + id_len..)?;
        if sealed.len() > record_size as usize {
            return None;
        }
        let sender_key = PublicKey::from_sec1_bytes(sender).ok()?;
        let shared =
            p256::ecdh::diffie_hellman(self.secret.to_nonzero_scalar(), sender_key.as_affine());
        let own = self.secret.public_key().to_encoded_point(false);
        let mut info = b"WebPush: info\0".to_vec();
        info.extend_from_slice(own.as_bytes());
        info.extend_from_slice(sender);
        let mut ikm = [0u8; 32];
        Hkdf::<Sha256>::new(Some(&self.auth), shared.raw_secret_bytes())
            .expand(&info, &mut ikm)
            .ok()?;
        let prk = Hkdf::<Sha256>::new(Some(salt), &ikm);
        let (mut cek, mut nonce) = ([0u8; 16], [0u8; 12]);
        prk.expand(b"Content-Encoding: aes128gcm\0", &mut cek)
            .ok()?;
        prk.expand(b"Content-Encoding: nonce\0", &mut nonce).ok()?;
        let mut record = Aes128Gcm::new_from_slice(&cek)
            .ok()?
            .decrypt(Nonce::from_slice(&nonce), sealed)
            .ok()?;
        while record.last() == Some(&0) {
            record.pop();
        }
        if record.pop() != Some(2) {
            return None;
        }
        serde_json::from_slice(&record).ok()
    }
}

/// One request the push service received.
#[derive(Clone)]
struct Received {
    name: String,
    headers: HeaderMap,
    body: Vec<u8>,
    at: Instant,
}

#[derive(Clone, Default)]
struct PushService {
    received: Arc<Mutex<Vec<Received>>>,
    /// What each endpoint answers, in turn; 201 once the list is used up.
    answers: Arc<Mutex<HashMap<String, Vec<u16>>>>,
}

impl PushService {
    async fn start() -> (PushService, String) {
        let service = PushService::default();
        let app = axum::Router::new()
            .route("/push/{name}", axum::routing::post(receive))
            .with_state(service.clone());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
        (service, base)
    }

    fn answer(&self, name: &str, statuses: &[u16]) {
        self.answers
            .lock()
            .unwrap()
            .insert(name.to_string(), statuses.to_vec());
    }

    fn to(&self, name: &str) -> Vec<Received> {
        let all = self.received.lock().unwrap();
        all.iter().filter(|r| r.name == name).cloned().collect()
    }

    /// Waits until `name` has received `count` requests.
    async fn wait_for(&self, name: &str, count: usize) -> Vec<Received> {
        for _ in 0..200 {
            let got = self.to(name);
            if got.len() >= count {
                return got;
            }
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
        panic!("{name}: {} requests, not {count}", self.to(name).len());
    }
}

async fn receive(
    State(service): State<PushService>,
    Path(name): Path<String>,
    headers: HeaderMap,
    body: axum::body::Bytes,
) -> StatusCode {
    service.received.lock().unwrap().push(Received {
        name: name.clone(),
        headers,
        body: body.to_vec(),
        at: Instant::now(),
    });
    if name == "slow" {
        tokio::time::sleep(Duration::from_secs(30)).await;
    }
    let status = {
        let mut answers = service.answers.lock().unwrap();
        match answers.get_mut(&name) {
            Some(list) if !list.is_empty() => list.remove(0),
            _ => 201,
        }
    };
    StatusCode::from_u16(status).unwrap()
}

fn push_config() -> oware_server::Config {
    oware_server::Config {
        push_allow_http: true,
        push_contact: Some("mailto:family@example.org".to_string()),
        ..quick_config()
    }
}

async fn subscribe(
    addr: std::net::SocketAddr,
    id: &str,
    token: Option<&str>,
    subscription: Value,
) -> (u16, Value) {
    let mut body = json!({ "subscription": subscription, "lang": "fr" });
    if let Some(token) = token {
        body["token"] = json!(token);
    }
    post_json(addr, &format!("/api/games/{id}/push"), body).await
}

/// Checks the request's headers and VAPID signature, and opens its message.
fn open(received: &Received, browser: &Browser, key: &str, push_base: &str) -> Value {
    let header = |name: &str| received.headers[name].to_str().unwrap().to_string();
    assert_eq!(header("content-encoding"), "aes128gcm");
    assert_eq!(header("ttl"), "86400");
    let auth = header("authorization");
    let (jwt, k) = auth
        .strip_prefix("vapid t=")
        .and_then(|rest| rest.split_once(", k="))
        .expect("vapid t=..., k=...");
    assert_eq!(k, key);
    let (signed, signature) = jwt.rsplit_once('.').unwrap();
    let verifier = VerifyingKey::from_sec1_bytes(&URL_SAFE_NO_PAD.decode(k).unwrap()).unwrap();
    let signature = Signature::from_slice(&URL_SAFE_NO_PAD.decode(signature).unwrap()).unwrap();
    verifier
        .verify(signed.as_bytes(), &signature)
        .expect("signed by the server's key");
    let claims: Value = serde_json::from_slice(
        &URL_SAFE_NO_PAD
            .decode(signed.split_once('.').unwrap().1)
            .unwrap(),
    )
    .unwrap();
    assert_eq!(claims["aud"], push_base);
    assert_eq!(claims["sub"], "mailto:family@example.org");
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs();
    let exp = claims["exp"].as_u64().unwrap();
    assert!(exp > now && exp <= now + 24 * 3600, "exp {exp}, now {now}");
    browser.decrypt(&received.body).expect("the message opens")
}

#[tokio::test]
async fn a_player_whose_page_is_closed_is_told_of_the_move_the_offer_and_the_end() {
    let (service, push_base) = PushService::start().await;
    let server = TestServer::start(push_config()).await;
    let (status, key) = get(server.addr, "/api/push/key").await;
    assert_eq!(status, 200);
    let key = key["key"].as_str().unwrap().to_string();
    assert_eq!(URL_SAFE_NO_PAD.decode(&key).unwrap().len(), 65);

    let (id, south_token, _) = create(server.addr, json!({"mode":"friend","side":"S"})).await;
    let (north_token, _) = join_friend(server.addr, &id).await;
    let north = Browser::new(7);
    let (status, v) = subscribe(
        server.addr,
        &id,
        Some(&north_token),
        north.subscription(&format!("{push_base}/push/north")),
    )
    .await;
    assert_eq!(status, 204, "{v}");
    // A second browser of North's that its push service has since forgotten.
    service.answer("forgotten", &[410]);
    let old_phone = Browser::new(8);
    let (status, _) = subscribe(
        server.addr,
        &id,
        Some(&north_token),
        old_phone.subscription(&format!("{push_base}/push/forgotten")),
    )
    .await;
    assert_eq!(status, 204);

    // South moves while North's page is closed: North is told, in French, with no token.
    let mut south = Client::connect(server.addr, &id, Some(&south_token)).await;
    south.play("F").await;
    let got = service.wait_for("north", 1).await;
    let message = open(&got[0], &north, &key, &push_base);
    assert_eq!(got[0].headers["urgency"], "high");
    assert_eq!(message["game"], id.as_str());
    assert_eq!(message["path"], format!("/game/{id}"));
    let body = message["body"].as_str().unwrap();
    assert!(
        body.contains("F") && body.contains("à vous de jouer"),
        "{body}"
    );
    let text = message.to_string();
    assert!(!text.contains(&south_token) && !text.contains(&north_token));
    // The forgotten browser was tried once, answered 410, and is gone.
    service.wait_for("forgotten", 1).await;

    // North opens the page: told nothing while it is open.
    let mut north_page = Client::connect(server.addr, &id, Some(&north_token)).await;
    north_page.wait_for(|g| g["moves"] == "F").await;
    south
        .send_text(&json!({"type":"say","what":"good-luck"}).to_string())
        .await;
    north_page.next().await;
    north_page.play("f").await;
    north_page.close().await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert_eq!(
        service.to("north").len(),
        1,
        "nothing while North's page was open"
    );

    // Closed again: South offers a draw, then resigns.
    south.wait_for(|g| g["moves"] == "Ff").await;
    south
        .send_text(&json!({"type":"offer","what":"draw"}).to_string())
        .await;
    let got = service.wait_for("north", 2).await;
    let offer = open(&got[1], &north, &key, &push_base);
    assert!(offer["body"].as_str().unwrap().contains("nulle"), "{offer}");
    south.send_text(&json!({"type":"resign"}).to_string()).await;
    let got = service.wait_for("north", 3).await;
    let ended = open(&got[2], &north, &key, &push_base);
    assert!(ended["body"].as_str().unwrap().contains("gagné"), "{ended}");
    assert_eq!(
        service.to("forgotten").len(),
        1,
        "a gone browser is not tried again"
    );
    south.close().await;
    server.stop().await;
}

#[tokio::test]
async fn a_busy_push_service_is_tried_again_and_a_dead_one_never_holds_a_move() {
    let (service, push_base) = PushService::start().await;
    let server = TestServer::start(push_config()).await;
    let (id, south_token, _) = create(server.addr, json!({"mode":"friend","side":"S"})).await;
    let (north_token, _) = join_friend(server.addr, &id).await;
    service.answer("busy", &[503, 429]);
    for name in ["busy", "slow"] {
        let (status, _) = subscribe(
            server.addr,
            &id,
            Some(&north_token),
            Browser::new(9).subscription(&format!("{push_base}/push/{name}")),
        )
        .await;
        assert_eq!(status, 204);
    }
    let mut south = Client::connect(server.addr, &id, Some(&south_token)).await;
    let asked = Instant::now();
    south.play("F").await;
    assert!(
        asked.elapsed() < Duration::from_secs(2),
        "a push service that does not answer must not hold the move ({:?})",
        asked.elapsed()
    );
    // 503, then 429, then delivered: three tries, further apart each time.
    let tries = service.wait_for("busy", 3).await;
    let gaps: Vec<Duration> = tries.windows(2).map(|w| w[1].at - w[0].at).collect();
    assert!(gaps[0] >= Duration::from_millis(900), "{gaps:?}");
    assert!(gaps[1] >= gaps[0], "{gaps:?}");
    south.close().await;
    server.stop().await;
}

#[tokio::test]
async fn only_a_seated_player_subscribes_and_only_to_a_real_push_service() {
    let (_service, push_base) = PushService::start().await;
    let server = TestServer::start(quick_config()).await;
    let (id, south_token, _) = create(server.addr, json!({"mode":"friend","side":"S"})).await;
    let browser = Browser::new(3);
    let good = browser.subscription("https://push.example.net/abc");
    // No seat: refused.
    let (status, v) = subscribe(server.addr, &id, None, good.clone()).await;
    assert_eq!(
        (status, v["error"]["code"].as_str()),
        (403, Some("not-a-player"))
    );
    let (status, _) = subscribe(server.addr, &id, Some("0123456789abcdef0123"), good.clone()).await;
    assert_eq!(status, 403);
    // Plain HTTP is for tests that allow it; this server does not.
    let plain = browser.subscription(&format!("{push_base}/push/x"));
    let (status, v) = subscribe(server.addr, &id, Some(&south_token), plain).await;
    assert_eq!(
        (status, v["error"]["code"].as_str()),
        (400, Some("bad-subscription"))
    );
    let mut bad_key = good.clone();
    bad_key["keys"]["p256dh"] = json!("AAAA");
    let (status, v) = subscribe(server.addr, &id, Some(&south_token), bad_key).await;
    assert_eq!(
        (status, v["error"]["code"].as_str()),
        (400, Some("bad-subscription"))
    );
    let (status, _) = subscribe(server.addr, &id, Some(&south_token), good).await;
    assert_eq!(status, 204);
    let (status, _) = http(
        server.addr,
        "DELETE",
        &format!("/api/games/{id}/push"),
        Some(&json!({ "token": south_token }).to_string()),
    )
    .await;
    assert_eq!(status, 204);
    server.stop().await;
}

#[tokio::test]
async fn the_push_key_is_the_same_after_a_restart() {
    let dir = temp_dir("push-key");
    let config = || oware_server::Config {
        data: Some(dir.join("games.sqlite")),
        ..quick_config()
    };
    let server = TestServer::start(config()).await;
    let (_, first) = get(server.addr, "/api/push/key").await;
    server.stop().await;
    let server = TestServer::start(config()).await;
    let (_, again) = get(server.addr, "/api/push/key").await;
    server.stop().await;
    assert_eq!(first, again);
    assert!(first["key"].as_str().is_some_and(|k| k.len() > 80));
}

async fn get(addr: std::net::SocketAddr, path: &str) -> (u16, Value) {
    let (status, text) = http(addr, "GET", path, None).await;
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

//! What makes the app installable, against a real server: the manifest (its icons served as the
//! PNGs it says, in the reader's language) and the service worker (JavaScript, never cached by
//! the browser, keeping every file of the app).

mod common;

use std::net::SocketAddr;
use std::path::{Path, PathBuf};

use common::*;
use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// One GET with `extra` header lines: the status, the header block in lower case, and the body's
/// bytes (the binary files come with a length, never chunked).
async fn get_bytes(addr: SocketAddr, path: &str, extra: &str) -> (u16, String, Vec<u8>) {
    let mut stream = TcpStream::connect(addr).await.unwrap();
    let request =
        format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n{extra}\r\n");
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut response = Vec::new();
    stream.read_to_end(&mut response).await.unwrap();
    let end = response
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("a header block");
    let head = String::from_utf8_lossy(&response[..end]).to_ascii_lowercase();
    let status = head[9..12].parse().unwrap();
    assert!(
        !head.contains("transfer-encoding: chunked"),
        "{path} is sent whole"
    );
    (status, head, response[end + 4..].to_vec())
}

fn header<'a>(head: &'a str, name: &str) -> Option<&'a str> {
    head.lines()
        .find_map(|l| l.strip_prefix(&format!("{name}:")))
        .map(str::trim)
}

/// A PNG's width and height, from its IHDR chunk.
fn png_size(bytes: &[u8]) -> (u32, u32) {
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n", "a PNG signature");
    assert_eq!(&bytes[12..16], b"IHDR");
    let word = |i: usize| u32::from_be_bytes(bytes[i..i + 4].try_into().unwrap());
    (word(16), word(20))
}

#[tokio::test]
async fn the_manifest_names_icons_served_as_the_pngs_it_says() {
    let server = TestServer::start(quick_config()).await;
    let (status, head, body) = get_bytes(server.addr, "/manifest.webmanifest", "").await;
    assert_eq!(status, 200);
    assert_eq!(
        header(&head, "content-type"),
        Some("application/manifest+json")
    );
    let manifest: Value = serde_json::from_slice(&body).expect("the manifest is JSON");
    for field in [
        "name",
        "short_name",
        "description",
        "theme_color",
        "background_color",
    ] {
        assert!(
            manifest[field].as_str().is_some_and(|s| !s.is_empty()),
            "{field}"
        );
    }
    assert_eq!(manifest["start_url"], "/");
    assert_eq!(manifest["scope"], "/");
    assert_eq!(manifest["display"], "standalone");
    assert_eq!(
        manifest["lang"], "en",
        "English when the request names no language"
    );
    let icons = manifest["icons"].as_array().unwrap();
    let mut seen = Vec::new();
    for icon in icons {
        let src = icon["src"].as_str().unwrap();
        let (status, head, png) = get_bytes(server.addr, src, "").await;
        assert_eq!(status, 200, "{src}");
        assert_eq!(header(&head, "content-type"), Some("image/png"), "{src}");
        assert_eq!(icon["type"], "image/png");
        let (w, h) = png_size(&png);
        assert_eq!(
            icon["sizes"],
            format!("{w}x{h}"),
            "{src} is as large as it says"
        );
        seen.push((w, icon["purpose"].as_str().unwrap_or("any").to_string()));
    }
    for wanted in [(192, "any"), (512, "any"), (512, "maskable")] {
        assert!(
            seen.iter().any(|(w, p)| *w == wanted.0 && p == wanted.1),
            "an icon {wanted:?} in {seen:?}"
        );
    }
    server.stop().await;
}

#[tokio::test]
async fn the_manifest_follows_accept_language() {
    let server = TestServer::start(quick_config()).await;
    let mut descriptions = Vec::new();
    for (accept, lang) in [
        ("ca-ES,ca;q=0.9", "ca"),
        ("es-419", "es"),
        ("de-DE, fr;q=0.7, en;q=0.5", "fr"),
        ("en-GB", "en"),
        ("de", "en"),
    ] {
        let (status, head, body) = get_bytes(
            server.addr,
            "/manifest.webmanifest",
            &format!("Accept-Language: {accept}\r\n"),
        )
        .await;
        assert_eq!(status, 200);
        assert!(header(&head, "vary").is_some_and(|v| v.contains("accept-language")));
        let manifest: Value = serde_json::from_slice(&body).unwrap();
        assert_eq!(manifest["lang"], lang, "{accept}");
        descriptions.push(manifest["description"].as_str().unwrap().to_string());
    }
    // Four languages, four descriptions (the last two are both English).
    descriptions.dedup();
    assert_eq!(descriptions.len(), 4, "{descriptions:?}");
    server.stop().await;
}

/// Every file under `dir`, as paths relative to `root`.
fn files_under(root: &Path, dir: &Path, out: &mut Vec<String>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files_under(root, &path, out);
        } else {
            let relative = path.strip_prefix(root).unwrap().to_string_lossy();
            out.push(relative.replace('\\', "/"));
        }
    }
}

/// The list of paths the service worker keeps: its `const SHELL = [...]` line.
fn shell_of(script: &str) -> Vec<String> {
    let line = script
        .lines()
        .find_map(|l| l.strip_prefix("const SHELL = "))
        .expect("a SHELL line");
    serde_json::from_str(line.trim_end_matches(';')).expect("SHELL is a JSON list")
}

#[tokio::test]
async fn the_service_worker_keeps_every_file_of_the_app() {
    let server = TestServer::start(quick_config()).await;
    let (status, head, body) = get_bytes(server.addr, "/sw.js", "").await;
    assert_eq!(status, 200);
    assert_eq!(
        header(&head, "content-type"),
        Some("text/javascript; charset=utf-8")
    );
    assert_eq!(header(&head, "cache-control"), Some("no-cache"));
    let script = String::from_utf8(body).unwrap();
    let version = script
        .lines()
        .next()
        .and_then(|l| l.strip_prefix("const VERSION = \""))
        .and_then(|l| l.strip_suffix("\";"))
        .expect("the first line names the version");
    assert!(version.len() >= 16 && version.chars().all(|c| c.is_ascii_hexdigit()));
    assert!(script.contains("addEventListener('push'"));
    let shell = shell_of(&script);
    assert!(shell.contains(&"/".to_string()));
    assert!(shell.contains(&"/manifest.webmanifest".to_string()));
    // Every file of web/ (but the page itself, served at every page's address, and the worker)
    // is kept: a file the app loads cannot be left out of the offline copy, nor out of the
    // server's list of assets.
    let web: PathBuf = [env!("CARGO_MANIFEST_DIR"), "..", "..", "web"]
        .iter()
        .collect();
    let mut files = Vec::new();
    files_under(&web, &web, &mut files);
    files.retain(|f| f != "index.html" && f != "sw.js");
    assert!(files.len() > 20, "{files:?}");
    for file in &files {
        assert!(
            shell.contains(&format!("/static/{file}")),
            "sw.js keeps {file}"
        );
    }
    // And everything it keeps is there to keep.
    for path in &shell {
        let (status, _, _) = get_bytes(server.addr, path, "").await;
        assert_eq!(status, 200, "{path}");
    }
    // The same version, asked twice: the browser sees no new worker until the app changes.
    let (_, _, again) = get_bytes(server.addr, "/sw.js", "").await;
    assert_eq!(String::from_utf8(again).unwrap(), script);
    server.stop().await;
}

#[tokio::test]
async fn the_page_links_the_manifest() {
    let server = TestServer::start(quick_config()).await;
    let (status, body) = http(server.addr, "GET", "/", None).await;
    assert_eq!(status, 200);
    assert!(body.contains(r#"<link rel="manifest" href="/manifest.webmanifest">"#));
    server.stop().await;
}

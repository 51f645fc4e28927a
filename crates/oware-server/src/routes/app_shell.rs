//! What makes the app installable: the web app manifest (in the reader's language) and the
//! service worker, which keeps the app's files for offline use and shows Web Push notifications.
//!
//! The service worker is served with two lines the server writes before `web/sw.js`: the app's
//! version, a hash of everything embedded (so every change of the app names a new cache, and the
//! browser, which compares the worker byte for byte, installs it), and the list of the files it
//! keeps, taken from [`assets::FILES`] (so no file can be left out of the offline copy).

use std::sync::OnceLock;

use axum::http::{header, HeaderMap};
use axum::response::{IntoResponse, Response};
use serde_json::{json, Value};
use sha2::{Digest, Sha256};

use oware_coach::Lang;

use crate::assets;
use crate::edge::security::request_language;

/// The header's wood (style.css's `--wood-dark`): the window's title bar when installed.
const THEME_COLOR: &str = "#5a3716";
/// The page's background (style.css's `--bg`): the splash screen while the app starts.
const BACKGROUND_COLOR: &str = "#f6f1e7";

/// The manifest's address, linked from the page and kept by the service worker.
pub(super) const MANIFEST_PATH: &str = "/manifest.webmanifest";

/// The web app manifest in `lang`.
fn manifest(lang: Lang) -> Value {
    let description = match lang {
        Lang::Ca => "Juga a l’aualé amb un amic o contra l’ordinador, resol problemes i aprèn el joc.",
        Lang::Es => "Juega al oware con un amigo o contra el ordenador, resuelve problemas y aprende el juego.",
        Lang::En => "Play oware with a friend or against the computer, solve puzzles and learn the game.",
        Lang::Fr => "Jouez à l’awalé avec un ami ou contre l’ordinateur, résolvez des problèmes et apprenez le jeu.",
    };
    let icon = |file: &str, size: u32, purpose: &str| {
        json!({
            "src": format!("/static/icons/{file}"),
            "sizes": format!("{size}x{size}"),
            "type": "image/png",
            "purpose": purpose,
        })
    };
    json!({
        "id": "/",
        "name": "Oware",
        "short_name": "Oware",
        "description": description,
        "lang": lang.code(),
        "dir": "ltr",
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "theme_color": THEME_COLOR,
        "background_color": BACKGROUND_COLOR,
        "categories": ["games"],
        "icons": [
            icon("icon-192.png", 192, "any"),
            icon("icon-512.png", 512, "any"),
            icon("icon-maskable-512.png", 512, "maskable"),
        ],
    })
}

/// `GET /manifest.webmanifest`: in the language the browser asks for (it varies by it).
pub(super) async fn web_manifest(headers: HeaderMap) -> Response {
    let body = manifest(request_language(&headers)).to_string();
    (
        [
            (header::CONTENT_TYPE, "application/manifest+json"),
            (header::CACHE_CONTROL, "no-cache"),
            (header::VARY, "Accept-Language"),
        ],
        body,
    )
        .into_response()
}

/// A short hash of `parts` (each one's length goes in too, so that moving bytes from one part to
/// the next changes it).
fn version_of<'a>(parts: impl IntoIterator<Item = &'a [u8]>) -> String {
    let mut hash = Sha256::new();
    for part in parts {
        hash.update((part.len() as u64).to_be_bytes());
        hash.update(part);
    }
    hash.finalize()[..8]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The app's version: a hash of the server's version, the page, the service worker, every static
/// file (its name and bytes) and the manifest in every language.
pub(crate) fn app_version() -> &'static str {
    static VERSION: OnceLock<String> = OnceLock::new();
    VERSION.get_or_init(|| {
        let manifests: Vec<String> = [Lang::Ca, Lang::Es, Lang::En, Lang::Fr]
            .into_iter()
            .map(|l| manifest(l).to_string())
            .collect();
        let mut parts: Vec<&[u8]> = vec![
            env!("CARGO_PKG_VERSION").as_bytes(),
            assets::INDEX.bytes,
            assets::SERVICE_WORKER.bytes,
        ];
        for (name, asset) in assets::FILES {
            parts.push(name.as_bytes());
            parts.push(asset.bytes);
        }
        parts.extend(manifests.iter().map(|m| m.as_bytes()));
        version_of(parts)
    })
}

/// The paths the service worker keeps for offline use: the page, the manifest and every static
/// file.
fn shell_paths() -> Vec<String> {
    let mut paths = vec!["/".to_string(), MANIFEST_PATH.to_string()];
    paths.extend(
        assets::FILES
            .iter()
            .map(|(name, _)| format!("/static/{name}")),
    );
    paths
}

/// `GET /sw.js`: the service worker, after its version and its list of files. `no-cache`: the
/// browser asks again on every check for an update, and a new version is found at the next load.
pub(super) async fn service_worker() -> Response {
    static BODY: OnceLock<Vec<u8>> = OnceLock::new();
    let body = BODY.get_or_init(|| {
        let mut body = format!(
            "const VERSION = {};\nconst SHELL = {};\n",
            json!(app_version()),
            json!(shell_paths())
        )
        .into_bytes();
        body.extend_from_slice(assets::SERVICE_WORKER.bytes);
        body
    });
    (
        [
            (header::CONTENT_TYPE, assets::SERVICE_WORKER.content_type),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        body.as_slice(),
    )
        .into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_version_changes_with_any_byte_of_any_part() {
        let page: &[u8] = b"<!doctype html>";
        let script: &[u8] = b"export const a = 1;";
        let base = version_of([page, script]);
        assert_eq!(base.len(), 16);
        assert_eq!(
            base,
            version_of([page, script]),
            "the same files, the same version"
        );
        assert_ne!(base, version_of([page, b"export const a = 2;".as_slice()]));
        assert_ne!(base, version_of([script, page]));
        // A byte moved from one file to the next is a change too.
        assert_ne!(
            version_of([b"ab".as_slice(), b"c".as_slice()]),
            version_of([b"a".as_slice(), b"bc".as_slice()])
        );
    }

    #[test]
    fn the_app_version_covers_every_static_file() {
        assert_eq!(app_version().len(), 16);
        let paths = shell_paths();
        for (name, _) in assets::FILES {
            assert!(paths.contains(&format!("/static/{name}")), "{name}");
        }
        assert!(paths.contains(&"/".to_string()));
    }

    #[test]
    fn the_manifest_speaks_each_language() {
        for lang in [Lang::Ca, Lang::Es, Lang::En, Lang::Fr] {
            let m = manifest(lang);
            assert_eq!(m["lang"], lang.code());
            assert_eq!(m["start_url"], "/");
            assert!(m["description"].as_str().unwrap().len() > 20);
        }
    }
}

//! The browser assets, compiled into the binary from the workspace's `web/` folder.

/// One embedded file: its content type and bytes.
pub struct Asset {
    /// The `Content-Type` it is served with.
    pub content_type: &'static str,
    /// The file's content.
    pub bytes: &'static [u8],
}

macro_rules! asset {
    ($file:literal, $type:literal) => {
        Asset {
            content_type: $type,
            bytes: include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../web/", $file)),
        }
    };
}

/// A JavaScript module of the app.
macro_rules! script {
    ($file:literal) => {
        asset!($file, "text/javascript; charset=utf-8")
    };
}

/// The page every route of the app loads; the script draws the page the path asks for.
pub const INDEX: Asset = asset!("index.html", "text/html; charset=utf-8");

/// The service worker, served at `/sw.js` (its scope is the whole site) after the lines the
/// server writes before it (see [`crate::routes`]'s app shell).
pub const SERVICE_WORKER: Asset = script!("sw.js");

/// The static files, by their path under `/static/`: only these names, so no other path (one
/// with `..` in it, say) reaches a file. The service worker keeps every one of them for offline
/// use, so a file added here is cached with the rest.
pub const FILES: &[(&str, Asset)] = &[
    ("app.js", script!("app.js")),
    ("lib/api.js", script!("lib/api.js")),
    ("lib/board.js", script!("lib/board.js")),
    ("lib/chrome.js", script!("lib/chrome.js")),
    ("lib/coach.js", script!("lib/coach.js")),
    ("lib/dom.js", script!("lib/dom.js")),
    ("lib/i18n.js", script!("lib/i18n.js")),
    ("lib/mail.js", script!("lib/mail.js")),
    ("lib/notation.js", script!("lib/notation.js")),
    ("lib/players.js", script!("lib/players.js")),
    ("lib/push.js", script!("lib/push.js")),
    ("lib/qrcode.js", script!("lib/qrcode.js")),
    ("lib/sound.js", script!("lib/sound.js")),
    ("lib/widgets.js", script!("lib/widgets.js")),
    ("pages/analysis.js", script!("pages/analysis.js")),
    ("pages/email.js", script!("pages/email.js")),
    ("pages/game.js", script!("pages/game.js")),
    ("pages/home.js", script!("pages/home.js")),
    ("pages/learn.js", script!("pages/learn.js")),
    ("pages/not-found.js", script!("pages/not-found.js")),
    ("pages/puzzles.js", script!("pages/puzzles.js")),
    ("pages/rules.js", script!("pages/rules.js")),
    ("style.css", asset!("style.css", "text/css; charset=utf-8")),
    ("icon.svg", asset!("icon.svg", "image/svg+xml")),
    (
        "icons/icon-192.png",
        asset!("icons/icon-192.png", "image/png"),
    ),
    (
        "icons/icon-512.png",
        asset!("icons/icon-512.png", "image/png"),
    ),
    (
        "icons/icon-maskable-512.png",
        asset!("icons/icon-maskable-512.png", "image/png"),
    ),
    (
        "coach-messages.json",
        asset!("coach-messages.json", "application/json"),
    ),
];

/// The static file at `name` under `/static/`.
pub fn find(name: &str) -> Option<&'static Asset> {
    FILES.iter().find(|(n, _)| *n == name).map(|(_, a)| a)
}

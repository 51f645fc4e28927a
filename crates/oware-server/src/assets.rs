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

/// The page every route of the app loads; the script draws the page the path asks for.
pub const INDEX: Asset = asset!("index.html", "text/html; charset=utf-8");

/// The static files, by their name under `/static/`.
pub fn find(name: &str) -> Option<Asset> {
    Some(match name {
        "app.js" => asset!("app.js", "text/javascript; charset=utf-8"),
        "board.js" => asset!("board.js", "text/javascript; charset=utf-8"),
        "i18n.js" => asset!("i18n.js", "text/javascript; charset=utf-8"),
        "qrcode.js" => asset!("qrcode.js", "text/javascript; charset=utf-8"),
        "style.css" => asset!("style.css", "text/css; charset=utf-8"),
        "icon.svg" => asset!("icon.svg", "image/svg+xml"),
        "coach.js" => asset!("coach.js", "text/javascript; charset=utf-8"),
        "puzzle.js" => asset!("puzzle.js", "text/javascript; charset=utf-8"),
        "coach-messages.json" => asset!("coach-messages.json", "application/json"),
        _ => return None,
    })
}

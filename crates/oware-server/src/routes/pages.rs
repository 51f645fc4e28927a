//! The pages: one HTML shell for every page of the app, and the embedded static files.

use axum::extract::Path;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};

use crate::assets;
use crate::game::ids::valid_id;

pub(super) async fn index() -> Response {
    page(StatusCode::OK)
}

/// A game's page; an address that cannot name a game is a missing page.
pub(super) async fn game(Path(id): Path<String>) -> Response {
    if valid_id(&id) {
        page(StatusCode::OK)
    } else {
        missing()
    }
}

/// The app's page with a 404 status: its script draws the not-found page.
pub(super) fn missing() -> Response {
    page(StatusCode::NOT_FOUND)
}

fn page(status: StatusCode) -> Response {
    (
        status,
        [
            (header::CONTENT_TYPE, assets::INDEX.content_type),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        assets::INDEX.bytes,
    )
        .into_response()
}

pub(super) async fn static_file(Path(name): Path<String>) -> Response {
    match assets::find(&name) {
        Some(a) => (
            [
                (header::CONTENT_TYPE, a.content_type),
                (header::CACHE_CONTROL, "no-cache"),
            ],
            a.bytes,
        )
            .into_response(),
        None => super::api_not_found().into_response(),
    }
}

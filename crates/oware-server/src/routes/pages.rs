//! The pages: one HTML shell for every page of the app, and the embedded static files.

use axum::extract::Path;
use axum::http::header;
use axum::response::{IntoResponse, Response};

use crate::assets;

pub(super) async fn index() -> impl IntoResponse {
    (
        [
            (header::CONTENT_TYPE, assets::INDEX.content_type),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        assets::INDEX.bytes,
    )
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
        None => super::not_found().await.into_response(),
    }
}

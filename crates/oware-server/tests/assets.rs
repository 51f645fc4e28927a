//! The web app's files as the server serves them: every script under `web/` (the app is native
//! ES modules, loaded by the browser one import at a time), and every module a script imports,
//! so that a file missing from `assets::find` fails here rather than in a player's browser.

mod common;

use std::collections::BTreeSet;
use std::path::Path;

use common::*;

/// The paths, relative to `web/` and with `/` between folders, of the files under `dir` whose
/// name ends with `ext`.
fn files_under(web: &Path, dir: &Path, ext: &str, out: &mut BTreeSet<String>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files_under(web, &path, ext, out);
        } else if path.to_str().unwrap().ends_with(ext) {
            let relative = path.strip_prefix(web).unwrap();
            let parts: Vec<_> = relative.iter().map(|p| p.to_str().unwrap()).collect();
            out.insert(parts.join("/"));
        }
    }
}

/// The module specifiers a script imports: `import … from "x"`, `export … from "x"` and
/// `import "x"`, in either kind of quotes. Enough for the app's own code, which puts each import
/// on lines of its own.
fn imports(script: &str) -> Vec<String> {
    let mut found = Vec::new();
    for line in script.lines() {
        let line = line.trim_start();
        if !(line.starts_with("import ") || line.starts_with("export ")) {
            continue;
        }
        let rest = match line.rfind(" from ") {
            Some(at) => &line[at + " from ".len()..],
            None if line.starts_with("import ") => &line["import ".len()..],
            None => continue,
        };
        let rest = rest.trim_start();
        let Some(quote) = rest.chars().next().filter(|c| *c == '"' || *c == '\'') else {
            continue;
        };
        let body = &rest[1..];
        if let Some(end) = body.find(quote) {
            found.push(body[..end].to_string());
        }
    }
    found
}

/// `specifier` imported by the script at `from` (both relative to `web/`), as a path under
/// `/static/`; None for what is not a relative import of a file of the app.
fn resolve(from: &str, specifier: &str) -> Option<String> {
    let rest = specifier
        .strip_prefix("/static/")
        .map(|r| r.split('/').collect::<Vec<_>>());
    let mut parts: Vec<&str> = match rest {
        Some(parts) => return Some(parts.join("/")),
        None if specifier.starts_with("./") || specifier.starts_with("../") => {
            from.split('/').collect()
        }
        None => return None,
    };
    parts.pop(); // the importing file's own name
    for part in specifier.split('/') {
        match part {
            "." => {}
            ".." => {
                parts.pop()?;
            }
            name => parts.push(name),
        }
    }
    Some(parts.join("/"))
}

#[test]
fn imports_are_read_from_the_app_s_own_lines() {
    let script = "import { a, b } from './lib/dom.js';\nimport * as C from \"../lib/coach.js\";\n\
                  import './side-effect.js';\nexport { x } from './x.js';\nconst s = 'import y from \"z\"';\n";
    assert_eq!(
        imports(script),
        [
            "./lib/dom.js",
            "../lib/coach.js",
            "./side-effect.js",
            "./x.js"
        ]
    );
    assert_eq!(
        resolve("pages/game.js", "../lib/coach.js").as_deref(),
        Some("lib/coach.js")
    );
    assert_eq!(
        resolve("app.js", "./pages/game.js").as_deref(),
        Some("pages/game.js")
    );
    assert_eq!(resolve("app.js", "../outside.js"), None);
    assert_eq!(resolve("app.js", "lodash"), None);
}

#[tokio::test]
async fn every_script_and_every_module_it_imports_is_served() {
    let web = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../web");
    let web = web.canonicalize().unwrap();
    let mut scripts = BTreeSet::new();
    files_under(&web, &web, ".js", &mut scripts);
    assert!(
        scripts.contains("app.js") && scripts.contains("pages/game.js"),
        "{scripts:?}"
    );
    let server = TestServer::start(quick_config()).await;
    let mut served = BTreeSet::new();
    for name in &scripts {
        // The service worker is served at the root, so that its scope is the whole app.
        let path = match name.as_str() {
            "sw.js" => "/sw.js".to_string(),
            _ => format!("/static/{name}"),
        };
        let (status, head, body) = http_with_headers(server.addr, "GET", &path, None, "").await;
        assert_eq!(status, 200, "{name} is not served");
        let head = head.to_ascii_lowercase();
        assert!(
            head.contains("content-type: text/javascript; charset=utf-8"),
            "{name}: {head}"
        );
        served.insert(name.clone());
        for specifier in imports(&body) {
            let target = resolve(name, &specifier)
                .unwrap_or_else(|| panic!("{name} imports {specifier}: not a file of the app"));
            let (status, _) = http(server.addr, "GET", &format!("/static/{target}"), None).await;
            assert_eq!(
                status, 200,
                "{name} imports {specifier} ({target}): not served"
            );
        }
    }
    // The page loads the app as a module, and the app imports its pages.
    let (_, page) = http(server.addr, "GET", "/", None).await;
    assert!(
        page.contains("<script type=\"module\" src=\"/static/app.js\"></script>"),
        "{page}"
    );
    let (_, app) = http(server.addr, "GET", "/static/app.js", None).await;
    assert!(imports(&app).len() > 3, "{app}");
    server.stop().await;
}

#[tokio::test]
async fn only_the_app_s_files_are_served_from_its_folders() {
    let server = TestServer::start(quick_config()).await;
    for path in [
        "/static/lib/../app.js",
        "/static/lib/%2e%2e/app.js",
        "/static/..%2fCargo.toml",
        "/static/../Cargo.toml",
        "/static/lib/",
        "/static/lib",
        "/static/pages/nothing.js",
        "/static//app.js",
        "/static/lib/dom.js/",
        "/static/LIB/DOM.JS",
    ] {
        let (status, _) = http(server.addr, "GET", path, None).await;
        assert_eq!(status, 404, "{path}");
    }
    let (status, _) = http(server.addr, "GET", "/static/lib/dom.js", None).await;
    assert_eq!(status, 200);
    server.stop().await;
}

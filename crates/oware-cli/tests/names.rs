//! One meaning per public type name across the workspace's libraries (docs/glossary.md): two crates
//! that each define a public `Outcome`, say, make every reader of a signature ask which one. The
//! binary's own argument structs are private to it and not counted.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The name a line declares as a public type, if it does.
fn declared(line: &str) -> Option<&str> {
    let rest = line.trim_start().strip_prefix("pub ")?;
    let rest = ["struct ", "enum ", "trait ", "type "]
        .iter()
        .find_map(|kw| rest.strip_prefix(kw))?;
    let end = rest
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(rest.len());
    Some(&rest[..end])
}

#[test]
fn every_public_type_name_means_one_thing_across_the_workspace() {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut defined: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for entry in std::fs::read_dir(&crates).unwrap() {
        let krate = entry.unwrap().path();
        let src = krate.join("src");
        if !src.is_dir() || krate.ends_with("oware-cli") {
            continue;
        }
        let mut files = Vec::new();
        rust_files(&src, &mut files);
        for file in files {
            let text = std::fs::read_to_string(&file).unwrap();
            // Test modules sit at the end of a file; their helpers are not the crate's names.
            let code = text.split("#[cfg(test)]").next().unwrap_or_default();
            for line in code.lines() {
                if let Some(name) = declared(line) {
                    let place = file.strip_prefix(&crates).unwrap().display().to_string();
                    defined.entry(name.to_string()).or_default().push(place);
                }
            }
        }
    }
    let twice: Vec<String> = defined
        .iter()
        .filter(|(_, places)| places.len() > 1)
        .map(|(name, places)| format!("{name}: {}", places.join(", ")))
        .collect();
    assert!(
        defined.len() > 100,
        "the scan found only {} names: is it reading the crates?",
        defined.len()
    );
    assert!(
        twice.is_empty(),
        "public type names defined more than once:\n{}",
        twice.join("\n")
    );
}

//! `oware egtb build --mpi` where it cannot run: an oware built without the `mpi` feature refuses it
//! and says how to get it, `--lower` means nothing without `--mpi`, and nothing is written. (The
//! distributed builds themselves run under mpirun in scripts/test.d/mpi.sh.)

mod common;

use common::*;

fn build(dir: &str, extra: &[&str]) -> std::process::Output {
    let mut args = vec![
        "egtb",
        "build",
        "--rules",
        "awari",
        "--max-seeds",
        "3",
        "--dir",
        dir,
    ];
    args.extend_from_slice(extra);
    oware(&args)
}

#[cfg(not(feature = "mpi"))]
#[test]
fn mpi_is_refused_without_the_feature() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().join("db");
    let out = build(d.to_str().unwrap(), &["--mpi"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(stderr(&out).contains("--features mpi"), "{}", text(&out));
    assert!(!d.exists());
}

#[test]
fn lower_levels_mode_needs_mpi() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().join("db");
    let out = build(d.to_str().unwrap(), &["--lower", "messages"]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("--mpi"), "{}", text(&out));
    let out = build(d.to_str().unwrap(), &["--mpi", "--lower", "telepathy"]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("telepathy"), "{}", text(&out));
    assert!(!d.exists());
}

/// What an MPI build cannot do is refused before MPI starts (so without mpirun), as bad input, and
/// nothing is written.
#[cfg(feature = "mpi")]
#[test]
fn impossible_mpi_builds_are_refused_before_mpi_starts() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().join("db");
    let d = d.to_str().unwrap();
    for (rules, max_seeds, lower, says) in [
        ("abapa", "3", "messages", "--lower mapped"),
        ("awari", "99", "mapped", "go up to"),
    ] {
        let out = oware(&[
            "egtb",
            "build",
            "--mpi",
            "--lower",
            lower,
            "--rules",
            rules,
            "--max-seeds",
            max_seeds,
            "--dir",
            d,
        ]);
        assert_eq!(out.status.code(), Some(2), "{}", text(&out));
        assert!(stderr(&out).contains(says), "{}", text(&out));
    }
    assert!(!std::path::Path::new(d).exists());
}

//! Move generation and perft speed. `cargo bench -p oware-rules` ; the README quotes the figures.

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use oware_rules::{perft, PackedPosition, Position, RuleSet};

fn move_generation(c: &mut Criterion) {
    // Positions from a real game, so that the boards are varied.
    let letters = "FfBeBcDaAbCcDbAcCaDcBeAbBcCdDfAeAfDbCdBcAaBbEeAaDfCaDdEfBbAcAfEaDbEcAeAdBeCfFf";
    let moves = oware_rules::parse_move_letters(letters).unwrap();
    let game = oware_rules::Game::replay(Position::start(), RuleSet::Abapa, &moves).unwrap();
    let positions = game.positions().to_vec();
    let mut group = c.benchmark_group("movegen");
    group.throughput(Throughput::Elements(positions.len() as u64));
    for rules in [RuleSet::Abapa, RuleSet::Awari] {
        group.bench_function(format!("legal_and_play_all/{rules}"), |b| {
            b.iter(|| {
                let mut sum = 0u32;
                for p in &positions {
                    for mv in p.legal_moves(rules) {
                        sum += p.play_unchecked(mv, rules).captured as u32;
                    }
                }
                black_box(sum)
            })
        });
    }
    group.finish();
}

/// Every legal move of the same game's positions played, the positions after them kept (as a search
/// keeps them): [`Position`] against [`PackedPosition`].
fn packed_against_position(c: &mut Criterion) {
    let letters = "FfBeBcDaAbCcDbAcCaDcBeAbBcCdDfAeAfDbCdBcAaBbEeAaDfCaDdEfBbAcAfEaDbEcAeAdBeCfFf";
    let moves = oware_rules::parse_move_letters(letters).unwrap();
    let game = oware_rules::Game::replay(Position::start(), RuleSet::Abapa, &moves).unwrap();
    let positions = game.positions().to_vec();
    let packed: Vec<PackedPosition> = positions
        .iter()
        .map(PackedPosition::from_position)
        .collect();
    let mut group = c.benchmark_group("movegen_kept");
    group.throughput(Throughput::Elements(positions.len() as u64));
    for rules in [RuleSet::Abapa, RuleSet::Awari] {
        group.bench_function(format!("position/{rules}"), |b| {
            b.iter(|| {
                for p in &positions {
                    for mv in p.legal_moves(rules) {
                        black_box(p.play_unchecked(mv, rules));
                    }
                }
            })
        });
        group.bench_function(format!("packed/{rules}"), |b| {
            b.iter(|| {
                for &p in &packed {
                    for mv in p.legal_moves(rules) {
                        black_box(p.play(mv, rules));
                    }
                }
            })
        });
    }
    group.finish();
}

fn perft_start(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    group.sample_size(10);
    for (depth, leaves) in [(8u32, 711_414u64), (9, 3_592_872)] {
        group.throughput(Throughput::Elements(leaves));
        group.bench_function(format!("start/{depth}"), |b| {
            b.iter(|| perft::perft(black_box(&Position::start()), RuleSet::Abapa, depth))
        });
    }
    group.finish();
}

criterion_group!(
    benches,
    move_generation,
    packed_against_position,
    perft_start
);
criterion_main!(benches);

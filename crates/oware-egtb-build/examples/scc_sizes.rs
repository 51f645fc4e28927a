//! How the abapa levels' in-level move graphs split into strongly connected components, and where the
//! boards the solver leaves with bounds lie.
//!
//! A path never comes back to a component it has left, so only boards on a cycle (in a component of
//! more than one board) can have a value that depends on the path. This counts them per level, the
//! largest components, and whether a component has a cycle of odd length (a board that comes back
//! with the other side to move, which is not a repetition).
//!
//! `cargo run --release -p oware-egtb-build --example scc_sizes -- 12` (builds levels 0..=N in memory, as a default build does).

use oware_egtb::index::{IndexKind, LevelIndex};
use oware_egtb::values::{decode, successors, terminal_value};
use oware_egtb_build::build::build_in_memory;
use oware_egtb_build::SearchBudget;
use oware_rules::RuleSet;

const NONE: u32 = u32::MAX;

/// The in-level move graph: for each board, the boards its non-capturing moves lead to, where the game
/// goes on.
fn graph(index: &LevelIndex) -> Vec<Vec<u32>> {
    index
        .iter_from(0)
        .map(|b| {
            if terminal_value(&b, RuleSet::Abapa).is_some() {
                return Vec::new();
            }
            successors(&b, RuleSet::Abapa)
                .filter(|s| s.captured == 0 && terminal_value(&s.board, RuleSet::Abapa).is_none())
                .map(|s| index.rank(&s.board).expect("indexed") as u32)
                .collect()
        })
        .collect()
}

/// Tarjan's algorithm without recursion: the component of each board, and each component's size.
fn components(adj: &[Vec<u32>]) -> (Vec<u32>, Vec<usize>) {
    let n = adj.len();
    let (mut order, mut low) = (vec![NONE; n], vec![0u32; n]);
    let (mut on_stack, mut comp) = (vec![false; n], vec![NONE; n]);
    let (mut stack, mut sizes, mut next) = (Vec::new(), Vec::new(), 0u32);
    for root in 0..n {
        if order[root] != NONE {
            continue;
        }
        let mut calls = vec![(root, 0usize)];
        order[root] = next;
        low[root] = next;
        next += 1;
        stack.push(root);
        on_stack[root] = true;
        while let Some(&mut (v, ref mut edge)) = calls.last_mut() {
            if let Some(&w) = adj[v].get(*edge) {
                *edge += 1;
                let w = w as usize;
                if order[w] == NONE {
                    order[w] = next;
                    low[w] = next;
                    next += 1;
                    stack.push(w);
                    on_stack[w] = true;
                    calls.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(order[w]);
                }
                continue;
            }
            calls.pop();
            if let Some(&(u, _)) = calls.last() {
                low[u] = low[u].min(low[v]);
            }
            if low[v] == order[v] {
                let id = sizes.len() as u32;
                let mut size = 0;
                while let Some(w) = stack.pop() {
                    on_stack[w] = false;
                    comp[w] = id;
                    size += 1;
                    if w == v {
                        break;
                    }
                }
                sizes.push(size);
            }
        }
    }
    (comp, sizes)
}

/// Whether component `c` has a closed walk of odd length (it cannot be 2-coloured along its moves).
fn has_odd_cycle(adj: &[Vec<u32>], comp: &[u32], c: u32, start: usize) -> bool {
    let mut colour = std::collections::HashMap::from([(start, false)]);
    let mut todo = vec![start];
    while let Some(v) = todo.pop() {
        let cv = colour[&v];
        for &w in &adj[v] {
            let w = w as usize;
            if comp[w] != c {
                continue;
            }
            match colour.get(&w) {
                None => {
                    colour.insert(w, !cv);
                    todo.push(w);
                }
                Some(&cw) if cw == cv => return true,
                Some(_) => {}
            }
        }
    }
    false
}

fn main() {
    let max: usize = std::env::args()
        .nth(1)
        .map_or(10, |s| s.parse().expect("a level"));
    let levels =
        build_in_memory(RuleSet::Abapa, max, SearchBudget::Auto(0)).expect("build in memory");
    println!(
        "level positions on-a-cycle components>1 largest odd-cycle | open: off-cycle on-cycle"
    );
    for k in 1..=max {
        let index = LevelIndex::new(k, IndexKind::Full);
        let adj = graph(&index);
        let (comp, sizes) = components(&adj);
        let (_, data) = levels.codes(k).expect("built");
        let on_cycle = |i: usize| sizes[comp[i] as usize] > 1 || adj[i].contains(&(i as u32));
        let (mut cyclic, mut open_off, mut open_on) = (0, 0, 0);
        for (i, code) in data.iter().enumerate() {
            let exact = decode(RuleSet::Abapa, k, code).is_some_and(|b| b.is_exact());
            cyclic += on_cycle(i) as u64;
            if !exact {
                if on_cycle(i) {
                    open_on += 1;
                } else {
                    open_off += 1;
                }
            }
        }
        let big: Vec<u32> = (0..sizes.len() as u32)
            .filter(|&c| sizes[c as usize] > 1)
            .collect();
        let largest = big.iter().map(|&c| sizes[c as usize]).max().unwrap_or(0);
        let odd = big
            .iter()
            .filter(|&&c| {
                let start = comp.iter().position(|&x| x == c).expect("member");
                has_odd_cycle(&adj, &comp, c, start)
            })
            .count();
        println!(
            "{k:5} {:9} {cyclic:8} {:13} {largest:7} {odd:9} | {open_off:12} {open_on:9}",
            index.count(),
            big.len(),
        );
    }
}

//! The batched API over numpy arrays (`oware.batch`): one call plays a move in each of N positions
//! or games, in Rust, without the GIL.
//!
//! A position is a row of [`OBSERVATION_SIZE`] `int8` values (houses, stores, side to move), a move
//! a column 0..6 of the mover's row (the environments' actions). What a step returns, in order:
//! the positions after the moves, the rewards (the final seed difference for the player who moved,
//! 0 while the game goes on), the done flags, and the legal moves of the positions returned as
//! N×6 flags.
//!
//! Speed: rows are read straight into packed positions (the layout of a row is the packed word's),
//! the results are written into the output arrays in place, and a large batch is split across
//! rayon's threads (one per core; `RAYON_NUM_THREADS` sets it), each taking its own rows.

use numpy::{
    PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray1, PyReadonlyArray2, PyUntypedArrayMethods,
};
use oware_rules::{
    end_without_history, repetition_end, Game, GameEnd, Move, MoveSet, PackedPosition, Position,
    RuleSet, Side,
};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::convert::{
    history_free_reward, observation, position_of_observation, reward, rules_of, value_error,
    Observation, OBSERVATION_SIZE,
};
use crate::game::PyGame;

/// What a batched step gives back, as numpy arrays.
type StepArrays<'py> = (
    Bound<'py, PyArray2<i8>>,
    Bound<'py, PyArray1<f32>>,
    Bound<'py, PyArray1<bool>>,
    Bound<'py, PyArray2<bool>>,
);

/// Rows below which a batch is not split further across threads: a share of work smaller than
/// this (about 15 µs at 15 ns a row) costs less on one thread than handing it to another.
const ROWS_PER_TASK: usize = 1024;

/// Anything split by rows between threads: the output rows, the games.
trait SplitRows: Send + Sized {
    /// The first `rows` rows, and the rest.
    fn split_rows(self, rows: usize) -> (Self, Self);
}

impl<T: Send> SplitRows for &mut [T] {
    fn split_rows(self, rows: usize) -> (Self, Self) {
        self.split_at_mut(rows)
    }
}

impl<A: SplitRows, B: SplitRows> SplitRows for (A, B) {
    fn split_rows(self, rows: usize) -> (Self, Self) {
        let (a1, a2) = self.0.split_rows(rows);
        let (b1, b2) = self.1.split_rows(rows);
        ((a1, b1), (a2, b2))
    }
}

/// The output rows of a step, borrowed from its four arrays.
struct OutRows<'a> {
    positions: &'a mut [i8],
    rewards: &'a mut [f32],
    dones: &'a mut [bool],
    masks: &'a mut [bool],
}

impl SplitRows for OutRows<'_> {
    fn split_rows(self, rows: usize) -> (Self, Self) {
        let (p1, p2) = self.positions.split_at_mut(rows * OBSERVATION_SIZE);
        let (r1, r2) = self.rewards.split_at_mut(rows);
        let (d1, d2) = self.dones.split_at_mut(rows);
        let (m1, m2) = self.masks.split_at_mut(rows * 6);
        (
            OutRows {
                positions: p1,
                rewards: r1,
                dones: d1,
                masks: m1,
            },
            OutRows {
                positions: p2,
                rewards: r2,
                dones: d2,
                masks: m2,
            },
        )
    }
}

impl OutRows<'_> {
    #[inline]
    fn write(
        &mut self,
        i: usize,
        position: PackedPosition,
        reward: f32,
        done: bool,
        mask: [bool; 6],
    ) {
        let bytes = position.word().to_le_bytes();
        let row = &mut self.positions[i * OBSERVATION_SIZE..(i + 1) * OBSERVATION_SIZE];
        for (o, &b) in row.iter_mut().zip(&bytes) {
            *o = b as i8;
        }
        self.rewards[i] = reward;
        self.dones[i] = done;
        self.masks[i * 6..(i + 1) * 6].copy_from_slice(&mask);
    }
}

/// Runs `work(first_row, rows, part)` over the `rows` rows of `part` starting at `first_row`:
/// at once for a small batch, else halves on rayon's threads. The error of the lowest row wins,
/// as on one thread.
fn by_rows<P, F>(first_row: usize, rows: usize, part: P, work: &F) -> Result<(), String>
where
    P: SplitRows,
    F: Fn(usize, usize, P) -> Result<(), String> + Sync,
{
    if rows < 2 * ROWS_PER_TASK {
        return work(first_row, rows, part);
    }
    let half = rows / 2;
    let (low, high) = part.split_rows(half);
    let (low, high) = rayon::join(
        || by_rows(first_row, half, low, work),
        || by_rows(first_row + half, rows - half, high, work),
    );
    low.and(high)
}

/// Four new arrays for `n` rows of step results, and the step's writes into them.
fn step_outputs<'py>(
    py: Python<'py>,
    n: usize,
    fill: impl FnOnce(OutRows<'_>) -> Result<(), String> + Send,
) -> PyResult<StepArrays<'py>> {
    let positions = PyArray2::<i8>::zeros(py, [n, OBSERVATION_SIZE], false);
    let rewards = PyArray1::<f32>::zeros(py, n, false);
    let dones = PyArray1::<bool>::zeros(py, n, false);
    let masks = PyArray2::<bool>::zeros(py, [n, 6], false);
    {
        let mut p = positions.readwrite();
        let mut r = rewards.readwrite();
        let mut d = dones.readwrite();
        let mut m = masks.readwrite();
        let out = OutRows {
            positions: p.as_slice_mut().map_err(value_error)?,
            rewards: r.as_slice_mut().map_err(value_error)?,
            dones: d.as_slice_mut().map_err(value_error)?,
            masks: m.as_slice_mut().map_err(value_error)?,
        };
        py.detach(|| fill(out)).map_err(PyValueError::new_err)?;
    }
    Ok((positions, rewards, dones, masks))
}

/// The move in column `column` of `side`'s row, or why there is none.
fn column_move(column: i64, side: Side) -> Result<Move, String> {
    usize::try_from(column)
        .ok()
        .and_then(|c| Move::for_side(side, c))
        .ok_or_else(|| format!("a move is a column 0 to 5 of the mover's row, not {column}"))
}

/// The rows of an N×15 `int8` array, checked for shape.
fn rows<'a>(positions: &'a PyReadonlyArray2<'_, i8>) -> PyResult<&'a [i8]> {
    let shape = positions.shape();
    if shape[1] != OBSERVATION_SIZE {
        return Err(PyValueError::new_err(format!(
            "positions must have {OBSERVATION_SIZE} columns (12 houses, 2 stores, side to move), \
             found {}",
            shape[1]
        )));
    }
    positions.as_slice().map_err(value_error)
}

/// The legal moves of a packed position as the six flags of its mover's row.
#[inline]
fn packed_mask(position: PackedPosition, moves: MoveSet) -> [bool; 6] {
    let bits = moves.bits() >> (6 * position.side_index());
    std::array::from_fn(|c| bits & (1 << c) != 0)
}

/// The packed position of an observation row (whose layout is the packed word's), or why the
/// row is not a position.
#[inline]
fn packed_of_row(row: &[i8]) -> Result<PackedPosition, String> {
    let mut bytes = [0u8; 16];
    for (b, &v) in bytes.iter_mut().zip(row) {
        *b = v as u8;
    }
    PackedPosition::from_word(u128::from_le_bytes(bytes)).ok_or_else(|| {
        // The rare path: the checked reader says what is wrong.
        position_of_observation(row)
            .err()
            .unwrap_or_else(|| "not a position".to_string())
    })
}

/// Plays `moves[i]` in the rows `first..first + count` of `positions` (see `batch_step`),
/// writing the results into `out`, whose row 0 is row `first`.
fn step_rows(
    positions: &[i8],
    moves: &[i64],
    rules: RuleSet,
    autoreset: bool,
    first: usize,
    count: usize,
    mut out: OutRows<'_>,
) -> Result<(), String> {
    let start = PackedPosition::from_position(&Position::start());
    let start_mask = packed_mask(start, start.legal_moves(rules));
    let rows = positions[first * OBSERVATION_SIZE..(first + count) * OBSERVATION_SIZE]
        .chunks_exact(OBSERVATION_SIZE);
    for (k, (row, &column)) in rows.zip(&moves[first..first + count]).enumerate() {
        let i = first + k;
        let position = packed_of_row(row).map_err(|e| format!("row {i}: {e}"))?;
        let mover = position.side_to_move();
        let mv = column_move(column, mover).map_err(|e| format!("row {i}: {e}"))?;
        if !position.legal_moves(rules).contains(mv) {
            let unpacked = position.to_position();
            let error = unpacked
                .play(mv, rules)
                .err()
                .map_or_else(|| "the move is illegal".to_string(), |e| e.to_string());
            return Err(format!("row {i} ({unpacked}): {error}"));
        }
        let (next, _) = position.play(mv, rules);
        let next_moves = next.legal_moves(rules);
        // No legal move is exactly the end of a game without history: a store above 24, both
        // at 24, or the mover cannot move.
        if !next_moves.is_empty() {
            out.write(k, next, 0.0, false, packed_mask(next, next_moves));
            continue;
        }
        let reward = history_free_reward(&next.to_position(), rules, mover).unwrap_or(0.0);
        if autoreset {
            out.write(k, start, reward, true, start_mask);
        } else {
            out.write(k, next, reward, true, [false; 6]);
        }
    }
    Ok(())
}

/// Plays ``moves[i]`` (a column 0-5 of the mover's row) in ``positions[i]`` for every row of an
/// N×15 ``int8`` array. Returns ``(positions, rewards, dones, masks)``: the positions after the
/// moves (with ``autoreset``, a game that ended is replaced by the start position), the final
/// seed difference for the player who moved (0 while the game goes on), whether the move ended the
/// game, and the legal moves of the positions returned (N×6 flags). Positions carry no history,
/// so a game ends here by the stores or when the mover has no move, never by repetition (see
/// ``Games``). An illegal move or a malformed row raises ``ValueError`` naming the row.
#[pyfunction]
#[pyo3(signature = (positions, moves, rules = "abapa", autoreset = false))]
pub fn batch_step<'py>(
    py: Python<'py>,
    positions: PyReadonlyArray2<'py, i8>,
    moves: PyReadonlyArray1<'py, i64>,
    rules: &str,
    autoreset: bool,
) -> PyResult<StepArrays<'py>> {
    let rules = rules_of(rules)?;
    let rows = rows(&positions)?;
    let moves = moves.as_slice().map_err(value_error)?;
    if moves.len() * OBSERVATION_SIZE != rows.len() {
        return Err(PyValueError::new_err(format!(
            "{} positions but {} moves",
            rows.len() / OBSERVATION_SIZE,
            moves.len()
        )));
    }
    let n = moves.len();
    step_outputs(py, n, |out| {
        by_rows(0, n, out, &|first, count, part| {
            step_rows(rows, moves, rules, autoreset, first, count, part)
        })
    })
}

/// ``n`` start positions as an N×15 ``int8`` array.
#[pyfunction]
pub fn batch_initial(py: Python<'_>, n: usize) -> Bound<'_, PyArray2<i8>> {
    let start: Observation = observation(&Position::start());
    let flat: Vec<i8> = start
        .iter()
        .copied()
        .cycle()
        .take(n * OBSERVATION_SIZE)
        .collect();
    PyArray1::from_vec(py, flat)
        .reshape([n, OBSERVATION_SIZE])
        .expect("n rows of the observation size")
}

/// The legal moves of each position of an N×15 ``int8`` array, as N×6 flags.
#[pyfunction]
#[pyo3(signature = (positions, rules = "abapa"))]
pub fn batch_legal_mask<'py>(
    py: Python<'py>,
    positions: PyReadonlyArray2<'py, i8>,
    rules: &str,
) -> PyResult<Bound<'py, PyArray2<bool>>> {
    let rules = rules_of(rules)?;
    let rows = rows(&positions)?;
    let n = rows.len() / OBSERVATION_SIZE;
    let masks = py
        .detach(|| {
            let mut masks = Vec::with_capacity(n * 6);
            for (i, row) in rows.chunks_exact(OBSERVATION_SIZE).enumerate() {
                let position = packed_of_row(row).map_err(|e| format!("row {i}: {e}"))?;
                masks.extend_from_slice(&packed_mask(position, position.legal_moves(rules)));
            }
            Ok::<_, String>(masks)
        })
        .map_err(PyValueError::new_err)?;
    PyArray1::from_vec(py, masks).reshape([n, 6])
}

/// One uniformly random legal column per row of ``masks`` (N×6 ``bool``), -1 for a row without
/// a legal move; ``seed`` starts the generator (SplitMix64), so equal seeds give equal moves.
#[pyfunction]
pub fn batch_random_moves<'py>(
    py: Python<'py>,
    masks: PyReadonlyArray2<'py, bool>,
    seed: u64,
) -> PyResult<Bound<'py, PyArray1<i64>>> {
    if masks.shape()[1] != 6 {
        return Err(PyValueError::new_err(format!(
            "masks must have 6 columns, found {}",
            masks.shape()[1]
        )));
    }
    let flags = masks.as_slice().map_err(value_error)?;
    let n = flags.len() / 6;
    let moves = PyArray1::<i64>::zeros(py, n, false);
    {
        let mut written = moves.readwrite();
        let out = written.as_slice_mut().map_err(value_error)?;
        py.detach(|| {
            by_rows(0, n, out, &|first, count, out: &mut [i64]| {
                let rows = flags[first * 6..(first + count) * 6].chunks_exact(6);
                for (k, (row, o)) in rows.zip(out).enumerate() {
                    *o = random_column(row, seed, first + k);
                }
                Ok(())
            })
        })
        .map_err(PyValueError::new_err)?;
    }
    Ok(moves)
}

/// A uniformly random legal column of one row of flags (-1 for none), from the `row`-th number of
/// the SplitMix64 sequence of `seed`: each row's number is its own, whichever thread draws it.
#[inline]
fn random_column(flags: &[bool], seed: u64, row: usize) -> i64 {
    let mut legal = [0i64; 6];
    let mut count = 0;
    for (c, _) in flags.iter().enumerate().filter(|(_, &ok)| ok) {
        legal[count] = c as i64;
        count += 1;
    }
    if count == 0 {
        return -1;
    }
    // Multiply-shift of 32 random bits: biased by less than 2^-29.
    let r = splitmix64(seed, row as u64) >> 32;
    legal[((r * count as u64) >> 32) as usize]
}

/// The `index`-th output of SplitMix64 started at `seed`, without the ones before it.
#[inline]
fn splitmix64(seed: u64, index: u64) -> u64 {
    oware_rules::random::SplitMix64::nth(seed, index)
}

/// One game of `Games`: what `Game` keeps to decide repetitions, on packed positions. `Game` is
/// the authority; this plays the same moves and ends games where it does (the rules crate's
/// `repetition_end` and `end_without_history` decide how), as the tests check.
#[derive(Clone)]
struct PackedGame {
    start: Position,
    moves: Vec<Move>,
    /// The positions since the last capture (or the start), the current one last: those a
    /// position can repeat.
    since_capture: Vec<PackedPosition>,
    end: Option<GameEnd>,
}

impl PackedGame {
    fn new(start: Position, rules: RuleSet) -> PackedGame {
        PackedGame {
            start,
            moves: Vec::new(),
            since_capture: vec![PackedPosition::from_position(&start)],
            end: end_without_history(&start, rules),
        }
    }

    /// Starts again from `fresh`'s start, keeping this game's allocations.
    fn restart(&mut self, fresh: &PackedGame) {
        self.start = fresh.start;
        self.moves.clear();
        self.since_capture.clear();
        self.since_capture.extend_from_slice(&fresh.since_capture);
        self.end = fresh.end;
    }

    fn position(&self) -> PackedPosition {
        *self.since_capture.last().expect("a game has a position")
    }

    fn legal_moves(&self, rules: RuleSet) -> MoveSet {
        if self.end.is_some() {
            MoveSet::EMPTY
        } else {
            self.position().legal_moves(rules)
        }
    }

    /// The game as a `Game` (replayed: for the rare calls that want one).
    fn game(&self, rules: RuleSet) -> Game {
        Game::replay(self.start, rules, &self.moves).expect("the moves were checked when played")
    }

    /// Plays `mv`, known to be legal; returns the legal moves after it (none at the end).
    #[inline]
    fn play(&mut self, mv: Move, rules: RuleSet) -> MoveSet {
        let (next, captured) = self.position().play(mv, rules);
        let repeated = captured == 0 && self.since_capture.contains(&next);
        if captured > 0 {
            self.since_capture.clear();
        }
        self.since_capture.push(next);
        self.moves.push(mv);
        if repeated {
            self.end = Some(repetition_end(&next.to_position(), rules));
            return MoveSet::EMPTY;
        }
        let next_moves = next.legal_moves(rules);
        // No legal move is exactly an end without history (see `step_rows`).
        if next_moves.is_empty() {
            self.end = end_without_history(&next.to_position(), rules);
        }
        next_moves
    }
}

/// N games played side by side, with their histories, so that repetitions end them exactly as
/// in ``Game``: ``Games(n, rules="abapa")``. ``step(moves)`` plays one move in every game (a
/// column 0-5 of each mover's row) and returns ``(positions, rewards, dones, masks)`` as
/// ``batch.step`` does; with ``autoreset`` (the default) a game that ends starts again.
#[pyclass(name = "Games", module = "oware.batch")]
pub struct PyGames {
    games: Vec<PackedGame>,
    fresh: PackedGame,
    rules: RuleSet,
}

#[pymethods]
impl PyGames {
    #[new]
    #[pyo3(signature = (n, rules = "abapa"))]
    fn new(n: usize, rules: &str) -> PyResult<PyGames> {
        let rules = rules_of(rules)?;
        let fresh = PackedGame::new(Position::start(), rules);
        Ok(PyGames {
            games: vec![fresh.clone(); n],
            fresh,
            rules,
        })
    }

    /// Starts every game again, or only those whose flag is set in ``mask`` (N booleans).
    #[pyo3(signature = (mask = None))]
    fn reset(&mut self, mask: Option<PyReadonlyArray1<'_, bool>>) -> PyResult<()> {
        let fresh = &self.fresh;
        match mask {
            None => self.games.iter_mut().for_each(|g| g.restart(fresh)),
            Some(mask) => {
                let mask = mask.as_slice().map_err(value_error)?;
                if mask.len() != self.games.len() {
                    return Err(PyValueError::new_err(format!(
                        "{} games but {} flags",
                        self.games.len(),
                        mask.len()
                    )));
                }
                for (game, _) in self.games.iter_mut().zip(mask).filter(|(_, &m)| m) {
                    game.restart(fresh);
                }
            }
        }
        Ok(())
    }

    /// The current positions, N×15 ``int8``.
    fn positions<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<i8>>> {
        let flat: Vec<i8> = self
            .games
            .iter()
            .flat_map(|g| g.position().word().to_le_bytes()[..OBSERVATION_SIZE].to_vec())
            .map(|b| b as i8)
            .collect();
        PyArray1::from_vec(py, flat).reshape([self.games.len(), OBSERVATION_SIZE])
    }

    /// The legal moves of every game, N×6 flags (none in a game that is over).
    fn legal_mask<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<bool>>> {
        let rules = self.rules;
        let flat: Vec<bool> = self
            .games
            .iter()
            .flat_map(|g| packed_mask(g.position(), g.legal_moves(rules)))
            .collect();
        PyArray1::from_vec(py, flat).reshape([self.games.len(), 6])
    }

    /// Plays ``moves[i]`` in game ``i`` for every game; see the class.
    #[pyo3(signature = (moves, autoreset = true))]
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        moves: PyReadonlyArray1<'py, i64>,
        autoreset: bool,
    ) -> PyResult<StepArrays<'py>> {
        let moves = moves.as_slice().map_err(value_error)?;
        let n = self.games.len();
        if moves.len() != n {
            return Err(PyValueError::new_err(format!(
                "{n} games but {} moves",
                moves.len()
            )));
        }
        let rules = self.rules;
        let fresh = &self.fresh;
        let fresh_mask = packed_mask(fresh.position(), fresh.legal_moves(rules));
        let games = &mut self.games;
        // Every move is checked before any is played: an error leaves the games as they were.
        py.detach(|| check_moves(games, moves, rules))
            .map_err(PyValueError::new_err)?;
        step_outputs(py, n, |out| {
            by_rows(
                0,
                n,
                (out, &mut games[..]),
                &|first, _, (mut out, games)| {
                    for (k, game) in games.iter_mut().enumerate() {
                        let mover = game.position().side_to_move();
                        let mv = Move::for_side(mover, moves[first + k] as usize)
                            .expect("checked by check_moves");
                        let next_moves = game.play(mv, rules);
                        match game.end {
                            None => {
                                let next = game.position();
                                out.write(k, next, 0.0, false, packed_mask(next, next_moves));
                            }
                            Some(end) => {
                                let reward = reward(&end, mover);
                                if autoreset {
                                    game.restart(fresh);
                                    out.write(k, fresh.position(), reward, true, fresh_mask);
                                } else {
                                    out.write(k, game.position(), reward, true, [false; 6]);
                                }
                            }
                        }
                    }
                    Ok(())
                },
            )
        })
    }

    /// A copy of game ``i``.
    fn game(&self, i: usize) -> PyResult<PyGame> {
        self.games
            .get(i)
            .map(|g| PyGame::from_game(g.game(self.rules)))
            .ok_or_else(|| {
                PyValueError::new_err(format!(
                    "there are {} games, not {}",
                    self.games.len(),
                    i + 1
                ))
            })
    }

    /// The rule set.
    #[getter]
    fn rules(&self) -> &'static str {
        self.rules.name()
    }

    fn __len__(&self) -> usize {
        self.games.len()
    }
}

/// Checks `moves[i]` in game `i` for every game; the first that cannot be played is the error,
/// with the rules' reason.
fn check_moves(games: &[PackedGame], moves: &[i64], rules: RuleSet) -> Result<(), String> {
    for (i, (game, &column)) in games.iter().zip(moves).enumerate() {
        let mover = game.position().side_to_move();
        let mv = column_move(column, mover).map_err(|e| format!("game {i}: {e}"))?;
        if !game.legal_moves(rules).contains(mv) {
            // The rare path: the game itself says why.
            let game = game.game(rules);
            let error = game
                .check_move(mv)
                .err()
                .map_or_else(|| "the move is illegal".to_string(), |e| e.to_string());
            return Err(format!("game {i} ({}): {error}", game.position()));
        }
    }
    Ok(())
}

/// The limit of a batched step: `steps` plies of uniformly random play on packed positions in
/// Rust alone (the legal moves, a random choice, the move, a new game at each end: what a step
/// of `batch.step` does per row, without numpy or Python), on this thread. Returns the seconds it
/// took, for `bench/random_play.py`.
#[pyfunction]
pub fn _rules_random_play(py: Python<'_>, steps: u64, rules: &str, seed: u64) -> PyResult<f64> {
    let rules = rules_of(rules)?;
    Ok(py.detach(|| {
        let start = PackedPosition::from_position(&Position::start());
        let timer = std::time::Instant::now();
        let mut position = start;
        let mut moves = position.legal_moves(rules);
        let mut checksum = 0u64;
        for step in 0..steps {
            let r = splitmix64(seed, step) >> 32;
            let pick = ((r * moves.len() as u64) >> 32) as usize;
            let mv = moves
                .nth(pick)
                .expect("a position in play has a legal move");
            let (next, captured) = position.play(mv, rules);
            checksum = checksum.wrapping_add(u64::from(captured));
            position = next;
            moves = position.legal_moves(rules);
            if moves.is_empty() {
                position = start;
                moves = position.legal_moves(rules);
            }
        }
        std::hint::black_box(checksum);
        timer.elapsed().as_secs_f64()
    }))
}

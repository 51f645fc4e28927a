//! The batched API over numpy arrays (`oware.batch`): one call plays a move in each of N positions
//! or games, in Rust, without the GIL.
//!
//! A position is a row of [`OBSERVATION_SIZE`] `int8` values (houses, stores, side to move), a move
//! a column 0..6 of the mover's row (the environments' actions). What a step returns, in order:
//! the positions after the moves, the rewards (the final seed difference for the player who moved,
//! 0 while the game goes on), the done flags, and the legal moves of the positions returned as
//! N×6 flags.

use numpy::{
    PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray1, PyReadonlyArray2, PyUntypedArrayMethods,
};
use oware_rules::{
    Game, Move, MoveSet, PackedPosition, Position, RuleSet, Side, HOUSES, TOTAL_SEEDS,
};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::convert::{
    history_free_reward, mask, observation, position_of_observation, reward, rules_of, value_error,
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

/// The rows a batched step writes, before they become arrays.
struct Rows {
    positions: Vec<i8>,
    rewards: Vec<f32>,
    dones: Vec<bool>,
    masks: Vec<bool>,
}

impl Rows {
    fn with_capacity(n: usize) -> Rows {
        Rows {
            positions: Vec::with_capacity(n * OBSERVATION_SIZE),
            rewards: Vec::with_capacity(n),
            dones: Vec::with_capacity(n),
            masks: Vec::with_capacity(n * 6),
        }
    }

    fn push(&mut self, position: &Position, reward: f32, done: bool, moves: MoveSet) {
        self.positions.extend_from_slice(&observation(position));
        self.rewards.push(reward);
        self.dones.push(done);
        self.masks.extend_from_slice(&mask(moves));
    }

    #[inline]
    fn push_packed(&mut self, position: PackedPosition, reward: f32, done: bool, mask: [bool; 6]) {
        self.positions
            .extend_from_slice(&position.word().to_le_bytes().map(|b| b as i8)[..OBSERVATION_SIZE]);
        self.rewards.push(reward);
        self.dones.push(done);
        self.masks.extend_from_slice(&mask);
    }

    fn into_arrays(self, py: Python<'_>) -> PyResult<StepArrays<'_>> {
        let n = self.rewards.len();
        Ok((
            PyArray1::from_vec(py, self.positions).reshape([n, OBSERVATION_SIZE])?,
            PyArray1::from_vec(py, self.rewards),
            PyArray1::from_vec(py, self.dones),
            PyArray1::from_vec(py, self.masks).reshape([n, 6])?,
        ))
    }
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
fn packed_mask(position: PackedPosition, moves: MoveSet) -> [bool; 6] {
    let bits = moves.bits() >> (6 * position.side_index());
    std::array::from_fn(|c| bits & (1 << c) != 0)
}

/// The packed position of an observation row, or why the row is not a position.
#[inline]
fn packed_of_row(row: &[i8]) -> Result<PackedPosition, String> {
    let mut bytes = [0u8; 16];
    for (b, &v) in bytes.iter_mut().zip(row) {
        *b = v as u8;
    }
    let total: u32 = bytes[..HOUSES + 2].iter().map(|&b| u32::from(b)).sum();
    let valid = total == u32::from(TOTAL_SEEDS)
        && bytes[..HOUSES + 2].iter().all(|&b| b <= TOTAL_SEEDS)
        && bytes[HOUSES + 2] <= 1;
    if !valid {
        // The rare path: the checked reader says what is wrong.
        return Err(position_of_observation(row)
            .err()
            .unwrap_or_else(|| "not a position".to_string()));
    }
    let mut houses = [0u8; HOUSES];
    houses.copy_from_slice(&bytes[..HOUSES]);
    let side = if bytes[HOUSES + 2] == 0 {
        Side::South
    } else {
        Side::North
    };
    let position = Position::new(houses, [bytes[HOUSES], bytes[HOUSES + 1]], side)
        .map_err(|e| e.to_string())?;
    Ok(PackedPosition::from_position(&position))
}

/// Plays `moves[i]` in position `i` of `positions` for every row, without history (see
/// `batch_step`), on the packed positions the engine's search plays on.
fn step_rows(
    positions: &[i8],
    moves: &[i64],
    rules: RuleSet,
    autoreset: bool,
) -> Result<Rows, String> {
    let mut out = Rows::with_capacity(moves.len());
    let start = PackedPosition::from_position(&Position::start());
    let start_moves = start.legal_moves(rules);
    for (i, (row, &column)) in positions
        .chunks_exact(OBSERVATION_SIZE)
        .zip(moves)
        .enumerate()
    {
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
            out.push_packed(next, 0.0, false, packed_mask(next, next_moves));
            continue;
        }
        let reward = history_free_reward(&next.to_position(), rules, mover).unwrap_or(0.0);
        if autoreset {
            out.push_packed(start, reward, true, packed_mask(start, start_moves));
        } else {
            out.push_packed(next, reward, true, [false; 6]);
        }
    }
    Ok(out)
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
    let out = py
        .detach(|| step_rows(rows, moves, rules, autoreset))
        .map_err(PyValueError::new_err)?;
    out.into_arrays(py)
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
    let moves = py.detach(|| {
        let mut state = seed;
        flags
            .chunks_exact(6)
            .map(|row| {
                let mut legal = [0i64; 6];
                let mut count = 0;
                for (c, _) in row.iter().enumerate().filter(|(_, &ok)| ok) {
                    legal[count] = c as i64;
                    count += 1;
                }
                if count == 0 {
                    return -1;
                }
                // Multiply-shift of 32 random bits: biased by less than 2^-29.
                let r = splitmix64(&mut state) >> 32;
                legal[((r * count as u64) >> 32) as usize]
            })
            .collect::<Vec<i64>>()
    });
    Ok(PyArray1::from_vec(py, moves))
}

/// One step of SplitMix64.
fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// N games played side by side, with their histories, so that repetitions end them exactly as
/// in ``Game``: ``Games(n, rules="abapa")``. ``step(moves)`` plays one move in every game (a
/// column 0-5 of each mover's row) and returns ``(positions, rewards, dones, masks)`` as
/// ``batch.step`` does; with ``autoreset`` (the default) a game that ends starts again.
#[pyclass(name = "Games", module = "oware.batch")]
pub struct PyGames {
    games: Vec<Game>,
    rules: RuleSet,
}

#[pymethods]
impl PyGames {
    #[new]
    #[pyo3(signature = (n, rules = "abapa"))]
    fn new(n: usize, rules: &str) -> PyResult<PyGames> {
        let rules = rules_of(rules)?;
        Ok(PyGames {
            games: vec![Game::new(rules); n],
            rules,
        })
    }

    /// Starts every game again, or only those whose flag is set in ``mask`` (N booleans).
    #[pyo3(signature = (mask = None))]
    fn reset(&mut self, mask: Option<PyReadonlyArray1<'_, bool>>) -> PyResult<()> {
        let fresh = Game::new(self.rules);
        match mask {
            None => self.games.fill(fresh),
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
                    *game = fresh.clone();
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
            .flat_map(|g| observation(g.position()))
            .collect();
        PyArray1::from_vec(py, flat).reshape([self.games.len(), OBSERVATION_SIZE])
    }

    /// The legal moves of every game, N×6 flags (none in a game that is over).
    fn legal_mask<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<bool>>> {
        let flat: Vec<bool> = self
            .games
            .iter()
            .flat_map(|g| mask(g.legal_moves()))
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
        if moves.len() != self.games.len() {
            return Err(PyValueError::new_err(format!(
                "{} games but {} moves",
                self.games.len(),
                moves.len()
            )));
        }
        let rules = self.rules;
        let games = &mut self.games;
        let out = py
            .detach(|| {
                // Every move is checked before any is played: an error leaves the games as they
                // were.
                let mut checked = Vec::with_capacity(moves.len());
                for (i, (game, &column)) in games.iter().zip(moves).enumerate() {
                    let mover = game.position().side_to_move();
                    let mv = column_move(column, mover).map_err(|e| format!("game {i}: {e}"))?;
                    game.check_move(mv)
                        .map_err(|e| format!("game {i} ({}): {e}", game.position()))?;
                    checked.push((mover, mv));
                }
                let mut out = Rows::with_capacity(moves.len());
                for (game, (mover, mv)) in games.iter_mut().zip(checked) {
                    let played = game.play(mv).map_err(|e| e.to_string())?;
                    match played.end {
                        None => out.push(game.position(), 0.0, false, game.legal_moves()),
                        Some(end) => {
                            let reward = reward(&end, mover);
                            if autoreset {
                                *game = Game::new(rules);
                            }
                            out.push(game.position(), reward, true, game.legal_moves());
                        }
                    }
                }
                Ok::<_, String>(out)
            })
            .map_err(PyValueError::new_err)?;
        out.into_arrays(py)
    }

    /// A copy of game ``i``.
    fn game(&self, i: usize) -> PyResult<PyGame> {
        self.games
            .get(i)
            .map(|g| PyGame::from_game(g.clone()))
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

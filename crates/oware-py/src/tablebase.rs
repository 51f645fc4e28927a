//! `oware.Tablebase`, `oware.DatabaseValue` and `oware.build_tablebase`.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;

use oware_egtb::EgtbError;
use oware_egtb_build::build::{build, check_max_seeds};
use oware_egtb_build::store::DirStore;
use oware_engine::tablebase::TablebaseProbe;
use oware_rules::RuleSet;
use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;

use crate::convert::{move_list, rules_of};
use crate::position::PyPosition;

/// A database error as a Python exception: `OSError` when the system failed to read or write,
/// `ValueError` for a file or directory that does not hold what was asked for.
pub fn egtb_error(error: EgtbError) -> PyErr {
    match error {
        EgtbError::Io { .. } => PyOSError::new_err(error.to_string()),
        _ => PyValueError::new_err(error.to_string()),
    }
}

/// What the databases say about a position, from the side to move's point of view, in the rule
/// set's units (``units`` says which): awari, the final seed difference over the seeds on the
/// board; abapa, the seeds of the board the side to move ends with, assuming no earlier history.
///
/// ``value`` is the exact value (``None`` when only bounds are known, possible under abapa),
/// ``lower``/``upper`` the bounds (equal when exact), ``best_moves`` the moves with the best value
/// (letters), ``moves`` each legal move's bounds ``{letter: (lower, upper)}``.
#[pyclass(frozen, get_all, name = "DatabaseValue", module = "oware")]
pub struct PyDatabaseValue {
    value: Option<i8>,
    exact: bool,
    lower: i8,
    upper: i8,
    best_moves: Vec<String>,
    moves: BTreeMap<String, (i8, i8)>,
    seeds: u8,
    units: &'static str,
}

#[pymethods]
impl PyDatabaseValue {
    fn __repr__(&self) -> String {
        let value = match self.value {
            Some(v) => v.to_string(),
            None => format!("{}..{}", self.lower, self.upper),
        };
        format!(
            "DatabaseValue(value={value}, best_moves={:?}, seeds={}, units='{}')",
            self.best_moves, self.seeds, self.units
        )
    }
}

/// Endgame databases of one rule set, opened from a directory built by ``oware egtb build`` or
/// ``build_tablebase``: ``Tablebase(dir, rules)``. Every level file is checked on opening.
#[pyclass(frozen, name = "Tablebase", module = "oware")]
pub struct PyTablebase {
    pub probe: Arc<TablebaseProbe>,
}

#[pymethods]
impl PyTablebase {
    #[new]
    fn new(py: Python<'_>, dir: PathBuf, rules: &str) -> PyResult<PyTablebase> {
        let rules = rules_of(rules)?;
        let probe = py
            .detach(|| TablebaseProbe::open(&dir, rules))
            .map_err(egtb_error)?;
        Ok(PyTablebase {
            probe: Arc::new(probe),
        })
    }

    /// The rule set of the databases.
    #[getter]
    fn rules(&self) -> &'static str {
        self.probe.tablebase().rules().name()
    }

    /// The most seeds on the board the databases cover.
    #[getter]
    fn max_seeds(&self) -> usize {
        self.probe.tablebase().max_seeds()
    }

    /// The value of ``position`` (its stores do not count: the value is over the board), or
    /// ``None`` when the board holds more seeds than the databases cover. A position of another
    /// rule set raises ``ValueError``.
    fn probe(&self, position: PyRef<'_, PyPosition>) -> PyResult<Option<PyDatabaseValue>> {
        let tb = self.probe.tablebase();
        if position.rules != tb.rules() {
            return Err(PyValueError::new_err(format!(
                "these are {} databases; the position is under {}",
                tb.rules(),
                position.rules
            )));
        }
        let pos = &position.position;
        let (Some(probe), Some(values), Some(best)) =
            (tb.probe(pos), tb.move_values(pos), tb.best_moves(pos))
        else {
            return Ok(None);
        };
        Ok(Some(PyDatabaseValue {
            value: probe.exact.then_some(probe.value),
            exact: probe.exact,
            lower: probe.lower,
            upper: probe.upper,
            best_moves: move_list(&best),
            moves: values
                .iter()
                .map(|(m, p)| (m.letter().to_string(), (p.lower, p.upper)))
                .collect(),
            seeds: pos.board_seeds(),
            units: match tb.rules() {
                RuleSet::Awari => "seed difference over the board",
                RuleSet::Abapa => "seeds of the board the mover ends with",
            },
        }))
    }

    fn __repr__(&self) -> String {
        format!(
            "Tablebase(rules='{}', max_seeds={})",
            self.rules(),
            self.max_seeds()
        )
    }
}

/// Builds the endgame databases of ``rules`` for boards of 0 to ``max_seeds`` seeds into ``dir``
/// by retrograde analysis, on every processor (levels already there are reused). Small levels
/// take moments (awari up to 12 seeds: seconds); see the project's README for the large ones.
/// Runs without the GIL.
#[pyfunction]
pub fn build_tablebase(
    py: Python<'_>,
    dir: PathBuf,
    rules: &str,
    max_seeds: usize,
) -> PyResult<()> {
    let rules = rules_of(rules)?;
    // Refused before the directory is made.
    check_max_seeds(rules, max_seeds).map_err(egtb_error)?;
    py.detach(|| {
        std::fs::create_dir_all(&dir).map_err(|error| EgtbError::Io {
            path: dir.clone(),
            error,
        })?;
        let mut store = DirStore::new(&dir);
        build(&mut store, rules, max_seeds, &(), |_| {}).map(|_| ())
    })
    .map_err(egtb_error)
}

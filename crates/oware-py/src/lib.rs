//! The native part of the Python package `oware` (`oware._oware`): thin bindings over the project's
//! crates. Every rule, search and database question is answered by `oware-rules`, `oware-engine`,
//! `oware-egtb` and `oware-coach`; this crate only converts between their types and Python's (and
//! numpy's), turns their typed errors into `ValueError`/`OSError`, and lets go of the GIL while
//! Rust works. The Python side (`python/oware`) adds the Gymnasium and PettingZoo environments.

mod batch;
mod coach;
mod convert;
mod engine;
mod env;
mod game;
mod position;
mod tablebase;

use pyo3::prelude::*;

/// Rules, engine, endgame databases and coach of oware, from Rust.
#[pymodule]
fn _oware(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<position::PyPosition>()?;
    m.add_class::<game::PyGame>()?;
    m.add_class::<game::PyGameEnd>()?;
    m.add_class::<engine::PyEngine>()?;
    m.add_class::<engine::PySearchResult>()?;
    m.add_class::<tablebase::PyTablebase>()?;
    m.add_class::<tablebase::PyDatabaseValue>()?;
    m.add_class::<coach::PyExplanation>()?;
    m.add_class::<batch::PyGames>()?;
    m.add_class::<env::EnvCore>()?;
    m.add_function(wrap_pyfunction!(position::perft, m)?)?;
    m.add_function(wrap_pyfunction!(tablebase::build_tablebase, m)?)?;
    m.add_function(wrap_pyfunction!(coach::coach_explain, m)?)?;
    m.add_function(wrap_pyfunction!(batch::batch_step, m)?)?;
    m.add_function(wrap_pyfunction!(batch::batch_initial, m)?)?;
    m.add_function(wrap_pyfunction!(batch::batch_legal_mask, m)?)?;
    m.add_function(wrap_pyfunction!(batch::batch_random_moves, m)?)?;
    m.add_function(wrap_pyfunction!(batch::_rules_random_play, m)?)?;
    m.add("OBSERVATION_SIZE", convert::OBSERVATION_SIZE)?;
    m.add("COACH_DEFAULT_DEPTH", oware_coach::DEPTH)?;
    Ok(())
}

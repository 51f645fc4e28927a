//! Where a level's entries live. The level loop ([`crate::build`]) only talks to a [`LevelStore`], so
//! the same loop can write files in a directory (the normal case), keep levels in memory (tests), or,
//! spread a level over the ranks of an MPI job (each rank saves its slice, see `crate::distributed`).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use oware_egtb::file::{open_level, write_level};
use oware_egtb::{EgtbError, LevelData};
use oware_rules::RuleSet;

/// Keeps finished levels.
pub trait LevelStore {
    /// The level if it has been built, `Ok(None)` if not, an error if what is there is unusable.
    fn load(&self, rules: RuleSet, seeds: usize) -> Result<Option<LevelData>, EgtbError>;
    /// Keeps a finished level and hands it back in the form later levels will read.
    fn save(
        &mut self,
        rules: RuleSet,
        seeds: usize,
        entries: Vec<u8>,
    ) -> Result<LevelData, EgtbError>;
}

/// Levels as files in a directory, one per rule set and level.
pub struct DirStore {
    dir: PathBuf,
}

impl DirStore {
    /// Levels in directory `dir` (created when the first level is saved).
    pub fn new(dir: impl AsRef<Path>) -> DirStore {
        DirStore {
            dir: dir.as_ref().to_path_buf(),
        }
    }

    /// The directory of the files.
    pub fn dir(&self) -> &Path {
        &self.dir
    }
}

impl LevelStore for DirStore {
    fn load(&self, rules: RuleSet, seeds: usize) -> Result<Option<LevelData>, EgtbError> {
        Ok(open_level(&self.dir, rules, seeds)?.map(LevelData::File))
    }

    fn save(
        &mut self,
        rules: RuleSet,
        seeds: usize,
        entries: Vec<u8>,
    ) -> Result<LevelData, EgtbError> {
        write_level(&self.dir, rules, seeds, &entries)?;
        drop(entries);
        self.load(rules, seeds)?
            .ok_or_else(|| EgtbError::MissingLevel {
                dir: self.dir.clone(),
                rules,
                seeds,
            })
    }
}

/// Levels in memory (tests, small experiments).
#[derive(Default)]
pub struct MemoryStore {
    levels: HashMap<(u8, usize), Arc<[u8]>>,
}

fn key(rules: RuleSet, seeds: usize) -> (u8, usize) {
    (rules as u8, seeds)
}

impl LevelStore for MemoryStore {
    fn load(&self, rules: RuleSet, seeds: usize) -> Result<Option<LevelData>, EgtbError> {
        Ok(self
            .levels
            .get(&key(rules, seeds))
            .map(|m| LevelData::Memory(m.clone())))
    }

    fn save(
        &mut self,
        rules: RuleSet,
        seeds: usize,
        entries: Vec<u8>,
    ) -> Result<LevelData, EgtbError> {
        let shared: Arc<[u8]> = entries.into();
        self.levels.insert(key(rules, seeds), shared.clone());
        Ok(LevelData::Memory(shared))
    }
}

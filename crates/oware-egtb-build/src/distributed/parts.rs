//! Part files: each rank writes its slice of a level to a part file and reports its length and
//! CRC-32; rank 0 assembles the level's file from the parts, checking each against its report.

use std::fs::{self, File};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use oware_egtb::file::{file_name, header_for, HEADER_LEN};
use oware_egtb::EgtbError;
use oware_rules::RuleSet;

/// What a rank reports to rank 0 about the part it wrote.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct PartReport {
    /// Bytes in the part: the entries of the rank's slice.
    pub(super) len: u64,
    /// CRC-32 of those bytes.
    pub(super) crc: u32,
}

impl PartReport {
    /// Bytes on the wire: the length, then the CRC-32, little-endian.
    const BYTES: usize = 12;

    pub(super) fn to_bytes(self) -> Vec<u8> {
        [&self.len.to_le_bytes()[..], &self.crc.to_le_bytes()].concat()
    }

    /// The report [`PartReport::to_bytes`] wrote; `None` if `bytes` is not one.
    pub(super) fn from_bytes(bytes: &[u8]) -> Option<PartReport> {
        if bytes.len() != PartReport::BYTES {
            return None;
        }
        let (len, crc) = bytes.split_at(8);
        Some(PartReport {
            len: u64::from_le_bytes(len.try_into().ok()?),
            crc: u32::from_le_bytes(crc.try_into().ok()?),
        })
    }
}

/// The part file of rank `rank` of `ranks` for a level.
pub(super) fn part_path(
    dir: &Path,
    rules: RuleSet,
    seeds: usize,
    rank: usize,
    ranks: usize,
) -> PathBuf {
    dir.join(format!(
        "{}.part-{rank}-of-{ranks}",
        file_name(rules, seeds)
    ))
}

fn io_error(path: &Path, error: std::io::Error) -> EgtbError {
    EgtbError::Io {
        path: path.to_path_buf(),
        error,
    }
}

/// Writes this rank's slice; returns its CRC-32.
pub(super) fn write_part(path: &Path, entries: &[u8]) -> Result<u32, EgtbError> {
    let write = || -> std::io::Result<()> {
        let mut f = File::create(path)?;
        f.write_all(entries)?;
        f.sync_all()
    };
    write().map_err(|e| io_error(path, e))?;
    Ok(crc32fast::hash(entries))
}

/// Rank 0: the level's file from the parts, each checked against what its rank reported, through a
/// temporary name; the parts are removed.
pub(super) fn assemble(
    dir: &Path,
    rules: RuleSet,
    seeds: usize,
    count: u64,
    parts: &[PartReport],
) -> Result<(), EgtbError> {
    let path = dir.join(file_name(rules, seeds));
    let tmp = path.with_extension("oegtb.partial");
    let ranks = parts.len();
    let mut out = File::create(&tmp).map_err(|e| io_error(&tmp, e))?;
    out.write_all(&[0u8; HEADER_LEN])
        .map_err(|e| io_error(&tmp, e))?;
    let mut whole = crc32fast::Hasher::new();
    let mut buffer = vec![0u8; 1 << 20];
    for (rank, &PartReport { len, crc }) in parts.iter().enumerate() {
        let part = part_path(dir, rules, seeds, rank, ranks);
        let mut f = File::open(&part).map_err(|e| io_error(&part, e))?;
        let mut hasher = crc32fast::Hasher::new();
        let mut read = 0u64;
        loop {
            let got = f.read(&mut buffer).map_err(|e| io_error(&part, e))?;
            if got == 0 {
                break;
            }
            hasher.update(&buffer[..got]);
            whole.update(&buffer[..got]);
            out.write_all(&buffer[..got])
                .map_err(|e| io_error(&tmp, e))?;
            read += got as u64;
        }
        if read != len || hasher.finalize() != crc {
            let _ = fs::remove_file(&tmp);
            return Err(EgtbError::Damaged { path: part });
        }
    }
    let finish = || -> std::io::Result<()> {
        out.seek(SeekFrom::Start(0))?;
        out.write_all(&header_for(rules, seeds, 1, count, whole.finalize()))?;
        out.sync_all()?;
        fs::rename(&tmp, &path)
    };
    finish().map_err(|e| io_error(&path, e))?;
    for rank in 0..ranks {
        let _ = fs::remove_file(part_path(dir, rules, seeds, rank, ranks));
    }
    Ok(())
}

/// Rank 0, before anything: part files and temporary files a stopped run of `rules` left in `dir`.
pub(super) fn remove_leftovers(dir: &Path, rules: RuleSet) -> Result<(), EgtbError> {
    fs::create_dir_all(dir).map_err(|e| io_error(dir, e))?;
    let prefix = format!("{}-", rules.name());
    for entry in fs::read_dir(dir).map_err(|e| io_error(dir, e))? {
        let entry = entry.map_err(|e| io_error(dir, e))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with(&prefix)
            && (name.contains(".oegtb.part-") || name.ends_with(".partial"))
        {
            fs::remove_file(entry.path()).map_err(|e| io_error(&entry.path(), e))?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_part_report_reads_back_and_nothing_else_reads_as_one() {
        let report = PartReport {
            len: 0x0102_0304_0506_0708,
            crc: 0xdead_beef,
        };
        let bytes = report.to_bytes();
        assert_eq!(bytes.len(), PartReport::BYTES);
        assert_eq!(PartReport::from_bytes(&bytes), Some(report));
        assert_eq!(PartReport::from_bytes(&bytes[..11]), None);
        assert_eq!(PartReport::from_bytes(&[bytes, vec![0]].concat()), None);
        assert_eq!(PartReport::from_bytes(&[]), None);
    }
}

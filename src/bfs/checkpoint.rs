//! A run's save after its finished depths, so that a stopped run resumes where it stopped.
//! The run saves after a depth once its passes since the last save took as long as a save
//! (`SavePolicy` in the engine): after every depth wherever the passes are the longer, as in
//! any large run's deep levels.
//!
//! The save is the whole table as it stands between passes, with the histogram, the passes
//! and the deepest states kept so far, under a header that names the space (a fingerprint the
//! caller computes from everything that decides the ranks and moves), the encoding and the
//! size: a save of another space, encoding or size is refused, never resumed from. It is
//! written to a temporary file beside it, flushed to disk and renamed over the last one, so
//! that a run killed mid-write (`kill -9`, a Slurm time limit) leaves the previous depth's
//! save whole. A checksum (xxh3) of everything after the magic, counts and table alike, is
//! stored last and checked on load: a flipped bit anywhere is refused, never resumed from.

use super::Pass;
use crate::packing::Encoding;
use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU8, Ordering::Relaxed};

/// The first bytes of a save.
const MAGIC: &[u8; 16] = b"cubelab-bfs-v1\n\0";

/// Where a run saves its depths, and the fingerprint of the space it runs over.
#[derive(Clone, Debug)]
pub struct Checkpoint {
    pub path: PathBuf,
    pub fingerprint: u64,
}

/// Why a save could not be written or read.
#[derive(Debug, thiserror::Error)]
pub enum CheckpointError {
    #[error("cannot write the checkpoint {}: {source}; free some disk or give another --checkpoint path", path.display())]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("cannot read the checkpoint {}: {source}", path.display())]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error(
        "the checkpoint {} is damaged ({what}); remove it to start the run afresh",
        path.display()
    )]
    Damaged { path: PathBuf, what: &'static str },
    #[error(
        "the checkpoint {} belongs to another run (another puzzle, moves, goal or encoding); remove it or give another --checkpoint path",
        path.display()
    )]
    Foreign { path: PathBuf },
}

/// What a save holds.
pub(super) struct Saved {
    pub packed: Vec<u8>,
    pub histogram: Vec<u64>,
    pub passes: Vec<Pass>,
    pub deepest: Vec<u64>,
}

impl Checkpoint {
    /// A save for the space of `fingerprint` at `path`.
    pub fn new(path: impl Into<PathBuf>, fingerprint: u64) -> Checkpoint {
        Checkpoint {
            path: path.into(),
            fingerprint,
        }
    }

    /// Whether a save is there to resume from.
    pub fn exists(&self) -> bool {
        self.path.exists()
    }

    /// Removes the save (once the run it belongs to is done).
    pub fn remove(&self) -> Result<(), CheckpointError> {
        match std::fs::remove_file(&self.path) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(CheckpointError::Write {
                path: self.path.clone(),
                source: e,
            }),
            _ => Ok(()),
        }
    }

    /// The save at the path, if there is one: `None` where there is none.
    pub(super) fn load(
        &self,
        encoding: Encoding,
        size: u64,
    ) -> Result<Option<Saved>, CheckpointError> {
        let file = match File::open(&self.path) {
            Ok(file) => file,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(source) => {
                return Err(CheckpointError::Read {
                    path: self.path.clone(),
                    source,
                });
            }
        };
        let mut reader = BufReader::new(file);
        let read_err = |source| CheckpointError::Read {
            path: self.path.clone(),
            source,
        };
        let damaged = |what| CheckpointError::Damaged {
            path: self.path.clone(),
            what,
        };
        let mut magic = [0u8; 16];
        reader
            .read_exact(&mut magic)
            .map_err(|_| damaged("too short for its header"))?;
        if &magic != MAGIC {
            return Err(damaged("not a cubelab checkpoint"));
        }
        // The checksum covers every word after the magic, then the table.
        let mut checksum = xxhash_rust::xxh3::Xxh3::new();
        let mut word = || -> Result<u64, CheckpointError> {
            let mut bytes = [0u8; 8];
            reader
                .read_exact(&mut bytes)
                .map_err(|_| damaged("cut short"))?;
            checksum.update(&bytes);
            Ok(u64::from_le_bytes(bytes))
        };
        let (fingerprint, encoding_code, saved_size) = (word()?, word()?, word()?);
        if fingerprint != self.fingerprint
            || encoding_code != encoding_code_of(encoding)
            || saved_size != size
        {
            return Err(CheckpointError::Foreign {
                path: self.path.clone(),
            });
        }
        let depths = word()? as usize;
        if depths == 0 || depths > 1 << 16 {
            return Err(damaged("an impossible number of depths"));
        }
        let histogram = (0..depths).map(|_| word()).collect::<Result<Vec<_>, _>>()?;
        let passes = (1..depths)
            .map(|depth| {
                let backward = word()? != 0;
                let found = word()?;
                let seconds = f64::from_bits(word()?);
                Ok(Pass {
                    depth,
                    backward,
                    found,
                    seconds,
                })
            })
            .collect::<Result<Vec<_>, CheckpointError>>()?;
        let kept = word()? as usize;
        if kept > 1 << 24 {
            return Err(damaged("an impossible number of deepest states"));
        }
        let deepest = (0..kept).map(|_| word()).collect::<Result<Vec<_>, _>>()?;
        let bytes = word()?;
        if bytes != encoding.payload_bytes(size) {
            return Err(damaged("a table of the wrong length"));
        }
        let mut packed = vec![0u8; bytes as usize];
        reader.read_exact(&mut packed).map_err(read_err)?;
        checksum.update(&packed);
        let mut tail = [0u8; 8];
        reader
            .read_exact(&mut tail)
            .map_err(|_| damaged("cut short"))?;
        if checksum.digest() != u64::from_le_bytes(tail) {
            return Err(damaged("its checksum differs"));
        }
        Ok(Some(Saved {
            packed,
            histogram,
            passes,
            deepest,
        }))
    }

    /// Saves the run as it stands after a finished depth, replacing the last save whole.
    pub(super) fn save(
        &self,
        encoding: Encoding,
        size: u64,
        packed: &[AtomicU8],
        histogram: &[u64],
        passes: &[Pass],
        deepest: &[u64],
    ) -> Result<(), CheckpointError> {
        let write_err = |source| CheckpointError::Write {
            path: self.path.clone(),
            source,
        };
        let temporary = temporary_path(&self.path);
        let file = File::create(&temporary).map_err(write_err)?;
        let mut writer = BufWriter::new(file);
        let mut words: Vec<u64> = vec![
            self.fingerprint,
            encoding_code_of(encoding),
            size,
            histogram.len() as u64,
        ];
        words.extend_from_slice(histogram);
        for pass in passes {
            words.extend([u64::from(pass.backward), pass.found, pass.seconds.to_bits()]);
        }
        words.push(deepest.len() as u64);
        words.extend_from_slice(deepest);
        words.push(packed.len() as u64);
        writer.write_all(MAGIC).map_err(write_err)?;
        let mut checksum = xxhash_rust::xxh3::Xxh3::new();
        for w in words {
            checksum.update(&w.to_le_bytes());
            writer.write_all(&w.to_le_bytes()).map_err(write_err)?;
        }
        // Copied a block at a time, not whole: the table may be most of the memory there is.
        let mut block = vec![0u8; 1 << 20];
        for chunk in packed.chunks(block.len()) {
            let block = &mut block[..chunk.len()];
            for (b, a) in block.iter_mut().zip(chunk) {
                *b = a.load(Relaxed);
            }
            checksum.update(block);
            writer.write_all(block).map_err(write_err)?;
        }
        writer
            .write_all(&checksum.digest().to_le_bytes())
            .map_err(write_err)?;
        let file = writer.into_inner().map_err(|e| write_err(e.into_error()))?;
        file.sync_all().map_err(write_err)?;
        std::fs::rename(&temporary, &self.path).map_err(write_err)
    }
}

fn temporary_path(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".tmp");
    path.with_file_name(name)
}

fn encoding_code_of(encoding: Encoding) -> u64 {
    match encoding {
        Encoding::Nibble => 1,
        Encoding::Mod3 => 2,
        Encoding::Based => 3,
        Encoding::Byte => 4,
    }
}

//! The [`Transport`] of a real job: MPI (rsmpi over the system's MPI library, Open MPI on Debian).
//! An exchange is `MPI_Alltoall` of the buffer lengths, then `MPI_Alltoallv` of the bytes; only the
//! thread that initialised MPI calls it (the solver's rayon threads never do), so MPI runs with
//! `MPI_THREAD_FUNNELED`.

use mpi::datatype::{Partition, PartitionMut};
use mpi::environment::Universe;
use mpi::topology::SimpleCommunicator;
use mpi::traits::*;
use mpi::Count;

use crate::transport::{Transport, TransportError};

/// The world of an MPI job; MPI is finalised when it is dropped.
pub struct MpiTransport {
    world: SimpleCommunicator,
    _universe: Universe,
}

impl MpiTransport {
    /// Initialises MPI, or `None` if it was initialised already (once per process).
    pub fn init() -> Option<MpiTransport> {
        let (universe, _) = mpi::initialize_with_threading(mpi::Threading::Funneled)?;
        Some(MpiTransport {
            world: universe.world(),
            _universe: universe,
        })
    }

    /// Ends the whole job at once (every rank), as a rank must when it cannot go on: the others
    /// would otherwise wait for it in the next exchange.
    pub fn abort(&self, code: i32) -> ! {
        self.world.abort(code)
    }
}

fn displacements(counts: &[Count]) -> Vec<Count> {
    counts
        .iter()
        .scan(0, |at, &c| {
            let d = *at;
            *at += c;
            Some(d)
        })
        .collect()
}

impl Transport for MpiTransport {
    fn rank(&self) -> usize {
        self.world.rank() as usize
    }

    fn size(&self) -> usize {
        self.world.size() as usize
    }

    fn exchange(&self, outgoing: Vec<Vec<u8>>) -> Result<Vec<Vec<u8>>, TransportError> {
        let size = self.size();
        if outgoing.len() != size {
            return Err(TransportError(format!(
                "{} buffers for {size} ranks",
                outgoing.len()
            )));
        }
        let total: usize = outgoing.iter().map(Vec::len).sum();
        if total > Count::MAX as usize {
            return Err(TransportError(format!(
                "{total} bytes in one exchange: more than one MPI message holds"
            )));
        }
        let send_counts: Vec<Count> = outgoing.iter().map(|b| b.len() as Count).collect();
        let mut recv_counts = vec![0 as Count; size];
        self.world
            .all_to_all_into(&send_counts[..], &mut recv_counts[..]);
        let received: i64 = recv_counts.iter().map(|&c| c as i64).sum();
        if received > Count::MAX as i64 {
            return Err(TransportError(format!(
                "{received} bytes to receive in one exchange: more than one MPI message holds"
            )));
        }
        // One byte more than needed on both sides: empty vectors would share one dangling address,
        // and MPI refuses a send buffer that is also the receive buffer.
        let mut send: Vec<u8> = Vec::with_capacity(total + 1);
        for b in &outgoing {
            send.extend_from_slice(b);
        }
        send.push(0);
        let mut recv = vec![0u8; received as usize + 1];
        let (send_displs, recv_displs) = (displacements(&send_counts), displacements(&recv_counts));
        {
            let from = Partition::new(&send[..], &send_counts[..], &send_displs[..]);
            let mut to = PartitionMut::new(&mut recv[..], &recv_counts[..], &recv_displs[..]);
            self.world.all_to_all_varcount_into(&from, &mut to);
        }
        Ok(recv_displs
            .iter()
            .zip(&recv_counts)
            .map(|(&d, &c)| recv[d as usize..(d + c) as usize].to_vec())
            .collect())
    }
}

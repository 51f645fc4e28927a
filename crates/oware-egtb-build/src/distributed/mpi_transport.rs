//! The [`Transport`] of a real job: MPI (rsmpi over the system's MPI library, Open MPI on Debian).
//! An exchange is `MPI_Alltoall` of the buffer lengths, then `MPI_Alltoallv` of the bytes.
//!
//! Communication overlaps computation by a communication thread: [`MpiTransport::serve`] runs the
//! build on a worker thread and keeps the thread that initialised MPI for the exchanges, which it
//! carries out one at a time in the order the worker started them, while the worker (and its rayon
//! threads) go on computing. Only that thread calls MPI, so MPI runs with `MPI_THREAD_FUNNELED`.
//! A blocking collective per exchange (rather than `MPI_Ialltoallv`) keeps every rank's exchanges
//! in the same order without any progress polling in the solver.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::Mutex;

use mpi::datatype::{Partition, PartitionMut};
use mpi::environment::Universe;
use mpi::topology::SimpleCommunicator;
use mpi::traits::*;
use mpi::Count;

use super::transport::{Ticket, Transport, TransportError};

type Reply = Result<Vec<Vec<u8>>, TransportError>;
/// An exchange the worker asks of the MPI thread: the outgoing buffers, and where to reply.
type Request = (Vec<Vec<u8>>, Sender<Reply>);

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

    /// This rank's number in the job.
    pub fn rank(&self) -> usize {
        self.world.rank() as usize
    }

    /// Ranks in the job.
    pub fn size(&self) -> usize {
        self.world.size() as usize
    }

    /// Runs `work` on a new thread with a transport whose exchanges this thread carries out, in
    /// the order `work` starts them, while `work` goes on; returns what `work` returned. Call it on
    /// the thread that initialised MPI.
    pub fn serve<R: Send>(&self, work: impl FnOnce(&dyn Transport) -> R + Send) -> R {
        let (requests, inbox) = channel::<Request>();
        let handle = Exchanges {
            rank: self.rank(),
            size: self.size(),
            requests: Mutex::new(requests),
            replies: Mutex::new(HashMap::new()),
            next: AtomicU64::new(0),
        };
        std::thread::scope(|s| {
            let worker = s.spawn(move || work(&handle));
            // Ends when the worker is done and its transport (the last sender) is dropped.
            for (outgoing, reply) in inbox {
                // A worker that stopped waiting (an error elsewhere) no longer needs the reply.
                let _ = reply.send(self.all_to_all(outgoing));
            }
            worker
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
        })
    }
}

/// The worker's side of [`MpiTransport::serve`]: exchanges go to the MPI thread as requests, each
/// with the channel its reply comes back on.
struct Exchanges {
    rank: usize,
    size: usize,
    requests: Mutex<Sender<Request>>,
    replies: Mutex<HashMap<u64, Receiver<Reply>>>,
    next: AtomicU64,
}

impl Exchanges {
    fn gone() -> TransportError {
        TransportError("the MPI communication thread is gone".into())
    }
}

impl Transport for Exchanges {
    fn rank(&self) -> usize {
        self.rank
    }

    fn size(&self) -> usize {
        self.size
    }

    fn start(&self, outgoing: Vec<Vec<u8>>) -> Result<Ticket, TransportError> {
        let (reply, replied) = channel();
        let number = self.next.fetch_add(1, Relaxed);
        self.requests
            .lock()
            .map_err(|_| Self::gone())?
            .send((outgoing, reply))
            .map_err(|_| Self::gone())?;
        self.replies
            .lock()
            .map_err(|_| Self::gone())?
            .insert(number, replied);
        Ok(Ticket(number))
    }

    fn finish(&self, ticket: Ticket) -> Result<Vec<Vec<u8>>, TransportError> {
        let replied = self
            .replies
            .lock()
            .map_err(|_| Self::gone())?
            .remove(&ticket.0)
            .ok_or_else(|| TransportError(format!("exchange {} was not started", ticket.0)))?;
        replied.recv().map_err(|_| Self::gone())?
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

impl MpiTransport {
    /// One exchange, blocking: the lengths, then the bytes.
    fn all_to_all(&self, outgoing: Vec<Vec<u8>>) -> Reply {
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

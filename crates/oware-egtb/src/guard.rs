//! Memory-mapped files that cannot kill the process when they shrink.
//!
//! Reading a page of a mapping that lies past the end of its file raises SIGBUS, whose default action
//! ends the process: a database file truncated under a running server would take the server down.
//! Each mapping of a database file is registered here; a handler for SIGBUS that finds the faulting
//! address inside a registered mapping marks it *tripped* and maps zero-filled pages over the whole
//! mapping, so the read that faulted, and every later one, reads zeros and the process goes on. The
//! readers ([`crate::file::LevelFile`]) then see that the file changed and stop trusting the
//! mapping. A fault anywhere else goes to the handler that was there before (the standard library's
//! stack-overflow report, or the default action), so other crashes stay crashes.
//!
//! Why not read the files instead: the engine probes the databases at most nodes of an endgame
//! search, several times per position, and the awari levels 0-28 take 5 GB, so the entries cannot
//! all be copied into memory, and a system call per probe (`pread`) costs more than the probe
//! itself. The guard keeps a plain memory read per probe.
//!
//! The guard is for Linux (and Android), whose `siginfo_t` gives the faulting address the same way.
//! Elsewhere mappings are not guarded: Windows refuses to truncate a mapped file, and other Unix
//! systems keep the usual risk of memory-mapping.

/// A registered mapping; dropping it ends the registration (drop it before unmapping).
pub(crate) struct Guard {
    #[cfg(any(target_os = "linux", target_os = "android"))]
    slot: usize,
}

/// No room for another guarded mapping.
#[derive(Debug)]
pub(crate) struct Full;

#[cfg(any(target_os = "linux", target_os = "android"))]
mod imp {
    use std::sync::atomic::{fence, AtomicBool, AtomicUsize, Ordering};
    use std::sync::OnceLock;

    use super::{Full, Guard};

    /// Mappings guarded at once: a database has at most 49 levels, and a process rarely holds more
    /// than a few databases.
    const SLOTS: usize = 4096;

    /// One registered mapping. `version` is a sequence lock: odd while the slot is being changed,
    /// so that the handler never acts on a half-written range.
    struct Slot {
        version: AtomicUsize,
        in_use: AtomicBool,
        start: AtomicUsize,
        end: AtomicUsize,
        tripped: AtomicBool,
    }

    impl Slot {
        const fn new() -> Slot {
            Slot {
                version: AtomicUsize::new(0),
                in_use: AtomicBool::new(false),
                start: AtomicUsize::new(0),
                end: AtomicUsize::new(0),
                tripped: AtomicBool::new(false),
            }
        }

        /// The range, as long as it stays the same while read; `None` while it changes.
        fn range(&self) -> Option<(usize, usize)> {
            let before = self.version.load(Ordering::Acquire);
            if before % 2 == 1 {
                return None;
            }
            let range = (
                self.start.load(Ordering::Relaxed),
                self.end.load(Ordering::Relaxed),
            );
            fence(Ordering::Acquire);
            (self.version.load(Ordering::Relaxed) == before).then_some(range)
        }

        fn write(&self, start: usize, end: usize) {
            self.version.fetch_add(1, Ordering::AcqRel);
            self.start.store(start, Ordering::Relaxed);
            self.end.store(end, Ordering::Relaxed);
            self.tripped.store(false, Ordering::Relaxed);
            self.version.fetch_add(1, Ordering::Release);
        }
    }

    static TABLE: [Slot; SLOTS] = [const { Slot::new() }; SLOTS];

    /// The action SIGBUS had before the guard's handler, for faults that are not the guard's.
    static PREVIOUS: OnceLock<libc::sigaction> = OnceLock::new();

    fn page_size() -> usize {
        // SAFETY: sysconf only reads a system constant.
        let size = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
        usize::try_from(size).unwrap_or(4096)
    }

    /// Installs the handler once per process.
    fn install() {
        PREVIOUS.get_or_init(|| {
            // SAFETY: sigaction with valid pointers; the handler only touches atomics and calls
            // async-signal-safe system calls (mmap, sigaction).
            unsafe {
                let mut previous: libc::sigaction = std::mem::zeroed();
                let mut action: libc::sigaction = std::mem::zeroed();
                let handler: Handler = on_sigbus;
                action.sa_sigaction = handler as libc::sighandler_t;
                action.sa_flags = libc::SA_SIGINFO | libc::SA_ONSTACK;
                libc::sigemptyset(&mut action.sa_mask);
                // PREVIOUS is set before a mapping can be registered, so the handler always finds
                // it: nothing can fault in a guarded mapping before `register` returns.
                libc::sigaction(libc::SIGBUS, std::ptr::null(), &mut previous);
                libc::sigaction(libc::SIGBUS, &action, std::ptr::null_mut());
                previous
            }
        });
    }

    type Handler = extern "C" fn(libc::c_int, *mut libc::siginfo_t, *mut libc::c_void);

    extern "C" fn on_sigbus(
        signal: libc::c_int,
        info: *mut libc::siginfo_t,
        context: *mut libc::c_void,
    ) {
        // SAFETY: the kernel passes a valid siginfo_t to a handler installed with SA_SIGINFO.
        let address = unsafe { (*info).si_addr() } as usize;
        for slot in &TABLE {
            if !slot.in_use.load(Ordering::Acquire) {
                continue;
            }
            let Some((start, end)) = slot.range() else {
                continue;
            };
            if !(start..end).contains(&address) {
                continue;
            }
            // Tripped before the zeros appear: a reader that sees zeros then sees the mark.
            slot.tripped.store(true, Ordering::SeqCst);
            // SAFETY: the range is a live mapping of this process (registered until its owner
            // unregisters it, before unmapping it); replacing it with anonymous zero pages of the
            // same size keeps every address in it readable.
            let zeros = unsafe {
                libc::mmap(
                    start as *mut libc::c_void,
                    end - start,
                    libc::PROT_READ,
                    libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_FIXED,
                    -1,
                    0,
                )
            };
            if zeros != libc::MAP_FAILED {
                return;
            }
            break;
        }
        // SAFETY: hands the signal to the action that was there before, as it expects to be called.
        unsafe { pass_on(signal, info, context) }
    }

    /// The fault is not the guard's (or the guard could not repair it): the previous action deals
    /// with it. When that is the default (or to ignore it, which a fault cannot be), the default
    /// action comes back and the faulting read, run again on return, ends the process as it would
    /// have without the guard.
    unsafe fn pass_on(signal: libc::c_int, info: *mut libc::siginfo_t, context: *mut libc::c_void) {
        let previous = PREVIOUS.get();
        let handler = previous.map_or(libc::SIG_DFL, |p| p.sa_sigaction);
        if handler == libc::SIG_DFL || handler == libc::SIG_IGN {
            // SAFETY: a zeroed sigaction is the default action with an empty mask.
            unsafe {
                let mut default: libc::sigaction = std::mem::zeroed();
                default.sa_sigaction = libc::SIG_DFL;
                libc::sigaction(signal, &default, std::ptr::null_mut());
            }
            return;
        }
        let siginfo = previous.is_some_and(|p| p.sa_flags & libc::SA_SIGINFO != 0);
        // SAFETY: the previous handler was installed with these flags, so it has this signature.
        unsafe {
            if siginfo {
                let f = std::mem::transmute::<libc::sighandler_t, Handler>(handler);
                f(signal, info, context);
            } else {
                let f =
                    std::mem::transmute::<libc::sighandler_t, extern "C" fn(libc::c_int)>(handler);
                f(signal);
            }
        }
    }

    impl Guard {
        /// Guards the mapping of `len` bytes at `start` (page-aligned, as mappings are).
        pub(crate) fn register(start: *const u8, len: usize) -> Result<Guard, Full> {
            install();
            let page = page_size();
            let start = start as usize;
            let end = start + len.div_ceil(page) * page;
            for (i, slot) in TABLE.iter().enumerate() {
                if slot
                    .in_use
                    .compare_exchange(false, true, Ordering::AcqRel, Ordering::Relaxed)
                    .is_ok()
                {
                    slot.write(start, end);
                    return Ok(Guard { slot: i });
                }
            }
            Err(Full)
        }

        /// Whether a read of the mapping faulted (its file shrank): it reads zeros since.
        #[inline]
        pub(crate) fn tripped(&self) -> bool {
            TABLE[self.slot].tripped.load(Ordering::Acquire)
        }
    }

    impl Drop for Guard {
        fn drop(&mut self) {
            let slot = &TABLE[self.slot];
            slot.write(0, 0);
            slot.in_use.store(false, Ordering::Release);
        }
    }
}

#[cfg(not(any(target_os = "linux", target_os = "android")))]
impl Guard {
    pub(crate) fn register(_: *const u8, _: usize) -> Result<Guard, Full> {
        Ok(Guard {})
    }

    #[inline]
    pub(crate) fn tripped(&self) -> bool {
        false
    }
}

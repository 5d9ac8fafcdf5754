//! What the binaries share beyond the library's concepts.

/// Lets a write to a closed pipe end the process the way it ends `cat` or `yes` in
/// `... | head`: killed by SIGPIPE (status 141 in a shell), nothing printed. Rust starts
/// programs with SIGPIPE ignored, so such a write fails instead, and `println!` panics on the
/// failure. The rejected alternative, handling the error at every print, spreads one concern
/// over every line of output; the tables a binary writes are safe either way (each is written
/// to a temporary file and renamed when complete).
pub fn end_quietly_on_closed_pipe() {
    #[cfg(unix)]
    // SAFETY: called first thing in `main`, before any thread starts; SIG_DFL is a valid
    // disposition for SIGPIPE.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

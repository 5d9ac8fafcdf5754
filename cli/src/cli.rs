//! What the binaries share beyond the library's concepts: the exit-status policy, `--generate`,
//! the closed-pipe behaviour, and value names outside clap.

use std::process::ExitCode;

/// The one exit-status policy of every binary:
/// - `Ok(true)`: 0, everything asked was done;
/// - `Ok(false)`: 1, the run finished but some answer is negative (a position not solved as
///   asked, a table that disagrees with its counts, a file that is no circuit, a table that
///   could not be built while the others were);
/// - `Err(message)`: 2, nothing could be done (arguments, missing tables); the message goes to
///   standard error as `<program>: error: <message>`.
pub fn exit_status(program: &str, result: Result<bool, String>) -> ExitCode {
    match result {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(message) => {
            eprintln!("{program}: error: {message}");
            ExitCode::from(2)
        }
    }
}

/// Writes to standard output; a failed write (a full disk, a closed descriptor) is an error
/// for the caller to return, never a panic and never taken for success. A closed pipe does not
/// come here: it ends the process first (see [`set_signal_handlers`]).
pub fn write_out(text: std::fmt::Arguments<'_>) -> Result<(), String> {
    use std::io::Write;
    std::io::stdout()
        .lock()
        .write_fmt(text)
        .map_err(|e| stdout_failed(&e))
}

/// The message for a failed write to standard output.
pub fn stdout_failed(e: &std::io::Error) -> String {
    format!("cannot write to standard output: {e}")
}

/// `println!` for the binaries' commands: a failed write is returned, for the command to
/// return as its error (see [`write_out`]).
#[macro_export]
macro_rules! outln {
    () => {
        $crate::cli::write_out(format_args!("\n"))
    };
    ($($arg:tt)*) => {
        $crate::cli::write_out(format_args!("{}\n", format_args!($($arg)*)))
    };
}

/// `print!` for the binaries' commands; see [`outln!`].
#[macro_export]
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::cli::write_out(format_args!($($arg)*))
    };
}

/// Stops with a message where the processor lacks what this build was compiled for: x86_64
/// builds target x86-64-v2 (`.cargo/config.toml`: SSSE3, SSE4.2, POPCNT; Intel since 2008, AMD
/// since 2011), and the first such instruction would otherwise end the process with SIGILL and
/// no word. Read from `cpuid` itself: `is_x86_feature_detected!` answers "yes" for every
/// feature the build enables, without asking the processor. Every binary calls it first.
pub fn check_processor() {
    #[cfg(all(target_arch = "x86_64", target_feature = "ssse3"))]
    {
        // CPUID leaf 1, ECX: bit 9 SSSE3, bit 20 SSE4.2, bit 23 POPCNT.
        const NEEDED: u32 = 1 << 9 | 1 << 20 | 1 << 23;
        // SAFETY: every x86_64 processor has CPUID and its leaf 1. (The intrinsic is safe to
        // call in newer toolchains than the oldest this crate supports.)
        #[allow(unused_unsafe)]
        let features = unsafe { std::arch::x86_64::__cpuid(1) }.ecx;
        if features & NEEDED != NEEDED {
            eprintln!(
                "error: this build needs an x86-64-v2 processor (SSSE3, SSE4.2, POPCNT), and \
                 this one lacks some of them. Build for this processor instead: \
                 RUSTFLAGS=\"-C target-cpu=native\" cargo build --release"
            );
            std::process::exit(2);
        }
    }
}

/// The signal dispositions every binary sets first thing in `main`, before any thread starts.
///
/// A write to a closed pipe ends the process the way it ends `cat` or `yes` in `... | head`:
/// killed by SIGPIPE (status 141 in a shell), nothing printed. Rust starts programs with
/// SIGPIPE ignored, so such a write fails instead. The rejected alternative, handling a closed
/// pipe at every print, spreads one concern over every line of output; the tables a binary
/// writes are safe either way (each is written to a temporary file and renamed when complete).
///
/// A table file truncated while mapped (written in place under a running search) faults the
/// next read with SIGBUS, which would end the process with no word; the handler says what
/// happened and exits with status 2. (Changes short of that are caught before an answer is
/// given: see [`cubelab::table::identity`].)
pub fn set_signal_handlers() {
    #[cfg(unix)]
    // SAFETY: called before any thread starts; SIG_DFL is a valid disposition for SIGPIPE, and
    // the SIGBUS handler calls only async-signal-safe functions (`write`, `_exit`).
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
        libc::signal(
            libc::SIGBUS,
            explain_bus_error as extern "C" fn(libc::c_int) as libc::sighandler_t,
        );
    }
}

/// Refuses an output file (`option`'s `output`) that already exists as one of `inputs`, by
/// whatever path (a link, `./x`, another mount of the same file): writing it would destroy the
/// input before, or while, it is read.
pub fn refuse_input_as_output(
    output: &std::path::Path,
    option: &str,
    inputs: &[(&str, &std::path::Path)],
) -> Result<(), String> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let identity =
            |path: &std::path::Path| std::fs::metadata(path).ok().map(|m| (m.dev(), m.ino()));
        let Some(written) = identity(output) else {
            return Ok(());
        };
        for (input_option, input) in inputs {
            if identity(input) == Some(written) {
                return Err(format!(
                    "{option} {} is the file {input_option} reads ({}); write to another file",
                    output.display(),
                    input.display()
                ));
            }
        }
    }
    Ok(())
}

/// For the server, after [`set_signal_handlers`] and before its threads start: a write to a
/// client that has hung up fails with an error the connection's task handles, instead of
/// killing the whole process (and every other client's request) with SIGPIPE.
pub fn ignore_broken_pipes() {
    #[cfg(unix)]
    // SAFETY: called before any thread starts; SIG_IGN is a valid disposition for SIGPIPE.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_IGN);
    }
}

#[cfg(unix)]
extern "C" fn explain_bus_error(_: libc::c_int) {
    const MESSAGE: &[u8] = b"\nerror: a table file was cut short while it was being read \
        (written in place under this program); stopping. Replace a table by writing it beside \
        the old one and renaming it, as gen-tables does.\n";
    // SAFETY: `write` and `_exit` are async-signal-safe; MESSAGE is a valid buffer.
    unsafe {
        libc::write(2, MESSAGE.as_ptr().cast(), MESSAGE.len());
        libc::_exit(2);
    }
}

/// What `--generate` writes: a shell's completion script, or the man page.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Generated {
    Bash,
    Zsh,
    Fish,
    Elvish,
    #[value(name = "powershell")]
    PowerShell,
    /// The man page, in roff (`man -l -` shows it).
    Man,
}

/// Writes the completion script or man page of the program `command` describes, generated from
/// the same definition that parses its arguments, so it cannot drift from them.
pub fn generate(
    what: Generated,
    mut command: clap::Command,
    out: &mut impl std::io::Write,
) -> std::io::Result<()> {
    use clap_complete::Shell;
    let name = command.get_name().to_string();
    let shell = match what {
        Generated::Man => return clap_mangen::Man::new(command).render(out),
        Generated::Bash => Shell::Bash,
        Generated::Zsh => Shell::Zsh,
        Generated::Fish => Shell::Fish,
        Generated::Elvish => Shell::Elvish,
        Generated::PowerShell => Shell::PowerShell,
    };
    clap_complete::generate(shell, &mut command, name, out);
    Ok(())
}

/// Handles `--generate`: writes to standard output and gives the exit status (2 if the text
/// cannot be written). The text is made in memory first: the completion generator panics on a
/// failed write.
pub fn print_generated(what: Generated, command: clap::Command) -> std::process::ExitCode {
    use std::io::Write;
    let name = command.get_name().to_string();
    let mut text = Vec::new();
    let written = generate(what, command, &mut text)
        .and_then(|()| std::io::stdout().lock().write_all(&text))
        .and_then(|()| std::io::stdout().lock().flush())
        .map(|()| true)
        .map_err(|e| stdout_failed(&e));
    exit_status(&name, written)
}

/// The value of the value enum `T` that the command line writes `name` (`"htm"`,
/// `"two-phase"`, `"3x3"`...), for front ends that take names outside clap (the HTTP API, the
/// Python module); otherwise a message naming `what` was expected and the names there are.
pub fn value_named<T: clap::ValueEnum>(what: &str, name: &str) -> Result<T, String> {
    T::from_str(name, true).map_err(|_| {
        let known: Vec<String> = T::value_variants()
            .iter()
            .filter_map(|v| v.to_possible_value().map(|p| p.get_name().to_string()))
            .collect();
        format!("'{name}' is not a {what}: use one of {}", known.join(", "))
    })
}

pub const MAX_THREADS: usize = 1024;

/// A --threads: 1 to [`MAX_THREADS`], of which at most this machine's cores are started. The
/// work these threads do is computation and memory reads, which threads beyond the cores only
/// slow down (a coset's depth-2 run: 13 s on one thread, past 60 s with 1,024 on one core).
pub fn parse_threads(text: &str) -> Result<usize, String> {
    match text.trim().parse::<usize>() {
        Ok(n) if (1..=MAX_THREADS).contains(&n) => {
            let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
            Ok(n.min(cores))
        }
        _ => Err(format!(
            "'{text}' is not a thread count from 1 to {MAX_THREADS}"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A thread count is 1 to MAX_THREADS, and no more threads than cores are started.
    #[test]
    fn thread_counts_are_checked_and_capped_at_the_cores() {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        assert_eq!(parse_threads("1"), Ok(1));
        assert_eq!(parse_threads("1024"), Ok(cores.min(1024)));
        assert_eq!(parse_threads(&cores.to_string()), Ok(cores));
        for bad in ["0", "1025", "-1", "many"] {
            assert!(parse_threads(bad).is_err(), "{bad}");
        }
    }
}

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

/// Handles `--generate`: writes to standard output and gives the exit status.
pub fn print_generated(what: Generated, command: clap::Command) -> std::process::ExitCode {
    match generate(what, command, &mut std::io::stdout().lock()) {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::ExitCode::FAILURE
        }
    }
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

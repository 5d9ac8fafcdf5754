//! cubelab: the toolkit's server, whole cosets and any puzzle. `cubelab serve` answers the HTTP
//! JSON API and serves the web cube editor; `cubelab load-test` measures a running server;
//! `cubelab coset` and `cosets` solve whole cosets of H; `cubelab puzzle` takes any twisty
//! puzzle from its KPuzzle definition.

use crate::commands::coset::{CosetArgs, ListArgs, run_coset, run_cosets};
use crate::commands::puzzle::{PuzzleCommand, run_puzzle};
use clap::{Parser, Subcommand};
use cubelab::catalogue::TableKind;
use cubelab::model::cube::Metric;
use cubelab::solving::coset::CosetLimits;
use cubelab_server::load::{self, Call, Plan, Report};
use cubelab_server::{Limits, Server};
use std::net::{SocketAddr, ToSocketAddrs};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

/// cubelab's HTTP JSON API and web cube editor, a load test for it, whole cosets of H, and any
/// twisty puzzle from its definition.
#[derive(Parser, Debug)]
#[command(
    name = "cubelab",
    version,
    after_help = "Examples:\n  cubelab serve                     # http://127.0.0.1:8080, the editor at /\n  cubelab serve --port 9000 --bind 0.0.0.0 --max-search 30\n  curl -s localhost:8080/solve -d '{\"position\": \"R U R' U'\", \"method\": \"two-phase\"}'\n  cubelab load-test --url http://127.0.0.1:8080 --duration 5\n  cubelab puzzle gods pyraminx --moves u,l,r,b --json"
)]
pub struct Args {
    /// Print this program's shell completions or man page (see solve --help), and exit.
    #[arg(long, value_enum, value_name = "WHAT", exclusive = true)]
    generate: Option<crate::cli::Generated>,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Any twisty puzzle from its KPuzzle definition (cubing.js's JSON): God's algorithm over
    /// its whole space under the moves asked for.
    #[command(subcommand)]
    Puzzle(PuzzleCommand),
    /// Serve the API (POST /solve, POST /validate, GET /random, GET /tables) and the editor
    /// (/) until Ctrl-C. Every request is bounded: body size, positions, search time (shared
    /// by a request's positions), and searches at once; a request that finds every search
    /// busy for --queue seconds gets 503.
    Serve {
        /// Port to listen on; 0 picks a free one (printed).
        #[arg(long, default_value_t = 8080)]
        port: u16,
        /// Address to listen on: 127.0.0.1 serves this machine only, 0.0.0.0 every network.
        #[arg(long, default_value = "127.0.0.1")]
        bind: String,
        /// Directory holding the tables (as for solve).
        #[arg(long, default_value_os_t = cubelab::table::default_data_dir())]
        data_dir: PathBuf,
        /// The table optimal 3x3 searches read (as solve --tables); default: the metric's, as
        /// for solve.
        #[arg(long, value_enum, value_name = "TABLE")]
        tables: Option<TableKind>,
        /// Most positions in one request.
        #[arg(long, default_value_t = 100, value_name = "N")]
        max_positions: usize,
        /// Most search seconds one request may use, its positions together (also the default
        /// timeout).
        #[arg(long, default_value_t = 10.0, value_name = "SECONDS")]
        max_search: f64,
        /// Largest request body in bytes.
        #[arg(long, default_value_t = 64 * 1024, value_name = "BYTES")]
        max_body: usize,
        /// Searches at once, each on one thread; default: the cores.
        #[arg(long, value_name = "N")]
        searches: Option<usize>,
        /// Seconds a request waits for a free search before a 503.
        #[arg(long, default_value_t = 10.0, value_name = "SECONDS")]
        queue: f64,
        /// Optimal 3x3 searches one client address may run at once; default: all but one of
        /// --searches (at least one), so that no client takes them all.
        #[arg(long, value_name = "N")]
        client_searches: Option<usize>,
        /// Seconds a connection may take to send a request's headers (from its opening, or
        /// from its last answer) before it is closed.
        #[arg(long, default_value_t = 10.0, value_name = "SECONDS")]
        header_timeout: f64,
        /// Seconds a request's body may take to arrive after its headers before the request is
        /// answered 408 and its connection closed.
        #[arg(long, default_value_t = 10.0, value_name = "SECONDS")]
        body_timeout: f64,
        /// Connections open at once; one more is answered 503 and closed.
        #[arg(long, default_value_t = 512, value_name = "N")]
        max_connections: usize,
        /// The most entries of goal tables, and apart the most states of puzzle pattern
        /// databases, that requests may build over the server's run (a missing table past it
        /// is a 409 naming the command that builds it offline); 0 builds none.
        #[arg(long, default_value_t = cubelab_server::BUILD_BUDGET, value_name = "N")]
        max_builds: u128,
        /// Where the 3D view's npm packages are installed (`npm ci --prefix web` in the
        /// repository); without them the editor shows the flat net only.
        #[arg(long, value_name = "DIR", default_value = cubelab_server::modules::DEFAULT_DIR)]
        web_modules: PathBuf,
    },
    /// Every position of a coset of H = <U, D, R2, L2, F2, B2> at once (Rokicki's coset
    /// solver): the coset of MOVES is the 19,508,428,800 positions h·MOVES (h in H), those with
    /// MOVES's phase-1 coordinate. --bound proves each within N moves; --exact counts the
    /// positions at each exact distance, in HTM or QTM. Needs the phase1-sym table of the
    /// metric (an HTM bound of 20 also the two-phase tables) and about 4.5 GB of memory.
    Coset {
        /// The coset: a move sequence (`U` or any sequence of H's moves names H itself) or a
        /// 3x3 position as solve reads it.
        #[arg(required_unless_present = "file", conflicts_with = "file", num_args = 1..,
              value_name = "MOVES")]
        moves: Vec<String>,
        /// Run every coset of FILE in turn, one name a line (as `cubelab cosets --count N`
        /// lists them; blank lines and lines starting with `#` are skipped; `-` reads standard
        /// input): the tables and the phase-1 turns are made once for all of them, where one
        /// process a coset makes them again each time (seconds). Each coset prints as alone:
        /// with --json one line each, with --csv a `coset` column first.
        #[arg(long, value_name = "FILE")]
        file: Option<PathBuf>,
        /// Prove every position within N moves: phase 1 searches to --search-depth, the
        /// prepass goes on to N, and in HTM at N = 20 the two-phase search proves the last few
        /// positions one at a time (see --finish). Exits 1 if some position is not proven
        /// within N. The default without --exact, with N = God's number of the metric (20 in
        /// HTM, 26 in QTM).
        #[arg(long, value_name = "N", conflicts_with = "exact",
              value_parser = clap::value_parser!(u32).range(0..=i64::from(cubelab::solving::coset::MAX_DEPTH)))]
        bound: Option<u32>,
        /// Count the positions at each exact distance up to --max-depth (phase 1 searched at
        /// every depth).
        #[arg(long)]
        exact: bool,
        /// With --exact, the last depth counted.
        #[arg(long, default_value_t = 16, value_name = "D", requires = "exact",
              value_parser = clap::value_parser!(u32).range(0..=i64::from(cubelab::solving::coset::MAX_DEPTH)))]
        max_depth: u32,
        /// With --bound, the last depth phase 1 searches (deeper costs more, and leaves fewer
        /// positions to the prepass); default 16 in HTM, 18 in QTM.
        #[arg(long, value_name = "D", conflicts_with = "exact",
              value_parser = clap::value_parser!(u32).range(0..=i64::from(cubelab::solving::coset::MAX_DEPTH)))]
        search_depth: Option<u32>,
        /// With --bound 20 (or more) in HTM, the most positions left at the bound that the run
        /// proves one at a time (by the two-phase search, which needs its tables; about 35 ms
        /// of a core each); 0 leaves them unproven. A QTM run proves none one at a time.
        #[arg(long, default_value_t = cubelab::solving::coset::FINISH_AT_MOST,
              value_name = "N", conflicts_with = "exact",
              value_parser = clap::value_parser!(u64).range(0..=cubelab::solving::coset::FINISH_LIMIT))]
        finish: u64,
        /// The metric: htm (a half turn is one move) or qtm (a half turn is two; needs
        /// `gen-tables --metric qtm phase1-sym`).
        #[arg(long, value_enum, default_value_t = Metric::Htm)]
        metric: Metric,
        /// Threads; default: the cores.
        #[arg(long, value_name = "N", value_parser = crate::cli::parse_threads)]
        threads: Option<usize>,
        /// Directory holding the tables (as for solve).
        #[arg(long, default_value_os_t = cubelab::table::default_data_dir())]
        data_dir: PathBuf,
        /// One JSON object a coset, a line each: coset, metric, counts (exact, index = depth),
        /// reached, depths, bound, unsolved, unsolved_positions (the first 1,000, as sticker
        /// strings), seconds.
        #[arg(long, conflicts_with = "csv")]
        json: bool,
        /// CSV rows: depth,count,total,exact,sequences,seconds,prepass_seconds (with --file,
        /// coset first).
        #[arg(long)]
        csv: bool,
    },
    /// The cosets of H up to the 16 symmetries that keep it (138,639,780 classes, each standing
    /// for 1 to 16 of the 2,217,093,120 cosets, all with the same distribution): their count,
    /// or with --count a slice of their list, each class named by a shortest move sequence of
    /// its coset, one per line (what `cubelab coset` and scripts/slurm/submit-cosets.sh take).
    Cosets {
        /// The first class listed (classes are numbered from 0).
        #[arg(long, default_value_t = 0, value_name = "K", requires = "count")]
        from: u64,
        /// List N classes from --from (fewer at the end of the list); without it, print how
        /// many classes there are.
        #[arg(long, value_name = "N")]
        count: Option<u64>,
        /// Directory holding the tables (the list's names read phase1-sym).
        #[arg(long, default_value_os_t = cubelab::table::default_data_dir())]
        data_dir: PathBuf,
        /// One JSON object per class: class, moves, cosets (how many it stands for), distance
        /// (moves into H).
        #[arg(long, conflicts_with = "csv")]
        json: bool,
        /// CSV rows: class,moves,cosets,distance.
        #[arg(long)]
        csv: bool,
    },
    /// Load a running server with 2x2 solves, short optimal 3x3 solves and bad requests, each
    /// for --duration seconds (or --max-requests), and report requests per second and latency
    /// percentiles. Exits 1 if a good request failed, a bad one got anything but its 4xx, or
    /// the server stopped answering.
    LoadTest {
        /// The server, e.g. http://127.0.0.1:8080.
        #[arg(long, default_value = "http://127.0.0.1:8080")]
        url: String,
        /// Seconds per kind of request.
        #[arg(long, default_value_t = 5.0, value_name = "SECONDS")]
        duration: f64,
        /// Most requests per kind.
        #[arg(long, default_value_t = 1_000_000, value_name = "N")]
        max_requests: u64,
        /// Connections at once.
        #[arg(long, default_value_t = 4, value_name = "N")]
        connections: usize,
        /// Moves in the 3x3 scrambles solved optimally (0 to 100: past God's number of 20 a
        /// longer scramble only takes longer to draw).
        #[arg(long, default_value_t = 7, value_name = "N",
              value_parser = clap::value_parser!(u16).range(0..=100))]
        scramble_length: u16,
        /// One JSON object per kind instead of a table.
        #[arg(long)]
        json: bool,
    },
}

/// Runs what the arguments ask for; the exit status follows [`crate::cli::exit_status`].
pub fn run(args: Args) -> ExitCode {
    if let Some(what) = args.generate {
        return crate::cli::print_generated(what, <Args as clap::CommandFactory>::command());
    }
    let result = match args.command {
        None => Err(
            "name a command: puzzle, serve, load-test, coset or cosets (see cubelab --help)"
                .to_string(),
        ),
        Some(Command::Puzzle(command)) => run_puzzle(command),
        Some(Command::Coset {
            moves,
            file,
            bound,
            exact,
            max_depth,
            search_depth,
            finish,
            metric,
            threads,
            data_dir,
            json,
            csv,
        }) => {
            let limits = if exact {
                CosetLimits::exact(max_depth)
            } else {
                let bound = bound.unwrap_or(cubelab::solving::coset::gods_number(metric));
                let search_depth =
                    search_depth.unwrap_or(cubelab::solving::coset::default_search_depth(metric));
                CosetLimits {
                    finish,
                    ..CosetLimits::bound(bound, search_depth)
                }
            };
            let names = match &file {
                Some(path) => crate::commands::coset::read_names(path),
                None => Ok(vec![moves.join(" ")]),
            };
            let args = CosetArgs {
                from_file: file.is_some(),
                metric,
                limits,
                json,
                csv,
            };
            let pool = match threads {
                Some(n) => rayon::ThreadPoolBuilder::new()
                    .num_threads(n)
                    .build_global()
                    .map_err(|e| format!("cannot start {n} threads: {e}")),
                None => Ok(()),
            };
            pool.and(names)
                .and_then(|names| run_coset(&data_dir, &names, &args, !exact))
        }
        Some(Command::Cosets {
            from,
            count,
            data_dir,
            json,
            csv,
        }) => run_cosets(
            &data_dir,
            &ListArgs {
                from,
                count,
                json,
                csv,
            },
        )
        .map(|()| true),
        Some(Command::Serve {
            port,
            bind,
            data_dir,
            tables,
            max_positions,
            max_search,
            max_body,
            searches,
            queue,
            client_searches,
            header_timeout,
            body_timeout,
            max_connections,
            max_builds,
            web_modules,
        }) => seconds("--max-search", max_search).and_then(|search| {
            crate::cli::ignore_broken_pipes();
            // Refused at start, not at every request.
            if let Some(tables) = tables {
                cubelab::solving::check_tables(tables)
                    .map_err(|e| format!("--tables {}: {e}", tables.name()))?;
            }
            let searches = searches.unwrap_or(Limits::default().searches).max(1);
            let limits = Limits {
                body_bytes: max_body,
                positions: max_positions.max(1),
                search,
                searches,
                queue: seconds("--queue", queue)?,
                client_searches: client_searches
                    .unwrap_or(Limits::client_share(searches))
                    .clamp(1, searches),
                header_timeout: seconds("--header-timeout", header_timeout)?,
                body_timeout: seconds("--body-timeout", body_timeout)?,
                connections: max_connections.max(1),
                builds: max_builds,
            };
            let server = Server::new(data_dir, tables, limits).with_web_modules(web_modules);
            serve(&bind, port, server)
        }),
        Some(Command::LoadTest {
            url,
            duration,
            max_requests,
            connections,
            scramble_length,
            json,
        }) => seconds("--duration", duration).and_then(|duration| {
            let plan = Plan {
                connections: connections.max(1),
                duration,
                max_requests,
            };
            load_test(&url, &plan, usize::from(scramble_length), json)
        }),
    };
    crate::cli::exit_status("cubelab", result)
}

fn seconds(option: &str, value: f64) -> Result<Duration, String> {
    if (0.0..=1e9).contains(&value) {
        Ok(Duration::from_secs_f64(value))
    } else {
        Err(format!(
            "{option} {value} is not a number of seconds from 0 to 1e9"
        ))
    }
}

fn serve(bind: &str, port: u16, server: Server) -> Result<bool, String> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    let served = runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind((bind, port))
            .await
            .map_err(|e| format!("cannot listen on {bind}:{port}: {e}"))?;
        let address = listener.local_addr().map_err(|e| e.to_string())?;
        let server = Arc::new(server);
        let opened = server.open_tables();
        crate::outln!(
            "cubelab serve: listening on http://{address} (tables from {}; {opened})",
            server.data_dir().display()
        )?;
        cubelab_server::serve(listener, server)
            .await
            .map_err(|e| e.to_string())?;
        Ok(true)
    });
    // The searches of dropped requests were told to stop and end within milliseconds; the
    // runtime would otherwise wait for its blocking threads without a limit.
    runtime.shutdown_timeout(Duration::from_secs(1));
    served
}

/// The server's address from `http://host:port`.
fn address(url: &str) -> Result<SocketAddr, String> {
    let rest = url
        .strip_prefix("http://")
        .ok_or_else(|| format!("'{url}' is not an http:// address"))?;
    let host = rest.split('/').next().unwrap_or(rest);
    host.to_socket_addrs()
        .map_err(|e| format!("{url}: {e}"))?
        .next()
        .ok_or_else(|| format!("{url}: no address"))
}

fn load_test(url: &str, plan: &Plan, scramble_length: usize, json: bool) -> Result<bool, String> {
    let addr = address(url)?;
    let mut health = load::Connection::open(addr).map_err(|e| format!("{url}: {e}"))?;
    let tables = health
        .send(&Call::get("/tables"))
        .map_err(|e| format!("{url}: {e}"))?;
    let limits: serde_json::Value =
        serde_json::from_str(&tables.body).map_err(|e| format!("{url}/tables: {e}"))?;
    let limit = |name: &str, default: u64| limits["limits"][name].as_u64().unwrap_or(default);
    let pocket: Vec<Call> = (0..256)
        .map(|seed| {
            let position = cubelab::model::position::Position::seeded(
                cubelab::model::position::Puzzle::Pocket,
                Some(seed),
            )
            .stickers();
            Call::post(
                "/solve",
                serde_json::json!({ "position": position }).to_string(),
            )
        })
        .collect();
    let short: Vec<Call> = load::scrambles(256, scramble_length, 1)
        .into_iter()
        .map(|s| Call::post("/solve", serde_json::json!({ "position": s }).to_string()))
        .collect();
    let bad = load::bad_calls(
        limit("body_bytes", 65536) as usize,
        limit("positions", 100) as usize,
    );
    let bad_calls: Vec<Call> = bad.iter().map(|(c, _)| c.clone()).collect();
    let mut ok = true;
    // Each bad request alone first: its status must be the expected one.
    for (call, expected) in &bad {
        let answer = load::Connection::open(addr)
            .and_then(|mut c| c.send(call))
            .map_err(|e| format!("{} {}: {e}", call.method, call.path))?;
        if answer.status != *expected {
            eprintln!(
                "cubelab: {} {} answered {} where {expected} was expected: {}",
                call.method, call.path, answer.status, answer.body
            );
            ok = false;
        }
    }
    let reports = [
        load::run(addr, "2x2 optimal", &pocket, plan),
        load::run(
            addr,
            &format!("3x3 optimal, {scramble_length}-move scrambles"),
            &short,
            plan,
        ),
        load::run(addr, "bad requests", &bad_calls, plan),
    ];
    for report in &reports[..2] {
        let failed: u64 = report
            .statuses
            .iter()
            .filter(|(status, _)| **status != 200)
            .map(|(_, n)| n)
            .sum();
        if failed > 0 || report.unanswered > 0 {
            eprintln!(
                "cubelab: {}: {failed} answers were not 200 and {} requests got no answer",
                report.name, report.unanswered
            );
            ok = false;
        }
    }
    let bad_report = &reports[2];
    if bad_report.statuses.keys().any(|s| !(400..500).contains(s)) {
        eprintln!(
            "cubelab: bad requests got answers outside 4xx: {:?}",
            bad_report.statuses
        );
        ok = false;
    }
    let alive = load::Connection::open(addr)
        .and_then(|mut c| c.send(&Call::get("/tables")))
        .is_ok_and(|a| a.status == 200);
    if !alive {
        eprintln!("cubelab: the server stopped answering");
        ok = false;
    }
    print_reports(&reports, plan, json)?;
    if !json {
        crate::outln!(
            "\nAfterwards the server {} GET /tables.",
            if alive {
                "still answers"
            } else {
                "no longer answers"
            }
        )?;
    }
    Ok(ok)
}

fn print_reports(reports: &[Report], plan: &Plan, json: bool) -> Result<(), String> {
    if json {
        for report in reports {
            crate::outln!("{}", serde_json::to_string(report).unwrap_or_default())?;
        }
        return Ok(());
    }
    crate::outln!(
        "{} connections, up to {:.1} s or {} requests per kind\n",
        plan.connections,
        plan.duration.as_secs_f64(),
        plan.max_requests
    )?;
    crate::outln!(
        "| requests | count | per second | p50 | p90 | p99 | max | statuses | unanswered |"
    )?;
    crate::outln!("|---|---|---|---|---|---|---|---|---|")?;
    for r in reports {
        let statuses: Vec<String> = r
            .statuses
            .iter()
            .map(|(s, n)| format!("{s}: {n}"))
            .collect();
        crate::outln!(
            "| {} | {} | {:.0} | {:.2} ms | {:.2} ms | {:.2} ms | {:.2} ms | {} | {} |",
            r.name,
            r.requests,
            r.per_second,
            r.p50_ms,
            r.p90_ms,
            r.p99_ms,
            r.max_ms,
            statuses.join(", "),
            r.unanswered
        )?;
    }
    Ok(())
}

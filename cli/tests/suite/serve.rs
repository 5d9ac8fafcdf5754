//! `cubelab serve` over loopback: every route, the limits, and bad requests answered with 4xx
//! while the server keeps answering.

use cubelab::catalogue::TableKind;
use cubelab_server::load::{self, Call, Connection, Plan};
use cubelab_server::{Limits, Server};
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

const SUPERFLIP: &str = "U R2 F B R B2 R U2 L B2 R U' D' R2 F R' L B2 U2 F2";

/// A server on a free loopback port, over the 2x2 and ud-f4 tables, in a runtime of its own
/// that lives as long as the test.
struct Running {
    addr: SocketAddr,
    _runtime: tokio::runtime::Runtime,
}

/// The tables, built once for every test here.
fn tables() -> &'static std::path::Path {
    static DIR: std::sync::OnceLock<tempfile::TempDir> = std::sync::OnceLock::new();
    DIR.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        let status = std::process::Command::new(env!("CARGO_BIN_EXE_gen-tables"))
            .arg("--data-dir")
            .arg(dir.path())
            .args(["2x2", "ud-f4"])
            .output()
            .unwrap()
            .status;
        assert!(status.success());
        dir
    })
    .path()
}

fn start(limits: Limits) -> Running {
    start_in(tables(), limits)
}

/// A server as [`start`]'s, over the data directory `dir`.
fn start_in(dir: &std::path::Path, limits: Limits) -> Running {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let server = Arc::new(Server::new(
        dir.to_path_buf(),
        Some(TableKind::UdF4),
        limits,
    ));
    let listener = runtime
        .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
        .unwrap();
    let addr = listener.local_addr().unwrap();
    runtime.spawn(cubelab_server::serve(listener, server));
    Running {
        addr,
        _runtime: runtime,
    }
}

fn ask(server: &Running, call: &Call) -> (u16, Value) {
    let answer = Connection::open(server.addr).unwrap().send(call).unwrap();
    let body = serde_json::from_str(&answer.body)
        .unwrap_or_else(|e| panic!("{} {}: {e}: {}", call.method, call.path, answer.body));
    (answer.status, body)
}

fn post(server: &Running, path: &str, body: Value) -> (u16, Value) {
    ask(server, &Call::post(path, body.to_string()))
}

#[test]
fn the_api_solves_validates_draws_and_lists() {
    let server = start(Limits::default());
    // 2x2: optimal, checked here too.
    let (status, answer) = post(
        &server,
        "/solve",
        json!({"position": "R U F", "puzzle": "2x2"}),
    );
    assert_eq!(status, 200, "{answer}");
    assert_eq!(
        (answer["status"].as_str(), answer["length"].as_u64()),
        (Some("optimal"), Some(3))
    );
    // 3x3 optimal, with the states to step through.
    let scramble = "R U2 F' L D";
    let (status, answer) = post(
        &server,
        "/solve",
        json!({"position": scramble, "states": true}),
    );
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["length"], 5);
    let states: Vec<&str> = answer["states"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap())
        .collect();
    assert_eq!(states.len(), 6);
    let start = cubelab::model::position::parse_position(
        scramble,
        None,
        cubelab::model::position::Form::Auto,
    )
    .unwrap();
    let cubelab::model::position::Position::Cube(cube) = start else {
        panic!()
    };
    assert_eq!(states[0], cube.to_facelets());
    let solution =
        cubelab::model::notation::parse_moves(answer["solution"].as_str().unwrap()).unwrap();
    assert_eq!(states[5], cube.apply_all(&solution).to_facelets());
    assert!(cube.apply_all(&solution).is_solved());
    // A batch keeps its order and answers an invalid position in place.
    let (status, batch) = post(
        &server,
        "/solve",
        json!({"positions": ["R", "R X", "F2"], "puzzle": "2x2"}),
    );
    assert_eq!(status, 200);
    let statuses: Vec<&str> = batch["answers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["status"].as_str().unwrap())
        .collect();
    assert_eq!(statuses, ["optimal", "invalid", "optimal"]);
    assert!(
        batch["answers"][1]["error"]
            .as_str()
            .unwrap()
            .contains("unknown move")
    );
    // Validation, with moves applied, and its refusals as answers.
    let (status, valid) = post(
        &server,
        "/validate",
        json!({"position": "R U", "moves": "U' R'"}),
    );
    assert_eq!(status, 200);
    assert_eq!(valid["valid"], true);
    assert_eq!(
        valid["stickers"].as_str().unwrap(),
        cubelab::model::cube::Cube3::SOLVED.to_facelets()
    );
    // A 2x2 has no inner layer: its moves are read as a 2x2 position's are (#31: /validate
    // took `M` where solve refused it).
    let (_, slice) = post(
        &server,
        "/validate",
        json!({"position": "R", "puzzle": "2x2", "moves": "M"}),
    );
    assert_eq!(slice["valid"], false, "{slice}");
    assert!(
        slice["error"].as_str().unwrap().contains("inner layer"),
        "{slice}"
    );
    let (_, invalid) = post(&server, "/validate", json!({"position": "U".repeat(24)}));
    assert_eq!(invalid["valid"], false);
    assert!(
        invalid["error"]
            .as_str()
            .unwrap()
            .contains("each on 4 stickers"),
        "{invalid}"
    );
    // Random positions follow their seed.
    let (status, a) = ask(&server, &Call::get("/random?seed=5&puzzle=2x2"));
    assert_eq!(status, 200);
    let (_, b) = ask(&server, &Call::get("/random?seed=5&puzzle=2x2"));
    assert_eq!(a, b);
    assert_eq!(a["stickers"].as_str().unwrap().len(), 24);
    // The tables: present ones say so.
    let (status, tables) = ask(&server, &Call::get("/tables"));
    assert_eq!(status, 200);
    let present: Vec<&str> = tables["tables"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| t["present"] == true)
        .map(|t| t["table"].as_str().unwrap())
        .collect();
    assert_eq!(present, ["2x2-htm", "2x2-qtm", "ud-f4-htm"]);
    // The page and its parts.
    for path in ["/", "/app.js", "/style.css"] {
        let answer = Connection::open(server.addr)
            .unwrap()
            .send(&Call::get(path))
            .unwrap();
        assert_eq!(answer.status, 200, "{path}");
    }
}

#[test]
fn bad_requests_get_4xx_and_the_server_keeps_answering() {
    let limits = Limits::default();
    let server = start(limits.clone());
    for (call, expected) in load::bad_calls(limits.body_bytes, limits.positions) {
        let (status, answer) = ask(&server, &call);
        assert_eq!(status, expected, "{} {}: {answer}", call.method, call.path);
        assert!(
            answer["error"].as_str().is_some_and(|e| !e.is_empty()),
            "{answer}"
        );
    }
    // The command line's texts: a position's error reads as `solve` prints it.
    let (_, answer) = post(&server, "/solve", json!({"position": "R U X"}));
    assert_eq!(answer["error"], "unknown move 'X' at column 5");
    let (_, answer) = post(&server, "/solve", json!({"position": "R", "metric": "stm"}));
    assert_eq!(
        answer["error"],
        "'stm' is not a metric: use one of htm, qtm"
    );
    // Many bad requests at once, then a good one.
    let bad: Vec<Call> = load::bad_calls(limits.body_bytes, limits.positions)
        .into_iter()
        .map(|(c, _)| c)
        .collect();
    let plan = Plan {
        connections: 4,
        duration: Duration::from_secs(2),
        max_requests: 2_000,
    };
    let report = load::run(server.addr, "bad", &bad, &plan);
    assert!(report.requests > 100, "{report:?}");
    assert!(
        report.statuses.keys().all(|s| (400..500).contains(s)),
        "{report:?}"
    );
    let (status, _) = post(
        &server,
        "/solve",
        json!({"position": "R U", "puzzle": "2x2"}),
    );
    assert_eq!(status, 200);
}

#[test]
fn a_request_shares_its_search_time_and_a_full_server_answers_503() {
    let limits = Limits {
        search: Duration::from_millis(600),
        searches: 1,
        queue: Duration::from_millis(200),
        ..Limits::default()
    };
    let server = Arc::new(start(limits));
    // Three superflips share 0.6 s: no position gets it all, the request ends in time.
    let began = std::time::Instant::now();
    let (status, batch) = post(
        &server,
        "/solve",
        json!({"positions": [SUPERFLIP, SUPERFLIP, SUPERFLIP]}),
    );
    assert_eq!(status, 200);
    assert!(
        began.elapsed() < Duration::from_secs(3),
        "{:?}",
        began.elapsed()
    );
    for answer in batch["answers"].as_array().unwrap() {
        assert_eq!(answer["status"], "timeout", "{answer}");
    }
    let (status, answer) = post(&server, "/solve", json!({"position": "R", "timeout": 5}));
    assert_eq!(status, 400);
    assert!(
        answer["error"]
            .as_str()
            .unwrap()
            .contains("limit of 0.6 seconds"),
        "{answer}"
    );
    // One search thread, held by a superflip: the next search waits 0.2 s and is refused,
    // while a 2x2 solve, which needs no search thread, is answered.
    let holder = {
        let server = Arc::clone(&server);
        std::thread::spawn(move || post(&server, "/solve", json!({"position": SUPERFLIP})))
    };
    std::thread::sleep(Duration::from_millis(150));
    let (status, answer) = post(&server, "/solve", json!({"position": "R U"}));
    assert_eq!(status, 503, "{answer}");
    assert!(
        answer["error"].as_str().unwrap().contains("busy"),
        "{answer}"
    );
    let (status, answer) = post(
        &server,
        "/solve",
        json!({"position": "R U", "puzzle": "2x2"}),
    );
    assert_eq!(status, 200, "{answer}");
    assert_eq!(holder.join().unwrap().0, 200);
    let (status, _) = post(
        &server,
        "/solve",
        json!({"position": "R U", "puzzle": "2x2"}),
    );
    assert_eq!(status, 200);
}

/// A request a cross-site page could make is refused: a body not sent as JSON (415), and on a
/// server bound to loopback a `Host` that is not a loopback name (403, DNS rebinding); both
/// answer `{"error": ...}`.
#[test]
fn cross_site_requests_are_refused() {
    use std::io::{Read, Write};
    let server = start(Limits::default());
    let raw = |head: &str, body: &str| {
        let mut stream = std::net::TcpStream::connect(server.addr).unwrap();
        let request = format!(
            "{head}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        );
        stream.write_all(request.as_bytes()).unwrap();
        let mut answer = String::new();
        stream.read_to_string(&mut answer).unwrap();
        let status: u16 = answer.split_whitespace().nth(1).unwrap().parse().unwrap();
        let body = answer.split("\r\n\r\n").nth(1).unwrap_or("").to_string();
        (status, body)
    };
    let host = server.addr.to_string();
    let body = r#"{"position": "R U", "puzzle": "2x2"}"#;
    let (status, text) = raw(
        &format!("POST /solve HTTP/1.1\r\nHost: {host}\r\nContent-Type: text/plain"),
        body,
    );
    assert_eq!(status, 415, "{text}");
    assert!(text.contains("application/json"), "{text}");
    let (status, text) = raw(
        "POST /solve HTTP/1.1\r\nHost: evil.example:8080\r\nContent-Type: application/json",
        body,
    );
    assert_eq!(status, 403, "{text}");
    assert!(text.contains("\"error\""), "{text}");
    for host in [host.as_str(), "localhost:1234", "[::1]:80", "127.0.0.1"] {
        let (status, text) = raw(
            &format!("POST /solve HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json"),
            body,
        );
        assert_eq!(status, 200, "{host}: {text}");
    }
    assert!(!cubelab_server::is_loopback_host("localhost.evil.example"));
    assert!(!cubelab_server::is_loopback_host("128.0.0.1:80"));
}

/// A known route asked with the wrong method answers 405 with `{"error": ...}`, as the README
/// promises of every error (its body was empty).
#[test]
fn a_wrong_method_is_a_json_405() {
    let server = start(Limits::default());
    let (status, body) = ask(&server, &Call::get("/solve"));
    assert_eq!(status, 405);
    assert!(
        body["error"].as_str().unwrap().contains("POST /solve"),
        "{body}"
    );
}

/// A POST of `body` to /solve as raw bytes, for tests that hold or abandon the connection.
fn raw_solve(addr: SocketAddr, body: &str) -> std::net::TcpStream {
    use std::io::Write;
    let mut stream = std::net::TcpStream::connect(addr).unwrap();
    write!(
        stream,
        "POST /solve HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    stream
}

/// Two clients keep every search thread busy with superflips: 2x2 solves are still answered
/// at once, as they need no search thread (#31: they waited 9.5 s). A client that leaves
/// frees its thread: the next search starts within a second, not when the abandoned one ends.
#[test]
fn quick_solves_pass_busy_searches_and_a_client_gone_frees_its_thread() {
    let limits = Limits {
        search: Duration::from_secs(20),
        searches: 2,
        client_searches: 2,
        queue: Duration::from_millis(1500),
        ..Limits::default()
    };
    let server = start(limits);
    let busy = json!({"position": SUPERFLIP}).to_string();
    let holders: Vec<_> = (0..2).map(|_| raw_solve(server.addr, &busy)).collect();
    std::thread::sleep(Duration::from_millis(300));
    let mut slowest = Duration::ZERO;
    for _ in 0..20 {
        let began = std::time::Instant::now();
        let (status, answer) = post(
            &server,
            "/solve",
            json!({"position": "R U F", "puzzle": "2x2"}),
        );
        assert_eq!(status, 200, "{answer}");
        slowest = slowest.max(began.elapsed());
    }
    assert!(
        slowest < Duration::from_secs(1),
        "a 2x2 solve took {slowest:?}"
    );
    // Both threads are still held: a search is refused after the queue's 1.5 s...
    let (status, _) = post(&server, "/solve", json!({"position": "R U"}));
    assert_eq!(status, 503);
    // ...until a holder leaves: its search stops, and the next one gets its thread.
    drop(holders);
    let began = std::time::Instant::now();
    let (status, answer) = post(&server, "/solve", json!({"position": "R U"}));
    assert_eq!(status, 200, "{answer}");
    assert!(
        began.elapsed() < Duration::from_secs(1),
        "{:?}",
        began.elapsed()
    );
}

/// One client address runs at most `client_searches` searches at once; its next one waits
/// and is refused, while the server has threads free.
#[test]
fn no_client_takes_every_search_thread() {
    let limits = Limits {
        search: Duration::from_secs(20),
        searches: 2,
        client_searches: 1,
        queue: Duration::from_millis(300),
        ..Limits::default()
    };
    let server = start(limits);
    let holder = raw_solve(server.addr, &json!({"position": SUPERFLIP}).to_string());
    std::thread::sleep(Duration::from_millis(200));
    let (status, answer) = post(&server, "/solve", json!({"position": "R U"}));
    assert_eq!(status, 503, "{answer}");
    assert!(
        answer["error"]
            .as_str()
            .unwrap()
            .contains("your 1 search thread (of 2)"),
        "{answer}"
    );
    drop(holder);
    std::thread::sleep(Duration::from_millis(300));
    let (status, _) = post(&server, "/solve", json!({"position": "R U"}));
    assert_eq!(status, 200);
}

/// A connection that sends nothing, or its headers a byte at a time, is closed after the
/// header timeout (#31: 300 such connections stayed open for a minute).
#[test]
fn silent_and_slow_connections_are_closed_after_the_header_timeout() {
    use std::io::{Read, Write};
    let limits = Limits {
        header_timeout: Duration::from_millis(500),
        ..Limits::default()
    };
    let server = start(limits);
    let closed_within = |mut stream: std::net::TcpStream, trickle: bool| {
        let began = std::time::Instant::now();
        stream
            .set_read_timeout(Some(Duration::from_millis(100)))
            .unwrap();
        let mut buffer = [0u8; 256];
        while began.elapsed() < Duration::from_secs(5) {
            if trickle {
                // A slowloris: a header byte every 100 ms, never done.
                if stream.write_all(b"X").is_err() {
                    return began.elapsed();
                }
            }
            match stream.read(&mut buffer) {
                Ok(_) => return began.elapsed(),
                Err(e)
                    if e.kind() == std::io::ErrorKind::WouldBlock
                        || e.kind() == std::io::ErrorKind::TimedOut => {}
                Err(_) => return began.elapsed(),
            }
        }
        began.elapsed()
    };
    let silent = std::net::TcpStream::connect(server.addr).unwrap();
    let waited = closed_within(silent, false);
    assert!(
        waited < Duration::from_secs(2),
        "a silent connection stayed {waited:?}"
    );
    let mut slow = std::net::TcpStream::connect(server.addr).unwrap();
    slow.write_all(b"GET /tables HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
        .unwrap();
    let waited = closed_within(slow, true);
    assert!(
        waited < Duration::from_secs(2),
        "a slow connection stayed {waited:?}"
    );
    // And a request in time is answered on a fresh connection.
    let (status, _) = ask(&server, &Call::get("/tables"));
    assert_eq!(status, 200);
}

/// The answer a raw request gets: its status line's code, read within five seconds.
fn raw_status(addr: SocketAddr, request: &[u8]) -> Option<u16> {
    use std::io::{Read, Write};
    let mut stream = std::net::TcpStream::connect(addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(5)))
        .unwrap();
    stream.write_all(request).unwrap();
    let mut answer = Vec::new();
    let mut buffer = [0u8; 512];
    while let Ok(n) = stream.read(&mut buffer) {
        if n == 0 {
            break;
        }
        answer.extend_from_slice(&buffer[..n]);
        if answer.windows(2).any(|w| w == b"\r\n") {
            break;
        }
    }
    String::from_utf8_lossy(&answer)
        .split_whitespace()
        .nth(1)
        .and_then(|code| code.parse().ok())
}

/// A body that trickles is answered 408 after the body timeout, one declared beyond the limit
/// 413 before any of it is sent, and a connection past the cap 503 at once, while the server
/// keeps answering (#62: a thousand slow bodies locked every client out; a body declared at
/// 10^12 bytes was waited for).
#[test]
fn slow_bodies_huge_bodies_and_too_many_connections_are_answered() {
    use std::io::Write;
    let limits = Limits {
        body_timeout: Duration::from_millis(500),
        connections: 3,
        ..Limits::default()
    };
    let server = start(limits);
    let head = "POST /solve HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n";
    let began = std::time::Instant::now();
    let slow = raw_status(
        server.addr,
        format!("{head}Content-Length: 100\r\n\r\n{{\"position\"").as_bytes(),
    );
    assert_eq!(slow, Some(408));
    assert!(
        began.elapsed() < Duration::from_secs(3),
        "{:?}",
        began.elapsed()
    );
    let huge = raw_status(
        server.addr,
        format!("{head}Content-Length: 1000000000000\r\n\r\n{{").as_bytes(),
    );
    assert_eq!(huge, Some(413));
    // Three connections held open with half a body each: a fourth is refused at once.
    let held: Vec<std::net::TcpStream> = (0..3)
        .map(|_| {
            let mut stream = std::net::TcpStream::connect(server.addr).unwrap();
            stream
                .write_all(format!("{head}Content-Length: 100\r\n\r\n{{").as_bytes())
                .unwrap();
            stream
        })
        .collect();
    // Time for the server to accept the three (under a loaded suite 100 ms was not always).
    std::thread::sleep(Duration::from_millis(500));
    let began = std::time::Instant::now();
    assert_eq!(
        raw_status(
            server.addr,
            b"GET /tables HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
        ),
        Some(503)
    );
    assert!(
        began.elapsed() < Duration::from_secs(3),
        "{:?}",
        began.elapsed()
    );
    // Once their bodies time out (half a second; allowed three under a busy machine), the
    // server answers again.
    std::thread::sleep(Duration::from_millis(600));
    let again = std::time::Instant::now();
    let status = loop {
        let (status, _) = ask(&server, &Call::get("/tables"));
        if status == 200 || again.elapsed() > Duration::from_secs(3) {
            break status;
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    assert_eq!(status, 200);
    drop(held);
}

/// Requests whose positions take seconds to read (a 2 KB body of repeated groups) leave the
/// server's runtime free: a 2x2 solve sent while two of them are read is answered in well under
/// their time (#62: both runtime threads read them and every other request waited 2 s).
#[test]
fn heavy_reading_leaves_quick_answers_quick() {
    let server = start(Limits::default());
    let heavy = json!({"positions": vec!["((R U F)1000)333"; 100], "puzzle": "2x2"}).to_string();
    let readers: Vec<std::thread::JoinHandle<u16>> = (0..2)
        .map(|_| {
            let (addr, heavy) = (server.addr, heavy.clone());
            std::thread::spawn(move || {
                let call = Call::post("/solve", heavy);
                Connection::open(addr)
                    .and_then(|mut c| c.send(&call))
                    .map_or(0, |a| a.status)
            })
        })
        .collect();
    std::thread::sleep(Duration::from_millis(200));
    let began = std::time::Instant::now();
    let (status, answer) = post(
        &server,
        "/solve",
        json!({"position": "R U", "puzzle": "2x2"}),
    );
    let quick = began.elapsed();
    assert_eq!(status, 200, "{answer}");
    let statuses: Vec<u16> = readers.into_iter().map(|r| r.join().unwrap()).collect();
    let heavy_time = began.elapsed();
    assert_eq!(statuses, [200, 200]);
    assert!(
        quick * 2 < heavy_time,
        "a 2x2 solve took {quick:?} beside reads that took {heavy_time:?}"
    );
}

/// `cubelab serve` as its own process (the binary's signal dispositions and all) on a free
/// loopback port over the shared tables and ud-f4, with `extra` arguments; its address read
/// from the line it prints first.
fn spawn_server(extra: &[&str]) -> (std::process::Child, SocketAddr) {
    use std::io::BufRead;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_cubelab"))
        .args(["serve", "--port", "0", "--data-dir"])
        .arg(tables())
        .args(["--tables", "ud-f4"])
        .args(extra)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut first = String::new();
    std::io::BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    let addr: SocketAddr = first
        .split("http://")
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|a| a.parse().ok())
        .unwrap_or_else(|| panic!("no address in {first:?}"));
    (child, addr)
}

/// SIGTERM stops `cubelab serve` within five seconds while one client holds a half-sent
/// request and another a running search (#31: it waited for them forever).
#[test]
fn sigterm_stops_the_server_whatever_its_clients_do() {
    use std::io::Write;
    let (mut child, addr) = spawn_server(&["--max-search", "60"]);
    let mut half = std::net::TcpStream::connect(addr).unwrap();
    half.write_all(b"POST /solve HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\n\r\n{")
        .unwrap();
    let _search = raw_solve(addr, &json!({"position": SUPERFLIP}).to_string());
    std::thread::sleep(Duration::from_millis(500));
    let began = std::time::Instant::now();
    // SAFETY: kill(2) on a child process we own.
    assert_eq!(unsafe { libc::kill(child.id() as i32, libc::SIGTERM) }, 0);
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            assert!(status.success(), "{status}");
            break;
        }
        if began.elapsed() > Duration::from_secs(5) {
            let _ = child.kill();
            panic!("the server was still running 5 s after SIGTERM");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    drop(half);
}

/// A client that pipelines many requests on one connection, reads the first answer's first
/// bytes and hangs up leaves the server's writes to a closed socket: they fail, and the server
/// (its own process, with the binary's signal dispositions) answers the next client: it ignores
/// SIGPIPE, which killed it when a write to such a client raised it (#62; how often depends on
/// the timing of the writes, so the disposition itself is checked too).
#[test]
fn clients_that_hang_up_mid_answer_leave_the_server_answering() {
    use std::io::{Read, Write};
    let (mut child, addr) = spawn_server(&[]);
    // The disposition itself, where the kernel shows it: SIGPIPE (13) among the ignored.
    #[cfg(target_os = "linux")]
    {
        let status = std::fs::read_to_string(format!("/proc/{}/status", child.id())).unwrap();
        let ignored = status
            .lines()
            .find_map(|l| l.strip_prefix("SigIgn:"))
            .and_then(|mask| u64::from_str_radix(mask.trim(), 16).ok())
            .unwrap();
        assert_ne!(
            ignored & 1 << (libc::SIGPIPE - 1),
            0,
            "SIGPIPE is not ignored"
        );
    }
    let body = json!({"position": "R U F", "puzzle": "2x2"}).to_string();
    let request = format!(
        "POST /solve HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    for _ in 0..7 {
        let mut client = std::net::TcpStream::connect(addr).unwrap();
        let _ = client.write_all(request.repeat(200).as_bytes());
        let mut some = [0u8; 64];
        let _ = client.read(&mut some);
        drop(client);
        std::thread::sleep(Duration::from_millis(100));
    }
    let alive = child.try_wait().unwrap();
    let answer =
        Connection::open(addr).and_then(|mut c| c.send(&Call::post("/solve", body.clone())));
    let _ = child.kill();
    let _ = child.wait();
    assert!(alive.is_none(), "the server ended: {alive:?}");
    assert_eq!(answer.unwrap().status, 200);
}

/// A table that cannot guide the 3x3 search is refused when the server starts (#31: it
/// started and failed every request).
#[test]
fn a_table_that_guides_no_search_is_refused_at_start() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_cubelab"))
        .args(["serve", "--port", "0", "--tables", "2x2", "--data-dir"])
        .arg(tables())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("--tables 2x2: 2x2 is no 3x3 heuristic"),
        "{stderr}"
    );
}

/// `POST /goal`: the cross as `solve --goal` answers it, colour neutral, several positions; a
/// bad goal or position is a 400 that says what is wrong, and a large goal's missing table a
/// 409 naming the command that builds it (the request does not build it).
#[test]
fn goals_are_answered_from_their_tables() {
    let server = start(Limits::default());
    let (status, answer) = post(
        &server,
        "/goal",
        json!({"goal": "cross", "position": "R U F D2 L B'"}),
    );
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["length"], 3);
    assert_eq!(answer["bottom"], "D");
    assert_eq!(answer["solutions"][0], "L' D2 F'");
    let (status, answer) = post(
        &server,
        "/goal",
        json!({"goal": "cross", "orientations": "6", "all": true, "positions": ["D", "R Q"]}),
    );
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["answers"][0]["length"], 0);
    assert_eq!(answer["answers"][0]["bottom"], "U");
    assert!(
        answer["answers"][1]["error"]
            .as_str()
            .unwrap()
            .contains("'Q'")
    );
    let (status, answer) = post(&server, "/goal", json!({"goal": "xcros", "position": "R"}));
    assert_eq!(status, 400);
    assert!(
        answer["error"]
            .as_str()
            .unwrap()
            .contains("`xcros` is not a goal")
    );
    // A goal too large for any table is the request's fault: a 400 with its size.
    let (status, answer) = post(&server, "/goal", json!({"goal": "D", "position": "R"}));
    assert_eq!(status, 400, "{answer}");
    assert!(
        answer["error"].as_str().unwrap().contains("states"),
        "{answer}"
    );
    // Past the server's budget of built entries (here none), a missing table is refused
    // with the command that builds it.
    let spent = start(Limits {
        builds: 0,
        ..Limits::default()
    });
    let (status, answer) = post(&spent, "/goal", json!({"goal": "UF UB", "position": "R"}));
    assert_eq!(status, 409, "{answer}");
    assert!(
        answer["error"].as_str().unwrap().contains("their share"),
        "{answer}"
    );
    let (status, answer) = post(&server, "/goal", json!({"goal": "2x2x3", "position": "R"}));
    assert_eq!(status, 409, "{answer}");
    assert!(
        answer["error"].as_str().unwrap().contains("gen-tables"),
        "{answer}"
    );
    // The last layer, by the server's optimal solver: a position whose first two layers are
    // not solved is that position's error.
    let (status, answer) = post(
        &server,
        "/goal",
        json!({"goal": "ll", "positions": ["R U R' U R U2 R'", "R U F"]}),
    );
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["answers"][0]["length"], 7, "{answer}");
    assert!(
        answer["answers"][1]["error"]
            .as_str()
            .unwrap()
            .contains("first two layers are not solved"),
        "{answer}"
    );
}

/// `POST /puzzle/solve` and `/puzzle/gods` over definitions in the data directory's puzzles/:
/// the hand-written 2x2x2's published distances and checked solutions; a path, an unknown
/// name and a space too large for a request refused with the status that says which.
#[test]
fn puzzles_are_served_by_name_from_their_definitions() {
    use cubelab::catalogue::published::published_histogram;
    use cubelab::catalogue::{TableId, TableKind};
    use cubelab::model::cube::Metric;
    use cubelab::model::kpuzzle::KPuzzleDefinition;
    let dir = tempfile::tempdir().unwrap();
    let puzzles = dir.path().join("puzzles");
    std::fs::create_dir(&puzzles).unwrap();
    std::fs::write(puzzles.join("hand.kpuzzle.json"), crate::puzzles::HAND_2X2).unwrap();
    // Eight twisting pieces under an 8-cycle and a twisting transposition: 8! x 3^7 =
    // 88,179,840 positions, more than a request builds or runs.
    let cycle: Vec<usize> = (1..8).chain([0]).collect();
    let swap: Vec<usize> = [1, 0].into_iter().chain(2..8).collect();
    let zeros = [0u8; 8];
    let big = json!({
        "name": "twisty eight",
        "orbits": [{"orbitName": "P", "numPieces": 8, "numOrientations": 3}],
        "defaultPattern": {"P": {"pieces": (0..8).collect::<Vec<_>>(), "orientation": zeros}},
        "moves": {
            "A": {"P": {"permutation": cycle, "orientationDelta": zeros}},
            "B": {"P": {"permutation": swap, "orientationDelta": [1, 2, 0, 0, 0, 0, 0, 0]}}
        }
    });
    std::fs::write(puzzles.join("eight.kpuzzle.json"), big.to_string()).unwrap();
    let server = start_in(dir.path(), Limits::default());

    let (status, answer) = post(
        &server,
        "/puzzle/gods",
        json!({"puzzle": "hand", "moves": "U,R,F"}),
    );
    assert_eq!(status, 200, "{answer}");
    let published = published_histogram(TableId::new(TableKind::Pocket, Metric::Htm)).unwrap();
    let counts: Vec<u64> = serde_json::from_value(answer["counts"].clone()).unwrap();
    assert_eq!(counts, published);

    // The same definition given whole in the request: the same counts. With a sub-goal (the
    // four U corners home with their twists, the other four alike) there are fewer positions,
    // none as far; a bad definition, body or goal is a 400 naming what is wrong.
    let hand: serde_json::Value = serde_json::from_str(crate::puzzles::HAND_2X2).unwrap();
    let (status, whole) = post(
        &server,
        "/puzzle/gods",
        json!({"definition": hand, "moves": "U,R,F"}),
    );
    assert_eq!(status, 200, "{whole}");
    assert_eq!(whole["counts"], answer["counts"]);
    let goal = json!({"CORNERS": {"pieces": [0, 1, 2, 3, 4, 4, 4, 4], "orientation": vec![0; 8]}});
    let (status, partial) = post(
        &server,
        "/puzzle/gods",
        json!({"definition": hand, "moves": "U,R,F", "goal": goal}),
    );
    assert_eq!(status, 200, "{partial}");
    let partial_counts: Vec<u64> = serde_json::from_value(partial["counts"].clone()).unwrap();
    assert!(partial_counts.len() < counts.len(), "{partial}");
    assert!(partial["total"].as_u64().unwrap() < 3_674_160, "{partial}");
    let (status, solved) = post(
        &server,
        "/puzzle/solve",
        json!({"definition": hand, "moves": "U,R,F", "goal": goal, "scramble": "R U R' U'"}),
    );
    assert_eq!(status, 200, "{solved}");
    assert!(solved["length"].as_u64().unwrap() <= 4, "{solved}");
    let mut bad = hand.clone();
    bad["moves"]["U"]["CORNERS"]["permutation"] = json!([3, 3, 1, 2, 4, 5, 6, 7]);
    for (body, says) in [
        (
            json!({"definition": bad, "moves": "U"}),
            "moves.U.CORNERS.permutation",
        ),
        (
            json!({"definition": hand, "puzzle": "hand", "moves": "U"}),
            "one of the two",
        ),
        (json!({"moves": "U"}), "one of the two"),
        (
            json!({"definition": hand, "moves": "U", "goal": {"CORNERS": {"pieces": [0]}}}),
            "goal",
        ),
    ] {
        let (status, answer) = post(&server, "/puzzle/gods", body.clone());
        assert_eq!(status, 400, "{body}: {answer}");
        assert!(
            answer["error"].as_str().unwrap().contains(says),
            "{body}: {answer}"
        );
    }

    let scrambles = ["R U R' U'", "U2 F R'", "Q"];
    let (status, answer) = post(
        &server,
        "/puzzle/solve",
        json!({"puzzle": "hand", "moves": "U,R,F", "scrambles": scrambles}),
    );
    assert_eq!(status, 200, "{answer}");
    let definition = KPuzzleDefinition::from_json_str(crate::puzzles::HAND_2X2).unwrap();
    let solved = definition.default_pattern();
    for (scramble, length) in scrambles.iter().zip([4, 3]) {
        let found = answer["answers"]
            .as_array()
            .unwrap()
            .iter()
            .find(|a| a["scramble"] == *scramble)
            .unwrap();
        assert_eq!(found["length"], length, "{found}");
        assert_eq!(found["optimal"], true, "{found}");
        // Applied after the scramble by the definition's transformations, it solves.
        let whole = format!("{scramble} {}", found["solution"].as_str().unwrap());
        let end = solved.apply(&definition.transformation_of(&whole).unwrap());
        assert!(end.matches(solved), "{whole}");
    }
    assert!(
        answer["answers"][2]["error"]
            .as_str()
            .unwrap()
            .contains("'Q'")
    );
    // The solver is kept: a second request maps nothing and builds nothing.
    let (status, again) = post(
        &server,
        "/puzzle/solve",
        json!({"puzzle": "hand", "moves": "U,R,F", "scramble": "R U R' U'"}),
    );
    assert_eq!((status, &again["length"]), (200, &json!(4)), "{again}");

    // A server whose requests may build nothing maps what is kept and refuses the rest.
    let spent = start_in(
        dir.path(),
        Limits {
            builds: 0,
            ..Limits::default()
        },
    );
    let (status, answer) = post(
        &spent,
        "/puzzle/solve",
        json!({"puzzle": "hand", "moves": "U,R,F", "scramble": "R U"}),
    );
    assert_eq!((status, &answer["length"]), (200, &json!(2)), "{answer}");
    let (status, answer) = post(
        &spent,
        "/puzzle/solve",
        json!({"puzzle": "hand", "moves": "U,R", "scramble": "R U"}),
    );
    assert_eq!(status, 409, "{answer}");
    assert!(
        answer["error"]
            .as_str()
            .unwrap()
            .contains("cubelab puzzle solve"),
        "{answer}"
    );
    for (path, body, code, says) in [
        (
            "/puzzle/solve",
            json!({"puzzle": "../hand", "moves": "U", "scramble": "U"}),
            400,
            "name of a definition",
        ),
        (
            "/puzzle/gods",
            json!({"puzzle": "/etc/passwd", "moves": "U"}),
            400,
            "name of a definition",
        ),
        (
            "/puzzle/solve",
            json!({"puzzle": "nothing", "moves": "U", "scramble": "U"}),
            404,
            "has: eight, hand",
        ),
        (
            "/puzzle/solve",
            json!({"puzzle": "hand", "moves": "U,Q", "scramble": "U"}),
            400,
            "Q",
        ),
        (
            "/puzzle/solve",
            json!({"puzzle": "hand", "moves": "U", "scramble": "F"}),
            400,
            "'F'",
        ),
        (
            "/puzzle/solve",
            json!({"puzzle": "eight", "moves": "A,B", "scramble": "A"}),
            409,
            "cubelab puzzle solve",
        ),
        (
            "/puzzle/gods",
            json!({"puzzle": "eight", "moves": "A,B"}),
            409,
            "cubelab puzzle gods eight",
        ),
        (
            "/puzzle/gods",
            json!({"puzzle": "hand", "moves": "U", "scramble": "U"}),
            400,
            "/puzzle/solve",
        ),
    ] {
        let (status, answer) = post(&server, path, body.clone());
        assert_eq!(status, code, "{path} {body}: {answer}");
        assert!(
            answer["error"].as_str().unwrap().contains(says),
            "{path} {body}: {answer}"
        );
    }
}

//! A load generator for `cubelab serve` (`cubelab load-test`): keeps a few connections busy with
//! one kind of request for a bounded time and count, and reports requests per second, latency
//! percentiles and the statuses answered. Plain HTTP/1.1 over keep-alive connections, each on
//! its own thread: the server under test, not the client, should be what is measured, and a
//! blocking loop per connection costs the client least.

use serde::Serialize;
use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

/// The largest answer read.
const MAX_ANSWER_BYTES: usize = 64 << 20;

/// One request to send.
#[derive(Clone, Debug)]
pub struct Call {
    pub method: &'static str,
    pub path: String,
    pub body: Option<String>,
}

impl Call {
    pub fn get(path: &str) -> Call {
        Call {
            method: "GET",
            path: path.to_string(),
            body: None,
        }
    }

    pub fn post(path: &str, body: String) -> Call {
        Call {
            method: "POST",
            path: path.to_string(),
            body: Some(body),
        }
    }
}

/// How long and how hard.
#[derive(Clone, Debug)]
pub struct Plan {
    pub connections: usize,
    /// Stop sending after this long...
    pub duration: Duration,
    /// ...or after this many requests, whichever comes first.
    pub max_requests: u64,
}

/// What one run measured.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    pub name: String,
    pub requests: u64,
    pub seconds: f64,
    pub per_second: f64,
    /// Milliseconds at the 50th, 90th, 99th percentile and the slowest.
    pub p50_ms: f64,
    pub p90_ms: f64,
    pub p99_ms: f64,
    pub max_ms: f64,
    /// Answers by HTTP status.
    pub statuses: BTreeMap<u16, u64>,
    /// Requests that got no answer (connection refused, reset or closed mid-answer).
    pub unanswered: u64,
}

/// One answer: status and body.
pub struct Answer {
    pub status: u16,
    pub body: String,
}

/// An open keep-alive connection.
pub struct Connection {
    reader: BufReader<TcpStream>,
    writer: TcpStream,
    /// The `Host` header: the address connected to, which a loopback server requires.
    host: String,
}

impl Connection {
    pub fn open(addr: SocketAddr) -> std::io::Result<Connection> {
        let stream = TcpStream::connect(addr)?;
        stream.set_nodelay(true)?;
        stream.set_read_timeout(Some(Duration::from_secs(60)))?;
        Ok(Connection {
            reader: BufReader::new(stream.try_clone()?),
            writer: stream,
            host: addr.to_string(),
        })
    }

    /// Sends `call` and reads its answer (which must carry a Content-Length, as the server's
    /// do).
    pub fn send(&mut self, call: &Call) -> std::io::Result<Answer> {
        let body = call.body.as_deref().unwrap_or("");
        let head = format!(
            "{} {} HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
            call.method,
            call.path,
            self.host,
            body.len()
        );
        self.writer.write_all(head.as_bytes())?;
        self.writer.write_all(body.as_bytes())?;
        let broken =
            |what: &str| std::io::Error::new(std::io::ErrorKind::InvalidData, what.to_string());
        let mut line = String::new();
        if self.reader.read_line(&mut line)? == 0 {
            return Err(std::io::ErrorKind::UnexpectedEof.into());
        }
        let status: u16 = line
            .split_whitespace()
            .nth(1)
            .and_then(|s| s.parse().ok())
            .ok_or_else(|| broken("no status line"))?;
        let mut length = 0usize;
        loop {
            line.clear();
            if self.reader.read_line(&mut line)? == 0 {
                return Err(std::io::ErrorKind::UnexpectedEof.into());
            }
            let header = line.trim_end();
            if header.is_empty() {
                break;
            }
            if let Some((name, value)) = header.split_once(':')
                && name.eq_ignore_ascii_case("content-length")
            {
                length = value
                    .trim()
                    .parse()
                    .map_err(|_| broken("bad Content-Length"))?;
            }
        }
        // The server's answers are small; a length beyond this is a wrong server, not a
        // reason to allocate it.
        if length > MAX_ANSWER_BYTES {
            return Err(broken("an answer over 64 MiB"));
        }
        let mut bytes = vec![0; length];
        self.reader.read_exact(&mut bytes)?;
        Ok(Answer {
            status,
            body: String::from_utf8_lossy(&bytes).into_owned(),
        })
    }
}

/// Sends `calls` round and round on `plan.connections` connections until the plan's time or
/// count is spent.
pub fn run(addr: SocketAddr, name: &str, calls: &[Call], plan: &Plan) -> Report {
    let start = Instant::now();
    let deadline = start + plan.duration;
    let sent = std::sync::atomic::AtomicU64::new(0);
    let results: Vec<(Vec<Duration>, BTreeMap<u16, u64>, u64)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..plan.connections.max(1))
            .map(|worker| {
                let sent = &sent;
                scope.spawn(move || {
                    let mut latencies = Vec::new();
                    let mut statuses = BTreeMap::new();
                    let mut unanswered = 0;
                    let mut connection: Option<Connection> = None;
                    let mut turn = worker;
                    while Instant::now() < deadline
                        && sent.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
                            < plan.max_requests
                    {
                        let call = &calls[turn % calls.len()];
                        turn += plan.connections.max(1);
                        let began = Instant::now();
                        let fresh = |call: &Call| {
                            Connection::open(addr).and_then(|mut c| c.send(call).map(|a| (a, c)))
                        };
                        // A server may close a kept-alive connection after any answer (after
                        // a 413, whose body it did not read): the request goes again on a
                        // new one, as a browser would send it.
                        let answer = match connection.take() {
                            Some(mut c) => c.send(call).map(|a| (a, c)).or_else(|_| fresh(call)),
                            None => fresh(call),
                        };
                        match answer {
                            Ok((answer, c)) => {
                                latencies.push(began.elapsed());
                                *statuses.entry(answer.status).or_insert(0) += 1;
                                connection = Some(c);
                            }
                            Err(_) => unanswered += 1,
                        }
                    }
                    (latencies, statuses, unanswered)
                })
            })
            .collect();
        workers
            .into_iter()
            .map(|w| w.join().unwrap_or_default())
            .collect()
    });
    let seconds = start.elapsed().as_secs_f64();
    let mut latencies: Vec<Duration> = Vec::new();
    let mut statuses = BTreeMap::new();
    let mut unanswered = 0;
    for (l, s, u) in results {
        latencies.extend(l);
        for (status, n) in s {
            *statuses.entry(status).or_insert(0) += n;
        }
        unanswered += u;
    }
    latencies.sort_unstable();
    let percentile = |p: f64| -> f64 {
        if latencies.is_empty() {
            return 0.0;
        }
        let rank = ((p / 100.0) * latencies.len() as f64).ceil() as usize;
        latencies[rank.clamp(1, latencies.len()) - 1].as_secs_f64() * 1e3
    };
    let requests = latencies.len() as u64;
    Report {
        name: name.to_string(),
        requests,
        seconds,
        per_second: requests as f64 / seconds.max(1e-9),
        p50_ms: percentile(50.0),
        p90_ms: percentile(90.0),
        p99_ms: percentile(99.0),
        max_ms: percentile(100.0),
        statuses,
        unanswered,
    }
}

/// `count` scrambles of `length` moves (no face turned twice in a row), the same for the same
/// seed.
pub fn scrambles(count: usize, length: usize, seed: u64) -> Vec<String> {
    use rand::{RngExt, SeedableRng};
    let mut rng = rand::rngs::Xoshiro256PlusPlus::seed_from_u64(seed);
    const FACES: [char; 6] = ['U', 'R', 'F', 'D', 'L', 'B'];
    const TURNS: [&str; 3] = ["", "2", "'"];
    (0..count)
        .map(|_| {
            let mut moves = Vec::with_capacity(length);
            let mut last = None;
            while moves.len() < length {
                let face = FACES[rng.random_range(0..6)];
                if Some(face) == last {
                    continue;
                }
                last = Some(face);
                moves.push(format!("{face}{}", TURNS[rng.random_range(0..3)]));
            }
            moves.join(" ")
        })
        .collect()
}

/// Requests that must each get a 4xx answer: malformed, unknown, out of limits, impossible.
pub fn bad_calls(max_body_bytes: usize, max_positions: usize) -> Vec<(Call, u16)> {
    let solved: String = "URFDLB"
        .chars()
        .flat_map(|c| std::iter::repeat_n(c, 9))
        .collect();
    let mut twisted: Vec<char> = solved.chars().collect();
    // The URF corner twisted in place: its U, R and F stickers are 8, 9 and 20.
    (twisted[8], twisted[9], twisted[20]) = ('F', 'U', 'R');
    let twisted: String = twisted.into_iter().collect();
    let many: Vec<&str> = vec!["R"; max_positions + 1];
    vec![
        (Call::post("/solve", "this is not JSON".into()), 400),
        (Call::post("/solve", r#"{"position": "R U X"}"#.into()), 400),
        (Call::post("/solve", r#"{"positon": "R U"}"#.into()), 400),
        (
            Call::post("/solve", r#"{"position": "R", "method": "fastest"}"#.into()),
            400,
        ),
        (
            Call::post("/solve", r#"{"position": "R", "timeout": 1e9}"#.into()),
            400,
        ),
        (
            Call::post("/solve", format!(r#"{{"position": "{twisted}"}}"#)),
            400,
        ),
        (
            Call::post(
                "/solve",
                serde_json::json!({ "positions": many }).to_string(),
            ),
            413,
        ),
        (
            Call::post(
                "/solve",
                format!(r#"{{"position": "{}"}}"#, "R ".repeat(max_body_bytes)),
            ),
            413,
        ),
        (Call::post("/validate", "[]".into()), 400),
        (Call::get("/random?puzzle=5x5"), 400),
        (Call::get("/nowhere"), 404),
    ]
}

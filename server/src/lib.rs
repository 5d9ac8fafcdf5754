//! `cubelab serve`: an HTTP JSON API over the solvers, and the web cube editor it serves.
//!
//! Routes: `POST /solve`, `POST /goal` (partial goals: [`goal`]), `POST /puzzle/solve` and `POST /puzzle/gods` (any puzzle by its KPuzzle definition: [`puzzle`]), `POST /validate`, `GET /random`, `GET /tables`, and the page at `/`.
//! Answers are the JSON objects of `solve --json` ([`Outcome::to_json`]) and errors are
//! `{"error": message}` with the command line's texts, under a 4xx status for a bad request and
//! 503 when the server is full. The tables are opened once, by the shared [`Solvers`].
//!
//! One heavy request must not starve the others or exhaust memory, so every request is bounded:
//! its body ([`Limits::body_bytes`]), its positions ([`Limits::positions`]), its search time
//! (all its positions share [`Limits::search`]; a position whose time is up answers `timeout`),
//! and optimal 3x3 searches run on at most [`Limits::searches`] threads at once, each on one
//! thread, outside the threads that accept connections, at most [`Limits::client_searches`] of
//! them for one client address. A request that finds its search threads busy waits
//! [`Limits::queue`] and is then answered 503, so the wait for an answer is bounded too.
//! Everything else (2x2 look-ups, two-phase and layer solves: milliseconds) runs beside them on
//! threads of its own, so that it never queues behind a search. A search whose client has gone
//! is stopped; a connection must send its request's headers within [`Limits::header_timeout`]
//! and its body within [`Limits::body_timeout`] (a body declared larger than
//! [`Limits::body_bytes`] is refused before any of it is read); at most [`Limits::connections`]
//! are open at once; and Ctrl-C or SIGTERM stops the server within [`SHUTDOWN_GRACE`] whatever
//! its clients do.

use axum::Router;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{DefaultBodyLimit, Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use cubelab::catalogue;
use cubelab::catalogue::TableKind;
use cubelab::model::cube::Metric;
use cubelab::model::position::{Form, Position, Puzzle, parse_position};
use cubelab::solving::{JsonShape, Method, Outcome, Request, Solvers};
use cubelab::support::named::Named;
use serde::Deserialize;
use serde_json::{Value, json};
use std::collections::HashMap;
use std::net::IpAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

mod goal;
pub use goal::BUILD_BUDGET;
pub mod load;
pub mod modules;
mod puzzle;

/// What one request may ask for.
#[derive(Clone, Debug)]
pub struct Limits {
    /// The largest request body.
    pub body_bytes: usize,
    /// The most positions in one `POST /solve`.
    pub positions: usize,
    /// The search time one request may use, all its positions together.
    pub search: Duration,
    /// Searches running at once (each on one thread).
    pub searches: usize,
    /// How long a request waits for a free search thread before a 503.
    pub queue: Duration,
    /// Optimal 3x3 searches one client address may run at once: all but one of
    /// [`Limits::searches`] by default, so that no client takes every one.
    pub client_searches: usize,
    /// How long a connection may take to send a request's headers, from its opening or from
    /// the end of its last answer (a silent or slow client is disconnected after it).
    pub header_timeout: Duration,
    /// How long a request's body may take to arrive once its headers have (a slower one is
    /// answered 408 and its connection closed).
    pub body_timeout: Duration,
    /// Connections open at once; one more is answered 503 and closed at once.
    pub connections: usize,
    /// The most entries of goal tables (`POST /goal`) and states of puzzle pattern databases
    /// (`POST /puzzle/solve`) that requests may build, each kind all together over the
    /// server's run: the disk they fill is bounded (see [`goal::BUILD_BUDGET`]).
    pub builds: u128,
}

impl Default for Limits {
    fn default() -> Limits {
        let searches = std::thread::available_parallelism().map_or(2, |n| n.get());
        Limits {
            body_bytes: 64 * 1024,
            positions: 100,
            search: Duration::from_secs(10),
            searches,
            queue: Duration::from_secs(10),
            client_searches: Limits::client_share(searches),
            header_timeout: Duration::from_secs(10),
            body_timeout: Duration::from_secs(10),
            connections: 512,
            builds: goal::BUILD_BUDGET,
        }
    }
}

impl Limits {
    /// The default [`Limits::client_searches`] for `searches`: all but one, at least one.
    pub fn client_share(searches: usize) -> usize {
        searches.saturating_sub(1).max(1)
    }
}

/// How long the requests under way may take to finish after Ctrl-C or SIGTERM before the
/// server stops without them (their searches are stopped).
pub const SHUTDOWN_GRACE: Duration = Duration::from_secs(3);

/// Threads for the requests that need no optimal 3x3 search, per search thread: they take
/// milliseconds, so a few more than the cores keep them from waiting on one another.
const QUICK_PER_SEARCH: usize = 4;

/// What every handler shares.
pub struct Server {
    solvers: Solvers,
    /// The table optimal 3x3 searches read; `None` reads each metric's default.
    tables: Option<TableKind>,
    limits: Limits,
    /// One permit per search thread.
    searches: Arc<Semaphore>,
    /// Per client address, one permit per search it may run at once; an address's entry
    /// leaves when it holds and awaits none.
    clients: std::sync::Mutex<HashMap<IpAddr, Arc<Semaphore>>>,
    /// Permits for the requests that need no optimal 3x3 search.
    quick: Arc<Semaphore>,
    /// Where the npm packages of the 3D view are installed ([`modules`]).
    web_modules: PathBuf,
    /// Goal tables opened so far, by mask and metric ([`goal`]).
    goal_tables: goal::OpenGoals,
    /// Puzzle solvers opened so far, by question ([`puzzle`]).
    puzzles: puzzle::OpenPuzzles,
}

impl Server {
    pub fn new(data_dir: PathBuf, tables: Option<TableKind>, limits: Limits) -> Server {
        Server {
            solvers: Solvers::new(&data_dir),
            tables,
            searches: Arc::new(Semaphore::new(limits.searches.max(1))),
            clients: std::sync::Mutex::new(HashMap::new()),
            quick: Arc::new(Semaphore::new(limits.searches.max(1) * QUICK_PER_SEARCH)),
            limits,
            web_modules: PathBuf::from(modules::DEFAULT_DIR),
            goal_tables: goal::OpenGoals::default(),
            puzzles: puzzle::OpenPuzzles::default(),
        }
    }

    /// The same server, serving the 3D view's npm packages from `dir` (default
    /// [`modules::DEFAULT_DIR`]).
    pub fn with_web_modules(mut self, dir: PathBuf) -> Server {
        self.web_modules = dir;
        self
    }

    /// The permits a request's work needs: for an optimal 3x3 search, one of its client's and
    /// one search thread; for anything else, a quick thread. Waits at most [`Limits::queue`].
    async fn permits(&self, client: IpAddr, searches: bool) -> Result<Permits, ApiError> {
        let limits = &self.limits;
        let busy = |what: String| ApiError {
            status: StatusCode::SERVICE_UNAVAILABLE,
            message: format!(
                "{what} stayed busy for {} s; try again later",
                limits.queue.as_secs_f64()
            ),
        };
        let closed = |_| ApiError {
            status: StatusCode::SERVICE_UNAVAILABLE,
            message: "the server is shutting down".into(),
        };
        let deadline = tokio::time::Instant::now() + limits.queue;
        if !searches {
            let quick = tokio::time::timeout_at(deadline, Arc::clone(&self.quick).acquire_owned())
                .await
                .map_err(|_| busy("every thread for quick solves".into()))?
                .map_err(closed)?;
            return Ok(Permits { _held: vec![quick] });
        }
        let own = self.client_semaphore(client);
        let client_permit = tokio::time::timeout_at(deadline, Arc::clone(&own).acquire_owned())
            .await
            .map_err(|_| {
                busy(format!(
                    "your {} search thread{} (of {})",
                    limits.client_searches,
                    if limits.client_searches == 1 { "" } else { "s" },
                    limits.searches
                ))
            })?
            .map_err(closed)?;
        let search = tokio::time::timeout_at(deadline, Arc::clone(&self.searches).acquire_owned())
            .await
            .map_err(|_| busy(format!("every search thread ({})", limits.searches)))?
            .map_err(closed)?;
        Ok(Permits {
            _held: vec![search, client_permit],
        })
    }

    /// The semaphore of `client`'s searches, made on its first request.
    fn client_semaphore(&self, client: IpAddr) -> Arc<Semaphore> {
        let mut clients = self.clients.lock().unwrap_or_else(|e| e.into_inner());
        // An entry only the map holds has no permit out and no request waiting for one (each
        // holds its own handle): dropped as others are made.
        let share = self.limits.client_searches.max(1);
        clients.retain(|_, s| Arc::strong_count(s) > 1);
        Arc::clone(
            clients
                .entry(client)
                .or_insert_with(|| Arc::new(Semaphore::new(share))),
        )
    }

    pub fn data_dir(&self) -> &std::path::Path {
        self.solvers.data_dir()
    }

    /// The table optimal 3x3 searches read in `metric`.
    pub fn optimal_table(&self, metric: Metric) -> TableKind {
        cubelab::solving::tables_or_default(self.tables, metric)
    }

    /// Opens every solver whose tables are present, so that the first requests do not wait
    /// for a table's first checksum; says which are ready and which are missing.
    pub fn open_tables(&self) -> String {
        let mut ready = Vec::new();
        let mut missing = Vec::new();
        let kinds = [
            ("2x2", Puzzle::Pocket, Method::Optimal),
            ("3x3 optimal", Puzzle::Cube, Method::Optimal),
            ("3x3 two-phase", Puzzle::Cube, Method::TwoPhase),
        ];
        for (name, puzzle, method) in kinds {
            let request = Request {
                method,
                tables: self.tables,
                ..Request::default()
            };
            match self.solvers.open_for(puzzle, &request) {
                Ok(()) => ready.push(name),
                Err(_) => missing.push(name),
            }
        }
        if missing.is_empty() {
            format!("ready: {}", ready.join(", "))
        } else {
            format!(
                "ready: {}; tables missing for: {} (build them with gen-tables)",
                if ready.is_empty() {
                    "none".to_string()
                } else {
                    ready.join(", ")
                },
                missing.join(", ")
            )
        }
    }
}

/// What a request holds while its positions are solved (a quick thread, or a search thread
/// and one of its client's); dropped, the threads are free.
struct Permits {
    _held: Vec<OwnedSemaphorePermit>,
}

/// The address of the client on a connection, put into each of its requests.
#[derive(Clone, Copy, Debug)]
pub struct ClientAddress(pub IpAddr);

/// Sets its flag when dropped: a handler holds one for its search, and hyper drops the
/// handler when the client goes, so that the search stops rather than run on for no one.
struct CancelOnDrop(Arc<AtomicBool>);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// The routes over a shared [`Server`].
pub fn router(server: Arc<Server>) -> Router {
    let body_bytes = server.limits.body_bytes;
    let body = (body_bytes, server.limits.body_timeout);
    Router::new()
        .route("/", get(page))
        .route("/app.js", get(script))
        .route("/style.css", get(style))
        .route("/modules/{*path}", get(module_file))
        .route("/solve", post(solve))
        .route("/goal", post(goal::goal))
        .route("/puzzle/solve", post(puzzle::solve))
        .route("/puzzle/gods", post(puzzle::gods_run))
        .route("/validate", post(validate))
        .route("/random", get(random))
        .route("/tables", get(tables))
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(DefaultBodyLimit::max(body_bytes))
        .layer(axum::middleware::from_fn(move |request, next| {
            whole_body(body, request, next)
        }))
        .with_state(server)
}

/// Reads a request's whole body before its handler runs, within `limits` (the most bytes, the
/// longest wait): a body declared larger is answered 413 before any of it is read, one that
/// turns out larger 413, and one that does not arrive in time 408, so a client that sends its
/// headers and then a trickle holds its connection for the timeout at most.
async fn whole_body(
    (most, wait): (usize, Duration),
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    let too_large = || ApiError {
        status: StatusCode::PAYLOAD_TOO_LARGE,
        message: format!("the request body is larger than this server's {most} bytes"),
    };
    let declared = request
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u128>().ok());
    if declared.is_some_and(|n| n > most as u128) {
        return too_large().into_response();
    }
    let (parts, body) = request.into_parts();
    match tokio::time::timeout(wait, axum::body::to_bytes(body, most)).await {
        Err(_) => {
            let mut answer = ApiError {
                status: StatusCode::REQUEST_TIMEOUT,
                message: format!(
                    "the request body did not arrive within {} s",
                    wait.as_secs_f64()
                ),
            }
            .into_response();
            answer.headers_mut().insert(
                header::CONNECTION,
                header::HeaderValue::from_static("close"),
            );
            answer
        }
        Ok(Err(_)) => too_large().into_response(),
        Ok(Ok(bytes)) => {
            next.run(axum::extract::Request::from_parts(parts, bytes.into()))
                .await
        }
    }
}

/// Serves `router` on `listener` until Ctrl-C (or SIGTERM); the requests under way then get
/// [`SHUTDOWN_GRACE`] to finish, and whatever is left is dropped (its searches stopped).
pub async fn serve(listener: tokio::net::TcpListener, server: Arc<Server>) -> std::io::Result<()> {
    let header_timeout = server.limits.header_timeout;
    let slots = Arc::new(Semaphore::new(server.limits.connections.max(1)));
    let mut routes = router(server);
    if listener.local_addr()?.ip().is_loopback() {
        routes = routes.layer(axum::middleware::from_fn(loopback_host_only));
    }
    let (closing, closed) = tokio::sync::watch::channel(false);
    let mut connections = tokio::task::JoinSet::new();
    let signal = shutdown_signal();
    tokio::pin!(signal);
    loop {
        tokio::select! {
            () = &mut signal => break,
            accepted = listener.accept() => match accepted {
                Ok((stream, peer)) => match slots.clone().try_acquire_owned() {
                    Ok(slot) => {
                        let routes =
                            routes.clone().layer(axum::Extension(ClientAddress(peer.ip())));
                        let served = connection(stream, routes, header_timeout, closed.clone());
                        connections.spawn(async move {
                            served.await;
                            drop(slot);
                        });
                    }
                    Err(_) => {
                        connections.spawn(refuse_full(stream));
                    }
                },
                // Out of descriptors, or a connection reset before it was taken: accepting
                // again at once would spin; the header timeout frees descriptors meanwhile.
                Err(_) => tokio::time::sleep(Duration::from_millis(50)).await,
            },
            Some(_) = connections.join_next(), if !connections.is_empty() => {}
        }
    }
    drop(listener);
    let _ = closing.send(true);
    let finished = async { while connections.join_next().await.is_some() {} };
    let _ = tokio::time::timeout(SHUTDOWN_GRACE, finished).await;
    // Dropping the set aborts what is left; each aborted handler cancels its search.
    connections.abort_all();
    Ok(())
}

/// Answers a connection past [`Limits::connections`] with a 503 and closes it (a second at
/// most for a client that does not read).
async fn refuse_full(stream: tokio::net::TcpStream) {
    const BODY: &str =
        r#"{"error":"the server has as many connections open as it takes; try again shortly"}"#;
    let answer = format!(
        "HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\ncontent-length: {}\r\nretry-after: 1\r\nconnection: close\r\n\r\n{BODY}",
        BODY.len()
    );
    let send = async {
        let mut sent = 0;
        while sent < answer.len() {
            if stream.writable().await.is_err() {
                return;
            }
            match stream.try_write(&answer.as_bytes()[sent..]) {
                Ok(n) => sent += n,
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {}
                Err(_) => return,
            }
        }
    };
    let _ = tokio::time::timeout(Duration::from_secs(1), send).await;
}

/// Serves one connection: HTTP/1.1 with keep-alive, the headers of each request due within
/// `header_timeout`; asked to close when `closed` turns true, after the request under way.
async fn connection(
    stream: tokio::net::TcpStream,
    routes: Router,
    header_timeout: Duration,
    mut closed: tokio::sync::watch::Receiver<bool>,
) {
    let service = hyper_util::service::TowerToHyperService::new(routes);
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder
        .timer(hyper_util::rt::TokioTimer::new())
        .header_read_timeout(header_timeout)
        .keep_alive(true);
    let conn = builder.serve_connection(hyper_util::rt::TokioIo::new(stream), service);
    tokio::pin!(conn);
    tokio::select! {
        _ = conn.as_mut() => return,
        _ = closed.wait_for(|closed| *closed) => conn.as_mut().graceful_shutdown(),
    }
    let _ = conn.await;
}

/// Refuses a request whose `Host` is not a loopback name, for a server bound to loopback: a
/// page of another site that a user visits can reach the loopback server through a name of
/// its own that resolves there (DNS rebinding), but it cannot make the browser send a
/// loopback `Host`.
async fn loopback_host_only(
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    let host = request
        .headers()
        .get(header::HOST)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    if is_loopback_host(host) {
        return next.run(request).await;
    }
    ApiError {
        status: StatusCode::FORBIDDEN,
        message: format!(
            "this server listens on loopback and answers requests for localhost, 127.0.0.1 or [::1] only, not for Host '{}'",
            host.chars().take(80).collect::<String>()
        ),
    }
    .into_response()
}

/// Whether a `Host` header names this machine's loopback: `localhost`, an address in
/// 127.0.0.0/8 or `[::1]`, with or without a port.
pub fn is_loopback_host(host: &str) -> bool {
    let name = match host.strip_prefix('[') {
        Some(rest) => rest.split(']').next().unwrap_or(""),
        None => host.rsplit_once(':').map_or(host, |(name, _)| name),
    };
    name.eq_ignore_ascii_case("localhost")
        || name
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
}

async fn shutdown_signal() {
    let interrupt = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = interrupt => {},
        () = terminate => {},
    }
}

/// A failed request: its status and message, answered as `{"error": message}`.
#[derive(Debug)]
pub struct ApiError {
    status: StatusCode,
    message: String,
}

impl ApiError {
    fn bad(message: impl Into<String>) -> ApiError {
        ApiError {
            status: StatusCode::BAD_REQUEST,
            message: message.into(),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.status, axum::Json(json!({ "error": self.message }))).into_response()
    }
}

type ApiResult = Result<axum::Json<Value>, ApiError>;

/// The body as `T`, or a 4xx that says what is wrong with it (too large, not JSON, a field of
/// the wrong type or unknown).
fn body<T: for<'de> Deserialize<'de>>(
    headers: &HeaderMap,
    bytes: Result<Bytes, BytesRejection>,
) -> Result<T, ApiError> {
    let json = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|media| media.trim().eq_ignore_ascii_case("application/json"));
    if !json {
        // A cross-site page may POST `text/plain` without asking first; it cannot send JSON.
        return Err(ApiError {
            status: StatusCode::UNSUPPORTED_MEDIA_TYPE,
            message: "send the body as JSON, with the header Content-Type: application/json".into(),
        });
    }
    let bytes = bytes.map_err(|rejection| ApiError {
        status: rejection.status(),
        message: format!(
            "the request body could not be read: {}",
            rejection.body_text()
        ),
    })?;
    serde_json::from_slice(&bytes)
        .map_err(|e| ApiError::bad(format!("the request body is not the JSON expected: {e}")))
}

/// A name as the command line takes it (`"htm"`, `"two-phase"`, `"3x3"`), or a 400 listing
/// the names there are.
fn named<T: Named>(what: &str, name: &str) -> Result<T, ApiError> {
    cubelab::support::named::named(what, name).map_err(|e| ApiError::bad(e.to_string()))
}

fn puzzle_named(name: Option<&str>) -> Result<Option<Puzzle>, ApiError> {
    name.map(|n| named("puzzle", n)).transpose()
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SolveBody {
    /// One position: the answer is its object.
    position: Option<String>,
    /// Several: the answer is `{"answers": [...]}`, in order.
    positions: Option<Vec<String>>,
    puzzle: Option<String>,
    metric: Option<String>,
    method: Option<String>,
    /// Seconds, at most the server's limit (which is also the default).
    timeout: Option<f64>,
    max_length: Option<u32>,
    /// Also give the sticker string after each move of the solution (`states`), for
    /// stepping through it.
    #[serde(default)]
    states: bool,
}

/// A request's positions: one (`position`: the answer is its object) or several
/// (`positions`: the answer is `{"answers": [...]}`), at most [`Limits::positions`]; and whether
/// it was one.
fn positions_asked(
    position: Option<String>,
    positions: Option<Vec<String>>,
    limits: &Limits,
) -> Result<(Vec<String>, bool), ApiError> {
    one_or_many(position, positions, ("position", "positions"), limits)
}

/// One text or several, as the fields named `names` (one, several) gave them, at most
/// [`Limits::positions`]; and whether it was one.
fn one_or_many(
    one: Option<String>,
    many: Option<Vec<String>>,
    (single, plural): (&str, &str),
    limits: &Limits,
) -> Result<(Vec<String>, bool), ApiError> {
    let (texts, alone) = match (one, many) {
        (Some(one), None) => (vec![one], true),
        (None, Some(many)) if !many.is_empty() => (many, false),
        (None, Some(_)) => return Err(ApiError::bad(format!("'{plural}' is empty"))),
        (Some(_), Some(_)) => {
            return Err(ApiError::bad(format!(
                "give '{single}' or '{plural}', not both"
            )));
        }
        (None, None) => {
            return Err(ApiError::bad(format!(
                "give '{single}' (or '{plural}': a list)"
            )));
        }
    };
    if texts.len() > limits.positions {
        return Err(ApiError {
            status: StatusCode::PAYLOAD_TOO_LARGE,
            message: format!(
                "{} {plural} in one request; this server takes at most {}",
                texts.len(),
                limits.positions
            ),
        });
    }
    Ok((texts, alone))
}

async fn solve(
    State(server): State<Arc<Server>>,
    client: Option<axum::Extension<ClientAddress>>,
    headers: HeaderMap,
    bytes: Result<Bytes, BytesRejection>,
) -> ApiResult {
    let asked: SolveBody = body(&headers, bytes)?;
    let limits = &server.limits;
    let (texts, single) = positions_asked(asked.position, asked.positions, limits)?;
    let method: Method = named("method", asked.method.as_deref().unwrap_or("optimal"))?;
    let metric: Metric = named("metric", asked.metric.as_deref().unwrap_or("htm"))?;
    if method != Method::Optimal && metric != Metric::Htm {
        return Err(ApiError::bad(format!(
            "metric qtm is for method optimal, not {}",
            method.name()
        )));
    }
    let search = match asked.timeout {
        None => limits.search,
        Some(s) if (0.0..=limits.search.as_secs_f64()).contains(&s) => Duration::from_secs_f64(s),
        Some(s) => {
            return Err(ApiError::bad(format!(
                "timeout {s} is outside 0 to this server's limit of {} seconds",
                limits.search.as_secs_f64()
            )));
        }
    };
    let puzzle = puzzle_named(asked.puzzle.as_deref())?;
    // Reading a position can take seconds (`((R U F)1000)333` is 2 KB): not on the threads
    // that accept and answer connections.
    let (texts, positions) = off_the_runtime(move || {
        let positions: Vec<Result<Position, String>> = texts
            .iter()
            .map(|t| parse_position(t, puzzle, Form::Auto).map_err(|e| e.to_string()))
            .collect();
        (texts, positions)
    })
    .await?;
    if single && let Err(message) = &positions[0] {
        return Err(ApiError::bad(message.clone()));
    }
    let cancel = Arc::new(AtomicBool::new(false));
    let _cancel_when_dropped = CancelOnDrop(Arc::clone(&cancel));
    let request = Request {
        metric,
        method,
        tables: server.tables,
        max_length: asked.max_length,
        one_thread: true,
        cancel: Some(cancel),
        ..Request::default()
    };
    // Only optimal 3x3 searches take seconds; the rest must not queue behind them.
    let searches =
        method == Method::Optimal && positions.iter().any(|p| matches!(p, Ok(Position::Cube(_))));
    let client = client.map_or(IpAddr::from([0, 0, 0, 0]), |c| c.0.0);
    let permit = server.permits(client, searches).await?;
    let worker = Arc::clone(&server);
    let states = asked.states;
    let answers = tokio::task::spawn_blocking(move || {
        let _permit = permit;
        solve_all(
            &worker.solvers,
            &request,
            search,
            &texts,
            &positions,
            states,
        )
    })
    .await
    .map_err(|e| ApiError {
        status: StatusCode::INTERNAL_SERVER_ERROR,
        message: format!("the search failed: {e}"),
    })?
    .map_err(|e| ApiError {
        status: StatusCode::SERVICE_UNAVAILABLE,
        message: e.to_string(),
    })?;
    if single {
        Ok(axum::Json(
            answers.into_iter().next().unwrap_or(Value::Null),
        ))
    } else {
        Ok(axum::Json(json!({ "answers": answers })))
    }
}

/// Runs `work` (reading positions, applying moves: milliseconds to seconds of computation) on
/// a blocking thread, so that the runtime's threads keep accepting and answering.
async fn off_the_runtime<T: Send + 'static>(
    work: impl FnOnce() -> T + Send + 'static,
) -> Result<T, ApiError> {
    tokio::task::spawn_blocking(work)
        .await
        .map_err(|e| ApiError {
            status: StatusCode::INTERNAL_SERVER_ERROR,
            message: format!("reading the request failed: {e}"),
        })
}

/// Solves the positions one after another within `search` in all; a position reached after
/// the time is up answers `timeout` unsearched. An error is a missing or damaged table.
fn solve_all(
    solvers: &Solvers,
    request: &Request,
    search: Duration,
    texts: &[String],
    positions: &[Result<Position, String>],
    states: bool,
) -> Result<Vec<Value>, cubelab::solving::SolvingError> {
    let deadline = Instant::now() + search;
    let shape = JsonShape::plain(request.metric);
    let mut answers = Vec::with_capacity(texts.len());
    let cancelled = || {
        request
            .cancel
            .as_ref()
            .is_some_and(|c| c.load(Ordering::Relaxed))
    };
    for (text, position) in texts.iter().zip(positions) {
        if cancelled() {
            // No one is waiting for the rest.
            break;
        }
        let position = match position {
            Ok(p) => p,
            Err(message) => {
                let invalid = Outcome::Invalid(message.clone());
                answers.push(invalid.to_json(text, None, &shape));
                continue;
            }
        };
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            // Not searched: the methods without a timeout (layers) must not run past it either.
            answers.push(json!({
                "input": text,
                "puzzle": position.puzzle().name(),
                "metric": request.metric.name(),
                "status": "timeout",
                "error": "the request's search time ran out before this position",
            }));
            continue;
        }
        let request = Request {
            timeout: Some(left),
            ..request.clone()
        };
        let outcome = solvers.solve(position, &request, &mut |_| {})?;
        let mut answer = outcome.to_json(text, Some(position.puzzle()), &shape);
        if states && let Some(solution) = outcome.solutions().first() {
            answer["states"] = states_along(position, solution).into();
        }
        answers.push(answer);
    }
    Ok(answers)
}

/// The sticker string after each move of `moves`, the position itself first.
fn states_along(position: &Position, moves: &[cubelab::model::cube::Move]) -> Vec<String> {
    let mut current = *position;
    let mut states = vec![current.stickers()];
    for &m in moves {
        current = current.apply_all(&[m]);
        states.push(current.stickers());
    }
    states
}

/// A position's description: puzzle, stickers and (3x3) Reid's notation.
fn described(position: &Position) -> Value {
    let mut value = json!({
        "puzzle": position.puzzle().name(),
        "stickers": position.stickers(),
    });
    if let Some(reid) = position.reid() {
        value["reid"] = reid.into();
    }
    value
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ValidateBody {
    position: String,
    puzzle: Option<String>,
    /// Moves to apply to the position first (the editor's move field).
    moves: Option<String>,
}

/// `{"valid": true, puzzle, stickers, reid}` or `{"valid": false, "error": why}`: an invalid
/// position is an answer here, not a failed request.
async fn validate(headers: HeaderMap, bytes: Result<Bytes, BytesRejection>) -> ApiResult {
    let asked: ValidateBody = body(&headers, bytes)?;
    let puzzle = puzzle_named(asked.puzzle.as_deref())?;
    let position = off_the_runtime(move || {
        parse_position(&asked.position, puzzle, Form::Auto).and_then(|p| {
            let Some(text) = &asked.moves else {
                return Ok(p);
            };
            p.apply_text(text)
        })
    })
    .await?;
    Ok(axum::Json(match position {
        Ok(p) => {
            let mut value = described(&p);
            value["valid"] = true.into();
            value
        }
        Err(e) => json!({ "valid": false, "error": e.to_string() }),
    }))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RandomQuery {
    puzzle: Option<String>,
    seed: Option<u64>,
}

/// A uniformly random position (`?puzzle=2x2`, `?seed=N` for a repeatable one).
async fn random(
    query: Result<Query<RandomQuery>, axum::extract::rejection::QueryRejection>,
) -> ApiResult {
    let Query(query) = query.map_err(|e| ApiError::bad(e.body_text()))?;
    let puzzle = puzzle_named(query.puzzle.as_deref())?.unwrap_or(Puzzle::Cube);
    let position = Position::seeded(puzzle, query.seed);
    Ok(axum::Json(described(&position)))
}

/// Every table this server could read, with whether its file is present (not opened: the
/// first open of a large table verifies its checksum, seconds of reading).
async fn tables(State(server): State<Arc<Server>>) -> ApiResult {
    let dir = server.solvers.data_dir();
    let listed: Vec<Value> = catalogue::catalogue()
        .into_iter()
        .map(|id| {
            json!({
                "table": id.name(),
                "kind": id.kind.name(),
                "metric": id.metric.name(),
                "entries": catalogue::entries(id.kind),
                "bytes": catalogue::file_bytes(id),
                "present": id.is_present(dir),
            })
        })
        .collect();
    let methods: Vec<&str> = Method::ALL.iter().map(|m| m.name()).collect();
    Ok(axum::Json(json!({
        "data_dir": dir,
        "tables": listed,
        "methods": methods,
        "optimal_table": {
            "htm": server.optimal_table(Metric::Htm).name(),
            "qtm": server.optimal_table(Metric::Qtm).name(),
        },
        "limits": {
            "body_bytes": server.limits.body_bytes,
            "positions": server.limits.positions,
            "search_seconds": server.limits.search.as_secs_f64(),
            "searches": server.limits.searches,
            "client_searches": server.limits.client_searches,
            "header_timeout_seconds": server.limits.header_timeout.as_secs_f64(),
            "body_timeout_seconds": server.limits.body_timeout.as_secs_f64(),
            "connections": server.limits.connections,
        },
    })))
}

async fn not_found() -> ApiError {
    ApiError {
        status: StatusCode::NOT_FOUND,
        message: "no such page: the API is POST /solve, POST /goal, POST /validate, GET /random, GET /tables, and the editor is at /".into(),
    }
}

/// A known route asked with another method (`GET /solve`): a 405 that says which to use, as
/// JSON like every other error (axum's own 405 has an empty body).
async fn method_not_allowed() -> ApiError {
    ApiError {
        status: StatusCode::METHOD_NOT_ALLOWED,
        message: "wrong method for this route: POST /solve, POST /goal, POST /validate, GET /random, GET /tables, GET /".into(),
    }
}

/// The web editor: plain HTML, CSS and JavaScript, compiled into the binary.
async fn page() -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
        include_str!("../../web/index.html"),
    )
}

async fn script() -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "text/javascript; charset=utf-8")],
        include_str!("../../web/app.js"),
    )
}

/// A file of the 3D view's npm packages, from their install ([`modules`]).
async fn module_file(
    State(server): State<Arc<Server>>,
    axum::extract::Path(path): axum::extract::Path<String>,
) -> Result<Response, ApiError> {
    let not_found = |e: modules::ModuleError| ApiError {
        status: StatusCode::NOT_FOUND,
        message: e.to_string(),
    };
    let file = modules::resolve(&server.web_modules, &path).map_err(not_found)?;
    let bytes = tokio::fs::read(&file).await.map_err(|e| ApiError {
        status: StatusCode::INTERNAL_SERVER_ERROR,
        message: format!("cannot read {}: {e}", file.display()),
    })?;
    Ok((
        [
            (header::CONTENT_TYPE, modules::content_type(&file)),
            // The install changes only with `npm ci`; an hour spares the page's many chunks.
            (header::CACHE_CONTROL, "max-age=3600"),
        ],
        bytes,
    )
        .into_response())
}

async fn style() -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "text/css; charset=utf-8")],
        include_str!("../../web/style.css"),
    )
}

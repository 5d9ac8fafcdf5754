//! Request bodies of the HTTP API: any bytes sent to POST /solve or /validate get an answer
//! with a status, never a panic. No tables are present, so a well-formed solve is answered
//! with the error that names them, in microseconds.
#![no_main]

use axum::body::Body;
use axum::http::Request;
use cubelab::catalogue::TableKind;
use cubelab_server::{Limits, Server, router};
use libfuzzer_sys::fuzz_target;
use std::sync::{Arc, OnceLock};
use tower::ServiceExt;

fn runtime() -> &'static tokio::runtime::Runtime {
    static RUNTIME: OnceLock<tokio::runtime::Runtime> = OnceLock::new();
    RUNTIME.get_or_init(|| {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a runtime")
    })
}

fn server() -> Arc<Server> {
    static SERVER: OnceLock<Arc<Server>> = OnceLock::new();
    Arc::clone(SERVER.get_or_init(|| {
        let empty = std::env::temp_dir().join("cubelab-fuzz-no-tables");
        let _ = std::fs::create_dir_all(&empty);
        Arc::new(Server::new(empty, Some(TableKind::UdF4), Limits::default()))
    }))
}

fuzz_target!(|data: &[u8]| {
    for path in ["/solve", "/validate"] {
        let request = Request::post(path)
            .header("content-type", "application/json")
            .body(Body::from(data.to_vec()))
            .expect("a request");
        let response = runtime()
            .block_on(router(server()).oneshot(request))
            .expect("the router answers");
        let status = response.status().as_u16();
        assert!((200..600).contains(&status));
        assert_ne!(status, 500, "a body made the server fail");
    }
});

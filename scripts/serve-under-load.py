#!/usr/bin/env python3
"""Measures what issue #31 asks of `cubelab serve` under load, on loopback, and prints a
Markdown table for reports/reliability.md:

- 2x2 solves answered while two clients keep every search thread busy with random 3x3 states
  (100 a request, over and over): latency percentiles of N sequential 2x2 solves;
- how soon a search thread is free again after its client leaves mid-search;
- how long the server takes to stop after SIGTERM while one client holds a half-sent request
  and another a running search;
- issue #62's hostile clients at once, against a second server (`--max-connections 4096`):
  1,000 connections that send their headers and 10 bytes of a 100-byte body and wait (opened
  again as the server closes them), clients that pipeline 200 requests on a connection, read
  the first answer and hang up, and clients that send 2 KB bodies of positions that take
  seconds to read; meanwhile N sequential 2x2 solves, and whether the server is alive after.

Usage: scripts/serve-under-load.py DATA_DIR [N]   (DATA_DIR holds the 2x2 and ud-f4 tables;
`gen-tables --data-dir DIR 2x2 ud-f4` builds them; N 2x2 solves, default 500). Uses
target/release/cubelab; standard library only.
"""

import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time

SUPERFLIP = "U R2 F B R B2 R U2 L B2 R U' D' R2 F R' L B2 U2 F2"


def start(data_dir, *extra):
    server = subprocess.Popen(
        ["target/release/cubelab", "serve", "--port", "0", "--data-dir", data_dir,
         "--tables", "ud-f4", "--searches", "2", "--client-searches", "2", *extra],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    line = server.stdout.readline()
    address = line.split("http://")[1].split()[0]
    host, port = address.rsplit(":", 1)
    return server, host, int(port)


def post(host, port, body, timeout=60):
    connection = http.client.HTTPConnection(host, port, timeout=timeout)
    connection.request("POST", "/solve", json.dumps(body), {"Content-Type": "application/json"})
    response = connection.getresponse()
    answer = json.loads(response.read())
    connection.close()
    return response.status, answer


def random_states(host, port, count, seed):
    states = []
    for i in range(count):
        connection = http.client.HTTPConnection(host, port, timeout=10)
        connection.request("GET", f"/random?seed={seed * 1000 + i}")
        states.append(json.loads(connection.getresponse().read())["stickers"])
        connection.close()
    return states


def percentile(values, share):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main():
    data_dir = sys.argv[1]
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 500
    server, host, port = start(data_dir)
    rows = []
    try:
        stop = threading.Event()
        busy_requests = [0]

        def keep_busy(seed):
            states = random_states(host, port, 100, seed)
            while not stop.is_set():
                post(host, port, {"positions": states})
                busy_requests[0] += 1

        clients = [threading.Thread(target=keep_busy, args=(s,), daemon=True) for s in (1, 2)]
        for client in clients:
            client.start()
        time.sleep(1.0)
        latencies = []
        for i in range(count):
            began = time.perf_counter()
            status, _ = post(host, port, {"position": f"R U F{i % 3 * ' R'}", "puzzle": "2x2"})
            latencies.append(time.perf_counter() - began)
            assert status == 200, status
        stop.set()
        for client in clients:
            # Each ends after its request under way (at most the 10 s search time).
            client.join()
        ms = [1000 * t for t in latencies]
        rows.append(("2x2 solves while two clients keep both search threads busy",
                     f"{count} solves: p50 {percentile(ms, 0.5):.1f} ms, p99 "
                     f"{percentile(ms, 0.99):.1f} ms, max {max(ms):.1f} ms"))

        # A client leaves mid-search: how soon does the next search start?
        frees = []
        for _ in range(5):
            holders = []
            for _ in range(2):
                s = socket.create_connection((host, port))
                body = json.dumps({"position": SUPERFLIP})
                s.sendall((f"POST /solve HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
                           f"application/json\r\nContent-Length: {len(body)}\r\n\r\n{body}").encode())
                holders.append(s)
            time.sleep(0.5)
            for s in holders:
                s.close()
            began = time.perf_counter()
            status, _ = post(host, port, {"position": "R U"})
            frees.append(time.perf_counter() - began)
            assert status == 200, status
        rows.append(("a search after both holders left mid-search",
                     f"answered in {1000 * max(frees):.0f} ms at most (5 tries)"))
    finally:
        # SIGTERM with a half-sent request and a running search held open.
        half = socket.create_connection((host, port))
        half.sendall(b"POST /solve HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\n\r\n{")
        search = socket.create_connection((host, port))
        body = json.dumps({"position": SUPERFLIP})
        search.sendall((f"POST /solve HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json"
                        f"\r\nContent-Length: {len(body)}\r\n\r\n{body}").encode())
        time.sleep(0.5)
        began = time.perf_counter()
        server.send_signal(signal.SIGTERM)
        code = server.wait(timeout=30)
        rows.append(("stop after SIGTERM, a half-sent request and a search held",
                     f"{time.perf_counter() - began:.2f} s, exit status {code}"))
    rows.extend(hostile(data_dir, count))
    print(f"`scripts/serve-under-load.py {data_dir} {count}` on {os.cpu_count()} cores:\n")
    print("| measured | result |\n|---|---|")
    for what, result in rows:
        print(f"| {what} | {result} |")


def hostile(data_dir, count):
    """Issue #62's clients at once, and 2x2 solves meanwhile."""
    server, host, port = start(data_dir, "--max-connections", "4096")
    stop = threading.Event()
    done = {"slow": 0, "pipelined": 0, "heavy": 0}

    def slow_bodies():
        head = (b"POST /solve HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                b"Content-Length: 100\r\n\r\n{\"position\"")
        while not stop.is_set():
            held = []
            for _ in range(1000):
                try:
                    s = socket.create_connection((host, port), timeout=5)
                    s.sendall(head)
                    held.append(s)
                except OSError:
                    pass
            done["slow"] += len(held)
            # The server closes each after its body timeout (10 s): opened again before then.
            stop.wait(8)
            for s in held:
                s.close()

    def pipelined():
        body = json.dumps({"position": "R U", "puzzle": "2x2"})
        one = (f"POST /solve HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
               f"Content-Length: {len(body)}\r\n\r\n{body}").encode()
        while not stop.is_set():
            try:
                s = socket.create_connection((host, port), timeout=5)
                s.sendall(one * 200)
                s.recv(100)
                s.close()
                done["pipelined"] += 1
            except Exception:  # a refused or reset connection: the next try
                pass

    def heavy():
        body = {"positions": ["((R U F)1000)333"] * 100, "puzzle": "2x2"}
        while not stop.is_set():
            try:
                post(host, port, body, timeout=60)
                done["heavy"] += 1
            except Exception:  # a refused or reset connection: the next try
                pass

    workers = [threading.Thread(target=f, daemon=True)
               for f in (slow_bodies, pipelined, pipelined, heavy, heavy)]
    for worker in workers:
        worker.start()
    time.sleep(3.0)
    latencies, failed = [], 0
    for i in range(count):
        began = time.perf_counter()
        try:
            status, _ = post(host, port, {"position": f"R U F{i % 3 * ' R'}", "puzzle": "2x2"})
        except Exception:  # counted as not answered
            status = None
        latencies.append(time.perf_counter() - began)
        failed += status != 200
    stop.set()
    for worker in workers:
        worker.join(timeout=15)
    alive = server.poll() is None and post(host, port, {"position": "R U", "puzzle": "2x2"})[0] == 200
    server.send_signal(signal.SIGTERM)
    server.wait(timeout=30)
    ms = [1000 * t for t in latencies]
    return [
        ("2x2 solves while 1,000 slow bodies, pipelined hang-ups and heavy parses run",
         f"{count} solves, {failed} not answered 200: p50 {percentile(ms, 0.5):.1f} ms, p99 "
         f"{percentile(ms, 0.99):.1f} ms, max {max(ms):.1f} ms"),
        ("the hostile clients meanwhile",
         f"{done['slow']} slow-body connections, {done['pipelined']} pipelined hang-ups, "
         f"{done['heavy']} heavy-parse requests answered"),
        ("the server after them", "alive, answering" if alive else "DEAD or not answering"),
    ]


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Measures what issue #31 asks of `cubelab serve` under load, on loopback, and prints a
Markdown table for reports/reliability.md:

- 2x2 solves answered while two clients keep every search thread busy with random 3x3 states
  (100 a request, over and over): latency percentiles of N sequential 2x2 solves;
- how soon a search thread is free again after its client leaves mid-search;
- how long the server takes to stop after SIGTERM while one client holds a half-sent request
  and another a running search.

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


def start(data_dir):
    server = subprocess.Popen(
        ["target/release/cubelab", "serve", "--port", "0", "--data-dir", data_dir,
         "--tables", "ud-f4", "--searches", "2", "--client-searches", "2"],
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
    print(f"`scripts/serve-under-load.py {data_dir} {count}` on {os.cpu_count()} cores:\n")
    print("| measured | result |\n|---|---|")
    for what, result in rows:
        print(f"| {what} | {result} |")


if __name__ == "__main__":
    main()

"""`xfbtrace web` survives slow clients (issue 24): 70 local clients that
sent one header byte every 4 s held all 64 connections (libmicrohttpd's
timeout counts only idle time) and locked every other client out.

100 clients here trickle a header byte every 2 s, never finishing their
request; meanwhile a well-behaved client asks for /api/runs again and again
and must be answered within 1 s each time, before and after the tricklers'
deadline (WEB_REQUEST_DEADLINE_S, 10 s), and the tricklers must have been
cut off by then.
"""
import os
import re
import socket
import subprocess
import time

from conftest import run

TRICKLERS = 100


def test_trickling_clients_do_not_lock_others_out(xfbtrace, build_dir, tmp_path):
    trace, db = tmp_path / "app.xfbt", tmp_path / "r.db"
    assert run([xfbtrace, "capture", "-o", trace, "--",
                build_dir / "tests" / "apps" / "tf-separate-gl33"]).returncode == 0
    assert run([xfbtrace, "ingest", "--db", db, trace]).returncode == 0
    proc = subprocess.Popen([str(xfbtrace), "web", "--db", str(db), "--port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    socks = []
    try:
        port = int(re.search(r":(\d+)/", proc.stdout.readline()).group(1))
        for _ in range(TRICKLERS):
            s = socket.create_connection(("127.0.0.1", port), timeout=5)
            s.sendall(b"GET /api/runs HTTP/1.1\r\nHost: x\r\nX-Slow: ")
            socks.append(s)
        start = time.monotonic()
        worst = 0.0
        while time.monotonic() - start < 14:
            for s in socks:
                try:
                    s.sendall(b"a")
                except OSError:
                    pass
            t0 = time.monotonic()
            with socket.create_connection(("127.0.0.1", port), timeout=5) as c:
                c.sendall(b"GET /api/runs HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                c.settimeout(5)
                data = b""
                while True:
                    chunk = c.recv(65536)
                    if not chunk:
                        break
                    data += chunk
            took = time.monotonic() - t0
            worst = max(worst, took)
            assert data.startswith(b"HTTP/1.1 200"), data[:200]
            assert took < 1.0, f"answered after {took:.2f} s with {TRICKLERS} slow clients"
            time.sleep(2)
        # Past the deadline every trickler has been cut off.
        cut = 0
        for s in socks:
            s.settimeout(1)
            try:
                s.sendall(b"a")
                cut += s.recv(100) == b""
            except OSError:
                cut += 1
        assert cut == TRICKLERS, f"only {cut} of {TRICKLERS} slow clients were cut off"
        print(f"worst answer {worst:.3f} s")
    finally:
        for s in socks:
            s.close()
        proc.terminate()
        proc.wait(timeout=20)

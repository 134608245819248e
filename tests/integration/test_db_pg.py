"""The shared results store on a real PostgreSQL server (docs/db.md,
"A shared store"), end to end: the errors a CI farm meets (an unreachable
server, a wrong password, a missing database, a schema newer than the
build), 32 replays from 8 processes at once with writers SIGKILLed at
random, `xfbtrace db push` from 8 SQLite files at once with pushers
SIGKILLed, and a push that meets a corrupt row.

The server is the session's (pgserver.py); every test has a database of its
own.  test_db.py runs its writer, reader and crash tests on both engines;
test_web.py and test_bisect.py run the web UI and bisect on a PostgreSQL
store.
"""
import json
import os
import random
import re
import subprocess
import threading
import time

import pytest

from conftest import PgStore, run
from test_db import capture_app, diff_json, ingest, ok, record_run, runs_json, tool

APP = "tf-particles-gles3"


def test_connection_failures_are_named_with_the_store_and_the_reason(xfbtrace, build_dir,
                                                                     pg_server, tmp_path):
    # Nothing listens there.
    out = run([xfbtrace, "runs", "--db", "postgresql://ci@127.0.0.1:1/results"])
    assert out.returncode == 2
    assert "cannot connect to postgresql://ci@127.0.0.1:1/results" in out.stderr, out.stderr
    assert "refused" in out.stderr, out.stderr

    # A role with a password, as docs/db.md sets one up for the workers.
    pg_server.psql("CREATE ROLE worker LOGIN PASSWORD 'right'")
    pg_server.psql("CREATE DATABASE farm OWNER worker")
    wrong = pg_server.url("farm", "worker", "wrong")
    out = run([xfbtrace, "runs", "--db", wrong])
    assert out.returncode == 2
    assert "authentication failed for user worker" in out.stderr, out.stderr
    assert "wrong" not in out.stderr, "the password must not be printed"

    out = run([xfbtrace, "runs", "--db", pg_server.url("nonesuch")])
    assert out.returncode == 2 and '"nonesuch" does not exist' in out.stderr, out.stderr

    # The right password: a reader finds no results yet, and says so.
    right = pg_server.url("farm", "worker", "right")
    empty = run([xfbtrace, "runs", "--db", right])
    assert empty.returncode == 2 and "holds no xfbtrace results" in empty.stderr, empty.stderr
    assert "right" not in empty.stderr, "the password must not be printed"
    # A writer creates the schema in it.
    trace = tmp_path / "t.xfbt"
    ok(run([tool(build_dir, "db-make-trace"), trace, "2", "64"]))
    ingest(xfbtrace, right, trace)
    assert len(runs_json(xfbtrace, right)) == 1
    replay = run([tool(build_dir, "db-record-run"), "--db", right, trace])
    assert replay.returncode == 0, replay.stderr
    app = capture_app(xfbtrace, build_dir, tmp_path, APP)
    replay = run([xfbtrace, "replay", "--db", right, app])
    assert replay.returncode == 0 and "recorded run" in replay.stderr, replay.stderr
    assert "right" not in replay.stderr, "the password must not be printed"


def test_a_schema_newer_than_the_build_is_refused_by_readers_and_writers(
        xfbtrace, build_dir, pg_server, tmp_path):
    store = PgStore(pg_server)
    trace = tmp_path / "t.xfbt"
    ok(run([tool(build_dir, "db-make-trace"), trace, "2", "64"]))
    ingest(xfbtrace, store.db, trace)
    assert store.query("SELECT version FROM xfbtrace_schema") == [(5,)]
    # XFBTRACE_DB takes a URL as --db does.
    listed = run([xfbtrace, "runs", "--json"], env={**os.environ, "XFBTRACE_DB": store.db})
    assert listed.returncode == 0 and len(json.loads(listed.stdout)) == 1, listed.stderr
    pg_server.psql("UPDATE xfbtrace_schema SET version = 99", store.name)
    for argv in (["runs", "--db", store.db], ["ingest", "--db", store.db, str(trace)]):
        out = run([xfbtrace, *argv])
        assert out.returncode == 2, out
        assert "schema version 99 is newer than this xfbtrace's (5)" in out.stderr, out.stderr
    # Something else's tables are not taken for a store.
    other = PgStore(pg_server)
    pg_server.psql("CREATE TABLE invoices (id integer)", other.name)
    out = run([xfbtrace, "ingest", "--db", other.db, str(trace)])
    assert out.returncode == 2 and "not an xfbtrace results" in out.stderr, out.stderr


def run_killing(argv, kill_after):
    """Runs argv; SIGKILLs it after kill_after seconds (None: never) when
    it is still running.  Returns (returncode, stderr)."""
    proc = subprocess.Popen([str(a) for a in argv], stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)
    if kill_after is not None:
        try:
            proc.wait(timeout=kill_after)
        except subprocess.TimeoutExpired:
            proc.kill()
    _, err = proc.communicate(timeout=300)
    return proc.returncode, err


def in_parallel(jobs, workers=8):
    """Runs the callables in `jobs` on `workers` threads; their results."""
    results = [None] * len(jobs)
    lock = threading.Lock()
    todo = list(enumerate(jobs))

    def worker():
        while True:
            with lock:
                if not todo:
                    return
                i, job = todo.pop(0)
            results[i] = job()

    threads = [threading.Thread(target=worker) for _ in range(workers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results


def check_store_consistent(store):
    """Counters equal rows; every blob referenced and stored once."""
    mismatched = store.query(
        "SELECT id FROM runs r WHERE observations <>"
        " (SELECT count(*) FROM observations o WHERE o.run_id = r.id)")
    assert mismatched == [], mismatched
    [(blobs, distinct, used)] = store.query(
        "SELECT (SELECT count(*) FROM blobs), (SELECT count(DISTINCT hash) FROM blobs),"
        " (SELECT count(*) FROM (SELECT blob_hash FROM observations UNION SELECT pm4_hash"
        "  FROM call_artifacts UNION SELECT regs_hash FROM call_artifacts UNION SELECT"
        "  blob_hash FROM shaders) AS used WHERE blob_hash IS NOT NULL)")
    assert blobs == distinct == used, (blobs, distinct, used)
    return blobs


def test_32_replays_from_8_processes_with_sigkills_into_one_store(xfbtrace, build_dir, pg_server,
                                                                 tmp_path):
    store = PgStore(pg_server)
    trace = capture_app(xfbtrace, build_dir, tmp_path, APP)
    golden = ingest(xfbtrace, store.db, trace)
    nobs = store.query(f"SELECT observations FROM runs WHERE id = {golden}")[0][0]
    # One replay on each backend first: what the store holds after them
    # (llvmpipe replays what it captured and the simulated GPU is
    # deterministic, so every later replay's bytes are there already).
    for backend in ("host", "sim"):
        ok(run([xfbtrace, "replay", "--backend", backend, "--db", store.db, "--label", backend,
                trace]))
    blobs_after_one = check_store_consistent(store)

    # Half host, half sim (a call's PM4, registers and shaders too).
    rng = random.Random(25)
    plan = [(f"r{i}", rng.uniform(0.0, 0.3) if i % 3 == 0 else None) for i in range(32)]
    results = in_parallel([
        (lambda label=label, kill=kill, i=i: run_killing(
            [xfbtrace, "replay", "--backend", ("host", "sim")[i % 2], "--db", store.db,
             "--label", label, trace], kill))
        for i, (label, kill) in enumerate(plan)])

    runs = {label: (status, n) for label, status, n in
            store.query("SELECT label, status, observations FROM runs WHERE golden = 0")}
    finished = killed = incomplete = 0
    for (label, _), (rc, err) in zip(plan, results):
        if rc == 0:
            finished += 1
            assert runs.get(label) == ("ok", nobs), (label, err)
        else:
            assert rc == -9, (label, rc, err)
            killed += 1
            # Absent (killed before its run began), incomplete, or whole
            # when the kill came after the last commit.
            assert runs.get(label) in (None, ("ok", nobs)) or runs[label][0] == "incomplete", \
                (label, runs.get(label))
            incomplete += label in runs and runs[label][0] == "incomplete"
    print(f"\n32 replays: {finished} finished, {killed} killed ({incomplete} left incomplete)")
    assert finished >= 20 and killed >= 1
    assert len(store.query("SELECT label FROM runs WHERE golden = 0 GROUP BY label"
                           " HAVING count(*) > 1")) == 0
    assert check_store_consistent(store) == blobs_after_one
    # The finished runs read back as the capture: diff of a few of them.
    for label in [l for (l, _), (rc, _) in zip(plan, results) if rc == 0][:3]:
        [(rid,)] = store.query(f"SELECT id FROM runs WHERE label = '{label}'")
        assert diff_json(xfbtrace, store.db, golden, rid)["same"]


def make_worker_file(xfbtrace, build_dir, tmp_path, trace, i):
    """A worker's local SQLite file: the trace and four runs."""
    db = tmp_path / f"worker{i}.db"
    ingest(xfbtrace, db, trace)
    for j in range(4):
        record_run(build_dir, db, trace, "--label", f"w{i}-{j}")
    return db


def test_push_from_8_sqlite_files_at_once_with_sigkills(xfbtrace, build_dir, pg_server, tmp_path):
    store = PgStore(pg_server)
    trace = tmp_path / "p.xfbt"
    ok(run([tool(build_dir, "db-make-trace"), trace, "150", "16384", "--noise"]))
    files = [make_worker_file(xfbtrace, build_dir, tmp_path, trace, i) for i in range(8)]

    rng = random.Random(8)
    kills = [rng.uniform(0.05, 0.6) if i % 2 else None for i in range(8)]
    results = in_parallel([
        (lambda f=f, k=k: run_killing([xfbtrace, "db", "push", "--quiet", f, store.db], k))
        for f, k in zip(files, kills)])
    for (rc, err), k in zip(results, kills):
        assert rc == 0 or (k is not None and rc == -9), (rc, err)
    # What the kills left: whole runs only, each at most once.
    partial = store.query(
        "SELECT label FROM runs r WHERE status <> 'ok' OR observations <> 300"
        " OR observations <> (SELECT count(*) FROM observations o WHERE o.run_id = r.id)")
    assert partial == [], partial
    assert store.query("SELECT label FROM runs GROUP BY label HAVING count(*) > 1") == []
    killed = sum(rc == -9 for rc, _ in results)
    assert killed >= 1, "no push was killed while running: make the files larger"

    # Publishing again completes what the kills cut short, and adds nothing twice.
    for f in files:
        ok(run([xfbtrace, "db", "push", "--quiet", f, store.db]))
    labels = sorted(l for (l,) in store.query("SELECT label FROM runs WHERE golden = 0"))
    assert labels == sorted(f"w{i}-{j}" for i in range(8) for j in range(4))
    assert store.query("SELECT count(*), sum(golden) FROM runs") == [(33, 1)]
    assert store.query("SELECT count(*) FROM traces") == [(1,)]
    # Eight files of the same data: the store holds the blobs of one.
    assert check_store_consistent(store) == \
        SqliteStore_query(files[0], "SELECT count(*) FROM blobs")[0][0]
    again = ok(run([xfbtrace, "db", "push", files[3], store.db]))
    assert "0 traces, 0 runs, 0 blobs (0 bytes) copied; 4 runs were there already" in again.stdout
    # Progress on stderr: the last line counts the trace and its four runs.
    assert re.search(r"^xfbtrace db push: 5/5 traces and runs looked at;", again.stderr, re.M), \
        again.stderr
    print(f"\n8 pushes at once, {killed} killed; then every file pushed again")

    # A run reads the same in both stores (ids differ).
    src = runs_json(xfbtrace, files[5])
    dst = {r["label"]: r for r in runs_json(xfbtrace, store.db)}
    for r in src:
        if r["golden"]:
            continue
        other = dst[r["label"]]
        for key in ("trace_hash", "backend", "revision", "started_at", "finished_at", "status",
                    "observations", "data_bytes"):
            assert other[key] == r[key], key
    # ... and back into a new SQLite file, with the diff unchanged.
    back = tmp_path / "back.db"
    ok(run([xfbtrace, "db", "push", store.db, back]))
    [(a,)] = SqliteStore_query(back, "SELECT id FROM runs WHERE label = 'w5-2'")
    [(g,)] = SqliteStore_query(back, "SELECT id FROM runs WHERE golden = 1")
    assert diff_json(xfbtrace, back, g, a)["same"]


def SqliteStore_query(path, sql):
    import sqlite3
    with sqlite3.connect(path) as c:
        return c.execute(sql).fetchall()


def test_push_of_a_corrupt_row_stops_naming_it_and_copies_nothing_of_that_run(
        xfbtrace, build_dir, pg_server, tmp_path):
    store = PgStore(pg_server)
    trace = tmp_path / "c.xfbt"
    ok(run([tool(build_dir, "db-make-trace"), trace, "4", "256"]))
    src = tmp_path / "src.db"
    ingest(xfbtrace, src, trace)
    good = record_run(build_dir, src, trace, "--label", "good")
    bad = record_run(build_dir, src, trace, "--label", "bad")
    import sqlite3
    with sqlite3.connect(src) as c:
        c.execute("UPDATE observations SET fields = '{\"buffer\":7}' WHERE run_id = ?"
                  " AND call_no = (SELECT min(call_no) FROM observations WHERE run_id = ?)",
                  (bad, bad))
    out = run([xfbtrace, "db", "push", src, store.db])
    assert out.returncode == 2, out
    assert re.search(rf"run {bad}: observation row \(call \d+, .*does not match its check",
                     out.stderr), out.stderr
    labels = [l for (l,) in store.query("SELECT label FROM runs WHERE golden = 0")]
    assert labels == ["good"], labels
    assert good


@pytest.mark.parametrize("sql, message", [
    ("UPDATE observations SET fields = '{\"buffer\":7}' WHERE call_no ="
     " (SELECT min(call_no) FROM observations WHERE run_id = 2) AND run_id = 2",
     r"run 2: observation row \(call \d+, .*does not match its check"),
    ("UPDATE blobs SET data = decode('00', 'hex') || substr(data, 2)",
     r"blob [0-9a-f]{32}: "),
    ("UPDATE layouts SET json = '{\"strides\":[4],\"varyings\":[],\"mode\":\"m\"}'",
     r"layout \d+ \(of run \d+, call \d+\): its JSON does not match its hash"),
])
def test_edited_rows_of_a_postgresql_store_are_errors_naming_them(xfbtrace, build_dir, pg_server,
                                                                 tmp_path, sql, message):
    store = PgStore(pg_server)
    trace = tmp_path / "h.xfbt"
    ok(run([tool(build_dir, "db-make-trace"), trace, "3", "256", "--noise"]))
    golden = ingest(xfbtrace, store.db, trace)
    other = record_run(build_dir, store.db, trace, "--perturb", "1:0:0")
    assert not diff_json(xfbtrace, store.db, golden, other)["same"]
    pg_server.psql(sql, store.name)
    out = run([xfbtrace, "diff", "--db", store.db, str(golden), str(other)])
    assert out.returncode == 2, out
    assert re.search(message, out.stderr), out.stderr

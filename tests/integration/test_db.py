"""The results database and `xfbtrace ingest | runs | diff`, end to end.

Runs other than golden ones are written by `db-record-run`
(tests/unit/db/db_record_run.c), a stand-in for `xfbtrace replay --db` that
records a trace's observations as a new run through the same db/ API that
replay calls, optionally with one byte of one TF buffer changed.  Synthetic
traces of a chosen size come from `db-make-trace`.

Expected values (which vertex, varying and component a changed byte falls
in, what the two floats are) are computed here, in Python, from the trace
as `xfbtrace dump --format jsonl` prints it, independently of diff/.
"""
import json
import os
import signal
import sqlite3
import struct
import subprocess
import time

import pytest

from conftest import piglit_line, run
from tracefile import blob_bytes, observations, records

APPS = ["tf-particles-gles3", "tf-separate-gl33", "tf-streams-gl40"]
FORMATS = {"float": "f", "int": "i", "uint": "I"}  # base type -> struct format


def scalar_vector_types(gl_types):
    """GL type name -> (struct format, components) of the 32-bit scalar and
    vector types, from the generated type table."""
    return {name: (FORMATS[t["base"]], t["components"]) for name, t in gl_types.items()
            if t["columns"] == 1 and t["base"] in FORMATS}


def tool(build_dir, name):
    path = build_dir / "tests" / "unit" / "db" / name
    assert path.exists(), f"{path} was not built"
    return path


def capture_app(xfbtrace, build_dir, tmp_path, app):
    trace = tmp_path / f"{app}.xfbt"
    out = run([xfbtrace, "capture", "-o", trace, "--", build_dir / "tests" / "apps" / app])
    assert out.returncode == 0, out.stderr
    return trace


def ok(out):
    assert out.returncode == 0, f"exit {out.returncode}\n{out.stdout}\n{out.stderr}"
    return out


def record_run(build_dir, db, trace, *args):
    out = ok(run([tool(build_dir, "db-record-run"), "--db", db, *args, trace]))
    return int(out.stdout.split()[1])


def ingest(xfbtrace, db, trace):
    out = ok(run([xfbtrace, "ingest", "--db", db, trace]))
    assert "golden run" in out.stdout
    return int(out.stdout.rsplit(None, 1)[-1])


def diff_json(xfbtrace, db, a, b, *args):
    out = run([xfbtrace, "diff", "--db", db, "--json", *args, a, b])
    assert out.returncode in (0, 1), f"exit {out.returncode}: {out.stderr}"
    result = json.loads(out.stdout)
    assert result["same"] == (out.returncode == 0)
    return result


def runs_json(xfbtrace, db, *args):
    return json.loads(ok(run([xfbtrace, "runs", "--db", db, "--json", *args])).stdout)


@pytest.mark.parametrize("app", APPS)
def test_golden_run_and_a_recorded_copy_of_each_app_are_the_same(xfbtrace, build_dir,
                                                                  tmp_path, app, store):
    trace = capture_app(xfbtrace, build_dir, tmp_path, app)
    db = store.db
    golden = ingest(xfbtrace, db, trace)
    copy = record_run(build_dir, db, trace, "--label", "copy")
    result = diff_json(xfbtrace, db, golden, copy)
    nobs = len(observations(records(xfbtrace, trace)))
    assert nobs > 0
    assert result["same"] and result["summary"]["pairs"] == nobs
    # Decoding every buffer instead of trusting the hashes agrees.
    text = ok(run([xfbtrace, "diff", "--db", db, golden, copy]))
    assert "result: SAME" in text.stdout


PIGLIT_SAMPLE = [  # TF output of several shapes, queries, pause/resume, GS
    "ext_transform_feedback-output-type vec4 [2]",
    "ext_transform_feedback-position primwritten offset",
    "ext_transform_feedback-primgen",
    "ext_transform_feedback-interleaved",
    "ext_transform_feedback-separate",
    "arb_transform_feedback3-ext_interleaved_two_bufs gs",
    "ext_transform_feedback-geometry-shaders-basic",
    "ext_transform_feedback-builtin-varyings gl_ClipDistance",
    "arb_gpu_shader5-xfb-streams",
]


@pytest.mark.piglit
@pytest.mark.parametrize("command", PIGLIT_SAMPLE)
def test_golden_run_and_a_recorded_copy_of_piglit_traces_are_the_same(xfbtrace, build_dir,
                                                                     piglit_trace, tmp_path,
                                                                     command):
    cap = piglit_trace(piglit_line(command + " -auto -fbo"))
    assert cap.result == "pass", cap.describe()
    trace = cap.trace
    db = tmp_path / "p.db"
    golden = ingest(xfbtrace, db, trace)
    copy = record_run(build_dir, db, trace)
    result = diff_json(xfbtrace, db, golden, copy)
    assert result["same"], result
    assert result["summary"]["pairs"] == len(observations(records(xfbtrace, trace)))


def tf_observation_to_perturb(xfbtrace, trace, types):
    """The tf_buffer observation with data, its buffer's layout and a
    (vertex, varying, component) in its middle, all from the dump."""
    best = None
    for o in observations(records(xfbtrace, trace), "tf_buffer"):
        if "data" not in o:
            continue
        layout = o["layout"]
        stride = layout["strides"][o["index"]]
        varyings = [v for v in layout["varyings"]
                    if v["buffer"] == o["index"] and v["type"] in types]
        data = blob_bytes(o["data"])
        if stride and varyings and len(data) // stride >= 2:
            key = (stride, len(data))
            if best is None or key > best[0]:
                best = (key, o, stride, varyings, data)
    assert best, "no decodable tf_buffer observation"
    _, o, stride, varyings, data = best
    v = max(varyings, key=lambda v: types[v["type"]][1])
    vertex = len(data) // stride // 2
    comp = types[v["type"]][1] - 1
    byte = vertex * stride + v["offset"] + 4 * comp
    # The byte is the low byte of a little-endian scalar: +1 must not wrap.
    while data[byte] == 0xFF and vertex > 0:
        vertex -= 1
        byte -= stride
    return o, stride, v, vertex, comp, byte, data


@pytest.mark.parametrize("app", APPS)
def test_diff_names_exactly_the_changed_call_buffer_vertex_varying_component(
        xfbtrace, build_dir, gl_types, tmp_path, app, store):
    types = scalar_vector_types(gl_types)
    trace = capture_app(xfbtrace, build_dir, tmp_path, app)
    o, stride, v, vertex, comp, byte, data = tf_observation_to_perturb(xfbtrace, trace, types)
    db = store.db
    golden = ingest(xfbtrace, db, trace)
    changed = record_run(build_dir, db, trace, "--perturb", f"{o['call']}:{o['index']}:{byte}")

    result = diff_json(xfbtrace, db, golden, changed)
    s = result["summary"]
    assert (s["different"], s["components_differ"], s["bytes_differ"], s["fields_differ"],
            s["only_a"], s["only_b"]) == (1, 1, 0, 0, 0, 0), s
    [obs] = result["observations"]
    assert (obs["call"], obs["kind"], obs["index"], obs["buffer"]) == \
        (o["call"], "tf_buffer", o["index"], o["buffer"])
    assert obs["function"] in ("glEndTransformFeedback", "glPauseTransformFeedback")
    [d] = obs["differences"]
    fmt = types[v["type"]][0]
    before = struct.unpack_from("<" + fmt, data, byte)[0]
    after_bytes = bytearray(data)
    after_bytes[byte] += 1
    after = struct.unpack_from("<" + fmt, after_bytes, byte)[0]
    assert (d["what"], d["vertex"], d["varying"], d["component"], d["byte_offset"]) == \
        ("component", vertex, v["name"], comp, byte)
    assert d["element"] is None
    assert d["a"] == pytest.approx(before, rel=1e-7, abs=1e-30)
    assert d["b"] == pytest.approx(after, rel=1e-7, abs=1e-30)
    if fmt == "f":
        assert d["ulps"] == 1 and d["why"] == "value"
        # One ulp passes ulps=1 and fails the default exact comparison.
        assert diff_json(xfbtrace, db, golden, changed, "--tolerance", "ulps=1")["same"]

    text = run([xfbtrace, "diff", "--db", db, golden, changed])
    assert text.returncode == 1
    assert f"call {o['call']} " in text.stdout and f"(buffer {o['buffer']})" in text.stdout
    assert "\033[" not in text.stdout, "colour must be off when stdout is not a terminal"


def db_bytes(db):
    return sum(os.path.getsize(p) for p in (db, f"{db}-wal") if os.path.exists(p))


def test_eight_parallel_writers_store_eight_runs_sharing_blobs(xfbtrace, build_dir, tmp_path):
    trace = tmp_path / "big.xfbt"
    ok(run([tool(build_dir, "db-make-trace"), trace, "256", "65536", "--noise"]))
    db = tmp_path / "par.db"
    golden = ingest(xfbtrace, db, trace)
    with sqlite3.connect(db) as c:
        c.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        one_run_raw = c.execute("SELECT data_bytes FROM runs WHERE id = ?", (golden,)).fetchone()[0]
        one_run_stored = c.execute("SELECT sum(length(data)) FROM blobs").fetchone()[0]
    before = db_bytes(db)

    procs = [subprocess.Popen([str(tool(build_dir, "db-record-run")), "--db", str(db),
                               "--label", f"par{i}", str(trace)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
             for i in range(8)]
    errors = [p.communicate(timeout=300)[1] for p in procs]
    assert [p.returncode for p in procs] == [0] * 8, errors
    assert not any("locked" in e for e in errors), errors

    with sqlite3.connect(db) as c:
        c.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        assert c.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        rows = c.execute("SELECT label, status, observations FROM runs WHERE NOT golden"
                         " ORDER BY label").fetchall()
    assert rows == [(f"par{i}", "ok", 512) for i in range(8)]
    growth = db_bytes(db) - before
    ratio = growth / (8 * one_run_raw)
    print(f"\n8 runs of {one_run_raw} raw / {one_run_stored} stored blob bytes each:"
          f" DB grew by {growth} bytes, {ratio:.4f} of 8 runs' raw blob bytes,"
          f" {growth / (8 * one_run_stored):.4f} of their stored bytes")
    assert ratio < 0.05
    for r in runs_json(xfbtrace, db)[1:]:
        assert diff_json(xfbtrace, db, golden, r["id"])["same"]


def read_until(proc, prefix, count):
    while True:
        line = proc.stdout.readline()
        assert line, "the writer ended early"
        if line.startswith(prefix) and int(line.split()[1]) >= count:
            return


def test_sigkill_during_a_run_leaves_the_db_consistent_and_the_run_incomplete(
        xfbtrace, build_dir, tmp_path, store):
    trace = tmp_path / "k.xfbt"
    ok(run([tool(build_dir, "db-make-trace"), trace, "100", "16384"]))
    db = store.db
    golden = ingest(xfbtrace, db, trace)
    proc = subprocess.Popen([str(tool(build_dir, "db-record-run")), "--db", str(db),
                             "--delay-ms", "20", str(trace)], stdout=subprocess.PIPE, text=True)
    read_until(proc, "observation", 10)
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    if store.engine == "sqlite":
        assert store.query("PRAGMA integrity_check") == [("ok",)]
    [(status, n, stored)] = store.query(
        "SELECT status, observations, (SELECT count(*) FROM observations WHERE run_id = r.id)"
        " FROM runs r WHERE golden = 0")
    assert status == "incomplete"
    assert 10 <= n == stored < 200
    [listed] = [r for r in runs_json(xfbtrace, db) if not r["golden"]]
    assert listed["status"] == "incomplete" and listed["finished_at"] is None
    result = diff_json(xfbtrace, db, golden, listed["id"])
    assert result["summary"]["only_a"] == 200 - n and result["summary"]["different"] == 0


@pytest.mark.parametrize("delay", [0.05, 0.15, 0.3])
def test_sigkill_during_ingest_leaves_no_partial_golden_run(xfbtrace, build_dir, tmp_path, delay,
                                                            store):
    trace = tmp_path / "i.xfbt"
    ok(run([tool(build_dir, "db-make-trace"), trace, "200", "262144", "--noise"]))
    db = store.db
    proc = subprocess.Popen([str(xfbtrace), "ingest", "--db", str(db), str(trace)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(delay)
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    if store.has_schema():
        if store.engine == "sqlite":
            assert store.query("PRAGMA integrity_check") == [("ok",)]
        runs = store.query("SELECT status, observations,"
                           " (SELECT count(*) FROM observations o WHERE o.run_id = r.id)"
                           " FROM runs r")
        assert runs in ([], [("ok", 400, 400)]), runs
    # Recording again completes the trace whatever the kill left.
    ingest(xfbtrace, db, trace)
    assert store.query("SELECT status, observations FROM runs") == [("ok", 400)]


def test_runs_lists_filters_and_rejects_unknown_traces(xfbtrace, build_dir, tmp_path, store):
    db = store.db
    traces = []
    for n in (1, 2):
        t = tmp_path / f"t{n}.xfbt"
        ok(run([tool(build_dir, "db-make-trace"), t, str(n), "64"]))
        ingest(xfbtrace, db, t)
        traces.append(t)
    record_run(build_dir, db, traces[1], "--label", "mine")
    listed = runs_json(xfbtrace, db)
    assert [(r["id"], r["trace_id"], r["golden"], r["backend"], r["label"]) for r in listed] == \
        [(1, 1, True, "capture", None), (2, 2, True, "capture", None),
         (3, 2, False, "test-replay", "mine")]
    assert listed[0]["revision"] == "test-rev" and listed[0]["gl_renderer"] == "test renderer"
    prefix = listed[2]["trace_hash"][:8]
    assert [r["id"] for r in runs_json(xfbtrace, db, "--trace", prefix)] == [2, 3]
    assert [r["id"] for r in runs_json(xfbtrace, db, "--trace", "1")] == [1]
    text = ok(run([xfbtrace, "runs", "--db", db])).stdout
    assert "mine" in text and "1*" in text and "\033[" not in text
    bad = run([xfbtrace, "runs", "--db", db, "--trace", "ffffffff"])
    assert bad.returncode == 2 and "no trace matches" in bad.stderr
    missing = run([xfbtrace, "runs", "--db", tmp_path / "none.db"])
    assert missing.returncode == 2 and "no such database" in missing.stderr
    assert not (tmp_path / "none.db").exists()

    # Runs of different traces are not compared.
    out = run([xfbtrace, "diff", "--db", db, "1", "3"])
    assert out.returncode == 2 and "same trace" in out.stderr


def test_ingest_of_a_corrupt_trace_fails_and_records_nothing(xfbtrace, build_dir, tmp_path):
    trace = capture_app(xfbtrace, build_dir, tmp_path, "tf-separate-gl33")
    damaged = tmp_path / "damaged.xfbt"
    data = bytearray(trace.read_bytes())
    data[len(data) // 2] ^= 0x40
    damaged.write_bytes(data)
    db = tmp_path / "c.db"
    out = run([xfbtrace, "ingest", "--db", db, damaged])
    assert out.returncode == 2 and out.stderr
    with sqlite3.connect(db) as c:
        assert c.execute("SELECT count(*) FROM traces").fetchone()[0] == 0


HOSTILE = [
    "UPDATE blobs SET data = substr(data, 1, 10) || x'00' || substr(data, 12)",
    "UPDATE blobs SET raw_bytes = 1000000000",
    "UPDATE layouts SET json = '{\"strides\":[4],\"varyings\":[{\"name\":\"p\",\"type\":"
    "\"GL_FLOAT_VEC4\",\"size\":1,\"buffer\":0,\"offset\":0}],\"mode\":\"m\",\"source\":\"s\"}'",
    "UPDATE layouts SET json = '{{{{'",
    "UPDATE observations SET fields = 'nope' WHERE kind = 'query'",
    "UPDATE observations SET blob_hash = 'ffffffffffffffffffffffffffffffff'",
    "UPDATE runs SET backend = x'00'",
    "DELETE FROM traces",
]


@pytest.mark.parametrize("sql", HOSTILE)
def test_hostile_rows_give_a_clear_error_under_asan(xfbtrace, xfbtrace_san, build_dir,
                                                   tmp_path, sql):
    trace = tmp_path / "h.xfbt"
    ok(run([tool(build_dir, "db-make-trace"), trace, "3", "4096"]))
    db = tmp_path / "h.db"
    golden = ingest(xfbtrace, db, trace)
    other = record_run(build_dir, db, trace, "--perturb", "1:0:0")
    c = sqlite3.connect(db)
    c.execute("PRAGMA ignore_check_constraints = ON")
    c.execute(sql)
    c.commit()
    c.close()
    for argv in (["diff", "--db", db, golden, other], ["diff", "--json", "--db", db, golden, other],
                 ["runs", "--db", db], ["runs", "--json", "--db", db]):
        out = run([xfbtrace_san, *argv])
        assert "Sanitizer" not in out.stderr and "runtime error" not in out.stderr, out.stderr
        assert out.returncode in (0, 1, 2), out.stderr
        if out.returncode == 2:
            assert out.stderr.startswith("xfbtrace ")
    out = run([xfbtrace_san, "diff", "--db", db, golden, other])
    assert out.returncode == 2, (sql, out.stdout)


def test_a_file_that_is_not_a_database_is_refused(xfbtrace_san, tmp_path):
    bogus = tmp_path / "bogus.db"
    bogus.write_bytes(b"SQLite format 3\0" + os.urandom(5000))
    for argv in (["runs", "--db", bogus], ["diff", "--db", bogus, "1", "2"]):
        out = run([xfbtrace_san, *argv])
        assert out.returncode == 2 and "Sanitizer" not in out.stderr, out.stderr

"""Observation and layout rows of the results database are checked (issue
24): one flipped bit in an observation row's JSON made `diff` report a
driver difference while `PRAGMA integrity_check` said ok.

Real runs of a real trace (llvmpipe host and sim replays) are written by
`xfbtrace replay --db`; the tests change a row with Python's sqlite3, as a
bit flip on disk or a stray tool would, and expect `diff` (and the web API)
to refuse the row by name, exit 2.  A database of the previous schema
(written by the build in XFBTRACE_OLD_BUILD_DIR when set, else made by
dropping the column) is migrated: its rows get their checks.
"""
import json
import sqlite3
import urllib.request

import pytest

from conftest import run


@pytest.fixture()
def db(xfbtrace, build_dir, tmp_path):
    trace = tmp_path / "app.xfbt"
    app = build_dir / "tests" / "apps" / "tf-separate-gl33"
    assert run([xfbtrace, "capture", "-o", trace, "--", app]).returncode == 0
    path = tmp_path / "runs.db"
    for backend in ("host", "sim"):
        out = run([xfbtrace, "replay", "--backend", backend, "--db", path, trace])
        assert out.returncode == 0, out.stderr
    assert run([xfbtrace, "diff", "--db", path, "1", "3"]).returncode == 0
    return path


def flip_bit_in_fields(path, run_id, kind):
    con = sqlite3.connect(path)
    call, k, idx, fields = con.execute(
        "SELECT call_no, kind, idx, fields FROM observations WHERE run_id = ? AND kind = ?"
        " AND fields GLOB '*[0-9]*' ORDER BY call_no LIMIT 1", (run_id, kind)).fetchone()
    pos = max(i for i, c in enumerate(fields) if c.isdigit())
    changed = fields[:pos] + chr(ord(fields[pos]) ^ 1) + fields[pos + 1:]
    con.execute("UPDATE observations SET fields = ? WHERE run_id = ? AND call_no = ? AND kind = ?"
                " AND idx = ?", (changed, run_id, call, k, idx))
    con.commit()
    assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    con.close()
    return call


@pytest.mark.parametrize("kind", ["query", "tf_buffer"])
def test_a_flipped_bit_in_an_observation_row_is_an_error_naming_the_row(xfbtrace, db, kind):
    call = flip_bit_in_fields(db, 3, kind)
    out = run([xfbtrace, "diff", "--db", db, "1", "3"])
    assert out.returncode == 2, (out.stdout[-2000:], out.stderr)
    assert f"run 3: observation row (call {call}, {kind}" in out.stderr, out.stderr
    assert "DIFFERENT" not in out.stdout


def test_a_changed_layout_row_is_an_error(xfbtrace, db):
    con = sqlite3.connect(db)
    lid, text = con.execute("SELECT id, json FROM layouts ORDER BY id LIMIT 1").fetchone()
    con.execute("UPDATE layouts SET json = ? WHERE id = ?",
                (text.replace('"offset":4', '"offset":5', 1) if '"offset":4' in text
                 else text.replace('"size":1', '"size":2', 1), lid))
    con.commit()
    con.close()
    out = run([xfbtrace, "diff", "--db", db, "1", "3"])
    assert out.returncode == 2, (out.stdout[-2000:], out.stderr)
    assert f"layout {lid}" in out.stderr and "hash" in out.stderr, out.stderr


def test_the_previous_schema_is_migrated_with_checks(xfbtrace, db):
    con = sqlite3.connect(db)
    con.execute("ALTER TABLE observations DROP COLUMN row_check")
    con.execute("ALTER TABLE call_artifacts DROP COLUMN row_check")
    con.execute("ALTER TABLE observations DROP COLUMN verdict_class")   # schema 5's
    con.execute("ALTER TABLE observations DROP COLUMN verdict_reason")
    con.execute("PRAGMA user_version = 3")
    con.commit()
    con.close()
    assert run([xfbtrace, "diff", "--db", db, "1", "3"]).returncode == 0
    con = sqlite3.connect(db)
    assert con.execute("PRAGMA user_version").fetchone()[0] == 5
    assert con.execute("SELECT count(*) FROM observations WHERE row_check IS NULL").fetchone()[0] == 0
    assert con.execute("SELECT count(*) FROM call_artifacts WHERE row_check IS NULL").fetchone()[0] == 0
    con.close()
    flip_bit_in_fields(db, 2, "query")
    assert run([xfbtrace, "diff", "--db", db, "1", "2"]).returncode == 2


def test_a_changed_call_artifacts_row_is_an_error(xfbtrace, db):
    """A sim run's call_artifacts row changed (its program: the shader it
    shows), every blob intact: `regs` and `diff --regs` refuse the row."""
    con = sqlite3.connect(db)
    call, = con.execute("SELECT call_no FROM call_artifacts WHERE run_id = 3 AND regs_hash IS NOT NULL"
                        " ORDER BY call_no LIMIT 1").fetchone()
    con.execute("UPDATE call_artifacts SET program = program + 1 WHERE run_id = 3 AND call_no = ?",
                (call,))
    con.commit()
    assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    con.close()
    out = run([xfbtrace, "regs", "--db", db, "3", str(call)])
    assert out.returncode == 2, (out.stdout[-1000:], out.stderr)
    assert f"call_artifacts row (call {call})" in out.stderr, out.stderr
    out = run([xfbtrace, "diff", "--regs", "--db", db, "3", "3"])
    assert out.returncode == 2 and "call_artifacts row" in out.stderr, out.stderr


def test_the_web_ui_names_a_damaged_blob_instead_of_hiding_the_buffer(xfbtrace, db):
    """A TF buffer whose blob no longer matches its hash: the diff API (and
    page) says so where the table would be; before, the buffer was left out
    of the call's view as if it had none."""
    import re
    import subprocess
    con = sqlite3.connect(db)
    call, blob = con.execute("SELECT call_no, blob_hash FROM observations WHERE run_id = 3 AND"
                             " kind = 'tf_buffer' AND blob_hash IS NOT NULL ORDER BY call_no"
                             " LIMIT 1").fetchone()
    data = bytearray(con.execute("SELECT data FROM blobs WHERE hash = ?", (blob,)).fetchone()[0])
    data[len(data) // 2] ^= 0x10
    con.execute("UPDATE blobs SET data = ? WHERE hash = ?", (bytes(data), blob))
    con.commit()
    con.close()
    proc = subprocess.Popen([str(xfbtrace), "web", "--db", str(db), "--port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        port = int(re.search(r":(\d+)/", proc.stdout.readline()).group(1))
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/diff/2/3/calls/{call}",
                                    timeout=30) as r:
            tf = json.loads(r.read())["tf"]
        errors = [t for t in tf if "error" in t]
        assert errors and blob in errors[0]["error"], tf
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/runs/3/calls/{call}",
                                    timeout=30) as r:
            one = json.loads(r.read())["tf"]
        assert any(t and "error" in t for t in one), one
    finally:
        proc.terminate()
        proc.wait(timeout=20)

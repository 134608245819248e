"""Issue 19's last item: `diff`, the results database and the web UI show the
classes `replay --check` gave.

`replay --check --db` stores each observation's verdict against the golden
data (observations.verdict_class / verdict_reason, schema 5); `diff` of the
golden run against that run shows a classified observation with its class
and reason and does not count it (exit 0) unless --strict (exit 1); the web
API carries the class.  The trace is cap-tf-undefined, captured on llvmpipe,
its golden data changed by trace_perturb where a driver would leave other
bytes (byte 100 of the TF buffer: past the 48 bytes TF wrote), as in
test_verdicts.py.
"""
import json
import os
import pathlib
import re
import sqlite3

import pytest

from conftest import describe, run
from test_verdicts import capture, perturb
from test_web import Server
from test_web_diff import browser  # noqa: F401 (a fixture)


@pytest.fixture(scope="module")
def undefined_trace(xfbtrace, build_dir, tmp_path_factory):
    return capture(xfbtrace, build_dir, tmp_path_factory, "cap-tf-undefined")


def record(xfbtrace, trace, db, *args):
    """replay --check --db; (exit status, the run's id)."""
    out = run([xfbtrace, "replay", "--check", "--db", db, *args, trace], timeout=600)
    m = re.search(r"recorded run (\d+)", out.stderr + out.stdout)
    assert m, describe(out)
    return out.returncode, int(m.group(1))


def verdicts(db, run_id):
    with sqlite3.connect(db) as c:
        return c.execute("SELECT call_no, kind, verdict_class, verdict_reason FROM observations"
                         " WHERE run_id = ? ORDER BY call_no, kind, idx", (run_id,)).fetchall()


def golden_of(db, run_id):
    with sqlite3.connect(db) as c:
        return c.execute("SELECT g.id FROM runs g JOIN runs r ON r.trace_id = g.trace_id"
                         " WHERE r.id = ? AND g.golden = 1", (run_id,)).fetchone()[0]


@pytest.fixture(scope="module")
def undefined_db(xfbtrace, build_dir, undefined_trace, tmp_path_factory):
    tmp = tmp_path_factory.mktemp("verdictdb")
    altered = perturb(build_dir, undefined_trace, tmp, "0", "100")
    db = tmp / "r.db"
    rc, run_id = record(xfbtrace, altered, db)
    assert rc == 0
    return db, golden_of(db, run_id), run_id


def test_replay_check_db_stores_the_verdict_of_each_observation(undefined_db):
    db, golden, run_id = undefined_db
    rows = verdicts(db, run_id)
    classified = [r for r in rows if r[2]]
    assert [r[1:3] for r in classified] == [("tf_buffer", "undefined")], rows
    assert re.match(r"tf_buffer index 0 buffer 1: data differs only in bytes the application "
                    r"never defined: bytes 48\.\.255 of buffer 1 were never defined", classified[0][3])
    assert all(r[3] is None for r in rows if not r[2]), rows
    assert all(r[2] is None for r in verdicts(db, golden))
    with sqlite3.connect(db) as c:
        assert c.execute("PRAGMA user_version").fetchone()[0] == 5


def test_diff_golden_against_the_run_shows_the_class_and_does_not_count_it(xfbtrace, undefined_db):
    db, golden, run_id = undefined_db
    out = run([xfbtrace, "diff", "--db", db, str(golden), str(run_id)])
    assert out.returncode == 0, describe(out)
    assert "result: SAME: 0 of 3 observations differ" in out.stdout, out.stdout
    assert re.search(rf"^  undefined \(replay --check of run {run_id}; not counted\): tf_buffer "
                     r"index 0 buffer 1: data differs only in bytes the application never defined",
                     out.stdout, re.M), out.stdout
    # The other way round, too.
    assert run([xfbtrace, "diff", "--db", db, str(run_id), str(golden)]).returncode == 0
    strict = run([xfbtrace, "diff", "--db", db, "--strict", str(golden), str(run_id)])
    assert strict.returncode == 1, describe(strict)
    assert "result: DIFFERENT: 1 of 3" in strict.stdout and "counted: --strict" in strict.stdout
    js = json.loads(run([xfbtrace, "diff", "--db", db, "--json", str(golden), str(run_id)]).stdout)
    assert js["same"] and js["summary"]["classified"] == 1 and js["summary"]["different"] == 0
    [o] = js["observations"]
    assert o["classified"] and o["verdict_b_class"] == "undefined" and o["verdict_a_class"] is None


def test_verdicts_in_a_postgresql_store_read_as_in_the_file(xfbtrace, build_dir, undefined_db,
                                                            undefined_trace, tmp_path, pg_url):
    db, golden, run_id = undefined_db
    altered = perturb(build_dir, undefined_trace, tmp_path, "0", "100")
    rc, pg_run = record(xfbtrace, altered, pg_url)
    assert rc == 0
    for argv in ([str(golden), str(pg_run)], ["--json", str(golden), str(pg_run)],
                 ["--strict", str(golden), str(pg_run)]):
        a = run([xfbtrace, "diff", "--db", db, *argv])
        b = run([xfbtrace, "diff", "--db", pg_url, *argv])
        assert (b.returncode, b.stdout) == (a.returncode, a.stdout.replace(
            f"run {run_id}", f"run {pg_run}")), argv


def test_a_changed_bit_of_defined_data_still_differs(xfbtrace, build_dir, undefined_trace, tmp_path):
    # Byte 100 undefined as above, and byte 6 (defined: 1.0 becomes 0.5).
    undef = perturb(build_dir, undefined_trace, tmp_path, "0", "100")
    both = perturb(build_dir, undef, tmp_path, "0", "6", "0x80")
    db = tmp_path / "r.db"
    rc, run_id = record(xfbtrace, both, db)
    assert rc == 1
    tf = [r for r in verdicts(db, run_id) if r[1] == "tf_buffer"]
    assert tf[0][2] == "differs" and "data differs at byte 6 of 256" in tf[0][3], tf
    golden = golden_of(db, run_id)
    for mode in ([], ["--strict"]):
        out = run([xfbtrace, "diff", "--db", db, *mode, str(golden), str(run_id)])
        assert out.returncode == 1, f"{mode}: {describe(out)}"
        assert "result: DIFFERENT: 1 of 3" in out.stdout, out.stdout
        assert f"run B: replay --check said differs: tf_buffer index 0 buffer 1: data differs at " \
            "byte 6" in out.stdout, out.stdout


def test_web_api_carries_the_class(xfbtrace, undefined_db):
    db, golden, run_id = undefined_db
    s = Server(xfbtrace, db)
    try:
        obs = s.json(f"/api/runs/{run_id}")["observations"]
        [o] = [o for o in obs if o["verdict_class"]]
        assert o["kind"] == "tf_buffer" and o["verdict_class"] == "undefined"
        assert "never defined" in o["verdict_reason"]
        d = s.json(f"/api/diff/{golden}/{run_id}")
        assert d["observations"]["classified"] == 1 and d["observations"]["different"] == 0, d
        [c] = [c for c in d["timeline"] if c["verdict_class"]]
        assert c["classified"] and not c["obs"] and c["verdict_class"] == "undefined", c
        assert "never defined" in c["verdict_reason"]
        call = s.json(f"/api/diff/{golden}/{run_id}/calls/{c['call']}")
        assert [o["verdict_class"] for o in call["observations_b"]] == ["undefined"]
        assert [o["verdict_class"] for o in call["observations_a"]] == [None]
        for page in (f"/run/{run_id}", f"/diff/{golden}/{run_id}", "/static/app.js"):
            assert s.get(page)[0] == 200, page
    finally:
        s.stop()
    assert s.proc.returncode == 0


def test_a_schema_4_database_is_migrated_and_its_checks_stay_valid(xfbtrace, build_dir,
                                                                   undefined_trace, tmp_path):
    """The golden run written by a schema-4 build (XFBTRACE_OLD_BUILD_DIR, as
    in test_db_rows.py) when given, so that its row checks are the old
    ones; else by this build with the columns dropped."""
    altered = perturb(build_dir, undefined_trace, tmp_path, "0", "100")
    db = tmp_path / "r.db"
    old = os.environ.get("XFBTRACE_OLD_BUILD_DIR")
    writer = pathlib.Path(old) / "cli" / "xfbtrace" if old else xfbtrace
    assert run([writer, "ingest", "--db", db, altered]).returncode == 0
    con = sqlite3.connect(db)
    if not old:
        con.execute("ALTER TABLE observations DROP COLUMN verdict_class")
        con.execute("ALTER TABLE observations DROP COLUMN verdict_reason")
        con.execute("PRAGMA user_version = 4")
        con.commit()
    assert con.execute("PRAGMA user_version").fetchone()[0] == 4
    con.close()
    rc, run_id = record(xfbtrace, altered, db)
    assert rc == 0
    with sqlite3.connect(db) as c:
        assert c.execute("PRAGMA user_version").fetchone()[0] == 5
    golden = golden_of(db, run_id)
    out = run([xfbtrace, "diff", "--db", db, str(golden), str(run_id)])
    assert out.returncode == 0 and "undefined (replay --check" in out.stdout, describe(out)


def test_a_changed_verdict_is_an_error_naming_the_row(xfbtrace, undefined_db, tmp_path):
    src, golden, run_id = undefined_db
    db = tmp_path / "copy.db"
    with sqlite3.connect(src) as a, sqlite3.connect(db) as b:
        a.backup(b)
    with sqlite3.connect(db) as c:
        c.execute("UPDATE observations SET verdict_class = 'precision' WHERE run_id = ?"
                  " AND verdict_class IS NOT NULL", (run_id,))
    out = run([xfbtrace, "diff", "--db", db, str(golden), str(run_id)])
    assert out.returncode == 2 and f"run {run_id}: observation row" in out.stderr, describe(out)


SOFTPIPE = dict(os.environ, LIBGL_ALWAYS_SOFTWARE="1", GALLIUM_DRIVER="softpipe")


def test_softpipe_garbage_in_undefined_bytes_and_a_diff_of_two_replays(xfbtrace, undefined_trace,
                                                                       tmp_path):
    """softpipe's glBufferData(NULL) storage is not zeros (llvmpipe's is):
    a real driver's undefined bytes, not a perturbed golden."""
    db = tmp_path / "r.db"
    rc, llvmpipe = record(xfbtrace, undefined_trace, db)
    assert rc == 0
    # Garbage is what the storage happened to hold: now and then it is all
    # zeros, like llvmpipe's, and there is nothing to classify.  A few
    # replays find a run where it is not.
    for _ in range(8):
        out = run([xfbtrace, "replay", "--check", "--db", db, undefined_trace], env=SOFTPIPE,
                  timeout=600)
        assert out.returncode == 0 and "on softpipe" in out.stdout, describe(out)
        softpipe = int(re.search(r"recorded run (\d+)", out.stderr).group(1))
        classes = [r[2] for r in verdicts(db, softpipe)]
        if any(classes):
            break
    assert classes and set(classes) == {"undefined"}, classes
    golden = golden_of(db, softpipe)
    d = run([xfbtrace, "diff", "--db", db, str(golden), str(softpipe)])
    assert d.returncode == 0, describe(d)
    assert f"{len(classes)} classified by replay --check against the golden run (not counted)" \
        in d.stdout, d.stdout
    assert run([xfbtrace, "diff", "--db", db, "--strict", str(golden), str(softpipe)]).returncode == 1
    # Two replays, neither golden: counted as before, each side's verdict shown.
    both = run([xfbtrace, "diff", "--db", db, str(llvmpipe), str(softpipe)])
    assert both.returncode == 1, describe(both)
    assert f"result: DIFFERENT: {len(classes)} of 3 observations differ" in both.stdout, both.stdout
    assert both.stdout.count("  run B: replay --check said undefined: ") == len(classes), both.stdout
    assert "run A: replay --check said" not in both.stdout


@pytest.mark.browser
def test_the_diff_page_and_the_run_page_label_the_class(xfbtrace, undefined_db, browser):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait
    db, golden, run_id = undefined_db
    s = Server(xfbtrace, db)
    try:
        wait = WebDriverWait(browser, 30)
        browser.get(f"{s.url}/diff/{golden}/{run_id}")
        wait.until(lambda b: b.find_elements(By.CSS_SELECTOR, "#verdicts .verdict"))
        [label] = browser.find_elements(By.CSS_SELECTOR, "#verdicts .verdict")
        assert label.text == "undefined", label.text
        line = browser.find_element(By.CSS_SELECTOR, "#verdicts .verdictline").text
        assert "never defined" in line, line
        assert "1 classified by replay --check" in browser.find_element(By.ID, "summary").text
        assert browser.find_element(By.ID, "first").text == "no difference"
        assert browser.find_elements(By.CSS_SELECTOR, "#timeline .call.classified")
        browser.get(f"{s.url}/run/{run_id}")
        wait.until(lambda b: b.find_elements(By.CSS_SELECTOR, "#verdicts .verdict"))
        assert [e.text for e in browser.find_elements(By.CSS_SELECTOR, "#verdicts .verdict")] == \
            ["undefined"]
    finally:
        s.stop()

"""`xfbtrace web`: the local UI over a results database, end to end.

Two sim runs of one trace that differ because the driver behaved
differently: the second replays with XFBTRACE_SIM_TEST_FAULT=stride_off_by_one,
a test-only driver setting (driver/hw/drv_pm4_so.c) that programs every
VGT_STRMOUT_VTX_STRIDE_n one dword too large.  Then:

- `xfbtrace diff --regs --pm4` names the first divergent call
  (glBeginTransformFeedback) and the changed fields;
- the JSON API answers, and hostile requests (path traversal, SQL-looking
  ids, huge headers, wrong methods, slow clients) get a 4xx or are cut off
  in bounded time, while the server keeps serving and never writes the DB;
- Debian's chromium (headless, driven by selenium) opens the runs page,
  picks the two runs, opens the diff, sees the changed register field and a
  highlighted TF buffer component; the screenshot is saved under
  tests/artifacts/.
"""
import hashlib
import json
import os
import pathlib
import re
import socket
import subprocess
import time

import pytest

from conftest import headless_chromium, run

ARTIFACTS = pathlib.Path(__file__).resolve().parents[1] / "artifacts"
APP = "tf-separate-gl33"


@pytest.fixture(scope="module")
def sim_db(xfbtrace, build_dir, tmp_path_factory):
    d = tmp_path_factory.mktemp("web")
    trace, db = d / f"{APP}.xfbt", d / "results.db"
    out = run([xfbtrace, "capture", "-o", trace, "--", build_dir / "tests" / "apps" / APP])
    assert trace.exists(), out.stderr
    env = dict(os.environ)
    env.pop("XFBTRACE_SIM_TEST_FAULT", None)
    out = run([xfbtrace, "replay", "--backend", "sim", "--db", db, "--label", "good", trace], env=env)
    assert "recorded run 2" in out.stderr, out.stderr
    env["XFBTRACE_SIM_TEST_FAULT"] = "stride_off_by_one"
    out = run([xfbtrace, "replay", "--backend", "sim", "--db", db, "--label", "stride-bug", trace],
              env=env)
    assert "recorded run 3" in out.stderr, out.stderr
    return db


class Server:
    def __init__(self, exe, db, *args):
        self.proc = subprocess.Popen([str(exe), "web", "--db", str(db), "--port", "0", *args],
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self.proc.stdout.readline()
        m = re.search(r"http://([0-9.]+):(\d+)/", line)
        assert m, (line, self.proc.stderr.read() if self.proc.poll() is not None else "")
        self.host, self.port = m.group(1), int(m.group(2))
        self.url = f"http://{self.host}:{self.port}"

    def get(self, path, timeout=10):
        """(status, body bytes) of GET path, over a raw socket: no proxy, no
        client-side normalisation of the path."""
        return self.raw(f"GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode(),
                        timeout)

    def raw(self, data, timeout=10):
        with socket.create_connection((self.host, self.port), timeout=timeout) as s:
            s.sendall(data)
            chunks = []
            while True:
                try:
                    c = s.recv(65536)
                except ConnectionResetError:
                    break
                if not c:
                    break
                chunks.append(c)
        resp = b"".join(chunks)
        if not resp:
            return 0, b""
        head, _, body = resp.partition(b"\r\n\r\n")
        return int(head.split()[1]), body

    def json(self, path):
        status, body = self.get(path)
        assert status == 200, (path, status, body[:300])
        return json.loads(body)

    def stop(self):
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            raise


@pytest.fixture(scope="module")
def server(xfbtrace, sim_db):
    s = Server(xfbtrace, sim_db)
    yield s
    s.stop()
    assert s.proc.returncode == 0, s.proc.stderr.read()


def test_diff_regs_pm4_names_first_divergent_call_and_changed_fields(xfbtrace, sim_db):
    out = run([xfbtrace, "diff", "--db", sim_db, "--regs", "--pm4", "2", "3"])
    assert out.returncode == 1, out.stderr
    assert re.search(r"^first divergent call: \d+ glBeginTransformFeedback$", out.stdout, re.M), out.stdout
    assert "VGT_STRMOUT_VTX_STRIDE_0.STRIDE 4 -> 5" in out.stdout, out.stdout
    assert re.search(r"~ packet \d+ SET_CONTEXT_REG VGT_STRMOUT_BUFFER_SIZE_0", out.stdout), out.stdout
    js = json.loads(run([xfbtrace, "diff", "--db", sim_db, "--json", "--regs", "--pm4", "2", "3"]).stdout)
    first = js["calls"]["first_divergent"]
    assert first["function"] == "glBeginTransformFeedback"
    fields = {f["name"]: (f["a"], f["b"]) for f in js["calls"]["differing"][0]["fields"]}
    assert fields["VGT_STRMOUT_VTX_STRIDE_0.STRIDE"] == (4, 5)
    same = run([xfbtrace, "diff", "--db", sim_db, "--regs", "--pm4", "2", "2"])
    assert same.returncode == 0 and "first divergent" not in same.stdout, same.stdout


def test_regs_reads_the_database(xfbtrace, sim_db):
    js = json.loads(run([xfbtrace, "diff", "--db", sim_db, "--json", "--regs", "2", "3"]).stdout)
    call = str(js["calls"]["first_divergent"]["call"])
    out = run([xfbtrace, "regs", "--db", sim_db, "--pm4", "3", call])
    assert out.returncode == 0, out.stderr
    assert "VGT_STRMOUT_VTX_STRIDE_0 <- STRIDE = 5" in out.stdout, out.stdout
    assert "STRMOUT_BUFFER_UPDATE" in out.stdout
    assert run([xfbtrace, "regs", "--db", sim_db, "3", "0"]).returncode == 1


def test_api_runs_diff_and_plots(server):
    runs = server.json("/api/runs")["runs"]
    assert [r["backend"] for r in runs] == ["capture", "sim", "sim"]
    d = server.json("/api/diff/2/3")
    assert d["calls_summary"]["first_divergent"]["function"] == "glBeginTransformFeedback"
    assert any(c["regs"] for c in d["timeline"]) and any(c["obs"] for c in d["timeline"])
    call = d["calls_summary"]["first_divergent"]["call"]
    c = server.json(f"/api/diff/2/3/calls/{call}")
    assert {"name": "VGT_STRMOUT_VTX_STRIDE_0.STRIDE", "a": 4, "b": 5} .items() <= \
        next(f for f in c["fields"] if f["name"].startswith("VGT_STRMOUT_VTX_STRIDE_0")).items()
    tf_call = next(t["call"] for t in d["timeline"] if t["obs"] and t["function"] == "glEndTransformFeedback")
    c = server.json(f"/api/diff/2/3/calls/{tf_call}")
    assert any(r["d"] for t in c["tf"] for r in t["rows"])
    run_call = server.json(f"/api/runs/2/calls/{call}")
    assert "STRMOUT_BUFFER_UPDATE" in run_call["pm4"] and run_call["regs"]
    for kind in ("positions", "error"):
        status, body = server.get(f"/plot/{kind}/2/3/{tf_call}/0.png")
        assert status == 200 and body.startswith(b"\x89PNG\r\n\x1a\n"), (kind, status, body[:80])
    for page in ("/", "/runs", "/run/2", "/diff/2/3", "/static/app.js", "/static/style.css"):
        assert server.get(page)[0] == 200, page


def test_the_web_ui_on_a_postgresql_store_answers_as_on_the_sqlite_file(xfbtrace, sim_db, server,
                                                                        pg_url):
    """The same runs pushed into a PostgreSQL store (xfbtrace db push): every
    API answer and page is the same, and so is diff --regs --pm4."""
    out = run([xfbtrace, "db", "push", sim_db, pg_url])
    assert out.returncode == 0 and "1 traces, 2 runs" in out.stdout, out.stdout + out.stderr
    d = server.json("/api/diff/2/3")
    call = d["calls_summary"]["first_divergent"]["call"]
    tf_call = next(t["call"] for t in d["timeline"]
                   if t["obs"] and t["function"] == "glEndTransformFeedback")
    pg = Server(xfbtrace, pg_url)
    try:
        for path in ("/api/runs", "/api/runs/3", "/api/diff/2/3", f"/api/diff/2/3/calls/{call}",
                     f"/api/diff/2/3/calls/{tf_call}", f"/api/runs/2/calls/{call}"):
            assert pg.json(path) == server.json(path), path
        for path in (f"/plot/positions/2/3/{tf_call}/0.png", "/diff/2/3", "/api/runs/999",
                     "/api/runs/1%20OR%201=1"):
            assert pg.get(path) == server.get(path), path
    finally:
        pg.stop()
    assert pg.proc.returncode == 0, pg.proc.stderr.read()
    for argv in (["--regs", "--pm4", "2", "3"], ["--json", "2", "3"]):
        a = run([xfbtrace, "diff", "--db", sim_db, *argv])
        b = run([xfbtrace, "diff", "--db", pg_url, *argv])
        assert (b.returncode, b.stdout) == (a.returncode, a.stdout), argv


HOSTILE = [
    ("/../../etc/passwd", 400), ("/static/../../../etc/passwd", 400), ("/static/..%2f..%2fetc%2fpasswd", 400),
    ("/static/%2e%2e/%2e%2e/etc/passwd", 400), ("/static/app.js%00.png", 400), ("/static/nope.js", 404),
    ("/api/runs/1%20OR%201=1", 400), ("/api/runs/1';DROP%20TABLE%20runs;--", 400),
    ("/api/runs/-1", 400), ("/api/runs/0", 400), ("/api/runs/99999999999999999999", 400),
    ("/api/runs/999", 404), ("/api/diff/2/999", 404), ("/api/diff/2/3/calls/x", 400),
    ("/api/diff/1/2/calls/99999999", 200), ("/api/nope", 404), ("/nope", 404), ("/run/abc", 400),
    ("/plot/positions/2/3/1/0.gif", 404), ("/plot/positions/2/3/1/99.png", 400),
    ("/plot/error/2/3/1/0.png", 404), ("/" + "a/" * 20, 400), ("/" + "a" * 5000, 414),
]


def test_hostile_requests_get_4xx_and_the_server_survives(server, sim_db):
    before = hashlib.sha256(pathlib.Path(sim_db).read_bytes()).hexdigest()
    for path, want in HOSTILE:
        status, body = server.get(path)
        assert status == want, (path, status, body[:200])
        if status >= 400:
            assert len(body) < 400, (path, body)
    # Methods other than GET / HEAD, with and without a body.
    for req in (b"POST /api/runs HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello",
                b"DELETE /api/runs/2 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
                b"PUT /static/app.js HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nConnection: close\r\n\r\nx"):
        status, _ = server.raw(req)
        assert status == 405, req
    # Huge headers: refused (431 / 413) or cut off, never served.
    big = b"GET /api/runs HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 200000 + b"\r\nConnection: close\r\n\r\n"
    try:
        status, _ = server.raw(big)
    except (BrokenPipeError, ConnectionResetError):
        status = 431
    assert status in (0, 413, 414, 431), status
    # Malformed request lines.
    for junk in (b"\x00\x01\x02garbage\r\n\r\n", b"GET\r\n\r\n", b"GET / HTTP/9.9\r\n\r\n"):
        try:
            # The server answers 400 or closes the connection after its
            # 10 s timeout: either before ours.
            status, _ = server.raw(junk, timeout=20)
        except (BrokenPipeError, ConnectionResetError):
            status = 400
        assert status == 0 or 400 <= status < 600, (junk, status)
    # Slow clients are disconnected in bounded time, and do not block others.
    slow = [socket.create_connection((server.host, server.port)) for _ in range(8)]
    for s in slow:
        s.sendall(b"GET /api/runs HTTP/1.1\r\nHost: x\r\n")   # never finishes
    t0 = time.monotonic()
    assert server.get("/api/runs")[0] == 200
    assert time.monotonic() - t0 < 5
    slow[0].settimeout(30)
    t0 = time.monotonic()
    try:
        slow[0].recv(100)
    except (ConnectionResetError, socket.timeout):
        pass
    waited = time.monotonic() - t0
    assert waited < 25, waited
    for s in slow:
        s.close()
    assert server.proc.poll() is None
    assert server.get("/api/runs")[0] == 200
    after = hashlib.sha256(pathlib.Path(sim_db).read_bytes()).hexdigest()
    assert before == after, "the server wrote the database"


def test_server_binds_loopback_by_default(server):
    assert server.host == "127.0.0.1"
    out = subprocess.run(["ss", "-ltnH", f"sport = :{server.port}"], capture_output=True, text=True)
    if out.returncode == 0 and out.stdout.strip():
        assert "127.0.0.1:" in out.stdout and "0.0.0.0:" not in out.stdout.split()[3], out.stdout


def test_web_refuses_a_missing_database(xfbtrace, tmp_path):
    out = run([xfbtrace, "web", "--db", tmp_path / "none.db", "--port", "0", "--timeout", "1"])
    assert out.returncode == 2 and "no such database" in out.stderr, out.stderr


@pytest.mark.browser
def test_browser_runs_page_to_diff_shows_field_and_highlight(server):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait
    browser = headless_chromium(1800)
    try:
        wait = WebDriverWait(browser, 30)
        browser.get(server.url + "/")
        wait.until(lambda b: b.find_elements(By.CSS_SELECTOR, "input.pick"))
        for run_id in ("2", "3"):
            browser.find_element(By.CSS_SELECTOR, f"input.pick[data-run='{run_id}']").click()
        button = browser.find_element(By.ID, "compare")
        wait.until(lambda b: button.is_enabled())
        button.click()
        wait.until(lambda b: "/diff/2/3" in b.current_url)
        wait.until(lambda b: b.find_elements(By.CSS_SELECTOR, "#fields tr.field"))
        assert browser.find_elements(By.CSS_SELECTOR, "#timeline .call.differs")
        assert "glBeginTransformFeedback" in browser.find_element(By.ID, "first").text
        fields = browser.find_element(By.ID, "fields").text
        assert "VGT_STRMOUT_VTX_STRIDE_0.STRIDE" in fields and "4" in fields and "5" in fields, fields
        ARTIFACTS.mkdir(exist_ok=True)
        browser.save_screenshot(str(ARTIFACTS / "web-diff-registers.png"))
        # The TF buffer of the glEndTransformFeedback call: differing components highlighted.
        end = next(e for e in browser.find_elements(By.CSS_SELECTOR, "#timeline .call.differs")
                   if "glEndTransformFeedback" in e.get_attribute("title"))
        end.click()
        wait.until(lambda b: b.find_elements(By.CSS_SELECTOR, "table.tf td.diff"))
        cell = browser.find_element(By.CSS_SELECTOR, "table.tf td.diff")
        assert cell.value_of_css_property("background-color") not in ("rgba(0, 0, 0, 0)", "transparent")
        wait.until(lambda b: all(i.get_property("naturalWidth") > 0 for i in b.find_elements(By.CSS_SELECTOR, "img.plot")))
        browser.save_screenshot(str(ARTIFACTS / "web-diff-tf-buffer.png"))
        assert (ARTIFACTS / "web-diff-tf-buffer.png").stat().st_size > 1000
    finally:
        browser.quit()


def test_the_web_ui_outlives_a_restart_of_its_postgresql_server(xfbtrace, sim_db, pg_server,
                                                                pg_url):
    """A farm's web UI runs for days; its database server restarts under it.
    The next request reconnects (outside a transaction) and answers."""
    assert run([xfbtrace, "db", "push", sim_db, pg_url]).returncode == 0
    web = Server(xfbtrace, pg_url)
    try:
        before = web.json("/api/runs")
        pg_server.restart()
        assert web.json("/api/runs") == before
        assert web.json("/api/diff/2/3")["run_b"]["id"] == 3
    finally:
        web.stop()

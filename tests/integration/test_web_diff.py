"""The web diff opens on the difference people look for (issue 24): golden
vs host run of a trace with one known difference, in headless Chromium.

The golden data of a real trace is changed in one byte (trace_perturb: byte
0 of the first TF buffer observation, v_pos.x of vertex 0), so the host
replay (run 2) differs from the golden run (run 1) in exactly that
component, and a sim replay (run 3) too.  The diff page of 1 vs 2 must open
on that call with the differing component highlighted, without a click
(before: "calls: 0 differ, no call diverges" and nothing opened); 1 vs 3
must not open on a sim call that merely has artefacts in one run only
(before: call 102 glBeginQuery, "PM4, one run only").  The runs page shows
each run's driver and verdict; TF tables show 0xdeadbeef (what the sample
program fills its buffers with) in hex.  Screenshots go to tests/artifacts/.
"""
import json
import struct
import urllib.request
import zlib
import os
import pathlib
import re
import subprocess

import pytest

from conftest import headless_chromium, run

ARTIFACTS = pathlib.Path(__file__).resolve().parents[1] / "artifacts"


@pytest.fixture(scope="module")
def server(xfbtrace, build_dir, tmp_path_factory):
    d = tmp_path_factory.mktemp("webdiff")
    trace, bad, db = d / "app.xfbt", d / "perturbed.xfbt", d / "r.db"
    assert run([xfbtrace, "capture", "-o", trace, "--",
                build_dir / "tests" / "apps" / "tf-separate-gl33"]).returncode == 0
    p = run([build_dir / "tests" / "replay" / "trace_perturb", trace, bad, "0", "0"])
    assert p.returncode == 0, p.stderr
    call = int(p.stdout.split()[1])
    for backend in ("host", "sim"):
        out = run([xfbtrace, "replay", "--check", "--backend", backend, "--db", db, bad])
        assert "recorded run" in out.stderr, out.stderr
    # Run 4: softpipe, which counts one query differently from llvmpipe.
    env = dict(os.environ, LIBGL_ALWAYS_SOFTWARE="1", GALLIUM_DRIVER="softpipe")
    out = run([xfbtrace, "replay", "--check", "--db", db, bad], env=env)
    assert "recorded run 4" in out.stderr, out.stderr
    proc = subprocess.Popen([str(xfbtrace), "web", "--db", str(db), "--port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    port = int(re.search(r":(\d+)/", proc.stdout.readline()).group(1))
    yield f"http://127.0.0.1:{port}", call, xfbtrace, db
    proc.terminate()
    proc.wait(timeout=20)


@pytest.fixture(scope="module")
def browser():
    b = headless_chromium(1000)
    yield b
    b.quit()


@pytest.mark.browser
def test_golden_vs_host_diff_opens_on_the_one_difference(server, browser):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait
    url, call, _, _ = server
    wait = WebDriverWait(browser, 30)
    browser.get(f"{url}/diff/1/2")
    wait.until(lambda b: b.find_elements(By.CSS_SELECTOR, "table.tf td.diff"))
    assert f"call={call}" in browser.current_url
    first = browser.find_element(By.ID, "first").text
    assert f"call {call} " in first and "observations" in first, first
    cells = browser.find_elements(By.CSS_SELECTOR, "table.tf td.diff")
    assert len(cells) == 2, [c.text for c in cells]          # A and B of one component
    # On the first screen: the highlighted cell is inside the viewport.
    assert browser.execute_script(
        "const r = arguments[0].getBoundingClientRect();"
        "return r.top >= 0 && r.bottom <= window.innerHeight && r.left >= 0 && r.right <= window.innerWidth;",
        cells[0]), "the difference is below or beside the first screen"
    assert any("0xdeadbeef" in td.text for td in browser.find_elements(By.CSS_SELECTOR, "table.tf td"))
    # Timeline squares are labelled by the kind of call (P: glPauseTransformFeedback).
    square = browser.find_element(By.CSS_SELECTOR, f"#timeline .call[data-call='{call}']")
    assert square.text == "P", square.text
    ARTIFACTS.mkdir(exist_ok=True)
    browser.save_screenshot(str(ARTIFACTS / "web-diff-golden-vs-host.png"))


@pytest.mark.browser
def test_golden_vs_sim_diff_does_not_open_on_a_one_sided_call(server, browser):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait
    url, call, _, _ = server
    browser.get(f"{url}/diff/1/3")
    WebDriverWait(browser, 30).until(lambda b: b.find_elements(By.CSS_SELECTOR, "table.tf td.diff"))
    first = browser.find_element(By.ID, "first").text
    assert f"call {call} " in first and "observations" in first, first


@pytest.mark.browser
def test_runs_page_shows_driver_and_verdict(server, browser):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait
    url = server[0]
    browser.get(url + "/")
    WebDriverWait(browser, 30).until(lambda b: b.find_elements(By.CSS_SELECTOR, "input.pick"))
    table = browser.find_element(By.ID, "runs").text
    heads = [th.text for th in browser.find_elements(By.CSS_SELECTOR, "#runs th")]
    assert "driver" in " ".join(heads) and "verdict" in " ".join(heads), heads
    assert "llvmpipe" in table and "Mesa" in table and "xfbtrace sim" in table, table
    assert "1 differ" in table, table
    browser.save_screenshot(str(ARTIFACTS / "web-runs.png"))


@pytest.mark.browser
def test_query_differences_are_a_table_not_raw_json(server, browser):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait
    url, _, xfbtrace, db = server
    d = json.loads(run([xfbtrace, "diff", "--json", "--db", db, "1", "4"]).stdout)
    calls = [o["call"] for o in d["observations"] if o["kind"] == "query"]
    assert calls, d["summary"]
    browser.get(f"{url}/diff/1/4?call={calls[0]}")
    WebDriverWait(browser, 30).until(lambda b: b.find_elements(By.CSS_SELECTOR, "#queries td.diff"))
    row = browser.find_element(By.CSS_SELECTOR, "#queries tr.qdiff").text
    assert "result" in row, row
    # Named by target, as the program began it (tf_separate_gl33.c:
    # glBeginQuery(GL_PRIMITIVES_GENERATED / GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN)).
    target = next(o["target"] for o in d["observations"] if o["call"] == calls[0])
    assert target in ("GL_PRIMITIVES_GENERATED", "GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN")
    assert f": {target}" in row, row
    assert "{" not in browser.find_element(By.ID, "queries").text
    browser.save_screenshot(str(ARTIFACTS / "web-diff-query.png"))


@pytest.mark.browser
def test_a_16000_vertex_tf_buffer_is_paged_and_opens_on_its_difference(xfbtrace, build_dir,
                                                                        browser, tmp_path):
    """A synthetic trace (db-make-trace) with one TF buffer of 16,000 vec4
    vertices, and a run with one byte of vertex 15,000 changed
    (db-record-run --perturb): the page shows one page of vertices, the one
    holding the difference, not 16,000 rows (the web decodes at most WEB_MAX_TF_VERTICES = 16384)."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait
    tools = build_dir / "tests" / "unit" / "db"
    trace, db = tmp_path / "big.xfbt", tmp_path / "big.db"
    assert run([tools / "db-make-trace", trace, "1", str(16000 * 16)]).returncode == 0
    obs = [json.loads(l) for l in run([xfbtrace, "dump", "--format", "jsonl", "--no-data", trace]
                                      ).stdout.splitlines() if '"tf_buffer"' in l][0]
    assert run([xfbtrace, "ingest", "--db", db, trace]).returncode == 0
    out = run([tools / "db-record-run", "--db", db, "--perturb",
               f"{obs['call']}:{obs['index']}:{15000 * 16 + 4}", trace])
    assert out.returncode == 0, out.stderr
    proc = subprocess.Popen([str(xfbtrace), "web", "--db", str(db), "--port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        port = int(re.search(r":(\d+)/", proc.stdout.readline()).group(1))
        browser.get(f"http://127.0.0.1:{port}/diff/1/2")
        WebDriverWait(browser, 60).until(lambda b: b.find_elements(By.CSS_SELECTOR, "table.tf td.diff"))
        rows = browser.find_elements(By.CSS_SELECTOR, "table.tf tr[data-v]")
        assert 0 < len(rows) <= 256, len(rows)
        shown = [int(r.get_attribute("data-v")) for r in rows]
        assert 15000 in shown, (shown[0], shown[-1])
        nav = browser.find_element(By.CSS_SELECTOR, ".tfnav .page").text
        assert "of 16000" in nav and "1 differing" in nav, nav
        cell = browser.find_element(By.CSS_SELECTOR, "table.tf td.diff")
        assert browser.execute_script(
            "const r = arguments[0].getBoundingClientRect(); return r.top >= 0 && r.bottom <= window.innerHeight;",
            cell)
        browser.save_screenshot(str(ARTIFACTS / "web-diff-paged.png"))
    finally:
        proc.terminate()
        proc.wait(timeout=20)


def png_pixels(data):
    """(width, height, rows of RGB bytes) of an 8-bit RGB PNG (stdlib only)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, w, h = 8, b"", 0, 0
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        pos += 12 + n
        if kind == b"IHDR":
            w, h = struct.unpack(">II", body[:8])
            assert body[8:10] == b"\x08\x02", "not 8-bit RGB"
        elif kind == b"IDAT":
            idat += body
    raw, stride, rows, prev, i = zlib.decompress(idat), w * 3, [], bytearray(w * 3), 0
    for _ in range(h):
        f, line = raw[i], bytearray(raw[i + 1:i + 1 + stride])
        i += 1 + stride
        for x in range(stride):
            a, b, c = (line[x - 3] if x >= 3 else 0), prev[x], (prev[x - 3] if x >= 3 else 0)
            if f == 1:
                line[x] = (line[x] + a) & 255
            elif f == 2:
                line[x] = (line[x] + b) & 255
            elif f == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return w, h, rows


def frame_of(w, h, rows, colour=bytes.fromhex("bbbbbb")):
    """The plot frame's (left, top, right, bottom): the extent of its colour."""
    xs, ys = [], []
    for y in range(h):
        for x in range(w):
            if rows[y][3 * x:3 * x + 3] == colour:
                xs.append(x)
                ys.append(y)
    return min(xs), min(ys), max(xs), max(ys)


def test_positions_plot_marks_off_scale_points_instead_of_dropping_them(server):
    """Buffer 0 at the pause holds 0xdeadbeef vertices (-6.26e18, off any
    sensible scale): they must show as markers in the band just outside the
    plot's frame, in both runs' colours, not vanish."""
    url, call, _, _ = server
    with urllib.request.urlopen(f"{url}/plot/positions/1/2/{call}/0.png", timeout=30) as r:
        w, h, rows = png_pixels(r.read())
    left, top, right, bottom = frame_of(w, h, rows)
    assert right - left > w // 2 and bottom - top > h // 2, (left, top, right, bottom)
    # Markers of points in range reach at most 6 pixels past the frame;
    # off-scale ones sit 12 pixels out (radius 6): the ring 7..19 out.
    colours = set()
    for y in range(max(0, top - 19), min(h, bottom + 20)):
        for x in range(max(0, left - 19), min(w, right + 20)):
            if left - 7 <= x <= right + 7 and top - 7 <= y <= bottom + 7:
                continue
            colours.add(rows[y][3 * x:3 * x + 3])
    assert bytes.fromhex("1f5fbf") in colours and bytes.fromhex("d62020") in colours, \
        sorted(c.hex() for c in colours)


def test_positions_plot_has_tick_labels_and_a_legend(server):
    """Axes with tick labels, the plotted components named, a legend with
    both runs' colours (issue 24: "plots have no axes or legend"): dark
    text left of and below the frame, and blue and red above it, where no
    point is drawn."""
    url, call, _, _ = server
    with urllib.request.urlopen(f"{url}/plot/positions/1/2/{call}/0.png", timeout=30) as r:
        w, h, rows = png_pixels(r.read())
    left, top, right, bottom = frame_of(w, h, rows)
    dark = bytes.fromhex("333333")

    def count(x0, y0, x1, y1, colour):
        return sum(rows[y][3 * x:3 * x + 3] == colour for y in range(y0, y1) for x in range(x0, x1))

    assert count(0, top, left - 19, bottom, dark) > 40, "no y tick labels"
    assert count(left, bottom + 19, right, h, dark) > 40, "no x tick labels"
    assert count(0, 0, w, top - 19, bytes.fromhex("1f5fbf")) > 20, "no legend for run A"
    assert count(0, 0, w, top - 19, bytes.fromhex("d62020")) > 20, "no legend for run B"
    # The error plot has its scale too.
    with urllib.request.urlopen(f"{url}/plot/error/1/2/{call}/0.png", timeout=30) as r:
        w, h, rows = png_pixels(r.read())
    assert count(0, h - 40, w, h, dark) > 40, "no legend under the error plot"

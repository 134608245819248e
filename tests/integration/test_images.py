"""Framebuffer images as observations (issue 22).

tests/apps/tf-draw-fbo-gl33 draws its TF output as triangles into an RGBA8
framebuffer object and reads the pixels back twice: into its own memory,
and under another pack state (row length, skipped pixels and rows,
alignment 8) into a pixel pack buffer.  Each glReadPixels gives a `pixels`
observation, checked here against what the application received, as the
capture's generic recording of the call's output memory and of its
glGetBufferSubData of the pack buffer has it (repacked by GL's pack rules,
written here), not against the observation code.

The replay on llvmpipe and on softpipe compares the images; a trace whose
golden image has one channel of one pixel changed (trace_perturb) must be
reported with that pixel's window coordinates and both values, on the
command line, in `diff` of the runs and on the web diff page (headless
Chromium).  A `pixels` record whose size does not match its data is
rejected by every reader path.
"""
import os
import pathlib
import re
import struct
import subprocess
import zlib

import pytest

from conftest import headless_chromium, require_chromium, run
from tracefile import blob_bytes, observations, records

ARTIFACTS = pathlib.Path(__file__).resolve().parents[1] / "artifacts"
APP = "tf-draw-fbo-gl33"
SIZE = 64
# The pixel the perturbation changes: window (16, 20), inside the red
# triangle; its green byte (channel 1) gets its low bit flipped, 0 -> 1.
PX, PY, CHANNEL = 16, 20, 1


def png_rgba(data):
    """Decodes an 8-bit RGB / RGBA PNG (no interlace) into rows of pixels,
    top row first: the PNG format's filters, written here."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, ihdr = 8, b"", None
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            ihdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    w, h, depth, colour, _, _, interlace = ihdr
    assert depth == 8 and colour in (2, 6) and interlace == 0
    bpp = 4 if colour == 6 else 3
    raw, stride, rows, prev = zlib.decompress(idat), w * bpp, [], bytearray(w * bpp)
    for y in range(h):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append([tuple(line[x * bpp:x * bpp + bpp]) for x in range(w)])
        prev = line
    return rows


@pytest.fixture(scope="module")
def traces(xfbtrace, build_dir, tmp_path_factory):
    """The capture, and a copy whose golden image has one byte changed."""
    d = tmp_path_factory.mktemp("images")
    good, bad = d / "good.xfbt", d / "perturbed.xfbt"
    out = run([xfbtrace, "capture", "-o", good, "--", build_dir / "tests" / "apps" / APP])
    assert out.returncode == 0, out.stderr
    recs = records(xfbtrace, good)
    # The first pixels observation is the N-th observation with data.
    with_data = [o for o in observations(recs) if "data" in o]
    n = next(i for i, o in enumerate(with_data) if o["kind"] == "pixels")
    offset = ((PY * SIZE) + PX) * 4 + CHANNEL
    p = run([build_dir / "tests" / "replay" / "trace_perturb", good, bad, str(n), str(offset), "1"])
    assert p.returncode == 0, p.stderr
    call = int(p.stdout.split()[1])
    return d, good, bad, recs, call


def test_pixels_are_what_the_application_received(traces):
    _, _, _, recs, _ = traces
    px = observations(recs, "pixels")
    assert len(px) == 3, px
    calls = {r["no"]: r for r in recs if r["type"] == "call"}
    # 1: client memory, default pack state: the observation is the memory
    # the call wrote, as the capture recorded the call's output.
    a = px[0]
    assert (a["from"], a["function"], a["x"], a["y"], a["width"], a["height"]) == \
        ("read", "glReadPixels", 0, 0, SIZE, SIZE)
    assert (a["format"], a["pixel_type"]) == ("GL_RGBA", "GL_UNSIGNED_BYTE")
    assert a["pack"]["buffer"] == 0
    received = blob_bytes(calls[a["call"]]["outs"]["pixels"])
    assert blob_bytes(a["data"]) == received[:SIZE * SIZE * 4]
    # The clear colour where nothing was drawn, the red triangle at (16, 16).
    data = blob_bytes(a["data"])
    assert data[(32 * SIZE + 32) * 4:(32 * SIZE + 32) * 4 + 4] == bytes([0, 64, 128, 255])
    assert data[(16 * SIZE + 16) * 4:(16 * SIZE + 16) * 4 + 4] == bytes([255, 0, 0, 255])
    # 2: a pixel pack buffer with row length 40, 3 skipped pixels, 2
    # skipped rows, alignment 8: the observation holds the pixels only,
    # the application's glGetBufferSubData the whole buffer.
    b = px[1]
    pk = b["pack"]
    assert (pk["row_length"], pk["skip_pixels"], pk["skip_rows"], pk["alignment"]) == (40, 3, 2, 8)
    assert pk["buffer"] != 0
    got = next(r for r in recs if r["type"] == "call" and r["name"] == "glGetBufferSubData")
    whole = blob_bytes(got["outs"]["data"])
    stride = -(-pk["row_length"] * 4 // pk["alignment"]) * pk["alignment"]
    rows = [whole[(pk["skip_rows"] + r) * stride + pk["skip_pixels"] * 4:][:b["width"] * 4]
            for r in range(b["height"])]
    assert blob_bytes(b["data"]) == b"".join(rows)
    # ... and the same pixels as the first read at (4, 6).
    assert rows[0] == data[(6 * SIZE + 4) * 4:(6 * SIZE + 4 + b["width"]) * 4]
    # 3: 16x16 from (56, 56), past the corner of the 64x64 framebuffer
    # object: the size read is recorded, and what the call left in the
    # application's memory is kept, pixels outside included.
    c = px[2]
    assert (c["x"], c["y"], c["width"], c["height"], c["read_size"]) == (56, 56, 16, 16, [64, 64])
    assert a["read_size"] == [64, 64] and b["read_size"] == [64, 64]
    assert blob_bytes(c["data"]) == blob_bytes(calls[c["call"]]["outs"]["pixels"])[:16 * 16 * 4]


def test_replay_on_llvmpipe_and_softpipe(xfbtrace, traces):
    _, good, _, _, _ = traces
    out = run([xfbtrace, "replay", "--check", good])
    assert out.returncode == 0, out.stdout + out.stderr
    # The read past the corner: the pixels outside the framebuffer are the
    # application's memory in the capture (0xa5, which Mesa leaves), the
    # replay's zeroed memory in the replay; GL leaves them undefined.
    assert "6 observations, 5 match, 0 differ" in out.stdout, out.stdout
    assert "0 precision, 1 undefined" in out.stdout
    assert ("pixels 16x16 at (56, 56): 192 pixels outside the 64x64 buffer read differ, "
            "which GL leaves undefined") in out.stdout, out.stdout
    assert "the first at (64, 56): golden 165 165 165 165, replay 0 0 0 0" in out.stdout
    assert run([xfbtrace, "replay", "--check", "--strict", good]).returncode == 1
    env = dict(os.environ, LIBGL_ALWAYS_SOFTWARE="1", GALLIUM_DRIVER="softpipe")
    soft = run([xfbtrace, "replay", "--check", good], env=env)
    assert soft.returncode == 0, soft.stdout
    assert "softpipe" in soft.stdout
    # Equal, or a difference that names its pixels: never an unexplained one.
    for line in soft.stdout.splitlines():
        if "pixels" in line and "differ" in line and line.startswith("call "):
            assert re.search(r"first (at )?\(\d+, \d+\): golden", line), line


def test_a_changed_pixel_is_named(xfbtrace, traces):
    d, _, bad, _, call = traces
    diffs = d / "diffs"
    diffs.mkdir()
    out = run([xfbtrace, "replay", "--check", "--diff-dir", diffs, bad])
    assert out.returncode == 1, out.stdout + out.stderr
    line = next(l for l in out.stdout.splitlines() if l.startswith(f"call {call} glReadPixels"))
    assert f"1 of {SIZE * SIZE} pixels differ" in line, line
    assert f"first ({PX}, {PY}): golden 255 1 0 255, replay 255 0 0 255" in line, line
    # The difference image: the one changed pixel red, the rest dimmed.
    # PNG rows are top first; window y counts from the bottom.
    diff = png_rgba((diffs / f"call{call}-diff.png").read_bytes())
    red = [(x, SIZE - 1 - r) for r, row in enumerate(diff) for x, p in enumerate(row)
           if p[:3] == (255, 0, 0)]
    assert red == [(PX, PY)]
    golden = png_rgba((diffs / f"call{call}-golden.png").read_bytes())
    assert golden[SIZE - 1 - PY][PX] == (255, 1, 0, 255)
    assert golden[SIZE - 1 - 32][32][:3] == (0, 64, 128)
    # Within the image tolerance: a precision difference, not counted.
    for tol in ("max=1", "pixels=1"):
        ok = run([xfbtrace, "replay", "--check", "--image-tolerance", tol, bad])
        assert ok.returncode == 0, ok.stdout
        assert "1 precision" in ok.stdout and "within the image tolerance" in ok.stdout
    strict = run([xfbtrace, "replay", "--check", "--strict", "--image-tolerance", "max=1", bad])
    assert strict.returncode == 1
    usage = run([xfbtrace, "replay", "--check", "--image-tolerance", "max=-1", bad])
    assert usage.returncode == 2 and "--image-tolerance" in usage.stderr
    usage = run([xfbtrace, "replay", "--image-tolerance", "max=1", bad])
    assert usage.returncode == 2 and "give --check" in usage.stderr


def test_diff_of_runs_names_the_pixel(xfbtrace, traces, tmp_path):
    _, _, bad, _, call = traces
    db = tmp_path / "r.db"
    assert "recorded run 2" in run([xfbtrace, "replay", "--check", "--db", db, bad]).stderr
    out = run([xfbtrace, "diff", "--db", db, "1", "2"])
    assert out.returncode == 1, out.stdout + out.stderr
    assert f"call {call} glReadPixels  pixels #0: 1 of {SIZE * SIZE} pixels differ" in out.stdout
    assert f"pixel ({PX}, {PY}): 255 1 0 255 vs 255 0 0 255" in out.stdout
    # The read past the corner differs only outside the framebuffer
    # (read_size, kept in the row's fields): the same for diff.
    assert "1 of 6 observations differ" in out.stdout, out.stdout
    assert run([xfbtrace, "diff", "--db", db, "--image-tolerance", "max=1", "1", "2"]).returncode == 0
    # A stored image row changed behind the database's back is an error
    # naming the row, never a difference (db_check.c covers these rows).
    subprocess.run(["sqlite3", str(db), "UPDATE observations SET fields = replace(fields, "
                    "'\"width\":64', '\"width\":63') WHERE run_id = 2 AND kind = 'pixels'"],
                   check=True)
    broken = run([xfbtrace, "diff", "--db", db, "1", "2"])
    assert broken.returncode == 2, broken.stdout
    assert f"call {call}" in broken.stderr and "pixels" in broken.stderr, broken.stderr


READERS = [["dump"], ["info"], ["replay", "--check"], ["replay", "--check", "--backend", "sim"],
           ["ingest", "--db", "{db}"]]


@pytest.mark.parametrize("argv", READERS, ids=lambda a: " ".join(a))
def test_every_reader_rejects_a_pixels_record_of_the_wrong_size(xfbtrace, build_dir, traces,
                                                                tmp_path, argv):
    _, good, _, _, _ = traces
    mangled = tmp_path / "mangled.xfbt"
    p = run([build_dir / "tests" / "unit" / "trace" / "trace_mangle", good, mangled,
             "pixels-width", "0"])
    assert p.returncode == 0, p.stderr
    call = int(p.stdout.split()[1])
    out = run([xfbtrace] + [a.replace("{db}", str(tmp_path / "x.db")) for a in argv] + [mangled])
    assert out.returncode == 2, out.stdout + out.stderr
    assert re.search(rf"pixels observation: 16384 bytes of data for 65 x 64 pixels of 4 bytes "
                     rf"in record of type 3, call {call}\b", out.stderr), out.stderr
    assert "match" not in out.stdout


@pytest.mark.browser
def test_web_diff_shows_the_changed_pixel(xfbtrace, traces, tmp_path):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait
    _, _, bad, _, call = traces
    require_chromium()
    db = tmp_path / "r.db"
    assert "recorded run 2" in run([xfbtrace, "replay", "--check", "--db", db, bad]).stderr
    # Run 3: the sim, which draws the same image as llvmpipe (so only the
    # perturbed golden pixel differs); its page links the image to the
    # register state of the draw before the read.
    sim = run([xfbtrace, "replay", "--check", "--backend", "sim", "--db", db, bad])
    assert "recorded run 3" in sim.stderr, sim.stderr
    draw = max(r["no"] for r in records(xfbtrace, bad) if r["type"] == "call" and
               r["name"].startswith("glDraw") and r["no"] < call)
    proc = subprocess.Popen([str(xfbtrace), "web", "--db", str(db), "--port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    browser = headless_chromium(1000)
    try:
        url = "http://127.0.0.1:%s" % re.search(r":(\d+)/", proc.stdout.readline()).group(1)
        browser.get(f"{url}/diff/1/2")
        wait = WebDriverWait(browser, 30)
        first = wait.until(lambda b: b.find_elements(By.ID, "firstpixel"))[0]
        assert f"first differing pixel ({PX}, {PY}): A 255 1 0 255, B 255 0 0 255" in first.text
        assert "1 of 4096 pixels differ" in first.text
        # On the first screen, without scrolling.
        assert first.location["y"] + first.size["height"] <= 1000 - 120, first.location
        imgs = browser.find_elements(By.CSS_SELECTOR, "img.pixels")
        assert [i.get_attribute("alt")[:1] for i in imgs] == ["A", "B", "d"]
        wait.until(lambda b: all(b.execute_script("return arguments[0].complete && "
                                                  "arguments[0].naturalWidth", i) == SIZE
                                 for i in imgs))
        # Scaled without smoothing; the zoom buttons change the scale.
        zoom = imgs[0].size["width"] // SIZE
        assert zoom >= 4 and imgs[0].value_of_css_property("image-rendering") == "pixelated"
        # Hovering the outlined pixel names its window coordinates.
        mark = browser.find_elements(By.CSS_SELECTOR, ".pixelmark")[2]
        assert mark.is_displayed()
        from selenium.webdriver.common.action_chains import ActionChains
        row = SIZE - 1 - PY
        ActionChains(browser).move_to_element_with_offset(
            imgs[2], PX * zoom + zoom // 2 - imgs[2].size["width"] // 2,
            row * zoom + zoom // 2 - imgs[2].size["height"] // 2).perform()
        hover = browser.find_element(By.ID, "pixelhover")
        wait.until(lambda b: f"pixel ({PX}, {PY})" in hover.text)
        assert f"A 255 1 0, B 255 0 0" in hover.text, hover.text
        ARTIFACTS.mkdir(exist_ok=True)
        browser.save_screenshot(str(ARTIFACTS / "web-diff-image.png"))
        browser.find_element(By.CSS_SELECTOR, "button.zoom[data-zoom='1']").click()
        assert browser.find_elements(By.CSS_SELECTOR, "img.pixels")[0].size["width"] == SIZE
        # Golden vs sim: the sim's image differs at the perturbed pixel only,
        # and the page names the draw that made it.
        browser.get(f"{url}/diff/1/3?call={call}")
        link = wait.until(lambda b: b.find_elements(By.ID, "drawlink"))[0]
        assert link.text == f"call {draw} glDrawArrays (run 3)", link.text
        assert "1 of 4096 pixels differ" in \
            browser.find_element(By.CSS_SELECTOR, "section.imagediff").text
        link.click()
        # The run's register view of that draw: its registers, by name.
        wait.until(lambda b: b.find_elements(By.ID, "regs"))
        assert browser.current_url.endswith(f"/run/3?call={draw}")
        assert browser.find_element(By.CSS_SELECTOR, "#detail h3").text == \
            f"call {draw} glDrawArrays"
        assert "VGT_STRMOUT" in browser.find_element(By.ID, "regs").get_attribute("textContent")
        browser.save_screenshot(str(ARTIFACTS / "web-diff-image-sim-draw.png"))
        # The images themselves: the difference is red at that pixel only.
        import urllib.request
        png = urllib.request.urlopen(f"{url}/image/1/2/{call}.png").read()
        diff = png_rgba(png)
        assert [(x, SIZE - 1 - r) for r, row in enumerate(diff) for x, p in enumerate(row)
                if p[:3] == (255, 0, 0)] == [(PX, PY)]
    finally:
        browser.quit()
        proc.terminate()
        proc.wait(timeout=20)


def test_frames_at_swaps(xfbtrace, build_dir, tmp_path):
    """`capture --frames 2`: the first two frames of tf-particles-gles3
    (which draws its TF output as points on black) as `pixels`
    observations of their eglSwapBuffers, replayed equal."""
    trace = tmp_path / "frames.xfbt"
    out = run([xfbtrace, "capture", "--frames", "2", "-o", trace, "--",
               build_dir / "tests" / "apps" / "tf-particles-gles3"])
    assert out.returncode == 0, out.stderr
    recs = records(xfbtrace, trace)
    frames = [o for o in observations(recs, "pixels") if o["from"] == "swap"]
    assert [f["frame"] for f in frames] == [0, 1]
    swaps = {r["no"] for r in recs if r["type"] == "call" and r["name"] == "eglSwapBuffers"}
    assert len(swaps) == 5 and all(f["call"] in swaps for f in frames)
    # The FRAME records number the same frames.
    ends = {r["call"]: r["frame"] for r in recs if r["type"] == "frame"}
    assert [ends[f["call"]] for f in frames] == [0, 1]
    images = []
    for f in frames:
        data = blob_bytes(f["data"])
        assert len(data) == f["width"] * f["height"] * 4 == 64 * 64 * 4
        px = [data[i:i + 4] for i in range(0, len(data), 4)]
        lit = sum(p[:3] != b"\0\0\0" for p in px)
        assert px.count(b"\0\0\0\xff") > len(px) // 2 and 0 < lit, lit   # points on black
        images.append(data)
    assert images[0] != images[1]   # the particles moved
    rep = run([xfbtrace, "replay", "--check", trace])
    assert rep.returncode == 0, rep.stdout
    assert re.search(r"(\d+) observations, \1 match, 0 differ", rep.stdout), rep.stdout
    for bad in (["--frames", "x"], ["--frames", "2", "--no-observe"]):
        usage = run([xfbtrace, "capture"] + bad + ["-o", tmp_path / "u.xfbt", "--", "true"])
        assert usage.returncode == 2 and "--frames" in usage.stderr, usage.stderr


def test_sanitizer_build_over_the_image_paths(xfbtrace_san, build_dir, traces, tmp_path):
    """The ASan + UBSan build (build-san/) through every image path: the
    check with difference images, the diff, a corrupt record, and the web
    server's image URLs, hostile ones included."""
    import urllib.error
    import urllib.request
    _, good, bad, _, call = traces
    env = dict(os.environ, ASAN_OPTIONS="detect_leaks=1:abort_on_error=0",
               UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=0")

    def clean(out):
        assert "runtime error" not in out.stderr and "Sanitizer" not in out.stderr, \
            out.stderr[-3000:]
        return out
    diffs, db = tmp_path / "d", tmp_path / "r.db"
    diffs.mkdir()
    # The GL driver leaks at exit from libraries already unloaded (as in
    # test_replay.py): leak checking is off for the replays only.
    gl_env = dict(env, ASAN_OPTIONS="detect_leaks=0:abort_on_error=0")
    out = clean(run([xfbtrace_san, "replay", "--check", "--diff-dir", diffs, "--db", db, bad],
                    env=gl_env))
    assert out.returncode == 1 and (diffs / f"call{call}-diff.png").exists()
    assert clean(run([xfbtrace_san, "diff", "--db", db, "--json", "1", "2"], env=env)).returncode == 1
    nodir = clean(run([xfbtrace_san, "replay", "--check", "--diff-dir", tmp_path / "none", bad],
                      env=gl_env))
    assert nodir.returncode == 2 and "not a directory" in nodir.stderr
    mangled = tmp_path / "m.xfbt"
    assert run([build_dir / "tests" / "unit" / "trace" / "trace_mangle", good, mangled,
                "pixels-width", "1"]).returncode == 0
    assert clean(run([xfbtrace_san, "dump", mangled], env=env)).returncode == 2
    proc = subprocess.Popen([str(xfbtrace_san), "web", "--db", str(db), "--port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        url = "http://127.0.0.1:%s" % re.search(r":(\d+)/", proc.stdout.readline()).group(1)
        assert png_rgba(urllib.request.urlopen(f"{url}/image/2/{call}.png").read())[0][0] == \
            (0, 64, 128, 255)
        for path, status in ((f"/image/1/2/{call + 1}.png", 404), ("/image/1/x.png", 400),
                             (f"/image/1/{call}", 400), ("/image/1/2/3/4.png", 400),
                             (f"/image/99/{call}.png", 404), ("/image/1/0.png", 404)):
            with pytest.raises(urllib.error.HTTPError) as e:
                urllib.request.urlopen(url + path)
            assert e.value.code == status, path
    finally:
        proc.terminate()
        _, err = proc.communicate(timeout=20)
    assert "runtime error" not in err and "Sanitizer" not in err, err[-3000:]

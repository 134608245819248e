"""Register what-if experiments on the sim (issue 22): `xfbtrace replay
--backend sim --set-reg REG[.FIELD]=VALUE[@CALLS]` makes the simulated GPU
force a register at every draw, and `xfbtrace diff --regs` (and the web
diff page) of a plain and a perturbed sim run names both the pixels the
change moved and the register at the draw.

The program is tests/apps/tf-draw-fbo-gl33, which the sim draws bit for
bit as llvmpipe does: three flat triangles and a smooth one in a 64 x 64
RGBA8 framebuffer over a clear colour.  What each perturbation must do to
its image is derived here from GL and the register's meaning, on the
images themselves (the replay's --diff-dir PNGs), not from the model:

- PA_CL_VPORT_XOFFSET_0 = 40.0 instead of GL's x + width / 2 = 32.0 moves
  everything drawn 8 pixels to the right (x_w = x_ndc * XSCALE + XOFFSET,
  GL 4.6 §13.8.1); the clear (no draw) stays.
- CB_BLEND0_CONTROL with blending enabled, source factor ZERO and
  destination factor ONE keeps the destination (GL 4.6 §17.3.6): the
  image is the clear colour.
- CB_BLEND1_CONTROL (no colour buffer 1) and PA_CL_VPORT_XSCALE_5 (one
  viewport in use) change no pixel; nor does an override whose call range
  ends before the draw.
"""
import json
import re
import subprocess

import pytest

from conftest import describe, headless_chromium, require_chromium, run
from test_images import png_rgba
from tracefile import records

APP = "tf-draw-fbo-gl33"
SIZE = 64
CLEAR = (0, 64, 128, 255)
RED = (255, 0, 0, 255)
SHIFT = 8
VIEWPORT = f"PA_CL_VPORT_XOFFSET_0={SIZE / 2 + SHIFT}"
BLEND = ("CB_BLEND0_CONTROL.ENABLE=1,CB_BLEND0_CONTROL.COLOR_SRCBLEND=BLEND_ZERO,"
         "cb_blend0_control.color_destblend=blend_one")


@pytest.fixture(scope="module")
def case(xfbtrace, build_dir, tmp_path_factory):
    """The capture, its plain sim run (run 2 after the golden run 1) and the
    calls of its draw and of its first glReadPixels."""
    d = tmp_path_factory.mktemp("simregs")
    trace = d / "t.xfbt"
    out = run([xfbtrace, "capture", "-o", trace, "--", build_dir / "tests" / "apps" / APP])
    assert out.returncode == 0, describe(out)
    calls = [r for r in records(xfbtrace, trace) if r["type"] == "call"]
    read = next(r["no"] for r in calls if r["name"] == "glReadPixels")
    draw = max(r["no"] for r in calls if r["name"].startswith("glDraw") and r["no"] < read)
    db = d / "r.db"
    plain = replay(xfbtrace, trace, db, d / "plain")
    assert plain.returncode == 0 and "recorded run 2" in plain.stderr, describe(plain)
    return d, trace, db, draw, read


def replay(xfbtrace, trace, db, diff_dir, *args):
    """A sim run into `db`, checked against llvmpipe's golden images, each
    differing one written to diff_dir."""
    diff_dir.mkdir(exist_ok=True)
    return run([xfbtrace, "replay", "--backend", "sim", "--check", "--db", db,
                "--diff-dir", diff_dir, *args, trace])


def run_id(out):
    return int(re.search(r"recorded run (\d+)", out.stderr).group(1))


def diff(xfbtrace, db, a, b):
    out = run([xfbtrace, "diff", "--db", db, "--regs", "--json", "--limit", "10", a, b])
    assert out.returncode in (0, 1), describe(out)
    return json.loads(out.stdout)


def image(d, call, side):
    return png_rgba((d / f"call{call}-{side}.png").read_bytes())


def window(rows, x, y):
    """Pixel at window (x, y): the PNG's top row is the image's last."""
    return rows[SIZE - 1 - y][x]


def first_image(j, read):
    o = next(o for o in j["observations"] if o["call"] == read and o["kind"] == "pixels")
    return o["image"], o["differences"][0]


def draw_fields(j, draw):
    c = next(c for c in j["calls"]["differing"] if c["call"] == draw)
    return {f["name"]: f for f in c["fields"]}


@pytest.mark.sim
def test_viewport_override_moves_the_image_and_diff_names_the_register(xfbtrace, case):
    d, trace, db, draw, read = case
    out = replay(xfbtrace, trace, db, d / "vp", "--set-reg", VIEWPORT)
    # The moved image differs from llvmpipe's: an honest "differs".
    assert out.returncode == 1, describe(out)
    golden, moved = image(d / "vp", read, "golden"), image(d / "vp", read, "replay")
    changed = 0
    for y in range(SIZE):
        for x in range(SIZE):
            want = window(golden, x - SHIFT, y) if x >= SHIFT else CLEAR
            assert window(moved, x, y) == want, (x, y)
            changed += window(golden, x, y) != want
    j = diff(xfbtrace, db, 2, run_id(out))
    assert j["run_b"]["label"] == f"set-reg {VIEWPORT}"
    im, first = first_image(j, read)
    assert im["pixels_differ"] == changed > 0
    # The red triangle's first row starts at window x = 8 (its NDC corner
    # x = -0.75): that pixel now shows the clear colour.
    assert (first["x"], first["y"], first["a"], first["b"]) == (8, 8, list(RED), list(CLEAR))
    f = draw_fields(j, draw)["PA_CL_VPORT_XOFFSET_0"]
    assert (f["a"], f["b"]) == (0x42000000, 0x42200000)
    # The register database types it f32: printed as floats with their bits.
    assert (f["a_text"], f["b_text"]) == ("32.0f (0x42000000)", "40.0f (0x42200000)")
    # The text report names both too.
    text = run([xfbtrace, "diff", "--db", db, "--regs", "2", str(run_id(out))]).stdout
    assert f"pixels #0: {changed} of 4096 pixels differ" in text
    assert f"call {draw} glDrawArrays" in text and "PA_CL_VPORT_XOFFSET_0 32.0f (0x42000000)" \
        " -> 40.0f (0x42200000)" in text, text
    # So does the register state of the draw, f32 registers as floats
    # (0.0 included, which the untyped number format shows as "0").
    regs = run([xfbtrace, "regs", "--db", db, str(run_id(out)), str(draw)])
    assert regs.returncode == 0, describe(regs)
    for line in ("PA_CL_VPORT_XOFFSET_0 <- 40.0f (0x42200000)",
                 "PA_CL_VPORT_XSCALE_0 <- 32.0f (0x42000000)",
                 "PA_CL_VPORT_YSCALE_0 <- 32.0f (0x42000000)",
                 "PA_SC_VPORT_ZMIN_0 <- 0.0f (0x00000000)"):
        assert line in regs.stdout, regs.stdout


@pytest.mark.sim
def test_blend_factor_override_keeps_the_destination(xfbtrace, case):
    d, trace, db, draw, read = case
    out = replay(xfbtrace, trace, db, d / "blend", "--set-reg", BLEND)
    assert out.returncode == 1, describe(out)
    golden, blended = image(d / "blend", read, "golden"), image(d / "blend", read, "replay")
    assert all(p == CLEAR for row in blended for p in row)
    j = diff(xfbtrace, db, 2, run_id(out))
    im, first = first_image(j, read)
    assert im["pixels_differ"] == sum(p != CLEAR for row in golden for p in row) > 0
    assert (first["x"], first["y"], first["a"], first["b"]) == (8, 8, list(RED), list(CLEAR))
    fields = draw_fields(j, draw)
    assert fields["CB_BLEND0_CONTROL.ENABLE"]["b"] == 1
    assert fields["CB_BLEND0_CONTROL.COLOR_DESTBLEND"]["b_name"] == "BLEND_ONE"


@pytest.mark.sim
@pytest.mark.parametrize("spec,field", [
    ("CB_BLEND1_CONTROL=0x12345678", "CB_BLEND1_CONTROL.ALPHA_DESTBLEND"),
    ("PA_CL_VPORT_XSCALE_5=3.5", "PA_CL_VPORT_XSCALE_5"),
])
def test_override_of_an_unused_register_leaves_the_image(xfbtrace, case, spec, field):
    d, trace, db, draw, read = case
    out = replay(xfbtrace, trace, db, d / "unused", "--set-reg", spec)
    assert out.returncode == 0, describe(out)
    j = diff(xfbtrace, db, 2, run_id(out))
    assert j["summary"]["different"] == 0, j["observations"]
    assert field in draw_fields(j, draw)


@pytest.mark.sim
def test_call_range_limits_the_override(xfbtrace, case):
    d, trace, db, draw, read = case
    before = replay(xfbtrace, trace, db, d / "before", "--set-reg", f"{VIEWPORT}@-{draw - 1}")
    assert before.returncode == 0, describe(before)
    j = diff(xfbtrace, db, 2, run_id(before))
    assert j["summary"]["different"] == 0
    at = replay(xfbtrace, trace, db, d / "at", "--set-reg", f"{VIEWPORT}@{draw}")
    assert at.returncode == 1, describe(at)
    j = diff(xfbtrace, db, 2, run_id(at))
    assert first_image(j, read)[0]["pixels_differ"] > 0
    assert "PA_CL_VPORT_XOFFSET_0" in draw_fields(j, draw)


@pytest.mark.parametrize("args,message", [
    (["--backend", "sim", "--set-reg", "PA_CL_VPORT_XSCALE=1"],
     "unknown register 'PA_CL_VPORT_XSCALE' (did you mean PA_CL_VPORT_XSCALE_0"),
    (["--backend", "sim", "--set-reg", "CB_BLEND0_CONTROL.FOO=1"],
     "register CB_BLEND0_CONTROL has no field 'FOO' (its fields: COLOR_SRCBLEND"),
    (["--backend", "sim", "--set-reg", "CB_BLEND0_CONTROL.COLOR_SRCBLEND=32"],
     "CB_BLEND0_CONTROL.COLOR_SRCBLEND: 32 does not fit its 5 bits"),
    (["--backend", "sim", "--set-reg", "CB_BLEND0_CONTROL.COLOR_SRCBLEND=BLEND_NOPE"],
     "bad value 'BLEND_NOPE' (an integer or a value name of its enum)"),
    (["--backend", "sim", "--set-reg", "PA_CL_VPORT_XOFFSET_0=4x"], "bad value '4x'"),
    # the register database's type decides how a whole value reads
    (["--backend", "sim", "--set-reg", "PA_CL_VPORT_XOFFSET_0=40"],
     "PA_CL_VPORT_XOFFSET_0 holds a float: bad value '40'"),
    (["--backend", "sim", "--set-reg", "CB_BLEND0_CONTROL=1.5"],
     "CB_BLEND0_CONTROL holds an integer: bad value '1.5'"),
    (["--backend", "sim", "--set-reg", "PA_CL_VPORT_XOFFSET_0"], "expected REGISTER[.FIELD]=VALUE"),
    (["--backend", "sim", "--set-reg", "PA_CL_VPORT_XOFFSET_0=1.0@x"], "bad call range 'x'"),
    (["--set-reg", "PA_CL_VPORT_XOFFSET_0=1.0"], "give --backend sim"),
])
def test_bad_overrides_are_usage_errors(xfbtrace, case, args, message):
    _, trace, _, _, _ = case
    out = run([xfbtrace, "replay", "--no-db", *args, trace])
    assert out.returncode == 2, describe(out)
    assert message in out.stderr, out.stderr


@pytest.mark.sim
@pytest.mark.browser
def test_web_diff_shows_the_pixels_and_the_register(xfbtrace, case):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait
    d, trace, db, draw, read = case
    require_chromium()
    out = replay(xfbtrace, trace, db, d / "web", "--set-reg", VIEWPORT)
    b = run_id(out)
    proc = subprocess.Popen([str(xfbtrace), "web", "--db", str(db), "--port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    browser = headless_chromium(1000)
    try:
        url = "http://127.0.0.1:%s" % re.search(r":(\d+)/", proc.stdout.readline()).group(1)
        browser.get(f"{url}/diff/2/{b}?call={read}")
        wait = WebDriverWait(browser, 30)
        first = wait.until(lambda br: br.find_elements(By.ID, "firstpixel"))[0]
        assert "first differing pixel (8, 8): A 255 0 0 255, B 0 64 128 255" in first.text
        head = wait.until(lambda br: br.find_elements(By.ID, "drawregshead"))[0]
        assert head.text == f"register fields that differ at call {draw} glDrawArrays, " \
            "the draw that produced it (A → B):"
        rows = [[td.text for td in tr.find_elements(By.TAG_NAME, "td")]
                for tr in browser.find_elements(By.CSS_SELECTOR, "#drawfields tr.field")]
        assert rows == [["PA_CL_VPORT_XOFFSET_0", "32.0f (0x42000000)", "40.0f (0x42200000)"]], rows
        # Both inside the image section, the images below them.
        section = browser.find_element(By.CSS_SELECTOR, "section.imagediff")
        assert "PA_CL_VPORT_XOFFSET_0" in section.text and "pixels differ" in section.text
        assert len(section.find_elements(By.CSS_SELECTOR, "img.pixels")) == 3
    finally:
        browser.quit()
        proc.terminate()

"""Debian's Chromium running a WebGL2 TF page through ANGLE on the system GL
(Mesa llvmpipe), captured end to end, on EGL and on GLX.

The page (tests/apps/webgl/tf.html) checks its own TF read-back, draw and
queries and closes itself.  Chromium is a multi-process browser: only the
GPU process calls GL, so one `xfbtrace capture` of the browser writes one
trace, the GPU process's (`NAME.PID.xfbt`).  Each trace then goes through
`info`, host `replay --check` (exit 0, no replay-only GL error: ANGLE's
config-less context and 1x1 / page-sized pbuffers are replayed as
recorded), sim `replay --check` (every observation equal, the
compositor's images within two 8-bit units: the TF program's uniforms
come through glProgramUniform*), `--db` and `diff`.

- EGL: `--use-angle=gl-egl`, headless (ANGLE on Mesa's EGL device
  platform, GLES 3.2).
- GLX: `--use-angle=gl` under Xvfb (ANGLE on GLX, desktop GL 4.5 core,
  GLX pbuffers).

A fresh profile each run: with a used one, Chromium loads the TF program
from its disk cache as a program binary of the capturing driver, which the
sim cannot load (it reports that by name).
"""
import os
import pathlib
import re
import shutil

import pytest

from conftest import require, run

pytestmark = pytest.mark.browser

PAGE = pathlib.Path(__file__).resolve().parents[1] / "apps" / "webgl" / "tf.html"
SUMMARY = re.compile(r"^(\d+) observations, (\d+) match, (\d+) differ", re.M)

FLAGS = ["--headless=new", "--no-sandbox", "--use-gl=angle", "--ignore-gpu-blocklist",
         "--enable-logging=stderr", "--no-first-run", "--disable-gpu-program-cache"]
ANGLE = {"egl": "--use-angle=gl-egl", "glx": "--use-angle=gl"}


def chromium_argv(kind, profile, url):
    argv = [shutil.which("chromium") or "chromium", *FLAGS, ANGLE[kind],
            f"--user-data-dir={profile}", url]
    if kind == "glx":
        argv = ["xvfb-run", "-a", "-s", "-screen 0 1024x768x24", *argv]
    return argv


@pytest.fixture(scope="module", params=["egl", "glx"])
def captured(request, xfbtrace, tmp_path_factory):
    """(kind, trace, capture output) of the page under Chromium."""
    kind = request.param
    require(shutil.which("chromium"), "chromium (scripts/setup.sh installs it)")
    if kind == "glx":
        require(shutil.which("xvfb-run"), "xvfb-run (package xvfb)")
    d = tmp_path_factory.mktemp(f"chromium-{kind}")
    out = run([xfbtrace, "capture", "-o", d / "page.xfbt", "--",
               *chromium_argv(kind, d / "profile", PAGE.as_uri())], timeout=180)
    traces = sorted(d.glob("page*.xfbt"))
    assert out.returncode == 0, out.stderr[-3000:]
    assert len(traces) == 1, (traces, out.stderr[-3000:])
    return kind, traces[0], out


def test_page_passes_on_angle_over_llvmpipe(captured):
    kind, _, out = captured
    assert "PASS 3 checks" in out.stderr, out.stderr[-3000:]
    renderer = re.search(r"RENDERER (.*)", out.stderr)
    assert renderer, out.stderr[-3000:]
    # ANGLE on the system GL, not SwiftShader (Vulkan) or ANGLE's null backend.
    assert "ANGLE (" in renderer.group(1) and "llvmpipe" in renderer.group(1), renderer.group(1)
    assert "SwiftShader" not in renderer.group(1)
    want = "OpenGL ES 3.2" if kind == "egl" else "OpenGL 4.5"
    assert want in renderer.group(1), renderer.group(1)


def test_info_shows_the_gpu_process_and_its_tf(captured, xfbtrace):
    kind, trace, _ = captured
    out = run([xfbtrace, "info", trace])
    assert out.returncode == 0, out.stderr
    assert "--type=gpu-process" in out.stdout, out.stdout
    assert re.search(r"gl.renderer\s+llvmpipe", out.stdout), out.stdout
    # 8 steps: 8 TF buffer observations and 8 query results, then the
    # page's getBufferSubData (a mapping in ANGLE).
    assert re.search(r"^\s+8\s+tf_buffer", out.stdout, re.M), out.stdout
    assert re.search(r"^\s+8\s+query", out.stdout, re.M), out.stdout
    fn = "eglCreatePbufferSurface" if kind == "egl" else "glXCreatePbuffer"
    dump = run([xfbtrace, "dump", trace])
    assert fn in dump.stdout
    # The context is config-less on EGL (EGL_KHR_no_config_context) and
    # the surfaces' configs and sizes are recorded.
    if kind == "egl":
        assert re.search(r'event = "create".*config = 0x0,', dump.stdout), dump.stdout[:3000]
    assert re.search(r'event = "surface".*width = 1, height = 1', dump.stdout)
    assert re.search(r'event = "config".*red = 8', dump.stdout)


def test_host_replay_has_no_replay_only_error(captured, xfbtrace):
    _, trace, _ = captured
    out = run([xfbtrace, "replay", "--check", trace])
    text = out.stdout + out.stderr
    assert out.returncode == 0, text[-4000:]
    assert "raised by the replay only" not in text, text[-4000:]
    assert "not replayed" not in text, text[-4000:]
    m = SUMMARY.search(text)
    assert m and int(m.group(1)) >= 17 and m.group(1) == m.group(2), text[-2000:]


# What the sim may leave unreplayed in these traces, none of which can
# change what --check compares (TF buffers, query results, buffer reads,
# returned values, GL errors): limits and format queries it does not model
# (not compared) and the compositor's dual-source output binding (GLX),
# which its draws then do not use.  Its blits, texture copies and texture
# clears replay (driver/st/drv_gl_blit.c), and its fragment shaders
# compile (LOD-biased lookups, derivatives), so every glReadPixels is
# replayed and compared.  Anything else not replayed fails the test.
SIM_NOT_REPLAYED_OK = {
    "glGetIntegerv", "glGetInteger64v", "glGetIntegeri_v", "glGetFloatv",
    "glGetInternalformativ", "glGetShaderPrecisionFormat", "glGetProgramInterfaceiv",
    "glBindFragDataLocationIndexed",
}

# The compositor's pixels (read as GL_UNSIGNED_BYTE) pass through several
# 8-bit stages: its R8 glyph and blur-profile textures filtered, blended
# into its RGBA8 tiles, the tiles blended into the window.  GL computes
# each with no more than the destination's precision (GL 4.6 §17.3.6:
# blending "with a precision and dynamic range no lower than that used to
# represent destination components"; §8.14.2 leaves the filter's
# arithmetic to the implementation): llvmpipe rounds in 8-bit fixed point
# at each, the sim in float once, so pixels differ by up to one unit per
# stage, two seen.  Within that they are classified precision.
IMAGE_TOLERANCE = "max=2"
CLASSIFIED = re.compile(r"^classified, not counted as differences: (\d+) implementation-dependent, "
                        r"(\d+) precision, (\d+) undefined", re.M)


def test_sim_replay_matches_every_observation(captured, xfbtrace):
    _, trace, _ = captured
    out = run([xfbtrace, "replay", "--backend", "sim", "--check", "--image-tolerance", IMAGE_TOLERANCE,
               trace])
    text = out.stdout + out.stderr
    assert out.returncode == 0, text[-4000:]
    assert "raised by the replay only" not in text, text[-4000:]
    m = SUMMARY.search(text)
    # Every image the compositor drew is drawn and compared (none counted
    # as not drawn): equal, or within the tolerance (precision).
    assert not re.search(r"\d+ images not drawn by the replay", text), text[-4000:]
    assert not re.search(r"^call \d+ glReadPixels: not replayed", text, re.M), text[-4000:]
    cls = CLASSIFIED.search(text)
    precision = int(cls.group(2)) if cls else 0
    assert m and int(m.group(1)) >= 17 and int(m.group(1)) == int(m.group(2)) + precision, text[-4000:]
    # The TF program's uniforms are set with glProgramUniform*, the
    # compositor's state with stencil, sampler, depth-range calls.
    line = re.search(r"^not replayed: .*", text, re.M)
    names = set(re.findall(r"(\w+) \(first call", line.group(0))) if line else set()
    assert names <= SIM_NOT_REPLAYED_OK, (names - SIM_NOT_REPLAYED_OK, text[-3000:])


def test_db_and_diff(captured, xfbtrace, tmp_path):
    _, trace, _ = captured
    db = tmp_path / "r.db"
    assert run([xfbtrace, "replay", "--db", db, trace]).returncode == 0
    run([xfbtrace, "replay", "--backend", "sim", "--db", db, trace])
    runs = run([xfbtrace, "runs", "--db", db])
    assert re.search(r"^1\*\s.*capture", runs.stdout, re.M), runs.stdout
    assert re.search(r"^3\s.*sim", runs.stdout, re.M), runs.stdout
    for other in ("2", "3"):
        # the sim's images within the compositor's 8-bit stages (above)
        d = run([xfbtrace, "diff", "--db", db, "--image-tolerance", IMAGE_TOLERANCE, "1", other])
        assert d.returncode == 0, d.stdout + d.stderr
        assert re.search(r"SAME: 0 of (\d+) observations differ", d.stdout), d.stdout


def test_glx_plain_window_is_replayed_at_its_size(xfbtrace, tmp_path):
    """What ANGLE does not do but GLX programs do (glxgears, Godot): render
    into a plain X window made current with glXMakeCurrent.  Its size is
    recorded at the first make-current (XGetGeometry) and the replay's
    pbuffer for it has that size, not a default one."""
    require(shutil.which("glxgears"), "glxgears (package mesa-utils)")
    require(shutil.which("xvfb-run"), "xvfb-run (package xvfb)")
    trace = tmp_path / "gears.xfbt"
    run(["xvfb-run", "-a", "-s", "-screen 0 640x480x24", "timeout", "-s", "TERM", "2",
         xfbtrace, "capture", "-o", trace, "--", "glxgears"], timeout=60)
    assert trace.exists()
    dump = run([xfbtrace, "dump", trace])
    assert re.search(r'event = "surface", surface = 0x[0-9a-f]+, config = 0x0, '
                     r'width = 300, height = 300', dump.stdout), dump.stdout[:3000]
    out = run([xfbtrace, "replay", "--check", trace],
              env=dict(os.environ, XFBTRACE_LOG="info"))
    text = out.stdout + out.stderr
    assert out.returncode == 0, text[-3000:]
    assert "is not in the trace" not in text, text[-3000:]

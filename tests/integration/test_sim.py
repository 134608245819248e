"""`xfbtrace replay --backend sim`: traces captured on Mesa llvmpipe,
replayed on the driver model (driver/) running on the simulated GPU
(gpu_model/), with --check comparing every observation and returned value
with the golden data; the per-call artefacts (PM4, register state,
shaders) and `xfbtrace regs`; determinism.

The apps that use no geometry shader must replay with everything equal.
The piglit list is tracked in docs/status.md (coverage, with the reason
for each line that does not replay equal); the lines known to pass are in
sim_piglit_pass.txt next to this file, and each is captured on llvmpipe and
replayed on the sim here, so that a regression fails.
"""
import filecmp
import os
import pathlib
import re
import struct

import pytest

from conftest import coverage_rules, describe, piglit_line, run
from tracefile import blob_bytes, observations, records

APPS = ["tf-particles-gles3", "tf-separate-gl33", "tf-ubo-blocks-gl33", "tf-draw-paths-gl43", "tf-ubo-layout-gl42"]
SUMMARY = re.compile(r"^(\d+) observations, (\d+) match, (\d+) differ", re.M)
RETURNS = re.compile(r"^returned values: (\d+) compared, (\d+) differ", re.M)


def app_path(build_dir, name):
    path = build_dir / "tests" / "apps" / name
    assert path.exists(), f"{path} was not built"
    return path


# The image tolerance of the piglit lines on the sim: scripts/sim_coverage.py's.
IMAGE_TOLERANCE = coverage_rules().IMAGE_TOLERANCE


def sim(xfbtrace, trace, *args, artifacts=None):
    env = dict(os.environ)
    if artifacts:
        env["XFBTRACE_SIM_ARTIFACTS"] = str(artifacts)
    return run([xfbtrace, "replay", "--backend", "sim", *args, trace], env=env, timeout=600)


@pytest.fixture(scope="module")
def app_traces(xfbtrace, build_dir, tmp_path_factory):
    d = tmp_path_factory.mktemp("sim-apps")
    traces = {}
    for app in APPS:
        traces[app] = d / f"{app}.xfbt"
        run([xfbtrace, "capture", "-o", traces[app], "--", app_path(build_dir, app)])
        assert traces[app].exists()
    return traces


@pytest.mark.parametrize("app", APPS)
def test_app_replays_on_sim_with_every_observation_and_return_equal(xfbtrace, app_traces, app):
    # Each program draws its TF output and reads the pixels back (issue 22):
    # the image is golden data that the sim's pixels must equal.
    assert observations(records(xfbtrace, app_traces[app]), "pixels"), \
        f"{app} read back no image"
    out = sim(xfbtrace, app_traces[app], "--check")
    assert out.returncode == 0, describe(out)
    total, match, differ = (int(x) for x in SUMMARY.search(out.stdout).groups())
    assert total > 0 and match == total and differ == 0, describe(out)
    compared, rdiffer = (int(x) for x in RETURNS.search(out.stdout).groups())
    assert compared > 0 and rdiffer == 0, describe(out)
    assert "not replayed" not in out.stdout, describe(out)
    assert "raised by the replay only" not in out.stdout, describe(out)


def test_sim_artifacts_are_deterministic(xfbtrace, app_traces, tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    for d in (a, b):
        out = sim(xfbtrace, app_traces["tf-separate-gl33"], artifacts=d)
        assert out.returncode == 0, describe(out)
    cmp = filecmp.dircmp(a, b)
    assert not cmp.left_only and not cmp.right_only and not cmp.diff_files
    for sub in ("pm4", "regs", "shaders"):
        sc = filecmp.dircmp(a / sub, b / sub)
        names = sc.common_files
        assert names, f"no {sub} artefacts"
        _, mismatch, errors = filecmp.cmpfiles(a / sub, b / sub, names, shallow=False)
        assert not mismatch and not errors, (sub, mismatch, errors)


def call_of(artifacts, function, nth=0):
    rows = [l.split("\t") for l in (artifacts / "calls.tsv").read_text().splitlines()[1:]]
    hits = [r for r in rows if r[1] == function]
    assert len(hits) > nth, f"no {function} in calls.tsv"
    return hits[nth][0]


def test_begin_pause_drawtf_read_like_radeonsi(xfbtrace, app_traces, tmp_path):
    art = tmp_path / "art"
    assert sim(xfbtrace, app_traces["tf-separate-gl33"], artifacts=art).returncode == 0
    begin = run([xfbtrace, "regs", "--pm4", art, call_of(art, "glBeginTransformFeedback")]).stdout
    # docs/gcn-streamout.md §6.1 flush, §6.2 begin, §6.3 enable, in this order
    order = [begin.index(s) for s in ("CP_STRMOUT_CNTL <- OFFSET_UPDATE_DONE = 0",
                                      "EVENT_TYPE = SO_VGTSTREAMOUT_FLUSH", "WAIT_REG_MEM",
                                      "VGT_STRMOUT_BUFFER_SIZE_0", "STRMOUT_BUFFER_UPDATE",
                                      "OFFSET_SOURCE = STRMOUT_OFFSET_FROM_PACKET",
                                      "VGT_STRMOUT_CONFIG <- STREAMOUT_0_EN = 1")]
    assert order == sorted(order), begin
    pause = run([xfbtrace, "regs", "--pm4", art, call_of(art, "glPauseTransformFeedback")]).stdout
    assert "STORE_BUFFER_FILLED_SIZE = 1" in pause and "STRMOUT_OFFSET_NONE" in pause, pause
    resume = run([xfbtrace, "regs", "--pm4", art, call_of(art, "glResumeTransformFeedback")]).stdout
    assert "STRMOUT_OFFSET_FROM_MEM" in resume, resume
    drawtf = run([xfbtrace, "regs", "--pm4", art, call_of(art, "glDrawTransformFeedback")]).stdout
    assert "VGT_STRMOUT_DRAW_OPAQUE_VERTEX_STRIDE" in drawtf and "COPY_DATA" in drawtf, drawtf
    assert "USE_OPAQUE = 1" in drawtf, drawtf


def test_regs_without_artifacts_for_the_call_exits_1(xfbtrace, app_traces, tmp_path):
    art = tmp_path / "art"
    assert sim(xfbtrace, app_traces["tf-separate-gl33"], artifacts=art).returncode == 0
    assert run([xfbtrace, "regs", art, "0"]).returncode == 1


# ---- piglit lines listed as passing in docs/status.md ------------------------------

PASS_LIST = pathlib.Path(__file__).with_name("sim_piglit_pass.txt")
PIGLIT_PASS = [l.strip() for l in PASS_LIST.read_text().splitlines()
               if l.strip() and not l.startswith("#")]


def test_coverage_rule_rejects_calls_not_replayed_that_matter():
    rules = coverage_rules()

    class Out:
        returncode = 0
        stderr = ""
        stdout = ("call 12 glReadPixels: not replayed: reading pixels\n"
                  "call 40 glDrawArrays: not replayed: drawing with a geometry shader\n"
                  "returned values: 3 compared, 0 differ, 9 not compared\n"
                  "2 observations, 2 match, 0 differ\n")
    assert rules.blocking(Out) == ["call 40 glDrawArrays: not replayed: drawing with a geometry shader"]
    Out.stdout = Out.stdout.replace("call 40 glDrawArrays", "call 40 glReadPixels")
    assert rules.blocking(Out) == []


@pytest.mark.piglit
@pytest.mark.sim
@pytest.mark.parametrize("line", PIGLIT_PASS)
def test_piglit_line_replays_on_sim_with_everything_equal(xfbtrace, piglit_trace, line):
    out = sim(xfbtrace, piglit_trace(piglit_line(line)).trace, "--check",
              "--image-tolerance", IMAGE_TOLERANCE, "--max-diffs", "100000")
    assert out.returncode == 0, describe(out)
    assert not coverage_rules().blocking(out), describe(out)
    differ = int(SUMMARY.search(out.stdout).group(3))
    # Every observation matches or is accounted for: images not drawn, within
    # the tolerance, or explained by line rasterization (the script's rule).
    assert coverage_rules().unaccounted(out) == 0 and differ == 0, describe(out)
    compared, rdiffer = (int(x) for x in RETURNS.search(out.stdout).groups())
    assert rdiffer == 0, describe(out)


GET_STATE = re.compile(r"^\d+ glGet(Integer|Integer64|Boolean|Float|Double)(i_)?v\("
                       r"(pname|target) = (GL_\w+)", re.M)


@pytest.mark.parametrize("backend", ["host", "sim"])
def test_glget_state_values_are_compared_and_limits_listed_apart(xfbtrace, piglit_trace,
                                                                 backend):
    """glGet* values that follow from the application's calls (bindings,
    mapped back to the application's names) are compared; limits are not."""
    trace = piglit_trace(piglit_line(
        "ext_transform_feedback-get-buffer-state main_binding -auto -fbo")).trace
    dump = run([xfbtrace, "dump", trace]).stdout
    state = [m.group(4) for m in GET_STATE.finditer(dump)
             if not re.match(r"GL_(MAX|MIN|NUM)_", m.group(4))]
    assert "GL_TRANSFORM_FEEDBACK_BUFFER_BINDING" in state, dump[-3000:]
    out = sim(xfbtrace, trace, "--check") if backend == "sim" else \
        run([xfbtrace, "replay", "--check", trace], timeout=600)
    assert out.returncode == 0, describe(out)
    compared, rdiffer = (int(x) for x in RETURNS.search(out.stdout).groups())
    assert compared >= len(state) and rdiffer == 0, (state, describe(out))


# ---- differences that width-1 lines explain (GL 4.6 §14.5.1) ---------------------------

LINE_LOOP = "ext_transform_feedback-tessellation line_loop flat_first -auto -fbo"


def perturbed_line_loop(xfbtrace, build_dir, piglit_trace, tmp_path, pick):
    """The line_loop trace with one golden pixel of its first image changed:
    `pick(width, height, pixel)` chooses the pixel (x, y in the image)."""
    trace = piglit_trace(piglit_line(LINE_LOOP)).trace
    with_data = [o for o in observations(records(xfbtrace, trace)) if "data" in o]
    n = next(i for i, o in enumerate(with_data) if o["kind"] == "pixels")
    img = with_data[n]
    assert (img["format"], img["pixel_type"]) == ("GL_RGBA", "GL_FLOAT"), img
    data = blob_bytes(img["data"])
    w, h = img["width"], img["height"]
    x, y = pick(w, h, lambda x, y: struct.unpack_from("4f", data, (y * w + x) * 16))
    bad = tmp_path / "perturbed.xfbt"
    # the exponent byte of red: 0.0 becomes 0.5, 1.0 about 4e9, 0.85 about 2e9
    p = run([build_dir / "tests" / "replay" / "trace_perturb", trace, bad, str(n),
             str((y * w + x) * 16 + 3), "0x3f"])
    assert p.returncode == 0, describe(p)
    return bad, img["x"] + x, img["y"] + y


@pytest.mark.piglit
@pytest.mark.sim
@pytest.mark.parametrize("where", ["background", "inside a line"])
def test_a_pixel_width_1_lines_do_not_explain_stays_a_difference(xfbtrace, build_dir, piglit_trace,
                                                                 tmp_path, where):
    """line_loop flat_first: the 2 end pixels per image where llvmpipe and the
    sim's parallelogram differ are classified implementation-dependent; a
    golden pixel changed far from every line, or on a line's own pixel
    inside a segment (a colour difference, no rasterization difference),
    is a difference of that image."""
    def pick(w, h, pixel):
        row = h // 2
        lit = [x for x in range(w) if pixel(x, row)[:3] != (0.0, 0.0, 0.0)]
        assert lit, "no line crosses the middle row"
        return (w - 8 if where == "background" else lit[0]), row
    bad, x, y = perturbed_line_loop(xfbtrace, build_dir, piglit_trace, tmp_path, pick)
    out = sim(xfbtrace, bad, "--check", "--image-tolerance", IMAGE_TOLERANCE)
    assert out.returncode == 1, describe(out)
    assert re.search(r"^call \d+ glReadPixels: pixels 256x64 at \(0, 192\): \d+ of 16384 pixels "
                     r"differ \(3 beyond the image tolerance\)", out.stdout, re.M), describe(out)
    # the other images of the trace are still classified
    assert re.search(r"implementation-dependent: pixels 256x64 .*§14\.5\.1", out.stdout), describe(out)

"""apitrace traces read by xfbtrace (issue 11): import, info, replay, hostile files.

Each piglit TF test is traced by real apitrace (`apitrace trace --api egl`;
for desktop GL with the test-only shim that forwards glXGetProcAddressARB
to eglGetProcAddress, as in test_capture_vs_apitrace.py) and captured by
`xfbtrace capture`.  `xfbtrace import-apitrace` translates the apitrace
trace and replays it once on the host backend as its reference run; the
observations of that run must equal our own capture's golden ones (call
numbers aside: apitrace numbers calls differently), and a later replay
on the host and on the sim must check equal against them.
"""
import json

import pytest

from conftest import (EGLTRACE, PIGLIT_DIR, piglit_command, piglit_env, piglit_line, piglit_result,
                      require_apitrace, run)
from tracefile import observations, records

pytestmark = pytest.mark.apitrace

GLES = [
    "ext_transform_feedback-structs_gles3 basic-struct run -auto -fbo",
    "arb_transform_feedback2-change-objects-while-paused_gles3 -auto -fbo",
]
DESKTOP = [
    "ext_transform_feedback-interleaved -auto -fbo",
    pytest.param("ext_transform_feedback-order arrays points -auto -fbo", marks=pytest.mark.xfail(
        strict=True, reason="apitrace 11.1 records the integer user array of "
        "glVertexAttribIPointer as a fake glVertexAttribPointer call: the trace itself "
        "feeds the shader floats")),
    "arb_transform_feedback2-draw-auto -auto -fbo",
]
# Lines docs/status.md lists as replaying equal on the sim.
SIM = [GLES[0], DESKTOP[0]]


def apitrace_capture(build_dir, tmp_path, line):
    require_apitrace()
    out = tmp_path / "a.trace"
    argv = piglit_command(line)
    if any(m in line for m in ("gles", "_gles3")):
        res = run(["apitrace", "trace", "--api", "egl", "-o", out, *argv], env=piglit_env(),
                  cwd=PIGLIT_DIR, timeout=600)
    else:
        shim = build_dir / "tests" / "shims" / "libglx_to_egl.so"
        env = dict(piglit_env(), LD_PRELOAD=f"{EGLTRACE} {shim}", TRACE_FILE=str(out))
        res = run(argv, env=env, cwd=PIGLIT_DIR, timeout=600)
    assert piglit_result(res.stdout) == "pass", res.stderr[-2000:]
    return out


def our_capture(piglit_trace, line):
    cap = piglit_trace(piglit_line(line))
    assert cap.result == "pass", cap.describe()
    return cap.trace


def observation_list(xfbtrace, path):
    """Observations in order, without the call numbers they are attached to."""
    obs = observations(records(xfbtrace, path))
    for o in obs:
        for k in ("no", "call", "seq"):
            o.pop(k, None)
    return [json.dumps(o, sort_keys=True) for o in obs]


def import_trace(xfbtrace, src, dst):
    res = run([xfbtrace, "import-apitrace", src, "-o", dst], timeout=600)
    assert res.returncode == 0, res.stdout + res.stderr
    return res.stdout


@pytest.mark.parametrize("line", GLES + DESKTOP)
def test_imported_trace_replays_with_our_captures_observations(xfbtrace, build_dir, piglit_trace,
                                                               tmp_path, line):
    atrace = apitrace_capture(build_dir, tmp_path, line)
    ours = our_capture(piglit_trace, line)
    imported = tmp_path / "i.xfbt"
    report = import_trace(xfbtrace, atrace, imported)
    assert "reference run:" in report

    golden = observation_list(xfbtrace, ours)
    reference = observation_list(xfbtrace, imported)
    assert golden, "our capture made no observations"
    assert len(reference) == len(golden), report
    for i, (a, b) in enumerate(zip(golden, reference)):
        assert a == b, f"observation {i} differs:\ncapture: {a[:800]}\nimport:  {b[:800]}"

    res = run([xfbtrace, "replay", "--backend", "host", "--check", imported], timeout=600)
    assert res.returncode == 0, res.stdout + res.stderr
    assert f"{len(golden)} observations, {len(golden)} match, 0 differ" in res.stdout


@pytest.mark.parametrize("line", SIM)
def test_imported_trace_replays_on_the_sim(xfbtrace, build_dir, tmp_path, line):
    atrace = apitrace_capture(build_dir, tmp_path, line)
    imported = tmp_path / "i.xfbt"
    import_trace(xfbtrace, atrace, imported)
    res = run([xfbtrace, "replay", "--backend", "sim", "--check", imported], timeout=600)
    assert res.returncode == 0, res.stdout + res.stderr
    assert " 0 differ" in res.stdout


def test_info_and_dump_read_apitrace_traces_directly(xfbtrace, build_dir, tmp_path):
    atrace = apitrace_capture(build_dir, tmp_path, GLES[0])
    res = run([xfbtrace, "info", atrace])
    assert res.returncode == 0, res.stderr
    assert "source         apitrace" in res.stdout
    assert "golden:        none" in res.stdout
    dump = run([xfbtrace, "dump", atrace])
    assert dump.returncode == 0, dump.stderr
    assert "glBeginTransformFeedback(primitiveMode = GL_TRIANGLES)" in dump.stdout
    assert '# context {event = "create"' in dump.stdout


def test_hostile_apitrace_files_give_a_clear_error(xfbtrace_san, build_dir, tmp_path):
    atrace = apitrace_capture(build_dir, tmp_path, GLES[0])
    data = atrace.read_bytes()
    cases = {
        "truncated.trace": data[: len(data) // 2],
        "header-only.trace": data[:6],
        "bad-chunk-length.trace": data[:4] + bytes([data[4] ^ 0x40]) + data[5:],
        "bad-snappy-header.trace": data[:6] + b"\xff\xff\xff\xff\x0f" + data[11:],
        "garbage.trace": b"at" + bytes(range(256)) * 4,
        "empty.trace": b"",
    }
    for name, content in cases.items():
        path = tmp_path / name
        path.write_bytes(content)
        res = run([xfbtrace_san, "import-apitrace", "--no-reference", path,
                   "-o", tmp_path / (name + ".xfbt")])
        assert res.returncode == 2, (name, res.stdout, res.stderr)
        assert "ERROR: AddressSanitizer" not in res.stderr and "runtime error" not in res.stderr
        assert "xfbtrace import-apitrace:" in res.stderr, (name, res.stderr)
        assert not (tmp_path / (name + ".xfbt")).exists()

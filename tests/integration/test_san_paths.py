"""The sanitizer build over the paths where UBSan reported "null pointer
passed as argument" (issue 24): `regs` / `pm4 call` of a frame-end call
(no PM4, no registers), `diff` of a run with itself (nothing to print), and
the web API's diff of a run with itself.  The runs are real sim replays of
a sample program that swaps buffers (tf-particles-gles3); the ASan + UBSan
`xfbtrace` (build-san/) must answer each without a sanitizer report.
"""
import os
import re
import subprocess
import urllib.request

import pytest

from conftest import run

SAN_ENV = dict(os.environ, ASAN_OPTIONS="detect_leaks=1:abort_on_error=0",
               UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=0")


def clean(out):
    assert "runtime error" not in out.stderr and "Sanitizer" not in out.stderr, out.stderr[-3000:]


@pytest.fixture(scope="module")
def sim_db(xfbtrace, build_dir, tmp_path_factory):
    d = tmp_path_factory.mktemp("san")
    trace, db = d / "particles.xfbt", d / "r.db"
    app = build_dir / "tests" / "apps" / "tf-particles-gles3"
    assert run([xfbtrace, "capture", "-o", trace, "--", app]).returncode == 0
    for _ in range(2):
        out = run([xfbtrace, "replay", "--backend", "sim", "--db", db, trace])
        assert out.returncode == 0, out.stderr
    swaps = [int(l.split()[0]) for l in run([xfbtrace, "dump", trace]).stdout.splitlines()
             if " eglSwapBuffers(" in l]
    assert swaps
    return db, swaps[0]


def test_regs_and_pm4_call_of_a_frame_end_call(xfbtrace_san, sim_db):
    db, swap = sim_db
    for argv in (["regs", "--db", db, "2", swap], ["regs", "--pm4", "--changed", "--db", db, "2", swap],
                 ["pm4", "call", "--db", db, "2", swap]):
        out = run([xfbtrace_san, *argv], env=SAN_ENV)
        clean(out)
        assert out.returncode == 0, (argv, out.stderr)


def test_diff_of_a_run_with_itself(xfbtrace_san, sim_db):
    db, _ = sim_db
    for extra in ([], ["--json"], ["--regs", "--pm4", "--shaders"],
                  ["--json", "--regs", "--pm4", "--shaders"]):
        for a, b in (("1", "1"), ("2", "2"), ("2", "3")):
            out = run([xfbtrace_san, "diff", "--db", db, *extra, a, b], env=SAN_ENV)
            clean(out)
            assert out.returncode == 0, (extra, a, b, out.stderr)


def test_web_diff_of_a_run_with_itself(xfbtrace_san, sim_db):
    db, swap = sim_db
    proc = subprocess.Popen([str(xfbtrace_san), "web", "--db", str(db), "--port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=SAN_ENV)
    try:
        port = int(re.search(r":(\d+)/", proc.stdout.readline()).group(1))
        for path in ("/api/diff/1/1", "/api/diff/2/2", "/api/diff/2/3", f"/api/diff/2/2/calls/{swap}",
                     f"/api/runs/2/calls/{swap}", "/api/runs/1"):
            with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=30) as r:
                assert r.status == 200
    finally:
        proc.terminate()
        _, err = proc.communicate(timeout=30)
    assert "runtime error" not in err and "Sanitizer" not in err, err[-3000:]


def test_sim_dump_state_and_dump_of_query_targets(xfbtrace, xfbtrace_san, build_dir, tmp_path):
    """The paths added for issue 24's second round under ASan / UBSan (leaks
    too: the sim backend loads no system driver): the live state at a call
    (replay_state.c, cli_state_live.c), both formats, and dump naming query
    targets (trace_query.c)."""
    trace = tmp_path / "streams.xfbt"
    app = build_dir / "tests" / "apps" / "tf-streams-gl40"
    assert run([xfbtrace, "capture", "-o", trace, "--", app]).returncode == 0
    draw = next(int(l.split()[0]) for l in run([xfbtrace, "dump", trace]).stdout.splitlines()
                if " glDraw" in l)
    for fmt in ("text", "json"):
        out = run([xfbtrace_san, "replay", "--backend", "sim", "--dump-state", str(draw),
                   "--format", fmt, trace], env=SAN_ENV)
        clean(out)
        assert out.returncode == 0 and "GL_PRIMITIVES_GENERATED" in out.stdout, out.stderr[-2000:]
    out = run([xfbtrace_san, "dump", "--format", "jsonl", trace], env=SAN_ENV)
    clean(out)
    assert out.returncode == 0 and '"stream":1' in out.stdout

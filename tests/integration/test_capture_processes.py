"""One `xfbtrace capture`, many processes: every process that makes GL calls
gets a trace of its own (FILE for the program started, FILE's
stem.<pid>.xfbt for the others), also across exec with a cleared
environment, and the capture's exit status says when a trace was lost.

The launcher is tests/capture/cap_launch.c; the GL program it starts is the
sample app tf-particles-gles3 (241 calls, 16 observations, 5 of them TF buffers, per run).
"""
import os
import signal
import subprocess
import time

import pytest

from conftest import run
from tracefile import calls, observations, records

APP = "tf-particles-gles3"


def launcher(build_dir):
    path = build_dir / "tests" / "capture" / "cap-launch"
    assert path.exists(), f"{path} was not built"
    return path


def app(build_dir):
    path = build_dir / "tests" / "apps" / APP
    assert path.exists(), f"{path} was not built"
    return path


def props(recs):
    return {r["key"]: r["value"] for r in recs if r["type"] == "property"}


@pytest.mark.parametrize("mode,runs", [("sequential", 2), ("parallel", 2), ("detach", 1),
                                       ("unset", 1), ("execle", 1)])
def test_every_launched_program_gets_its_own_trace(xfbtrace, build_dir, tmp_path, mode, runs):
    trace = tmp_path / "launch.xfbt"
    out = run([xfbtrace, "capture", "-o", trace, "--", launcher(build_dir), mode, app(build_dir)])
    assert out.returncode == 0, out.stderr
    # the launcher makes no GL call: no FILE, one stem.<pid>.xfbt per run
    assert not trace.exists()
    traces = sorted(tmp_path.glob("launch.*.xfbt"))
    assert len(traces) == runs, out.stderr
    pids = set()
    for t in traces:
        recs = records(xfbtrace, t)
        p = props(recs)
        assert p["program"].endswith("/" + APP)
        assert t.name == f"launch.{p['pid']}.xfbt"
        assert len(calls(recs)) == 241 and len(observations(recs, "tf_buffer")) == 5
        assert f"wrote {t} ({APP}, pid {p['pid']})" in out.stderr
        pids.add(p["pid"])
    assert len(pids) == runs
    if runs > 1:
        assert f"{runs} traces written" in out.stderr


def test_interrupt_stops_waiting_for_a_lingering_process(xfbtrace, build_dir, tmp_path):
    """A process the program left running (cap-launch linger: GL calls,
    then a minute's sleep) keeps `xfbtrace capture` waiting; ^C stops the
    wait, and its trace is summarized as it is, left in spool form for the
    process that still writes it, instead of compacted under it."""
    trace = tmp_path / "linger.xfbt"
    log = tmp_path / "stderr.txt"   # a file: the lingering process holds it open
    with open(log, "w") as err_file:
        cli = subprocess.Popen([xfbtrace, "capture", "-o", trace, "--",
                                launcher(build_dir), "linger", app(build_dir)],
                               stdout=subprocess.DEVNULL, stderr=err_file)
    try:
        deadline = time.monotonic() + 30
        while "waiting for the processes" not in log.read_text():
            assert time.monotonic() < deadline and cli.poll() is None, log.read_text()
            time.sleep(0.05)
        cli.send_signal(signal.SIGINT)
        assert cli.wait(timeout=30) == 0, log.read_text()
    finally:
        cli.kill()
    err = log.read_text()
    [spool] = tmp_path.glob("linger.*.xfbt")
    pid = int(props(records(xfbtrace, spool))["pid"])
    try:
        assert "stopped waiting" in err
        assert f"still running, so far {spool} (cap-launch, pid {pid})" in err
        assert os.path.exists(f"/proc/{pid}")       # it was not waited for
    finally:
        os.kill(pid, signal.SIGKILL)


def test_exec_with_a_cleared_environment_is_still_captured(xfbtrace, build_dir, tmp_path):
    """cap-launch makes GL calls, then execve()s the app in the same process
    with PATH as its only variable: the app's calls go to stem.<pid>.xfbt
    (FILE holds the launcher's), and the app replays and checks equal."""
    trace = tmp_path / "exec.xfbt"
    out = run([xfbtrace, "capture", "-o", trace, "--",
               launcher(build_dir), "exec-clean", app(build_dir)])
    assert out.returncode == 0, out.stderr
    first = props(records(xfbtrace, trace))
    assert first["program"].endswith("/cap-launch")
    second = tmp_path / f"exec.{first['pid']}.xfbt"
    assert second.exists(), out.stderr
    recs = records(xfbtrace, second)
    assert props(recs)["program"].endswith("/" + APP)
    assert len(observations(recs, "tf_buffer")) == 5
    check = run([xfbtrace, "replay", "--check", second])
    assert check.returncode == 0, check.stdout + check.stderr


def test_a_lost_trace_fails_the_capture_and_names_the_process(xfbtrace, build_dir, tmp_path):
    """The app's trace cannot grow (a 64 KiB file size limit, as on a full
    disk): its capture stops, the app still succeeds, and `xfbtrace
    capture` exits 2 naming the process and the file."""
    trace = tmp_path / "full.xfbt"
    out = run([xfbtrace, "capture", "-o", trace, "--",
               launcher(build_dir), "fsize", "65536", app(build_dir)])
    assert out.returncode == 2, out.stderr
    assert f"the trace of {APP} (pid " in out.stderr
    assert f"{trace}, is incomplete: capture stopped: the trace cannot grow" in out.stderr
    assert "no trace holds a GL call" in out.stderr

"""bench/tf-heavy's frame loop and its --copies modes (docs/performance.md,
"Asynchronous observations"), on llvmpipe.

The modes that copy each frame's TF output into the persistently mapped
ring (--copies=ring on the frame's context; thread, thread-serial on a
second context of the share group, current on a thread of its own, fenced
both ways) end by comparing the ring's slot of the last frame with that
frame's TF buffers (glGetBufferSubData) and exit 1 when they differ: a
copier that copies the wrong buffer, or before the frame's passes have
written it, fails here.  thread-spare copies a buffer no frame writes, so
only its exit status and its timing lines are checked.  --copies=gather
makes the ring copies with compute dispatches (K TF buffers as storage
blocks per dispatch): run with K = 3 and more systems than a multiple of
it, and at the context's own K, so that every source slot and a short last
dispatch are checked against the TF output.
"""
import re

import pytest

from conftest import describe, run

ARGS = ["--frames", "12", "--systems", "8", "--particles", "64"]


@pytest.mark.parametrize("mode", ["ring", "gather", "thread", "thread-serial", "thread-spare"])
def test_copies_reach_the_ring(build_dir, mode):
    res = run([build_dir / "bench" / "tf-heavy", *ARGS, f"--copies={mode}"])
    assert res.returncode == 0, describe(res)
    assert re.search(r"^frame-ns \d+$", res.stdout, re.M), describe(res)
    if mode.startswith("thread"):
        assert re.search(r"^copier: ns per frame in glWaitSync \d+, first copy \d+, "
                         r"other copies \d+, fence and flush \d+$", res.stdout, re.M), describe(res)


@pytest.mark.parametrize("sources", [3, 16])
def test_gather_dispatches_reach_the_ring(build_dir, sources):
    res = run([build_dir / "bench" / "tf-heavy", "--frames", "12", "--systems", "20",
               "--particles", "100", "--copies=gather", "--gather-sources", str(sources)])
    assert res.returncode == 0, describe(res)
    m = re.search(r"^gather: (\d+) dispatches per frame, up to (\d+) sources each$",
                  res.stdout, re.M)
    assert m, describe(res)
    k = int(m.group(2))
    assert 1 <= k <= sources and int(m.group(1)) == -(-20 // k), describe(res)


def test_unknown_copies_mode_is_a_usage_error(build_dir):
    res = run([build_dir / "bench" / "tf-heavy", *ARGS, "--copies=elsewhere"])
    assert res.returncode == 2
    assert "usage: tf-heavy" in res.stderr

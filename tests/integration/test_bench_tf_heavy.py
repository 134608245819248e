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
dispatch are checked against the TF output.  --gles runs the plain loop in
a GLES context.  Also tests/capture/cap-bench's "keep" cases, the same
measurement made per TF end (each way checked against the TF output).
"""
import os
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


def test_gles_frame_loop_runs_in_a_gles_context(build_dir):
    """--gles: the plain frame loop in a GLES 3.2 context (bench/async_observe.py
    --gles measures the asynchronous read-back there); with a --copies mode
    it is a usage error."""
    res = run([build_dir / "bench" / "tf-heavy", *ARGS, "--gles"])
    assert res.returncode == 0, describe(res)
    assert re.search(r"^frame-ns \d+$", res.stdout, re.M), describe(res)
    assert re.search(r"^renderer: .*; OpenGL ES 3\.[2-9]", res.stdout, re.M), describe(res)
    res = run([build_dir / "bench" / "tf-heavy", *ARGS, "--gles", "--copies=ring"])
    assert res.returncode == 2 and "--gles runs the plain frame loop only" in res.stderr, \
        describe(res)


@pytest.mark.parametrize("api", ["gles", "gl"])
def test_cap_bench_keep_ways_copy_the_tf_range(build_dir, api):
    """cap-bench keep (docs/performance.md, "One TF range per TF end"): each
    way of keeping a TF range per TF end ends by comparing the ring's last
    slot with the TF output and says so on stderr when they differ or a GL
    error was raised; every way runs in a GLES 3.2 and a GL 4.5 context
    (glCopyNamedBufferSubData in GL only)."""
    env = dict(os.environ, CAP_BENCH_TRIALS="1")
    if api == "gl":
        env["CAP_BENCH_API"] = "gl"
    res = run([build_dir / "tests" / "capture" / "cap-bench", "1", "keep"], env=env)
    assert res.returncode == 0, describe(res)
    assert "differs" not in res.stderr and "GL error" not in res.stderr, describe(res)
    ways = set(re.findall(r"^keep:stream-read:(\S+) [\d.]+$", res.stdout, re.M))
    want = {"plain", "copy", "copy2", "copy4", "gather", "gather-saved", "vs-copy", "vs-bound",
            "vs-app-vao",
            "vs-bare", "vs-attrib", "vs-spare", "vs-write-only", "vs-read-only", "use-program",
            "dispatch-empty", "draw-empty"} | ({"copy-named"} if api == "gl" else set())
    # vs-image needs image uniforms in vertex shaders, which llvmpipe lacks.
    assert want <= ways <= want | {"vs-image"}, describe(res)


@pytest.mark.parametrize("api", ["gles", "gl"])
def test_cap_bench_keep_usages_copy_the_tf_range(build_dir, api):
    """cap-bench keep-usages (docs/performance.md, "Copy calls or the gather
    dispatch"): 1, 2 and 4 copy calls and the gather for 13 kinds of TF
    buffer (9 usages, immutable storage with 4 flag sets), each checked
    against the TF output like the keep cases."""
    env = dict(os.environ, CAP_BENCH_TRIALS="1")
    if api == "gl":
        env["CAP_BENCH_API"] = "gl"
    res = run([build_dir / "tests" / "capture" / "cap-bench", "1", "keep-usages"], env=env)
    assert res.returncode == 0, describe(res)
    assert "differs" not in res.stderr and "GL error" not in res.stderr, describe(res)
    cases = re.findall(r"^keep:(\S+):(\S+) [\d.]+$", res.stdout, re.M)
    usages = {u for u, _ in cases}
    assert len(usages) == 13 and {"static-read", "storage-client"} <= usages, describe(res)
    assert sorted(cases) == sorted((u, w) for u in usages
                                   for w in ("plain", "copy", "copy2", "copy4", "gather")), \
        describe(res)

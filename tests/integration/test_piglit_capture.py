"""Every piglit TF command that passes on llvmpipe here passes under
`xfbtrace capture` too, and its trace holds its TF calls and observations.

The list is piglit_tf.txt (scripts/piglit_tf_list.py keeps the commands of
the installed piglit that use TF and pass on llvmpipe without capture).  When
a command does not pass under capture, it is run once more without capture so
that the failure message shows both results.  The trace made here is the
session's one (conftest.piglit_trace) that the replay tests read too.
"""
import pytest

from conftest import PIGLIT_DIR, piglit_command, piglit_env, piglit_result, piglit_tf_lines, run
from tracefile import blob_bytes, calls, observations, records

LINES = piglit_tf_lines()
TF_ENDING = {"glEndTransformFeedback", "glPauseTransformFeedback"}
# Calls that change buffer contents behind an observation's back.
BUFFER_WRITERS = {"glBufferData", "glBufferSubData", "glCopyBufferSubData", "glClearBufferData",
                  "glClearBufferSubData", "glNamedBufferData", "glNamedBufferSubData",
                  "glCopyNamedBufferSubData", "glBeginTransformFeedback", "glUnmapBuffer",
                  "glInvalidateBufferData"}


@pytest.mark.piglit
@pytest.mark.parametrize("line", LINES)
def test_piglit_tf_under_capture(xfbtrace, piglit_trace, line):
    cap = piglit_trace(line)
    trace, out = cap.trace, cap.out
    if cap.result != "pass":
        plain = run(piglit_command(line), env=piglit_env(), cwd=PIGLIT_DIR, timeout=600)
        pytest.fail(f"under capture: {cap.result} (exit {out.returncode}), without: "
                    f"{piglit_result(plain.stdout)}\n{out.stderr[-3000:]}")

    recs = records(xfbtrace, trace)
    cs = calls(recs)
    names = {c["name"] for c in cs}
    if line.startswith("glslparsertest"):
        assert "glCompileShader" in names, sorted(names)
        return
    # Its TF calls: TF entry points, calls naming TF state by enum
    # (glBindBufferRange(GL_TRANSFORM_FEEDBACK_BUFFER, ...),
    # glEnable(GL_RASTERIZER_DISCARD), glBeginQuery(GL_PRIMITIVES_GENERATED)),
    # or shader sources with vertex streams / xfb layouts (linker tests).
    tf_calls = [c for c in cs if "TransformFeedback" in c["name"]
                or any(is_tf_value(v) for v in c["args"].values())]
    assert tf_calls, sorted(names)

    # TF buffers are observed at End/Pause only, each with its data or the
    # reason it has none.
    tf_obs = observations(recs, "tf_buffer")
    for o in tf_obs:
        assert "data" in o or "unavailable" in o, o
    observed = {o["call"] for o in tf_obs}
    assert observed <= {c["no"] for c in cs if c["name"] in TF_ENDING}

    # What the test read back from a TF buffer equals the TF output observed
    # at the last End/Pause, where nothing wrote the buffer in between.
    check_readbacks_match_tf_output(recs)


TF_ENUM_WORDS = ("TRANSFORM_FEEDBACK", "RASTERIZER_DISCARD", "PRIMITIVES_GENERATED")
TF_SHADER_WORDS = ("EmitStreamVertex", "stream", "xfb_", "gl_SkipComponents", "gl_NextBuffer")


def is_tf_value(v):
    if isinstance(v, list):
        return any(is_tf_value(x) for x in v)
    if not isinstance(v, str):
        return False
    return any(w in v for w in TF_ENUM_WORDS) or any(w in v for w in TF_SHADER_WORDS)


def check_readbacks_match_tf_output(recs):
    last_tf = {}      # buffer name -> (offset, bytes) at the last End/Pause
    for r in recs:
        if r["type"] == "call" and r["name"] in BUFFER_WRITERS:
            last_tf.clear()
        elif r["type"] == "observation" and r["kind"] == "tf_buffer" and "data" in r:
            last_tf[r["buffer"]] = (r["offset"], blob_bytes(r["data"]))
        elif r["type"] == "observation" and r["kind"] in ("map_read", "buffer_read"):
            if r["buffer"] not in last_tf:
                continue
            tf_off, tf_data = last_tf[r["buffer"]]
            got = blob_bytes(r["data"])
            lo = max(tf_off, r["offset"])
            hi = min(tf_off + len(tf_data), r["offset"] + len(got))
            if lo < hi:
                assert got[lo - r["offset"]:hi - r["offset"]] == tf_data[lo - tf_off:hi - tf_off], \
                    f"read-back at call {r['call']} differs from the TF observation"

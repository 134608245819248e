"""`xfbtrace state TRACE CALL`: the GL state a trace set up at a call, with
the TF buffers decoded by varying (issue 24: "xfbtrace has no state view",
apitrace's `replay -D CALL`).  Expected values come from the trace as
`dump --format jsonl` prints it."""
import json
import os

import pytest

from conftest import run
from tracefile import calls, observations, records


@pytest.fixture(scope="module")
def trace(xfbtrace, build_dir, tmp_path_factory):
    path = tmp_path_factory.mktemp("state") / "app.xfbt"
    assert run([xfbtrace, "capture", "-o", path, "--",
                build_dir / "tests" / "apps" / "tf-separate-gl33"]).returncode == 0
    return path


def test_state_at_a_pause_shows_program_tf_bindings_and_decoded_data(xfbtrace, trace):
    recs = records(xfbtrace, trace)
    pause = next(c for c in calls(recs) if c["name"] == "glPauseTransformFeedback")
    obs = [o for o in observations(recs, "tf_buffer") if o["call"] == pause["no"]]
    use = [c for c in calls(recs) if c["name"] == "glUseProgram" and c["no"] < pause["no"]][-1]
    program = use["args"]["program"]
    tfv = [c for c in calls(recs) if c["name"] == "glTransformFeedbackVaryings"
           and c["args"]["program"] == program][-1]
    src = [c for c in calls(recs) if c["name"] == "glShaderSource"][0]["args"]["string"][0]

    out = run([xfbtrace, "state", trace, str(pause["no"])])
    assert out.returncode == 0, out.stderr
    text = out.stdout
    assert f"current program: {program}" in text
    assert ("TF varyings: " + ", ".join(tfv["args"]["varyings"])) in text, text[:2000]
    assert "| " + src.splitlines()[1] in text
    assert "(bound): paused, GL_TRIANGLES" in text
    for o in obs:
        assert f"binding {o['index']}: buffer {o['buffer']}," in text, text
    assert "TF buffer at binding 0 as the capture read it back" in text
    assert "    vertex 0: " in text

    js = json.loads(run([xfbtrace, "state", "--json", trace, str(pause["no"])]).stdout)
    assert js["call"] == pause["no"] and js["current_program"] == program
    bound = next(t for t in js["transform_feedback"] if t["id"] == js["transform_feedback_bound"])
    assert bound["status"] == "paused"
    assert {b["index"]: b["buffer"] for b in bound["bindings"]} == \
        {o["index"]: o["buffer"] for o in obs}


def test_state_before_any_tf_and_of_a_missing_call(xfbtrace, trace):
    out = run([xfbtrace, "state", trace, "1"])
    assert out.returncode == 0 and "never begun" not in out.stdout.split("active queries")[0] \
        or "transform feedback object" not in out.stdout, out.stdout
    assert "TF buffer at binding" not in out.stdout
    out = run([xfbtrace, "state", trace, "999999"])
    assert out.returncode == 2 and "has no call 999999" in out.stderr


def test_state_under_the_sanitizers(xfbtrace, xfbtrace_san, trace):
    env = dict(os.environ, ASAN_OPTIONS="detect_leaks=1:abort_on_error=0",
               UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1")
    n = len(calls(records(xfbtrace, trace)))
    for call in (0, 1, n // 3, n // 2, n - 1):
        for extra in ([], ["--json"]):
            out = run([xfbtrace_san, "state", *extra, trace, str(call)], env=env)
            assert "runtime error" not in out.stderr and "Sanitizer" not in out.stderr, out.stderr
            assert out.returncode == 0, (call, out.stderr)

"""The GL state at a call from a live replay (issue 24: "a state view at a
call for host and sim replays ... like apitrace's replay -D"):
`xfbtrace replay --dump-state CALL [--backend host|sim] [--format text|json]`.

tf-separate-gl33 pauses TF at the call checked here with program 1 (TF
varyings v_pos, v_color, v_tag in separate buffers 2, 3, 4 of TF object 1)
and queries 1 (GL_PRIMITIVES_GENERATED) and 2 (GL_TRANSFORM_FEEDBACK_
PRIMITIVES_WRITTEN) active.  The anchors are the program's own calls and
the capture's golden observation at that call, read here from `dump
--format jsonl` and decoded here with struct, not by the code under test.
"""
import json
import struct

import pytest

from conftest import run
from tracefile import blob_bytes, observations, records


@pytest.fixture(scope="module")
def trace(xfbtrace, build_dir, tmp_path_factory):
    path = tmp_path_factory.mktemp("live") / "app.xfbt"
    app = build_dir / "tests" / "apps" / "tf-separate-gl33"
    assert run([xfbtrace, "capture", "-o", path, "--", app]).returncode == 0
    return path


@pytest.fixture(scope="module")
def recs(xfbtrace, trace):
    return records(xfbtrace, trace)


def pause_call(recs):
    return next(r["no"] for r in recs if r["type"] == "call" and r["name"] == "glPauseTransformFeedback")


def calls_before(recs, name, call):
    return [r for r in recs if r["type"] == "call" and r["name"] == name and r["no"] < call]


@pytest.mark.parametrize("backend", ["host", "sim"])
def test_dump_state_reports_program_tf_buffers_and_queries(xfbtrace, trace, recs, backend):
    call = pause_call(recs)
    out = run([xfbtrace, "replay", "--backend", backend, "--dump-state", str(call), "--format",
               "json", trace], timeout=300)
    assert out.returncode == 0, out.stderr
    st = json.loads(out.stdout)
    assert st["call"] == call and st["backend"] == backend
    assert st["not_modelled"] == []   # the driver model answers every query asked here
    # The program in use: the last glUseProgram, with the varyings its
    # glTransformFeedbackVaryings named, and its shader's source.
    prog = calls_before(recs, "glUseProgram", call)[-1]["args"]["program"]
    varyings = next(r["args"] for r in calls_before(recs, "glTransformFeedbackVaryings", call)
                    if r["args"]["program"] == prog)
    assert st["program"]["name"] == prog and st["program"]["link_status"] is True
    assert [v["name"] for v in st["program"]["tf_varyings"]] == varyings["varyings"]
    assert st["program"]["tf_buffer_mode"] == varyings["bufferMode"]
    assert any("v_pos = a_pos" in s["source"] for s in st["program"]["shaders"]), st["program"]
    # TF: active and paused, the object's bindings as the calls made them.
    tf = st["transform_feedback"]
    assert tf["active"] is True and tf["paused"] is True
    obj = calls_before(recs, "glBindTransformFeedback", call)[-1]["args"]["id"]
    assert tf["object"] == obj
    bound, current = {}, 0
    for r in recs:
        if r["type"] != "call" or r["no"] >= call:
            continue
        if r["name"] == "glBindTransformFeedback":
            current = r["args"]["id"]
        elif r["name"] == "glBindBufferBase" and r["args"]["target"] == "GL_TRANSFORM_FEEDBACK_BUFFER" \
                and current == obj:
            bound[r["args"]["index"]] = r["args"]["buffer"]
    assert {b["index"]: b["buffer"] for b in tf["bindings"]} == bound
    # The buffers' contents, decoded by varying, equal to what the capture
    # read back at that call (the golden observation), decoded here.
    golden = {o["index"]: o for o in observations(recs, "tf_buffer") if o["call"] == call}
    assert sorted(b["index"] for b in tf["buffers"]) == sorted(golden)
    for b in tf["buffers"]:
        g = golden[b["index"]]
        assert b["buffer"] == g["buffer"]
        data = blob_bytes(g["data"])
        var = [v for v in g["layout"]["varyings"] if v["buffer"] == b["index"]][0]
        n, fmt = {"GL_FLOAT_VEC4": (4, "f"), "GL_FLOAT_VEC3": (3, "f"), "GL_INT": (1, "i")}[var["type"]]
        stride = g["layout"]["strides"][b["index"]]
        written = 6   # two draws of three vertices before the pause
        for i in range(written):
            want = list(struct.unpack_from(f"<{n}{fmt}", data, i * stride))
            assert b["vertices"][i][var["name"]] == pytest.approx(want), (b["index"], i)
    # Active queries: the ones begun and not ended by then.
    begun = {r["args"]["id"]: r["args"]["target"] for r in calls_before(recs, "glBeginQuery", call)}
    ended = {r["args"]["target"] for r in calls_before(recs, "glEndQuery", call)}
    want = {(t, q) for q, t in begun.items() if t not in ended}
    assert {(q["target"], q["query"]) for q in st["queries"]} == want and want
    # The vertex array's two attributes, as glVertexAttrib[I]Pointer set them.
    attribs = {a["index"]: a for a in st["vertex_array"]["attribs"]}
    assert attribs[0]["type"] == "GL_FLOAT" and attribs[0]["size"] == 4 and attribs[0]["stride"] == 20
    assert attribs[1]["integer"] is True and attribs[1]["offset"] == 16


def test_dump_state_text_shows_sources_and_decoded_vertices(xfbtrace, trace, recs):
    call = pause_call(recs)
    out = run([xfbtrace, "replay", "--dump-state", str(call), trace], timeout=300)
    assert out.returncode == 0, out.stderr
    text = out.stdout
    assert "  tf_buffer_mode: GL_SEPARATE_ATTRIBS" in text, text
    assert "| \tv_pos = a_pos * u_scale + u_offset;" in text, text
    assert "vertex 0: v_pos = (-0.75, -0.5, 1, 2)" in text, text
    assert "- target: GL_PRIMITIVES_GENERATED, stream: 0, query: 1" in text, text
    assert out.stdout.count("replayed") == 0 and "replayed" in out.stderr   # the report on stderr


def test_dump_state_errors_are_clear(xfbtrace, trace, recs):
    last = max(r["no"] for r in recs if r["type"] == "call")
    out = run([xfbtrace, "replay", "--dump-state", str(last + 10), trace], timeout=300)
    assert out.returncode == 2 and f"call {last + 10} is not in the trace" in out.stderr, out.stderr
    out = run([xfbtrace, "replay", "--format", "json", trace])
    assert out.returncode == 2 and "--format is the format of --dump-state" in out.stderr
    out = run([xfbtrace, "replay", "--dump-state", "5", "--calls", "1-4", trace])
    assert out.returncode == 2 and "takes no --calls" in out.stderr
    out = run([xfbtrace, "replay", "--dump-state", "x", trace])
    assert out.returncode == 2 and "bad --dump-state 'x'" in out.stderr


@pytest.mark.parametrize("backend", ["host", "sim"])
@pytest.mark.parametrize("app,after", [("tf-streams-gl40", "glBeginQueryIndexed"),
                                       ("tf-particles-gles3", "glBeginQuery")])
def test_trace_derived_and_live_state_agree_on_active_queries(xfbtrace, build_dir, tmp_path,
                                                              backend, app, after):
    """At the first draw after a query is begun, the driver (host or sim)
    reports as active the queries the calls say are (`xfbtrace state`).
    Findings: tf-streams-gl40 begins its queries with glBeginQueryIndexed
    on streams 0 and 1, which `state` did not know (it listed none);
    tf-particles-gles3 is a GLES context, where glGetQueryIndexediv
    resolves but answers nothing, and the live state listed none."""
    trace = tmp_path / "app.xfbt"
    assert run([xfbtrace, "capture", "-o", trace, "--", build_dir / "tests" / "apps" / app]
               ).returncode == 0
    recs = records(xfbtrace, trace)
    begin = next(r["no"] for r in recs if r["type"] == "call" and r["name"] == after)
    draw = next(r["no"] for r in recs if r["type"] == "call" and r["no"] > begin and
                r["name"].startswith("glDraw"))
    out = run([xfbtrace, "replay", "--backend", backend, "--dump-state", str(draw), "--format",
               "json", trace], timeout=300)
    assert out.returncode == 0, out.stderr
    live = {f"{q['target']} {q['query']}" if q["stream"] == 0 else
            f"{q['target']} stream {q['stream']} {q['query']}" for q in json.loads(out.stdout)["queries"]}
    derived = run([xfbtrace, "state", "--json", trace, str(draw)])
    assert derived.returncode == 0, derived.stderr
    assert set(json.loads(derived.stdout)["active_queries"]) == live and live, live
    if app == "tf-streams-gl40":
        assert any(" stream 1 " in q for q in live), live


@pytest.mark.parametrize("backend", [
    "host",
    pytest.param("sim", marks=pytest.mark.xfail(strict=True, reason=(
        "driver/st keeps the generic binding per TF object (GL ES 3.0); "
        "GL 4.6 / ES 3.2 BindTransformFeedback moved it to context state"))),
])
def test_generic_tf_buffer_binding_is_context_state(xfbtrace, trace, recs, backend):
    """A finding of the live state (host and sim put side by side): the
    generic GL_TRANSFORM_FEEDBACK_BUFFER binding is context state, unaffected
    by glBindTransformFeedback (OpenGL 4.6 and ES 3.2, BindTransformFeedback;
    KhronosGroup/WebGL#3468), so at the pause it is the buffer of the last
    glBindBufferBase / Range / glBindBuffer on that target, whichever TF
    object was bound then.  llvmpipe agrees; the driver model returns the
    one last bound while the current TF object was bound."""
    call = pause_call(recs)
    last = [r for r in recs if r["type"] == "call" and r["no"] < call and
            r["name"] in ("glBindBufferBase", "glBindBufferRange", "glBindBuffer") and
            r["args"]["target"] == "GL_TRANSFORM_FEEDBACK_BUFFER"][-1]["args"]["buffer"]
    out = run([xfbtrace, "replay", "--backend", backend, "--dump-state", str(call), "--format",
               "json", trace], timeout=300)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["bindings"]["GL_TRANSFORM_FEEDBACK_BUFFER"] == last

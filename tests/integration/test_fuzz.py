"""Issue 21's randomized differential tester in CI.

A fixed set of seeds of build/tests/fuzz/xfb-fuzz-case, chosen from a
campaign so that every value of every parameter it drew is touched
(`scripts/fuzz_tf.py --ci-table`), each captured on llvmpipe and replayed
on the host and on the sim with --check by scripts/fuzz_tf.py's own code:

- the host replay must match for every seed;
- the sim replay must give what docs/status.md's "Randomized differential
  testing" CI table says: `match`, or the named open class.  A sim fix that
  makes a seed match fails the test too, until the table says so.

And the host replay's fixes the campaign led to, each on its minimal case.
"""
import importlib.util
import pathlib
import re
import subprocess

import pytest

from conftest import describe, run

ROOT = pathlib.Path(__file__).resolve().parents[2]
STATUS = ROOT / "docs" / "status.md"


def fuzz_module():
    spec = importlib.util.spec_from_file_location("fuzz_tf", ROOT / "scripts" / "fuzz_tf.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


FUZZ = fuzz_module()


def ci_rows():
    """(seed, expected sim) of the CI table in docs/status.md."""
    text = STATUS.read_text()
    start = text.index("### CI seeds")
    end = text.find("\n## ", start)
    rows = re.findall(r"^\| `?(\d+(?: --only [\w,]+)?(?: --set [\w=]+)*)`? \| ([^|]+?) \|",
                      text[start:end if end > 0 else None], re.M)
    assert rows, "docs/status.md has no CI seed table"
    return rows


@pytest.fixture(scope="module")
def fuzz_case(build_dir):
    path = build_dir / "tests" / "fuzz" / "xfb-fuzz-case"
    assert path.exists(), f"{path} is not built"
    return str(path)


@pytest.mark.sim
@pytest.mark.parametrize("seed,expected", ci_rows())
def test_fuzz_seed_replays_as_status_md_says(xfbtrace, fuzz_case, tmp_path, seed, expected):
    """`seed` is a seed, or a minimal case `N --only K1,K2 [--set K=V]` of an open class."""
    res = FUZZ.run_case(str(xfbtrace), fuzz_case, ["--seed", *seed.split()], str(tmp_path))
    assert res["case"] == "ok", res
    assert res["host"] == "match", res["host_first"]
    got = FUZZ.expected_sim(res)
    assert got == expected, (f"seed {seed}: the sim now gives `{got}` ({res['sim_first']}); "
                             f"docs/status.md says `{expected}`: update the table if it was fixed")


def test_fuzz_case_prints_the_point_it_runs(fuzz_case):
    def params(*args):
        out = subprocess.run([fuzz_case, *args, "--print-params"], capture_output=True, text=True)
        assert out.returncode == 0, out.stderr
        return out.stdout.split()
    assert params("--seed", "7") == params("--seed", "7")
    assert params("--seed", "7") != params("--seed", "8")
    # --only keeps the named parameters, --set (after it, twice) overrides.
    got = params("--seed", "7", "--only", "none", "--set", "prim=quads",
                 "--set", "api=compat", "--set", "draw=elements")
    assert got == ["api=compat", "prim=quads", "draw=elements", "v0=float"], got
    # Validity: quads exist in the compatibility profile only.
    assert "prim=triangles" in params("--seed", "7", "--only", "none", "--set", "prim=quads")


def test_host_replay_reports_multidraw_elements_index_pointers_instead_of_crashing(
        xfbtrace, fuzz_case, tmp_path):
    """glMultiDrawElements with an element array buffer: `indices` is a
    client array of offsets (GL 4.6 §10.4).  A trace that holds it as an
    offset (the capture's current record) made the host replay hand the
    application's address to llvmpipe, which dereferenced it (SIGSEGV in
    25 of the first 721 seeds of an early campaign); the replay must report
    the call instead, or replay it once the trace holds the array."""
    for draw in ("multi_elements", "multi_elements_base_vertex"):
        trace = tmp_path / f"{draw}.xfbt"
        args = ["--seed", "0", "--only", "none", "--set", f"draw={draw}"]
        cap = run([str(xfbtrace), "capture", "-o", trace, "--", fuzz_case, *args])
        assert cap.returncode == 0, describe(cap)
        out = run([str(xfbtrace), "replay", "--check", trace])
        assert out.returncode in (0, 1), describe(out)   # not a signal
        reported = re.search(r"^call \d+ glMultiDrawElements\w*: not replayed", out.stdout + out.stderr, re.M)
        assert out.returncode == 0 or reported, describe(out)


def replay_host(xfbtrace, fuzz_case, tmp_path, name, *sets):
    trace = tmp_path / f"{name}.xfbt"
    args = ["--seed", "0", "--only", "none"] + [x for s in sets for x in ("--set", s)]
    cap = run([str(xfbtrace), "capture", "-o", trace, "--", fuzz_case, *args])
    assert cap.returncode == 0, describe(cap)
    return run([str(xfbtrace), "replay", "--check", trace])


# (glDrawTransformFeedback is not here: its vertices are the pre-pass's,
# whose bytes the shadow still holds, so it matches either way.)
@pytest.mark.parametrize("draw,commands", [("arrays_indirect", "1"),
                                           ("multi_elements_indirect", "1"),
                                           ("multi_arrays_indirect", "indirect_buffer"),
                                           ("elements_indirect", "indirect_buffer")])
def test_capture_records_client_arrays_read_by_indirect_draws(
        xfbtrace, fuzz_case, tmp_path, draw, commands):
    """Client-memory vertex arrays read by an indirect draw (compatibility
    profile): the vertices and instances are in the commands, which the
    capture reads in client memory (client_mem=1) or back from the bound
    GL_DRAW_INDIRECT_BUFFER (client_mem=indirect_buffer).  Without them the
    trace held no vertex bytes and the host replay reported the draw (55
    seeds of the campaign on 5fe99eb).  Instanced arrays (divisor 1) with
    a base instance: the commands' instance ranges size those too."""
    out = replay_host(xfbtrace, fuzz_case, tmp_path, draw, "api=compat", f"client_mem={commands}",
                      f"draw={draw}", "instances=2", "base_instance=1", "b_divisor=1")
    assert out.returncode == 0, describe(out)


def test_host_replay_reports_transform_feedback_draws_from_client_arrays(xfbtrace, fuzz_case,
                                                                        tmp_path):
    """glDrawTransformFeedback with client vertex arrays: it draws the
    vertices captured last time on the object, which no GL query gives the
    capture (capture/README.md, Limits), so the trace holds no vertex bytes
    for it; the host replay names the draw instead of drawing the shadow's
    stale bytes."""
    out = replay_host(xfbtrace, fuzz_case, tmp_path, "drawtf", "api=compat", "client_mem=1",
                      "draw=transform_feedback")
    assert out.returncode == 1, describe(out)
    assert re.search(r"^call \d+ glDrawTransformFeedback: not replayed: draws from client-memory "
                     r"vertex arrays", out.stdout + out.stderr, re.M), describe(out)


def test_host_replay_reports_index_data_shorter_than_the_draw_reads(xfbtrace, fuzz_case, tmp_path):
    """glDrawElementsInstancedBaseVertexBaseInstance with client indices:
    gl.xml sizes `indices` as `count` (elements, not bytes), so the trace
    held 6 of 24 bytes and llvmpipe read past the replay's copy (SIGSEGV),
    then the replay reported it; the capture sizes it as count indices of
    `type` now (specs/gl_annotations.py) and the replay matches."""
    out = replay_host(xfbtrace, fuzz_case, tmp_path, "bvbi", "api=compat", "client_mem=1",
                      "draw=elements_instanced_bv_bi")
    assert out.returncode == 0, describe(out)


@pytest.mark.sim
@pytest.mark.parametrize("case,rule,conforming", [
    ("14 --only a_format", "fixed-conversion", "a_format=float"),
    ("19 --only draw", "draw-tf-count", "v0=vec4"),
    ("318 --only gs,gs_streams,q_written", "written-without-buffer", "gs_streams=stream1"),
    ("53 --only api,cap_frontcolor", "front-color-capture", "cap_frontcolor=0"),
    ("86 --only draw,gs", "multi-draw-primitive-id", "draw=elements"),
    ("689 --only prim,cap_clipdistance,discard,q_occlusion,a_format", "clip-distance-disabled",
     "cap_clipdistance=0")])
def test_reference_deviation_is_detected_and_classified(xfbtrace, fuzz_case, tmp_path, case, rule,
                                                        conforming):
    """llvmpipe (Mesa 22.3), the golden data, deviates from the spec in
    rules xfb-fuzz-case checks at run time: GL_FIXED reads c / 65535, not
    c / 2^16 (1.5e-5 off, beyond GL 4.6 §2.3.4.1's 1e-5);
    glDrawTransformFeedback* draws the captured bytes divided by the vertex
    buffer's stride instead of the vertices captured; a GS stream none of
    whose varyings is captured counts primitives written; a captured
    gl_FrontColor is gl_Position's value, not the clamped colour, where the
    fragment shader does not read gl_Color; gl_PrimitiveIDIn goes on
    counting across the draws of a multi-draw; a gl_ClipDistance written
    but not enabled clips.  The seed's class
    is the rule, the sim's difference not counted as its failure.  The same
    case made conforming (float attributes; equal 16-byte TF and vertex
    strides; the stream's varying captured; no colour captured; a single
    draw; no clip distance written) has no deviation and matches
    on the sim."""
    res = FUZZ.run_case(str(xfbtrace), fuzz_case, ["--seed", *case.split()], str(tmp_path))
    assert res["case"] == "ok" and res["host"] == "match", res
    assert res.get("reference") == [rule], res
    assert FUZZ.expected_sim(res) == f"reference deviates: {rule}", res
    assert res["reference_first"].startswith(rule + " ("), res
    ok = FUZZ.run_case(str(xfbtrace), fuzz_case, ["--seed", *case.split(), "--set", conforming],
                       str(tmp_path))
    assert ok["case"] == "ok" and "reference" not in ok, ok
    assert (ok["host"], ok["sim"]) == ("match", "match"), ok


def test_capture_records_instanced_client_arrays_from_the_base_instance(xfbtrace, fuzz_case,
                                                                       tmp_path):
    """An instanced client array (divisor 2) drawn with base instance 1: GL
    4.6 §10.5 fetches element floor(i / divisor) + baseinstance, the base
    added after the division.  The capture recorded floor((i + base) /
    divisor) and so left out the last element the draw read; the replay's
    shadow held stale bytes there (seed 1419 of the campaign)."""
    out = replay_host(xfbtrace, fuzz_case, tmp_path, "divisor", "api=compat", "client_mem=1",
                      "draw=elements_instanced_bv_bi", "index_type=ubyte",
                      "base_instance=1", "b_divisor=2", "count=6")
    assert out.returncode == 0, describe(out)


@pytest.mark.sim
@pytest.mark.parametrize("extra,overflowed", [((), 0), (("--set", "buf_size=24", "--set", "bind=range"), 1)])
def test_sim_overflow_query_ignores_a_stream_without_buffer(xfbtrace, fuzz_case, tmp_path, extra,
                                                            overflowed):
    """A GS emits to stream 1, none of whose varyings is captured, under
    GL_TRANSFORM_FEEDBACK_OVERFLOW (any stream).  A stream overflows when a
    primitive is not recorded because it would exceed a buffer (GL 4.6
    §13.3.2, ARB_transform_feedback_overflow_query); a stream with no
    buffer exceeds none: 0, as llvmpipe says (seed 1115: the sim said 1,
    its VGT counting stream 1's primitives as needed, not written).  Stream
    0 in a 24-byte range still overflows: 1."""
    case = ["--seed", "1115", "--only", "gs,gs_streams,q_overflow", *extra]
    out = subprocess.run([fuzz_case, *case], capture_output=True, text=True)
    assert f"query 4: {overflowed}\n" in out.stdout, out.stdout
    res = FUZZ.run_case(str(xfbtrace), fuzz_case, case, str(tmp_path))
    assert res["case"] == "ok" and "reference" not in res, res
    assert (res["host"], res["sim"]) == ("match", "match"), res


@pytest.mark.sim
@pytest.mark.parametrize("case", ["133 --only api,prim,provoking,v2,v3", "1412",
                                  "133 --only api,prim,provoking,v0,skip",
                                  "133 --only api,prim,draw,provoking", "133"])
def test_sim_read_back_of_part_of_a_tessellated_quad_is_classified_as_its_tf_data(
        xfbtrace, fuzz_case, tmp_path, case):
    """Quad strips under the first-vertex convention with 52-byte vertices:
    llvmpipe and the sim tessellate each quad in another valid order ("the
    order of tessellation within a primitive is undefined", GL 4.6 compat
    §13.3), which the check classifies in the TF observation of the whole
    quads.  The case then maps the first 512 bytes, which end inside the
    second quad's triangles: the same bytes, read again in part, are
    classified by the same rule (they differed before: seeds 133, 292,
    1412).  With gl_SkipComponents1 after a vec2 each vertex has a dword TF
    does not write, which holds what was there before, at another place
    for each vertex: the tessellation check compares vertices in the dwords
    TF writes and the others in place (seed 133 shrunk to v0,skip).  Drawn
    with glDrawArraysIndirect (commands in a buffer) the count is unknown to
    the check, but the pairs of triangles still start where TF stood: they
    are checked up to the end of the range, or as many as a
    PRIMITIVES_GENERATED query over the draw bounds (seed 133)."""
    res = FUZZ.run_case(str(xfbtrace), fuzz_case, ["--seed", *case.split()], str(tmp_path))
    assert res["case"] == "ok" and "reference" not in res, res
    assert (res["host"], res["sim"]) == ("match", "match"), res


@pytest.mark.sim
def test_primitives_generated_over_quads_is_classified_implementation_dependent(
        xfbtrace, fuzz_case, tmp_path):
    """Three draws of one quad (compatibility), the second while TF is
    paused, under GL_PRIMITIVES_GENERATED: llvmpipe counts 2 + 1 + 2 = 5,
    the sim's VGT 6.  GL counts a primitive where it reaches the Discarding
    Rasterization stage and makes triangles of quads only to record them
    (GL 4.6 compat §13.5, §13.3): the count is not determined, so the check
    classifies it (seed 860), naming the draw and the sections."""
    case = ["--seed", "860", "--only", "api,prim,pause,q_generated"]
    res = FUZZ.run_case(str(xfbtrace), fuzz_case, case, str(tmp_path))
    assert res["case"] == "ok" and "reference" not in res, res
    assert (res["host"], res["sim"]) == ("match", "match"), res
    trace = tmp_path / "quads.xfbt"
    run([str(xfbtrace), "capture", "-o", str(trace), "--", fuzz_case, *case])
    out = run([str(xfbtrace), "replay", "--backend", "sim", "--check", str(trace)])
    assert out.returncode == 0, describe(out)
    assert re.search(r"implementation-dependent: query \d+ \(GL_PRIMITIVES_GENERATED\): "
                     r"GL_PRIMITIVES_GENERATED over the "
                     r"GL_QUADS of call \d+: .*§13\.5", out.stdout), describe(out)


@pytest.mark.sim
@pytest.mark.parametrize("case,target,golden,replay", [
    ("198 --only prim,discard,cond", "GL_SAMPLES_PASSED", 3, 1),
    ("1218 --only prim,count,discard,q_occlusion", "GL_SAMPLES_PASSED", 16, 5),
    ("1920 --only prim,first,discard,q_occlusion", "GL_ANY_SAMPLES_PASSED_CONSERVATIVE", 1, 0)])
def test_occlusion_over_width_1_lines_is_classified_implementation_dependent(
        xfbtrace, build_dir, fuzz_case, tmp_path, case, target, golden, replay):
    """Occlusion queries over width-1 lines: llvmpipe approximates the
    diamond-exit rule, the sim draws parallelograms, and GL 4.6 §14.5.1
    lets each segment's fragments differ from the rule's by one, so the
    counts may differ by 2 fragments a segment: the check classifies the
    results, naming the segments and the bound (the campaign's minimal
    cases; an ANY_SAMPLES_PASSED result that is 0 on one side); a count
    beyond that bound is a difference."""
    res = FUZZ.run_case(str(xfbtrace), fuzz_case, ["--seed", *case.split()], str(tmp_path))
    assert res["case"] == "ok" and "reference" not in res, res
    assert (res["host"], res["sim"]) == ("match", "match"), res
    trace = tmp_path / "lines.xfbt"
    run([str(xfbtrace), "capture", "-o", str(trace), "--", fuzz_case, "--seed", *case.split()])
    out = run([str(xfbtrace), "replay", "--backend", "sim", "--check", str(trace)])
    assert out.returncode == 0, describe(out)
    assert re.search(rf"implementation-dependent: query \d+ \({target}\): result golden {golden}, "
                     rf"replay {replay}: the query spans \d+ width-1 line segments?, whose sample "
                     rf"counts may differ by \d+ \(GL 4\.6 §14\.5\.1", out.stdout), describe(out)
    strict = run([str(xfbtrace), "replay", "--backend", "sim", "--check", "--strict", str(trace)])
    assert strict.returncode == 1, describe(strict)
    if target != "GL_SAMPLES_PASSED":
        return
    # A golden count beyond the bound (64 more samples than the segments
    # explain) stays a difference.
    bad = tmp_path / "beyond.xfbt"
    p = run([str(build_dir / "tests" / "replay" / "trace_perturb"), "--result", str(trace), str(bad),
             "0", "0x40"])
    assert p.returncode == 0, describe(p)
    out = run([str(xfbtrace), "replay", "--backend", "sim", "--check", str(bad)])
    assert out.returncode == 1, describe(out)
    assert re.search(rf"query \d+ \({target}\): result differs: golden {golden ^ 0x40}, "
                     rf"replay {replay}", out.stdout), describe(out)


@pytest.mark.sim
@pytest.mark.parametrize("case", ["290 --only api,discard,q_occlusion",
                                  "593 --only api,pause,discard,q_occlusion",
                                  "290 --only api,discard,q_occlusion --set cap_pointsize=1",
                                  "131", "335"])
def test_sim_counts_samples_of_gles_draws(xfbtrace, fuzz_case, tmp_path, case):
    """Occlusion queries over GLES draws that reach the rasterizer (points
    and triangles; seeds 131 and 335 of 0-499): glslang declares
    gl_PointSize in every GLES vertex shader's gl_PerVertex, and the driver
    took the declaration for a write, bound no pixel shader and reported
    the query (the sim's largest open class, 13 of 2000 seeds).  Now the
    VS exports what a store reaches, gl_PointSize among it (1.0, or
    1 + (k & 3) with cap_pointsize, which GLES points now always write:
    test_gles_points_that_are_rasterized_have_their_size_written), and the
    model counts the samples as llvmpipe does."""
    res = FUZZ.run_case(str(xfbtrace), fuzz_case, ["--seed", *case.split()], str(tmp_path))
    assert res["case"] == "ok" and "reference" not in res, res
    assert (res["host"], res["sim"]) == ("match", "match"), res


def test_gles_points_that_are_rasterized_have_their_size_written(xfbtrace, fuzz_case, tmp_path):
    """GLES leaves the size of a point undefined when the vertex shader
    writes no gl_PointSize (ES 3.2 §13.3), so the tester writes 1.0 in a
    GLES vertex shader whose points reach the rasterizer, and nowhere
    else: not under rasterizer discard, not for lines."""
    def vertex_shader(*sets):
        trace = tmp_path / "case.xfbt"
        args = ["--seed", "0", "--only", "none", "--set", "api=gles"] + [x for s in sets for x in ("--set", s)]
        cap = run([str(xfbtrace), "capture", "-o", trace, "--", fuzz_case, *args])
        assert cap.returncode == 0, describe(cap)
        out = run([str(xfbtrace), "dump", "--full", "--grep", "glShaderSource", trace])
        sources = re.findall(r"glShaderSource\(shader = \d+, count = 1, string = \{\"(.*?)\"\}", out.stdout)
        assert sources, describe(out)
        return sources[0]
    assert "gl_PointSize = 1.0;" in vertex_shader("discard=0")
    assert "gl_PointSize" not in vertex_shader()
    assert "gl_PointSize" not in vertex_shader("discard=0", "prim=lines")
    assert "gl_PointSize = 1.0 + float(k & 3);" in vertex_shader("discard=0", "cap_pointsize=1")

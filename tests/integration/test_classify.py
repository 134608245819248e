"""`xfbtrace replay --check` classifies differences (issue 19): a "differs"
verdict (exit 1) is kept for data the application defined; what the replay
driver's fewer extensions or smaller limits explain is "implementation-
dependent", float data within --tolerance is "precision", both printed with
their class and counted on a line of their own, and --strict counts them.

Real traces: the NVIDIA corpus of tests/data/nvidia (captured on an H100,
replayed here on llvmpipe), and the sample apps captured on llvmpipe.
"""
import os
import re
import struct

import pytest

from conftest import describe, run
from tracefile import observations, records

SUMMARY = re.compile(r"^(\d+) observations, (\d+) match, (\d+) differ", re.M)
CLASSIFIED = re.compile(r"^classified, not counted as differences: (\d+) implementation-dependent, "
                        r"(\d+) precision, (\d+) undefined$", re.M)

# Traces of the corpus that differ on llvmpipe only in what the NVIDIA
# driver has more of: glGetStringi past llvmpipe's extension count (the
# first three; before classification these exited 1), and TF layout reports
# (strides listed for more binding points; SPIR-V varying names llvmpipe
# does not report) over equal data; the particles app, whose floats differ
# by 1 ulp; and the two other apps, equal (no class, --strict exits 0 too):
# (name, replay arguments, the class expected).
NVIDIA_TRACES = [
    ("001_gl-3.1-primitive-restart-xfb_generated", [], "impl"),
    ("107_ext_transform_feedback-api-errors_bind_range_size_m4", [], "impl"),
    ("376_ext_transform_feedback-position_render_range_discard", [], "impl"),
    ("074_arb_enhanced_layouts-gs-stream-location-aliasing", [], "impl"),
    ("442_shader_runner_tests_spec_arb_gl_spirv_execution_xfb_vs_triangles.shader_test", [],
     "impl"),
    ("544_app_tf-particles-gles3", ["--tolerance", "ulps=1"], "precision"),
    ("545_app_tf-separate-gl33", [], None),
    ("546_app_tf-streams-gl40", [], None),
]


def replay(xfbtrace, trace, *args, env=None):
    return run([xfbtrace, "replay", "--check", *args, trace], env=env, timeout=600)


def counts(out):
    m = SUMMARY.search(out.stdout)
    assert m, describe(out)
    c = CLASSIFIED.search(out.stdout)
    return tuple(int(x) for x in m.groups()), (tuple(int(x) for x in c.groups())[:2] if c else (0, 0))


@pytest.mark.parametrize("name,args,cls", NVIDIA_TRACES, ids=[t[0][:40] for t in NVIDIA_TRACES])
def test_nvidia_trace_differs_on_llvmpipe_only_in_classified_ways(xfbtrace, nvidia_corpus, name,
                                                                  args, cls):
    trace = nvidia_corpus / f"{name}.xfbt"
    assert trace.exists(), trace
    out = replay(xfbtrace, trace, *args)
    assert out.returncode == 0, describe(out)
    (total, match, differ), (impl, precision) = counts(out)
    if cls is None:
        assert differ == 0 and match == total and not CLASSIFIED.search(out.stdout), describe(out)
        assert replay(xfbtrace, trace, "--strict").returncode == 0
        return
    assert differ == 0 and (impl if cls == "impl" else precision) > 0, describe(out)
    label = "implementation-dependent" if cls == "impl" else "precision"
    assert re.search(rf"^call \d+ \w+: {label}: ", out.stdout, re.M), describe(out)
    assert "GL errors raised by the replay only" not in out.stdout, describe(out)
    strict = replay(xfbtrace, trace, *args, "--strict")
    assert strict.returncode == 1, describe(strict)
    assert counts(strict) == counts(out), describe(strict)
    if cls == "precision":
        exact = replay(xfbtrace, trace)
        assert exact.returncode == 1 and counts(exact)[0][2] == precision, describe(exact)


def test_glgetstringi_past_the_count_names_both_counts(xfbtrace, nvidia_corpus):
    out = replay(xfbtrace, nvidia_corpus / f"{NVIDIA_TRACES[0][0]}.xfbt")
    m = re.search(r"^call \d+ glGetStringi: implementation-dependent: the replay driver has "
                  r"(\d+) extensions \(capture: (\d+)\): GL_INVALID_VALUE$", out.stdout, re.M)
    assert m and int(m.group(1)) < int(m.group(2)), describe(out)


@pytest.fixture(scope="module")
def separate_trace(xfbtrace, build_dir, tmp_path_factory):
    """tf-separate-gl33 captured on llvmpipe, and where in it a float of TF
    data is: (trace, index among observations with data, byte offset of a
    float word whose value is at least 0.01 away from 0)."""
    trace = tmp_path_factory.mktemp("classify") / "separate.xfbt"
    app = build_dir / "tests" / "apps" / "tf-separate-gl33"
    out = run([xfbtrace, "capture", "-o", trace, "--", app])
    assert trace.exists(), describe(out)
    with_data = [o for o in observations(records(xfbtrace, trace)) if "data" in o]
    for i, o in enumerate(with_data):
        if o["kind"] != "tf_buffer" or o["layout"]["varyings"][0]["type"] != "GL_FLOAT_VEC4":
            continue
        data = bytes.fromhex(o["data"]["hex"])
        for w in range(0, len(data) - 3, 4):
            if abs(struct.unpack_from("<f", data, w)[0]) > 0.01:
                return trace, i, w
    pytest.fail("tf-separate-gl33: no float TF data")


def perturbed(build_dir, separate_trace, tmp_path, byte, mask):
    trace, index, word = separate_trace
    altered = tmp_path / "altered.xfbt"
    p = run([build_dir / "tests" / "replay" / "trace_perturb", trace, altered, str(index),
             str(word + byte), hex(mask)])
    assert p.returncode == 0, p.stderr
    return altered


def test_a_changed_bit_of_defined_tf_data_differs_in_every_mode(xfbtrace, build_dir,
                                                                 separate_trace, tmp_path):
    # The exponent's lowest bit: the value doubles or halves.
    altered = perturbed(build_dir, separate_trace, tmp_path, 3, 0x01)
    for mode in ([], ["--strict"], ["--tolerance", "ulps=16"], ["--tolerance", "abs=0.001"],
                 ["--tolerance", "ulps=16", "--strict"]):
        out = replay(xfbtrace, altered, *mode)
        assert out.returncode == 1, f"{mode}: {describe(out)}"
        (total, match, differ), (impl, precision) = counts(out)
        assert differ == 1 and precision == 0, f"{mode}: {describe(out)}"
        assert re.search(r"^call \d+ gl\w+TransformFeedback: tf_buffer index \d+ buffer \d+: data "
                         r"differs (beyond the tolerance )?at byte", out.stdout, re.M), \
            f"{mode}: {describe(out)}"


def test_a_float_within_the_tolerance_is_precision(xfbtrace, build_dir, separate_trace, tmp_path):
    # The mantissa's lowest bits: 3 units in the last place apart.
    altered = perturbed(build_dir, separate_trace, tmp_path, 0, 0x03)
    exact = replay(xfbtrace, altered)
    assert exact.returncode == 1 and counts(exact)[0][2] == 1, describe(exact)
    within = replay(xfbtrace, altered, "--tolerance", "ulps=3")
    assert within.returncode == 0, describe(within)
    (total, match, differ), (impl, precision) = counts(within)
    assert differ == 0 and precision == 1 and match == total - 1, describe(within)
    assert re.search(r"^call \d+ gl\w+TransformFeedback: precision: tf_buffer index \d+ buffer "
                     r"\d+: data within the tolerance", within.stdout, re.M), describe(within)
    assert replay(xfbtrace, altered, "--tolerance", "ulps=3", "--strict").returncode == 1
    beyond = replay(xfbtrace, altered, "--tolerance", "ulps=2")
    assert beyond.returncode == 1 and counts(beyond)[0][2] == 1, describe(beyond)
    assert replay(xfbtrace, altered, "--tolerance", "abs=0.01").returncode == 0


def test_a_difference_beyond_the_tolerance_is_named_not_the_first_one(xfbtrace, build_dir,
                                                                      separate_trace, tmp_path):
    # Two components of one vertex: the first 3 units in the last place
    # apart (within ulps=3), the next one's exponent changed (beyond it).
    # The verdict's line must name the second: the first explains nothing.
    trace, index, word = separate_trace
    within = perturbed(build_dir, separate_trace, tmp_path, 0, 0x03)
    both = tmp_path / "both.xfbt"
    p = run([build_dir / "tests" / "replay" / "trace_perturb", within, both, str(index),
             str(word + 4 + 3), hex(0x01)])
    assert p.returncode == 0, p.stderr
    out = replay(xfbtrace, both, "--tolerance", "ulps=3")
    assert out.returncode == 1 and counts(out)[0][2] == 1, describe(out)
    assert re.search(rf"^call \d+ gl\w+TransformFeedback: tf_buffer index \d+ buffer \d+: data "
                     rf"differs beyond the tolerance at byte {word + 4} of ", out.stdout, re.M), \
        describe(out)


def test_softpipe_query_difference_during_a_pause_still_differs(xfbtrace, separate_trace):
    # GL_PRIMITIVES_GENERATED while TF is paused: llvmpipe 6, softpipe 4.
    # A query result is data the application reads: never classified.
    env = dict(os.environ, LIBGL_ALWAYS_SOFTWARE="1", GALLIUM_DRIVER="softpipe")
    for mode in ([], ["--tolerance", "abs=100"]):
        out = replay(xfbtrace, separate_trace[0], *mode, env=env)
        assert "on softpipe" in out.stdout, describe(out)
        assert out.returncode == 1, describe(out)
        assert re.search(r"^call \d+ glGetQueryObjectuiv: query \d+ \(GL_PRIMITIVES_GENERATED\): result differs: golden 6, "
                         r"replay 4$", out.stdout, re.M), describe(out)


def test_tolerance_and_strict_need_check_and_a_valid_tolerance(xfbtrace, separate_trace):
    trace = separate_trace[0]
    for args in (["--strict"], ["--tolerance", "ulps=1"]):
        out = run([xfbtrace, "replay", *args, trace])
        assert out.returncode == 2 and "--check" in out.stderr, describe(out)
    for bad in ("ulps=", "ulps=-1", "abs=nan", "rel=1"):
        out = replay(xfbtrace, trace, "--tolerance", bad)
        assert out.returncode == 2, describe(out)
    help_ = run([xfbtrace, "replay", "--help"])
    assert "--tolerance" in help_.stdout and "--strict" in help_.stdout
    assert "implementation-dependent" in help_.stdout and "precision" in help_.stdout


def test_a_link_failure_a_smaller_limit_explains_names_it(xfbtrace, build_dir, nvidia_corpus,
                                                          tmp_path):
    # ext_transform_feedback-max-varyings captures up to NVIDIA's 128
    # interleaved components; llvmpipe has 64, so the larger programs do
    # not link there.  The link status is classified, naming the limit and
    # both values, and so is what follows from it, naming the call of the
    # failed link: glUseProgram failed on the replay, so GL_CURRENT_PROGRAM
    # differs and TF wrote with another program while the application had
    # that one in use.
    trace = nvidia_corpus / "356_ext_transform_feedback-max-varyings.xfbt"
    out = replay(xfbtrace, trace, "--max-diffs", "100000")
    assert re.search(r"^call \d+ glGetProgramiv: implementation-dependent: returned "
                     r"GL_LINK_STATUS: capture 1, replay 0: the replay driver's "
                     r"GL_MAX_TRANSFORM_FEEDBACK_INTERLEAVED_COMPONENTS is 64 \(capture: 128\)$",
                     out.stdout, re.M), describe(out)
    assert "GL_LINK_STATUS differs" not in out.stdout, describe(out)
    link = re.search(r"^call (\d+) glGetIntegerv: implementation-dependent: returned "
                     r"GL_CURRENT_PROGRAM: capture (\d+), replay \d+ \(as the application's "
                     r"name\): a consequence of the link failure of program (\d+), whose link at "
                     r"call (\d+) failed on the replay \(the replay driver's "
                     r"GL_MAX_TRANSFORM_FEEDBACK_INTERLEAVED_COMPONENTS is 64 \(capture: 128\)\)$",
                     out.stdout, re.M)
    assert link and link.group(2) == link.group(3), describe(out)
    dump = {c["no"]: c for c in records(xfbtrace, trace, f"{link.group(4)}-{link.group(4)}")
            if c["type"] == "call"}
    assert dump[int(link.group(4))]["name"] == "glLinkProgram", dump
    assert re.search(r"^call \d+ glMapBuffer: implementation-dependent: map_read buffer 1: bytes "
                     r"0\.\.3071 of buffer 1 were written by TF \(begun at call \d+\) while program "
                     r"\d+, whose link at call \d+ failed on the replay .* was in use: a consequence "
                     r"of that failed link$", out.stdout, re.M), describe(out)
    assert out.returncode == 0 and counts(out)[0][2] == 0, describe(out)
    # Data a program wrote that linked on both drivers is still compared:
    # the first TF observation, changed, differs.
    altered = tmp_path / "altered.xfbt"
    p = run([build_dir / "tests" / "replay" / "trace_perturb", trace, altered, "0", "0", "0x40"])
    assert p.returncode == 0, p.stderr
    changed = replay(xfbtrace, altered)
    assert changed.returncode == 1 and counts(changed)[0][2] == 1, describe(changed)

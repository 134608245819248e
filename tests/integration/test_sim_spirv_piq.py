"""The sim driver's ARB_gl_spirv path (glShaderBinary + glSpecializeShader,
TF layout from the module's Xfb decorations), its program interface
queries (the tf_buffer observations read xfb_stride / xfb_offset layouts
through them, as on the host, and a buffer only gl_SkipComponents writes
is one), doubles captured by TF with client-memory indices in a core
context: each piglit line is captured on llvmpipe and replayed on the sim
with --check, which must find everything equal.
"""
import pathlib
import re

import pytest

from conftest import PIGLIT_DIR, piglit_command, piglit_env, piglit_tf_lines, run
from test_sim import RETURNS, SUMMARY, coverage_rules, describe, sim

SPIRV_XFB = "tests/spec/arb_gl_spirv/execution/xfb/"
LINES = [f"shader_runner {SPIRV_XFB}{t}.shader_test -auto -fbo" for t in (
    "vs_simple", "vs_simple_multiple_samples", "vs_triangles", "vs_struct", "vs_block",
    "vs_block_array", "vs_block_array_offset_per_member", "vs_two_block", "vs_two_sets",
    "vs_two_sets_ifc", "vs_two_sets_struct")] + [
    "arb_enhanced_layouts-transform-feedback-layout-query-api -auto -fbo",
    "arb_enhanced_layouts-gs-stream-location-aliasing -auto -fbo",
    "arb_gpu_shader_fp64-tf-interleaved -auto -fbo",
    "arb_gpu_shader_fp64-tf-interleaved-aligned -auto -fbo",
    "ext_transform_feedback-output-type gl_NextBuffer-gl_SkipComponents1-gl_NextBuffer -auto -fbo",
] + [f"arb_enhanced_layouts-transform-feedback-layout-qualifiers {v} -auto -fbo"
     for v in ("vs", "vs_ifc", "vs_named_ifc", "vs_struct", "gs", "gs_max")]


def capture(xfbtrace, tmp_path, line):
    if not PIGLIT_DIR.exists():
        pytest.skip("piglit is not installed")
    trace = tmp_path / "t.xfbt"
    cap = run([xfbtrace, "capture", "-o", trace, "--", *piglit_command(line)],
              env=piglit_env(), cwd=PIGLIT_DIR, timeout=600)
    assert trace.exists(), describe(cap)
    return trace


def test_lines_are_replayed_by_the_sim_pass_list():
    """tests/integration/test_sim.py replays every line of
    sim_piglit_pass.txt; the SPIR-V and interface-query lines must be there."""
    listed = set(piglit_tf_lines())
    passing = set(pathlib.Path(__file__).with_name("sim_piglit_pass.txt").read_text().splitlines())
    for line in LINES:
        assert line in listed and line in passing, line


def test_xfb_stride_layout_reaches_the_observation_with_every_buffer(xfbtrace, tmp_path):
    """The layout-qualifiers test captures into buffers 0..2 with
    xfb_stride: the observation's strides come from the program interface
    (three buffers), not from the packed glGetTransformFeedbackVarying
    layout (one)."""
    line = "arb_enhanced_layouts-transform-feedback-layout-qualifiers vs -auto -fbo"
    trace = capture(xfbtrace, tmp_path, line)
    dump = run([xfbtrace, "dump", trace]).stdout
    strides = re.findall(r'kind = "tf_buffer".*?strides = \{([^}]*)\}', dump)
    assert strides and all(len(s.split(",")) == 3 for s in strides), strides
    out = sim(xfbtrace, trace, "--check")
    total, match, differ = (int(x) for x in SUMMARY.search(out.stdout).groups())
    assert total >= len(strides) and match == total, describe(out)

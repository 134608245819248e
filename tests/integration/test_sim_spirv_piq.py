"""The sim driver's program interface queries: tf_buffer observations read
xfb_stride / xfb_offset layouts through them, as on the host.  (The SPIR-V,
interface-query and fp64 piglit lines replay on the sim in test_sim.py, from
sim_piglit_pass.txt.)
"""
import re

from conftest import describe, piglit_line, run
from test_sim import SUMMARY, sim


def test_xfb_stride_layout_reaches_the_observation_with_every_buffer(xfbtrace, piglit_trace):
    """The layout-qualifiers test captures into buffers 0..2 with
    xfb_stride: the observation's strides come from the program interface
    (three buffers), not from the packed glGetTransformFeedbackVarying
    layout (one)."""
    trace = piglit_trace(piglit_line(
        "arb_enhanced_layouts-transform-feedback-layout-qualifiers vs -auto -fbo")).trace
    dump = run([xfbtrace, "dump", trace]).stdout
    strides = re.findall(r'kind = "tf_buffer".*?strides = \{([^}]*)\}', dump)
    assert strides and all(len(s.split(",")) == 3 for s in strides), strides
    out = sim(xfbtrace, trace, "--check")
    total, match, differ = (int(x) for x in SUMMARY.search(out.stdout).groups())
    assert total >= len(strides) and match == total, describe(out)

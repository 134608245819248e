"""Pixels on the simulated GPU (issue 22): piglit's TF commands that probe
pixels replay on the sim with their glReadPixels executed, not reported
as "not replayed", now that the driver compiles their fragment shaders
(or the fixed-function fragment processing of compatibility programs) and
the model rasterizes.  The pixel values themselves are checked against
GL's rules in tests/unit/driver/test_drv_gl_pixels.c; comparing them with
the capture's is the images branch's golden data."""
import pytest

from conftest import describe, piglit_line, run
from test_sim import sim

PROBING = [
    "ext_transform_feedback-intervening-read output -auto -fbo",
    "ext_transform_feedback-intervening-read prims_generated -auto -fbo",
    "ext_transform_feedback-tessellation triangles flat_first -auto -fbo",
    "ext_transform_feedback-tessellation quads smooth -auto -fbo",
    "arb_transform_feedback2-draw-auto -auto -fbo",
]


@pytest.mark.sim
@pytest.mark.parametrize("line", PROBING)
def test_pixel_probes_replay_on_sim(xfbtrace, piglit_trace, line):
    cap = piglit_trace(piglit_line(line))
    out = sim(xfbtrace, cap.trace, "--check")
    assert out.returncode == 0, describe(out)
    assert "glReadPixels" in run([xfbtrace, "dump", cap.trace]).stdout
    assert "not replayed" not in out.stdout + out.stderr, describe(out)

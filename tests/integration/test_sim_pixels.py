"""Pixels on the simulated GPU (issue 22): piglit's TF commands that probe
pixels replay on the sim with their glReadPixels executed, not reported
as "not replayed", now that the driver compiles their fragment shaders
(or the fixed-function fragment processing of compatibility programs) and
the model rasterizes.  The pixel values themselves are checked against
GL's rules in tests/unit/driver/test_drv_gl_pixels.c; here the images the
sim draws are compared with llvmpipe's golden ones (issue 22's
acceptance), within one unit of the 8-bit render target: piglit reads
them back as floats, and GL requires neither bit-exact colour
interpolation nor a correctly rounded UNORM-to-float conversion (GL 4.6
§2.3.4.1, §14.6), which is where llvmpipe and the sim differ (by 1/255 in
smoothly shaded pixels, by an ulp in the conversion).  Beyond that, a
differing pixel fails the test."""

import pytest

from conftest import describe, piglit_line, run
from test_sim import IMAGE_TOLERANCE, sim

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
    out = sim(xfbtrace, cap.trace, "--check", "--image-tolerance", IMAGE_TOLERANCE)
    assert out.returncode == 0, describe(out)
    assert "glReadPixels" in run([xfbtrace, "dump", cap.trace]).stdout
    assert "not replayed" not in out.stdout + out.stderr, describe(out)

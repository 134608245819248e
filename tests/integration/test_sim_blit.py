"""Blits and texture copies on the simulated GPU (issue 22).

tests/apps/tf-blit-gl33 draws its transform feedback output into a
32 x 32 framebuffer object A and moves it: glBlitFramebuffer scaled 2x
(NEAREST), mirrored 1:1 under the scissor test with blending, a colour
mask and a program bound (which a blit ignores, GL 4.6 §18.3.1),
mirrored in x and y at 2x (LINEAR), into an RGBA32F buffer, and
glCopyTexSubImage2D into a texture that a draw samples; every result is
read back.  Captured on llvmpipe, each image replays on the sim (the
driver's blitter draws a rectangle whose pixel shader samples the
source, driver/hw/drv_pm4_blit.c) equal within one unit of the 8-bit
target: A's smoothly shaded triangle differs by rounding (GL 4.6 §14.6),
which every copy of it carries, and LINEAR filtering rounds differently
(llvmpipe filters in fixed point).  Beyond that, a differing pixel fails.
One more blit reads half of its source from outside A: GL leaves those
destination pixels undefined (§18.3.1), llvmpipe does not write them, the
sim writes A's edge there; `--check` classifies them as undefined, where
the driver noted the rectangle, and compares the other half.
"""
import re

import pytest

from conftest import describe, run
from test_sim import app_path, sim

APP = "tf-blit-gl33"
SUMMARY = re.compile(r"^(\d+) observations, (\d+) match, (\d+) differ", re.M)


@pytest.fixture(scope="module")
def trace(xfbtrace, build_dir, tmp_path_factory):
    t = tmp_path_factory.mktemp("sim-blit") / f"{APP}.xfbt"
    out = run([xfbtrace, "capture", "-o", t, "--", app_path(build_dir, APP)])
    assert out.returncode == 0, describe(out)
    return t


@pytest.mark.sim
def test_blits_and_copies_replay_on_sim_within_one_unit(xfbtrace, trace):
    out = sim(xfbtrace, trace, "--check", "--image-tolerance", "max=1")
    text = out.stdout + out.stderr
    assert out.returncode == 0, describe(out)
    total, match, differ = (int(x) for x in SUMMARY.search(out.stdout).groups())
    # the TF buffer and six images: A, B, C, D (glCopyTexSubImage2D,
    # sampled), E (half from outside A) and F (RGBA32F)
    assert total == 7 and differ == 0, describe(out)
    assert "not replayed" not in text and "unsupported" not in text, describe(out)
    undefined = [l for l in text.splitlines() if ": undefined: pixels 32x32" in l]
    assert len(undefined) == 1 and "source lies outside the read framebuffer" in undefined[0], \
        describe(out)
    # 512 pixels (16 columns), not one of the defined half
    assert "512 beyond the image tolerance" in undefined[0], describe(out)


@pytest.mark.sim
def test_every_differing_pixel_is_one_unit_off(xfbtrace, trace):
    """Without a tolerance: the largest difference of every image is one
    unit (1/255 for the float image), so a blit or copy that moved,
    mirrored, blended or masked pixels, or converted formats wrongly,
    fails.  Not E, the fifth image read, whose undefined half differs
    (its other half: the first test's count).  Read in the order A, B, C,
    D, E, F."""
    reads = re.findall(r"^(\d+) glReadPixels\(", run([xfbtrace, "dump", trace]).stdout, re.M)
    assert len(reads) == 6, reads
    out = sim(xfbtrace, trace, "--check", "--max-diffs", "100000")
    largest = {}
    for line in (out.stdout + out.stderr).splitlines():
        m = re.match(r"call (\d+) glReadPixels: .*largest difference ([\d.e+-]+)", line)
        if m:
            largest[m.group(1)] = float(m.group(2))
    assert reads[0] in largest, describe(out)   # A's shaded triangle: the rounding every copy carries
    for call, d in largest.items():
        # F, the last image, is read as floats: one unit is 1/255
        unit = 1 / 255 + 1e-6 if call == reads[5] else 1
        assert call == reads[4] or d <= unit, (call, d, describe(out))


@pytest.mark.sim
def test_the_blit_draw_shows_in_the_register_state(xfbtrace, trace, tmp_path):
    """The blit is a draw through the PM4 path: its call's artefacts have
    a draw packet and the blitter's viewport (the destination rectangle:
    scale 32, offset 32 for the 2x blit into 64 x 64)."""
    dump = run([xfbtrace, "dump", trace]).stdout
    call = re.search(r"^(\d+) glBlitFramebuffer\(.*dstX1 = 64", dump, re.M)
    assert call, dump[-2000:]
    sim(xfbtrace, trace, artifacts=tmp_path)
    regs = run([xfbtrace, "regs", str(tmp_path), call.group(1)])
    assert regs.returncode == 0, describe(regs)
    assert re.search(r"PA_CL_VPORT_XSCALE\S*\s.*\b32(\.0+)?\b", regs.stdout), regs.stdout[-3000:]
    pm4 = run([xfbtrace, "regs", "--pm4", str(tmp_path), call.group(1)])
    assert "DRAW_INDEX_AUTO" in pm4.stdout, pm4.stdout[-3000:]

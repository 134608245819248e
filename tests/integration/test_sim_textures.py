"""Texture sampling on the simulated GPU (issue 22).

tests/apps/tf-texture-gl33 samples textures in a vertex shader whose
output transform feedback captures (texelFetch of two levels and of an
integer texture, textureLod of three levels, a linear lookup half-way
between texels, a 2D array texture, a 3D texture and its generated level
1, each face of a cube map) and in a fragment shader drawn into an RGBA8 framebuffer
object and read back (implicit LOD over six uploaded levels, levels made
by glGenerateMipmap, a linearly magnified RGB8 texture).  Captured on
llvmpipe, it replays on the sim with the TF buffer equal bit for bit: all
those values are exact on any conforming implementation.  The image is
equal within one unit of the 8-bit target, and only the linearly
filtered region may differ: GL leaves the precision of filtering to the
implementation (GL 4.6 §8.14.2 defines the weights, not their rounding;
llvmpipe filters 8-bit textures in fixed point), so a pixel more than one
unit off, or any difference in the exact regions, fails the test.
"""
import re

import pytest

from conftest import describe, run
from test_sim import app_path, sim

APP = "tf-texture-gl33"
SUMMARY = re.compile(r"^(\d+) observations, (\d+) match, (\d+) differ", re.M)
# the linearly filtered region of the 32x32 image: x >= 16, y >= 16
PIXEL = re.compile(r"\((\d+), (\d+)\): golden (\d+) (\d+) (\d+) (\d+), replay (\d+) (\d+) (\d+) (\d+)")


@pytest.fixture(scope="module")
def trace(xfbtrace, build_dir, tmp_path_factory):
    t = tmp_path_factory.mktemp("sim-textures") / f"{APP}.xfbt"
    run([xfbtrace, "capture", "-o", t, "--", app_path(build_dir, APP)])
    assert t.exists()
    return t


@pytest.mark.sim
def test_texture_sampling_replays_on_sim_within_filtering_precision(xfbtrace, trace):
    out = sim(xfbtrace, trace, "--check", "--image-tolerance", "max=1")
    assert out.returncode == 0, describe(out)
    total, match, differ = (int(x) for x in SUMMARY.search(out.stdout).groups())
    # the TF buffer and one query equal; the image within the tolerance
    # ("precision") or equal
    assert total == 3 and differ == 0 and match >= 2, describe(out)
    assert match == 3 or "1 precision" in out.stdout, describe(out)
    assert "not replayed" not in out.stdout + out.stderr, describe(out)
    assert "unsupported" not in out.stdout + out.stderr, describe(out)


@pytest.mark.sim
def test_only_linear_filtering_differs_from_llvmpipe(xfbtrace, trace):
    out = sim(xfbtrace, trace, "--check", "--max-diffs", "10000")
    text = out.stdout + out.stderr
    # the TF buffer and the exact regions are equal; the differing pixels
    # (if any) are all in the linearly filtered region, one unit off
    assert "tf_buffer" not in "".join(l for l in text.splitlines() if "differ" in l and "call" in l), describe(out)
    for m in PIXEL.finditer(text):
        x, y = int(m.group(1)), int(m.group(2))
        golden = [int(v) for v in m.group(3, 4, 5, 6)]
        replay = [int(v) for v in m.group(7, 8, 9, 10)]
        assert x >= 16 and y >= 16, describe(out)
        assert max(abs(a - b) for a, b in zip(golden, replay)) <= 1, describe(out)

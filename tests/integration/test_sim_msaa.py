"""Multisample textures on the simulated GPU (issue 22).

tests/apps/tf-msaa-gl33 renders into two 1x1 multisample textures (RGBA8
by glTexImage2DMultisample, R32UI by glTexStorage2DMultisample) four
rectangles that leave a different colour in samples at different x, and
a vertex shader reads sample gl_VertexID of both (texelFetch of a
sampler2DMS and a usampler2DMS) into a TF buffer.  Captured on llvmpipe:

- 4 samples: llvmpipe's positions are radeonsi's standard 4x pattern,
  which the sim programs, so the TF buffer replays equal bit for bit; a
  sim that ignored the sample index would read one colour for every
  point.
- 2 samples: llvmpipe renders them with its 4x pattern, the sim with
  radeonsi's 2x one.  Sample positions are implementation-dependent
  (GL 4.6 §14.3.1): `replay --check` classifies the differing
  glGetMultisamplefv answers and the TF data computed from the texels
  after them, and counts neither as a difference (exit 0; --strict 1).
"""
import re

import pytest

from conftest import describe, run
from test_sim import app_path, sim

APP = "tf-msaa-gl33"
SUMMARY = re.compile(r"^(\d+) observations, (\d+) match, (\d+) differ", re.M)
RETURNS = re.compile(r"^returned values: (\d+) compared, (\d+) differ", re.M)


@pytest.fixture(scope="module")
def traces(xfbtrace, build_dir, tmp_path_factory):
    d = tmp_path_factory.mktemp("sim-msaa")
    out = {}
    for samples in (4, 2):
        t = d / f"{APP}-{samples}.xfbt"
        cap = run([xfbtrace, "capture", "-o", t, "--", app_path(build_dir, APP), str(samples)])
        assert cap.returncode == 0 and t.exists(), describe(cap)
        out[samples] = t
    return out


@pytest.mark.sim
def test_4x_texel_fetch_of_each_sample_replays_equal(xfbtrace, traces):
    out = sim(xfbtrace, traces[4], "--check", "--strict")
    assert out.returncode == 0, describe(out)
    # the TF buffer and its read-back, bit for bit; nothing classified
    assert SUMMARY.search(out.stdout).groups() == ("2", "2", "0"), describe(out)
    assert "classified" not in out.stdout, describe(out)
    assert "not replayed" not in out.stdout + out.stderr, describe(out)
    # the four positions llvmpipe reported are the sim's, compared equal
    compared, differ = (int(x) for x in RETURNS.search(out.stdout).groups())
    assert differ == 0 and compared >= 4, describe(out)


@pytest.mark.sim
def test_2x_positions_and_what_they_decide_are_classified(xfbtrace, traces):
    out = sim(xfbtrace, traces[2], "--check", "--max-diffs", "100")
    assert out.returncode == 0, describe(out)
    text = out.stdout
    # the sim answers radeonsi's 2x positions, where it covers the samples
    assert ("returned GL_SAMPLE_POSITION[0]: capture (0.375, 0.125), replay (0.75, 0.75): sample positions "
            "are implementation-dependent (GL 4.6 §14.3.1)") in text, describe(out)
    assert "replay (0.25, 0.25)" in text, describe(out)
    # the TF buffer and its read-back: classified, not differences
    assert SUMMARY.search(text).groups() == ("2", "0", "0"), describe(out)
    assert len(re.findall(r"implementation-dependent: (tf_buffer|map_read) .*reads multisample textures "
                          r"\(sampler2DMS\).*§14\.3\.1.*call \d+ glGetMultisamplefv", text)) == 2, describe(out)
    strict = sim(xfbtrace, traces[2], "--check", "--strict")
    assert strict.returncode == 1, describe(strict)

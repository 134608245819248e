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
  after them, and counts neither as a difference (exit 0; --strict 1);
  so it does with a trace that never asked for the positions (the app's
  --no-position-query), where nothing shows them to be the replay's.
  What the sim computed is checked against its own positions, so the
  classification hides no wrong sample.
"""
import json
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
    for samples, query in ((4, True), (2, True), (2, False)):
        t = d / f"{APP}-{samples}{'' if query else '-nq'}.xfbt"
        cap = run([xfbtrace, "capture", "-o", t, "--", app_path(build_dir, APP),
                   *([] if query else ["--no-position-query"]), str(samples)])
        assert cap.returncode == 0 and t.exists(), describe(cap)
        out[samples if query else f"{samples}-nq"] = t
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


# tf_msaa_gl33.c's rectangles: k covers x < (4 - k) / 4 - 1/32, in colour k
COLORS = [(1, 0, 0, 1), (0, 1, 0, 1), (0, 0, 1, 1), (1, 1, 1, 0)]
CODES = [10, 20, 30, 40]
POSITION = re.compile(r"returned GL_SAMPLE_POSITION\[(\d+)\]: capture \(([-\d.e]+), [-\d.e]+\), "
                      r"replay \(([-\d.e]+), [-\d.e]+\)")


def last_cover(x):
    covers = [k for k in range(4) if x < (4 - k) / 4 - 1 / 32]
    return covers[-1]


@pytest.mark.sim
def test_2x_samples_hold_what_the_sims_own_positions_give(xfbtrace, traces, tmp_path):
    """The classification hides nothing: each sample the sim's vertex
    shader read holds the colour of the narrowest rectangle that covers
    the position the sim reported for it (and llvmpipe's its own)."""
    db = tmp_path / "runs.sqlite"
    out = sim(xfbtrace, traces[2], "--check", "--max-diffs", "100", "--db", db)
    assert out.returncode == 0, describe(out)
    pos = {int(m.group(1)): (float(m.group(2)), float(m.group(3))) for m in POSITION.finditer(out.stdout)}
    assert sorted(pos) == [0, 1], describe(out)
    diff = run([xfbtrace, "diff", "--db", db, "--json", "1", "2"])
    tf = next(o for o in json.loads(diff.stdout)["observations"] if o["kind"] == "tf_buffer")
    listed = {(d["vertex"], d["varying"], d["component"]): (d["a"], d["b"]) for d in tf["differences"]}
    for s, (golden_x, sim_x) in pos.items():
        want = {"golden": (COLORS[last_cover(golden_x)], CODES[last_cover(golden_x)]),
                "sim": (COLORS[last_cover(sim_x)], CODES[last_cover(sim_x)])}
        for c in range(4):
            g, r = listed.get((s, "v_color", c), (want["golden"][0][c],) * 2)
            assert (g, r) == (want["golden"][0][c], want["sim"][0][c]), (s, c, describe(out))
        g, r = listed.get((s, "v_uint", 0), (want["golden"][1],) * 2)
        assert (g, r) == (want["golden"][1], want["sim"][1]), (s, describe(out))
    # the positions differ, so some sample does too
    assert listed, describe(out)


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


@pytest.mark.sim
def test_2x_without_a_position_query_is_classified_as_unknown(xfbtrace, traces):
    """No glGetMultisamplefv in the trace: nothing shows the replay
    driver's positions to be the capture's, so what the program computed
    from multisample texels is classified, saying so, not counted."""
    out = sim(xfbtrace, traces["2-nq"], "--check", "--max-diffs", "100")
    assert out.returncode == 0, describe(out)
    assert SUMMARY.search(out.stdout).groups() == ("2", "0", "0"), describe(out)
    assert len(re.findall(r"implementation-dependent: (tf_buffer|map_read) .*reads multisample textures .*"
                          r"which the trace does not show to be the replay's \(no glGetMultisamplefv\)",
                          out.stdout)) == 2, describe(out)

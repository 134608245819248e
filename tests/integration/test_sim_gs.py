"""Geometry shaders and vertex streams on the sim backend: traces captured
on Mesa llvmpipe, replayed with `xfbtrace replay --backend sim --check` on
the ES -> GS -> copy-shader path of the driver model (driver/hw/drv_pm4_gs.c)
and gpu_model (gm_gs.c), every observation and returned value compared
with the golden data; and the GS / streamout registers of the draws as
`xfbtrace regs --pm4` shows them, against what radeonsi programs
(docs/gcn-streamout.md §6 and the Mesa 18 dump of
glsl-1.50-geometry-primitive-types in §8.3).
"""
import os
import re

import pytest

from conftest import coverage_rules, describe, piglit_line, run
from tracefile import observations, records

SUMMARY = re.compile(r"^(\d+) observations, (\d+) match, (\d+) differ", re.M)
RETURNS = re.compile(r"^returned values: (\d+) compared, (\d+) differ", re.M)

SEED_LINE = "glsl-1.50-geometry-primitive-types GL_POINTS -auto -fbo"
STREAMS_APP = "tf-streams-gl40"


def blocking(out):
    return coverage_rules().blocking(out)


def sim(xfbtrace, trace, *args, artifacts=None):
    env = dict(os.environ)
    if artifacts:
        env["XFBTRACE_SIM_ARTIFACTS"] = str(artifacts)
    return run([xfbtrace, "replay", "--backend", "sim", *args, trace], env=env, timeout=600)


def assert_all_equal(out, need_observations=True):
    """Everything --check compares is equal (API-error lines have no
    observation, only returned values)."""
    assert out.returncode == 0, describe(out)
    assert not blocking(out), describe(out)   # incl. GPU faults
    total, match, differ = (int(x) for x in SUMMARY.search(out.stdout).groups())
    assert (total > 0 or not need_observations) and match == total and differ == 0, describe(out)
    compared, rdiffer = (int(x) for x in RETURNS.search(out.stdout).groups())
    assert compared > 0 and rdiffer == 0, describe(out)


def calls_named(artifacts, function):
    rows = [l.split("\t") for l in (artifacts / "calls.tsv").read_text().splitlines()[1:]]
    return [r[0] for r in rows if r[1] == function]


def regs_pm4(xfbtrace, artifacts, call):
    out = run([xfbtrace, "regs", "--pm4", artifacts, call])
    assert out.returncode == 0, describe(out)
    pm4 = out.stdout.split("PM4 end")[0]
    return pm4, out.stdout


@pytest.fixture(scope="module")
def streams_trace(xfbtrace, build_dir, tmp_path_factory):
    app = build_dir / "tests" / "apps" / STREAMS_APP
    assert app.exists(), f"{app} was not built"
    trace = tmp_path_factory.mktemp("sim-gs") / f"{STREAMS_APP}.xfbt"
    out = run([xfbtrace, "capture", "-o", trace, "--", app])
    assert trace.exists(), describe(out)
    return trace


def test_streams_app_replays_on_sim_with_every_observation_and_return_equal(xfbtrace, streams_trace):
    # stream 0's positions drawn into the FBO and read back: an image to match
    assert observations(records(xfbtrace, streams_trace), "pixels")
    assert_all_equal(sim(xfbtrace, streams_trace, "--check"))


def test_points_gs_draw_programs_the_gs_registers_like_radeonsi(xfbtrace, piglit_trace, tmp_path):
    """glsl-1.50-geometry-primitive-types GL_POINTS: points in, points out,
    max_vertices 1, one TF buffer on stream 0 (the case of the radeonsi dump in
    docs/gcn-streamout.md §8.3)."""
    trace, art = piglit_trace(piglit_line(SEED_LINE)).trace, tmp_path / "art"
    assert sim(xfbtrace, trace, artifacts=art).returncode == 0
    pm4, _ = regs_pm4(xfbtrace, art, calls_named(art, "glDrawArrays")[0])
    # `xfbtrace pm4 call` prints the same packets without the registers
    only = run([xfbtrace, "pm4", "call", art, calls_named(art, "glDrawArrays")[0]])
    assert only.returncode == 0 and "registers after call" not in only.stdout, describe(only)
    assert re.search(r"00180033\s+VGT_GS_MODE <- MODE = GS_SCENARIO_G", only.stdout), only.stdout
    assert "VGT_GS_OUT_PRIM_TYPE <- OUTPRIM_TYPE = POINTLIST" in only.stdout, only.stdout
    # ac_vgt_gs_mode(1, GFX8): SCENARIO_G, CUT_128, ES/GS_WRITE_OPTIMIZE
    assert re.search(r"00180033\s+VGT_GS_MODE <- MODE = GS_SCENARIO_G", pm4), pm4
    assert "CUT_MODE = GS_CUT_128" in pm4, pm4
    assert "VGT_GS_MAX_VERT_OUT <- MAX_VERT_OUT = 1" in pm4, pm4
    assert "VGT_GS_OUT_PRIM_TYPE <- OUTPRIM_TYPE = POINTLIST" in pm4, pm4
    assert "VGT_GS_INSTANCE_CNT <- ENABLE = 1" in pm4, pm4
    for field in ("ES_EN = ES_STAGE_REAL", "GS_EN = 1", "VS_EN = VS_STAGE_COPY_SHADER"):
        assert field in pm4, pm4
    for reg in ("SPI_SHADER_PGM_LO_ES", "SPI_SHADER_PGM_LO_GS", "SPI_SHADER_PGM_LO_VS",
                "VGT_ESGS_RING_ITEMSIZE", "VGT_GSVS_RING_ITEMSIZE", "VGT_GS_VERT_ITEMSIZE",
                "VGT_ESGS_RING_SIZE", "VGT_GSVS_RING_SIZE", "SPI_SHADER_USER_DATA_ES_0",
                "SPI_SHADER_USER_DATA_GS_0"):
        assert reg in pm4, (reg, pm4)
    # the copy shader (the hardware VS) does the streamout
    rsrc2 = pm4[pm4.index("SPI_SHADER_PGM_RSRC2_VS"):]
    assert re.search(r"SO_BASE0_EN = 1.*?SO_EN = 1", rsrc2, re.S), rsrc2[:800]
    # the streamout enable of glBeginTransformFeedback is the dump's packet
    # (docs/gcn-streamout.md §8.3):
    # c0026900 000002e5 0000000f 00000001
    begin, _ = regs_pm4(xfbtrace, art, calls_named(art, "glBeginTransformFeedback")[0])
    assert re.search(r"c0026900 SET_CONTEXT_REG:\s+000002e5\s+0000000f\s+VGT_STRMOUT_CONFIG <- "
                     r"STREAMOUT_0_EN = 1.*?00000001\s+VGT_STRMOUT_BUFFER_CONFIG <- STREAM_0_BUFFER_EN = 1",
                     begin, re.S), begin


def test_two_stream_draw_programs_per_stream_layout_and_buffers(xfbtrace, streams_trace, tmp_path):
    """tf-streams-gl40: stream 0 -> buffer 0, stream 1 -> buffer 1."""
    art = tmp_path / "art"
    assert sim(xfbtrace, streams_trace, artifacts=art).returncode == 0
    begin, _ = regs_pm4(xfbtrace, art, calls_named(art, "glBeginTransformFeedback")[0])
    assert re.search(r"00000021\s+VGT_STRMOUT_BUFFER_CONFIG <- STREAM_0_BUFFER_EN = 1\s+"
                     r"STREAM_1_BUFFER_EN = 2", begin), begin
    draw, _ = regs_pm4(xfbtrace, art, calls_named(art, "glDrawElements")[0])
    item0 = int(re.search(r"VGT_GS_VERT_ITEMSIZE <- ITEMSIZE = (\d+)", draw).group(1))
    item1 = int(re.search(r"VGT_GS_VERT_ITEMSIZE_1 <- ITEMSIZE = (\d+)", draw).group(1))
    off1 = int(re.search(r"VGT_GSVS_RING_OFFSET_1 <- OFFSET = (\d+)", draw).group(1))
    total = int(re.search(r"VGT_GSVS_RING_ITEMSIZE <- ITEMSIZE = (\d+)", draw).group(1))
    # max_vertices 4: stream 1 starts after stream 0's 4 vertices and both fit the item
    assert item0 > 0 and item1 > 0 and off1 == 4 * item0 and total >= off1 + 4 * item1, draw
    assert "VGT_GS_OUT_PRIM_TYPE <- OUTPRIM_TYPE = POINTLIST" in draw, draw
    assert "VGT_GS_MAX_VERT_OUT <- MAX_VERT_OUT = 4" in draw, draw
    # restart is on for the strip draw
    assert "VGT_MULTI_PRIM_IB_RESET_EN <- RESET_EN = 1" in draw, draw

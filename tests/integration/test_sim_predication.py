"""Conditional rendering on the sim backend (GL 4.6 §10.9) as radeonsi emits
it on GFX8 (si_emit_query_predication; docs/gcn-streamout.md §6.7): before
a draw under glBeginConditionalRender, one SET_PREDICATION with PRED_OP =
PRIMCOUNT per SAMPLE_STREAMOUTSTATS pair of the overflow query (four for
GL_TRANSFORM_FEEDBACK_OVERFLOW), CONTINUE on all but the first, DRAW_VISIBLE
= 0 unless the mode is inverted ("draw if it overflowed"), and the draw
packet carries the PREDICATE bit; the CP (gm_cp_so.c) then skips the draw
or not, which the PRIMITIVES_GENERATED query piglit reads back shows.
"""
import os
import re

from conftest import coverage_rules, describe, piglit_line, run

LINE = "arb_transform_feedback_overflow_query-basic -auto -fbo"
SUMMARY = re.compile(r"^(\d+) observations, (\d+) match, (\d+) differ", re.M)


def calls(xfbtrace, trace):
    """(number, text) of every call of the trace."""
    out = run([xfbtrace, "dump", trace])
    assert out.returncode == 0, describe(out)
    return [(int(m.group(1)), m.group(2)) for m in re.finditer(r"^ *(\d+) (gl\w+\(.*)$", out.stdout, re.M)]


def first_draw_after(all_calls, begin_no):
    return next(no for no, text in all_calls if no > begin_no and text.startswith("glDrawArrays"))


def pm4_of(xfbtrace, art, call):
    out = run([xfbtrace, "pm4", "call", art, str(call)])
    assert out.returncode == 0, describe(out)
    return out.stdout


def test_overflow_conditional_render_replays_equal_and_emits_radeonsi_predication(
        xfbtrace, piglit_trace, tmp_path):
    trace, art = piglit_trace(piglit_line(LINE)).trace, tmp_path / "art"
    out = run([xfbtrace, "replay", "--backend", "sim", "--check", trace],
              env=dict(os.environ, XFBTRACE_SIM_ARTIFACTS=str(art)), timeout=600)
    assert out.returncode == 0 and not coverage_rules().blocking(out), describe(out)
    total, match, differ = (int(x) for x in SUMMARY.search(out.stdout).groups())
    assert total > 0 and match == total and differ == 0, describe(out)

    all_calls = calls(xfbtrace, trace)
    begins = [(no, text) for no, text in all_calls if text.startswith("glBeginConditionalRender")]
    plain = next(no for no, text in begins if "GL_QUERY_WAIT)" in text)
    inverted = next(no for no, text in begins if "GL_QUERY_WAIT_INVERTED" in text)

    # the first one is on GL_TRANSFORM_FEEDBACK_OVERFLOW (any stream): four pairs
    pm4 = pm4_of(xfbtrace, art, first_draw_after(all_calls, plain))
    preds = re.findall(r"SET_PREDICATION:\s+\w+\s+ADDRESS_LO <- 0x(\w+)\s+\w+\s+PRED_CONTROL <- "
                       r"ADDRESS_HI = \d+\s+DRAW_VISIBLE = (\d)\s+HINT = (\d)\s+"
                       r"PRED_OP = (\w+)\s+CONTINUE = (\d)", pm4)
    assert len(preds) == 4, pm4
    assert [p[3] for p in preds] == ["PREDICATION_OP_PRIMCOUNT"] * 4, pm4
    assert [p[4] for p in preds] == ["0", "1", "1", "1"], pm4
    assert all(p[1] == "0" and p[2] == "0" for p in preds), pm4      # draw if overflow; wait
    addrs = [int(p[0], 16) for p in preds]
    assert [a - addrs[0] for a in addrs] == [0, 32, 64, 96], pm4       # one 32-byte pair per stream
    assert re.search(r"c0012d01 DRAW_INDEX_AUTO\(predicate\)", pm4), pm4

    # GL_QUERY_WAIT_INVERTED: draw if it did not overflow
    pm4 = pm4_of(xfbtrace, art, first_draw_after(all_calls, inverted))
    assert re.search(r"DRAW_VISIBLE = 1\s+HINT = 0\s+PRED_OP = PREDICATION_OP_PRIMCOUNT", pm4), pm4
    assert "DRAW_INDEX_AUTO(predicate)" in pm4, pm4

    # a draw outside conditional rendering is not predicated
    outside = next(no for no, text in all_calls if no < begins[0][0] and text.startswith("glDrawArrays"))
    pm4 = pm4_of(xfbtrace, art, outside)
    assert "DRAW_INDEX_AUTO" in pm4 and "(predicate)" not in pm4, pm4

"""`xfbtrace replay` on real traces: the sample apps and the piglit TF list
captured on Mesa llvmpipe, replayed on llvmpipe (and softpipe), with
--check comparing every observation and the deterministic returned values
with the trace's golden data.

A difference must be caught and named: tests/replay/trace_perturb writes a
copy of a real trace with one byte of one observation's data inverted, and
the replay must exit 1 naming that call, its function, the buffer and the
byte.
"""
import os
import re

import pytest

from conftest import (PIGLIT_DIR, calls_not_replayed_that_matter, describe, piglit_command,
                      piglit_env, piglit_line, piglit_result, piglit_tf_lines, run)
from tracefile import calls, observations, records

APPS = ["tf-particles-gles3", "tf-separate-gl33", "tf-streams-gl40"]
LINES = piglit_tf_lines()
SUMMARY = re.compile(r"^(\d+) observations, (\d+) match, (\d+) differ", re.M)


def app_path(build_dir, name):
    path = build_dir / "tests" / "apps" / name
    assert path.exists(), f"{path} was not built"
    return path


def capture(xfbtrace, trace, argv, **kw):
    out = run([xfbtrace, "capture", "-o", trace, "--", *argv], **kw)
    assert trace.exists(), f"capture wrote no trace ({out.returncode}): {out.stderr[-2000:]}"
    return out


def replay(xfbtrace, trace, *args, env=None):
    return run([xfbtrace, "replay", *args, trace], env=env, timeout=600)


def summary(out):
    m = SUMMARY.search(out.stdout)
    assert m, f"no summary line:\n{out.stdout}\n{out.stderr}"
    return tuple(int(x) for x in m.groups())


@pytest.fixture(scope="module")
def app_traces(xfbtrace, build_dir, tmp_path_factory):
    d = tmp_path_factory.mktemp("apps")
    traces = {}
    for app in APPS:
        traces[app] = d / f"{app}.xfbt"
        capture(xfbtrace, traces[app], [app_path(build_dir, app)])
    return traces


@pytest.mark.parametrize("app", APPS)
def test_app_trace_replays_with_every_observation_equal(xfbtrace, app_traces, app):
    out = replay(xfbtrace, app_traces[app], "--check")
    assert out.returncode == 0, describe(out)
    total, match, differ = summary(out)
    assert total > 0 and match == total and differ == 0, describe(out)
    assert "0 differ" in out.stdout
    assert "not replayed" not in out.stdout, describe(out)


@pytest.mark.piglit
@pytest.mark.parametrize("line", LINES)
def test_piglit_trace_replays_with_every_observation_equal(xfbtrace, piglit_trace, line):
    out = replay(xfbtrace, piglit_trace(line).trace, "--check")
    assert out.returncode == 0, describe(out)
    total, match, differ = summary(out)
    # Timer query results are timing-dependent, said so and not compared.
    untimed = re.search(r"^\d+ observations, .*, (\d+) not compared \(timing-dependent\)$",
                        out.stdout, re.M)
    assert differ == 0 and match + (int(untimed.group(1)) if untimed else 0) == total, describe(out)
    assert not calls_not_replayed_that_matter(out), describe(out)


def test_check_names_the_call_buffer_and_byte_of_an_altered_observation(
        xfbtrace, build_dir, app_traces, tmp_path):
    perturb = build_dir / "tests" / "replay" / "trace_perturb"
    altered = tmp_path / "altered.xfbt"
    # The second observation with data, byte 13 of it.
    p = run([perturb, app_traces["tf-separate-gl33"], altered, "1", "13"])
    assert p.returncode == 0, p.stderr
    call_no, byte = map(int, re.match(r"call (\d+) byte (\d+)", p.stdout).groups())

    recs = records(xfbtrace, altered)
    obs = [o for o in observations(recs) if "data" in o]
    golden = obs[1]
    assert golden["call"] == call_no
    func = next(c["name"] for c in calls(recs) if c["no"] == call_no)

    out = replay(xfbtrace, altered, "--check")
    assert out.returncode == 1, describe(out)
    total, match, differ = summary(out)
    assert differ == 1 and match == total - 1, describe(out)
    line = next(l for l in out.stdout.splitlines() if "differs" in l)
    assert line.startswith(f"call {call_no} {func}: "), line
    assert f"buffer {golden['buffer']}" in line, line
    assert f"at byte {byte} of {golden['size']}" in line, line
    # The original trace of the same program stays all equal.
    assert replay(xfbtrace, app_traces["tf-separate-gl33"], "--check").returncode == 0


NAN_LINE = "isinf-and-isnan vs_xfb -auto -fbo"


@pytest.fixture(scope="module")
def nan_trace(xfbtrace, piglit_trace):
    """A piglit trace whose TF data (and the application's map of it) holds
    NaNs, and where the first NaN word is: (index among observations with
    data, byte offset of the word)."""
    trace = piglit_trace(piglit_line(NAN_LINE)).trace
    with_data = [o for o in observations(records(xfbtrace, trace)) if "data" in o]
    for i, o in enumerate(with_data):
        if o["kind"] != "tf_buffer":
            continue
        data = bytes.fromhex(o["data"]["hex"])
        for w in range(0, len(data) - 3, 4):
            u = int.from_bytes(data[w:w + 4], "little")
            if (u & 0x7f800000) == 0x7f800000 and u & 0x7fffff:
                return trace, i, w
    pytest.fail(f"{NAN_LINE}: no TF data with a NaN")


def replay_with_nan_altered(xfbtrace, build_dir, nan_trace, tmp_path, mask):
    """Replays with --check a copy of the NaN trace whose first NaN word
    has its top byte XORed with `mask`; (the word's offset, the result)."""
    trace, index, word = nan_trace
    altered = tmp_path / "altered.xfbt"
    perturb = build_dir / "tests" / "replay" / "trace_perturb"
    p = run([perturb, trace, altered, str(index), str(word + 3), hex(mask)])
    assert p.returncode == 0, p.stderr
    return word, replay(xfbtrace, altered, "--check")


def test_tf_data_differing_only_in_nan_bits_is_a_match(xfbtrace, build_dir, nan_trace,
                                                        tmp_path):
    # GLSL leaves NaN bit patterns undefined: the golden NaN's sign flipped
    # is still a match, said as such; llvmpipe's replay keeps its own sign.
    word, out = replay_with_nan_altered(xfbtrace, build_dir, nan_trace, tmp_path, 0x80)
    assert out.returncode == 0, describe(out)
    total, match, differ = summary(out)
    assert match == total and differ == 0, describe(out)
    assert "(1 of the matches only up to NaN bit patterns)" in out.stdout, describe(out)
    note = next(l for l in out.stdout.splitlines() if "matches up to NaN bit patterns" in l)
    assert f"the first other NaN at byte {word} " in note, note
    assert "differs" not in out.stdout, describe(out)


def test_a_nan_that_became_a_number_still_differs(xfbtrace, build_dir, nan_trace, tmp_path):
    # 0x?fc00000 ^ 0x40 in the top byte: exponent no longer all ones.
    word, out = replay_with_nan_altered(xfbtrace, build_dir, nan_trace, tmp_path, 0x40)
    assert out.returncode == 1, describe(out)
    total, match, differ = summary(out)
    assert differ == 1, describe(out)
    assert f"data differs at byte {word + 3} " in out.stdout, describe(out)


def test_perturb_refuses_an_observation_that_does_not_exist(xfbtrace, build_dir, app_traces,
                                                            tmp_path):
    perturb = build_dir / "tests" / "replay" / "trace_perturb"
    p = run([perturb, app_traces["tf-streams-gl40"], tmp_path / "x.xfbt", "100000", "0"])
    assert p.returncode == 1 and "no such observation" in p.stderr


def test_replay_reads_observations_back_only_when_checking(xfbtrace, app_traces, tmp_path):
    # The replay itself, captured: without --check it maps buffers only
    # where the program did; with --check it also reads each TF buffer back.
    trace = app_traces["tf-particles-gles3"]
    program_maps = sum(1 for c in calls(records(xfbtrace, trace)) if c["name"] == "glMapBufferRange")
    tf_ends = sum(1 for c in calls(records(xfbtrace, trace)) if c["name"] == "glEndTransformFeedback")
    maps = {}
    for mode in ([], ["--check"]):
        meta = tmp_path / f"replay{len(mode)}.xfbt"
        out = run([xfbtrace, "capture", "--no-observe", "-o", meta, "--", xfbtrace, "replay",
                   *mode, trace], timeout=600)
        assert out.returncode == 0, describe(out)
        maps[bool(mode)] = sum(1 for c in calls(records(xfbtrace, meta))
                               if c["name"] == "glMapBufferRange")
    assert program_maps > 0 and tf_ends > 0
    assert maps[False] == program_maps, maps
    assert maps[True] == program_maps + tf_ends, maps


def test_calls_range_stops_after_its_end_and_checks_from_its_start(xfbtrace, app_traces):
    trace = app_traces["tf-separate-gl33"]
    recs = records(xfbtrace, trace)
    ends = [c["no"] for c in calls(recs) if c["name"] == "glEndTransformFeedback"]
    first, last = ends[0], ends[-1]
    whole = summary(replay(xfbtrace, trace, "--check"))
    out = replay(xfbtrace, trace, "--check", "--calls", f"{first}-{last}")
    assert out.returncode == 0, describe(out)
    assert f"replayed {last + 1} calls" in out.stdout, out.stdout
    n_in_range = len([o for o in observations(recs) if first <= o["call"] <= last])
    assert summary(out)[0] == n_in_range < whole[0]


def test_softpipe_replay_reports_against_llvmpipe_golden_data(xfbtrace, app_traces):
    env = dict(os.environ, LIBGL_ALWAYS_SOFTWARE="1", GALLIUM_DRIVER="softpipe")
    outs = {app: replay(xfbtrace, trace, "--check", env=env) for app, trace in app_traces.items()}
    for app, out in outs.items():
        assert "on softpipe" in out.stdout, describe(out)
        total, match, differ = summary(out)
        returns_differ = int(re.search(r"^returned values: \d+ compared, (\d+) differ",
                                       out.stdout, re.M).group(1))
        clean = differ == 0 and returns_differ == 0 and "not replayed" not in out.stdout
        # The exit status says whether anything differs, and each difference
        # is named with its call.
        assert out.returncode == (0 if clean else 1), describe(out)
        assert clean or re.search(r"^call \d+ \w+: ", out.stdout, re.M), describe(out)
    # GLES 3.0 particles: softpipe computes the same TF output.
    total, match, differ = summary(outs["tf-particles-gles3"])
    assert total > 0 and match == total, describe(outs["tf-particles-gles3"])
    # softpipe has no GL 4.0 core context: said, not silently replayed on 3.3.
    assert re.search(r"^call \d+ eglCreateContext: not replayed: the driver has no GL core 4\.0 "
                     r"context", outs["tf-streams-gl40"].stdout, re.M), \
        describe(outs["tf-streams-gl40"])


def test_unsupported_call_is_reported_by_name_and_first_call_number(xfbtrace, piglit_trace):
    # The sim driver does not implement glQueryCounter (timer queries: the
    # model has no clock), so it does not replay it: each such call is
    # named, with its first call and count, by the same reporting every
    # backend uses (replay_unsupported).  (Its earlier example, the
    # wireframe draws' read-backs, is drawn since the polygon modes are.)
    trace = piglit_trace(piglit_line("arb_query_buffer_object-coherency -auto -fbo")).trace
    counters = [c["no"] for c in calls(records(xfbtrace, trace)) if c["name"] == "glQueryCounter"]
    assert counters
    out = replay(xfbtrace, trace, "--backend", "sim", "--check")
    assert (f"call {counters[0]} glQueryCounter: not replayed: the sim driver does not implement it"
            in out.stdout), describe(out)
    assert re.search(rf"^not replayed: \d+ calls of \d+ functions: .*glQueryCounter "
                     rf"\(first call {counters[0]}, {len(counters)} calls\)", out.stdout, re.M), describe(out)
    host = replay(xfbtrace, trace, "--check")
    assert host.returncode == 0 and "not replayed" not in host.stdout, describe(host)


@pytest.mark.parametrize("call", ["bitmap", "drawpixels", "copypixels"])
def test_pixel_rectangles_are_drawn_and_compared_on_the_sim(xfbtrace, piglit_trace, call):
    # glBitmap, glDrawPixels and glCopyPixels at the raster position are
    # drawn by the sim (drv_pipe_pixrect), so the image piglit reads back
    # is compared, not reported as not drawn.
    trace = piglit_trace(piglit_line(f"ext_transform_feedback-discard-{call} -auto -fbo")).trace
    out = replay(xfbtrace, trace, "--backend", "sim", "--check")
    assert out.returncode == 0 and "not replayed" not in out.stdout, describe(out)
    total, match, differ = summary(out)
    assert total == match == 1 and "not drawn" not in out.stdout, describe(out)
    # glBitmap's bitmap and glDrawPixels' pixels (COMPSIZE in the registry)
    # are recorded with their size, so the host replays every call too.
    host = replay(xfbtrace, trace, "--check")
    assert host.returncode == 0 and "not replayed" not in host.stdout, describe(host)


def test_replay_of_missing_or_corrupt_trace_is_an_error(xfbtrace_san, build_dir, app_traces,
                                                        tmp_path):
    env = dict(os.environ, ASAN_OPTIONS="detect_leaks=0")
    out = run([xfbtrace_san, "replay", "--check", tmp_path / "none.xfbt"], env=env)
    assert out.returncode == 2 and "xfbtrace replay:" in out.stderr, describe(out)
    data = bytearray(app_traces["tf-streams-gl40"].read_bytes())
    for where in (len(data) // 3, len(data) // 2, len(data) - 40):
        bad = tmp_path / f"bad{where}.xfbt"
        flipped = bytearray(data)
        flipped[where] ^= 0x40
        bad.write_bytes(flipped)
        out = run([xfbtrace_san, "replay", "--check", bad], env=env)
        assert out.returncode == 2, describe(out)
        assert "corrupt" in out.stderr or "checksum" in out.stderr, describe(out)
        assert "ERROR: AddressSanitizer" not in out.stderr and "runtime error" not in out.stderr


def test_replay_under_sanitizers_is_clean(xfbtrace_san, app_traces):
    env = dict(os.environ, ASAN_OPTIONS="detect_leaks=0")
    for trace in app_traces.values():
        out = run([xfbtrace_san, "replay", "--check", trace], env=env)
        assert out.returncode == 0, describe(out)
        assert "runtime error" not in out.stderr, describe(out)


def test_usage_errors_exit_2(xfbtrace, app_traces):
    trace = app_traces["tf-streams-gl40"]
    assert run([xfbtrace, "replay"]).returncode == 2
    assert run([xfbtrace, "replay", "--backend", "nosuch", trace]).returncode == 2
    assert run([xfbtrace, "replay", "--calls", "9-3", trace]).returncode == 2


def test_query_buffer_below_gl_4_4_is_an_offset_and_replays_on_4_5(xfbtrace, tmp_path):
    """ARB_query_buffer_object in a context below GL 4.4 (NVIDIA gives the
    version a program asks for; llvmpipe does with MESA_GL_VERSION_OVERRIDE):
    glGetQueryObject*v's params is an offset into the bound query buffer.
    The capture must not read it as memory (it crashed the program), and its
    query observations must be the ones a GL 4.5 replay makes."""
    line = piglit_line("arb_query_buffer_object-coherency -auto -fbo")
    trace = tmp_path / "qbo.xfbt"
    env = dict(piglit_env(), MESA_GL_VERSION_OVERRIDE="3.3")
    out = run([xfbtrace, "capture", "-o", trace, "--", *piglit_command(line)], env=env,
              cwd=PIGLIT_DIR, timeout=600)
    assert out.returncode == 0 and piglit_result(out.stdout) == "pass", describe(out)
    recs = records(xfbtrace, trace)
    version = next(r["value"] for r in recs if r["type"] == "property" and r["key"] == "gl.version")
    assert version.startswith("3.3"), version
    to_buffer = [o for o in observations(recs, "query") if o["to_buffer"]]
    assert to_buffer, "no query result observed through the query buffer"
    check = replay(xfbtrace, trace, "--check")
    assert check.returncode == 0 and "4.5" in check.stdout, describe(check)
    total, match, differ = summary(check)
    assert differ == 0 and total >= len(to_buffer), describe(check)

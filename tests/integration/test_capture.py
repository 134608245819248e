"""`xfbtrace capture` on real programs: the sample apps, crashes, threads.

Every test runs the real binary and the real capture library on programs
that really draw with transform feedback on Mesa llvmpipe.
"""
import os
import re
import struct

import pytest

from conftest import (PIGLIT_DIR, describe, piglit_command, piglit_env, piglit_line,
                      piglit_result, run)
from tracefile import blob_bytes, calls, observations, records

APPS = ["tf-particles-gles3", "tf-separate-gl33", "tf-streams-gl40"]
TF_ENDING = {"glEndTransformFeedback", "glPauseTransformFeedback"}


def app_path(build_dir, name):
    path = build_dir / "tests" / "apps" / name
    assert path.exists(), f"{path} was not built"
    return path


def capture(xfbtrace, trace, argv, expect=0):
    out = run([xfbtrace, "capture", "-o", trace, "--", *argv])
    assert out.returncode == expect, f"capture exited {out.returncode}: {out.stderr}\n{out.stdout}"
    return out


@pytest.fixture(params=["async", "sync"])
def observe_mode(request, monkeypatch):
    """Each observation test runs with TF buffers read back asynchronously
    (the default: copied on the GPU, read later; issue 23) and at the call."""
    monkeypatch.setenv("XFBTRACE_OBSERVE", request.param)
    return request.param


def read_readback_dump(path):
    data = path.read_bytes()
    chunks, pos = [], 0
    while pos < len(data):
        (n,) = struct.unpack_from("<I", data, pos)
        chunks.append(data[pos + 4:pos + 4 + n])
        pos += 4 + n
    return chunks


@pytest.mark.parametrize("app", APPS)
def test_app_is_captured_with_every_tf_observation(xfbtrace, build_dir, tmp_path, observe_mode, app):
    trace = tmp_path / f"{app}.xfbt"
    dump = tmp_path / "readback.bin"
    out = capture(xfbtrace, trace, [app_path(build_dir, app), "--dump-readback", dump])
    assert "wrote" in out.stderr
    recs = records(xfbtrace, trace)
    cs = calls(recs)
    names = [c["name"] for c in cs]
    assert "glBeginTransformFeedback" in names
    # Call numbers are dense and in order.
    assert [c["no"] for c in cs] == list(range(cs[0]["no"], cs[0]["no"] + len(cs)))

    # Every End/Pause with a buffer bound has a tf_buffer observation with data.
    tf_obs = observations(recs, "tf_buffer")
    ending_calls = {c["no"] for c in cs if c["name"] in TF_ENDING}
    observed_calls = {o["call"] for o in tf_obs}
    assert ending_calls and ending_calls == observed_calls
    for o in tf_obs:
        assert "data" in o, o
        assert len(blob_bytes(o["data"])) == o["size"] > 0
        assert o["layout"]["varyings"], o["layout"]

    # What the app read back is recorded byte for byte, in order.
    reads = [blob_bytes(o["data"]) for o in recs if o["type"] == "observation"
             and o["kind"] in ("map_read", "buffer_read")]
    app_reads = read_readback_dump(dump)
    assert app_reads, "the app read nothing back"
    assert reads == app_reads


def test_capture_properties_name_the_program_and_driver(xfbtrace, build_dir, tmp_path):
    trace = tmp_path / "t.xfbt"
    app = app_path(build_dir, "tf-separate-gl33")
    capture(xfbtrace, trace, [app])
    props = {r["key"]: r["value"] for r in records(xfbtrace, trace) if r["type"] == "property"}
    assert props["program"].endswith("tf-separate-gl33")
    assert props["pid"]
    assert "llvmpipe" in props["gl.renderer"]
    assert props["gl.version"].startswith("3.3") or props["gl.version"][0] in "34"
    version = run([xfbtrace, "--version"]).stdout
    assert props["xfbtrace.revision"] and f"(revision {props['xfbtrace.revision']})" in version


def test_exit_status_is_the_programs(xfbtrace, build_dir, tmp_path):
    app = app_path(build_dir, "tf-separate-gl33")
    capture(xfbtrace, tmp_path / "p.xfbt", [app, "--perturb"], expect=1)
    # a program that makes no GL call leaves nothing to replay: an error
    out = run([xfbtrace, "capture", "-o", tmp_path / "n.xfbt", "--", "/bin/true"])
    assert out.returncode == 2
    assert "made a GL call; no trace written" in out.stderr
    out = run([xfbtrace, "capture", "--", tmp_path / "does-not-exist"])
    assert out.returncode == 127


@pytest.mark.parametrize("mode,status", [("abort", 128 + 6), ("segv", 128 + 11),
                                         ("exit", 0), ("kill", 128 + 9)])
def test_crashing_app_leaves_its_last_tf_draw(xfbtrace, build_dir, tmp_path, observe_mode, mode, status):
    prog = build_dir / "tests" / "capture" / "tf-crash"
    trace = tmp_path / f"crash-{mode}.xfbt"
    out = run([xfbtrace, "capture", "-o", trace, "--", prog, mode])
    assert out.returncode == status, out.stderr
    recs = records(xfbtrace, trace)
    names = [c["name"] for c in calls(recs)]
    assert "glDrawArrays" in names
    assert names.count("glEndTransformFeedback") >= 1
    end_no = max(c["no"] for c in calls(recs) if c["name"] == "glEndTransformFeedback")
    obs = [o for o in observations(recs) if o["call"] == end_no]
    assert len(obs) == 1, obs
    if observe_mode == "async" and obs[0]["kind"] == "lost":
        # Its copy was still on its way when the program died: the trace
        # names it, and replay --check says so without calling it a difference.
        assert obs[0]["of"] == "tf_buffer" and obs[0]["records"] == 1, obs
        check = run([xfbtrace, "replay", "--check", trace])
        assert check.returncode == 0, describe(check)
        assert (f"call {end_no} glEndTransformFeedback: not compared: the capture lost 1 "
                "tf_buffer observation") in check.stdout, check.stdout
        assert "1 lost by the capture" in check.stdout
        return
    assert obs[0]["kind"] == "tf_buffer" and "data" in obs[0]
    # tf_out = pos * 2 + gl_VertexID: the draw really wrote, vertex 0 is (0, 0, 0, 2).
    data = blob_bytes(obs[0]["data"])
    assert struct.unpack_from("<4f", data, 0) == (0.0, 0.0, 0.0, 2.0)


def test_spool_of_a_killed_program_is_readable_without_compaction(xfbtrace, build_dir, tmp_path):
    """Preloaded by hand, no `xfbtrace capture` to compact: SIGKILL loses nothing."""
    prog = build_dir / "tests" / "capture" / "tf-crash"
    trace = tmp_path / "raw.xfbt"
    env = dict(os.environ, LD_PRELOAD=str(build_dir / "capture" / "libxfbtrace-capture.so"),
               XFBTRACE_OUTPUT=str(trace))
    out = run([prog, "kill"], env=env)
    assert out.returncode == -9
    info = run([xfbtrace, "info", trace])
    assert info.returncode == 0, info.stderr
    assert "spool" in info.stdout
    names = [c["name"] for c in calls(records(xfbtrace, trace))]
    assert "glEndTransformFeedback" in names


def test_two_threads_are_captured_in_global_order(xfbtrace, build_dir, tmp_path, observe_mode):
    prog = build_dir / "tests" / "capture" / "cap-threads"
    trace = tmp_path / "threads.xfbt"
    capture(xfbtrace, trace, [prog])
    recs = records(xfbtrace, trace)
    cs = calls(recs)
    # main (creates both contexts) + the two workers
    assert len({c["thread"] for c in cs}) == 3
    assert len({c["thread"] for c in cs if c["name"] == "glClearColor"}) == 2
    # The threads take turns after every call, each passing the next value of
    # a shared counter to glClearColor: in the true global order the values
    # are 0, 1, 2, ... and the thread changes at every call.
    marks = [c["args"]["red"] for c in cs if c["name"] == "glClearColor"]
    assert len(marks) == 4000
    assert marks == list(range(4000))
    # and both threads really interleave
    threads = [c["thread"] for c in cs if c["name"] == "glClearColor"]
    switches = sum(1 for a, b in zip(threads, threads[1:]) if a != b)
    assert switches == 3999


@pytest.mark.parametrize("when", ["after-first-call", "--fork-first"])
def test_forked_child_gets_its_own_trace(xfbtrace, build_dir, tmp_path, observe_mode, when):
    # --fork-first: the fork comes before any GL call (Godot's GPU-detection
    # children), so the child starts its trace before the parent does.
    prog = build_dir / "tests" / "capture" / "cap-fork"
    trace = tmp_path / "fork.xfbt"
    out = capture(xfbtrace, trace, [prog] + ([when] if when.startswith("--") else []))
    assert "capture stopped" not in out.stderr, out.stderr
    children = sorted(tmp_path.glob("fork.*.xfbt"))
    assert len(children) == 1, (children, out.stderr)
    assert str(children[0]) in out.stderr  # compacted and reported

    def tf_sizes(path):
        recs = records(xfbtrace, path)
        cs = calls(recs)
        assert cs[0]["no"] == 0
        return [o["size"] for o in observations(recs, "tf_buffer")]

    # The parent draws 5 points, the child 3 (16 bytes each), each in its own trace.
    assert tf_sizes(trace) == [5 * 16]
    assert tf_sizes(children[0]) == [3 * 16]
    info = run([xfbtrace, "info", children[0]])
    assert "compacted" in info.stdout


def test_memory_written_through_mappings_is_recorded(xfbtrace, build_dir, tmp_path):
    """cap-maps writes known patterns through a plain, an explicit-flush and
    a persistent coherent mapping; the MEMWRITE records hold exactly those
    bytes at the mapped addresses, before the call that publishes them."""
    prog = build_dir / "tests" / "capture" / "cap-maps"
    trace = tmp_path / "maps.xfbt"
    out = run([xfbtrace, "capture", "-o", trace, "--", prog])
    assert out.returncode == 0, describe(out)

    def pattern(k, n):
        return bytes((k * 31 + i * 7) & 255 for i in range(n))

    recs = records(xfbtrace, trace)
    by_no = {c["no"]: c for c in calls(recs)}
    maps = [c for c in calls(recs) if c["name"] == "glMapBufferRange"]
    writes = [r for r in recs if r["type"] == "memwrite"]
    assert len(maps) >= 2

    unmap, flush = writes[0], writes[1]
    assert unmap["why"] == "map-unmap" and by_no[unmap["call"]]["name"] == "glUnmapBuffer"
    assert unmap["addr"] == maps[0]["ret"]["pointer"]
    assert blob_bytes(unmap["data"]) == pattern(1, 64)

    assert flush["why"] == "map-flush" and by_no[flush["call"]]["name"] == "glFlushMappedBufferRange"
    assert flush["addr"] == maps[1]["ret"]["pointer"] + 16
    assert blob_bytes(flush["data"]) == pattern(2, 128)[16:48]
    # The explicit-flush mapping's unflushed bytes are not published at unmap.
    assert not [w for w in writes if w["why"] == "map-unmap" and w is not unmap]

    persistent = [w for w in writes if w["why"] == "persistent"]
    assert len(persistent) == 1
    w = persistent[0]
    assert by_no[w["call"]]["name"] == "glFinish"
    base = maps[2]["ret"]["pointer"]
    data = blob_bytes(w["data"])
    start = w["addr"] - base
    # The record covers bytes 100..139 (in whole diff blocks); the app wrote
    # pattern 3 there and left the rest of the new buffer as it was (zero).
    assert start <= 100 and start + len(data) >= 140
    expected = bytearray(len(data))
    expected[100 - start:140 - start] = pattern(3, 40)
    assert data == bytes(expected)


def test_client_arrays_are_recorded_in_the_range_each_draw_uses(xfbtrace, build_dir, tmp_path):
    prog = build_dir / "tests" / "capture" / "cap-client-arrays"
    trace = tmp_path / "ca.xfbt"
    capture(xfbtrace, trace, [prog])
    recs = records(xfbtrace, trace)
    by_no = {c["no"]: c for c in calls(recs)}
    pointer = next(c for c in calls(recs) if c["name"] == "glVertexAttribPointer")
    base = pointer["args"]["pointer"]["pointer"]

    def vertices(first, last):
        return b"".join(struct.pack("<4f", *(i + 0.25 * c for c in range(4)))
                        for i in range(first, last + 1))

    writes = [r for r in recs if r["type"] == "memwrite" and r["why"] == "client-array"]
    assert [by_no[w["call"]]["name"] for w in writes] == ["glDrawArrays", "glDrawElements"]
    # glDrawArrays(first 3, count 4): vertices 3..6.
    assert writes[0]["addr"] == base + 3 * 16
    assert blob_bytes(writes[0]["data"]) == vertices(3, 6)
    # glDrawElements with indices {5, 2, 4, 2}: vertices 2..5, indices as memory.
    assert writes[1]["addr"] == base + 2 * 16
    assert blob_bytes(writes[1]["data"]) == vertices(2, 5)
    draw = by_no[writes[1]["call"]]
    assert blob_bytes(draw["args"]["indices"]) == struct.pack("<4H", 5, 2, 4, 2)


def test_tf_layout_follows_every_program_change(xfbtrace, build_dir, gl_types, tmp_path, observe_mode):
    """The capture reads a program's TF layout once per link and context
    (observe/obs_tf.c, struct obs_tf_cache).  cap-tf-programs changes the
    program or its layout between TF draws in every way that cache must
    notice: new varyings without a relink (no change), relinks, two programs
    in turn, a deleted program, a program binary, and a second context whose
    program has the first context's program's name.  Each observation must
    carry the layout of its own draw, and its bytes must decode with that
    layout to what the shader wrote."""
    prog = build_dir / "tests" / "capture" / "cap-tf-programs"
    trace = tmp_path / "programs.xfbt"
    out = capture(xfbtrace, trace, [prog])
    expected = [line.split()[1].split(",") for line in out.stdout.splitlines()
                if line.startswith("tf ")]
    assert len(expected) >= 13, out.stdout
    assert "same name" in out.stdout, "the two contexts' programs should share a name"

    recs = records(xfbtrace, trace)
    by_no = {c["no"]: c for c in calls(recs)}
    tf_obs = observations(recs, "tf_buffer")
    assert all(by_no[o["call"]]["name"] == "glEndTransformFeedback" for o in tf_obs)
    assert [[v["name"] for v in o["layout"]["varyings"]] for o in tf_obs] == expected

    components = {name: t["components"] for name, t in gl_types.items()}
    written = {"a": lambda i: (i, i + 0.25, i + 0.5, i + 0.75),
               "b": lambda i: (10.0 + i, 20.0 + i),
               "c": lambda i: (100.0 + i,)}
    map_reads = observations(recs, "map_read")
    assert len(map_reads) == len(tf_obs)
    for o, m in zip(tf_obs, map_reads):
        layout = o["layout"]
        data = blob_bytes(o["data"])
        stride = sum(4 * components[v["type"]] for v in layout["varyings"])
        assert layout["strides"] == [stride], layout
        for i in range(3):
            for v in layout["varyings"]:
                n = components[v["type"]]
                got = struct.unpack_from(f"<{n}f", data, i * stride + v["offset"])
                assert got == written[v["name"]](i), (o["call"], i, v)
        # The application's own read-back right after saw the same bytes.
        assert m["call"] > o["call"] and blob_bytes(m["data"]) == data


def test_tf_observations_follow_every_binding_and_program_switch(xfbtrace, build_dir, tmp_path, observe_mode):
    """The capture asks the driver for TF's program, bound ranges, the
    generic TF binding and the bound buffers' sizes only after a call that
    may change them (observe/obs_tf.c, struct obs_tf_cache).
    cap-tf-bindings changes them between TF draws with glBindBufferBase /
    Range (also on another target: no change), a second TF object,
    glDeleteBuffers of a bound buffer, glBufferData of a bound buffer,
    glBindBuffer of the generic binding and program pipelines; it prints
    what the GL reports before each glEndTransformFeedback and the bytes it
    reads back after.  The observations of that call must name the same
    program and ranges and hold the same bytes."""
    prog = build_dir / "tests" / "capture" / "cap-tf-bindings"
    trace = tmp_path / "bindings.xfbt"
    out = capture(xfbtrace, trace, [prog])

    def as_observed(field):
        index, buffer, start, size, total = (int(x) for x in field.split(":"))
        # The observation's size: a whole-buffer binding (size 0) to its end.
        if size == 0 or start + size > total:
            size = total - start
        return index, buffer, start, size

    expected = []
    for line in out.stdout.splitlines():
        if line.startswith("tf "):
            fields = line.split()[1:]
            expected.append((int(fields[0]), [as_observed(f) for f in fields[1:]], []))
        elif line.startswith("data "):
            _, index, hexdata = (line.split() + [""])[:3]
            expected[-1][2].append((int(index), bytes.fromhex(hexdata)))
    assert len(expected) >= 13, out.stdout
    assert "info pipelines tried" in out.stdout  # llvmpipe has GLES 3.1

    recs = records(xfbtrace, trace)
    ends = [c["no"] for c in calls(recs) if c["name"] == "glEndTransformFeedback"]
    assert len(ends) == len(expected)
    tf_obs = observations(recs, "tf_buffer")
    for no, (program, ranges, datas) in zip(ends, expected):
        obs = [o for o in tf_obs if o["call"] == no]
        assert [(o["index"], o["buffer"], o["offset"], o["size"]) for o in obs] == ranges, no
        assert all(o["layout"]["program"] == program for o in obs), (no, program)
        assert [(o["index"], blob_bytes(o["data"])) for o in obs] == datas, no


def test_tf_buffer_mapped_at_end_is_reported_and_errors_stay_the_applications(
        xfbtrace, build_dir, tmp_path, observe_mode):
    """cap-tf-mapped ends a TF draw while it has the TF buffer mapped and an
    error of its own pending: the capture's read-back fails (on GLES the
    capture maps first and asks why only then), the observation says the
    buffer was mapped, and the application gets exactly its own error back
    (the program checks that and its bytes; exit 1 otherwise).  No warning
    about an error of ours: that one is expected and consumed."""
    prog = build_dir / "tests" / "capture" / "cap-tf-mapped"
    trace = tmp_path / "mapped.xfbt"
    out = capture(xfbtrace, trace, [prog])
    assert "errors 0x500 0x0" in out.stdout and "ok" in out.stdout, out.stdout
    assert "raised GL error" not in out.stderr, out.stderr
    recs = records(xfbtrace, trace)
    ends = [c["no"] for c in calls(recs) if c["name"] == "glEndTransformFeedback"]
    obs = {o["call"]: o for o in observations(recs, "tf_buffer")}
    assert len(ends) >= 2  # a third with GL_EXT_buffer_storage, see below
    assert "data" in obs[ends[0]]
    assert obs[ends[1]].get("unavailable") == "the buffer is mapped by the application"
    assert "data" not in obs[ends[1]]


def test_tf_buffer_mapped_persistently_is_read_through_the_mapping(xfbtrace, build_dir,
                                                                    tmp_path, observe_mode):
    """A TF buffer the application keeps mapped persistently for reading
    (GL_EXT_buffer_storage) cannot be mapped again; the capture reads it
    through the application's mapping instead, and the observation holds
    the bytes the application sees there.  The replay does the same and
    compares equal."""
    prog = build_dir / "tests" / "capture" / "cap-tf-mapped"
    trace = tmp_path / "persistent.xfbt"
    out = capture(xfbtrace, trace, [prog])
    assert "info no GL_EXT_buffer_storage" not in out.stdout, out.stdout
    line = next(l for l in out.stdout.splitlines() if l.startswith("persistent "))
    seen = bytes.fromhex(line.split()[1])
    recs = records(xfbtrace, trace)
    ends = [c["no"] for c in calls(recs) if c["name"] == "glEndTransformFeedback"]
    obs = {o["call"]: o for o in observations(recs, "tf_buffer")}
    assert len(ends) == 3
    assert blob_bytes(obs[ends[2]]["data"]) == seen
    check = run([xfbtrace, "replay", "--check", trace])
    assert check.returncode == 0, check.stdout + check.stderr


def test_desktop_tf_buffer_mapped_persistently_is_read(xfbtrace, build_dir, tmp_path, observe_mode):
    """Desktop GL may glGetBufferSubData a buffer mapped with
    GL_MAP_PERSISTENT_BIT: cap-tf-persistent-gl's TF buffer, mapped so for
    the whole run, is observed with the bytes the program reads through its
    mapping, and the replay compares equal."""
    prog = build_dir / "tests" / "capture" / "cap-tf-persistent-gl"
    assert prog.exists(), f"{prog} was not built (libopengl-dev is missing?)"
    trace = tmp_path / "persistent-gl.xfbt"
    out = capture(xfbtrace, trace, [prog])
    line = next(l for l in out.stdout.splitlines() if l.startswith("persistent "))
    recs = records(xfbtrace, trace)
    [obs] = observations(recs, "tf_buffer")
    assert blob_bytes(obs["data"]) == bytes.fromhex(line.split()[1])
    check = run([xfbtrace, "replay", "--check", trace])
    assert check.returncode == 0, check.stdout + check.stderr


def test_gather_dispatches_leave_the_applications_state(xfbtrace, build_dir, tmp_path,
                                                       observe_mode):
    """cap-tf-gather-state checks its current program, every shader storage
    binding (indexed by glBindBufferBase and glBindBufferRange, and generic)
    and glGetError after each batch of deferred copies.  Async makes them
    with gather dispatches (a compute program of the capture's, the TF
    ranges bound as storage buffers) in two batches, and with copy calls in
    the two where the gather cannot restore the state legally: TF active and
    not paused (glUseProgram would fail), the current program flagged for
    deletion (leaving it would delete it).  Each observation holds its own
    pass's bytes."""
    prog = build_dir / "tests" / "capture" / "cap-tf-gather-state"
    plain = run([prog])
    if plain.returncode == 77:
        pytest.skip("GLES 3.1 unavailable")
    assert plain.returncode == 0, describe(plain)
    trace = tmp_path / "gather.xfbt"
    out = run([xfbtrace, "capture", f"--observe={observe_mode}", "-o", trace, "--", prog],
              env=dict(os.environ, XFBTRACE_LOG="info"))
    assert out.returncode == 0 and out.stdout == plain.stdout, describe(out)
    if observe_mode == "async":
        counters = re.search(r"(\d+) batches by gather dispatches \((\d+) dispatches\), "
                             r"(\d+) in the ring by copy calls", out.stderr)
        assert counters and tuple(map(int, counters.groups())) == (2, 2, 2), describe(out)
    recs = records(xfbtrace, trace)
    ends = [c["no"] for c in calls(recs) if c["name"] == "glEndTransformFeedback"]
    obs = {o["call"]: o for o in observations(recs, "tf_buffer")}
    printed = [bytes.fromhex(line.split()[2]) for line in out.stdout.splitlines()]
    assert len(ends) == 5 and sorted(obs) == ends, observations(recs)
    for n, end in enumerate(ends):
        assert blob_bytes(obs[end]["data"])[:48] == printed[n], (n, obs[end])
    check = run([xfbtrace, "replay", "--check", trace])
    # 5 TF ends, 3 maps
    assert check.returncode == 0 and "8 observations, 8 match, 0 differ" in check.stdout, \
        describe(check)


def test_async_copies_pick_copy_calls_or_the_gather(xfbtrace, build_dir, tmp_path,
                                                    observe_mode):
    """cap-tf-copy-choice makes four batches of deferred TF copies.  Async
    makes a batch of one or two ranges of buffers whose usage makes a copy
    call cheap (GL_DYNAMIC_COPY, immutable storage without flags) by copy
    calls, three ranges by a gather dispatch, and one due while a
    conditional rendering with a false condition is active by copy calls:
    Mesa discards a compute dispatch then, and the observation would hold
    the glBufferSubData that followed the pass.  Each observation holds its
    own pass's bytes; the replay compares equal."""
    prog = build_dir / "tests" / "capture" / "cap-tf-copy-choice"
    assert prog.exists(), f"{prog} was not built (libopengl-dev is missing?)"
    plain = run([prog])
    if plain.returncode == 77:
        pytest.skip("desktop GL 4.4 unavailable")
    assert plain.returncode == 0, describe(plain)
    trace = tmp_path / "choice.xfbt"
    out = run([xfbtrace, "capture", f"--observe={observe_mode}", "-o", trace, "--", prog],
              env=dict(os.environ, XFBTRACE_LOG="info"))
    assert out.returncode == 0 and out.stdout == plain.stdout, describe(out)
    if observe_mode == "async":
        counters = re.search(r"(\d+) batches by gather dispatches \((\d+) dispatches\), "
                             r"(\d+) in the ring by copy calls \((\d+) chosen as cheaper for "
                             r"their buffers' usage, (\d+) during conditional rendering\)",
                             out.stderr)
        assert counters and tuple(map(int, counters.groups())) == (1, 1, 3, 2, 1), \
            describe(out)
    recs = records(xfbtrace, trace)
    ends = [c["no"] for c in calls(recs) if c["name"] == "glEndTransformFeedback"]
    obs = {o["call"]: o for o in observations(recs, "tf_buffer")}
    printed = [bytes.fromhex(line.split()[2]) for line in out.stdout.splitlines()]
    assert len(ends) == 6 and sorted(obs) == ends, observations(recs)
    for n, end in enumerate(ends):
        assert blob_bytes(obs[end]["data"])[:48] == printed[n], (n, obs[end])
    check = run([xfbtrace, "replay", "--check", trace])
    assert check.returncode == 0 and "7 observations, 7 match, 0 differ" in check.stdout, \
        describe(check)


@pytest.mark.parametrize("staging", ["ring", "buffers"])
def test_async_read_back_leaves_the_applications_bindings_and_errors(xfbtrace, build_dir,
                                                                     tmp_path, observe_mode,
                                                                     staging):
    """cap-tf-async-state checks its own buffer bindings and glGetError after
    each TF end / pause and after the calls where the capture reads its
    copies back; the observations hold the bytes it read itself.  Async
    stages in the persistently mapped ring where the context has buffer
    storage, else in a staging buffer per copy: with EXT_buffer_storage
    taken out of Mesa's extension list, the second."""
    prog = build_dir / "tests" / "capture" / "cap-tf-async-state"
    env = dict(os.environ, XFBTRACE_LOG="info")
    if staging == "buffers":
        env["MESA_EXTENSION_OVERRIDE"] = "-GL_EXT_buffer_storage"
    plain = run([prog], env=env)
    assert plain.returncode == 0, describe(plain)
    trace = tmp_path / "state.xfbt"
    out = run([xfbtrace, "capture", f"--observe={observe_mode}", "-o", trace, "--", prog],
              env=env)
    assert out.returncode == 0, describe(out)
    if observe_mode == "async":
        counters = re.search(r"async observations: (\d+) calls copied on the GPU \((\d+) into "
                             r"the mapped ring\)", out.stderr)
        assert counters, describe(out)
        copied, in_ring = map(int, counters.groups())
        assert copied == 3 and in_ring == (3 if staging == "ring" else 0), describe(out)
    assert out.stdout == plain.stdout
    recs = records(xfbtrace, trace)
    props = {r["key"]: r["value"] for r in recs if r["type"] == "property"}
    assert props["capture.observe_mode"] == observe_mode
    printed = [bytes.fromhex(line.split()[2]) for line in out.stdout.splitlines()]
    ends = [c["no"] for c in calls(recs) if c["name"] == "glEndTransformFeedback"]
    obs = observations(recs, "tf_buffer")
    assert [o["after"] for o in obs] == ["end", "pause", "end"]
    for n, end in enumerate(ends):
        (o,) = [o for o in obs if o["call"] == end]
        assert blob_bytes(o["data"])[:48] == printed[n]
    check = run([xfbtrace, "replay", "--check", trace])
    assert check.returncode == 0, describe(check)
    assert "5 observations, 5 match, 0 differ" in check.stdout  # 3 TF, 2 map_read


def test_tf_buffer_written_right_after_its_tf_end_keeps_each_pass_golden(
        xfbtrace, build_dir, tmp_path, observe_mode):
    """cap-tf-deferred writes its TF buffer right after each TF end, before
    anything synchronises: glBufferSubData, the next TF pass, a
    glCopyBufferSubData into it, a compute shader storing into it, its
    deletion.  Async defers its copies
    until such a call (observe/obs_async.c): each must be copied before
    the write, so that every observation still holds its own pass's bytes;
    a draw whose program writes no buffer in between makes no copy due."""
    prog = build_dir / "tests" / "capture" / "cap-tf-deferred"
    trace = tmp_path / "deferred.xfbt"
    out = run([xfbtrace, "capture", f"--observe={observe_mode}", "-o", trace, "--", prog],
              env=dict(os.environ, XFBTRACE_LOG="info"))
    assert out.returncode == 0 and out.stdout == "ok\n", describe(out)
    recs = records(xfbtrace, trace)
    ends = [c["no"] for c in calls(recs) if c["name"] == "glEndTransformFeedback"]
    obs = {o["call"]: o for o in observations(recs, "tf_buffer")}
    assert len(ends) == 3 and sorted(obs) == ends, observations(recs)
    for p, end in enumerate(ends):
        want = b"".join(struct.pack("<4f", i + 100 * p + 0.25, 100 * p, 2, 3) for i in range(3))
        assert blob_bytes(obs[end]["data"])[:48] == want, (p, obs[end])
    if observe_mode == "async":
        counters = re.search(r"copies deferred: (\d+), made in (\d+) batches \((\d+) before a "
                             r"call that may write their buffers\)", out.stderr)
        assert counters, describe(out)
        assert tuple(map(int, counters.groups())) == (3, 3, 3), describe(out)
    check = run([xfbtrace, "replay", "--check", trace])
    assert check.returncode == 0 and "3 observations, 3 match, 0 differ" in check.stdout, \
        describe(check)


def test_tf_at_moving_offsets_of_one_buffer_batches_its_copies(
        xfbtrace, build_dir, tmp_path, observe_mode):
    """cap-tf-deferred ranges: four TF passes into four ranges of one buffer,
    then a fifth into the first range again.  A TF pass writes only its
    bound range (GL 4.6 section 13.3.2), so async keeps the copies of the
    first four deferred until the fifth pass's glBeginTransformFeedback,
    which rewrites the first range, and the fifth's until glFinish: two
    batches, not one per pass.  Each observation holds its own pass's
    bytes (what the program printed); replayed, the 5 TF and 5 map_read
    observations match."""
    prog = build_dir / "tests" / "capture" / "cap-tf-deferred"
    trace = tmp_path / "ranges.xfbt"
    out = run([xfbtrace, "capture", f"--observe={observe_mode}", "-o", trace, "--", prog,
               "ranges"], env=dict(os.environ, XFBTRACE_LOG="info"))
    assert out.returncode == 0 and out.stdout.endswith("ok\n"), describe(out)
    printed = [bytes.fromhex(line.split()[2]) for line in out.stdout.splitlines()[:-1]]
    recs = records(xfbtrace, trace)
    ends = [c["no"] for c in calls(recs) if c["name"] == "glEndTransformFeedback"]
    obs = {o["call"]: o for o in observations(recs, "tf_buffer")}
    assert len(ends) == 5 and sorted(obs) == ends, observations(recs)
    for p, end in enumerate(ends):
        assert obs[end]["offset"] == (p % 4) * 64, obs[end]
        assert blob_bytes(obs[end]["data"])[:48] == printed[p], (p, obs[end])
    if observe_mode == "async":
        counters = re.search(r"copies deferred: (\d+), made in (\d+) batches \((\d+) before a "
                             r"call that may write their buffers\)", out.stderr)
        assert counters, describe(out)
        assert tuple(map(int, counters.groups())) == (5, 2, 2), describe(out)
    check = run([xfbtrace, "replay", "--check", trace])
    assert check.returncode == 0 and "10 observations, 10 match, 0 differ" in check.stdout, \
        describe(check)


def test_observe_mode_is_chosen_on_the_command_line(xfbtrace, build_dir, tmp_path):
    prog = build_dir / "tests" / "capture" / "tf-crash"
    out = run([xfbtrace, "capture", "--observe=later", "-o", tmp_path / "x.xfbt", "--", prog, "exit"])
    assert out.returncode == 2 and "--observe takes auto, async, sync or off" in out.stderr
    for mode, kind in (("auto", "tf_buffer"), ("sync", "tf_buffer"), ("async", "lost"),
                       ("off", None)):
        trace = tmp_path / f"{mode}.xfbt"
        out = run([xfbtrace, "capture", f"--observe={mode}", "-o", trace, "--", prog, "exit"])
        assert out.returncode == 0, describe(out)
        recs = records(xfbtrace, trace)
        props = {r["key"]: r["value"] for r in recs if r["type"] == "property"}
        assert props.get("capture.observe_mode") == (None if mode == "off" else mode)
        # The program _exit()s right after its TF end: read at the call
        # (auto is sync on llvmpipe), or still in flight and named lost.
        assert [o["kind"] for o in observations(recs)] == ([kind] if kind else [])


def untimed_query_results(recs):
    """The query observations, but those of timer queries (their results
    differ from run to run)."""
    target, out = {}, []
    for r in recs:
        if r["type"] == "call" and r["name"] == "glBeginQuery":
            target[r["args"]["id"]] = r["args"]["target"]
        elif r["type"] == "call" and r["name"] == "glQueryCounter":
            target[r["args"]["id"]] = r["args"]["target"]
        elif r["type"] == "observation" and r["kind"] == "query" and \
                target.get(r["query"]) not in ("GL_TIME_ELAPSED", "GL_TIMESTAMP"):
            out.append(r)
    return out


def test_query_results_written_to_a_query_buffer_are_read_back_later(xfbtrace, tmp_path):
    """A result the program has the GL write into a query buffer is asked
    for again by the capture: at the call (sync) that waits for the GPU;
    async has the GL write it into a staging buffer and reads it later.
    The query observations are the same either way and match a replay."""
    line = piglit_line("arb_query_buffer_object-coherency -auto -fbo")
    env = dict(piglit_env(), MESA_GL_VERSION_OVERRIDE="3.3", XFBTRACE_LOG="info")
    seen = {}
    for mode in ("sync", "async"):
        trace = tmp_path / f"qbo-{mode}.xfbt"
        out = run([xfbtrace, "capture", f"--observe={mode}", "-o", trace, "--",
                   *piglit_command(line)], env=env, cwd=PIGLIT_DIR, timeout=600)
        assert out.returncode == 0 and piglit_result(out.stdout) == "pass", describe(out)
        seen[mode] = untimed_query_results(records(xfbtrace, trace))
        check = run([xfbtrace, "replay", "--check", trace])
        assert check.returncode == 0 and " 0 differ" in check.stdout, describe(check)
    assert [o for o in seen["sync"] if o["to_buffer"]], "no result went to a query buffer"
    assert seen["async"] == seen["sync"]
    # ... and async really copied them (the capture's counters at exit),
    # into the persistently mapped staging ring (llvmpipe has buffer
    # storage), at an offset into it: the query buffer's offset argument.
    assert "async observations: " in out.stderr and " 0 calls copied" not in out.stderr, \
        out.stderr[-2000:]
    assert "(0 into the mapped ring)" not in out.stderr, out.stderr[-2000:]


def test_contexts_sharing_objects_and_moving_between_threads(xfbtrace, build_dir, tmp_path,
                                                             observe_mode):
    """cap-tf-threads: a context paused in one thread and resumed in another,
    and a second context sharing its objects in a third thread.  Each
    thread's read-backs happen before its context leaves it; every TF end
    and pause has its observation with the bytes the program read."""
    prog = build_dir / "tests" / "capture" / "cap-tf-threads"
    plain = run([prog])
    assert plain.returncode == 0, describe(plain)
    trace = tmp_path / "threads.xfbt"
    out = capture(xfbtrace, trace, [prog])
    assert out.stdout == plain.stdout
    printed = {line.split()[0]: bytes.fromhex(line.split()[1]) for line in out.stdout.splitlines()}
    recs = records(xfbtrace, trace)
    assert not observations(recs, "lost")
    obs = observations(recs, "tf_buffer")
    assert [o["after"] for o in obs] == ["end", "pause", "end", "end"]
    assert all("data" in o for o in obs)
    by_thread = {c["no"]: c["thread"] for c in calls(recs)}
    assert len({by_thread[o["call"]] for o in obs}) == 3
    last_a = [o for o in obs if o["size"] == 256][-1]
    last_b = [o for o in obs if o["size"] == 64][-1]
    assert blob_bytes(last_a["data"])[:128] == printed["tf"]
    assert blob_bytes(last_b["data"])[:32] == printed["tf-b"]
    check = run([xfbtrace, "replay", "--check", trace])
    assert check.returncode == 0, describe(check)
    assert "6 observations, 6 match, 0 differ" in check.stdout

"""Pointer arguments gl.xml sizes by COMPSIZE (or not at all) are recorded
in full by the real capture and replayed with the same bytes.

tests/capture/cap_sizes_gl.c makes the calls on Mesa llvmpipe (desktop GL
4.5 compatibility); every size asserted here is what the GL specification
says the call reads or writes.  The registry-wide check, that no pointer
parameter is left unsized without a reason, is tests/unit/capture/test_sizes.py.
"""
import os

from conftest import describe, run
from tracefile import blob_bytes, calls, records


def by_name(recs, name):
    return [c for c in calls(recs) if c["name"] == name]


def size_of(value):
    assert "size" in value, f"not recorded as memory: {value}"
    return value["size"]


def test_compsize_arguments_are_recorded_whole_and_replay(xfbtrace, xfbtrace_san, build_dir,
                                                         tmp_path):
    prog = build_dir / "tests" / "capture" / "cap-sizes-gl"
    assert prog.exists(), f"{prog} was not built (libopengl-dev is missing?)"
    trace = tmp_path / "sizes.xfbt"
    out = run([xfbtrace, "capture", "-o", trace, "--", prog])
    assert out.returncode == 0, out.stderr
    recs = records(xfbtrace, trace)
    dump = str(recs)
    assert "unsized" not in dump

    # glClearBuffer*v: 4 values for GL_COLOR, 1 for GL_DEPTH (GL 4.6 17.4.3.1)
    clears = by_name(recs, "glClearBufferfv")
    assert [(c["args"]["buffer"], size_of(c["args"]["value"])) for c in clears] == [
        ("GL_COLOR", 16), ("GL_DEPTH", 4)]
    [named] = by_name(recs, "glClearNamedFramebufferfv")
    assert size_of(named["args"]["value"]) == 16
    [iclear] = by_name(recs, "glClearBufferiv")
    assert blob_bytes(iclear["args"]["value"]) == bytes([1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 4, 0, 0, 0])

    # glGetUniformfv writes the whole value: a mat4, then a vec3
    got = by_name(recs, "glGetUniformfv")
    assert [size_of(c["outs"]["params"]) for c in got] == [64, 12]
    [block] = by_name(recs, "glGetActiveUniformBlockiv")
    assert size_of(block["outs"]["params"]) == 8     # two active uniforms

    [scissors] = by_name(recs, "glScissorArrayv")
    assert size_of(scissors["args"]["v"]) == 2 * 4 * 4
    [ranges] = by_name(recs, "glDepthRangeArrayv")
    assert size_of(ranges["args"]["v"]) == 2 * 2 * 8
    [sub] = by_name(recs, "glNamedBufferSubData")
    assert size_of(sub["args"]["data"]) == 32
    [getsub] = by_name(recs, "glGetNamedBufferSubData")
    assert size_of(getsub["outs"]["data"]) == 32

    # glMultiDrawElements: per draw, the client indices, then offsets
    client, offsets = by_name(recs, "glMultiDrawElements")
    assert [blob_bytes(v) for v in client["args"]["indices"]] == [
        bytes([7, 0, 3, 0, 5, 0]), bytes([11, 0, 2, 0])]
    assert offsets["args"]["indices"] == [{"offset": 0}, {"offset": 6}]

    # sizes that other state gives (GL 4.6 compatibility 14.6.2, 8.4.3, 12.1)
    def only(name, where, param):
        [c] = by_name(recs, name)
        return size_of(c[where][param])
    assert only("glPolygonStipple", "args", "mask") == 128       # 32 x 32 bits
    assert only("glGetPolygonStipple", "outs", "mask") == 128
    assert only("glGetPixelMapfv", "outs", "values") == 16       # the 4 entries set
    assert only("glMap1f", "args", "points") == 4 * 3 * 4        # order 4, stride 3
    assert only("glMap2f", "args", "points") == (3 + 6 + 3) * 4  # 2 x 2, strides 3 and 6
    assert [size_of(c["outs"]["v"]) for c in by_name(recs, "glGetMapfv")] == [
        4 * 3 * 4, 2 * 2 * 3 * 4, 4 * 4]                         # coefficients; domain
    assert only("glGetCompressedTexImage", "outs", "img") == 8   # one RGTC1 4x4 block
    assert only("glGetCompressedTextureImageEXT", "outs", "img") == 8

    check = run([xfbtrace, "replay", "--check", trace])
    assert check.returncode == 0, check.stdout + check.stderr
    assert "not replayed" not in check.stdout + check.stderr
    assert "3 observations, 3 match, 0 differ" in check.stdout
    # the replay's argument arrays (index pointer arrays among them) under ASan
    san = run([xfbtrace_san, "replay", "--check", trace],
              env=dict(os.environ, ASAN_OPTIONS="detect_leaks=0"))
    assert san.returncode == 0 and "AddressSanitizer" not in san.stderr, describe(san)

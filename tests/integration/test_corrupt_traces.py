"""Damaged traces give a clear error and never crash the reader.

A real trace (captured from a sample app) is truncated at many offsets and
has random bits flipped; the sanitizer build of `xfbtrace dump` / `info`
must answer each with exit 0 (damage it could not see) or 2 and a message,
never a crash, a sanitizer report or a hang.  (The C unit tests of trace/
sweep every byte offset of a small trace in-process.)
"""
import ctypes
import json
import os
import random
import re

import pytest

from conftest import run

SAN_ENV = dict(os.environ, ASAN_OPTIONS="detect_leaks=1:abort_on_error=0",
               UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1")


@pytest.fixture(scope="module")
def small_trace(xfbtrace, build_dir, tmp_path_factory):
    d = tmp_path_factory.mktemp("corrupt")
    trace = d / "good.xfbt"
    app = build_dir / "tests" / "apps" / "tf-separate-gl33"
    out = run([xfbtrace, "capture", "-o", trace, "--", app])
    assert out.returncode == 0, out.stderr
    return trace


@pytest.fixture(scope="module")
def spool_trace(build_dir, tmp_path_factory):
    d = tmp_path_factory.mktemp("spool")
    trace = d / "spool.xfbt"
    env = dict(os.environ, LD_PRELOAD=str(build_dir / "capture" / "libxfbtrace-capture.so"),
               XFBTRACE_OUTPUT=str(trace))
    out = run([build_dir / "tests" / "apps" / "tf-separate-gl33"], env=env)
    assert out.returncode == 0, out.stderr
    return trace


def check_reader_survives(xfbtrace_san, path):
    for cmd in (["dump", "--format", "jsonl"], ["info"]):
        out = run([xfbtrace_san, *cmd, path], env=SAN_ENV, timeout=60)
        assert "Sanitizer" not in out.stderr and "runtime error" not in out.stderr, out.stderr
        assert out.returncode in (0, 2), (cmd, out.returncode, out.stderr[-2000:])
        if out.returncode == 2:
            assert out.stderr.startswith("xfbtrace "), out.stderr
            assert len(out.stderr.splitlines()) <= 3, out.stderr


def test_intact_trace_reads_cleanly(xfbtrace_san, small_trace):
    out = run([xfbtrace_san, "dump", small_trace], env=SAN_ENV)
    assert out.returncode == 0, out.stderr
    assert "glEndTransformFeedback" in out.stdout


@pytest.mark.parametrize("form", ["compacted", "spool"])
def test_truncated_traces_fail_cleanly(xfbtrace_san, small_trace, spool_trace, tmp_path, form):
    src = (small_trace if form == "compacted" else spool_trace).read_bytes()
    rng = random.Random(1234)
    cuts = sorted(set(list(range(0, 80)) + rng.sample(range(len(src)), min(150, len(src)))))
    bad = tmp_path / "cut.xfbt"
    errors = 0
    for cut in cuts:
        bad.write_bytes(src[:cut])
        out = run([xfbtrace_san, "info", bad], env=SAN_ENV, timeout=60)
        assert "Sanitizer" not in out.stderr and "runtime error" not in out.stderr, out.stderr
        assert out.returncode in (0, 2), (cut, out.stderr)
        errors += out.returncode == 2
        if cut < 32:
            assert out.returncode == 2 and "xfbtrace info" in out.stderr
    if form == "compacted":
        # A compacted trace ends with an end chunk: every cut is detected.
        assert errors == len(cuts)


@pytest.mark.parametrize("form", ["compacted", "spool"])
def test_bit_flips_are_detected_or_harmless(xfbtrace_san, small_trace, spool_trace, tmp_path,
                                            form):
    """Never a silently wrong answer: a damaged trace is either reported
    (exit 2, with a message) or reads exactly like the intact one (the flip
    hit bytes that carry no information, such as a spool region's unused
    tail)."""
    good = small_trace if form == "compacted" else spool_trace
    src = bytearray(good.read_bytes())
    intact = run([xfbtrace_san, "dump", "--format", "jsonl", good], env=SAN_ENV)
    assert intact.returncode == 0, intact.stderr
    rng = random.Random(99)
    bad = tmp_path / "flip.xfbt"
    detected = 0
    flips = 120
    for _ in range(flips):
        data = bytearray(src)
        for _ in range(rng.randint(1, 4)):
            pos = rng.randrange(len(data))
            data[pos] ^= 1 << rng.randrange(8)
        bad.write_bytes(data)
        check_reader_survives(xfbtrace_san, bad)
        out = run([xfbtrace_san, "dump", "--format", "jsonl", bad], env=SAN_ENV)
        if out.returncode == 2:
            detected += 1
        else:
            assert out.stdout == intact.stdout, "a damaged trace read differently without an error"
    assert detected > 0


def test_not_a_trace_is_named(xfbtrace_san, tmp_path):
    bad = tmp_path / "text.xfbt"
    bad.write_text("hello, I am not a trace\n" * 10)
    out = run([xfbtrace_san, "dump", bad], env=SAN_ENV)
    assert out.returncode == 2
    assert "not an xfbtrace trace" in out.stderr or "magic" in out.stderr


def test_future_version_is_rejected_by_name(xfbtrace, xfbtrace_san, small_trace, tmp_path):
    data = bytearray(small_trace.read_bytes())
    data[8:12] = (99).to_bytes(4, "little")
    # A newer writer would write a valid header checksum (XXH3-64 of bytes
    # 0..23), so the reader must name the version, not call it corrupt.
    xxh = ctypes.CDLL("libxxhash.so.0")
    xxh.XXH3_64bits.restype = ctypes.c_uint64
    xxh.XXH3_64bits.argtypes = [ctypes.c_char_p, ctypes.c_size_t]
    data[24:32] = xxh.XXH3_64bits(bytes(data[:24]), 24).to_bytes(8, "little")
    bad = tmp_path / "v99.xfbt"
    bad.write_bytes(data)
    out = run([xfbtrace_san, "info", bad], env=SAN_ENV)
    assert out.returncode == 2
    assert "version" in out.stderr and "99" in out.stderr


def test_info_on_a_cut_spool_says_what_it_holds_and_where_it_is_cut(xfbtrace, xfbtrace_san,
                                                                    spool_trace, tmp_path):
    """A spool cut at any byte (copied while written, truncated): `info`
    summarises the records before the cut, says it is cut (at which byte, in
    which region, the record the cut fell in) and exits 2; `dump` and
    `replay` end with the same message from the one reader (before: exit 0,
    the cut not mentioned)."""
    src = spool_trace.read_bytes()
    full = json.loads(run([xfbtrace_san, "info", "--json", spool_trace], env=SAN_ENV).stdout)
    bad = tmp_path / "cut.xfbt"
    # The records of thread 0's first region (the file's header is 32
    # bytes): they end at its last non-zero byte, and zeros follow.
    records_end = 32 + len(src[32:32 + (1 << 20)].rstrip(b"\0"))
    # Inside the records, halfway: the calls before the cut are read.
    cut = 32 + (records_end - 32) // 2
    bad.write_bytes(src[:cut])
    info = run([xfbtrace_san, "info", "--json", bad], env=SAN_ENV)
    assert info.returncode == 2, info.stderr
    held = json.loads(info.stdout)
    assert 0 < held["calls"] < full["calls"], (held["calls"], full["calls"])
    assert held["complete"] is False and held["damage"].startswith(f"trace cut at byte {cut}:")
    assert full["complete"] is True and full["damage"] is None
    assert re.search(rf"trace cut at byte {cut}: .*region of thread 0", info.stderr), info.stderr
    dump = run([xfbtrace_san, "dump", "--format", "jsonl", bad], env=SAN_ENV)
    assert dump.returncode == 2 and f"trace cut at byte {cut}" in dump.stderr, dump.stderr
    assert sum('"type":"call"' in l for l in dump.stdout.splitlines()) == held["calls"]
    replay = run([xfbtrace, "replay", bad], timeout=120)   # (Mesa leaks under LSan)
    assert replay.returncode == 2 and f"trace cut at byte {cut}" in replay.stderr, replay.stderr
    # One byte before the records' end: the last record lost its last
    # (non-zero) byte, so the cut fell inside it and it is named partial.
    cut = records_end - 1
    bad.write_bytes(src[:cut])
    info = run([xfbtrace_san, "info", "--json", bad], env=SAN_ENV)
    msg = re.search(rf"trace cut at byte {cut}: .*", info.stderr)
    assert info.returncode == 2 and msg and "1 record partial" in msg.group(0), info.stderr
    # Past the last record, in the region's zero tail: every record was
    # read, and the message says the cut took none of that region's.
    cut = len(src) - 100
    bad.write_bytes(src[:cut])
    info = run([xfbtrace_san, "info", "--json", bad], env=SAN_ENV)
    assert info.returncode == 2 and f"trace cut at byte {cut}" in info.stderr, info.stderr
    assert "end before it" in info.stderr and "partial" not in info.stderr, info.stderr
    assert json.loads(info.stdout)["calls"] == full["calls"]

"""Every reader path rejects what `dump` rejects (issue 24).

`trace_mangle` (tests/unit/trace) writes a copy of a real trace with one
record whose checksum is right but whose contents do not decode: an
observation with an unknown value tag, or a call of a function id that no
funcdef defines.  `dump`, `info`, `replay --check` (both backends) and
`ingest` read through the one validation of trace/trace_reader.c and must
all exit 2 naming the record's call and file offset; none may print a
summary of a trace it did not read ("all match", "N differ").
"""
import re

import pytest

from conftest import run


@pytest.fixture(scope="module")
def good_trace(xfbtrace, build_dir, tmp_path_factory):
    d = tmp_path_factory.mktemp("paths")
    trace = d / "good.xfbt"
    out = run([xfbtrace, "capture", "-o", trace, "--",
               build_dir / "tests" / "apps" / "tf-separate-gl33"])
    assert out.returncode == 0, out.stderr
    return trace


def mangle(build_dir, good, out, what, n):
    p = run([build_dir / "tests" / "unit" / "trace" / "trace_mangle", good, out, what, str(n)])
    assert p.returncode == 0, p.stderr
    return int(p.stdout.split()[1])


READERS = [["dump"], ["info"], ["info", "--json"], ["replay", "--check"],
           ["replay", "--check", "--backend", "sim"], ["ingest", "--db", "{db}"]]


@pytest.mark.parametrize("what,n", [("obs-tag", 0), ("obs-tag", 5), ("func-id", 10)])
def test_every_reader_rejects_a_record_that_does_not_decode(xfbtrace, build_dir, good_trace,
                                                            tmp_path, what, n):
    bad = tmp_path / "bad.xfbt"
    call = mangle(build_dir, good_trace, bad, what, n)
    for argv in READERS:
        argv = [a.format(db=tmp_path / "r.db") for a in argv]
        out = run([xfbtrace, *argv, bad])
        assert out.returncode == 2, (argv, out.returncode, out.stdout[-1500:], out.stderr)
        assert f"call {call}" in out.stderr and re.search(r"offset \d+", out.stderr), \
            (argv, out.stderr)
        assert " match" not in out.stdout and " differ" not in out.stdout, (argv, out.stdout)


@pytest.fixture(scope="module")
def blocks_trace(xfbtrace, build_dir, tmp_path_factory):
    """A trace with a LAYOUT record that holds uniform blocks."""
    d = tmp_path_factory.mktemp("layout")
    trace = d / "blocks.xfbt"
    out = run([xfbtrace, "capture", "-o", trace, "--",
               build_dir / "tests" / "apps" / "tf-ubo-blocks-gl33"])
    assert out.returncode == 0, out.stderr
    return trace


def test_every_reader_rejects_a_layout_record_that_breaks_the_format(xfbtrace, build_dir,
                                                                     blocks_trace, tmp_path):
    """A LAYOUT record decodes but one block lacks its data_size
    (trace/trace_layout.c): corruption for every reader, named."""
    bad = tmp_path / "bad.xfbt"
    call = mangle(build_dir, blocks_trace, bad, "layout-size", 0)
    for argv in READERS:
        argv = [a.format(db=tmp_path / "r.db") for a in argv]
        out = run([xfbtrace, *argv, bad])
        assert out.returncode == 2, (argv, out.returncode, out.stdout[-1500:], out.stderr)
        assert f"call {call}" in out.stderr and "LAYOUT record" in out.stderr \
            and "data_size" in out.stderr, (argv, out.stderr)
        assert " match" not in out.stdout and " differ" not in out.stdout, (argv, out.stdout)


@pytest.mark.parametrize("what,n", [("obs-tag", 2), ("func-id", 3)])
def test_sanitizer_build_rejects_them_cleanly(xfbtrace_san, build_dir, good_trace, tmp_path,
                                               what, n):
    import os
    env = dict(os.environ, ASAN_OPTIONS="detect_leaks=1:abort_on_error=0",
               UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1")
    bad = tmp_path / "bad.xfbt"
    call = mangle(build_dir, good_trace, bad, what, n)
    for argv in (["dump", "--format", "jsonl"], ["dump", "--full"], ["info", "--json"],
                 ["ingest", "--db", tmp_path / "r.db"]):
        out = run([xfbtrace_san, *argv, bad], env=env)
        assert "runtime error" not in out.stderr and "Sanitizer" not in out.stderr, out.stderr
        assert out.returncode == 2 and f"call {call}" in out.stderr, (argv, out.stderr)

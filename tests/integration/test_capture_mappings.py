"""A persistently mapped buffer that the program deletes, or whose context
it destroys, while it is still mapped (GL 4.6 6.3.1: deleting a mapped
buffer unmaps it): the capture must not read the freed mapping at the next
sync point (it crashed the program with SIGSEGV), and the replay must not
write later bytes into the freed mapping of its own copy (a
heap-use-after-free that the ASan build of the CLI reports).

The program is tests/capture/cap_map_lifetime.c, four rounds of a
persistently mapped vertex buffer drawn with transform feedback.
"""
import os

import pytest

from conftest import describe, run
from tracefile import calls, observations, records

ASAN_ENV = dict(os.environ, ASAN_OPTIONS="detect_leaks=0")  # Mesa's own leaks


@pytest.mark.parametrize("mode", ["delete", "shared", "destroy"])
def test_mapped_buffer_deleted_or_context_destroyed(xfbtrace, xfbtrace_san, build_dir, tmp_path,
                                                    mode):
    prog = build_dir / "tests" / "capture" / "cap-map-lifetime"
    assert prog.exists(), f"{prog} was not built (libopengl-dev is missing?)"
    trace = tmp_path / f"{mode}.xfbt"
    out = run([xfbtrace, "capture", "-o", trace, "--", prog, mode])
    assert out.returncode == 0, describe(out)
    assert out.stdout.strip() == "ok"
    recs = records(xfbtrace, trace)
    assert len(observations(recs, "tf_buffer")) == 4
    # Whether malloc hands a later round's mapping an earlier one's address
    # depends on the driver's allocations (it did before the asynchronous
    # read-back was merged, not after); the ASan replay below catches a
    # write into a freed mapping either way (ASan quarantines freed memory).
    check = run([xfbtrace, "replay", "--check", trace])
    assert check.returncode == 0, describe(check)
    assert "4 observations, 4 match, 0 differ" in check.stdout
    san = run([xfbtrace_san, "replay", "--check", trace], env=ASAN_ENV)
    assert san.returncode == 0 and "AddressSanitizer" not in san.stderr, describe(san)

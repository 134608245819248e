"""Our capture sees every GL call apitrace sees, on the same piglit tests.

apitrace is the independent reference here: each sampled piglit command is
recorded by `apitrace` (egltrace.so; for desktop GL with a test-only shim
that forwards glXGetProcAddressARB to eglGetProcAddress, without which
apitrace records no GL call at all) and by `xfbtrace capture`, and the
number of calls of every gl* function in our trace must be at least
apitrace's.  apitrace's fake calls (marked "// fake" by `apitrace dump`) are
left out.  We see more where apitrace looks away: GL 1.0 functions that its
eglGetProcAddress wrapper hands out unwrapped (glGetString, glGetError), and
client-array pointer calls it defers.
"""
import collections
import re

import pytest

from conftest import (EGLTRACE, PIGLIT_DIR, piglit_command, piglit_env, piglit_result,
                      piglit_tf_lines, require_apitrace, run)
from tracefile import calls, records

# Every 12th line of the list, plus the GLES ones: a sample of all kinds.
LINES = [l for i, l in enumerate(piglit_tf_lines())
         if (i % 12 == 0 or "gles" in l) and not l.startswith("glslparsertest")]


def apitrace_counts(dump_text):
    counts = collections.Counter()
    for line in dump_text.splitlines():
        m = re.match(r"^(\d+) (gl[A-Z]\w*)\(", line)
        if m and "// fake" not in line and not m.group(2).startswith("glX"):
            counts[m.group(2)] += 1
    return counts


@pytest.mark.apitrace
@pytest.mark.piglit
@pytest.mark.parametrize("line", LINES)
def test_same_gl_calls_as_apitrace(xfbtrace, build_dir, piglit_trace, tmp_path, line):
    require_apitrace()
    argv = piglit_command(line)
    shim = build_dir / "tests" / "shims" / "libglx_to_egl.so"
    env = dict(piglit_env(), LD_PRELOAD=f"{EGLTRACE} {shim}", TRACE_FILE=str(tmp_path / "a.trace"))
    out = run(argv, env=env, cwd=PIGLIT_DIR, timeout=600)
    if piglit_result(out.stdout) != "pass":
        # The reference itself fails (apitrace crashes on a few of these);
        # our capture of the same command is checked in test_piglit_capture.
        pytest.skip(f"apitrace fails on this program (exit {out.returncode})")
    dump = run(["apitrace", "dump", "--color=never", tmp_path / "a.trace"], timeout=600)
    assert dump.returncode == 0, dump.stderr
    theirs = apitrace_counts(dump.stdout)
    assert sum(theirs.values()) > 10, "apitrace recorded no GL calls: the shim did not work"

    cap = piglit_trace(line)
    assert cap.result == "pass", cap.describe()
    ours = collections.Counter(c["name"] for c in calls(records(xfbtrace, cap.trace))
                               if c["name"].startswith("gl") and not c["name"].startswith("glX"))
    missing = {f: (n, ours[f]) for f, n in theirs.items() if ours[f] < n}
    assert not missing, f"calls apitrace saw and we did not (apitrace, xfbtrace): {missing}"

"""The NVIDIA corpus (tests/data/nvidia: 548 traces captured on an H100,
driver 580.159.04) replayed whole, with `replay --check --tolerance ulps=1`
(issue 19's acceptance, and docs/status.md's numbers):

  - every trace whose test passed on NVIDIA (piglit result "pass", or an app
    whose capture exited 0) exits 0, except the traces that
    tests/data/nvidia/known-differences.tsv lists, each with the reason a
    person found; a listed trace that exits 0 fails too (the list stays
    true);
  - every trace exits 0 or 1, and every 1 names a counted difference:
    defined data, a value or an error the application saw, an observation
    one side made and the other did not; never only classified lines.

ulps=1: the float differences of the corpus between NVIDIA and llvmpipe
are one unit in the last place (the fp64 TF tests, tf-particles-gles3);
docs/status.md gives the numbers without a tolerance too.

Both backends run every trace, a worker per core: about 50 s on llvmpipe
and 60 s on the sim with 2 cores.
"""
import concurrent.futures
import csv
import os
import pathlib
import re

import pytest

from conftest import run

HERE = pathlib.Path(__file__).resolve().parent
KNOWN = HERE.parent / "data" / "nvidia" / "known-differences.tsv"
TOLERANCE = ["--tolerance", "ulps=1"]
# A line that counts as a difference: anything reported for a call that is
# not a class, a call not replayed, an error nobody checked or a NaN note.
COUNTED = re.compile(r"^call \d+ \S+: (?!implementation-dependent: |precision: |undefined: |"
                     r"not replayed: )(?!.*which no later glGetError looked at)"
                     r"(?!.*data matches up to NaN bit patterns)", re.M)


def pass_set(root):
    with open(root / "results-native.tsv", newline="") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    return {r["trace"] for r in rows
            if r["piglit_result"] == "pass" or (r["piglit_result"] == "-" and r["capture_rc"] == "0")}


def known(backend):
    with open(KNOWN, newline="") as f:
        rows = csv.DictReader((line for line in f if not line.startswith("#")), delimiter="\t")
        return {r["trace"]: r for r in rows if r["backend"] in ("all", backend)}


def replay_all(xfbtrace, traces, *args):
    def one(t):
        out = run([xfbtrace, "replay", "--check", "--max-diffs", "3", *args, t], timeout=300)
        return t.stem, out

    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        return dict(pool.map(one, traces))


def check_corpus(root, results, backend):
    passed = pass_set(root)
    expected = known(backend)
    problems = []
    for name, out in sorted(results.items()):
        if out.returncode not in (0, 1):
            problems.append(f"{name}: exit {out.returncode}: {out.stderr[-300:]}")
        elif out.returncode == 1 and not COUNTED.search(out.stdout):
            problems.append(f"{name}: exit 1 without a counted difference:\n{out.stdout[-1500:]}")
        elif name in passed and out.returncode and name not in expected:
            first = COUNTED.search(out.stdout)
            line = out.stdout[first.start():].splitlines()[0] if first else ""
            problems.append(f"{name}: passed on NVIDIA, exits 1 here, not in {KNOWN.name}: {line}")
    for name in expected:
        if name not in results:
            problems.append(f"{KNOWN.name}: {name} is no trace of the corpus (or was not run)")
        elif results[name].returncode == 0:
            problems.append(f"{KNOWN.name}: {name} exits 0 now: remove its line")
    clean = sum(1 for n in passed if n in results and results[n].returncode == 0)
    print(f"{backend}: {clean} of {len([n for n in passed if n in results])} traces that passed "
          f"on NVIDIA exit 0; {sum(1 for o in results.values() if o.returncode == 0)} of "
          f"{len(results)} in all")
    assert not problems, "\n".join(problems)


def test_the_nvidia_corpus_on_llvmpipe(xfbtrace, nvidia_corpus_root):
    traces = sorted((nvidia_corpus_root / "traces").glob("*.xfbt"))
    assert len(traces) == 548
    check_corpus(nvidia_corpus_root, replay_all(xfbtrace, traces, *TOLERANCE), "host")


@pytest.mark.sim
def test_the_nvidia_corpus_on_the_sim(xfbtrace, nvidia_corpus_root):
    traces = sorted((nvidia_corpus_root / "traces").glob("*.xfbt"))
    assert len(traces) == 548
    check_corpus(nvidia_corpus_root, replay_all(xfbtrace, traces, "--backend", "sim", *TOLERANCE),
                 "sim")

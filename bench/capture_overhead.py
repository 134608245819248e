#!/usr/bin/env python3
"""Added cost per GL call of `xfbtrace capture` vs `apitrace trace`.

Runs the microbenchmark tests/capture/cap-bench (GLES 3 on llvmpipe,
surfaceless EGL: trivial calls, 1 KiB buffer uploads, TF begin+draw+end with
its observation, 1 KiB read and write mappings) three ways in the same run:
plain, under libxfbtrace-capture.so and under apitrace's egltrace.so.  Each
way runs --repeat times; the median ns/call per case is kept.  Prints, per
case: plain, ours, apitrace (ns/call), the added cost of each, and the ratio
ours/apitrace of the added costs (the target is <= 0.5).

usage: bench/capture_overhead.py [--build DIR] [--repeat N] [--scale N] [--markdown]
"""
import argparse
import os
import pathlib
import statistics
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[1]
EGLTRACE = "/usr/lib/x86_64-linux-gnu/apitrace/wrappers/egltrace.so"


def run_bench(prog, scale, env_extra):
    env = dict(os.environ, **env_extra)
    out = subprocess.run([str(prog), str(scale)], capture_output=True, text=True, env=env,
                         timeout=900)
    if out.returncode != 0:
        sys.exit(f"capture_overhead: {prog} failed ({out.returncode}): {out.stderr[-2000:]}")
    result = {}
    for line in out.stdout.splitlines():
        parts = line.split()
        if len(parts) == 2:
            try:
                result[parts[0]] = float(parts[1])
            except ValueError:
                pass
    return result


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", default=str(ROOT / "build"), help="meson build dir (default: build)")
    ap.add_argument("--repeat", type=int, default=5, help="runs per way (default 5)")
    ap.add_argument("--scale", type=int, default=1, help="iteration multiplier for cap-bench")
    ap.add_argument("--markdown", action="store_true", help="print a Markdown table")
    args = ap.parse_args()

    build = pathlib.Path(args.build)
    prog = build / "tests" / "capture" / "cap-bench"
    lib = build / "capture" / "libxfbtrace-capture.so"
    for p in (prog, lib):
        if not p.exists():
            sys.exit(f"capture_overhead: {p} is missing; build first (scripts/setup.sh)")
    have_apitrace = os.path.exists(EGLTRACE)
    if not have_apitrace:
        print("capture_overhead: apitrace is not installed; its column stays empty", file=sys.stderr)

    runs = {"plain": [], "xfbtrace": [], "apitrace": []}
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(args.repeat):
            print(f"capture_overhead: round {i + 1}/{args.repeat}", file=sys.stderr)
            runs["plain"].append(run_bench(prog, args.scale, {}))
            out = pathlib.Path(tmp) / f"x{i}.xfbt"
            runs["xfbtrace"].append(run_bench(prog, args.scale, {
                "LD_PRELOAD": str(lib), "XFBTRACE_OUTPUT": str(out)}))
            out.unlink(missing_ok=True)
            if have_apitrace:
                at = pathlib.Path(tmp) / f"a{i}.trace"
                runs["apitrace"].append(run_bench(prog, args.scale, {
                    "LD_PRELOAD": EGLTRACE, "TRACE_FILE": str(at)}))
                at.unlink(missing_ok=True)

    cases = list(runs["plain"][0].keys())
    med = {way: {c: statistics.median(r[c] for r in rs) for c in cases} if rs else {}
           for way, rs in runs.items()}
    rows = []
    for c in cases:
        plain = med["plain"][c]
        ours = med["xfbtrace"][c]
        theirs = med["apitrace"].get(c)
        added_ours = ours - plain
        added_theirs = theirs - plain if theirs is not None else None
        ratio = added_ours / added_theirs if added_theirs and added_theirs > 0 else None
        rows.append((c, plain, ours, theirs, added_ours, added_theirs, ratio))

    fmt = (lambda v: "-" if v is None else f"{v:.0f}")
    if args.markdown:
        print("| case | plain ns | xfbtrace ns | apitrace ns | added: xfbtrace | added: apitrace | ratio |")
        print("|---|---|---|---|---|---|---|")
        for c, p, o, t, ao, at, r in rows:
            print(f"| {c} | {fmt(p)} | {fmt(o)} | {fmt(t)} | {fmt(ao)} | {fmt(at)} | "
                  f"{'-' if r is None else f'{r:.2f}'} |")
    else:
        print(f"{'case':24} {'plain':>8} {'xfbtrace':>9} {'apitrace':>9} {'+ours':>8} {'+apitrace':>10} {'ratio':>6}")
        for c, p, o, t, ao, at, r in rows:
            print(f"{c:24} {fmt(p):>8} {fmt(o):>9} {fmt(t):>9} {fmt(ao):>8} {fmt(at):>10} "
                  f"{'-' if r is None else f'{r:.2f}':>6}")
    print(f"(median of {args.repeat} runs each, ns per call; ratio = added cost ours / apitrace's, target <= 0.5)")


if __name__ == "__main__":
    main()

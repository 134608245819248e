#!/usr/bin/env python3
"""Added cost per GL call of `xfbtrace capture` vs `apitrace trace`.

Runs the microbenchmark tests/capture/cap-bench (GLES 3 on llvmpipe,
surfaceless EGL: trivial calls, 1 KiB buffer uploads, TF begin+draw+end,
1 KiB read and write mappings) four ways in the same run: plain, under
libxfbtrace-capture.so with observations (the default: each TF end, query
result and read mapping is also read back from the driver, which apitrace
never does), under libxfbtrace-capture.so with XFBTRACE_OBSERVE=0 (calls
only: the like-for-like comparison), and under apitrace's egltrace.so.  Each
way runs --repeat times, interleaved; the median ns/call per case is kept.
Prints, per case, ns/call of each way and the ratios of added cost
(xfbtrace / apitrace; the target is <= 0.5).

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

    runs = {"plain": [], "xfbtrace": [], "calls-only": [], "apitrace": []}
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(args.repeat):
            print(f"capture_overhead: round {i + 1}/{args.repeat}", file=sys.stderr)
            runs["plain"].append(run_bench(prog, args.scale, {}))
            out = pathlib.Path(tmp) / f"x{i}.xfbt"
            runs["xfbtrace"].append(run_bench(prog, args.scale, {
                "LD_PRELOAD": str(lib), "XFBTRACE_OUTPUT": str(out)}))
            out.unlink(missing_ok=True)
            runs["calls-only"].append(run_bench(prog, args.scale, {
                "LD_PRELOAD": str(lib), "XFBTRACE_OUTPUT": str(out), "XFBTRACE_OBSERVE": "0"}))
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
        ours, calls_only = med["xfbtrace"][c], med["calls-only"][c]
        theirs = med["apitrace"].get(c)
        added_theirs = theirs - plain if theirs is not None else None

        def ratio(v):
            return (v - plain) / added_theirs if added_theirs and added_theirs > 0 else None
        rows.append((c, plain, ours, calls_only, theirs, ratio(calls_only), ratio(ours)))

    fmt = (lambda v: "-" if v is None else f"{v:.0f}")
    rfmt = (lambda r: "-" if r is None else f"{r:.2f}")
    if args.markdown:
        print("| case | plain | xfbtrace calls only | xfbtrace + observations | apitrace "
              "| ratio calls only | ratio + observations |")
        print("|---|---|---|---|---|---|---|")
        for c, p, o, co, t, r1, r2 in rows:
            print(f"| {c} | {fmt(p)} | {fmt(co)} | {fmt(o)} | {fmt(t)} | {rfmt(r1)} | {rfmt(r2)} |")
    else:
        print(f"{'case':24} {'plain':>7} {'calls-only':>11} {'+observe':>9} {'apitrace':>9} "
              f"{'ratio':>6} {'ratio+obs':>10}")
        for c, p, o, co, t, r1, r2 in rows:
            print(f"{c:24} {fmt(p):>7} {fmt(co):>11} {fmt(o):>9} {fmt(t):>9} {rfmt(r1):>6} {rfmt(r2):>10}")
    print(f"(median of {args.repeat} runs each, ns per call; ratio = added cost of xfbtrace / "
          f"added cost of apitrace, target <= 0.5)")


if __name__ == "__main__":
    main()

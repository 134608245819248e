#!/usr/bin/env python3
"""Added cost per GL call of `xfbtrace capture` vs `apitrace trace`.

Runs the microbenchmark tests/capture/cap-bench (GLES 3 on llvmpipe,
surfaceless EGL: trivial calls, 1 KiB buffer uploads, TF begin+draw+end,
1 KiB read and write mappings) four ways in the same run: plain, under
libxfbtrace-capture.so with observations (the default: each TF end, query
result and read mapping is also read back from the driver, which apitrace
never does), under libxfbtrace-capture.so with XFBTRACE_OBSERVE=0 (calls
only: the like-for-like comparison), and under apitrace's egltrace.so.  Each
way runs --repeat times, interleaved.  In each run cap-bench times every
case --trials times and reports its fastest trial (noise only adds time);
the table gives the fastest of those over the runs, and the ratios also
for the median run.  Prints, per case, ns per
iteration of each way (one call; TF: begin + draw + end; maps: map +
unmap) and the ratios of added cost (xfbtrace / apitrace; the target is
<= 0.5).

With --callgrind, wall time is replaced by instruction counts, which do not
depend on the machine's load: each case runs alone under valgrind
--tool=callgrind, counting only inside the case's loop (cap-bench's
bench_<case> function), once per way; the table gives instructions per
iteration.  Under valgrind the threads run one at a time, so the spool's
idle-priority compressor never runs and the application thread packs full
regions itself (trace/trace_spool.c): the column "of which packing" gives
that share of the xfbtrace counts, which on a machine with a free core is
spent by the compressor thread instead.

With --thread-cpu, cap-bench measures the application thread's CPU time
instead of wall time (CAP_BENCH_CLOCK=thread): steadier on a loaded machine,
and like wall time on an idle one it leaves out the work of other threads
(the capture's compressor; apitrace compresses in the application thread).

usage: bench/capture_overhead.py [--build DIR] [--repeat N] [--trials N] [--scale N]
                                 [--markdown] [--thread-cpu] [--callgrind [CASE ...]]
"""
import argparse
import os
import pathlib
import re
import statistics
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[1]
EGLTRACE = "/usr/lib/x86_64-linux-gnu/apitrace/wrappers/egltrace.so"


def run_bench(prog, scale, case, env_extra):
    """cap-bench's result lines for one case, run alone in its own process."""
    env = dict(os.environ, **env_extra)
    out = subprocess.run([str(prog), str(scale), case], capture_output=True, text=True,
                         env=env, timeout=900)
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


# cap-bench's case names and the function holding each case's loop.
CASE_FUNCS = {
    "glUniform1i": "bench_uniform",
    "glBindBuffer": "bench_bind",
    "glBufferSubData-1KiB": "bench_subdata",
    "tf-begin-draw-end": "bench_tf",
    "map-read-unmap-1KiB": "bench_map_read",
    "map-write-unmap-1KiB": "bench_map_write",
}
# Iterations of each case's loop at scale 1 (tests/capture/cap_bench.c).
CASE_ITERATIONS = {
    "glUniform1i": 1000000, "glBindBuffer": 1000000, "glBufferSubData-1KiB": 100000,
    "tf-begin-draw-end": 10000, "map-read-unmap-1KiB": 20000, "map-write-unmap-1KiB": 20000,
}


def callgrind_count(prog, case, scale, env_extra, tmp):
    """(instructions in the case's loop, of which in trace_spool_pack)."""
    out = pathlib.Path(tmp) / "callgrind.out"
    env = dict(os.environ, CAP_BENCH_TRIALS="1", **env_extra)
    cmd = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
           "--collect-atstart=no", f"--toggle-collect={CASE_FUNCS[case]}",
           str(prog), str(scale), case]
    r = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=3600)
    if r.returncode != 0:
        sys.exit(f"capture_overhead: {' '.join(cmd)} failed ({r.returncode}): {r.stderr[-2000:]}")
    ann = subprocess.run(["callgrind_annotate", "--inclusive=yes", "--threshold=100", str(out)],
                         capture_output=True, text=True, check=True).stdout
    total = pack = 0
    for line in ann.splitlines():
        m = re.match(r"\s*([\d,]+)\s.*PROGRAM TOTALS", line)
        if m:
            total = int(m.group(1).replace(",", ""))
        m = re.match(r"\s*([\d,]+)\s.*:trace_spool_pack \[", line)
        if m:
            pack = int(m.group(1).replace(",", ""))
    out.unlink(missing_ok=True)
    return total, pack


def run_callgrind(args, prog, lib, cases):
    """Instructions per iteration of each case, each way (see the module doc)."""
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        trace = pathlib.Path(tmp) / "t.xfbt"
        ways = {
            "plain": {},
            "calls-only": {"LD_PRELOAD": str(lib), "XFBTRACE_OUTPUT": str(trace),
                           "XFBTRACE_OBSERVE": "0"},
            "xfbtrace": {"LD_PRELOAD": str(lib), "XFBTRACE_OUTPUT": str(trace)},
            "apitrace": {"LD_PRELOAD": EGLTRACE,
                         "TRACE_FILE": str(pathlib.Path(tmp) / "a.trace")},
        }
        if not os.path.exists(EGLTRACE):
            del ways["apitrace"]
        for case in cases:
            n = CASE_ITERATIONS[case] * args.scale
            res = {}
            for way, env in ways.items():
                print(f"capture_overhead: callgrind {case} {way}", file=sys.stderr)
                total, pack = callgrind_count(prog, case, args.scale, env, tmp)
                res[way] = (total / n, pack / n)
                trace.unlink(missing_ok=True)
                (pathlib.Path(tmp) / "a.trace").unlink(missing_ok=True)
            rows.append((case, res))
    print("| case | plain | xfbtrace calls only (of which packing) | xfbtrace + observations "
          "(of which packing) | apitrace | ratio calls only | ratio + observations "
          "| without packing: calls only | + observations |")
    print("|---|---|---|---|---|---|---|---|---|")
    for case, res in rows:
        plain = res["plain"][0]
        theirs = res.get("apitrace", (None, 0))[0]

        def ratio(way, packing=True):
            if theirs is None or theirs <= plain:
                return "-"
            ours = res[way][0] - (0 if packing else res[way][1])
            return f"{(ours - plain) / (theirs - plain):.2f}"
        print(f"| {case} | {plain:.0f} | {res['calls-only'][0]:.0f} ({res['calls-only'][1]:.0f}) "
              f"| {res['xfbtrace'][0]:.0f} ({res['xfbtrace'][1]:.0f}) "
              f"| {'-' if theirs is None else f'{theirs:.0f}'} | {ratio('calls-only')} "
              f"| {ratio('xfbtrace')} | {ratio('calls-only', False)} "
              f"| {ratio('xfbtrace', False)} |")
    print("(instructions per iteration counted by callgrind inside the case's loop; "
          "ratio = added instructions of xfbtrace / added instructions of apitrace)")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", default=str(ROOT / "build"), help="meson build dir (default: build)")
    ap.add_argument("--repeat", type=int, default=5,
                    help="runs of each case per way (default 5); the table gives the fastest "
                         "and the median run's ratio")
    ap.add_argument("--trials", type=int, default=5,
                    help="timed trials per case in each run, fastest kept (default 5)")
    ap.add_argument("--scale", type=int, default=1, help="iteration multiplier for cap-bench")
    ap.add_argument("--markdown", action="store_true", help="print a Markdown table")
    ap.add_argument("--thread-cpu", action="store_true",
                    help="measure the application thread's CPU time, not wall time")
    ap.add_argument("--callgrind", nargs="*", metavar="CASE",
                    help="count instructions under callgrind instead of timing "
                         "(all cases when none is named)")
    args = ap.parse_args()

    build = pathlib.Path(args.build)
    prog = build / "tests" / "capture" / "cap-bench"
    lib = build / "capture" / "libxfbtrace-capture.so"
    for p in (prog, lib):
        if not p.exists():
            sys.exit(f"capture_overhead: {p} is missing; build first (scripts/setup.sh)")
    if args.callgrind is not None:
        cases = args.callgrind or list(CASE_FUNCS)
        for c in cases:
            if c not in CASE_FUNCS:
                sys.exit(f"capture_overhead: unknown case {c!r} (cases: {', '.join(CASE_FUNCS)})")
        run_callgrind(args, prog, lib, cases)
        return
    if args.repeat < 1 or args.trials < 1 or args.scale < 1:
        sys.exit("capture_overhead: --repeat, --trials and --scale must be at least 1")
    os.environ["CAP_BENCH_TRIALS"] = str(args.trials)
    if args.thread_cpu:
        os.environ["CAP_BENCH_CLOCK"] = "thread"
    have_apitrace = os.path.exists(EGLTRACE)
    if not have_apitrace:
        print("capture_overhead: apitrace is not installed; its column stays empty", file=sys.stderr)

    # Each case runs in a process of its own, so that no case pays for the
    # previous one's trace data (the capture's compressor thread catching up).
    runs = {"plain": [], "xfbtrace": [], "calls-only": [], "apitrace": []}
    with tempfile.TemporaryDirectory() as tmp:
        out = pathlib.Path(tmp) / "x.xfbt"
        at = pathlib.Path(tmp) / "a.trace"
        ways = {
            "plain": {},
            "xfbtrace": {"LD_PRELOAD": str(lib), "XFBTRACE_OUTPUT": str(out)},
            "calls-only": {"LD_PRELOAD": str(lib), "XFBTRACE_OUTPUT": str(out),
                           "XFBTRACE_OBSERVE": "0"},
        }
        if have_apitrace:
            ways["apitrace"] = {"LD_PRELOAD": EGLTRACE, "TRACE_FILE": str(at)}
        for i in range(args.repeat):
            print(f"capture_overhead: round {i + 1}/{args.repeat}", file=sys.stderr)
            for way, env in ways.items():
                result = {}
                for case in CASE_FUNCS:
                    result.update(run_bench(prog, args.scale, case, env))
                    out.unlink(missing_ok=True)
                    at.unlink(missing_ok=True)
                runs[way].append(result)

    cases = list(runs["plain"][0].keys())
    # The fastest run is the steadiest estimate (noise only adds time); the
    # median run shows how far a typical run is from it.
    stats = {"fastest": min, "median": statistics.median}
    # Say so when the machine was noisy: the plain program itself then
    # varies from run to run, and the medians with it.
    for c in cases:
        plain = [r[c] for r in runs["plain"]]
        if statistics.median(plain) > 1.25 * min(plain):
            print(f"capture_overhead: noisy machine: the plain {c} runs took "
                  f"{min(plain):.0f} to {max(plain):.0f} ns (median "
                  f"{statistics.median(plain):.0f}); trust the fastest-run ratios, "
                  f"or run again when it is quieter", file=sys.stderr)
    val = {name: {way: {c: f(r[c] for r in rs) for c in cases} if rs else {}
                  for way, rs in runs.items()} for name, f in stats.items()}

    def ratios(name, c):
        v = val[name]
        plain, theirs = v["plain"][c], v["apitrace"].get(c)
        if theirs is None or theirs <= plain:
            return None, None
        return ((v["calls-only"][c] - plain) / (theirs - plain),
                (v["xfbtrace"][c] - plain) / (theirs - plain))

    fmt = (lambda v: "-" if v is None else f"{v:.0f}")
    rfmt = (lambda r: "-" if r is None else f"{r:.2f}")
    rows = []
    for c in cases:
        v = val["fastest"]
        (r1, r2), (m1, m2) = ratios("fastest", c), ratios("median", c)
        rows.append((c, v["plain"][c], v["calls-only"][c], v["xfbtrace"][c],
                     v["apitrace"].get(c), f"{rfmt(r1)} ({rfmt(m1)})",
                     f"{rfmt(r2)} ({rfmt(m2)})"))
    if args.markdown:
        print("| case | plain | xfbtrace calls only | xfbtrace + observations | apitrace "
              "| ratio calls only | ratio + observations |")
        print("|---|---|---|---|---|---|---|")
        for c, p, co, o, t, r1, r2 in rows:
            print(f"| {c} | {fmt(p)} | {fmt(co)} | {fmt(o)} | {fmt(t)} | {r1} | {r2} |")
    else:
        print(f"{'case':22} {'plain':>6} {'calls-only':>10} {'+observe':>9} {'apitrace':>9} "
              f"{'ratio':>12} {'ratio+obs':>12}")
        for c, p, co, o, t, r1, r2 in rows:
            print(f"{c:22} {fmt(p):>6} {fmt(co):>10} {fmt(o):>9} {fmt(t):>9} {r1:>12} {r2:>12}")
    clock = "application thread CPU ns" if args.thread_cpu else "ns"
    print(f"({clock} per iteration: the fastest of {args.repeat} runs, each the fastest of "
          f"{args.trials} trials; ratio = added cost of xfbtrace / added cost of apitrace, "
          f"of the fastest runs (of the median runs in parentheses); target <= 0.5)")

if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Wall time of Debian's Chromium running the WebGL2 TF page
(tests/apps/webgl/tf.html) through ANGLE on llvmpipe: plain; with the
capture library preloaded (LD_PRELOAD + XFBTRACE_OUTPUT: the browser's own
slowdown, the trace left in spool form); under `xfbtrace capture` (with
observations, the default: the same, then the GPU process's spool compacted
after the browser exits); under `xfbtrace capture --no-observe` (calls
only); and under `apitrace trace --api egl` (`--api gl`, GLX, with --glx).

Each run starts the browser with a fresh profile, loads the page, which
runs its TF steps (one per animation frame), checks itself and closes the
window; the time is from the start of the command to the exit of the
browser, so it holds the browser's start-up and shut-down, which no
tracer changes much, and the GPU process's GL work, which they do.  Ways
are interleaved (plain, xfbtrace, xfbtrace --no-observe, apitrace, plain,
...) --repeat times; a run whose page does not say "PASS" aborts the
benchmark.  Prints the median and the fastest run of each way, the ratio of
each median to plain's, and the added-time ratios xfbtrace / apitrace
(time above plain's), of the medians and of the fastest runs.

usage: bench/chromium_overhead.py [--build DIR] [--repeat N] [--frames N]
                                  [--particles N] [--glx] [--markdown]
"""
import argparse
import os
import pathlib
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
PAGE = ROOT / "tests" / "apps" / "webgl" / "tf.html"
FLAGS = ["--headless=new", "--no-sandbox", "--use-gl=angle", "--ignore-gpu-blocklist",
         "--enable-logging=stderr", "--no-first-run", "--disable-gpu-program-cache"]


def one_run(way, args, xfbtrace, workdir):
    """Seconds of one run of `way` in a fresh directory and profile."""
    d = pathlib.Path(tempfile.mkdtemp(prefix=f"chromium-{way}-", dir=workdir))
    url = PAGE.as_uri() + f"?frames={args.frames}&n={args.particles}"
    browser = [shutil.which("chromium"), *FLAGS,
               "--use-angle=gl" if args.glx else "--use-angle=gl-egl",
               f"--user-data-dir={d / 'profile'}", url]
    if way == "plain":
        argv = browser
    elif way == "preload":
        argv = ["env", f"LD_PRELOAD={xfbtrace.parent.parent / 'capture' / 'libxfbtrace-capture.so'}",
                f"XFBTRACE_OUTPUT={d / 't.xfbt'}", *browser]
    elif way == "xfbtrace":
        argv = [str(xfbtrace), "capture", "-o", str(d / "t.xfbt"), "--", *browser]
    elif way == "xfbtrace-no-observe":
        argv = [str(xfbtrace), "capture", "--no-observe", "-o", str(d / "t.xfbt"), "--", *browser]
    else:
        argv = ["apitrace", "trace", "--api", "gl" if args.glx else "egl", *browser]
    if args.glx:
        argv = ["xvfb-run", "-a", "-s", "-screen 0 1024x768x24", *argv]
    t0 = time.monotonic()
    out = subprocess.run(argv, cwd=d, capture_output=True, text=True, timeout=300)
    dt = time.monotonic() - t0
    if "PASS 3 checks" not in out.stderr:
        sys.exit(f"chromium_overhead: {way}: the page did not pass (exit {out.returncode}):\n"
                 f"{out.stderr[-3000:]}")
    shutil.rmtree(d, ignore_errors=True)
    return dt


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", default=str(ROOT / "build"))
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--frames", type=int, default=60)
    ap.add_argument("--particles", type=int, default=4096)
    ap.add_argument("--glx", action="store_true", help="ANGLE on GLX under Xvfb")
    ap.add_argument("--markdown", action="store_true")
    args = ap.parse_args()
    xfbtrace = pathlib.Path(args.build) / "cli" / "xfbtrace"
    for tool in ("chromium", "apitrace") + (("xvfb-run",) if args.glx else ()):
        if not shutil.which(tool):
            sys.exit(f"chromium_overhead: {tool} not found (scripts/setup.sh installs it)")
    if not xfbtrace.exists():
        sys.exit(f"chromium_overhead: {xfbtrace} not built")
    ways = ["plain", "preload", "xfbtrace", "xfbtrace-no-observe", "apitrace"]
    times = {w: [] for w in ways}
    with tempfile.TemporaryDirectory(prefix="chromium-bench-") as workdir:
        for r in range(args.repeat):
            for w in ways:
                times[w].append(one_run(w, args, xfbtrace, workdir))
            print(f"run {r + 1}: " + ", ".join(f"{w} {times[w][-1]:.2f} s" for w in ways),
                  file=sys.stderr)
    med = {w: statistics.median(times[w]) for w in ways}
    rows = [(w, med[w], min(times[w]), med[w] / med["plain"]) for w in ways]
    what = (f"{'GLX (Xvfb)' if args.glx else 'EGL (headless)'}, {args.frames} frames, "
            f"{args.particles} particles, median of {args.repeat} interleaved runs")
    if args.markdown:
        print(f"{what}\n\n| way | median s | fastest s | / plain |\n|---|---|---|---|")
        for w, m, f, r in rows:
            print(f"| {w} | {m:.2f} | {f:.2f} | {r:.2f} |")
    else:
        print(what)
        for w, m, f, r in rows:
            print(f"{w:22s} median {m:6.2f} s  fastest {f:6.2f} s  {r:5.2f} x plain")
    fastest = {w: min(times[w]) for w in ways}
    for label, t in (("median", med), ("fastest", fastest)):
        base = t["apitrace"] - t["plain"]
        for w in ("preload", "xfbtrace", "xfbtrace-no-observe"):
            a = t[w] - t["plain"]
            ratio = f"{a / base:.2f}" if base > 0 else "n/a (apitrace added nothing measurable)"
            print(f"added time ({label}) {w} / apitrace: {a:+.2f} s / {base:+.2f} s = {ratio}")


if __name__ == "__main__":
    main()

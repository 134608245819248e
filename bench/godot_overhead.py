#!/usr/bin/env python3
"""Capture overhead on a real application: Debian's Godot 3 running
tests/apps/godot (GPU particles on the GLES3 renderer, llvmpipe, one Xvfb
server started here) for --frames frames, three ways: plain, under
`xfbtrace capture` (calls and TF observations), under `xfbtrace capture
--no-observe` (calls only, what apitrace records) and under `apitrace trace`.

The three run interleaved (plain, xfbtrace, apitrace, plain, ...) so that
load from other jobs hits them alike; each run's wall time is the whole
process, start to exit (Godot's start-up included: it is what a user
waits for).  Prints the median and the fastest of --repeat runs of each,
and for both the ratios to plain and the ratio of the added costs,
(xfbtrace - plain) / (apitrace - plain) (docs/performance.md "Capture: a
real application (Godot 3)").

Usage: bench/godot_overhead.py [--build DIR] [--frames N] [--repeat R]
Python standard library only; needs godot3, Xvfb and apitrace
(scripts/setup.sh).
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

ROOT = pathlib.Path(__file__).resolve().parent.parent
PROJECT = ROOT / "tests" / "apps" / "godot"


def start_xvfb():
    """An Xvfb server on a free display; returns (process, DISPLAY)."""
    for n in range(90, 140):
        if os.path.exists(f"/tmp/.X{n}-lock"):
            continue
        proc = subprocess.Popen(["Xvfb", f":{n}", "-screen", "0", "320x240x24", "-nolisten", "tcp"],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(100):
            if os.path.exists(f"/tmp/.X11-unix/X{n}"):
                return proc, f":{n}"
            if proc.poll() is not None:
                break
            time.sleep(0.05)
        proc.kill()
        proc.wait()
    sys.exit("no free X display for Xvfb")


def timed(argv, env):
    t0 = time.monotonic()
    out = subprocess.run(argv, env=env, capture_output=True, text=True)
    elapsed = time.monotonic() - t0
    if out.returncode != 0 or "xfbtrace-godot: done" not in out.stdout:
        sys.exit(f"{' '.join(map(str, argv))} failed ({out.returncode}):\n{out.stdout[-2000:]}{out.stderr[-2000:]}")
    return elapsed


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default=os.environ.get("XFBTRACE_BUILD_DIR", "build"))
    ap.add_argument("--frames", type=int, default=60)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    xfbtrace = pathlib.Path(args.build).resolve() / "cli" / "xfbtrace"
    for tool in ("godot3", "Xvfb", "apitrace"):
        if not shutil.which(tool):
            sys.exit(f"{tool} is missing: scripts/setup.sh installs it")
    if not xfbtrace.exists():
        sys.exit(f"{xfbtrace} was not built")

    xvfb, display = start_xvfb()
    try:
        with tempfile.TemporaryDirectory() as tmp:
            env = dict(os.environ, DISPLAY=display)
            for var in ("HOME", "XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME"):
                env[var] = tmp
            godot = ["godot3", "--path", PROJECT, "--video-driver", "GLES3", "--audio-driver", "Dummy",
                     "--", f"--frames={args.frames}"]
            cases = {
                "plain": godot,
                "xfbtrace": [xfbtrace, "capture", "-o", f"{tmp}/godot.xfbt", "--"] + godot,
                "calls-only": [xfbtrace, "capture", "--no-observe", "-o", f"{tmp}/calls.xfbt", "--"] + godot,
                "apitrace": ["apitrace", "trace", "--api", "gl", "-o", f"{tmp}/godot.trace"] + godot,
            }
            times = {name: [] for name in cases}
            for r in range(args.repeat):
                for name, argv in cases.items():
                    times[name].append(timed(argv, env))
                print(f"round {r + 1}: " + ", ".join(f"{n} {t[-1]:.2f} s" for n, t in times.items()),
                      file=sys.stderr)
            sizes = {"xfbtrace": os.path.getsize(f"{tmp}/godot.xfbt"),
                     "calls-only": os.path.getsize(f"{tmp}/calls.xfbt"),
                     "apitrace": os.path.getsize(f"{tmp}/godot.trace")}
    finally:
        xvfb.terminate()
        xvfb.wait()

    med = {n: statistics.median(t) for n, t in times.items()}
    print(f"Godot 3, {args.frames} frames, median of {args.repeat} interleaved runs (wall time, whole process)")
    for n in cases:
        extra = f", trace {sizes[n] / 1024:.0f} KiB" if n in sizes else ""
        print(f"  {n:10s} {med[n]:7.2f} s  (min {min(times[n]):.2f}, max {max(times[n]):.2f}){extra}")
    fast = {n: min(t) for n, t in times.items()}
    # noise only adds time: the fastest runs are the steadiest estimate,
    # the medians show the spread (as bench/capture_overhead.py)
    for label, v in (("medians", med), ("fastest", fast)):
        added_a = v["apitrace"] - v["plain"]
        line = [f"{n} / plain {v[n] / v['plain']:.2f}" for n in ("xfbtrace", "calls-only", "apitrace")]
        for n in ("xfbtrace", "calls-only"):
            line.append(f"added cost {n} / apitrace " +
                        (f"{(v[n] - v['plain']) / added_a:.2f}" if added_a > 0 else "n/a"))
        print(f"  {label}: " + ", ".join(line))

if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Replay time of xfbtrace's host backend vs apitrace's replayer.

The same program (tests/apps/tf-particles-gles3 with many frames: GLES 3 on
llvmpipe, TF ping-pong, map read-backs) is traced twice, by `xfbtrace
capture` and by apitrace's egltrace.so; then `xfbtrace replay` (host
backend, without and with --check) and `apitrace replay` (eglretrace on
surfaceless EGL) replay their own trace, interleaved, --repeat times each.
Prints median wall times and the ratio ours / apitrace (target <= 1.0).

usage: bench/replay_vs_apitrace.py [--build DIR] [--frames N] [--repeat N]
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
EGLTRACE = "/usr/lib/x86_64-linux-gnu/apitrace/wrappers/egltrace.so"


def timed(argv, env=None):
    t0 = time.monotonic()
    out = subprocess.run([str(a) for a in argv], capture_output=True, text=True,
                         env=dict(os.environ, **(env or {})), timeout=1800)
    dt = time.monotonic() - t0
    if out.returncode != 0:
        sys.exit(f"replay_vs_apitrace: {argv[0]} failed ({out.returncode}): {out.stderr[-2000:]}")
    return dt


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", default=str(ROOT / "build"))
    ap.add_argument("--frames", type=int, default=2000, help="frames of the particle program")
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    build = pathlib.Path(args.build)
    xfbtrace, app = build / "cli" / "xfbtrace", build / "tests" / "apps" / "tf-particles-gles3"
    if not shutil.which("apitrace") or not os.path.exists(EGLTRACE):
        sys.exit("replay_vs_apitrace: apitrace is not installed")
    with tempfile.TemporaryDirectory() as tmp:
        ours, theirs = pathlib.Path(tmp) / "p.xfbt", pathlib.Path(tmp) / "p.trace"
        timed([xfbtrace, "capture", "-o", ours, "--", app, "--frames", args.frames])
        timed([app, "--frames", args.frames], {"LD_PRELOAD": EGLTRACE, "TRACE_FILE": str(ours.with_suffix(".trace"))})
        os.replace(ours.with_suffix(".trace"), theirs)
        calls = subprocess.run([xfbtrace, "info", "--json", ours], capture_output=True, text=True).stdout
        times = {"xfbtrace replay": [], "xfbtrace replay --check": [], "apitrace replay": []}
        for i in range(args.repeat):
            print(f"replay_vs_apitrace: round {i + 1}/{args.repeat}", file=sys.stderr)
            times["xfbtrace replay"].append(timed([xfbtrace, "replay", ours]))
            times["xfbtrace replay --check"].append(timed([xfbtrace, "replay", "--check", ours]))
            times["apitrace replay"].append(timed(["apitrace", "replay", theirs],
                                                  {"WAFFLE_PLATFORM": "surfaceless_egl"}))
    med = {k: statistics.median(v) for k, v in times.items()}
    base = med["apitrace replay"]
    import json
    n = json.loads(calls)["calls"] if calls else 0
    print(f"trace: tf-particles-gles3 --frames {args.frames}, {n} calls (ours)")
    for k, v in med.items():
        print(f"{k:26} {v:7.3f} s   ratio to apitrace {v / base:.2f}")
    print(f"(median of {args.repeat} runs each; target: xfbtrace replay / apitrace replay <= 1.0)")


if __name__ == "__main__":
    main()

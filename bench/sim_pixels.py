#!/usr/bin/env python3
"""Sim pixel throughput vs llvmpipe on the same trace, same run.

Captures bench/pixel_heavy.c twice on the host GL: DRAWS full-framebuffer
quads into a SIZE x SIZE RGBA8 framebuffer (smooth colour, no depth, no
blending) and the same with one draw.  Each trace counts its fragments
with a GL_SAMPLES_PASSED query (DRAWS x SIZE^2: the program checks it,
and `replay --check` compares the replay's count, which the sim's DB
makes, with the capture's).  Then replays both traces `--repeat` times on
llvmpipe with LP_NUM_THREADS=1, on llvmpipe with its default threads and
on the sim, interleaved so that load from other jobs hits all alike, and
prints for each the median wall time and

- whole replay: fragments / median wall time of the DRAWS trace (trace
  reading, shader compiles, the read-back included);
- per extra draw: (DRAWS - 1) x SIZE^2 fragments / (time of the DRAWS
  trace - time of the 1-draw trace), the pixel path alone;

and the ratios sim / llvmpipe of both (above 1: the sim is faster).  The
CPU time (user + system) is printed too: on a loaded machine it says more
than the wall time.  One `--check` replay per backend of the DRAWS trace
reports whether every observation (the image within one unit, the
fragment count exactly) was equal.

Usage: bench/sim_pixels.py [--build DIR] [--size N] [--draws K] [--repeat R]
(docs/performance.md: --size 1024 --draws 64 --repeat 5; llvmpipe needs
tens of millions of fragments before its time rises above the noise)
Python standard library only.
"""
import argparse
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time

SUMMARY = re.compile(r"^(\d+) observations, (\d+) match, (\d+) differ", re.M)
FRAGMENTS = re.compile(r"^fragments (\d+)$", re.M)
# name, backend, LP_NUM_THREADS (None: llvmpipe's default, one per CPU)
CONFIGS = [("llvmpipe, 1 thread", "host", "1"), ("llvmpipe, default threads", "host", None),
           ("sim", "sim", None)]


def cpu_seconds():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def replay(xfbtrace, config, trace, check=False):
    """Runs one replay; returns (wall seconds, CPU seconds, completed process)."""
    _, backend, threads = config
    env = dict(os.environ)
    env.pop("LP_NUM_THREADS", None)
    if threads:
        env["LP_NUM_THREADS"] = threads
    args = [xfbtrace, "replay", "--no-db", "--backend", backend] + \
        (["--check", "--image-tolerance", "max=1"] if check else []) + [trace]
    c0, t0 = cpu_seconds(), time.monotonic()
    out = subprocess.run(args, capture_output=True, text=True, env=env)
    elapsed, cpu = time.monotonic() - t0, cpu_seconds() - c0
    if out.returncode not in (0, 1) or (not check and out.returncode):
        sys.exit(f"{' '.join(args)} failed ({out.returncode}):\n{out.stdout}{out.stderr}")
    return elapsed, cpu, out


def capture(xfbtrace, app, trace, size, draws):
    out = subprocess.run([xfbtrace, "capture", "-o", trace, "--", app, "--size", str(size),
                          "--draws", str(draws)], capture_output=True, text=True)
    m = FRAGMENTS.search(out.stdout)
    if out.returncode or not m:
        sys.exit(f"capture of {app} failed ({out.returncode}):\n{out.stdout}{out.stderr}")
    return int(m.group(1))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default=os.environ.get("XFBTRACE_BUILD_DIR", "build"))
    ap.add_argument("--size", type=int, default=1024)
    ap.add_argument("--draws", type=int, default=16)
    ap.add_argument("--repeat", type=int, default=5)
    a = ap.parse_args()
    if a.draws < 2:
        sys.exit("--draws must be at least 2 (the per-draw rate is the difference to 1 draw)")
    xfbtrace = os.path.join(a.build, "cli", "xfbtrace")
    app = os.path.join(a.build, "bench", "pixel-heavy")
    for path in (xfbtrace, app):
        if not os.path.exists(path):
            sys.exit(f"{path} is not built")
    names = [c[0] for c in CONFIGS]
    wall = {(n, k): [] for n in names for k in ("many", "one")}
    cpu = {(n, k): [] for n in names for k in ("many", "one")}
    with tempfile.TemporaryDirectory() as d:
        traces = {"many": os.path.join(d, "many.xfbt"), "one": os.path.join(d, "one.xfbt")}
        frags = {"many": capture(xfbtrace, app, traces["many"], a.size, a.draws),
                 "one": capture(xfbtrace, app, traces["one"], a.size, 1)}
        for _ in range(a.repeat):
            for config in CONFIGS:
                for k in ("many", "one"):
                    w, c, _ = replay(xfbtrace, config, traces[k])
                    wall[config[0], k].append(w)
                    cpu[config[0], k].append(c)
        equal = {}
        for config in CONFIGS:
            _, _, out = replay(xfbtrace, config, traces["many"], check=True)
            m = SUMMARY.search(out.stdout)
            equal[config[0]] = (f"{m.group(2)}/{m.group(1)} observations equal" if m
                                else "no summary")
    print(f"trace: pixel-heavy, {a.draws} quads into {a.size}x{a.size} RGBA8, "
          f"{frags['many']} fragments (1-draw trace: {frags['one']}); median of {a.repeat}")
    rate, marginal, cpu_rate = {}, {}, {}
    for n in names:
        tm, t1 = statistics.median(wall[n, "many"]), statistics.median(wall[n, "one"])
        cm, c1 = statistics.median(cpu[n, "many"]), statistics.median(cpu[n, "one"])
        rate[n] = frags["many"] / tm
        marginal[n] = (frags["many"] - frags["one"]) / (tm - t1) if tm > t1 else float("inf")
        cpu_rate[n] = (frags["many"] - frags["one"]) / (cm - c1) if cm > c1 else float("inf")
        print(f"{n:26s} {a.draws} draws {tm:.3f} s, 1 draw {t1:.3f} s (CPU {cm:.3f} / {c1:.3f} s); "
              f"whole replay {rate[n] / 1e6:.1f} Mpixels/s, per extra draw "
              f"{marginal[n] / 1e6:.1f} Mpixels/s (CPU time: {cpu_rate[n] / 1e6:.1f}); "
              f"--check: {equal[n]}")
    def ratio(r, peer):
        # inf: the DRAWS trace took no longer than the 1-draw one (too few
        # fragments for the timer, or noise): no ratio
        return "n/a (raise --draws)" if float("inf") in (r["sim"], r[peer]) \
            else f"{r['sim'] / r[peer]:.3f}"
    for peer in names[:2]:
        print(f"ratio sim / {peer}: whole replay {ratio(rate, peer)}, "
              f"per extra draw {ratio(marginal, peer)}, "
              f"per extra draw in CPU time {ratio(cpu_rate, peer)}")


if __name__ == "__main__":
    main()

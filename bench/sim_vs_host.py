#!/usr/bin/env python3
"""Sim replay vs host (llvmpipe) replay of one TF-heavy trace, same run.

Captures bench/tf_heavy.c (VERTICES vertices through a vertex shader with
five varyings into transform feedback) on the host GL, then replays the
trace `--repeat` times on each backend, alternating so that load from other
jobs hits both alike, and prints the median wall time of each, the ratio
sim / host (target <= 2.0, docs/performance.md "Sim replay vs llvmpipe") and
the sim's vertices per second.  One extra `--check` replay per backend
reports whether every observation was equal.  The CPU time (user + system)
of the replays is printed too: on a loaded machine it says more than the
wall time, which includes waiting for a CPU.

Usage: bench/sim_vs_host.py [--build DIR] [--vertices N] [--repeat R]
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


def cpu_seconds():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def replay(xfbtrace, backend, trace, check=False):
    """Runs one replay; returns (wall seconds, CPU seconds, completed process)."""
    args = [xfbtrace, "replay", "--backend", backend] + (["--check"] if check else []) + [trace]
    c0, t0 = cpu_seconds(), time.monotonic()
    out = subprocess.run(args, capture_output=True, text=True)
    elapsed, cpu = time.monotonic() - t0, cpu_seconds() - c0
    if out.returncode not in (0, 1) or (not check and out.returncode):
        sys.exit(f"{' '.join(args)} failed ({out.returncode}):\n{out.stdout}{out.stderr}")
    return elapsed, cpu, out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default=os.environ.get("XFBTRACE_BUILD_DIR", "build"))
    ap.add_argument("--vertices", type=int, default=1 << 20)
    ap.add_argument("--repeat", type=int, default=5)
    a = ap.parse_args()
    xfbtrace = os.path.join(a.build, "cli", "xfbtrace")
    app = os.path.join(a.build, "bench", "tf-heavy")
    for path in (xfbtrace, app):
        if not os.path.exists(path):
            sys.exit(f"{path} is not built")
    with tempfile.TemporaryDirectory() as d:
        trace = os.path.join(d, "tf-heavy.xfbt")
        subprocess.run([xfbtrace, "capture", "-o", trace, "--", app, "--vertices",
                        str(a.vertices)], check=True, capture_output=True)
        times = {"host": [], "sim": []}
        cpus = {"host": [], "sim": []}
        for _ in range(a.repeat):
            for backend in ("host", "sim"):
                wall, cpu, _ = replay(xfbtrace, backend, trace)
                times[backend].append(wall)
                cpus[backend].append(cpu)
        equal = {}
        for backend in ("host", "sim"):
            _, _, out = replay(xfbtrace, backend, trace, check=True)
            m = SUMMARY.search(out.stdout)
            equal[backend] = (f"{m.group(2)}/{m.group(1)} observations equal" if m
                              else "no summary")
    host = statistics.median(times["host"])
    sim = statistics.median(times["sim"])
    print(f"trace: tf-heavy, {a.vertices} vertices, 56 bytes of TF output per vertex")
    print(f"host (llvmpipe) replay: median {host:.3f} s of {a.repeat} "
          f"({', '.join(f'{t:.2f}' for t in times['host'])}); --check: {equal['host']}")
    print(f"sim replay:             median {sim:.3f} s of {a.repeat} "
          f"({', '.join(f'{t:.2f}' for t in times['sim'])}); --check: {equal['sim']}")
    print(f"ratio sim / host: {sim / host:.2f} (target <= 2.0)")
    host_cpu, sim_cpu = statistics.median(cpus["host"]), statistics.median(cpus["sim"])
    print(f"CPU time (user + system), median: host {host_cpu:.3f} s, sim {sim_cpu:.3f} s, "
          f"ratio {sim_cpu / host_cpu:.2f}")
    print(f"sim vertices per second: {a.vertices / sim / 1e6:.2f} M "
          f"(whole replay: trace reading, driver, gpu_model)")


if __name__ == "__main__":
    main()

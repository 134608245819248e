#!/usr/bin/env python3
"""Write and read throughput of the two results stores on the same runs:
an SQLite file and a database on a local PostgreSQL server (unix socket,
started here as tests/integration/pgserver.py starts the tests' one).

On each store, the same synthetic trace (db-make-trace: NOBS observations of
BYTES incompressible bytes each) is
  ingest     recorded with its golden run (one transaction, every blob new);
  writers    written again as WRITERS runs by WRITERS processes at once
             (db-record-run, the stand-in for `replay --db` the tests use:
             one transaction per observation, every blob already stored, as
             replays of one trace at one revision are);
  diff       golden vs one run, one observation changed (rows read, blobs
             compared by hash);
  push       the whole store copied into a new SQLite file (`db push`: every
             row and blob read and checked, then written).
Each step runs --repeat times on a fresh store; the median is printed, as a
markdown table for docs/performance.md.

Usage: bench/db_backends.py [--build DIR] [--nobs N] [--bytes B] [--writers W] [--repeat R]
Python standard library only; needs Debian's postgresql (scripts/setup.sh).
"""
import argparse
import os
import pathlib
import statistics
import subprocess
import sys
import tempfile
import time

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests" / "integration"))
from pgserver import Server  # noqa: E402  (the tests' server, one source)


def timed(argv, **kw):
    t0 = time.monotonic()
    out = subprocess.run([str(a) for a in argv], capture_output=True, text=True, **kw)
    if out.returncode not in (0, 1):
        sys.exit(f"{argv[0]} failed ({out.returncode}): {out.stderr}")
    return time.monotonic() - t0, out


def parallel(argvs):
    t0 = time.monotonic()
    procs = [subprocess.Popen([str(a) for a in argv], stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, text=True) for argv in argvs]
    for p in procs:
        _, err = p.communicate()
        if p.returncode:
            sys.exit(f"a writer failed: {err}")
    return time.monotonic() - t0


def one_round(xfbtrace, record, trace, db, writers, tmp):
    t = {}
    t["ingest"], _ = timed([xfbtrace, "ingest", "--db", db, trace])
    t["writers"] = parallel([[record, "--db", db, "--label", f"w{i}", trace]
                             for i in range(writers)])
    _, out = timed([record, "--db", db, "--label", "changed", "--perturb", "1:0:0", trace])
    changed = out.stdout.split()[1]
    t["diff"], _ = timed([xfbtrace, "diff", "--db", db, "1", changed])
    out_db = tmp / f"copy-{time.monotonic_ns()}.db"
    t["push"], _ = timed([xfbtrace, "db", "push", "--quiet", db, out_db])
    return t


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default="build")
    ap.add_argument("--nobs", type=int, default=256)
    ap.add_argument("--bytes", type=int, default=65536)
    ap.add_argument("--writers", type=int, default=8)
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args()
    build = pathlib.Path(a.build).resolve()
    xfbtrace = build / "cli" / "xfbtrace"
    record = build / "tests" / "unit" / "db" / "db-record-run"
    make = build / "tests" / "unit" / "db" / "db-make-trace"
    server = Server()
    try:
        with tempfile.TemporaryDirectory(prefix="xfbtrace-dbbench-") as d:
            tmp = pathlib.Path(d)
            trace = tmp / "bench.xfbt"
            subprocess.run([make, trace, str(a.nobs), str(a.bytes), "--noise"], check=True)
            # Each observation is read back after its own call; the trace
            # holds the data once more per observation as its golden data.
            mib = a.nobs * a.bytes / 2**20
            results = {"sqlite": [], "postgresql": []}
            for r in range(a.repeat):
                for engine in results:  # alternating, so load hits both alike
                    db = (tmp / f"s{r}.db") if engine == "sqlite" else \
                        server.url(server.new_database())
                    results[engine].append(one_round(xfbtrace, record, trace, db, a.writers, tmp))
    finally:
        server.stop()

    n_obs = a.nobs
    print(f"{a.nobs} observations x {a.bytes} bytes ({mib:.1f} MiB a run), {a.writers} writers,"
          f" median of {a.repeat}")
    print("| step | SQLite (s) | PostgreSQL (s) | SQLite | PostgreSQL |")
    print("|---|---|---|---|---|")
    rate = {
        "ingest": lambda s: f"{mib / s:.1f} MiB/s",
        "writers": lambda s: f"{a.writers * n_obs / s:.0f} obs/s",
        "diff": lambda s: f"{2 * n_obs / s:.0f} rows/s",
        "push": lambda s: f"{(a.writers + 2) * mib / s:.1f} MiB/s of runs",
    }
    for step in ("ingest", "writers", "diff", "push"):
        med = {e: statistics.median(t[step] for t in results[e]) for e in results}
        print(f"| {step} | {med['sqlite']:.3f} | {med['postgresql']:.3f} |"
              f" {rate[step](med['sqlite'])} | {rate[step](med['postgresql'])} |")


if __name__ == "__main__":
    main()

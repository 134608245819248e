#!/usr/bin/env python3
"""Sim coverage of the piglit TF list: capture each line on the system GL
(llvmpipe), replay the trace on the sim with --check, and report which
lines replay with every observation and returned value equal.

    python3 scripts/sim_coverage.py [--build build] [--jobs 2]
        [--traces DIR] [--list FILE] [--only REGEX] [--pass-list OUT]

Traces are kept in --traces (default /tmp/xfbtrace-sim-coverage) and are
captured again only when missing, so a second run only replays.  Prints
one line per failure (the replay's first difference) and a summary; with
--pass-list, writes the passing lines (tests/integration/sim_piglit_pass.txt),
with --markdown the failures as the table of docs/status.md.

A line passes when the replay exits 0, every observation matches (or is
an image that width-1 line rasterization explains, LINE_IMAGE), no
compared returned value differs, and every call it did not replay is one
that cannot change what --check compares (HARMLESS: reading back pixels
the sim could not draw faithfully, which it reports as not replayed; the
pixels it draws are compared as any observation).
"""
import argparse
import concurrent.futures
import hashlib
import os
import pathlib
import re
import subprocess
import sys
import threading

ROOT = pathlib.Path(__file__).resolve().parent.parent
PIGLIT = pathlib.Path("/usr/lib/x86_64-linux-gnu/piglit")
SUMMARY = re.compile(r"^(\d+) observations, (\d+) match, (\d+) differ", re.M)
RETURNS = re.compile(r"^returned values: (\d+) compared, (\d+) differ", re.M)


# Calls the sim reports as not replayed that cannot change what --check
# compares (TF buffers, query results, buffer reads, returned values):
# reading back rasterized pixels.
# Images are compared within one unit of an 8-bit UNORM target as read
# back with GL_FLOAT (what piglit reads): GL requires neither bit-exact
# colour interpolation nor a correctly rounded UNORM-to-float conversion
# (GL 4.6 §2.3.4.1, §14.6), where llvmpipe and the sim differ by 1/255 in
# smoothly shaded pixels and by an ulp in the conversion.
IMAGE_TOLERANCE = "max=0.0040"
HARMLESS = re.compile(r"^call \d+ (glReadPixels|glReadnPixels|glGetFramebufferAttachmentParameteriv): not replayed")


# Images whose differing pixels all lie where two allowed rasterizations of
# the width-1 lines drawn into them may differ: replay --check classifies
# them implementation-dependent (GL 4.6 §14.5.1), and they pass.
LINE_IMAGE = re.compile(r"^call \d+ \w+: implementation-dependent: pixels .*§14\.5\.1", re.M)


def line_images(out):
    """How many images the replay classified by line rasterization."""
    return len(LINE_IMAGE.findall(out.stdout))


def unaccounted(out):
    """Observations of a replay that neither match nor are accounted for:
    images the sim could not draw (reported as not drawn), images within
    IMAGE_TOLERANCE (classified precision) and images that width-1 line
    rasterization explains (classified implementation-dependent).  None
    when the replay printed no summary."""
    m = SUMMARY.search(out.stdout)
    if not m:
        return None
    total, match, differ = (int(x) for x in m.groups())
    drawn = re.search(r", (\d+) images not drawn by the replay", out.stdout)
    precise = re.search(r"classified, not counted as differences: .*?(\d+) precision", out.stdout)
    return total - match - (int(drawn.group(1)) if drawn else 0) \
        - (int(precise.group(1)) if precise else 0) - line_images(out)


def blocking(out):
    """The lines of a replay's output that make a piglit line fail."""
    lines = (out.stdout + out.stderr).splitlines()
    bad = [l for l in lines if re.match(r"call \d+ .*(differs|the replay raised|made no observation)", l)]
    bad += [l for l in lines if re.match(r"call \d+ \w+: not replayed", l) and not HARMLESS.match(l)]
    bad += [l for l in lines if re.search(r"fault|error:", l) and not l.startswith("call ")]
    return bad


def one(xfbtrace, traces, line):
    key = hashlib.sha1(line.encode()).hexdigest()[:16]
    trace = traces / f"{key}.xfbt"
    env = dict(os.environ, PIGLIT_PLATFORM="surfaceless_egl", PIGLIT_SOURCE_DIR=str(PIGLIT))
    if not trace.exists():
        words = line.split()
        tmp = trace.with_suffix(f".{os.getpid()}.{threading.get_ident()}.tmp")
        cap = subprocess.run([xfbtrace, "capture", "-o", tmp, "--", PIGLIT / "bin" / words[0], *words[1:]],
                             cwd=PIGLIT, env=env, capture_output=True, text=True, timeout=600)
        if not tmp.exists():
            return line, False, f"capture failed: exit {cap.returncode}", []
        tmp.rename(trace)
    try:
        out = subprocess.run([xfbtrace, "replay", "--backend", "sim", "--check",
                              "--image-tolerance", IMAGE_TOLERANCE, trace],
                             capture_output=True, text=True, timeout=600)
    except subprocess.TimeoutExpired:
        return line, False, "replay timed out (600 s)", []
    bad = blocking(out)
    m, r = SUMMARY.search(out.stdout), RETURNS.search(out.stdout)
    if m:
        total, match, differ = (int(x) for x in m.groups())
        if unaccounted(out) or differ:
            bad.append(f"{match} of {total} observations match")
    if not r or int(r.group(2)):
        bad.append("returned values differ" if r else "no returned-value summary")
    if out.returncode and not bad:
        bad.append(f"replay exit {out.returncode}: " + " / ".join((out.stdout + out.stderr).strip().splitlines()[-3:]))
    # Pixels the sim could not draw and reported (why, per read-back call).
    undrawn = [l.split(": not replayed: ", 1)[1] for l in out.stdout.splitlines() if HARMLESS.match(l)]
    return line, not bad, bad[0][:300] if bad else "", undrawn


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", default=str(ROOT / "build"))
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--traces", default="/tmp/xfbtrace-sim-coverage")
    ap.add_argument("--list", default=str(ROOT / "tests" / "integration" / "piglit_tf.txt"),
                    help="piglit commands, one a line (default: the project's list, made by "
                    "scripts/piglit_tf_list.py)")
    ap.add_argument("--only", help="regular expression: run the matching lines only")
    ap.add_argument("--pass-list", help="write the passing lines to this file")
    ap.add_argument("--markdown", help="write the failing lines as a Markdown table to this file")
    args = ap.parse_args()

    xfbtrace = pathlib.Path(args.build).resolve() / "cli" / "xfbtrace"
    if not xfbtrace.exists():
        sys.exit(f"sim_coverage: {xfbtrace} not found (build first, or pass --build)")
    traces = pathlib.Path(args.traces)
    traces.mkdir(parents=True, exist_ok=True)
    try:
        lines = [l.strip() for l in open(args.list) if l.strip() and not l.startswith("#")]
    except OSError as e:
        sys.exit(f"sim_coverage: {e.strerror}: {args.list}")
    if args.only:
        lines = [l for l in lines if re.search(args.only, l)]

    results = {}
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        futures = [pool.submit(one, xfbtrace, traces, l) for l in lines]
        for n, f in enumerate(concurrent.futures.as_completed(futures), 1):
            line, ok, why, undrawn = f.result()
            results[line] = (ok, why, undrawn)
            if not ok:
                print(f"FAIL {line}\n     {why}", flush=True)
            print(f"[{n}/{len(lines)}]", file=sys.stderr, end="\r", flush=True)

    passed = [l for l in lines if results[l][0]]
    print(f"\n{len(passed)} of {len(lines)} lines ({100.0 * len(passed) / max(1, len(lines)):.1f} %) "
          "replay on the sim with everything equal")
    undrawn = [l for l in passed if results[l][2]]
    if undrawn:
        print(f"{len(undrawn)} of them read back pixels the sim did not draw (reported, not compared):")
        for l in undrawn:
            print(f"  {l}: {results[l][2][0]}")
    if args.markdown:
        rows = ["| piglit line | first difference / reason |", "|---|---|"]
        rows += [f"| `{l.replace(' -auto -fbo', '')}` | {results[l][1].replace('|', '/')} |"
                 for l in lines if not results[l][0]]
        pathlib.Path(args.markdown).write_text("\n".join(rows) + "\n")
    if args.pass_list:
        pathlib.Path(args.pass_list).write_text("".join(l + "\n" for l in passed))
    return 0


if __name__ == "__main__":
    sys.exit(main())

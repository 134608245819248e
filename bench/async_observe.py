#!/usr/bin/env python3
"""What observations cost the application: sync vs async read-back (issue 23).

Two measurements, each under five ways, interleaved round by round:

  plain       the program alone
  calls-only  libxfbtrace-capture.so with XFBTRACE_OBSERVE=0 (no read-back)
  sync        XFBTRACE_OBSERVE=sync: each TF end maps the TF buffer at the
              call (the CPU waits for the GPU)
  async       XFBTRACE_OBSERVE=async (the default): each TF end copies the
              TF ranges on the GPU, the copies are read back later
  apitrace    apitrace's EGL wrapper (records calls only, never TF output)

1. "TF end": tests/capture/cap-bench's tf-begin-draw-end case (GLES 3,
   glBeginTransformFeedback + 16-point glDrawArrays + glEndTransformFeedback,
   10000 times, then glFinish); ns per iteration, and the ns each way adds
   to plain per TF end.
2. "frame loop": bench/tf-heavy --frames (GL 3.3 core, GLES 3.2 with
   --gles: SYSTEMS particle
   systems, one TF pass each per frame, eglSwapBuffers, two frames in
   flight as a driver throttles at swap); ns per frame (the frames' wall
   time and a final glFinish, over the frames) and each way's slowdown
   against plain.  The captures also write every TF buffer's bytes
   (SYSTEMS x PARTICLES x 32 bytes a frame) into the trace.

The GL comes from EGL without a window system: Mesa's surfaceless platform,
or the first EGL device (EGL_EXT_platform_device: NVIDIA through glvnd).
It needs only the capture library and the two programs of a build
(--build, default build/), plus build/cli/xfbtrace when present (to count
the observations each capture made, so that a run that lost or skipped
them shows), and an apitrace: --apitrace PATH (or $XFBTRACE_APITRACE) to
the `apitrace` program or its egltrace.so; by default `apitrace` on PATH or
Debian's egltrace.so; without one its column is empty, with a note.

Results go to stdout and, with --out DIR, to DIR/async_observe.txt and
DIR/async_observe.json.

For a machine without the build (a GPU machine), --stage DIR copies there
what a run needs: this script, DIR/build/... (the four files above, same
paths), DIR/lib/ (the shared libraries they load but glibc's and GL's,
which that machine brings) and DIR/apitrace/egltrace.so when found; run
it there as
  python3 DIR/async_observe.py --build DIR/build --libs DIR/lib \
      --apitrace DIR/apitrace/egltrace.so --out OUT
(--libs: put on LD_LIBRARY_PATH of the programs it runs, not of Python.)  Medians over --repeat rounds (noise on a loaded
machine only adds time: the fastest run is printed too).

usage: bench/async_observe.py [--build DIR] [--apitrace PATH] [--out DIR]
          [--repeat N] [--frames F] [--systems S] [--particles P] [--gles]
"""
import argparse
import json
import os
import pathlib
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
DEBIAN_EGLTRACE = "/usr/lib/x86_64-linux-gnu/apitrace/wrappers/egltrace.so"
WAYS = ["plain", "calls-only", "sync", "async", "apitrace"]


def find_apitrace(arg):
    """('so', path) for a wrapper to preload, ('cli', path) for the apitrace
    program, or None."""
    cand = arg or os.environ.get("XFBTRACE_APITRACE")
    if cand:
        p = pathlib.Path(cand)
        if not p.exists():
            sys.exit(f"async_observe: --apitrace {cand}: no such file")
        return ("so", str(p)) if p.name.endswith(".so") else ("cli", str(p))
    if shutil.which("apitrace"):
        return ("cli", shutil.which("apitrace"))
    if os.path.exists(DEBIAN_EGLTRACE):
        return ("so", DEBIAN_EGLTRACE)
    return None


def command(way, argv, lib, apitrace, tmp):
    """(argv, env, trace path or None) running `argv` the way `way` says."""
    env = dict(os.environ)
    trace = pathlib.Path(tmp) / f"{way}.trace"
    if way == "plain":
        return argv, env, None
    if way == "apitrace":
        kind, path = apitrace
        if kind == "so":
            env.update(LD_PRELOAD=path, TRACE_FILE=str(trace))
            return argv, env, trace
        return [path, "trace", "--api", "egl", "--output", str(trace), *argv], env, trace
    mode = {"calls-only": "0", "sync": "sync", "async": "async"}[way]
    env.update(LD_PRELOAD=str(lib), XFBTRACE_OUTPUT=str(trace), XFBTRACE_OBSERVE=mode)
    return argv, env, trace


def run_way(way, argv, lib, apitrace, tmp, keys, first, info):
    """The program's `keys` values (lines "KEY VALUE") run `way`; in the
    `first` round also the capture's counters and, with `info` (xfbtrace),
    what `xfbtrace info` says of the capture."""
    cmd, env, trace = command(way, argv, lib, apitrace, tmp)
    if first and way in ("sync", "async"):
        env["XFBTRACE_LOG"] = "info"   # the capture's counters, printed at exit
    if trace:
        trace.unlink(missing_ok=True)
    out = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=1800)
    if out.returncode != 0:
        sys.exit(f"async_observe: {way}: {' '.join(map(str, cmd))} exited {out.returncode}:\n"
                 f"{out.stderr[-3000:]}")
    vals = {}
    for line in out.stdout.splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[0] in keys:
            vals[parts[0]] = float(parts[1])
    m = re.search(r"^renderer: (.*)$", out.stdout, re.M)
    if m:
        vals["renderer"] = m.group(1)
    missing = [k for k in keys if k not in vals]
    if missing:
        sys.exit(f"async_observe: {way}: no {missing} in the output:\n{out.stdout[-2000:]}")
    facts = None
    if first and trace and way in ("calls-only", "sync", "async") and trace.exists():
        facts = trace_facts(info, trace) if info else {}
        m = re.search(r"async observations: (\d+) calls copied on the GPU \((\d+) into the "
                      r"mapped ring\), (\d+) read at the call.*after their fence: (\d+), "
                      r"waiting: (\d+)", out.stderr)
        if m:
            facts["async"] = dict(zip(("copied", "in_ring", "read_at_call", "read_after_fence",
                                       "read_waiting"), map(int, m.groups())))
        m = re.search(r"copies deferred: (\d+), made in (\d+) batches \((\d+) before", out.stderr)
        if m:
            facts["async"].update(zip(("deferred", "batches", "before_write"),
                                      map(int, m.groups())))
        m = re.search(r"(\d+) batches by gather dispatches \((\d+) dispatches\), (\d+) in the "
                      r"ring by copy calls(?: \((\d+) chosen as cheaper for their buffers' "
                      r"usage, (\d+) during conditional rendering\))?", out.stderr)
        if m:
            facts["async"].update(zip(("gathered", "dispatches", "not_gathered", "chosen_copies",
                                       "cond_copies"),
                                      (int(g) for g in m.groups() if g is not None)))
        m = re.search(r"ns in TF ends (\d+), copies (\d+), fences (\d+), fence polls (\d+), "
                      r"waits (\d+), read-backs (\d+), write checks (\d+)", out.stderr)
        if m:
            facts["async"]["ns"] = dict(zip(("tf_end", "copies", "fences", "polls", "waits",
                                             "read_backs", "write_checks"),
                                            map(int, m.groups())))
        m = re.search(r"of the TF ends: state (\d+), buffer sizes and maps (\d+), staging and "
                      r"records (\d+)", out.stderr)
        if m and "ns" in facts["async"]:
            facts["async"]["ns"].update(zip(("tf_end_state", "tf_end_sizes", "tf_end_staging"),
                                            map(int, m.groups())))
    if trace:
        trace.unlink(missing_ok=True)
    return vals, facts


def trace_facts(xfbtrace, trace):
    """Observations, lost ones and the GL renderer of a capture."""
    out = subprocess.run([str(xfbtrace), "info", str(trace)], capture_output=True, text=True,
                         timeout=1800)
    if out.returncode != 0:
        return {"error": out.stderr.strip()[-500:]}
    facts = {"observations": 0, "lost": 0}
    for line in out.stdout.splitlines():
        m = re.match(r"observations:\s+(\d+)", line)
        if m:
            facts["observations"] = int(m.group(1))
        m = re.match(r"\s+(\d+)\s+lost$", line)
        if m:
            facts["lost"] = int(m.group(1))
        for key in ("gl.renderer", "gl.version"):
            if line.startswith(key + " "):
                facts[key] = line[len(key):].strip()
    return facts


def measure(name, argv, key, ways, args, lib, apitrace, info):
    """Runs each way --repeat times, interleaved: {way: [values]}, facts."""
    runs = {w: [] for w in ways}
    facts = {"renderer": None}
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(args.repeat):
            for way in ways:
                print(f"async_observe: {name}: round {i + 1}/{args.repeat}: {way}",
                      file=sys.stderr, flush=True)
                vals, _ = run_way(way, argv, lib, apitrace, tmp, [key], False, info)
                runs[way].append(vals[key])
                if way == "plain" and vals.get("renderer"):
                    facts["renderer"] = vals["renderer"]
        # One more, untimed, run of each capture for its counters (with
        # XFBTRACE_LOG=info the capture times its steps, which costs).
        for way in ("calls-only", "sync", "async"):
            print(f"async_observe: {name}: counters: {way}", file=sys.stderr, flush=True)
            _, f = run_way(way, argv, lib, apitrace, tmp, [key], True, info)
            if f:
                facts[way] = f
    return runs, facts


STAGED = ["capture/libxfbtrace-capture.so", "tests/capture/cap-bench", "bench/tf-heavy",
          "cli/xfbtrace"]
# Never staged: the other machine's glibc and GL (its driver, glvnd).
NOT_STAGED = re.compile(r"/(libc|libm|libdl|libpthread|librt|ld-linux[^/]*|libGL[^/]*|libEGL[^/]*|"
                        r"libOpenGL|libGLESv[12][^/]*|libGLX[^/]*|libGLdispatch|libgbm|"
                        r"libdrm[^/]*)\.so")


def stage(build, out, apitrace_arg):
    """Copies what a run needs into `out` (see the module doc)."""
    for rel in STAGED:
        if not (build / rel).exists():
            sys.exit(f"async_observe: {build / rel} is missing (build first)")
    shutil.rmtree(out, ignore_errors=True)
    (out / "lib").mkdir(parents=True)
    shutil.copy2(__file__, out / "async_observe.py")
    libs = set()
    for rel in STAGED:
        (out / "build" / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(build / rel, out / "build" / rel)
        ldd = subprocess.run(["ldd", str(build / rel)], capture_output=True, text=True).stdout
        libs.update(m.group(1) for m in re.finditer(r"=> (/\S+)", ldd)
                    if not NOT_STAGED.search(m.group(1)))
    for so in sorted(libs):
        shutil.copy2(so, out / "lib" / pathlib.Path(so).name)
    wrapper = find_apitrace(apitrace_arg)
    if wrapper and wrapper[0] == "so":
        (out / "apitrace").mkdir()
        shutil.copy2(wrapper[1], out / "apitrace" / "egltrace.so")
    elif os.path.exists(DEBIAN_EGLTRACE):
        (out / "apitrace").mkdir()
        shutil.copy2(DEBIAN_EGLTRACE, out / "apitrace" / "egltrace.so")
    subprocess.run(["strip", "--strip-unneeded", *map(str, (out / "build").rglob("*")),
                    *map(str, (out / "lib").glob("*"))], capture_output=True)
    size = sum(f.stat().st_size for f in out.rglob("*") if f.is_file())
    print(f"async_observe: staged {out} ({size >> 20} MiB): {len(libs)} libraries; run there:\n"
          f"  python3 {out}/async_observe.py --build {out}/build --libs {out}/lib "
          f"--apitrace {out}/apitrace/egltrace.so --out OUT")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", default=str(ROOT / "build"), help="build dir (default build/)")
    ap.add_argument("--apitrace", help="the apitrace program or its egltrace.so")
    ap.add_argument("--out", help="directory for async_observe.txt and .json")
    ap.add_argument("--repeat", type=int, default=5, help="rounds (default 5)")
    ap.add_argument("--frames", type=int, default=60, help="timed frames (default 60)")
    ap.add_argument("--systems", type=int, default=64, help="particle systems (default 64)")
    ap.add_argument("--libs", metavar="DIR",
                    help="shared libraries for the programs run (LD_LIBRARY_PATH)")
    ap.add_argument("--stage", metavar="DIR",
                    help="copy what a run needs into DIR and exit (see above)")
    ap.add_argument("--particles", type=int, default=256,
                    help="particles per system (default 256: 8 KiB of TF output each)")
    ap.add_argument("--gles", action="store_true",
                    help="the frame loop in a GLES 3.2 context (tf-heavy --gles)")
    args = ap.parse_args()
    if args.repeat < 1:
        sys.exit("async_observe: --repeat must be at least 1")

    build = pathlib.Path(args.build)
    if args.stage:
        stage(build, pathlib.Path(args.stage), args.apitrace)
        return
    lib = build / "capture" / "libxfbtrace-capture.so"
    bench = build / "tests" / "capture" / "cap-bench"
    heavy = build / "bench" / "tf-heavy"
    for p in (lib, bench, heavy):
        if not p.exists():
            sys.exit(f"async_observe: {p} is missing (build first, or --build DIR)")
    info = build / "cli" / "xfbtrace"
    info = info if info.exists() else None
    apitrace = find_apitrace(args.apitrace)
    notes = []
    ways = list(WAYS)
    if not apitrace:
        ways.remove("apitrace")
        notes.append("apitrace not found (--apitrace PATH): its column is empty")
    if not info:
        notes.append(f"{build / 'cli' / 'xfbtrace'} missing: observations not counted")
    os.environ["CAP_BENCH_TRIALS"] = "5"
    if args.libs:
        old = os.environ.get("LD_LIBRARY_PATH")
        os.environ["LD_LIBRARY_PATH"] = str(pathlib.Path(args.libs).resolve()) + \
            (":" + old if old else "")

    tf_runs, tf_facts = measure("TF end", [str(bench), "1", "tf-begin-draw-end"],
                                "tf-begin-draw-end", ways, args, lib, apitrace, info)
    frame_argv = [str(heavy), "--frames", str(args.frames), "--systems", str(args.systems),
                  "--particles", str(args.particles)] + (["--gles"] if args.gles else [])
    fr_runs, fr_facts = measure("frame loop", frame_argv, "frame-ns", ways, args, lib,
                                apitrace, info)

    med = {w: statistics.median(v) for w, v in tf_runs.items()}
    fast = {w: min(v) for w, v in tf_runs.items()}
    fmed = {w: statistics.median(v) for w, v in fr_runs.items()}
    ffast = {w: min(v) for w, v in fr_runs.items()}
    renderer = fr_facts.pop("renderer") or "?"
    tf_facts.pop("renderer")
    lines = [f"async_observe: {renderer}; {platform.node()}; "
             f"{time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime())}; "
             f"medians of {args.repeat} interleaved rounds (fastest in parentheses)"]
    lines.append("")
    lines.append("TF end: cap-bench tf-begin-draw-end (begin + draw 16 points + end), "
                 "ns per iteration")
    lines.append(f"{'way':12} {'ns/iter':>16} {'added ns/TF end':>22}")
    for w in ways:
        lines.append(f"{w:12} {med[w]:>8.0f} ({fast[w]:>6.0f}) "
                     f"{med[w] - med['plain']:>12.0f} ({fast[w] - fast['plain']:>6.0f})")
    lines.append("")
    lines.append(f"frame loop: tf-heavy --frames {args.frames} --systems {args.systems} "
                 f"--particles {args.particles} ({args.systems} TF ends, "
                 f"{args.systems * args.particles * 32 // 1024} KiB of TF output per frame), "
                 f"ns per frame")
    lines.append(f"{'way':12} {'ns/frame':>22} {'vs plain':>20}")
    for w in ways:
        lines.append(f"{w:12} {fmed[w]:>12.0f} ({ffast[w]:>9.0f}) "
                     f"{100 * (fmed[w] / fmed['plain'] - 1):>+9.1f} % "
                     f"({100 * (ffast[w] / ffast['plain'] - 1):>+6.1f} %)")
    lines.append("")
    for what, facts in (("TF end", tf_facts), ("frame loop", fr_facts)):
        for w, f in facts.items():
            a = f.get("async")
            held = (f"capture holds {f['observations']} observations, {f['lost']} lost"
                    if "observations" in f else "capture made")
            lines.append(f"{what}, {w}: {held}" + (f" ({f['error']})" if "error" in f else "")
                         + (f"; {a['copied']} TF ends copied on the GPU ({a['in_ring']} "
                            f"into the mapped ring), {a['read_at_call']} "
                            f"read at the call, copies read after their fence "
                            f"{a['read_after_fence']}, waiting {a['read_waiting']}" if a else "")
                         + (f"; {a['deferred']} deferred, copied in {a['batches']} batches "
                            f"({a['before_write']} before a write)"
                            if a and "deferred" in a else "")
                         + (f", {a['gathered']} of them by {a['dispatches']} gather dispatches, "
                            f"{a['not_gathered']} in the ring by copy calls"
                            if a and "gathered" in a else "")
                         + (f" ({a['chosen_copies']} chosen as cheaper for their buffers)"
                            if a and "chosen_copies" in a else ""))
            if a and "ns" in a and a["copied"]:
                per = ", ".join(f"{k} {v / a['copied']:.0f}" for k, v in a["ns"].items())
                lines.append(f"{what}, {w}: ns per TF end inside the capture (timed run): {per}")
    lines.extend(f"note: {n}" for n in notes)
    text = "\n".join(lines) + "\n"
    print(text, end="")
    if args.out:
        out = pathlib.Path(args.out)
        out.mkdir(parents=True, exist_ok=True)
        (out / "async_observe.txt").write_text(text)
        doc = {
            "renderer": renderer, "host": platform.node(), "repeat": args.repeat,
            "tf_end": {"case": "tf-begin-draw-end", "ns_per_iteration": tf_runs,
                       "median": med, "fastest": fast,
                       "added_ns_per_tf_end": {w: med[w] - med["plain"] for w in ways},
                       "captures": tf_facts},
            "frame_loop": {"argv": frame_argv[1:], "ns_per_frame": fr_runs, "median": fmed,
                           "fastest": ffast,
                           "vs_plain_percent": {w: 100 * (fmed[w] / fmed["plain"] - 1)
                                                for w in ways},
                           "captures": fr_facts},
            "apitrace": apitrace[1] if apitrace else None,
            "notes": notes,
        }
        (out / "async_observe.json").write_text(json.dumps(doc, indent=1) + "\n")


if __name__ == "__main__":
    main()

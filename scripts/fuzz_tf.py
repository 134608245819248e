#!/usr/bin/env python3
"""Randomized differential tester of transform feedback (issue 21).

For each seed, build/tests/fuzz/xfb-fuzz-case draws one valid GL / GLES
program exercising one random point of TF semantics; this script runs it
on the system GL (llvmpipe) under `xfbtrace capture`, replays the trace on
the host and on the sim with --check, classifies both outcomes, shrinks
failing cases to a minimal parameter set and prints a per-dimension table.

    python3 scripts/fuzz_tf.py [--build build] [--jobs 2] --seeds 0-1999
        [--shrink N] [--json FILE] [--markdown FILE] [--work DIR]
    python3 scripts/fuzz_tf.py --seed 17 --set prim=quads      # one case, verbose
    python3 scripts/fuzz_tf.py --seeds 0-1999 --tolerance exact   # bit for bit
                              # (default: ulps=84, the spec's 1e-5 precision)

Outcomes of a case:
  invalid        the program's own calls raised a GL error or its shaders
                 did not build: a tester bug (xfb-fuzz-case exit 3)
  llvmpipe-crash the case crashed under capture and crashes without it too
  capture-fail   the case crashed or failed under capture only
and per replay backend:
  match          exit 0
  differs        an observation, a returned value or a GL error differs
                 that no call reported as not replayed explains
  unsupported    the backend reported calls it cannot replay (by name)
                 and every difference is explained by them: all after a
                 draw or a conditional rendering not replayed, query
                 results after a query not replayed
  crash          the replay died of a signal
  error          exit 2, or a timeout
and of the reference itself (xfb-fuzz-case's self-checks, dEQP style):
  reference deviates from the spec: RULE
                 the case measured, where the spec determines the value
                 exactly, that the GL it ran on (llvmpipe: the golden
                 data) deviates from the spec's rule RULE (fixed-conversion,
                 draw-tf-count, written-without-buffer, front-color-capture,
                 multi-draw-primitive-id, clip-distance-disabled:
                 xfb-fuzz-case's file comment); a
                 sim replay that does not match such a
                 golden is in this class, not counted as the sim's failure,
                 and the sim match rate is given over all host matches and
                 over those with a spec-conformant reference
A host crash is checked against llvmpipe: the case is run again without
capture; if it crashes too, or valgrind sees it read or write out of
bounds inside the GL driver (heap corruption does not always crash), the
outcome is llvmpipe-crash.

Shrinking: parameters not at their default are set back to it one at a
time (`--only` keeps the others) while the sim's failure signature (its
outcome and the function of its first difference or unsupported call)
persists.  The minimal case is printed as `--seed N --only K1,K2`, which
xfb-fuzz-case accepts.
"""
import argparse
import collections
import concurrent.futures
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
CALL = re.compile(r"^call (\d+) (\w+): (.*)$", re.M)
REFDEV = re.compile(r"^reference deviates from the spec: ([\w-]+) \(([^)]*)\): (.*)$", re.M)
SUMMARY = re.compile(r"^(\d+) observations, (\d+) match, (\d+) differ", re.M)

# The dimensions of the per-dimension table: parameter names of
# xfb-fuzz-case --print-params.
DIMENSIONS = ["api", "prim", "draw", "v0", "v1", "mode", "gs", "gs_out", "gs_streams",
              "restart", "provoking", "client_mem", "pause", "nbegin", "discard",
              "buf_size", "bind", "skip", "next_buffer", "cap_position",
              "cap_pointsize", "cap_clipdistance", "q_generated", "q_written",
              "q_overflow", "q_occlusion", "cond", "a_format", "b_divisor", "index_type",
              "clip_planes", "cull_distance"]


def run(cmd, timeout=120, **kw):
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, **kw)
        return p.returncode, p.stdout + p.stderr
    except subprocess.TimeoutExpired:
        return "timeout", ""


def params_of(case, args):
    rc, out = run([case, *args, "--print-params"])
    if rc != 0:
        raise RuntimeError(f"xfb-fuzz-case {' '.join(args)} --print-params: {out}")
    return dict(kv.split("=", 1) for kv in out.split())


def classify_replay(rc, out):
    """(outcome, signature, first line) of one `replay --check`."""
    if rc == "timeout":
        return "error", "timeout", "timeout"
    if rc < 0 or rc >= 128:
        return "crash", f"signal {-rc if rc < 0 else rc - 128}", out.strip().splitlines()[-1:] or [""]
    if rc == 0:
        return "match", "", ""
    calls = [(int(n), f, rest) for n, f, rest in CALL.findall(out)]
    unsup = [c for c in calls if c[2].startswith("not replayed")]
    # Differences the replay classified (within the tolerance, or another
    # result the spec allows) are listed, not failures.
    diffs = [c for c in calls if not c[2].startswith(("not replayed", "precision:",
                                                      "implementation-dependent:",
                                                      "undefined:"))]
    # Differences that a reported call explains: with a draw or
    # conditional rendering not replayed, everything after it; with a query not
    # replayed, the read-back of query results.
    cond = min((c[0] for c in unsup if "ConditionalRender" in c[1] or
                c[1].startswith(("glDraw", "glMultiDraw"))), default=None)
    query_unsup = any("Query" in c[1] for c in unsup)

    def explained(c):
        if cond is not None and c[0] > cond:
            return True
        return query_unsup and (c[1].startswith("glGetQuery") or c[1].startswith("glEndQuery")
                                or c[1].startswith("glBeginQuery"))
    early = [c for c in diffs if not explained(c)]
    if early:
        c = min(early)
        kind = ("data" if "tf_buffer" in c[2] or "data differs" in c[2] else
                "error" if "raised" in c[2] else "value")
        # The kind only: which call shows a difference first moves as
        # parameters are shrunk (a pause adds calls), what differs does not.
        return "differs", kind, f"call {c[0]} {c[1]}: {c[2]}"[:240]
    if unsup:
        c = min(unsup)
        reason = c[2].split("(later calls")[0].strip()
        return "unsupported", f"{c[1]}: {reason}"[:160], f"call {c[0]} {c[1]}: {c[2]}"[:240]
    if rc == 1:
        first = next((l for l in out.splitlines() if "differ" in l and not l.startswith("returned values: 0")), "")
        return "differs", "other", first[:240]
    return "error", f"exit {rc}", out.strip().splitlines()[-1:][0][:240] if out.strip() else ""


def plain_program_faults(case, args):
    """llvmpipe or the replay?  The program without xfbtrace, with the same
    calls: it crashes too, or (heap corruption does not always crash)
    valgrind sees it write or read out of bounds inside the GL driver."""
    prc, _ = run([case, *args])
    if prc != 0 and prc != 3:
        return True
    if not shutil.which("valgrind"):
        return False
    _, out = run(["valgrind", "--error-exitcode=99", case, *args], timeout=900)
    return bool(re.search(r"Invalid (write|read) of size \d+\n==\d+==    at [^\n]*"
                          r"(swrast_dri|libgallium|dri\.so)", out))


# `replay --tolerance` for both backends (--tolerance): differences within
# it are the replay's "precision" class, not a difference (docs/guide.md).
# The default is the spec's precision: the generated shaders only scale by
# powers of two and add non-negative exact terms to converted attributes,
# so a float result is off by the conversion's relative error at most, and
# GL 4.6 §2.3.4.1 asks "about 1 part in 10^5" of it: 84 ulps of a binary32
# value are at most 1e-5 of it (between 2^-23 * 84 and 2^-24 * 84).
# Integers are always compared exactly (the generator keeps int() and
# floor() away from their steps), doubles in double ulps.  `exact`: bit
# for bit.
DEFAULT_TOLERANCE = "ulps=84"
TOLERANCE = ["--tolerance", DEFAULT_TOLERANCE]


def run_case(xfbtrace, case, args, work, backends=("host", "sim")):
    """Capture and replay one case; returns a dict of outcomes."""
    fd, trace = tempfile.mkstemp(suffix=".xfbt", dir=work)
    os.close(fd)
    try:
        rc, out = run([xfbtrace, "capture", "-o", trace, "--", case, *args])
        res = {}
        if rc == 3 or "invalid case" in out:
            res["case"] = "invalid"
            res["detail"] = next((l for l in out.splitlines() if "invalid case" in l), out[-200:])
            return res
        if rc == 77:
            res["case"] = "skip"
            return res
        if rc != 0 or os.path.getsize(trace) == 0:
            res["case"] = "llvmpipe-crash" if plain_program_faults(case, args) else "capture-fail"
            res["detail"] = f"capture exit {rc}: {out.strip()[-200:]}"
            return res
        res["case"] = "ok"
        # The reference's self-checks (xfb-fuzz-case prints them under capture).
        dev = REFDEV.findall(out)
        if dev:
            res["reference"] = sorted({rule for rule, _, _ in dev})
            res["reference_first"] = f"{dev[0][0]} ({dev[0][1]}): {dev[0][2]}"[:240]
        for b in backends:
            cmd = [xfbtrace, "replay", "--check", *TOLERANCE, trace] if b == "host" else \
                  [xfbtrace, "replay", "--backend", "sim", "--check", *TOLERANCE, trace]
            rrc, rout = run(cmd)
            outcome, sig, first = classify_replay(rrc, rout)
            if b == "host" and outcome == "crash" and plain_program_faults(case, args):
                outcome = "llvmpipe-crash"
            res[b] = outcome
            res[b + "_sig"] = sig
            res[b + "_first"] = first
        return res
    finally:
        os.unlink(trace)


def failing(res):
    return res.get("case") == "ok" and res.get("host") == "match" and res.get("sim") != "match"


def reference_deviates(res):
    """The sim replay does not match a golden that deviates from the spec:
    the seed's class is the reference's rule, not a sim failure."""
    return failing(res) and bool(res.get("reference"))


def sim_class(res):
    """The sim's outcome as the tables count it."""
    return "reference" if reference_deviates(res) else res["sim"]


def shrink(xfbtrace, case, seed, params, res, work, backend="sim"):
    """Sets parameters back to defaults one at a time while the backend's
    failure signature persists; returns the kept parameter names."""
    want = (res[backend], res[backend + "_sig"], res.get("reference"))
    keep = [k for k in params]
    for k in list(params):
        trial = [x for x in keep if x != k]
        args = ["--seed", str(seed), "--only", ",".join(trial) or "none"]
        r = run_case(xfbtrace, case, args, work, backends=(backend,))
        if r.get("case") == "ok" and (r[backend], r[backend + "_sig"], r.get("reference")) == want:
            keep = trial
    return keep


def expected_sim(res):
    """What docs/status.md's CI table says of a seed's sim replay: `match`,
    `unsupported <first function not replayed>`, `differs <kind>` or, where
    the reference deviates from the spec, `reference deviates: RULE[,RULE]`."""
    if res["sim"] == "match":
        return "match"
    if reference_deviates(res):
        return "reference deviates: " + ",".join(res["reference"])
    if res["sim"] == "unsupported":
        return "unsupported " + res["sim_sig"].split(":")[0]
    return f"{res['sim']} {res['sim_sig']}"


def degenerate_gs_strips(params):
    """The llvmpipe heap corruption class (docs/status.md): a geometry
    shader emitting line strips of 1 vertex or triangle strips of 1 or 2."""
    if params.get("gs") != "1" or params.get("gs_out", "points") == "points":
        return False
    need = 2 if params["gs_out"] == "line_strip" else 3
    every = int(params.get("gs_end_primitive_every", "0"))
    emit = int(params.get("gs_emit", "3"))
    return (0 < every < need) or emit < need or (every and emit % every and emit % every < need)


def ci_selection(results, limit):
    """Seeds whose host replay matches, chosen greedily so that every
    value of every parameter a campaign saw is in at least one."""
    # Not the llvmpipe heap corruption class: such a seed may crash at random.
    ok = [r for r in results if r.get("case") == "ok" and r.get("host") == "match"
          and not degenerate_gs_strips(r["params"])]
    want = set()
    for r in ok:
        want |= {f"{k}={v}" for k, v in r["params"].items()}
    chosen = []
    while want and len(chosen) < limit:
        # Most new values first; then a seed the sim replays (an occlusion
        # query it does not model would hide everything else), the smaller.
        best = max(ok, key=lambda r: (len(want & {f"{k}={v}" for k, v in r["params"].items()}),
                                      r["sim"] == "match", r["sim"] != "unsupported", -r["seed"]))
        got = want & {f"{k}={v}" for k, v in best["params"].items()}
        if not got:
            break
        want -= got
        chosen.append(best)
    return sorted(chosen, key=lambda r: r["seed"]), want


def parse_seeds(spec):
    out = []
    for part in spec.split(","):
        if "-" in part:
            a, b = part.split("-")
            out += range(int(a), int(b) + 1)
        else:
            out.append(int(part))
    return out


def one_seed(xfbtrace, case, seed, work):
    args = ["--seed", str(seed)]
    params = params_of(case, args)
    res = run_case(xfbtrace, case, args, work)
    res["seed"] = seed
    res["params"] = params
    return res


def table(results):
    lines = []
    ok = [r for r in results if r["case"] == "ok"]
    hm = [r for r in ok if r["host"] == "match"]
    lines.append(f"seeds: {len(results)}; valid and captured: {len(ok)}; "
                 f"invalid: {sum(r['case'] == 'invalid' for r in results)}; "
                 f"llvmpipe crash: {sum(r['case'] == 'llvmpipe-crash' for r in results)}; "
                 f"capture failed: {sum(r['case'] == 'capture-fail' for r in results)}")
    for b in ("host", "sim"):
        c = collections.Counter(r[b] for r in ok)
        lines.append(f"{b}: " + ", ".join(f"{k} {v}" for k, v in sorted(c.items())))
    sm = sum(r["sim"] == "match" for r in hm)
    sc = sum(r["sim"] in ("match", "unsupported") for r in hm)
    conform = [r for r in hm if not r.get("reference")]
    cm = sum(r["sim"] == "match" for r in conform)
    pc = lambda a, b: f"{100 * a / b:.1f} %" if b else "-"
    if hm:
        lines.append(f"sim match where host matches: {sm} of {len(hm)} ({pc(sm, len(hm))}); "
                     f"match or unsupported-and-reported: {sc} ({pc(sc, len(hm))})")
        lines.append(f"sim match where host matches and the reference conforms to the spec: "
                     f"{cm} of {len(conform)} ({pc(cm, len(conform))})")
        rules = collections.Counter(rule for r in ok for rule in r.get("reference", []))
        lines.append("reference deviates from the spec (cases, of the valid ones): " +
                     (", ".join(f"{k} {v}" for k, v in sorted(rules.items())) or "none"))
    lines.append("")
    lines.append("| dimension | value | cases | host match | sim match | sim unsupported | sim differs "
                 "| reference deviates |")
    lines.append("|---|---|---|---|---|---|---|---|")
    for d in DIMENSIONS:
        groups = collections.defaultdict(list)
        for r in ok:
            groups[r["params"].get(d, "(default)")].append(r)
        for val, rs in sorted(groups.items(), key=lambda kv: -len(kv[1])):
            n = len(rs)
            pct = lambda k, b: f"{100 * sum(x[b] == k for x in rs) / n:.0f} %"
            spct = lambda k: f"{100 * sum(sim_class(x) == k for x in rs) / n:.0f} %"
            lines.append(f"| {d} | {val} | {n} | {pct('match', 'host')} | {spct('match')} | "
                         f"{spct('unsupported')} | {spct('differs')} | {spct('reference')} |")
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default=str(ROOT / "build"))
    ap.add_argument("--seeds", help="A-B[,C,...]")
    ap.add_argument("--seed", type=int, help="one case, printed in detail")
    ap.add_argument("--set", action="append", default=[], help="with --seed: KEY=VALUE override")
    ap.add_argument("--only", help="with --seed: keep these parameters of the seed")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--tolerance", metavar="SPEC", default=DEFAULT_TOLERANCE,
                    help="replay --tolerance SPEC (ulps=N or abs=X) on both backends: "
                         "differences within it are classified precision, not counted; "
                         f"`exact` compares bit for bit (default {DEFAULT_TOLERANCE}: GL 4.6 "
                         "§2.3.4.1's 1 part in 10^5, docs/status.md)")
    ap.add_argument("--shrink", type=int, default=40,
                    help="shrink the first N failing seeds into classes (default 40)")
    ap.add_argument("--json", help="write every result to FILE (JSON lines)")
    ap.add_argument("--markdown", help="write the table to FILE")
    ap.add_argument("--work", default=tempfile.gettempdir())
    ap.add_argument("--from-json", metavar="JSON",
                    help="take the results of a campaign's --json instead of running seeds")
    ap.add_argument("--ci-table", metavar="JSON",
                    help="print the CI seed table of docs/status.md from a campaign's --json")
    a = ap.parse_args()
    TOLERANCE[:] = [] if a.tolerance == "exact" else ["--tolerance", a.tolerance]
    xfbtrace = str(pathlib.Path(a.build) / "cli" / "xfbtrace")
    case = str(pathlib.Path(a.build) / "tests" / "fuzz" / "xfb-fuzz-case")
    if a.work:
        os.makedirs(a.work, exist_ok=True)   # --work DIR need not exist yet
    work = tempfile.mkdtemp(prefix="xfbtrace-fuzz-", dir=a.work)

    if a.seed is not None:
        args = ["--seed", str(a.seed)] + (["--only", a.only] if a.only else [])
        for s in a.set:
            args += ["--set", s]
        params = params_of(case, args)
        print("params:", " ".join(f"{k}={v}" for k, v in params.items()))
        res = run_case(xfbtrace, case, args, work)
        print(json.dumps(res, indent=1))
        backend = "host" if res.get("host") not in (None, "match") else \
                  "sim" if failing(res) and not reference_deviates(res) else None
        if backend and not a.only and not a.set:
            keep = shrink(xfbtrace, case, a.seed, params, res, work, backend)
            print(f"minimal ({backend}): --seed {a.seed} --only {','.join(keep) or 'none'}")
        return 0

    if a.ci_table:
        results = [json.loads(l) for l in open(a.ci_table) if '"seed"' in l]
        chosen, missed = ci_selection(results, 80)
        print("| seed | sim | what it touches |")
        print("|---|---|---|")
        for r in chosen:
            print(f"| {r['seed']} | {expected_sim(r)} | "
                  f"{' '.join(f'{k}={v}' for k, v in r['params'].items())} |")
        if missed:
            print(f"\nnot covered: {' '.join(sorted(missed))}", file=sys.stderr)
        return 0

    results = []
    if a.from_json:
        # A campaign stopped early (or re-classified): its results, then
        # shrinking and the table as if it had run here.
        results = [json.loads(l) for l in open(a.from_json) if l.startswith('{"') and '"seed"' in l]
        seeds = []
    else:
        seeds = parse_seeds(a.seeds)
    jf = open(a.json, "w") if a.json else None
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as ex:
        futs = {ex.submit(one_seed, xfbtrace, case, s, work): s for s in seeds}
        for n, f in enumerate(concurrent.futures.as_completed(futs), 1):
            r = f.result()
            results.append(r)
            if r["case"] != "ok" or r["host"] != "match":
                print(f"seed {r['seed']}: case {r['case']} host {r.get('host')} "
                      f"{r.get('host_first', r.get('detail', ''))}", flush=True)
            if jf:
                jf.write(json.dumps(r) + "\n")
                jf.flush()
            if n % 100 == 0:
                print(f"[{n} of {len(seeds)}]", flush=True)

    # Shrink the first --shrink failing seeds (host matches, sim does not);
    # each minimal parameter set names a class, and every other failing
    # seed joins the smallest class whose parameters it has.
    # Seeds whose reference deviates from the spec are classed by its rule.
    fails = sorted((r for r in results if failing(r) and not reference_deviates(r)),
                   key=lambda r: r["seed"])
    refdev = collections.defaultdict(list)
    for r in sorted(results, key=lambda r: r["seed"]):
        if reference_deviates(r):
            refdev[",".join(r["reference"])].append(r)

    def minimal_of(r):
        keep = shrink(xfbtrace, case, r["seed"], r["params"], r, work)
        return r, keep
    shrunk = []
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as ex:
        for r, keep in ex.map(minimal_of, fails[:a.shrink]):
            key = tuple(sorted(f"{k}={r['params'][k]}" for k in keep))
            shrunk.append((r, keep, key))
    classes = {}
    for r, keep, key in shrunk:
        c = classes.setdefault((r["sim"], key), {
            "outcome": r["sim"], "params": " ".join(key), "seeds": [],
            "minimal": f"--seed {r['seed']} --only {','.join(keep) or 'none'}",
            "first": r["sim_first"]})
        c["seeds"].append(r["seed"])
    done = {r["seed"] for r, _, _ in shrunk}
    unclassified = []
    for r in fails:
        if r["seed"] in done:
            continue
        have = {f"{k}={v}" for k, v in r["params"].items()}
        match = [c for (o, key), c in classes.items() if o == r["sim"] and set(key) <= have]
        if match:
            min(match, key=lambda c: len(c["params"]))["seeds"].append(r["seed"])
        else:
            unclassified.append(r["seed"])
    classes = sorted(classes.values(), key=lambda c: -len(c["seeds"]))
    text = table(results)
    text += "\n\nreference deviates from the spec (host matches, the sim does not match the golden):\n"
    for rule, rs in sorted(refdev.items(), key=lambda kv: -len(kv[1])):
        text += (f"- {rule}: {len(rs)} cases, e.g. seeds {[r['seed'] for r in rs[:6]]}\n"
                 f"    first: {rs[0]['reference_first']}\n")
    text += "\n\nsim failure classes (host matches; minimal parameter sets by shrinking):\n"
    for c in classes:
        text += (f"- {c['outcome']}: {c['params'] or '(all defaults)'}: {len(c['seeds'])} cases, "
                 f"e.g. seeds {c['seeds'][:6]}\n    minimal: {c['minimal']}\n    first: {c['first']}\n")
    text += f"- not shrunk and in no class above: {len(unclassified)} cases, e.g. seeds {unclassified[:10]}\n"
    sigs = collections.Counter((r["sim"], r["sim_sig"][:100]) for r in fails)
    text += "\nsim failure signatures (outcome, first difference or unsupported call):\n"
    text += "".join(f"- {n}: {o} / {sg}\n" for (o, sg), n in sigs.most_common())
    print(text)
    if a.markdown:
        pathlib.Path(a.markdown).write_text(text + "\n")
    if jf:
        jf.write(json.dumps({"classes": classes}) + "\n")
        jf.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())

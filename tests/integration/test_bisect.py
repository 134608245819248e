"""`xfbtrace bisect` on throwaway git histories of this project.

A clone of the project at HEAD gets a few small commits on top; one of them
makes the driver program a wrong VGT_STRMOUT_VTX_STRIDE (one dword too many),
so the TF output of a tests/apps trace differs on --backend sim from that
commit on.  Bisect must name it.  A second branch of the same clone has a
commit that does not build before the bad one: bisect must skip it and still
name the bad commit.  The first bisect run again must reuse every build and
every run (no build, no replay) and be much faster.

SLOW: every revision tried is a real build of the project (the CLI target,
--buildtype=plain, ninja -j2), about 7 builds in all: a few minutes on two
cores.  The timings go to stdout (pytest -s) and to bisect-timings.txt in
the test's tmp directory.
"""
import json
import re
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from conftest import run

BUILD_OPTS = ["--meson-option=--buildtype=plain", "--meson-option=-Db_sanitize=none",
              "--jobs", "2"]
STRIDE = re.compile(r"VGT_STRMOUT_VTX_STRIDE_0_STRIDE\(")


def git(repo, *args):
    out = subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True,
                         check=True)
    return out.stdout.strip()


def commit(repo, message, edit):
    """Applies edit(repo) and commits everything as one commit; its hash."""
    edit(repo)
    git(repo, "add", "-A")
    git(repo, "-c", "user.name=Bisect Test", "-c", "user.email=bisect@example.invalid",
        "commit", "-q", "-m", message)
    return git(repo, "rev-parse", "HEAD")


def append(path, text):
    def edit(repo):
        with open(repo / path, "a") as f:
            f.write(text)
    return edit


def wrong_stride(repo):
    src = repo / "driver" / "hw" / "drv_pm4_so.c"
    text, n = STRIDE.subn("VGT_STRMOUT_VTX_STRIDE_0_STRIDE(1 + ", src.read_text())
    assert n >= 1, "drv_pm4_so.c no longer programs VGT_STRMOUT_VTX_STRIDE_0_STRIDE"
    src.write_text(text)


def replace(path, old, new):
    def edit(repo):
        text = (repo / path).read_text()
        assert old in text
        (repo / path).write_text(text.replace(old, new, 1))
    return edit


@pytest.fixture(scope="module")
def history(tmp_path_factory):
    """A clone of HEAD with two branches:
    regression: docs, comment, BAD (wrong stride), docs
    broken:     docs, build broken, build fixed, BAD (wrong stride), docs
    """
    here = Path(__file__).resolve().parent
    top = git(here, "rev-parse", "--show-toplevel")
    d = tmp_path_factory.mktemp("bisect")
    repo = d / "repo"
    subprocess.run(["git", "clone", "-q", "--no-hardlinks", top, str(repo)], check=True)
    base = git(repo, "rev-parse", "HEAD")
    h = {"dir": d, "repo": repo, "base": base}

    git(repo, "checkout", "-q", "-b", "regression", base)
    h["r"] = [
        commit(repo, "docs: a note", append("README.md", "\nBisect test note 1.\n")),
        commit(repo, "driver: a comment", append("driver/hw/drv_pm4_so.c", "\n/* bisect test */\n")),
        commit(repo, "driver: program the streamout vertex stride", wrong_stride),
        commit(repo, "docs: another note", append("README.md", "\nBisect test note 2.\n")),
    ]

    git(repo, "checkout", "-q", "-b", "broken", base)
    h["b"] = [
        commit(repo, "docs: a note", append("README.md", "\nBroken test note 1.\n")),
        commit(repo, "common: break the build", append("common/xt_buf.c", "\nthis is not C\n")),
        commit(repo, "common: fix the build",
               replace("common/xt_buf.c", "\nthis is not C\n", "\n")),
        commit(repo, "driver: program the streamout vertex stride", wrong_stride),
        commit(repo, "docs: another note", append("README.md", "\nBroken test note 2.\n")),
    ]
    return h


@pytest.fixture(scope="module")
def trace(xfbtrace, build_dir, history):
    path = history["dir"] / "tf-separate-gl33.xfbt"
    app = build_dir / "tests" / "apps" / "tf-separate-gl33"
    out = run([xfbtrace, "capture", "-o", path, "--", app])
    assert path.exists(), out.stderr
    return path


def bisect(xfbtrace, history, trace, good, bad, *extra, db=None):
    h = history
    argv = [xfbtrace, "bisect", "--trace", trace, "--good", good, "--bad", bad,
            "--repo", h["repo"], "--backend", "sim", "--db", db or h["dir"] / "results.db",
            "--cache", h["dir"] / "cache", *BUILD_OPTS, *extra]
    t0 = time.monotonic()
    out = run(argv, timeout=1800)
    return out, time.monotonic() - t0


def describe(out):
    return f"exit {out.returncode}\n--- stdout ---\n{out.stdout[-6000:]}\n--- stderr ---\n{out.stderr[-3000:]}"


def session(xfbtrace, history, out):
    m = re.search(r"xfbtrace bisect --db \S+ --show (\d+)", out.stdout)
    assert m, describe(out)
    shown = run([xfbtrace, "bisect", "--db", history["dir"] / "results.db", "--show", m.group(1)])
    assert shown.returncode == 0, shown.stderr
    return json.loads(shown.stdout)


def timing(history, line):
    print(line)
    with open(history["dir"] / "bisect-timings.txt", "a") as f:
        f.write(line + "\n")


def test_bisect_names_the_commit_that_breaks_tf_and_reuses_builds_and_runs(xfbtrace, history,
                                                                          trace):
    h = history
    bad_commit = h["r"][2]
    out, first = bisect(xfbtrace, h, trace, h["base"], h["r"][-1])
    assert out.returncode == 0, describe(out)
    assert f"first bad commit: {bad_commit}" in out.stdout, describe(out)
    assert "program the streamout vertex stride" in out.stdout
    assert "Bisect Test <bisect@example.invalid>" in out.stdout
    # The first difference is a TF buffer at a glEndTransformFeedback-ish call.
    m = re.search(r"first difference: call (\d+) (\w+): tf_buffer", out.stdout)
    assert m, describe(out)
    diff_cmd = re.search(r"full diff: (xfbtrace diff --db \S+ (\d+) (\d+))", out.stdout)
    assert diff_cmd, describe(out)
    assert "web UI:" in out.stdout
    # The progress lines, one per revision tried.
    assert re.search(r"^\[1/\d+\] [0-9a-f]{10} .*building… replaying… good$", out.stdout, re.M), \
        describe(out)
    # The user's checkout is untouched: the clone is still on its branch, clean.
    assert git(h["repo"], "status", "--porcelain") == ""

    s = session(xfbtrace, h, out)
    assert s["status"] == "found" and s["culprit"]["commit"] == bad_commit
    assert s["diff"] == {"run_a": int(diff_cmd.group(2)), "run_b": int(diff_cmd.group(3))}
    verdicts = {st["commit"]: st["verdict"] for st in s["steps"]}
    assert verdicts[h["base"]] == "good" and verdicts[bad_commit] == "bad"
    assert verdicts[h["r"][1]] == "good"
    assert not any(st["run_cached"] for st in s["steps"])
    # One build directory for every commit (incremental, issue 24): the
    # commits' own directories keep only the xfbtrace each built.
    cache = h["dir"] / "cache"
    assert len(list(cache.glob("incremental*/build.ninja"))) == 1, sorted(cache.iterdir())
    per_commit = list(cache.glob("build-*"))
    assert len(per_commit) == len(s["steps"])
    assert all((d / "cli" / "xfbtrace").exists() and not (d / "build.ninja").exists()
               for d in per_commit)

    # The diff the report points at really differs.
    d = run([xfbtrace, "diff", "--db", h["dir"] / "results.db", diff_cmd.group(2),
             diff_cmd.group(3)])
    assert d.returncode == 1 and "DIFFERENT" in d.stdout, d.stdout + d.stderr

    # The web UI shows the session: its steps, verdicts and the diff at the culprit.
    check_web_shows_session(xfbtrace, h["dir"] / "results.db", s, bad_commit)

    # Again: every run is in the database, nothing is built or replayed.
    out2, second = bisect(xfbtrace, h, trace, h["base"], h["r"][-1])
    assert out2.returncode == 0, describe(out2)
    assert f"first bad commit: {bad_commit}" in out2.stdout
    assert "building…" not in out2.stdout and "replaying…" not in out2.stdout, describe(out2)
    s2 = session(xfbtrace, h, out2)
    assert s2["id"] != s["id"] and all(st["run_cached"] for st in s2["steps"])
    timing(h, f"bisect regression: first run {first:.1f} s ({len(s['steps'])} revisions), "
              f"second run {second:.2f} s: {first / second:.0f}x faster")
    assert second < first / 5

    # Other replay options: the builds are reused, the runs are not (a run
    # made under other --env may differ).
    out3, _ = bisect(xfbtrace, h, trace, h["base"], h["r"][-1], "--env", "XFBTRACE_BISECT_TEST=1")
    assert out3.returncode == 0 and f"first bad commit: {bad_commit}" in out3.stdout, describe(out3)
    assert "building…" not in out3.stdout and "replaying…" in out3.stdout, describe(out3)
    s3 = session(xfbtrace, h, out3)
    assert not any(st["run_cached"] for st in s3["steps"])


def test_bisect_skips_a_commit_that_does_not_build(xfbtrace, history, trace):
    h = history
    broken, bad_commit = h["b"][1], h["b"][3]
    out, took = bisect(xfbtrace, h, trace, h["base"], h["b"][-1])
    assert out.returncode == 0, describe(out)
    assert f"first bad commit: {bad_commit}" in out.stdout, describe(out)
    assert re.search(rf"{broken[:10]} .*skip: build failed", out.stdout), describe(out)
    s = session(xfbtrace, h, out)
    steps = {st["commit"]: st for st in s["steps"]}
    assert steps[broken]["verdict"] == "skip" and steps[broken]["run"] is None
    assert "build failed" in steps[broken]["reason"]
    timing(h, f"bisect with a broken build: {took:.1f} s ({len(s['steps'])} revisions)")


def test_bisect_on_a_postgresql_store(xfbtrace, history, trace, pg_url):
    """The session, its steps and every run it compares live in a shared
    PostgreSQL store: each revision's run is copied there from its scratch
    file (db/db_copy.c), and --show, diff and the web UI read it back."""
    h = history
    bad_commit = h["r"][2]
    out, _ = bisect(xfbtrace, h, trace, h["base"], h["r"][-1], db=pg_url)
    assert out.returncode == 0, describe(out)
    assert f"first bad commit: {bad_commit}" in out.stdout, describe(out)
    m = re.search(r"xfbtrace bisect --db (\S+) --show (\d+)", out.stdout)
    assert m and m.group(1).startswith("postgresql://"), describe(out)
    shown = run([xfbtrace, "bisect", "--db", pg_url, "--show", m.group(2)])
    assert shown.returncode == 0, shown.stderr
    s = json.loads(shown.stdout)
    assert s["status"] == "found" and s["culprit"]["commit"] == bad_commit
    verdicts = {st["commit"]: st["verdict"] for st in s["steps"]}
    assert verdicts[h["base"]] == "good" and verdicts[bad_commit] == "bad"
    d = run([xfbtrace, "diff", "--db", pg_url, str(s["diff"]["run_a"]), str(s["diff"]["run_b"])])
    assert d.returncode == 1 and "DIFFERENT" in d.stdout, d.stdout + d.stderr
    check_web_shows_session(xfbtrace, pg_url, s, bad_commit)


def check_web_shows_session(xfbtrace, db, s, bad_commit):
    from test_web import Server
    server = Server(xfbtrace, db)
    try:
        listed = server.json("/api/bisect")
        assert any(b["id"] == s["id"] for b in listed)
        status, page = server.get(f"/bisect/{s['id']}")
        assert status == 200 and b"<html" in page.lower()
        assert server.get("/bisect/x")[0] == 400
        chromium = shutil.which("chromium")
        if not chromium:
            return
        dom = subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu",
                              "--disable-background-networking", "--disable-component-update",
                              "--disable-sync", "--no-first-run", "--virtual-time-budget=10000",
                              "--dump-dom", f"{server.url}/bisect/{s['id']}"],
                             capture_output=True, text=True, timeout=120).stdout
        assert bad_commit[:12] in dom and "first bad commit" in dom, dom[-2000:]
        assert f'href="/diff/{s["diff"]["run_a"]}/{s["diff"]["run_b"]}"' in dom
        assert dom.count('class="verdict') >= len(s["steps"])
    finally:
        server.stop()

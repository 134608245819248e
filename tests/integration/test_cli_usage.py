"""Exit statuses, messages, help, colour and the default database of the
command line (issue 24, "Exit codes and messages that mislead").

Every test runs the real `xfbtrace` on a real trace of a sample program
(llvmpipe) and a real results database holding its golden run (1), a host
replay (2) and a sim replay (3).
"""
import os
import pty
import re
import shutil
import subprocess
import time
import urllib.request

import pytest

from conftest import run, require


@pytest.fixture(scope="module")
def setup(xfbtrace, build_dir, tmp_path_factory):
    d = tmp_path_factory.mktemp("usage")
    trace = d / "app.xfbt"
    app = build_dir / "tests" / "apps" / "tf-separate-gl33"
    assert run([xfbtrace, "capture", "-o", trace, "--", app]).returncode == 0
    db = d / "runs.db"
    for backend in ("host", "sim"):
        out = run([xfbtrace, "replay", "--backend", backend, "--db", db, trace])
        assert out.returncode == 0, out.stderr
    return trace, db


def env_without_db(**extra):
    env = {k: v for k, v in os.environ.items() if k not in ("XFBTRACE_DB", "NO_COLOR")}
    env.update(extra)
    return env


def test_info_on_a_truncated_trace_exits_2_with_the_offset(xfbtrace, setup, tmp_path):
    data = setup[0].read_bytes()
    cut = tmp_path / "cut.xfbt"
    for n in (40, len(data) // 2, len(data) - 3):
        cut.write_bytes(data[:n])
        for argv in (["info"], ["info", "--json"]):
            out = run([xfbtrace, *argv, cut])
            assert out.returncode == 2, (n, argv, out.stdout, out.stderr)
            assert re.search(r"offset \d+", out.stderr), out.stderr


def test_replay_check_without_golden_data_says_so(xfbtrace, build_dir, tmp_path):
    trace = tmp_path / "noobs.xfbt"
    app = build_dir / "tests" / "apps" / "tf-separate-gl33"
    assert run([xfbtrace, "capture", "--no-observe", "-o", trace, "--", app]).returncode == 0
    out = run([xfbtrace, "replay", "--check", trace], env=env_without_db())
    assert "no golden data" in out.stdout, out.stdout
    assert not re.search(r"[1-9]\d* differ", out.stdout), out.stdout
    assert "made an observation the capture did not" not in out.stdout
    assert out.returncode == 0, out.stdout


def test_pm4_call_errors_are_printed_as_pm4(xfbtrace, setup):
    _, db = setup
    out = run([xfbtrace, "pm4", "call", "--db", db, "2", "118"])
    assert out.stderr.startswith("xfbtrace pm4: "), out.stderr
    assert "host run" in out.stderr and out.returncode == 2, out.stderr
    out = run([xfbtrace, "pm4", "call", "--db", db, "99", "118"])
    assert out.stderr.startswith("xfbtrace pm4: ") and "no run 99" in out.stderr, out.stderr
    out = run([xfbtrace, "regs", "--db", db, "2", "118"])
    assert out.stderr.startswith("xfbtrace regs: ") and out.returncode == 2, out.stderr


def test_diff_of_one_run_is_a_usage_error(xfbtrace, setup):
    out = run([xfbtrace, "diff", "--db", setup[1], "1"])
    assert out.returncode == 2
    assert out.stderr.startswith("xfbtrace diff: two runs"), out.stderr
    assert "usage:" not in out.stderr


def test_help_command_prints_that_commands_help(xfbtrace):
    listed = re.findall(r"^  (\w[\w-]*) ", run([xfbtrace, "--help"]).stdout.split(
        "commands:\n", 1)[1].split("\n\n", 1)[0], re.M)
    assert "replay" in listed
    for cmd in listed:
        via_help = run([xfbtrace, "help", cmd])
        direct = run([xfbtrace, cmd, "--help"])
        assert via_help.returncode == 0 and via_help.stdout == direct.stdout, cmd
        assert via_help.stdout.startswith("usage: xfbtrace " + cmd), via_help.stdout[:200]
    assert run([xfbtrace, "help", "frobnicate"]).returncode == 2


def test_help_mentions_only_options_the_command_accepts(xfbtrace):
    listed = re.findall(r"^  (\w[\w-]*) ", run([xfbtrace, "--help"]).stdout.split(
        "commands:\n", 1)[1].split("\n\n", 1)[0], re.M)
    for cmd in listed:
        text = run([xfbtrace, cmd, "--help"]).stdout
        # The options of the usage lines ([--opt) and of the option list
        # (a line that starts with --opt); prose may name other commands'.
        opts = re.findall(r"\[(--[a-z][a-z0-9-]*)", text) + \
            re.findall(r"^\s+(--[a-z][a-z0-9-]*)", text, re.M)
        assert opts or cmd in ("isa",), cmd
        for opt in sorted(set(opts)):
            out = run([xfbtrace, cmd, opt, "x", "--help"], timeout=30)
            assert "unrecognized option" not in out.stderr, (cmd, opt, out.stderr)


def in_pty(argv, env):
    """Runs argv with stdout on a pseudo-terminal; returns its output."""
    master, slave = pty.openpty()
    p = subprocess.Popen([str(a) for a in argv], stdout=slave, stderr=subprocess.DEVNULL, env=env)
    os.close(slave)
    chunks = []
    while True:
        try:
            data = os.read(master, 65536)
        except OSError:
            break
        if not data:
            break
        chunks.append(data)
    p.wait(timeout=60)
    os.close(master)
    return b"".join(chunks).decode(errors="replace")


@pytest.mark.parametrize("cmd", [["diff", "1", "2"], ["runs"]])
def test_colour_follows_no_color_and_the_color_option(xfbtrace, setup, cmd):
    db = str(setup[1])
    argv = [xfbtrace, cmd[0], "--db", db, *cmd[1:]]
    assert "\033[" in in_pty(argv, env_without_db())
    assert "\033[" not in in_pty(argv, env_without_db(NO_COLOR="1"))
    assert "\033[" in in_pty([*argv[:2], "--color=always", *argv[2:]], env_without_db(NO_COLOR="1"))
    assert "\033[" not in in_pty([argv[0], "--color=never", *argv[1:]], env_without_db())
    assert "\033[" in run([argv[0], "--color", "always", *argv[1:]]).stdout
    assert "\033[" not in run(argv).stdout
    bad = run([argv[0], "--color=sometimes", *argv[1:]])
    assert bad.returncode == 2 and "--color" in bad.stderr


def test_xfbtrace_db_is_the_default_database(xfbtrace, setup, tmp_path):
    trace, db = setup
    env = env_without_db(XFBTRACE_DB=str(db))
    runs = run([xfbtrace, "runs", "--json"], env=env)
    assert runs.returncode == 0, runs.stderr
    assert run([xfbtrace, "diff", "1", "3"], env=env).returncode == 0
    assert "call 118 PM4" in run([xfbtrace, "pm4", "call", "3", "118"], env=env).stdout
    assert "registers after call 118" in run([xfbtrace, "regs", "3", "118"], env=env).stdout
    assert run([xfbtrace, "bisect", "--list"], env=env).returncode == 0
    fresh = tmp_path / "fresh.db"
    env2 = env_without_db(XFBTRACE_DB=str(fresh))
    assert run([xfbtrace, "ingest", trace], env=env2).returncode == 0
    out = run([xfbtrace, "replay", "--label", "env", trace], env=env2)
    assert out.returncode == 0 and "recorded run 2" in out.stderr, out.stderr
    assert run([xfbtrace, "replay", "--no-db", trace], env=env2).returncode == 0
    assert len(__import__("json").loads(run([xfbtrace, "runs", "--json"], env=env2).stdout)) == 2
    none = run([xfbtrace, "runs"], env=env_without_db())
    assert none.returncode == 2 and "XFBTRACE_DB" in none.stderr


@pytest.mark.parametrize("content", [b"", b"hello, not a database\n" * 50], ids=["empty", "text"])
def test_readers_never_turn_a_file_into_a_database(xfbtrace, tmp_path, content):
    f = tmp_path / "x.db"
    f.write_bytes(content)
    for argv in (["runs", "--db", f], ["diff", "--db", f, "1", "2"],
                 ["regs", "--db", f, "1", "1"], ["bisect", "--db", f, "--list"]):
        out = run([xfbtrace, *argv])
        assert out.returncode == 2, (argv, out.stdout, out.stderr)
        assert str(f) in out.stderr and "not an xfbtrace results database" in out.stderr, out.stderr
        assert f.read_bytes() == content
        assert not (tmp_path / "x.db-wal").exists()


def test_a_database_on_read_only_media_can_be_viewed(xfbtrace, setup, tmp_path):
    """A read-only tmpfs in a user + mount namespace (unshare -rm): runs,
    diff and the web UI read a WAL database there, which SQLite cannot open
    read-only without creating its -shm file."""
    require(shutil.which("unshare"), "unshare (util-linux)")
    _, db = setup
    mnt = tmp_path / "ro"
    mnt.mkdir()
    script = (f"mount -t tmpfs none {mnt} && cp {db} {mnt}/r.db && "
              f"mount -o remount,ro {mnt} && "
              f"{xfbtrace} runs --db {mnt}/r.db && {xfbtrace} diff --db {mnt}/r.db 1 3 && "
              f"exec {xfbtrace} web --db {mnt}/r.db --port 0 --timeout 20")
    p = subprocess.Popen(["unshare", "-rm", "sh", "-c", script], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    try:
        port = None
        for line in p.stdout:
            m = re.search(r"serving .* at http://127\.0\.0\.1:(\d+)/", line)
            if m:
                port = int(m.group(1))
                break
        assert port, p.stderr.read() if p.poll() is not None else "no web line"
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/runs", timeout=10) as r:
            runs = __import__("json").loads(r.read())
        assert len(runs["runs"]) == 3
    finally:
        p.terminate()
        p.wait(timeout=30)


@pytest.mark.parametrize("out", ["/proc/x", "missing-dir/t.xfbt"])
def test_capture_to_a_path_it_cannot_write_is_an_error(xfbtrace, build_dir, tmp_path, out):
    """Before: `capture -o /proc/x` reported "made no GL call" and exited 0."""
    path = out if out.startswith("/") else str(tmp_path / out)
    app = build_dir / "tests" / "apps" / "tf-separate-gl33"
    res = run([xfbtrace, "capture", "-o", path, "--", app])
    assert res.returncode == 2, res.stderr
    assert re.search(r"xfbtrace capture: cannot (create|write) " + re.escape(path), res.stderr), res.stderr
    assert "made no GL call" not in res.stderr


def test_capture_on_a_full_disk_is_an_error(xfbtrace, build_dir, tmp_path):
    """A file system that refuses to grow the trace (here the file size
    limit, RLIMIT_FSIZE, which fails the spool's fallocate as a full disk
    does): the capture says the trace is incomplete and why, and exits 2
    (before: an empty 64-byte trace and exit 0)."""
    import resource
    import signal

    def limit():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (64 * 1024, 64 * 1024))

    trace = tmp_path / "full.xfbt"
    app = build_dir / "tests" / "apps" / "tf-separate-gl33"
    res = subprocess.run([str(xfbtrace), "capture", "-o", str(trace), "--", str(app)],
                         capture_output=True, text=True, timeout=120, preexec_fn=limit)
    assert res.returncode == 2, res.stderr
    assert "is incomplete" in res.stderr and "cannot grow the spool" in res.stderr, res.stderr

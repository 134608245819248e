"""Shared fixtures of the integration tests.

These tests run the real `xfbtrace` binary on real GL programs (Mesa
llvmpipe, EGL surfaceless) and real piglit tests.  The build directories come
from the environment that scripts/test.sh sets:

  XFBTRACE_BUILD_DIR      optimised build (capture library, apps, CLI)
  XFBTRACE_SAN_BUILD_DIR  ASan + UBSan build (CLI on hostile input)

Everything the tests run (piglit, apitrace, Chromium, …) is installed by
scripts/setup.sh: a missing tool fails the test that needs it, it is never a
silent skip.

The piglit TF commands are piglit_tf.txt next to this file, made by
scripts/piglit_tf_list.py from the installed piglit.  Each command is
captured at most once per test session (`piglit_trace`), and that one trace
is what the capture, host-replay, database and sim tests read.
"""
import dataclasses
import functools
import importlib.util
import json
import os
import pathlib
import shutil
import subprocess

import pytest

HERE = pathlib.Path(__file__).resolve().parent
PIGLIT_DIR = pathlib.Path("/usr/lib/x86_64-linux-gnu/piglit")
# XFBTRACE_PIGLIT_LIST runs the piglit tests on another list of commands.
PIGLIT_LIST = pathlib.Path(os.environ.get("XFBTRACE_PIGLIT_LIST", HERE / "piglit_tf.txt"))
EGLTRACE = "/usr/lib/x86_64-linux-gnu/apitrace/wrappers/egltrace.so"

MARKERS = {
    "piglit": "one test per line of piglit_tf.txt (or a list derived from it)",
    "sim": "replays on the simulated GPU (driver model + gpu_model)",
    "apitrace": "runs the real apitrace as the reference",
    "browser": "drives a real headless Chromium",
    "godot": "runs Debian's godot3 (tests/apps/godot) under Xvfb",
}


def pytest_configure(config):
    for name, what in MARKERS.items():
        config.addinivalue_line("markers", f"{name}: {what}")


def require(ok, what):
    """Fails (never skips) the calling test when a tool it needs is missing."""
    if not ok:
        pytest.fail(f"{what} is missing: scripts/setup.sh installs it", pytrace=False)


def require_chromium():
    require(shutil.which("chromium") and shutil.which("chromedriver"), "chromium / chromium-driver")


def headless_chromium(height=1000):
    """A Selenium driver of Debian's chromium, headless, 1400 x HEIGHT
    (the web UI's tests); skips where chromium / chromedriver are absent.
    The caller quits it."""
    require_chromium()
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    opts = webdriver.ChromeOptions()
    opts.binary_location = shutil.which("chromium")
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--no-first-run", f"--window-size=1400,{height}", "--no-proxy-server"):
        opts.add_argument(flag)
    return webdriver.Chrome(service=Service(shutil.which("chromedriver")), options=opts)


def require_piglit():
    require((PIGLIT_DIR / "bin").is_dir(), f"piglit ({PIGLIT_DIR})")


def require_apitrace():
    require(os.path.exists(EGLTRACE) and shutil.which("apitrace"), "apitrace (egltrace.so)")


def _build_dir(var):
    value = os.environ.get(var)
    if not value:
        pytest.fail(f"{var} is not set (run scripts/test.sh)", pytrace=False)
    path = pathlib.Path(value)
    if not (path / "build.ninja").exists():
        pytest.fail(f"{var}={value} is not a meson build directory")
    return path


@pytest.fixture(scope="session")
def build_dir():
    return _build_dir("XFBTRACE_BUILD_DIR")


@pytest.fixture(scope="session")
def san_build_dir():
    return _build_dir("XFBTRACE_SAN_BUILD_DIR")


@pytest.fixture(scope="session")
def gl_types(build_dir):
    """The GL type table (specs/glapi_types.h) as the build generated it for
    Python: name -> {"value", "base", "columns", "rows", "components",
    "component_bytes", "tf"}."""
    spec = importlib.util.spec_from_file_location("gltypes", build_dir / "specs" / "gltypes.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.TYPES


NVIDIA_CORPUS = HERE.parent / "data" / "nvidia" / "nvidia-h100-580.159.04.tar.zst"


@pytest.fixture(scope="session")
def nvidia_corpus_root(tmp_path_factory):
    """tests/data/nvidia's corpus, unpacked once per session: the
    nvidia-h100-580.159.04 directory (traces/, logs/, results-*.tsv)."""
    d = tmp_path_factory.mktemp("nvidia")
    subprocess.run(["tar", "-I", "zstd", "-xf", NVIDIA_CORPUS, "-C", str(d)], check=True)
    return d / "nvidia-h100-580.159.04"


@pytest.fixture(scope="session")
def nvidia_corpus(nvidia_corpus_root):
    return nvidia_corpus_root / "traces"


@pytest.fixture(scope="session")
def xfbtrace(build_dir):
    exe = build_dir / "cli" / "xfbtrace"
    assert exe.exists(), f"{exe} was not built"
    return exe


@pytest.fixture(scope="session")
def xfbtrace_san(san_build_dir):
    exe = san_build_dir / "cli" / "xfbtrace"
    assert exe.exists(), f"{exe} was not built"
    return exe


def piglit_env():
    env = dict(os.environ)
    env["PIGLIT_PLATFORM"] = "surfaceless_egl"
    env["PIGLIT_SOURCE_DIR"] = str(PIGLIT_DIR)
    return env


def piglit_command(line):
    """argv for one line of piglit_tf.txt (glslparsertest runs as listed)."""
    words = line.split()
    return [str(PIGLIT_DIR / "bin" / words[0])] + words[1:]


def piglit_result(stdout):
    for text in reversed(stdout.splitlines()):
        if text.startswith("PIGLIT: "):
            return json.loads(text[len("PIGLIT: "):])["result"]
    return None


def run(argv, timeout=300, **kw):
    """subprocess.run with text output, captured, and a hard timeout."""
    return subprocess.run([str(a) for a in argv], capture_output=True, text=True,
                          timeout=timeout, **kw)


def describe(out):
    return (f"exit {out.returncode}\n--- stdout ---\n{out.stdout[-4000:]}\n"
            f"--- stderr ---\n{out.stderr[-2000:]}")


@functools.lru_cache(maxsize=None)
def coverage_rules():
    """scripts/sim_coverage.py, whose rule says which replay output lines
    fail a line (a difference, a replay-only error, a call not replayed
    that can change what --check compares), so that docs/status.md's counts
    and the tests agree on what "replays equal" means."""
    import importlib.util
    path = HERE.parents[1] / "scripts" / "sim_coverage.py"
    spec = importlib.util.spec_from_file_location("sim_coverage", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def calls_not_replayed_that_matter(out):
    """Output lines of a replay naming a call it did not replay that can
    change what --check compares."""
    return [l for l in coverage_rules().blocking(out) if ": not replayed" in l]


def piglit_tf_lines():
    if not PIGLIT_LIST.exists():
        raise FileNotFoundError(f"{PIGLIT_LIST} is missing (scripts/piglit_tf_list.py makes it)")
    return [l.strip() for l in PIGLIT_LIST.read_text().splitlines()
            if l.strip() and not l.startswith("#")]


def piglit_line(command):
    """The line of piglit_tf.txt that runs `command` (a test names the
    commands it needs; one that left the list fails the test, not the
    collection)."""
    lines = piglit_tf_lines()
    if command not in lines:
        pytest.fail(f"{command!r} is not in {PIGLIT_LIST.name}: it no longer passes on "
                    "llvmpipe, or the installed piglit lacks it", pytrace=False)
    return command


@dataclasses.dataclass(frozen=True)
class PiglitCapture:
    line: str
    trace: pathlib.Path
    out: subprocess.CompletedProcess

    @property
    def result(self):
        return piglit_result(self.out.stdout)

    def describe(self):
        return f"{self.line}: capture {describe(self.out)}"


@pytest.fixture(scope="session")
def piglit_trace(xfbtrace, tmp_path_factory):
    """piglit_trace(line) -> PiglitCapture: `xfbtrace capture` of one piglit
    command, made once per session.  The trace is shared: read it, never
    write it (copy it first)."""
    root = tmp_path_factory.mktemp("piglit-traces")
    cache = {}

    def capture(line):
        if line not in cache:
            require_piglit()
            trace = root / f"{len(cache):04d}.xfbt"
            out = run([xfbtrace, "capture", "-o", trace, "--", *piglit_command(line)],
                      env=piglit_env(), cwd=PIGLIT_DIR, timeout=600)
            cache[line] = PiglitCapture(line, trace, out)
        cap = cache[line]
        assert cap.trace.exists(), f"capture wrote no trace\n{cap.describe()}"
        return cap

    return capture


# ---- results stores: an SQLite file, or a database on a real PostgreSQL server

@pytest.fixture(scope="session")
def pg_server():
    """One PostgreSQL server per session (pgserver.py); stopped at the end."""
    from pgserver import Server
    server = Server()
    yield server
    server.stop()


@pytest.fixture
def pg_url(pg_server):
    """A fresh, empty PostgreSQL database of its own for one test."""
    return pg_server.url(pg_server.new_database())


class SqliteStore:
    engine = "sqlite"

    def __init__(self, tmp_path):
        self.db = str(tmp_path / "store.db")

    def query(self, sql):
        import sqlite3
        with sqlite3.connect(self.db) as c:
            return c.execute(sql).fetchall()

    def has_schema(self):
        return os.path.exists(self.db) and bool(
            self.query("SELECT 1 FROM sqlite_schema WHERE name = 'runs'"))


class PgStore:
    engine = "postgresql"

    def __init__(self, server):
        self.server = server
        self.name = server.new_database()
        self.db = server.url(self.name)

    def query(self, sql):
        from pgserver import rows
        return rows(self.server.psql(sql, self.name))

    def has_schema(self):
        return bool(self.query("SELECT 1 FROM pg_tables WHERE tablename = 'runs'"
                               " AND schemaname = current_schema()"))


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request, tmp_path):
    """The results store of a test, once on each engine: .db is what --db
    takes, .query(sql) reads it directly (rows as tuples)."""
    if request.param == "sqlite":
        return SqliteStore(tmp_path)
    return PgStore(request.getfixturevalue("pg_server"))

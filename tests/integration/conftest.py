"""Shared fixtures of the integration tests.

These tests run the real `xfbtrace` binary on real GL programs (Mesa
llvmpipe, EGL surfaceless) and real piglit tests.  The build directories come
from the environment that scripts/test.sh sets:

  XFBTRACE_BUILD_DIR      optimised build (capture library, apps, CLI)
  XFBTRACE_SAN_BUILD_DIR  ASan + UBSan build (CLI on hostile input)
"""
import os
import pathlib
import subprocess

import pytest

PIGLIT_DIR = pathlib.Path("/usr/lib/x86_64-linux-gnu/piglit")
SHARED_DIR = pathlib.Path(__file__).resolve().parents[3] / "shared"


def _build_dir(var):
    value = os.environ.get(var)
    if not value:
        pytest.skip(f"{var} is not set (run scripts/test.sh)")
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
    """argv for one line of piglit-tf.txt (glslparsertest runs as listed)."""
    words = line.split()
    return [str(PIGLIT_DIR / "bin" / words[0])] + words[1:]


def piglit_result(stdout):
    for text in reversed(stdout.splitlines()):
        if text.startswith("PIGLIT: "):
            import json
            return json.loads(text[len("PIGLIT: "):])["result"]
    return None


def run(argv, timeout=300, **kw):
    """subprocess.run with text output, captured, and a hard timeout."""
    return subprocess.run([str(a) for a in argv], capture_output=True, text=True,
                          timeout=timeout, **kw)


def piglit_tf_lines():
    path = SHARED_DIR / "piglit-tf.txt"
    return [l.strip() for l in path.read_text().splitlines() if l.strip()]

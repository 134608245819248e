"""`meson install` gives a working toolkit, wherever the install is put.

The build directory is installed with DESTDIR into a temporary stage (its
prefix, /usr/local by default, under it) and the installed `xfbtrace` is run
from there, then from another folder the prefix is moved to (as an install
with another --prefix would be): `xfbtrace capture` must preload the
INSTALLED capture library, found relative to its own path, never the build
tree's, and capture, info, dump and replay must work from the install.

Which library a capture preloads is read from the process it runs
(/proc/self/maps of `cat` run under `xfbtrace capture`) and from its
XFBTRACE_LOG=info line, so a lookup that fell back on the build tree, or on
the configured prefix, fails these tests.
"""
import json
import os
import pathlib
import shutil

import pytest

from conftest import run
from tracefile import calls, observations, records

LIB = "libxfbtrace-capture.so"
APP = "tf-particles-gles3"


def clean_env(**extra):
    """The environment without anything that would choose the library."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("XFBTRACE_CAPTURE_LIB", "LD_PRELOAD", "XFBTRACE_LOG")}
    env.update(extra)
    return env


def installed_paths(build_dir):
    """Build-tree file -> absolute install path, as meson will install them."""
    info = build_dir / "meson-info" / "intro-installed.json"
    return {pathlib.Path(k): pathlib.Path(v) for k, v in json.loads(info.read_text()).items()}


def configured_prefix(build_dir):
    opts = json.loads((build_dir / "meson-info" / "intro-buildoptions.json").read_text())
    return pathlib.Path(next(o["value"] for o in opts if o["name"] == "prefix"))


class Install:
    """An installed tree: its prefix folder, binary and capture library."""

    def __init__(self, root, prefix, exe_rel, lib_rel):
        self.prefix = root / prefix.relative_to("/")
        self.exe_rel, self.lib_rel = exe_rel, lib_rel

    def moved_to(self, new_prefix):
        shutil.move(self.prefix, new_prefix)
        self.prefix = new_prefix
        return self

    @property
    def exe(self):
        return self.prefix / self.exe_rel

    @property
    def lib(self):
        return self.prefix / self.lib_rel


@pytest.fixture(scope="module")
def staged(build_dir, tmp_path_factory):
    """`meson install --destdir` of the build directory into a fresh stage."""
    installed = installed_paths(build_dir)
    exe = [v for k, v in installed.items() if k == build_dir / "cli" / "xfbtrace"]
    lib = [v for k, v in installed.items() if k.name == LIB]
    assert exe, "meson install does not install cli/xfbtrace"
    assert lib, f"meson install does not install {LIB}"
    prefix = configured_prefix(build_dir)

    stage = tmp_path_factory.mktemp("stage")
    out = run(["meson", "install", "-C", build_dir, "--no-rebuild", "--quiet",
               "--destdir", stage], timeout=120)
    assert out.returncode == 0, f"meson install failed:\n{out.stdout}\n{out.stderr}"
    inst = Install(stage, prefix, exe[0].relative_to(prefix), lib[0].relative_to(prefix))
    assert inst.exe.is_file() and os.access(inst.exe, os.X_OK), inst.exe
    assert inst.lib.is_file(), inst.lib
    return stage, inst


def preloaded_libs(inst, tmp_path, env=None):
    """Real paths of the capture libraries mapped into a program that the
    installed `xfbtrace capture` runs (`cat /proc/self/maps`)."""
    out = run([inst.exe, "capture", "-o", tmp_path / "maps.xfbt", "--", "cat", "/proc/self/maps"],
              env=env or clean_env(), timeout=60)
    # cat makes no GL call, which `xfbtrace capture` reports with status 2
    assert out.returncode == 2 and "no trace written" in out.stderr, \
        f"capture of cat exited {out.returncode}: {out.stderr}"
    return {os.path.realpath(line.split(None, 5)[5]) for line in out.stdout.splitlines()
            if len(line.split(None, 5)) == 6 and line.split(None, 5)[5].endswith("/" + LIB)}


def check_capture_uses_install(inst, build_dir, tmp_path):
    """Captures the sample app with the installed CLI: the installed library,
    TF observations in the trace, readable by the installed info / dump."""
    lib = os.path.realpath(inst.lib)
    assert preloaded_libs(inst, tmp_path) == {lib}, \
        f"not (only) the installed {lib} was preloaded"

    trace = tmp_path / "t.xfbt"
    app = build_dir / "tests" / "apps" / APP
    assert app.exists(), f"{app} was not built"
    out = run([inst.exe, "capture", "-o", trace, "--", app],
              env=clean_env(XFBTRACE_LOG="info"), timeout=120)
    assert out.returncode == 0, f"capture exited {out.returncode}: {out.stderr}"
    preloading = [l.split("preloading ", 1)[1] for l in out.stderr.splitlines() if "preloading " in l]
    assert preloading == [lib], out.stderr

    info = run([inst.exe, "info", trace], env=clean_env(), timeout=60)
    assert info.returncode == 0, info.stderr
    recs = records(inst.exe, trace)
    ending = {c["no"] for c in calls(recs)
              if c["name"] in ("glEndTransformFeedback", "glPauseTransformFeedback")}
    tf_obs = observations(recs, "tf_buffer")
    assert ending and tf_obs and {o["call"] for o in tf_obs} == ending
    return trace


def test_install_puts_only_the_toolkit_in_place(staged, build_dir):
    """The CLI and the capture library; no static module library, test
    program, benchmark or test shim."""
    stage, inst = staged
    files = [p for p in stage.rglob("*") if p.is_file() or p.is_symlink()]
    names = {p.name for p in files}
    assert not [p for p in files if p.suffix == ".a"], files
    built = {p.name for sub in ("tests", "bench") for p in (build_dir / sub).rglob("*")
             if p.is_file() and (os.access(p, os.X_OK) or p.suffix == ".so")}
    assert not names & built, f"test / bench files installed: {names & built}"
    assert {inst.exe, inst.lib} <= set(files)


def test_staged_install_captures_and_replays_with_its_own_library(staged, build_dir, tmp_path):
    _, inst = staged
    help_ = run([inst.exe, "--help"], env=clean_env(), timeout=30)
    assert help_.returncode == 0 and "capture" in help_.stdout, help_.stderr
    trace = check_capture_uses_install(inst, build_dir, tmp_path)
    out = run([inst.exe, "replay", "--check", trace], env=clean_env(), timeout=120)
    assert out.returncode == 0, f"replay --check exited {out.returncode}:\n{out.stdout}\n{out.stderr}"


def test_moved_install_finds_the_library_where_it_now_lies(staged, build_dir, tmp_path):
    """As an install with another --prefix: the same tree under another
    folder, the stage's copy gone."""
    stage, inst = staged
    moved = inst.moved_to(tmp_path / "opt" / "xfbtrace-moved")
    try:
        assert not (stage / configured_prefix(build_dir).relative_to("/")).exists()
        # --help names where it looks, and the first place is the library.
        out = run([moved.exe, "capture", "--help"], env=clean_env(), timeout=30)
        assert out.returncode == 0, out.stderr
        first = next(l.split()[0] for l in out.stdout.splitlines() if l.strip().endswith("(installed)"))
        assert os.path.realpath(first) == os.path.realpath(moved.lib), out.stdout
        check_capture_uses_install(moved, build_dir, tmp_path)
    finally:
        moved.moved_to(stage / configured_prefix(build_dir).relative_to("/"))


def test_capture_lib_variable_overrides_the_install(staged, tmp_path):
    _, inst = staged
    copy = tmp_path / "elsewhere" / LIB
    copy.parent.mkdir()
    shutil.copy2(inst.lib, copy)
    assert preloaded_libs(inst, tmp_path, clean_env(XFBTRACE_CAPTURE_LIB=str(copy))) == \
        {os.path.realpath(copy)}
    out = run([inst.exe, "capture", "--", "true"],
              env=clean_env(XFBTRACE_CAPTURE_LIB=str(tmp_path / "missing.so")), timeout=30)
    assert out.returncode == 2 and "XFBTRACE_CAPTURE_LIB=" in out.stderr, out.stderr


def test_install_without_its_library_says_where_it_looked(staged, build_dir, tmp_path):
    """Never the build tree's library: without the installed one, capture
    fails and names the places it looked."""
    _, inst = staged
    exe = tmp_path / "bin" / "xfbtrace"
    exe.parent.mkdir()
    shutil.copy2(inst.exe, exe)
    configured = configured_prefix(build_dir) / inst.lib_rel
    if configured.exists():
        pytest.skip(f"{configured} exists: the last-resort lookup would find it")
    out = run([exe, "capture", "-o", tmp_path / "t.xfbt", "--", "true"], env=clean_env(), timeout=30)
    assert out.returncode == 2, out.stderr
    assert f"cannot find {LIB}" in out.stderr, out.stderr
    # Relative to itself (installed, then build tree), then the configured prefix.
    assert f"{exe.parent}/{os.path.relpath(inst.lib, inst.exe.parent)}" in out.stderr, out.stderr
    assert f"{exe.parent}/../capture/{LIB}" in out.stderr, out.stderr
    assert str(configured) in out.stderr and "XFBTRACE_CAPTURE_LIB" in out.stderr, out.stderr

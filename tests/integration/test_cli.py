"""The xfbtrace program itself: --version, --help, unknown commands."""
import re
import subprocess

from conftest import run


def test_version_prints_revision(xfbtrace):
    out = run([xfbtrace, "--version"])
    assert out.returncode == 0
    assert re.match(r"xfbtrace \d+\.\d+\.\d+ \(revision \S+\)", out.stdout), out.stdout
    git = subprocess.run(["git", "describe", "--always", "--dirty", "--tags"],
                         capture_output=True, text=True, cwd=xfbtrace.parents[2])
    if git.returncode == 0:
        # The build's revision is the source tree's `git describe`, minus a
        # "-dirty" that may have appeared after the build.
        assert git.stdout.strip().replace("-dirty", "") in out.stdout


def test_help_lists_only_working_commands(xfbtrace):
    out = run([xfbtrace, "--help"])
    assert out.returncode == 0
    commands = out.stdout.split("commands:\n", 1)[1].split("\n\n", 1)[0]
    listed = re.findall(r"^  (\w[\w-]*) ", commands, re.M)
    assert {"capture", "dump", "info"} <= set(listed)
    for cmd in listed:
        sub = run([xfbtrace, cmd, "--help"])
        assert sub.returncode == 0, f"{cmd} --help failed: {sub.stderr}"
        assert "usage: xfbtrace " + cmd in sub.stdout


def test_unknown_command_is_an_error(xfbtrace):
    out = run([xfbtrace, "frobnicate"])
    assert out.returncode == 2
    assert "'frobnicate' is not a command" in out.stderr


def test_missing_file_is_a_clear_error(xfbtrace, tmp_path):
    for cmd in ("dump", "info"):
        out = run([xfbtrace, cmd, tmp_path / "nope.xfbt"])
        assert out.returncode == 2
        assert "nope.xfbt" in out.stderr
        assert "No such file" in out.stderr


def test_bad_call_range_is_rejected(xfbtrace, tmp_path):
    out = run([xfbtrace, "dump", "--calls", "9-3", tmp_path / "x.xfbt"])
    assert out.returncode == 2
    assert "bad call range" in out.stderr


def test_dump_names_return_values_by_their_enum_group(xfbtrace, build_dir, tmp_path):
    """glGetError's 0 is GL_NO_ERROR (group ErrorCode), not the first enum
    valued 0 (GL_FALSE); glCheckFramebufferStatus uses FramebufferStatus."""
    import json
    trace = tmp_path / "t.xfbt"
    app = build_dir / "tests" / "apps" / "tf-separate-gl33"
    assert run([xfbtrace, "capture", "-o", trace, "--", app]).returncode == 0
    out = run([xfbtrace, "dump", "--format", "jsonl", trace])
    assert out.returncode == 0, out.stderr
    calls = [json.loads(l) for l in out.stdout.splitlines() if '"type":"call"' in l]
    errors = [c["ret"] for c in calls if c["name"] == "glGetError"]
    assert errors and set(errors) == {"GL_NO_ERROR"}, errors
    text = run([xfbtrace, "dump", trace]).stdout
    assert "glGetError() = GL_NO_ERROR" in text and "glGetError() = GL_FALSE" not in text
    # EGLint parameters that name an attribute print as EGL enums in text
    assert "eglQueryString(dpy = 0x0, name = EGL_EXTENSIONS)" in text, text[:2000]

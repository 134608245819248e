"""End-to-end checks of the sample transform feedback programs in tests/apps.

Each program compares its own TF output with a CPU reference and exits
0 (pass), 1 (mismatch), 2 (setup error) or 77 (feature unsupported).  These
tests run the built programs on the system GL (Mesa llvmpipe here) and make
sure that they pass, that --perturb really makes their self-check fail, and
that --dump-readback writes a well-formed file holding the bytes read back.

The build directory comes from XFBTRACE_BUILD_DIR (a meson build dir); the
module is skipped when it is unset.
"""

import os
import struct
import subprocess
from pathlib import Path

import pytest

BUILD_DIR = os.environ.get("XFBTRACE_BUILD_DIR")
if not BUILD_DIR:
    pytest.skip("XFBTRACE_BUILD_DIR is not set (path of a meson build dir "
                "with tests/apps built)", allow_module_level=True)

APPS = ["tf-particles-gles3", "tf-separate-gl33", "tf-streams-gl40"]
SENTINEL = 0xDEADBEEF
EXIT_SKIP = 77


def app_path(name):
    path = Path(BUILD_DIR) / "tests" / "apps" / name
    if not path.is_file():
        pytest.fail(f"{path} does not exist: build it with ninja -C {BUILD_DIR}")
    return path


def run_app(name, *args):
    """Runs an app in a plain environment; skips the test on exit code 77.

    LeakSanitizer is switched off: in sanitizer builds the GL driver's own
    leaks at exit would otherwise change the exit code."""
    env = dict(os.environ)
    env.pop("LD_PRELOAD", None)
    asan = env.get("ASAN_OPTIONS")
    env["ASAN_OPTIONS"] = (asan + ":" if asan else "") + "detect_leaks=0"
    proc = subprocess.run([str(app_path(name)), *args], env=env,
                          capture_output=True, text=True, timeout=120)
    if proc.returncode == EXIT_SKIP:
        pytest.skip(f"{name}: required GL feature unsupported: "
                    f"{proc.stdout.strip()} {proc.stderr.strip()}")
    return proc


def describe(proc):
    return (f"exit code {proc.returncode}\n--- stdout ---\n{proc.stdout}"
            f"--- stderr ---\n{proc.stderr}")


def read_dump(path):
    """Parses a --dump-readback file into a list of byte strings."""
    data = Path(path).read_bytes()
    records = []
    pos = 0
    while pos < len(data):
        assert pos + 4 <= len(data), f"truncated length field at byte {pos}"
        (length,) = struct.unpack_from("<I", data, pos)
        pos += 4
        assert pos + length <= len(data), (
            f"record {len(records)} claims {length} bytes, "
            f"only {len(data) - pos} left")
        records.append(data[pos:pos + length])
        pos += length
    return records


@pytest.mark.parametrize("name", APPS)
def test_app_passes_its_self_check(name):
    proc = run_app(name)
    assert proc.returncode == 0, describe(proc)
    assert "PASS " in proc.stdout, describe(proc)
    assert "FAIL " not in proc.stdout, describe(proc)
    assert " 0 failed" in proc.stdout, describe(proc)


@pytest.mark.parametrize("name", APPS)
def test_app_fails_with_perturbed_reference(name):
    proc = run_app(name, "--perturb")
    assert proc.returncode == 1, describe(proc)
    assert "FAIL " in proc.stdout, describe(proc)


@pytest.mark.parametrize("name", APPS)
def test_app_rejects_unknown_option(name):
    proc = run_app(name, "--no-such-option")
    assert proc.returncode == 2, describe(proc)
    assert "usage:" in proc.stderr, describe(proc)


@pytest.mark.parametrize("name", APPS)
def test_app_dump_is_well_formed(name, tmp_path):
    dump = tmp_path / "readback.bin"
    proc = run_app(name, "--dump-readback", str(dump))
    assert proc.returncode == 0, describe(proc)
    records = read_dump(dump)
    assert records, f"{name} wrote no read-back records"
    for i, rec in enumerate(records):
        assert len(rec) > 0 and len(rec) % 4 == 0, (
            f"record {i} has {len(rec)} bytes")


def test_particles_dump_holds_the_particles_read_back(tmp_path):
    """Three frames = three read-backs of 64 particles (2 x vec4 each); the
    ids (velocity w) come back in vertex order and ages are whole frames."""
    dump = tmp_path / "particles.bin"
    proc = run_app("tf-particles-gles3", "--frames", "3",
                   "--dump-readback", str(dump))
    assert proc.returncode == 0, describe(proc)
    records = read_dump(dump)
    assert [len(r) for r in records] == [64 * 32] * 3
    for frame, rec in enumerate(records):
        floats = struct.unpack(f"<{64 * 8}f", rec)
        ids = [floats[p * 8 + 7] for p in range(64)]
        ages = [floats[p * 8 + 3] for p in range(64)]
        assert ids == [float(p) for p in range(64)], f"frame {frame}: ids {ids}"
        assert all(a == int(a) and 0 <= a < 6 for a in ages), (
            f"frame {frame}: ages {ages}")


def test_streams_dump_keeps_skipped_components(tmp_path):
    """gl_SkipComponents words and the bytes outside the stream 1 range keep
    the sentinel the program filled the buffers with."""
    dump = tmp_path / "streams.bin"
    proc = run_app("tf-streams-gl40", "--dump-readback", str(dump))
    assert proc.returncode == 0, describe(proc)
    buf0, buf1 = read_dump(dump)
    words0 = struct.unpack(f"<{len(buf0) // 4}I", buf0)
    words1 = struct.unpack(f"<{len(buf1) // 4}I", buf1)
    assert len(words0) == 20 * 8 and len(words1) == 6 * 5
    for rec in range(18):
        skipped = [words0[rec * 8 + k] for k in (4, 5, 7)]
        assert skipped == [SENTINEL] * 3, f"buffer 0 record {rec}: {skipped}"
        assert words0[rec * 8 + 6] == (rec // 3) * 4 + rec % 3
    for rec in range(6):
        written = rec in (1, 2)
        words = words1[rec * 5:rec * 5 + 5]
        assert words[0] == SENTINEL, f"buffer 1 record {rec}: skip 1 written"
        assert (words[1:] != (SENTINEL,) * 4) == written, (
            f"buffer 1 record {rec}: {[hex(w) for w in words]}")
